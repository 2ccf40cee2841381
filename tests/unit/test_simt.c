/*
 * The SIMT model (shader/model_simt.c) and its parts, on hand-computed
 * cases (issue 16's mechanism checks; the seeds' published cycle counts
 * are tests/simt.test.sh's): an FSM instruction's cost, PDOM skipping a
 * path no lane takes, reconvergence at the immediate post-dominator,
 * selective dispatch (t + p), the temporal coalescer and the e-GPU cache
 * seen through a warp's loads, the policies' refusals; and the memory
 * each run leaves equals the reference interpreter's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/core.h"

#include "check_main.h"

enum { BUF_BYTES = 4096 };

struct run {
    struct us_stats st;
    struct us_diag d;
    bool ok;
    uint8_t ref[2][BUF_BYTES];   /* the interpreter's memory */
    uint8_t buf[2][BUF_BYTES];   /* the model's */
};

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

/* Buffer 1 holds 4-byte words 0, 1, 2, ... unless `table` gives them. */
static void fill(uint8_t buf[2][BUF_BYTES], const uint32_t *table,
                 unsigned n)
{
    memset(buf, 0, 2 * BUF_BYTES);
    for (unsigned i = 0; i < BUF_BYTES / 4; i++) {
        uint32_t v = table && i < n ? table[i] : i;
        memcpy(&buf[1][4 * i], &v, 4);
    }
}

/* The program's parameters (its literals) as a run reads them. */
static us_vec4 *program_params(const struct us_program *prog)
{
    us_vec4 *p = calloc(prog->nparams + 1, sizeof *p);
    ck_assert_ptr_nonnull(p);
    for (unsigned i = 0; i < prog->nparams; i++)
        memcpy(p[i], prog->params[i].value, sizeof p[i]);
    return p;
}

/* Run `text` over `groups` workgroups on the SIMT model with `knobs`,
 * and on the interpreter: the memory must agree when the model runs. */
static void run_simt(const char *text, unsigned groups, const char *knobs,
                     const uint32_t *table, unsigned ntable, struct run *r)
{
    struct us_program prog;
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &prog, &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    uint32_t g[3] = { groups, 1, 1 };
    us_vec4 *params = program_params(&prog);
    for (int pass = 0; pass < 2; pass++) {
        uint8_t (*buf)[BUF_BYTES] = pass ? r->buf : r->ref;
        fill(buf, table, ntable);
        struct us_memory mem = { 0 };
        for (int b = 0; b < 2; b++) {
            mem.buf[b].data = buf[b];
            mem.buf[b].size = BUF_BYTES;
        }
        struct us_exec_env env = { .params = params, .math = &us_math_exact,
                                   .mem = &mem };
        if (!pass) {
            ck_assert_msg(us_compute_interpret(&prog, &env, g, NULL, &d),
                          "%s", d.msg);
            continue;
        }
        struct us_config cfg;
        us_config_default(&cfg);
        apply(&cfg, knobs);
        r->ok = us_core_run_compute(&us_model_simt, &cfg, &prog, &env, g,
                                    NULL, &r->st, &r->d);
        if (r->ok)
            ck_assert_msg(!memcmp(r->ref, r->buf, sizeof r->ref),
                          "simt %s: memory differs from the interpreter",
                          knobs);
    }
    free(params);
    us_program_free(&prog);
}

static double stat(const struct run *r, const char *name)
{
    double v = us_stats_get(&r->st, name);
    ck_assert_msg(!isnan(v), "no statistic %s", name);
    return v;
}

/* An FSM of 1 select + 1 execute cycle per instruction, nothing else. */
#define FSM2 "alu_lanes=8 simt_warp_size=8 simt_warps=1 simt_select=1 " \
             "simt_fetch=0 simt_decode=0 simt_issue=0 simt_commit=0 "

/* Five adds that the branch skips for lanes below `x`. */
#define SKIP(cond, x)                                                     \
    "!!USHADERcp1.0\nGROUP_SIZE 8;\nTEMP a;\n"                            \
    "BRA." cond ".U skip, invocation.localid.x, " x ";\n"                 \
    "ADD.U a.x, a.x, 1;\nADD.U a.x, a.x, 1;\nADD.U a.x, a.x, 1;\n"        \
    "ADD.U a.x, a.x, 1;\nADD.U a.x, a.x, 1;\n"                            \
    "skip:\nADD.U a.y, a.y, 1;\n"                                         \
    "MUL.U a.z, invocation.localid.x, 4;\n"                               \
    "STORE.U32 buffer[0].x, a.z, a;\nEND\n"

