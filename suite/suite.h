/*
 * The benchmark suite behind `ushader bench` (SPEC sections 2-4): every
 * program of bench/suite.list on every core model and configuration, and
 * the architecture-comparison report built from the results.
 *
 *   load     (suite/load.c)     read the list; assemble each program; render
 *                               its scene with the program in place of one
 *                               of the scene's programs and capture the
 *                               inputs it shades (gfx/capture.h): mesh
 *                               vertices or interpolated fragments, with
 *                               the scene's GL state and textures;
 *   variants (suite/variants.c) the (model, configuration) pairs to run;
 *   run      (suite/run.c)      one job per (program, variant), on host
 *                               threads; each job is independent and
 *                               deterministic, so results do not depend on
 *                               the number of host threads;
 *   summary  (suite/summary.c)  the aggregates the report and plots share;
 *   report   (suite/report.c)   report.md, results.csv, results.json and
 *                               the stdout table;
 *   plots    (suite/plots.c)    gnuplot script and data files;
 *   provenance (suite/provenance.h) what produced the outputs: every one
 *                               records it (b->prov, set by the caller).
 *
 * Nothing here writes files or prints except to a FILE * it is given; the
 * command line (cli/cmd_bench.c) writes them atomically.
 */
#ifndef US_SUITE_H
#define US_SUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gfx/gfx.h"
#include "isa/scalar.h"
#include "shader/core.h"
#include "suite/tgsi.h"

struct us_prov;

enum {
    US_BENCH_MAX_PROGRAMS = 128,
    US_BENCH_MAX_VARIANTS = 96,
    US_BENCH_MAX_SETS = 32,        /* user --set pairs                    */
    US_BENCH_CAPTURE = 16384,      /* threads captured per program at most */
    US_BENCH_DEFAULT_THREADS = 512,
};

/* Threads' expected results, from the reference interpreter. */
struct us_bench_ref {
    us_vec4 out[US_MAX_OUTPUTS];
    bool killed;
};

struct us_bench_prog {
    char *name;              /* PROGRAM as listed, "programs/" dropped   */
    char *path;              /* PROGRAM relative to the working directory */
    char *scene;             /* SCENE likewise                           */
    char *scene_name;        /* SCENE as listed                          */
    unsigned line;           /* its line in the list                     */
    char slot[US_MAX_NAME];  /* the scene program it replaces            */
    char desc[512];          /* first sentence of its leading comment    */
    struct us_program prog;
    struct us_code_stats code;
    unsigned sfu_insts;      /* instructions on the SFU unit class       */
    bool has_mesa;           /* PATH.tgsi was there (bench/tgsi_compare.sh) */
    struct us_tgsi_stats mesa;  /* Mesa's TGSI for it: the report's rows */
    struct gfx_scene *scn;   /* kept: the sampler points at its textures */
    struct gfx_sampler sampler;
    us_vec4 *params;
    us_vec4 (*inputs)[US_MAX_INPUTS];
    struct us_bench_ref *ref;
    unsigned n;              /* workload threads                         */
    uint64_t shaded;         /* threads the scene shaded with it         */
    unsigned window;         /* first captured thread of the workload    */
};

/* What a variant studies; the report has a section per group. */
enum us_bench_group {
    US_BG_ARCH,              /* each model at its defaults               */
    US_BG_ARCH_EXTRA,        /* vliw 4+1, hetero 4+1                     */
    US_BG_COMPACTION,        /* scalar without compaction                */
    US_BG_SFU,               /* scalar with full SFUs                    */
    US_BG_LUT,               /* scalar LUT: private, or banks x
                                multi-fetch x lookahead                  */
    US_BG_SENS,              /* a model at another value of one knob the
                                paper leaves unstated (us_bench_sens)    */
};

struct us_bench_variant {
    char name[48];
    const struct us_core_model *model;
    enum us_bench_group group;
    int banks, multifetch, lookahead;   /* US_BG_LUT; banks 0 = private */
    int value;                          /* US_BG_SENS: the knob's value */
    struct us_config cfg;
};

struct us_bench_result {
    bool ok;                 /* the model ran the workload              */
    bool identical;          /* every thread's outputs equal the reference's */
    char err[256];
    struct us_stats st;
};

struct us_bench_opts {
    const char *list;        /* bench/suite.list                         */
    const char *only;        /* comma-separated substrings of program
                                names, or NULL for all                   */
    const char *archs;       /* comma-separated models, or NULL for all  */
    const char *config_text; /* an INI configuration, or NULL            */
    size_t config_len;       /* its bytes (config_text[config_len] == 0) */
    const char *config_path; /* its file, for messages (or NULL)         */
    const char *sets[US_BENCH_MAX_SETS];
    unsigned nsets;
    unsigned threads;        /* workload threads per program             */
    unsigned jobs;           /* host threads compiling the programs first
                                (0 or 1: none; the results do not depend
                                on it, suite/load.c)                     */
};

