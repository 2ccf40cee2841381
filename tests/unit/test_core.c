/*
 * The scalar-SP core model with hand-computed cycle counts, the shared LUT
 * per cycle, configuration (knobs, INI files) and the statistics registry.
 *
 * Timing conventions (shader/model_scalar.c): the first issue is cycle 0;
 * repetition k of an instruction issued at c runs at c + k and its result
 * is usable at c + k + alu_latency; a thread retires at the first cycle
 * at which all its results are usable, and `cycles` is the cycle of the
 * last retirement.  An SP fetches its first word in cycle 0 and can issue
 * it from cycle 1 (the fetch stage), so each derivation below counts from
 * the first issue and adds FETCH.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"
#include "shader/core.h"
#include "shader/lut.h"
#include "shader/timing.h"

#include "check_main.h"

enum { FETCH = 1 };  /* cycle 0: every SP fetches, none issues */

/* A run of `text` on the scalar model: nthreads threads whose fragment
 * color is (2, 3, 0.5, 1) and texcoords (i + 1) / 4. */
struct run {
    struct us_program prog;
    us_vec4 params[8];
    struct us_exec_env env;
    struct us_thread *t;
    struct us_stats st;
};

static void run_prog_on(struct run *r, const struct us_core_model *m,
                        const char *text, unsigned nthreads,
                        const char *const *sets);

static void run_prog(struct run *r, const char *text, unsigned nthreads,
                     const char *const *sets)
{
    run_prog_on(r, &us_model_scalar, text, nthreads, sets);
}

/* The same on any model. */
static void run_prog_on(struct run *r, const struct us_core_model *m,
                        const char *text, unsigned nthreads,
                        const char *const *sets)
{
    struct us_diag diag;
    memset(r, 0, sizeof *r);
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &r->prog,
                              &diag), "%s", diag.msg);
    ck_assert_uint_le(r->prog.nparams, 8);
    struct us_glstate gl;
    us_glstate_init(&gl);
    us_resolve_params(&r->prog, &gl, r->params);
    r->env = (struct us_exec_env){ .params = r->params,
                                   .math = &us_math_exact };
    r->t = calloc(nthreads, sizeof *r->t);
    ck_assert_ptr_nonnull(r->t);
    for (unsigned i = 0; i < nthreads; i++) {
        us_thread_reset(&r->t[i]);
        float col[4] = { 2.0f, 3.0f, 0.5f, 1.0f };
        memcpy(r->t[i].input[US_FIN_COLOR0], col, sizeof col);
        for (unsigned c = 0; c < US_MAX_TEX_COORDS; c++)
            for (unsigned k = 0; k < 4; k++)
                r->t[i].input[US_FIN_TEXCOORD0 + c][k] =
                    (float)(i + c + k + 1) / 4.0f;
    }
    struct us_config cfg;
    us_config_default(&cfg);
    for (unsigned i = 0; sets && sets[i]; i++)
        ck_assert_msg(us_config_set(&cfg, sets[i], &diag), "%s", diag.msg);
    struct us_workload w = { &r->prog, &r->env, r->t, nthreads, NULL, NULL };
    ck_assert_msg(us_core_run(m, &cfg, &w, &r->st, &diag),
                  "%s", diag.msg);
    /* Every model leaves the reference interpreter's bits. */
    for (unsigned i = 0; i < nthreads; i++) {
        struct us_thread ref;
        us_thread_reset(&ref);
        memcpy(ref.input, r->t[i].input, sizeof ref.input);
        us_interpret(&r->prog, &r->env, &ref);
        ck_assert(!memcmp(ref.output, r->t[i].output, sizeof ref.output));
        ck_assert(!memcmp(ref.temp, r->t[i].temp, sizeof ref.temp));
    }
}

static void free_run(struct run *r)
{
    free(r->t);
    us_program_free(&r->prog);
}

static double stat(const struct run *r, const char *name)
{
    double v = us_stats_get(&r->st, name);
    ck_assert_msg(!isnan(v), "no statistic %s", name);
    return v;
}

/* One SP, `tpp` threads per SP, ALU latency 4, private LUT. */
static const char *const one_sp[] = {
    "alu_lanes=1", "threads_per_proc=1", "alu_latency=4", "lut=private",
    NULL,
};
static const char *const one_sp_4t[] = {
    "alu_lanes=1", "threads_per_proc=4", "alu_latency=4", "lut=private",
    NULL,
};

static const char mul_chain[] =
    "!!ARBfp1.0\n"
    "TEMP r;\n"
    "MUL r.x, fragment.color.x, fragment.color.y;\n"
    "MUL r.x, r.x, r.x;\n"
    "MUL r.x, r.x, r.x;\n"
    "MUL r.x, r.x, r.x;\n"
    "MOV result.color.x, r.x;\n"
    "END\n";

START_TEST(dependent_scalar_muls)
{
    struct run r;
    /* Compaction leaves the three MUL r.x, r.x, r.x apart (each reads the
     * previous one's result; isa/compact.c merges independent repetitions
     * only).  One thread: the MULs issue at 0, 4, 8, 12, the MOV at 16,
     * whose result is usable at 16 + 4 = 20, when the thread retires.
     * Every cycle but the 5 issue cycles is a dependency stall. */
    run_prog(&r, mul_chain, 1, one_sp);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 20);
    ck_assert_double_eq(stat(&r, "useful_ops"), 5);
    ck_assert_double_eq(stat(&r, "stalls.dependency"), 15);  /* 20 - 5 issues */
    free_run(&r);
    /* Four threads on the SP (round robin) hide the latency: each of the
     * five instructions issues for threads 0..3 on four consecutive
     * cycles (MULs at 0-3, 4-7, 8-11, 12-15, MOVs at 16-19), each ready
     * just when its thread's turn comes; the last MOV is usable at 23.
     * 20 useful ops in 24 cycles. */
    run_prog(&r, mul_chain, 4, one_sp_4t);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 23);
    ck_assert_double_eq_tol(stat(&r, "utilization"), 20.0 / 24.0, 1e-12);
    ck_assert_double_eq(stat(&r, "threads"), 4);
    free_run(&r);
}
END_TEST

