/*
 * The ARB_vertex_program / ARB_fragment_program 1.0 assembler: program,
 * options, statements, declarations and instructions (operands are in
 * operands.c).  Grammar:
 * ARB_vertex_program section 2.14.2, ARB_fragment_program section 3.11.2,
 * ARB_fragment_program_shadow, ARB_fragment_coord_conventions.
 */
#include <stdlib.h>
#include <string.h>

#include "asm/asm_internal.h"

/* index ::= integer, 0 <= integer < limit */
bool parse_index(struct asm_ctx *c, unsigned limit, const char *what,
                 unsigned *out)
{
    char buf[64];
    if (c->tok.kind != TOK_INT)
        return asm_error(c, &c->tok, "expected an integer %s index, found %s",
                         what, asm_describe(&c->tok, buf, sizeof buf));
    uint32_t v = asm_int_value(&c->tok);
    if (v >= limit)
        return asm_error(c, &c->tok, "%s index %s out of range (0..%u)", what,
                         asm_describe(&c->tok, buf, sizeof buf), limit - 1);
    *out = v;
    return asm_next(c);
}

/* bracketIndex ::= "[" index "]" */
bool parse_bracket_index(struct asm_ctx *c, unsigned limit, const char *what,
                         unsigned *out)
{
    return asm_expect(c, '[') && parse_index(c, limit, what, out) &&
           asm_expect(c, ']');
}

/* establishName ::= identifier (new, not reserved, short enough) */
static bool parse_new_name(struct asm_ctx *c, struct token *name)
{
    *name = c->tok;
    char buf[64];
    if (name->kind != TOK_IDENT)
        return asm_error(c, name, "expected a name, found %s",
                         asm_describe(name, buf, sizeof buf));
    if (asm_is_reserved(c, name))
        return asm_error(c, name, "reserved keyword %s cannot be used as a name",
                         asm_describe(name, buf, sizeof buf));
    if (name->len >= US_MAX_NAME)
        return asm_error(c, name, "name longer than %d characters", US_MAX_NAME - 1);
    if (asm_sym_find(c, name->text, name->len) >= 0)
        return asm_error(c, name, "redeclaration of %s",
                         asm_describe(name, buf, sizeof buf));
    return asm_next(c);
}

/* Declare `name` with a new declaration and bind the name to it. */
static bool declare(struct asm_ctx *c, const struct token *name,
                    enum us_decl_kind kind, unsigned base, unsigned size,
                    bool array)
{
    int d = asm_add_decl(c, name, kind, base, size, array);
    return d >= 0 && asm_sym_add(c, name, d);
}

/* TEMP_statement ::= "TEMP" varNameList
 * ADDRESS_statement ::= "ADDRESS" varNameList
 * varNameList ::= establishName ( "," establishName )* */
static bool parse_var_list(struct asm_ctx *c, enum us_decl_kind kind)
{
    if (!asm_next(c))
        return false;
    for (;;) {
        struct token name;
        if (!parse_new_name(c, &name))
            return false;
        unsigned *count = kind == US_DECL_TEMP ? &c->prog.ntemps : &c->prog.naddrs;
        unsigned limit = kind == US_DECL_TEMP ? c->max_temps : US_MAX_ADDRESS;
        if (*count >= limit)
            return asm_error(c, &name, "too many %s registers (limit %u)",
                             kind == US_DECL_TEMP ? "TEMP" : "ADDRESS", limit);
        if (!declare(c, &name, kind, *count, 1, false))
            return false;
        (*count)++;
        if (!asm_is_punct(&c->tok, ','))
            return true;
        if (!asm_next(c))
            return false;
    }
}

/* ATTRIB_statement ::= "ATTRIB" establishName "=" (vtx|frag)AttribBinding */
static bool parse_attrib_stmt(struct asm_ctx *c)
{
    struct token name;
    if (!asm_next(c) || !parse_new_name(c, &name) || !asm_expect(c, '='))
        return false;
    struct token at = c->tok;
    const char *kw = asm_is_vp(c) ? "vertex"
                   : asm_is_fp(c) ? "fragment" : "invocation";
    if (!asm_is_word(&at, kw)) {
        char buf[64];
        return asm_error(c, &at, "expected a %s.* attribute binding, found %s",
                         kw, asm_describe(&at, buf, sizeof buf));
    }
    unsigned slot;
    return parse_attrib_binding(c, &slot) && asm_bind_input(c, &at, slot) &&
           declare(c, &name, US_DECL_ATTRIB, slot, 1, false);
}

