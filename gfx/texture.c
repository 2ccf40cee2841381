/*
 * Texture storage, mipmaps and sampling, following the GL 2.1 spec §3.8.8
 * (coordinate wrapping, texel selection, minification/magnification, the
 * mipmap level formulas) and §3.8.6 (cube map face selection, table 3.21).
 * ARB_fragment_program_shadow / GL 2.1 §3.8.14: depth comparison.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

enum { TEXEL_BYTES = 4 * sizeof(float) };

/* The next mipmap level's size (GL 2.1 §3.8.8: halved, at least 1; the
 * layers of a 2D, cube or 1D texture stay). */
static void next_level(bool is3d, unsigned *w, unsigned *h, unsigned *d)
{
    *w = *w > 1 ? *w / 2 : 1;
    *h = *h > 1 ? *h / 2 : 1;
    if (is3d && *d > 1)
        *d /= 2;
}

static bool last_level(bool is3d, unsigned w, unsigned h, unsigned d)
{
    return w == 1 && h == 1 && (!is3d || d == 1);
}

size_t gfx_texture_bytes(enum gfx_tex_kind kind, unsigned w, unsigned h,
                         unsigned d, bool mipmaps)
{
    bool is3d = kind == GFX_TEX_3D;
    size_t bytes = (size_t)w * h * d * TEXEL_BYTES;
    for (unsigned l = 1; mipmaps && kind != GFX_TEX_RECT &&
                         l < GFX_MAX_TEX_LEVELS && !last_level(is3d, w, h, d);
         l++) {
        next_level(is3d, &w, &h, &d);
        bytes += (size_t)w * h * d * TEXEL_BYTES;
    }
    return bytes;
}

bool gfx_texture_alloc(struct gfx_texture *t, enum gfx_tex_kind kind,
                       unsigned w, unsigned h, unsigned d,
                       struct gfx_budget *budget, struct us_diag *diag)
{
    memset(t, 0, sizeof *t);
    unsigned lim = kind == GFX_TEX_3D ? GFX_MAX_TEX_3D : GFX_MAX_TEX_SIZE;
    if (w == 0 || h == 0 || d == 0)
        return gfx_fail(diag, 0, 0, "texture size %ux%u is empty", w, h);
    if (w > lim || h > lim || (kind == GFX_TEX_3D && d > lim))
        return gfx_fail(diag, 0, 0, "texture side %u is larger than the limit of %u",
                    w > h ? w : h, lim);
    if (kind == GFX_TEX_CUBE && (w != h || d != 6))
        return gfx_fail(diag, 0, 0, "cube map faces must be square (%ux%u)", w, h);
    if (kind == GFX_TEX_1D && (h != 1 || d != 1))
        return gfx_fail(diag, 0, 0, "1D texture with %u rows, %u slices", h, d);
    char what[64];
    snprintf(what, sizeof what, "a %ux%ux%u texture", w, h, d);
    size_t bytes = (size_t)w * h * d * TEXEL_BYTES;
    if (!gfx_budget_take(budget, bytes, 1, what, diag))
        return false;
    t->level[0].texels = calloc((size_t)w * h * d * 4, sizeof(float));
    if (!t->level[0].texels) {
        gfx_budget_give(budget, bytes);
        return gfx_fail(diag, 0, 0, "out of memory for a %ux%u texture", w, h);
    }
    t->kind = kind;
    t->filter = GFX_FILTER_BILINEAR;
    for (int i = 0; i < 3; i++)
        t->wrap[i] = kind == GFX_TEX_RECT || kind == GFX_TEX_CUBE
                         ? GFX_WRAP_CLAMP : GFX_WRAP_REPEAT;
    t->level[0].w = w;
    t->level[0].h = h;
    t->level[0].d = d;
    t->nlevels = 1;
    t->budget = budget;
    t->charged = bytes;
    return true;
}

void gfx_texture_free(struct gfx_texture *t)
{
    for (unsigned i = 0; i < t->nlevels; i++)
        free(t->level[i].texels);
    gfx_budget_give(t->budget, t->charged);
    memset(t, 0, sizeof *t);
}

