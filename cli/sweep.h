/*
 * `ushader sweep` (cli/cmd_sweep.c, cli/sweep_spec.c, cli/sweep_out.c,
 * cli/sweep_compute.c; docs/SWEEP.md): the bench suite (shader or compute)
 * run once per point of a sweep over configuration knobs, locally or as
 * one job per point (GNU parallel, Slurm) whose partial results --merge
 * joins.
 *
 *   spec     (sweep_spec.c) the axes, from an INI file ([sweep] mode =
 *                           grid|zip, KEY = V1,V2,...) and --set
 *                           KEY=V1,V2,...; every key and value validated
 *                           before anything runs; point k's knob values;
 *   point    (cmd_sweep.c)  one bench run with the point's knobs over
 *                           --config: its rows as a JSON object, the same
 *                           object whether a local run keeps it in memory
 *                           or a job writes it to DIR/points/NNNN/;
 *   jobs     (sweep_jobs.c) --emit-jobs' scripts, list and array; --merge
 *                           and its checks of every point's file;
 *   compute  (sweep_compute.c) a point of --suite compute: the compute
 *                           bench's model variants at the point, its jobs
 *                           as rows (bench-compute's shape);
 *   outputs  (sweep_out.c)  results.json, results.csv, report.md and the
 *                           gnuplot files, computed from the points' JSON
 *                           objects and the sweep's provenance only, so a
 *                           merged set is the local run's byte for byte.
 */
#ifndef CLI_SWEEP_H
#define CLI_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "suite/suite.h"

struct json_t;

enum {
    SW_MAX_AXES = 16,
    SW_MAX_VALUES = 256,      /* values of one knob              */
    SW_MAX_POINTS = 10000,    /* jobs' names have four digits    */
    SW_MAX_PLOTS = 8,
    SW_MAX_SET = 192,         /* "KEY=VALUE" of one knob at a point */
};

struct sw_axis {
    char *key;                /* as given: "lut_banks", "sfu.rcp.k" */
    char *vals[SW_MAX_VALUES];
    unsigned nvals;
};

/* What a sweep is: the axes and the bench options every point shares. */
struct sw_spec {
    bool zip;                 /* points pair the values; else the grid */
    struct sw_axis axes[SW_MAX_AXES];
    unsigned naxes;
    unsigned npoints;
    const char *spec_file;    /* --spec, or NULL                       */
    const char *config;       /* --config, or NULL                     */
    const char *arch;         /* --arch as given, or NULL (all)        */
    const char *only;         /* --only, or NULL                       */
    const char *suite;        /* --suite (default bench/suite.list)    */
    unsigned threads;         /* --threads, 0: the bench's default     */
    const char *threads_arg, *suite_arg;   /* as given, or NULL        */
    const char *sets[SW_MAX_AXES];  /* the --set options as given      */
    unsigned nsets;
    bool zip_opt;             /* --zip was given                       */
    bool compute;             /* --suite compute: the compute suite    */
    char *text;               /* the spec file's bytes (owned)         */
};

/* Parse the spec file (when spec_file is set) and the --set options into
 * the axes, then check every key and value on the configuration `base`
 * (defaults and --config): false after an error message (exit 2). */
US_MUST_CHECK bool sw_spec_build(struct sw_spec *s,
                                 const struct us_config *base);
void sw_spec_free(struct sw_spec *s);

/* "KEY=VALUE" of axis a at point k, into buf. */
void sw_point_set(const struct sw_spec *s, unsigned k, unsigned a,
                  char *buf, size_t size);
/* The value index of axis a at point k. */
unsigned sw_point_value(const struct sw_spec *s, unsigned k, unsigned a);

/* {"mode", "knobs": [{"key", "values"}], "arch", "only", "threads",
 * "suite", "points"}: what the sweep is, in results.json and the job
 * directory (a new reference). */
struct json_t *sw_spec_json(const struct sw_spec *s);

/* The canonical command of the sweep (host-only options left out): the
 * provenance's "command" and the start of every job's command line. */
unsigned sw_spec_argv(const struct sw_spec *s, const char **argv,
                      unsigned max);

/* What every point shares: the spec, the base configuration and the
 * INI text of --config. */
struct sw_ctx {
    const struct sw_spec *s;
    struct us_config base;
    char *config_text;
    size_t config_len;
};

/* The bench options of point k (sets[] holds its KNOB=VALUE strings). */
void sw_point_opts(const struct sw_ctx *c, unsigned k,
                   char sets[][SW_MAX_SET], struct us_bench_opts *o);
