/* ushader bench: every benchmark program on every core model, the
 * comparison table, and with --out the report (suite/suite.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "glsl/cleanup.h"
#include "gfx/gfx.h"
#include "suite/md_html.h"
#include "suite/provenance.h"
#include "suite/suite.h"

static const char usage[] =
    "usage: ushader bench [--arch A[,B...]] [--set KEY=V]... [--config F.ini]\n"
    "                     [--jobs N] [--json] [--out DIR] [--threads N]\n"
    "                     [--only NAME[,NAME...]] [--suite FILE] [--no-plots]\n"
    "                     [--no-lut-study] [--no-sensitivity] [--progress]\n"
    "  Runs every program of the suite (bench/suite.list) on every core\n"
    "  model at equal ALU lanes, plus the scalar SP's compaction, SFU and\n"
    "  shared-LUT variants, on inputs captured from the test scenes.\n"
    "  --arch      models to compare: one, a comma list or all (the\n"
    "              default); each run is checked against the reference\n"
    "              interpreter (functional), which is not a row\n"
    "  --config    an INI file ([core] knobs, [sfu] keys) for every run, as\n"
    "              for run; --set applies over it\n"
    "  --set       a knob for every run (`ushader config --list`)\n"
    "  --jobs N    host threads, 1..256 (results do not depend on N;\n"
    "              default: the online CPUs)\n"
    "  --json      print results.json instead of the table\n"
    "  --out DIR   write results.csv, results.json, report.md and PNG plots\n"
    "              (through gnuplot) into DIR\n"
    "  --threads N threads per program (default 512)\n"
    "  --only      programs whose name contains one of these strings\n"
    "  --suite F   the list of programs (default bench/suite.list);\n"
    "              --suite compute is the compute suite (ushader bench\n"
    "              --suite compute --help)\n"
    "  --no-plots  with --out, no plots (gnuplot is not run)\n"
    "  --no-lut-study  without the scalar SP's shared-LUT study (its 33\n"
    "              variants: most of a run's time; make demo's glmark2\n"
    "              and Minetest runs)\n"
    "  --no-sensitivity  without the sensitivity study's 40 variants\n"
    "              (report section h's knob tables; make demo's glmark2\n"
    "              and Minetest runs)\n"
    "  --progress  the progress bar on stderr from the start, terminal or\n"
    "              not (default: on a terminal, once a second has passed)\n";

static double since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) +
           (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

/* A bar on stderr, only on a terminal and only once a run has taken more
 * than a second. */
void cli_bench_progress(void *ctx, const char *phase, unsigned done,
                        unsigned total)
{
    struct cli_progress *p = ctx;
    if (!(p->tty || p->always) || total == 0)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double el = since(&p->start, &now);
    if ((el < 1.0 && !p->always) ||
        (done < total && p->shown && since(&p->last, &now) < 0.1))
        return;
    enum { WIDTH = 30 };
    unsigned fill = (unsigned)((unsigned long long)done * WIDTH / total);
    char bar[WIDTH + 1];
    for (unsigned i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    fprintf(stderr, "\r%-8s [%s] %u/%u  %.0f s ", phase, bar, done, total, el);
    if (done == total)
        fputc('\n', stderr);
    p->shown = done < total;
    p->last = now;
}

/* Run argv[0] with `dir` as working directory and stdout/stderr discarded
 * when `quiet`; true if it exited with status 0.  A signal that ends
 * ushader kills it too (glsl/cleanup.h). */
static bool run_tool(const char *dir, char *const argv[], bool quiet)
{
    fflush(NULL);
    sigset_t old;
    us_cleanup_block(&old);
    pid_t pid = fork();
    if (pid == 0) {
        us_cleanup_forget();
        us_cleanup_restore(&old);
        if (dir && chdir(dir) != 0)
            _exit(127);
        if (quiet) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
                close(fd);
            }
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int slot = pid > 0 ? us_cleanup_add_child(pid) : -1;
    us_cleanup_restore(&old);
    if (pid < 0)
        return false;
    /* Wait without reaping, unregister, then reap: a registered pid is
     * never one the kernel could have given to another process. */
    siginfo_t info;
    while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT) < 0)
        if (errno != EINTR)
            break;
    us_cleanup_drop(slot);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* "DIR/NAME" (NAME suffixed with `ext`), malloc'd; NULL for want of
 * memory. */
static char *path_in(const char *dir, const char *name, const char *ext)
{
    size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", dir, name, ext);
    return p;
}

