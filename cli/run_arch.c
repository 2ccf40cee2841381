/* ushader run PROG --arch A|all: N threads on core models
 * (shader/core.h), their outputs compared with the reference
 * interpreter's, and their metrics (docs/METRICS.md); cli/run.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cli/run.h"
#include "isa/scalar.h"

/* A deterministic value in [-1, 1) for thread i, input slot s, comp c. */
static float gen_value(unsigned i, unsigned s, unsigned c)
{
    struct us_rng r = { 0x9E3779B97F4A7C15ull ^
                        ((uint64_t)i * 1000003u + s * 31u + c + 1) };
    us_rng_next(&r);
    uint64_t v = us_rng_next(&r) >> 40;  /* 24 bits: exact in binary32 */
    return (float)v / (float)(1u << 23) - 1.0f;
}

/* The --inputs file's lines that hold settings (comments and blank lines
 * dropped), as pointers into `text` (modified in place); the array is
 * charged to `mem` as it grows. */
static bool split_lines(char *text, struct gfx_budget *mem, char ***lines,
                        unsigned *n, struct us_diag *diag)
{
    unsigned cap = 0;
    *lines = NULL;
    *n = 0;
    for (char *p = text; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        if (p[strspn(p, " \t\r")] != '\0') {
            if (*n == cap) {
                unsigned more = cap ? cap : 64;
                if (!gfx_budget_take(mem, more, sizeof **lines,
                                     "the input lines", diag))
                    return false;
                cap += more;
                char **l = realloc(*lines, cap * sizeof *l);
                if (!l)
                    return gfx_fail(diag, 0, 0, "out of memory");
                *lines = l;
            }
            (*lines)[(*n)++] = p;
        }
        p = nl ? nl + 1 : NULL;
    }
    return true;
}

/* Apply one --inputs line (BINDING=x,y,z,w words) to a thread. */
static bool apply_line(const char *line, enum us_stage stage,
                       unsigned varying_slots, struct us_thread *t)
{
    char *buf = strdup(line);   /* strtok_r writes; a line of any length */
    if (!buf) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t\r", &save); w;
         w = strtok_r(NULL, " \t\r", &save)) {
        struct setting st;
        unsigned count = 0, slot;
        if (!run_add_setting("--inputs", w, &st, &count) ||
            !run_resolve_input(&st, stage, varying_slots, &slot)) {
            free(buf);
            return false;
        }
        memcpy(t->input[slot], st.value, sizeof t->input[slot]);
    }
    free(buf);
    return true;
}

/* Where the run's threads come from: thread i's record is made the same
 * way for the reference and for every model, so a model's window of
 * records can be refilled as threads stream through it. */
struct tsrc {
    const struct run_args *a;
    const struct run_env *e;
    const struct us_program *prog;
    char **lines;
    unsigned nlines, varying_slots;
};

/* Thread i's registers reset (all temps, or only those the program
 * declares: what it can read) and its inputs set; false after an error
 * in an --inputs line or an --attrib. */
static bool fill_thread(const struct tsrc *s, unsigned i, struct us_thread *t,
                        bool all_temps)
{
    const struct us_program *prog = s->prog;
    if (all_temps)
        us_thread_reset(t);
    else
        us_thread_reset_for(t, prog);
    unsigned nin = prog->stage == US_STAGE_VERTEX ? US_VIN_COUNT
                                                  : US_FIN_COUNT;
    if (s->e->ninputs) {
        memcpy(t->input, s->e->inputs[i], sizeof t->input);
    } else if (s->lines) {
        if (!apply_line(s->lines[i % s->nlines], prog->stage,
                        s->varying_slots, t))
            return false;
    } else {
        for (unsigned j = 0; j < nin; j++)
            if ((prog->inputs_read >> j) & 1)
                for (unsigned c = 0; c < 4; c++)
                    t->input[j][c] = gen_value(i, j, c);
    }
    for (unsigned j = 0; j < s->a->nattribs; j++) {
        unsigned slot;
        if (!run_resolve_input(&s->a->attribs[j], prog->stage,
                               s->varying_slots, &slot))
            return false;
        memcpy(t->input[slot], s->a->attribs[j].value, sizeof t->input[slot]);
    }
    return true;
}

/* The reference interpreter's results, compactly: per thread the outputs
 * the program writes (nout of them, slots slot[]) and `killed`. */
