/* ushader sweep: the bench suite at every point of a sweep over knobs,
 * locally (--jobs), or as one job per point (--emit-jobs DIR: a shell
 * script each, a GNU parallel list, a Slurm array) whose partial results
 * --merge DIR joins into the set a local run writes (cli/sweep.h,
 * docs/SWEEP.md). */
#define _XOPEN_SOURCE 700  /* realpath: glibc declares it for X/Open only */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/sweep.h"
#include "suite/provenance.h"
#include "suite/suite.h"

static const char usage[] =
    "usage: ushader sweep [--spec F.ini] [--set KNOB=V1,V2,...]... [--zip]\n"
    "                     [--config F.ini] [--arch A[,B...]] [--only NAMES]\n"
    "                     [--threads N] [--suite FILE] [--jobs N]\n"
    "                     [--out DIR] [--plot METRIC[:KNOB]]... [--no-plots]\n"
    "       ushader sweep SPEC-OPTIONS --emit-jobs DIR\n"
    "       ushader sweep --merge DIR [--out DIR2] [--plot ...] [--no-plots]\n"
    "  Runs the bench suite (ushader bench: every program on each model of\n"
    "  --arch, checked against the reference) once per point of the sweep,\n"
    "  the point's knobs applied over --config, and writes one results set.\n"
    "  --spec F    the sweep as an INI file: [sweep], mode = grid|zip and one\n"
    "              line KNOB = V1,V2,... per knob\n"
    "  --set       KNOB=V1,V2,...: a knob and its values (a [core] knob of\n"
    "              `ushader config --list`, the SIMT ones included, or\n"
    "              sfu.KEY); every key and value is checked before any run\n"
    "  --zip       pair the lists (point i takes value i of each; a single\n"
    "              value holds for every point) instead of the grid of\n"
    "              every combination (the first knob outermost)\n"
    "  --config F  the base configuration ([core] knobs, [sfu] keys)\n"
    "  --arch, --only, --threads, --suite  as for bench (the rows: every\n"
    "              program on each model at its defaults plus the point)\n"
    "  --jobs N    host threads, 1..256 (results do not depend on N;\n"
    "              default: the online CPUs)\n"
    "  --out DIR   write results.json, results.csv, report.md and the plots\n"
    "              into DIR (without it only the summary is printed)\n"
    "  --plot M[:K] plot statistic M (a results.csv column: cycles,\n"
    "              utilization, energy, ...) against swept knob K (default:\n"
    "              the first), one line per model and value of the other\n"
    "              knobs, through gnuplot; default --plot cycles\n"
    "  --no-plots  no gnuplot\n"
    "  --emit-jobs DIR  run nothing: write DIR/jobs/NNNN.sh (one point each,\n"
    "              its full command line and provenance), DIR/jobs.txt\n"
    "              (parallel --jobs N < DIR/jobs.txt), DIR/sweep.sbatch\n"
    "              (sbatch DIR/sweep.sbatch: an array of one task per\n"
    "              point) and DIR/sweep.json; each job writes\n"
    "              DIR/points/NNNN/point.json\n"
    "  --merge DIR join the points of an --emit-jobs directory into the set a\n"
    "              local run writes (byte for byte), into --out (default\n"
    "              DIR); refused when a point is missing or comes from\n"
    "              another spec, version or input\n"
    "  --point K   run point K only into --out (what a job runs)\n";

struct sweep_args {
    struct sw_spec spec;
    const char *out, *emit, *merge, *point_arg;
    const char *plots[SW_MAX_PLOTS];
    unsigned nplots;
    bool no_plots;
    unsigned jobs, point;
};

static const struct cli_opt options[] = {
    { "--help", false, false, NULL }, { "-h", false, false, NULL },
    { "--spec", true, false, NULL }, { "--set", true, true, NULL },
    { "--zip", false, false, NULL }, { "--config", true, false, NULL },
    { "--arch", true, false, NULL }, { "--only", true, false, NULL },
    { "--threads", true, false, NULL }, { "--suite", true, false, NULL },
    { "--jobs", true, false, NULL }, { "--out", true, false, NULL },
    { "--plot", true, true, NULL }, { "--no-plots", false, false, NULL },
    { "--emit-jobs", true, false, "a directory" },
    { "--merge", true, false, "a directory" },
    { "--point", true, false, NULL },
    { NULL, false, false, NULL },
};

static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *s == '-' || *s == '+' || *end || end == s || v < lo ||
        v > hi)
        return false;
    *out = (unsigned)v;
    return true;
}

static const char no_functional[] =
    "a sweep runs the bench suite on core models; every run is checked "
    "against the reference interpreter";

