/* ushader compute KERNEL --groups X[,Y,Z] --buffer B=FILE[,SIZE] ...: a
 * compute launch (docs/COMPUTE.md) on the reference interpreter or a core
 * model, buffers read from and written to binary files.  With several
 * models, --jobs of their launches run at once, each on buffers of its
 * own, checked and reported in model order; one launch is never split
 * (its workgroups' order defines its memory: docs/COMPUTE.md). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/trace.h"
#include "gfx/gfx.h"
#include "shader/core.h"
#include "shader/host_thread.h"

static const char usage[] =
    "usage: ushader compute KERNEL --groups X[,Y[,Z]] [--local X[,Y[,Z]]]\n"
    "                       [--buffer B=[FILE][,SIZE]]... [--out B=FILE]...\n"
    "                       [--param local[N]=V,...]... [--arch A[,B...]|all]\n"
    "                       [--config F.ini] [--set KEY=V]... [--sfu-math]\n"
    "                       [--json] [--jobs N]\n"
    "                       [--trace FILE [--trace-window FROM:TO]\n"
    "                       [--trace-max-events N]]\n"
    "  Launch a compute kernel (a !!USHADERcp1.0 program, or GLSL compute: a\n"
    "  .comp file) over X x Y x Z workgroups and write its buffers back.\n"
    "  --groups  workgroup counts (missing ones are 1)\n"
    "  --local   the workgroup size, replacing the kernel's GROUP_SIZE\n"
    "  --buffer  binding B (0..31) starts with FILE's bytes (none: zeros),\n"
    "            SIZE bytes long (default: FILE's size; a larger SIZE pads\n"
    "            with zeros, a smaller one is an error); unbound buffers are\n"
    "            empty, so every access to them is out of bounds\n"
    "  --out     write binding B to FILE after the launch (atomically)\n"
    "  --param   program.local[N] or program.env[N] (a uniform): up to 4\n"
    "            values; an integer value is written 5u, -3i or 0x1f\n"
    "  --arch    what runs it: functional (the reference interpreter, the\n"
    "            default) or a core model: scalar, simd4, vliw, superscalar,\n"
    "            hetero, simt; a comma list or all launches on each model in\n"
    "            turn from the same buffers: their memories must be\n"
    "            identical (else exit 1, no --out written); the statistics\n"
    "            are per model (JSON: \"models\", one statistics object each)\n"
    "  --jobs N  with several --arch models, N of their launches at once on\n"
    "            host threads, 1..256 (default: the online CPUs), each on\n"
    "            its own copy of the buffers; the output is the same for\n"
    "            every N.  One launch always runs its workgroups in the\n"
    "            reference order on one thread (docs/COMPUTE.md)\n"
    "  --config, --set  the model's knobs (ushader config --list); the\n"
    "            instruction budget (max_instructions) applies to every --arch\n"
    "  --sfu-math  RCP RSQ EX2 LG2 SIN COS POW with the modelled SFU (its\n"
    "            [sfu] keys from --config and --set sfu.KEY=V) instead of the\n"
    "            correctly rounded functions (us_math_exact) compute uses by\n"
    "            default, unlike run, render and piglit: the compute suite's C\n"
    "            references are exact (docs/COMPUTE_SUITE.md)\n"
    "  --json    the report as one JSON object\n"
    "  --isa     a seed's kernel (ushader compute --isa X --help)\n"
    "  With one core model (--arch NAME):\n"
    CLI_TRACE_USAGE
    "  Prints the launch, the memory counts (loads, stores, atomics, bytes,\n"
    "  out-of-bounds accesses) and, on a model, its statistics\n"
    "  (docs/METRICS.md).  Buffers count against the memory budget of a run\n"
    "  (README \"Limits\").  Exit status: 0 success, 1 a failed launch or an\n"
    "  I/O error, 2 a bad command line.\n";

enum { MAX_OPTS = 64 };

struct binding {
    bool given;
    char *file;            /* NULL: zeros; owned                         */
    uint64_t size;         /* UINT64_MAX: the file's                      */
    const char *out;       /* --out, or NULL                              */
};

struct compute_args {
    int argc;              /* the command line, for provenance            */
    char **argv;
    const char *kernel, *arch, *config;
    struct cli_arch models;
    uint32_t groups[3];
    uint32_t local[3];     /* 0: the kernel's                             */
    bool json, sfu_math;
    unsigned jobs;         /* --jobs: models launched at once             */
    struct cli_trace_args trace;   /* --trace: the model's events       */
    struct binding buf[US_MAX_BUFFERS];
    const char *sets[MAX_OPTS], *params[MAX_OPTS];
    unsigned nsets, nparams;
};