struct refs {
    unsigned nout;
    uint8_t slot[US_MAX_OUTPUTS];
    us_vec4 *out;     /* n x nout */
    bool *killed;     /* n        */
};

static bool outputs_equal(const struct refs *r, unsigned i,
                          const struct us_thread *t)
{
    const us_vec4 *o = &r->out[(size_t)i * r->nout];
    for (unsigned k = 0; k < r->nout; k++)
        if (memcmp(t->output[r->slot[k]], o[k], sizeof o[k]))
            return false;
    return t->killed == r->killed[i];
}

/* Thread i as the reference left it (inputs and outputs). */
static void ref_thread(const struct tsrc *s, const struct refs *r, unsigned i,
                       struct us_thread *t)
{
    (void)fill_thread(s, i, t, true);   /* it did for the reference */
    for (unsigned k = 0; k < r->nout; k++)
        memcpy(t->output[r->slot[k]], r->out[(size_t)i * r->nout + k],
               sizeof t->output[0]);
    t->killed = r->killed[i];
}

/* A model's view of the threads streamed through a window of records:
 * start fills a record, retire checks the results against the
 * reference's and frees it. */
struct stream_ctx {
    const struct tsrc *src;
    const struct refs *ref;
    unsigned *occupant;   /* window: tid + 1 of the thread in flight, or 0 */
    unsigned mask;
    bool overflow;        /* a thread started over one still in flight    */
    unsigned retired;
    unsigned diff;        /* the lowest thread whose outputs differ, or n  */
};

static void stream_start(void *ctx, unsigned tid, struct us_thread *t)
{
    struct stream_ctx *sc = ctx;
    unsigned *o = &sc->occupant[tid & sc->mask];
    /* (a model's reset takes its first threads again) */
    sc->overflow |= *o != 0 && *o != tid + 1;
    *o = tid + 1;
    (void)fill_thread(sc->src, tid, t, false);  /* it did for the reference */
}

static void stream_retire(void *ctx, unsigned tid, const struct us_thread *t)
{
    struct stream_ctx *sc = ctx;
    sc->occupant[tid & sc->mask] = 0;
    sc->retired++;
    if (tid < sc->diff && !outputs_equal(sc->ref, tid, t))
        sc->diff = tid;
}

/* The window of a model's run: a power of two well above the threads in
 * flight (processors x threads_per_proc <= alu_lanes x threads_per_proc
 * for every model), or 0 (every thread materialised) when that would not
 * be smaller than the run or the program computes (workgroups). */
static unsigned stream_window(const struct us_config *cfg,
                              const struct us_program *prog, unsigned n)
{
    if (prog->stage == US_STAGE_COMPUTE)
        return 0;
    uint64_t want = 16 * (uint64_t)cfg->v[US_KNOB_alu_lanes] *
                    (uint64_t)cfg->v[US_KNOB_threads_per_proc];
    uint64_t w = 256;
    while (w < want)
        w *= 2;
    return w < n ? (unsigned)w : 0;
}

static void print_thread_outputs(const struct us_program *prog,
                                 const struct us_thread *t, uint64_t written)
{
    unsigned n = prog->stage == US_STAGE_VERTEX ? US_VOUT_COUNT
                                                : US_FOUT_COUNT;
    bool first = true;
    for (unsigned i = 0; i < n; i++) {
        if (!((written >> i) & 1))
            continue;
        printf("%s%s = (", first ? "" : "  ", us_output_name(prog->stage, i));
        for (int c = 0; c < 4; c++) {
            if (c)
                printf(", ");
            run_print_number(t->output[i][c]);
        }
        printf(")");
        first = false;
    }
    if (prog->stage == US_STAGE_FRAGMENT)
        printf("%skilled: %s", first ? "" : "  ", t->killed ? "true" : "false");
}

/* The JSON document: one model's statistics as members, or several as
 * "models"; the threads' outputs (equal on every model) as "outputs". */
/* Thread i's results as the run shows them: the reference's, with a
 * position-invariant program's position computed from its input. */
struct shown {
    const struct tsrc *src;
    const struct refs *ref;
    const struct us_glstate *gl;
    bool invariant;
};

