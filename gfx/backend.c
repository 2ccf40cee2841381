/* The functional shader backend: the reference interpreter, one thread at
 * a time for vertices and one 2x2 quad in lockstep for fragments.  Cycle
 * models plug in through the same struct gfx_shader_backend. */
#include "gfx/gfx.h"

static void functional_shade(void *ctx, const struct us_program *prog,
                             const struct us_exec_env *env,
                             struct us_thread *threads, unsigned n,
                             bool quads)
{
    (void)ctx;
    if (quads) {
        for (unsigned i = 0; i + 4 <= n; i += 4)
            us_interpret_quad(prog, env, threads + i);
    } else {
        for (unsigned i = 0; i < n; i++)
            us_interpret(prog, env, &threads[i]);
    }
}

const struct gfx_shader_backend gfx_backend_functional = {
    .name = "functional",
    .ctx = NULL,
    .shade = functional_shade,
};
