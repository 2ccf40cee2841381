/*
 * The scene format (docs/SCENES.md): one directive per line, words
 * separated by blanks, `#` starts a comment.  Directives build GL-like
 * state as an OpenGL program would, and `draw` records the mesh with a
 * snapshot of that state; rendering replays the draws in order.
 *
 * Grammar (every directive is one line):
 *   directive := word arg*        handled by one parse_* function each
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

enum { MAX_TOKENS = 48, MAX_DRAWS = 1024, MAX_STACK = 8 };

struct named_tex { char name[US_MAX_NAME]; struct gfx_texture tex; };
struct named_mesh { char name[US_MAX_NAME]; struct gfx_mesh mesh; };
struct named_prog { char name[US_MAX_NAME]; struct us_program prog; };

struct scene_draw {
    unsigned gl;               /* its GL state: gl[] of the scene         */
    struct gfx_state st;
    unsigned mesh, vp, fp;
};

struct gfx_scene {
    unsigned w, h;
    float clear[4];
    float fov, znear, zfar;
    struct named_tex tex[GFX_MAX_SCENE_TEXTURES];
    unsigned ntex;
    struct named_mesh mesh[GFX_MAX_SCENE_MESHES];
    unsigned nmesh;
    struct named_prog prog[GFX_MAX_SCENE_PROGRAMS];
    unsigned nprog;
    struct scene_draw *draws;
    unsigned ndraws;
    /* The GL states the draws see (modelview = view * model at the draw),
     * one for each run of draws that see the same: 65 KB each, mostly
     * program locals, copied again for every render. */
    struct us_glstate *gl;
    unsigned ngl;
    /* GFX_MEM_BUDGET_MIB for the scene's textures, meshes, draws and the
     * files it reads, then its render: each texture and mesh is limited
     * on its own, but 32 of the largest would need about 17 GiB */
    struct gfx_budget budget;
    char **inputs;             /* every file the scene read, in order */
    unsigned ninputs;
};

/* Parse-time state. */
struct parser {
    struct gfx_scene *s;
    const char *path;          /* the scene file; its first dirlen bytes */
    size_t dirlen;             /* are its directory, "" or "x/"          */
    struct us_diag *diag;
    unsigned line;
    const char *tok[MAX_TOKENS];
    unsigned col[MAX_TOKENS];
    unsigned ntok, pos;
    char buf[4096];
    struct us_glstate gl;
    struct gfx_state st;
    float view[16], model[16], stack[MAX_STACK][16];
    unsigned sp;
    int vp, fp;
};