/* Progress of a long phase ("capture", "run"): `done` of `total`. */
typedef void (*us_bench_progress_fn)(void *ctx, const char *phase,
                                     unsigned done, unsigned total);

struct us_bench {
    struct us_config base;   /* defaults, the INI file, then --set       */
    struct us_sfu sfu;       /* the base configuration's SFU             */
    struct us_math math;     /* its arithmetic: every run's us_math       */
    unsigned threads;
    struct us_bench_prog *progs;
    unsigned nprogs;
    struct us_bench_variant vars[US_BENCH_MAX_VARIANTS];
    unsigned nvars;
    struct us_bench_result *res;   /* [p * nvars + v] after us_bench_run */
    unsigned failures;             /* jobs not ok or not identical       */
    const char *err_file;          /* after a load error: the file diag's
                                      line and column are in (NULL: none);
                                      valid until us_bench_free          */
    const struct us_prov *prov;    /* set by the caller: what the outputs
                                      record as their provenance (or NULL) */
    bool no_lut_study;             /* set by the caller before
                                      us_bench_variants: no shared-LUT
                                      variants (--no-lut-study)           */
};

/* Load the suite and capture every program's workload.  On error diag
 * and b->err_file say where; us_bench_free frees what was loaded. */
US_MUST_CHECK bool us_bench_load(struct us_bench *b,
                                 const struct us_bench_opts *o,
                                 us_bench_progress_fn progress, void *ctx,
                                 struct us_diag *diag);

/*
 * The list step of us_bench_load: `text` (len bytes) is the list at path
 * `list` (names in it are relative to its directory), `only` as in
 * us_bench_opts.  Fills b->progs (allocated here; b's other fields
 * untouched) with the names of the selected programs, reading no file.
 *   list := (line '\n')* line
 *   line := blank* ('#' any* | PROGRAM blank+ SCENE blank+ SLOT blank*)?
 * where blank is a space, tab or CR, a word has no blank or '#', SLOT has
 * fewer than US_MAX_NAME bytes, and no NUL byte appears.  Errors: diag with
 * the line, b->err_file = list.
 */
US_MUST_CHECK bool us_bench_parse_list(struct us_bench *b, const char *list,
                                       const char *text, size_t len,
                                       const char *only, struct us_diag *diag);
void us_bench_free(struct us_bench *b);

/* Fill b->vars for the models named in `archs` (NULL: all); the scalar
 * SP's shared-LUT study (33 variants) unless b->no_lut_study. */
US_MUST_CHECK bool us_bench_variants(struct us_bench *b, const char *archs,
                                     struct us_diag *diag);

/* The sensitivity study (report section h): each model at its defaults
 * run again at other values of the knobs the paper leaves unstated, one
 * knob at a time (us_bench_sens, values 0 ending a list); `ushader
 * bench` adds them after us_bench_variants.  us_bench_sens_var finds
 * one: the model's own variant at the base value, -1 when not run. */
enum { US_BENCH_SENS_KNOBS = 3, US_BENCH_SENS_VALUES = 3 };
struct us_bench_sens {
    enum us_knob knob;
    int values[US_BENCH_SENS_VALUES];
};
extern const struct us_bench_sens us_bench_sens[US_BENCH_SENS_KNOBS];
US_MUST_CHECK bool us_bench_sens_variants(struct us_bench *b,
                                          struct us_diag *diag);
int us_bench_sens_var(const struct us_bench *b, const char *model,
                      unsigned k, int value);
/* Is model `name` in the comma list `archs` (NULL: every model)?  The
 * --arch selection of the bench's variants and of a sweep's points. */
bool us_bench_arch_selected(const char *archs, const char *name);

/* Run every (program, variant) job on `jobs` host threads. */
US_MUST_CHECK bool us_bench_run(struct us_bench *b, unsigned jobs,
                                us_bench_progress_fn progress, void *ctx,
                                struct us_diag *diag);

/* ---- Summary (suite/summary.c) ------------------------------------------ */

enum { US_BENCH_VERTEX, US_BENCH_FRAGMENT, US_BENCH_ALL, US_BENCH_NCLASS };
extern const char *const us_bench_class_names[US_BENCH_NCLASS];

/* Does program p belong to class c? */
bool us_bench_in_class(const struct us_bench *b, unsigned p, unsigned c);

/* Index of the variant with this name, or -1. */
int us_bench_var(const struct us_bench *b, const char *name);

/* A statistic of one job (NaN when the job failed or the name is
 * unknown). */
double us_bench_stat(const struct us_bench *b, unsigned p, int v,
                     const char *name);

/* Arithmetic mean of a statistic of variant v over the programs of class
 * c; NaN when v < 0 or there are none. */
