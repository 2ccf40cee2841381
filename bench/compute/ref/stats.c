/* Statistics of a 64-sample window (mean, median, RMS): the reference of
 * bench/compute/stats.comp and stats.cl, TinyBio's statistics stage in
 * e-GPU (seed 000, arXiv 2505.08421).  Division toward zero as GLSL's and
 * OpenCL C's; RMS is the integer square root of the mean square. */
#include <stdlib.h>

#include "kref.h"

enum { N = 64 };

static void init(uint8_t *const *bufs, uint64_t seed)
{
    for (uint32_t i = 0; i < N; i++)   /* repeats, so ties are exercised */
        kref_put32(bufs[0], i, (uint32_t)((int32_t)(kref_rand(&seed) % 401) - 200) * 16);
}

static int cmp(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void run(uint8_t *const *bufs)
{
    int32_t v[N], sum = 0, sq = 0;
    for (uint32_t i = 0; i < N; i++) {
        v[i] = (int32_t)kref_get32(bufs[0], i);
        sum += v[i];
        sq += v[i] * v[i];
    }
    qsort(v, N, sizeof v[0], cmp);
    for (uint32_t i = 0; i < N; i++)
        kref_put32(bufs[1], i, (uint32_t)v[i]);
    uint32_t ms = (uint32_t)sq / N, root = 0;
    for (uint32_t b = 1u << 15; b; b >>= 1)
        if ((root | b) * (root | b) <= ms)
            root |= b;
    kref_put32(bufs[2], 0, (uint32_t)(sum / N));
    kref_put32(bufs[2], 1, (uint32_t)((v[31] + v[32]) / 2));
    kref_put32(bufs[2], 2, root);
}

const struct kref kref_stats = {
    .name = "stats.comp",
    .groups = { 1, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 4 * N }, { 1, 4 * N }, { 2, 12 } },
    .init = init,
    .run = run,
};

/* stats.cl's arguments: x, sorted, r, n. */
const struct kref kref_stats_cl = {
    .name = "stats.cl",
    .groups = { 1, 1, 1 },
    .local = { 8, 1, 1 },
    .nargs = 1,
    .arg = { { 3, N } },
    .nbufs = 3,
    .buf = { { 0, 4 * N }, { 1, 4 * N }, { 2, 12 } },
    .init = init,
    .run = run,
};
