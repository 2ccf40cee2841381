/* ushader piglit [--arch A[,B...]|all] [--exact-math] [--config F.ini] [--set KEY=V]...
 *                [--jobs N] [--results FILE.json] FILE|DIR...
 * ushader piglit summary RESULTS.json... (cli/cmd_piglit_summary.c)
 *
 * Run piglit shader_test files that use ARB programs, GLSL shaders or
 * compute programs (piglit/shtest.h):
 * one line per file (PASS, FAIL with the probe and the values seen, SKIP
 * with the reason), then "N passed, N failed, N skipped".  A file that
 * cannot run (malformed, a program that does not assemble) is reported as
 * `ushader: FILE:LINE:COL: error: ...` and counts as failed.
 *
 * A directory stands for every *.shader_test under it, recursively, in
 * byte order of the paths.  Files run on --jobs host threads; each
 * worker writes its file's lines into buffers, and they are printed in
 * the files' order as soon as every earlier file is done, so the output
 * (and --results) is the same for any N.  Each file has its own core
 * backend; the math (the SFU tables) is shared read-only. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/piglit.h"
#include "gfx/backend_core.h"
#include "gfx/gfx.h"
#include "piglit/shtest.h"
#include "shader/core.h"
#include "shader/host_thread.h"
#include "suite/provenance.h"

static const char usage[] =
    "usage: ushader piglit [--arch A[,B...]|all] [--exact-math] [--config F.ini]\n"
    "                      [--set KEY=V]... [--jobs N] [--results FILE.json]\n"
    "                      [--] FILE|DIR...\n"
    "       ushader piglit summary RESULTS.json... [--html DIR] [--json]\n"
    "                      [--all]   (ushader piglit summary --help)\n"
    "  Run piglit shader_test files with ARB vertex/fragment programs,\n"
    "  GLSL shaders (docs/GLSL.md) or compute shaders (docs/COMPUTE.md)\n"
    "  through the 3D pipeline and compute launches as piglit's\n"
    "  shader_runner does: draws, probes, uniforms, shader storage and\n"
    "  atomic counter buffers.  A DIR runs every *.shader_test under it,\n"
    "  recursively, in sorted order.\n"
    "  --arch A      what runs the programs and compute launches:\n"
    "                functional (the reference interpreter, the default) or\n"
    "                a core model: scalar, simd4, vliw, superscalar,\n"
    "                hetero, simt; a comma list or all runs every file on\n"
    "                each model in turn, a block per model between \"== MODEL\"\n"
    "                and its count (--results takes one model)\n"
    "  --exact-math  correctly rounded RCP RSQ EX2 LG2 SIN COS POW instead\n"
    "                of the modelled SFU (the default)\n"
    "  --config F.ini  an INI file ([core] knobs, [sfu] SFU keys), as for\n"
    "                run; --set applies over it\n"
    "  --set KEY=V   a knob of the model's configuration (ushader config\n"
    "                --list; sfu.KEY for the SFU); GL's workgroups of 1024\n"
    "                invocations need threads_per_proc x processors slots;\n"
    "                max_instructions applies to every --arch; varying_slots\n"
    "                is 32 here (Mesa llvmpipe's GL_MAX_VARYING_VECTORS, so\n"
    "                piglit's tests of more than 8 varyings run), not the\n"
    "                default 8 (GLES 2.0's minimum) every other command has\n"
    "  --jobs N      files run on N host threads, 1..256 (default: the\n"
    "                online CPUs); the output is the same for any N\n"
    "  --results F   also write the results as JSON (docs/METRICS.md,\n"
    "                schema piglit-results): every file's result, message\n"
    "                and hash; `ushader piglit summary` compares such files\n"
    "  --            the end of the options (options go before the files)\n"
    "  Prints PASS, FAIL or SKIP per file and a closing count; exits 1 when\n"
    "  any file failed.\n";

const char *const pg_result_names[PG_NRESULTS] = {
    "pass", "fail", "skip", "error",
};

/* ---- The files ------------------------------------------------------------ */

struct paths {
    char **v;
    size_t n, cap;
};

