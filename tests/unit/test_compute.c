/*
 * Compute on the reference interpreter (docs/COMPUTE.md): every integer
 * opcode against a C reference written here independently of
 * isa/micro_int.h, on corner operands, at word widths 32, 16 and 8; loads,
 * stores and atomics of every type, in and out of bounds; work-item
 * identity, shared memory and barriers; BRA and its reconvergence in
 * lockstep; the assembler's compute syntax and errors; disassembly round
 * trips.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

#include "check_main.h"

/* ---- Helpers ------------------------------------------------------------ */

static void assemble(const char *text, struct us_program *p)
{
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, p, &d),
                  "%u:%u: %s\n%s", d.line, d.col, d.msg, text);
}

static us_vec4 *resolve(const struct us_program *p)
{
    us_vec4 *params = calloc(p->nparams + 1, sizeof *params);
    ck_assert_ptr_nonnull(params);
    for (unsigned i = 0; i < p->nparams; i++)
        memcpy(params[i], p->params[i].value, sizeof params[i]);
    return params;
}

static void set_bits(us_vec4 reg, uint32_t x, uint32_t y, uint32_t z,
                     uint32_t w)
{
    uint32_t v[4] = { x, y, z, w };
    memcpy(reg, v, sizeof v);
}

static uint32_t bits_of(const us_vec4 reg, int c)
{
    uint32_t v;
    memcpy(&v, &reg[c], sizeof v);
    return v;
}

/* ---- C references (int64 arithmetic, then wrap) ------------------------------ */

struct ref { unsigned w; };

static uint32_t mask_of(unsigned w) { return w == 32 ? 0xffffffffu : (1u << w) - 1; }
static uint32_t zx(uint32_t a, unsigned w) { return a & mask_of(w); }
static int64_t sx(uint32_t a, unsigned w)
{
    uint32_t v = zx(a, w);
    return (v >> (w - 1)) & 1 ? (int64_t)v - ((int64_t)1 << w) : (int64_t)v;
}
static uint32_t wr(int64_t v, unsigned w) { return (uint32_t)v & mask_of(w); }

enum rop { R_ADD, R_SUB, R_MUL, R_MULHI_S, R_MULHI_U, R_DIV_S, R_DIV_U,
           R_MOD_S, R_MOD_U, R_MIN_S, R_MIN_U, R_MAX_S, R_MAX_U, R_SHL,
           R_SHR_S, R_SHR_U, R_AND, R_OR, R_XOR, R_SEQ, R_SNE, R_SLT_S,
           R_SLT_U, R_SLE_S, R_SGE_U, R_SGT_S, R_NOT, R_ABS, R_BFR, R_BTC,
           R_BTFL, R_BTFM_S, R_BTFM_U };

static uint32_t ref2(enum rop op, uint32_t a, uint32_t b, unsigned w)
{
    int64_t s = sx(a, w), t = sx(b, w);
    uint64_t u = zx(a, w), v = zx(b, w);
    uint32_t T = mask_of(w);
    switch (op) {
    case R_ADD: return wr((int64_t)(u + v), w);
    case R_SUB: return wr((int64_t)(u - v), w);
    case R_MUL: return wr((int64_t)(u * v), w);
    case R_MULHI_S: return wr((s * t) / ((int64_t)1 << w) -
                              ((s * t) % ((int64_t)1 << w) < 0), w);
    case R_MULHI_U: return wr((int64_t)((u * v) >> w), w);
    case R_DIV_S: return t == 0 ? T : wr(s / t, w);
    case R_DIV_U: return v == 0 ? T : (uint32_t)(u / v);
    case R_MOD_S: return t == 0 ? (uint32_t)u : wr(s % t, w);
    case R_MOD_U: return v == 0 ? (uint32_t)u : (uint32_t)(u % v);
    case R_MIN_S: return wr(s < t ? s : t, w);
    case R_MIN_U: return (uint32_t)(u < v ? u : v);
    case R_MAX_S: return wr(s > t ? s : t, w);
    case R_MAX_U: return (uint32_t)(u > v ? u : v);
    case R_SHL: return wr((int64_t)(u << (b % w)), w);
    case R_SHR_S: {   /* floor division by a power of two */
        int64_t p = (int64_t)1 << (b % w);
        return wr(s >= 0 ? s / p : -((-s + p - 1) / p), w);
    }
    case R_SHR_U: return (uint32_t)(u >> (b % w));
    case R_AND: return (uint32_t)(u & v);
    case R_OR: return (uint32_t)(u | v);
    case R_XOR: return (uint32_t)(u ^ v);
    case R_SEQ: return u == v ? T : 0;
    case R_SNE: return u != v ? T : 0;
    case R_SLT_S: return s < t ? T : 0;
    case R_SLT_U: return u < v ? T : 0;
    case R_SLE_S: return s <= t ? T : 0;
    case R_SGE_U: return u >= v ? T : 0;
    case R_SGT_S: return s > t ? T : 0;
    case R_NOT: return (uint32_t)(~u & T);
    case R_ABS: return wr(s < 0 ? -s : s, w);
    case R_BFR: {
        uint32_t r = 0;
        for (unsigned i = 0; i < w; i++)
            if ((u >> i) & 1)
                r |= 1u << (w - 1 - i);
        return r;
    }
    case R_BTC: {
        unsigned n = 0;
        for (unsigned i = 0; i < w; i++)
            n += (u >> i) & 1;
        return n;
    }
    case R_BTFL:
        for (unsigned i = 0; i < w; i++)
            if ((u >> i) & 1)
                return i;
        return T;
    case R_BTFM_U: case R_BTFM_S: {
        uint64_t x = op == R_BTFM_S && s < 0 ? ~u & T : u;
        for (unsigned i = w; i-- > 0;)
            if ((x >> i) & 1)
                return i;
        return T;
    }
    }
    return 0;
}

