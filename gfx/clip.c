/*
 * Clipping in homogeneous clip space (GL 2.1 §2.12): Sutherland-Hodgman
 * against w > GFX_CLIP_W_MIN, the near (z >= -w) and far (z <= w) planes,
 * then the guard band |x|, |y| <= GFX_GUARD_BAND * w.  Inside the guard
 * band the rasterizer's viewport bounds do the x/y clipping, as GPUs do.
 * Every attribute is interpolated linearly in clip space, which is what
 * keeps perspective-correct interpolation exact across the new vertices.
 * A new vertex is always computed from the edge's inside endpoint, so two
 * triangles sharing an edge get bit-identical intersection points.
 */
#include <string.h>

#include "gfx/gfx.h"

#define GFX_CLIP_W_MIN 1e-5f

enum { NPLANES = 7 };

static float plane_dist(unsigned p, const float *v)
{
    float g = GFX_GUARD_BAND * v[3];
    switch (p) {
    case 0: return v[3] - GFX_CLIP_W_MIN;
    case 1: return v[2] + v[3];   /* near */
    case 2: return v[3] - v[2];   /* far  */
    case 3: return g + v[0];
    case 4: return g - v[0];
    case 5: return g + v[1];
    default: return g - v[1];
    }
}

static void lerp_vert(struct gfx_cvert *o, const struct gfx_cvert *in,
                      const struct gfx_cvert *out, float t, uint32_t mask)
{
    for (int c = 0; c < 4; c++)
        o->pos[c] = in->pos[c] + t * (out->pos[c] - in->pos[c]);
    for (unsigned s = 0; s < GFX_NVARY; s++)
        if (mask >> s & 1)
            for (int c = 0; c < 4; c++)
                o->vary[s][c] = in->vary[s][c] + t * (out->vary[s][c] - in->vary[s][c]);
}

static void copy_vert(struct gfx_cvert *o, const struct gfx_cvert *v,
                      uint32_t mask)
{
    memcpy(o->pos, v->pos, sizeof o->pos);
    for (unsigned s = 0; s < GFX_NVARY; s++)
        if (mask >> s & 1)
            memcpy(o->vary[s], v->vary[s], sizeof o->vary[s]);
}

unsigned gfx_clip_triangle(const struct gfx_cvert *in[3], uint32_t vary_mask,
                           struct gfx_cvert *out)
{
    /* Trivial accept: the common case copies nothing but the inputs. */
    unsigned outcode_or = 0;
    for (unsigned p = 0; p < NPLANES; p++)
        for (int i = 0; i < 3; i++)
            if (!(plane_dist(p, in[i]->pos) >= 0.0f))
                outcode_or |= 1u << p;
    for (int i = 0; i < 3; i++)
        copy_vert(&out[i], in[i], vary_mask);
    if (!outcode_or)
        return 3;

    struct gfx_cvert tmp[GFX_CLIP_MAX_VERTS];
    struct gfx_cvert *src = out, *dst = tmp;
    unsigned n = 3;
    for (unsigned p = 0; p < NPLANES && n; p++) {
        if (!(outcode_or >> p & 1))
            continue;
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++) {
            const struct gfx_cvert *a = &src[i], *b = &src[(i + 1) % n];
            float da = plane_dist(p, a->pos), db = plane_dist(p, b->pos);
            bool ina = da >= 0.0f, inb = db >= 0.0f;
            if (ina)
                copy_vert(&dst[m++], a, vary_mask);
            if (ina != inb) {
                /* t from the inside endpoint towards the outside one */
                if (ina)
                    lerp_vert(&dst[m++], a, b, da / (da - db), vary_mask);
                else
                    lerp_vert(&dst[m++], b, a, db / (db - da), vary_mask);
            }
        }
        n = m;
        struct gfx_cvert *t = src;
        src = dst;
        dst = t;
    }
    if (src != out)
        for (unsigned i = 0; i < n; i++)
            copy_vert(&out[i], &src[i], vary_mask);
    return n;
}
