/*
 * Two result sets side by side (`ushader compare A B`, issue 19): what a
 * configuration change did to every program on every model, in the manner
 * of Mesa shader-db's report.py.
 *
 * A result set is rows keyed by (program, variant), each with the model
 * that ran it and the statistics object of docs/METRICS.md.  Any schema 1
 * document that has such rows is one:
 *
 *   bench         "runs": [{"program", "variant", "stats"}], the model
 *                 from "variants": [{"name", "model"}] (else stats.arch);
 *                 `bench --json`, results.json, and any bench-shaped set
 *                 (a sweep's points: a row may also say "model" itself)
 *   bench-compute "jobs": [{"kernel", "variant", "stats"}]
 *   sweep         "points": [{"knobs", "runs"}] (`ushader sweep`'s
 *                 results.json; a job's point.json has one "point"):
 *                 bench rows whose variant carries the point's knob
 *                 values, "scalar [lut_banks=1,lookahead=2]"
 *   run-all       "models": [stats...]: `run --arch all --json`, the
 *                 program its provenance's first input, variant = model
 *   run-arch      the statistics at the top: `run --arch M --json`
 *
 * A row without statistics (a failed or refused run) is not a row.  Of
 * each row: cycles, utilization, instructions (stats.issued: instructions
 * issued; bundles on vliw, warp instructions on simt), area (area.total)
 * and energy.  Helped = fewer cycles, instructions, area or energy, or a
 * higher utilization, by more than the threshold (a relative change in
 * percent; 0: any difference).
 *
 * Provenance: the inputs (provenance.inputs) other than INI files are the
 * programs and their data; two sets whose such files differ (the same path
 * with another hash, or a file in one set only that no file of the other
 * has the content of) used different programs, which us_cmp_run reports
 * in `programs`.  INI files (matched by path or by name) and the
 * configuration (provenance.config, math, the threads of a bench, a
 * sweep or a run) are what a comparison is for: their differences are in `config`.
 *
 * Library code: nothing prints; errors fill a struct us_diag.
 */
#ifndef US_COMPARE_H
#define US_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "ushader.h"

struct json_t;

enum us_cmp_metric {
    US_CMP_CYCLES, US_CMP_UTIL, US_CMP_INSTS, US_CMP_AREA, US_CMP_ENERGY,
    US_CMP_NMETRIC
};

struct us_cmp_metric_info {
    const char *name;     /* in every output                        */
    const char *stat;     /* its key in the statistics ("area/total") */
    bool higher_better;   /* utilization                             */
    bool integer;         /* a count                                 */
};
extern const struct us_cmp_metric_info us_cmp_metrics[US_CMP_NMETRIC];

struct us_cmp_row {
    const char *program, *variant, *model;   /* in the set's document */
    double v[US_CMP_NMETRIC];
};

struct us_cmp_set {
    struct json_t *doc;        /* owned; the rows' strings point into it */
    const char *kind;          /* "bench", "bench-compute", "sweep",
                                  "run-all", "run-arch" */
    struct us_cmp_row *rows;
    size_t nrows;
    const struct us_cmp_row **order;   /* the rows sorted by key */
    struct json_t *threads;    /* a bench's or run's thread count, or NULL */
    char **owned;              /* a sweep's variant names */
    size_t nowned;
};

/* Parse a document; false with the reason ("runs[3].stats: no number
 * 'cycles'...", a JSON syntax error with its line and column, a row key
 * twice) in *d. */
US_MUST_CHECK bool us_cmp_set_parse(struct us_cmp_set *s, const char *text,
                                    size_t len, struct us_diag *d);
void us_cmp_set_free(struct us_cmp_set *s);

/* +1 helped, -1 hurt, 0 unchanged: b against a, unchanged when |b - a| is
 * at most threshold percent of |a| (threshold 0: exactly equal) or when
 * either is undefined (NaN: a statistic that is null). */
int us_cmp_verdict(enum us_cmp_metric m, double a, double b,
                   double threshold);

/* The geometric mean of b[i]/a[i] over the i where both are positive and
 * finite (their number in *used); NaN when there is none. */
double us_cmp_geomean(const double *a, const double *b, size_t n,
                      size_t *used);

/* A difference of configuration or of a program file; texts malloc'd,
 * NULL where one side has none. */
struct us_cmp_diff {
    char *key, *a, *b;
};

/* The geometric means of one variant's rows in both sets (variant NULL:
 * all of them). */
struct us_cmp_group {
    const char *variant, *model;
    size_t rows;
    double geomean[US_CMP_NMETRIC];
    size_t used[US_CMP_NMETRIC];
};

struct us_cmp_result {
    size_t *pair_a, *pair_b;        /* row indices of the rows in both */
    size_t npairs;
    size_t *only_a, *only_b;
    size_t nonly_a, nonly_b;
    struct us_cmp_group *groups;    /* per variant, in A's order       */
    size_t ngroups;
    struct us_cmp_group all;
    unsigned helped[US_CMP_NMETRIC], hurt[US_CMP_NMETRIC],
             unchanged[US_CMP_NMETRIC];
    struct us_cmp_diff *config, *programs;
    size_t nconfig, nprograms;
};

/* Compare a with b.  False only when out of memory; the caller decides
 * what differences of programs and no rows in common mean. */
US_MUST_CHECK bool us_cmp_run(const struct us_cmp_set *a,
                              const struct us_cmp_set *b, double threshold,
                              struct us_cmp_result *r, struct us_diag *d);
void us_cmp_result_free(struct us_cmp_result *r);

#endif
