/* fpga_fc9: the reference of bench/compute/fpga_fc9.comp, a 9-neuron FC
 * layer as the FPGA fork's FC unit computes it (seed 002,
 * 123-code/gpu_design): y[v][j] = b[j] + sum over i < 8 of W[j][i] x[v][i],
 * wrapping 32-bit integers. */
#include <string.h>

#include "kref.h"

enum { VECS = 2, IN = 8, OUT = 9 };

static int32_t get_i(const uint8_t *b, unsigned i)
{
    int32_t v;
    memcpy(&v, b + 4 * i, 4);
    return v;
}

static void put_i(uint8_t *b, unsigned i, int32_t v)
{
    memcpy(b + 4 * i, &v, 4);
}

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

/* int8 inputs and weights, biases of a few thousand. */
static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed + 9;
    for (unsigned i = 0; i < VECS * IN; i++)
        put_i(b[0], i, (int32_t)(next(&s) & 255) - 128);
    for (unsigned i = 0; i < OUT * IN; i++)
        put_i(b[1], i, (int32_t)(next(&s) & 255) - 128);
    for (unsigned j = 0; j < OUT; j++)
        put_i(b[2], j, (int32_t)(next(&s) % 8192) - 4096);
    memset(b[3], 0, 4 * VECS * OUT);
}

static void run(uint8_t *const *b)
{
    for (unsigned v = 0; v < VECS; v++)
        for (unsigned j = 0; j < OUT; j++) {
            uint32_t acc = (uint32_t)get_i(b[2], j);
            for (unsigned i = 0; i < IN; i++)
                acc += (uint32_t)(get_i(b[1], j * IN + i) * get_i(b[0], v * IN + i));
            put_i(b[3], v * OUT + j, (int32_t)acc);
        }
}

const struct kref kref_fpga_fc9 = {
    .name = "fpga_fc9.comp", .groups = { VECS, 1, 1 }, .nbufs = 4,
    .buf = { { 0, 4 * VECS * IN }, { 1, 4 * OUT * IN }, { 2, 4 * OUT },
             { 3, 4 * VECS * OUT } },
    .init = init, .run = run,
};