static const struct { const char *text; enum rop op; bool unary; } int_ops[] = {
    { "ADD.U", R_ADD, 0 }, { "ADD.S", R_ADD, 0 }, { "SUB.U", R_SUB, 0 },
    { "MUL.S", R_MUL, 0 }, { "MUL.S.HI", R_MULHI_S, 0 },
    { "MUL.U.HI", R_MULHI_U, 0 }, { "DIV.S", R_DIV_S, 0 },
    { "DIV.U", R_DIV_U, 0 }, { "MOD.S", R_MOD_S, 0 }, { "MOD.U", R_MOD_U, 0 },
    { "MIN.S", R_MIN_S, 0 }, { "MIN.U", R_MIN_U, 0 }, { "MAX.S", R_MAX_S, 0 },
    { "MAX.U", R_MAX_U, 0 }, { "SHL.U", R_SHL, 0 }, { "SHR.S", R_SHR_S, 0 },
    { "SHR.U", R_SHR_U, 0 }, { "AND.U", R_AND, 0 }, { "OR.S", R_OR, 0 },
    { "XOR.U", R_XOR, 0 }, { "SEQ.S", R_SEQ, 0 }, { "SNE.U", R_SNE, 0 },
    { "SLT.S", R_SLT_S, 0 }, { "SLT.U", R_SLT_U, 0 }, { "SLE.S", R_SLE_S, 0 },
    { "SGE.U", R_SGE_U, 0 }, { "SGT.S", R_SGT_S, 0 }, { "NOT.U", R_NOT, 1 },
    { "ABS.S", R_ABS, 1 }, { "BFR.U", R_BFR, 1 }, { "BTC.U", R_BTC, 1 },
    { "BTFL.U", R_BTFL, 1 }, { "BTFM.S", R_BTFM_S, 1 },
    { "BTFM.U", R_BTFM_U, 1 },
};

static const uint32_t corner[] = {
    0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 127, 128, 255, 256,
    0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0x80000001,
    0xfffffffe, 0xffffffff, 0x12345678, 0xdeadbeef, 0x55aa55aa,
};
enum { NCORNER = sizeof corner / sizeof corner[0] };

/* One instruction "OP r, in0, in1" on a vertex thread; the result bits. */
START_TEST(int_ops_against_c)
{
    /* the program's word, then an instruction's own (.Wn) over another */
    static const struct { unsigned w; const char *option, *suffix; } widths[] = {
        { 32, "", "" },
        { 16, "OPTION USHADER_word16;\n", "" },
        { 8, "OPTION USHADER_word8;\n", "" },
        { 16, "", ".W16" },
        { 8, "OPTION USHADER_word16;\n", ".W8" },
        { 32, "OPTION USHADER_word8;\n", ".W32" },
    };
    unsigned checked = 0;
    for (size_t k = 0; k < sizeof int_ops / sizeof int_ops[0]; k++)
        for (unsigned wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            unsigned w = widths[wi].w;
            char text[512];
            snprintf(text, sizeof text,
                     "!!ARBvp1.0\nOPTION USHADER_extensions;\n%s"
                     "TEMP r;\n%s%s r, vertex.attrib[0]%s;\n"
                     "MOV.U result.texcoord[0], r;\nEND\n",
                     widths[wi].option, int_ops[k].text, widths[wi].suffix,
                     int_ops[k].unary ? "" : ", vertex.attrib[1]");
            struct us_program p;
            assemble(text, &p);
            us_vec4 *params = resolve(&p);
            struct us_exec_env env = { .params = params,
                                       .math = &us_math_exact };
            for (unsigned i = 0; i < NCORNER; i++)
                for (unsigned j = 0; j < NCORNER; j += 1) {
                    struct us_thread t;
                    us_thread_reset(&t);
                    uint32_t a[4], b[4];
                    for (int c = 0; c < 4; c++) {
                        a[c] = corner[(i + 7 * c) % NCORNER];
                        b[c] = corner[(j + 3 * c) % NCORNER];
                    }
                    set_bits(t.input[0], a[0], a[1], a[2], a[3]);
                    set_bits(t.input[1], b[0], b[1], b[2], b[3]);
                    us_interpret(&p, &env, &t);
                    for (int c = 0; c < 4; c++) {
                        uint32_t got = bits_of(t.output[US_VOUT_TEXCOORD0], c);
                        uint32_t want = ref2(int_ops[k].op, a[c], b[c], w);
                        ck_assert_msg(got == want, "%s (word %u) 0x%x, 0x%x: "
                                      "got 0x%x, want 0x%x", int_ops[k].text,
                                      w, a[c], b[c], got, want);
                        checked++;
                    }
                    if (int_ops[k].unary)
                        break;
                }
            free(params);
            us_program_free(&p);
        }
    printf("integer opcodes: %u results checked against C\n", checked);
}
END_TEST

