/*
 * The area / energy model's integer datapaths, load/store units and data
 * cache (shader/area.def, shader/area.c): the cache's geometry and area
 * against hand-computed tag bits, growing with cache_kib; the LSUs each
 * memory-system part implies; the energy of each new event; and a compute
 * kernel on every model: the same integer operations counted by every
 * model (the same IR work), area.cache only with mem_system=cache,
 * area_simd4 of simd4 exactly 1 whatever the memory system, and an
 * integer multiply costing 3.1 - 0.1 pJ more than an add and a float add
 * (a MAD-datapath pass) 3.7 + 0.9 - 0.1 pJ more, the run otherwise the
 * same.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/core.h"
#include "shader/memsys.h"
#include "shader/timing.h"

#include "check_main.h"

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

static void config(struct us_config *cfg, const char *sets)
{
    us_config_default(cfg);
    apply(cfg, sets);
}

/* ---- Hardware ------------------------------------------------------------ */

START_TEST(cache_geometry_and_area)
{
    /* e-GPU's 16 KiB with 32-byte lines: 512 lines, 9 index and 5 offset
     * bits, so 18 tag bits and a valid bit beside 256 data bits. */
    struct us_config cfg;
    config(&cfg, "mem_system=cache cache_kib=16 cache_line=32 cache_banks=8");
    struct us_hw hw;
    us_hw_simd4(&cfg, 0, &hw);
    ck_assert_uint_eq(hw.cache_lines, 512);
    ck_assert_uint_eq(hw.cache_line_bits, 256 + 18 + 1);
    ck_assert_uint_eq(hw.cache_banks, 8);
    /* the cells alone: 512 x 275 x 0.346 um^2, periphery on top */
    struct us_hw no = hw;
    no.cache_lines = 0;
    double cache = us_area_um2(&hw) - us_area_um2(&no);
    ck_assert_double_gt(cache, 512.0 * 275 * 0.346);
    ck_assert_double_lt(cache, 1.5 * 512.0 * 275 * 0.346);

    /* larger caches cost more: 1, 4, 16, 64 KiB */
    double last = 0.0;
    for (unsigned kib = 1; kib <= 64; kib *= 4) {
        char set[96];
        snprintf(set, sizeof set, "mem_system=cache cache_kib=%u", kib);
        config(&cfg, set);
        us_hw_simd4(&cfg, 0, &hw);
        ck_assert_uint_eq(hw.cache_lines, kib * 1024 / 16);
        ck_assert_double_gt(us_area_um2(&hw), last);
        last = us_area_um2(&hw);
    }

    /* no cache without mem_system=cache */
    config(&cfg, "cache_kib=64");
    us_hw_simd4(&cfg, 0, &hw);
    ck_assert_uint_eq(hw.cache_lines, 0);
}
END_TEST

START_TEST(lsus_per_memory_system)
{
    /* a machine of 16 lanes and 4 requesters */
    static const struct {
        const char *set;
        unsigned lsus;
    } cases[] = {
        { "mem_system=lsu", 16 },          /* one per lane */
        { "mem_system=coalesce", 16 },
        { "mem_system=cache", 16 },
        { "mem_system=port", 4 },          /* one per port (requester) */
        { "mem_system=port mem_port_split=1", 8 },
        { "mem_system=port mem_ports=2", 2 },
        { "mem_system=tmcu", 8 },          /* a load and a store port each */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct us_config cfg;
        config(&cfg, cases[i].set);
        struct us_hw hw = { 0 };
        us_memsys_hw(&cfg, 4, 16, &hw);
        ck_assert_msg(hw.lsus == cases[i].lsus, "%s: %u LSUs, want %u",
                      cases[i].set, hw.lsus, cases[i].lsus);
    }
    /* the simd4 reference: an integer ALU and multiplier per lane */
    struct us_config cfg;
    config(&cfg, "alu_lanes=16");
    struct us_hw hw;
    us_hw_simd4(&cfg, 0, &hw);
    ck_assert_uint_eq(hw.int_alu, 16);
    ck_assert_uint_eq(hw.int_mul, 16);
    ck_assert_uint_eq(hw.lsus, 16);
    struct us_hw less = hw;
    less.int_mul = 0;
    /* [H]: the 32-bit multiplier is 3495 um^2 */
    ck_assert_double_eq_tol(us_area_um2(&hw) - us_area_um2(&less),
                            16 * 3495.0, 1e-6);
}
END_TEST

START_TEST(energy_of_the_new_events)
{
    struct us_hw hw = { .cache_line_bits = 128 + 20 + 1 };
    struct us_activity none = { 0 };
    double base = us_energy_pj(&hw, &none);
    ck_assert_double_eq(base, 0.0);
    struct us_activity a = { .int_alu_ops = 10 };
    ck_assert_double_eq_tol(us_energy_pj(&hw, &a), 10 * 0.1, 1e-9);
    a = (struct us_activity){ .int_mul_ops = 10 };
    ck_assert_double_eq_tol(us_energy_pj(&hw, &a), 10 * 3.1, 1e-9);
    /* a request: the address add and its queue entry written and read,
     * 72 bits each time at 10/64 pJ per bit */
    a = (struct us_activity){ .mem_requests = 4 };
    ck_assert_double_eq_tol(us_energy_pj(&hw, &a),
                            4 * (0.1 + 2 * 72 * 10.0 / 64), 1e-9);
    /* a cache access: a line and its tag */
    a = (struct us_activity){ .cache_accesses = 3 };
    ck_assert_double_eq_tol(us_energy_pj(&hw, &a), 3 * 149 * 10.0 / 64, 1e-9);
}
END_TEST

