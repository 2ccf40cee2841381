/*
 * The vec4-family baselines (simd4, vliw, superscalar, hetero; SPEC
 * section 2): bit-identical results against the reference interpreter on
 * piglit's ARB programs and on random programs, hand-computed cycle counts,
 * the utilization physics of SIMD, and determinism.
 *
 * Default knobs unless a test says otherwise: alu_latency 4, sfu_latency
 * 6, tex_latency 20, alu_lanes 8 (two vec4 processors; hetero 3+1: two
 * processors; hetero 4+1 runs at alu_lanes 5: one).  Time convention
 * (shader/vec4_timing.h): an instruction issued at cycle c with latency L
 * has its result usable at c + L; a run ends at the cycle the last result
 * is usable.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"
#include "shader/core.h"

#include "check_main.h"

#define PIGLIT_DIR "/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders"

/* A model and the knobs that select one of its variants. */
struct variant {
    const struct us_core_model *m;
    const char *set;   /* "key=value" or NULL */
    const char *set2;  /* a second one, or NULL */
};

static const struct variant variants[] = {
    { &us_model_simd4, NULL, NULL },
    { &us_model_vliw, NULL, NULL },
    { &us_model_vliw, "vliw_tslot=1", NULL },
    { &us_model_superscalar, NULL, NULL },
    { &us_model_hetero, NULL, NULL },
    { &us_model_hetero, "hetero_vec_width=4 alu_lanes=5", NULL },
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

static void fake_sample(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4], float lod_bias, float out[4])
{
    (void)ctx;
    for (unsigned c = 0; c < 4; c++)
        out[c] = coord[(c + target) & 3] * (float)(unit + 1) + lod_bias +
                 (float)c * 0.125f;
}

/* Apply "key=value" settings separated by spaces (NULL: none). */
static void apply(struct us_config *cfg, const char *sets)
{
    for (const char *p = sets; p && *p;) {
        size_t n = strcspn(p, " ");
        char one[64];
        ck_assert_uint_lt(n, sizeof one);
        memcpy(one, p, n);
        one[n] = '\0';
        struct us_diag d;
        ck_assert_msg(us_config_set(cfg, one, &d), "%s: %s", one, d.msg);
        p += n + (p[n] == ' ');
    }
}

static void config(struct us_config *cfg, const char *set1, const char *set2)
{
    us_config_default(cfg);
    apply(cfg, set1);
    apply(cfg, set2);
}

/* Run a workload to the end through the timing interface. */
static void run(const struct us_core_model *m, const struct us_config *cfg,
                const struct us_workload *w, struct us_stats *st)
{
    struct us_diag d;
    struct us_core *core = m->create(cfg, w, &d);
    ck_assert_msg(core != NULL, "%s: %s", m->name, d.msg);
    unsigned long guard = 0;
    while (m->step(core))
        ck_assert_uint_lt(++guard, 100000000ul);
    us_stats_init(st, m->name);
    m->stats(core, st);
    m->destroy(core);
}

static bool same_thread(const struct us_thread *a, const struct us_thread *b)
{
    return !memcmp(a->temp, b->temp, sizeof a->temp) &&
           !memcmp(a->output, b->output, sizeof a->output) &&
           !memcmp(a->addr, b->addr, sizeof a->addr) && a->killed == b->killed;
}

/* Every variant against us_interpret on `nthreads` random threads. */
static bool check_program(const struct us_program *prog, struct us_rng *r,
                          unsigned nthreads, const char *what)
{
    us_vec4 *params = calloc(prog->nparams + 1, sizeof *params);
    struct us_thread *init = calloc(nthreads, sizeof *init);
    struct us_thread *ref = calloc(nthreads, sizeof *ref);
    struct us_thread *t = calloc(nthreads, sizeof *t);
    ck_assert(params && init && ref && t);
    for (unsigned i = 0; i < prog->nparams; i++)
        for (unsigned c = 0; c < 4; c++)
            params[i][c] = prog->params[i].kind == US_PARAM_CONST
                               ? prog->params[i].value[c] : us_random_float(r);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact, .sample = fake_sample };
    for (unsigned k = 0; k < nthreads; k++) {
        us_random_thread(r, &init[k]);
        ref[k] = init[k];
        us_interpret(prog, &env, &ref[k]);
    }
    bool ok = true;
    for (unsigned v = 0; v < NVARIANTS && ok; v++) {
        struct us_config cfg;
        config(&cfg, variants[v].set, "threads_per_proc=3");
        memcpy(t, init, nthreads * sizeof *t);
        struct us_workload w = { prog, &env, t, nthreads, NULL, NULL };
        struct us_stats st;
        run(variants[v].m, &cfg, &w, &st);
        ck_assert_uint_eq((unsigned)us_stats_get(&st, "threads"), nthreads);
        for (unsigned k = 0; k < nthreads && ok; k++)
            if (!same_thread(&ref[k], &t[k])) {
                fprintf(stderr, "%s: %s%s%s differs from the interpreter "
                        "(thread %u)\n", what, variants[v].m->name,
                        variants[v].set ? " " : "",
                        variants[v].set ? variants[v].set : "", k);
                ok = false;
            }
    }
    free(params);
    free(init);
    free(ref);
    free(t);
    return ok;
}