static bool paths_add(struct paths *p, char *s)
{
    if (!s)
        return false;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        char **v = realloc(p->v, cap * sizeof *v);
        if (!v) {
            free(s);
            return false;
        }
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = s;
    return true;
}

static void paths_free(struct paths *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i]);
    free(p->v);
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && !strcmp(s + n - k, suf);
}

/* Every *.shader_test under `dir`, appended to *p.  Symbolic links to
 * files are followed, links to directories are not (no cycles). */
static bool walk(const char *dir, struct paths *p)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_error(dir, 0, 0, "cannot open the directory: %s",
                  strerror(errno));
        return false;
    }
    bool ok = true;
    size_t dl = strlen(dir);
    bool slash = dl && dir[dl - 1] == '/';
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        size_t n = dl + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (!path) {
            ok = false;
            break;
        }
        snprintf(path, n, "%s%s%s", dir, slash ? "" : "/", e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0) {
            free(path);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            ok = walk(path, p);
            free(path);
        } else if (has_suffix(e->d_name, ".shader_test") &&
                   (S_ISREG(st.st_mode) ||
                    (S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
                     S_ISREG(st.st_mode)))) {
            if (!paths_add(p, path)) {
                cli_error(NULL, 0, 0, "piglit: out of memory");
                ok = false;
            }
        } else {
            free(path);
        }
    }
    closedir(d);
    return ok;
}

/* The operands: a file as given, a directory as its sorted files. */
static bool collect(char **args, int n, struct paths *p)
{
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            size_t from = p->n;
            if (!walk(args[i], p))
                return false;
            if (p->n == from) {
                cli_error(args[i], 0, 0, "no .shader_test file under this "
                          "directory");
                return false;
            }
            qsort(p->v + from, p->n - from, sizeof *p->v, by_bytes);
        } else if (!paths_add(p, strdup(args[i]))) {
            cli_error(NULL, 0, 0, "piglit: out of memory");
            return false;
        }
    }
    return true;
}

/* ---- One file --------------------------------------------------------------- */

/* What running one file produced. */
struct job {
    const char *path;
    enum pg_result result;
    unsigned line, col, probes, failed;
    char msg[400];
    bool readable;
    size_t bytes;
    uint64_t hash;
    char *out, *err;          /* its stdout and stderr text          */
    size_t out_len, err_len;
    bool backend_failed;      /* a batch on the core model failed     */
    struct us_diag backend_diag;
    const struct us_core_model *model;  /* NULL: functional           */
};

/* What every file shares (read-only while the workers run). */
struct piglit_run {
    const struct shtest_env *env;       /* math and functional backend */
    const struct us_config *cfg;
    struct job *jobs;
    size_t total;
    size_t nfiles;            /* jobs are model-major: a block per model */
    bool list;                /* --arch named several models            */
    /* the pool: taken, finished, printed; under `lock` */
    pthread_mutex_t lock;
    size_t next, printed;
    bool *done;
    bool print_failed;
};

/* A compute launch on the --arch core model (shtest_compute_fn). */
static bool core_compute(void *ctx, const struct us_program *prog,
                         const struct us_exec_env *env,
                         const uint32_t groups[3], struct us_diag *diag)
{
    const struct gfx_core_backend *cb = ctx;
    struct us_stats *st = malloc(sizeof *st);
    if (!st) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    bool ok = us_core_run_compute(cb->model, &cb->cfg, prog, env, groups,
                                  NULL, st, diag);
    free(st);
    return ok;
}

/* The file's bytes (regular files only, CLI_MAX_INPUT at most); false
 * with the reason in msg. */
