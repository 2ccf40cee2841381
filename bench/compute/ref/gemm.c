/* GeMM, C = A x B over N x N int32 matrices (wrapping): the reference of
 * bench/compute/gemm.comp and gemm.cl, e-GPU's (seed 000, arXiv
 * 2505.08421) GeMM benchmark at 32x32, 64x64, 128x128 and 256x256. */
#include "kref.h"

/* A and B, interleaved from one generator as the GLSL entries had them. */
static void fill(uint8_t *a, uint8_t *b, uint64_t seed, uint32_t n)
{
    for (uint32_t i = 0; i < n * n; i++) {
        kref_put32(a, i, (uint32_t)(int32_t)(kref_rand(&seed) % 2001) - 1000);
        kref_put32(b, i, (uint32_t)(int32_t)(kref_rand(&seed) % 2001) - 1000);
    }
}

static void mm(const uint8_t *a, const uint8_t *b, uint8_t *c, uint32_t n)
{
    for (uint32_t r = 0; r < n; r++)
        for (uint32_t col = 0; col < n; col++) {
            uint32_t s = 0;   /* unsigned: wrapping as the kernel's int */
            for (uint32_t k = 0; k < n; k++)
                s += kref_get32(a, r * n + k) * kref_get32(b, k * n + col);
            kref_put32(c, r * n + col, s);
        }
}

static void run(uint8_t *const *bufs)
{
    mm(bufs[1], bufs[2], bufs[3], kref_get32(bufs[0], 0));
}

/* gemmN (gemm.comp: N in binding 0, A, B, C in 1..3) and gemmN_cl
 * (gemm.cl: A, B, C in buffers 0..2, n its argument 3). */
#define GEMM(N)                                                              \
    static void init##N(uint8_t *const *bufs, uint64_t seed)                 \
    {                                                                        \
        kref_put32(bufs[0], 0, N);                                           \
        fill(bufs[1], bufs[2], seed, N);                                     \
    }                                                                        \
    static void init_cl##N(uint8_t *const *bufs, uint64_t seed)              \
    {                                                                        \
        fill(bufs[0], bufs[1], seed, N);                                     \
    }                                                                        \
    static void run_cl##N(uint8_t *const *bufs)                              \
    {                                                                        \
        mm(bufs[0], bufs[1], bufs[2], N);                                    \
    }                                                                        \
    const struct kref kref_gemm##N = {                                       \
        .name = "gemm.comp",                                                 \
        .groups = { N / 8, N, 1 },                                           \
        .nbufs = 4,                                                          \
        .buf = { { 0, 4 }, { 1, 4 * N * N }, { 2, 4 * N * N },               \
                 { 3, 4 * N * N } },                                         \
        .init = init##N,                                                     \
        .run = run,                                                          \
    };                                                                       \
    const struct kref kref_gemm##N##_cl = {                                  \
        .name = "gemm.cl",                                                   \
        .groups = { N / 8, N, 1 },                                           \
        .local = { 8, 1, 1 },                                                \
        .nargs = 1,                                                          \
        .arg = { { 3, N } },                                                 \
        .nbufs = 3,                                                          \
        .buf = { { 0, 4 * N * N }, { 1, 4 * N * N }, { 2, 4 * N * N } },     \
        .init = init_cl##N,                                                  \
        .run = run_cl##N,                                                    \
    };
GEMM(32)
GEMM(64)
GEMM(128)
GEMM(256)
