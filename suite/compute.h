/*
 * The compute suite as a benchmark (`ushader bench --suite compute`,
 * docs/COMPUTE_SUITE.md): every kernel of bench/compute/ref/list.def on
 * every core model, the SIMT presets and the studies below, each job's
 * buffers compared byte for byte with the kernel's C reference
 * (bench/compute/ref/kref.h), and the report built from the results.
 *
 *   load     (suite/compute_load.c)   compile each kernel once, write its
 *                                     inputs and compute its expected
 *                                     buffers with the C reference;
 *   variants (suite/compute_load.c)   the (model, configuration) pairs of
 *                                     each group below, and the jobs
 *                                     (kernel x variant) each group runs;
 *   run      (suite/compute_run.c)    the jobs on host threads: each has its
 *                                     own memory and result slot, so the
 *                                     results do not depend on their number;
 *   report   (suite/compute_report.c) the stdout table, results.csv,
 *                                     results.json and report.md;
 *   plots    (suite/compute_plots.c)  gnuplot's data files and script.
 *
 * Like the shader suite (suite/suite.h) nothing here prints or writes a
 * file except through a FILE * it is given; cli/cmd_bench_compute.c
 * writes the outputs atomically.
 */
#ifndef US_SUITE_COMPUTE_H
#define US_SUITE_COMPUTE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/compute/ref/kref.h"
#include "shader/core.h"
#include "suite/suite.h"

enum {
    US_CB_MAX_KERNELS = 64,
    US_CB_MAX_VARIANTS = 64,
    US_CB_MAX_BUFS = 8,
};

/* What a variant studies; a report section each. */
enum us_cb_group {
    US_CB_MODEL,     /* each model at its defaults, equal alu_lanes; the
                        interpreter ("functional") as the baseline */
    US_CB_PRESET,    /* --arch simt with configs/P.ini */
    US_CB_DIVERGE,   /* per-thread SPs vs reconvergence policies and warp
                        sizes, 32 lanes, on the divergent kernels */
    US_CB_MEMSYS,    /* simt with each mem_system, on a representative set */
    US_CB_EGPU,      /* e-GPU 1T..16T, Tiny-OpenCL's launch; GeMM's
                        launch share on 16T */
    US_CB_NGROUPS
};

struct us_cb_kernel {
    const char *id;            /* the kref ID (list.def)                 */
    const struct kref *k;
    bool bench_only;           /* KREF_BENCH: only with --all            */
    bool any_shape;            /* an OpenCL C kernel (.cl): grid-stride,
                                  right at any launch shape              */
    char *path;                /* KERNELS_DIR/NAME                       */
    struct us_program prog;    /* compiled once                          */
    us_vec4 *params;           /* its scalar arguments resolved          */
    uint8_t *in[US_CB_MAX_BUFS];   /* the inputs (k->init)               */
    uint8_t *ref[US_CB_MAX_BUFS];  /* the buffers as the kernel must
                                      leave them (k->run)                */
};

struct us_cb_variant {
    char name[48];             /* unique: "scalar", "simt/egpu-4t",
                                  "div/pdom/w8", "mem/cache", "egpu/4t"  */
    char label[24];            /* the column: model, preset, policy,
                                  memory system                          */
    enum us_cb_group group;
    const struct us_core_model *model;   /* NULL: the interpreter        */
    unsigned warp;             /* US_CB_DIVERGE: warp size (0: scalar)   */
    bool tiny_opencl;          /* US_CB_EGPU: local = one CU's slots     */
    char ini[256];             /* the preset INI it loaded ("": none)    */
    struct us_config cfg;
};

enum us_cb_status { US_CB_PASS, US_CB_REFUSED, US_CB_FAILED };

struct us_cb_job {
    unsigned k, v;             /* kernel, variant                        */
    uint32_t groups[3], local[3];   /* the launch (local 0: the kernel's) */
    enum us_cb_status status;
    char msg[320];             /* a refusal's reason or the failure      */
    struct us_stats st;        /* a model's statistics (n = 0: none)     */
};

