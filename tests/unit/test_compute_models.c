/*
 * Compute launches on the five core models (docs/COMPUTE.md, shader/
 * workgroup.h): kernels with shared memory and barriers, commutative
 * atomics, BRA loops of divergent trip counts, 16- and 8-bit words, run on
 * every model and variant (compaction off, the VLIW t-slot, hetero 4+1,
 * lockstep) and compared with us_compute_interpret bit for bit -- every
 * buffer byte, the memory counts and every thread's registers; hand-
 * computed cycle counts of a LOAD chain and of a barrier on the scalar
 * model and simd4; the refusals (a workgroup larger than the thread
 * slots) and failures (a barrier in divergent code in lockstep) with
 * their messages; the compute statistics.
 *
 * Time conventions as in test_core (scalar: first issue at cycle 1, after
 * the fetch stage) and test_models (vec4 engine: first issue at 0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"
#include "shader/core.h"
#include "shader/timing.h"

#include "check_main.h"

enum { NBUF = 4, BUF_BYTES = 1024 };

/* A model and the knobs of one of its variants ("k=v k=v", or NULL). */
struct variant {
    const struct us_core_model *m;
    const char *set;
};

static const struct variant variants[] = {
    { &us_model_scalar, NULL },
    { &us_model_scalar, "compaction=0" },
    { &us_model_scalar, "lockstep=4" },
    { &us_model_scalar, "lockstep=4 compaction=0 sched=oldest" },
    { &us_model_simd4, NULL },
    { &us_model_simd4, "alu_lanes=16 lockstep=4" },
    { &us_model_vliw, NULL },
    { &us_model_vliw, "vliw_tslot=1" },
    { &us_model_vliw, "alu_lanes=16 lockstep=4" },
    { &us_model_superscalar, NULL },
    { &us_model_superscalar, "alu_lanes=16 lockstep=4 sched=oldest" },
    { &us_model_hetero, NULL },
    { &us_model_hetero, "hetero_vec_width=4 alu_lanes=10" },
    { &us_model_hetero, "alu_lanes=16 lockstep=4" },
    /* few slots: workgroups wait for others to retire before they start */
    { &us_model_scalar, "alu_lanes=4 threads_per_proc=4" },
    { &us_model_scalar, "alu_lanes=6 lockstep=4 threads_per_proc=3" },
    { &us_model_simd4, "alu_lanes=4 threads_per_proc=16" },
    { &us_model_vliw, "alu_lanes=4 threads_per_proc=16 sched=oldest" },
    { &us_model_hetero, "alu_lanes=8 threads_per_proc=8 lockstep=2" },
    /* SIMT warps: each reconvergence policy that runs any code, the FSM
     * and the pipeline, both dispatches, warp schedulers, memory systems */
    { &us_model_simt, "simt_warps=8" },
    { &us_model_simt, "simt_warps=8 reconv=minpc simt_warp_sched=lowest "
                      "simt_park_loads=1 mem_system=port" },
    { &us_model_simt, "simt_warps=16 simt_warp_size=4 simt_block=core "
                      "simt_pipelined=1 simt_dispatch=active "
                      "simt_exec_width=1 simt_exec=3 mem_system=tmcu" },
    { &us_model_simt, "alu_lanes=16 simt_warps=8 mem_system=cache" },
    { &us_model_simt, "alu_lanes=32 simt_warp_size=32 simt_warps=2 "
                      "reconv=minpc mem_system=coalesce" },
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

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

/* A launch: the program, its parameters and NBUF buffers whose initial
 * bytes are a pattern (buffer b, byte i: 37 i + 11 b + 5). */
struct launch {
    struct us_program prog;
    us_vec4 *params;
    uint32_t groups[3];
    unsigned items;
    uint8_t init[NBUF][BUF_BYTES];
};

static void setup(struct launch *l, const char *text, unsigned gx,
                  unsigned gy)
{
    struct us_diag d;
    memset(l, 0, sizeof *l);
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &l->prog, &d),
                  "%u:%u: %s\n%s", d.line, d.col, d.msg, text);
    l->params = calloc(l->prog.nparams + 1, sizeof *l->params);
    ck_assert_ptr_nonnull(l->params);
    for (unsigned i = 0; i < l->prog.nparams; i++)
        memcpy(l->params[i], l->prog.params[i].value, sizeof l->params[i]);
    l->groups[0] = gx;
    l->groups[1] = gy;
    l->groups[2] = 1;
    l->items = (unsigned)us_compute_items(&l->prog, l->groups, 1u << 20, &d);
    ck_assert_uint_gt(l->items, 0);
    for (unsigned b = 0; b < NBUF; b++)
        for (unsigned i = 0; i < BUF_BYTES; i++)
            l->init[b][i] = (uint8_t)(37 * i + 11 * b + 5);
}

static void teardown(struct launch *l)
{
    free(l->params);
    us_program_free(&l->prog);
}

/* Memory of a run: the launch's initial bytes, counts zero. */
struct mem {
    struct us_memory m;
    uint8_t buf[NBUF][BUF_BYTES];
};