START_TEST(random_programs)
{
    struct us_rng r = { 0x600dcafe + (uint64_t)_i };
    enum us_stage stage = _i ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
    unsigned n = 150, failed = 0;
    for (unsigned k = 0; k < n && failed < 3; k++) {
        struct us_program p;
        ck_assert(us_random_program(&r, stage, 1 + us_rng_below(&r, 16), &p));
        char what[64];
        snprintf(what, sizeof what, "random %s program %u",
                 stage == US_STAGE_VERTEX ? "vertex" : "fragment", k);
        if (!check_program(&p, &r, 7, what)) {
            failed++;
            char *text = us_disassemble(&p);
            fprintf(stderr, "%s", text ? text : "");
            free(text);
        }
        us_program_free(&p);
    }
    printf("random %s programs on every vec4 model: %u checked, %u failed\n",
           stage == US_STAGE_VERTEX ? "vertex" : "fragment", n, failed);
    ck_assert_uint_eq(failed, 0);
}
END_TEST

/* Every model, the scalar SP included, on random programs with flow
 * control: each keeps a sequencer per thread (or lockstep group) over its
 * own code (vec4 instructions, scalar words, bundles), and all must leave
 * the interpreter's registers. */
static const struct variant flow_variants[] = {
    { &us_model_scalar, NULL, NULL },
    { &us_model_scalar, "compaction=0", NULL },
    { &us_model_scalar, "lockstep=4", NULL },
    { &us_model_scalar, "lockstep=8", NULL },
    { &us_model_simd4, NULL, NULL },
    { &us_model_vliw, NULL, NULL },
    { &us_model_vliw, "vliw_tslot=1", NULL },
    { &us_model_superscalar, NULL, NULL },
    { &us_model_hetero, NULL, NULL },
    { &us_model_hetero, "hetero_vec_width=4 alu_lanes=5", NULL },
    /* vec4 processors in lockstep (one instruction stream, masked lanes):
     * two processors, four, and groups of 3 + 1 over four; superscalar
     * co-issue and hetero's two-cycle bundles under a mask */
    { &us_model_simd4, "lockstep=2", NULL },
    { &us_model_simd4, "lockstep=4", "alu_lanes=16" },
    { &us_model_vliw, "lockstep=3", "alu_lanes=16" },
    { &us_model_superscalar, "lockstep=4", "alu_lanes=16" },
    { &us_model_hetero, "lockstep=2", NULL },
};
enum { NFLOW_VARIANTS = sizeof flow_variants / sizeof flow_variants[0] };