/* Conversions, selection, bit fields, negation and literals. */
START_TEST(conversions_and_fields)
{
    struct us_program p;
    static const char vp[] =
        "!!ARBvp1.0\n"
        "OPTION USHADER_extensions;\n"
        "TEMP r;\n"
        "I2F.S result.texcoord[0], vertex.attrib[0];\n"
        "I2F.U result.texcoord[1], vertex.attrib[0];\n"
        "TRUNC.S result.texcoord[2], vertex.attrib[1];\n"
        "TRUNC.U result.texcoord[3], vertex.attrib[1];\n"
        "CMP.S result.texcoord[4], vertex.attrib[2], {10, 20, 30, 40}, "
        "{0, 1, 2, 3};\n"
        "BFE.U result.texcoord[5], {8, 4, 0, 0}, vertex.attrib[0];\n"
        "BFE.S result.texcoord[6], {8, 4, 0, 0}, vertex.attrib[0];\n"
        "BFI.U result.texcoord[7], {4, 8, 0, 0}, {0xf, 0xa, 0x3, 0}, "
        "vertex.attrib[0];\n"
        "ADD.S r, -vertex.attrib[0], 0x10;\n"
        "MOV.U result.color, r;\n"
        "END\n";
    assemble(vp, &p);
    us_vec4 *params = resolve(&p);
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    struct us_thread t;
    us_thread_reset(&t);
    set_bits(t.input[0], 0xfffffff0u, 0x7fffffffu, 0x00000ff0u, 0x12345678u);
    t.input[1][0] = -2.75f;
    t.input[1][1] = 3.0e9f;
    t.input[1][2] = -3.0e9f;
    t.input[1][3] = 0.0f / 0.0f;
    set_bits(t.input[2], 0x80000000u, 0, 0xffffffffu, 5);
    us_interpret(&p, &env, &t);
    const us_vec4 *o = t.output;
    ck_assert(o[US_VOUT_TEXCOORD0][0] == -16.0f);
    ck_assert(o[US_VOUT_TEXCOORD0][1] == 2147483648.0f);   /* rounded */
    ck_assert(o[US_VOUT_TEXCOORD0 + 1][0] == 4294967296.0f);
    /* trunc toward zero; saturate; NaN -> 0 */
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 2], 0), (uint32_t)-2);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 2], 1), 0x7fffffffu);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 2], 2), 0x80000000u);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 2], 3), 0);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 3], 0), 0);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 3], 1), 3000000000u);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 3], 2), 0);
    /* select on the sign */
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 4], 0), 10);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 4], 1), 1);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 4], 2), 30);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 4], 3), 3);
    /* bits [4, 12) of 0xfffffff0 = 0xff: 255 unsigned, -1 signed */
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 5], 0), 0xff);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 6], 0), 0xffffffffu);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 5], 2), 0xff);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 6], 2), 0xffffffffu);
    /* 4 bits at 8 */
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 7], 0), 0xfffffff0u);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 7], 1), 0x7ffffaffu);
    ck_assert_uint_eq(bits_of(o[US_VOUT_TEXCOORD0 + 7], 3), 0x12345078u);
    /* integer negation and a hex literal: 16 - x */
    ck_assert_uint_eq(bits_of(o[US_VOUT_COLOR0], 0), 0x20);
    ck_assert_uint_eq(bits_of(o[US_VOUT_COLOR0], 3), 16u - 0x12345678u);
    free(params);
    us_program_free(&p);
}
END_TEST

/* MOV.U copies a NaN payload that MOV canonicalises. */
START_TEST(bit_moves_keep_payloads)
{
    struct us_program p;
    assemble("!!ARBvp1.0\nOPTION USHADER_extensions;\n"
             "MOV.U result.texcoord[0], vertex.attrib[0];\n"
             "MOV result.texcoord[1], vertex.attrib[0];\nEND\n", &p);
    us_vec4 *params = resolve(&p);
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    struct us_thread t;
    us_thread_reset(&t);
    set_bits(t.input[0], 0x7f800001u, 0xffc00123u, 0x80000000u, 42);
    us_interpret(&p, &env, &t);
    for (int c = 0; c < 4; c++)
        ck_assert_uint_eq(bits_of(t.output[US_VOUT_TEXCOORD0], c),
                          bits_of(t.input[0], c));
    ck_assert_uint_eq(bits_of(t.output[US_VOUT_TEXCOORD0 + 1], 0), 0x7fc00000u);
    free(params);
    us_program_free(&p);
}
END_TEST

/* ---- Memory ------------------------------------------------------------ */

struct launch {
    struct us_program prog;
    us_vec4 *params;
    struct us_memory mem;
    uint8_t buf[4][256];
    struct us_exec_env env;
};

static void launch(struct launch *l, const char *text, unsigned gx,
                   unsigned gy, unsigned gz)
{
    assemble(text, &l->prog);
    l->params = resolve(&l->prog);
    memset(&l->mem, 0, sizeof l->mem);
    for (int b = 0; b < 4; b++) {
        l->mem.buf[b].data = l->buf[b];
        l->mem.buf[b].size = sizeof l->buf[b];
    }
    l->env = (struct us_exec_env){ .params = l->params,
                                   .math = &us_math_exact, .mem = &l->mem };
    uint32_t groups[3] = { gx, gy, gz };
    struct us_diag d;
    ck_assert_msg(us_compute_interpret(&l->prog, &l->env, groups, NULL, &d),
                  "%s", d.msg);
}

