/*
 * The scalar ISA's compute words (isa/scalar.h, docs/COMPUTE.md): integer
 * operations at every word width, memory accesses, barriers and BRA,
 * lowered (compacted or not), executed by the scalar executor -- straight
 * from the lowering and through encoded words -- against the reference
 * interpreter, bit for bit in registers, memory and memory counts; the
 * words' encode -> decode -> disassemble round trips; compaction of
 * memory components and around labels; the decoder's refusals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

#include "check_main.h"

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

static void set_bits(us_vec4 reg, const uint32_t v[4])
{
    memcpy(reg, v, 4 * sizeof *v);
}

/* Every word of `c` encodes, decodes to itself and prints the same. */
static void words_round_trip(const struct us_scode *c)
{
    for (unsigned i = 0; i < c->n; i++) {
        us_sword w = us_sencode(&c->insts[i]);
        struct us_sinst y;
        ck_assert(us_sdecode(w, &y));
        ck_assert(us_sinst_equal(&c->insts[i], &y));
        char a[160], b[160];
        us_sinst_format(&c->insts[i], a, sizeof a);
        us_sinst_format(&y, b, sizeof b);
        ck_assert_str_eq(a, b);
    }
}

/* Run code on a copy of *t0 both from the instructions and from their
 * encoded words; both must give *want. */
static void exec_both(const struct us_scode *c, const struct us_exec_env *env,
                      const struct us_thread *t0, const struct us_thread *want,
                      const char *what)
{
    struct us_thread *t = malloc(sizeof *t);
    ck_assert_ptr_nonnull(t);
    *t = *t0;
    ck_assert(us_scalar_exec(c->insts, c->n, env, t));
    ck_assert_msg(!memcmp(t->temp, want->temp, sizeof t->temp) &&
                  !memcmp(t->output, want->output, sizeof t->output),
                  "%s: the scalar executor differs", what);
    us_sword *w = malloc((c->n + 1) * sizeof *w);
    ck_assert_ptr_nonnull(w);
    for (unsigned i = 0; i < c->n; i++)
        w[i] = us_sencode(&c->insts[i]);
    *t = *t0;
    ck_assert(us_scalar_run(w, c->n, env, t));
    ck_assert_msg(!memcmp(t->output, want->output, sizeof t->output),
                  "%s: the decoded words differ", what);
    free(w);
    free(t);
}

/* ---- Integer operations ----------------------------------------------- */

static const char *const int_ops[] = {
    "ADD.U r, a, -b", "SUB.S r, a, b", "MUL.U r, a, b", "MUL.S.HI r, a, b",
    "MUL.U.HI r, a, b", "DIV.S r, a, b", "DIV.U r, a, b", "MOD.S r, a, b",
    "MOD.U r, a, b", "MIN.S r, a, b", "MIN.U r, a, b", "MAX.S r, -a, b",
    "MAX.U r, a, b", "SHL.U r, a, b", "SHR.S r, a, b", "SHR.U r, a, b",
    "AND.U r, a, b", "OR.U r, a, b", "XOR.U r, a, b", "SEQ.U r, a, b",
    "SNE.S r, a, b", "SLT.S r, a, b", "SLT.U r, a, b", "SLE.S r, a, b",
    "SLE.U r, a, b", "SGT.S r, a, b", "SGT.U r, a, b", "SGE.S r, a, b",
    "SGE.U r, a, b", "NOT.U r, a", "ABS.S r, -a", "BFR.U r, a", "BTC.U r, a",
    "BTFL.U r, a", "BTFM.S r, a", "BTFM.U r, a", "MOV.U r, -a.wzyx",
    "CMP.S r, a, b, -a", "BFE.U r, b.zxyw, a", "BFE.S r.yw, b, a.xxzz",
    "BFI.U r, b.yxzw, a, b", "I2F.S r, a", "I2F.U r.xz, a", "TRUNC.S r, -f",
    "TRUNC.U r, f", "ADD.S r.xyw, a.yzxw, a",
};