static int bad(const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    cli_error(NULL, 0, 0, "compute: %s", msg);
    return 2;
}

/* "X[,Y[,Z]]" of positive counts; missing ones are 1. */
static bool parse_dims(const char *s, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int d = 0; d < 3; d++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || errno || v == 0 || v > UINT32_MAX || *s == '-' ||
            (*end && *end != ','))
            return false;
        out[d] = (uint32_t)v;
        if (!*end)
            return true;
        s = end + 1;
    }
    return false;
}

/* "B=[FILE][,SIZE]" (--buffer) or "B=FILE" (--out). */
static int parse_binding(struct compute_args *a, const char *opt,
                         const char *arg)
{
    char *end;
    errno = 0;
    unsigned long b = strtoul(arg, &end, 10);
    if (end == arg || *end != '=' || errno || b >= US_MAX_BUFFERS)
        return bad("bad binding '%s' (B=..., B 0..31)", arg);
    struct binding *bd = &a->buf[b];
    const char *v = end + 1;
    if (!strcmp(opt, "--out")) {
        if (!*v)
            return bad("--out '%s' needs a file", arg);
        bd->out = v;
        return 0;
    }
    if (bd->given)
        return bad("buffer binding given twice: '%s'", arg);
    bd->given = true;
    bd->size = UINT64_MAX;
    const char *comma = strrchr(v, ',');
    if (comma) {
        char *e;
        errno = 0;
        unsigned long long n = strtoull(comma + 1, &e, 10);
        if (e == comma + 1 || *e || errno || comma[1] == '-' ||
            n > UINT32_MAX)
            return bad("--buffer '%s': SIZE must be 0..4294967295 bytes", arg);
        bd->size = n;
    }
    size_t flen = comma ? (size_t)(comma - v) : strlen(v);
    if (!flen && bd->size == UINT64_MAX)
        return bad("--buffer '%s' needs a file or a size", arg);
    if (flen) {
        char *f = strndup(v, flen);
        if (!f)
            return bad("out of memory (%s)", arg);
        bd->file = f;
    }
    return 0;
}

static int parse_args(int argc, char **argv, struct compute_args *a)
{
    memset(a, 0, sizeof *a);
    a->arch = "functional";
    a->jobs = cli_default_jobs();
    cli_trace_args_init(&a->trace);
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--json", false, false, NULL },
        { "--sfu-math", false, false, NULL },
        { "--groups", true, false, NULL },
        { "--local", true, false, NULL }, { "--buffer", true, true, NULL },
        { "--out", true, true, NULL }, { "--param", true, true, NULL },
        { "--arch", true, false, NULL }, { "--config", true, false, NULL },
        { "--set", true, true, NULL }, { "--jobs", true, false, NULL },
        CLI_TRACE_OPTS,
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return -1;
        }
    if (!cli_check_options("compute", argc, argv, 1, options))
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "--help")) {
            fputs(usage, stdout);
            return -1;
        }
        if (!strcmp(o, "--json")) {
            a->json = true;
            continue;
        }
        if (!strcmp(o, "--sfu-math")) {
            a->sfu_math = true;
            continue;
        }
        int trc;
        if (i + 1 < argc &&
            cli_trace_option("compute", o, argv[i + 1], &a->trace, &trc)) {
            if (trc)
                return trc;
            i++;
            continue;
        }
        static const char *const valued[] = {
            "--groups", "--local", "--buffer", "--out", "--param", "--arch",
            "--config", "--set", "--jobs", NULL
        };
        bool takes = false;
        for (int k = 0; valued[k]; k++)
            takes |= !strcmp(o, valued[k]);
        if (!takes) {
            if (o[0] == '-' && o[1])
                return bad("unknown option '%s' (ushader compute --help)", o);
            if (a->kernel)
                return bad("one KERNEL at a time ('%s')", o);
            a->kernel = o;
            continue;
        }
        if (i + 1 == argc)
            return bad("%s needs a value", o);
        const char *v = argv[++i];
        int rc = 0;
        if (!strcmp(o, "--groups")) {
            if (!parse_dims(v, a->groups))
                return bad("--groups wants X[,Y[,Z]] of counts >= 1, not '%s'",
                           v);
        } else if (!strcmp(o, "--local")) {
            if (!parse_dims(v, a->local))
                return bad("--local wants X[,Y[,Z]] of sizes >= 1, not '%s'", v);
        } else if (!strcmp(o, "--buffer") || !strcmp(o, "--out")) {
            rc = parse_binding(a, o, v);
        } else if (!strcmp(o, "--arch")) {
            a->arch = v;
            if (!cli_parse_arch("compute", v, CLI_ARCH_MANY, NULL, &a->models))
                return 2;
        } else if (!strcmp(o, "--config")) {
            a->config = v;
        } else if (!strcmp(o, "--jobs")) {
            if (!cli_parse_jobs("compute", v, &a->jobs))
                return 2;
        } else if (!strcmp(o, "--set") || !strcmp(o, "--param")) {
            bool set = !strcmp(o, "--set");
            unsigned *n = set ? &a->nsets : &a->nparams;
            if (*n == MAX_OPTS)
                return bad("more than 64 of %s", o);
            (set ? a->sets : a->params)[(*n)++] = v;
        }
        if (rc)
            return rc;
    }
    if (!a->kernel || !a->groups[0]) {
        fputs(usage, stderr);
        return 2;
    }
    int trc = cli_trace_check("compute", &a->trace);
    if (!trc && a->trace.path && a->models.count != 1)
        return bad("--trace traces one core model (--arch NAME), not %s",
                   a->models.count ? "a list" : "the functional interpreter");
    return trc;
}

