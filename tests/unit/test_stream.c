/*
 * Streamed workloads (shader/core.h, us_workload.stream): every model run
 * on threads streamed through a small window of records gives the same
 * statistics, bit for bit, and every thread the same outputs as the run
 * on all threads materialised; each thread starts once and retires once,
 * and a window smaller than the threads in flight is seen (a start over a
 * record still in flight).
 */
#include <stdlib.h>
#include <string.h>

#include "shader/core.h"

#include "check_main.h"

/* Branchy, SFU-heavy and texture-free: uneven thread lengths, so threads
 * retire out of order. */
static const char prog_text[] =
    "!!ARBfp1.0\n"
    "TEMP a, b;\n"
    "MUL a, fragment.color, fragment.texcoord[0];\n"
    "RSQ b.x, a.x;\n"
    "RCP b.y, a.y;\n"
    "EX2 b.z, a.z;\n"
    "LG2 b.w, fragment.texcoord[0].w;\n"
    "MAD a, a, b, fragment.texcoord[0];\n"
    "DP3 b.x, a, b;\n"
    "SIN a.w, b.x;\n"
    "MOV result.color, a;\n"
    "END\n";

enum { NTHREADS = 700 };

static void fill(unsigned i, struct us_thread *t)
{
    us_thread_reset(t);
    for (unsigned k = 0; k < 4; k++) {
        t->input[US_FIN_COLOR0][k] = (float)((i * 7 + k) % 13) / 3.0f + 0.25f;
        t->input[US_FIN_TEXCOORD0][k] = (float)((i * 5 + 3 * k) % 11) / 4.0f;
    }
}

struct sctx {
    us_vec4 out[NTHREADS];
    unsigned starts[NTHREADS], retires[NTHREADS];
    unsigned *occupant;   /* tid + 1 in flight per record, or 0 */
    unsigned mask;
    bool overflow;
};

static void on_start(void *ctx, unsigned tid, struct us_thread *t)
{
    struct sctx *s = ctx;
    unsigned *o = &s->occupant[tid & s->mask];
    s->overflow |= *o != 0 && *o != tid + 1;   /* a reset restarts */
    *o = tid + 1;
    s->starts[tid]++;
    fill(tid, t);
}

static void on_retire(void *ctx, unsigned tid, const struct us_thread *t)
{
    struct sctx *s = ctx;
    s->occupant[tid & s->mask] = 0;
    s->retires[tid]++;
    memcpy(s->out[tid], t->output[US_FOUT_COLOR], sizeof s->out[tid]);
}

static void load(struct us_program *p, us_vec4 *params,
                 struct us_exec_env *env)
{
    struct us_diag diag;
    ck_assert_msg(us_assemble(prog_text, strlen(prog_text), US_STAGE_ANY, p,
                              &diag), "%s", diag.msg);
    struct us_glstate gl;
    us_glstate_init(&gl);
    us_resolve_params(p, &gl, params);
    *env = (struct us_exec_env){ .params = params, .math = &us_math_exact };
}

/* Model m under cfg: all threads materialised vs streamed through a
 * window of `window` records. */
static void compare(const struct us_core_model *m, const char *set,
                    unsigned window)
{
    struct us_program p;
    us_vec4 params[8];
    struct us_exec_env env;
    load(&p, params, &env);
    struct us_config cfg;
    struct us_diag diag;
    us_config_default(&cfg);
    if (set)
        ck_assert_msg(us_config_set(&cfg, set, &diag), "%s", diag.msg);
    struct us_thread *all = calloc(NTHREADS, sizeof *all);
    struct us_thread *win = calloc(window, sizeof *win);
    struct sctx *s = calloc(1, sizeof *s);
    ck_assert(all && win && s);
    s->occupant = calloc(window, sizeof *s->occupant);
    s->mask = window - 1;
    ck_assert(s->occupant);
    for (unsigned i = 0; i < NTHREADS; i++)
        fill(i, &all[i]);
    struct us_stats a, b;
    struct us_workload wa = { &p, &env, all, NTHREADS, NULL, NULL };
    ck_assert_msg(us_core_run(m, &cfg, &wa, &a, &diag), "%s", diag.msg);
    struct us_workload_stream ws = { window, on_start, on_retire, s };
    struct us_workload wb = { &p, &env, win, NTHREADS, NULL, &ws };
    ck_assert_msg(us_core_run(m, &cfg, &wb, &b, &diag), "%s", diag.msg);
    ck_assert_msg(!s->overflow, "%s %s: window %u overflowed", m->name,
                  set ? set : "", window);
    ck_assert_uint_eq(a.n, b.n);
    for (unsigned i = 0; i < a.n; i++) {
        ck_assert_str_eq(a.s[i].name, b.s[i].name);
        double x = us_stats_get(&a, a.s[i].name);
        double y = us_stats_get(&b, b.s[i].name);
        ck_assert_msg(!memcmp(&x, &y, sizeof x) || (x != x && y != y),
                      "%s %s: %s %.17g streamed %.17g", m->name,
                      set ? set : "", a.s[i].name, x, y);
    }
    for (unsigned i = 0; i < NTHREADS; i++) {
        ck_assert_msg(s->retires[i] == 1, "%s: thread %u retired %u times",
                      m->name, i, s->retires[i]);
        ck_assert_uint_ge(s->starts[i], 1);
        ck_assert_msg(!memcmp(s->out[i], all[i].output[US_FOUT_COLOR],
                              sizeof s->out[i]),
                      "%s: thread %u's outputs differ streamed", m->name, i);
    }
    free(s->occupant);
    free(s);
    free(win);
    free(all);
    us_program_free(&p);
}

START_TEST(every_model_streamed)
{
    for (unsigned i = 0; us_models[i]; i++) {
        compare(us_models[i], NULL, 512);
        compare(us_models[i], "sched=oldest", 256);
    }
    compare(&us_model_scalar, "lockstep=4", 512);
    compare(&us_model_scalar, "sfu=pool", 256);
    compare(&us_model_simd4, "lockstep=2", 256);
}
END_TEST

/* A window smaller than the threads in flight: a start lands on a record
 * whose thread has not retired, which the stream's owner sees (run_arch
 * then runs again with a larger window). */
START_TEST(small_window_seen)
{
    struct us_program p;
    us_vec4 params[8];
    struct us_exec_env env;
    load(&p, params, &env);
    struct us_config cfg;
    struct us_diag diag;
    us_config_default(&cfg);   /* 8 SPs x 4 threads in flight */
    struct us_thread win[4];
    memset(win, 0, sizeof win);
    struct sctx *s = calloc(1, sizeof *s);
    ck_assert(s);
    unsigned occ[4] = { 0 };
    s->occupant = occ;
    s->mask = 3;
    struct us_workload_stream ws = { 4, on_start, on_retire, s };
    struct us_workload w = { &p, &env, win, NTHREADS, NULL, &ws };
    struct us_stats st;
    ck_assert_msg(us_core_run(&us_model_scalar, &cfg, &w, &st, &diag), "%s",
                  diag.msg);
    ck_assert(s->overflow);
    free(s);
    us_program_free(&p);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_model_streamed);
    tcase_add_test(tc, small_window_seen);
    suite_add_tcase(s, tc);
    return s;
}