double us_bench_mean(const struct us_bench *b, int v, unsigned c,
                     const char *name);

/* Geometric mean over class c of stat(v) / stat(ref). */
double us_bench_geo_ratio(const struct us_bench *b, int v, int ref,
                          unsigned c, const char *name);

/* Sum of a statistic of variant v over class c (programs with SFU
 * instructions only when `sfu_only`). */
double us_bench_sum(const struct us_bench *b, int v, unsigned c,
                    const char *name, bool sfu_only);

/* The useful ALU ops of program p's vec4 code, each instruction once
 * (us_inst_useful_ops); 0 for a program that only fetches textures. */
unsigned us_bench_prog_ops(const struct us_bench *b, unsigned p);

/* Mean utilization of variant v over the programs of class c that have
 * useful ALU ops (us_bench_prog_ops > 0): a program without any, whose
 * utilization is 0 on every model, says nothing about the datapaths. */
double us_bench_util_mean(const struct us_bench *b, int v, unsigned c);

/* Programs of class c (with useful ALU ops only when `alu_only`). */
unsigned us_bench_class_count(const struct us_bench *b, unsigned c,
                              bool alu_only);

/* Static code figures of class c.  Over its programs with useful ALU ops
 * (alu_programs of them): the share of ALU instructions of each width
 * (w[1..4], width_hist: texture fetches left out), the SIMD utilization
 * bound (useful ops / (4 x instructions that issue, texture fetches
 * included: they take a vec4 issue slot)), the mean useful ops per ALU
 * instruction (mean_ops) and the texture fetches of those programs
 * (tex_insts, summed).  Over all its programs with vec4 code (programs):
 * instruction-count and bit ratios of scalar code to vec4 code without
 * and with compaction. */
struct us_bench_code {
    double w[5];
    double simd_bound, mean_ops;
    double scalar_ratio, compact_ratio;
    double scalar_bits_ratio, compact_bits_ratio;
    /* per compaction variant (enum us_compaction): words per vec4
     * instruction and bits per simd4 bit, means over programs */
    double form_ratio[US_COMPACT_COUNT], form_bits_ratio[US_COMPACT_COUNT];
    unsigned programs, alu_programs, tex_insts;
};
void us_bench_code_summary(const struct us_bench *b, unsigned c,
                           struct us_bench_code *out);

/* Program p's share of four-component ALU instructions (width_hist,
 * texture fetches left out), NaN without ALU instructions. */
double us_bench_prog_share4(const struct us_bench *b, unsigned p);

/* The least-squares line of variant v's utilization gain over ref's
 * (v / ref - 1) against the four-component share, over the programs with
 * useful ALU ops (suite/report_sens.c): n points, slope and intercept
 * (gains as ratios less 1, shares as fractions), r^2 and the line at the
 * paper's 37.3%.  False with fewer than 3 points or one share. */
struct us_bench_fit {
    unsigned n;
    double slope, icept, r2, at_paper;
};
bool us_bench_sens_fit(const struct us_bench *b, int v, int ref,
                       struct us_bench_fit *fit);

/* ---- Outputs (suite/report.c, suite/plots.c) ---------------------------- */

/* The stdout table: utilization and cycles per program and model. */
void us_bench_table(FILE *f, const struct us_bench *b);

void us_bench_csv(FILE *f, const struct us_bench *b);
/* The statistics results.csv has per run, in order, NULL-terminated
 * (`ushader sweep`'s CSV and --plot take the same). */
extern const char *const us_bench_csv_stats[];
void us_bench_json(FILE *f, const struct us_bench *b);

/* report.md; `plots` says whether the PNGs of us_bench_plot_files exist,
 * `note` (or NULL) is printed when they do not. */
void us_bench_report(FILE *f, const struct us_bench *b, bool plots,
                     const char *note);

/* The glmark2 section (suite/report_glmark2.c): nothing unless the suite
 * has programs from glmark2-data (a path under glmark2/). */
bool us_bench_is_glmark2(const struct us_bench_prog *bp);
void us_bench_report_glmark2(FILE *f, const struct us_bench *b);

/* A file to write into the output directory. */
struct us_bench_file {
    char name[64];
    char *data;
    size_t len;
};

/* Gnuplot's data files and plots.gp, whose `terminal` is pngcairo or png;
 * the script writes NAME.png.tmp for every NAME.png (the caller renames
 * them once gnuplot succeeded).  Files and their data are malloc'd. */
US_MUST_CHECK bool us_bench_plot_files(const struct us_bench *b,
                                       const char *terminal,
                                       struct us_bench_file **files,
                                       unsigned *nfiles);
void us_bench_files_free(struct us_bench_file *files, unsigned nfiles);

/* The PNG plots the script writes, NULL-terminated. */
extern const char *const us_bench_plot_names[];

#endif
