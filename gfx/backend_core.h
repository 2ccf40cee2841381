/*
 * A shader backend (struct gfx_shader_backend) that runs the pipeline's
 * vertex and fragment batches on a core model (shader/core.h), so
 * `ushader render --arch A` shades on the modelled cores and reports their
 * cycles and utilization per stage.
 *
 * Outputs: every model leaves the reference interpreter's bits for a
 * thread on its own.  A fragment quad that samples textures or reads
 * derivatives (DDX DDY) needs the four fragments in lockstep for its
 * derivatives (mipmap level, dFdx), which the per-thread models do not
 * keep (a lone thread's derivative is 0, isa/micro.h); for those batches
 * the model runs for the
 * timing and the pixels come from the lockstep interpreter
 * (us_interpret_quad), so images are identical to --arch functional; a
 * program of such a batch that writes memory runs on the model against
 * a copy of the buffers, so that memory is written once (by the
 * interpreter).
 */
#ifndef GFX_BACKEND_CORE_H
#define GFX_BACKEND_CORE_H

#include "gfx/gfx.h"
#include "shader/core.h"

/* Totals of one shader stage over every batch. */
struct gfx_core_totals {
    uint64_t batches, threads, cycles, useful_ops;
    double energy;
    uint64_t lut_accesses, lut_merged, lut_conflicts, lut_stall_cycles;
};

struct gfx_core_backend {
    struct gfx_shader_backend be;      /* pass &b->be to the pipeline */
    const struct us_core_model *model;
    struct us_config cfg;
    struct gfx_core_totals stage[2];   /* enum us_stage */
    bool failed;                       /* a batch could not run: diag */
    struct us_diag diag;
};

void gfx_core_backend_init(struct gfx_core_backend *b,
                           const struct us_core_model *model,
                           const struct us_config *cfg);

/* The totals as a JSON object (a new reference, NULL when out of memory):
 * `ushader render --stats`'s "core". */
struct json_t;
struct json_t *gfx_core_backend_json(const struct gfx_core_backend *b);

#endif
