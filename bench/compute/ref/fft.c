/* Stockham radix-2 FFT, N = 256, Q15 complex, scaled by 1/2 per stage: the
 * reference of bench/compute/fft.comp and fft.cl, TinyBio's FFT stage in
 * e-GPU (seed 000, arXiv 2505.08421).  Stockham's autosort form as in Van Loan,
 * "Computational Frameworks for the Fast Fourier Transform" (SIAM 1992),
 * §1.7: stage st reads x[q + s p], x[q + s (p + m)] and writes
 * y[q + 2 s p], y[q + s (2 p + 1)], s = 2^st, m = N / 2s. */
#include <math.h>

#include "kref.h"

enum { N = 256, LOG2N = 8 };

static int32_t asr(int32_t v, unsigned s)
{
    return v < 0 ? (int32_t)~(~(uint32_t)v >> s) : (int32_t)((uint32_t)v >> s);
}

/* A two-tone signal plus noise, |re|, |im| < 2^14. */
static void init(uint8_t *const *bufs, uint64_t seed)
{
    const double pi = 3.14159265358979323846;
    for (uint32_t i = 0; i < N; i++) {
        double v = 6000 * cos(2 * pi * 5 * i / N) + 3000 * sin(2 * pi * 37 * i / N);
        int32_t noise = (int32_t)(kref_rand(&seed) % 2001) - 1000;
        kref_put32(bufs[0], 2 * i, (uint32_t)((int32_t)lround(v) + noise));
        kref_put32(bufs[0], 2 * i + 1, (uint32_t)((int32_t)(kref_rand(&seed) % 2001) - 1000));
    }
    for (uint32_t k = 0; k < N / 2; k++) {
        kref_put32(bufs[1], 2 * k, (uint32_t)(int32_t)lround(32767 * cos(2 * pi * k / N)));
        kref_put32(bufs[1], 2 * k + 1, (uint32_t)(int32_t)lround(-32767 * sin(2 * pi * k / N)));
    }
}

static void run(uint8_t *const *bufs)
{
    int32_t re[2][N], im[2][N];
    for (uint32_t i = 0; i < N; i++) {
        re[0][i] = (int32_t)kref_get32(bufs[0], 2 * i);
        im[0][i] = (int32_t)kref_get32(bufs[0], 2 * i + 1);
    }
    for (uint32_t st = 0; st < LOG2N; st++) {
        const int32_t *xr = re[st & 1], *xi = im[st & 1];
        int32_t *yr = re[~st & 1], *yi = im[~st & 1];
        uint32_t s = 1u << st, m = N >> (st + 1);
        for (uint32_t t = 0; t < N / 2; t++) {
            uint32_t p = t >> st, q = t & (s - 1);
            int32_t ar = xr[q + s * p], ai = xi[q + s * p];
            int32_t br = xr[q + s * (p + m)], bi = xi[q + s * (p + m)];
            int32_t wr = (int32_t)kref_get32(bufs[1], 2 * p * s);
            int32_t wi = (int32_t)kref_get32(bufs[1], 2 * p * s + 1);
            int32_t dr = asr(ar - br, 1), di = asr(ai - bi, 1);
            yr[q + s * 2 * p] = asr(ar + br, 1);
            yi[q + s * 2 * p] = asr(ai + bi, 1);
            yr[q + s * (2 * p + 1)] = asr(dr * wr, 15) - asr(di * wi, 15);
            yi[q + s * (2 * p + 1)] = asr(dr * wi, 15) + asr(di * wr, 15);
        }
    }
    for (uint32_t i = 0; i < N; i++) {
        kref_put32(bufs[2], 2 * i, (uint32_t)re[0][i]);
        kref_put32(bufs[2], 2 * i + 1, (uint32_t)im[0][i]);
    }
}

const struct kref kref_fft = {
    .name = "fft.comp",
    .groups = { 1, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 8 * N }, { 1, 4 * N }, { 2, 8 * N } },
    .init = init,
    .run = run,
};

/* fft.cl: x, w, y; N is the kernel's constant. */
const struct kref kref_fft_cl = {
    .name = "fft.cl",
    .groups = { 1, 1, 1 },
    .local = { 8, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 8 * N }, { 1, 4 * N }, { 2, 8 * N } },
    .init = init,
    .run = run,
};