/* 0, -1 after --help, or the exit status of a usage error. */
static int parse_args(int argc, char **argv, struct sweep_args *a)
{
    struct sw_spec *s = &a->spec;
    s->suite = "bench/suite.list";
    a->jobs = cli_default_jobs();
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return -1;
        }
    if (!cli_check_options("sweep", argc, argv, 1, options))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (opt[0] != '-' || !strcmp(opt, "--")) {
            cli_error(NULL, 0, 0, "sweep: unexpected argument '%s' (the "
                      "spec file is --spec FILE)", opt);
            return 2;
        }
        if (!strcmp(opt, "--zip")) {
            s->zip_opt = true;
            continue;
        }
        if (!strcmp(opt, "--no-plots")) {
            a->no_plots = true;
            continue;
        }
        const char *v = argv[++i];
        if (!strcmp(opt, "--spec"))
            s->spec_file = v;
        else if (!strcmp(opt, "--set")) {
            if (s->nsets == SW_MAX_AXES) {
                cli_error(NULL, 0, 0, "sweep: more than %d --set",
                          SW_MAX_AXES);
                return 2;
            }
            s->sets[s->nsets++] = v;
        } else if (!strcmp(opt, "--config"))
            s->config = v;
        else if (!strcmp(opt, "--arch")) {
            struct cli_arch m;
            if (!cli_parse_arch("sweep", v, CLI_ARCH_MANY, no_functional, &m))
                return 2;
            s->arch = v;
        } else if (!strcmp(opt, "--only"))
            s->only = v;
        else if (!strcmp(opt, "--threads")) {
            if (!parse_uint(v, 1, US_BENCH_CAPTURE, &s->threads)) {
                cli_error(NULL, 0, 0, "sweep: --threads wants 1..%d, not "
                          "'%s'", US_BENCH_CAPTURE, v);
                return 2;
            }
            s->threads_arg = v;
        } else if (!strcmp(opt, "--suite")) {
            s->suite = s->suite_arg = v;
        } else if (!strcmp(opt, "--jobs")) {
            if (!cli_parse_jobs("sweep", v, &a->jobs))
                return 2;
        } else if (!strcmp(opt, "--out"))
            a->out = v;
        else if (!strcmp(opt, "--plot")) {
            if (a->nplots == SW_MAX_PLOTS) {
                cli_error(NULL, 0, 0, "sweep: more than %d --plot",
                          SW_MAX_PLOTS);
                return 2;
            }
            a->plots[a->nplots++] = v;
        } else if (!strcmp(opt, "--emit-jobs"))
            a->emit = v;
        else if (!strcmp(opt, "--merge"))
            a->merge = v;
        else if (!strcmp(opt, "--point"))
            a->point_arg = v;
    }
    if (s->suite_arg && !strcmp(s->suite_arg, "compute")) {
        cli_error(NULL, 0, 0, "sweep: --suite compute is not swept yet (the "
                  "shader suite only; docs/SWEEP.md)");
        return 2;
    }
    bool spec = s->spec_file || s->nsets || s->zip_opt || s->config ||
                s->arch || s->only || s->threads_arg || s->suite_arg;
    if (a->merge && (spec || a->emit || a->point_arg)) {
        cli_error(NULL, 0, 0, "sweep: --merge DIR takes the sweep from "
                  "DIR/sweep.json; give it only --out, --plot, --no-plots");
        return 2;
    }
    if (a->emit && (a->out || a->point_arg || a->nplots || a->no_plots)) {
        cli_error(NULL, 0, 0, "sweep: --emit-jobs DIR runs nothing, so it "
                  "takes no --out, --point or --plot (give --plot to "
                  "--merge)");
        return 2;
    }
    if (a->point_arg && (!a->out || a->nplots || a->no_plots)) {
        cli_error(NULL, 0, 0, "sweep: --point K writes DIR/point.json into "
                  "--out DIR, without plots");
        return 2;
    }
    return 0;
}

/* ---- The points --------------------------------------------------------- */

/* What every point shares: the spec, the base configuration and the
 * INI text of --config. */
struct sweep_ctx {
    const struct sw_spec *s;
    struct us_config base;
    char *config_text;
    size_t config_len;
};

/* The bench options of point k (sets[] holds its KNOB=VALUE strings). */
static void point_opts(const struct sweep_ctx *c, unsigned k,
                       char sets[][SW_MAX_SET], struct us_bench_opts *o)
{
    const struct sw_spec *s = c->s;
    memset(o, 0, sizeof *o);
    o->list = s->suite;
    o->only = s->only;
    o->archs = s->arch && strcmp(s->arch, "all") ? s->arch : NULL;
    o->config_text = c->config_text;
    o->config_len = c->config_len;
    o->config_path = s->config;
    o->threads = s->threads;
    for (unsigned a = 0; a < s->naxes; a++) {
        sw_point_set(s, k, a, sets[a], SW_MAX_SET);
        o->sets[o->nsets++] = sets[a];
    }
}