START_TEST(independent_vec4_adds)
{
    struct run r;
    /* Four independent 4-component ADDs compact to one instruction each
     * with count 4: the datapath runs one component per cycle, so they
     * issue at 0, 4, 8 and 12; the last repetition runs at 12 + 3 = 15
     * and is usable at 19. */
    run_prog(&r,
             "!!ARBfp1.0\n"
             "TEMP a, b, c;\n"
             "ADD a, fragment.color, fragment.texcoord[0];\n"
             "ADD b, fragment.color, fragment.texcoord[1];\n"
             "ADD c, fragment.color, fragment.texcoord[2];\n"
             "ADD result.color, fragment.color, fragment.texcoord[3];\n"
             "END\n", 1, one_sp);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 19);
    ck_assert_double_eq(stat(&r, "issued"), 4);
    ck_assert_double_eq(stat(&r, "instr_words"), 4);
    ck_assert_double_eq(stat(&r, "width.4"), 1.0);
    ck_assert_double_eq_tol(stat(&r, "utilization"), 16.0 / 20.0, 1e-12);
    free_run(&r);
}
END_TEST

START_TEST(dp3_chain)
{
    struct run r;
    /* A DP3 is one DOT instruction with count 3 (MUL, then two MADs
     * accumulating in place, no stall between them): issued at c, its
     * last repetition runs at c + 2 and is usable at c + 6.  Each DP3
     * reads the previous result at repetition 0: issues at 0, 6, 12;
     * done at 18. */
    run_prog(&r,
             "!!ARBfp1.0\n"
             "TEMP a;\n"
             "DP3 a.x, fragment.color, fragment.texcoord[0];\n"
             "DP3 a.y, a.x, fragment.texcoord[1];\n"
             "DP3 result.color.x, a.y, fragment.texcoord[2];\n"
             "END\n", 1, one_sp);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 18);
    ck_assert_double_eq(stat(&r, "issued"), 3);
    ck_assert_double_eq(stat(&r, "useful_ops"), 9);
    free_run(&r);
}
END_TEST

static const char rsq_chain[] =
    "!!ARBfp1.0\n"
    "TEMP a;\n"
    "RSQ a.x, fragment.color.x;\n"
    "RSQ a.y, a.x;\n"
    "RSQ result.color.x, a.y;\n"
    "END\n";

static const char rsq_independent[] =
    "!!ARBfp1.0\n"
    "TEMP a;\n"
    "RSQ a.x, fragment.color.x;\n"
    "RSQ a.y, fragment.color.y;\n"
    "RSQ a.z, fragment.color.z;\n"
    "RSQ result.color.x, fragment.color.w;\n"
    "END\n";

START_TEST(rsq_partial_and_full)
{
    struct run r;
    /* Partial SFU, degree-2 RSQ table: 2 passes on the SP's multiply-add
     * after the lookup (private LUT: no wait).  The last pass runs at
     * c + 1, usable at c + 1 + 4 = c + 5.  Chain: 0, 5, 10; done 15. */
    run_prog(&r, rsq_chain, 1, one_sp);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 15);
    ck_assert_double_eq(stat(&r, "lut.accesses"), 3);
    free_run(&r);
    /* Independent RSQs: the datapath is busy 2 cycles each: issues at 0,
     * 2, 4, 6; the last is usable at 6 + 1 + 4 = 11. */
    run_prog(&r, rsq_independent, 1, one_sp);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 11);
    free_run(&r);
    /* A private full SFU (latency 6, pipelined): the SP only issues, one
     * cycle each: 0, 1, 2, 3; the last is usable at 3 + 6 = 9.  The
     * chain: 0, 6, 12; done 18. */
    static const char *const full[] = {
        "alu_lanes=1", "threads_per_proc=1", "sfu=full", "sfu_latency=6",
        NULL,
    };
    run_prog(&r, rsq_independent, 1, full);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 9);
    free_run(&r);
    run_prog(&r, rsq_chain, 1, full);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 18);
    ck_assert_double_eq(stat(&r, "stalls.sfu"), 15);  /* 18 - 3 issues */
    free_run(&r);
}
END_TEST

START_TEST(sfu_pool_arbitrates)
{
    struct run r;
    /* Four SPs, one thread each, one RSQ per thread, a pool of one SFU:
     * one SFU instruction starts per cycle (the SP asked first rotates:
     * SP c mod 4 in cycle c), so the RSQs issue at 0, 1, 2, 3: 3 + 2 + 1
     * = 6 refusals.  Each SP then waits 5 cycles for its result (issue at
     * i, usable at i + 6): 20 more SFU stall cycles, 26 in all.  The last
     * is usable at 3 + 6 = 9. */
    static const char *const pool[] = {
        "alu_lanes=4", "threads_per_proc=1", "sfu=pool", "sfu_pool=1",
        "sfu_latency=6", NULL,
    };
    run_prog(&r,
             "!!ARBfp1.0\n"
             "RSQ result.color.x, fragment.color.x;\n"
             "END\n", 4, pool);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 9);
    ck_assert_double_eq(stat(&r, "stalls.sfu"), 26);
    free_run(&r);
}
END_TEST