static void mem_fill(struct mem *x, const struct launch *l)
{
    memset(&x->m, 0, sizeof x->m);
    memcpy(x->buf, l->init, sizeof x->buf);
    for (unsigned b = 0; b < NBUF; b++) {
        x->m.buf[b].data = x->buf[b];
        x->m.buf[b].size = BUF_BYTES;
    }
}

static struct us_exec_env env_of(const struct launch *l, struct mem *x)
{
    return (struct us_exec_env){ .params = (const us_vec4 *)l->params,
                                 .math = &us_math_exact, .mem = &x->m };
}

/* The reference: us_compute_interpret's memory and threads. */
static struct us_thread *reference(const struct launch *l, struct mem *ref)
{
    struct us_thread *t = calloc(l->items, sizeof *t);
    ck_assert_ptr_nonnull(t);
    mem_fill(ref, l);
    struct us_exec_env env = env_of(l, ref);
    struct us_diag d;
    ck_assert_msg(us_compute_interpret(&l->prog, &env, l->groups, t, &d), "%s",
                  d.msg);
    return t;
}

static bool same_regs(const struct us_thread *a, const struct us_thread *b)
{
    return !memcmp(a->temp, b->temp, sizeof a->temp) &&
           !memcmp(a->output, b->output, sizeof a->output) &&
           !memcmp(a->addr, b->addr, sizeof a->addr) && !b->shared;
}

/* Run one variant; the statistics in *st.  False with *d on failure. */
static bool run_variant(const struct launch *l, const struct variant *v,
                        const char *extra, struct mem *x, struct us_thread *t,
                        struct us_stats *st, struct us_diag *d)
{
    struct us_config cfg;
    us_config_default(&cfg);
    apply(&cfg, "threads_per_proc=8");
    apply(&cfg, v->set);
    apply(&cfg, extra);
    mem_fill(x, l);
    struct us_exec_env env = env_of(l, x);
    return us_core_run_compute(v->m, &cfg, &l->prog, &env, l->groups, t, st,
                               d);
}

/* Every variant leaves the interpreter's memory, counts and registers;
 * prints each model's utilization (first variant of each model). */
static void check_kernel(const char *name, const char *text, unsigned gx,
                         unsigned gy)
{
    struct launch *l = malloc(sizeof *l);
    struct mem *ref = malloc(sizeof *ref), *got = malloc(sizeof *got);
    ck_assert(l && ref && got);
    setup(l, text, gx, gy);
    struct us_thread *want = reference(l, ref);
    struct us_thread *t = calloc(l->items, sizeof *t);
    ck_assert_ptr_nonnull(t);
    printf("%-10s %4u items:", name, l->items);
    for (unsigned v = 0; v < NVARIANTS; v++) {
        struct us_stats st;
        struct us_diag d;
        const char *vname = variants[v].m->name;
        ck_assert_msg(run_variant(l, &variants[v], NULL, got, t, &st, &d),
                      "%s: %s %s: %s", name, vname,
                      variants[v].set ? variants[v].set : "", d.msg);
        ck_assert_msg(!memcmp(got->buf, ref->buf, sizeof got->buf),
                      "%s: %s %s: memory differs", name, vname,
                      variants[v].set ? variants[v].set : "");
        ck_assert_msg(!memcmp(&got->m.counts, &ref->m.counts,
                              sizeof got->m.counts),
                      "%s: %s %s: memory counts differ", name, vname,
                      variants[v].set ? variants[v].set : "");
        for (unsigned i = 0; i < l->items; i++)
            ck_assert_msg(same_regs(&want[i], &t[i]),
                          "%s: %s %s: thread %u's registers differ", name,
                          vname, variants[v].set ? variants[v].set : "", i);
        ck_assert_double_eq(us_stats_get(&st, "threads"), l->items);
        ck_assert_double_eq(us_stats_get(&st, "memory.loads"),
                            (double)ref->m.counts.loads);
        ck_assert_double_eq(us_stats_get(&st, "memory.oob"),
                            (double)ref->m.counts.oob);
        ck_assert_double_eq(us_stats_get(&st, "workgroups"), gx * gy);
        if (!variants[v].set)
            printf(" %s %.3f", vname, us_stats_get(&st, "utilization"));
    }
    printf("\n");
    free(want);
    free(t);
    teardown(l);
    free(l);
    free(ref);
    free(got);
}

/* ---- Kernels ------------------------------------------------------------ */

/* Each thread writes shared[i], waits, reads its neighbour's; three
 * rounds of a shared counter in a loop of barriers (test_compute's). */
static const char k_shared[] =
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
    "ADD.U a.w, a.z, 4;\n"
    "STORE.U32 buffer[1].x, a.z, v.y;\n"
    "STORE.U32 buffer[1].x, a.w, v.z;\n"
    "END\n";

/* Thread i works 7 - i rounds of dependent loads before it writes
 * shared[i]; after the barrier each reads its neighbours': without the
 * barrier the late writers' values would be missed. */
