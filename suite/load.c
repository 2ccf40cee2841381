/* Loading the suite and capturing workloads from scenes: suite/suite.h. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gfx/capture.h"
#include "shader/host_thread.h"
#include "suite/suite.h"

enum { MAX_PROGRAM_BYTES = 1 << 20, MAX_SCENE_BYTES = 1 << 20,
       MAX_LIST_BYTES = 1 << 20 };

/* A load error about `file` (NULL: none) at line, col (0: unknown). */
static bool fail_at(struct us_bench *b, const char *file, unsigned line,
                    unsigned col, struct us_diag *diag, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static bool fail_at(struct us_bench *b, const char *file, unsigned line,
                    unsigned col, struct us_diag *diag, const char *fmt, ...)
{
    b->err_file = file;
    diag->line = line;
    diag->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
    va_end(ap);
    return false;
}

static bool oom(struct us_bench *b, struct us_diag *diag)
{
    return fail_at(b, NULL, 0, 0, diag, "out of memory");
}

/* A library filled diag: its line and column are in `file`. */
static bool fail_in(struct us_bench *b, const char *file)
{
    b->err_file = file;
    return false;
}

/* gfx_read_file, its error about `path` without the "PATH: " the
 * message starts with (the path goes in front, b->err_file). */
static bool read_in(struct us_bench *b, const char *path, size_t max,
                    char **text, size_t *len, struct us_diag *diag)
{
    if (gfx_read_file(path, max, text, len, diag))
        return true;
    size_t n = strlen(path);
    if (!strncmp(diag->msg, path, n) && diag->msg[n] == ':' &&
        diag->msg[n + 1] == ' ')
        memmove(diag->msg, diag->msg + n + 2, strlen(diag->msg + n + 2) + 1);
    return fail_in(b, path);
}

static char *copy(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* `rel` (n bytes) relative to the directory of `list` (a path as given). */
static char *join(const char *list, const char *rel, size_t n)
{
    const char *slash = strrchr(list, '/');
    size_t dir = slash && rel[0] != '/' ? (size_t)(slash - list + 1) : 0;
    char *out = malloc(dir + n + 1);
    if (out) {
        memcpy(out, list, dir);
        memcpy(out + dir, rel, n);
        out[dir + n] = '\0';
    }
    return out;
}

/* Does the sentence end at s[i]: a '.' outside parentheses, followed by
 * a blank or the end of the comment? */
static bool sentence_end(const char *s, size_t i, int depth)
{
    static const char *const abbrev[] = {
        "al", "ch", "e.g", "i.e", "vs", "Trans", "Proc", "Vol", "pp", "Fig",
        "Sec", "no", "No",
    };
    if (s[i] != '.' || depth != 0 ||
        (s[i + 1] != ' ' && s[i + 1] != '\n' && s[i + 1] != '\0'))
        return false;
    size_t w = i;   /* the word the '.' ends: s[w .. i) */
    while (w > 0 && s[w - 1] != ' ' && s[w - 1] != '(')
        w--;
    if (i - w == 1 && s[w] >= 'A' && s[w] <= 'Z')
        return false;   /* an initial: "B. T. Phong" */
    for (size_t k = 0; k < sizeof abbrev / sizeof abbrev[0]; k++)
        if (strlen(abbrev[k]) == i - w && !strncmp(s + w, abbrev[k], i - w))
            return false;
    return true;
}

static const char *next_line(const char *line)
{
    const char *nl = strchr(line, '\n');
    return nl ? nl + 1 : NULL;
}

/* The first sentence of the program's leading comment, whole: its lines
 * joined by one space, up to the first '.' outside parentheses followed
 * by a blank (not an initial's, "B. T. Phong", nor an abbreviation's,
 * "IEEE Trans."), or the comment's end (a blank comment line ends it
 * too).  Cut only when it does not fit `size`, and then at a word with
 * "...". */

static void describe(const char *text, char *out, size_t size)
{
    /* ARB programs: '#' lines after the "!!ARB..." header; GLSL: the
     * leading "//" lines */
    bool arb = !strncmp(text, "!!", 2);
    const char *mark = arb ? "#" : "//";
    size_t n = 0, ml = strlen(mark);
    int depth = 0;
    out[0] = '\0';
    for (const char *line = arb ? next_line(text) : text;
         line && !strncmp(line, mark, ml); line = next_line(line)) {
        const char *s = line + ml;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\n' || *s == '\0') {
            if (n)
                break;   /* a blank comment line after the sentence */
            continue;
        }
        if (n && n + 1 < size)
            out[n++] = ' ';
        for (size_t i = 0; s[i] != '\n' && s[i] != '\0'; i++) {
            depth += (s[i] == '(') - (s[i] == ')');
            if (n + 1 >= size) {   /* too long: end at a word */
                while (n > 0 && out[n - 1] != ' ')
                    n--;
                snprintf(out + (n > 4 ? n - 1 : 0),
                         size - (n > 4 ? n - 1 : 0), "...");
                return;
            }
            out[n++] = s[i];
            out[n] = '\0';
            if (sentence_end(s, i, depth))
                return;
        }
    }
    while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == ','))
        out[--n] = '\0';
}