START_TEST(fsm_cost_and_pdom_skips_empty_paths)
{
    struct run r;
    /* Every lane branches: BRA, ADD, MUL, STORE at 2 cycles each; the
     * store waits simt_lsu (1) and its 8 requests, performed mem_latency
     * (20) after they leave (mem_system=lsu). */
    run_simt(SKIP("GE", "0"), 1, FSM2 "reconv=pdom", NULL, 0, &r);
    ck_assert_msg(r.ok, "%s", r.d.msg);
    ck_assert_double_eq(stat(&r, "issued"), 4);
    ck_assert_double_eq(stat(&r, "cycles"), 4 * 2 + 1 + 20);
    ck_assert_double_eq(stat(&r, "masked_lane_slots"), 0);
    ck_assert_double_eq(stat(&r, "reconv.stack_max"), 0);
    /* No lane branches: all nine issue. */
    run_simt(SKIP("LT", "0"), 1, FSM2 "reconv=pdom", NULL, 0, &r);
    ck_assert_double_eq(stat(&r, "issued"), 9);
    ck_assert_double_eq(stat(&r, "cycles"), 9 * 2 + 1 + 20);
    /* Lanes 0..3 branch: they wait at the immediate post-dominator while
     * lanes 4..7 run the adds, then all eight go on together. */
    const char *pol[] = { "reconv=pdom", "reconv=minpc" };
    for (int p = 0; p < 2; p++) {
        char k[256];
        snprintf(k, sizeof k, FSM2 "%s", pol[p]);
        run_simt(SKIP("LT", "4"), 1, k, NULL, 0, &r);
        ck_assert_double_eq(stat(&r, "issued"), 9);
        ck_assert_double_eq(stat(&r, "reconv.divergent"), 1);
        ck_assert_double_eq(stat(&r, "reconv.events"), 1);
        ck_assert_double_eq(stat(&r, "masked_lane_slots"), 5 * 4);
        ck_assert_double_eq(stat(&r, "reconv.stack_max"), p == 0 ? 1 : 0);
    }
}
END_TEST

/* Lanes below T run `n` dependent adds after a branch. */
static void dispatch_case(unsigned n, unsigned t, const char *dispatch,
                          struct run *r)
{
    char text[1024], knobs[512];
    int len = snprintf(text, sizeof text, "!!USHADERcp1.0\nGROUP_SIZE 32;\n"
                       "TEMP a;\nBRA.GE.U done, invocation.localid.x, %u;\n",
                       t);
    for (unsigned i = 0; i < n; i++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "ADD.U a.x, a.x, 1;\n");
    snprintf(text + len, sizeof text - (size_t)len, "done:\nEND\n");
    snprintf(knobs, sizeof knobs, "alu_lanes=32 simt_warp_size=32 "
             "simt_warps=1 simt_pipelined=1 simt_exec_width=1 simt_exec=5 "
             "simt_dispatch=%s", dispatch);
    run_simt(text, 1, knobs, NULL, 0, r);
    ck_assert_msg(r->ok, "%s", r->d.msg);
}

START_TEST(selective_dispatch_is_t_plus_p)
{
    /* t active threads through a p = 5 stage pipeline, one per cycle:
     * each add takes t + p; without selective dispatch the 32 lanes
     * pass (masked ones as bubbles): 32 + p. */
    static const unsigned ts[] = { 1, 7, 20, 32 };
    for (unsigned i = 0; i < 4; i++) {
        struct run one, two;
        dispatch_case(1, ts[i], "active", &one);
        dispatch_case(2, ts[i], "active", &two);
        ck_assert_double_eq(stat(&two, "cycles") - stat(&one, "cycles"),
                            ts[i] + 5);
        dispatch_case(1, ts[i], "all", &one);
        dispatch_case(2, ts[i], "all", &two);
        ck_assert_double_eq(stat(&two, "cycles") - stat(&one, "cycles"),
                            32 + 5);
    }
}
END_TEST