/* ---- The shared LUT ------------------------------------------------------ */

static void lut_cfg(struct us_config *cfg, const char *const *sets)
{
    struct us_diag diag;
    us_config_default(cfg);
    for (unsigned i = 0; sets[i]; i++)
        ck_assert_msg(us_config_set(cfg, sets[i], &diag), "%s", diag.msg);
}

START_TEST(lut_multifetch_merges)
{
    struct us_config cfg;
    struct us_lut l;
    lut_cfg(&cfg, (const char *const[]){ "lut_banks=4", "lookahead=3",
                                         "multifetch=1", NULL });
    ck_assert(us_lut_init(&l, &cfg, 4));
    /* Four SPs ask for RCP entry 5 in cycle 10: one read, three merged. */
    unsigned stall = 0;
    for (unsigned sp = 0; sp < 4; sp++)
        stall += us_lut_request(&l, 10, US_SFU_T_RCP, 5, 0);
    ck_assert_uint_eq(stall, 0);
    ck_assert_uint_eq(l.accesses, 1);
    ck_assert_uint_eq(l.merged, 3);
    ck_assert_uint_eq(l.conflicts, 0);
    /* Without multi-fetch they serialize: served 10, 11, 12, 13, needed
     * by 13: no stall, three conflicts. */
    us_lut_free(&l);
    cfg.v[US_KNOB_multifetch] = 0;
    ck_assert(us_lut_init(&l, &cfg, 4));
    for (unsigned sp = 0; sp < 4; sp++)
        stall += us_lut_request(&l, 10, US_SFU_T_RCP, 5, 0);
    ck_assert_uint_eq(stall, 0);
    ck_assert_uint_eq(l.accesses, 4);
    ck_assert_uint_eq(l.conflicts, 3);
    us_lut_free(&l);
}
END_TEST

START_TEST(lut_bank_conflicts_and_lookahead)
{
    struct us_config cfg;
    struct us_lut l;
    /* RCP segments 0, 4, 8, 12 are entries 0, 4, 8, 12: all in bank 0 of
     * 4 interleaved banks.  Served at c, c+1, c+2, c+3; the data is
     * needed at c + lookahead, so the stalls are max(0, i - lookahead):
     *   lookahead 3: 0 + 0 + 0 + 0 = 0 (all hidden)
     *   lookahead 1: 0 + 0 + 1 + 2 = 3
     *   lookahead 0: 0 + 1 + 2 + 3 = 6 */
    static const unsigned la[] = { 3, 1, 0 }, want[] = { 0, 3, 6 };
    for (unsigned t = 0; t < 3; t++) {
        lut_cfg(&cfg, (const char *const[]){ "lut_banks=4", NULL });
        cfg.v[US_KNOB_lookahead] = (int)la[t];
        ck_assert(us_lut_init(&l, &cfg, 4));
        unsigned stall = 0;
        for (unsigned sp = 0; sp < 4; sp++) {
            ck_assert_uint_eq(us_lut_bank_of(&l, US_SFU_T_RCP, 4 * sp), 0);
            stall += us_lut_request(&l, 100, US_SFU_T_RCP, 4 * sp, 0);
        }
        ck_assert_uint_eq(stall, want[t]);
        ck_assert_uint_eq(l.stall_cycles, want[t]);
        ck_assert_uint_eq(l.conflicts, 3);
        ck_assert_uint_eq(l.accesses, 4);
        /* The bank is busy until 104: a request at 101 is served at 104,
         * needed at 101 + lookahead. */
        unsigned s = us_lut_request(&l, 101, US_SFU_T_RCP, 16, 0);
        ck_assert_uint_eq(s, 3 > la[t] ? 3 - la[t] : 0);
        us_lut_free(&l);
    }
    /* Segments 0..3 fall in four different interleaved banks: no
     * conflict; with the block mapping (768 entries / 4 = 192 rows per
     * bank) they share bank 0 and serialize. */
    lut_cfg(&cfg, (const char *const[]){ "lut_banks=4", "lookahead=0", NULL });
    ck_assert(us_lut_init(&l, &cfg, 4));
    unsigned stall = 0;
    for (unsigned sp = 0; sp < 4; sp++)
        stall += us_lut_request(&l, 0, US_SFU_T_RCP, sp, 0);
    ck_assert_uint_eq(stall, 0);
    us_lut_free(&l);
    ck_assert(us_config_set(&cfg, "lut_map=block", NULL));
    ck_assert(us_lut_init(&l, &cfg, 4));
    ck_assert_uint_eq(l.rows_per_bank, 192);
    ck_assert_uint_eq(us_lut_bank_of(&l, US_SFU_T_RSQ, 100), 1);  /* 228 */
    for (unsigned sp = 0; sp < 4; sp++)
        stall += us_lut_request(&l, 0, US_SFU_T_RCP, sp, 0);
    ck_assert_uint_eq(stall, 6);
    us_lut_free(&l);
    /* A private LUT never waits. */
    lut_cfg(&cfg, (const char *const[]){ "lut=private", "lookahead=0", NULL });
    ck_assert(us_lut_init(&l, &cfg, 1));
    for (unsigned i = 0; i < 4; i++)
        ck_assert_uint_eq(us_lut_request(&l, 0, US_SFU_T_RCP, 4 * i, 0), 0);
    ck_assert_uint_eq(l.accesses, 4);
    us_lut_free(&l);
}
END_TEST