/* OUTPUT_statement ::= "OUTPUT" establishName "=" resultBinding */
static bool parse_output_stmt(struct asm_ctx *c)
{
    struct token name;
    if (!asm_next(c) || !parse_new_name(c, &name) || !asm_expect(c, '='))
        return false;
    if (!asm_is_word(&c->tok, "result")) {
        char buf[64];
        return asm_error(c, &c->tok, "expected a result.* binding, found %s",
                         asm_describe(&c->tok, buf, sizeof buf));
    }
    unsigned slot;
    return parse_result_binding(c, &slot) &&
           declare(c, &name, US_DECL_OUTPUT, slot, 1, false);
}

/* ALIAS_statement ::= "ALIAS" establishName "=" establishedName */
static bool parse_alias_stmt(struct asm_ctx *c)
{
    struct token name;
    if (!asm_next(c) || !parse_new_name(c, &name) || !asm_expect(c, '='))
        return false;
    struct token target = c->tok;
    int d = asm_sym_lookup(c, &target, "a declared name");
    return d >= 0 && asm_next(c) && asm_sym_add(c, &name, d);
}

/*
 * PARAM_singleStmt   ::= "PARAM" establishName "=" paramSingleItemDecl
 * PARAM_multipleStmt ::= "PARAM" establishName "[" [ size ] "]" "="
 *                        "{" paramMultipleItem ( "," paramMultipleItem )* "}"
 */
static bool parse_param_stmt(struct asm_ctx *c)
{
    struct token name;
    if (!asm_next(c) || !parse_new_name(c, &name))
        return false;
    bool array = asm_is_punct(&c->tok, '[');
    unsigned size = 0;
    struct token size_tok = c->tok;
    if (array) {
        if (!asm_next(c))
            return false;
        size_tok = c->tok;
        if (size_tok.kind == TOK_INT) {
            uint32_t v = asm_int_value(&size_tok);
            if (v < 1 || v > US_MAX_PARAMS)
                return asm_error(c, &size_tok, "array size must be 1..%d",
                                 US_MAX_PARAMS);
            size = v;
            if (!asm_next(c))
                return false;
        }
        if (!asm_expect(c, ']'))
            return false;
    }
    if (!asm_expect(c, '='))
        return false;
    /* The declaration comes first so its slots can name it. */
    int d = asm_add_decl(c, &name, US_DECL_PARAM, c->prog.nparams, 0, array);
    if (d < 0)
        return false;
    unsigned total = 0, n;
    if (!array) {
        if (!parse_param_binding(c, PARAM_SINGLE, d, &total))
            return false;
    } else {
        struct token open = c->tok;
        if (!asm_is_punct(&open, '{'))
            return asm_error(c, &open, "an array PARAM needs a { ... } initializer list");
        if (!asm_next(c))
            return false;
        for (;;) {
            if (!parse_param_binding(c, PARAM_MULTI, d, &n))
                return false;
            total += n;
            if (!asm_is_punct(&c->tok, ','))
                break;
            if (!asm_next(c))
                return false;
        }
        if (!asm_expect(c, '}'))
            return false;
        if (size && size != total)
            return asm_error(c, &size_tok, "array size %u does not match its "
                             "%u initializers", size, total);
    }
    c->prog.decls[d].size = (uint16_t)total;
    return asm_sym_add(c, &name, d);
}

/* A token that directly follows `prev`, with no space between. */
static bool adjacent(const struct token *prev, const struct token *t)
{
    return t->text == prev->text + prev->len;
}

/*
 * mnemonic ::= opcode { "." modifier }   (no spaces: NV_gpu_program4's
 * suffixes; "_SAT" ends the last word).  The text before any LOAD / STORE
 * / ATOM / BRA modifier is looked up in isa/ops.def ("ADD", "ADD.S",
 * "MUL.U.HI"); those four take their modifiers as fields (the access
 * type, the atomic operation, the branch condition), returned in mods[].
 */