static bool check_flow_program(const struct us_program *prog, struct us_rng *r,
                               unsigned nthreads, const char *what,
                               uint64_t *branches, uint64_t *vec4_divergent)
{
    us_vec4 *params = calloc(prog->nparams + 1, sizeof *params);
    struct us_thread *init = calloc(nthreads, sizeof *init);
    struct us_thread *ref = calloc(nthreads, sizeof *ref);
    struct us_thread *t = calloc(nthreads, sizeof *t);
    ck_assert(params && init && ref && t);
    for (unsigned i = 0; i < prog->nparams; i++)
        memcpy(params[i], prog->params[i].value, sizeof params[i]);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact, .sample = fake_sample };
    for (unsigned k = 0; k < nthreads; k++) {
        us_random_thread(r, &init[k]);
        ref[k] = init[k];
        us_interpret(prog, &env, &ref[k]);
    }
    bool ok = true;
    double ops0 = -1;
    for (unsigned v = 0; v < NFLOW_VARIANTS && ok; v++) {
        struct us_config cfg;
        config(&cfg, flow_variants[v].set, "threads_per_proc=2");
        struct us_diag d;
        if (flow_variants[v].set2)
            ck_assert_msg(us_config_set(&cfg, flow_variants[v].set2, &d),
                          "%s", d.msg);
        memcpy(t, init, nthreads * sizeof *t);
        struct us_workload w = { prog, &env, t, nthreads, NULL, NULL };
        struct us_stats st;
        run(flow_variants[v].m, &cfg, &w, &st);
        ck_assert_uint_eq((unsigned)us_stats_get(&st, "threads"), nthreads);
        /* the same work, whichever path and datapath ran it */
        double ops = us_stats_get(&st, "useful_ops");
        if (ops0 < 0)
            ops0 = ops;
        ck_assert_msg(ops == ops0, "%s: %s useful_ops %g, scalar %g", what,
                      flow_variants[v].m->name, ops, ops0);
        /* (NaN: a program the generator gave no flow control) */
        ck_assert(!(us_stats_get(&st, "budget_overruns") > 0));
        double br = us_stats_get(&st, "branch_instructions");
        *branches += br > 0 ? (uint64_t)br : 0;
        double dv = us_stats_get(&st, "divergent_branches");
        if (flow_variants[v].m != &us_model_scalar && dv > 0)
            *vec4_divergent += (uint64_t)dv;
        for (unsigned k = 0; k < nthreads && ok; k++)
            if (!same_thread(&ref[k], &t[k])) {
                fprintf(stderr, "%s: %s%s%s%s%s differs from the "
                        "interpreter (thread %u)\n", what,
                        flow_variants[v].m->name,
                        flow_variants[v].set ? " " : "",
                        flow_variants[v].set ? flow_variants[v].set : "",
                        flow_variants[v].set2 ? " " : "",
                        flow_variants[v].set2 ? flow_variants[v].set2 : "", k);
                ok = false;
            }
    }
    free(params);
    free(init);
    free(ref);
    free(t);
    return ok;
}

START_TEST(random_flow_programs)
{
    struct us_rng r = { 0xd1ffe4e + (uint64_t)_i };
    enum us_stage stage = _i ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
    unsigned n = 60, failed = 0;
    uint64_t branches = 0, divergent = 0;
    for (unsigned k = 0; k < n && failed < 3; k++) {
        struct us_program p;
        ck_assert(us_random_flow_program(&r, stage, 1 + us_rng_below(&r, 16), &p));
        char what[64];
        snprintf(what, sizeof what, "random %s flow program %u",
                 stage == US_STAGE_VERTEX ? "vertex" : "fragment", k);
        if (!check_flow_program(&p, &r, 9, what, &branches, &divergent)) {
            failed++;
            char *text = us_disassemble(&p);
            fprintf(stderr, "%s", text ? text : "");
            free(text);
        }
        us_program_free(&p);
    }
    printf("random %s flow programs on all five models: %u checked, "
           "%llu branch instructions issued (%llu divergent IFs on vec4 "
           "processors in lockstep), %u failed\n",
           stage == US_STAGE_VERTEX ? "vertex" : "fragment", n,
           (unsigned long long)branches, (unsigned long long)divergent,
           failed);
    ck_assert_uint_gt(branches, 0);
    ck_assert_uint_gt(divergent, 0);
    ck_assert_uint_eq(failed, 0);
}
END_TEST

/* The instruction budget counts the vec4 program's instructions on every
 * model, whatever its code (scalar words, bundles, groups): with a budget
 * small enough to stop threads part-way, each thread run alone stops with
 * the interpreter's registers, and us_core_run reports the overrun. */
START_TEST(budget_flow_programs)
{
    struct us_rng r = { 0xb0d6e7 };
    unsigned stopped = 0, finished = 0;
    for (unsigned k = 0; k < 40; k++) {
        struct us_program p;
        ck_assert(us_random_flow_program(&r, k & 1 ? US_STAGE_FRAGMENT
                                                   : US_STAGE_VERTEX,
                                         1 + us_rng_below(&r, 16), &p));
        us_vec4 *params = calloc(p.nparams + 1, sizeof *params);
        ck_assert_ptr_nonnull(params);
        for (unsigned i = 0; i < p.nparams; i++)
            memcpy(params[i], p.params[i].value, sizeof params[i]);
        struct us_exec_env env = { .params = (const us_vec4 *)params,
                                   .math = &us_math_exact,
                                   .sample = fake_sample,
                                   .max_insts = 8 + us_rng_below(&r, 40) };
        struct us_thread init, ref, t;
        memset(&init, 0, sizeof init);
        us_random_thread(&r, &init);
        ref = init;
        us_interpret(&p, &env, &ref);
        stopped += ref.overrun;
        finished += !ref.overrun;
        for (unsigned v = 0; v < NFLOW_VARIANTS; v++) {
            struct us_config cfg;
            config(&cfg, flow_variants[v].set, flow_variants[v].set2);
            t = init;
            struct us_workload w = { &p, &env, &t, 1, NULL, NULL };
            struct us_stats st;
            struct us_diag d;
            bool ok = us_core_run(flow_variants[v].m, &cfg, &w, &st, &d);
            ck_assert_msg(ok == !ref.overrun && t.overrun == ref.overrun &&
                          same_thread(&ref, &t),
                          "program %u, budget %u: %s %s differs from the "
                          "interpreter (overrun %d vs %d)", k, env.max_insts,
                          flow_variants[v].m->name,
                          flow_variants[v].set ? flow_variants[v].set : "",
                          t.overrun, ref.overrun);
            if (!ok)
                ck_assert(strstr(d.msg, "max_instructions") != NULL);
        }
        free(params);
        us_program_free(&p);
    }
    printf("budget: %u random flow programs stopped by the budget, %u "
           "finished, identical on %u model variants\n", stopped, finished,
           (unsigned)NFLOW_VARIANTS);
    ck_assert_uint_gt(stopped, 5);
    ck_assert_uint_gt(finished, 5);
}
END_TEST

