/*
 * The figures of `ushader compare` (suite/compare.h): the helped/hurt
 * verdict per metric and threshold, the geometric mean (rows with a zero
 * left out), the row shapes of a bench, a compute bench and run
 * documents, rows in one set only, per-variant means, and what the
 * provenance says: configuration keys, INI files by name, program files
 * by path or by content.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "suite/compare.h"

START_TEST(verdicts)
{
    /* fewer cycles helps, a higher utilization helps */
    ck_assert_int_eq(us_cmp_verdict(US_CMP_CYCLES, 100, 90, 0), 1);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_CYCLES, 100, 110, 0), -1);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_CYCLES, 100, 100, 0), 0);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_UTIL, 0.5, 0.6, 0), 1);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_UTIL, 0.5, 0.4, 0), -1);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_ENERGY, 10, 9.5, 0), 1);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_AREA, 10, 10.5, 0), -1);
    /* exact by default: the least difference counts */
    ck_assert_int_eq(us_cmp_verdict(US_CMP_INSTS, 1e6, 1e6 + 1, 0), -1);
    /* within the threshold (percent of A) unchanged, the bound included */
    ck_assert_int_eq(us_cmp_verdict(US_CMP_CYCLES, 100, 105, 5), 0);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_CYCLES, 100, 95, 5), 0);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_CYCLES, 100, 106, 5), -1);
    ck_assert_int_eq(us_cmp_verdict(US_CMP_UTIL, 0.5, 0.6, 10), 1);
    /* from zero: any change is beyond every threshold */
    ck_assert_int_eq(us_cmp_verdict(US_CMP_UTIL, 0, 0.1, 50), 1);
}
END_TEST

START_TEST(geomeans)
{
    double a[] = { 100, 200, 0, 50 }, b[] = { 200, 50, 7, 50 };
    size_t used;
    /* (2 * 0.25 * 1)^(1/3); the pair with a 0 is left out */
    double g = us_cmp_geomean(a, b, 4, &used);
    ck_assert_uint_eq(used, 3);
    ck_assert(fabs(g - cbrt(0.5)) < 1e-12);
    ck_assert(isnan(us_cmp_geomean(a + 2, b + 2, 1, &used)));
    ck_assert_uint_eq(used, 0);
    double one[] = { 3 };
    ck_assert(us_cmp_geomean(one, one, 1, &used) == 1 && used == 1);
}
END_TEST

/* A bench document: rows "prog/variant=cycles" with the other metrics
 * derived from the cycles; `config` and `inputs` the provenance's. */
static char *bench_doc(const char *runs, const char *config,
                       const char *inputs)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, "{\"schema_version\": 1, \"provenance\": {\"config\": %s, "
            "\"inputs\": [%s]}, \"threads\": 8, \"variants\": ["
            "{\"name\": \"scalar\", \"model\": \"scalar\"}, "
            "{\"name\": \"lutp\", \"model\": \"scalar\"}, "
            "{\"name\": \"simd4\", \"model\": \"simd4\"}], \"runs\": [",
            config, inputs);
    const char *p = runs;
    for (int n = 0; *p; n++) {
        char prog[32], var[32];
        int cycles, used;
        if (sscanf(p, " %31[^/]/%31[^=]=%d%n", prog, var, &cycles, &used) != 3)
            break;
        p += used;
        fprintf(f, "%s{\"program\": \"%s\", \"variant\": \"%s\", "
                "\"ok\": true, \"stats\": {\"cycles\": %d, "
                "\"utilization\": %g, \"issued\": 40, \"area\": "
                "{\"total\": 1000.5}, \"energy\": %d.25}}", n ? ", " : "",
                prog, var, cycles, 100.0 / cycles, cycles);
    }
    /* a failed run has no statistics: no row */
    fprintf(f, ", {\"program\": \"x.fp\", \"variant\": \"scalar\", "
            "\"ok\": false}]}");
    fclose(f);
    return buf;
}

static const char cfg4[] = "{\"core\": {\"lut_banks\": 4, \"sched\": \"rr\"},"
                           " \"sfu\": {\"rcp.k\": 7}}";
static const char cfg1[] = "{\"core\": {\"lut_banks\": 1, \"sched\": \"rr\"},"
                           " \"sfu\": {\"rcp.k\": 7, \"w0\": 32}}";
static const char in_a[] =
    "{\"path\": \"bench/p.fp\", \"bytes\": 5, \"fnv1a64\": \"00000000000000aa\"},"
    "{\"path\": \"cfg/kgpu.ini\", \"bytes\": 5, \"fnv1a64\": \"0000000000000001\"}";

static void parse(struct us_cmp_set *s, char *text)
{
    struct us_diag d = { 0 };
    bool ok = us_cmp_set_parse(s, text, strlen(text), &d);
    free(text);
    ck_assert_msg(ok, "%s", d.msg);
}