START_TEST(shared_lut_in_the_model)
{
    struct run r;
    /* Eight SPs, one thread each, all RSQ of the same value in cycle 0:
     * multi-fetch answers them with one read. */
    static const char *const eight[] = { "threads_per_proc=1", NULL };
    run_prog(&r,
             "!!ARBfp1.0\n"
             "RSQ result.color.x, fragment.color.x;\n"
             "END\n", 8, eight);
    ck_assert_double_eq(stat(&r, "lut.accesses"), 1);
    ck_assert_double_eq(stat(&r, "lut.merged"), 7);
    ck_assert_double_eq(stat(&r, "lut.stall_cycles"), 0);
    /* 0: issue and lookup, pass 2 at cycle 1, usable at 5. */
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 5);
    free_run(&r);
    /* Eight distinct RSQ inputs (texcoord x = (i + 1) / 4: segments of
     * 0.25, 0.5, ..., 2.0) with one bank and no multi-fetch or lookahead:
     * the reads serialize, SP i (in the cycle's request order) waits i
     * cycles: 0 + 1 + ... + 7 = 28 stall cycles. */
    static const char *const worst[] = {
        "threads_per_proc=1", "lut_banks=1", "multifetch=0", "lookahead=0",
        NULL,
    };
    run_prog(&r,
             "!!ARBfp1.0\n"
             "RSQ result.color.x, fragment.texcoord[0].x;\n"
             "END\n", 8, worst);
    ck_assert_double_eq(stat(&r, "lut.accesses"), 8);
    ck_assert_double_eq(stat(&r, "lut.stall_cycles"), 28);
    ck_assert_double_eq(stat(&r, "stalls.lut"), 28);
    /* The last SP: stall 7, passes at 7 and 8, usable at 12. */
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 12);
    free_run(&r);
}
END_TEST

/* ---- Physics: utilization ------------------------------------------------- */

START_TEST(full_utilization_scalar_and_vec4_code)
{
    /* Independent one-component operations and independent 4-component
     * ones alike keep every SP busy every cycle once there are threads
     * enough; only the start and the last latency tail are lost. */
    static const char scalar_code[] =
        "!!ARBfp1.0\n"
        "TEMP a, b;\n"
        "MUL a.x, fragment.color.x, fragment.color.y;\n"
        "ADD a.y, fragment.color.z, fragment.color.w;\n"
        "MUL a.z, fragment.texcoord[0].x, fragment.color.y;\n"
        "ADD a.w, fragment.texcoord[0].y, fragment.color.w;\n"
        "MUL b.x, fragment.texcoord[1].x, fragment.color.y;\n"
        "ADD b.y, fragment.texcoord[1].z, fragment.color.w;\n"
        "MUL b.z, fragment.texcoord[2].x, fragment.color.y;\n"
        "ADD result.color.x, fragment.texcoord[2].y, fragment.color.w;\n"
        "END\n";
    static const char vec4_code[] =
        "!!ARBfp1.0\n"
        "TEMP a, b;\n"
        "MUL a, fragment.color, fragment.texcoord[0];\n"
        "ADD b, fragment.color, fragment.texcoord[1];\n"
        "MAD a, a, b, fragment.texcoord[2];\n"
        "ADD result.color, a, b;\n"
        "END\n";
    struct run r;
    /* 512 threads x 8 one-cycle instructions on 8 SPs: 512 issue cycles
     * per SP.  The four threads of an SP run in lockstep and a slot takes
     * a new thread only when the old one's last result is usable, so
     * each of the 16 generations loses about one cycle, plus the fetch
     * cycle and the last tail: 531 cycles, 4096 / (8 x 531) = 96.4%. */
    run_prog(&r, scalar_code, 512, NULL);
    ck_assert_double_gt(stat(&r, "utilization"), 0.96);
    ck_assert_double_eq(stat(&r, "width.1"), 1.0);
    free_run(&r);
    run_prog(&r, vec4_code, 512, NULL);
    ck_assert_double_gt(stat(&r, "utilization"), 0.98);
    free_run(&r);
}
END_TEST

START_TEST(uncompacted_code_fetches_more)
{
    struct run a, b;
    static const char prog[] =
        "!!ARBfp1.0\n"
        "TEMP t;\n"
        "MUL t, fragment.color, fragment.texcoord[0];\n"
        "MAD result.color, t, fragment.texcoord[1], fragment.color;\n"
        "END\n";
    run_prog(&a, prog, 16, NULL);
    run_prog(&b, prog, 16, (const char *const[]){ "compaction=0", NULL });
    /* One 96-bit word per vec4 instruction vs one per component. */
    ck_assert_double_eq(stat(&a, "instr_words"), 16 * 2);
    ck_assert_double_eq(stat(&b, "instr_words"), 16 * 8);
    ck_assert_double_eq(stat(&b, "instr_bits"), 16 * 8 * 96);
    ck_assert_double_eq(stat(&a, "instr_mem_bits"), 2 * 96);
    ck_assert_double_eq(stat(&a, "useful_ops"), stat(&b, "useful_ops"));
    free_run(&a);
    free_run(&b);
    /* Uncompacted code at one word per cycle per SP, thread switches
     * each cycle, and a one-word fetch: buffers run dry. */
    run_prog(&b, prog, 4,
             (const char *const[]){ "compaction=0", "alu_lanes=1",
                                    "threads_per_proc=4", "sched=oldest",
                                    NULL });
    ck_assert_double_ge(stat(&b, "stalls.fetch"), 0);
    free_run(&b);
}
END_TEST