static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

START_TEST(piglit_programs)
{
    static const char *const dirs[] = { PIGLIT_DIR "/ARBvp1.0",
                                        PIGLIT_DIR "/ARBfp1.0" };
    unsigned checked = 0, failed = 0;
    struct us_rng r = { 0xbeef };
    for (unsigned s = 0; s < 2; s++) {
        DIR *d = opendir(dirs[s]);
        ck_assert_msg(d != NULL, "%s missing (install piglit)", dirs[s]);
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dirs[s], e->d_name);
            size_t len;
            char *text = read_whole(path, &len);
            struct us_program p;
            struct us_diag diag;
            if (text && us_assemble(text, len, US_STAGE_ANY, &p, &diag)) {
                checked++;
                failed += !check_program(&p, &r, 5, path);
                us_program_free(&p);
            }
            free(text);
        }
        closedir(d);
    }
    printf("piglit ARB programs on every vec4 model: %u checked, %u failed\n",
           checked, failed);
    ck_assert_uint_eq(checked, 62);
    ck_assert_uint_eq(failed, 0);
}
END_TEST

/* ---- Hand-computed timing ------------------------------------------------ */

/* Cycles (and the statistics) of `text` on one thread, or on `nthreads`. */
static double timed(const struct us_core_model *m, const char *set,
                    const char *set2, const char *text, unsigned nthreads,
                    struct us_stats *st)
{
    struct us_program p;
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &p, &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    us_vec4 *params = calloc(p.nparams + 1, sizeof *params);
    struct us_thread *t = calloc(nthreads, sizeof *t);
    ck_assert(params && t);
    for (unsigned i = 0; i < p.nparams; i++)
        memcpy(params[i], p.params[i].value, sizeof params[i]);
    for (unsigned k = 0; k < nthreads; k++)
        us_thread_reset(&t[k]);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact, .sample = fake_sample };
    struct us_config cfg;
    config(&cfg, set, set2);
    struct us_workload w = { &p, &env, t, nthreads, NULL, NULL };
    run(m, &cfg, &w, st);
    free(params);
    free(t);
    us_program_free(&p);
    return us_stats_get(st, "cycles");
}

static double cycles1(const struct us_core_model *m, const char *set,
                      const char *text)
{
    struct us_stats st;
    return timed(m, set, NULL, text, 1, &st);
}

/* Six dependent one-component MULs, then a 4-component MOV of the result. */
static const char mul_chain[] =
    "!!ARBfp1.0\nTEMP r;\n"
    "MUL r.x, fragment.color.x, fragment.color.y;\n"
    "MUL r.x, r.x, r.x;\nMUL r.x, r.x, r.x;\nMUL r.x, r.x, r.x;\n"
    "MUL r.x, r.x, r.x;\nMUL r.x, r.x, r.x;\n"
    "MOV result.color, r;\nEND\n";