static int parse_mnemonic(struct asm_ctx *c, bool *sat, struct token *mods,
                          unsigned *nmods, uint8_t *word)
{
    struct token mn = c->tok, last = mn;
    char text[48], buf[64];
    size_t len = 0;
    unsigned n = 0;
    *nmods = 0;
    for (;;) {
        if (len + last.len + 1 >= sizeof text)
            return asm_error(c, &mn, "unknown instruction %s",
                             asm_describe(&mn, buf, sizeof buf)), -1;
        if (len)
            text[len++] = '.';
        memcpy(text + len, last.text, last.len);
        len += last.len;
        if (n < 4)
            mods[n] = last;
        n++;
        if (!asm_next(c))
            return -1;
        if (!asm_is_punct(&c->tok, '.') || !adjacent(&last, &c->tok))
            break;
        struct token dot = c->tok;
        if (!asm_next(c))
            return -1;
        if (c->tok.kind != TOK_IDENT || !adjacent(&dot, &c->tok))
            return asm_error(c, &c->tok, "expected an instruction modifier "
                             "after '.'"), -1;
        last = c->tok;
    }
    *sat = len > 4 && !memcmp(text + len - 4, "_SAT", 4);
    if (*sat)
        len -= 4;
    /* a last .W8 .W16 .W32: an integer instruction's own word width */
    *word = 0;
    static const struct { const char *s; uint8_t w; } widths[] = {
        { ".W8", 8 }, { ".W16", 16 }, { ".W32", 32 },
    };
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
        size_t wl = strlen(widths[k].s);
        if (n > 1 && len > wl && !memcmp(text + len - wl, widths[k].s, wl)) {
            *word = widths[k].w;
            len -= wl;
            n--;
            break;
        }
    }
    /* the whole text, else the opcode alone with field modifiers */
    int op = us_op_lookup(text, len);
    if (op < 0 && n > 1) {
        op = us_op_lookup(mn.text, mn.len);
        enum us_op_format f = op >= 0 ? us_ops[op].format : US_FMT_VEC;
        if (f != US_FMT_LOAD && f != US_FMT_STORE && f != US_FMT_ATOM &&
            f != US_FMT_BRA)
            op = -1;
        else {
            *nmods = n - 1 < 4 ? n - 1 : 4;
            memmove(mods, mods + 1, *nmods * sizeof *mods);
            if (n - 1 > 4)
                return asm_error(c, &mn, "too many modifiers on %s",
                                 us_ops[op].name), -1;
        }
    }
    if (op < 0) {
        int shown = len > 40 ? 40 : (int)len;
        return asm_error(c, &mn, "unknown instruction '%.*s'", shown,
                         text), -1;
    }
    return op;
}

/* The stage may run opcode `op` (isa/ops.def's stages column). */
static bool stage_allows(struct asm_ctx *c, const struct token *mn, int op)
{
    const struct us_opinfo *info = &us_ops[op];
    bool ext = c->prog.options & US_OPT_USHADER_EXTENSIONS;
    if ((info->stages & US_CP) && !(info->stages & ~US_CP) && !asm_is_cp(c))
        return asm_error(c, mn, "%s is a compute program instruction",
                         info->name);
    if ((info->stages & US_EXT) && !ext)
        return asm_error(c, mn, "%s needs OPTION USHADER_extensions",
                         info->name);
    /* a unified shader runs every datapath opcode in every stage, but KIL
     * and the derivatives (US_QUAD) need fragments */
    bool unified = ext && op != US_OP_KIL && !(info->flags & US_QUAD);
    if ((info->flags & US_QUAD) && asm_is_cp(c))
        return asm_error(c, mn, "%s reads a fragment quad: not in a compute "
                         "program", info->name);
    if (!unified && !(info->stages & asm_stage_bit(c)))
        return asm_error(c, mn, "%s is not an ARB_%s_program instruction",
                         info->name, asm_stage_name(c));
    return true;
}

/*
 * instruction ::= VECTORop maskedDstReg "," swizzleSrcReg
 *               | SCALARop maskedDstReg "," scalarSrcReg
 *               | BINSCop  maskedDstReg "," scalarSrcReg "," scalarSrcReg
 *               | BINop    maskedDstReg "," swizzleSrcReg "," swizzleSrcReg
 *               | TRIop    maskedDstReg "," swizzleSrcReg "," x2
 *               | "ARL" addrReg "." "x" "," scalarSrcReg
 *               | SWZop maskedDstReg "," [sign] srcReg "," extendedSwizzle
 *               | SAMPLEop maskedDstReg "," swizzleSrcReg "," texImageUnit
 *                 "," texTarget
 *               | "KIL" swizzleSrcReg
 *               | memory, barrier and branch instructions (asm/compute.c)
 * Mnemonics (and operand formats) come from isa/ops.def; fragment programs
 * accept the _SAT forms except KIL _SAT, nothing accepts it on an integer
 * result.
 */