/* " (lut_banks=1 lookahead=0)" for messages. */
static void point_label(const struct sw_spec *s, unsigned k, char *buf,
                        size_t size)
{
    size_t n = (size_t)snprintf(buf, size, " (");
    for (unsigned a = 0; a < s->naxes && n < size; a++) {
        char kv[SW_MAX_SET];
        sw_point_set(s, k, a, kv, sizeof kv);
        n += (size_t)snprintf(buf + n, size - n, "%s%s", a ? " " : "", kv);
    }
    if (n < size)
        snprintf(buf + n, size - n, ")");
}

/* Keep the variants of one model each (the bench's studies -- LUT grid,
 * compaction, full SFU, the extra widths -- set the knobs they study,
 * which would hide the point's). */
static void model_variants_only(struct us_bench *b)
{
    unsigned n = 0;
    for (unsigned v = 0; v < b->nvars; v++)
        if (b->vars[v].group == US_BG_ARCH)
            b->vars[n++] = b->vars[v];
    b->nvars = n;
}

/* Every point's configuration builds on every model of --arch, before
 * anything runs. */
static bool check_points(const struct sweep_ctx *c)
{
    struct us_bench *b = calloc(1, sizeof *b);
    if (!b) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    bool ok = true;
    for (unsigned k = 0; ok && k < c->s->npoints; k++) {
        struct us_diag d = { 0 };
        b->base = c->base;
        char sets[SW_MAX_AXES][SW_MAX_SET];
        struct us_bench_opts o;
        point_opts(c, k, sets, &o);
        for (unsigned i = 0; ok && i < o.nsets; i++)
            ok = us_config_set(&b->base, o.sets[i], &d);
        struct us_sfu sfu;
        if (ok && (ok = us_sfu_init(&sfu, &b->base.sfu, &d)))
            us_sfu_free(&sfu);
        ok = ok && us_bench_variants(b, o.archs, &d);
        if (!ok) {
            char label[512];
            point_label(c->s, k, label, sizeof label);
            cli_error(NULL, 0, 0, "sweep: point %u%s: %s", k, label, d.msg);
        }
    }
    free(b);
    return ok;
}

/* A JSON value through its text and back: what a job's file holds is
 * what a local run keeps. */
static json_t *round_trip(json_t *v)
{
    char *s = v ? json_dumps(v, US_JSON_FLAGS | JSON_ENCODE_ANY) : NULL;
    json_decref(v);
    json_t *r = s ? json_loads(s, JSON_DECODE_ANY, NULL) : NULL;
    free(s);
    return r;
}

/* The sweep's provenance: its canonical command (no host-only option:
 * --jobs, --out, --plot, --emit-jobs, --point), the base configuration,
 * and the files read (the spec, the list, --config, every program and
 * scene of the loaded suite `b`). */
static json_t *sweep_prov(const struct sweep_ctx *c, const struct us_bench *b)
{
    const char *argv[64];
    unsigned n = sw_spec_argv(c->s, argv, 64);
    struct us_prov *p = calloc(1, sizeof *p);
    if (!p || !us_prov_init(p, (int)n, (char *const *)argv)) {
        free(p);
        return NULL;
    }
    p->math = "sfu";
    p->cfg = &c->base;
    us_prov_add_file(p, c->s->spec_file);
    us_prov_add_file(p, c->s->suite);
    us_prov_add_file(p, c->s->config);
    for (unsigned i = 0; i < b->nprogs; i++) {
        us_prov_add_file(p, b->progs[i].path);
        us_prov_add_file(p, b->progs[i].scene);
    }
    json_t *j = round_trip(us_prov_json(p));
    us_prov_free(p);
    free(p);
    return j;
}

static const char *stage_name(const struct us_bench_prog *bp)
{
    return bp->prog.stage == US_STAGE_VERTEX ? "vertex" : "fragment";
}

/* Point k's object: {"index", "knobs", "failures", "runs"}. */
static json_t *point_json(const struct sw_spec *s, unsigned k,
                          const struct us_bench *b)
{
    json_t *knobs = json_object(), *runs = json_array();
    for (unsigned a = 0; knobs && a < s->naxes; a++)
        json_object_set_new(knobs, s->axes[a].key,
                            us_json_text(s->axes[a].vals[sw_point_value(s, k,
                                                                        a)]));
    for (unsigned p = 0; runs && p < b->nprogs; p++)
        for (unsigned v = 0; v < b->nvars; v++) {
            const struct us_bench_result *r = &b->res[p * b->nvars + v];
            json_t *row = json_pack("{s:o, s:s, s:s, s:s, s:b, s:b}",
                "program", us_json_text(b->progs[p].name),
                "stage", stage_name(&b->progs[p]),
                "variant", b->vars[v].name,
                "model", b->vars[v].model->name,
                "ok", r->ok, "identical", r->identical);
            if (row && r->err[0])
                json_object_set_new(row, "error", us_json_text(r->err));
            if (row && r->ok)
                json_object_set_new(row, "stats", us_stats_json(&r->st));
            json_array_append_new(runs, row);
        }
    return round_trip(json_pack("{s:i, s:o, s:i, s:o}", "index", (int)k,
                                "knobs", knobs, "failures",
                                (int)b->failures, "runs", runs));
}

