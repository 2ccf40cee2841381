/*
 * Clipping in homogeneous clip space (GL 2.1 §2.12): Sutherland-Hodgman
 * against w > GFX_CLIP_W_MIN, the near (z >= -w) and far (z <= w) planes,
 * then the guard band |x|, |y| <= GFX_GUARD_BAND * w, then the enabled
 * user clip planes (GL 3.0 §2.17: inside where the vertex's clip distance,
 * result.clipdistance[i / 4] component i % 4, is >= 0; distances are
 * interpolated like positions).  Inside the guard band the rasterizer's
 * viewport bounds do the x/y clipping, as GPUs do.  Every attribute is
 * interpolated linearly in clip space, which is what keeps perspective-
 * correct interpolation exact across the new vertices; noperspective ones
 * (`linear_mask`) with the parameter of the new vertex along the edge in
 * window space instead, so that they stay linear in window space, as
 * Mesa's draw module does.  A new vertex is always computed from the
 * edge's inside endpoint, so two triangles sharing an edge get
 * bit-identical intersection points.
 */
#include <string.h>

#include "gfx/gfx.h"

#define GFX_CLIP_W_MIN 1e-5f

enum { NFIXED = 7, NPLANES = NFIXED + US_MAX_CLIP_DISTANCES };

/* inline: in the trivial accept's unrolled loop over the fixed planes
 * the switch folds away */
static inline __attribute__((always_inline)) float
plane_dist(unsigned p, const struct gfx_cvert *cv)
{
    const float *v = cv->pos;
    float g = GFX_GUARD_BAND * v[3];
    switch (p) {
    case 0: return v[3] - GFX_CLIP_W_MIN;
    case 1: return v[2] + v[3];   /* near */
    case 2: return v[3] - v[2];   /* far  */
    case 3: return g + v[0];
    case 4: return g - v[0];
    case 5: return g + v[1];
    case 6: return g - v[1];
    default:
        p -= NFIXED;
        return cv->vary[US_VOUT_CLIPDIST0 + p / 4][p % 4];
    }
}

/* The parameter of o = in + t (out - in) along the edge in window space:
 * x / w, else (an edge parallel to the y axis) y / w; t itself when both
 * ends project to one point. */
static float window_t(const struct gfx_cvert *in, const struct gfx_cvert *out,
                      const float *o, float t)
{
    for (int k = 0; k < 2; k++) {
        float a = in->pos[k] / in->pos[3], b = out->pos[k] / out->pos[3];
        if (a != b)
            return (o[k] / o[3] - a) / (b - a);
    }
    return t;
}

static void lerp_vert(struct gfx_cvert *o, const struct gfx_cvert *in,
                      const struct gfx_cvert *out, float t,
                      const struct gfx_clip_spec *spec)
{
    for (int c = 0; c < 4; c++)
        o->pos[c] = in->pos[c] + t * (out->pos[c] - in->pos[c]);
    float tl = spec->linear_mask ? window_t(in, out, o->pos, t) : t;
    for (uint64_t m = spec->vary_mask; m; m &= m - 1) {
        unsigned s = (unsigned)__builtin_ctzll(m);
        float ts = spec->linear_mask >> s & 1 ? tl : t;
        for (int c = 0; c < 4; c++)
            o->vary[s][c] = in->vary[s][c] + ts * (out->vary[s][c] - in->vary[s][c]);
    }
}

static void copy_vert(struct gfx_cvert *o, const struct gfx_cvert *v,
                      uint64_t mask)
{
    memcpy(o->pos, v->pos, sizeof o->pos);
    for (; mask; mask &= mask - 1) {
        unsigned s = (unsigned)__builtin_ctzll(mask);
        memcpy(o->vary[s], v->vary[s], sizeof o->vary[s]);
    }
}

unsigned gfx_clip_triangle(const struct gfx_cvert *in[3], uint64_t vary_mask,
                           struct gfx_cvert *out)
{
    struct gfx_clip_spec spec = { .vary_mask = vary_mask };
    return gfx_clip_polygon(in, &spec, out);
}

unsigned gfx_clip_polygon(const struct gfx_cvert *in[3],
                          const struct gfx_clip_spec *spec_in,
                          struct gfx_cvert *out)
{
    struct gfx_clip_spec spec = *spec_in;
    unsigned nplanes = NFIXED;
    if (spec.planes) {
        /* the distances travel with the vertices */
        spec.vary_mask |= 1ull << US_VOUT_CLIPDIST0 | 1ull << US_VOUT_CLIPDIST1;
        nplanes = NPLANES;
    }
    uint64_t mask = spec.vary_mask;
    /* Trivial accept: the common case copies nothing but the inputs. */
    unsigned outcode_or = 0;
#pragma GCC unroll 7
    for (unsigned p = 0; p < NFIXED; p++)
        for (int i = 0; i < 3; i++)
            if (!(plane_dist(p, in[i]) >= 0.0f))
                outcode_or |= 1u << p;
    for (unsigned p = NFIXED; p < nplanes; p++) {
        if (!(spec.planes >> (p - NFIXED) & 1))
            continue;
        for (int i = 0; i < 3; i++)
            if (!(plane_dist(p, in[i]) >= 0.0f))
                outcode_or |= 1u << p;
    }
    for (int i = 0; i < 3; i++)
        copy_vert(&out[i], in[i], mask);
    if (!outcode_or)
        return 3;

    struct gfx_cvert tmp[GFX_CLIP_MAX_VERTS];
    struct gfx_cvert *src = out, *dst = tmp;
    unsigned n = 3;
    for (unsigned p = 0; p < nplanes && n; p++) {
        if (!(outcode_or >> p & 1))
            continue;
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++) {
            const struct gfx_cvert *a = &src[i], *b = &src[(i + 1) % n];
            float da = plane_dist(p, a), db = plane_dist(p, b);
            bool ina = da >= 0.0f, inb = db >= 0.0f;
            if (ina)
                copy_vert(&dst[m++], a, mask);
            if (ina != inb) {
                /* t from the inside endpoint towards the outside one */
                if (ina)
                    lerp_vert(&dst[m++], a, b, da / (da - db), &spec);
                else
                    lerp_vert(&dst[m++], b, a, db / (db - da), &spec);
            }
        }
        n = m;
        struct gfx_cvert *t = src;
        src = dst;
        dst = t;
    }
    if (src != out)
        for (unsigned i = 0; i < n; i++)
            copy_vert(&out[i], &src[i], mask);
    return n;
}