START_TEST(timing_mul_chain)
{
    /* simd4 / superscalar: 7 dependent instructions, each usable 4 cycles
     * after issue (no co-issue: each needs the previous one's result):
     * issues at 0, 4, ..., 24, done 28. */
    ck_assert_double_eq(cycles1(&us_model_simd4, NULL, mul_chain), 28);
    ck_assert_double_eq(cycles1(&us_model_superscalar, NULL, mul_chain), 28);
    /* vliw: 6 bundles of one MUL (0..20), then the MOV's four scalar MOVs
     * share one bundle at 24: done 28. */
    ck_assert_double_eq(cycles1(&us_model_vliw, NULL, mul_chain), 28);
    /* hetero 3+1: the MULs as before (last issue 20, usable 24); the
     * 4-component MOV is wider than the vec3 datapath: issues at 24 and
     * 25, usable 25 + 4 = 29.  hetero 4+1 issues it once: 28. */
    ck_assert_double_eq(cycles1(&us_model_hetero, NULL, mul_chain), 29);
    ck_assert_double_eq(cycles1(&us_model_hetero,
                                "hetero_vec_width=4 alu_lanes=5",
                                mul_chain), 28);
    /* alu_latency=2 halves every step: 7 * 2. */
    ck_assert_double_eq(cycles1(&us_model_simd4, "alu_latency=2", mul_chain), 14);
}
END_TEST

/* Eight independent 4-component ADDs. */
static const char vec4_adds[] =
    "!!ARBfp1.0\nTEMP a, b, c, d, e, f, g, h;\n"
    "ADD a, fragment.color, fragment.texcoord[0];\n"
    "ADD b, fragment.color, fragment.texcoord[1];\n"
    "ADD c, fragment.color, fragment.texcoord[2];\n"
    "ADD d, fragment.color, fragment.texcoord[3];\n"
    "ADD e, fragment.texcoord[0], fragment.texcoord[1];\n"
    "ADD f, fragment.texcoord[0], fragment.texcoord[2];\n"
    "ADD g, fragment.texcoord[0], fragment.texcoord[3];\n"
    "ADD h, fragment.texcoord[1], fragment.texcoord[2];\nEND\n";

START_TEST(timing_vec4_adds)
{
    /* simd4: one per cycle, issues 0..7, the last usable at 7 + 4 = 11. */
    ck_assert_double_eq(cycles1(&us_model_simd4, NULL, vec4_adds), 11);
    /* superscalar: 4 + 4 components never fit the datapath together: 11. */
    ck_assert_double_eq(cycles1(&us_model_superscalar, NULL, vec4_adds), 11);
    /* vliw: 32 scalar ADDs in 8 full bundles, 0..7: 11. */
    ck_assert_double_eq(cycles1(&us_model_vliw, NULL, vec4_adds), 11);
    /* hetero 3+1: each ADD takes two issues (0-1, 2-3, ..., 14-15), the
     * last usable at 15 + 4 = 19; 4+1: one issue each, 11. */
    ck_assert_double_eq(cycles1(&us_model_hetero, NULL, vec4_adds), 19);
    ck_assert_double_eq(cycles1(&us_model_hetero,
                                "hetero_vec_width=4 alu_lanes=5",
                                vec4_adds), 11);
}
END_TEST

/* Three chained DP3s on a 4-component MOV, then a 4-component MOV. */
static const char dp3_chain[] =
    "!!ARBfp1.0\nTEMP r;\nMOV r, fragment.color;\n"
    "DP3 r, r, r;\nDP3 r, r, r;\nDP3 r, r, r;\n"
    "MOV result.color, r;\nEND\n";

START_TEST(timing_dp3_chain)
{
    /* simd4: the dot-product tree does a DP3 in one issue: five dependent
     * instructions, 5 * 4 = 20.  superscalar: the same. */
    ck_assert_double_eq(cycles1(&us_model_simd4, NULL, dp3_chain), 20);
    ck_assert_double_eq(cycles1(&us_model_superscalar, NULL, dp3_chain), 20);
    /* hetero 3+1: MOV 4-wide, issues 0-1, usable 5; each DP3 (3 products)
     * fits the vec3 datapath with its reduction: 5 -> 9 -> 13 -> 17; the
     * final MOV issues 17-18, usable 18 + 4 = 22.  4+1: 20 as simd4. */
    ck_assert_double_eq(cycles1(&us_model_hetero, NULL, dp3_chain), 22);
    ck_assert_double_eq(cycles1(&us_model_hetero,
                                "hetero_vec_width=4 alu_lanes=5",
                                dp3_chain), 20);
    /* vliw: the list scheduler's bundles (isa/baseline_vliw.c) --
     *   B0  MOV r.x..w (4 slots)                      issue  0
     *   B1  MUL r.x = r.x*r.x                          4
     *   B2  MAD r.x += r.y*r.y                         8
     *   B3  MAD r.x += r.z*r.z                         12
     *   B4  MOV r.y,r.z,r.w = r.x | MUL r.x = r.x*r.x  16 (reads first)
     *   B5  MAD, B6 MAD                                20, 24
     *   B7  MOV r.yzw | MUL                            28
     *   B8  MAD, B9 MAD                                32, 36
     *   B10 MOV r.yzw = r.x | MOV o.x = r.x            40
     *   B11 MOV o.y, o.z, o.w                          44, usable 48. */
    ck_assert_double_eq(cycles1(&us_model_vliw, NULL, dp3_chain), 48);
    /* Issue-slot occupancy: 26 scalar operations in 12 bundles of 4. */
    struct us_stats st;
    timed(&us_model_vliw, NULL, NULL, dp3_chain, 1, &st);
    ck_assert_double_eq(us_stats_get(&st, "slots_filled"), 26);
    ck_assert_double_eq(us_stats_get(&st, "slots_total"), 48);
}
END_TEST

