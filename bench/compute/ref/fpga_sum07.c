/* fpga_sum07: the reference of bench/compute/fpga_sum07.comp, the FPGA
 * fork's sum of 0..7 (seed 002, 123-code/gpu_design software/demo.jpp as the
 * seed describes it): 28 in each thread's word. */
#include <string.h>

#include "kref.h"

enum { ITEMS = 2 * 8 };

static void init(uint8_t *const *b, uint64_t seed)
{
    (void)seed;
    memset(b[0], 0, 4 * ITEMS);
}

static void run(uint8_t *const *b)
{
    for (unsigned g = 0; g < ITEMS; g++) {
        uint32_t s = 0;
        for (uint32_t i = 0; i < 8; i++)
            s += i;
        memcpy(b[0] + 4 * g, &s, 4);
    }
}

const struct kref kref_fpga_sum07 = {
    .name = "fpga_sum07.comp", .groups = { 2, 1, 1 }, .nbufs = 1,
    .buf = { { 0, 4 * ITEMS } },
    .init = init, .run = run,
};