static bool parse_instruction(struct asm_ctx *c)
{
    struct token mn = c->tok, mods[4];
    unsigned nmods;
    bool sat;
    uint8_t word;
    c->mnemonic = mn;
    int op = parse_mnemonic(c, &sat, mods, &nmods, &word);
    if (op < 0 || !stage_allows(c, &mn, op))
        return false;
    const struct us_opinfo *info = &us_ops[op];
    if (word && (!(info->flags & (US_I_SRC | US_I_DST)) ||
                 info->unit != US_UNIT_ALU))
        return asm_error(c, &mn, "%s has no word width: .W%u is for integer "
                         "arithmetic", info->name, word);
    if (sat && (asm_is_vp(c) || info->shape == US_SHAPE_NONE ||
                (info->flags & US_I_DST)))
        return asm_error(c, &mn, "%s has no _SAT form%s", info->name,
                         asm_is_vp(c) ? " in vertex programs" : "");
    struct us_inst *inst = asm_add_inst(c, &mn);
    if (!inst)
        return false;
    /* inst may move when the array grows: only instructions grow it. */
    inst->op = (uint8_t)op;
    inst->sat = sat;
    inst->word = word;
    inst->joined = c->joined;
    c->joined = false;
    enum us_unit prev = inst->joined ? us_ops[inst[-1].op].unit : US_UNIT_ALU;
    /* "SYNC | BRA label;": the FPGA fork's SYNC that sends a thread to its
     * join point (docs/seeds/fpga.md) is the one flow instruction a group
     * may go on after, and only into an unconditional BRA that ends it. */
    bool sync_bra = inst->joined && inst[-1].op == US_OP_SYNC &&
                    op == US_OP_BRA;
    if ((prev == US_UNIT_BRANCH || prev == US_UNIT_BARRIER) && !sync_bra)
        return asm_error(c, &mn, "a '|' group goes on after %s: flow control "
                         "and barriers end their group", us_ops[inst[-1].op].name);
    c->int_literals = info->flags & US_I_SRC;
    switch (info->format) {
    case US_FMT_KIL:
        inst->dst.file = US_FILE_NULL;
        return parse_src(c, SRC_VECTOR, &inst->src[0]);
    case US_FMT_COND:
        inst->dst.file = US_FILE_NULL;
        return parse_src(c, SRC_SCALAR, &inst->src[0]);
    case US_FMT_FLOW:
        inst->dst.file = US_FILE_NULL;
        return true;
    case US_FMT_LOAD: case US_FMT_STORE: case US_FMT_ATOM: case US_FMT_BAR:
        return asm_parse_compute_inst(c, inst, mods, nmods);
    case US_FMT_BRA:
        if (!asm_parse_compute_inst(c, inst, mods, nmods))
            return false;
        if (sync_bra && inst->sub != US_COND_ALWAYS)
            return asm_error(c, &mn, "SYNC | BRA: the BRA after SYNC must be "
                             "unconditional");
        return true;
    case US_FMT_ARL: {
        unsigned addr;
        if (!parse_addr_reg(c, &addr) || !parse_addr_x(c))
            return false;
        inst->dst.file = US_FILE_ADDRESS;
        inst->dst.index = (uint16_t)addr;
        inst->dst.mask = 1;
        return asm_expect(c, ',') && parse_src(c, SRC_SCALAR, &inst->src[0]);
    }
    case US_FMT_SWZ: {
        struct us_src *src = &inst->src[0];
        if (!parse_dst(c, &inst->dst) || !asm_expect(c, ','))
            return false;
        memset(src, 0, sizeof *src);
        if (asm_is_punct(&c->tok, '-') || asm_is_punct(&c->tok, '+')) {
            if (asm_is_punct(&c->tok, '-'))
                src->negate = 0xF;
            if (!asm_next(c))
                return false;
        }
        return parse_src_reg(c, src) && asm_expect(c, ',') &&
               parse_ext_swizzle(c, src);
    }
    case US_FMT_TEX:
        return parse_dst(c, &inst->dst) && asm_expect(c, ',') &&
               parse_src(c, SRC_VECTOR, &inst->src[0]) && asm_expect(c, ',') &&
               parse_texture(c, inst);
    default: {
        enum src_form form = info->format == US_FMT_SCL ? SRC_SCALAR : SRC_VECTOR;
        if (!parse_dst(c, &inst->dst))
            return false;
        for (int i = 0; i < info->nsrc; i++)
            if (!asm_expect(c, ',') || !parse_src(c, form, &inst->src[i]))
                return false;
        return true;
    }
    }
}

