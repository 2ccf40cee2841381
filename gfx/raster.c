/*
 * Triangle setup and coverage with fixed-point edge functions (Pineda,
 * "A Parallel Algorithm for Polygon Rasterization", SIGGRAPH 1988).
 * Window coordinates are rounded to 1/2^GFX_SUBPIXEL_BITS (1/256) of a
 * pixel; pixels are sampled at their centres (x + 1/2, y + 1/2, GL 2.1
 * §3.5.1).  Fill rule: a centre exactly on an edge belongs to the triangle
 * only if that edge is a top edge (horizontal, interior below it) or a
 * left edge (interior to its right); so two triangles sharing an edge
 * never both cover, nor both miss, a pixel on it.
 */
#include <math.h>

#include "gfx/gfx.h"

enum { ONE = 1 << GFX_SUBPIXEL_BITS, HALF = ONE / 2 };

static inline int64_t edge(const struct gfx_tri_setup *s, int i,
                           int64_t px, int64_t py)
{
    int a = (i + 1) % 3, b = (i + 2) % 3;
    return (s->x[b] - s->x[a]) * (py - s->y[a]) -
           (s->y[b] - s->y[a]) * (px - s->x[a]);
}

bool gfx_tri_setup(struct gfx_tri_setup *s, const float wx[3],
                   const float wy[3], unsigned vw, unsigned vh,
                   unsigned perm[3])
{
    for (int i = 0; i < 3; i++) {
        if (!isfinite(wx[i]) || !isfinite(wy[i]) ||
            fabsf(wx[i]) > 1e6f || fabsf(wy[i]) > 1e6f)
            return false;
        s->x[i] = llrintf(wx[i] * (float)ONE);
        s->y[i] = llrintf(wy[i] * (float)ONE);
        perm[i] = (unsigned)i;
    }
    int64_t area2 = (s->x[1] - s->x[0]) * (s->y[2] - s->y[0]) -
                    (s->x[2] - s->x[0]) * (s->y[1] - s->y[0]);
    if (area2 == 0)
        return false;
    /* GL 2.1 §2.14.1: counter-clockwise in window space is front. */
    s->back = area2 < 0;
    if (s->back) {
        int64_t tx = s->x[1], ty = s->y[1];
        s->x[1] = s->x[2], s->y[1] = s->y[2];
        s->x[2] = tx, s->y[2] = ty;
        perm[1] = 2;
        perm[2] = 1;
        area2 = -area2;
    }
    s->area2 = area2;
    for (int i = 0; i < 3; i++) {
        int a = (i + 1) % 3, b = (i + 2) % 3;
        int64_t dx = s->x[b] - s->x[a], dy = s->y[b] - s->y[a];
        /* y is up: a top edge runs right-to-left, a left edge downwards */
        s->owned[i] = dy < 0 || (dy == 0 && dx < 0);
    }
    int64_t xmin = s->x[0], xmax = s->x[0], ymin = s->y[0], ymax = s->y[0];
    for (int i = 1; i < 3; i++) {
        xmin = s->x[i] < xmin ? s->x[i] : xmin;
        xmax = s->x[i] > xmax ? s->x[i] : xmax;
        ymin = s->y[i] < ymin ? s->y[i] : ymin;
        ymax = s->y[i] > ymax ? s->y[i] : ymax;
    }
    /* pixel p's centre is p * ONE + HALF */
    int64_t x0 = (xmin - HALF + ONE - 1) >> GFX_SUBPIXEL_BITS;
    int64_t x1 = (xmax - HALF) >> GFX_SUBPIXEL_BITS;
    int64_t y0 = (ymin - HALF + ONE - 1) >> GFX_SUBPIXEL_BITS;
    int64_t y1 = (ymax - HALF) >> GFX_SUBPIXEL_BITS;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > (int64_t)vw - 1) x1 = (int64_t)vw - 1;
    if (y1 > (int64_t)vh - 1) y1 = (int64_t)vh - 1;
    if (x0 > x1 || y0 > y1)
        return false;
    s->xmin = (int)x0, s->xmax = (int)x1, s->ymin = (int)y0, s->ymax = (int)y1;
    return true;
}

bool gfx_tri_edges(const struct gfx_tri_setup *s, int px, int py,
                   int64_t e[3])
{
    int64_t cx = (int64_t)px * ONE + HALF, cy = (int64_t)py * ONE + HALF;
    /* the three edges spelled out, so edge()'s vertex indices are
     * constants: this runs for every pixel of every bounding box */
    e[0] = edge(s, 0, cx, cy);
    e[1] = edge(s, 1, cx, cy);
    e[2] = edge(s, 2, cx, cy);
    return gfx_tri_inside(s, e);
}

void gfx_tri_edge_steps(const struct gfx_tri_setup *s, int64_t dx[3],
                        int64_t dy[3])
{
    /* edge() is (x_b - x_a)(py - y_a) - (y_b - y_a)(px - x_a), and a pixel
     * is ONE in either coordinate */
    for (int i = 0; i < 3; i++) {
        int a = (i + 1) % 3, b = (i + 2) % 3;
        dx[i] = -(s->y[b] - s->y[a]) * ONE;
        dy[i] = (s->x[b] - s->x[a]) * ONE;
    }
}
