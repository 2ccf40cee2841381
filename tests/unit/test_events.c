/*
 * Pipeline events (shader/core.h, us_workload.events; docs/TRACE.md):
 * every model reports through the one sink what it counts -- an issue
 * event per issue on each lane, a stall event per processor-cycle it
 * counts in stalls.*, a retirement per thread -- and a run with a sink
 * leaves the same registers and statistics as one without.  On the
 * scalar SP, a hand-computed schedule: three dependent MADs and an
 * independent ADD (docs/TRACE.md has the derivation).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shader/core.h"
#include "shader/timing.h"

#include "check_main.h"

enum { MAX_EV = 1 << 16 };

struct rec {
    struct us_event ev[MAX_EV];
    char name[MAX_EV][16];
    unsigned n, issues, stalls, retires;
};

static void record(void *ctx, const struct us_event *ev)
{
    struct rec *r = ctx;
    r->issues += ev->kind == US_EVENT_ISSUE;
    r->stalls += ev->kind == US_EVENT_STALL;
    r->retires += ev->kind == US_EVENT_RETIRE;
    if (r->n == MAX_EV)
        return;
    r->ev[r->n] = *ev;
    /* the name need only live for the call: keep a copy */
    snprintf(r->name[r->n], sizeof r->name[r->n], "%s",
             ev->name ? ev->name : "");
    r->ev[r->n].name = r->name[r->n];
    r->n++;
}

struct run {
    struct us_program prog;
    us_vec4 params[8];
    struct us_exec_env env;
    struct us_thread *t;
    struct us_stats st;
};

/* `text` on model m with the settings, nthreads threads, with or
 * without a sink. */
static void run_on(struct run *r, const struct us_core_model *m,
                   const char *text, unsigned nthreads,
                   const char *const *sets, struct rec *rec)
{
    struct us_diag diag;
    memset(r, 0, sizeof *r);
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &r->prog,
                              &diag), "%s", diag.msg);
    struct us_glstate gl;
    us_glstate_init(&gl);
    us_resolve_params(&r->prog, &gl, r->params);
    r->env = (struct us_exec_env){ .params = r->params,
                                   .math = &us_math_exact };
    r->t = calloc(nthreads, sizeof *r->t);
    ck_assert_ptr_nonnull(r->t);
    for (unsigned i = 0; i < nthreads; i++) {
        us_thread_reset(&r->t[i]);
        for (unsigned k = 0; k < 4; k++)
            r->t[i].input[US_FIN_COLOR0][k] = (float)(i + k + 1) / 8.0f;
    }
    struct us_config cfg;
    us_config_default(&cfg);
    for (unsigned i = 0; sets && sets[i]; i++)
        ck_assert_msg(us_config_set(&cfg, sets[i], &diag), "%s", diag.msg);
    struct us_event_sink sink = { record, rec };
    struct us_workload w = { &r->prog, &r->env, r->t, nthreads,
                             rec ? &sink : NULL, NULL };
    ck_assert_msg(us_core_run(m, &cfg, &w, &r->st, &diag), "%s", diag.msg);
}

/* Runs a (no sink) and b (a sink, or cycle by cycle) left the same
 * registers in their n threads and the same statistics. */
