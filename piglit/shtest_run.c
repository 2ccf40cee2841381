/*
 * Playing a parsed shader_test on the 3D pipeline, as piglit's
 * shader_runner plays it on a GL driver (tests/shaders/shader_runner.c,
 * tests/util/piglit-util-gl.c):
 *
 * - The window is W x H (250 x 250 unless SIZE says otherwise) with 8-bit
 *   RGBA and a depth buffer; the viewport covers it.  Projection and
 *   modelview start as identity (so `draw rect` takes clip coordinates
 *   until `ortho` loads glOrtho(L, R, B, T, -1, 1); a bare `ortho` loads
 *   window coordinates glOrtho(0, W, 0, H, -1, 1)).
 * - `draw rect X Y W H` is piglit_draw_rect: a GL_TRIANGLE_STRIP of
 *   (X, Y), (X+W, Y), (X, Y+H), (X+W, Y+H) with z = 0, w = 1 from a vertex
 *   array; every other attribute is GL's current value (`color`,
 *   `texcoord`).  `draw rect tex` also sends texcoord[0] = (s, t, 0, 1).
 * - Without a [vertex program] or [fragment program] the fixed-function
 *   stage runs; the model writes it as the equivalent ARB program.
 * - `clear` clears the buffers whose clear values were set (shader_runner
 *   collects the bits of `clear color` and `clear depth`).
 * - Probes read the 8-bit framebuffer as shader_runner does (see
 *   shtest_match_pixel / shtest_match_all); `probe depth` passes when
 *   |depth - expected| < 0.01; `probe rect` compares every pixel of the
 *   rectangle as `probe all` does (both are piglit_probe_rect_*).
 * - GLSL: the vertex shader sections, then the fragment shader sections,
 *   go through the front step with one link table (glsl/front.c) and the
 *   GLSL compiler.  `[vertex shader passthrough]` is piglit's
 *   `gl_Position = piglit_vertex`; without a vertex shader the fixed-
 *   function stage above runs.  Uniforms are the programs' program.local
 *   slots, written per stage; a sampler uniform's value is the texture
 *   unit its lookups use (GL's default 0).  `draw rect` feeds the position
 *   as attribute 0, which gl_Vertex and piglit_vertex both read, and
 *   piglit_texcoord with `draw rect tex`; `draw arrays` feeds [vertex
 *   data] columns to the attributes of those names.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "piglit/shtest.h"

/* piglit_tolerance's initial value (piglit-util-gl.c); shader_runner's
 * `tolerance` command replaces it. */
static const float default_tolerance = 0.01f;

struct texunit {
    struct gfx_texture tex;
    bool present;
    bool enabled_2d;     /* glEnable(GL_TEXTURE_2D): fixed-function use  */
    uint8_t min, mag;    /* enum shtest_filter                           */
};

struct runner {
    const struct shtest *t;
    const struct shtest_env *env;
    struct shtest_result *r;
    struct us_diag *diag;
    const struct shtest_cmd *cmd;   /* being played                       */
    struct us_glstate gl;
    struct gfx_state st;
    struct gfx_framebuffer fb;
    struct us_program prog[US_STAGE_COUNT];  /* by enum us_stage          */
    bool have_fp;                   /* the fragment program came from the
                                       file                               */
    bool have_cp;                   /* a compute program                  */
    /* GLSL: the link table, what each stage's translation reported, and
     * the sampler index of each texture instruction (its tex_unit before
     * sampler uniforms remap it) */
    bool glsl[US_STAGE_COUNT];
    struct us_glsl_link link;
    struct us_glsl_info info[US_STAGE_COUNT];
    uint8_t *sampler_of[US_STAGE_COUNT];
    uint8_t sampler_unit[US_STAGE_COUNT][US_MAX_TEX_UNITS];
    /* GL buffer objects at their binding points (a missing one has no
     * data); a draw or launch sees them through `mem` */
    struct us_buffer ssbo[SHTEST_MAX_SSBOS];
    struct us_buffer atomic[SHTEST_MAX_ATOMIC_BUFFERS];
    struct us_memory bufmem;
    struct texunit unit[US_MAX_TEX_UNITS];
    unsigned active;                /* glActiveTexture                    */
    float clear_color[4], clear_depth;
    bool clear_color_bit, clear_depth_bit;
    us_vec4 color, texcoord[US_MAX_TEX_COORDS];
    float tol[4];
    /* the run's memory budget (gfx/gfx.h): the framebuffer, textures,
     * meshes and draws are charged before they are allocated */
    struct gfx_budget mem;
};

static const char *const stage_names[US_STAGE_COUNT] = {
    [US_STAGE_VERTEX] = "vertex", [US_STAGE_FRAGMENT] = "fragment",
    [US_STAGE_COMPUTE] = "compute",
};

static bool fail_at(struct runner *R, unsigned line, unsigned col,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool fail_at(struct runner *R, unsigned line, unsigned col,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(R->diag->msg, sizeof R->diag->msg, fmt, ap);
    va_end(ap);
    R->diag->line = line;
    R->diag->col = col;
    return false;
}

static void skip(struct runner *R, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void skip(struct runner *R, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(R->r->msg, sizeof R->r->msg, fmt, ap);
    va_end(ap);
    R->r->status = SHTEST_SKIP;
    R->r->line = R->cmd ? R->cmd->line : 0;
}

static float clamp01(float x)
{
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;  /* NaN -> 0 */
}

/* GL 2.1 §2.14.9 / §4.3.2: a colour stored in an 8-bit channel. */
static uint8_t to_ubyte(float c)
{
    return (uint8_t)floorf(clamp01(c) * 255.0f + 0.5f);
}

/* ---- probes ---------------------------------------------------------- */

bool shtest_match_pixel(const uint8_t *observed, const float *expected,
                        const float *tol, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (fabsf((float)observed[i] / 255.0f - expected[i]) > tol[i])
            return false;
    return true;
}

bool shtest_match_all(const uint8_t *observed, const float *expected,
                      const float *tol, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        /* array_float_to_ubyte truncates, the tolerance rounds up */
        float e = expected[i] * 255.0f;
        long ei = e >= 0.0f && e < 256.0f ? (long)e : e >= 256.0f ? 255 : 0;
        long t = (long)ceilf(tol[i] * 255.0f);
        if (labs((long)observed[i] - ei) > t)
            return false;
    }
    return true;
}

static void read_pixel(const struct runner *R, int x, int y, uint8_t out[4])
{
    const float *c = R->fb.color + 4 * ((size_t)y * R->fb.w + (size_t)x);
    for (int i = 0; i < 4; i++)
        out[i] = to_ubyte(c[i]);
}

static int fmt_values(char *buf, size_t n, const float *v, unsigned k)
{
    return snprintf(buf, n, k == 4 ? "(%g, %g, %g, %g)" : "(%g, %g, %g)",
                    (double)v[0], (double)v[1], (double)v[2],
                    k == 4 ? (double)v[3] : 0.0);
}

static void probe_failed(struct runner *R, const char *what, int x, int y,
                         const float *expected, const uint8_t *seen,
                         unsigned n)
{
    R->r->failed++;
    if (R->r->status == SHTEST_FAIL)
        return;  /* the first failure is the one reported */
    float obs[4];
    for (unsigned i = 0; i < n; i++)
        obs[i] = (float)seen[i] / 255.0f;
    char e[96], o[96];
    fmt_values(e, sizeof e, expected, n);
    fmt_values(o, sizeof o, obs, n);
    snprintf(R->r->msg, sizeof R->r->msg,
             "%s at (%d, %d): expected %s, observed %s", what, x, y, e, o);
    R->r->status = SHTEST_FAIL;
    R->r->line = R->cmd->line;
}

static bool in_window(struct runner *R, int x, int y)
{
    if (x >= 0 && y >= 0 && x < (int)R->fb.w && y < (int)R->fb.h)
        return true;
    return fail_at(R, R->cmd->line, R->cmd->col,
                   "probe at (%d, %d) is outside the %ux%u window", x, y,
                   R->fb.w, R->fb.h);
}

static bool probe(struct runner *R, const struct shtest_cmd *c)
{
    int x, y;
    if (c->op == SH_PROBE_REL) {
        /* shader_runner: x = c * width, truncated, clamped to width - 1 */
        float fx = c->f[4] * (float)R->fb.w, fy = c->f[5] * (float)R->fb.h;
        if (!(fx > -1.0f && fx < 1e6f && fy > -1.0f && fy < 1e6f))
            return fail_at(R, c->line, c->col, "relative probe position "
                           "(%g, %g) is outside the window",
                           (double)c->f[4], (double)c->f[5]);
        x = (int)fx;
        y = (int)fy;
        if (x >= (int)R->fb.w)
            x = (int)R->fb.w - 1;
        if (y >= (int)R->fb.h)
            y = (int)R->fb.h - 1;
    } else {
        x = c->i[0];
        y = c->i[1];
    }
    if (!in_window(R, x, y))
        return false;
    R->r->probes++;
    uint8_t px[4];
    read_pixel(R, x, y, px);
    if (!shtest_match_pixel(px, c->f, R->tol, c->n))
        probe_failed(R, c->n == 4 ? "probe rgba" : "probe rgb", x, y, c->f,
                     px, c->n);
    return true;
}

static void probe_all(struct runner *R, const struct shtest_cmd *c)
{
    R->r->probes++;
    for (unsigned y = 0; y < R->fb.h; y++)
        for (unsigned x = 0; x < R->fb.w; x++) {
            uint8_t px[4];
            read_pixel(R, (int)x, (int)y, px);
            if (!shtest_match_all(px, c->f, R->tol, c->n)) {
                probe_failed(R, c->n == 4 ? "probe all rgba" : "probe all rgb",
                             (int)x, (int)y, c->f, px, c->n);
                return;
            }
        }
}

/* piglit_probe_rect_rgb(a): every pixel as `probe all` compares them. */
static bool probe_rect(struct runner *R, const struct shtest_cmd *c)
{
    int x0, y0, w, h;
    if (c->op == SH_PROBE_RECT_REL) {
        x0 = (int)(c->f[4] * (float)R->fb.w);
        y0 = (int)(c->f[5] * (float)R->fb.h);
        w = (int)(c->f[6] * (float)R->fb.w);
        h = (int)(c->f[7] * (float)R->fb.h);
    } else {
        x0 = c->i[0], y0 = c->i[1], w = c->i[2], h = c->i[3];
    }
    if (x0 < 0 || y0 < 0 || w < 0 || h < 0 || x0 + w > (int)R->fb.w ||
        y0 + h > (int)R->fb.h)
        return fail_at(R, c->line, c->col, "probe rectangle (%d, %d, %d, %d) "
                       "is outside the %ux%u window", x0, y0, w, h, R->fb.w,
                       R->fb.h);
    R->r->probes++;
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++) {
            uint8_t px[4];
            read_pixel(R, x, y, px);
            if (!shtest_match_all(px, c->f, R->tol, c->n)) {
                probe_failed(R, c->n == 4 ? "probe rect rgba"
                                          : "probe rect rgb", x, y, c->f, px,
                             c->n);
                return true;
            }
        }
    return true;
}