START_TEST(rows_means_and_config)
{
    struct us_cmp_set a, b;
    parse(&a, bench_doc("p.fp/scalar=100 p.fp/simd4=200 q.fp/scalar=50 "
                        "q.fp/lutp=10", cfg4, in_a));
    /* B: the same files, the INI moved to another directory */
    parse(&b, bench_doc("q.fp/scalar=100 p.fp/scalar=50 p.fp/simd4=200 "
                        "r.fp/scalar=9", cfg1,
                        "{\"path\": \"bench/p.fp\", \"fnv1a64\": \"00000000000000aa\"},"
                        "{\"path\": \"other/kgpu.ini\", \"fnv1a64\": \"0000000000000001\"}"));
    ck_assert_str_eq(a.kind, "bench");
    ck_assert_uint_eq(a.nrows, 4);
    ck_assert_str_eq(a.rows[3].model, "scalar");   /* variants[] */
    ck_assert(a.rows[0].v[US_CMP_AREA] == 1000.5);
    struct us_cmp_result r;
    struct us_diag d;
    ck_assert(us_cmp_run(&a, &b, 0, &r, &d));
    /* in both: p/scalar, p/simd4, q/scalar, in A's order */
    ck_assert_uint_eq(r.npairs, 3);
    ck_assert_uint_eq(r.pair_a[2], 2);
    ck_assert_uint_eq(r.pair_b[0], 1);
    ck_assert_uint_eq(r.nonly_a, 1);
    ck_assert_str_eq(a.rows[r.only_a[0]].variant, "lutp");
    ck_assert_uint_eq(r.nonly_b, 1);
    ck_assert_str_eq(b.rows[r.only_b[0]].program, "r.fp");
    /* cycles: p/scalar helped, simd4 unchanged, q/scalar hurt */
    ck_assert_uint_eq(r.helped[US_CMP_CYCLES], 1);
    ck_assert_uint_eq(r.hurt[US_CMP_CYCLES], 1);
    ck_assert_uint_eq(r.unchanged[US_CMP_CYCLES], 1);
    ck_assert_uint_eq(r.unchanged[US_CMP_AREA], 3);
    /* per variant: scalar (0.5 and 2: 1), simd4 (1); all three: 1 */
    ck_assert_uint_eq(r.ngroups, 2);
    ck_assert_str_eq(r.groups[0].variant, "scalar");
    ck_assert_uint_eq(r.groups[0].rows, 2);
    ck_assert(fabs(r.groups[0].geomean[US_CMP_CYCLES] - 1) < 1e-12);
    ck_assert(fabs(r.groups[0].geomean[US_CMP_UTIL] - 1) < 1e-12);
    ck_assert_uint_eq(r.all.rows, 3);
    /* configuration: lut_banks, then sfu.w0 which only B has; the INI
     * of the same name and hash in another directory is the same; the
     * programs are the same */
    ck_assert_uint_eq(r.nconfig, 2);
    ck_assert_str_eq(r.config[0].key, "core.lut_banks");
    ck_assert_str_eq(r.config[0].a, "4");
    ck_assert_str_eq(r.config[0].b, "1");
    ck_assert_str_eq(r.config[1].key, "sfu.w0");
    ck_assert_ptr_null(r.config[1].a);
    ck_assert_uint_eq(r.nprograms, 0);
    us_cmp_result_free(&r);
    us_cmp_set_free(&a);
    us_cmp_set_free(&b);
}
END_TEST

START_TEST(program_differences)
{
    struct us_cmp_set a, b, c, e;
    parse(&a, bench_doc("p.fp/scalar=100", cfg4, in_a));
    /* p.fp changed, the INI too (configuration, not a program) */
    parse(&b, bench_doc("p.fp/scalar=100", cfg4,
                        "{\"path\": \"bench/p.fp\", \"fnv1a64\": \"00000000000000bb\"},"
                        "{\"path\": \"cfg/kgpu.ini\", \"fnv1a64\": \"0000000000000002\"}"));
    /* the same content under another path is the same program */
    parse(&c, bench_doc("p.fp/scalar=100", cfg4,
                        "{\"path\": \"/abs/bench/p.fp\", \"fnv1a64\": \"00000000000000aa\"},"
                        "{\"path\": \"cfg/kgpu.ini\", \"fnv1a64\": \"0000000000000001\"}"));
    /* one program more */
    parse(&e, bench_doc("p.fp/scalar=100", cfg4,
                        "{\"path\": \"bench/p.fp\", \"fnv1a64\": \"00000000000000aa\"},"
                        "{\"path\": \"bench/s.scn\", \"fnv1a64\": \"00000000000000cc\"}"));
    struct us_cmp_result r;
    struct us_diag d;
    ck_assert(us_cmp_run(&a, &b, 0, &r, &d));
    ck_assert_uint_eq(r.nprograms, 1);
    ck_assert_str_eq(r.programs[0].key, "bench/p.fp");
    ck_assert_str_eq(r.programs[0].a, "00000000000000aa");
    ck_assert_str_eq(r.programs[0].b, "00000000000000bb");
    ck_assert_uint_eq(r.nconfig, 1);
    ck_assert_str_eq(r.config[0].key, "cfg/kgpu.ini");
    us_cmp_result_free(&r);
    ck_assert(us_cmp_run(&a, &c, 0, &r, &d));
    ck_assert_uint_eq(r.nprograms, 0);
    ck_assert_uint_eq(r.nconfig, 0);
    us_cmp_result_free(&r);
    ck_assert(us_cmp_run(&a, &e, 0, &r, &d));
    ck_assert_uint_eq(r.nprograms, 1);
    ck_assert_str_eq(r.programs[0].key, "bench/s.scn");
    ck_assert_ptr_null(r.programs[0].a);
    /* the INI only A has: configuration */
    ck_assert_uint_eq(r.nconfig, 1);
    ck_assert_ptr_null(r.config[0].b);
    us_cmp_result_free(&r);
    us_cmp_set_free(&a);
    us_cmp_set_free(&b);
    us_cmp_set_free(&c);
    us_cmp_set_free(&e);
}
END_TEST