/* One --param value: a float, or an integer's bits (5u, -3i, 0x1f). */
static bool param_value(const char *s, size_t len, float *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    bool hex = len > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    char last = buf[len - 1];
    if (hex || last == 'u' || last == 'i') {
        if (!hex)
            buf[len - 1] = '\0';
        long long v = strtoll(buf, &end, 0);
        if (*end || errno || v < INT32_MIN || v > (long long)UINT32_MAX ||
            (last == 'u' && buf[0] == '-'))
            return false;
        uint32_t u = (uint32_t)v;
        memcpy(out, &u, sizeof u);
        return true;
    }
    *out = strtof(buf, &end);
    return !*end && !errno;
}

/* "local[N]=..." / "env[N]=..." (the "program." prefix optional). */
static bool apply_param(const char *arg, const struct us_program *prog,
                        struct us_glstate *gl)
{
    const char *s = arg;
    if (!strncmp(s, "program.", 8))
        s += 8;
    bool env = !strncmp(s, "env[", 4);
    if (!env && strncmp(s, "local[", 6)) {
        cli_error(NULL, 0, 0, "compute: --param '%s': expected local[N]= or "
                  "env[N]=", arg);
        return false;
    }
    s += env ? 4 : 6;
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    unsigned limit = env ? US_MAX_ENV_PARAMS : US_MAX_LOCAL_PARAMS;
    if (end == s || errno || n >= limit || end[0] != ']' || end[1] != '=') {
        cli_error(NULL, 0, 0, "compute: --param '%s': bad index (0..%u)", arg,
                  limit - 1);
        return false;
    }
    float *dst = env ? gl->env[prog->stage][n] : gl->local[prog->stage][n];
    const char *v = end + 2;
    for (int c = 0; c < 4; c++) {
        size_t len = strcspn(v, ",");
        if (!param_value(v, len, &dst[c])) {
            cli_error(NULL, 0, 0, "compute: --param '%s': bad value '%.*s'",
                      arg, (int)len, v);
            return false;
        }
        if (!v[len])
            return true;
        v += len + 1;
    }
    cli_error(NULL, 0, 0, "compute: --param '%s': more than 4 values", arg);
    return false;
}

/* The buffers' initial contents, charged to the run's budget. */
static bool load_buffers(const struct compute_args *a, struct us_memory *mem,
                         struct gfx_budget *budget)
{
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++) {
        const struct binding *bd = &a->buf[b];
        if (!bd->given)
            continue;
        char *data = NULL;
        size_t len = 0;
        struct us_diag d = { 0 };
        if (bd->file &&
            !gfx_read_file_charged(bd->file, (size_t)UINT32_MAX, budget,
                                   &data, &len, &d)) {
            cli_error(NULL, 0, 0, "compute: %s", d.msg);
            return false;
        }
        uint64_t size = bd->size == UINT64_MAX ? len : bd->size;
        if (size < len) {
            cli_error(bd->file, 0, 0, "%zu bytes, more than the buffer's %" PRIu64,
                      len, size);
            free(data);
            return false;
        }
        uint8_t *buf = NULL;
        char what[32];
        snprintf(what, sizeof what, "buffer %u", b);
        if (!gfx_budget_take(budget, (size_t)size + 1, 1, what, &d)) {
            cli_error(NULL, 0, 0, "compute: %s", d.msg);
            free(data);
            return false;
        }
        if (!(buf = calloc((size_t)size + 1, 1))) {
            cli_error(NULL, 0, 0, "compute: %s: out of memory", what);
            free(data);
            return false;
        }
        if (len)
            memcpy(buf, data, len);
        free(data);
        mem->buf[b] = (struct us_buffer){ buf, (uint32_t)size };
    }
    return true;
}

