/* kgpu_add_const: the reference of bench/compute/kgpu_add_const.comp, kGPU's
 * add_const (seed 003, neight777/kGPU Testbenches/gpu_testbench.py):
 * mem[g] = mem[256 + g] + 5 for g < 128, the inputs 3g as the testbench's. */
#include <string.h>

#include "kref.h"

enum { ITEMS = 16 * 8, IN = 256, WORDS = 384 };

static void init(uint8_t *const *b, uint64_t seed)
{
    (void)seed;   /* the testbench's fixed inputs */
    memset(b[0], 0, 4 * WORDS);
    for (uint32_t g = 0; g < ITEMS; g++) {
        uint32_t v = 3 * g;
        memcpy(b[0] + 4 * (IN + g), &v, 4);
    }
}

static void run(uint8_t *const *b)
{
    for (uint32_t g = 0; g < ITEMS; g++) {
        uint32_t v;
        memcpy(&v, b[0] + 4 * (IN + g), 4);
        v += 5;
        memcpy(b[0] + 4 * g, &v, 4);
    }
}

const struct kref kref_kgpu_add_const = {
    .name = "kgpu_add_const.comp", .groups = { 16, 1, 1 }, .nbufs = 1,
    .buf = { { 0, 4 * WORDS } },
    .init = init, .run = run,
};