static void unlaunch(struct launch *l)
{
    free(l->params);
    us_program_free(&l->prog);
}

static uint32_t word(const uint8_t *b, unsigned addr)
{
    uint32_t v;
    memcpy(&v, b + addr, sizeof v);
    return v;
}

/* Every access type, unaligned addresses, robust out-of-bounds rules. */
START_TEST(loads_stores_and_bounds)
{
    static const char cp[] =
        "!!USHADERcp1.0\n"
        "TEMP a, v;\n"
        "LOAD.U8 v, {1, 2, 3, 255}, buffer[0];\n"
        "STORE.U32 buffer[1], {0, 4, 8, 12}, v;\n"
        "LOAD.S8 v, {1, 2, 3, 255}, buffer[0];\n"
        "STORE.U32 buffer[1], {16, 20, 24, 28}, v;\n"
        "LOAD.U16 v.xy, {1, 255, 0, 0}, buffer[0];\n"   /* 255: byte 256 OOB */
        "LOAD.S16 v.zw, {0, 0, 1, 3}, buffer[0];\n"
        "STORE.U32 buffer[1], {32, 36, 40, 44}, v;\n"
        "LOAD.U32 v, {1, 252, 253, 0xfffffffc}, buffer[0];\n"
        "STORE.U32 buffer[1], {48, 52, 56, 60}, v;\n"
        "STORE.U16 buffer[2].xy, {1, 255, 0, 0}, {0x12345678, 0xabcd, 0, 0};\n"
        "STORE.U8 buffer[2].z, {0, 0, 5, 0}, {0, 0, 0x1ff, 0};\n"
        "LOAD.U32 v, {0, 0, 0, 0}, buffer[9];\n"        /* unbound */
        "END\n";
    struct launch l;
    memset(&l, 0, sizeof l);
    assemble(cp, &l.prog);
    l.params = resolve(&l.prog);
    for (int b = 0; b < 3; b++) {
        l.mem.buf[b].data = l.buf[b];
        l.mem.buf[b].size = sizeof l.buf[b];
    }
    for (unsigned i = 0; i < 256; i++)
        l.buf[0][i] = (uint8_t)(0x80 + i);
    l.env = (struct us_exec_env){ .params = l.params, .math = &us_math_exact,
                                  .mem = &l.mem };
    uint32_t groups[3] = { 1, 1, 1 };
    struct us_diag d;
    ck_assert(us_compute_interpret(&l.prog, &l.env, groups, NULL, &d));
    const uint8_t *o = l.buf[1];
    ck_assert_uint_eq(word(o, 0), 0x81);
    ck_assert_uint_eq(word(o, 12), 0x7f);            /* 0x80 + 255 wraps */
    ck_assert_uint_eq(word(o, 16), 0xffffff81u);     /* sign-extended */
    ck_assert_uint_eq(word(o, 28), 0x7f);
    ck_assert_uint_eq(word(o, 32), 0x8281);          /* unaligned, LE */
    ck_assert_uint_eq(word(o, 36), 0);               /* out of bounds */
    ck_assert_uint_eq(word(o, 40), 0xffff8281u);
    ck_assert_uint_eq(word(o, 44), 0xffff8483u);
    ck_assert_uint_eq(word(o, 48), 0x84838281u);
    ck_assert_uint_eq(word(o, 52), 0x7f7e7d7cu);     /* bytes 252..255 */
    ck_assert_uint_eq(word(o, 56), 0);               /* 253..256: OOB */
    ck_assert_uint_eq(word(o, 60), 0);               /* 2^32 - 4: OOB */
    ck_assert_uint_eq(l.buf[2][1], 0x78);
    ck_assert_uint_eq(l.buf[2][2], 0x56);
    ck_assert_uint_eq(l.buf[2][255], 0);             /* dropped */
    ck_assert_uint_eq(l.buf[2][5], 0xff);
    /* OOB: LOAD.U16 at 255 (1), LOAD.U32 at 253 and 2^32 (2), STORE.U16 at
     * 255 (1), the unbound buffer (4) */
    ck_assert_uint_eq(l.mem.counts.oob, 8);
    ck_assert_uint_eq(l.mem.counts.loads, 4 + 4 + 2 + 2 + 4 + 4);
    ck_assert_uint_eq(l.mem.counts.stores, 4 * 4 + 2 + 1);
    unlaunch(&l);
}
END_TEST

