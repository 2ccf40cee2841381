/*
 * The compute part of the assembler (docs/COMPUTE.md): compute programs'
 * declarations and inputs, labels, and the operands of the memory,
 * barrier and branch instructions.  Grammar, after NV_compute_program5
 * and NV_gpu_program5 (KhronosGroup/OpenGL-Registry extensions/NV/):
 *
 *   declaration ::= "GROUP_SIZE" int [ int [ int ] ] | "SHARED_MEMORY" int
 *   attribBinding ::= "invocation" "." ( "globalid" | "localid" |
 *                     "groupid" | "groupcount" | "groupsize" |
 *                     "localindex" )
 *   label       ::= identifier ":"
 *   LOAD  "." type  dst "," addr [ "," "buffer" "[" n "]" ]  (LDS: none)
 *   STORE "." type  space mask "," addr "," value
 *   ATOM  "." op "." type  dst "," addr "," [ compare "," ] value
 *                          [ "," "buffer" "[" n "]" ]        (ATOMS: none)
 *   BAR | MEMBAR
 *   BRA label | BRA "." cond "." sign label "," scalar "," scalar
 *
 * where space is "buffer" "[" n "]" (STORE) or "shared" (STS), type one of
 * U8 S8 U16 S16 U32 S32, op one of ADD MIN MAX AND OR XOR EXCH CSWAP (on
 * U32 or S32), cond one of EQ NE LT LE GT GE and sign S or U.
 */
#include <string.h>

#include "asm/asm_internal.h"

static const char *const cond_names[] = { "EQ", "NE", "LT", "LE", "GT", "GE" };

static int find_word(const struct token *t, const char *const *words,
                     unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (asm_is_word(t, words[i]))
            return (int)i;
    return -1;
}

/* An integer statement argument in [lo, hi]. */
static bool parse_count(struct asm_ctx *c, uint32_t lo, uint32_t hi,
                        const char *what, uint32_t *out)
{
    uint32_t v;
    struct token at = c->tok;
    if (!asm_int_literal(c, &at, &v))
        return false;
    if (v < lo || v > hi)
        return asm_error(c, &at, "%s must be %u..%u", what, lo, hi);
    *out = v;
    return asm_next(c);
}

bool asm_parse_group_size(struct asm_ctx *c)
{
    struct token at = c->tok;
    if (c->declared_group)
        return asm_error(c, &at, "GROUP_SIZE declared twice");
    c->declared_group = true;
    if (!asm_next(c))
        return false;
    uint32_t total = 1;
    for (int d = 0; d < 3; d++) {
        if (d > 0 && c->tok.kind != TOK_INT)
            break;
        uint32_t v;
        if (!parse_count(c, 1, US_MAX_GROUP_INVOCATIONS, "a GROUP_SIZE", &v))
            return false;
        c->prog.group_size[d] = (uint16_t)v;
        total *= v;
    }
    if (total > US_MAX_GROUP_INVOCATIONS)
        return asm_error(c, &at, "GROUP_SIZE of %u invocations (limit %d)",
                         total, US_MAX_GROUP_INVOCATIONS);
    return true;
}

bool asm_parse_shared_memory(struct asm_ctx *c)
{
    struct token at = c->tok;
    if (c->declared_shared)
        return asm_error(c, &at, "SHARED_MEMORY declared twice");
    c->declared_shared = true;
    uint32_t v;
    if (!asm_next(c) ||
        !parse_count(c, 0, US_MAX_SHARED_BYTES, "SHARED_MEMORY", &v))
        return false;
    c->prog.shared_bytes = v;
    return true;
}

bool parse_invocation_binding(struct asm_ctx *c, unsigned *slot)
{
    static const char *const items[US_CIN_COUNT] = {
        "globalid", "localid", "groupid", "groupcount", "groupsize",
        "localindex"
    };
    if (!asm_next(c) || !asm_expect(c, '.'))
        return false;
    int i = find_word(&c->tok, items, US_CIN_COUNT);
    if (i < 0) {
        char buf[64];
        return asm_error(c, &c->tok, "invalid compute program input "
                         "invocation.%s",
                         asm_describe(&c->tok, buf, sizeof buf));
    }
    *slot = (unsigned)i;
    return asm_next(c);
}

static const struct asm_label *find_label(const struct asm_ctx *c,
                                          const struct token *name)
{
    for (unsigned i = 0; i < c->nlabels; i++)
        if (c->labels[i].name.len == name->len &&
            !memcmp(c->labels[i].name.text, name->text, name->len))
            return &c->labels[i];
    return NULL;
}