START_TEST(deterministic)
{
    struct run a, b;
    static const char *const sets[] = { "threads_per_proc=2", NULL };
    run_prog(&a, rsq_chain, 37, sets);
    run_prog(&b, rsq_chain, 37, sets);
    ck_assert_uint_eq(a.st.n, b.st.n);
    for (unsigned i = 0; i < a.st.n; i++) {
        ck_assert_str_eq(a.st.s[i].name, b.st.s[i].name);
        double x = us_stats_get(&a.st, a.st.s[i].name);
        double y = us_stats_get(&b.st, b.st.s[i].name);
        ck_assert(x == y || (isnan(x) && isnan(y)));
    }
    free_run(&a);
    free_run(&b);
}
END_TEST

/* ---- Configuration -------------------------------------------------------- */

/* us_config_load on a C string. */
static bool load_text(struct us_config *cfg, const char *text,
                      struct us_diag *diag)
{
    return us_config_load(cfg, text, strlen(text), diag);
}

START_TEST(config_defaults_set_and_ini)
{
    struct us_config cfg;
    struct us_diag diag;
    us_config_default(&cfg);
    ck_assert_int_eq(cfg.v[US_KNOB_alu_lanes], 8);
    ck_assert_int_eq(cfg.v[US_KNOB_lookahead], 3);
    ck_assert(us_config_set(&cfg, "sfu=pool", &diag));
    ck_assert_int_eq(cfg.v[US_KNOB_sfu], 2);
    ck_assert(us_config_set(&cfg, "multifetch=off", &diag));
    ck_assert_int_eq(cfg.v[US_KNOB_multifetch], 0);
    ck_assert(!us_config_set(&cfg, "lut_banks=0", &diag));
    ck_assert(strstr(diag.msg, "out of range") != NULL);
    ck_assert(!us_config_set(&cfg, "sfu=half", &diag));
    ck_assert(strstr(diag.msg, "partial|full|pool") != NULL);
    ck_assert(!us_config_set(&cfg, "bogus=1", &diag));
    ck_assert(strstr(diag.msg, "unknown knob") != NULL);
    ck_assert(!us_config_set(&cfg, "alu_lanes=8x", &diag));
    ck_assert(us_config_set(&cfg, "sfu.rcp.k=6", &diag));
    ck_assert_int_eq(cfg.sfu.k[US_SFU_T_RCP], 6);

    us_config_default(&cfg);
    ck_assert(load_text(&cfg,
                        "; comment\n[core]\nalu_lanes = 16\n"
                        "lut = private\n[sfu]\nrsq.k = 7\n", &diag));
    ck_assert_int_eq(cfg.v[US_KNOB_alu_lanes], 16);
    ck_assert_int_eq(cfg.v[US_KNOB_lut], 1);
    ck_assert_int_eq(cfg.sfu.k[US_SFU_T_RSQ], 7);
    ck_assert(!load_text(&cfg, "[core]\nalu_lanes = 4\nlookahead = 99\n",
                         &diag));
    ck_assert_uint_eq(diag.line, 3);
    ck_assert(!load_text(&cfg, "[gpu]\nx = 1\n", &diag));
    ck_assert_uint_eq(diag.line, 2);
    ck_assert(!load_text(&cfg, "[core]\nthis is not ini\n", &diag));
    ck_assert_uint_eq(diag.line, 2);
}
END_TEST

/* ---- Statistics ----------------------------------------------------------- */

START_TEST(stats_formulas_and_json)
{
    struct us_stats st;
    us_stats_init(&st, "test");
    us_stats_counter(&st, "cycles", "c", 10);
    us_stats_counter(&st, "useful_ops", "u", 60);
    us_stats_counter(&st, "alu_lanes", "l", 8);
    us_stats_counter(&st, "stalls.lut", "s", 2);
    us_stats_counter(&st, "zero", "z", 0);
    us_stats_formula(&st, "utilization", "f",
                     "useful_ops / (alu_lanes * cycles)");
    us_stats_formula(&st, "twice", "f", "-(-2) * utilization + stalls.lut - 1.5");
    us_stats_formula(&st, "divzero", "f", "cycles / zero");
    us_stats_formula(&st, "loop", "f", "loop + 1");
    us_stats_formula(&st, "unknown", "f", "nosuch * 2");
    us_stats_counter(&st, "stalls.dependency", "s", 3);
    us_stats_counter(&st, "area", "a", 100.5);
    us_stats_counter(&st, "area.fp", "a", 60);
    ck_assert_double_eq_tol(us_stats_get(&st, "utilization"), 0.75, 1e-15);
    ck_assert_double_eq_tol(us_stats_get(&st, "twice"), 2.0, 1e-15);
    ck_assert_double_eq(us_stats_get(&st, "divzero"), 0);
    ck_assert(isnan(us_stats_get(&st, "loop")));
    ck_assert(isnan(us_stats_get(&st, "unknown")));
    ck_assert(isnan(us_stats_get(&st, "nosuch")));

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    us_stats_print(f, &st, true);
    fclose(f);
    /* Dotted names nest, in order of first registration. */
    ck_assert_msg(strstr(buf, "\"stalls\": {\n  \"lut\": 2,\n"
                              "  \"dependency\": 3\n }") != NULL,
                  "%s", buf);
    /* A name that is also a prefix keeps its value as "total" (the area
     * breakdown used to be dropped: issue 18). */
    ck_assert_msg(strstr(buf, "\"area\": {\n  \"total\": 100.5,\n"
                              "  \"fp\": 60\n }") != NULL, "%s", buf);
    ck_assert(strstr(buf, "\"arch\": \"test\"") != NULL);
    ck_assert(strstr(buf, "\"utilization\": 0.75") != NULL);
    ck_assert(strstr(buf, "\"loop\": null") != NULL);
    free(buf);
}
END_TEST