static bool read_text(const char *path, char **text, size_t *len,
                      char *msg, size_t size)
{
    struct us_diag d = { 0 };
    size_t fsize;
    int fd = gfx_open_regular(path, &fsize, &d);
    if (fd < 0) {
        snprintf(msg, size, "%s", d.msg);
        return false;
    }
    if (fsize > CLI_MAX_INPUT) {
        close(fd);
        snprintf(msg, size, "file is larger than the %d MiB limit",
                 CLI_MAX_INPUT >> 20);
        return false;
    }
    char *buf = malloc(fsize + 1);
    size_t n = 0;
    ssize_t k = 1;
    while (buf && n < fsize &&
           ((k = read(fd, buf + n, fsize - n)) > 0 || (k < 0 && errno == EINTR)))
        n += k > 0 ? (size_t)k : 0;
    close(fd);
    if (!buf || k < 0) {
        snprintf(msg, size, "%s", buf ? strerror(errno) : "out of memory");
        free(buf);
        return false;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return true;
}

/* Run one file into *j (its lines into j->out and j->err). */
static void run_file(const struct piglit_run *pr, struct job *j)
{
    FILE *out = open_memstream(&j->out, &j->out_len),
         *err = open_memstream(&j->err, &j->err_len);
    if (!out || !err) {
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        j->out = j->err = NULL;
        j->result = PG_ERROR;
        snprintf(j->msg, sizeof j->msg, "out of memory");
        return;
    }
    const char *path = j->path;
    char *text = NULL;
    size_t len;
    if (!read_text(path, &text, &len, j->msg, sizeof j->msg)) {
        cli_error_to(err, path, 0, 0, "%s", j->msg);
        fprintf(out, "FAIL %s: cannot read the file\n", path);
        j->result = PG_ERROR;
        fclose(out);
        fclose(err);
        return;
    }
    j->readable = true;
    j->bytes = len;
    j->hash = us_fnv1a64(text, len);

    struct shtest_env env = *pr->env;
    struct gfx_core_backend *cb = NULL;
    if (j->model) {
        if (!(cb = malloc(sizeof *cb))) {
            j->result = PG_ERROR;
            snprintf(j->msg, sizeof j->msg, "out of memory");
            cli_error_to(err, path, 0, 0, "%s", j->msg);
            fprintf(out, "FAIL %s: error: %s\n", path, j->msg);
            free(text);
            fclose(out);
            fclose(err);
            return;
        }
        gfx_core_backend_init(cb, j->model, pr->cfg);
        env.backend = &cb->be;
        env.compute = core_compute;
        env.compute_ctx = cb;
    }
    struct shtest t;
    struct us_diag diag = { 0 };
    struct shtest_result r;
    if (!shtest_parse_slots(&t, text, len,
                            (unsigned)pr->cfg->v[US_KNOB_varying_slots],
                            &diag) ||
        !shtest_run(&t, &env, &r, &diag)) {
        cli_error_to(err, path, diag.line, diag.col, "%s", diag.msg);
        fprintf(out, "FAIL %s:%u:%u: error: %s\n", path, diag.line, diag.col,
                diag.msg);
        j->result = PG_ERROR;
        j->line = diag.line;
        j->col = diag.col;
        snprintf(j->msg, sizeof j->msg, "%s", diag.msg);
    } else {
        j->line = r.line;
        j->probes = r.probes;
        j->failed = r.failed;
        snprintf(j->msg, sizeof j->msg, "%s", r.msg);
        if (r.status == SHTEST_PASS) {
            fprintf(out, "PASS %s (%u probes)\n", path, r.probes);
            j->result = PG_PASS;
            j->msg[0] = '\0';
            j->line = 0;
        } else if (r.status == SHTEST_FAIL) {
            fprintf(out, "FAIL %s:%u: %s", path, r.line, r.msg);
            if (r.failed > 1)
                fprintf(out, " (%u of %u probes failed)", r.failed, r.probes);
            fputc('\n', out);
            j->result = PG_FAIL;
        } else {
            fprintf(out, "SKIP %s:%u: %s\n", path, r.line, r.msg);
            j->result = PG_SKIP;
        }
    }
    shtest_free(&t);
    free(text);
    if (cb) {
        j->backend_failed = cb->failed;
        j->backend_diag = cb->diag;
        free(cb);
    }
    if (fclose(out) | fclose(err)) {
        free(j->out);
        free(j->err);
        j->out = j->err = NULL;
    }
}

/* The closing count of jobs [from, to). */
static void print_count(const struct piglit_run *pr, size_t from, size_t to,
                        const char *model)
{
    unsigned count[PG_NRESULTS] = { 0 };
    for (size_t i = from; i < to; i++)
        count[pr->jobs[i].result]++;
    printf("%s%s%u passed, %u failed, %u skipped\n", model ? model : "",
           model ? ": " : "", count[PG_PASS], count[PG_FAIL] + count[PG_ERROR],
           count[PG_SKIP]);
}

/* Print the finished files that follow the printed ones (under lock); with
 * a list of models, each model's block between its name and its count. */
static void print_ready(struct piglit_run *pr)
{
    for (; pr->printed < pr->total && pr->done[pr->printed]; pr->printed++) {
        size_t i = pr->printed;
        struct job *j = &pr->jobs[i];
        if (pr->list && i % pr->nfiles == 0)
            printf("== %s\n", j->model->name);
        if (!j->out) {
            pr->print_failed = true;
            continue;
        }
        fflush(stdout);
        fwrite(j->err, 1, j->err_len, stderr);
        fwrite(j->out, 1, j->out_len, stdout);
        free(j->out);
        free(j->err);
        j->out = j->err = NULL;
        if (pr->list && (i + 1) % pr->nfiles == 0)
            print_count(pr, i + 1 - pr->nfiles, i + 1, j->model->name);
    }
}

static void *worker(void *arg)
{
    struct piglit_run *pr = arg;
    for (;;) {
        pthread_mutex_lock(&pr->lock);
        size_t i = pr->next < pr->total ? pr->next++ : pr->total;
        pthread_mutex_unlock(&pr->lock);
        if (i == pr->total)
            break;
        run_file(pr, &pr->jobs[i]);
        pthread_mutex_lock(&pr->lock);
        pr->done[i] = true;
        print_ready(pr);
        pthread_mutex_unlock(&pr->lock);
    }
    us_math_thread_end();
    return NULL;
}

/* Run every job on `jobs` host threads (the caller is one of them). */
static bool run_all(struct piglit_run *pr, unsigned jobs)
{
    if (!(pr->done = calloc(pr->total ? pr->total : 1, sizeof *pr->done)) ||
        pthread_mutex_init(&pr->lock, NULL)) {
        free(pr->done);
        cli_error(NULL, 0, 0, "piglit: out of memory");
        return false;
    }
    if (jobs > pr->total)
        jobs = pr->total ? (unsigned)pr->total : 1;
    pthread_t *tid = calloc(jobs, sizeof *tid);
    unsigned started = 0;
    /* a thread that cannot be created leaves its share to the others */
    for (unsigned i = 1; tid && i < jobs; i++)
        if (us_thread_create(&tid[started], worker, pr, i) == 0)
            started++;
    worker(pr);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    pthread_mutex_destroy(&pr->lock);
    free(pr->done);
    if (pr->print_failed) {
        cli_error(NULL, 0, 0, "piglit: out of memory");
        return false;
    }
    return true;
}

/* ---- --results ------------------------------------------------------------- */

static json_t *job_json(const struct job *j)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)j->hash);
    json_object_set_new(o, "path", us_json_text(j->path));
    json_object_set_new(o, "result", json_string(pg_result_names[j->result]));
    if (j->result != PG_PASS) {
        json_object_set_new(o, "message", us_json_text(j->msg));
        json_object_set_new(o, "line", json_integer(j->line));
    }
    if (j->result == PG_ERROR && j->col)
        json_object_set_new(o, "col", json_integer(j->col));
    json_object_set_new(o, "probes", json_integer(j->probes));
    json_object_set_new(o, "failed_probes", json_integer(j->failed));
    if (j->readable) {
        json_object_set_new(o, "bytes", json_integer((json_int_t)j->bytes));
        json_object_set_new(o, "fnv1a64", json_string(hash));
    }
    return o;
}