/* Each lane loads buffer 1's word at 4 x localid (an address), then
 * buffer 1's word at that address. */
static const char *const gather =
    "!!USHADERcp1.0\nGROUP_SIZE %u;\nTEMP a, v;\n"
    "MUL.U a.x, invocation.localid.x, 4;\n"
    "LOAD.U32 a.x, a.x, buffer[1];\n"
    "LOAD.U32 v.x, a.x, buffer[1];\n"
    "MUL.U a.x, invocation.localid.x, 4;\n"
    "STORE.U32 buffer[0].x, a.x, v;\nEND\n";

static void gather_case(unsigned lanes, const char *knobs,
                        const uint32_t *table, unsigned n, struct run *r)
{
    char text[512];
    snprintf(text, sizeof text, gather, lanes);
    run_simt(text, 1, knobs, table, n, r);
    ck_assert_msg(r->ok, "%s", r->d.msg);
}

START_TEST(temporal_coalescer_merges_consecutive_requests)
{
    /* 32 lanes' consecutive 4-byte words: 128 bytes, 4 lines of 32 bytes,
     * for each of the two loads (identity table: a = 4 x lane) and the
     * store. */
    const char *k = "alu_lanes=32 simt_warp_size=32 simt_warps=1 "
                    "mem_system=tmcu mem_line=32 tmcu_max_cmd=32";
    uint32_t ident[32];
    for (unsigned i = 0; i < 32; i++)
        ident[i] = 4 * i;
    struct run r;
    gather_case(32, k, ident, 32, &r);
    ck_assert_double_eq(stat(&r, "memsys.requests"), 96);
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 12);
    /* Lanes 0 and 2 read one line, lane 1 another between them: the
     * in-order coalescer does not merge 0 with 2 (seed 004). */
    static const uint32_t split[3] = { 0, 64, 4 };
    gather_case(3, k, split, 3, &r);
    /* table load (one line), the split loads (3), the store (one line) */
    ck_assert_double_eq(stat(&r, "memsys.transactions"), 1 + 3 + 1);
}
END_TEST

START_TEST(egpu_cache_fetches_a_line_once)
{
    /* 8 lanes' sequential words in one 32-byte line: one miss, one line
     * fetch, seven hits (then the second load hits again). */
    const char *k = "alu_lanes=8 simt_warp_size=8 simt_warps=1 "
                    "mem_system=cache cache_line=32 cache_banks=8";
    uint32_t ident[8];
    for (unsigned i = 0; i < 8; i++)
        ident[i] = 4 * i;
    struct run r;
    gather_case(8, k, ident, 8, &r);
    ck_assert_double_eq(stat(&r, "memsys.misses"), 1);
    ck_assert_double_eq(stat(&r, "memsys.hits"), 15);
}
END_TEST