static bool probe_depth(struct runner *R, const struct shtest_cmd *c)
{
    if (!in_window(R, c->i[0], c->i[1]))
        return false;
    R->r->probes++;
    float d = R->fb.depth[(size_t)c->i[1] * R->fb.w + (size_t)c->i[0]];
    if (fabsf(d - c->f[0]) < 0.01f)
        return true;
    R->r->failed++;
    if (R->r->status != SHTEST_FAIL) {
        snprintf(R->r->msg, sizeof R->r->msg,
                 "probe depth at (%d, %d): expected %g, observed %g",
                 c->i[0], c->i[1], (double)c->f[0], (double)d);
        R->r->status = SHTEST_FAIL;
        R->r->line = c->line;
    }
    return true;
}

/* ---- programs -------------------------------------------------------- */

/* The fixed-function vertex stage of a rectangle: no lighting, texture
 * matrices are identity (GL 2.1 §2.10-2.12). */
static const char ff_vertex[] =
    "!!ARBvp1.0\n"
    "OPTION ARB_position_invariant;\n"
    "MOV result.color, vertex.color;\n"
    "MOV result.color.secondary, vertex.color.secondary;\n"
    "MOV result.texcoord[0], vertex.texcoord[0];\n"
    "MOV result.texcoord[1], vertex.texcoord[1];\n"
    "MOV result.texcoord[2], vertex.texcoord[2];\n"
    "MOV result.texcoord[3], vertex.texcoord[3];\n"
    "MOV result.texcoord[4], vertex.texcoord[4];\n"
    "MOV result.texcoord[5], vertex.texcoord[5];\n"
    "MOV result.texcoord[6], vertex.texcoord[6];\n"
    "MOV result.texcoord[7], vertex.texcoord[7];\n"
    "END\n";

static bool assemble(struct runner *R, const struct shtest_source *src,
                     int stage, struct us_program *out)
{
    struct us_diag d = { 0 };
    if (us_assemble(src->text, src->len, stage, out, &d))
        return true;
    return fail_at(R, d.line ? src->line + d.line - 1 : src->line, d.col,
                   "%s program: %s", stage_names[stage], d.msg);
}

/* The fixed-function fragment stage: GL_MODULATE with every enabled 2D
 * texture (GL 2.1 §3.8.13, table 3.22), then the colour sum, which
 * ARB_vertex_program applies whenever a vertex program is enabled (its
 * changes to §3.9). */
static bool ff_fragment(struct runner *R)
{
    char text[2048];
    size_t n = 0;
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "!!ARBfp1.0\nTEMP c, t;\nMOV c, fragment.color;\n");
    for (unsigned u = 0; u < US_MAX_TEX_COORDS; u++)
        if (R->unit[u].present && R->unit[u].enabled_2d &&
            R->unit[u].tex.kind == GFX_TEX_2D)
            n += (size_t)snprintf(text + n, sizeof text - n,
                                  "TEX t, fragment.texcoord[%u], texture[%u], 2D;\n"
                                  "MUL c, c, t;\n", u, u);
    n += (size_t)snprintf(text + n, sizeof text - n,
                          "ADD_SAT result.color.xyz, c, fragment.color.secondary;\n"
                          "MOV result.color.w, c;\nEND\n");
    us_program_free(&R->prog[US_STAGE_FRAGMENT]);
    struct us_diag d = { 0 };
    if (us_assemble(text, n, US_STAGE_FRAGMENT, &R->prog[US_STAGE_FRAGMENT], &d))
        return true;
    return fail_at(R, R->cmd->line, R->cmd->col,
                   "fixed-function fragment program: %s", d.msg);
}

/* ---- GLSL ------------------------------------------------------------ */

/* piglit's passthrough vertex shader (GLSL 1.10 spelling). */
static const char passthrough_vs[] =
    "attribute vec4 piglit_vertex;\n"
    "void main() { gl_Position = piglit_vertex; }\n";

/* The sections of one stage as one source whose lines are the file's:
 * the first padded down to its line, the others after a #line directive
 * with their #version blanked out (one version per source).  Without a
 * #version, the one [require] asks for goes on the padding's first line,
 * as shader_runner compiles such sources at the required version. */
static char *stage_source(const struct shtest_source *src, unsigned n,
                          unsigned version, size_t *len)
{
    size_t cap = src[0].line + 32;
    for (unsigned k = 0; k < n; k++)
        cap += src[k].len + 32;
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    bool has_version = false;
    for (size_t i = 0; !has_version && i + 8 <= src[0].len; i++)
        has_version = !memcmp(src[0].text + i, "#version", 8);
    if (!has_version && version > 110 && src[0].line > 1)
        o += snprintf(o, 32, "#version %u", version);
    for (unsigned l = 1; l < src[0].line; l++)
        *o++ = '\n';
    for (unsigned k = 0; k < n; k++) {
        if (k) {
            if (o > out && o[-1] != '\n')
                *o++ = '\n';
            o += snprintf(o, 32, "#line %u\n", src[k].line);
        }
        char *start = o;
        memcpy(o, src[k].text, src[k].len);
        o += src[k].len;
        for (char *q = start; k && q < o; q++) {
            char *d = q;
            while (d < o && (*d == ' ' || *d == '\t'))
                d++;
            if (d < o && *d == '#') {
                d++;
                while (d < o && (*d == ' ' || *d == '\t'))
                    d++;
                if (o - d >= 7 && !memcmp(d, "version", 7))
                    for (; q < o && *q != '\n'; q++)
                        *q = ' ';
            }
            while (q < o && *q != '\n')
                q++;
        }
    }
    *o = 0;
    *len = (size_t)(o - out);
    return out;
}


