/* The math, textures and captured inputs of `ushader run`:
 * cli/run_inputs.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_inputs.h"
#include "gfx/capture.h"
#include "suite/suite.h"

static const char *const filters[] = {
    "nearest", "bilinear", "mipnearest", "trilinear",
};

bool run_texture_parse(const char *arg, struct run_texture *t)
{
    const char *eq = strchr(arg, '=');
    char *end;
    errno = 0;
    unsigned long unit = strtoul(arg, &end, 10);
    if (!eq || end != eq || eq == arg || arg[0] == '-' || arg[0] == '+' ||
        errno) {
        cli_error(NULL, 0, 0, "run: --texture wants UNIT=FILE.png[,FILTER], "
                  "not '%s'", arg);
        return false;
    }
    if (unit >= US_MAX_TEX_UNITS) {
        cli_error(NULL, 0, 0, "run: --texture '%s': unit out of range "
                  "(0..%d)", arg, US_MAX_TEX_UNITS - 1);
        return false;
    }
    const char *file = eq + 1;
    size_t flen = strlen(file);
    t->filter = GFX_FILTER_BILINEAR;   /* a scene texture's default */
    const char *comma = strrchr(file, ',');
    if (comma) {
        unsigned f;
        for (f = 0; f < sizeof filters / sizeof filters[0]; f++)
            if (!strcmp(comma + 1, filters[f]))
                break;
        if (f == sizeof filters / sizeof filters[0]) {
            cli_error(NULL, 0, 0, "run: --texture '%s': unknown filter '%s' "
                      "(nearest, bilinear, mipnearest, trilinear)", arg,
                      comma + 1);
            return false;
        }
        t->filter = (enum gfx_filter)f;
        flen = (size_t)(comma - file);
    }
    if (flen == 0) {
        cli_error(NULL, 0, 0, "run: --texture '%s': no file", arg);
        return false;
    }
    t->unit = (unsigned)unit;
    t->file = malloc(flen + 1);
    if (!t->file) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    memcpy(t->file, file, flen);
    t->file[flen] = '\0';
    return true;
}

bool run_env_math(struct run_env *e, const struct us_config *cfg, bool exact)
{
    e->math = us_math_exact;
    if (exact)
        return true;
    struct us_diag d;
    if (!us_sfu_init(&e->sfu, &cfg->sfu, &d)) {
        cli_error(NULL, 0, 0, "run: SFU model: %s", d.msg);
        return false;
    }
    e->have_sfu = true;
    us_sfu_math(&e->sfu, &e->math);
    return true;
}

/* A 2D texture from one PNG, as a scene's `texture NAME 2d png FILE
 * filter F` makes it: the top row is t = 1, wrap repeat. */
static bool load_texture(struct gfx_texture *tex, const struct run_texture *t,
                         struct gfx_budget *mem)
{
    struct us_diag d = { 0 };
    float *img;
    unsigned w, h;
    if (!gfx_png_load(t->file, GFX_MAX_TEX_SIZE, mem, &img, &w, &h, &d)) {
        /* the message may start with the path: the position goes first */
        size_t n = strlen(t->file);
        const char *msg = d.msg;
        if (!strncmp(msg, t->file, n) && msg[n] == ':' && msg[n + 1] == ' ')
            msg += n + 2;
        cli_error(t->file, 0, 0, "%s", msg);
        return false;
    }
    bool ok = gfx_texture_alloc(tex, GFX_TEX_2D, w, h, 1, mem, &d);
    if (ok) {
        struct gfx_level *l = &tex->level[0];
        for (unsigned y = 0; y < h; y++)
            memcpy(gfx_texel(l, 0, y, 0), img + (size_t)(h - 1 - y) * w * 4,
                   (size_t)w * 4 * sizeof(float));
        tex->filter = t->filter;
        if (t->filter == GFX_FILTER_MIP_NEAREST ||
            t->filter == GFX_FILTER_TRILINEAR)
            ok = gfx_texture_mipmap(tex, &d);
    }
    free(img);
    gfx_budget_give(mem, (size_t)w * h * 16);
    if (!ok) {
        cli_error(t->file, 0, 0, "%s", d.msg);
        gfx_texture_free(tex);
    }
    return ok;
}

bool run_env_textures(struct run_env *e, const struct run_texture *t,
                      unsigned n, struct gfx_budget *mem)
{
    for (unsigned i = 0; i < n; i++) {
        struct gfx_texture *tex = &e->tex[t[i].unit];
        gfx_texture_free(tex);   /* a unit given twice: the last counts */
        memset(tex, 0, sizeof *tex);
        if (!load_texture(tex, &t[i], mem))
            return false;
        e->smp.unit[t[i].unit] = tex;
        e->textured = true;
    }
    return true;
}