START_TEST(policies_refuse_what_their_machine_cannot_do)
{
    struct run r;
    /* The fork's RET ends the whole warp: the taken lanes (0..3, at the
     * join) run on to the end first, while lanes 4..7 wait on the stack,
     * which the fork would drop (its kernels close the taken path with
     * SYNC | BRA, seeds/fpga.c). */
    run_simt(SKIP("LT", "4"), 1, FSM2 "reconv=sync", NULL, 0, &r);
    ck_assert(!r.ok);
    ck_assert_msg(strstr(r.d.msg, "RET ends the whole warp"), "%s", r.d.msg);
    const char *joined =
        "!!USHADERcp1.0\nGROUP_SIZE 8;\nTEMP a;\n"
        "BRA.LT.U t, invocation.localid.x, 4;\n"
        "ADD.U a.x, a.x, 1;\nSYNC;\n"
        "done:\nMUL.U a.z, invocation.localid.x, 4;\n"
        "STORE.U32 buffer[0].x, a.z, a;\nBRA fin;\n"
        "t:\nADD.U a.y, a.y, 1;\nSYNC | BRA done;\n"
        "fin:\nEND\n";
    run_simt(joined, 1, FSM2 "reconv=sync", NULL, 0, &r);
    ck_assert_msg(r.ok, "%s", r.d.msg);
    ck_assert_double_eq(stat(&r, "reconv.events"), 1);
    ck_assert_double_eq(stat(&r, "reconv.serialised"), 0);
    ck_assert_double_eq(stat(&r, "issued"), 1 + 2 + 2 + 3);
    /* A stack of one entry overflows at a nested divergence. */
    const char *nested =
        "!!USHADERcp1.0\nGROUP_SIZE 8;\nTEMP a;\n"
        "BRA.GE.U b, invocation.localid.x, 4;\n"
        "ADD.U a.x, a.x, 1;\nSYNC;\nBRA fin;\n"
        "b:\nBRA.GE.U c, invocation.localid.x, 6;\nADD.U a.y, a.y, 1;\n"
        "c:\nSYNC | BRA fin;\nfin:\nEND\n";
    run_simt(nested, 1, FSM2 "reconv=sync reconv_depth=1", NULL, 0, &r);
    ck_assert(!r.ok);
    ck_assert_msg(strstr(r.d.msg, "reconv_depth"), "%s", r.d.msg);
    /* One pc per warp: structured flow has frames a pc cannot hold. */
    const char *structured = "!!USHADERcp1.0\nGROUP_SIZE 4;\nTEMP a;\n"
                             "IF invocation.localid.x;\nADD.U a.x, a.x, 1;\n"
                             "ENDIF;\nEND\n";
    run_simt(structured, 1, "reconv=none", NULL, 0, &r);
    ck_assert(!r.ok);
    ck_assert_msg(strstr(r.d.msg, "BRA only, not IF"), "%s", r.d.msg);
    /* A workgroup must fit one core. */
    run_simt(SKIP("LT", "4"), 1, "simt_warp_size=4 simt_warps=1", NULL, 0,
             &r);
    ck_assert(!r.ok);
    ck_assert_msg(strstr(r.d.msg, "must fit one core"), "%s", r.d.msg);
}
END_TEST

START_TEST(none_follows_the_last_lane)
{
    /* Upstream tiny-gpu: after the branch every lane goes where lane 7
     * goes (it branches), so lanes 0..3 skip the adds too: 4 issues, and
     * their stores hold what lane 7's path computed.  The memory then
     * differs from the interpreter's by design, so this run is compared
     * with the hand-computed words instead. */
    struct us_program prog;
    struct us_diag d;
    const char *text = SKIP("GE", "4");
    ck_assert(us_assemble(text, strlen(text), US_STAGE_ANY, &prog, &d));
    uint8_t buf[BUF_BYTES] = { 0 };
    struct us_memory mem = { 0 };
    mem.buf[0].data = buf;
    mem.buf[0].size = BUF_BYTES;
    us_vec4 *params = program_params(&prog);
    struct us_exec_env env = { .params = params, .math = &us_math_exact,
                               .mem = &mem };
    struct us_config cfg;
    us_config_default(&cfg);
    apply(&cfg, FSM2 "reconv=none");
    uint32_t g[3] = { 1, 1, 1 };
    struct us_stats st;
    ck_assert_msg(us_core_run_compute(&us_model_simt, &cfg, &prog, &env, g,
                                      NULL, &st, &d), "%s", d.msg);
    ck_assert_double_eq(us_stats_get(&st, "issued"), 4);
    ck_assert_double_eq(us_stats_get(&st, "divergent_branches"), 1);
    for (unsigned lane = 0; lane < 8; lane++) {
        uint32_t x;
        memcpy(&x, &buf[4 * lane], 4);
        ck_assert_uint_eq(x, 0);   /* no lane ran the adds */
    }
    free(params);
    us_program_free(&prog);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("simt");
    TCase *tc = tcase_create("simt");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fsm_cost_and_pdom_skips_empty_paths);
    tcase_add_test(tc, selective_dispatch_is_t_plus_p);
    tcase_add_test(tc, temporal_coalescer_merges_consecutive_requests);
    tcase_add_test(tc, egpu_cache_fetches_a_line_once);
    tcase_add_test(tc, policies_refuse_what_their_machine_cannot_do);
    tcase_add_test(tc, none_follows_the_last_lane);
    suite_add_tcase(s, tc);
    return s;
}
