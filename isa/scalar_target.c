/*
 * Targets: the scalar SP and the baselines of SPEC section 2 as
 * instruction-memory images, their binary file format and disassembly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

static const struct {
    const char *name;
    unsigned word_bits;
} targets[US_TARGET_COUNT] = {
    [US_TARGET_SCALAR] = { "scalar", US_SW_BITS },
    [US_TARGET_SCALAR_NOCOMPACT] = { "scalar-nocompact", US_SW_BITS },
    [US_TARGET_SIMD4] = { "simd4", US_VW_BITS },
    [US_TARGET_VLIW] = { "vliw", 4 * US_SW_BITS },
    [US_TARGET_VLIW5] = { "vliw5", 5 * US_SW_BITS },
    [US_TARGET_SUPERSCALAR] = { "superscalar", US_VW_BITS },
    [US_TARGET_HETERO] = { "hetero", 2 * US_VW_BITS },
};

/* Hetero's empty slot: a vec4 word whose OP field holds a value no opcode
 * uses, every other bit zero (the vec4 word has no spare bit: SRC2's NEG
 * is bit 127). */
enum { HETERO_EMPTY_OP = (1 << SIZE_VW_OP) - 1 };
_Static_assert((int)US_OP_COUNT <= (int)HETERO_EMPTY_OP,
               "hetero's empty-slot OP is free");

const char *us_target_name(enum us_target t)
{
    return t < US_TARGET_COUNT ? targets[t].name : NULL;
}

int us_target_lookup(const char *name)
{
    for (int t = 0; t < US_TARGET_COUNT; t++)
        if (!strcmp(targets[t].name, name))
            return t;
    return -1;
}

unsigned us_target_word_bits(enum us_target t)
{
    return t < US_TARGET_COUNT ? targets[t].word_bits : 0;
}

void us_binary_free(struct us_binary *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static bool fail(struct us_diag *diag, unsigned line, const char *msg)
{
    diag->line = line;
    diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "%s", msg);
    return false;
}

static bool alloc_words(struct us_binary *b, enum us_target t, unsigned n,
                        struct us_diag *diag)
{
    b->target = t;
    b->word_bits = us_target_word_bits(t);
    b->nwords = n;
    b->data = calloc((size_t)(n ? n : 1) * us_binary_units(b->word_bits),
                     sizeof *b->data);
    return b->data || fail(diag, 0, "out of memory");
}

static uint32_t *word(const struct us_binary *b, unsigned i)
{
    return b->data + (size_t)i * us_binary_units(b->word_bits);
}

/*
 * The vec4 word holds one relative source (as NV40's vertex ISA reads one
 * constant per instruction); ARB programs may have more.  The vec4
 * targets' compiler first copies the extra ones into TEMPs beyond the
 * program's: MOV t, c[A0.x + n] with identity swizzle (MOV.U, a bit copy,
 * for an integer instruction's source).  A BRA to an instruction jumps to
 * its copies.  `out` shares all but `insts` with `prog`.
 */
static bool legalize_vec4(const struct us_program *prog, struct us_program *out,
                          struct us_diag *diag)
{
    *out = *prog;
    out->insts = malloc((3 * (size_t)prog->ninsts + 1) * sizeof *out->insts);
    /* where each instruction's copy starts: a BRA jumps to its MOVs */
    uint32_t *at = malloc(((size_t)prog->ninsts + 1) * sizeof *at);
    if (!out->insts || !at) {
        free(out->insts);
        free(at);
        return fail(diag, 0, "out of memory");
    }
    unsigned n = 0;
    for (unsigned i = 0; i < prog->ninsts; i++) {
        struct us_inst in = prog->insts[i];
        unsigned nrel = 0;
        at[i] = n;
        for (unsigned s = 0; s < us_ops[in.op].nsrc; s++) {
            if (!in.src[s].rel || nrel++ == 0)
                continue;
            unsigned t = prog->ntemps + nrel - 2;
            if (t >= US_MAX_TEMPS) {
                free(out->insts);
                free(at);
                return fail(diag, in.line, "no TEMP left to split relative reads");
            }
            struct us_inst mov;
            memset(&mov, 0, sizeof mov);
            mov.op = us_ops[in.op].flags & US_I_SRC ? US_OP_MOV_U : US_OP_MOV;
            mov.line = in.line;
            mov.dst = (struct us_dst){ .file = US_FILE_TEMP, .mask = 0xf,
                                       .index = (uint16_t)t };
            mov.src[0] = in.src[s];
            mov.src[0].negate = 0;
            for (int c = 0; c < 4; c++)
                mov.src[0].swz[c] = (uint8_t)c;
            out->insts[n++] = mov;
            in.src[s].file = US_FILE_TEMP;
            in.src[s].index = (uint16_t)t;
            in.src[s].rel = false;
            in.src[s].rel_offset = 0;
            in.src[s].rel_size = 0;
            in.src[s].rel_addr = 0;
        }
        out->insts[n++] = in;
    }
    at[prog->ninsts] = n;
    out->ninsts = n;
    for (unsigned i = 0; i < n; i++)
        if (out->insts[i].op == US_OP_BRA && out->insts[i].target <= prog->ninsts)
            out->insts[i].target = (uint16_t)at[out->insts[i].target];
    free(at);
    return true;
}