static void print_report(const struct compute_args *a,
                         const struct us_config *cfg,
                         const struct us_program *prog, uint64_t items,
                         const struct us_mem_counts *mc,
                         const struct us_stats *st, unsigned nst)
{
    const uint16_t *gs = prog->group_size;
    if (a->json) {
        const char *inputs[US_MAX_BUFFERS + 2] = { a->kernel, a->config };
        size_t n = 2;
        for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
            if (a->buf[b].file)
                inputs[n++] = a->buf[b].file;
        printf("{\n");
        cli_json_head(a->argc, a->argv, inputs, n,
                      a->sfu_math ? "sfu" : "exact", cfg);
        printf("\"kernel\": ");
        cli_json_string(stdout, a->kernel);
        printf(", \"arch\": ");
        cli_json_string(stdout, a->arch);
        printf(", \"groups\": [%u, %u, %u], \"local\": [%u, %u, %u], "
               "\"work_items\": %" PRIu64 ", \"memory\": {\"loads\": %" PRIu64
               ", \"stores\": %" PRIu64 ", \"atomics\": %" PRIu64
               ", \"bytes\": %" PRIu64 ", \"oob\": %" PRIu64 "}",
               a->groups[0], a->groups[1], a->groups[2], gs[0], gs[1], gs[2],
               items, mc->loads, mc->stores, mc->atomics, mc->bytes, mc->oob);
        if (nst == 1) {
            printf(", \"stats\": ");
            us_stats_print(stdout, st, true);
        } else if (nst > 1) {
            printf(", \"models\": [");
            for (unsigned m = 0; m < nst; m++) {
                printf(m ? ", " : "");
                us_stats_print(stdout, &st[m], true);
            }
            printf("]");
        }
        printf("}\n");
        return;
    }
    printf("compute: %s on %s: %u x %u x %u workgroups of %u x %u x %u "
           "(%" PRIu64 " work-items)\n", a->kernel, a->arch, a->groups[0],
           a->groups[1], a->groups[2], gs[0], gs[1], gs[2], items);
    printf("memory: %" PRIu64 " loads, %" PRIu64 " stores, %" PRIu64
           " atomics, %" PRIu64 " bytes, %" PRIu64 " out of bounds\n",
           mc->loads, mc->stores, mc->atomics, mc->bytes, mc->oob);
    for (unsigned m = 0; m < nst; m++)
        us_stats_print(stdout, &st[m], false);
}

/* No --out may replace an input (the kernel, the config, a buffer's
 * file): checked before any work. */
static bool check_outputs(const struct compute_args *a)
{
    const char *inputs[US_MAX_BUFFERS + 2] = { a->kernel, a->config };
    size_t n = 2;
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        if (a->buf[b].file)
            inputs[n++] = a->buf[b].file;
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        if (a->buf[b].out && !cli_check_output(a->buf[b].out, inputs, n))
            return false;
    return !a->trace.path || cli_check_output(a->trace.path, inputs, n);
}

static bool write_outputs(const struct compute_args *a,
                          const struct us_memory *mem)
{
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++) {
        const char *out = a->buf[b].out;
        if (out && !cli_write_file(out, mem->buf[b].data ? (const void *)
                                   mem->buf[b].data : "", mem->buf[b].size))
            return false;
    }
    return true;
}

/* Whether two launches left the same buffers and memory counts. */
static bool same_memory(const struct us_memory *x, const struct us_memory *y)
{
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        if (x->buf[b].size != y->buf[b].size ||
            (x->buf[b].size &&
             memcmp(x->buf[b].data, y->buf[b].data, x->buf[b].size)))
            return false;
    return !memcmp(&x->counts, &y->counts, sizeof x->counts);
}

static void free_memory(struct us_memory *mem)
{
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        free(mem->buf[b].data);
    memset(mem, 0, sizeof *mem);
}