/* Front step (legacy sources; the link table is shared) and compiler for
 * one stage; GLSL 3.30 and later go to the compiler as they are. */
static bool compile_glsl(struct runner *R, enum us_stage st, const char *text,
                         size_t len)
{
    char what[32];
    snprintf(what, sizeof what, "%s shader", stage_names[st]);
    struct us_program *prog = &R->prog[st];
    char *rew = NULL;
    size_t rlen = len;
    struct us_diag d = { 0 };
    if (us_glsl_is_legacy(text, len) &&
        !us_glsl_front(text, len, st, &R->link, &rew, &rlen, &d))
        return fail_at(R, d.line, d.col, "%s: %s", what, d.msg);
    struct us_glsl_options opt;
    us_glsl_options_init(&opt);
    opt.varying_slots = R->env->backend->varying_slots;
    bool ok = us_glsl_compile(what, rew ? rew : text, rlen, st, &opt, prog,
                              &R->info[st], &d);
    free(rew);
    if (!ok)  /* the compiler's message names `what` itself */
        return fail_at(R, d.line, d.col, "%s", d.msg);
    R->glsl[st] = true;
    R->sampler_of[st] = malloc(prog->ninsts ? prog->ninsts : 1);
    if (!R->sampler_of[st])
        return fail_at(R, 0, 0, "out of memory");
    for (unsigned i = 0; i < prog->ninsts; i++)
        R->sampler_of[st][i] = prog->insts[i].tex_unit;
    return true;
}

/* The [... shader] sections of stage `st` compiled as one source. */
static bool compile_sections(struct runner *R, enum us_stage st)
{
    const struct shtest *t = R->t;
    size_t len;
    char *text = stage_source(t->sh[st], t->nsh[st], t->glsl_version, &len);
    if (!text)
        return fail_at(R, 0, 0, "out of memory");
    bool ok = compile_glsl(R, st, text, len);
    free(text);
    return ok;
}

/* The PARAM declaration of uniform `name` in `prog`, or NULL. */
static const struct us_decl *uniform_decl(const struct us_program *prog,
                                          const char *name)
{
    for (unsigned k = 0; k < prog->ndecls; k++)
        if (prog->decls[k].kind == US_DECL_PARAM &&
            !strcmp(prog->decls[k].name, name))
            return &prog->decls[k];
    return NULL;
}

/* GLSL 1.20 4.3.5: an initialized uniform holds its initializer's value
 * at link time.  The translator puts it in the program.local slots'
 * us_param.value; a uniform of the same name in the other stage is the
 * same uniform (GL links them by name), so it starts with that value too.
 * A zero initializer is GL's default value already. */
static void load_initializers(struct runner *R)
{
    static const us_vec4 zero;
    for (unsigned st = 0; st < US_STAGE_COUNT; st++) {
        if (!R->glsl[st])
            continue;
        const struct us_program *prog = &R->prog[st];
        for (unsigned k = 0; k < prog->ndecls; k++) {
            const struct us_decl *d = &prog->decls[k];
            if (d->kind != US_DECL_PARAM)
                continue;
            bool init = false;  /* bits: an integer's may be a float 0 */
            for (unsigned i = 0; i < d->size; i++) {
                const struct us_param *p = &prog->params[d->base + i];
                if (p->kind == US_PARAM_LOCAL)
                    init |= memcmp(p->value, zero, sizeof zero) != 0;
            }
            for (unsigned to = 0; init && to < US_STAGE_COUNT; to++) {
                const struct us_program *tp = &R->prog[to];
                const struct us_decl *td =
                    R->glsl[to] ? uniform_decl(tp, d->name) : NULL;
                if (!td || td->size != d->size)
                    continue;
                for (unsigned i = 0; i < d->size; i++) {
                    const struct us_param *p = &prog->params[d->base + i];
                    const struct us_param *q = &tp->params[td->base + i];
                    if (p->kind == US_PARAM_LOCAL && q->kind == US_PARAM_LOCAL)
                        memcpy(R->gl.local[to][q->index], p->value,
                               sizeof p->value);
                }
            }
        }
    }
}

static bool compile_programs(struct runner *R,
                             const struct shtest_source *ffvp)
{
    const struct shtest *t = R->t;
    us_glsl_link_init(&R->link);
    us_glsl_link_slots(&R->link, R->env->backend->varying_slots);
    bool ok;
    if (t->nsh[US_STAGE_COMPUTE]) {
        R->have_cp = true;
        ok = compile_sections(R, US_STAGE_COMPUTE);
        if (ok)
            load_initializers(R);
        return ok;
    }
    if (t->nsh[US_STAGE_VERTEX])
        ok = compile_sections(R, US_STAGE_VERTEX);
    else if (t->vs_passthrough)
        ok = compile_glsl(R, US_STAGE_VERTEX, passthrough_vs,
                          sizeof passthrough_vs - 1);
    else
        ok = assemble(R, ffvp, US_STAGE_VERTEX, &R->prog[US_STAGE_VERTEX]);
    R->have_fp = t->nsh[US_STAGE_FRAGMENT] > 0;
    if (ok && R->have_fp)
        ok = compile_sections(R, US_STAGE_FRAGMENT);
    if (ok)
        load_initializers(R);
    return ok;
}

/* The translator's scalar type of uniform `name` (or of the variable
 * `base` it indexes); the command's own when the translator did not list
 * it. */
static unsigned uniform_type(const struct us_glsl_info *info,
                             const char *name, const char *base,
                             const struct shtest_cmd *c)
{
    unsigned n = info->nuniforms < US_GLSL_MAX_UNIFORMS ? info->nuniforms
                                                        : US_GLSL_MAX_UNIFORMS;
    for (unsigned pass = 0; pass < 2; pass++)
        for (unsigned k = 0; k < n; k++)
            if (!strcmp(info->uniforms[k].name, pass ? base : name))
                return info->uniforms[k].type;
    return c->sub == SH_U_FLOAT || info->float_integers ? US_GLSL_FLOAT
         : c->sub == SH_U_INT ? US_GLSL_INT
         : c->sub == SH_U_UINT ? US_GLSL_UINT : US_GLSL_BOOL;
}

/* The 32 bits value v of command c gives a slot component of a uniform of
 * scalar type `type` (us_glsl_scalar): a float's bits; an integer's bits;
 * a bool as 1.0 or 0.0 (glUniform of any type sets a bool, GL 4.3 §7.6.1).
 * Integers of a float-integer program are FLOAT uniforms: the value is
 * converted.  False when GL would refuse the type (a float for an integer
 * uniform: GL_INVALID_OPERATION, the uniform keeps its value). */
static bool uniform_word(unsigned type, const struct shtest_cmd *c,
                         unsigned v, uint32_t *out)
{
    uint32_t w = c->u[v];
    float f = c->f[v];
    if (c->sub != SH_U_FLOAT)
        f = c->sub == SH_U_INT ? (float)(int32_t)w : (float)w;
    switch (type) {
    case US_GLSL_INT:
    case US_GLSL_UINT:
        *out = w;
        return c->sub != SH_U_FLOAT;
    case US_GLSL_BOOL:
        f = (c->sub == SH_U_FLOAT ? f != 0.0f : w != 0) ? 1.0f : 0.0f;
        break;
    default:
        break;
    }
    memcpy(out, &f, sizeof f);
    return true;
}

/* shader_runner's set_uniform: NAME or NAME[I] of either stage (NAME a
 * variable or a struct member path, "s.v1", "l[2].k"); values
 * go to the uniform's program.local slots (a matrix: one per column; a
 * scalar replicated to x, y, z and w, as the translator reads scalars),
 * an int to a sampler selects its texture unit.  A name neither program has
 * is an inactive uniform, which the compiler may drop. */