/* cli.h */
bool cli_make_dirs(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return true;
    if (errno != ENOENT)
        return false;
    size_t n = strlen(path);
    char *buf = malloc(n + 1);
    if (!buf)
        return false;
    memcpy(buf, path, n + 1);
    bool ok = true;
    for (char *p = buf + 1; ok && *p; p++)
        if (*p == '/') {
            *p = '\0';
            ok = mkdir(buf, 0777) == 0 || errno == EEXIST;
            *p = '/';
        }
    ok = ok && (mkdir(buf, 0777) == 0 || errno == EEXIST);
    int err = errno;
    free(buf);
    errno = err;
    return ok;
}

/* The --out directory, and the input files no output there may replace. */
struct out_dir {
    const char *dir;
    const char *inputs[2];   /* --config, --suite */
};

/* The shader suite's writers behind cli_bench_out's interface. */
static void sh_csv(FILE *f, const void *b) { us_bench_csv(f, b); }
static void sh_json(FILE *f, const void *b) { us_bench_json(f, b); }
static void sh_report(FILE *f, const void *b, bool plots, const char *note)
{
    us_bench_report(f, b, plots, note);
}
static bool sh_plots(const void *b, const char *term,
                     struct us_bench_file **files, unsigned *n)
{
    return us_bench_plot_files(b, term, files, n);
}

static bool write_in(const struct out_dir *od, const char *name,
                     const void *data, size_t len)
{
    char *path = path_in(od->dir, name, "");
    if (!path) {
        cli_error(od->dir, 0, 0, "out of memory");
        return false;
    }
    bool ok = cli_check_output(path, od->inputs, 2) &&
              cli_write_file(path, data, len);
    free(path);
    return ok;
}

/* Fill a buffer through a FILE *. */
static bool render(void (*fn)(FILE *, const void *), const void *b,
                   char **data, size_t *len)
{
    *data = NULL;
    FILE *f = open_memstream(data, len);
    if (!f)
        return false;
    fn(f, b);
    if (fclose(f)) {
        free(*data);
        return false;
    }
    return true;
}

/* Plots through gnuplot; on failure *note says why. */
static bool plots(const struct out_dir *od, const struct cli_bench_out *o,
                  const char **note)
{
    const char *dir = od->dir;
    char *probe_cairo[] = { "gnuplot", "-e", "set terminal pngcairo", NULL };
    char *probe_png[] = { "gnuplot", "-e", "set terminal png", NULL };
    const char *term = run_tool(NULL, probe_cairo, true) ? "pngcairo"
                     : run_tool(NULL, probe_png, true) ? "png" : NULL;
    if (!term) {
        *note = "gnuplot with a PNG terminal was not found (Debian: "
                "gnuplot-nox), so this report has no plots.";
        return false;
    }
    struct us_bench_file *files;
    unsigned n;
    if (!o->plot_files(o->ctx, term, &files, &n)) {
        *note = "out of memory while writing the plot data.";
        return false;
    }
    bool ok = true;
    for (unsigned i = 0; ok && i < n; i++)
        ok = write_in(od, files[i].name, files[i].data, files[i].len);
    us_bench_files_free(files, n);
    /* gnuplot writes NAME.tmp; an interrupt while it runs removes them. */
    enum { MAX_PLOTS = 16 };
    int slot[MAX_PLOTS];
    for (unsigned i = 0; i < MAX_PLOTS && o->plot_names[i]; i++) {
        char *tmp = path_in(dir, o->plot_names[i], ".tmp");
        slot[i] = tmp ? us_cleanup_add_file(tmp) : -1;
        free(tmp);
    }
    char *cmd[] = { "gnuplot", "plots.gp", NULL };
    if (ok && !run_tool(dir, cmd, false)) {
        *note = "gnuplot failed on plots.gp, so this report has no plots.";
        ok = false;
    }
    /* Publish each PNG by rename, so none is ever seen half written. */
    for (unsigned i = 0; i < MAX_PLOTS && o->plot_names[i]; i++) {
        char *tmp = path_in(dir, o->plot_names[i], ".tmp"),
             *dst = path_in(dir, o->plot_names[i], "");
        if (ok && (!tmp || !dst)) {
            *note = "out of memory while publishing the plots.";
            ok = false;
        }
        if (ok && !cli_check_output(dst, od->inputs, 2))
            ok = false;
        if (ok && rename(tmp, dst) != 0) {
            *note = "gnuplot did not write every plot.";
            ok = false;
        }
        if (tmp)
            unlink(tmp);
        us_cleanup_drop(slot[i]);
        free(tmp);
        free(dst);
    }
    return ok;
}

/* One output file from a us_bench_* writer. */
static bool emit(const struct out_dir *od, const char *name,
                 void (*fn)(FILE *, const void *), const void *b)
{
    char *data;
    size_t len;
    if (!render(fn, b, &data, &len)) {
        cli_error(od->dir, 0, 0, "%s: out of memory", name);
        return false;
    }
    bool ok = write_in(od, name, data, len);
    free(data);
    return ok;
}

