/* Loading the suite and capturing workloads from scenes: suite/suite.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gfx/capture.h"
#include "suite/suite.h"

enum { MAX_PROGRAM_BYTES = 1 << 20, MAX_SCENE_BYTES = 1 << 20,
       MAX_LIST_BYTES = 1 << 20 };

static bool fail(struct us_diag *diag, const char *fmt, const char *a,
                 const char *b)
{
    memset(diag, 0, sizeof *diag);
    snprintf(diag->msg, sizeof diag->msg, fmt, a, b);
    return false;
}

/* `rel` relative to the directory of `list` (a path as given). */
static bool join(char *out, size_t size, const char *list, const char *rel)
{
    const char *slash = strrchr(list, '/');
    int dir = slash && rel[0] != '/' ? (int)(slash - list + 1) : 0;
    int n = snprintf(out, size, "%.*s%s", dir, list, rel);
    return n >= 0 && (size_t)n < size;
}

/* The first phrase of the program's leading comment: up to the first
 * '(', ':', ';' or sentence end, on one line. */
static void describe(const char *text, char *out, size_t size)
{
    out[0] = '\0';
    const char *p = strchr(text, '\n');
    while (p && p[1] == '#') {
        const char *s = p + 2;
        while (*s == ' ')
            s++;
        if (*s != '\n' && *s != '\0') {
            size_t n = strcspn(s, "(:;\n");
            const char *dot = strstr(s, ". ");
            if (dot && (size_t)(dot - s) < n)
                n = (size_t)(dot - s);
            while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == ','))
                n--;
            snprintf(out, size, "%.*s", (int)n, s);
            return;
        }
        p = strchr(p + 1, '\n');
    }
}

/* The scene text with `program SLOT FILE` pointing at `abs` instead. */
static char *substitute(const char *text, const char *slot, const char *abs,
                        bool *found)
{
    /* the new line: "program " SLOT ' ' ABS '\n' */
    size_t len = strlen(text),
           cap = len + strlen(slot) + strlen(abs) + 16;
    char *out = malloc(cap + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    *found = false;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line + 1) : strlen(line);
        char w0[16], w1[US_MAX_NAME];
        if (!*found && sscanf(line, "%15s %63s", w0, w1) == 2 &&
            !strcmp(w0, "program") && !strcmp(w1, slot)) {
            o += (size_t)snprintf(out + o, cap + 1 - o, "program %s %s\n",
                                  slot, abs);
            *found = true;
        } else if (o + n <= cap) {
            memcpy(out + o, line, n);
            o += n;
        }
        line += n;
    }
    out[o] = '\0';
    return out;
}