/* The name of the program `prog` replaces in the scene (into slot[]):
 * --slot's, checked, or the first of prog's stage. */
static bool pick_slot(const char *scene, const char *want,
                      const struct us_program *prog, const char *path,
                      char *slot, size_t size)
{
    char *text;
    size_t len;
    if (!cli_read_file(scene, &text, &len))
        return false;
    struct us_diag d = { 0 };
    struct gfx_scene *s;
    bool ok = gfx_scene_load(&s, scene, text, len, &d);
    free(text);
    if (!ok) {
        cli_error(scene, d.line, d.col, "%s", d.msg);
        return false;
    }
    static const char *const stages[] = { "vertex", "fragment" };
    const char *stage = prog->stage < 2 ? stages[prog->stage] : "compute";
    if (want) {
        int st = gfx_scene_program_stage(s, want);
        if (st < 0)
            cli_error(scene, 0, 0, "no program named '%s' (--slot)", want);
        else if (st != (int)prog->stage)
            cli_error(scene, 0, 0, "program '%s' is a %s program, %s a %s "
                      "program (--slot)", want, stages[st], path, stage);
        ok = st == (int)prog->stage;
    } else {
        want = gfx_scene_first_program(s, (int)prog->stage);
        if (!want)
            cli_error(scene, 0, 0, "no %s program to replace with %s",
                      stage, path);
        ok = want != NULL;
    }
    if (ok)
        snprintf(slot, size, "%s", want);
    gfx_scene_free(s);
    return ok;
}

bool run_env_capture(struct run_env *e, const char *scene, const char *slot,
                     const char *path, const struct us_program *prog,
                     unsigned want, struct gfx_budget *mem)
{
    char name[US_MAX_NAME];
    if (!pick_slot(scene, slot, prog, path, name, sizeof name))
        return false;
    struct us_diag d = { 0 };
    enum gfx_slot_error where;
    if (!gfx_scene_load_slot(&e->scn, scene, name, path, CLI_MAX_INPUT,
                             &where, &d)) {
        cli_error(where == GFX_SLOT_ERR_PROGRAM ? path : scene, d.line,
                  d.col, "%s", d.msg);
        return false;
    }
    /* as many threads as the bench captures, so that the window of N
     * threads is the bench's workload of N (--threads) */
    unsigned cap_n = US_BENCH_CAPTURE;
    if (!gfx_budget_take(mem, cap_n, sizeof *e->inputs, "the captured inputs",
                         &d)) {
        cli_error(scene, 0, 0, "%s", d.msg);
        return false;
    }
    struct gfx_capture cap;
    gfx_capture_init(&cap, &gfx_backend_functional, prog, cap_n);
    unsigned w, h;
    gfx_scene_size(e->scn, &w, &h);
    struct gfx_framebuffer fb = { 0 };
    struct gfx_stats gs = { 0 };
    bool ok = gfx_scene_render(e->scn, w, h, &e->math, &cap.be, &fb, &gs, &d);
    gfx_fb_free(&fb);
    if (!ok)
        cli_error(scene, d.line, d.col, "%s", d.msg);
    else if (cap.oom)
        cli_error(scene, 0, 0, "out of memory");
    else if (cap.n == 0)
        cli_error(scene, 0, 0, "the scene shades no thread with %s (slot "
                  "'%s')", path, name);
    ok = ok && !cap.oom && cap.n > 0;
    unsigned start = 0, n = 0;
    if (ok) {
        gfx_capture_window(&cap, want, &start, &n);
        e->inputs = malloc((size_t)n * sizeof *e->inputs);
        ok = e->inputs != NULL;
        if (!ok)
            cli_error(scene, 0, 0, "out of memory");
    }
    if (ok) {
        memcpy(e->inputs, cap.inputs + start, (size_t)n * sizeof *e->inputs);
        e->ninputs = n;
        e->params = cap.params;
        cap.params = NULL;
        for (unsigned u = 0; u < US_MAX_TEX_UNITS; u++)
            if (cap.sampler.unit[u]) {
                e->smp.unit[u] = cap.sampler.unit[u];
                e->textured = true;
            }
    }
    gfx_capture_free(&cap);
    gfx_budget_give(mem, (size_t)(cap_n - n) * sizeof *e->inputs);
    return ok;
}

void run_env_apply(struct run_env *e, struct us_exec_env *env)
{
    env->math = &e->math;
    if (e->textured) {
        env->sample = gfx_sample;
        env->sample_ctx = &e->smp;
    }
}

void run_env_free(struct run_env *e)
{
    for (unsigned u = 0; u < US_MAX_TEX_UNITS; u++)
        gfx_texture_free(&e->tex[u]);
    if (e->scn)
        gfx_scene_free(e->scn);
    if (e->have_sfu)
        us_sfu_free(&e->sfu);
    free(e->inputs);
    free(e->params);
}