static void shown_thread(const struct shown *sh, unsigned i,
                         struct us_thread *t)
{
    ref_thread(sh->src, sh->ref, i, t);
    if (sh->invariant)
        us_position_invariant(sh->gl, t->input[US_VIN_POSITION],
                              t->output[US_VOUT_POSITION]);
}

static bool print_json(const struct run_args *a, const struct us_config *cfg,
                       const struct us_program *prog,
                       const struct us_stats *st, unsigned ran, bool one,
                       const struct shown *sh, struct us_thread *tmp,
                       unsigned n, uint64_t written)
{
    json_t *doc = run_json_doc(a, cfg), *outs = json_array();
    json_t *models = one ? NULL : json_array();
    bool ok = doc && outs && (one || models);
    if (ok && one) {
        json_t *s = us_stats_json(&st[0]);
        ok = s && !json_object_update(doc, s);
        json_decref(s);
    } else if (ok) {
        json_object_set_new(doc, "outputs_identical", json_true());
        for (unsigned m = 0; m < ran && ok; m++)
            ok = !json_array_append_new(models, us_stats_json(&st[m]));
        json_object_set_new(doc, "models", models);
        models = NULL;
    }
    for (unsigned i = 0; i < n && ok; i++) {
        shown_thread(sh, i, tmp);
        ok = !json_array_append_new(outs, run_json_thread(prog, tmp, written));
    }
    if (!ok) {
        json_decref(doc);
        json_decref(outs);
        json_decref(models);
        cli_error(a->file, 0, 0, "out of memory");
        return false;
    }
    json_object_set_new(doc, "outputs", outs);
    return run_json_print(doc);
}

/* One row of the --arch all table. */
static void table_row(const struct us_stats *st, double simd4_ad)
{
    double stalls = 0;
    static const char *const causes[] = {
        "stalls.dependency", "stalls.sfu", "stalls.lut", "stalls.texture",
        "stalls.fetch",
    };
    for (unsigned i = 0; i < 5; i++)
        stalls += us_stats_get(st, causes[i]);
    double ad = us_stats_get(st, "area_delay");
    printf("%-12s %9.0f %7.3f %8.4f %9.0f %10.0f %10.0f %7.3f %12.1f %7.3f\n",
           st->arch, us_stats_get(st, "cycles"),
           us_stats_get(st, "utilization"),
           us_stats_get(st, "threads_per_cycle"), stalls,
           us_stats_get(st, "instr_bits"), us_stats_get(st, "area"),
           us_stats_get(st, "area_simd4"),
           us_stats_get(st, "energy_per_thread"),
           simd4_ad > 0 ? ad / simd4_ad : 0.0);
}

/* One row of a run: a model, its configuration, its name in the report
 * ("simt:kgpu" for --preset configs/kgpu.ini). */
struct row {
    const struct us_core_model *m;
    struct us_config cfg;
    char name[48];
};