/* Four independent RSQs, one RSQ of the first, a 4-component MOV. */
static const char rsq_heavy[] =
    "!!ARBfp1.0\nTEMP r;\n"
    "RSQ r.x, fragment.color.x;\nRSQ r.y, fragment.color.y;\n"
    "RSQ r.z, fragment.color.z;\nRSQ r.w, fragment.color.w;\n"
    "RSQ r.x, r.x;\nMOV result.color, r;\nEND\n";

START_TEST(timing_rsq_heavy)
{
    /* simd4: the pipelined SFU (latency 6) takes one RSQ per cycle: 0, 1,
     * 2, 3 (r.x usable at 6); RSQ r.x at 6, usable 12; the MOV at 12,
     * usable 16. */
    ck_assert_double_eq(cycles1(&us_model_simd4, NULL, rsq_heavy), 16);
    /* superscalar: two RSQs never co-issue (one SFU): the same 16. */
    ck_assert_double_eq(cycles1(&us_model_superscalar, NULL, rsq_heavy), 16);
    /* vliw (4 SFU-capable slots): B0 the four RSQs at 0, B1 RSQ r.x at 6,
     * B2 the four MOVs at 12: 16. */
    ck_assert_double_eq(cycles1(&us_model_vliw, NULL, rsq_heavy), 16);
    /* vliw 4+1: only the t-slot runs RSQ, one per bundle, and the compile-
     * time scheduler assumes one-cycle results (isa/baseline_sched.c), so
     * the scoreboard stretches its bundles:
     *   B0  RSQ r.x                      issue 0 (r.x usable 6)
     *   B1  RSQ r.y                      1 (r.y usable 7)
     *   B2  MOV o.y = r.y | RSQ r.z      7 (r.z usable 13)
     *   B3  MOV o.z = r.z | RSQ r.w      13 (r.w usable 19)
     *   B4  MOV o.w = r.w | RSQ r.x=r.x  19 (r.x usable 25)
     *   B5  MOV o.x = r.x                25, usable 29. */
    ck_assert_double_eq(cycles1(&us_model_vliw, "vliw_tslot=1", rsq_heavy), 29);
    /* hetero 3+1: RSQs only in the scalar slot: 0, 1, 2, 3; RSQ r.x at 6
     * (usable 12); the 4-wide MOV issues 12-13, usable 13 + 4 = 17. */
    ck_assert_double_eq(cycles1(&us_model_hetero, NULL, rsq_heavy), 17);
    /* sfu_latency=10 moves the two SFU steps: RSQ r.x at 10, MOV at 20,
     * usable 24 on simd4. */
    ck_assert_double_eq(cycles1(&us_model_simd4, "sfu_latency=10", rsq_heavy), 24);
}
END_TEST

/* Component counts that fit the 4-wide datapath in pairs (2+2, 3+1), and
 * an RCP beside a 3-component ADD. */
static const char coissue[] =
    "!!ARBfp1.0\nTEMP a, b, c, d, e, f;\n"
    "ADD a.xy, fragment.color, fragment.texcoord[0];\n"
    "ADD b.xy, fragment.color, fragment.texcoord[1];\n"
    "ADD c.xyz, fragment.color, fragment.texcoord[2];\n"
    "ADD d.x, fragment.color, fragment.texcoord[3];\n"
    "RCP e.x, fragment.color.x;\n"
    "ADD f.xyz, fragment.color, fragment.texcoord[3];\nEND\n";

START_TEST(timing_superscalar_coissue)
{
    /* superscalar: pairs (a, b) at 0, (c, d) at 1, (RCP, f) at 2; the RCP
     * is usable at 2 + 6 = 8. */
    struct us_stats st;
    ck_assert_double_eq(timed(&us_model_superscalar, NULL, NULL, coissue, 1,
                              &st), 8);
    ck_assert_double_eq(us_stats_get(&st, "dual_issued"), 3);
    ck_assert_double_eq(us_stats_get(&st, "issued"), 3);
    /* simd4: six issues 0..5; RCP at 4, usable 10 (after f at 5 + 4 = 9). */
    ck_assert_double_eq(cycles1(&us_model_simd4, NULL, coissue), 10);
    /* fetch_width=1 still feeds the dual issue (fetch_width counts issue
     * widths on the superscalar processor). */
    ck_assert_double_eq(cycles1(&us_model_superscalar, "fetch_width=1",
                                coissue), 8);
}
END_TEST