static const uint32_t corner[] = {
    0, 1, 2, 5, 7, 8, 15, 16, 31, 32, 33, 0x7f, 0x80, 0xff, 0x7fff, 0x8000,
    0xffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x12345678,
    0xdeadbeef, 0x55aa55aa,
};
enum { NCORNER = sizeof corner / sizeof corner[0] };

START_TEST(integer_ops_match_the_interpreter)
{
    static const unsigned widths[] = { 32, 16, 8 };
    unsigned checked = 0;
    for (size_t k = 0; k < sizeof int_ops / sizeof int_ops[0]; k++)
        for (unsigned wi = 0; wi < 3; wi++) {
            char text[512];
            snprintf(text, sizeof text,
                     "!!ARBvp1.0\nOPTION USHADER_extensions;\n%s"
                     "TEMP r, a, b, f;\nMOV.U a, vertex.attrib[0];\n"
                     "MOV.U b, vertex.attrib[1];\n"
                     "MOV.U f, vertex.attrib[2];\nMOV.U r, 0x5a5a5a5a;\n"
                     "%s;\nMOV.U result.texcoord[0], r;\nEND\n",
                     widths[wi] == 16 ? "OPTION USHADER_word16;\n"
                     : widths[wi] == 8 ? "OPTION USHADER_word8;\n" : "",
                     int_ops[k]);
            struct us_program p;
            assemble(text, &p);
            us_vec4 *params = resolve(&p);
            struct us_exec_env env = { .params = (const us_vec4 *)params,
                                       .math = &us_math_exact };
            for (int compact = 0; compact < 2; compact++) {
                struct us_scode c;
                struct us_diag d;
                ck_assert_msg(us_lower(&p, compact, &c, &d), "%s", d.msg);
                words_round_trip(&c);
                for (unsigned i = 0; i < NCORNER; i += 1 + compact) {
                    struct us_thread t0, want;
                    us_thread_reset(&t0);
                    uint32_t a[4], b[4];
                    for (int q = 0; q < 4; q++) {
                        a[q] = corner[(i + 5 * q) % NCORNER];
                        b[q] = corner[(i * 7 + 3 * q + 1) % NCORNER];
                    }
                    set_bits(t0.input[0], a);
                    set_bits(t0.input[1], b);
                    t0.input[2][0] = -2.75f;
                    t0.input[2][1] = 3.0e9f;
                    t0.input[2][2] = 1.0f / 0.0f;
                    t0.input[2][3] = (float)i * 1000.5f;
                    want = t0;
                    us_interpret(&p, &env, &want);
                    exec_both(&c, &env, &t0, &want, int_ops[k]);
                    checked++;
                }
                us_scode_free(&c);
            }
            free(params);
            us_program_free(&p);
        }
    printf("scalar integer words: %u runs checked against the interpreter\n",
           checked);
}
END_TEST

/* ---- Memory, barriers and branches on one thread ------------------------ */

struct mem {
    struct us_memory m;
    uint8_t buf[3][64];
    uint8_t shared[32];
};

static void mem_init(struct mem *x)
{
    memset(x, 0, sizeof *x);
    for (int b = 0; b < 3; b++) {
        for (int i = 0; i < 64; i++)
            x->buf[b][i] = (uint8_t)(17 * i + 3 * b + 1);
        x->m.buf[b].data = x->buf[b];
        x->m.buf[b].size = sizeof x->buf[b];
    }
}

/* Every access type and atomic operation, out-of-bounds accesses,
 * components aliasing the address (LOAD r.xy, r.yx), two components of
 * one STORE and one ATOM at one address (the order x first decides), a
 * loop of BRAs, shared memory, a 16-bit word, MEMBAR and BAR. */