bool asm_parse_label(struct asm_ctx *c)
{
    struct token name = c->tok;
    char buf[64];
    if (!(c->prog.options & US_OPT_USHADER_EXTENSIONS))
        return asm_error(c, &name, "labels need OPTION USHADER_extensions");
    if (asm_is_reserved(c, &name) || asm_sym_find(c, name.text, name.len) >= 0)
        return asm_error(c, &name, "%s cannot be a label: it names something "
                         "else", asm_describe(&name, buf, sizeof buf));
    if (find_label(c, &name))
        return asm_error(c, &name, "label %s defined twice",
                         asm_describe(&name, buf, sizeof buf));
    if (c->joined)
        return asm_error(c, &name, "a label cannot split a '|' group");
    if (!asm_grow((void **)&c->labels, &c->cap_labels, c->nlabels,
                  sizeof *c->labels))
        return asm_error(c, &name, "out of memory");
    c->labels[c->nlabels++] = (struct asm_label){ name, c->prog.ninsts };
    return asm_next(c) && asm_expect(c, ':');
}

bool asm_resolve_labels(struct asm_ctx *c)
{
    for (unsigned i = 0; i < c->nfixups; i++) {
        const struct asm_fixup *f = &c->fixups[i];
        const struct asm_label *l = find_label(c, &f->name);
        if (!l) {
            char buf[64];
            return asm_error(c, &f->name, "undefined label %s",
                             asm_describe(&f->name, buf, sizeof buf));
        }
        c->prog.insts[f->inst].target = (uint16_t)l->pc;
    }
    return true;
}

/* Exactly `want` modifiers, or an error naming the instruction. */
static bool modifier_count(struct asm_ctx *c, const struct us_inst *inst,
                           const struct token *mods, unsigned nmods,
                           unsigned want, const char *what)
{
    if (nmods == want)
        return true;
    const struct token *at = nmods > want ? &mods[want] : &c->mnemonic;
    return asm_error(c, at, "%s needs %s", us_ops[inst->op].name, what);
}

static bool parse_mtype(struct asm_ctx *c, const struct token *t, bool atomic,
                        uint8_t *out)
{
    int m = find_word(t, us_mtype_names, US_MT_COUNT);
    char buf[64];
    if (m < 0)
        return asm_error(c, t, "unknown access type %s (U8 S8 U16 S16 U32 "
                         "S32)", asm_describe(t, buf, sizeof buf));
    if (atomic && m != US_MT_U32 && m != US_MT_S32)
        return asm_error(c, t, "atomics work on U32 or S32, not %s",
                         asm_describe(t, buf, sizeof buf));
    *out = (uint8_t)m;
    return true;
}

/* ", buffer[n]" of LOAD STORE ATOM; the binding goes to tex_unit. */
static bool parse_buffer(struct asm_ctx *c, struct us_inst *inst)
{
    unsigned n;
    if (!asm_expect_word(c, "buffer") ||
        !parse_bracket_index(c, US_MAX_BUFFERS, "buffer", &n))
        return false;
    inst->tex_unit = (uint8_t)n;
    c->prog.buffers_used |= 1u << n;
    return true;
}

static bool is_shared(const struct us_inst *inst)
{
    return inst->op == US_OP_LDS || inst->op == US_OP_STS ||
           inst->op == US_OP_ATOMS;
}

static bool parse_load(struct asm_ctx *c, struct us_inst *inst)
{
    if (!parse_dst(c, &inst->dst) || !asm_expect(c, ',') ||
        !parse_src(c, SRC_VECTOR, &inst->src[0]))
        return false;
    return is_shared(inst) || (asm_expect(c, ',') && parse_buffer(c, inst));
}

static bool parse_store(struct asm_ctx *c, struct us_inst *inst)
{
    inst->dst.file = US_FILE_NULL;
    if (is_shared(inst)) {
        if (!asm_expect_word(c, "shared"))
            return false;
    } else if (!parse_buffer(c, inst)) {
        return false;
    }
    return parse_mask(c, &inst->dst.mask) && asm_expect(c, ',') &&
           parse_src(c, SRC_VECTOR, &inst->src[0]) && asm_expect(c, ',') &&
           parse_src(c, SRC_VECTOR, &inst->src[1]);
}

/* ATOM's sources: src0 the address, src1 the value, src2 CSWAP's
 * compare (written before the value, as atomicCompSwap has it). */