/* The bar of a local run: the suite's captures as bench shows them, then
 * the runs of every point as one "sweep" bar. */
struct sweep_bar {
    struct cli_progress bar;
    unsigned k, npoints;
};

static void sweep_progress(void *ctx, const char *phase, unsigned done,
                           unsigned total)
{
    struct sweep_bar *sb = ctx;
    if (!sb)
        return;
    if (strcmp(phase, "run"))
        cli_bench_progress(&sb->bar, phase, done, total);
    else
        cli_bench_progress(&sb->bar, "sweep", sb->k * total + done,
                           sb->npoints * total);
}

/* A loaded suite, kept from point to point: its captures and reference
 * outputs depend on the configuration only through the SFU's (the
 * arithmetic of the scenes and the interpreter; suite/load.c), so a point
 * whose sfu.* values are those of the point it was loaded for reuses it
 * and only its variants change.  A job loads its point afresh; --merge
 * comparing the two byte for byte (tests/sweep.test.sh) checks this. */
struct loaded {
    struct us_bench *b;
    unsigned k;               /* the point it was loaded for */
};

static bool same_sfu(const struct sw_spec *s, unsigned k, unsigned j)
{
    for (unsigned a = 0; a < s->naxes; a++)
        if (!strncmp(s->axes[a].key, "sfu.", 4) &&
            sw_point_value(s, k, a) != sw_point_value(s, j, a))
            return false;
    return true;
}

static void loaded_free(struct loaded *l)
{
    if (l->b)
        us_bench_free(l->b);
    free(l->b);
    l->b = NULL;
}

/* The suite for point k, its base configuration the point's: loaded, or
 * the one in *l reconfigured.  False after an error message. */
static bool load_point(const struct sweep_ctx *c, unsigned k,
                       struct loaded *l, const struct us_bench_opts *o,
                       const char *label, struct sweep_bar *sb)
{
    struct us_diag diag = { 0 };
    if (l->b && same_sfu(c->s, k, l->k)) {
        l->b->base = c->base;
        for (unsigned i = 0; i < o->nsets; i++)
            if (!us_config_set(&l->b->base, o->sets[i], &diag)) {
                cli_error(NULL, 0, 0, "sweep: point %u%s: %s", k, label,
                          diag.msg);
                return false;
            }
        return true;
    }
    loaded_free(l);
    l->b = calloc(1, sizeof *l->b);
    l->k = k;
    if (!l->b) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    if (us_bench_load(l->b, o, sb ? sweep_progress : NULL, sb, &diag))
        return true;
    if (l->b->err_file)
        cli_error(l->b->err_file, diag.line, diag.col, "%s", diag.msg);
    else
        cli_error(NULL, 0, 0, "sweep: point %u%s: %s", k, label, diag.msg);
    loaded_free(l);
    return false;
}

/* Run point k on `jobs` host threads: its object, and with `prov` the
 * sweep's provenance (from the suite it loaded).  NULL after an error
 * message; *rc is the exit status then. */
static json_t *run_point(const struct sweep_ctx *c, unsigned k, unsigned jobs,
                         struct loaded *l, struct sweep_bar *sb,
                         json_t **prov, int *rc)
{
    char sets[SW_MAX_AXES][SW_MAX_SET];
    struct us_bench_opts o;
    point_opts(c, k, sets, &o);
    struct us_diag diag = { 0 };
    char label[512];
    point_label(c->s, k, label, sizeof label);
    *rc = 2;
    if (!load_point(c, k, l, &o, label, sb))
        return NULL;
    struct us_bench *b = l->b;
    if (!us_bench_variants(b, o.archs, &diag)) {
        cli_error(NULL, 0, 0, "sweep: point %u%s: %s", k, label, diag.msg);
        return NULL;
    }
    model_variants_only(b);
    *rc = 1;
    if (sb)
        sb->k = k;
    if (!us_bench_run(b, jobs, sb ? sweep_progress : NULL, sb, &diag)) {
        cli_error(NULL, 0, 0, "sweep: point %u%s: %s", k, label, diag.msg);
        return NULL;
    }
    for (unsigned j = 0; j < b->nprogs * b->nvars; j++)
        if (!b->res[j].ok || !b->res[j].identical)
            cli_error(b->progs[j / b->nvars].path, 0, 0, "point %u%s: %s: %s",
                      k, label, b->vars[j % b->nvars].name, b->res[j].err);
    json_t *pt = point_json(c->s, k, b);
    if (prov && pt && !(*prov = sweep_prov(c, b))) {
        json_decref(pt);
        pt = NULL;
    }
    if (!pt)
        cli_error(NULL, 0, 0, "out of memory");
    else
        *rc = 0;
    return pt;
}

/* ---- Outputs ------------------------------------------------------------ */