static bool parse_text(const char *text, struct us_cmp_set *s,
                       struct us_diag *d)
{
    return us_cmp_set_parse(s, text, strlen(text), d);
}

START_TEST(shapes_and_errors)
{
    struct us_cmp_set s;
    struct us_diag d;
    const char *stats = "\"cycles\": 7, \"utilization\": 0.5, \"issued\": 3,"
                        " \"area\": {\"total\": 2}, \"energy\": 1";
    char buf[1024];
    /* the compute bench: jobs with a kernel, refused ones skipped */
    snprintf(buf, sizeof buf, "{\"schema_version\": 1, \"provenance\": {},"
             " \"jobs\": [{\"kernel\": \"vadd\", \"variant\": \"simt/kgpu\","
             " \"stats\": {\"arch\": \"simt\", %s}}, {\"kernel\": \"vadd\","
             " \"variant\": \"simt/tinygpu\", \"status\": \"refused\"}]}",
             stats);
    ck_assert_msg(parse_text(buf, &s, &d), "%s", d.msg);
    ck_assert_str_eq(s.kind, "bench-compute");
    ck_assert_uint_eq(s.nrows, 1);
    ck_assert_str_eq(s.rows[0].model, "simt");
    us_cmp_set_free(&s);
    /* run --arch M: the program is the provenance's first input */
    snprintf(buf, sizeof buf, "{\"schema_version\": 1, \"provenance\": "
             "{\"inputs\": [{\"path\": \"a.fp\"}]}, \"arch\": \"vliw\", %s}",
             stats);
    ck_assert_msg(parse_text(buf, &s, &d), "%s", d.msg);
    ck_assert_str_eq(s.kind, "run-arch");
    ck_assert_str_eq(s.rows[0].program, "a.fp");
    ck_assert_str_eq(s.rows[0].variant, "vliw");
    us_cmp_set_free(&s);
    /* a statistic that is null (undefined): NaN, never helped or hurt */
    ck_assert(parse_text("{\"schema_version\": 1, \"provenance\": {}, "
                         "\"runs\": [{\"program\": \"p\", \"variant\": "
                         "\"v\", \"stats\": {\"cycles\": 0, \"utilization\":"
                         " null, \"issued\": 0, \"area\": {\"total\": 2}, "
                         "\"energy\": 0}}]}", &s, &d));
    ck_assert(isnan(s.rows[0].v[US_CMP_UTIL]));
    ck_assert_int_eq(us_cmp_verdict(US_CMP_UTIL, s.rows[0].v[US_CMP_UTIL],
                                    0.5, 0), 0);
    us_cmp_set_free(&s);
    /* errors */
    ck_assert(!parse_text("{\"schema_version\": 1,\n \"provenance\": x}", &s,
                          &d));
    ck_assert(strstr(d.msg, "not JSON") && d.line == 2);
    us_cmp_set_free(&s);
    ck_assert(!parse_text("{\"schema_version\": 1, \"provenance\": {}}", &s,
                          &d));
    ck_assert(strstr(d.msg, "not a result set"));
    us_cmp_set_free(&s);
    ck_assert(!parse_text("{\"schema_version\": 1, \"provenance\": {}, "
                          "\"runs\": [{\"program\": \"p\", \"variant\": "
                          "\"v\", \"stats\": {\"cycles\": 1}}]}", &s, &d));
    ck_assert_str_eq(d.msg, "runs[0].stats: no number 'utilization' in the "
                            "statistics");
    us_cmp_set_free(&s);
    snprintf(buf, sizeof buf, "{\"schema_version\": 1, \"provenance\": {},"
             " \"runs\": [{\"program\": \"p\", \"variant\": \"v\", \"stats\":"
             " {%s}}, {\"program\": \"p\", \"variant\": \"v\", \"stats\":"
             " {%s}}]}", stats, stats);
    ck_assert(!parse_text(buf, &s, &d));
    ck_assert_str_eq(d.msg, "two rows of program 'p', variant 'v'");
    us_cmp_set_free(&s);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("compare");
    tcase_add_test(tc, verdicts);
    tcase_add_test(tc, geomeans);
    tcase_add_test(tc, rows_means_and_config);
    tcase_add_test(tc, program_differences);
    tcase_add_test(tc, shapes_and_errors);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
