/* rodinia_nn: the reference of bench/compute/rodinia_nn.comp, Rodinia's
 * nearest-neighbour distances (jiayi-wang98/dice-test-gpu-rodinia
 * cuda/nn_cuda/nn_cuda.cu, the euclid kernel; DICE, seed 004).  Binary32 in
 * the kernel's order: dx*dx rounded, dy*dy rounded, their sum rounded (the
 * translator's MUL and unfused MAD), and sqrt as the translator computes it,
 * RCP(RSQ(s)) with each step correctly rounded (glsl/spirv_math.c sqrt_n,
 * sfu/exact.c): that is not always sqrtf(s). */
#include <math.h>
#include <string.h>

#include "kref.h"

enum { N = 60, THREADS = 64 };

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

/* The binary32 nearest 1/sqrt(x), x > 0 normal: the double estimate is
 * within 2 double ulps, so it rounds to the right float or a neighbour;
 * the exact test against a midpoint m between floats is the sign of
 * m*m*x - 1, where m*m (50 bits) is exact in double and fma rounds once,
 * which keeps the sign. */
static float rsq_exact(float x)
{
    float f = (float)(1.0 / sqrt((double)x));
    for (;;) {
        double up = ((double)f + (double)nextafterf(f, INFINITY)) / 2;
        double dn = ((double)f + (double)nextafterf(f, 0.0f)) / 2;
        if (fma(up * up, (double)x, -1.0) < 0)
            f = nextafterf(f, INFINITY);
        else if (fma(dn * dn, (double)x, -1.0) > 0)
            f = nextafterf(f, 0.0f);
        else
            return f;
    }
}

static float glsl_sqrt(float s)
{
    return s > 0 ? 1.0f / rsq_exact(s) : 0.0f;   /* RSQ(0) = inf, RCP = 0 */
}

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

static void init(uint8_t *const *b, uint64_t seed)
{
    uint64_t s = seed;
    for (unsigned i = 0; i < 2 * N; i++)   /* latitudes, longitudes in hundredths */
        put_f(b[0], i, (float)((int)(next(&s) % 36000) - 18000) * 0.01f);
    for (unsigned i = 0; i < THREADS; i++)
        put_f(b[1], i, -1.0f);
    uint32_t n = N;
    memcpy(b[2], &n, 4);
    put_f(b[2], 1, 30.25f);
    put_f(b[2], 2, -97.5f);
}

static void run(uint8_t *const *b)
{
    uint32_t n;
    memcpy(&n, b[2], 4);
    float lat = get_f(b[2], 1), lng = get_f(b[2], 2);
    for (unsigned g = 0; g < n && g < THREADS; g++) {
        float dx = lat - get_f(b[0], 2 * g);
        float dy = lng - get_f(b[0], 2 * g + 1);
        float xx = dx * dx, yy = dy * dy;
        put_f(b[1], g, glsl_sqrt(xx + yy));
    }
}

const struct kref kref_rodinia_nn = {
    .name = "rodinia_nn.comp", .groups = { 8, 1, 1 }, .nbufs = 3,
    .buf = { { 0, 8 * N }, { 1, 4 * THREADS }, { 2, 12 } },
    .init = init, .run = run,
};