static const char k_skew[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 8;\n"
    "SHARED_MEMORY 32;\n"
    "TEMP i, n, a, v;\n"
    "MOV.U i.x, invocation.localindex.x;\n"
    "SUB.U n.x, 7, i.x;\n"
    "MOV.U v.x, i.x;\n"
    "work:\n"
    "BRA.EQ.U done, n.x, 0;\n"
    "AND.U a.x, v.x, 0xfc;\n"
    "LOAD.U32 v.x, a.x, buffer[0];\n"
    "SUB.U n.x, n.x, 1;\n"
    "BRA work;\n"
    "done:\n"
    "MUL.U a.x, i.x, 4;\n"
    "STS.U32 shared.x, a.x, v.x;\n"
    "BAR;\n"
    "ADD.U a.yz, i.x, {0, 1, 7, 0};\n"
    "AND.U a.yz, a, 7;\n"
    "MUL.U a.yz, a, 4;\n"
    "LDS.U32 v.yz, a;\n"
    "MUL.U a.w, invocation.globalid.x, 8;\n"
    "ADD.U a.x, a.w, 4;\n"
    "STORE.U32 buffer[1].xy, a.wxxx, v.yzzz;\n"
    "END\n";

/* A tree reduction in shared memory: a loop of barriers around a BRA that
 * skips the adding lanes' partners (divergent, reconverging before the
 * barrier); the group's sum stored by every thread (the same value). */
static const char k_reduce[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 4 4;\n"
    "SHARED_MEMORY 64;\n"
    "TEMP l, a, v, w, st;\n"
    "MOV.U l.x, invocation.localindex.x;\n"
    "MUL.U a.x, invocation.globalid.y, 8;\n"
    "ADD.U a.x, a.x, invocation.globalid.x;\n"
    "MUL.U a.x, a.x, 4;\n"
    "LOAD.U32 v.x, a.x, buffer[0];\n"
    "AND.U v.x, v.x, 0xffff;\n"
    "MUL.U a.y, l.x, 4;\n"
    "STS.U32 shared.x, a.y, v.x;\n"
    "MOV.U st.x, 8;\n"
    "loop:\n"
    "BAR;\n"
    "BRA.GE.U skip, l.x, st.x;\n"
    "ADD.U a.z, l.x, st.x;\n"
    "MUL.U a.z, a.z, 4;\n"
    "LDS.U32 w.x, a.z;\n"
    "LDS.U32 w.y, a.y;\n"
    "ADD.U w.x, w.x, w.y;\n"
    "STS.U32 shared.x, a.y, w.x;\n"
    "skip:\n"
    "SHR.U st.x, st.x, 1;\n"
    "BRA.NE.U loop, st.x, 0;\n"
    "BAR;\n"
    "LDS.U32 v.y, 0;\n"
    "MUL.U a.w, invocation.groupid.y, invocation.groupcount.x;\n"
    "ADD.U a.w, a.w, invocation.groupid.x;\n"
    "MUL.U a.w, a.w, 4;\n"
    "STORE.U32 buffer[1].x, a.w, v.y;\n"
    "END\n";

/* Atomics whose old values are dead or commute, on a buffer and on shared
 * memory, scalar and vector; a shared counter read after a barrier. */
static const char k_atomics[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 4 2;\n"
    "SHARED_MEMORY 16;\n"
    "TEMP d, v, n, a;\n"
    "MUL.U d.x, invocation.groupid.x, 8;\n"
    "ADD.U d.x, d.x, invocation.localindex.x;\n"
    "SUB.U n.x, 0, d.x;\n"
    "ATOM.ADD.U32 v.x, 0, d.x, buffer[0];\n"
    "ATOM.MIN.S32 v.y, 4, n.x, buffer[0];\n"
    "ATOM.MAX.U32 v.z, 8, d.x, buffer[0];\n"
    "ATOM.OR.U32 v.w, 12, d.x, buffer[0];\n"
    "ATOM.XOR.U32 v.x, 16, d.x, buffer[0];\n"
    "ATOM.AND.U32 v.y, 20, n.x, buffer[0];\n"
    "ATOM.MAX.S32 v.z, 24, n.x, buffer[0];\n"
    "ADD.U a, {28, 32, 36, 28}, 0;\n"
    "ATOM.ADD.U32 v, a, d.x, buffer[2];\n"
    "ATOM.ADD.U32 v.x, 1020, 1, buffer[2];\n"        /* 1020..1023: in */
    "ATOM.ADD.U32 v.y, 1021, 1, buffer[2];\n"        /* out of bounds */
    "ATOMS.ADD.U32 v.z, 0, 1;\n"
    "ATOMS.MAX.U32 v.w, 4, d.x;\n"
    "ATOMS.XOR.U32 v.x, 8, d.x;\n"
    "MOV.U v, 0;\n"                                  /* old values: dead */
    "BAR;\n"
    "LDS.U32 v, {0, 4, 8, 12};\n"
    "MUL.U a.x, invocation.groupid.x, 16;\n"
    "ADD.U a, a.x, {0, 4, 8, 12};\n"
    "STORE.U32 buffer[3], a, v;\n"
    "END\n";

/* Loops of BRAs with trip counts 0..7 within each warp, an if/else of
 * BRAs and a structured IF inside, loads in the loop. */
static const char k_branches[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 8;\n"
    "TEMP i, n, s, t, a;\n"
    "MUL.U n.x, invocation.globalid.x, 5;\n"
    "AND.U n.x, n.x, 7;\n"
    "MOV.U i, 0;\n"
    "MOV.U s, 0;\n"
    "top:\n"
    "BRA.GE.U out, i.x, n.x;\n"
    "AND.U t.x, i.x, 1;\n"
    "BRA.EQ.U even, t.x, 0;\n"
    "ADD.U s.x, s.x, i.x;\n"
    "BRA next;\n"
    "even:\n"
    "MUL.U t.y, i.x, i.x;\n"
    "ADD.U s.y, s.y, t.y;\n"
    "next:\n"
    "MUL.U a.x, i.x, 4;\n"
    "LOAD.U16 t.z, a.x, buffer[0];\n"
    "SGT.U t.w, t.z, 0x8000;\n"
    "I2F.U t.w, t.w;\n"
    "IF t.w;\n"
    "ADD.U s.z, s.z, t.z;\n"
    "ELSE;\n"
    "XOR.U s.w, s.w, t.z;\n"
    "ENDIF;\n"
    "ADD.U i.x, i.x, 1;\n"
    "BRA top;\n"
    "out:\n"
    "MUL.U a.x, invocation.globalid.x, 16;\n"
    "ADD.U a, a.x, {0, 4, 8, 12};\n"
    "STORE.U32 buffer[2], a, s;\n"
    "END\n";

/* 16-bit and 8-bit words: arithmetic, shifts, fields and comparisons at
 * the word width, narrow loads and stores, a BRA comparing at the word. */
static const char k_word16[] =
    "!!USHADERcp1.0\n"
    "OPTION USHADER_word16;\n"
    "GROUP_SIZE 16;\n"
    "TEMP g, a, b, r, q;\n"
    "MOV.U g, invocation.globalid;\n"
    "MUL.U a.x, g.x, 16;\n"
    "ADD.U a, a.x, {0, 4, 8, 12};\n"
    "LOAD.U32 b, a, buffer[0];\n"
    "MUL.U r, b, b.yzwx;\n"
    "MUL.U.HI q, b, -b.wzyx;\n"
    "SHR.S r.xy, r, g.x;\n"
    "DIV.S r.z, b.x, -7;\n"
    "MOD.U r.w, b.y, g.x;\n"
    "BFE.S q.xy, {5, 9, 0, 0}, b;\n"
    "BFI.U q.zw, {6, 3, 0, 0}, b, r;\n"
    "BRA.LT.S skip, r.x, 0x7000;\n"
    "ADD.U r.x, r.x, 0xffff;\n"
    "skip:\n"
    "STORE.U16 buffer[1], a, r;\n"
    "STORE.S8 buffer[2], a, q;\n"
    "STORE.U32 buffer[3], a, q;\n"
    "END\n";

static const char k_word8[] =
    "!!USHADERcp1.0\n"
    "OPTION USHADER_word8;\n"
    "GROUP_SIZE 8;\n"
    "TEMP g, a, b, r;\n"
    "MOV.U g, invocation.globalid;\n"
    "MUL.U a.x, g.x, 4;\n"
    "LOAD.S8 b, a.xxxx, buffer[0];\n"
    "LOAD.U8 r, a.xxxx, buffer[1];\n"
    "ADD.S r, r, b;\n"
    "SHL.U r.y, r.y, 9;\n"
    "BTFM.S r.z, b.x;\n"
    "SLT.S r.w, b.x, 0;\n"
    "MAX.S b, b, -100;\n"
    "MUL.U a.y, g.x, 16;\n"
    "ADD.U a, a.y, {0, 4, 8, 12};\n"
    "STORE.U32 buffer[2], a, r;\n"
    "STORE.U8 buffer[3], a, b;\n"
    "END\n";

/* Floats through memory: loads of binary32 bits, float arithmetic, SFU
 * operations, and the results stored back. */
static const char k_float[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 8;\n"
    "TEMP g, a, x, y;\n"
    "MUL.U a.x, invocation.globalid.x, 16;\n"
    "ADD.U a, a.x, {0, 4, 8, 12};\n"
    "LOAD.U32 x, a, buffer[0];\n"
    "AND.U x, x, 0x3fffffff;\n"       /* finite floats below 2 */
    "MAD y, x, x.yzwx, {0.5, -1, 2, 3};\n"
    "DP3 y.w, y, x;\n"
    "RCP y.z, y.x;\n"
    "ABS g, y;\n"
    "RSQ y.y, g.w;\n"
    "STORE.U32 buffer[1], a, y;\n"
    "END\n";

/* Odd threads leave by a BRA to the end (the program's last pc + 1). */
static const char k_leave[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 8;\n"
    "TEMP l, a;\n"
    "MUL.U a.x, invocation.globalid.x, 4;\n"
    "STORE.U32 buffer[1].x, a.x, invocation.globalid.x;\n"
    "AND.U l.x, invocation.localindex.x, 1;\n"
    "BRA.NE.U end, l.x, 0;\n"
    "STORE.U32 buffer[2].x, a.x, a.x;\n"
    "end:\n"
    "END\n";

START_TEST(kernels_on_every_model)
{
    check_kernel("skew", k_skew, 3, 1);
    check_kernel("shared", k_shared, 4, 1);
    check_kernel("reduce", k_reduce, 2, 2);
    check_kernel("atomics", k_atomics, 3, 1);
    check_kernel("branches", k_branches, 3, 1);
    check_kernel("word16", k_word16, 2, 1);
    check_kernel("word8", k_word8, 4, 1);
    check_kernel("float", k_float, 2, 1);
    check_kernel("leave", k_leave, 2, 1);
}
END_TEST

/* ---- Hand-computed cycles ----------------------------------------------- */

/* One variant's statistics for a launch (its memory discarded). */
static void timed(const char *text, unsigned gx,
                  const struct us_core_model *m, const char *sets,
                  struct us_stats *st)
{
    struct launch *l = malloc(sizeof *l);
    struct mem *x = malloc(sizeof *x);
    ck_assert(l && x);
    setup(l, text, gx, 1);
    for (unsigned i = 0; i < BUF_BYTES; i += 4) {   /* word i holds i + 8 */
        uint32_t v = i + 8;
        memcpy(&l->init[0][i], &v, sizeof v);
    }
    char all[128];
    snprintf(all, sizeof all, "mem_latency=10 %s", sets);
    struct variant v = { m, all };
    struct us_diag d;
    ck_assert_msg(run_variant(l, &v, NULL, x, NULL, st, &d), "%s", d.msg);
    teardown(l);
    free(l);
    free(x);
}

static double stat(const struct us_stats *st, const char *name)
{
    double v = us_stats_get(st, name);
    ck_assert_msg(!isnan(v), "no statistic %s", name);
    return v;
}

/* Three dependent loads (each one's address is the previous one's value):
 * a chain of mem_latency = 10. */
static const char k_chain[] =
    "!!USHADERcp1.0\n"
    "TEMP r;\n"
    "LOAD.U32 r.x, 0, buffer[0];\n"
    "LOAD.U32 r.y, r.x, buffer[0];\n"
    "LOAD.U32 r.z, r.y, buffer[0];\n"
    "END\n";

/* One vec4 load: four component requests. */
static const char k_vec4_load[] =
    "!!USHADERcp1.0\n"
    "TEMP r;\n"
    "LOAD.U32 r, {0, 4, 8, 12}, buffer[0];\n"
    "END\n";

START_TEST(load_chain_cycles)
{
    struct us_stats st;
    /* scalar, one SP, one thread: cycle 0 fetches; the loads issue at 1,
     * 11 and 21 (each waits for the previous value), the last value is
     * usable at 31, when the thread retires.  Of the 31 cycles, 3 issue,
     * 1 waits for fetch and 27 for loaded values (the last 9 draining). */
    timed(k_chain, 1, &us_model_scalar, "alu_lanes=1 threads_per_proc=1", &st);
    ck_assert_double_eq(stat(&st, "cycles"), 31);
    ck_assert_double_eq(stat(&st, "issued"), 3);
    ck_assert_double_eq(stat(&st, "stalls.memory"), 27);
    ck_assert_double_eq(stat(&st, "stalls.fetch"), 1);
    ck_assert_double_eq(stat(&st, "memory.loads"), 3);
    ck_assert_double_eq(stat(&st, "memory.bytes"), 12);
    ck_assert_double_eq(stat(&st, "memory.instructions"), 3);
    /* simd4, processor 0 of 2: issues at 0, 10, 20, done at 30; 18 cycles
     * wait for a load, 9 drain (the vec4 engine counts draining as
     * dependency); processor 1 idles all 30. */
    timed(k_chain, 1, &us_model_simd4, "threads_per_proc=1", &st);
    ck_assert_double_eq(stat(&st, "cycles"), 30);
    ck_assert_double_eq(stat(&st, "stalls.memory"), 18);
    ck_assert_double_eq(stat(&st, "stalls.dependency"), 9);
    ck_assert_double_eq(stat(&st, "idle"), 30);
    /* A 4-component load: the scalar SP's LSU takes one request per
     * cycle, so LOAD[4] issues at 1 and its requests go out at 1..4, the
     * last value usable at 4 + 10 = 14; simd4's 4 lanes send the four
     * requests at once: 0 + 10. */
    timed(k_vec4_load, 1, &us_model_scalar, "alu_lanes=1 threads_per_proc=1",
          &st);
    ck_assert_double_eq(stat(&st, "cycles"), 14);
    ck_assert_double_eq(stat(&st, "issued"), 1);
    ck_assert_double_eq(stat(&st, "memory.loads"), 4);
    timed(k_vec4_load, 1, &us_model_simd4, "threads_per_proc=1", &st);
    ck_assert_double_eq(stat(&st, "cycles"), 10);
    timed(k_chain, 1, &us_model_simd4, "threads_per_proc=1 mem_latency=3",
          &st);
    ck_assert_double_eq(stat(&st, "cycles"), 9);
}
END_TEST

/* Thread 0 skips two dependent loads and waits at the barrier for thread
 * 1, which does them. */
static const char k_barrier[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 2;\n"
    "TEMP r;\n"
    "MOV.U r.x, 0;\n"
    "BRA.EQ.U wait, invocation.localindex.x, 0;\n"
    "LOAD.U32 r.x, r.x, buffer[0];\n"
    "LOAD.U32 r.x, r.x, buffer[0];\n"
    "wait:\n"
    "BAR;\n"
    "LOAD.U32 r.y, r.x, buffer[0];\n"
    "END\n";

START_TEST(barrier_cycles)
{
    struct us_stats st;
    /* scalar, two SPs, one thread each (alu_lanes=2 threads_per_proc=1).
     * Thread 0 (SP 0): MOV at 1, BRA at 2 (taken: the BAR is refetched in
     * cycle 2), BAR at 3; it waits.  Thread 1 (SP 1): MOV at 1, BRA at 2
     * (falls through), its first LOAD waits for the MOV (usable at 5):
     * issues at 5, the second at 15, its BAR at 16 -- the last: the
     * barrier releases for cycle 17.  Thread 0 waited 16 - 3 = 13 cycles
     * (stalls.barrier 13 on SP 0, barrier_wait_cycles 13); its LOAD
     * issues at 17, usable at 27 (retires; SP 0 then idles 27..34).
     * Thread 1's LOAD waits for its second load (usable at 25): issues
     * at 25, usable at 35 = cycles. */
    timed(k_barrier, 1, &us_model_scalar, "alu_lanes=2 threads_per_proc=1",
          &st);
    ck_assert_double_eq(stat(&st, "cycles"), 35);
    ck_assert_double_eq(stat(&st, "stalls.barrier"), 13);
    ck_assert_double_eq(stat(&st, "barrier_wait_cycles"), 13);
    ck_assert_double_eq(stat(&st, "barrier_instructions"), 2);
    ck_assert_double_eq(stat(&st, "idle"), 8);
    /* Each SP's cycle 0 waits for fetch (2); SP 1 waits for the MOV at
     * 3, 4 (dependency 2), for loads at 6..14, 17..24 and, draining,
     * 26..34 (26); SP 0 drains 18..26 (9). */
    ck_assert_double_eq(stat(&st, "stalls.dependency"), 2);
    ck_assert_double_eq(stat(&st, "stalls.memory"), 35);
    ck_assert_double_eq(stat(&st, "stalls.fetch"), 2);
    ck_assert_double_eq(stat(&st, "workgroups"), 1);
    /* simd4, two processors of one thread: the same one cycle earlier
     * (no fetch stage) -- thread 0's BAR at 2, thread 1's at 15, release
     * for 16 (13 cycles waited), thread 0 done at 26, thread 1's last
     * load at 24, done at 34.  Processor 1 waits for the MOV at 2, 3 and
     * drains 25..33; processor 0 drains 17..25 (draining is dependency on
     * the vec4 engine): dependency 2 + 9 + 9, memory 9 + 8. */
    timed(k_barrier, 1, &us_model_simd4, "threads_per_proc=1", &st);
    ck_assert_double_eq(stat(&st, "cycles"), 34);
    ck_assert_double_eq(stat(&st, "stalls.barrier"), 13);
    ck_assert_double_eq(stat(&st, "barrier_wait_cycles"), 13);
    ck_assert_double_eq(stat(&st, "stalls.dependency"), 20);
    ck_assert_double_eq(stat(&st, "stalls.memory"), 17);
    ck_assert_double_eq(stat(&st, "idle"), 8);
    /* Two workgroups on those two slots: the second starts only when both
     * threads of the first have retired, at 35 (SP 0 idles 27..34 with a
     * slot free: half a workgroup cannot start); its cycle 35 is the
     * first run's cycle 0, so it ends at 35 + 35. */
    timed(k_barrier, 2, &us_model_scalar, "alu_lanes=2 threads_per_proc=1",
          &st);
    ck_assert_double_eq(stat(&st, "workgroups"), 2);
    ck_assert_double_eq(stat(&st, "threads"), 4);
    ck_assert_double_eq(stat(&st, "cycles"), 70);
    ck_assert_double_eq(stat(&st, "barrier_wait_cycles"), 26);
    ck_assert_double_eq(stat(&st, "idle"), 16);
    /* With two slots per SP both start at cycle 0, side by side. */
    timed(k_barrier, 2, &us_model_scalar, "alu_lanes=2 threads_per_proc=2",
          &st);
    ck_assert_double_lt(stat(&st, "cycles"), 70);
}
END_TEST

/* ---- Refusals and failures ---------------------------------------------- */

static const char k_big[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 8 8;\n"
    "TEMP r;\n"
    "BAR;\n"
    "END\n";

START_TEST(workgroup_larger_than_the_slots)
{
    struct launch l;
    setup(&l, k_big, 1, 1);
    struct mem *x = malloc(sizeof *x);
    ck_assert_ptr_nonnull(x);
    struct us_stats st;
    struct us_diag d;
    /* scalar: 8 SPs x 8 slots = 64 slots hold it; 8 x 4 do not */
    struct variant v = { &us_model_scalar, NULL };
    ck_assert(run_variant(&l, &v, NULL, x, NULL, &st, &d));
    ck_assert(!run_variant(&l, &v, "threads_per_proc=4", x, NULL, &st, &d));
    ck_assert_str_eq(d.msg, "scalar: a workgroup of 64 threads needs 64 "
                     "thread slots resident together; the model has "
                     "alu_lanes x threads_per_proc = 8 x 4 = 32: raise "
                     "threads_per_proc or alu_lanes");
    struct variant s4 = { &us_model_simd4, NULL };
    ck_assert(!run_variant(&l, &s4, NULL, x, NULL, &st, &d));
    ck_assert_str_eq(d.msg, "simd4: a workgroup of 64 threads needs 64 "
                     "thread slots resident together; the model has "
                     "processors x threads_per_proc = 2 x 8 (alu_lanes 8, 4 "
                     "lanes per processor) = 16: raise threads_per_proc or "
                     "alu_lanes");
    ck_assert(run_variant(&l, &s4, "threads_per_proc=32", x, NULL, &st, &d));
    ck_assert_double_eq(stat(&st, "barrier_instructions"), 64);
    free(x);
    teardown(&l);
}
END_TEST

/* Odd threads take a BAR the even ones jump over: fine for threads of
 * their own (a finished thread releases the others), fatal to a warp. */
static const char k_divergent[] =
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 8;\n"
    "TEMP l;\n"
    "AND.U l.x, invocation.localindex.x, 1;\n"
    "BRA.EQ.U skip, l.x, 0;\n"
    "BAR;\n"
    "skip:\n"
    "STORE.U32 buffer[0].x, l.x, l.x;\n"
    "END\n";

START_TEST(divergent_barrier_in_lockstep_fails)
{
    struct launch l;
    setup(&l, k_divergent, 2, 1);
    struct mem *ref = malloc(sizeof *ref), *x = malloc(sizeof *x);
    ck_assert(ref && x);
    free(reference(&l, ref));
    struct us_stats st;
    struct us_diag d;
    static const struct variant ok[] = {
        { &us_model_scalar, NULL }, { &us_model_simd4, NULL },
        { &us_model_vliw, NULL }, { &us_model_superscalar, NULL },
        { &us_model_hetero, NULL },
    };
    for (unsigned v = 0; v < 5; v++) {
        ck_assert_msg(run_variant(&l, &ok[v], NULL, x, NULL, &st, &d), "%s",
                      d.msg);
        ck_assert(!memcmp(x->buf, ref->buf, sizeof x->buf));
    }
    static const struct variant bad[] = {
        { &us_model_scalar, "lockstep=4" },
        { &us_model_scalar, "lockstep=2 compaction=0" },
        { &us_model_simd4, "lockstep=2" },
        { &us_model_vliw, "lockstep=2" },
        { &us_model_superscalar, "lockstep=2" },
        { &us_model_hetero, "lockstep=2" },
    };
    struct us_thread *t = calloc(l.items, sizeof *t);
    ck_assert_ptr_nonnull(t);
    for (unsigned v = 0; v < 6; v++) {
        ck_assert(!run_variant(&l, &bad[v], NULL, x, t, &st, &d));
        for (unsigned i = 0; i < l.items; i++)   /* no dangling pointer */
            ck_assert_ptr_null(t[i].shared);
        char want[256];
        snprintf(want, sizeof want, "%s: a lockstep warp reached BAR with "
                 "%u of its lanes masked off by flow control: a barrier in "
                 "divergent code would hang a warp without independent "
                 "thread scheduling (docs/COMPUTE.md)", bad[v].m->name,
                 bad[v].m == &us_model_scalar && v == 0 ? 2u : 1u);
        ck_assert_str_eq(d.msg, want);
        if (bad[v].m != &us_model_vliw)   /* scalar slots know no line */
            ck_assert_uint_eq(d.line, 6);
    }
    free(t);
    free(ref);
    free(x);
    teardown(&l);
}
END_TEST

/* The guard: nothing happening for `bound` cycles is an error. */
START_TEST(watchdog_expires)
{
    struct us_config cfg;
    us_config_default(&cfg);
    struct us_watchdog w;
    us_watchdog_init(&w, &cfg);
    us_watchdog_kick(&w, 100);
    ck_assert(!us_watchdog_expired(&w, 100 + w.bound));
    ck_assert(us_watchdog_expired(&w, 101 + w.bound));
    /* longer than any wait: four times every latency */
    ck_assert_uint_gt(w.bound, 4 * (unsigned)(cfg.v[US_KNOB_tex_latency] +
                                              cfg.v[US_KNOB_mem_latency]));
    struct us_diag d;
    ck_assert(us_watchdog_error("simd4", &w, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "simd4: no progress for "));
}
END_TEST

/* Graphics statistics keep their keys; compute adds its own. */
START_TEST(compute_statistics_only_for_compute)
{
    struct us_program p;
    struct us_diag d;
    static const char fp[] = "!!ARBfp1.0\nMOV result.color, fragment.color;\n"
                             "END\n";
    ck_assert(us_assemble(fp, strlen(fp), US_STAGE_ANY, &p, &d));
    us_vec4 params[1];
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    struct us_thread t;
    us_thread_reset(&t);
    struct us_workload w = { &p, &env, &t, 1, NULL, NULL };
    for (unsigned m = 0; us_models[m]; m++) {
        struct us_config cfg;
        us_config_default(&cfg);
        struct us_stats st;
        ck_assert(us_core_run(us_models[m], &cfg, &w, &st, &d));
        ck_assert(isnan(us_stats_get(&st, "stalls.barrier")));
        ck_assert(isnan(us_stats_get(&st, "memory.loads")));
        ck_assert(!isnan(us_stats_get(&st, "stalls.fetch")));
    }
    us_program_free(&p);
}
END_TEST

/* Random programs of every kind (isa/randcompute.c: compute, vertex and
 * fragment, every opcode, order-independent by construction) on every
 * variant: registers, buffers and memory counts are the reference's
 * (us_rrun_same).  Variants whose slots cannot hold a case's workgroup
 * refuse it at create, which the test checks too. */
START_TEST(random_cases_on_every_model)
{
    static const enum us_stage stages[] = { US_STAGE_COMPUTE,
                                            US_STAGE_VERTEX,
                                            US_STAGE_FRAGMENT };
    struct us_rng r = { 0xc0ffee + (uint64_t)_i };
    unsigned cases = 0, runs = 0, refused = 0, failed = 0;
    for (unsigned k = 0; k < 40; k++) {
        struct us_rcase c;
        ck_assert(us_random_case(&r, stages[k % 3], 8 + us_rng_below(&r, 40),
                                 &c));
        struct us_rrun ref;
        struct us_diag d;
        ck_assert(us_rrun_init(&c, &ref));
        ck_assert_msg(us_rrun_reference(&c, &ref, &d), "%s", d.msg);
        cases++;
        for (unsigned v = 0; v < NVARIANTS; v++) {
            struct us_config cfg;
            us_config_default(&cfg);
            apply(&cfg, "threads_per_proc=16");
            apply(&cfg, variants[v].set);
            struct us_rrun run;
            ck_assert(us_rrun_init(&c, &run));
            struct us_workload w;
            us_rrun_workload(&c, &run, &w);
            struct us_stats st;
            if (!us_core_run(variants[v].m, &cfg, &w, &st, &d)) {
                ck_assert_msg(strstr(d.msg, "thread slots") != NULL,
                              "case %u, %s %s: %s", k, variants[v].m->name,
                              variants[v].set ? variants[v].set : "", d.msg);
                refused++;
            } else {
                char why[256];
                runs++;
                if (!us_rrun_same(&c, &ref, &run, why, sizeof why)) {
                    failed++;
                    fprintf(stderr, "case %u (%s), %s %s: %s\n", k,
                            c.prog.stage == US_STAGE_COMPUTE ? "compute"
                            : c.prog.stage == US_STAGE_VERTEX ? "vertex"
                                                              : "fragment",
                            variants[v].m->name,
                            variants[v].set ? variants[v].set : "", why);
                }
            }
            us_rrun_free(&run);
        }
        us_rrun_free(&ref);
        us_rcase_free(&c);
    }
    printf("random cases on the models: %u cases, %u model runs identical "
           "to the reference, %u refused (workgroup over the slots), %u "
           "differed\n", cases, runs - failed, refused, failed);
    ck_assert_uint_gt(runs, cases * NVARIANTS / 2);
    ck_assert_uint_eq(failed, 0);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("compute_models");
    TCase *tc = tcase_create("models");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, kernels_on_every_model);
    tcase_add_loop_test(tc, random_cases_on_every_model, 0, 2);
    tcase_add_test(tc, load_chain_cycles);
    tcase_add_test(tc, barrier_cycles);
    tcase_add_test(tc, workgroup_larger_than_the_slots);
    tcase_add_test(tc, divergent_barrier_in_lockstep_fails);
    tcase_add_test(tc, watchdog_expires);
    tcase_add_test(tc, compute_statistics_only_for_compute);
    suite_add_tcase(s, tc);
    return s;
}