struct us_cb_opts {
    const char *kernels;       /* the kernels' directory: bench/compute  */
    const char *configs;       /* configs/, or NULL: KERNELS/../../configs */
    const char *only;          /* comma-separated substrings of IDs      */
    bool all;                  /* the KREF_BENCH sizes too               */
};

struct us_cbench {
    struct us_cb_kernel kern[US_CB_MAX_KERNELS];
    unsigned nkern;
    struct us_cb_variant vars[US_CB_MAX_VARIANTS];
    unsigned nvars;
    struct us_cb_job *jobs;
    unsigned njobs;
    unsigned pass, refused, failed;   /* after us_cb_run                 */
    char err_file[512];        /* after an error: the file it is about   */
    const struct us_prov *prov;   /* set by the caller: the outputs'
                                     provenance (or NULL)                */
};

/* The kernels of list.def whose ID contains one of the comma-separated
 * substrings of `only` (NULL: all), bench-only ones when `all`; NULL-free
 * count in *n.  Pure: reads no file. */
unsigned us_cb_select(const char *only, bool all, const char **ids,
                      unsigned max);

/* Load the kernels, the configurations and the jobs.  On error diag (and
 * b->err_file when it is about a file); us_cb_free frees what was done. */
US_MUST_CHECK bool us_cb_load(struct us_cbench *b, const struct us_cb_opts *o,
                              struct us_diag *diag);
void us_cb_free(struct us_cbench *b);

/* The launch a variant gives kernel k (US_CB_EGPU: Tiny-OpenCL's
 * work-items = CUs x warps x threads, local = one CU's warp slots). */
void us_cb_launch(const struct us_cb_kernel *k, const struct us_cb_variant *v,
                  uint32_t groups[3], uint32_t local[3]);

/* Is this run error a refusal: the variant cannot take the kernel (a
 * workgroup larger than a core, reconv=none on structured flow, reconv=sync
 * where GLSL code has no SYNC), as tests/compute_suite.test.sh classifies? */
bool us_cb_is_refusal(const char *msg, const struct us_config *cfg);

/* Run every job on `jobs` host threads. */
US_MUST_CHECK bool us_cb_run(struct us_cbench *b, unsigned jobs,
                             us_bench_progress_fn progress, void *ctx,
                             struct us_diag *diag);

/* Index of the job (kernel id, variant name), or -1. */
int us_cb_job(const struct us_cbench *b, const char *kernel,
              const char *variant);

/* A job's statistic; NaN when it did not pass or has no such statistic. */
double us_cb_stat(const struct us_cbench *b, int job, const char *name);

/* Mean of a statistic over the jobs of a variant that passed (their
 * number in *count unless NULL); NaN when none. */
double us_cb_mean(const struct us_cbench *b, const char *variant,
                  const char *name, unsigned *count);

/* The statistics of results.csv's columns (NULL-terminated; a sweep of
 * the compute suite has the same). */
extern const char *const us_cb_csv_stats[];

/* The stdout table, the CSV and JSON results, report.md. */
void us_cb_table(FILE *f, const struct us_cbench *b);
void us_cb_csv(FILE *f, const struct us_cbench *b);
void us_cb_json(FILE *f, const struct us_cbench *b);
void us_cb_report(FILE *f, const struct us_cbench *b, bool plots,
                  const char *note);

/* Gnuplot's files (data and plots.gp, which writes NAME.png.tmp for each
 * of us_cb_plot_names); malloc'd, freed by us_bench_files_free. */
US_MUST_CHECK bool us_cb_plot_files(const struct us_cbench *b,
                                    const char *terminal,
                                    struct us_bench_file **files,
                                    unsigned *nfiles);
extern const char *const us_cb_plot_names[];

/* The e-GPU paper's figures (arXiv 2505.08421, /work/shared SIMT-NOTES
 * 1.1): speedup of 4T and 16T over the host, per kernel. */
struct us_cb_paper { const char *kernel; double lo, hi; };
extern const struct us_cb_paper us_cb_paper[3];

#endif
