/* rodinia_gaussian: the reference of bench/compute/rodinia_gaussian.comp,
 * Rodinia's Gaussian elimination, Fan1 and Fan2 for t = 0..N-2
 * (jiayi-wang98/dice-test-gpu-rodinia cuda/gaussian/gaussian.cu; DICE,
 * seed 004).  Binary32 in the kernel's order: the multiplier is a * (1/d)
 * (the translator's RCP then MUL, each correctly rounded), the update
 * a - (m * p) rounds the product first. */
#include <string.h>

#include "kref.h"

enum { N = 8 };

static float get_f(const uint8_t *b, unsigned i)
{
    float f;
    memcpy(&f, b + 4 * i, 4);
    return f;
}

static void put_f(uint8_t *b, unsigned i, float f)
{
    memcpy(b + 4 * i, &f, 4);
}

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

/* A diagonally dominant matrix (no pivoting, as Rodinia's), b, m = 0. */
static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed ^ 0x9e3779b97f4a7c15u;
    for (unsigned i = 0; i < N; i++) {
        for (unsigned j = 0; j < N; j++) {
            float v = (float)((int)(next(&s) % 2001) - 1000) / 256.0f;
            put_f(b[0], N * i + j, i == j ? v + (v < 0 ? -40.0f : 40.0f) : v);
        }
        put_f(b[1], i, (float)((int)(next(&s) % 2001) - 1000) / 64.0f);
    }
    memset(b[2], 0, 4 * N * N);
}

static void run(uint8_t *const *b)
{
    for (unsigned t = 0; t + 1 < N; t++) {
        float r = 1.0f / get_f(b[0], N * t + t);
        for (unsigned i = t + 1; i < N; i++)
            put_f(b[2], N * i + t, get_f(b[0], N * i + t) * r);
        for (unsigned i = t + 1; i < N; i++) {
            float mul = get_f(b[2], N * i + t);
            for (unsigned j = t; j < N; j++) {
                float p = mul * get_f(b[0], N * t + j);
                put_f(b[0], N * i + j, get_f(b[0], N * i + j) - p);
            }
            float q = mul * get_f(b[1], t);
            put_f(b[1], i, get_f(b[1], i) - q);
        }
    }
}

const struct kref kref_rodinia_gaussian = {
    .name = "rodinia_gaussian.comp", .groups = { 1, 1, 1 }, .nbufs = 3,
    .buf = { { 0, 4 * N * N }, { 1, 4 * N }, { 2, 4 * N * N } },
    .init = init, .run = run,
};