static bool set_plots(struct sw_results *r, const struct sweep_args *a)
{
    const char *def = "cycles";
    unsigned n = a->no_plots ? 0 : a->nplots ? a->nplots : 1;
    for (unsigned p = 0; p < n; p++)
        if (!sw_parse_plot(a->nplots ? a->plots[p] : def, r->sweep,
                           &r->plots[p]))
            return false;
    r->nplots = n;
    if (!sw_results_name_plots(r)) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    return true;
}

static void results_free(struct sw_results *r)
{
    json_decref(r->prov);
    json_decref(r->sweep);
    for (unsigned k = 0; r->points && k < r->npoints; k++)
        json_decref(r->points[k]);
    free(r->points);
    for (unsigned p = 0; p < SW_MAX_PLOTS; p++)
        free(r->plot_names[p]);
}

/* The summary on stdout, and with --out the files. */
static int write_results(const struct sw_results *r, const char *out,
                         const char *const inputs[2], bool plots)
{
    sw_results_table(stdout, r);
    if (!cli_flush_stdout())
        return 1;
    const struct cli_bench_out o = {
        .ctx = r, .csv = sw_results_csv, .json = sw_results_json,
        .report = sw_results_report, .plot_files = sw_results_plot_files,
        .plot_names = (const char *const *)r->plot_names,
    };
    if (out && !cli_bench_write(out, inputs, &o, plots && r->nplots))
        return 1;
    return 0;
}

/* ---- Job directories ---------------------------------------------------- */

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static bool write_text(const char *dir, const char *name, const char *text)
{
    char *path = path_join(dir, name);
    bool ok = path && cli_write_file(path, text, strlen(text));
    if (!path)
        cli_error(NULL, 0, 0, "out of memory");
    free(path);
    return ok;
}

static bool write_json(const char *dir, const char *name, json_t *o)
{
    char *s = o ? json_dumps(o, US_JSON_FLAGS) : NULL;
    if (!s) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    memcpy(t + n, "\n", 2);
    bool ok = write_text(dir, name, t);
    free(t);
    return ok;
}

/* argv shell-quoted as the provenance quotes it, argv[0] included. */
static char *quoted(unsigned argc, const char **argv)
{
    struct us_prov *p = calloc(1, sizeof *p);
    char *s = NULL;
    if (p && us_prov_init(p, (int)argc, (char *const *)argv))
        s = strdup(p->command + strlen("ushader "));
    if (p)
        us_prov_free(p);
    free(p);
    return s;
}

/* The command line of point k's job: `cd CWD && exec USHADER sweep ...
 * --point K --jobs 1 --out POINTDIR`. */
static char *job_command(const struct sw_spec *s, const char *exe,
                         const char *cwd, const char *pdir, unsigned k)
{
    const char *argv[80];
    char kbuf[16];
    snprintf(kbuf, sizeof kbuf, "%u", k);
    unsigned n = 0;
    argv[n++] = "cd";
    argv[n++] = cwd;
    char *cd = quoted(n, argv);
    n = 0;
    argv[n++] = "exec";
    argv[n++] = exe;
    n += sw_spec_argv(s, argv + n, 64);
    argv[n++] = "--point";
    argv[n++] = kbuf;
    argv[n++] = "--jobs";
    argv[n++] = "1";
    argv[n++] = "--out";
    argv[n++] = pdir;
    char *run = quoted(n, argv), *cmd = NULL;
    if (cd && run) {
        size_t len = strlen(cd) + strlen(run) + 5;
        cmd = malloc(len);
        if (cmd)
            snprintf(cmd, len, "%s && %s", cd, run);
    }
    free(cd);
    free(run);
    return cmd;
}