/* A texture fetch and its use: stall causes. */
static const char tex_use[] =
    "!!ARBfp1.0\nTEMP r;\n"
    "TEX r, fragment.texcoord[0], texture[0], 2D;\n"
    "MOV result.color, r;\nEND\n";

START_TEST(timing_texture_stalls)
{
    /* One thread on processor 0 of 2: TEX at 0, usable 20 (tex_latency);
     * MOV at 20, usable 24.  Processor 0 issues nothing in cycles 1-19
     * (texture) and 21-23 (draining: dependency); processor 1 holds no
     * thread for all 24 cycles (idle). */
    struct us_stats st;
    ck_assert_double_eq(timed(&us_model_simd4, NULL, NULL, tex_use, 1, &st), 24);
    ck_assert_double_eq(us_stats_get(&st, "stalls.texture"), 19);
    ck_assert_double_eq(us_stats_get(&st, "stalls.dependency"), 3);
    ck_assert_double_eq(us_stats_get(&st, "idle"), 24);
    ck_assert_double_eq(us_stats_get(&st, "stalls.fetch"), 0);
    ck_assert_double_eq(us_stats_get(&st, "latency"), 24);
    ck_assert_double_eq(us_stats_get(&st, "instr_words"), 2);
    ck_assert_double_eq(us_stats_get(&st, "instr_bits"), 256);
    ck_assert_double_eq(us_stats_get(&st, "instr_mem_bits"), 256);
    ck_assert_double_eq(timed(&us_model_simd4, "tex_latency=50", NULL, tex_use,
                              1, &st), 54);
}
END_TEST

/* ---- Physics: SIMD utilization ------------------------------------------- */

/* Utilization of `text` on 64 threads, 8 per processor. */
static double util(const struct us_core_model *m, const char *set,
                   const char *text)
{
    struct us_stats st;
    timed(m, set, "threads_per_proc=8", text, 64, &st);
    return us_stats_get(&st, "utilization");
}

/* Sixteen independent one-component MULs. */
static const char scalar_only[] =
    "!!ARBfp1.0\nTEMP a, b, c, d;\n"
    "MUL a.x, fragment.color.x, fragment.color.y;\n"
    "MUL a.y, fragment.color.y, fragment.color.z;\n"
    "MUL a.z, fragment.color.z, fragment.color.w;\n"
    "MUL a.w, fragment.color.w, fragment.color.x;\n"
    "MUL b.x, fragment.texcoord[0].x, fragment.color.y;\n"
    "MUL b.y, fragment.texcoord[0].y, fragment.color.z;\n"
    "MUL b.z, fragment.texcoord[0].z, fragment.color.w;\n"
    "MUL b.w, fragment.texcoord[0].w, fragment.color.x;\n"
    "MUL c.x, fragment.texcoord[1].x, fragment.color.y;\n"
    "MUL c.y, fragment.texcoord[1].y, fragment.color.z;\n"
    "MUL c.z, fragment.texcoord[1].z, fragment.color.w;\n"
    "MUL c.w, fragment.texcoord[1].w, fragment.color.x;\n"
    "MUL d.x, fragment.texcoord[2].x, fragment.color.y;\n"
    "MUL d.y, fragment.texcoord[2].y, fragment.color.z;\n"
    "MUL d.z, fragment.texcoord[2].z, fragment.color.w;\n"
    "MUL d.w, fragment.texcoord[2].w, fragment.color.x;\nEND\n";