START_TEST(atomics)
{
    static const char cp[] =
        "!!USHADERcp1.0\n"
        "TEMP r;\n"
        "ATOM.ADD.U32 r.x, 0, 5, buffer[0];\n"
        "ATOM.MIN.S32 r.y, 4, -3, buffer[0];\n"
        "ATOM.MIN.U32 r.z, 8, 0xfffffffd, buffer[0];\n"
        "ATOM.MAX.S32 r.w, 12, -3, buffer[0];\n"
        "STORE.U32 buffer[1], {0, 4, 8, 12}, r;\n"
        "ATOM.CSWAP.U32 r.x, 16, 7, 99, buffer[0];\n"   /* old 7: swapped */
        "ATOM.CSWAP.U32 r.y, 20, 7, 99, buffer[0];\n"   /* old 8: kept */
        "ATOM.EXCH.U32 r.z, 24, 0xabc, buffer[0];\n"
        "ATOM.XOR.U32 r.w, 28, 0xff, buffer[0];\n"
        "STORE.U32 buffer[1], {16, 20, 24, 28}, r;\n"
        "ATOM.ADD.U32 r.x, 254, 1, buffer[0];\n"        /* OOB: 0 */
        "STORE.U32 buffer[1].x, 32, r;\n"
        "END\n";
    struct launch l;
    memset(&l, 0, sizeof l);
    assemble(cp, &l.prog);
    l.params = resolve(&l.prog);
    for (int b = 0; b < 2; b++) {
        l.mem.buf[b].data = l.buf[b];
        l.mem.buf[b].size = sizeof l.buf[b];
    }
    uint32_t init[8] = { 10, 2, 2, 2, 7, 8, 0x111, 0x0f };
    memcpy(l.buf[0], init, sizeof init);
    l.env = (struct us_exec_env){ .params = l.params, .math = &us_math_exact,
                                  .mem = &l.mem };
    uint32_t groups[3] = { 1, 1, 1 };
    struct us_diag d;
    ck_assert(us_compute_interpret(&l.prog, &l.env, groups, NULL, &d));
    static const uint32_t old[9] = { 10, 2, 2, 2, 7, 8, 0x111, 0x0f, 0 };
    static const uint32_t now[8] = { 15, (uint32_t)-3, 2, 2, 99, 8, 0xabc,
                                     0xf0 };
    for (int i = 0; i < 9; i++)
        ck_assert_uint_eq(word(l.buf[1], 4 * i), old[i]);
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(word(l.buf[0], 4 * i), now[i]);
    ck_assert_uint_eq(l.mem.counts.atomics, 9);
    ck_assert_uint_eq(l.mem.counts.oob, 1);
    unlaunch(&l);
}
END_TEST

/* ---- Work-items, shared memory and barriers ------------------------------- */

START_TEST(work_item_identity)
{
    static const char cp[] =
        "!!USHADERcp1.0\n"
        "GROUP_SIZE 2 3 2;\n"
        "TEMP a, i;\n"
        "MUL.U a.x, invocation.localindex.x, 4;\n"
        "MUL.U i.x, invocation.groupid.x, 12;\n"
        "MAD.U a.x, i.x, 4, a.x;\n"       /* MAD.U does not exist: error */
        "END\n";
    struct us_program p;
    struct us_diag d;
    ck_assert(!us_assemble(cp, strlen(cp), US_STAGE_ANY, &p, &d));
    ck_assert_uint_eq(d.line, 6);
    ck_assert_str_eq(d.msg, "unknown instruction 'MAD.U'");

    static const char ok[] =
        "!!USHADERcp1.0\n"
        "GROUP_SIZE 2 3 2;\n"
        "TEMP a, b;\n"
        "# the item's linear index: group * 12 + local index\n"
        "MUL.U b.x, invocation.groupid.y, invocation.groupcount.x;\n"
        "ADD.U b.x, b.x, invocation.groupid.x;\n"
        "MUL.U b.x, b.x, 12;\n"
        "ADD.U b.x, b.x, invocation.localindex.x;\n"
        "MUL.U b.x, b.x, 16;\n"
        "ADD.U a, b.x, {0, 4, 8, 12};\n"
        "STORE.U32 buffer[0], a, invocation.globalid;\n"
        "STORE.U32 buffer[1].xyz, a, invocation.localid;\n"
        "STORE.U32 buffer[2], a, invocation.groupsize;\n"
        "END\n";
    struct launch l;
    memset(&l, 0, sizeof l);
    launch(&l, ok, 2, 2, 1);   /* 4 groups of 12 = 48 items, 16 bytes each */
    ck_assert_uint_eq(l.mem.counts.oob, 32 * 11);   /* items 16..47 */
    for (unsigned item = 0; item < 16; item++) {   /* within 256 bytes */
        unsigned g = item / 12, li = item % 12;
        unsigned lx = li % 2, ly = li / 2 % 3, lz = li / 6;
        unsigned gx = g % 2, gy = g / 2;
        ck_assert_uint_eq(word(l.buf[0], 16 * item), gx * 2 + lx);
        ck_assert_uint_eq(word(l.buf[0], 16 * item + 4), gy * 3 + ly);
        ck_assert_uint_eq(word(l.buf[0], 16 * item + 8), lz);
        ck_assert_uint_eq(word(l.buf[1], 16 * item), lx);
        ck_assert_uint_eq(word(l.buf[1], 16 * item + 4), ly);
        ck_assert_uint_eq(word(l.buf[1], 16 * item + 8), lz);
        ck_assert_uint_eq(word(l.buf[2], 16 * item + 4), 3);
    }
    unlaunch(&l);
}
END_TEST

/* Each thread writes shared[i], waits, reads its neighbour's: without the
 * barrier the thread-by-thread order would read zeros.  A second barrier
 * in a loop (executed 3 times by every thread) accumulates. */