static void set_uniform(struct runner *R, const struct shtest_cmd *c)
{
    char name[2 * US_MAX_NAME + 1], base[2 * US_MAX_NAME + 1];
    snprintf(name, sizeof name, "%.*s", c->i[1], R->t->text + c->i[0]);
    snprintf(base, sizeof base, "%s", name);
    unsigned elem = 0;
    char *br = strchr(base, '[');
    if (br) {
        elem = (unsigned)strtoul(br + 1, NULL, 10);
        *br = 0;
    }
    unsigned cols = c->i[2] ? (unsigned)c->i[2] : 1, rows = c->n / cols;
    for (unsigned st = 0; st < US_STAGE_COUNT; st++) {
        if (!R->glsl[st])
            continue;
        const struct us_glsl_info *info = &R->info[st];
        for (unsigned k = 0; k < info->nsamplers; k++)
            if (!strcmp(info->samplers[k].name, name) && c->sub == SH_U_INT &&
                c->u[0] < US_MAX_TEX_UNITS)
                R->sampler_unit[st][info->samplers[k].unit] =
                    (uint8_t)c->u[0];
        const struct us_program *prog = &R->prog[st];
        /* the slots: the name as the translator listed it (a variable,
         * "s.v1", "l[2].k"), else a variable's declaration or a listed
         * struct member indexed by [I] ("a[3]", "s.arr[1]") */
        unsigned first = 0, size = 0, at = elem;
        bool found = false;
        for (unsigned k = 0; k < info->nuniforms &&
                             k < US_GLSL_MAX_UNIFORMS && !found; k++)
            if (!strcmp(info->uniforms[k].name, name)) {
                first = info->uniforms[k].param;
                size = info->uniforms[k].slots;
                at = 0;
                found = true;
            }
        const struct us_decl *d =
            found || strchr(name, '.') ? NULL : uniform_decl(prog, base);
        if (d) {
            first = d->base, size = d->size, found = true;
        }
        for (unsigned k = 0; k < info->nuniforms &&
                             k < US_GLSL_MAX_UNIFORMS && !found; k++)
            if (!strcmp(info->uniforms[k].name, base)) {
                first = info->uniforms[k].param;
                size = info->uniforms[k].slots;
                found = true;
            }
        unsigned type = uniform_type(info, name, base, c);
        if (found && (at + 1) * cols <= size && type != US_GLSL_AGGREGATE) {
            for (unsigned col = 0; col < cols; col++) {
                const struct us_param *p =
                    &prog->params[first + at * cols + col];
                if (p->kind != US_PARAM_LOCAL)
                    continue;
                uint32_t w[4] = { 0, 0, 0, 0 };  /* 0.0f too */
                bool ok = true;
                for (unsigned j = 0; j < 4; j++)
                    if (rows == 1 || j < rows)  /* a scalar: replicated */
                        ok &= uniform_word(type, c, rows == 1 ? col
                                                              : col * rows + j,
                                           &w[j]);
                if (ok)
                    memcpy(R->gl.local[st][p->index], w, sizeof w);
            }
        }
    }
}

/* ---- textures -------------------------------------------------------- */

static enum gfx_tex_kind kind_of_target(enum us_tex_target tg)
{
    switch (tg) {
    case US_TEX_1D: case US_TEX_SHADOW1D: return GFX_TEX_1D;
    case US_TEX_3D: return GFX_TEX_3D;
    case US_TEX_CUBE: return GFX_TEX_CUBE;
    case US_TEX_RECT: case US_TEX_SHADOWRECT: return GFX_TEX_RECT;
    default: return GFX_TEX_2D;
    }
}

static const char *const filter_names[] = {
    [SH_NEAREST] = "nearest", [SH_LINEAR] = "linear",
    [SH_NEAREST_MIPMAP_NEAREST] = "nearest_mipmap_nearest",
    [SH_LINEAR_MIPMAP_NEAREST] = "linear_mipmap_nearest",
    [SH_NEAREST_MIPMAP_LINEAR] = "nearest_mipmap_linear",
    [SH_LINEAR_MIPMAP_LINEAR] = "linear_mipmap_linear",
};

/* The pipeline's filter for a (min, mag) pair; false when it has none. */
static bool gfx_filter_of(const struct texunit *u, enum gfx_filter *f)
{
    if (u->min == SH_NEAREST && u->mag == SH_NEAREST)
        *f = GFX_FILTER_NEAREST;
    else if (u->min == SH_LINEAR && u->mag == SH_LINEAR)
        *f = GFX_FILTER_BILINEAR;
    else if (u->min == SH_NEAREST_MIPMAP_NEAREST && u->mag == SH_NEAREST)
        *f = GFX_FILTER_MIP_NEAREST;
    else if (u->min == SH_LINEAR_MIPMAP_LINEAR && u->mag == SH_LINEAR)
        *f = GFX_FILTER_TRILINEAR;
    else
        return false;
    return true;
}

static void fill(struct gfx_level *l, const float rgba[4], unsigned x0,
                 unsigned x1, unsigned y0, unsigned y1)
{
    for (unsigned y = y0; y < y1; y++)
        for (unsigned x = x0; x < x1; x++)
            memcpy(gfx_texel(l, x, y, 0), rgba, 4 * sizeof(float));
}

/* piglit_rgbw_texture, piglit_miptree_texture, piglit_depth_texture. */
static bool make_texture(struct runner *R, const struct shtest_cmd *c)
{
    static const float red[4] = { 1, 0, 0, 1 }, green[4] = { 0, 1, 0, 1 },
                       blue[4] = { 0, 0, 1, 1 }, white[4] = { 1, 1, 1, 1 };
    static const float *const wheel[4] = { red, green, blue, white };
    unsigned u = (unsigned)c->i[0], w = (unsigned)c->i[1], h = (unsigned)c->i[2];
    struct texunit *tu = &R->unit[u];
    if (tu->present)
        gfx_texture_free(&tu->tex);
    memset(tu, 0, sizeof *tu);
    R->active = u;
    enum gfx_tex_kind kind = c->sub == SH_TEX_SHADOW1D ? GFX_TEX_1D
                           : c->sub == SH_TEX_SHADOWRECT ? GFX_TEX_RECT
                           : GFX_TEX_2D;
    struct us_diag d = { 0 };
    if (!gfx_texture_alloc(&tu->tex, kind, w, h, 1, &R->mem, &d))
        return fail_at(R, c->line, c->col, "%s", d.msg);
    tu->present = true;
    struct gfx_texture *t = &tu->tex;
    struct gfx_level *l0 = &t->level[0];
    t->wrap[0] = t->wrap[1] = t->wrap[2] = GFX_WRAP_CLAMP;
    tu->min = tu->mag = SH_NEAREST;
    switch (c->sub) {
    case SH_TEX_RGBW:
        /* quadrants, row 0 at t = 0: red, green below; blue, white above */
        fill(l0, red, 0, w / 2, 0, h / 2);
        fill(l0, green, w / 2, w, 0, h / 2);
        fill(l0, blue, 0, w / 2, h / 2, h);
        fill(l0, white, w / 2, w, h / 2, h);
        tu->enabled_2d = true;
        break;
    case SH_TEX_CHECKER: {
        /* piglit_checkerboard_texture with squares of half the size:
         * square (row, col) takes the second colour when row ^ col is odd.
         * It uploads floats to the unsized GL_RGBA, which Mesa stores as
         * RGBA8: the colours are rounded to n / 255 (glsl-fs-lots-of-tex
         * sums 34 lookups of 0.01, i.e. of 3 / 255) */
        float col8[8];
        for (unsigned k = 0; k < 8; k++) {
            float v = c->f[k] > 0.0f ? (c->f[k] < 1.0f ? c->f[k] : 1.0f) : 0.0f;
            col8[k] = roundf(v * 255.0f) / 255.0f;
        }
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                unsigned row = y / (h / 2 ? h / 2 : 1);
                unsigned col = x / (w / 2 ? w / 2 : 1);
                memcpy(gfx_texel(l0, x, y, 0), (row ^ col) & 1 ? col8 + 4
                                                               : col8,
                       4 * sizeof(float));
            }
        tu->enabled_2d = true;
        break;
    }
    case SH_TEX_MIPTREE:
        /* 8x8 with levels 8, 4, 2, 1 of solid red, green, blue, white */
        fill(l0, red, 0, 8, 0, 8);
        for (unsigned lv = 1; lv < 4; lv++) {
            struct gfx_level *l = &t->level[lv];
            unsigned s = 8u >> lv;
            size_t bytes = (size_t)s * s * 4 * sizeof(float);
            if (!gfx_budget_take(t->budget, bytes, 1, "a mipmap level", &d))
                return fail_at(R, c->line, c->col, "%s", d.msg);
            l->texels = malloc(bytes);
            if (!l->texels) {
                gfx_budget_give(t->budget, bytes);
                return fail_at(R, c->line, c->col, "out of memory");
            }
            t->charged += bytes;
            l->w = l->h = s;
            l->d = 1;
            t->nlevels = lv + 1;
            fill(l, wheel[lv], 0, s, 0, s);
        }
        tu->min = SH_NEAREST_MIPMAP_NEAREST;
        tu->enabled_2d = true;
        break;
    default:
        /* depth x / (w - 1), left to right; compare GL_GREATER */
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                float *p = gfx_texel(l0, x, y, 0);
                p[0] = p[1] = p[2] = w > 1 ? (float)x / (float)(w - 1)
                                           : NAN;  /* piglit's 0 / 0 */
                p[3] = 1.0f;
            }
        t->depth = true;
        t->compare = GFX_CMP_GREATER;
        t->depth_mode = GFX_DEPTH_LUMINANCE;
        tu->enabled_2d = c->sub == SH_TEX_SHADOW2D;
        break;
    }
    return true;
}

