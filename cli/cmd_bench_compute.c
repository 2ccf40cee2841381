/* ushader bench --suite compute: the compute suite (bench/compute/) on
 * every model, the SIMT presets and the divergence, memory and e-GPU
 * studies, every output checked against its C reference, with --out the
 * report (suite/compute.h, docs/COMPUTE_SUITE.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "suite/compute.h"
#include "suite/provenance.h"

static const char usage[] =
    "usage: ushader bench --suite compute [--kernels DIR] [--configs DIR]\n"
    "                     [--only ID[,ID...]] [--all] [--jobs N] [--json]\n"
    "                     [--out DIR] [--no-plots]\n"
    "  Runs every kernel of the compute suite (bench/compute/ref/list.def)\n"
    "  on the reference interpreter, every core model at equal lanes, the\n"
    "  SIMT presets (configs/P.ini) and the divergence, memory-system and\n"
    "  e-GPU scaling studies; every buffer is compared byte for byte with\n"
    "  the kernel's C reference (exit 1 on a difference).  `--suite FILE`\n"
    "  with any other value is the shader suite's list (./compute: a file).\n"
    "  --kernels DIR  the kernels' sources (default bench/compute)\n"
    "  --configs DIR  the presets' INI files (default DIR/../../configs)\n"
    "  --only       kernels whose ID contains one of these strings\n"
    "  --all        with the bench-only sizes (KREF_BENCH: gemm128, gemm256)\n"
    "  --jobs N     host threads, 1..256 (results do not depend on N;\n"
    "               default: the online CPUs)\n"
    "  --json       print results.json instead of the table\n"
    "  --out DIR    write report.md, results.csv, results.json and PNG plots\n"
    "               (through gnuplot) into DIR\n";

struct args {
    struct us_cb_opts o;
    const char *out;
    unsigned jobs;
    bool json, no_plots;
};

static int parse(int argc, char **argv, struct args *a)
{
    a->o.kernels = "bench/compute";
    a->jobs = cli_default_jobs();
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "-h", false, false, NULL },
        { "--json", false, false, NULL }, { "--no-plots", false, false, NULL },
        { "--all", false, false, NULL }, { "--suite", true, false, NULL },
        { "--kernels", true, false, NULL }, { "--configs", true, false, NULL },
        { "--only", true, false, NULL }, { "--out", true, false, NULL },
        { "--jobs", true, false, NULL }, { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return -1;
        }
    if (!cli_check_options("bench --suite compute", argc, argv, 1, options))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            fputs(usage, stdout);
            return -1;
        }
        if (!strcmp(opt, "--json") || !strcmp(opt, "--no-plots") ||
            !strcmp(opt, "--all")) {
            *(opt[2] == 'j' ? &a->json : opt[2] == 'n' ? &a->no_plots
                                                       : &a->o.all) = true;
            continue;
        }
        if (i + 1 >= argc) {
            cli_error(NULL, 0, 0, "bench: unknown option or missing value: "
                      "'%s'", opt);
            fputs(usage, stderr);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(opt, "--suite")) {
            continue;   /* compute: how we got here */
        } else if (!strcmp(opt, "--kernels")) {
            a->o.kernels = v;
        } else if (!strcmp(opt, "--configs")) {
            a->o.configs = v;
        } else if (!strcmp(opt, "--only")) {
            a->o.only = v;
        } else if (!strcmp(opt, "--out")) {
            a->out = v;
        } else if (!strcmp(opt, "--jobs")) {
            if (!cli_parse_jobs("bench", v, &a->jobs))
                return 2;
        } else {
            cli_error(NULL, 0, 0, "bench: unknown option '%s' for --suite "
                      "compute", opt);
            fputs(usage, stderr);
            return 2;
        }
    }
    return 0;
}

static bool is_dir(const char *path, const char *what)
{
    struct stat s;
    if (stat(path, &s) != 0) {
        cli_error(path, 0, 0, "%s: %s", what, strerror(errno));
        return false;
    }
    if (!S_ISDIR(s.st_mode)) {
        cli_error(path, 0, 0, "%s: not a directory", what);
        return false;
    }
    return true;
}

/* The compute suite's writers behind cli_bench_out. */
static void c_csv(FILE *f, const void *b) { us_cb_csv(f, b); }
static void c_json(FILE *f, const void *b) { us_cb_json(f, b); }
static void c_report(FILE *f, const void *b, bool plots, const char *note)
{
    us_cb_report(f, b, plots, note);
}
static bool c_plots(const void *b, const char *term,
                    struct us_bench_file **files, unsigned *n)
{
    return us_cb_plot_files(b, term, files, n);
}

int cmd_bench_compute(int argc, char **argv)
{
    struct args a = { 0 };
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!is_dir(a.o.kernels, "the kernels' directory (--kernels)") ||
        (a.o.configs && !is_dir(a.o.configs, "--configs")))
        return 2;
    struct us_cbench *b = calloc(1, sizeof *b);
    if (!b) {
        cli_error(NULL, 0, 0, "out of memory");
        return 1;
    }
    struct cli_progress prog = { .tty = isatty(2) };
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    struct us_diag diag = { 0 };
    struct us_prov *prov = NULL;   /* 45 KiB: not on the stack */
    rc = 2;
    if (!us_cb_load(b, &a.o, &diag)) {
        if (b->err_file[0])
            cli_error(b->err_file, diag.line, diag.col, "%s", diag.msg);
        else
            cli_error(NULL, 0, 0, "bench: %s", diag.msg);
        goto out;
    }
    rc = 1;
    if (!us_cb_run(b, a.jobs, cli_bench_progress, &prog, &diag)) {
        cli_error(NULL, 0, 0, "bench: %s", diag.msg);
        goto out;
    }
    prov = calloc(1, sizeof *prov);
    if (!prov || !us_prov_init(prov, argc, argv)) {
        cli_error(NULL, 0, 0, "out of memory");
        goto out;
    }
    /* The kernels run with exact math (suite/compute_run.c); every
     * variant starts from the defaults (recorded), a preset's INI over
     * them (an input, hashed). */
    struct us_config base;
    us_config_default(&base);
    prov->math = "exact";
    prov->cfg = &base;
    for (unsigned k = 0; k < b->nkern; k++)
        us_prov_add_file(prov, b->kern[k].path);
    for (unsigned v = 0; v < b->nvars; v++)
        if (b->vars[v].ini[0])
            us_prov_add_file(prov, b->vars[v].ini);
    b->prov = prov;
    for (unsigned j = 0; j < b->njobs; j++)
        if (b->jobs[j].status == US_CB_FAILED)
            cli_error(b->kern[b->jobs[j].k].path, 0, 0, "%s on %s: %s",
                      b->kern[b->jobs[j].k].id, b->vars[b->jobs[j].v].name,
                      b->jobs[j].msg);
    if (a.json)
        us_cb_json(stdout, b);
    else
        us_cb_table(stdout, b);
    if (!cli_flush_stdout())
        goto out;
    const char *inputs[2] = { NULL, NULL };
    const struct cli_bench_out o = { b, c_csv, c_json, c_report, c_plots,
                                     us_cb_plot_names };
    if (a.out && !cli_bench_write(a.out, inputs, &o, !a.no_plots))
        goto out;
    rc = b->failed ? 1 : 0;
out:
    if (prov)
        us_prov_free(prov);
    free(prov);
    us_cb_free(b);
    free(b);
    return rc;
}
