/* rodinia_backprop: the reference of bench/compute/rodinia_backprop.comp,
 * Rodinia's backprop layer forward (bpnn_layerforward_CUDA,
 * cuda/backprop/backprop_cuda_kernel.cu, Rodinia 3.1; DICE, seed 004) in
 * Q15: partial[by][j] = sum of (w[i][j] * x[i]) >> 15 over block by's 8
 * inputs (wrapping int32; the sum's order does not matter in integers). */
#include <string.h>

#include "kref.h"

enum { IN = 32, HID = 8, H = 8, BLOCKS = IN / H };

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

/* Q15 values in [-1, 1): inputs and weights. */
static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed + 99;
    for (unsigned i = 0; i < IN; i++)
        put_i(b[0], i, (int32_t)(next(&s) % 65536) - 32768);
    for (unsigned i = 0; i < IN * HID; i++)
        put_i(b[1], i, (int32_t)(next(&s) % 65536) - 32768);
    memset(b[2], 0, 4 * BLOCKS * HID);
}

/* x >> 15 on a negative int: arithmetic, as GLSL's >> on int. */
static int32_t q15(int32_t p)
{
    return p >= 0 ? p >> 15 : -(int32_t)((~(uint32_t)p >> 15) + 1);
}

static void run(uint8_t *const *b)
{
    for (unsigned by = 0; by < BLOCKS; by++)
        for (unsigned j = 0; j < HID; j++) {
            uint32_t sum = 0;
            for (unsigned i = 0; i < H; i++) {
                int32_t p = get_i(b[1], (by * H + i) * HID + j) *
                            get_i(b[0], by * H + i);
                sum += (uint32_t)q15(p);
            }
            put_i(b[2], by * HID + j, (int32_t)sum);
        }
}

const struct kref kref_rodinia_backprop = {
    .name = "rodinia_backprop.comp", .groups = { BLOCKS, 1, 1 }, .nbufs = 3,
    .buf = { { 0, 4 * IN }, { 1, 4 * IN * HID }, { 2, 4 * BLOCKS * HID } },
    .init = init, .run = run,
};