static bool write_results(const char *file, const struct piglit_run *pr,
                          const struct us_prov *prov, const char *arch,
                          const unsigned count[PG_NRESULTS])
{
    json_t *doc = json_object(), *tests = json_array(),
           *totals = json_object(), *pj = us_prov_json(prov);
    bool ok = doc && tests && totals && pj;
    if (ok) {
        json_object_set_new(doc, "schema_version",
                            json_integer(US_JSON_SCHEMA_VERSION));
        json_object_set_new(doc, "provenance", pj);
        pj = NULL;
        json_object_set_new(doc, "arch", json_string(arch));
        json_object_set_new(totals, "files", json_integer((json_int_t)
                                                           pr->total));
        for (unsigned k = 0; k < PG_NRESULTS; k++)
            json_object_set_new(totals, pg_result_names[k],
                                json_integer(count[k]));
        json_object_set_new(doc, "totals", totals);
        totals = NULL;
        for (size_t i = 0; ok && i < pr->total; i++) {
            json_t *o = job_json(&pr->jobs[i]);
            ok = o && json_array_append_new(tests, o) == 0;
        }
        json_object_set_new(doc, "tests", tests);
        tests = NULL;
    }
    char *s = ok ? json_dumps(doc, US_JSON_FLAGS) : NULL;
    json_decref(doc);
    json_decref(tests);
    json_decref(totals);
    json_decref(pj);
    if (!s) {
        cli_error(file, 0, 0, "out of memory");
        return false;
    }
    size_t n = strlen(s);
    s[n] = '\n';   /* json_dumps's NUL becomes the last newline */
    ok = cli_write_file(file, s, n + 1);
    free(s);
    return ok;
}