/* Job k's script: its provenance as comments, then its command. */
static char *job_script(const struct sw_spec *s, const json_t *prov,
                        unsigned k, const char *cmd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    char label[512];
    point_label(s, k, label, sizeof label);
    fprintf(f, "#!/bin/sh\n# ushader sweep: point %u of %u%s\n"
            "# version: %s\n# commit: %s\n# sweep: %s\n"
            "# Writes points/%04u/point.json beside this directory;\n"
            "# `ushader sweep --merge DIR` joins the points.\n"
            "set -e\n%s\n", k, s->npoints, label,
            json_string_value(json_object_get(prov, "version")),
            json_string_value(json_object_get(prov, "commit")),
            json_string_value(json_object_get(prov, "command")), k, cmd);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

static char *sbatch_script(unsigned n, const char *dir)
{
    const char *argv[] = { "cd", dir };
    char *cd = quoted(2, argv), *buf = NULL;
    size_t len = 0;
    FILE *f = cd ? open_memstream(&buf, &len) : NULL;
    if (f) {
        fprintf(f, "#!/bin/sh\n# ushader sweep as a Slurm job array: task "
                "i runs jobs/NNNN.sh (NNNN = i),\n# writing "
                "points/NNNN/point.json.  sbatch --array=0-%u %s/sweep.sbatch"
                "\n#SBATCH --job-name=ushader-sweep\n#SBATCH --array=0-%u\n"
                "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
                "#SBATCH --output=%s/logs/%%a.out\n"
                "set -e\n%s\nn=$(printf %%04d \"$SLURM_ARRAY_TASK_ID\")\n"
                "exec sh \"jobs/$n.sh\"\n", n - 1, dir, n - 1, dir, cd);
        if (fclose(f)) {
            free(buf);
            buf = NULL;
        }
    }
    free(cd);
    return buf;
}

/* The directory as an absolute path (created first). */
static char *abs_dir(const char *dir)
{
    if (!cli_make_dirs(dir)) {
        cli_error(dir, 0, 0, "cannot create the directory: %s",
                  strerror(errno));
        return NULL;
    }
    char *r = realpath(dir, NULL);
    if (!r)
        cli_error(dir, 0, 0, "%s", strerror(errno));
    return r;
}

static int emit_jobs(const struct sweep_ctx *c, const char *dir_arg)
{
    const struct sw_spec *s = c->s;
    /* the suite once, for the inputs the provenance names (and so a
     * broken suite fails now, not in every job) */
    char sets[SW_MAX_AXES][SW_MAX_SET];
    struct us_bench_opts o;
    point_opts(c, 0, sets, &o);
    o.nsets = 0;
    struct us_bench *b = calloc(1, sizeof *b);
    struct us_diag diag = { 0 };
    json_t *prov = NULL, *doc = NULL, *jobs = NULL;
    char *dir = NULL, *exe = NULL, *cwd = NULL, *txt = NULL;
    size_t txt_len = 0;
    FILE *tf = NULL;
    int rc = 2;
    if (!b)
        goto oom;
    if (!us_bench_load(b, &o, NULL, NULL, &diag)) {
        if (b->err_file)
            cli_error(b->err_file, diag.line, diag.col, "%s", diag.msg);
        else
            cli_error(NULL, 0, 0, "sweep: %s", diag.msg);
        goto out;
    }
    rc = 1;
    if (!(prov = sweep_prov(c, b)))
        goto oom;
    exe = realpath("/proc/self/exe", NULL);
    cwd = getcwd(NULL, 0);
    if (!exe || !cwd) {
        cli_error(NULL, 0, 0, "sweep: cannot name the ushader binary or the "
                  "working directory: %s", strerror(errno));
        goto out;
    }
    if (!(dir = abs_dir(dir_arg)))
        goto out;
    char *sub[] = { path_join(dir, "jobs"), path_join(dir, "points"),
                    path_join(dir, "logs") };
    bool made = true;
    for (unsigned i = 0; i < 3; i++) {
        if (made && (!sub[i] || !cli_make_dirs(sub[i]))) {
            cli_error(sub[i] ? sub[i] : dir, 0, 0, "cannot create the "
                      "directory: %s", strerror(errno));
            made = false;
        }
    }
    char *jobs_dir = sub[0];
    free(sub[1]);
    free(sub[2]);
    if (!made) {
        free(jobs_dir);
        goto out;
    }
    jobs = json_array();
    tf = open_memstream(&txt, &txt_len);
    bool ok = jobs && tf;
    for (unsigned k = 0; ok && k < s->npoints; k++) {
        char pname[32], sname[32];
        snprintf(pname, sizeof pname, "points/%04u", k);
        snprintf(sname, sizeof sname, "%04u.sh", k);
        char *pdir = path_join(dir, pname), *job = path_join(jobs_dir, sname);
        char *cmd = pdir ? job_command(s, exe, cwd, pdir, k) : NULL;
        char *script = cmd ? job_script(s, prov, k, cmd) : NULL;
        ok = script && job && write_text(jobs_dir, sname, script) &&
             chmod(job, 0755) == 0;
        if (ok) {
            const char *argv[] = { "sh", job };
            char *line = quoted(2, argv);
            ok = line != NULL;
            if (line)
                fprintf(tf, "%s\n", line);
            free(line);
            json_t *knobs = json_object();
            for (unsigned a = 0; knobs && a < s->naxes; a++)
                json_object_set_new(knobs, s->axes[a].key, us_json_text(
                    s->axes[a].vals[sw_point_value(s, k, a)]));
            json_array_append_new(jobs, json_pack("{s:i, s:o, s:o, s:o}",
                "index", (int)k, "knobs", knobs, "script", us_json_text(job),
                "command", us_json_text(cmd)));
        }
        free(pdir);
        free(job);
        free(cmd);
        free(script);
    }
    free(jobs_dir);
    if (tf && fclose(tf))
        ok = false;
    tf = NULL;
    if (!ok) {
        cli_error(dir, 0, 0, "sweep: writing the jobs failed");
        goto out;
    }
    doc = json_pack("{s:i, s:O, s:o, s:O}", "schema_version",
                    US_JSON_SCHEMA_VERSION, "provenance", prov, "sweep",
                    sw_spec_json(s), "jobs", jobs);
    char *sb = sbatch_script(s->npoints, dir);
    ok = doc && sb && write_text(dir, "jobs.txt", txt) &&
         write_text(dir, "sweep.sbatch", sb) &&
         write_json(dir, "sweep.json", doc);
    free(sb);
    if (!ok)
        goto out;
    fprintf(stderr, "sweep: wrote %u jobs into %s: parallel --jobs N < "
            "%s/jobs.txt, or sbatch %s/sweep.sbatch; then ushader sweep "
            "--merge %s\n", s->npoints, dir_arg, dir_arg, dir_arg, dir_arg);
    rc = 0;
    goto out;
oom:
    cli_error(NULL, 0, 0, "out of memory");
    rc = 1;
out:
    if (tf)
        fclose(tf);
    free(txt);
    json_decref(jobs);
    json_decref(doc);
    json_decref(prov);
    free(dir);
    free(exe);
    free(cwd);
    if (b)
        us_bench_free(b);
    free(b);
    return rc;
}

/* ---- --merge ------------------------------------------------------------ */

static const char *jstr(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "?";
}

static json_t *load_json(const char *path, bool missing_ok)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j && !(missing_ok && access(path, F_OK) != 0))
        cli_error(path, (unsigned)(e.line > 0 ? e.line : 0),
                  (unsigned)(e.column > 0 ? e.column : 0), "%s", e.text);
    return j;
}