/* " (lut_banks=1 lookahead=0)" for messages. */
void sw_point_label(const struct sw_spec *s, unsigned k, char *buf,
                    size_t size);
/* The sweep's provenance (a new reference, as read back from its text):
 * its canonical command (no host-only option: --jobs, --out, --plot,
 * --emit-jobs, --point), the base configuration, and the files read (the
 * spec, the list, --config, every program and scene of the loaded suite
 * `b`); NULL when out of memory. */
struct json_t *sw_sweep_prov(const struct sw_ctx *c, const struct us_bench *b);

/* --plot METRIC[:KNOB]: a statistic against a swept knob. */
struct sw_plot {
    char metric[64];
    unsigned axis;
};

/* The merged set: the sweep's provenance and spec objects and each
 * point's object, all as read back from their JSON text. */
struct sw_results {
    struct json_t *prov, *sweep;
    struct json_t **points;
    unsigned npoints;
    struct sw_plot plots[SW_MAX_PLOTS];
    unsigned nplots;
    char *plot_names[SW_MAX_PLOTS + 1];
};

/* The outputs of a results set (cli_bench_out's interface). */
void sw_results_json(FILE *f, const void *r);
void sw_results_csv(FILE *f, const void *r);
void sw_results_report(FILE *f, const void *r, bool plots, const char *note);
bool sw_results_plot_files(const void *r, const char *terminal,
                           struct us_bench_file **files, unsigned *nfiles);
/* The stdout summary: per point and model, the mean of the first plot's
 * metric (cycles when none). */
void sw_results_table(FILE *f, const struct sw_results *r);
/* Plot names ("sweep_METRIC_KNOB.png") for r->plots. */
US_MUST_CHECK bool sw_results_name_plots(struct sw_results *r);

/* r->plots from the --plot arguments (none: cycles; `none`: no plot);
 * false after an error message. */
US_MUST_CHECK bool sw_set_plots(struct sw_results *r, const char *const *args,
                                unsigned n, bool none);
void sw_results_free(struct sw_results *r);
/* The summary on stdout, and with `out` the files there (none replacing
 * one of `inputs`); the exit status. */
int sw_write_results(const struct sw_results *r, const char *out,
                     const char *const inputs[2], bool plots);

/* A JSON value through its text and back (a new reference; v's is
 * taken): what a job's file holds is what a local run keeps. */
struct json_t *sw_round_trip(struct json_t *v);

/* ---- The compute suite (cli/sweep_compute.c) ---------------------------- */

struct us_cbench;

/* Every point's configuration builds on every model of --arch; false
 * after an error message. */
US_MUST_CHECK bool sw_compute_check(const struct sw_ctx *c);
/* Run point k of a --suite compute sweep on `jobs` host threads, the
 * kernels loaded into *cb when it is NULL (kept for the next point: the
 * kernels, their inputs and references do not depend on a knob); as
 * run_point in cmd_sweep.c: the point's object, *prov when prov is not
 * NULL, NULL after an error message with *rc the exit status. */
struct json_t *sw_compute_point(const struct sw_ctx *c, unsigned k,
                                unsigned jobs, struct us_cbench **cb,
                                us_bench_progress_fn progress, void *ctx,
                                struct json_t **prov, int *rc);
void sw_compute_free(struct us_cbench **cb);
/* The sweep's provenance (--emit-jobs): the kernels loaded once, so a
 * broken one fails now; NULL after an error message (exit 2). */
struct json_t *sw_compute_prov(const struct sw_ctx *c);

/* ---- Job directories (cli/sweep_jobs.c) ---------------------------------- */

/* DIR/NAME: the JSON text of `o` and a newline, atomically; false after
 * an error message. */
US_MUST_CHECK bool sw_write_json(const char *dir, const char *name,
                                 struct json_t *o);
/* --emit-jobs DIR and --merge DIR [--out OUT]: exit statuses. */
int sw_emit_jobs(const struct sw_ctx *c, const char *dir);
int sw_merge(const char *dir, const char *out, const char *const *plots,
             unsigned nplots, bool no_plots);

/* --plot's argument: a statistic of us_bench_csv_stats and a swept knob
 * (the first when omitted); false after an error message. */
US_MUST_CHECK bool sw_parse_plot(const char *arg, const struct json_t *sweep,
                                 struct sw_plot *p);

#endif