START_TEST(physics_simd_utilization)
{
    /* 64 threads x 16 one-component ops on 2 processors: 512 issue cycles
     * + the last latency; ops 1024 / (8 lanes x 516) = 0.248. */
    double s = util(&us_model_simd4, NULL, scalar_only);
    ck_assert_msg(s > 0.24 && s <= 0.25, "simd4 scalar-only %g", s);
    /* 64 x 8 four-component ADDs: 512 cycles + 4, utilization 0.992. */
    double v = util(&us_model_simd4, NULL, vec4_adds);
    ck_assert_msg(v > 0.98 && v <= 1.0, "simd4 vec4 %g", v);
    /* The others pack scalar work: superscalar pairs 1+1 (50%), vliw and
     * hetero fill slots (vliw: 4 scalar MULs per bundle, about 100%). */
    double ss = util(&us_model_superscalar, NULL, scalar_only);
    ck_assert_msg(ss > 0.48 && ss <= 0.5, "superscalar scalar-only %g", ss);
    double vl = util(&us_model_vliw, NULL, scalar_only);
    ck_assert_msg(vl > 0.95 && vl <= 1.0, "vliw scalar-only %g", vl);
    /* hetero 3+1: a one-component op in each slot, 2 ops per cycle on 4
     * lanes: 50%. */
    double h = util(&us_model_hetero, NULL, scalar_only);
    ck_assert_msg(h > 0.48 && h <= 0.5, "hetero scalar-only %g", h);
}
END_TEST

START_TEST(determinism)
{
    for (unsigned v = 0; v < NVARIANTS; v++) {
        struct us_stats a, b;
        timed(variants[v].m, variants[v].set, "sched=oldest", dp3_chain, 13, &a);
        timed(variants[v].m, variants[v].set, "sched=oldest", dp3_chain, 13, &b);
        ck_assert_uint_eq(a.n, b.n);
        for (unsigned i = 0; i < a.n; i++) {
            ck_assert_str_eq(a.s[i].name, b.s[i].name);
            double x = us_stats_get(&a, a.s[i].name);
            double y = us_stats_get(&b, b.s[i].name);
            ck_assert_msg(!memcmp(&x, &y, sizeof x), "%s %s", a.arch,
                          a.s[i].name);
        }
        ck_assert_double_eq(us_stats_get(&a, "threads"), 13);
    }
}
END_TEST

/* A program of no instructions: four threads (a slot each on every
 * variant, hetero 4+1 having one processor of 4 slots) retire at cycle 0. */
START_TEST(empty_program)
{
    for (unsigned v = 0; v < NVARIANTS; v++) {
        struct us_stats st;
        ck_assert_double_eq(timed(variants[v].m, variants[v].set, NULL,
                                  "!!ARBfp1.0\nEND\n", 4, &st), 0);
        ck_assert_double_eq(us_stats_get(&st, "threads"), 4);
        ck_assert_double_eq(us_stats_get(&st, "utilization"), 0);
    }
}
END_TEST

/* A reset rewinds the timing: the same statistics again. */
START_TEST(reset_repeats)
{
    struct us_program p;
    struct us_diag d;
    ck_assert(us_assemble(rsq_heavy, strlen(rsq_heavy), US_STAGE_ANY, &p, &d));
    us_vec4 params[1] = { { 0, 0, 0, 0 } };
    static struct us_thread t[6];
    for (unsigned k = 0; k < 6; k++)
        us_thread_reset(&t[k]);
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact };
    struct us_workload w = { &p, &env, t, 6, NULL, NULL };
    struct us_config cfg;
    config(&cfg, NULL, NULL);
    for (unsigned v = 0; v < NVARIANTS; v++) {
        const struct us_core_model *m = variants[v].m;
        struct us_core *core = m->create(&cfg, &w, &d);
        ck_assert(core);
        double c[2];
        for (int k = 0; k < 2; k++) {
            if (k)
                m->reset(core);
            while (m->step(core))
                ;
            struct us_stats st;
            us_stats_init(&st, m->name);
            m->stats(core, &st);
            c[k] = us_stats_get(&st, "cycles");
        }
        ck_assert_double_eq(c[0], c[1]);
        m->destroy(core);
    }
    us_program_free(&p);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("models");
    TCase *eq = tcase_create("equivalence");
    tcase_set_timeout(eq, 600);
    tcase_add_loop_test(eq, random_programs, 0, 2);
    tcase_add_test(eq, piglit_programs);
    tcase_add_loop_test(eq, random_flow_programs, 0, 2);
    tcase_add_test(eq, budget_flow_programs);
    suite_add_tcase(s, eq);
    TCase *tm = tcase_create("timing");
    tcase_add_test(tm, timing_mul_chain);
    tcase_add_test(tm, timing_vec4_adds);
    tcase_add_test(tm, timing_dp3_chain);
    tcase_add_test(tm, timing_rsq_heavy);
    tcase_add_test(tm, timing_superscalar_coissue);
    tcase_add_test(tm, timing_texture_stalls);
    tcase_add_test(tm, physics_simd_utilization);
    tcase_add_test(tm, determinism);
    tcase_add_test(tm, reset_repeats);
    tcase_add_test(tm, empty_program);
    suite_add_tcase(s, tm);
    return s;
}