/* One launch on model m, traced when --trace asks; false after an error
 * (in *d, or reported when the trace fails). */
static bool launch(const struct compute_args *a, const struct us_core_model *m,
                   const struct us_config *cfg, const struct us_program *prog,
                   const struct us_exec_env *env, struct us_stats *st,
                   struct us_diag *d)
{
    struct us_event_sink sink;
    struct cli_trace *tr = NULL;
    if (a->trace.path && !(tr = cli_trace_open(&a->trace, m->name, &sink)))
        return false;
    bool ok = us_core_run_compute_events(m, cfg, prog, env, a->groups, NULL,
                                         tr ? &sink : NULL, st, d);
    const char *inputs[US_MAX_BUFFERS + 2] = { a->kernel, a->config };
    size_t n = 2;
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        if (a->buf[b].file)
            inputs[n++] = a->buf[b].file;
    json_t *doc = !ok || !tr ? NULL
        : cli_trace_doc(a->argc, a->argv, inputs, n,
                        a->sfu_math ? "sfu" : "exact", cfg);
    /* a launch that failed early has no statistics */
    return cli_trace_close(tr, ok, doc, ok ? us_stats_get(st, "cycles") : 0);
}

/* One model's launch of a wave (models_run). */
struct model_launch {
    const struct compute_args *a;
    const struct us_core_model *m;
    const struct us_config *cfg;
    const struct us_program *prog;
    struct us_exec_env env;
    struct us_stats *st;
    struct us_diag d;
    bool ok;
    pthread_t tid;
    bool started;
};

static void *launch_worker(void *arg)
{
    struct model_launch *l = arg;
    l->ok = launch(l->a, l->m, l->cfg, l->prog, &l->env, l->st, &l->d);
    us_math_thread_end();
    return NULL;
}

/* Every --arch model from the same buffers, --jobs at a time, the first
 * into `mem`, the later ones into copies of their own, each loaded
 * against a budget of its own (at most jobs + 1 launches' buffers are
 * held at once).  In model order: the first failure is reported, and
 * every later model must leave the memory the first left.  False after
 * an error (reported). */
static bool models_run(const struct compute_args *a, const struct us_config *cfg,
                       const struct us_program *prog,
                       const struct us_exec_env *env, struct us_memory *mem,
                       struct us_stats *st)
{
    const struct us_core_model *list[sizeof a->models.mask * 8];
    unsigned n = 0;
    for (unsigned m = 0; us_models[m]; m++)
        if (a->models.mask >> m & 1)
            list[n++] = us_models[m];
    unsigned jobs = a->jobs > 1 && !a->trace.path ? a->jobs : 1;
    struct model_launch *l = calloc(jobs, sizeof *l);
    struct us_memory *copy = calloc(jobs, sizeof *copy);
    bool ok = l && copy;
    if (!ok)
        cli_error(NULL, 0, 0, "compute: out of memory");
    for (unsigned base = 0; ok && base < n; base += jobs) {
        unsigned k = n - base < jobs ? n - base : jobs;
        for (unsigned i = 0; ok && i < k; i++) {
            struct gfx_budget each;
            gfx_budget_init(&each);
            if (base + i && !load_buffers(a, &copy[i], &each))
                ok = false;
            l[i] = (struct model_launch){
                .a = a, .m = list[base + i], .cfg = cfg, .prog = prog,
                .env = *env, .st = &st[base + i],
            };
            l[i].env.mem = base + i ? &copy[i] : mem;
        }
        for (unsigned i = 1; ok && i < k; i++)
            l[i].started = us_thread_create(&l[i].tid, launch_worker,
                                           &l[i], i) == 0;
        if (ok)
            launch_worker(&l[0]);
        for (unsigned i = 1; ok && i < k; i++)
            if (l[i].started)
                pthread_join(l[i].tid, NULL);
            else
                launch_worker(&l[i]);
        for (unsigned i = 0; ok && i < k; i++) {
            if (!l[i].ok) {
                if (l[i].d.msg[0])
                    cli_error(a->kernel, l[i].d.line, l[i].d.col, "%s",
                              l[i].d.msg);
                ok = false;
            } else if (base + i && !same_memory(mem, &copy[i])) {
                cli_error(a->kernel, 0, 0, "compute: %s's memory differs "
                          "from %s's", list[base + i]->name, st[0].arch);
                ok = false;
            }
        }
        for (unsigned i = 0; i < k; i++)
            free_memory(&copy[i]);
    }
    free(l);
    free(copy);
    return ok;
}