static bool encode_vec4(const struct us_inst *in, uint32_t *w,
                        struct us_diag *diag)
{
    if (!us_vencode(in, w))
        return fail(diag, in->line, "instruction does not fit the vec4 word");
    return true;
}

bool us_encode_target(const struct us_program *prog, enum us_target t,
                      struct us_binary *out, struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    struct us_scode code;
    bool ok = true;
    switch (t) {
    case US_TARGET_SCALAR:
    case US_TARGET_SCALAR_NOCOMPACT:
        if (!us_lower(prog, t == US_TARGET_SCALAR, &code, diag))
            return false;
        ok = alloc_words(out, t, code.n, diag);
        for (unsigned i = 0; ok && i < code.n; i++) {
            us_sword w = us_sencode(&code.insts[i]);
            memcpy(word(out, i), w.w, sizeof w.w);
        }
        us_scode_free(&code);
        break;
    case US_TARGET_SIMD4:
    case US_TARGET_SUPERSCALAR: { /* co-issue is decided by hardware */
        struct us_program v;
        if (!legalize_vec4(prog, &v, diag))
            return false;
        ok = alloc_words(out, t, v.ninsts, diag);
        for (unsigned i = 0; ok && i < v.ninsts; i++)
            ok = encode_vec4(&v.insts[i], word(out, i), diag);
        free(v.insts);
        break;
    }
    case US_TARGET_VLIW:
    case US_TARGET_VLIW5: {
        unsigned nslots = t == US_TARGET_VLIW ? 4 : 5, nb;
        struct us_sinst *slots;
        if (!us_lower(prog, false, &code, diag))
            return false;
        slots = NULL;
        ok = us_vliw_schedule(&code, nslots, t == US_TARGET_VLIW5, &slots,
                              NULL, &nb) ||
             fail(diag, 0, "out of memory");
        us_scode_free(&code);
        ok = ok && alloc_words(out, t, nb, diag);
        for (unsigned i = 0; ok && i < nb; i++)
            for (unsigned s = 0; s < nslots; s++) {
                us_sword w = us_sencode(&slots[i * nslots + s]);
                memcpy(word(out, i) + 3 * s, w.w, sizeof w.w);
            }
        free(slots);
        break;
    }
    case US_TARGET_HETERO: {
        struct us_inst *slots = NULL;
        bool *empty = NULL;
        unsigned nb = 0;
        struct us_program v;
        if (!legalize_vec4(prog, &v, diag))
            return false;
        ok = us_hetero_schedule(&v, &slots, &empty, &nb) ||
             fail(diag, 0, "out of memory");
        free(v.insts);
        ok = ok && alloc_words(out, t, nb, diag);
        for (unsigned i = 0; ok && i < 2 * nb; i++) {
            uint32_t *w = word(out, i / 2) + 4 * (i % 2);
            if (empty[i])
                us_bits_set(w, POS_VW_OP, SIZE_VW_OP, HETERO_EMPTY_OP);
            else
                ok = encode_vec4(&slots[i], w, diag);
        }
        free(slots);
        free(empty);
        break;
    }
    default:
        return fail(diag, 0, "unknown target");
    }
    if (!ok)
        us_binary_free(out);
    return ok;
}

/* ---- Disassembly ---------------------------------------------------------- */

struct text { char *buf; size_t len, cap; bool oom; };

static void append(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->oom)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = realloc(t->buf, cap);
        if (!p) {
            t->oom = true;
            return;
        }
        t->buf = p;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, s, n + 1);
    t->len += n;
}

static bool dis_scalar(const uint32_t *w, char *line, size_t size)
{
    us_sword sw;
    struct us_sinst in;
    memcpy(sw.w, w, sizeof sw.w);
    if (!us_sdecode(sw, &in))
        return false;
    us_sinst_format(&in, line, size);
    return true;
}