/* preshaderBlock ::= "PRESHADER" ";" instruction* "ENDPRESHADER", the
 * per-draw prologue (docs/GLSL.md "Preshader"): its instructions go to
 * prog.pre (declarations in it are the program's, as anywhere); they are straight-line float ALU work (us_op_preshader) on
 * parameters and program.pre[n], without relative addressing. */
static bool begin_pre(struct asm_ctx *c, unsigned *first)
{
    if (c->had_pre)
        return asm_error(c, &c->tok, "a second PRESHADER block");
    c->had_pre = c->in_pre = true;
    *first = c->prog.ninsts;
    return asm_next(c);
}

static bool end_pre(struct asm_ctx *c, unsigned first)
{
    struct us_program *p = &c->prog;
    unsigned n = p->ninsts - first;
    for (unsigned i = first; i < p->ninsts; i++) {
        const struct us_inst *in = &p->insts[i];
        bool rel = false;
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            rel |= in->src[k].rel;
        if (!us_op_preshader(in->op) || rel || in->joined) {
            struct token at = c->tok;
            at.line = in->line;
            at.col = 1;
            return asm_error(c, &at, "%s cannot be in a preshader: only float "
                             "ALU instructions without relative addressing, "
                             "elementary functions, textures or flow",
                             us_ops[in->op].name);
        }
    }
    if (n) {
        p->pre = malloc(n * sizeof *p->pre);
        if (!p->pre)
            return asm_error(c, &c->tok, "out of memory");
        memcpy(p->pre, p->insts + first, n * sizeof *p->pre);
        p->npre = n;
        p->ninsts = first;
    }
    c->in_pre = false;
    return asm_next(c);
}

/* statement ::= ( instruction | namingStatement ) ";" */
static bool parse_statement(struct asm_ctx *c)
{
    struct token t = c->tok;
    char buf[64];
    bool ok;
    if (t.kind != TOK_IDENT)
        return asm_error(c, &t, "expected an instruction or declaration, found %s",
                         asm_describe(&t, buf, sizeof buf));
    struct token next = asm_peek(c);
    if (asm_is_punct(&next, ':'))
        return asm_parse_label(c);   /* "name:" needs no ';' */
    if (c->joined)                   /* after "|", an instruction */
        ok = parse_instruction(c);
    else if (asm_is_word(&t, "PRESHADER") && !c->in_pre &&
             (c->prog.options & US_OPT_USHADER_EXTENSIONS))
        ok = begin_pre(c, &c->pre_first);
    else if (asm_is_word(&t, "ENDPRESHADER") && c->in_pre)
        ok = end_pre(c, c->pre_first);
    else if (asm_is_word(&t, "TEMP"))
        ok = parse_var_list(c, US_DECL_TEMP);
    else if (asm_is_word(&t, "GROUP_SIZE") && asm_is_cp(c))
        ok = asm_parse_group_size(c);
    else if (asm_is_word(&t, "SHARED_MEMORY") && asm_is_cp(c))
        ok = asm_parse_shared_memory(c);
    else if (asm_is_word(&t, "ADDRESS") &&
             (asm_is_vp(c) ||
              (c->prog.options & US_OPT_USHADER_EXTENSIONS)))
        /* a vertex program's, or any program's under the unified
         * shader's option, which accepts ARL in both stages */
        ok = parse_var_list(c, US_DECL_ADDRESS);
    else if (asm_is_word(&t, "PARAM"))
        ok = parse_param_stmt(c);
    else if (asm_is_word(&t, "ATTRIB"))
        ok = parse_attrib_stmt(c);
    else if (asm_is_word(&t, "OUTPUT"))
        ok = parse_output_stmt(c);
    else if (asm_is_word(&t, "ALIAS"))
        ok = parse_alias_stmt(c);
    else if (asm_is_word(&t, "OPTION"))
        return asm_error(c, &t, "OPTION must come before every other statement");
    else
        ok = parse_instruction(c);
    if (!ok)
        return false;
    /* "A | B;": B is one source instruction with A (docs/COMPUTE.md) */
    if (asm_is_punct(&c->tok, '|') && c->prog.ninsts &&
        (c->prog.options & US_OPT_USHADER_EXTENSIONS)) {
        c->joined = true;
        return asm_next(c);
    }
    if (!asm_is_punct(&c->tok, ';'))
        return asm_error(c, &c->tok, "expected ';', found %s",
                         asm_describe(&c->tok, buf, sizeof buf));
    return asm_next(c);
}