static void same_runs(const struct run *a, const struct run *b, unsigned n,
                      const char *what)
{
    for (unsigned i = 0; i < n; i++)
        ck_assert_msg(!memcmp(&a->t[i], &b->t[i], sizeof a->t[i]),
                      "%s: thread %u differs with a sink", what, i);
    ck_assert_uint_eq(a->st.n, b->st.n);
    for (unsigned i = 0; i < a->st.n; i++) {
        double x = us_stats_get(&a->st, a->st.s[i].name);
        double y = us_stats_get(&b->st, a->st.s[i].name);
        ck_assert_msg(x == y || (isnan(x) && isnan(y)), "%s: %s %g vs %g",
                      what, a->st.s[i].name, x, y);
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
    return isnan(v) ? 0 : v;
}

static const char chain[] =
    "!!ARBfp1.0\n"
    "TEMP a, b, c, d;\n"
    "MAD a.x, fragment.color.x, fragment.color.y, fragment.color.z;\n"
    "MAD b.x, a.x, fragment.color.y, fragment.color.z;\n"
    "MAD c.x, b.x, fragment.color.y, fragment.color.z;\n"
    "ADD d.x, fragment.color.w, fragment.color.y;\n"
    "MOV result.color.x, c.x;\n"
    "MOV result.color.y, d.x;\n"
    "END\n";

/* One SP, one thread, ALU latency L: cycle 0 fetches (a fetch stall);
 * MAD issues at 1, 1 + L, 1 + 2L (each waits for the one before), the
 * independent ADD right after the third, at 2 + 2L; MOV c.x at 1 + 3L,
 * MOV d.x at 2 + 3L; the thread retires when its last result is usable,
 * 2 + 4L.  Every other cycle is a dependency stall. */
START_TEST(scalar_hand_schedule)
{
    static const char *const sets[][5] = {
        { "alu_lanes=1", "threads_per_proc=1", "fetch_width=1",
          "alu_latency=4", NULL },
        { "alu_lanes=1", "threads_per_proc=1", "fetch_width=1",
          "alu_latency=7", NULL },
    };
    for (unsigned k = 0; k < 2; k++) {
        uint64_t L = k ? 7 : 4;
        static struct rec rec;
        memset(&rec, 0, sizeof rec);
        struct run r;
        run_on(&r, &us_model_scalar, chain, 1, sets[k], &rec);
        const struct { const char *name; uint64_t at, done; } want[] = {
            { "MAD", 1, 1 + L }, { "MAD", 1 + L, 1 + 2 * L },
            { "MAD", 1 + 2 * L, 1 + 3 * L }, { "ADD", 2 + 2 * L, 2 + 3 * L },
            { "MOV", 1 + 3 * L, 1 + 4 * L }, { "MOV", 2 + 3 * L, 2 + 4 * L },
        };
        unsigned is = 0, stalls = 0;
        bool issued_at[64] = { false };
        for (unsigned i = 0; i < rec.n; i++) {
            const struct us_event *e = &rec.ev[i];
            ck_assert_uint_eq(e->proc, 0);
            if (e->kind == US_EVENT_ISSUE) {
                ck_assert_uint_lt(is, 6);
                ck_assert_str_eq(e->name, want[is].name);
                ck_assert_uint_eq(e->cycle, want[is].at);
                ck_assert_uint_eq(e->done, want[is].done);
                ck_assert_uint_eq(e->pc, is);
                ck_assert_uint_eq(e->slot, 0);
                ck_assert_uint_eq(e->thread, 0);
                ck_assert_uint_eq(e->lanes, 1);
                issued_at[e->cycle] = true;
                is++;
            } else if (e->kind == US_EVENT_STALL) {
                ck_assert_str_eq(e->name, e->cycle == 0 ? "fetch"
                                                        : "dependency");
                ck_assert(!issued_at[e->cycle]);
                stalls++;
            } else {
                ck_assert_uint_eq(e->cycle, 2 + 4 * L);
                ck_assert_uint_eq(e->thread, 0);
            }
        }
        ck_assert_uint_eq(is, 6);
        ck_assert_uint_eq(rec.retires, 1);
        /* 2 + 4L cycles: 6 issues, the rest stalls */
        ck_assert_uint_eq(stalls, 2 + 4 * L - 6);
        ck_assert_uint_eq(stat(&r, "cycles"), 2 + 4 * L);
        ck_assert_uint_eq(stat(&r, "stalls.dependency"), 2 + 4 * L - 7);
        ck_assert_uint_eq(stat(&r, "stalls.fetch"), 1);
        free_run(&r);
    }
}
END_TEST

/* vec4 code with several threads on every processor. */
static const char busy[] =
    "!!ARBfp1.0\n"
    "TEMP a, b;\n"
    "MUL a, fragment.color, fragment.color.yzwx;\n"
    "MAD b, a, fragment.color, a.wzyx;\n"
    "DP3 a.x, b, a;\n"
    "ADD b.y, a.x, b.x;\n"
    "MAD result.color, b, a.x, fragment.color;\n"
    "END\n";

/* The same with SFU work (the scalar SP's LUT waits within an issue). */
static const char busy_sfu[] =
    "!!ARBfp1.0\n"
    "TEMP a, b;\n"
    "MUL a, fragment.color, fragment.color.yzwx;\n"
    "RSQ b.x, a.x;\n"
    "RCP b.y, a.y;\n"
    "EX2 b.z, a.z;\n"
    "LG2 b.w, a.w;\n"
    "MAD result.color, b, a.x, fragment.color;\n"
    "END\n";

/* Every model: the events are what it counts, and the sink changes
 * nothing. */
START_TEST(events_are_the_counts)
{
    const struct us_core_model *m;
    static const char *const sets[] = { "threads_per_proc=3", NULL };
    enum { N = 37 };
    static struct rec rec;
    memset(&rec, 0, sizeof rec);
    struct run a, b;
    const char *text = _i % 2 ? busy_sfu : busy;
    m = us_models[_i / 2];
    run_on(&a, m, text, N, sets, NULL);
    run_on(&b, m, text, N, sets, &rec);
    same_runs(&a, &b, N, m->name);
    ck_assert_uint_eq(rec.retires, N);
    double stalls = 0;
    for (unsigned s = 0; s < US_STALL_COUNT; s++) {
        char key[32];
        snprintf(key, sizeof key, "stalls.%s", us_stall_names[s]);
        stalls += stat(&a, key);
    }
    ck_assert_msg(rec.stalls == stalls, "%s: %u stall events, %g stalls",
                  m->name, rec.stalls, stalls);
    ck_assert_uint_ge(rec.issues, stat(&a, "issued"));
    uint64_t last = 0;
    for (unsigned i = 0; i < rec.n; i++) {
        const struct us_event *e = &rec.ev[i];
        if (e->kind != US_EVENT_STALL)   /* in cycle order (the scalar SP
                                            reports an issue's LUT waits
                                            at the issue) */
            ck_assert_uint_ge(e->cycle, last);
        last = e->kind != US_EVENT_STALL ? e->cycle : last;
        ck_assert_uint_lt(e->cycle, stat(&a, "cycles") + 1);
        if (e->kind == US_EVENT_ISSUE) {
            ck_assert_uint_gt(e->done, e->cycle);
            ck_assert_uint_le(e->done, stat(&a, "cycles"));
            ck_assert_uint_ge(e->lanes, 1);
            ck_assert(e->name[0] != '\0');
            ck_assert_uint_lt(e->thread, N);
        }
    }
    free_run(&a);
    free_run(&b);
}
END_TEST

/* Long waits every processor shares (texture results, a dependent SFU
 * chain): the scalar SP and the vec4 models count the cycles in which
 * nothing can change at once without a sink (quiet_until in
 * model_scalar.c and vec4_timing.c) and one by one with one; the
 * registers and every statistic must agree, under each knob set that
 * changes what a waiting cycle counts. */
static const char waits[] =
    "!!ARBfp1.0\n"
    "TEMP a, b, c;\n"
    "TEX a, fragment.texcoord[0], texture[0], 2D;\n"
    "MUL b, a, fragment.color;\n"
    "TEX c, b, texture[1], 2D;\n"
    "RSQ b.x, c.x;\n"
    "RCP b.y, b.x;\n"
    "LG2 b.z, b.y;\n"
    "MAD result.color, b, c, a;\n"
    "END\n";

START_TEST(quiet_cycles_are_counted)
{
    static const char *const sets[][4] = {
        { "tex_latency=40", NULL },
        { "tex_latency=40", "alu_lanes=4", "threads_per_proc=2", NULL },
        { "tex_latency=64", "sfu=pool", "sfu_pool=1", NULL },
        { "tex_latency=33", "sched=oldest", "fetch_width=2", NULL },
        { "alu_latency=9", "compaction=0", "threads_per_proc=1", NULL },
    };
    enum { N = 23 };
    static struct rec rec;
    static const char *const names[] = { "scalar", "simd4", "vliw",
                                         "superscalar", "hetero" };
    const struct us_core_model *m = us_model_lookup(names[_i / 5]);
    struct run a, b;
    ck_assert_ptr_nonnull(m);
    memset(&rec, 0, sizeof rec);
    run_on(&a, m, waits, N, sets[_i % 5], NULL);
    run_on(&b, m, waits, N, sets[_i % 5], &rec);
    char what[64];
    snprintf(what, sizeof what, "%s, set %d", m->name, _i % 5);
    same_runs(&a, &b, N, what);
    ck_assert_msg(stat(&a, "stalls.texture") > 0, "%s, set %d: no texture "
                  "waits", m->name, _i % 5);
    free_run(&a);
    free_run(&b);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("events");
    TCase *tc = tcase_create("events");
    unsigned n = 0;
    while (us_models[n])
        n++;
    tcase_add_test(tc, scalar_hand_schedule);
    tcase_add_loop_test(tc, events_are_the_counts, 0, 2 * (int)n);
    tcase_add_loop_test(tc, quiet_cycles_are_counted, 0, 25);
    suite_add_tcase(s, tc);
    return s;
}