int run_arch(const struct run_args *a)
{
    /* one model: its statistics; a list, all or presets: the table */
    const struct us_core_model *one = a->models.one;
    struct us_config cfg;
    struct us_diag diag;
    int rc = run_config(a, &cfg);
    if (rc)
        return rc;
    unsigned nmodels = 0, nrows = 0;
    while (us_models[nmodels])
        nmodels++;
    struct row *rows = calloc(nmodels + a->npresets, sizeof *rows);
    if (!rows) {
        cli_error(NULL, 0, 0, "run: out of memory");
        return 1;
    }
    for (unsigned m = 0; m < nmodels; m++)
        if ((a->models.mask >> m) & 1) {
            rows[nrows] = (struct row){ .m = us_models[m], .cfg = cfg };
            snprintf(rows[nrows++].name, sizeof rows->name, "%s",
                     us_models[m]->name);
        }
    for (unsigned p = 0; p < a->npresets; p++) {
        struct row *r = &rows[nrows++];
        r->m = &us_model_simt;
        if (!run_load_config(a->presets[p], &r->cfg)) {
            free(rows);
            return 2;
        }
        const char *base = strrchr(a->presets[p], '/');
        base = base ? base + 1 : a->presets[p];
        int len = (int)strcspn(base, ".");
        snprintf(r->name, sizeof r->name, "simt:%.*s", len, base);
        /* a preset without [sfu] takes the run's */
        struct us_sfu_config def;
        us_sfu_config_default(&def);
        if (us_sfu_config_equal(&r->cfg.sfu, &def))
            r->cfg.sfu = cfg.sfu;
        else if (!a->exact && !us_sfu_config_equal(&r->cfg.sfu, &cfg.sfu)) {
            cli_error(a->presets[p], 0, 0, "its [sfu] differs from the run's: "
                      "one SFU computes every model's outputs, so that they "
                      "can be compared (give the keys with --config or --set "
                      "sfu.KEY=V)");
            free(rows);
            return 2;
        }
    }
    for (unsigned r = 0; r < nrows; r++)
        if (!us_core_check(rows[r].m, &rows[r].cfg, &diag)) {
            cli_error(NULL, 0, 0, "run: %s: %s", rows[r].name, diag.msg);
            free(rows);
            return 2;
        }
    struct us_program prog;
    if (!cli_load_program_slots(a->file, US_STAGE_ANY,
                                (unsigned)cfg.v[US_KNOB_varying_slots],
                                &prog)) {
        free(rows);
        return 1;
    }
    rc = 2;
    char *itext = NULL, **lines = NULL;
    unsigned nlines = 0;
    us_vec4 *params = NULL;
    struct us_thread *work = NULL;
    unsigned *occupant = NULL;
    struct refs ref = { 0 };
    struct us_stats *st = NULL;
    struct cli_trace *tr = NULL;
    struct us_event_sink sink;
    struct gfx_budget mem;
    gfx_budget_init(&mem);
    struct run_env *e = calloc(1, sizeof *e);
    struct us_glstate *gl = malloc(sizeof *gl);
    if (!e || !gl)
        goto oom;
    us_glstate_init(gl);
    us_load_initial_locals(&prog, gl);
    for (unsigned i = 0; i < a->nparams; i++)
        if (!run_apply_param(&a->params[i], prog.stage, gl))
            goto out;
    if (a->inputs) {
        /* the text is at most CLI_MAX_INPUT bytes: charged as that much
         * before it is read */
        size_t len;
        if (!gfx_budget_take(&mem, (size_t)CLI_MAX_INPUT + 1, 1,
                             "the --inputs file", &diag)) {
            cli_error(a->inputs, 0, 0, "%s", diag.msg);
            goto out;
        }
        if (!cli_read_file(a->inputs, &itext, &len))
            goto out;
        gfx_budget_give(&mem, (size_t)CLI_MAX_INPUT - len);
        if (!split_lines(itext, &mem, &lines, &nlines, &diag)) {
            cli_error(a->inputs, 0, 0, "%s", diag.msg);
            goto out;
        }
        if (nlines == 0) {
            cli_error(a->inputs, 0, 0, "no input lines");
            goto out;
        }
        if (!a->threads && nlines > MAX_THREADS) {
            cli_error(a->inputs, 0, 0, "%u input lines, more than the %d "
                      "threads of a run (--threads N runs N threads on "
                      "them)", nlines, MAX_THREADS);
            goto out;
        }
    }
    if (!run_setup(a, &cfg, &prog, a->threads ? (unsigned)a->threads
                                              : DEFAULT_THREADS, &mem, e)) {
        rc = 1;
        goto out;
    }
    unsigned n = e->ninputs ? e->ninputs
               : a->threads ? (unsigned)a->threads
               : a->inputs ? nlines : DEFAULT_THREADS;
    struct tsrc src = { a, e, &prog, lines, nlines,
                        (unsigned)cfg.v[US_KNOB_varying_slots] };
    for (unsigned o = 0; o < US_MAX_OUTPUTS; o++)
        if ((prog.outputs_written >> o) & 1)
            ref.slot[ref.nout++] = (uint8_t)o;
    /* Records: the whole run's, or each model's window of them (the
     * largest; a window a run outgrows doubles, see below). */
    unsigned cap = 0;
    for (unsigned r = 0; r < nrows; r++) {
        unsigned wr = stream_window(&rows[r].cfg, &prog, n);
        unsigned need = wr ? wr : n;
        cap = need > cap ? need : cap;
    }
    /* the reference's results and the models' records: charged first */
    char what[64];
    snprintf(what, sizeof what, "%u threads", n);
    if (!gfx_budget_take(&mem, n, ref.nout * sizeof *ref.out + 1, what,
                         &diag) ||
        !gfx_budget_take(&mem, cap, sizeof *work + sizeof *occupant, what,
                         &diag)) {
        cli_error(a->file, 0, 0, "%s", diag.msg);
        goto out;
    }
    params = calloc(prog.nparams ? prog.nparams : 1, sizeof *params);
    ref.out = malloc(((size_t)n * ref.nout + 1) * sizeof *ref.out);
    ref.killed = malloc(n);
    work = calloc(cap + 1, sizeof *work);   /* + 1: the shown thread */
    occupant = calloc(cap, sizeof *occupant);
    st = calloc(nrows, sizeof *st);
    if (!params || !ref.out || !ref.killed || !work || !occupant || !st)
        goto oom;
    if (e->params)
        memcpy(params, e->params, prog.nparams * sizeof *params);
    else
        us_resolve_params(&prog, gl, params);
    /* the reference computes with the models' math and sampler */
    struct us_exec_env env = { .params = params };
    run_env_apply(e, &env);
    us_config_env(&cfg, &env);
    struct us_thread *tmp = &work[cap];
    /* an --inputs line or --attrib in error: reported before anything runs */
    for (unsigned i = 0; (lines || a->nattribs) && i < n; i++)
        if (!fill_thread(&src, i, tmp, false))
            goto out;
    /* decoded once for the n threads (NULL when out of memory: the
     * same bits, decoded per instruction) */
    struct us_decoded *dec = us_decode(&prog);
    for (unsigned i = 0; i < n; i++) {
        (void)fill_thread(&src, i, tmp, true);   /* checked above */
        if (dec)
            us_interpret_decoded(dec, &env, tmp);
        else
            us_interpret(&prog, &env, tmp);
        if (tmp->overrun) {
            us_decoded_free(dec);
            (void)us_budget_error(&env, i, &diag);
            cli_error(a->file, 0, 0, "%s", diag.msg);
            rc = 1;
            goto out;
        }
        for (unsigned k = 0; k < ref.nout; k++)
            memcpy(ref.out[(size_t)i * ref.nout + k], tmp->output[ref.slot[k]],
                   sizeof *ref.out);
        ref.killed[i] = tmp->killed;
    }
    us_decoded_free(dec);
    if (a->trace.path) {   /* one model (parse_args): rows[0] */
        const char *ins[4 + MAX_TEXTURES] = { a->file, a->config, a->inputs,
                                              a->inputs_from };
        for (unsigned i = 0; i < a->ntextures; i++)
            ins[4 + i] = a->textures[i].file;
        if (!cli_check_output(a->trace.path, ins, 4 + a->ntextures) ||
            !(tr = cli_trace_open(&a->trace, rows[0].name, &sink))) {
            rc = 1;
            goto out;
        }
    }
    unsigned ran = 0;
    rc = 1;
    for (unsigned m = 0; m < nrows; m++) {
        const struct us_core_model *model = rows[m].m;
        unsigned window = stream_window(&rows[m].cfg, &prog, n);
        struct stream_ctx sc;
        struct us_workload_stream ws;
        bool ok;
        struct timespec t0, t1;
        for (;;) {
            sc = (struct stream_ctx){ &src, &ref, occupant, window - 1,
                                      false, 0, n };
            ws = (struct us_workload_stream){ window, stream_start,
                                              stream_retire, &sc };
            struct us_workload w = { &prog, &env, work, n, tr ? &sink : NULL,
                                     window ? &ws : NULL };
            if (window)
                memset(occupant, 0, window * sizeof *occupant);
            else
                for (unsigned i = 0; i < n; i++)
                    (void)fill_thread(&src, i, &work[i], true);
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
            ok = us_core_run(model, &rows[m].cfg, &w, &st[ran], &diag);
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
            if (!sc.overflow || tr)
                break;
            /* A thread stayed in flight while the window went round: run
             * again with twice the window (the same run, bit for bit). */
            window = 2 * window < n ? 2 * window : 0;
            unsigned need = window ? window : n;
            if (need > cap) {
                if (!gfx_budget_take(&mem, need - cap,
                                     sizeof *work + sizeof *occupant, what,
                                     &diag)) {
                    cli_error(a->file, 0, 0, "%s", diag.msg);
                    goto out;
                }
                struct us_thread *nw = calloc(need + 1, sizeof *nw);
                unsigned *no = calloc(need, sizeof *no);
                if (!nw || !no) {
                    free(nw);
                    free(no);
                    goto oom;
                }
                free(work);
                free(occupant);
                work = nw;
                occupant = no;
                cap = need;
                tmp = &work[cap];
            }
        }
        st[ran].arch = rows[m].name;
        if (ok && a->time) {
            double sec = (double)(t1.tv_sec - t0.tv_sec) +
                         (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
            double ops = us_stats_get(&st[ran], "useful_ops");
            fprintf(stderr, "time: %-12s %9.4f s %12.0f useful ops "
                    "%8.2f M useful ops/s %8.2f M cycles/s\n",
                    rows[m].name, sec, ops,
                    sec > 0 ? ops / sec * 1e-6 : 0.0,
                    sec > 0 ? us_stats_get(&st[ran], "cycles") / sec * 1e-6
                            : 0.0);
        }
        if (!ok) {
            cli_error(a->file, diag.line, diag.col, "%s: %s",
                      rows[m].name, diag.msg);
            goto out;
        }
        if (window && sc.overflow) {   /* a trace is written once */
            cli_error(a->file, 0, 0, "%s: a thread stayed in flight while "
                      "%u others started (the window of a streamed run)",
                      rows[m].name, window);
            goto out;
        }
        unsigned diff = window ? sc.diff : n;
        for (unsigned i = 0; !window && i < n && diff == n; i++)
            if (!outputs_equal(&ref, i, &work[i]))
                diff = i;
        if (window && diff == n && sc.retired != n) {
            cli_error(a->file, 0, 0, "%s: %u of %u threads retired",
                      rows[m].name, sc.retired, n);
            goto out;
        }
        if (diff < n) {
            cli_error(a->file, 0, 0, "%s: thread %u's outputs differ "
                      "from the reference interpreter's",
                      rows[m].name, diff);
            goto out;
        }
        ran++;
    }
    if (tr) {
        bool ok = cli_trace_close(tr, true, run_json_doc(a, &rows[0].cfg),
                                  us_stats_get(&st[0], "cycles"));
        tr = NULL;
        if (!ok)
            goto out;
    }
    uint64_t written = prog.outputs_written;
    struct shown sh = { &src, &ref, gl, false };
    if (prog.stage == US_STAGE_VERTEX && !a->inputs_from &&
        (prog.options & US_OPT_POSITION_INVARIANT)) {
        sh.invariant = true;
        written |= 1ull << US_VOUT_POSITION;
    }
    if (a->json) {
        if (!print_json(a, &cfg, &prog, st, ran, one && !a->npresets, &sh,
                        tmp, n, written))
            goto out;
    } else {
        unsigned show = n < 4 ? n : 4;
        for (unsigned i = 0; i < show; i++) {
            printf("thread %u: ", i);
            shown_thread(&sh, i, tmp);
            print_thread_outputs(&prog, tmp, written);
            printf("\n");
        }
        if (show < n)
            printf("(%u more threads)\n", n - show);
        if (one && !a->npresets) {
            us_stats_print(stdout, &st[0], false);
        } else {
            double simd4_ad = 0;
            for (unsigned m = 0; m < ran; m++)
                if (!strcmp(st[m].arch, "simd4"))
                    simd4_ad = us_stats_get(&st[m], "area_delay");
            printf("outputs: identical on every model (%u threads)\n", n);
            printf("%-12s %9s %7s %8s %9s %10s %10s %7s %12s %7s\n", "arch",
                   "cycles", "util", "thr/cyc", "stalls", "instr_bits",
                   "area_um2", "area/s4", "pJ/thread", "AxD/s4");
            for (unsigned m = 0; m < ran; m++)
                table_row(&st[m], simd4_ad);
        }
    }
    rc = cli_flush_stdout() ? 0 : 1;
    goto out;
oom:
    cli_error(a->file, 0, 0, "out of memory");
    rc = 1;
out:
    (void)cli_trace_close(tr, false, NULL, 0);   /* a failed run: no file */
    free(rows);
    free(st);
    free(work);
    free(occupant);
    free(ref.out);
    free(ref.killed);
    free(params);
    free(lines);
    free(itext);
    free(gl);
    if (e)
        run_env_free(e);
    free(e);
    us_program_free(&prog);
    return rc;
}