struct option_def {
    const char *name;
    uint32_t bit;
    uint8_t stages;
    uint32_t excludes;  /* options that may not appear with this one */
};

#define FOG_OPTS (US_OPT_FOG_EXP | US_OPT_FOG_EXP2 | US_OPT_FOG_LINEAR)
#define PREC_OPTS (US_OPT_PRECISION_FASTEST | US_OPT_PRECISION_NICEST)
#define WORD_OPTS (US_OPT_WORD16 | US_OPT_WORD8)
#define ALL_STAGES (US_VP | US_FP | US_CP)

/* ARB_vertex_program 2.14.4.5, ARB_fragment_program 3.11.4.5,
 * ARB_fragment_program_shadow, ARB_fragment_coord_conventions; the
 * unified shader's own (docs/COMPUTE.md). */
static const struct option_def options[] = {
    { "ARB_position_invariant", US_OPT_POSITION_INVARIANT, US_VP, 0 },
    { "ARB_precision_hint_fastest", US_OPT_PRECISION_FASTEST, US_FP, PREC_OPTS },
    { "ARB_precision_hint_nicest", US_OPT_PRECISION_NICEST, US_FP, PREC_OPTS },
    { "ARB_fog_exp", US_OPT_FOG_EXP, US_FP, FOG_OPTS },
    { "ARB_fog_exp2", US_OPT_FOG_EXP2, US_FP, FOG_OPTS },
    { "ARB_fog_linear", US_OPT_FOG_LINEAR, US_FP, FOG_OPTS },
    { "ARB_fragment_program_shadow", US_OPT_FRAGMENT_SHADOW, US_FP, 0 },
    { "ARB_fragment_coord_origin_upper_left", US_OPT_ORIGIN_UPPER_LEFT, US_FP, 0 },
    { "ARB_fragment_coord_pixel_center_integer", US_OPT_PIXEL_CENTER_INTEGER,
      US_FP, 0 },
    { "USHADER_extensions", US_OPT_USHADER_EXTENSIONS, ALL_STAGES, 0 },
    { "USHADER_word16", US_OPT_WORD16, ALL_STAGES, WORD_OPTS },
    { "USHADER_word8", US_OPT_WORD8, ALL_STAGES, WORD_OPTS },
};

/* option ::= "OPTION" identifier ";" */
static bool parse_option(struct asm_ctx *c)
{
    if (!asm_next(c))
        return false;
    struct token name = c->tok;
    char buf[64];
    if (name.kind != TOK_IDENT)
        return asm_error(c, &name, "expected an option name, found %s",
                         asm_describe(&name, buf, sizeof buf));
    const struct option_def *opt = NULL;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (asm_is_word(&name, options[i].name))
            opt = &options[i];
    if (!opt || !(opt->stages & asm_stage_bit(c)))
        return asm_error(c, &name, "unsupported %s program option %s",
                         asm_stage_name(c),
                         asm_describe(&name, buf, sizeof buf));
    uint32_t clash = c->prog.options & opt->excludes & ~opt->bit;
    if (clash)
        return asm_error(c, &name, "option %s conflicts with an earlier option",
                         opt->name);
    c->prog.options |= opt->bit;
    if (!asm_next(c))
        return false;
    if (!asm_is_punct(&c->tok, ';'))
        return asm_error(c, &c->tok, "expected ';', found %s",
                         asm_describe(&c->tok, buf, sizeof buf));
    return asm_next(c);
}