static bool parse_atom(struct asm_ctx *c, struct us_inst *inst)
{
    if (!parse_dst(c, &inst->dst) || !asm_expect(c, ',') ||
        !parse_src(c, SRC_VECTOR, &inst->src[0]) || !asm_expect(c, ','))
        return false;
    if (inst->sub == US_ATOM_CSWAP &&
        (!parse_src(c, SRC_VECTOR, &inst->src[2]) || !asm_expect(c, ',')))
        return false;
    if (!parse_src(c, SRC_VECTOR, &inst->src[1]))
        return false;
    return is_shared(inst) || (asm_expect(c, ',') && parse_buffer(c, inst));
}

static bool parse_bra(struct asm_ctx *c, struct us_inst *inst,
                      const struct token *mods, unsigned nmods)
{
    char buf[64];
    inst->dst.file = US_FILE_NULL;
    inst->sub = US_COND_ALWAYS;
    if (nmods) {
        if (!modifier_count(c, inst, mods, nmods, 2,
                            "a condition and a sign (BRA.LT.S)"))
            return false;
        int k = find_word(&mods[0], cond_names, 6);
        bool s = asm_is_word(&mods[1], "S"), u = asm_is_word(&mods[1], "U");
        if (k < 0)
            return asm_error(c, &mods[0], "unknown branch condition %s (EQ NE "
                             "LT LE GT GE)",
                             asm_describe(&mods[0], buf, sizeof buf));
        if (!s && !u)
            return asm_error(c, &mods[1], "expected S or U, found %s",
                             asm_describe(&mods[1], buf, sizeof buf));
        static const uint8_t conds[6][2] = {
            { US_COND_EQ, US_COND_EQ }, { US_COND_NE, US_COND_NE },
            { US_COND_LT_S, US_COND_LT_U }, { US_COND_LE_S, US_COND_LE_U },
            { US_COND_GT_S, US_COND_GT_U }, { US_COND_GE_S, US_COND_GE_U },
        };
        inst->sub = conds[k][u];
    }
    struct token name = c->tok;
    if (name.kind != TOK_IDENT)
        return asm_error(c, &name, "expected a label, found %s",
                         asm_describe(&name, buf, sizeof buf));
    if (!asm_grow((void **)&c->fixups, &c->cap_fixups, c->nfixups,
                  sizeof *c->fixups))
        return asm_error(c, &name, "out of memory");
    c->fixups[c->nfixups++] = (struct asm_fixup){ name, c->prog.ninsts - 1 };
    if (!asm_next(c))
        return false;
    if (inst->sub == US_COND_ALWAYS)
        return true;
    return asm_expect(c, ',') && parse_src(c, SRC_SCALAR, &inst->src[0]) &&
           asm_expect(c, ',') && parse_src(c, SRC_SCALAR, &inst->src[1]);
}

bool asm_parse_compute_inst(struct asm_ctx *c, struct us_inst *inst,
                            const struct token *mods, unsigned nmods)
{
    switch (us_ops[inst->op].format) {
    case US_FMT_LOAD:
        return modifier_count(c, inst, mods, nmods, 1, "an access type "
                              "(LOAD.U32)") &&
               parse_mtype(c, &mods[0], false, &inst->mtype) &&
               parse_load(c, inst);
    case US_FMT_STORE:
        return modifier_count(c, inst, mods, nmods, 1, "an access type "
                              "(STORE.U32)") &&
               parse_mtype(c, &mods[0], false, &inst->mtype) &&
               parse_store(c, inst);
    case US_FMT_ATOM: {
        if (!modifier_count(c, inst, mods, nmods, 2, "an operation and an "
                            "access type (ATOM.ADD.U32)"))
            return false;
        int a = find_word(&mods[0], us_atom_names, US_ATOM_COUNT);
        if (a < 0) {
            char buf[64];
            return asm_error(c, &mods[0], "unknown atomic operation %s (ADD "
                             "MIN MAX AND OR XOR EXCH CSWAP)",
                             asm_describe(&mods[0], buf, sizeof buf));
        }
        inst->sub = (uint8_t)a;
        return parse_mtype(c, &mods[1], true, &inst->mtype) &&
               parse_atom(c, inst);
    }
    case US_FMT_BAR:
        inst->dst.file = US_FILE_NULL;
        return modifier_count(c, inst, mods, nmods, 0, "no modifiers");
    case US_FMT_BRA:
        return parse_bra(c, inst, mods, nmods);
    default:
        return asm_error(c, &c->tok, "internal error: %s is no compute "
                         "instruction", us_ops[inst->op].name);
    }
}
