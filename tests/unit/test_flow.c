/*
 * Structured flow control on a 2x2 quad (shader/flow.c run by
 * shader/interp.c): lanes that diverge in IF/ELSE and in loops with BRK
 * and CONT must leave every register -- temps, outputs, address registers,
 * the killed flag -- with the bits of four single-thread us_interpret runs,
 * through every entry point: us_interpret_quad, and us_interpret_quads /
 * us_interpret_decoded on the pre-decoded program.  The programs are ARB
 * text under OPTION USHADER_extensions; a few results are also checked
 * against values worked out by hand, and random flow programs
 * (isa/randprog.c) extend the comparison.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "isa/scalar.h"

#include "check_main.h"

/* A texture that depends only on the lane's own coordinates, so single
 * threads (sample) and quads (sample_quad) can agree. */
static void lane_sample(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4], float lod_bias, float out[4])
{
    (void)ctx;
    for (unsigned c = 0; c < 4; c++)
        out[c] = coord[(c + target) & 3] * (float)(unit + 2) + lod_bias +
                 (float)c * 0.25f;
}

static void lane_sample_quad(void *ctx, unsigned unit,
                             enum us_tex_target target,
                             const float coord[4][4], const float lod_bias[4],
                             float out[4][4])
{
    for (unsigned q = 0; q < 4; q++)
        lane_sample(ctx, unit, target, coord[q], lod_bias[q], out[q]);
}

struct run {
    struct us_program prog;
    us_vec4 *params;
    struct us_exec_env env;
};

static void load(struct run *r, const char *text)
{
    struct us_diag diag;
    if (!us_assemble(text, strlen(text), US_STAGE_ANY, &r->prog, &diag))
        ck_abort_msg("assembly failed: %u:%u: %s", diag.line, diag.col,
                     diag.msg);
    struct us_glstate gl;
    us_glstate_init(&gl);
    r->params = calloc(r->prog.nparams + 1, sizeof *r->params);
    ck_assert_ptr_nonnull(r->params);
    us_resolve_params(&r->prog, &gl, r->params);
    r->env = (struct us_exec_env){ .params = r->params,
                                   .math = &us_math_exact,
                                   .sample = lane_sample,
                                   .sample_quad = lane_sample_quad };
}

static void unload(struct run *r)
{
    free(r->params);
    us_program_free(&r->prog);
}

/* Lane q's thread: every input is (x[q], q, -x[q], 1). */
static void lane_inputs(struct us_thread t[4], const float x[4])
{
    memset(t, 0, 4 * sizeof *t);  /* padding too: threads compare by bytes */
    for (unsigned q = 0; q < 4; q++) {
        us_thread_reset(&t[q]);
        for (unsigned i = 0; i < US_MAX_INPUTS; i++) {
            t[q].input[i][0] = x[q];
            t[q].input[i][1] = (float)q;
            t[q].input[i][2] = -x[q];
        }
    }
}

static void assert_same(const struct us_thread *a, const struct us_thread *b,
                        const char *what)
{
    for (unsigned q = 0; q < 4; q++)
        ck_assert_msg(!memcmp(&a[q], &b[q], sizeof a[q]),
                      "%s: lane %u differs from a single thread", what, q);
}

/* Runs the program every way on lanes with inputs x; leaves the single
 * threads' registers (the reference) in ref. */
static void run_all_ways(struct run *r, const float x[4],
                         struct us_thread ref[4])
{
    static struct us_thread init[4], quad[4];
    lane_inputs(init, x);
    memcpy(ref, init, sizeof init);
    for (unsigned q = 0; q < 4; q++)
        us_interpret(&r->prog, &r->env, &ref[q]);

    memcpy(quad, init, sizeof init);
    us_interpret_quad(&r->prog, &r->env, quad);
    assert_same(ref, quad, "us_interpret_quad");

    struct us_decoded *d = us_decode(&r->prog);
    ck_assert_ptr_nonnull(d);
    memcpy(quad, init, sizeof init);
    us_interpret_quads(d, &r->env, quad, 1);
    assert_same(ref, quad, "us_interpret_quads");
    memcpy(quad, init, sizeof init);
    for (unsigned q = 0; q < 4; q++)
        us_interpret_decoded(d, &r->env, &quad[q]);
    assert_same(ref, quad, "us_interpret_decoded");
    us_decoded_free(d);
}