/* Each event lands in its own part, and the parts add up to the total
 * (which keeps the bits of the one-sum formula). */
START_TEST(energy_parts_add_up)
{
    struct us_hw hw = { .cache_line_bits = 149 };
    const struct us_activity one[] = {
        { .fmul_ops = 7 }, { .fadd_ops = 5 }, { .rf_reads = 9, .rf_writes = 2 },
        { .sfu_full_ops = 3 }, { .lut_reads = 4 }, { .imem_bits = 960 },
        { .issues = 11 }, { .int_alu_ops = 6, .int_mul_ops = 2 },
        { .mem_requests = 4 }, { .cache_accesses = 3 },
    };
    struct us_activity all = { 0 };
    for (unsigned i = 0; i < sizeof one / sizeof one[0]; i++) {
        struct us_energy_parts p;
        double e = us_energy_split(&hw, &one[i], &p);
        const double *part = &p.fp;
        unsigned nonzero = 0;
        for (unsigned k = 0; k < sizeof p / sizeof p.fp; k++)
            nonzero += part[k] != 0;
        ck_assert_uint_eq(nonzero, 1);
        ck_assert(e > 0);
        all.fmul_ops += one[i].fmul_ops;
        all.fadd_ops += one[i].fadd_ops;
        all.rf_reads += one[i].rf_reads;
        all.rf_writes += one[i].rf_writes;
        all.sfu_full_ops += one[i].sfu_full_ops;
        all.lut_reads += one[i].lut_reads;
        all.imem_bits += one[i].imem_bits;
        all.issues += one[i].issues;
        all.int_alu_ops += one[i].int_alu_ops;
        all.int_mul_ops += one[i].int_mul_ops;
        all.mem_requests += one[i].mem_requests;
        all.cache_accesses += one[i].cache_accesses;
    }
    struct us_energy_parts p;
    double e = us_energy_split(&hw, &all, &p);
    ck_assert(e == us_energy_pj(&hw, &all));
    double sum = p.fp + p.rf + p.sfu + p.lut + p.imem + p.control + p.ints +
                 p.lsu + p.cache;
    ck_assert_double_eq_tol(sum, e, 1e-9 * e);
    ck_assert_double_eq_tol(p.imem, 960 * 10.0 / 64, 1e-9);
}
END_TEST

/* ---- A kernel on every model --------------------------------------------- */

/* Per item: MOV.U, ADD.U .xy (3 integer ALU components), one MUL.U (or
 * with OP = MUL.U a second), SHL.U: 4 + 1 or 3 + 2; one store. */
#define KERNEL(OP)                                                        \
    "!!USHADERcp1.0\n"                                                    \
    "GROUP_SIZE 8;\n"                                                     \
    "TEMP i, a, v;\n"                                                     \
    "MOV.U i.x, invocation.globalid.x;\n"                                 \
    "MUL.U a.x, i.x, 4;\n"                                                \
    OP " v.xy, i.x, 7;\n"                                                 \
    "SHL.U v.x, v.x, v.y;\n"                                              \
    "STORE.U32 buffer[0].x, a.x, v.x;\n"                                  \
    "END\n"

static const char k_add[] = KERNEL("ADD.U");
static const char k_mul[] = KERNEL("MUL.U");
static const char k_fadd[] = KERNEL("ADD");   /* a float add instead */

enum { GROUPS = 4, ITEMS = 8 * GROUPS, BUF_BYTES = 4 * ITEMS };

static const struct us_core_model *const models[] = {
    &us_model_scalar, &us_model_simd4, &us_model_vliw, &us_model_superscalar,
    &us_model_hetero, &us_model_simt,
};
enum { NMODELS = sizeof models / sizeof models[0] };

/* Run `text` on model m under the knobs `sets`; the statistics in *st. */
static void run(const char *text, const struct us_core_model *m,
                const char *sets, struct us_stats *st)
{
    struct us_program prog;
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &prog, &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    us_vec4 *params = calloc(prog.nparams + 1, sizeof *params);
    ck_assert_ptr_nonnull(params);
    uint8_t buf[BUF_BYTES] = { 0 };
    struct us_memory mem = { 0 };
    mem.buf[0].data = buf;
    mem.buf[0].size = sizeof buf;
    struct us_exec_env env = { .params = (const us_vec4 *)params,
                               .math = &us_math_exact, .mem = &mem };
    struct us_thread *t = calloc(ITEMS, sizeof *t);
    ck_assert_ptr_nonnull(t);
    struct us_config cfg;
    config(&cfg, sets);
    const uint32_t groups[3] = { GROUPS, 1, 1 };
    ck_assert_msg(us_core_run_compute(m, &cfg, &prog, &env, groups, t, st, &d),
                  "%s %s: %s", m->name, sets, d.msg);
    ck_assert_double_eq(us_stats_get(st, "threads"), ITEMS);
    free(t);
    free(params);
    us_program_free(&prog);
}

