/* fpga_mac8: the reference of bench/compute/fpga_mac8.comp, the FPGA fork's
 * MAC dot product (seed 002, 123-code/gpu_design software/mac_read32.asm):
 * dot[b] = sum over i < 8 of pixel[8b + i] * weight[8b + i], 32 bits. */
#include <string.h>

#include "kref.h"

enum { BLOCKS = 2, LANES = 8, N = BLOCKS * LANES };

static uint32_t get_u(const uint8_t *b, unsigned i)
{
    uint32_t v;
    memcpy(&v, b + 4 * i, 4);
    return v;
}

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed + 8;
    for (unsigned i = 0; i < N; i++) {
        uint32_t p = next(&s) & 255, w = next(&s) & 255;
        memcpy(b[0] + 4 * i, &p, 4);
        memcpy(b[1] + 4 * i, &w, 4);
    }
    memset(b[2], 0, 4 * BLOCKS);
}

static void run(uint8_t *const *b)
{
    for (unsigned k = 0; k < BLOCKS; k++) {
        uint32_t sum = get_u(b[2], k);
        for (unsigned i = 0; i < LANES; i++)
            sum += get_u(b[0], LANES * k + i) * get_u(b[1], LANES * k + i);
        memcpy(b[2] + 4 * k, &sum, 4);
    }
}

const struct kref kref_fpga_mac8 = {
    .name = "fpga_mac8.comp", .groups = { BLOCKS, 1, 1 }, .nbufs = 3,
    .buf = { { 0, 4 * N }, { 1, 4 * N }, { 2, 4 * BLOCKS } },
    .init = init, .run = run,
};