START_TEST(shared_memory_and_barriers)
{
    static const char cp[] =
        "!!USHADERcp1.0\n"
        "GROUP_SIZE 8;\n"
        "SHARED_MEMORY 32;\n"
        "TEMP i, a, v, k;\n"
        "MOV.U i, invocation.localindex.x;\n"
        "MUL.U a.x, i.x, 4;\n"
        "ADD.U v.x, i.x, 100;\n"
        "STS.U32 shared.x, a.x, v.x;\n"
        "BAR;\n"
        "ADD.U a.y, i.x, 1;\n"
        "AND.U a.y, a.y, 7;\n"
        "MUL.U a.y, a.y, 4;\n"
        "LDS.U32 v.y, a.y;\n"
        "MOV.U k.x, 0;\n"
        "loop:\n"
        "BAR;\n"
        "ATOMS.ADD.U32 v.z, 0, 1;\n"
        "BAR;\n"
        "ADD.U k.x, k.x, 1;\n"
        "BRA.LT.U loop, k.x, 3;\n"
        "LDS.U32 v.z, 0;\n"
        "MUL.U a.z, invocation.globalid.x, 8;\n"
        "STORE.U32 buffer[0].xy, {0, 4, 0, 0}, v.yzzz;\n"
        "ADD.U a.w, a.z, 4;\n"
        "STORE.U32 buffer[1].x, a.z, v.y;\n"
        "STORE.U32 buffer[1].x, a.w, v.z;\n"
        "END\n";
    struct launch l;
    memset(&l, 0, sizeof l);
    launch(&l, cp, 2, 1, 1);
    for (unsigned g = 0; g < 2; g++)
        for (unsigned i = 0; i < 8; i++) {
            unsigned item = 8 * g + i;
            ck_assert_uint_eq(word(l.buf[1], 8 * item), 100 + (i + 1) % 8);
            /* the 100 + 0 written first, then 3 rounds of 8 increments */
            ck_assert_uint_eq(word(l.buf[1], 8 * item + 4), 100 + 24);
        }
    unlaunch(&l);
}
END_TEST

START_TEST(budget_in_a_launch)
{
    static const char cp[] =
        "!!USHADERcp1.0\n"
        "GROUP_SIZE 4;\n"
        "spin:\n"
        "BRA spin;\n"
        "END\n";
    struct us_program p;
    assemble(cp, &p);
    struct us_memory mem = { 0 };
    struct us_exec_env env = { .math = &us_math_exact, .mem = &mem,
                               .max_insts = 1000 };
    uint32_t groups[3] = { 3, 1, 1 };
    struct us_diag d;
    ck_assert(!us_compute_interpret(&p, &env, groups, NULL, &d));
    ck_assert_str_eq(d.msg, "thread 0 executed more than 1000 instructions "
                     "(the budget, knob max_instructions): the program does "
                     "not finish");
    us_program_free(&p);
}
END_TEST

/* ---- Branches ----------------------------------------------------------- */

/* Lane q counts to x[q] in a loop made of branches, with an if/else made
 * of branches inside; a quad in lockstep (the PDOM stack) leaves each
 * lane's registers as a lone thread does. */
static const char bra_fp[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP i, n, s, t;\n"
    "TRUNC.U n, fragment.texcoord[0];\n"
    "MOV.U i, 0;\n"
    "MOV.U s, 0;\n"
    "top:\n"
    "BRA.GE.U out, i.x, n.x;\n"
    "AND.U t.x, i.x, 1;\n"
    "BRA.EQ.U even, t.x, 0;\n"
    "ADD.U s.x, s.x, i.x;\n"
    "BRA next;\n"
    "even:\n"
    "ADD.U s.y, s.y, i.x;\n"
    "next:\n"
    "ADD.U i.x, i.x, 1;\n"
    "BRA top;\n"
    "out:\n"
    "I2F.U result.color, s;\n"
    "END\n";

START_TEST(bra_reconverges_in_lockstep)
{
    struct us_program p;
    assemble(bra_fp, &p);
    ck_assert_ptr_nonnull(p.flow);
    us_vec4 *params = resolve(&p);
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    static const float counts[][4] = {
        { 0, 1, 5, 8 }, { 3, 3, 3, 3 }, { 9, 0, 0, 2 }, { 1, 2, 3, 4 },
    };
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        struct us_thread alone[4], quad[4];
        for (int q = 0; q < 4; q++) {
            memset(&alone[q], 0, sizeof alone[q]);
            us_thread_reset(&alone[q]);
            alone[q].input[US_FIN_TEXCOORD0][0] = counts[k][q];
            quad[q] = alone[q];
            us_interpret(&p, &env, &alone[q]);
        }
        us_interpret_quad(&p, &env, quad);
        for (int q = 0; q < 4; q++) {
            ck_assert(!memcmp(&alone[q], &quad[q], sizeof quad[q]));
            unsigned n = (unsigned)counts[k][q], odd = 0, even = 0;
            for (unsigned i = 0; i < n; i++)
                *(i & 1 ? &odd : &even) += i;
            ck_assert(quad[q].output[US_FOUT_COLOR][0] == (float)odd);
            ck_assert(quad[q].output[US_FOUT_COLOR][1] == (float)even);
        }
    }
    free(params);
    us_program_free(&p);
}
END_TEST

/* ---- The assembler ---------------------------------------------------------- */