static double get(const struct us_stats *st, const char *name)
{
    double v = us_stats_get(st, name);
    ck_assert_msg(!isnan(v), "%s: %s not reported", st->arch, name);
    return v;
}

START_TEST(int_ops_equal_across_models)
{
    for (unsigned i = 0; i < NMODELS; i++) {
        struct us_stats st;
        run(k_add, models[i], "", &st);
        ck_assert_msg(get(&st, "int_ops.alu") == 4.0 * ITEMS &&
                      get(&st, "int_ops.mul") == 1.0 * ITEMS,
                      "%s: %g integer ALU and %g multiplier components, "
                      "want %d and %d", models[i]->name,
                      get(&st, "int_ops.alu"), get(&st, "int_ops.mul"),
                      4 * ITEMS, ITEMS);
        ck_assert_double_gt(get(&st, "area.int"), 0.0);
        ck_assert_double_gt(get(&st, "area.lsu"), 0.0);
        ck_assert_double_eq(get(&st, "memsys.requests"), ITEMS);
    }
}
END_TEST

START_TEST(cache_area_only_with_a_cache)
{
    for (unsigned i = 0; i < NMODELS; i++) {
        struct us_stats lsu, cache;
        run(k_add, models[i], "", &lsu);
        run(k_add, models[i], "mem_system=cache", &cache);
        ck_assert_msg(get(&lsu, "area.cache") == 0.0, "%s", models[i]->name);
        ck_assert_msg(get(&cache, "area.cache") > 0.0, "%s", models[i]->name);
        ck_assert_double_gt(get(&cache, "memsys.cache_accesses"), 0.0);
        /* the cache and its accesses are in area and energy */
        ck_assert_double_eq_tol(get(&cache, "area") - get(&lsu, "area"),
                                get(&cache, "area.cache"), 1e-6);
        ck_assert_double_gt(get(&cache, "energy"), get(&lsu, "energy"));
    }
}
END_TEST

START_TEST(simd4_reference_is_like_with_like)
{
    /* simd4 against itself: 1 whatever the memory system, LSU count
     * (lockstep groups are a port's requesters) or cache */
    static const char *const sets[] = {
        "", "mem_system=cache", "mem_system=port lockstep=2 alu_lanes=16",
        "mem_system=tmcu alu_lanes=16", "mem_system=coalesce",
    };
    for (unsigned i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        struct us_stats st;
        run(k_add, &us_model_simd4, sets[i], &st);
        ck_assert_msg(fabs(get(&st, "area_simd4") - 1.0) < 1e-12,
                      "simd4 %s: area_simd4 %.15g", sets[i],
                      get(&st, "area_simd4"));
    }
}
END_TEST

START_TEST(energy_grows_with_integer_multiplies)
{
    for (unsigned i = 0; i < NMODELS; i++) {
        struct us_stats add, mul;
        run(k_add, models[i], "", &add);
        run(k_mul, models[i], "", &mul);
        ck_assert_double_eq(get(&mul, "int_ops.mul"), 3.0 * ITEMS);
        ck_assert_double_eq(get(&mul, "int_ops.alu"), 2.0 * ITEMS);
        /* two components per item moved from the adder to the multiplier:
         * the rest of the run (registers, fetch, issue) is the same */
        double d = get(&mul, "energy") - get(&add, "energy");
        ck_assert_msg(fabs(d - 2.0 * ITEMS * (3.1 - 0.1)) < 1e-6,
                      "%s: energy %g pJ more, want %g", models[i]->name, d,
                      2.0 * ITEMS * (3.1 - 0.1));
        /* and an integer add is not a MAD-datapath pass (3.7 + 0.9 pJ) */
        struct us_stats fadd;
        run(k_fadd, models[i], "", &fadd);
        ck_assert_double_eq(get(&fadd, "int_ops.alu"), 2.0 * ITEMS);
        d = get(&fadd, "energy") - get(&add, "energy");
        ck_assert_msg(fabs(d - 2.0 * ITEMS * (3.7 + 0.9 - 0.1)) < 1e-6,
                      "%s: a float add %g pJ more, want %g", models[i]->name,
                      d, 2.0 * ITEMS * (3.7 + 0.9 - 0.1));
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("area");
    TCase *tc = tcase_create("area");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cache_geometry_and_area);
    tcase_add_test(tc, lsus_per_memory_system);
    tcase_add_test(tc, energy_of_the_new_events);
    tcase_add_test(tc, energy_parts_add_up);
    tcase_add_test(tc, int_ops_equal_across_models);
    tcase_add_test(tc, cache_area_only_with_a_cache);
    tcase_add_test(tc, simd4_reference_is_like_with_like);
    tcase_add_test(tc, energy_grows_with_integer_multiplies);
    suite_add_tcase(s, tc);
    return s;
}