/* Words of a line as the scene parser splits them: blanks separate, '#'
 * ends a word and starts a comment. */
static bool word_end(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#' ||
           c == '\0';
}

/* The next word in [*p, end): its start, and its length in *n (0: none
 * left). */
static const char *next_word(const char **p, const char *end, size_t *n)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    if (s == end || *s == '#' || *s == '\n') {
        *p = s;
        *n = 0;
        return s;
    }
    const char *e = s;
    while (e < end && !word_end(*e))
        e++;
    *p = e;
    *n = (size_t)(e - s);
    return s;
}

/* The scene, with the program in the slot (gfx_scene_load_slot). */
static bool load_scene(struct us_bench *b, const char *list,
                       struct us_bench_prog *bp, struct us_diag *diag)
{
    enum gfx_slot_error where;
    if (gfx_scene_load_slot(&bp->scn, bp->scene, bp->slot, bp->path,
                            MAX_SCENE_BYTES, &where, diag))
        return true;
    if (where == GFX_SLOT_ERR_NO_SLOT)
        return fail_at(b, list, bp->line, 0, diag, "%s has no program named "
                       "'%s'", bp->scene, bp->slot);
    return fail_in(b, where == GFX_SLOT_ERR_PROGRAM ? bp->path : bp->scene);
}

/* Render the scene with the program in its slot, keep the inputs. */
static bool capture(struct us_bench *b, const char *list,
                    struct us_bench_prog *bp, struct us_diag *diag)
{
    if (!load_scene(b, list, bp, diag))
        return false;
    unsigned w, h;
    gfx_scene_size(bp->scn, &w, &h);
    struct gfx_capture cap;
    struct gfx_shader_backend functional = gfx_backend_functional;
    functional.varying_slots = (unsigned)b->base.v[US_KNOB_varying_slots];
    gfx_capture_init(&cap, &functional, &bp->prog, US_BENCH_CAPTURE);
    struct gfx_framebuffer fb = { 0 };
    struct gfx_stats gs;
    bool ok = gfx_scene_render(bp->scn, w, h, &b->math, &cap.be, &fb, &gs,
                               diag) || fail_in(b, bp->scene);
    gfx_fb_free(&fb);
    if (ok && cap.oom)
        ok = oom(b, diag);
    if (ok && cap.n == 0)
        ok = fail_at(b, bp->scene, 0, 0, diag, "the scene shades no thread "
                     "with %s", bp->path);
    if (!ok) {
        gfx_capture_free(&cap);
        return false;
    }
    unsigned start, n;
    gfx_capture_window(&cap, b->threads, &start, &n);
    bp->inputs = malloc((size_t)n * sizeof *bp->inputs);
    if (!bp->inputs) {
        gfx_capture_free(&cap);
        return oom(b, diag);
    }
    memcpy(bp->inputs, cap.inputs + start, (size_t)n * sizeof *bp->inputs);
    bp->n = n;
    bp->window = start;
    bp->shaded = cap.seen;
    bp->params = cap.params;
    cap.params = NULL;
    memcpy(bp->sampler.unit, cap.sampler.unit, sizeof bp->sampler.unit);
    gfx_capture_free(&cap);
    return true;
}

