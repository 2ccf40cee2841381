/* FIR filter, 32 taps, Q15: the reference of bench/compute/fir.comp and
 * fir.cl, TinyBio's FIR stage in e-GPU (seed 000, arXiv 2505.08421).
 * y[i] = sum_k (h[k] * x[i + 31 - k]) >> 15, the shift arithmetic; 256
 * outputs, and 2048 for the OpenCL scaling study (fir_big_cl). */
#include "kref.h"

enum { N = 256, NBIG = 2048, TAPS = 32 };

/* Arithmetic shift right, as GLSL's >> on int (C leaves it to the compiler). */
static int32_t asr(int32_t v, unsigned s)
{
    return v < 0 ? (int32_t)~(~(uint32_t)v >> s) : (int32_t)((uint32_t)v >> s);
}

static void init_n(uint8_t *const *bufs, uint64_t seed, uint32_t n)
{
    for (uint32_t i = 0; i < n + TAPS - 1; i++)
        kref_put32(bufs[0], i, (uint32_t)((int32_t)(kref_rand(&seed) % 65536) - 32768));
    for (uint32_t k = 0; k < TAPS; k++)   /* |h| < 1/8: a low-pass-like sum */
        kref_put32(bufs[1], k, (uint32_t)((int32_t)(kref_rand(&seed) % 8192) - 4096));
}

static void run_n(uint8_t *const *bufs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        int32_t acc = 0;
        for (uint32_t k = 0; k < TAPS; k++)
            acc += asr((int32_t)kref_get32(bufs[1], k) *
                       (int32_t)kref_get32(bufs[0], i + TAPS - 1 - k), 15);
        kref_put32(bufs[2], i, (uint32_t)acc);
    }
}

static void init(uint8_t *const *bufs, uint64_t seed) { init_n(bufs, seed, N); }
static void run(uint8_t *const *bufs) { run_n(bufs, N); }
static void init_big(uint8_t *const *bufs, uint64_t seed) { init_n(bufs, seed, NBIG); }
static void run_big(uint8_t *const *bufs) { run_n(bufs, NBIG); }

const struct kref kref_fir = {
    .name = "fir.comp",
    .groups = { N / 8, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 4 * (N + TAPS - 1) }, { 1, 4 * TAPS }, { 2, 4 * N } },
    .init = init,
    .run = run,
};

/* fir.cl's arguments: x, h, y, n, taps. */
const struct kref kref_fir_cl = {
    .name = "fir.cl",
    .groups = { N / 8, 1, 1 },
    .local = { 8, 1, 1 },
    .nargs = 2,
    .arg = { { 3, N }, { 4, TAPS } },
    .nbufs = 3,
    .buf = { { 0, 4 * (N + TAPS - 1) }, { 1, 4 * TAPS }, { 2, 4 * N } },
    .init = init,
    .run = run,
};

const struct kref kref_fir_big_cl = {
    .name = "fir.cl",
    .groups = { NBIG / 8, 1, 1 },
    .local = { 8, 1, 1 },
    .nargs = 2,
    .arg = { { 3, NBIG }, { 4, TAPS } },
    .nbufs = 3,
    .buf = { { 0, 4 * (NBIG + TAPS - 1) }, { 1, 4 * TAPS }, { 2, 4 * NBIG } },
    .init = init_big,
    .run = run_big,
};