/* Point k's file against the sweep: version, spec, provenance, index. */
static bool check_point(const char *path, unsigned k, const json_t *doc,
                        const json_t *pf)
{
    const json_t *sp = json_object_get(doc, "provenance"),
                 *pp = json_object_get(pf, "provenance");
    if (strcmp(jstr(sp, "version"), jstr(pp, "version")) ||
        strcmp(jstr(sp, "commit"), jstr(pp, "commit"))) {
        cli_error(path, 0, 0, "point %u was produced by ushader %s (commit "
                  "%s), the sweep by ushader %s (commit %s): run its job "
                  "again with this build", k, jstr(pp, "version"),
                  jstr(pp, "commit"), jstr(sp, "version"),
                  jstr(sp, "commit"));
        return false;
    }
    if (!json_equal(json_object_get(doc, "sweep"),
                    json_object_get(pf, "sweep")) ||
        strcmp(jstr(sp, "command"), jstr(pp, "command"))) {
        cli_error(path, 0, 0, "point %u belongs to another sweep spec (%s), "
                  "not this directory's (%s)", k, jstr(pp, "command"),
                  jstr(sp, "command"));
        return false;
    }
    if (!json_equal(sp, pp)) {
        cli_error(path, 0, 0, "point %u read other inputs or another base "
                  "configuration than the sweep recorded (a file changed "
                  "since --emit-jobs?): its provenance differs", k);
        return false;
    }
    const json_t *pt = json_object_get(pf, "point");
    if (json_integer_value(json_object_get(pt, "index")) != (json_int_t)k ||
        !json_is_array(json_object_get(pt, "runs"))) {
        cli_error(path, 0, 0, "not point %u of the sweep", k);
        return false;
    }
    return true;
}

static int merge(const struct sweep_args *a)
{
    const char *dir = a->merge;
    char *sj = path_join(dir, "sweep.json");
    struct sw_results r = { 0 };
    int rc = 1;
    json_t *doc = sj ? load_json(sj, false) : NULL;
    if (!doc)
        goto out;
    r.prov = json_incref(json_object_get(doc, "provenance"));
    r.sweep = json_incref(json_object_get(doc, "sweep"));
    json_int_t n = json_integer_value(json_object_get(r.sweep, "points"));
    if (!r.prov || !r.sweep || n < 1 || n > SW_MAX_POINTS ||
        json_integer_value(json_object_get(doc, "schema_version")) !=
            US_JSON_SCHEMA_VERSION) {
        cli_error(sj, 0, 0, "not the sweep.json of `ushader sweep "
                  "--emit-jobs` (schema_version %d)", US_JSON_SCHEMA_VERSION);
        goto out;
    }
    r.points = calloc((size_t)n, sizeof *r.points);
    if (!r.points)
        goto out;
    r.npoints = (unsigned)n;
    unsigned missing = 0, first = 0;
    bool bad = false;
    for (unsigned k = 0; k < r.npoints; k++) {
        char name[48];
        snprintf(name, sizeof name, "points/%04u/point.json", k);
        char *pp = path_join(dir, name);
        json_t *pf = pp ? load_json(pp, true) : NULL;
        if (!pf && pp && access(pp, F_OK) != 0) {
            if (!missing++)
                first = k;
        } else if (!pf || !check_point(pp, k, doc, pf)) {
            bad = true;
        } else {
            r.points[k] = json_incref(json_object_get(pf, "point"));
        }
        json_decref(pf);
        free(pp);
    }
    if (missing)
        cli_error(dir, 0, 0, "sweep --merge: %u of %u points missing (the "
                  "first: points/%04u/point.json; run jobs/%04u.sh)",
                  missing, r.npoints, first, first);
    if (missing || bad)
        goto out;
    if (!set_plots(&r, a))
        goto out;
    const char *inputs[2] = { sj, NULL };
    rc = write_results(&r, a->out ? a->out : dir, inputs, !a->no_plots);
    for (unsigned k = 0; rc == 0 && k < r.npoints; k++)
        if (json_integer_value(json_object_get(r.points[k], "failures")))
            rc = 1;
out:
    results_free(&r);
    json_decref(doc);
    free(sj);
    return rc;
}

