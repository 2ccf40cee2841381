/* The fragment stage of a draw, as the draw level (gfx/pipeline.c) runs
 * it: one draw_ctx per slice of bands, each of the draw's triangles in
 * submission order (gfx_frag_polygon after clipping), gfx_frag_flush for
 * the last quads, gfx_frag_end.  gfx/fragment.c. */
#ifndef GFX_FRAGMENT_H
#define GFX_FRAGMENT_H

#include "gfx/gfx.h"

enum { QUAD_BATCH = 64, LANE_BATCH = 4 * QUAD_BATCH, TILE = 16 };

static inline float gfx_clamp01(float x)
{
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;  /* NaN -> 0 */
}

struct quad_info {
    int x, y;             /* window coordinates of member 2 (bottom-left) */
    uint8_t cover;        /* bit i: member i is covered                   */
};

/* A worker's pending quads with their member 2's edge functions, and
 * per lane (member i of quad q is lane 4q + i) what the interpolation
 * gives the per-fragment operations. */
struct frag_batch {
    struct quad_info quad[QUAD_BATCH];
    int64_t e2[3][QUAD_BATCH];    /* the edge functions at member 2      */
    float z[LANE_BATCH];          /* interpolated window z (need_z)      */
    float fog[LANE_BATCH];        /* fragment.fogcoord.x, when fogging   */
};

struct tri;                       /* a triangle being rasterized */
struct draw_ctx {
    struct gfx_framebuffer *fb;
    const struct gfx_draw *d;
    struct gfx_stats *stats;
    struct us_exec_env fenv;
    struct us_diag *diag;
    bool failed;                  /* a fragment went over the budget  */
    struct us_thread *threads;    /* 4 per quad                       */
    struct frag_batch *batch;
    unsigned nquads;
    uint64_t fin_mask;            /* fragment inputs to interpolate   */
    uint64_t fin_flat, fin_linear;  /* of them: flat, noperspective     */
    bool fog;
    unsigned worker, nworkers;    /* this one owns the bands b (rows
                                     [b band, (b + 1) band)) with
                                     b % nworkers == worker: a slice, of
                                     nworkers slices                    */
    int band;                     /* their rows: TILE times 1, 2 or 4  */
    bool count_prims;             /* counts this triangle's pieces and
                                     culls (one slice does)            */
    /* Set up at the first triangle (frag_setup).  The row form: the
     * backend's rows_open took the program, so the inputs go straight
     * into the executor's lane rows, a chunk of US_SOA_WIDTH / 4 quads at
     * a time, and no thread record is touched; NULL: thread records. */
    bool set_up;
    void (*raster)(struct draw_ctx *c, const struct tri *t);  /* a build */
    struct us_soa *rows;
    uint8_t in_comps[US_FIN_COUNT];   /* bit k: component k of the input
                                         is computed (records: all four
                                         of those the draw writes; rows:
                                         those the program reads)        */
    uint64_t in_interp;               /* inputs COLOR0 .. FACING - 1 with
                                         components in in_comps           */
    bool need_z;                      /* a lane's window z is read        */
    float *in_row[US_FIN_COUNT][4];   /* rows: where they go              */
    const float *out_row[5];          /* rows: result.color x y z w and
                                         result.depth z; a row of zeros
                                         when the program never writes it
                                         (0, as reset)                    */
};

/* A thread over the instruction budget fails the draw (its program would
 * hang hardware): true, with the first one found reported. */
bool gfx_overrun(const struct us_thread *t, unsigned n,
                 const struct us_exec_env *env, const char *what,
                 struct us_diag *diag);

/* A clipped polygon of n vertices (pv: the provoking vertex), as
 * triangles, into c's pending quads (shaded when a batch is full). */
void gfx_frag_polygon(struct draw_ctx *c, const struct gfx_cvert *poly,
                      unsigned n, const struct gfx_cvert *pv);

/* Shade the pending quads, then run the per-fragment operations in order;
 * false when a fragment went over the instruction budget. */
bool gfx_frag_flush(struct draw_ctx *c);

/* The end of a slice's fragment stage (after its last flush). */
void gfx_frag_end(struct draw_ctx *c);

#endif