static void texparameter(struct runner *R, const struct shtest_cmd *c)
{
    static const enum gfx_tex_kind kinds[] = { GFX_TEX_1D, GFX_TEX_2D,
                                               GFX_TEX_3D, GFX_TEX_RECT,
                                               GFX_TEX_CUBE };
    struct texunit *tu = &R->unit[R->active];
    /* glTexParameter changes the texture bound to that target on the
     * active unit; with none made there it changes GL's default texture,
     * which no draw of the model samples. */
    if (!tu->present || tu->tex.kind != kinds[c->i[0]])
        return;
    struct gfx_texture *t = &tu->tex;
    switch (c->sub) {
    case SH_TP_COMPARE_FUNC: t->compare = (uint8_t)c->i[1]; break;
    case SH_TP_DEPTH_MODE: t->depth_mode = (uint8_t)c->i[1]; break;
    case SH_TP_MIN: tu->min = (uint8_t)c->i[1]; break;
    case SH_TP_MAG: tu->mag = (uint8_t)c->i[1]; break;
    case SH_TP_WRAP_S: t->wrap[0] = (enum gfx_wrap)c->i[1]; break;
    case SH_TP_WRAP_T: t->wrap[1] = (enum gfx_wrap)c->i[1]; break;
    default: t->wrap[2] = (enum gfx_wrap)c->i[1]; break;
    }
}

/* Bind the textures the fragment program samples.  A unit whose texture
 * has another target, or is not mipmap-complete for its filter, samples
 * as an incomplete texture: (0, 0, 0, 1) (GL 2.1 §3.8.10,
 * ARB_fragment_program §3.11.6). */
static bool bind_textures(struct runner *R)
{
    memset(R->st.tex, 0, sizeof R->st.tex);
    for (unsigned st = 0; st < US_STAGE_COUNT; st++)
        for (unsigned i = 0; i < R->prog[st].ninsts; i++) {
            /* every stage samples (a unified shader) */
            const struct us_inst *in = &R->prog[st].insts[i];
            if (us_ops[in->op].format != US_FMT_TEX)
                continue;
            struct texunit *tu = &R->unit[in->tex_unit];
            if (!tu->present ||
                tu->tex.kind != kind_of_target(in->tex_target))
                continue;
            enum gfx_filter f;
            if (!gfx_filter_of(tu, &f)) {
                skip(R, "texture filters min %s, mag %s are not modelled",
                     filter_names[tu->min], filter_names[tu->mag]);
                return false;
            }
            bool mip = f == GFX_FILTER_MIP_NEAREST ||
                       f == GFX_FILTER_TRILINEAR;
            if (mip && tu->tex.kind != GFX_TEX_RECT) {
                const struct gfx_level *l =
                    &tu->tex.level[tu->tex.nlevels - 1];
                if (l->w != 1 || l->h != 1)
                    continue;  /* missing levels: incomplete */
            }
            tu->tex.filter = f;
            R->st.tex[in->tex_unit] = &tu->tex;
        }
    return true;
}

/* The buffer objects the programs' memory instructions see, as the
 * translator binds them (include/ushader.h, us_glsl_buffer): shader
 * storage binding N is buffer[N], atomic counter buffer binding B is
 * buffer[US_GLSL_COUNTER_BINDING0 + B].  A program that asks for a runtime
 * array's length reads its buffer's byte size from a program.local slot,
 * set here for the launch or draw. */
_Static_assert(US_GLSL_COUNTER_BINDING0 + SHTEST_MAX_ATOMIC_BUFFERS <=
               US_MAX_BUFFERS, "every counter buffer binding has a buffer");

static struct us_memory *bind_memory(struct runner *R)
{
    struct us_memory *m = &R->bufmem;
    memset(m->buf, 0, sizeof m->buf);
    for (unsigned b = 0; b < US_GLSL_COUNTER_BINDING0; b++)
        m->buf[b] = R->ssbo[b];
    for (unsigned b = 0; b < SHTEST_MAX_ATOMIC_BUFFERS; b++)
        m->buf[US_GLSL_COUNTER_BINDING0 + b] = R->atomic[b];
    for (unsigned st = 0; st < US_STAGE_COUNT; st++) {
        const struct us_glsl_info *info = &R->info[st];
        for (unsigned k = 0; R->glsl[st] && k < info->nbuffers; k++) {
            const struct us_glsl_buffer *b = &info->buffers[k];
            if (b->size_local >= 0 && b->size_local < US_MAX_LOCAL_PARAMS &&
                b->binding < US_MAX_BUFFERS)
                memcpy(&R->gl.local[st][b->size_local][0],
                       &m->buf[b->binding].size, sizeof(uint32_t));
        }
    }
    return m;
}

/* ---- drawing --------------------------------------------------------- */

/* Sampler uniforms choose the unit of each texture instruction. */
static void remap_samplers(struct runner *R)
{
    for (unsigned st = 0; st < US_STAGE_COUNT; st++) {
        struct us_program *prog = &R->prog[st];
        if (!R->glsl[st])
            continue;
        for (unsigned i = 0; i < prog->ninsts; i++)
            if (us_ops[prog->insts[i].op].format == US_FMT_TEX)
                prog->insts[i].tex_unit =
                    R->sampler_unit[st][R->sampler_of[st][i]];
    }
}

/* Draw a mesh with the current programs and state. */
static bool draw(struct runner *R, const struct shtest_cmd *c,
                 struct gfx_mesh *m)
{
    bool ok = true;
    if (R->have_cp) {
        gfx_mesh_free(m);
        return fail_at(R, c->line, c->col, "a draw with a compute program");
    }
    if (!R->have_fp && !ff_fragment(R))
        ok = false;
    remap_samplers(R);
    if (ok && !bind_textures(R)) {
        gfx_mesh_free(m);
        return true;  /* skipped */
    }
    struct us_diag d = { 0 };
    struct gfx_draw dr = {
        .mesh = m, .vp = &R->prog[US_STAGE_VERTEX],
        .fp = &R->prog[US_STAGE_FRAGMENT], .gl = &R->gl, .state = &R->st,
        .math = R->env->math, .backend = R->env->backend, .budget = &R->mem,
        .mem = bind_memory(R),
    };
    struct gfx_stats stats = { 0 };
    if (ok && !gfx_draw_mesh(&R->fb, &dr, &stats, &d))
        ok = fail_at(R, c->line, c->col, "%s", d.msg);
    gfx_mesh_free(m);
    return ok;
}

/* GL's current values of the conventional attributes for vertex v (the
 * mesh stores every attribute: GFX_ALL_ATTRS). */
static void current_attribs(const struct runner *R, struct gfx_mesh *m,
                            unsigned v)
{
    memcpy(m->attr[GFX_ATTR_COLOR0][v], R->color, sizeof(us_vec4));
    for (unsigned n = 0; n < US_MAX_TEX_COORDS; n++)
        memcpy(m->attr[GFX_ATTR_TEXCOORD0 + n][v], R->texcoord[n],
               sizeof(us_vec4));
}