START_TEST(area_partial_sfu_from_components)
{
    /* The partial SFU's logic is built from area.def's cells: it is a
     * small fraction of one SP's multiply-add. */
    double logic = us_area_partial_sfu_logic();
    ck_assert_double_gt(logic, 500.0);
    ck_assert_double_lt(logic, 0.2 * (7700.0 + 4184.0));
    struct us_config cfg;
    us_config_default(&cfg);
    struct us_hw simd;
    us_hw_simd4(&cfg, 1280, &simd);
    ck_assert_uint_eq(simd.fmul, 8);
    ck_assert_uint_eq(simd.sfu_full, 2);
    ck_assert_double_gt(us_area_um2(&simd), 0);
    struct us_activity act = { .fmul_ops = 10, .fadd_ops = 10 };
    ck_assert_double_eq_tol(us_energy_pj(&simd, &act), 10 * (3.7 + 0.9), 1e-9);
}
END_TEST

/* ---- Flow control: divergence ------------------------------------------- */

/* Thread 0 (texcoord[0].x = 0.25) takes the IF side, thread 1 (0.5) the
 * longer ELSE side.  pcs: 0 SLT, 1 IF, 2 MUL, 3 ELSE, 4 ADD, 5 MUL,
 * 6 ENDIF, 7 MOV (no compaction merges: one component each). */
static const char diverge[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP r, c;\n"
    "SLT c.x, fragment.texcoord[0].x, 0.375;\n"
    "IF c.x;\n"
    "  MUL r.x, fragment.color.x, fragment.color.y;\n"
    "ELSE;\n"
    "  ADD r.x, fragment.color.x, fragment.color.y;\n"
    "  MUL r.x, r.x, r.x;\n"
    "ENDIF;\n"
    "MOV result.color.x, r.x;\n"
    "END\n";

START_TEST(flow_divergence_scalar)
{
    struct run r;
    /* Two independent SPs, one thread each; each thread follows its own
     * path (its own sequencer), and a taken branch empties its fetch
     * buffer.  Thread 0: fetch 0, SLT 1 (c.x usable 5), IF 5, MUL 6
     * (r.x at 10), ELSE 7 jumps past ENDIF to 7 (refetch), MOV waits for
     * r.x: 10, usable 14.  Thread 1: SLT 1, IF 5 false -> ADD 6 (refetch
     * at 5; r.x at 10), MUL 10 (r.x at 14), ENDIF 11, MOV 14, usable 18.
     * SP 0 has no thread from 14 to 17: 4 idle cycles. */
    static const char *const indep[] = {
        "alu_lanes=2", "threads_per_proc=1", "alu_latency=4", "lut=private",
        NULL,
    };
    run_prog(&r, diverge, 2, indep);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 17);
    ck_assert_double_eq(stat(&r, "idle"), 4);
    ck_assert_double_eq(stat(&r, "issued"), 5 + 6);
    ck_assert_double_eq(stat(&r, "stalls.fetch"), 2);
    /* SP 0: 2-4, 8-9, 11-13; SP 1: 2-4, 7-9, 12-13, 15-17 */
    ck_assert_double_eq(stat(&r, "stalls.dependency"), 8 + 11);
    ck_assert_double_eq(stat(&r, "useful_ops"), 3 + 4);
    ck_assert_double_eq(stat(&r, "branch_instructions"), 2 + 2);
    ck_assert_double_eq(stat(&r, "divergent_branches"), 0);
    ck_assert_double_eq(stat(&r, "masked_lane_slots"), 0);
    ck_assert_double_eq(stat(&r, "budget_overruns"), 0);
    free_run(&r);
    /* lockstep=2: one warp, one pc.  SLT 1, IF 5 (lanes disagree: a
     * divergent branch), MUL 6 on lane 0, ELSE 7, ADD 8 on lane 1 (r.x at
     * 12), MUL 12 (r.x at 16), ENDIF 13, MOV waits for lane 1: 16, usable
     * 20.  MUL, ELSE, ADD, MUL, ENDIF each leave one lane masked for one
     * cycle: 5 masked lane slots.  Stalls per SP: 2-4, 9-11, 14-15,
     * 17-19. */
    static const char *const lock[] = {
        "alu_lanes=2", "threads_per_proc=1", "alu_latency=4", "lut=private",
        "lockstep=2", NULL,
    };
    run_prog(&r, diverge, 2, lock);
    ck_assert_double_eq(stat(&r, "cycles"), FETCH + 19);
    ck_assert_double_eq(stat(&r, "idle"), 0);
    ck_assert_double_eq(stat(&r, "issued"), 8);
    ck_assert_double_eq(stat(&r, "stalls.fetch"), 2);
    ck_assert_double_eq(stat(&r, "stalls.dependency"), 2 * 11);
    ck_assert_double_eq(stat(&r, "useful_ops"), 7);
    ck_assert_double_eq(stat(&r, "branch_instructions"), 3);
    ck_assert_double_eq(stat(&r, "divergent_branches"), 1);
    ck_assert_double_eq(stat(&r, "masked_lane_slots"), 5);
    ck_assert_double_eq(stat(&r, "instr_words"), 8);
    free_run(&r);
}
END_TEST