/* Resource limits left for the program once the options take their share
 * (ARB_vertex_program 2.14.4.5.1, ARB_fragment_program 3.11.4.5.1). */
static void apply_option_limits(struct asm_ctx *c)
{
    uint32_t o = c->prog.options;
    c->max_insts = US_MAX_INSTRUCTIONS;
    c->max_temps = US_MAX_TEMPS;
    c->max_params = US_MAX_PARAMS;
    if (o & US_OPT_POSITION_INVARIANT)
        c->max_insts -= 4;
    if (o & FOG_OPTS) {
        c->max_temps -= 1;
        c->max_params -= 2;
        c->max_insts -= (o & US_OPT_FOG_EXP) ? 3 : (o & US_OPT_FOG_EXP2) ? 4 : 2;
    }
}

/* header ::= "!!ARBvp1.0" | "!!ARBfp1.0" | "!!USHADERcp1.0" (a compute
 * program, docs/COMPUTE.md), the very first bytes of the text (no
 * whitespace before it); sets c->stage. */
static const char *const headers[US_STAGE_COUNT] = {
    "!!ARBvp1.0", "!!ARBfp1.0", "!!USHADERcp1.0"
};

static bool parse_header(struct asm_ctx *c, int want)
{
    static const char *const names[] = { "vertex", "fragment", "compute" };
    struct token at = { TOK_EOF, c->text, 0, 1, 1 };
    size_t n = 0;
    for (int s = 0; s < US_STAGE_COUNT && !n; s++) {
        size_t len = strlen(headers[s]);
        if (c->len >= len && !memcmp(c->text, headers[s], len)) {
            c->stage = (enum us_stage)s;
            n = len;
        }
    }
    if (!n)
        return asm_error(c, &at, "program must begin with !!ARBvp1.0, "
                         "!!ARBfp1.0 or !!USHADERcp1.0");
    if (want != US_STAGE_ANY && want != (int)c->stage)
        return asm_error(c, &at, "expected a %s program (%s), found %s",
                         names[want], headers[want], headers[c->stage]);
    c->cur = (struct lex_cursor){ n, 1, (unsigned)n + 1 };
    return true;
}

/* program ::= header optionSequence statementSequence "END" */
static bool parse_program(struct asm_ctx *c, int want)
{
    if (!parse_header(c, want) || !asm_next(c))
        return false;
    c->prog.stage = c->stage;
    if (asm_is_cp(c))   /* a compute program is the unified shader's */
        c->prog.options |= US_OPT_USHADER_EXTENSIONS;
    while (asm_is_word(&c->tok, "OPTION"))
        if (!parse_option(c))
            return false;
    apply_option_limits(c);
    uint32_t o = c->prog.options;
    c->prog.word_bits = o & US_OPT_WORD8 ? 8 : o & US_OPT_WORD16 ? 16 : 0;
    if (asm_is_cp(c))
        for (int d = 0; d < 3; d++)
            c->prog.group_size[d] = 1;
    while (!asm_is_word(&c->tok, "END")) {
        if (c->tok.kind == TOK_EOF)
            return asm_error(c, &c->tok, "missing END");
        if (!parse_statement(c))
            return false;
    }
    if (c->joined)
        return asm_error(c, &c->tok, "expected an instruction after '|'");
    if (c->in_pre)
        return asm_error(c, &c->tok, "missing ENDPRESHADER");
    /* Text after END is ignored (2.14.2, 3.11.2). */
    return asm_resolve_labels(c) &&
           us_flow_build(&c->prog, &c->prog.flow, c->diag);
}

bool us_assemble(const char *text, size_t len, int stage,
                 struct us_program *out, struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    struct asm_ctx c;
    memset(&c, 0, sizeof c);
    c.text = text ? text : "";
    c.len = text ? len : 0;
    c.diag = diag;
    bool ok;
    if (stage != US_STAGE_ANY && (stage < 0 || stage >= US_STAGE_COUNT))
        ok = asm_error(&c, NULL, "invalid stage %d", stage);
    else
        ok = parse_program(&c, stage);
    asm_ctx_free(&c);
    if (!ok) {
        us_program_free(&c.prog);
        return false;
    }
    *out = c.prog;
    return true;
}