static bool dis_vec4(const uint32_t *w, bool hetero, char *line, size_t size)
{
    struct us_inst in;
    if (hetero && us_bits_get(w, POS_VW_OP, SIZE_VW_OP) == HETERO_EMPTY_OP) {
        uint32_t rest[4];
        memcpy(rest, w, sizeof rest);
        us_bits_set(rest, POS_VW_OP, SIZE_VW_OP, 0);
        if (rest[0] || rest[1] || rest[2] || rest[3])
            return false;
        snprintf(line, size, "NOP");
        return true;
    }
    if (!us_vdecode(w, &in))
        return false;
    us_inst_format(&in, line, size);
    return true;
}

bool us_binary_disassemble(const struct us_binary *b, char **text,
                           struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    struct text t = { 0 };
    append(&t, "");
    char line[256], part[160];
    for (unsigned i = 0; i < b->nwords; i++) {
        const uint32_t *w = word(b, i);
        bool ok = true;
        line[0] = '\0';
        switch (b->target) {
        case US_TARGET_SCALAR:
        case US_TARGET_SCALAR_NOCOMPACT:
            ok = dis_scalar(w, line, sizeof line);
            break;
        case US_TARGET_SIMD4:
        case US_TARGET_SUPERSCALAR:
            ok = dis_vec4(w, false, line, sizeof line);
            break;
        case US_TARGET_VLIW:
        case US_TARGET_VLIW5:
        case US_TARGET_HETERO: {
            bool vliw = b->target != US_TARGET_HETERO;
            unsigned nslots = b->target == US_TARGET_VLIW ? 4
                            : b->target == US_TARGET_VLIW5 ? 5 : 2;
            append(&t, "{ ");
            for (unsigned s = 0; s < nslots && ok; s++) {
                ok = vliw ? dis_scalar(w + 3 * s, part, sizeof part)
                          : dis_vec4(w + 4 * s, true, part, sizeof part);
                if (ok) {
                    append(&t, part);
                    append(&t, s + 1 < nslots ? " ; " : " }");
                }
            }
            break;
        }
        default:
            ok = false;
        }
        if (!ok) {
            free(t.buf);
            snprintf(diag->msg, sizeof diag->msg, "word %u does not decode", i);
            return false;
        }
        append(&t, line);
        append(&t, "\n");
    }
    if (t.oom) {
        free(t.buf);
        return fail(diag, 0, "out of memory");
    }
    *text = t.buf;
    return true;
}

/* ---- File format ---------------------------------------------------------- */

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

bool us_binary_serialize(const struct us_binary *b, uint8_t **data, size_t *len)
{
    size_t units = (size_t)b->nwords * us_binary_units(b->word_bits);
    size_t n = 4 * (US_BINARY_HEADER + units);
    uint8_t *p = malloc(n);
    if (!p)
        return false;
    const uint32_t header[US_BINARY_HEADER] = {
        US_BINARY_MAGIC, US_BINARY_VERSION, (uint32_t)b->target, b->word_bits,
        b->nwords,
    };
    for (unsigned i = 0; i < US_BINARY_HEADER; i++)
        put32(p + 4 * i, header[i]);
    for (size_t i = 0; i < units; i++)
        put32(p + 4 * (US_BINARY_HEADER + i), b->data[i]);
    *data = p;
    *len = n;
    return true;
}

bool us_binary_parse(const uint8_t *data, size_t len, struct us_binary *out,
                     struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    if (len < 4 * US_BINARY_HEADER || get32(data) != US_BINARY_MAGIC)
        return fail(diag, 0, "not a ushader binary (bad magic)");
    if (get32(data + 4) != US_BINARY_VERSION)
        return fail(diag, 0, "unsupported binary version");
    uint32_t t = get32(data + 8), bits = get32(data + 12), n = get32(data + 16);
    if (t >= US_TARGET_COUNT || bits != us_target_word_bits(t))
        return fail(diag, 0, "unknown target or word width");
    size_t units = (size_t)n * us_binary_units(bits);
    if (n > (1u << 24) || len != 4 * (US_BINARY_HEADER + units))
        return fail(diag, 0, "file size does not match the word count");
    if (!alloc_words(out, (enum us_target)t, n, diag))
        return false;
    for (size_t i = 0; i < units; i++)
        out->data[i] = get32(data + 4 * (US_BINARY_HEADER + i));
    return true;
}