static const struct { const char *text; unsigned line, col; const char *msg; }
asm_errors[] = {
    { "!!USHADERcp1.0\nLOAD r0, r1, buffer[0];\nEND\n", 2, 1,
      "LOAD needs an access type (LOAD.U32)" },
    { "!!USHADERcp1.0\nTEMP r;\nLOAD.U64 r, r, buffer[0];\nEND\n", 3, 6,
      "unknown access type 'U64' (U8 S8 U16 S16 U32 S32)" },
    { "!!USHADERcp1.0\nTEMP r;\nLOAD.U32 r, r, buffer[32];\nEND\n", 3, 23,
      "buffer index '32' out of range (0..31)" },
    { "!!USHADERcp1.0\nTEMP r;\nATOM.ADD.U8 r, r, r, buffer[0];\nEND\n", 3, 10,
      "atomics work on U32 or S32, not 'U8'" },
    { "!!USHADERcp1.0\nTEMP r;\nATOM.INC.U32 r, r, r, buffer[0];\nEND\n", 3, 6,
      "unknown atomic operation 'INC' (ADD MIN MAX AND OR XOR EXCH CSWAP)" },
    { "!!USHADERcp1.0\nBRA nowhere;\nEND\n", 2, 5, "undefined label 'nowhere'" },
    { "!!USHADERcp1.0\nx:\nx:\nEND\n", 3, 1, "label 'x' defined twice" },
    { "!!USHADERcp1.0\nTEMP r;\nBRA.LT r, r.x, r.y;\nEND\n", 3, 1,
      "BRA needs a condition and a sign (BRA.LT.S)" },
    { "!!USHADERcp1.0\nTEMP r;\nBRA.LT.X l, r.x, r.y;\nl:\nEND\n", 3, 8,
      "expected S or U, found 'X'" },
    { "!!USHADERcp1.0\nTEMP r;\nADD.S_SAT r, r, r;\nEND\n", 3, 1,
      "ADD.U has no _SAT form" },
    { "!!USHADERcp1.0\nTEMP r;\nADD.S r, r, 1.5;\nEND\n", 3, 13,
      "expected an integer constant, found '1.5'" },
    { "!!USHADERcp1.0\nTEMP r;\nADD.S r, r, 4294967296;\nEND\n", 3, 13,
      "integer constant '4294967296' does not fit in 32 bits" },
    { "!!USHADERcp1.0\nTEMP r;\nADD r, r, 0x10;\nEND\n", 3, 11,
      "hexadecimal constants are integers: only integer instructions take them" },
    { "!!USHADERcp1.0\nGROUP_SIZE 64 32;\nEND\n", 2, 1,
      "GROUP_SIZE of 2048 invocations (limit 1024)" },
    { "!!USHADERcp1.0\nGROUP_SIZE 4;\nGROUP_SIZE 4;\nEND\n", 3, 1,
      "GROUP_SIZE declared twice" },
    { "!!USHADERcp1.0\nSHARED_MEMORY 65537;\nEND\n", 2, 15,
      "SHARED_MEMORY must be 0..65536" },
    { "!!USHADERcp1.0\nMOV result.color, 1;\nEND\n", 2, 5,
      "compute programs have no results: they write memory" },
    { "!!USHADERcp1.0\nTEMP r;\nMOV r, invocation.foo;\nEND\n", 3, 19,
      "invalid compute program input invocation.'foo'" },
    { "!!ARBfp1.0\nOPTION USHADER_extensions;\nBAR;\nEND\n", 3, 1,
      "BAR is a compute program instruction" },
    { "!!ARBfp1.0\nTEMP r;\nADD.U r, r, r;\nEND\n", 3, 1,
      "ADD.U needs OPTION USHADER_extensions" },
    { "!!USHADERcp1.0\nTEMP r;\nIF r.x;\nBRA out;\nENDIF;\nout:\nEND\n", 4, 1,
      "BRA leaves its IF, ELSE or loop body" },
    { "!!USHADERcp1.0\nTEMP r;\nBGNLOOP;\nBRA.EQ.U x, r.x, 0;\nBRK;\nx:\n"
      "BRK;\nENDLOOP;\nEND\n", 4, 1,
      "BRA's paths meet only outside its IF, ELSE or loop body" },
    { "!!USHADERcp1.0\nTEMP r;\nADD.W8 r, r, r;\nEND\n", 3, 1,
      "ADD has no word width: .W8 is for integer arithmetic" },
    { "!!USHADERcp1.0\nTEMP r;\nLOAD.U32.W16 r, r, buffer[0];\nEND\n", 3, 1,
      "LOAD has no word width: .W16 is for integer arithmetic" },
    { "!!USHADERcp1.0\nTEMP r;\nBAR |\nADD.U r, r, r;\nEND\n", 4, 1,
      "a '|' group goes on after BAR: flow control and barriers end their group" },
    { "!!USHADERcp1.0\nTEMP r;\nADD.U r, r, r |\nEND\n", 4, 1,
      "expected an instruction after '|'" },
    { "!!USHADERcp1.0\nTEMP r;\nADD.U r, r, r |\nl:\nADD.U r, r, r;\nEND\n",
      4, 1, "a label cannot split a '|' group" },
    { "!!USHADERcp1.0\nTEMP r;\nBRA l;\nADD.U r, r, r |\nl:\nEND\n", 5, 1,
      "a label cannot split a '|' group" },
    { "!!ARBvp1.0\nTEMP r;\nADD r, r, r |\nADD r, r, r;\nEND\n", 3, 13,
      "expected ';', found '|'" },
    /* SYNC | BRA label is the one group that goes on after flow control */
    { "!!USHADERcp1.0\nTEMP r;\nSYNC |\nADD.U r, r, r;\nEND\n", 4, 1,
      "a '|' group goes on after SYNC: flow control and barriers end their group" },
    { "!!USHADERcp1.0\nTEMP r;\nSYNC |\nBRA.EQ.U l, r.x, 0;\nl:\nEND\n", 4, 1,
      "SYNC | BRA: the BRA after SYNC must be unconditional" },
    { "!!USHADERcp1.0\nTEMP r;\nSYNC |\nBRA l |\nBRA l;\nl:\nEND\n", 5, 1,
      "a '|' group goes on after BRA: flow control and barriers end their group" },
    { "!!USHADERcp1.0\nTEMP r;\nADD.U r, r, r |\nBRA l |\nSYNC;\nl:\nEND\n", 5, 1,
      "a '|' group goes on after BRA: flow control and barriers end their group" },
};