/* piglit_draw_rect(_tex): a triangle strip of four vertices. */
static bool draw_rect(struct runner *R, const struct shtest_cmd *c)
{
    struct gfx_mesh m;
    struct us_diag d = { 0 };
    if (!gfx_mesh_alloc(&m, 4, GFX_ALL_ATTRS, 2, &R->mem, &d))
        return fail_at(R, c->line, c->col, "%s", d.msg);
    float f[8];
    memcpy(f, c->f, sizeof f);
    if (c->op == SH_DRAW_RECT_ORTHO) {
        /* shader_runner: window coordinates to [-1, 1] */
        f[0] = -1.0f + 2.0f * (f[0] / (float)R->fb.w);
        f[1] = -1.0f + 2.0f * (f[1] / (float)R->fb.h);
        f[2] = 2.0f * (f[2] / (float)R->fb.w);
        f[3] = 2.0f * (f[3] / (float)R->fb.h);
    }
    const struct us_glsl_slot *tc =
        us_glsl_link_attrib(&R->link, "piglit_texcoord");
    for (unsigned i = 0; i < 4; i++) {
        float *p = m.attr[GFX_ATTR_POSITION][i];
        p[0] = i & 1 ? f[0] + f[2] : f[0];
        p[1] = i & 2 ? f[1] + f[3] : f[1];
        p[2] = 0.0f;
        p[3] = 1.0f;
        current_attribs(R, &m, i);
        if (c->op == SH_DRAW_RECT_TEX) {
            /* a 2-component texcoord array: r = 0, q = 1 */
            float *t = m.attr[GFX_ATTR_TEXCOORD0][i];
            t[0] = i & 1 ? f[4] + f[6] : f[4];
            t[1] = i & 2 ? f[5] + f[7] : f[5];
            t[2] = 0.0f;
            t[3] = 1.0f;
            if (tc && tc->first < GFX_ATTR_COUNT)
                memcpy(m.attr[tc->first][i], t, sizeof(us_vec4));
        }
    }
    /* GL 2.1 §2.6.1: strip triangle i is (i, i+1, i+2), odd ones with
     * the first two swapped so every triangle keeps the strip's winding */
    static const uint32_t idx[6] = { 0, 1, 2, 2, 1, 3 };
    memcpy(m.idx, idx, sizeof idx);
    return draw(R, c, &m);
}

/* glDrawArrays over the [vertex data] rows (GL 2.1 §2.6.1). */
static bool draw_arrays(struct runner *R, const struct shtest_cmd *c)
{
    const struct shtest_vdata *vd = &R->t->vdata;
    unsigned first = (unsigned)c->i[0], count = (unsigned)c->i[1];
    if (!vd->nrows || first >= vd->nrows || count > vd->nrows - first)
        return fail_at(R, c->line, c->col, "draw arrays %u..%u beyond the "
                       "%u rows of [vertex data]", first, first + count,
                       vd->nrows);
    unsigned ntris = c->sub == SH_PRIM_TRIANGLES ? count / 3
                   : c->sub == SH_PRIM_QUADS ? count / 4 * 2
                   : count >= 3 ? count - 2 : 0;
    struct gfx_mesh m;
    struct us_diag d = { 0 };
    if (!gfx_mesh_alloc(&m, count, GFX_ALL_ATTRS, ntris, &R->mem, &d))
        return fail_at(R, c->line, c->col, "%s", d.msg);
    for (unsigned i = 0; i < count; i++)
        current_attribs(R, &m, i);
    for (unsigned k = 0; k < vd->ncols; k++) {
        const struct shtest_vcol *col = &vd->col[k];
        char name[US_MAX_NAME];
        snprintf(name, sizeof name, "%.*s", (int)col->name_len,
                 R->t->text + col->name_at);
        const struct us_glsl_slot *a = us_glsl_link_attrib(&R->link, name);
        if (!a || a->first >= GFX_ATTR_COUNT)
            continue;  /* not an active attribute */
        for (unsigned i = 0; i < count; i++) {
            const float *src = vd->values + (size_t)(first + i) * vd->stride +
                               col->offset;
            float *dst = m.attr[a->first][i];
            /* missing components are (0, 0, 0, 1), of an integer
             * attribute as integers (glVertexAttribIPointer) */
            static const uint32_t one = 1;
            for (unsigned j = 0; j < 4; j++) {
                if (j < col->comps)
                    memcpy(&dst[j], &src[j], sizeof dst[j]);  /* bits */
                else if (j < 3)
                    dst[j] = 0.0f;
                else if (col->type == SH_V_FLOAT)
                    dst[j] = 1.0f;
                else
                    memcpy(&dst[j], &one, sizeof one);
            }
        }
    }
    for (unsigned t = 0; t < ntris; t++) {
        uint32_t *x = &m.idx[3 * t];
        if (c->sub == SH_PRIM_TRIANGLES) {
            x[0] = 3 * t, x[1] = 3 * t + 1, x[2] = 3 * t + 2;
        } else if (c->sub == SH_PRIM_TRIANGLE_FAN) {
            x[0] = 0, x[1] = t + 1, x[2] = t + 2;
        } else if (c->sub == SH_PRIM_QUADS) {
            /* quad q = (a, b, c, d) as (a, b, d) and (b, c, d), as
             * Gallium's draw module decomposes it (the last vertex stays
             * the provoking one) */
            uint32_t q = 4 * (t / 2);
            x[0] = t & 1 ? q + 1 : q;
            x[1] = t & 1 ? q + 2 : q + 1;
            x[2] = q + 3;
        } else {
            x[0] = t & 1 ? t + 1 : t;
            x[1] = t & 1 ? t : t + 1;
            x[2] = t + 2;
        }
    }
    return draw(R, c, &m);
}

static void clear(struct runner *R)
{
    size_t n = (size_t)R->fb.w * R->fb.h;
    for (size_t i = 0; i < n; i++) {
        if (R->clear_color_bit)
            memcpy(R->fb.color + 4 * i, R->clear_color, sizeof R->clear_color);
        if (R->clear_depth_bit)
            R->fb.depth[i] = R->clear_depth;
    }
}

/* glClipPlane (GL 2.1 §2.12): the plane is kept in eye space, multiplied
 * by the inverse of the current modelview (a singular one leaves the
 * plane as given). */
static void clip_plane(struct runner *R, const struct shtest_cmd *c)
{
    float *out = R->gl.clip_plane[c->i[0]];
    us_mat4 inv;
    if (!us_mat4_inverse(inv, R->gl.modelview)) {
        memcpy(out, c->f, 4 * sizeof *out);
        return;
    }
    for (int j = 0; j < 4; j++)
        out[j] = c->f[0] * inv[j] + c->f[1] * inv[4 + j] +
                 c->f[2] * inv[8 + j] + c->f[3] * inv[12 + j];
}

/* glOrtho / glFrustum on an identity projection (GL 2.1 §2.11.2), computed
 * in double and rounded once; invalid bounds leave the identity, as
 * GL_INVALID_VALUE does.  The modelview becomes identity. */
static void projection(struct runner *R, const struct shtest_cmd *c)
{
    float *m = R->gl.projection;
    us_mat4_identity(m);
    us_mat4_identity(R->gl.modelview);
    double l, r, b, t, n, f;
    if (c->op == SH_ORTHO_WINDOW) {
        l = 0, r = R->fb.w, b = 0, t = R->fb.h, n = -1, f = 1;
    } else {
        l = c->f[0], r = c->f[1], b = c->f[2], t = c->f[3];
        n = c->op == SH_FRUSTUM ? c->f[4] : -1;
        f = c->op == SH_FRUSTUM ? c->f[5] : 1;
    }
    if (l == r || b == t || n == f)
        return;
    if (c->op == SH_FRUSTUM) {
        if (!(n > 0 && f > 0))
            return;
        m[0] = (float)(2 * n / (r - l));
        m[2] = (float)((r + l) / (r - l));
        m[5] = (float)(2 * n / (t - b));
        m[6] = (float)((t + b) / (t - b));
        m[10] = (float)(-(f + n) / (f - n));
        m[11] = (float)(-2 * f * n / (f - n));
        m[14] = -1.0f;
        m[15] = 0.0f;
    } else {
        m[0] = (float)(2 / (r - l));
        m[3] = (float)(-(r + l) / (r - l));
        m[5] = (float)(2 / (t - b));
        m[7] = (float)(-(t + b) / (t - b));
        m[10] = (float)(-2 / (f - n));
        m[11] = (float)(-(f + n) / (f - n));
    }
}

/* ---- buffer objects and compute -------------------------------------- */