/* Render the scene with the program in its slot, keep the inputs. */
static bool capture(struct us_bench *b, struct us_bench_prog *bp,
                    struct us_diag *diag)
{
    /* The scene resolves relative names against its own directory, so
     * the program goes in with an absolute path. */
    char abs[PATH_MAX + 1024], cwd[PATH_MAX], *text = NULL;
    size_t len;
    if (bp->path[0] == '/')
        snprintf(abs, sizeof abs, "%s", bp->path);
    else if (getcwd(cwd, sizeof cwd))
        snprintf(abs, sizeof abs, "%s/%s", cwd, bp->path);
    else
        return fail(diag, "%.200s: cannot resolve the path%s", bp->path, "");
    if (!gfx_read_file(bp->scene, MAX_SCENE_BYTES, &text, &len, diag))
        return false;
    bool found = false;
    char *sub = substitute(text, bp->slot, abs, &found);
    free(text);
    if (!sub)
        return fail(diag, "out of memory%s%s", "", "");
    if (!found) {
        free(sub);
        return fail(diag, "%.150s has no program named '%.40s'", bp->scene,
                    bp->slot);
    }
    struct us_diag d;
    bool ok = gfx_scene_load(&bp->scn, bp->scene, sub, strlen(sub), &d);
    free(sub);
    if (!ok) {
        snprintf(diag->msg, sizeof diag->msg, "%.100s:%u: %.140s", bp->scene,
                 d.line, d.msg);
        return false;
    }
    unsigned w, h;
    gfx_scene_size(bp->scn, &w, &h);
    struct gfx_capture cap;
    gfx_capture_init(&cap, &gfx_backend_functional, &bp->prog,
                     US_BENCH_CAPTURE);
    struct gfx_framebuffer fb = { 0 };
    struct gfx_stats gs;
    ok = gfx_scene_render(bp->scn, w, h, &b->math, &cap.be, &fb, &gs, diag);
    gfx_fb_free(&fb);
    if (ok && cap.oom)
        ok = fail(diag, "out of memory%s%s", "", "");
    if (ok && cap.n == 0)
        ok = fail(diag, "%.100s: the scene shades no thread with %.100s",
                  bp->scene, bp->path);
    if (!ok) {
        gfx_capture_free(&cap);
        return false;
    }
    /* A window from the middle of what was captured: the first batches
     * are often the background or the edge of a mesh. */
    unsigned n = b->threads < cap.n ? b->threads : cap.n;
    if (bp->prog.stage == US_STAGE_FRAGMENT && n >= 4)
        n -= n % 4;
    unsigned start = (cap.n - n) / 2;
    start -= start % 4;
    bp->inputs = malloc((size_t)n * sizeof *bp->inputs);
    if (!bp->inputs) {
        gfx_capture_free(&cap);
        return fail(diag, "out of memory%s%s", "", "");
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

static bool wanted(const char *name, const char *only)
{
    if (!only)
        return true;
    for (const char *p = only; *p;) {
        size_t n = strcspn(p, ",");
        char tok[128];
        snprintf(tok, sizeof tok, "%.*s", (int)(n < 127 ? n : 127), p);
        if (n > 0 && strstr(name, tok))
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

static bool load_program(struct us_bench *b, struct us_bench_prog *bp,
                         struct us_diag *diag)
{
    char *text;
    size_t len;
    if (!gfx_read_file(bp->path, MAX_PROGRAM_BYTES, &text, &len, diag))
        return false;
    struct us_diag d;
    /* an ARB program, or a GLSL shader staged by its extension */
    bool ok = us_program_from_text(bp->path, text, len, US_STAGE_ANY, NULL,
                                   &bp->prog, &d);
    if (ok)
        describe(text, bp->desc, sizeof bp->desc);
    free(text);
    if (!ok) {
        snprintf(diag->msg, sizeof diag->msg, "%.100s:%u:%u: %.140s", bp->path,
                 d.line, d.col, d.msg);
        return false;
    }
    if (!us_code_stats(&bp->prog, &bp->code, &d)) {
        snprintf(diag->msg, sizeof diag->msg, "%.100s: %.140s", bp->path,
                 d.msg);
        return false;
    }
    for (unsigned i = 0; i < bp->prog.ninsts; i++)
        bp->sfu_insts += us_ops[bp->prog.insts[i].op].unit == US_UNIT_SFU;
    return capture(b, bp, diag) && (reference(b, bp) ||
                                    fail(diag, "out of memory%s%s", "", ""));
}

/* Parse one list line into bp (names only); false with diag on error,
 * *skip for comments, blank lines and programs not selected. */
static bool parse_line(const char *list, unsigned lineno, const char *line,
                       const char *only, struct us_bench_prog *bp,
                       bool *skip, struct us_diag *diag)
{
    char prog[512], scene[512], slot[US_MAX_NAME], extra[8];
    *skip = true;
    const char *s = line + strspn(line, " \t");
    if (*s == '#' || *s == '\n' || *s == '\0')
        return true;
    int n = sscanf(s, "%511s %511s %63s %7s", prog, scene, slot, extra);
    if (n != 3 || strlen(slot) >= US_MAX_NAME - 1) {
        memset(diag, 0, sizeof *diag);
        diag->line = lineno;
        snprintf(diag->msg, sizeof diag->msg,
                 "%.200s:%u: expected PROGRAM SCENE SLOT", list, lineno);
        return false;
    }
    const char *shown = strncmp(prog, "programs/", 9) ? prog : prog + 9;
    if (!wanted(shown, only))
        return true;
    *skip = false;
    memset(bp, 0, sizeof *bp);
    snprintf(bp->name, sizeof bp->name, "%.127s", shown);
    snprintf(bp->scene_name, sizeof bp->scene_name, "%.127s", scene);
    snprintf(bp->slot, sizeof bp->slot, "%s", slot);
    if (!join(bp->path, sizeof bp->path, list, prog) ||
        !join(bp->scene, sizeof bp->scene, list, scene))
        return fail(diag, "%.200s: path too long%s", list, "");
    return true;
}

bool us_bench_load(struct us_bench *b, const struct us_bench_opts *o,
                   us_bench_progress_fn progress, void *ctx,
                   struct us_diag *diag)
{
    memset(b, 0, sizeof *b);
    b->threads = o->threads ? o->threads : US_BENCH_DEFAULT_THREADS;
    if (b->threads > US_BENCH_CAPTURE)
        b->threads = US_BENCH_CAPTURE;
    us_config_default(&b->base);
    if (o->config_text && !us_config_load(&b->base, o->config_text, diag))
        return false;
    for (unsigned i = 0; i < o->nsets; i++)
        if (!us_config_set(&b->base, o->sets[i], diag))
            return false;
    if (!us_sfu_init(&b->sfu, &b->base.sfu, diag))
        return false;
    us_sfu_math(&b->sfu, &b->math);

    char *text;
    size_t len;
    if (!gfx_read_file(o->list, MAX_LIST_BYTES, &text, &len, diag))
        return false;
    b->progs = calloc(US_BENCH_MAX_PROGRAMS, sizeof *b->progs);
    if (!b->progs) {
        free(text);
        return fail(diag, "out of memory%s%s", "", "");
    }
    /* Names first, so progress knows the total. */
    bool ok = true;
    unsigned lineno = 0;
    struct us_bench_prog one;
    for (char *line = text; ok && line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        bool skip;
        if (!parse_line(o->list, lineno, line, o->only, &one, &skip, diag))
            ok = false;
        else if (!skip && b->nprogs == US_BENCH_MAX_PROGRAMS)
            ok = fail(diag, "%.200s: more than the supported number of "
                      "programs%s", o->list, "");
        else if (!skip)
            b->progs[b->nprogs++] = one;
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (ok && b->nprogs == 0)
        ok = fail(diag, "%.200s: no program selected%s", o->list, "");
    for (unsigned i = 0; ok && i < b->nprogs; i++) {
        if (progress)
            progress(ctx, "capture", i, b->nprogs);
        ok = load_program(b, &b->progs[i], diag);
    }
    if (ok && progress)
        progress(ctx, "capture", b->nprogs, b->nprogs);
    return ok;
}

void us_bench_free(struct us_bench *b)
{
    for (unsigned i = 0; b->progs && i < US_BENCH_MAX_PROGRAMS; i++) {
        struct us_bench_prog *bp = &b->progs[i];
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
