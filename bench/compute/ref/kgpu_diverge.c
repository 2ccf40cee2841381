/* kgpu_diverge: the reference of bench/compute/kgpu_diverge.comp, kGPU's
 * diverge (seed 003, neight777/kGPU Testbenches/gpu_testbench.py): the
 * testbench's check, out[g] = g % 8 (the thread index). */
#include <string.h>

#include "kref.h"

enum { BLOCKS = 16, THREADS = 8 };

static void init(uint8_t *const *b, uint64_t seed)
{
    (void)seed;
    memset(b[0], 0xff, 4 * BLOCKS * THREADS);   /* the kernel writes every word */
}

static void run(uint8_t *const *b)
{
    for (uint32_t g = 0; g < BLOCKS * THREADS; g++) {
        uint32_t v = g % THREADS;
        memcpy(b[0] + 4 * g, &v, 4);
    }
}

const struct kref kref_kgpu_diverge = {
    .name = "kgpu_diverge.comp", .groups = { BLOCKS, 1, 1 }, .nbufs = 1,
    .buf = { { 0, 4 * BLOCKS * THREADS } },
    .init = init, .run = run,
};
