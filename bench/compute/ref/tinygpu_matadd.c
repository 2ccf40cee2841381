/* tinygpu_matadd: the reference of bench/compute/tinygpu_matadd.comp,
 * tiny-gpu's matadd (adam-maj/tiny-gpu test/test_matadd.py):
 * mem[16 + i] = mem[i] + mem[8 + i], i < 8. */
#include <string.h>

#include "kref.h"

enum { N = 8, WORDS = 3 * N };

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed + 1;
    memset(b[0], 0, 4 * WORDS);
    for (unsigned i = 0; i < 2 * N; i++) {
        uint32_t v = next(&s) & 127;
        memcpy(b[0] + 4 * i, &v, 4);
    }
}

static void run(uint8_t *const *b)
{
    for (unsigned i = 0; i < N; i++) {
        uint32_t x, y;
        memcpy(&x, b[0] + 4 * i, 4);
        memcpy(&y, b[0] + 4 * (N + i), 4);
        x += y;
        memcpy(b[0] + 4 * (2 * N + i), &x, 4);
    }
}

const struct kref kref_tinygpu_matadd = {
    .name = "tinygpu_matadd.comp", .groups = { 2, 1, 1 }, .nbufs = 1,
    .buf = { { 0, 4 * WORDS } },
    .init = init, .run = run,
};