static bool perr(struct parser *p, unsigned tok, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool perr(struct parser *p, unsigned tok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    p->diag->line = p->line;
    p->diag->col = tok < p->ntok ? p->col[tok]
                                 : (p->ntok ? p->col[p->ntok - 1] : 1);
    vsnprintf(p->diag->msg, sizeof p->diag->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* Re-home a message from a loader (which has no scene position): with a
 * position in `file`, "FILE:LINE:COL: MSG", the file's name shortened as
 * far as the whole message needs. */
static bool perr_from(struct parser *p, unsigned tok, const char *file)
{
    char m[sizeof p->diag->msg];
    if (p->diag->line) {
        char at[32], shown[GFX_SHOWN_PATH];
        snprintf(at, sizeof at, ":%u:%u: ", p->diag->line, p->diag->col);
        size_t used = strlen(at) + strlen(p->diag->msg);
        size_t room = used < sizeof m - 1 ? sizeof m - 1 - used : 0;
        snprintf(m, sizeof m, "%s%s%s", gfx_show_path(shown, file, room), at,
                 p->diag->msg);
    } else {
        memcpy(m, p->diag->msg, sizeof m);
    }
    return perr(p, tok, "%s", m);
}

static bool more(struct parser *p)
{
    return p->pos < p->ntok;
}

static const char *word(struct parser *p, const char *what)
{
    if (!more(p)) {
        perr(p, p->ntok, "expected %s", what);
        return NULL;
    }
    return p->tok[p->pos++];
}

static bool number(struct parser *p, float *out)
{
    if (!more(p))
        return perr(p, p->ntok, "expected a number");
    const char *t = p->tok[p->pos];
    char *e;
    /* strtof's ERANGE is overflow (to infinity: refused) or underflow: a
     * denormal or zero, which GL takes as any other float */
    float v = strtof(t, &e);
    if (e == t || *e || !isfinite(v))
        return perr(p, p->pos, "expected a number, not '%s'", t);
    *out = v;
    p->pos++;
    return true;
}

static bool numbers(struct parser *p, float *out, int n)
{
    for (int i = 0; i < n; i++)
        if (!number(p, &out[i]))
            return false;
    return true;
}

static bool uinteger(struct parser *p, unsigned lo, unsigned hi, unsigned *out)
{
    if (!more(p))
        return perr(p, p->ntok, "expected an integer");
    const char *t = p->tok[p->pos];
    char *e;
    errno = 0;
    unsigned long v = strtoul(t, &e, 10);
    if (e == t || *e || t[0] == '-' || errno)
        return perr(p, p->pos, "expected an integer, not '%s'", t);
    if (v < lo || v > hi)
        return perr(p, p->pos, "%lu is out of range %u..%u", v, lo, hi);
    *out = (unsigned)v;
    p->pos++;
    return true;
}

static bool end(struct parser *p)
{
    if (more(p))
        return perr(p, p->pos, "unexpected '%s'", p->tok[p->pos]);
    return true;
}

/* Index of `name` among `choices` (NULL-terminated), else an error. */
static int choice(struct parser *p, const char *what,
                  const char *const *choices)
{
    unsigned at = p->pos;
    const char *w = word(p, what);
    if (!w)
        return -1;
    for (int i = 0; choices[i]; i++)
        if (!strcmp(w, choices[i]))
            return i;
    perr(p, at, "unknown %s '%s'", what, w);
    return -1;
}

static bool onoff(struct parser *p, bool *out)
{
    static const char *const v[] = { "off", "on", NULL };
    int i = choice(p, "on/off", v);
    if (i < 0)
        return false;
    *out = i == 1;
    return end(p);
}

static bool new_name(struct parser *p, char *dst, unsigned at)
{
    const char *w = word(p, "a name");
    if (!w)
        return false;
    if (strlen(w) >= US_MAX_NAME)
        return perr(p, at, "name longer than %d characters", US_MAX_NAME - 1);
    strcpy(dst, w);
    return true;
}

/* Record `path` among the scene's inputs (once) for provenance. */
static bool note_input(struct gfx_scene *s, const char *path)
{
    for (unsigned i = 0; i < s->ninputs; i++)
        if (!strcmp(s->inputs[i], path))
            return true;
    char **grown = realloc(s->inputs, (s->ninputs + 1) * sizeof *grown);
    if (!grown)
        return false;
    s->inputs = grown;
    if (!(grown[s->ninputs] = strdup(path)))
        return false;
    s->ninputs++;
    return true;
}

/* The path of a file the scene names at word `tok` (malloc'd, whatever
 * its length): relative to the scene's directory unless absolute;
 * recorded as one of the scene's inputs. */
static char *path_of(struct parser *p, unsigned tok)
{
    const char *file = p->tok[tok];
    size_t dir = file[0] == '/' ? 0 : p->dirlen, n = strlen(file);
    char *out = malloc(dir + n + 1);
    if (!out) {
        perr(p, tok, "out of memory");
        return NULL;
    }
    memcpy(out, p->path, dir);
    memcpy(out + dir, file, n + 1);
    if (!note_input(p->s, out)) {
        free(out);
        perr(p, tok, "out of memory");
        return NULL;
    }
    return out;
}

/* ---------------------------------------------------------------------- */

/* size W H */
static bool parse_size(struct parser *p)
{
    return uinteger(p, 1, GFX_MAX_VIEWPORT, &p->s->w) &&
           uinteger(p, 1, GFX_MAX_VIEWPORT, &p->s->h) && end(p);
}

/* clear R G B A */
static bool parse_clear(struct parser *p)
{
    return numbers(p, p->s->clear, 4) && end(p);
}

/* camera {eye X Y Z | at X Y Z | up X Y Z | fov DEG | near N | far F} */
static bool parse_camera(struct parser *p)
{
    static const char *const keys[] = { "eye", "at", "up", "fov", "near",
                                        "far", NULL };
    float eye[3] = { 0, 0, 5 }, at[3] = { 0, 0, 0 }, up[3] = { 0, 1, 0 };
    while (more(p)) {
        switch (choice(p, "camera setting", keys)) {
        case 0: if (!numbers(p, eye, 3)) return false; break;
        case 1: if (!numbers(p, at, 3)) return false; break;
        case 2: if (!numbers(p, up, 3)) return false; break;
        case 3: if (!number(p, &p->s->fov)) return false; break;
        case 4: if (!number(p, &p->s->znear)) return false; break;
        case 5: if (!number(p, &p->s->zfar)) return false; break;
        default: return false;
        }
    }
    if (!(p->s->fov > 0 && p->s->fov < 180))
        return perr(p, 1, "fov must be in (0, 180) degrees");
    if (!(p->s->znear > 0 && p->s->zfar > p->s->znear))
        return perr(p, 1, "need 0 < near < far");
    gfx_mat_lookat(p->view, eye, at, up);
    return true;
}

/* The program file named at word `at`. */
static bool load_program(struct parser *p, struct us_program *prog,
                         unsigned at)
{
    char *text, *path = path_of(p, at);
    size_t len;
    if (!path)
        return false;
    bool ok = gfx_read_file_charged(path, 1 << 20, &p->s->budget, &text, &len,
                                    p->diag);
    if (!ok) {
        perr_from(p, at, path);
    } else {
        /* an ARB program, or a GLSL shader staged by its extension; its
         * varyings take the slots they need (knob varying_slots is the
         * draw's to check: gfx_draw_mesh) */
        struct us_glsl_options opt;
        us_glsl_options_init(&opt);
        opt.varying_slots = US_MAX_VARYINGS;
        ok = us_program_from_text(path, text, len, US_STAGE_ANY, &opt, prog,
                                  p->diag);
        free(text);
        gfx_budget_give(&p->s->budget, len + 1);
        if (!ok)
            perr_from(p, at, p->tok[at]);
    }
    free(path);
    return ok;
}

/* program NAME FILE */
static bool parse_program(struct parser *p)
{
    struct gfx_scene *s = p->s;
    if (s->nprog == GFX_MAX_SCENE_PROGRAMS)
        return perr(p, 0, "more than %d programs", GFX_MAX_SCENE_PROGRAMS);
    struct named_prog *np = &s->prog[s->nprog];
    if (!new_name(p, np->name, 1))
        return false;
    if (!word(p, "a program file (ARB or GLSL)") || !end(p) ||
        !load_program(p, &np->prog, 2))
        return false;
    /* GLSL `uniform T x = init;` (4.3.5): the program.local slots start
     * with the initializer's values (us_param.value); `uniform` and
     * `local` directives after this replace them. */
    us_load_initial_locals(&np->prog, &p->gl);
    s->nprog++;
    return true;
}

static int find_prog(struct parser *p, int stage)
{
    unsigned at = p->pos;
    const char *w = word(p, "a program name");
    if (!w)
        return -1;
    for (unsigned i = 0; i < p->s->nprog; i++)
        if (!strcmp(p->s->prog[i].name, w)) {
            if ((int)p->s->prog[i].prog.stage != stage) {
                perr(p, at, "'%s' is a %s program", w,
                     stage == US_STAGE_VERTEX ? "fragment" : "vertex");
                return -1;
            }
            return (int)i;
        }
    perr(p, at, "no program named '%s'", w);
    return -1;
}

/* vp NAME | fp NAME */
static bool parse_use(struct parser *p, int stage)
{
    int i = find_prog(p, stage);
    if (i < 0)
        return false;
    if (stage == US_STAGE_VERTEX)
        p->vp = i;
    else
        p->fp = i;
    return end(p);
}

/* mesh NAME KIND ARGS */
static bool parse_mesh(struct parser *p)
{
    struct gfx_scene *s = p->s;
    static const char *const kinds[] = { "sphere", "torus", "plane", "cube",
                                         "teapot", "obj", "3ds", NULL };
    if (s->nmesh == GFX_MAX_SCENE_MESHES)
        return perr(p, 0, "more than %d meshes", GFX_MAX_SCENE_MESHES);
    struct named_mesh *nm = &s->mesh[s->nmesh];
    if (!new_name(p, nm->name, 1))
        return false;
    float a = 0, b = 0;
    unsigned i = 0, j = 0;
    struct gfx_budget *bud = &s->budget;
    bool ok;
    /* the constructors charge the mesh, sized from these arguments, to
     * the budget before they allocate it */
    switch (choice(p, "mesh kind", kinds)) {
    case 0:
        ok = number(p, &a) && uinteger(p, 3, 1024, &i) &&
             uinteger(p, 2, 1024, &j) && end(p) &&
             gfx_mesh_sphere(&nm->mesh, a, i, j, bud, p->diag);
        break;
    case 1:
        ok = number(p, &a) && number(p, &b) && uinteger(p, 3, 1024, &i) &&
             uinteger(p, 3, 1024, &j) && end(p) &&
             gfx_mesh_torus(&nm->mesh, a, b, i, j, bud, p->diag);
        break;
    case 2:
        ok = number(p, &a) && uinteger(p, 1, 1024, &i) && end(p) &&
             gfx_mesh_plane(&nm->mesh, a, i, bud, p->diag);
        break;
    case 3:
        ok = number(p, &a) && end(p) &&
             gfx_mesh_cube(&nm->mesh, a, bud, p->diag);
        break;
    case 4:
        ok = uinteger(p, 1, 64, &i) && end(p) &&
             gfx_mesh_teapot(&nm->mesh, i, bud, p->diag);
        break;
    case 5:
    case 6: {
        char *path, *text;
        size_t len;
        if (!word(p, "a model file") || !end(p) || !(path = path_of(p, 3)))
            return false;
        ok = gfx_read_file_charged(path, 256u << 20, bud, &text, &len,
                                   p->diag);
        if (ok) {
            ok = !strcmp(p->tok[2], "3ds")
                     ? gfx_mesh_3ds(&nm->mesh, text, len, bud, p->diag)
                     : gfx_mesh_obj(&nm->mesh, text, len, bud, p->diag);
            free(text);
            gfx_budget_give(bud, len + 1);
        }
        if (!ok)
            perr_from(p, 3, path);
        free(path);
        if (!ok)
            return false;
        break;
    }
    default:
        return false;
    }
    if (!ok) {
        if (p->diag->line == 0 && p->diag->msg[0])
            return perr_from(p, 2, "");
        return false;
    }
    s->nmesh++;
    return true;
}

/* Copy a top-first RGBA image into a layer; `flip` puts the top row at
 * t = 1 as a picture on a quad appears. */
static void put_layer(struct gfx_level *l, unsigned z, const float *img,
                      unsigned rows, bool flip)
{
    for (unsigned y = 0; y < l->h; y++) {
        unsigned src = flip ? rows - 1 - y : y;
        memcpy(gfx_texel(l, 0, y, z), img + (size_t)src * l->w * 4,
               (size_t)l->w * 4 * sizeof(float));
    }
}

/* Whether the line's options ask for mipmaps (its last `filter` counts):
 * they are part of the texture's size, known before it is built. */
static bool wants_mipmaps(const struct parser *p)
{
    bool mip = false;
    for (unsigned k = 4; k + 1 < p->ntok; k++)
        if (!strcmp(p->tok[k], "filter"))
            mip = !strcmp(p->tok[k + 1], "mipnearest") ||
                  !strcmp(p->tok[k + 1], "trilinear");
    return mip;
}

/* Refuse a texture that the budget cannot hold, mipmaps and all, before
 * any of its texels is allocated. */
static bool texture_fits(struct parser *p, const char *name,
                         enum gfx_tex_kind kind, unsigned w, unsigned h,
                         unsigned d, unsigned tok)
{
    char what[US_MAX_NAME + 16];
    snprintf(what, sizeof what, "texture '%s'", name);
    if (!gfx_budget_check(&p->s->budget,
                          gfx_texture_bytes(kind, w, h, d, wants_mipmaps(p)),
                          1, what, p->diag))
        return perr_from(p, tok, "");
    return true;
}

/* texture NAME TARGET png FILE... | proc PATTERN SIZE [SEED]
 *         {filter F | wrap S [T [R]] | depth} */
static bool parse_texture(struct parser *p)
{
    struct gfx_scene *s = p->s;
    static const char *const targets[] = { "1d", "2d", "3d", "cube", "rect", NULL };
    static const char *const sources[] = { "png", "proc", NULL };
    static const char *const pats[] = { "checker", "noise", "brick", "bumps",
                                        "sky", NULL };
    static const char *const filters[] = { "nearest", "bilinear", "mipnearest",
                                           "trilinear", NULL };
    static const char *const wraps[] = { "repeat", "clamp", "mirror", NULL };
    if (s->ntex == GFX_MAX_SCENE_TEXTURES)
        return perr(p, 0, "more than %d textures", GFX_MAX_SCENE_TEXTURES);
    struct named_tex *nt = &s->tex[s->ntex];
    if (!new_name(p, nt->name, 1))
        return false;
    int kind = choice(p, "texture target", targets);
    if (kind < 0)
        return false;
    int src = choice(p, "texture source (png or proc)", sources);
    if (src < 0)
        return false;
    struct gfx_texture *t = &nt->tex;
    if (src == 0) {
        unsigned first = p->pos, nfiles = 0;
        while (more(p) && strcmp(p->tok[p->pos], "filter") &&
               strcmp(p->tok[p->pos], "wrap") && strcmp(p->tok[p->pos], "depth")) {
            p->pos++;
            nfiles++;
        }
        unsigned want = kind == GFX_TEX_CUBE ? 6 : kind == GFX_TEX_3D ? nfiles : 1;
        if (nfiles == 0 || nfiles != want)
            return perr(p, first, "%s texture wants %u PNG file%s, got %u",
                        targets[kind], want, want == 1 ? "" : "s", nfiles);
        if (kind == GFX_TEX_3D && nfiles > GFX_MAX_TEX_3D)
            return perr(p, first, "more than %d slices", GFX_MAX_TEX_3D);
        for (unsigned f = 0; f < nfiles; f++) {
            float *img;
            unsigned w, h;
            char *path = path_of(p, first + f);
            if (!path) {
                gfx_texture_free(t);
                return false;
            }
            unsigned lim = kind == GFX_TEX_3D ? GFX_MAX_TEX_3D : GFX_MAX_TEX_SIZE;
            bool ok = gfx_png_load(path, lim, &s->budget, &img, &w, &h,
                                   p->diag);
            free(path);
            if (!ok) {
                gfx_texture_free(t);   /* the slices already loaded */
                return perr_from(p, first + f, "");
            }
            if (f == 0) {
                unsigned th = kind == GFX_TEX_1D ? 1 : h;
                ok = texture_fits(p, nt->name, (enum gfx_tex_kind)kind, w, th,
                                  nfiles, first) &&
                     gfx_texture_alloc(t, (enum gfx_tex_kind)kind, w, th,
                                       nfiles, &s->budget, p->diag);
                if (!ok && !p->diag->line)
                    perr_from(p, first, "");
            } else if (w != t->level[0].w || h != t->level[0].h) {
                ok = perr(p, first + f, "size %ux%u differs from the first "
                          "image's %ux%u", w, h, t->level[0].w, t->level[0].h);
            }
            if (ok)
                put_layer(&t->level[0], f, img, h, kind != GFX_TEX_CUBE);
            free(img);
            gfx_budget_give(&s->budget, (size_t)w * h * 16);
            if (!ok) {
                gfx_texture_free(t);
                return false;
            }
        }
    } else {
        int pat = choice(p, "pattern", pats);
        unsigned size, seed = 1;
        if (pat < 0 || !uinteger(p, 1, kind == GFX_TEX_3D ? GFX_MAX_TEX_3D
                                                          : GFX_MAX_TEX_SIZE, &size))
            return false;
        if (more(p) && isdigit((unsigned char)p->tok[p->pos][0]) &&
            !uinteger(p, 0, 1u << 30, &seed))
            return false;
        if ((pat == GFX_PROC_SKY) != (kind == GFX_TEX_CUBE))
            return perr(p, 3, "the sky pattern is for cube maps, and cube "
                              "maps take only the sky pattern");
        unsigned h = kind == GFX_TEX_1D ? 1 : size;
        unsigned d = kind == GFX_TEX_CUBE ? 6 : kind == GFX_TEX_3D ? size : 1;
        if (!texture_fits(p, nt->name, (enum gfx_tex_kind)kind, size, h, d, 1))
            return false;
        if (!gfx_texture_alloc(t, (enum gfx_tex_kind)kind, size, h, d,
                               &s->budget, p->diag))
            return perr_from(p, 1, "");
        struct gfx_level *l = &t->level[0];
        for (unsigned z = 0; z < d; z++)
            gfx_proc_fill((enum gfx_proc)pat, size, h, z,
                          seed + (kind == GFX_TEX_3D ? z : 0),
                          gfx_texel(l, 0, 0, z));
    }
    while (more(p)) {
        static const char *const opts[] = { "filter", "wrap", "depth", NULL };
        unsigned at = p->pos;
        int o = choice(p, "texture option", opts);
        int v;
        if (o == 0) {
            if ((v = choice(p, "filter", filters)) < 0)
                goto fail;
            t->filter = (enum gfx_filter)v;
        } else if (o == 1) {
            for (int k = 0; k < 3; k++) {
                if ((v = choice(p, "wrap mode", wraps)) < 0)
                    goto fail;
                for (int r = k; r < 3; r++)
                    t->wrap[r] = (enum gfx_wrap)v;
                if (!more(p) || !strcmp(p->tok[p->pos], "filter") ||
                    !strcmp(p->tok[p->pos], "depth"))
                    break;
            }
            if (kind == GFX_TEX_RECT &&
                (t->wrap[0] == GFX_WRAP_REPEAT || t->wrap[1] == GFX_WRAP_REPEAT ||
                 t->wrap[0] == GFX_WRAP_MIRROR || t->wrap[1] == GFX_WRAP_MIRROR)) {
                perr(p, at, "rect textures only clamp (ARB_texture_rectangle)");
                goto fail;
            }
        } else if (o == 2) {
            t->depth = true;
        } else {
            goto fail;
        }
    }
    if (kind == GFX_TEX_RECT && (t->filter == GFX_FILTER_MIP_NEAREST ||
                                 t->filter == GFX_FILTER_TRILINEAR)) {
        perr(p, 2, "rect textures have no mipmaps");
        goto fail;
    }
    if ((t->filter == GFX_FILTER_MIP_NEAREST || t->filter == GFX_FILTER_TRILINEAR) &&
        !gfx_texture_mipmap(t, p->diag)) {
        perr_from(p, 1, "");
        goto fail;
    }
    s->ntex++;
    return true;
fail:
    gfx_texture_free(t);
    return false;
}

/* bind UNIT NAME|none */
static bool parse_bind(struct parser *p)
{
    unsigned unit;
    if (!uinteger(p, 0, US_MAX_TEX_UNITS - 1, &unit))
        return false;
    unsigned at = p->pos;
    const char *w = word(p, "a texture name or none");
    if (!w || !end(p))
        return false;
    if (!strcmp(w, "none")) {
        p->st.tex[unit] = NULL;
        return true;
    }
    for (unsigned i = 0; i < p->s->ntex; i++)
        if (!strcmp(p->s->tex[i].name, w)) {
            p->st.tex[unit] = &p->s->tex[i].tex;
            return true;
        }
    return perr(p, at, "no texture named '%s'", w);
}

/* A transform applied to m: identity | translate X Y Z | rotate DEG X Y Z
 * | scale X Y Z. */
static bool transform(struct parser *p, const char *op, float *m)
{
    float v[4];
    if (!strcmp(op, "identity")) {
        gfx_mat_identity(m);
    } else if (!strcmp(op, "translate")) {
        if (!numbers(p, v, 3))
            return false;
        gfx_mat_translate(m, v[0], v[1], v[2]);
    } else if (!strcmp(op, "rotate")) {
        if (!numbers(p, v, 4))
            return false;
        gfx_mat_rotate(m, v[0], v[1], v[2], v[3]);
    } else if (!strcmp(op, "scale")) {
        if (!numbers(p, v, 3))
            return false;
        gfx_mat_scale(m, v[0], v[1], v[2]);
    } else {
        return perr(p, p->pos - 1, "unknown transform '%s'", op);
    }
    return end(p);
}

/* progmatrix N OP ARGS | texmatrix N OP ARGS */
static bool parse_matrix(struct parser *p, bool program)
{
    unsigned n;
    if (!uinteger(p, 0, program ? US_MAX_PROGRAM_MATRICES - 1
                                : US_MAX_TEX_COORDS - 1, &n))
        return false;
    const char *op = word(p, "a transform");
    return op && transform(p, op, program ? p->gl.program[n] : p->gl.texture[n]);
}

static void to_eye(const struct parser *p, float v[4], bool direction)
{
    float in[4] = { v[0], v[1], v[2], direction ? 0.0f : v[3] };
    gfx_mat_vec(v, p->view, in);
}

/* light N {position X Y Z W | ambient RGBA | diffuse RGBA | specular RGBA
 *          | attenuation C L Q E | spot DX DY DZ CUTOFF} — world space */
static bool parse_light(struct parser *p)
{
    static const char *const keys[] = { "position", "ambient", "diffuse",
                                        "specular", "attenuation", "spot", NULL };
    unsigned n;
    if (!uinteger(p, 0, US_MAX_LIGHTS - 1, &n))
        return false;
    struct us_light *l = &p->gl.light[n];
    while (more(p)) {
        float v[4];
        int k = choice(p, "light property", keys);
        if (k < 0 || !numbers(p, v, 4))
            return false;
        switch (k) {
        case 0: to_eye(p, v, false); memcpy(l->position, v, sizeof v); break;
        case 1: memcpy(l->ambient, v, sizeof v); break;
        case 2: memcpy(l->diffuse, v, sizeof v); break;
        case 3: memcpy(l->specular, v, sizeof v); break;
        case 4: memcpy(l->attenuation, v, sizeof v); break;
        default: {
            float c = cosf(v[3] * (float)(GFX_PI / 180.0));
            to_eye(p, v, true);
            v[3] = c;
            memcpy(l->spot_direction, v, sizeof v);
            break;
        }
        }
    }
    return true;
}

/* material front|back|both {ambient RGBA | diffuse RGBA | specular RGBA |
 *                           emission RGBA | shininess S} */
static bool parse_material(struct parser *p)
{
    static const char *const faces[] = { "front", "back", "both", NULL };
    static const char *const keys[] = { "ambient", "diffuse", "specular",
                                        "emission", "shininess", NULL };
    int f = choice(p, "face", faces);
    if (f < 0)
        return false;
    while (more(p)) {
        float v[4];
        int k = choice(p, "material property", keys);
        if (k < 0 || !numbers(p, v, k == 4 ? 1 : 4))
            return false;
        for (int face = 0; face < 2; face++) {
            if (f != 2 && f != face)
                continue;
            struct us_material *m = &p->gl.material[face];
            float *dst[] = { m->ambient, m->diffuse, m->specular, m->emission,
                             &m->shininess };
            memcpy(dst[k], v, (k == 4 ? 1 : 4) * sizeof(float));
        }
    }
    return true;
}

/* lightmodel ambient R G B A */
static bool parse_lightmodel(struct parser *p)
{
    static const char *const keys[] = { "ambient", NULL };
    return choice(p, "light model property", keys) == 0 &&
           numbers(p, p->gl.lightmodel_ambient, 4) && end(p);
}

/* fog {color RGBA | density D | start S | end E} */
static bool parse_fog(struct parser *p)
{
    static const char *const keys[] = { "color", "density", "start", "end", NULL };
    while (more(p)) {
        int k = choice(p, "fog property", keys);
        bool ok = k == 0 ? numbers(p, p->gl.fog_color, 4)
                : k == 1 ? number(p, &p->gl.fog_density)
                : k == 2 ? number(p, &p->gl.fog_start)
                : k == 3 ? number(p, &p->gl.fog_end) : false;
        if (!ok)
            return false;
    }
    return true;
}

/* env vertex|fragment INDEX X Y Z W | local ... */
static bool parse_param(struct parser *p, bool env)
{
    static const char *const stages[] = { "vertex", "fragment", NULL };
    int st = choice(p, "stage", stages);
    unsigned i;
    if (st < 0 || !uinteger(p, 0, (env ? US_MAX_ENV_PARAMS : US_MAX_LOCAL_PARAMS) - 1, &i))
        return false;
    return numbers(p, env ? p->gl.env[st][i] : p->gl.local[st][i], 4) && end(p);
}

/* uniform vertex|fragment NAME V... : a GLSL user uniform of the current
 * vertex / fragment program (vp, fp) by name; its program.local slots
 * take the values four by four (a matrix column per slot), missing
 * components 0. */
static bool parse_uniform(struct parser *p)
{
    static const char *const stages[] = { "vertex", "fragment", NULL };
    int st = choice(p, "stage", stages);
    if (st < 0)
        return false;
    int cur = st == 0 ? p->vp : p->fp;
    if (cur < 0)
        return perr(p, 1, "uniform needs a current %s program first",
                    stages[st]);
    const struct us_program *prog = &p->s->prog[cur].prog;
    unsigned at = p->pos;
    const char *name = word(p, "a uniform name");
    if (!name)
        return false;
    const struct us_decl *d = NULL;
    for (unsigned i = 0; i < prog->ndecls && !d; i++)
        if (prog->decls[i].kind == US_DECL_PARAM &&
            !strcmp(prog->decls[i].name, name))
            d = &prog->decls[i];
    if (!d)
        return perr(p, at, "the %s program has no uniform '%s'", stages[st],
                    name);
    unsigned n = 0;
    float v[64] = { 0 };
    while (more(p)) {
        if (n == 64 || n == 4u * d->size)
            return perr(p, p->pos, "too many values for '%s'", name);
        if (!number(p, &v[n++]))
            return false;
    }
    for (unsigned k = 0; k < d->size && 4 * k < n; k++) {
        unsigned slot = d->base + k;
        if (slot >= prog->nparams ||
            prog->params[slot].kind != US_PARAM_LOCAL)
            return perr(p, at, "'%s' is not a user uniform", name);
        memcpy(p->gl.local[st][prog->params[slot].index], v + 4 * k,
               4 * sizeof(float));
    }
    return true;
}

/* draw MESH */
/* Room in an array of n elements of `size` bytes grown 16 at a time,
 * charged first. */
static bool room16(struct parser *p, void **array, unsigned n, size_t size,
                   const char *what)
{
    if (n % 16)
        return true;
    if (!gfx_budget_take(&p->s->budget, 16, size, what, p->diag))
        return perr_from(p, 0, "");
    void *q = gfx_huge_realloc(*array, n * size, (n + 16) * size);
    if (!q) {
        gfx_budget_give(&p->s->budget, 16 * size);
        return perr(p, 0, "out of memory");
    }
    *array = q;
    return true;
}

/* Whether state a is b with modelview mv (the first member). */
static bool same_gl(const struct us_glstate *a, const us_mat4 mv,
                    const struct us_glstate *b)
{
    _Static_assert(offsetof(struct us_glstate, modelview) == 0,
                   "modelview is the first member");
    size_t skip = sizeof a->modelview;
    return !memcmp(a->modelview, mv, skip) &&
           !memcmp((const char *)a + skip, (const char *)b + skip,
                   sizeof *a - skip);
}

static bool parse_draw(struct parser *p)
{
    struct gfx_scene *s = p->s;
    unsigned at = p->pos;
    const char *w = word(p, "a mesh name");
    if (!w || !end(p))
        return false;
    unsigned m;
    for (m = 0; m < s->nmesh; m++)
        if (!strcmp(s->mesh[m].name, w))
            break;
    if (m == s->nmesh)
        return perr(p, at, "no mesh named '%s'", w);
    if (p->vp < 0 || p->fp < 0)
        return perr(p, 0, "draw needs a vertex and a fragment program "
                          "(vp NAME, fp NAME)");
    if (s->ndraws == MAX_DRAWS)
        return perr(p, 0, "more than %d draws", MAX_DRAWS);
    us_mat4 mv;
    gfx_mat_mul(mv, p->view, p->model);
    if (!s->ngl || !same_gl(&s->gl[s->ngl - 1], mv, &p->gl)) {
        if (!room16(p, (void **)&s->gl, s->ngl, sizeof *s->gl,
                    "the draws' GL states"))
            return false;
        s->gl[s->ngl] = p->gl;
        memcpy(s->gl[s->ngl].modelview, mv, sizeof mv);
        s->ngl++;
    }
    if (!room16(p, (void **)&s->draws, s->ndraws, sizeof *s->draws,
                "the draws"))
        return false;
    struct scene_draw *d = &s->draws[s->ndraws++];
    d->gl = s->ngl - 1;
    d->st = p->st;
    d->mesh = m;
    d->vp = (unsigned)p->vp;
    d->fp = (unsigned)p->fp;
    return true;
}

static bool parse_line(struct parser *p)
{
    const char *d = p->tok[0];
    p->pos = 1;
    if (!strcmp(d, "size")) return parse_size(p);
    if (!strcmp(d, "clear")) return parse_clear(p);
    if (!strcmp(d, "camera")) return parse_camera(p);
    if (!strcmp(d, "program")) return parse_program(p);
    if (!strcmp(d, "vp")) return parse_use(p, US_STAGE_VERTEX);
    if (!strcmp(d, "fp")) return parse_use(p, US_STAGE_FRAGMENT);
    if (!strcmp(d, "mesh")) return parse_mesh(p);
    if (!strcmp(d, "texture")) return parse_texture(p);
    if (!strcmp(d, "bind")) return parse_bind(p);
    if (!strcmp(d, "light")) return parse_light(p);
    if (!strcmp(d, "material")) return parse_material(p);
    if (!strcmp(d, "lightmodel")) return parse_lightmodel(p);
    if (!strcmp(d, "fog")) return parse_fog(p);
    if (!strcmp(d, "env")) return parse_param(p, true);
    if (!strcmp(d, "local")) return parse_param(p, false);
    if (!strcmp(d, "uniform")) return parse_uniform(p);
    if (!strcmp(d, "progmatrix")) return parse_matrix(p, true);
    if (!strcmp(d, "texmatrix")) return parse_matrix(p, false);
    if (!strcmp(d, "depth")) return onoff(p, &p->st.depth_test);
    if (!strcmp(d, "depthwrite")) return onoff(p, &p->st.depth_write);
    if (!strcmp(d, "blend")) return onoff(p, &p->st.blend);
    if (!strcmp(d, "twoside")) return onoff(p, &p->st.two_side);
    if (!strcmp(d, "cull")) {
        static const char *const modes[] = { "none", "back", "front", NULL };
        int m = choice(p, "cull mode", modes);
        if (m < 0)
            return false;
        p->st.cull = (enum gfx_cull)m;
        return end(p);
    }
    if (!strcmp(d, "push")) {
        if (p->sp == MAX_STACK)
            return perr(p, 0, "matrix stack overflow (depth %d)", MAX_STACK);
        memcpy(p->stack[p->sp++], p->model, sizeof p->model);
        return end(p);
    }
    if (!strcmp(d, "pop")) {
        if (p->sp == 0)
            return perr(p, 0, "pop without push");
        memcpy(p->model, p->stack[--p->sp], sizeof p->model);
        return end(p);
    }
    if (!strcmp(d, "draw")) return parse_draw(p);
    if (!strcmp(d, "identity") || !strcmp(d, "translate") ||
        !strcmp(d, "rotate") || !strcmp(d, "scale"))
        return transform(p, d, p->model);
    return perr(p, 0, "unknown directive '%s'", d);
}

/* Split one line into blank-separated words, dropping a # comment. */
static bool tokenize(struct parser *p, const char *line, size_t len)
{
    if (len >= sizeof p->buf)
        return perr(p, 0, "line longer than %zu characters", sizeof p->buf - 1);
    memcpy(p->buf, line, len);
    p->buf[len] = '\0';
    p->ntok = 0;
    char *c = p->buf;
    while (*c) {
        while (*c == ' ' || *c == '\t' || *c == '\r')
            c++;
        if (!*c || *c == '#')
            break;
        if (p->ntok == MAX_TOKENS)
            return perr(p, p->ntok, "more than %d words on a line", MAX_TOKENS);
        p->col[p->ntok] = (unsigned)(c - p->buf) + 1;
        p->tok[p->ntok++] = c;
        while (*c && *c != ' ' && *c != '\t' && *c != '\r' && *c != '#')
            c++;
        if (*c == '#')
            *c = '\0';
        else if (*c)
            *c++ = '\0';
    }
    return true;
}

bool gfx_scene_load(struct gfx_scene **out, const char *path,
                    const char *text, size_t len, struct us_diag *diag)
{
    *out = NULL;
    struct gfx_scene *s = calloc(1, sizeof *s);
    struct parser *p = calloc(1, sizeof *p);
    if (!s || !p) {
        free(s);
        free(p);
        return gfx_fail(diag, 0, 0, "out of memory");
    }
    s->w = s->h = 128;
    s->clear[3] = 1.0f;
    s->fov = 45.0f;
    s->znear = 0.1f;
    s->zfar = 100.0f;
    gfx_budget_init(&s->budget);
    p->s = s;
    p->diag = diag;
    p->path = path;
    const char *slash = strrchr(path, '/');
    p->dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    us_glstate_init(&p->gl);
    gfx_state_init(&p->st);
    static const float eye[3] = { 0, 0, 5 }, at[3] = { 0, 0, 0 }, up[3] = { 0, 1, 0 };
    gfx_mat_lookat(p->view, eye, at, up);
    gfx_mat_identity(p->model);
    p->vp = p->fp = -1;
    bool ok = true;
    const char *c = text, *e = text + len;
    while (ok && c < e) {
        const char *nl = memchr(c, '\n', (size_t)(e - c));
        size_t n = nl ? (size_t)(nl - c) : (size_t)(e - c);
        p->line++;
        if (memchr(c, '\0', n))
            ok = perr(p, 0, "NUL byte in the scene");
        else
            ok = tokenize(p, c, n) && (p->ntok == 0 || parse_line(p));
        c += n + 1;
    }
    if (ok && s->ndraws == 0)
        ok = gfx_fail(diag, 0, 0, "the scene draws nothing (no draw directive)");
    free(p);
    if (!ok) {
        gfx_scene_free(s);
        return false;
    }
    *out = s;
    return true;
}

void gfx_scene_free(struct gfx_scene *s)
{
    if (!s)
        return;
    for (unsigned i = 0; i < s->ntex; i++)
        gfx_texture_free(&s->tex[i].tex);
    for (unsigned i = 0; i < s->nmesh; i++)
        gfx_mesh_free(&s->mesh[i].mesh);
    for (unsigned i = 0; i < s->nprog; i++)
        us_program_free(&s->prog[i].prog);
    for (unsigned i = 0; i < s->ninputs; i++)
        free(s->inputs[i]);
    free(s->inputs);
    free(s->draws);
    free(s->gl);
    free(s);
}

const char *gfx_scene_input(const struct gfx_scene *s, unsigned i)
{
    return i < s->ninputs ? s->inputs[i] : NULL;
}

void gfx_scene_size(const struct gfx_scene *s, unsigned *w, unsigned *h)
{
    *w = s->w;
    *h = s->h;
}

int gfx_scene_program_stage(const struct gfx_scene *s, const char *name)
{
    for (unsigned i = 0; i < s->nprog; i++)
        if (!strcmp(s->prog[i].name, name))
            return (int)s->prog[i].prog.stage;
    return -1;
}

const char *gfx_scene_first_program(const struct gfx_scene *s, int stage)
{
    for (unsigned i = 0; i < s->nprog; i++)
        if ((int)s->prog[i].prog.stage == stage)
            return s->prog[i].name;
    return NULL;
}

bool gfx_scene_render(const struct gfx_scene *s, unsigned w, unsigned h,
                      const struct us_math *math,
                      const struct gfx_shader_backend *be,
                      struct gfx_framebuffer *fb, struct gfx_stats *stats,
                      struct us_diag *diag)
{
    return gfx_scene_render_jobs(s, w, h, math, be, 1, fb, stats, diag);
}

/* Rows of the framebuffer cleared by worker i of n (the first touch of
 * its pages, which costs more than the clear itself, on n threads). */
struct clear_job {
    struct gfx_framebuffer *fb;
    const float *rgba;
    unsigned n;
};

static void clear_part(void *arg, unsigned i)
{
    const struct clear_job *c = arg;
    unsigned h = c->fb->h;
    gfx_fb_clear_rows(c->fb, c->rgba, 1.0f,
                      (unsigned)((uint64_t)h * i / c->n),
                      (unsigned)((uint64_t)h * (i + 1) / c->n));
}

bool gfx_scene_render_jobs(const struct gfx_scene *s, unsigned w, unsigned h,
                           const struct us_math *math,
                           const struct gfx_shader_backend *be, unsigned jobs,
                           struct gfx_framebuffer *fb, struct gfx_stats *stats,
                           struct us_diag *diag)
{
    /* what the scene left of its budget pays for the image and, one at a
     * time, the draws' working memory */
    memset(fb, 0, sizeof *fb);
    struct gfx_budget budget = s->budget;
    char what[64];
    snprintf(what, sizeof what, "a %ux%u image", w, h);
    if (!gfx_budget_take(&budget, gfx_fb_bytes(w, h), 1, what, diag))
        return false;
    /* the colour in RGBA8 unless a draw blends (reads it back): the
     * image's bytes as the export would make them, in a quarter of the
     * memory; a depth buffer if a draw tests depth */
    bool blend = false, depth = false;
    for (unsigned i = 0; i < s->ndraws; i++) {
        blend |= s->draws[i].st.blend;
        depth |= s->draws[i].st.depth_test;
    }
    if (!(blend ? gfx_fb_alloc(fb, w, h, diag)
                : gfx_fb_alloc_rgba8(fb, w, h, depth, diag)))
        return false;
    /* host threads for the whole render (without them, each draw starts
     * its own) */
    unsigned workers = gfx_draw_workers(jobs, w, h);
    struct gfx_pool *pool = workers > 1 ? gfx_pool_new(workers) : NULL;
    if (pool) {
        struct clear_job cj = { fb, s->clear, workers < h ? workers : h };
        gfx_pool_run(pool, cj.n, clear_part, &cj);
    } else {
        gfx_fb_clear(fb, s->clear, 1.0f);
    }
    /* every draw's state at once: the draws run on without a wait
     * between them (gfx_draw_meshes) */
    unsigned n = s->ndraws;
    struct us_glstate *gl = gfx_huge_alloc((s->ngl ? s->ngl : 1) * sizeof *gl);
    struct gfx_draw *dr = malloc((n ? n : 1) * sizeof *dr);
    if (!gl || !dr) {
        free(gl);
        free(dr);
        gfx_pool_free(pool);
        gfx_fb_free(fb);
        return gfx_fail(diag, 0, 0, "out of memory");
    }
    for (unsigned i = 0; i < s->ngl; i++) {
        gl[i] = s->gl[i];
        gfx_mat_perspective(gl[i].projection, s->fov, (float)w / (float)h,
                            s->znear, s->zfar);
    }
    for (unsigned i = 0; i < n; i++) {
        const struct scene_draw *d = &s->draws[i];
        dr[i] = (struct gfx_draw){
            .mesh = &s->mesh[d->mesh].mesh, .vp = &s->prog[d->vp].prog,
            .fp = &s->prog[d->fp].prog, .gl = &gl[d->gl], .state = &d->st,
            .math = math, .backend = be, .budget = &budget, .pool = pool,
            .jobs = jobs,
        };
    }
    unsigned done = gfx_draw_meshes(fb, dr, n, stats, diag);
    bool ok = done == n;
    if (!ok) {   /* say which draw and programs */
        const struct scene_draw *d = &s->draws[done];
        char msg[2 * sizeof diag->msg];
        int k = snprintf(msg, sizeof msg, "draw %u (programs '%s' and "
                         "'%s'): %s", done + 1, s->prog[d->vp].name,
                         s->prog[d->fp].name, diag->msg);
        size_t len = k < 0 ? 0 : (size_t)k < sizeof diag->msg
                                     ? (size_t)k : sizeof diag->msg - 1;
        memcpy(diag->msg, msg, len);
        diag->msg[len] = '\0';
    }
    free(dr);
    free(gl);
    gfx_pool_free(pool);
    if (!ok)
        gfx_fb_free(fb);
    return ok;
}