START_TEST(assembler_errors)
{
    for (size_t i = 0; i < sizeof asm_errors / sizeof asm_errors[0]; i++) {
        struct us_program p;
        struct us_diag d;
        const char *t = asm_errors[i].text;
        ck_assert_msg(!us_assemble(t, strlen(t), US_STAGE_ANY, &p, &d),
                      "accepted:\n%s", t);
        ck_assert_msg(d.line == asm_errors[i].line &&
                      d.col == asm_errors[i].col &&
                      !strcmp(d.msg, asm_errors[i].msg),
                      "%s\n-> %u:%u: %s\n(want %u:%u: %s)", t, d.line, d.col,
                      d.msg, asm_errors[i].line, asm_errors[i].col,
                      asm_errors[i].msg);
    }
}
END_TEST

/* assemble -> disassemble -> assemble gives the same program, and the
 * text reaches a fixpoint. */
START_TEST(disassembly_round_trips)
{
    static const char *const progs[] = {
        bra_fp,
        "!!USHADERcp1.0\nOPTION USHADER_word16;\nGROUP_SIZE 8 2;\n"
        "SHARED_MEMORY 128;\nTEMP a, b;\n"
        "LDS.S16 a.xy, invocation.localid;\nSTS.U8 shared.zw, a, b;\n"
        "ATOMS.CSWAP.S32 b.x, a, 3, 4;\nATOMS.MAX.S32 b.y, a, -1;\n"
        "ATOM.EXCH.U32 b.z, a, 0xdeadbeef, buffer[5];\n"
        "LOAD.U32 b, a, buffer[31];\nSTORE.S32 buffer[2].w, a, b;\n"
        "MEMBAR;\nBAR;\nSHR.S a, b, {1, 2, 3, 4};\n"
        "MUL.U.HI a, a, b;\nBFI.U a, {3, 4, 0, 0}, a, b;\n"
        "BRA.LE.S end, a.x, b.w;\nBRA.NE.S end, a.y, 65536;\nend:\nEND\n",
        "!!USHADERcp1.0\nOPTION USHADER_word16;\nTEMP a, b;\n"
        "SHL.U.W32 a.x, invocation.globalid.x, 2 |\n"
        "LOAD.U32 b.x, a.x, buffer[0] |\nADD.S.W8 b.x, b.x, -1;\n"
        "SYNC;\nMUL.U.HI.W16 a, a, b;\nSTORE.U32 buffer[0].x, a.x, b.x;\n"
        "BRA.EQ.U top, a.x, 0 ;\ntop:\nSUB.U a, a, b |\nBAR;\nEND\n",
        "!!USHADERcp1.0\nTEMP a;\nBRA.EQ.U t, a.x, 0;\nMOV.U a.x, 2;\n"
        "BRA j;\nt:\nMOV.U a.x, 1;\nSYNC |\nBRA j;\nj:\nADD.U a, a, 1;\nEND\n",
    };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        struct us_program a, b, c;
        assemble(progs[i], &a);
        char *t1 = us_disassemble(&a);
        ck_assert_ptr_nonnull(t1);
        assemble(t1, &b);
        ck_assert_msg(us_program_equal(&a, &b), "round trip differs:\n%s", t1);
        char *t2 = us_disassemble(&b);
        ck_assert_str_eq(t1, t2);
        assemble(t2, &c);
        free(t1);
        free(t2);
        us_program_free(&a);
        us_program_free(&b);
        us_program_free(&c);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("compute");
    TCase *tc = tcase_create("interpreter");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, int_ops_against_c);
    tcase_add_test(tc, conversions_and_fields);
    tcase_add_test(tc, bit_moves_keep_payloads);
    tcase_add_test(tc, loads_stores_and_bounds);
    tcase_add_test(tc, atomics);
    tcase_add_test(tc, work_item_identity);
    tcase_add_test(tc, shared_memory_and_barriers);
    tcase_add_test(tc, budget_in_a_launch);
    tcase_add_test(tc, bra_reconverges_in_lockstep);
    tcase_add_test(tc, assembler_errors);
    tcase_add_test(tc, disassembly_round_trips);
    suite_add_tcase(s, tc);
    return s;
}