/* ---- The command ------------------------------------------------------------- */

int cmd_piglit(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "summary"))
        return cmd_piglit_summary(argc, argv);
    const char *arch = "functional", *results = NULL;
    bool exact = false;
    int first = 0;
    unsigned jobs = cli_default_jobs();
    struct us_config cfg;
    us_config_default(&cfg);
    /* piglit's tests are written for a GL implementation's limits: Mesa
     * llvmpipe's 32 varying vectors, not GLES 2.0's minimum of 8 */
    cfg.v[US_KNOB_varying_slots] = US_MAX_VARYINGS;
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--arch", true, false, NULL },
        { "--config", true, false, NULL }, { "--set", true, true, NULL },
        { "--exact-math", false, false, NULL },
        { "--jobs", true, false, NULL },
        { "--results", true, false, "a FILE.json" },
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("piglit", argc, argv, 1, options))
        return 2;
    const char *config = cli_option_value(argc, argv, 1, options, "--config");
    if (config && !cli_load_config(config, &cfg))
        return 2;
    struct cli_arch models = { .functional = true };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        struct us_diag d = { 0 };
        if (!strcmp(a, "--arch") && i + 1 < argc) {
            arch = argv[++i];
            if (!cli_parse_arch("piglit", arch, CLI_ARCH_MANY, NULL, &models))
                return 2;
        } else if (!strcmp(a, "--config") && i + 1 < argc) {
            i++;
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            if (!us_config_set(&cfg, argv[++i], &d)) {
                cli_error(NULL, 0, 0, "piglit: --set %s: %s", argv[i], d.msg);
                return 2;
            }
        } else if (!strcmp(a, "--jobs") && i + 1 < argc) {
            if (!cli_parse_jobs("piglit", argv[++i], &jobs))
                return 2;
        } else if (!strcmp(a, "--results") && i + 1 < argc) {
            results = argv[++i];
        } else if (!strcmp(a, "--exact-math")) {
            exact = true;
        } else if (!strcmp(a, "--")) {
            first = i + 1;
            break;
        } else if (a[0] == '-' && a[1]) {
            cli_error(NULL, 0, 0, "piglit: unknown option or missing value '%s'", a);
            fputs(usage, stderr);
            return 2;
        } else {
            first = i;
            break;
        }
    }
    if (!first || first >= argc) {
        fputs(usage, stderr);
        return 2;
    }
    for (int i = first; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--")) {
            cli_error(NULL, 0, 0, "piglit: options go before the files ('%s')",
                      argv[i]);
            return 2;
        }
    const struct us_core_model *list[sizeof models.mask * 8] = { NULL };
    unsigned nmodels = 0;
    for (unsigned m = 0; us_models[m]; m++) {
        struct us_diag cd = { 0 };
        if (!(models.mask >> m & 1))
            continue;
        if (!us_core_check(us_models[m], &cfg, &cd)) {
            cli_error(NULL, 0, 0, "piglit: --arch %s: %s", us_models[m]->name,
                      cd.msg);
            return 2;
        }
        list[nmodels++] = us_models[m];
    }
    if (results && nmodels > 1) {
        cli_error(NULL, 0, 0, "piglit: --results records one model's run, "
                  "not --arch %s's (one run per model; piglit summary "
                  "compares them)", arch);
        return 2;
    }
    struct paths files = { 0 };
    if (!collect(argv + first, argc - first, &files)) {
        paths_free(&files);
        return 2;
    }
    if (results) {
        /* the results file may not replace a test or the INI */
        const char **in = malloc((files.n + 1) * sizeof *in);
        bool ok = in != NULL;
        if (ok) {
            for (size_t i = 0; i < files.n; i++)
                in[i] = files.v[i];
            in[files.n] = config;
            ok = cli_check_output(results, in, files.n + 1);
        } else {
            cli_error(NULL, 0, 0, "piglit: out of memory");
        }
        free(in);
        if (!ok) {
            paths_free(&files);
            return 2;
        }
    }

    struct us_math math = us_math_exact;
    struct us_sfu sfu;
    bool have_sfu = false;
    if (!exact) {
        struct us_diag diag = { 0 };
        if (!us_sfu_init(&sfu, &cfg.sfu, &diag)) {
            cli_error(NULL, 0, 0, "piglit: SFU model: %s", diag.msg);
            paths_free(&files);
            return 1;
        }
        us_sfu_math(&sfu, &math);
        have_sfu = true;
    }
    /* the instruction budget of the configuration, for every --arch */
    struct gfx_shader_backend functional = gfx_backend_functional;
    functional.max_insts = (uint32_t)cfg.v[US_KNOB_max_instructions];
    functional.varying_slots = (unsigned)cfg.v[US_KNOB_varying_slots];
    struct shtest_env env = { .math = &math, .backend = &functional };
    /* functional: one block with no model */
    unsigned blocks = nmodels ? nmodels : 1;
    struct piglit_run pr = { .env = &env, .cfg = &cfg, .nfiles = files.n,
                             .total = files.n * blocks, .list = nmodels > 1 };
    pr.jobs = calloc(pr.total ? pr.total : 1, sizeof *pr.jobs);
    int rc = 1;
    if (!pr.jobs) {
        cli_error(NULL, 0, 0, "piglit: out of memory");
        goto out;
    }
    for (size_t i = 0; i < pr.total; i++) {
        pr.jobs[i].path = files.v[i % files.n];
        pr.jobs[i].model = list[i / files.n];
    }
    if (!run_all(&pr, jobs))
        goto out;
    unsigned count[PG_NRESULTS] = { 0 };
    const struct job *bf = NULL;   /* the first file a batch failed in */
    for (size_t i = 0; i < pr.total; i++) {
        count[pr.jobs[i].result]++;
        if (!bf && pr.jobs[i].backend_failed)
            bf = &pr.jobs[i];
    }
    rc = count[PG_FAIL] || count[PG_ERROR] ? 1 : 0;
    if (bf) {
        cli_error(NULL, 0, 0, "piglit: %s: %s", bf->model->name,
                  bf->backend_diag.msg);
        rc = 1;
    }
    print_count(&pr, 0, pr.total, NULL);
    if (results) {
        struct us_prov *prov = calloc(1, sizeof *prov);   /* 45 KiB */
        bool ok = prov && us_prov_init(prov, argc, argv);
        if (ok) {
            prov->math = exact ? "exact" : "sfu";
            prov->cfg = &cfg;
            us_prov_add_file(prov, config);
            ok = write_results(results, &pr, prov, arch, count);
        } else {
            cli_error(NULL, 0, 0, "piglit: out of memory");
        }
        if (prov)
            us_prov_free(prov);
        free(prov);
        if (!ok)
            rc = 1;
    }
out:
    if (pr.jobs)
        for (size_t i = 0; i < pr.total; i++) {
            free(pr.jobs[i].out);
            free(pr.jobs[i].err);
        }
    free(pr.jobs);
    paths_free(&files);
    if (have_sfu)
        us_sfu_free(&sfu);
    return rc;
}
