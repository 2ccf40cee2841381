/* FIR filter, 32 taps, Q15: the reference of bench/compute/fir.comp,
 * TinyBio's FIR stage in e-GPU (seed 000, arXiv 2505.08421).
 * y[i] = sum_k (h[k] * x[i + 31 - k]) >> 15, the shift arithmetic. */
#include "kref.h"

enum { N = 256, TAPS = 32 };

/* Arithmetic shift right, as GLSL's >> on int (C leaves it to the compiler). */
static int32_t asr(int32_t v, unsigned s)
{
    return v < 0 ? (int32_t)~(~(uint32_t)v >> s) : (int32_t)((uint32_t)v >> s);
}

static void init(uint8_t *const *bufs, uint64_t seed)
{
    for (uint32_t i = 0; i < N + TAPS - 1; i++)
        kref_put32(bufs[0], i, (uint32_t)((int32_t)(kref_rand(&seed) % 65536) - 32768));
    for (uint32_t k = 0; k < TAPS; k++)   /* |h| < 1/8: a low-pass-like sum */
        kref_put32(bufs[1], k, (uint32_t)((int32_t)(kref_rand(&seed) % 8192) - 4096));
}

static void run(uint8_t *const *bufs)
{
    for (uint32_t i = 0; i < N; i++) {
        int32_t acc = 0;
        for (uint32_t k = 0; k < TAPS; k++)
            acc += asr((int32_t)kref_get32(bufs[1], k) *
                       (int32_t)kref_get32(bufs[0], i + TAPS - 1 - k), 15);
        kref_put32(bufs[2], i, (uint32_t)acc);
    }
}

const struct kref kref_fir = {
    .name = "fir.comp",
    .groups = { N / 8, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 4 * (N + TAPS - 1) }, { 1, 4 * TAPS }, { 2, 4 * N } },
    .init = init,
    .run = run,
};
