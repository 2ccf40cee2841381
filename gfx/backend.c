/* The functional shader backend: a batch of threads on the batched
 * structure-of-arrays executor (shader/interp_soa.h) when it takes the
 * program, else on the reference interpreter, one thread at a time for
 * vertices and one 2x2 quad in lockstep for fragments; both give the same
 * bits.  Cycle models plug in through the same struct gfx_shader_backend.
 *
 * Each batch decodes the program once (shader/decode.h) and runs every
 * thread on the decoded form: decoding costs about as much as running the
 * program on one quad, and a batch holds up to 64 quads or 32 vertices. */
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"
#include "shader/interp_soa.h"

bool gfx_soa_choice(enum us_soa_isa *isa)
{
    const char *e = getenv("USHADER_SOA");
    *isa = US_SOA_AUTO;
    if (!e)
        return true;
    if (!strcmp(e, "0"))
        return false;
    if (!strcmp(e, "baseline"))
        *isa = US_SOA_BASELINE;
    else if (!strcmp(e, "avx2") && us_soa_have(US_SOA_AVX2))
        *isa = US_SOA_AVX2;
    else if (!strcmp(e, "avx512") && us_soa_have(US_SOA_AVX512))
        *isa = US_SOA_AVX512;
    return true;
}

static bool any_overrun(const struct us_thread *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (t[i].overrun)
            return true;
    return false;
}

static void functional_shade(void *ctx, const struct us_program *prog,
                             const struct us_exec_env *env,
                             struct us_thread *threads, unsigned n,
                             bool quads)
{
    (void)ctx;
    struct us_decoded *dec = us_decode(prog);
    enum us_soa_isa isa;
    struct us_soa *soa = dec && gfx_soa_choice(&isa) ? us_soa_plan(dec) : NULL;
    if (soa) {
        /* straight-line code: no thread can go over the budget; the
         * pipeline reads outputs, not TEMPs */
        us_soa_run(soa, env, threads, quads ? n - n % 4 : n, quads, false,
                   isa);
        us_soa_free(soa);
        us_decoded_free(dec);
        return;
    }
    if (dec) {
        /* a thread over the budget ends the batch: the draw fails */
        unsigned step = quads ? 4 : 1;
        for (unsigned i = 0; i + step <= n; i += step) {
            if (quads)
                us_interpret_quads(dec, env, threads + i, 1);
            else
                us_interpret_decoded(dec, env, &threads[i]);
            if (any_overrun(threads + i, step))
                break;
        }
        us_decoded_free(dec);
        return;
    }
    /* out of memory: the same results without the decoded form */
    if (quads) {
        for (unsigned i = 0; i + 4 <= n; i += 4)
            us_interpret_quad(prog, env, threads + i);
    } else {
        for (unsigned i = 0; i < n; i++)
            us_interpret(prog, env, &threads[i]);
    }
}

/* The pipeline's row form: the same executor and choice as `shade`. */
static struct us_soa *functional_rows(void *ctx, const struct us_program *prog)
{
    (void)ctx;
    enum us_soa_isa isa;
    return gfx_soa_choice(&isa) ? us_soa_open(prog, isa) : NULL;
}

const struct gfx_shader_backend gfx_backend_functional = {
    .name = "functional",
    .ctx = NULL,
    .shade = functional_shade,
    /* a chunk of the SoA executor: the program decoded and planned once
     * for it (bunny.scn's draws 1.08x over 32) */
    .vertex_batch = US_SOA_WIDTH,
    .rows_open = functional_rows,
};
