/* Input capture backend: gfx/capture.h. */
#include <stdlib.h>
#include <string.h>

#include "gfx/capture.h"

static void record(struct gfx_capture *c, const struct us_program *prog,
                   const struct us_exec_env *env,
                   const struct us_thread *threads, unsigned n, bool quads)
{
    c->seen += n;
    if (!c->params) {
        c->params = calloc(prog->nparams ? prog->nparams : 1,
                           sizeof *c->params);
        if (!c->params) {
            c->oom = true;
            return;
        }
        memcpy(c->params, env->params, prog->nparams * sizeof *c->params);
        /* The pipeline's sampler context is a struct gfx_sampler
         * (gfx/gfx.h); keep its units, not its counter. */
        if (env->sample_ctx && env->sample == gfx_sample) {
            const struct gfx_sampler *s = env->sample_ctx;
            memcpy(c->sampler.unit, s->unit, sizeof c->sampler.unit);
        }
    }
    unsigned room = c->cap - c->n;
    unsigned take = n < room ? n : room;
    if (quads)
        take -= take % 4;  /* whole quads only */
    if (take == 0)
        return;
    if (!c->inputs) {
        c->inputs = malloc((size_t)c->cap * sizeof *c->inputs);
        if (!c->inputs) {
            c->oom = true;
            return;
        }
    }
    for (unsigned i = 0; i < take; i++)
        memcpy(c->inputs[c->n + i], threads[i].input, sizeof c->inputs[0]);
    c->n += take;
}

static void capture_shade(void *ctx, const struct us_program *prog,
                          const struct us_exec_env *env,
                          struct us_thread *threads, unsigned n, bool quads)
{
    struct gfx_capture *c = ctx;
    if (!c->oom && n > 0 && us_program_equal(prog, c->match))
        record(c, prog, env, threads, n, quads);
    c->inner->shade(c->inner->ctx, prog, env, threads, n, quads);
}

void gfx_capture_init(struct gfx_capture *c,
                      const struct gfx_shader_backend *inner,
                      const struct us_program *match, unsigned cap)
{
    memset(c, 0, sizeof *c);
    c->be.name = "capture";
    c->be.ctx = c;
    c->be.shade = capture_shade;
    c->be.varying_slots = inner->varying_slots;
    c->inner = inner;
    c->match = match;
    c->cap = cap;
}

void gfx_capture_free(struct gfx_capture *c)
{
    free(c->inputs);
    free(c->params);
    c->inputs = NULL;
    c->params = NULL;
}

void gfx_capture_window(const struct gfx_capture *c, unsigned want,
                        unsigned *start, unsigned *n)
{
    unsigned k = want < c->n ? want : c->n;
    if (c->match->stage == US_STAGE_FRAGMENT && k >= 4)
        k -= k % 4;
    unsigned s = (c->n - k) / 2;
    *start = s - s % 4;
    *n = k;
}