static const char mem_cp[] =
    "!!USHADERcp1.0\n"
    "OPTION USHADER_word16;\n"
    "SHARED_MEMORY 32;\n"
    "TEMP r, s, i, a;\n"
    "LOAD.U8 r, {1, 2, 63, 64}, buffer[0];\n"
    "LOAD.S16 s, {3, 62, 7, 9}, buffer[1];\n"
    "STORE.U32 buffer[2], {0, 4, 8, 61}, r;\n"
    "LOAD.U32 r.xy, {8, 12, 0, 0}, buffer[2];\n"
    "AND.U r.xy, r, 0x3c;\n"
    "LOAD.U32 r.xy, r.yxzw, buffer[0];\n"
    "STORE.U16 buffer[2].xy, {20, 20, 0, 0}, s;\n"
    "ATOM.ADD.U32 a.xy, {24, 24, 0, 0}, {5, 7, 0, 0}, buffer[2];\n"
    "ATOM.MIN.S32 a.z, 28, -3, buffer[2];\n"
    "ATOM.MAX.U32 a.w, 32, 0xfffffff0, buffer[2];\n"
    "ATOM.AND.U32 i.x, 36, 0xf0f0, buffer[2];\n"
    "ATOM.OR.U32 i.y, 40, 0x0f0f, buffer[2];\n"
    "ATOM.XOR.U32 i.z, 44, s.x, buffer[2];\n"
    "ATOM.EXCH.U32 i.w, 48, 99, buffer[2];\n"
    "STORE.U32 buffer[1], {0, 4, 8, 12}, a;\n"
    "STORE.U32 buffer[1], {16, 20, 24, 28}, i;\n"
    "ATOM.CSWAP.U32 a.x, 52, a.y, 1234, buffer[2];\n"
    "ATOM.CSWAP.S32 a.y, 52, 7, 77, buffer[2];\n"
    "MOV.U i, 0;\n"
    "top:\n"
    "STS.U32 shared.x, i.x, i.x;\n"
    "ADD.U i.x, i.x, 4;\n"
    "MEMBAR;\n"
    "BRA.LT.U top, i.x, 32;\n"
    "BAR;\n"
    "ATOMS.ADD.U32 i.y, 8, 0x10000;\n"
    "ATOMS.CSWAP.U32 i.z, 12, 12, 5;\n"
    "ATOMS.EXCH.S32 i.w, 16, -1;\n"
    "LDS.S16 s, {16, 8, 10, 12};\n"
    "LDS.U8 a.zw, {0, 0, 31, 33};\n"
    "STORE.U32 buffer[0], {32, 36, 40, 44}, s;\n"
    "STORE.U32 buffer[0], {48, 52, 56, 60}, a;\n"
    "STORE.U32 buffer[0].yzw, {0, 20, 24, 28}, i;\n"
    "END\n";

START_TEST(memory_words_match_the_interpreter)
{
    struct us_program p;
    assemble(mem_cp, &p);
    us_vec4 *params = resolve(&p);
    struct mem ref, got;
    mem_init(&ref);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact, .mem = &ref.m };
    uint32_t groups[3] = { 1, 1, 1 };
    struct us_thread want;
    struct us_diag d;
    ck_assert_msg(us_compute_interpret(&p, &env, groups, &want, &d), "%s",
                  d.msg);
    ck_assert_uint_gt(ref.m.counts.oob, 0);
    for (int compact = 0; compact < 2; compact++) {
        struct us_scode c;
        ck_assert(us_lower(&p, compact, &c, &d));
        words_round_trip(&c);
        mem_init(&got);
        env.mem = &got.m;
        struct us_buffer shared = { got.shared, sizeof got.shared };
        struct us_thread t;
        us_compute_thread(&p, groups, 0, &t);
        t.shared = &shared;
        ck_assert(us_scalar_exec(c.insts, c.n, &env, &t));
        ck_assert(!memcmp(t.temp, want.temp, sizeof t.temp));
        ck_assert(!memcmp(got.buf, ref.buf, sizeof got.buf));
        ck_assert(!memcmp(&got.m.counts, &ref.m.counts, sizeof got.m.counts));
        us_scode_free(&c);
    }
    free(params);
    us_program_free(&p);
}
END_TEST

/* A BRA lowers to one flow word aimed where its target's lowering starts
 * (here after a relative read's LDR), compaction does not merge across a
 * label and the targets follow the merge, and the listing says it all. */
