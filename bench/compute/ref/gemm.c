/* GeMM, C = A x B over N x N int32 matrices (wrapping): the reference of
 * bench/compute/gemm.comp, e-GPU's (seed 000, arXiv 2505.08421) GeMM
 * benchmark at 32x32, 64x64, 128x128 and 256x256.  Binding 0 holds N. */
#include "kref.h"

static void init_n(uint8_t *const *bufs, uint64_t seed, uint32_t n)
{
    kref_put32(bufs[0], 0, n);
    for (uint32_t i = 0; i < n * n; i++) {
        kref_put32(bufs[1], i, (uint32_t)(int32_t)(kref_rand(&seed) % 2001) - 1000);
        kref_put32(bufs[2], i, (uint32_t)(int32_t)(kref_rand(&seed) % 2001) - 1000);
    }
}

static void run(uint8_t *const *bufs)
{
    uint32_t n = kref_get32(bufs[0], 0);
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t c = 0; c < n; c++) {
            uint32_t s = 0;   /* unsigned: wrapping as the kernel's int */
            for (uint32_t k = 0; k < n; k++)
                s += kref_get32(bufs[1], r * n + k) * kref_get32(bufs[2], k * n + c);
            kref_put32(bufs[3], r * n + c, s);
        }
}

#define GEMM(N)                                                              \
    static void init##N(uint8_t *const *bufs, uint64_t seed)                 \
    {                                                                        \
        init_n(bufs, seed, N);                                               \
    }                                                                        \
    const struct kref kref_gemm##N = {                                       \
        .name = "gemm.comp",                                                 \
        .groups = { N / 8, N, 1 },                                           \
        .nbufs = 4,                                                          \
        .buf = { { 0, 4 }, { 1, 4 * N * N }, { 2, 4 * N * N },               \
                 { 3, 4 * N * N } },                                         \
        .init = init##N,                                                     \
        .run = run,                                                          \
    };
GEMM(32)
GEMM(64)
GEMM(128)
GEMM(256)