START_TEST(flow_divergence_simd4)
{
    struct run r;
    /* simd4, two vec4 processors with a thread each (a vec4 unit runs one
     * thread's instruction stream: nothing to mask).  The engine fetches
     * and issues in the same cycle.  Thread 0: SLT 0 (c.x at 4), IF 4,
     * MUL 5 (r.x at 9), ELSE 6 jumps to the MOV (refetch), MOV 9, usable
     * 13.  Thread 1: SLT 0, IF 4 false -> ADD 5 (r.x at 9), MUL 9 (r.x at
     * 13), ENDIF 10, MOV 13, usable 17.  Processor 0 idles 13-16. */
    static const char *const two[] = {
        "alu_lanes=8", "threads_per_proc=1", "alu_latency=4", NULL,
    };
    run_prog_on(&r, &us_model_simd4, diverge, 2, two);
    ck_assert_double_eq(stat(&r, "cycles"), 17);
    ck_assert_double_eq(stat(&r, "idle"), 4);
    ck_assert_double_eq(stat(&r, "issued"), 5 + 6);
    /* processor 0: 1-3, 7-8, 10-12; processor 1: 1-3, 6-8, 11-12, 14-16 */
    ck_assert_double_eq(stat(&r, "stalls.dependency"), 8 + 11);
    ck_assert_double_eq(stat(&r, "useful_ops"), 7);
    ck_assert_double_eq(stat(&r, "branch_instructions"), 4);
    ck_assert_double_eq(stat(&r, "divergent_branches"), 0);
    ck_assert_double_eq(stat(&r, "masked_lane_slots"), 0);
    ck_assert_double_eq(stat(&r, "utilization"), 7.0 / (8 * 17));
    free_run(&r);
    /* lockstep=2: the two processors share one instruction stream (one
     * warp, one pc, one fetch buffer).  SLT 0 on both (c.x at 4), IF 4
     * (lanes disagree: a divergent branch), MUL 5 on processor 0, ELSE 6,
     * ADD 7 on processor 1 (r.x at 11), MUL 11 (r.x at 15), ENDIF 12, MOV
     * waits for processor 1's r.x: 15, usable 19.  MUL, ELSE, ADD, MUL,
     * ENDIF each leave one processor masked for one cycle: 5 x 4 lanes =
     * 20 masked lane slots.  Stalls, per processor: 1-3, 8-10, 13-14,
     * 16-18.  Each word is fetched once for the warp, none refetched
     * (every jump lands on the next word). */
    static const char *const lock[] = {
        "alu_lanes=8", "threads_per_proc=1", "alu_latency=4", "lockstep=2",
        NULL,
    };
    run_prog_on(&r, &us_model_simd4, diverge, 2, lock);
    ck_assert_double_eq(stat(&r, "cycles"), 19);
    ck_assert_double_eq(stat(&r, "idle"), 0);
    ck_assert_double_eq(stat(&r, "issued"), 8);
    ck_assert_double_eq(stat(&r, "stalls.fetch"), 0);
    ck_assert_double_eq(stat(&r, "stalls.dependency"), 2 * 11);
    ck_assert_double_eq(stat(&r, "useful_ops"), 7);
    ck_assert_double_eq(stat(&r, "branch_instructions"), 3);
    ck_assert_double_eq(stat(&r, "divergent_branches"), 1);
    ck_assert_double_eq(stat(&r, "masked_lane_slots"), 5 * 4);
    ck_assert_double_eq(stat(&r, "instr_words"), 8);
    ck_assert_double_eq(stat(&r, "utilization"), 7.0 / (8 * 19));
    free_run(&r);
}
END_TEST

/* Loops: each thread runs its own trip count on independent SPs; in
 * lockstep the warp runs the longest and the others wait masked. */