/* The reference interpreter's outputs for every workload thread. */
static bool reference(const struct us_bench *b, struct us_bench_prog *bp)
{
    struct us_thread *t = malloc(sizeof *t);
    bp->ref = calloc(bp->n, sizeof *bp->ref);
    if (!t || !bp->ref) {
        free(t);
        return false;
    }
    struct gfx_sampler smp = bp->sampler;
    struct us_exec_env env = { .params = bp->params, .math = &b->math,
                               .sample = gfx_sample, .sample_ctx = &smp };
    for (unsigned i = 0; i < bp->n; i++) {
        us_thread_reset(t);
        memcpy(t->input, bp->inputs[i], sizeof t->input);
        us_interpret(&bp->prog, &env, t);
        memcpy(bp->ref[i].out, t->output, sizeof bp->ref[i].out);
        bp->ref[i].killed = t->killed;
    }
    free(t);
    return true;
}

/* Does `name` contain the n bytes at `s`? */
static bool contains(const char *name, const char *s, size_t n)
{
    for (const char *p = name; *p; p++)
        if (!strncmp(p, s, n))
            return true;
    return false;
}

static bool wanted(const char *name, const char *only)
{
    if (!only)
        return true;
    for (const char *p = only; *p;) {
        size_t n = strcspn(p, ",");
        if (n > 0 && contains(name, p, n))
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

/* Mesa's TGSI for the program, when bench/tgsi_compare.sh wrote it
 * beside it (PATH.tgsi, generated at bench time, never committed). */
static bool load_mesa(struct us_bench *b, struct us_bench_prog *bp,
                      struct us_diag *diag)
{
    size_t n = strlen(bp->path) + sizeof ".tgsi";
    char *path = malloc(n);
    if (!path)
        return oom(b, diag);
    snprintf(path, n, "%s.tgsi", bp->path);
    char *text = NULL;
    size_t len;
    bool ok = true;
    if (access(path, F_OK) == 0) {
        struct us_diag d = { 0 };
        ok = gfx_read_file(path, MAX_PROGRAM_BYTES, &text, &len, &d) &&
             us_tgsi_stats(text, len, &bp->mesa, &d);
        bp->has_mesa = ok;
        if (!ok)
            fail_at(b, bp->path, 0, 0, diag, "Mesa's TGSI %s:%u:%u: %s",
                    path, d.line, d.col, d.msg);
    }
    free(text);
    free(path);
    return ok;
}

static bool load_program(struct us_bench *b, const char *list,
                         struct us_bench_prog *bp, struct us_diag *diag)
{
    char *text;
    size_t len;
    if (!read_in(b, bp->path, MAX_PROGRAM_BYTES, &text, &len, diag))
        return false;
    /* an ARB program, or a GLSL shader staged by its extension, in the
     * varying slots of the base configuration */
    struct us_glsl_options opt;
    us_glsl_options_init(&opt);
    opt.varying_slots = (unsigned)b->base.v[US_KNOB_varying_slots];
    bool ok = us_program_from_text(bp->path, text, len, US_STAGE_ANY, &opt,
                                   &bp->prog, diag) &&
              us_check_varying_slots(&bp->prog, opt.varying_slots, diag);
    if (ok)
        describe(text, bp->desc, sizeof bp->desc);
    free(text);
    if (!ok || !us_code_stats(&bp->prog, &bp->code, diag))
        return fail_in(b, bp->path);
    if (!load_mesa(b, bp, diag))
        return false;
    for (unsigned i = 0; i < bp->prog.ninsts; i++)
        bp->sfu_insts += us_ops[bp->prog.insts[i].op].unit == US_UNIT_SFU;
    return capture(b, list, bp, diag) && (reference(b, bp) || oom(b, diag));
}

/* Free what parse_line allocated. */
static void free_names(struct us_bench_prog *bp)
{
    free(bp->name);
    free(bp->path);
    free(bp->scene);
    free(bp->scene_name);
}

/* Parse list line `lineno` ([line, end), no '\n') into bp (names only);
 * false with diag on error, *skip for comments, blank lines and programs
 * not selected. */
static bool parse_line(struct us_bench *b, const char *list, unsigned lineno,
                       const char *line, const char *end, const char *only,
                       struct us_bench_prog *bp, bool *skip,
                       struct us_diag *diag)
{
    *skip = true;
    const char *w[3], *p = line;
    size_t n[3], more = 0;
    unsigned nw = 0;
    while (nw < 3 && (w[nw] = next_word(&p, end, &n[nw]), n[nw]))
        nw++;
    if (nw == 0)  /* a blank line or a comment */
        return true;
    if (nw == 3)
        next_word(&p, end, &more);
    if (nw < 3 || more || p != end)
        return fail_at(b, list, lineno, 0, diag, "expected PROGRAM SCENE "
                       "SLOT");
    if (n[2] >= US_MAX_NAME)
        return fail_at(b, list, lineno, (unsigned)(w[2] - line) + 1, diag,
                       "slot name longer than %d characters", US_MAX_NAME - 1);
    const char *shown = w[0];
    size_t shown_n = n[0];
    if (n[0] > 9 && !memcmp(w[0], "programs/", 9)) {
        shown += 9;
        shown_n -= 9;
    }
    memset(bp, 0, sizeof *bp);
    bp->name = copy(shown, shown_n);
    if (bp->name && !wanted(bp->name, only)) {
        free(bp->name);
        bp->name = NULL;
        return true;
    }
    *skip = false;
    bp->line = lineno;
    memcpy(bp->slot, w[2], n[2]);
    bp->slot[n[2]] = '\0';
    bp->scene_name = copy(w[1], n[1]);
    bp->path = join(list, w[0], n[0]);
    bp->scene = join(list, w[1], n[1]);
    if (!bp->name || !bp->scene_name || !bp->path || !bp->scene) {
        free_names(bp);
        return oom(b, diag);
    }
    return true;
}

bool us_bench_parse_list(struct us_bench *b, const char *list,
                         const char *text, size_t len, const char *only,
                         struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    b->err_file = NULL;
    b->nprogs = 0;
    b->progs = calloc(US_BENCH_MAX_PROGRAMS, sizeof *b->progs);
    if (!b->progs)
        return oom(b, diag);
    unsigned lineno = 1;
    for (const char *line = text, *end = text + len; line < end; lineno++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *stop = nl ? nl : end;
        const char *nul = memchr(line, '\0', (size_t)(stop - line));
        if (nul)
            return fail_at(b, list, lineno, (unsigned)(nul - line) + 1, diag,
                           "NUL byte in the list");
        bool skip;
        struct us_bench_prog one;
        if (!parse_line(b, list, lineno, line, stop, only, &one, &skip, diag))
            return false;
        if (!skip && b->nprogs == US_BENCH_MAX_PROGRAMS) {
            free_names(&one);
            return fail_at(b, list, lineno, 0, diag, "more than %d programs",
                           US_BENCH_MAX_PROGRAMS);
        }
        if (!skip)
            b->progs[b->nprogs++] = one;
        line = nl ? nl + 1 : end;
    }
    if (b->nprogs == 0)
        return fail_at(b, list, 0, 0, diag, "no program selected");
    return true;
}

/* ---- Prefetch ------------------------------------------------------ */

/* Each program compiled once on `jobs` threads before the loading loop,
 * the result dropped: what counts is that the SPIR-V cache
 * (glsl/spv_cache.c) then has it, so the loop -- unchanged, in list
 * order, its messages and results the same for any number of jobs --
 * runs no tool.  Failures are the loop's to report. */
struct prefetch {
    struct us_bench *b;
    pthread_mutex_t lock;
    unsigned next;
};

static void *prefetch_worker(void *arg)
{
    struct prefetch *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        unsigned i = p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->b->nprogs)
            return NULL;
        const char *path = p->b->progs[i].path;
        char *text;
        size_t len;
        struct us_diag d;
        if (!gfx_read_file(path, MAX_PROGRAM_BYTES, &text, &len, &d))
            continue;
        struct us_glsl_options opt;
        us_glsl_options_init(&opt);
        opt.varying_slots =
            (unsigned)p->b->base.v[US_KNOB_varying_slots];
        struct us_program prog;
        if (us_program_from_text(path, text, len, US_STAGE_ANY, &opt, &prog,
                                 &d))
            us_program_free(&prog);
        free(text);
    }
}

