/* Linear and RBF SVM decisions over 16-feature integer vectors: the
 * reference of bench/compute/svm.comp and svm.cl, TinyBio's classification
 * stage in e-GPU (seed 000, arXiv 2505.08421).  The RBF kernel is 2^-u in
 * Q15 with u = |x - sv|^2 / 2^20 in Q8, linear between integer u (the
 * kernels'). */
#include "kref.h"

enum { V = 32, F = 16, S = 8, B = 16, BRBF = 17, ALPHA = 18, SV = 26,
       MODEL = SV + S * F };

static int32_t asr(int32_t v, unsigned s)
{
    return v < 0 ? (int32_t)~(~(uint32_t)v >> s) : (int32_t)((uint32_t)v >> s);
}

static int32_t rnd(uint64_t *seed, int32_t lo, int32_t hi)
{
    return lo + (int32_t)(kref_rand(seed) % (uint64_t)(hi - lo + 1));
}

static void init(uint8_t *const *bufs, uint64_t seed)
{
    for (uint32_t i = 0; i < V * F; i++)
        kref_put32(bufs[0], i, (uint32_t)rnd(&seed, -128, 127));
    for (uint32_t i = 0; i < F; i++)
        kref_put32(bufs[1], i, (uint32_t)rnd(&seed, -128, 127));
    kref_put32(bufs[1], B, (uint32_t)rnd(&seed, -5000, 5000));
    kref_put32(bufs[1], BRBF, (uint32_t)rnd(&seed, -5000, 5000));
    for (uint32_t s = 0; s < S; s++)
        kref_put32(bufs[1], ALPHA + s, (uint32_t)rnd(&seed, -256, 256));
    /* Support vectors near the first vectors, so K spans its range. */
    for (uint32_t i = 0; i < S * F; i++)
        kref_put32(bufs[1], SV + i, kref_get32(bufs[0], i * 3 % (V * F)) +
                                        (uint32_t)rnd(&seed, -60, 60));
}

static void run(uint8_t *const *bufs)
{
    const uint8_t *x = bufs[0], *m = bufs[1];
    for (uint32_t v = 0; v < V; v++) {
        int32_t lin = (int32_t)kref_get32(m, B), rbf = 0;
        for (uint32_t f = 0; f < F; f++)
            lin += (int32_t)kref_get32(m, f) * (int32_t)kref_get32(x, v * F + f);
        for (uint32_t s = 0; s < S; s++) {
            int32_t d2 = 0;
            for (uint32_t f = 0; f < F; f++) {
                int32_t e = (int32_t)kref_get32(x, v * F + f) -
                            (int32_t)kref_get32(m, SV + s * F + f);
                d2 += e * e;
            }
            int32_t u = d2 >> 12, ip = u >> 8, fr = u & 255;  /* d2 >= 0 */
            int32_t k = ip >= 15 ? 0 : 32768 >> ip;
            k -= ((k - (k >> 1)) * fr) >> 8;
            rbf += (int32_t)kref_get32(m, ALPHA + s) * k;
        }
        kref_put32(bufs[2], 2 * v, (uint32_t)lin);
        kref_put32(bufs[2], 2 * v + 1, (uint32_t)(asr(rbf, 8) + (int32_t)kref_get32(m, BRBF)));
    }
}

const struct kref kref_svm = {
    .name = "svm.comp",
    .groups = { V / 8, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 4 * V * F }, { 1, 4 * MODEL }, { 2, 8 * V } },
    .init = init,
    .run = run,
};

/* svm.cl's arguments: x, m, d, vectors, features, support vectors. */
const struct kref kref_svm_cl = {
    .name = "svm.cl",
    .groups = { V / 8, 1, 1 },
    .local = { 8, 1, 1 },
    .nargs = 3,
    .arg = { { 3, V }, { 4, F }, { 5, S } },
    .nbufs = 3,
    .buf = { { 0, 4 * V * F }, { 1, 4 * MODEL }, { 2, 8 * V } },
    .init = init,
    .run = run,
};