static const char loop_prog[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP i, k, acc;\n"
    "MOV i.x, 0;\n"
    "MOV acc.x, 0;\n"
    "BGNLOOP;\n"
    "  SGE k.x, i.x, fragment.texcoord[0].w;\n"
    "  IF k.x; BRK; ENDIF;\n"
    "  ADD acc.x, acc.x, fragment.color.x;\n"
    "  ADD i.x, i.x, 0.25;\n"
    "ENDLOOP;\n"
    "MOV result.color.x, acc.x;\n"
    "END\n";

START_TEST(flow_divergent_loop)
{
    /* texcoord[0].w = (i + 4) / 4: thread i iterates 4 + i times. */
    static const char *const indep[] = {
        "alu_lanes=8", "threads_per_proc=1", NULL,
    };
    static const char *const lock[] = {
        "alu_lanes=8", "threads_per_proc=1", "lockstep=8", NULL,
    };
    struct run a, b, c;
    run_prog(&a, loop_prog, 8, indep);
    run_prog(&b, loop_prog, 8, lock);
    run_prog_on(&c, &us_model_simd4, loop_prog, 8, indep);
    /* the same work: sum over threads of (4 + i) iterations x 2 ADDs,
     * plus 3 MOVs and one SGE per test (5 + i tests) */
    double ops = 0;
    for (unsigned t = 0; t < 8; t++)
        ops += 3 + 2 * (4 + t) + (5 + t);
    ck_assert_double_eq(stat(&a, "useful_ops"), ops);
    ck_assert_double_eq(stat(&b, "useful_ops"), ops);
    ck_assert_double_eq(stat(&c, "useful_ops"), ops);
    /* lockstep: thread i leaves after 4 + i iterations and waits masked
     * while the warp runs the 11th: masked slots appear, the SGE-IF of
     * every test is one divergent branch until the last lane leaves */
    ck_assert_double_gt(stat(&b, "masked_lane_slots"), 0);
    ck_assert_double_eq(stat(&b, "divergent_branches"), 7);
    ck_assert_double_eq(stat(&a, "masked_lane_slots"), 0);
    ck_assert_double_eq(stat(&a, "budget_overruns"), 0);
    printf("divergent loop, 8 threads of 4..11 iterations: utilization "
           "scalar %.3f, scalar lockstep=8 %.3f, simd4 %.3f; masked lane "
           "slots (lockstep) %.0f\n", stat(&a, "utilization"),
           stat(&b, "utilization"), stat(&c, "utilization"),
           stat(&b, "masked_lane_slots"));
    free_run(&a);
    free_run(&b);
    free_run(&c);
}
END_TEST

/* Sixteen threads of 4..19 iterations (thread i: 4 + i) on four vec4
 * processors, independent and in lockstep=4 (one warp of four processors:
 * threads 4w .. 4w + 3, w = 0..3, one after another), next to sixteen
 * scalar SPs in lockstep=4.  pcs: 0 MOV, 1 MOV, 2 BGNLOOP, 3 SGE, 4 IF,
 * 5 BRK, 6 ENDIF, 7 ADD, 8 ADD, 9 ENDLOOP, 10 MOV.  While no lane leaves,
 * an iteration issues SGE IF ADD ADD ENDLOOP unmasked (the untaken BRK
 * and its ENDIF are walked past).  At the test where lane m leaves
 * (lanes 0 .. m-1 gone, m = 0..2), masked processors per issue: SGE m,
 * IF m, BRK 3, ADD m+1, ADD m+1, ENDLOOP m+1 (ENDIF walked past); when
 * lane 3 leaves: SGE 3, IF 3, BRK 3, and the warp walks out of the loop.
 * 6 + 11 + 16 + 9 = 42 masked processor-cycles a warp, 4 lanes each. */
START_TEST(flow_divergent_loop_lockstep_vec4)
{
    static const char *const indep[] = {
        "alu_lanes=16", "threads_per_proc=1", NULL,
    };
    static const char *const lock[] = {
        "alu_lanes=16", "threads_per_proc=1", "lockstep=4", NULL,
    };
    struct run a, b, c, d;
    run_prog_on(&a, &us_model_simd4, loop_prog, 16, indep);
    run_prog_on(&b, &us_model_simd4, loop_prog, 16, lock);
    run_prog(&c, loop_prog, 16, indep);
    run_prog(&d, loop_prog, 16, lock);
    ck_assert_double_eq(stat(&b, "useful_ops"), stat(&a, "useful_ops"));
    ck_assert_double_eq(stat(&a, "masked_lane_slots"), 0);
    ck_assert_double_eq(stat(&a, "divergent_branches"), 0);
    /* three divergent IFs a warp (lanes 0, 1, 2 leaving before the
     * others; lane 3 leaves alone) */
    ck_assert_double_eq(stat(&b, "divergent_branches"), 4 * 3);
    ck_assert_double_eq(stat(&b, "masked_lane_slots"), 4 * 42 * 4);
    /* the scalar warps mask the same issues, one lane per SP */
    ck_assert_double_eq(stat(&d, "divergent_branches"), 4 * 3);
    ck_assert_double_eq(stat(&d, "masked_lane_slots"), 4 * 42);
    /* in lockstep the warps run one after another, each as long as its
     * longest thread */
    ck_assert_double_gt(stat(&b, "cycles"), stat(&a, "cycles"));
    ck_assert_double_lt(stat(&b, "utilization"), stat(&a, "utilization"));
    printf("divergent loop, 16 threads of 4..19 iterations on 16 lanes: "
           "utilization simd4 %.3f, simd4 lockstep=4 %.3f, scalar %.3f, "
           "scalar lockstep=4 %.3f; masked lane slots simd4 lockstep=4 %.0f "
           "(of %.0f lane-cycles), scalar lockstep=4 %.0f (of %.0f)\n",
           stat(&a, "utilization"), stat(&b, "utilization"),
           stat(&c, "utilization"), stat(&d, "utilization"),
           stat(&b, "masked_lane_slots"), 16 * stat(&b, "cycles"),
           stat(&d, "masked_lane_slots"), 16 * stat(&d, "cycles"));
    free_run(&a);
    free_run(&b);
    free_run(&c);
    free_run(&d);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("scalar");
    tcase_add_test(tc, dependent_scalar_muls);
    tcase_add_test(tc, independent_vec4_adds);
    tcase_add_test(tc, dp3_chain);
    tcase_add_test(tc, rsq_partial_and_full);
    tcase_add_test(tc, sfu_pool_arbitrates);
    tcase_add_test(tc, shared_lut_in_the_model);
    tcase_add_test(tc, full_utilization_scalar_and_vec4_code);
    tcase_add_test(tc, uncompacted_code_fetches_more);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, flow_divergence_scalar);
    tcase_add_test(tc, flow_divergence_simd4);
    tcase_add_test(tc, flow_divergent_loop);
    tcase_add_test(tc, flow_divergent_loop_lockstep_vec4);
    suite_add_tcase(s, tc);
    TCase *tl = tcase_create("lut");
    tcase_add_test(tl, lut_multifetch_merges);
    tcase_add_test(tl, lut_bank_conflicts_and_lookahead);
    suite_add_tcase(s, tl);
    TCase *tcfg = tcase_create("config");
    tcase_add_test(tcfg, config_defaults_set_and_ini);
    tcase_add_test(tcfg, stats_formulas_and_json);
    tcase_add_test(tcfg, area_partial_sfu_from_components);
    suite_add_tcase(s, tcfg);
    return s;
}