/* A plot the report names, from the output directory (us_md_image_fn):
 * only the plain names the writers give. */
static char *dir_image(void *ctx, const char *src, size_t *len)
{
    const struct out_dir *od = ctx;
    if (!*src || strchr(src, '/') || src[0] == '.')
        return NULL;
    char *path = path_in(od->dir, src, ""), *data = NULL;
    struct us_diag d;
    bool ok = path && gfx_read_file(path, CLI_MAX_INPUT, &data, len, &d);
    free(path);
    return ok ? data : NULL;
}

/* report.html from report.md's text, the plots embedded (suite/md_html.h). */
static bool write_html(const struct out_dir *od, const char *md, size_t n)
{
    char *data = NULL;
    size_t len;
    FILE *f = open_memstream(&data, &len);
    if (!f) {
        cli_error(od->dir, 0, 0, "report.html: out of memory");
        return false;
    }
    us_md_html(f, md, n, dir_image, (void *)od);
    if (fclose(f)) {
        free(data);
        cli_error(od->dir, 0, 0, "report.html: out of memory");
        return false;
    }
    bool ok = write_in(od, "report.html", data, len);
    free(data);
    return ok;
}

bool cli_bench_write(const char *dir, const char *const inputs[2],
                     const struct cli_bench_out *o, bool want_plots)
{
    const struct out_dir odir = { dir, { inputs[0], inputs[1] } },
                         *od = &odir;
    if (!cli_make_dirs(dir)) {
        cli_error(dir, 0, 0, "cannot create the directory: %s",
                  strerror(errno));
        return false;
    }
    if (!emit(od, "results.csv", o->csv, o->ctx) ||
        !emit(od, "results.json", o->json, o->ctx))
        return false;
    const char *note = "plots were not requested (--no-plots).";
    bool have = want_plots && plots(od, o, &note);
    char *data = NULL;
    size_t len;
    FILE *f = open_memstream(&data, &len);
    if (!f)
        return false;
    o->report(f, o->ctx, have, note);
    bool ok = fclose(f) == 0 && write_in(od, "report.md", data, len) &&
              write_html(od, data, len);
    free(data);
    if (ok)
        fprintf(stderr, "bench: wrote %s/report.md, report.html, results.csv, "
                "results.json%s\n", dir, have ? " and plots" : "");
    return ok;
}

struct bench_args {
    struct us_bench_opts o;
    const char *out, *config;
    unsigned jobs;
    bool json, no_plots, no_lut_study, no_sensitivity, progress;
};

static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *s == '-' || *end || end == s || v < lo || v > hi)
        return false;
    *out = (unsigned)v;
    return true;
}

static const char no_functional[] =
    "the suite compares core models; every run is checked against the "
    "reference interpreter";