static void check_vec(const float got[4], float x, float y, float z, float w)
{
    const float want[4] = { x, y, z, w };
    for (int c = 0; c < 4; c++)
        ck_assert_msg(got[c] == want[c], "component %d: %g, expected %g", c,
                      (double)got[c], (double)want[c]);
}

/* Nested IF/ELSE with lanes on both sides of each, KIL in one branch and a
 * texture fetch in a branch only some lanes take. */
static const char if_else_fp[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP a, c, r;\n"
    "MOV a, fragment.texcoord[0];\n"
    "MOV r, 0.5;\n"
    "SLT c, a, 2.0;\n"
    "IF c.x;\n"
    "  ADD r.x, a.x, 10.0;\n"
    "  SGT c.z, a.x, 0.5;\n"
    "  IF c.z;\n"
    "    MUL r.y, a.x, 3.0;\n"
    "    TEX r.w, a, texture[1], 2D;\n"
    "  ELSE;\n"
    "    MOV r.y, -1.0;\n"
    "  ENDIF;\n"
    "ELSE;\n"
    "  SUB r.x, a.x, 10.0;\n"
    "  KIL a.z;\n"
    "ENDIF;\n"
    "MOV result.color, r;\n"
    "END\n";

START_TEST(if_else_diverges)
{
    struct run r;
    load(&r, if_else_fp);
    const float x[4] = { 0.0f, 1.0f, 3.0f, 5.0f };
    static struct us_thread t[4];
    run_all_ways(&r, x, t);
    /* lane 1 samples (1, 1, -1, 1) on unit 1, 2D: w = coord[0] * 3 + 0.75 */
    check_vec(t[0].output[US_FOUT_COLOR], 10.0f, -1.0f, 0.5f, 0.5f);
    check_vec(t[1].output[US_FOUT_COLOR], 11.0f, 3.0f, 0.5f, 3.75f);
    check_vec(t[2].output[US_FOUT_COLOR], -7.0f, 0.5f, 0.5f, 0.5f);
    check_vec(t[3].output[US_FOUT_COLOR], -5.0f, 0.5f, 0.5f, 0.5f);
    ck_assert(!t[0].killed && !t[1].killed && t[2].killed && t[3].killed);
    unload(&r);
}
END_TEST

/* A loop whose trip count is the lane's x: BRK leaves early, CONT skips
 * the first iteration's sum.  acc = sum of i for 2 <= i <= x. */
static const char brk_cont_fp[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP n, i, acc, c;\n"
    "MOV n, fragment.texcoord[0];\n"
    "MOV i, 0.0;\n"
    "MOV acc, 0.0;\n"
    "BGNLOOP;\n"
    "  SGE c.x, i.x, n.x;\n"
    "  IF c.x;\n"
    "    BRK;\n"
    "  ENDIF;\n"
    "  ADD i.x, i.x, 1.0;\n"
    "  SLT c.y, i.x, 2.0;\n"
    "  IF c.y;\n"
    "    CONT;\n"
    "  ENDIF;\n"
    "  ADD acc.x, acc.x, i.x;\n"
    "  ADD acc.y, acc.y, 1.0;\n"
    "ENDLOOP;\n"
    "MOV result.color, acc;\n"
    "END\n";

START_TEST(loop_brk_cont)
{
    struct run r;
    load(&r, brk_cont_fp);
    const float x[4] = { 0.0f, 1.0f, 3.0f, 5.0f };
    static struct us_thread t[4];
    run_all_ways(&r, x, t);
    check_vec(t[0].output[US_FOUT_COLOR], 0.0f, 0.0f, 0.0f, 0.0f);
    check_vec(t[1].output[US_FOUT_COLOR], 0.0f, 0.0f, 0.0f, 0.0f);
    check_vec(t[2].output[US_FOUT_COLOR], 5.0f, 2.0f, 0.0f, 0.0f);
    check_vec(t[3].output[US_FOUT_COLOR], 14.0f, 4.0f, 0.0f, 0.0f);
    unload(&r);
}
END_TEST

/* Nested loops: BRK from the inner loop inside an IF/ELSE, CONT of the
 * outer loop, every lane leaving the outer loop at its own time. */
static const char nested_fp[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP n, i, j, acc, c;\n"
    "MOV n, fragment.texcoord[0];\n"
    "MOV i, 0.0;\n"
    "MOV acc, 0.0;\n"
    "BGNLOOP;\n"
    "  ADD i.x, i.x, 1.0;\n"
    "  SGT c.x, i.x, n.x;\n"
    "  IF c.x;\n"
    "    BRK;\n"
    "  ENDIF;\n"
    "  MOV j.x, 0.0;\n"
    "  BGNLOOP;\n"
    "    ADD j.x, j.x, 1.0;\n"
    "    SGE c.y, j.x, i.x;\n"
    "    IF c.y;\n"
    "      ADD acc.z, acc.z, 100.0;\n"
    "      BRK;\n"
    "    ELSE;\n"
    "      ADD acc.y, acc.y, j.x;\n"
    "    ENDIF;\n"
    "    ADD acc.w, acc.w, 1.0;\n"
    "  ENDLOOP;\n"
    "  FRC c.z, 0.5;\n"
    "  SNE c.w, i.x, 2.0;\n"
    "  IF c.w;\n"
    "    CONT;\n"
    "  ENDIF;\n"
    "  ADD acc.x, acc.x, c.z;\n"
    "ENDLOOP;\n"
    "MOV result.color, acc;\n"
    "END\n";

START_TEST(nested_loops)
{
    struct run r;
    load(&r, nested_fp);
    const float x[4] = { 4.0f, 0.0f, 2.0f, 3.0f };
    static struct us_thread t[4];
    run_all_ways(&r, x, t);
    /* outer i = 1..n; inner j = 1..i-1 add j (acc.y) and count (acc.w),
     * j = i adds 100 (acc.z); i = 2 adds 0.5 (acc.x) */
    check_vec(t[0].output[US_FOUT_COLOR], 0.5f, 10.0f, 400.0f, 6.0f);
    check_vec(t[1].output[US_FOUT_COLOR], 0.0f, 0.0f, 0.0f, 0.0f);
    check_vec(t[2].output[US_FOUT_COLOR], 0.5f, 1.0f, 200.0f, 1.0f);
    check_vec(t[3].output[US_FOUT_COLOR], 0.5f, 4.0f, 300.0f, 3.0f);
    unload(&r);
}
END_TEST

/* A vertex program's loop over a PARAM array with ARL and relative
 * addressing; lane 3 runs past the array's end and reads zeros. */
static const char rel_loop_vp[] =
    "!!ARBvp1.0\n"
    "OPTION USHADER_extensions;\n"
    "PARAM tab[4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 },\n"
    "                 { 9, 10, 11, 12 }, { 13, 14, 15, 16 } };\n"
    "ADDRESS A;\n"
    "TEMP i, acc, c;\n"
    "MOV i, 0.0;\n"
    "MOV acc, 0.0;\n"
    "BGNLOOP;\n"
    "  SGE c.x, i.x, vertex.attrib[1].x;\n"
    "  IF c.x;\n"
    "    BRK;\n"
    "  ENDIF;\n"
    "  ARL A.x, i.x;\n"
    "  ADD acc, acc, tab[A.x];\n"
    "  ADD i.x, i.x, 1.0;\n"
    "ENDLOOP;\n"
    "SSG c, -vertex.attrib[1];\n"
    "TRC c.w, 2.75;\n"
    "MOV result.position, acc;\n"
    "MOV result.color, c;\n"
    "END\n";

START_TEST(vertex_rel_loop)
{
    struct run r;
    load(&r, rel_loop_vp);
    const float x[4] = { 0.0f, 1.0f, 3.0f, 6.0f };
    static struct us_thread t[4];
    run_all_ways(&r, x, t);
    check_vec(t[0].output[US_VOUT_POSITION], 0.0f, 0.0f, 0.0f, 0.0f);
    check_vec(t[1].output[US_VOUT_POSITION], 1.0f, 2.0f, 3.0f, 4.0f);
    check_vec(t[2].output[US_VOUT_POSITION], 15.0f, 18.0f, 21.0f, 24.0f);
    check_vec(t[3].output[US_VOUT_POSITION], 28.0f, 32.0f, 36.0f, 40.0f);
    ck_assert_int_eq(t[3].addr[0][0], 5);
    check_vec(t[2].output[US_VOUT_COLOR0], -1.0f, -1.0f, 1.0f, 2.0f);
    unload(&r);
}
END_TEST

/* The instruction budget: a loop no lane leaves stops each lane at the
 * first flow instruction past the budget, the same in every lane and
 * every entry point.  Counting by hand with a budget of 1000: MOV and
 * BGNLOOP are 2, each iteration (ADD, ENDLOOP) 2 more, so the check at
 * the ENDLOOP of iteration 500 (1002 > 1000) stops the lane; the MOV to
 * result.color never runs. */
static const char endless_fp[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP i;\n"
    "MOV i, fragment.texcoord[0];\n"
    "BGNLOOP;\n"
    "  ADD i.y, i.y, 1.0;\n"
    "ENDLOOP;\n"
    "MOV result.color, i;\n"
    "END\n";

START_TEST(endless_loop_stops)
{
    struct run r;
    load(&r, endless_fp);
    r.env.max_insts = 1000;
    const float x[4] = { 0.0f, 1.0f, 2.0f, 3.0f };
    static struct us_thread t[4];
    run_all_ways(&r, x, t);
    for (unsigned q = 0; q < 4; q++) {
        ck_assert(t[q].overrun);
        ck_assert(t[q].temp[0][1] == (float)q + 500.0f);
        check_vec(t[q].output[US_FOUT_COLOR], 0.0f, 0.0f, 0.0f, 0.0f);
    }
    struct us_diag d;
    ck_assert(!us_budget_error(&r.env, 3, &d));
    ck_assert_str_eq(d.msg, "thread 3 executed more than 1000 instructions "
                     "(the budget, knob max_instructions): the program does "
                     "not finish");
    unload(&r);
}
END_TEST

/* Lanes that leave the loop after x iterations finish as they would alone
 * while the lane that never leaves (x = 0: BRK never taken) is stopped;
 * two nested loops of 10^8 iterations each end too, under the default
 * budget (2^24 instructions: the per-visit cap this replaced let them run
 * for hours). */
static const char some_endless_fp[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP i, c;\n"
    "MOV i, fragment.texcoord[0];\n"
    "MOV c, 0;\n"
    "BGNLOOP;\n"
    "  ADD c.x, c.x, 1.0;\n"
    "  SEQ c.y, c.x, i.x;\n"
    "  IF c.y;\n"
    "    BRK;\n"
    "  ENDIF;\n"
    "ENDLOOP;\n"
    "MOV result.color, c;\n"
    "END\n";

static const char huge_nested_fp[] =
    "!!ARBfp1.0\n"
    "OPTION USHADER_extensions;\n"
    "TEMP c;\n"
    "MOV c, 0;\n"
    "BGNLOOP;\n"
    "  ADD c.x, c.x, 1.0;\n"
    "  SGE c.z, c.x, 1e8;\n"
    "  IF c.z;\n"
    "    BRK;\n"
    "  ENDIF;\n"
    "  MOV c.y, 0;\n"
    "  BGNLOOP;\n"
    "    ADD c.y, c.y, 1.0;\n"
    "    SGE c.w, c.y, 1e8;\n"
    "    IF c.w;\n"
    "      BRK;\n"
    "    ENDIF;\n"
    "  ENDLOOP;\n"
    "ENDLOOP;\n"
    "MOV result.color, c;\n"
    "END\n";

START_TEST(budget_stops_only_endless_lanes)
{
    struct run r;
    load(&r, some_endless_fp);
    r.env.max_insts = 5000;
    const float x[4] = { 0.0f, 1.0f, 7.0f, 300.0f };
    static struct us_thread t[4];
    run_all_ways(&r, x, t);
    ck_assert(t[0].overrun);
    for (unsigned q = 1; q < 4; q++) {
        ck_assert(!t[q].overrun);
        check_vec(t[q].output[US_FOUT_COLOR], x[q], 1.0f, 0.0f, 0.0f);
    }
    unload(&r);

    load(&r, huge_nested_fp);
    r.env.max_insts = 1 << 18;
    run_all_ways(&r, x, t);
    for (unsigned q = 0; q < 4; q++)
        ck_assert(t[q].overrun);
    r.env.max_insts = 0;   /* the default, on the fast path */
    struct us_decoded *d = us_decode(&r.prog);
    ck_assert_ptr_nonnull(d);
    us_interpret_quads(d, &r.env, t, 1);
    us_decoded_free(d);
    for (unsigned q = 0; q < 4; q++)
        ck_assert(t[q].overrun && t[q].temp[0][1] > 0.0f);
    unload(&r);
}
END_TEST

/* Straight-line code through the decoded form: SWZ with 0, 1 and signs,
 * _SAT, masks, a destination that is also a source. */
static const char straight_fp[] =
    "!!ARBfp1.0\n"
    "TEMP a, b;\n"
    "MOV a, fragment.texcoord[0];\n"
    "SWZ b, a, -x, 0, -1, y;\n"
    "MAD_SAT b.yz, b, a.yzxw, -b;\n"
    "XPD a.xyz, a, b;\n"
    "DP4 b.w, -a.zyxw, b;\n"
    "MOV result.color, b;\n"
    "MOV result.depth.z, a.x;\n"
    "END\n";

START_TEST(straight_line_decoded)
{
    struct run r;
    load(&r, straight_fp);
    ck_assert_ptr_null(r.prog.flow);
    const float x[4] = { 0.25f, -3.0f, 1e30f, -0.0f };
    static struct us_thread t[4];
    run_all_ways(&r, x, t);
    unload(&r);
}
END_TEST

/* Random programs with nested flow control (and the other IR corners
 * isa/randprog.c produces) on random lane registers. */
START_TEST(random_flow_programs)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    static struct us_thread init[4], ref[4], quad[4];
    for (unsigned n = 0; n < 300; n++) {
        struct us_rng rng = { 0x51ed + n };
        enum us_stage stage = n & 1 ? US_STAGE_VERTEX : US_STAGE_FRAGMENT;
        struct us_program p;
        ck_assert(us_random_flow_program(&rng, stage,
                                         4 + us_rng_below(&rng, 24), &p));
        us_vec4 *params = calloc(p.nparams + 1, sizeof *params);
        ck_assert_ptr_nonnull(params);
        us_resolve_params(&p, &gl, params);
        struct us_exec_env env = { .params = params, .math = &us_math_exact,
                                   .sample = lane_sample,
                                   .sample_quad = lane_sample_quad };
        memset(init, 0, sizeof init);
        for (unsigned q = 0; q < 4; q++)
            us_random_thread(&rng, &init[q]);
        memcpy(ref, init, sizeof init);
        for (unsigned q = 0; q < 4; q++)
            us_interpret(&p, &env, &ref[q]);
        memcpy(quad, init, sizeof init);
        us_interpret_quad(&p, &env, quad);
        assert_same(ref, quad, "random: us_interpret_quad");
        struct us_decoded *d = us_decode(&p);
        ck_assert_ptr_nonnull(d);
        memcpy(quad, init, sizeof init);
        us_interpret_quads(d, &env, quad, 1);
        assert_same(ref, quad, "random: us_interpret_quads");
        us_decoded_free(d);
        free(params);
        us_program_free(&p);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("flow");
    TCase *tc = tcase_create("quad");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, if_else_diverges);
    tcase_add_test(tc, loop_brk_cont);
    tcase_add_test(tc, nested_loops);
    tcase_add_test(tc, vertex_rel_loop);
    tcase_add_test(tc, endless_loop_stops);
    tcase_add_test(tc, budget_stops_only_endless_lanes);
    tcase_add_test(tc, straight_line_decoded);
    tcase_add_test(tc, random_flow_programs);
    suite_add_tcase(s, tc);
    return s;
}
