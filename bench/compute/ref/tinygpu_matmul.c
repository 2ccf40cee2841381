/* tinygpu_matmul: the reference of bench/compute/tinygpu_matmul.comp,
 * tiny-gpu's matmul (adam-maj/tiny-gpu test/test_matmul.py): C = A x B,
 * 2x2, A at words 0..3, B at 4..7, C at 8..11. */
#include <string.h>

#include "kref.h"

enum { N = 2, WORDS = 3 * N * N };

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
    uint64_t s = seed + 2;
    memset(b[0], 0, 4 * WORDS);
    for (unsigned i = 0; i < 2 * N * N; i++) {
        uint32_t v = next(&s) & 7;
        memcpy(b[0] + 4 * i, &v, 4);
    }
}

static void run(uint8_t *const *b)
{
    for (unsigned r = 0; r < N; r++)
        for (unsigned c = 0; c < N; c++) {
            uint32_t acc = 0;
            for (unsigned k = 0; k < N; k++)
                acc += get_u(b[0], r * N + k) * get_u(b[0], N * N + k * N + c);
            memcpy(b[0] + 4 * (2 * N * N + r * N + c), &acc, 4);
        }
}

const struct kref kref_tinygpu_matmul = {
    .name = "tinygpu_matmul.comp", .groups = { 1, 1, 1 }, .nbufs = 1,
    .buf = { { 0, 4 * WORDS } },
    .init = init, .run = run,
};