static int parse_args(int argc, char **argv, struct bench_args *a)
{
    a->o.list = "bench/suite.list";
    a->jobs = cli_default_jobs();
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "-h", false, false, NULL },
        { "--json", false, false, NULL }, { "--no-plots", false, false, NULL },
        { "--progress", false, false, NULL },
        { "--no-lut-study", false, false, NULL },
        { "--no-sensitivity", false, false, NULL },
        { "--arch", true, false, NULL }, { "--set", true, true, NULL },
        { "--config", true, false, NULL }, { "--jobs", true, false, NULL },
        { "--threads", true, false, NULL }, { "--out", true, false, NULL },
        { "--only", true, false, NULL }, { "--suite", true, false, NULL },
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return -1;
        }
    if (!cli_check_options("bench", argc, argv, 1, options))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            fputs(usage, stdout);
            return -1;
        }
        if (!strcmp(opt, "--json")) {
            a->json = true;
            continue;
        }
        if (!strcmp(opt, "--progress")) {
            a->progress = true;
            continue;
        }
        if (!strcmp(opt, "--no-plots")) {
            a->no_plots = true;
            continue;
        }
        if (!strcmp(opt, "--no-lut-study")) {
            a->no_lut_study = true;
            continue;
        }
        if (!strcmp(opt, "--no-sensitivity")) {
            a->no_sensitivity = true;
            continue;
        }
        if (i + 1 >= argc) {
            cli_error(NULL, 0, 0, "bench: unknown option or missing value: "
                      "'%s'", opt);
            fputs(usage, stderr);
            return 2;
        }
        const char *v = argv[++i];
        if (!strcmp(opt, "--arch")) {
            struct cli_arch m;
            if (!cli_parse_arch("bench", v, CLI_ARCH_MANY, no_functional, &m))
                return 2;
            a->o.archs = m.all ? NULL : v;
        } else if (!strcmp(opt, "--set")) {
            if (a->o.nsets == US_BENCH_MAX_SETS) {
                cli_error(NULL, 0, 0, "bench: too many --set");
                return 2;
            }
            a->o.sets[a->o.nsets++] = v;
        } else if (!strcmp(opt, "--config")) {
            a->config = v;
        } else if (!strcmp(opt, "--jobs")) {
            if (!cli_parse_jobs("bench", v, &a->jobs))
                return 2;
        } else if (!strcmp(opt, "--threads")) {
            if (!parse_uint(v, 1, US_BENCH_CAPTURE, &a->o.threads)) {
                cli_error(NULL, 0, 0, "bench: --threads wants 1..%d",
                          US_BENCH_CAPTURE);
                return 2;
            }
        } else if (!strcmp(opt, "--out")) {
            a->out = v;
        } else if (!strcmp(opt, "--only")) {
            a->o.only = v;
        } else if (!strcmp(opt, "--suite")) {
            a->o.list = v;
        } else {
            cli_error(NULL, 0, 0, "bench: unknown option '%s'", opt);
            fputs(usage, stderr);
            return 2;
        }
    }
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    /* --suite compute is the compute suite (a file named compute: ./compute) */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--suite") && !strcmp(argv[i + 1], "compute"))
            return cmd_bench_compute(argc, argv);
    struct bench_args a = { 0 };
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    char *config = NULL;
    size_t len = 0;
    if (a.config && !cli_read_file(a.config, &config, &len))
        return 2;
    a.o.config_text = config;
    a.o.config_len = len;
    a.o.config_path = a.config;
    struct cli_progress prog = { .tty = isatty(2), .always = a.progress };
    clock_gettime(CLOCK_MONOTONIC, &prog.start);
    struct us_bench *b = calloc(1, sizeof *b);
    struct us_diag diag = { 0 };
    struct us_prov *prov = NULL;   /* 45 KiB: not on the stack */
    if (!b) {
        free(config);
        cli_error(NULL, 0, 0, "out of memory");
        return 1;
    }
    rc = 2;
    a.o.jobs = a.jobs;
    if (!us_bench_load(b, &a.o, cli_bench_progress, &prog, &diag)) {
        if (b->err_file)
            cli_error(b->err_file, diag.line, diag.col, "%s", diag.msg);
        else
            cli_error(NULL, 0, 0, "bench: %s", diag.msg);
        goto out;
    }
    b->no_lut_study = a.no_lut_study;
    if (!us_bench_variants(b, a.o.archs, &diag) ||
        (!a.no_sensitivity && !us_bench_sens_variants(b, &diag))) {
        cli_error(NULL, 0, 0, "bench: %s", diag.msg);
        goto out;
    }
    rc = 1;
    if (!us_bench_run(b, a.jobs, cli_bench_progress, &prog, &diag)) {
        cli_error(NULL, 0, 0, "bench: %s", diag.msg);
        goto out;
    }
    prov = calloc(1, sizeof *prov);
    if (!prov || !us_prov_init(prov, argc, argv)) {
        cli_error(NULL, 0, 0, "out of memory");
        goto out;
    }
    prov->math = "sfu";
    prov->cfg = &b->base;
    us_prov_add_file(prov, a.o.list);
    us_prov_add_file(prov, a.config);
    for (unsigned p = 0; p < b->nprogs; p++) {
        us_prov_add_file(prov, b->progs[p].path);
        us_prov_add_file(prov, b->progs[p].scene);
        if (b->progs[p].has_mesa) {   /* the glmark2 report's Mesa rows */
            char tgsi[4096];
            int n = snprintf(tgsi, sizeof tgsi, "%s.tgsi", b->progs[p].path);
            if (n > 0 && (size_t)n < sizeof tgsi)
                us_prov_add_file(prov, tgsi);
        }
    }
    b->prov = prov;
    for (unsigned j = 0; j < b->nprogs * b->nvars; j++)
        if (!b->res[j].ok || !b->res[j].identical)
            cli_error(b->progs[j / b->nvars].path, 0, 0, "%s: %s",
                      b->vars[j % b->nvars].name, b->res[j].err);
    if (a.json)
        us_bench_json(stdout, b);
    else
        us_bench_table(stdout, b);
    if (!cli_flush_stdout())
        goto out;
    const char *inputs[2] = { a.config, a.o.list };
    const struct cli_bench_out o = { b, sh_csv, sh_json, sh_report, sh_plots,
                                     us_bench_plot_names };
    if (a.out && !cli_bench_write(a.out, inputs, &o, !a.no_plots))
        goto out;
    rc = b->failures ? 1 : 0;
out:
    if (prov)
        us_prov_free(prov);
    free(prov);
    us_bench_free(b);
    free(b);
    free(config);
    return rc;
}