/* glBufferData(size, zeros) at a binding point: the old buffer object's
 * storage goes back to the budget. */
static bool make_buffer(struct runner *R, const struct shtest_cmd *c,
                        struct us_buffer *b, const char *what)
{
    struct us_diag d = { 0 };
    size_t size = (size_t)c->i[1];
    if (b->data)
        gfx_budget_give(&R->mem, (size_t)b->size + 1);
    free(b->data);
    *b = (struct us_buffer){ 0 };
    /* one byte more, so that an empty buffer has storage too */
    if (!gfx_budget_take(&R->mem, size + 1, 1, what, &d))
        return fail_at(R, c->line, c->col, "%s", d.msg);
    if (!(b->data = calloc(size + 1, 1))) {
        gfx_budget_give(&R->mem, size + 1);
        return fail_at(R, c->line, c->col, "out of memory");
    }
    b->size = (uint32_t)size;
    return true;
}

static unsigned dtype_bytes(unsigned type)
{
    return type == SH_D_DOUBLE || type == SH_D_INT64 || type == SH_D_UINT64
           ? 8 : 4;
}

static const char *const dtype_names[] = {
    [SH_D_INT] = "int", [SH_D_UINT] = "uint", [SH_D_FLOAT] = "float",
    [SH_D_DOUBLE] = "double", [SH_D_INT64] = "int64",
    [SH_D_UINT64] = "uint64",
};

/* The bytes [offset, offset + n) of buffer object b, or NULL. */
static uint8_t *buffer_range(const struct us_buffer *b, int offset,
                             unsigned n)
{
    if (!b->data || offset < 0 || (uint64_t)offset + n > b->size)
        return NULL;
    return b->data + offset;
}

/* glBufferSubData of one value (ssbo N subdata, atomic counter B I V). */
static bool subdata(struct runner *R, const struct shtest_cmd *c,
                    const struct us_buffer *b, const char *what, int offset,
                    unsigned n)
{
    uint8_t *at = buffer_range(b, offset, n);
    if (!b->data)
        return fail_at(R, c->line, c->col, "%s: no buffer object at that "
                       "binding", what);
    if (!at)
        return fail_at(R, c->line, c->col, "%s: bytes %d..%d are outside "
                       "the buffer of %u bytes", what, offset,
                       offset + (int)n - 1, b->size);
    memcpy(at, c->u, n);  /* u[] holds the value's bytes, host order */
    return true;
}

static bool compare_u64(uint64_t want, uint64_t seen, int cmp, bool is_signed)
{
    int64_t ws = (int64_t)want, ss = (int64_t)seen;
    switch (cmp) {
    case SH_CMP_EQ: return seen == want;
    case SH_CMP_LT: return is_signed ? ss < ws : seen < want;
    case SH_CMP_GE: return is_signed ? ss >= ws : seen >= want;
    case SH_CMP_GT: return is_signed ? ss > ws : seen > want;
    default: return is_signed ? ss <= ws : seen <= want;
    }
}

/* shader_runner's compare_double: == and != within DBL_EPSILON. */
static bool compare_f64(double want, double seen, int cmp)
{
    switch (cmp) {
    case SH_CMP_EQ: return fabs(seen - want) < DBL_EPSILON;
    case SH_CMP_LT: return seen < want;
    case SH_CMP_GE: return seen >= want;
    case SH_CMP_GT: return seen > want;
    default: return seen <= want;
    }
}

static const char *const cmp_names[] = {
    [SH_CMP_EQ] = "==", [SH_CMP_LT] = "<", [SH_CMP_GE] = ">=",
    [SH_CMP_GT] = ">", [SH_CMP_LE] = "<=",
};

/* A value of `type` read from p (4 or 8 bytes), printed into buf. */
static void format_value(char *buf, size_t n, unsigned type, const void *p)
{
    uint32_t u;
    uint64_t q;
    float f;
    double d;
    switch (type) {
    case SH_D_INT: memcpy(&u, p, 4); snprintf(buf, n, "%d", (int32_t)u); break;
    case SH_D_UINT: memcpy(&u, p, 4); snprintf(buf, n, "%u", u); break;
    case SH_D_FLOAT: memcpy(&f, p, 4); snprintf(buf, n, "%g", (double)f); break;
    case SH_D_DOUBLE: memcpy(&d, p, 8); snprintf(buf, n, "%g", d); break;
    case SH_D_INT64:
        memcpy(&q, p, 8);
        snprintf(buf, n, "%" PRId64, (int64_t)q);
        break;
    default: memcpy(&q, p, 8); snprintf(buf, n, "%" PRIu64, q); break;
    }
}

/* probe ssbo / probe atomic counter: the value at byte offset i[1] of b
 * compared with u[] by i[2]; a buffer that is missing or too small fails
 * the probe, as shader_runner's glMapBufferRange does. */
static void probe_buffer(struct runner *R, const struct shtest_cmd *c,
                         const struct us_buffer *b, unsigned type,
                         const char *what)
{
    unsigned n = dtype_bytes(type);
    const uint8_t *at = buffer_range(b, c->i[1], n);
    R->r->probes++;
    bool ok = false;
    if (at) {
        uint64_t want = 0, seen = 0;
        memcpy(&want, c->u, n);
        memcpy(&seen, at, n);
        if (type == SH_D_FLOAT || type == SH_D_DOUBLE) {
            float wf, sf;
            double wd, sd;
            memcpy(&wf, c->u, 4), memcpy(&sf, at, 4);
            memcpy(&wd, c->u, 8), memcpy(&sd, at, 8);
            ok = type == SH_D_FLOAT ? compare_f64(wf, sf, c->i[2])
                                    : compare_f64(wd, sd, c->i[2]);
        } else {
            bool is_signed = type == SH_D_INT || type == SH_D_INT64;
            if (n == 4 && is_signed) {  /* sign-extend to compare */
                want = (uint64_t)(int64_t)(int32_t)(uint32_t)want;
                seen = (uint64_t)(int64_t)(int32_t)(uint32_t)seen;
            }
            ok = compare_u64(want, seen, c->i[2], is_signed);
        }
    }
    if (ok)
        return;
    R->r->failed++;
    if (R->r->status == SHTEST_FAIL)
        return;  /* the first failure is the one reported */
    char e[48], o[48];
    format_value(e, sizeof e, type, c->u);
    if (at)
        format_value(o, sizeof o, type, at);
    else if (b->data)
        snprintf(o, sizeof o, "nothing (a buffer of %u bytes)", b->size);
    else
        snprintf(o, sizeof o, "nothing (no buffer object)");
    snprintf(R->r->msg, sizeof R->r->msg,
             "%s %d: %s at byte %d: expected %s %s, observed %s", what,
             c->i[0], dtype_names[type], c->i[1], cmp_names[c->i[2]], e, o);
    R->r->status = SHTEST_FAIL;
    R->r->line = c->line;
}

/* Work-items of one `compute` at most: a launch of 2^24 already takes
 * minutes on the interpreter. */
enum { MAX_WORK_ITEMS = 1 << 24 };

/* compute X Y Z: glDispatchCompute on the program's local size (GL 4.3
 * §19: work-group (x, y, z) of X x Y x Z, in the reference order of
 * docs/COMPUTE.md), after glMemoryBarrier: every earlier write is
 * visible. */
static bool compute(struct runner *R, const struct shtest_cmd *c)
{
    if (!R->have_cp)
        return fail_at(R, c->line, c->col, "compute without a compute "
                       "program");
    struct us_program *cp = &R->prog[US_STAGE_COMPUTE];
    uint32_t groups[3] = { (uint32_t)c->i[0], (uint32_t)c->i[1],
                           (uint32_t)c->i[2] };
    if (!groups[0] || !groups[1] || !groups[2])
        return true;  /* an empty launch does nothing */
    struct us_diag d = { 0 };
    if (!us_compute_items(cp, groups, MAX_WORK_ITEMS, &d))
        return fail_at(R, c->line, c->col, "%s", d.msg);
    remap_samplers(R);
    if (!bind_textures(R))
        return true;  /* skipped */
    us_vec4 *params = malloc((cp->nparams + 1) * sizeof *params);
    if (!params)
        return fail_at(R, c->line, c->col, "out of memory");
    struct us_memory *mem = bind_memory(R);  /* sets size parameters */
    us_resolve_params(cp, &R->gl, params);
    struct gfx_sampler sampler = { .samples = 0 };
    memcpy(sampler.unit, R->st.tex, sizeof sampler.unit);
    struct us_exec_env env = {
        .params = params, .math = R->env->math, .sample = gfx_sample,
        .sample_ctx = &sampler, .max_insts = R->env->backend->max_insts,
        .mem = mem,
    };
    bool ok = R->env->compute
              ? R->env->compute(R->env->compute_ctx, cp, &env, groups, &d)
              : us_compute_interpret(cp, &env, groups, NULL, &d);
    free(params);
    return ok || fail_at(R, c->line, c->col, "%s", d.msg);
}