START_TEST(branch_targets_and_labels)
{
    static const char cp[] =
        "!!USHADERcp1.0\n"
        "TEMP r, k;\n"
        "MOV.U k, 0;\n"
        "MOV.U r.x, 1;\n"
        "again:\n"
        "MOV.U r.y, 2;\n"
        "MOV.U r.zw, 3;\n"
        "ADD.U k.x, k.x, 1;\n"
        "BRA.NE.S again, k.x, 3;\n"
        "LOAD.U32 r, r, buffer[7];\n"
        "BRA out;\n"
        "STORE.S8 buffer[3].xyzw, k, r;\n"
        "out:\n"
        "END\n";
    struct us_program p;
    assemble(cp, &p);
    for (int compact = 0; compact < 2; compact++) {
        struct us_scode c;
        struct us_diag d;
        ck_assert(us_lower(&p, compact, &c, &d));
        ck_assert_ptr_nonnull(c.flow);
        ck_assert_ptr_nonnull(c.flow->rpc);
        words_round_trip(&c);
        unsigned bras = 0;
        for (unsigned i = 0; i < c.n; i++) {
            const struct us_sinst *x = &c.insts[i];
            if (x->op != US_SOP_BRA)
                continue;
            ck_assert_uint_eq(c.flow->kind[i], US_FLOW_BRA);
            ck_assert_uint_eq(c.flow->partner[i], x->target);
            if (bras++ == 0) {   /* back to MOV.U r.y, unmerged */
                ck_assert_uint_eq(x->cond, US_COND_NE);
                ck_assert_uint_eq(c.insts[x->target].op, US_SOP_MOV_U);
                ck_assert_uint_eq(c.insts[x->target].dst.reg, 4 * 0 + 1);
                ck_assert_uint_eq(c.insts[x->target - 1].dst.reg, 4 * 0 + 0);
                ck_assert_uint_eq(c.insts[x->target - 1].count, 1);
                ck_assert_uint_eq(c.flow->rpc[i], i + 1);
            } else {             /* to the end */
                ck_assert_uint_eq(x->cond, US_COND_ALWAYS);
                ck_assert_uint_eq(x->target, c.n);
                ck_assert(c.flow->always[i]);
            }
        }
        ck_assert_uint_eq(bras, 2);
        char text[4096] = "";
        for (unsigned i = 0; i < c.n; i++) {
            char line[160];
            us_sinst_format(&c.insts[i], line, sizeof line);
            strcat(text, line);
            strcat(text, "\n");
        }
        const char *want[] = { "BRA.NE.U r1.x, c", "BRA -> ", "buffer[7]",
                               "STORE.S8", "buffer[3]" };
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            ck_assert_msg(strstr(text, want[k]), "%s not in\n%s", want[k], text);
        if (compact) {
            ck_assert_msg(strstr(text, "MOV.U[2] r0.z+1,"), "%s", text);
            ck_assert_msg(strstr(text, "LOAD.U32[4] r0.x+1, r0.x+1, buffer[7]")
                          || strstr(text, "LOAD.U32[4]"), "%s", text);
        }
        us_scode_free(&c);
    }
    us_program_free(&p);
}
END_TEST

