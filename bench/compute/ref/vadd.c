/* Vector add, c[i] = a[i] + b[i] (int32, wrapping): the reference of
 * bench/compute/vadd.comp (the suite's smallest kernel, as kGPU's add_const
 * and tiny-gpu's matadd add per thread). */
#include "kref.h"

enum { N = 1024 };

static void init(uint8_t *const *bufs, uint64_t seed)
{
    for (uint32_t i = 0; i < N; i++) {
        kref_put32(bufs[0], i, (uint32_t)kref_rand(&seed));
        kref_put32(bufs[1], i, (uint32_t)kref_rand(&seed));
    }
}

static void run(uint8_t *const *bufs)
{
    for (uint32_t i = 0; i < N; i++)
        kref_put32(bufs[2], i, kref_get32(bufs[0], i) + kref_get32(bufs[1], i));
}

const struct kref kref_vadd = {
    .name = "vadd.comp",
    .groups = { N / 8, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 4 * N }, { 1, 4 * N }, { 2, 4 * N } },
    .init = init,
    .run = run,
};
