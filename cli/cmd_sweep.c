/* ushader sweep: the bench suite (or with --suite compute the compute
 * suite, cli/sweep_compute.c) at every point of a sweep over knobs,
 * locally (--jobs), or as one job per point (--emit-jobs DIR: a shell
 * script each, a GNU parallel list, a Slurm array) whose partial results
 * --merge DIR joins into the set a local run writes (cli/sweep.h,
 * docs/SWEEP.md): the options, the points and the three forms; the job
 * directories are cli/sweep_jobs.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    "                     [--progress]\n"
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
    "  --suite compute  the compute suite (--only: kernel IDs; no --threads):\n"
    "              every kernel on each model of --arch at its defaults plus\n"
    "              the point, every buffer checked against its C reference;\n"
    "              the memory-system and SIMT knobs (mem_latency, mem_system,\n"
    "              simt_warps, ...) act here\n"
    "  --jobs N    host threads, 1..256 (results do not depend on N;\n"
    "              default: the online CPUs)\n"
    "  --out DIR   write results.json, results.csv, report.md and the plots\n"
    "              into DIR (without it only the summary is printed)\n"
    "  --plot M[:K] plot statistic M (a results.csv column: cycles,\n"
    "              utilization, energy, ...) against swept knob K (default:\n"
    "              the first), one line per model and value of the other\n"
    "              knobs, through gnuplot; default --plot cycles\n"
    "  --no-plots  no gnuplot\n"
    "  --progress  the progress bar on stderr from the start, terminal or\n"
    "              not (default: on a terminal, once a second has passed)\n"
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
    bool no_plots, progress;
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
    { "--progress", false, false, NULL },
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
        if (!strcmp(opt, "--progress")) {
            a->progress = true;
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
    s->compute = s->suite_arg && !strcmp(s->suite_arg, "compute");
    if (s->compute && s->threads_arg) {
        cli_error(NULL, 0, 0, "sweep: --threads is the shader suite's; "
                  "--suite compute launches each kernel's own grid");
        return 2;
    }
    bool spec = s->spec_file || s->nsets || s->zip_opt || s->config ||
                s->arch || s->only || s->threads_arg || s->suite_arg;
    if (a->merge && (spec || a->emit || a->point_arg || a->progress)) {
        cli_error(NULL, 0, 0, "sweep: --merge DIR takes the sweep from "
                  "DIR/sweep.json; give it only --out, --plot, --no-plots "
                  "(it runs nothing: no --progress)");
        return 2;
    }
    if (a->emit &&
        (a->out || a->point_arg || a->nplots || a->no_plots || a->progress)) {
        cli_error(NULL, 0, 0, "sweep: --emit-jobs DIR runs nothing, so it "
                  "takes no --out, --point, --plot or --progress (give "
                  "--plot to --merge)");
        return 2;
    }
    if (a->point_arg &&
        (!a->out || a->nplots || a->no_plots || a->progress)) {
        cli_error(NULL, 0, 0, "sweep: --point K writes DIR/point.json into "
                  "--out DIR, without plots or a progress bar");
        return 2;
    }
    return 0;
}

/* ---- The points --------------------------------------------------------- */

/* The bench options of point k (sets[] holds its KNOB=VALUE strings). */
void sw_point_opts(const struct sw_ctx *c, unsigned k,
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
void sw_point_label(const struct sw_spec *s, unsigned k, char *buf,
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
static bool check_points(const struct sw_ctx *c)
{
    if (c->s->compute)
        return sw_compute_check(c);
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
        sw_point_opts(c, k, sets, &o);
        for (unsigned i = 0; ok && i < o.nsets; i++)
            ok = us_config_set(&b->base, o.sets[i], &d);
        struct us_sfu sfu;
        if (ok && (ok = us_sfu_init(&sfu, &b->base.sfu, &d)))
            us_sfu_free(&sfu);
        ok = ok && us_bench_variants(b, o.archs, &d);
        if (!ok) {
            char label[512];
            sw_point_label(c->s, k, label, sizeof label);
            cli_error(NULL, 0, 0, "sweep: point %u%s: %s", k, label, d.msg);
        }
    }
    free(b);
    return ok;
}

json_t *sw_round_trip(json_t *v)
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
json_t *sw_sweep_prov(const struct sw_ctx *c, const struct us_bench *b)
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
    json_t *j = sw_round_trip(us_prov_json(p));
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
    return sw_round_trip(json_pack("{s:i, s:o, s:i, s:o}", "index", (int)k,
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
    struct us_cbench *cb;     /* --suite compute: the kernels */
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
    sw_compute_free(&l->cb);
}

/* The suite for point k, its base configuration the point's: loaded, or
 * the one in *l reconfigured.  False after an error message. */
static bool load_point(const struct sw_ctx *c, unsigned k,
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
static json_t *run_point(const struct sw_ctx *c, unsigned k, unsigned jobs,
                         struct loaded *l, struct sweep_bar *sb,
                         json_t **prov, int *rc)
{
    char sets[SW_MAX_AXES][SW_MAX_SET];
    struct us_bench_opts o;
    sw_point_opts(c, k, sets, &o);
    struct us_diag diag = { 0 };
    char label[512];
    sw_point_label(c->s, k, label, sizeof label);
    if (c->s->compute) {
        if (sb)
            sb->k = k;
        return sw_compute_point(c, k, jobs, &l->cb,
                                sb ? sweep_progress : NULL, sb, prov, rc);
    }
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
    if (prov && pt && !(*prov = sw_sweep_prov(c, b))) {
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

bool sw_set_plots(struct sw_results *r, const char *const *args, unsigned n,
                  bool none)
{
    unsigned np = none ? 0 : n ? n : 1;
    for (unsigned p = 0; p < np; p++)
        if (!sw_parse_plot(n ? args[p] : "cycles", r->sweep, &r->plots[p]))
            return false;
    r->nplots = np;
    if (!sw_results_name_plots(r)) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    return true;
}

void sw_results_free(struct sw_results *r)
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
int sw_write_results(const struct sw_results *r, const char *out,
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

/* ---- The command -------------------------------------------------------- */

static int run_local(const struct sw_ctx *c, const struct sweep_args *a)
{
    const struct sw_spec *s = c->s;
    struct sw_results r = { 0 };
    int rc = 1;
    r.sweep = sw_round_trip(sw_spec_json(s));
    r.points = calloc(s->npoints, sizeof *r.points);
    if (!r.sweep || !r.points) {
        cli_error(NULL, 0, 0, "out of memory");
        goto out;
    }
    if (!sw_set_plots(&r, a->plots, a->nplots, a->no_plots)) {
        rc = 2;
        goto out;
    }
    r.npoints = s->npoints;
    struct sweep_bar sb = { .bar = { .tty = isatty(2),
                                    .always = a->progress },
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
    rc = sw_write_results(&r, a->out, inputs, !a->no_plots);
    if (rc == 0 && failed)
        rc = 1;
out:
    sw_results_free(&r);
    return rc;
}

/* --point K: the point's file, DIR/point.json. */
static int run_one(const struct sw_ctx *c, const struct sweep_args *a,
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
        if (sw_write_json(a->out, "point.json", doc))
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
        return sw_merge(a.merge, a.out, a.plots, a.nplots, a.no_plots);
    struct sw_ctx c = { .s = &a.spec };
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
        rc = sw_emit_jobs(&c, a.emit);
    else if (a.point_arg)
        rc = run_one(&c, &a, argc, argv);
    else
        rc = run_local(&c, &a);
out:
    sw_spec_free(&a.spec);
    free(c.config_text);
    return rc;
}