START_TEST(decoder_refuses_malformed_compute_words)
{
    struct us_sinst ld = { .op = US_SOP_LOAD, .count = 2, .mtype = US_MT_S16,
                           .buf = 31,
                           .dst = { .file = US_FILE_TEMP, .reg = 8, .step = 1 },
                           .src = { { .file = US_FILE_TEMP, .reg = 4,
                                      .step = 1 } } };
    struct us_sinst bra = { .op = US_SOP_BRA, .count = 1, .cond = US_COND_LT_S,
                            .word = 16, .target = 77,
                            .src = { { .file = US_FILE_TEMP, .reg = 1 },
                                     { .file = US_FILE_PARAM, .reg = 9,
                                       .neg = true } } };
    struct us_sinst add = { .op = US_SOP_ADD_U, .count = 1, .word = 8,
                            .dst = { .file = US_FILE_TEMP, .reg = 0 },
                            .src = { { .file = US_FILE_TEMP, .reg = 1 },
                                     { .file = US_FILE_TEMP, .reg = 2 } } };
    struct us_sinst out;
    us_sword w = us_sencode(&ld), bad;
    ck_assert(us_sdecode(w, &out) && us_sinst_equal(&out, &ld));
    bad = w;
    us_sw_set_mtype(&bad, 7);                  /* no such access type */
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_op(&bad, US_SOP_LDS);            /* shared memory: no binding */
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_op(&bad, US_SOP_ATOM_ADD);       /* atomics: 32 bits only */
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_word(&bad, 1);                   /* no word width on memory */
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_sat(&bad, 1);
    ck_assert(!us_sdecode(bad, &out));
    w = us_sencode(&bra);
    ck_assert(us_sdecode(w, &out) && us_sinst_equal(&out, &bra));
    bad = w;
    us_sw_set_cond(&bad, US_COND_COUNT);
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_dfile(&bad, US_FILE_TEMP);       /* BRA writes nothing */
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_word(&bad, 3);
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_sstep(&bad, 1, 2);               /* a branch reads once */
    ck_assert(!us_sdecode(bad, &out));
    w = us_sencode(&add);
    ck_assert(us_sdecode(w, &out) && us_sinst_equal(&out, &add));
    bad = w;
    us_sw_set_texu(&bad, 1);                   /* no texture on ADD.U */
    ck_assert(!us_sdecode(bad, &out));
    bad = w;
    us_sw_set_sat(&bad, 1);                    /* an integer result */
    ck_assert(!us_sdecode(bad, &out));
    char text[128];
    us_sinst_format(&add, text, sizeof text);
    ck_assert_str_eq(text, "ADD.U.W8 r0.x, r0.y, r0.z");
    us_sinst_format(&bra, text, sizeof text);
    ck_assert_str_eq(text, "BRA.LT.S.W16 r0.y, -c2.y -> 77");
    us_sinst_format(&ld, text, sizeof text);
    ck_assert_str_eq(text, "LOAD.S16[2] r2.x+1, r1.x+1, buffer[31]");
}
END_TEST

/* The instruction statistics (`ushader stats`) and every target's binary
 * take compute programs. */
START_TEST(compute_programs_have_stats_and_binaries)
{
    struct us_program p;
    assemble(mem_cp, &p);
    struct us_code_stats st;
    struct us_diag d;
    ck_assert_msg(us_code_stats(&p, &st, &d), "%s", d.msg);
    ck_assert_uint_eq(st.vec4_instructions, p.ninsts);
    ck_assert_uint_gt(st.scalar_instructions, st.compacted_instructions);
    ck_assert_uint_eq(st.op_count[US_OP_BRA], 1);
    ck_assert_uint_eq(st.op_form[US_COMPACT_NONE][US_OP_BRA], 1);
    /* 4 + 4 + 2 + (2 into SCRATCH, the address aliasing, + 2 MOV.U) */
    ck_assert_uint_eq(st.op_form[US_COMPACT_NONE][US_OP_LOAD], 14);
    ck_assert_uint_eq(st.op_form[US_COMPACT_OFFSETS][US_OP_LOAD], 5);
    for (int t = 0; t <= US_TARGET_SCALAR_NOCOMPACT; t++) {
        struct us_binary b, c;
        ck_assert(us_encode_target(&p, (enum us_target)t, &b, &d));
        uint8_t *data;
        size_t len;
        char *text;
        ck_assert(us_binary_serialize(&b, &data, &len));
        ck_assert(us_binary_parse(data, len, &c, &d));
        ck_assert(us_binary_disassemble(&c, &text, &d));
        ck_assert_ptr_nonnull(strstr(text, "ATOMS.CSWAP.U32 "));
        ck_assert_ptr_nonnull(strstr(text, "MEMBAR\nBRA.LT.U.W16 "));
        free(text);
        free(data);
        us_binary_free(&b);
        us_binary_free(&c);
    }
    us_program_free(&p);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("scalar_compute");
    TCase *tc = tcase_create("isa");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, integer_ops_match_the_interpreter);
    tcase_add_test(tc, memory_words_match_the_interpreter);
    tcase_add_test(tc, branch_targets_and_labels);
    tcase_add_test(tc, decoder_refuses_malformed_compute_words);
    tcase_add_test(tc, compute_programs_have_stats_and_binaries);
    suite_add_tcase(s, tc);
    return s;
}
