/*
 * Input capture: a shader backend that records the inputs of the threads
 * the pipeline shades, so benchmarks run programs on real interpolated
 * fragment values and real mesh vertices instead of random numbers (the
 * shared LUT's multi-fetch depends on neighbouring fragments asking for
 * neighbouring entries).
 *
 * The backend wraps another one (normally gfx_backend_functional), which
 * still shades every batch, so the image is unchanged.  Batches of the
 * program equal to `match` (us_program_equal) are recorded in pipeline
 * order -- vertices in mesh order, fragments as whole 2x2 quads in raster
 * order -- up to `cap` threads.  The first matching batch also gives the
 * resolved parameters and the texture units bound to it.
 */
#ifndef GFX_CAPTURE_H
#define GFX_CAPTURE_H

#include "gfx/gfx.h"

struct gfx_capture {
    struct gfx_shader_backend be;          /* pass &c->be to the pipeline */
    const struct gfx_shader_backend *inner;
    const struct us_program *match;
    unsigned cap;                          /* threads at most (quads kept
                                              whole for fragments)        */
    us_vec4 (*inputs)[US_MAX_INPUTS];      /* n threads' input registers  */
    unsigned n;
    uint64_t seen;                         /* matching threads shaded     */
    us_vec4 *params;                       /* match->nparams slots, or NULL
                                              before the first batch      */
    struct gfx_sampler sampler;            /* units of the first batch    */
    bool oom;
};

/* Start a capture of `match` (which must outlive it). */
void gfx_capture_init(struct gfx_capture *c,
                      const struct gfx_shader_backend *inner,
                      const struct us_program *match, unsigned cap);
void gfx_capture_free(struct gfx_capture *c);

/* The workload taken from a capture: `want` threads at most (fragments:
 * whole quads when there are four or more) from the middle of what was
 * recorded, the first batches being often the background or the edge of
 * a mesh; its first thread in *start (a quad's first), its size in *n. */
void gfx_capture_window(const struct gfx_capture *c, unsigned want,
                        unsigned *start, unsigned *n);

#endif