/* Box filter: each texel of the next level averages the 2x2 (3D: 2x2x2)
 * texels it covers; odd sizes repeat the last row/column. */
bool gfx_texture_mipmap(struct gfx_texture *t, struct us_diag *diag)
{
    if (t->kind == GFX_TEX_RECT)
        return true;  /* ARB_texture_rectangle: no mipmaps */
    bool is3d = t->kind == GFX_TEX_3D;
    while (t->nlevels < GFX_MAX_TEX_LEVELS) {
        const struct gfx_level *s = &t->level[t->nlevels - 1];
        if (last_level(is3d, s->w, s->h, s->d))
            break;
        struct gfx_level *l = &t->level[t->nlevels];
        unsigned w = s->w, h = s->h, d = s->d;
        next_level(is3d, &w, &h, &d);
        size_t bytes = (size_t)w * h * d * TEXEL_BYTES;
        char what[64];
        snprintf(what, sizeof what, "mipmap level %u", t->nlevels);
        if (!gfx_budget_take(t->budget, bytes, 1, what, diag))
            return false;
        l->texels = malloc(bytes);
        if (!l->texels) {
            gfx_budget_give(t->budget, bytes);
            return gfx_fail(diag, 0, 0, "out of memory for mipmap level %u", t->nlevels);
        }
        t->charged += bytes;
        l->w = w;
        l->h = h;
        l->d = d;
        unsigned zs = is3d ? 2 : 1;
        for (unsigned z = 0; z < l->d; z++)
            for (unsigned y = 0; y < l->h; y++)
                for (unsigned x = 0; x < l->w; x++) {
                    float acc[4] = { 0, 0, 0, 0 };
                    unsigned n = 0;
                    for (unsigned dz = 0; dz < zs; dz++)
                        for (unsigned dy = 0; dy < 2; dy++)
                            for (unsigned dx = 0; dx < 2; dx++) {
                                unsigned sx = 2 * x + dx, sy = 2 * y + dy;
                                unsigned sz = is3d ? 2 * z + dz : z;
                                if (sx >= s->w) sx = s->w - 1;
                                if (sy >= s->h) sy = s->h - 1;
                                if (sz >= s->d) sz = s->d - 1;
                                const float *p = gfx_texel(s, sx, sy, sz);
                                for (int c = 0; c < 4; c++)
                                    acc[c] += p[c];
                                n++;
                            }
                    float *o = gfx_texel(l, x, y, z);
                    for (int c = 0; c < 4; c++)
                        o[c] = acc[c] / (float)n;
                }
        t->nlevels++;
    }
    return true;
}

int gfx_wrap_index(enum gfx_wrap mode, int i, int size)
{
    /* i modulo a power of two n is i & (n - 1) in two's complement: no
     * division for the usual sizes */
    bool pow2 = (size & (size - 1)) == 0;
    switch (mode) {
    case GFX_WRAP_REPEAT: {
        if (pow2)
            return i & (size - 1);
        int m = i % size;
        return m < 0 ? m + size : m;
    }
    case GFX_WRAP_MIRROR: {
        int m = pow2 ? i & (2 * size - 1) : i % (2 * size);
        if (m < 0)
            m += 2 * size;
        return m < size ? m : 2 * size - 1 - m;
    }
    case GFX_WRAP_CLAMP:
    default:
        return i < 0 ? 0 : i >= size ? size - 1 : i;
    }
}

/* The scale factor rho of GL 2.1 §3.8.8 from the derivatives. */
static float lod_rho(const float dx[3], const float dy[3])
{
    float lx = sqrtf(dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2]);
    float ly = sqrtf(dy[0] * dy[0] + dy[1] * dy[1] + dy[2] * dy[2]);
    return lx > ly ? lx : ly;
}