static bool play(struct runner *R, const struct shtest_cmd *c)
{
    R->cmd = c;
    switch (c->op) {
    case SH_CLEAR_COLOR:
        for (int i = 0; i < 4; i++)
            R->clear_color[i] = clamp01(c->f[i]);  /* glClearColor clamps */
        R->clear_color_bit = true;
        return true;
    case SH_CLEAR_DEPTH:
        R->clear_depth = clamp01(c->f[0]);
        R->clear_depth_bit = true;
        return true;
    case SH_CLEAR:
        clear(R);
        return true;
    case SH_COLOR:
        memcpy(R->color, c->f, sizeof(us_vec4));
        return true;
    case SH_TEXCOORD:
        memcpy(R->texcoord[c->i[0]], c->f, sizeof(us_vec4));
        return true;
    case SH_DRAW_RECT:
    case SH_DRAW_RECT_TEX:
    case SH_DRAW_RECT_ORTHO:
        return draw_rect(R, c);
    case SH_DRAW_ARRAYS:
        return draw_arrays(R, c);
    case SH_UNIFORM:
        set_uniform(R, c);
        return true;
    case SH_PROBE_RECT:
    case SH_PROBE_RECT_REL:
        return probe_rect(R, c);
    case SH_ORTHO:
    case SH_ORTHO_WINDOW:
    case SH_FRUSTUM:
        projection(R, c);
        return true;
    case SH_CLIP_PLANE:
        clip_plane(R, c);
        return true;
    case SH_PARAMETER: {
        bool vp = c->sub == SH_ENV_VP || c->sub == SH_LOCAL_VP;
        bool env = c->sub == SH_ENV_VP || c->sub == SH_ENV_FP;
        unsigned stage = vp ? US_STAGE_VERTEX : US_STAGE_FRAGMENT;
        float *dst = env ? R->gl.env[stage][c->i[0]]
                         : R->gl.local[stage][c->i[0]];
        memcpy(dst, c->f, sizeof(us_vec4));
        return true;
    }
    case SH_PROBE:
    case SH_PROBE_REL:
        return probe(R, c);
    case SH_PROBE_ALL:
        probe_all(R, c);
        return true;
    case SH_PROBE_DEPTH:
        return probe_depth(R, c);
    case SH_TEXTURE:
        return make_texture(R, c);
    case SH_TEXPARAMETER:
        texparameter(R, c);
        return true;
    case SH_ENABLE:
        if (c->sub == SH_CAP_DEPTH_TEST)
            R->st.depth_test = c->i[0] != 0;
        else if (c->sub == SH_CAP_FLAT_SHADE)
            R->st.flat_shade = c->i[0] != 0;
        else if (c->sub == SH_CAP_CLIP_PLANE)
            R->st.clip_planes = (uint8_t)(c->i[0]
                ? R->st.clip_planes | 1u << c->i[1]
                : R->st.clip_planes & ~(1u << c->i[1]));
        else
            R->st.two_side = c->i[0] != 0;
        return true;
    case SH_TOLERANCE:
        memcpy(R->tol, c->f, sizeof R->tol);
        return true;
    case SH_COMPUTE:
        return compute(R, c);
    case SH_SSBO:
        return make_buffer(R, c, &R->ssbo[c->i[0]], "a shader storage "
                           "buffer");
    case SH_SSBO_SUBDATA:
        return subdata(R, c, &R->ssbo[c->i[0]], "ssbo subdata", c->i[1],
                       dtype_bytes(c->sub));
    case SH_PROBE_SSBO:
        probe_buffer(R, c, &R->ssbo[c->i[0]], c->sub, "probe ssbo");
        return true;
    case SH_ATOMIC_BUFFER: {
        struct shtest_cmd sized = *c;
        sized.i[1] = 4 * c->i[1];  /* counters are GLuints */
        return make_buffer(R, &sized, &R->atomic[c->i[0]],
                           "an atomic counter buffer");
    }
    case SH_ATOMIC_SET:
        return subdata(R, c, &R->atomic[c->i[0]], "atomic counter",
                       4 * c->i[1], 4);
    case SH_PROBE_ATOMIC:
        probe_buffer(R, c, &R->atomic[c->i[0]], SH_D_UINT,
                     "probe atomic counter buffer");
        return true;
    default:
        return true;
    }
}

bool shtest_run(const struct shtest *t, const struct shtest_env *env,
                struct shtest_result *r, struct us_diag *diag)
{
    memset(r, 0, sizeof *r);
    memset(diag, 0, sizeof *diag);
    if (t->skip[0]) {
        r->status = SHTEST_SKIP;
        r->line = t->skip_line;
        snprintf(r->msg, sizeof r->msg, "%s", t->skip);
        return true;
    }
    struct runner *R = calloc(1, sizeof *R);
    if (!R) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    R->t = t;
    R->env = env;
    R->r = r;
    R->diag = diag;
    us_glstate_init(&R->gl);
    gfx_state_init(&R->st);
    R->st.depth_test = false;  /* GL's initial state (table 6.20) */
    R->st.depth_write = true;
    for (int i = 0; i < 4; i++) {
        R->color[i] = 1.0f;    /* current colour (1, 1, 1, 1) */
        R->tol[i] = default_tolerance;
    }
    for (unsigned n = 0; n < US_MAX_TEX_COORDS; n++)
        R->texcoord[n][3] = 1.0f;  /* (0, 0, 0, 1) */
    R->clear_depth = 1.0f;
    bool ok;
    struct shtest_source ffvp = { ff_vertex, sizeof ff_vertex - 1, 0 };
    if (t->glsl) {
        ok = compile_programs(R, &ffvp);
    } else if (t->cp.text) {
        R->have_cp = true;
        ok = assemble(R, &t->cp, US_STAGE_COMPUTE,
                      &R->prog[US_STAGE_COMPUTE]);
    } else {
        ok = assemble(R, t->vp.text ? &t->vp : &ffvp, US_STAGE_VERTEX,
                      &R->prog[US_STAGE_VERTEX]);
        R->have_fp = t->fp.text != NULL;
        if (ok && R->have_fp)
            ok = assemble(R, &t->fp, US_STAGE_FRAGMENT,
                          &R->prog[US_STAGE_FRAGMENT]);
    }
    struct us_diag d = { 0 };
    gfx_budget_init(&R->mem);
    char what[64];
    snprintf(what, sizeof what, "a %ux%u window", t->width, t->height);
    if (ok && !gfx_budget_take(&R->mem, gfx_fb_bytes(t->width, t->height), 1,
                               what, &d))
        ok = fail_at(R, 0, 0, "%s", d.msg);
    if (ok && !gfx_fb_init(&R->fb, t->width, t->height, &d))
        ok = fail_at(R, 0, 0, "%s", d.msg);
    for (unsigned i = 0; ok && i < t->ncmds && r->status != SHTEST_SKIP; i++)
        ok = play(R, &t->cmds[i]);
    if (ok && r->status == SHTEST_SKIP)
        r->probes = r->failed = 0;
    gfx_fb_free(&R->fb);
    for (unsigned st = 0; st < US_STAGE_COUNT; st++) {
        us_program_free(&R->prog[st]);
        free(R->sampler_of[st]);
    }
    for (unsigned b = 0; b < SHTEST_MAX_SSBOS; b++)
        free(R->ssbo[b].data);
    for (unsigned b = 0; b < SHTEST_MAX_ATOMIC_BUFFERS; b++)
        free(R->atomic[b].data);
    for (unsigned u = 0; u < US_MAX_TEX_UNITS; u++)
        if (R->unit[u].present)
            gfx_texture_free(&R->unit[u].tex);
    free(R);
    return ok;
}