static int compute(const struct compute_args *a)
{
    bool functional = a->models.count == 0;
    struct us_diag d = { 0 };
    if (!check_outputs(a))
        return 1;
    struct us_memory mem = { 0 };

    struct us_config cfg;
    us_config_default(&cfg);
    if (a->config && !cli_load_config(a->config, &cfg))
        return 1;
    for (unsigned i = 0; i < a->nsets; i++)
        if (!us_config_set(&cfg, a->sets[i], &d)) {
            cli_error(NULL, 0, 0, "compute: --set %s: %s", a->sets[i], d.msg);
            return 2;
        }
    for (unsigned m = 0; us_models[m]; m++)
        if ((a->models.mask >> m & 1) && !us_core_check(us_models[m], &cfg, &d)) {
            cli_error(NULL, 0, 0, "compute: %s", d.msg);
            return 2;
        }

    struct us_program prog;
    if (!cli_load_program(a->kernel, US_STAGE_COMPUTE, &prog))
        return 1;
    if (prog.stage != US_STAGE_COMPUTE) {
        cli_error(a->kernel, 0, 0, "not a compute program");
        us_program_free(&prog);
        return 1;
    }
    if (a->local[0]) {
        uint64_t n = (uint64_t)a->local[0] * a->local[1] * a->local[2];
        if (n > US_MAX_GROUP_INVOCATIONS) {
            cli_error(NULL, 0, 0, "compute: --local of %" PRIu64 " invocations "
                      "(limit %d)", n, US_MAX_GROUP_INVOCATIONS);
            us_program_free(&prog);
            return 2;
        }
        for (int k = 0; k < 3; k++)
            prog.group_size[k] = (uint16_t)a->local[k];
    }

    int rc = 1;
    struct gfx_budget budget;
    gfx_budget_init(&budget);
    struct us_glstate *gl = malloc(sizeof *gl);
    us_vec4 *params = calloc(prog.nparams + 1, sizeof *params);
    struct us_stats *st = NULL;
    struct us_sfu sfu;
    bool have_sfu = false;
    if (!gl || !params) {
        cli_error(NULL, 0, 0, "compute: out of memory");
        goto out;
    }
    us_glstate_init(gl);
    us_load_initial_locals(&prog, gl);
    for (unsigned i = 0; i < a->nparams; i++)
        if (!apply_param(a->params[i], &prog, gl)) {
            rc = 2;
            goto out;
        }
    us_resolve_params(&prog, gl, params);
    if (!load_buffers(a, &mem, &budget))
        goto out;
    uint64_t items = us_compute_items(&prog, a->groups, UINT32_MAX, &d);
    if (!items) {
        cli_error(a->kernel, 0, 0, "%s", d.msg);
        goto out;
    }
    struct us_math math = us_math_exact;
    if (a->sfu_math) {
        if (!us_sfu_init(&sfu, &cfg.sfu, &d)) {
            cli_error(NULL, 0, 0, "compute: SFU model: %s", d.msg);
            goto out;
        }
        have_sfu = true;
        us_sfu_math(&sfu, &math);
    }
    struct us_exec_env env = { .params = params, .math = &math, .mem = &mem };
    us_config_env(&cfg, &env);
    if (functional) {
        if (!us_compute_interpret(&prog, &env, a->groups, NULL, &d)) {
            cli_error(a->kernel, d.line, d.col, "%s", d.msg);
            goto out;
        }
    } else {
        st = calloc(a->models.count, sizeof *st);
        if (!st) {
            cli_error(NULL, 0, 0, "compute: out of memory");
            goto out;
        }
        if (!models_run(a, &cfg, &prog, &env, &mem, st))
            goto out;
    }
    print_report(a, &cfg, &prog, items, &mem.counts, st,
                 functional ? 0 : a->models.count);
    rc = write_outputs(a, &mem) ? 0 : 1;
out:
    free_memory(&mem);
    if (have_sfu)
        us_sfu_free(&sfu);
    free(st);
    free(params);
    free(gl);
    us_program_free(&prog);
    return rc;
}

int cmd_compute(int argc, char **argv)
{
    if (seed_isa_requested(argc, argv))
        return seed_cmd_compute(argc, argv);
    struct compute_args a;
    int rc = parse_args(argc, argv, &a);
    a.argc = argc;
    a.argv = argv;
    if (!rc)
        rc = compute(&a);
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        free(a.buf[b].file);
    return rc < 0 ? 0 : rc;
}