/* ---- The command -------------------------------------------------------- */

static int run_local(const struct sweep_ctx *c, const struct sweep_args *a)
{
    const struct sw_spec *s = c->s;
    struct sw_results r = { 0 };
    int rc = 1;
    r.sweep = round_trip(sw_spec_json(s));
    r.points = calloc(s->npoints, sizeof *r.points);
    if (!r.sweep || !r.points) {
        cli_error(NULL, 0, 0, "out of memory");
        goto out;
    }
    if (!set_plots(&r, a)) {
        rc = 2;
        goto out;
    }
    r.npoints = s->npoints;
    struct sweep_bar sb = { .bar = { .tty = isatty(2) },
                            .npoints = s->npoints };
    clock_gettime(CLOCK_MONOTONIC, &sb.bar.start);
    bool failed = false;
    struct loaded l = { 0 };
    for (unsigned k = 0; k < s->npoints; k++) {
        int prc;
        r.points[k] = run_point(c, k, a->jobs, &l, &sb, k ? NULL : &r.prov,
                                &prc);
        if (!r.points[k]) {
            loaded_free(&l);
            rc = prc;
            goto out;
        }
        failed |= json_integer_value(json_object_get(r.points[k],
                                                     "failures")) != 0;
    }
    loaded_free(&l);
    const char *inputs[2] = { s->config, s->spec_file };
    rc = write_results(&r, a->out, inputs, !a->no_plots);
    if (rc == 0 && failed)
        rc = 1;
out:
    results_free(&r);
    return rc;
}

/* --point K: the point's file, DIR/point.json. */
static int run_one(const struct sweep_ctx *c, const struct sweep_args *a,
                   int argc, char **argv)
{
    if (!parse_uint(a->point_arg, 0, c->s->npoints - 1, &(unsigned){ 0 })) {
        cli_error(NULL, 0, 0, "sweep: --point wants 0..%u (the sweep has %u "
                  "points), not '%s'", c->s->npoints - 1, c->s->npoints,
                  a->point_arg);
        return 2;
    }
    unsigned k = (unsigned)strtoul(a->point_arg, NULL, 10);
    json_t *prov = NULL;
    int rc;
    struct loaded l = { 0 };
    json_t *pt = run_point(c, k, a->jobs, &l, NULL, &prov, &rc);
    loaded_free(&l);
    if (!pt)
        return rc;
    struct us_prov job;
    json_t *doc = NULL;
    if (us_prov_init(&job, argc, argv)) {
        doc = json_pack("{s:i, s:o, s:o, s:o, s:o}", "schema_version",
                        US_JSON_SCHEMA_VERSION, "provenance", prov, "sweep",
                        sw_spec_json(c->s), "job", us_json_text(job.command),
                        "point", pt);
        prov = pt = NULL;
        us_prov_free(&job);
    }
    json_decref(prov);
    json_decref(pt);
    rc = 1;
    if (cli_make_dirs(a->out)) {
        if (write_json(a->out, "point.json", doc))
            rc = json_integer_value(json_object_get(json_object_get(doc,
                                    "point"), "failures")) ? 1 : 0;
    } else {
        cli_error(a->out, 0, 0, "cannot create the directory: %s",
                  strerror(errno));
    }
    json_decref(doc);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    struct sweep_args a = { 0 };
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (a.merge)
        return merge(&a);
    struct sweep_ctx c = { .s = &a.spec };
    us_config_default(&c.base);
    rc = 2;
    if (a.spec.config) {
        if (!cli_read_file(a.spec.config, &c.config_text, &c.config_len))
            goto out;
        struct us_diag d = { 0 };
        if (!us_config_load(&c.base, c.config_text, c.config_len, &d)) {
            cli_error(a.spec.config, d.line, d.col, "%s", d.msg);
            goto out;
        }
    }
    if (!sw_spec_build(&a.spec, &c.base) || !check_points(&c))
        goto out;
    if (a.emit)
        rc = emit_jobs(&c, a.emit);
    else if (a.point_arg)
        rc = run_one(&c, &a, argc, argv);
    else
        rc = run_local(&c, &a);
out:
    sw_spec_free(&a.spec);
    free(c.config_text);
    return rc;
}