static void prefetch(struct us_bench *b, unsigned jobs)
{
    if (jobs > b->nprogs)
        jobs = b->nprogs;
    const char *off = getenv("USHADER_NO_CACHE");
    if (jobs < 2 || (off && *off && strcmp(off, "0")))
        return;
    struct prefetch p = { .b = b };
    if (pthread_mutex_init(&p.lock, NULL))
        return;
    pthread_t *tid = calloc(jobs, sizeof *tid);
    unsigned started = 0;
    for (unsigned i = 1; tid && i < jobs; i++)
        if (us_thread_create(&tid[started], prefetch_worker, &p, i) == 0)
            started++;
    prefetch_worker(&p);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    free(tid);
    pthread_mutex_destroy(&p.lock);
}

bool us_bench_load(struct us_bench *b, const struct us_bench_opts *o,
                   us_bench_progress_fn progress, void *ctx,
                   struct us_diag *diag)
{
    memset(b, 0, sizeof *b);
    memset(diag, 0, sizeof *diag);
    b->threads = o->threads ? o->threads : US_BENCH_DEFAULT_THREADS;
    if (b->threads > US_BENCH_CAPTURE)
        b->threads = US_BENCH_CAPTURE;
    us_config_default(&b->base);
    if (o->config_text &&
        !us_config_load(&b->base, o->config_text, o->config_len, diag))
        return fail_in(b, o->config_path);
    for (unsigned i = 0; i < o->nsets; i++)
        if (!us_config_set(&b->base, o->sets[i], diag))
            return false;
    if (!us_sfu_init(&b->sfu, &b->base.sfu, diag))
        return false;
    us_sfu_math(&b->sfu, &b->math);

    char *text;
    size_t len;
    if (!read_in(b, o->list, MAX_LIST_BYTES, &text, &len, diag))
        return false;
    /* Names first, so progress knows the total. */
    bool ok = us_bench_parse_list(b, o->list, text, len, o->only, diag);
    free(text);
    if (ok)
        prefetch(b, o->jobs);
    for (unsigned i = 0; ok && i < b->nprogs; i++) {
        if (progress)
            progress(ctx, "capture", i, b->nprogs);
        ok = load_program(b, o->list, &b->progs[i], diag);
    }
    if (ok && progress)
        progress(ctx, "capture", b->nprogs, b->nprogs);
    return ok;
}

void us_bench_free(struct us_bench *b)
{
    for (unsigned i = 0; b->progs && i < US_BENCH_MAX_PROGRAMS; i++) {
        struct us_bench_prog *bp = &b->progs[i];
        free_names(bp);
        us_program_free(&bp->prog);
        if (bp->scn)
            gfx_scene_free(bp->scn);
        free(bp->params);
        free(bp->inputs);
        free(bp->ref);
    }
    free(b->progs);
    free(b->res);
    us_sfu_free(&b->sfu);
    b->progs = NULL;
    b->res = NULL;
}