/* lambda from rho, its log2 lg (when rho > 0) and a fragment's bias. */
static float lod_biased(float rho, float lg, float bias)
{
    if (!(rho > 0.0f))
        return -1000.0f;  /* magnification, however large the bias */
    float l = lg + bias;
    if (!(l == l))
        return 0.0f;  /* infinite rho or NaN bias */
    return l > 1000.0f ? 1000.0f : l < -1000.0f ? -1000.0f : l;
}

static float lod_log2(float rho)
{
    return rho > 0.0f ? log2f(rho) : 0.0f;
}

float gfx_lod(const float dx[3], const float dy[3], float bias)
{
    float rho = lod_rho(dx, dy);
    return lod_biased(rho, lod_log2(rho), bias);
}

/* Where a lookup lands: texel-space coordinates of one face/layer. */
struct lookup {
    float u, v, w;        /* in texels of level 0 (RECT: as given)       */
    unsigned face;        /* cube face, else 0                           */
    bool shadow;
    float ref;            /* shadow compare value, clamped to [0, 1]     */
    unsigned dims;        /* 1, 2 or 3                                   */
    bool normalized;
};

static float clamp01(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* GL 2.1 table 3.21: a face's coordinates (s, t) of direction r, its
 * sc and tc over the major axis' magnitude ma. */
static void face_st(unsigned face, const float r[3], float *s, float *t)
{
    float sc, tc, ma;
    switch (face) {
    case 0: sc = -r[2], tc = -r[1], ma = r[0]; break;
    case 1: sc = r[2], tc = -r[1], ma = -r[0]; break;
    case 2: sc = r[0], tc = r[2], ma = r[1]; break;
    case 3: sc = r[0], tc = -r[2], ma = -r[1]; break;
    case 4: sc = r[0], tc = -r[1], ma = r[2]; break;
    default: sc = -r[0], tc = -r[1], ma = -r[2]; break;
    }
    if (ma == 0.0f)
        ma = 1.0f;
    *s = 0.5f * (sc / ma + 1.0f);
    *t = 0.5f * (tc / ma + 1.0f);
}

/* The face the major axis picks (table 3.21). */
static unsigned major_face(const float r[3])
{
    float ax = fabsf(r[0]), ay = fabsf(r[1]), az = fabsf(r[2]);
    return ax >= ay && ax >= az ? (r[0] >= 0 ? 0 : 1)
           : ay >= az           ? (r[1] >= 0 ? 2 : 3)
                                : (r[2] >= 0 ? 4 : 5);
}

/* That face and its coordinates. */
static unsigned cube_face(const float r[3], float *s, float *t)
{
    unsigned face = major_face(r);
    face_st(face, r, s, t);
    return face;
}

static void make_lookup(const struct gfx_texture *t, enum us_tex_target tg,
                        const float c[4], struct lookup *lk)
{
    memset(lk, 0, sizeof *lk);
    const struct gfx_level *l0 = &t->level[0];
    lk->normalized = true;
    switch (tg) {
    case US_TEX_SHADOW1D:
        lk->shadow = true;
        lk->ref = clamp01(c[2]);
        /* fall through */
    case US_TEX_1D:
        lk->dims = 1;
        lk->u = c[0] * (float)l0->w;
        break;
    case US_TEX_SHADOW2D:
    case US_TEX_SHADOWRECT:
        lk->shadow = true;
        lk->ref = clamp01(c[2]);
        /* fall through */
    case US_TEX_2D:
    case US_TEX_RECT:
        lk->dims = 2;
        if (tg == US_TEX_RECT || tg == US_TEX_SHADOWRECT) {
            lk->normalized = false;
            lk->u = c[0];
            lk->v = c[1];
        } else {
            lk->u = c[0] * (float)l0->w;
            lk->v = c[1] * (float)l0->h;
        }
        break;
    case US_TEX_3D:
        lk->dims = 3;
        lk->u = c[0] * (float)l0->w;
        lk->v = c[1] * (float)l0->h;
        lk->w = c[2] * (float)l0->d;
        break;
    case US_TEX_CUBE:
    default: {
        float s, tt;
        lk->dims = 2;
        lk->face = cube_face(c, &s, &tt);
        lk->u = s * (float)l0->w;
        lk->v = tt * (float)l0->h;
        break;
    }
    }
}

/* GL 2.1 table 3.27: the comparison result of reference r and depth D. */
static float compare(enum gfx_compare f, float r, float d)
{
    switch (f) {
    case GFX_CMP_GEQUAL:   return r >= d ? 1.0f : 0.0f;
    case GFX_CMP_LESS:     return r < d ? 1.0f : 0.0f;
    case GFX_CMP_GREATER:  return r > d ? 1.0f : 0.0f;
    case GFX_CMP_EQUAL:    return r == d ? 1.0f : 0.0f;
    case GFX_CMP_NOTEQUAL: return r != d ? 1.0f : 0.0f;
    case GFX_CMP_ALWAYS:   return 1.0f;
    case GFX_CMP_NEVER:    return 0.0f;
    case GFX_CMP_LEQUAL:
    default:               return r <= d ? 1.0f : 0.0f;
    }
}

/* One texel, or for a shadow lookup its comparison result (t->compare,
 * GL_LEQUAL by default: 1 when ref <= D) expanded by t->depth_mode, so
 * that filtering averages comparisons (GL 2.1 §3.8.14 allows any such
 * weighting). */
static void fetch(const struct gfx_texture *t, const struct gfx_level *l,
                  const struct lookup *lk, int x, int y, int z, float o[4])
{
    x = gfx_wrap_index(t->wrap[0], x, (int)l->w);
    y = lk->dims >= 2 ? gfx_wrap_index(t->wrap[1], y, (int)l->h) : 0;
    z = lk->dims == 3 ? gfx_wrap_index(t->wrap[2], z, (int)l->d)
                      : (int)lk->face;
    const float *p = gfx_texel(l, (unsigned)x, (unsigned)y, (unsigned)z);
    if (lk->shadow) {
        float c = compare((enum gfx_compare)t->compare, lk->ref, p[0]);
        switch (t->depth_mode) {
        case GFX_DEPTH_INTENSITY: o[0] = o[1] = o[2] = o[3] = c; break;
        case GFX_DEPTH_ALPHA: o[0] = o[1] = o[2] = 0.0f; o[3] = c; break;
        case GFX_DEPTH_RED: o[0] = c; o[1] = o[2] = 0.0f; o[3] = 1.0f; break;
        default: o[0] = o[1] = o[2] = c; o[3] = 1.0f; break;
        }
    } else {
        memcpy(o, p, 4 * sizeof *o);
    }
}

/* floor() as an int, safe for any float: NaN reads texel 0 and huge
 * coordinates saturate (the wrap modes then fold or clamp them). */
static int ifloor(float x)
{
    if (!(x == x))
        return 0;
    if (x > 16777216.0f)
        return 16777216;
    if (x < -16777216.0f)
        return -16777216;
    return (int)floorf(x);
}

/* sample_level's 2D colour case, the loop below unrolled: the four
 * texels' indices wrapped once each, the weights' products by 1.0f (no
 * third dimension) left out, as exact, and the sums in the same order
 * from 0 (so that -0 products give +0, as there). */
static void bilinear(const struct gfx_texture *t, const struct gfx_level *l,
                     unsigned face, int i0, int j0, float a, float b,
                     float o[4])
{
    int x[2] = { gfx_wrap_index(t->wrap[0], i0, (int)l->w),
                 gfx_wrap_index(t->wrap[0], i0 + 1, (int)l->w) };
    int y[2] = { gfx_wrap_index(t->wrap[1], j0, (int)l->h),
                 gfx_wrap_index(t->wrap[1], j0 + 1, (int)l->h) };
    float wa[2] = { 1.0f - a, a }, wb[2] = { 1.0f - b, b };
    float acc[4] = { 0, 0, 0, 0 };
    for (int dj = 0; dj < 2; dj++)
        for (int di = 0; di < 2; di++) {
            float wt = wa[di] * wb[dj];
            const float *p = gfx_texel(l, (unsigned)x[di], (unsigned)y[dj],
                                       face);
            for (int c = 0; c < 4; c++)
                acc[c] += wt * p[c];
        }
    memcpy(o, acc, sizeof acc);
}

static void sample_level(const struct gfx_texture *t, unsigned li,
                         const struct lookup *lk, bool linear, float o[4])
{
    const struct gfx_level *l = &t->level[li];
    /* Scale level-0 texel coordinates down to this level. */
    float u = lk->u, v = lk->v, w = lk->w;
    if (lk->normalized && li > 0) {
        u *= (float)l->w / (float)t->level[0].w;
        v *= (float)l->h / (float)t->level[0].h;
        w *= (float)l->d / (float)t->level[0].d;
    }
    if (!linear) {
        fetch(t, l, lk, ifloor(u), ifloor(v), ifloor(w), o);
        return;
    }
    float fu = u - 0.5f, fv = v - 0.5f, fw = w - 0.5f;
    int i0 = ifloor(fu), j0 = ifloor(fv), k0 = ifloor(fw);
    float a = fu - (float)i0, b = fv - (float)j0, g = fw - (float)k0;
    if (lk->dims == 2 && !lk->shadow) {
        bilinear(t, l, lk->face, i0, j0, a, b, o);
        return;
    }
    int nj = lk->dims >= 2 ? 2 : 1, nk = lk->dims == 3 ? 2 : 1;
    if (lk->dims < 2)
        j0 = 0, b = 0.0f;
    if (lk->dims < 3)
        k0 = 0, g = 0.0f;
    float acc[4] = { 0, 0, 0, 0 };
    for (int dk = 0; dk < nk; dk++)
        for (int dj = 0; dj < nj; dj++)
            for (int di = 0; di < 2; di++) {
                float wt = (di ? a : 1.0f - a) * (nj > 1 ? (dj ? b : 1.0f - b) : 1.0f) *
                           (nk > 1 ? (dk ? g : 1.0f - g) : 1.0f);
                float p[4];
                fetch(t, l, lk, i0 + di, j0 + dj, k0 + dk, p);
                for (int c = 0; c < 4; c++)
                    acc[c] += wt * p[c];
            }
    memcpy(o, acc, sizeof acc);
}

/* The filter at lambda (GL 2.1 §3.8.8-9) of a lookup. */
static void sample_lookup(const struct gfx_texture *t,
                          const struct lookup *lk, float lambda,
                          float out[4])
{
    if (!(lambda == lambda))
        lambda = 0.0f;  /* a NaN bias */
    bool mag = lambda <= 0.0f;  /* c = 0: GL 2.1 §3.8.9 */
    switch (t->filter) {
    case GFX_FILTER_NEAREST:
        sample_level(t, 0, lk, false, out);
        return;
    case GFX_FILTER_BILINEAR:
        sample_level(t, 0, lk, true, out);
        return;
    case GFX_FILTER_MIP_NEAREST: {
        unsigned q = t->nlevels - 1, d = 0;
        if (!mag) {
            /* d = ceil(lambda + 1/2) - 1, clamped to the last level. */
            float fd = ceilf(lambda + 0.5f) - 1.0f;
            d = fd <= 0.0f ? 0 : fd >= (float)q ? q : (unsigned)fd;
        }
        sample_level(t, d, lk, false, out);
        return;
    }
    case GFX_FILTER_TRILINEAR:
    default: {
        unsigned q = t->nlevels - 1;
        if (mag || q == 0) {
            sample_level(t, 0, lk, true, out);
            return;
        }
        if (lambda >= (float)q) {
            sample_level(t, q, lk, true, out);
            return;
        }
        unsigned d1 = (unsigned)floorf(lambda);
        float f = lambda - (float)d1;
        float a[4], b[4];
        sample_level(t, d1, lk, true, a);
        sample_level(t, d1 + 1, lk, true, b);
        for (int c = 0; c < 4; c++)
            out[c] = (1.0f - f) * a[c] + f * b[c];
        return;
    }
    }
}

void gfx_texture_sample(const struct gfx_texture *t,
                        enum us_tex_target target, const float coord[4],
                        float lambda, float out[4])
{
    struct lookup lk;
    make_lookup(t, target, coord, &lk);
    sample_lookup(t, &lk, lambda, out);
}

static const struct gfx_texture *bound(struct gfx_sampler *s, unsigned unit)
{
    return unit < US_MAX_TEX_UNITS ? s->unit[unit] : NULL;
}

/* Without a quad there are no derivatives: lambda is the bias alone. */
void gfx_sample(void *ctx, unsigned unit, enum us_tex_target target,
                const float coord[4], float lod_bias, float out[4])
{
    struct gfx_sampler *s = ctx;
    const struct gfx_texture *t = bound(s, unit);
    s->samples++;
    if (!t) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    gfx_texture_sample(t, target, coord, lod_bias, out);
}

/* One fragment's lookup, and the texel-space position its derivatives
 * use; for cube maps every fragment is projected onto fragment 0's face,
 * even where its own major axis picks another (a quad across a cube
 * edge), so the differences are continuous -- where its own is face0
 * (and the direction is not moved), the position is its lookup's. */
static void quad_lookup(const struct gfx_texture *t, enum us_tex_target tg,
                        const float c[4], unsigned face0, float p[3],
                        struct lookup *lk)
{
    const struct gfx_level *l0 = &t->level[0];
    p[0] = p[1] = p[2] = 0.0f;
    if (tg == US_TEX_CUBE) {
        static const int axis[6] = { 0, 0, 1, 1, 2, 2 };
        float r[3] = { c[0], c[1], c[2] };
        /* a direction behind or along face0's plane: as if just in front */
        float ma = face0 & 1 ? -r[axis[face0]] : r[axis[face0]];
        bool moved = ma < 1e-6f;
        if (moved)
            r[axis[face0]] = face0 & 1 ? -1e-6f : 1e-6f;
        float s, tt;
        face_st(face0, r, &s, &tt);
        p[0] = s * (float)l0->w;
        p[1] = tt * (float)l0->h;
        if (moved || major_face(c) != face0) {
            make_lookup(t, tg, c, lk);
            return;
        }
        /* make_lookup's, the same face_st of the same direction */
        memset(lk, 0, sizeof *lk);
        lk->normalized = true;
        lk->dims = 2;
        lk->face = face0;
        lk->u = p[0];
        lk->v = p[1];
        return;
    }
    make_lookup(t, tg, c, lk);
    p[0] = lk->u;
    p[1] = lk->dims >= 2 ? lk->v : 0.0f;
    p[2] = lk->dims == 3 ? lk->w : 0.0f;
}

/* One lambda per quad from the differences across it (GL 2.1 §3.8.8
 * allows approximating the partial derivatives by finite differences). */
void gfx_sample_quad(void *ctx, unsigned unit, enum us_tex_target target,
                     const float coord[4][4], const float lod_bias[4],
                     float out[4][4])
{
    struct gfx_sampler *s = ctx;
    const struct gfx_texture *t = bound(s, unit);
    s->samples += 4;
    if (!t) {
        for (int i = 0; i < 4; i++) {
            out[i][0] = out[i][1] = out[i][2] = 0.0f;
            out[i][3] = 1.0f;
        }
        return;
    }
    float p[4][3];
    struct lookup lk[4];
    unsigned face0 = target == US_TEX_CUBE ? major_face(coord[0]) : 0;
    for (int i = 0; i < 4; i++)
        quad_lookup(t, target, coord[i], face0, p[i], &lk[i]);
    float dx[3], dy[3];
    for (int c = 0; c < 3; c++) {
        dx[c] = p[1][c] - p[0][c];  /* left to right            */
        dy[c] = p[0][c] - p[2][c];  /* bottom to top (y is up)  */
    }
    /* one rho and its log2 for the quad, each fragment's own bias */
    float rho = lod_rho(dx, dy), lg = lod_log2(rho);
    for (int i = 0; i < 4; i++)
        sample_lookup(t, &lk[i], lod_biased(rho, lg, lod_bias[i]), out[i]);
}
