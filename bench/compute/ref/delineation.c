/* Delineation (peak/trough detection): the reference of
 * bench/compute/delineation.comp and delineation.cl, TinyBio's delineation
 * stage in e-GPU (seed 000, arXiv 2505.08421): a peak is a sample above
 * the threshold larger than every other sample within W, a trough the
 * mirror image.  512 samples, and 4096 for the OpenCL scaling study
 * (delineation_big_cl). */
#include "kref.h"

enum { N = 512, NBIG = 4096, W = 8, THRESHOLD = 2000 };

/* A synthetic beat: a triangle wave of period 64 (peaks and troughs of about
 * +-6000) plus noise of +-500, with its ramps cutting the threshold. */
static void init_n(uint8_t *const *bufs, uint64_t seed, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        int32_t ph = i % 64, tri = ph < 32 ? ph * 375 - 6000 : (64 - ph) * 375 - 6000;
        int32_t noise = (int32_t)(kref_rand(&seed) % 1001) - 500;
        kref_put32(bufs[0], (uint32_t)i, (uint32_t)(tri + noise));
    }
}

static void run_n(uint8_t *const *bufs, int32_t n)
{
    uint32_t peaks = kref_get32(bufs[2], 0), troughs = kref_get32(bufs[2], 1);
    for (int32_t i = 0; i < n; i++) {
        int32_t f = 0, v = (int32_t)kref_get32(bufs[0], (uint32_t)i);
        if (i >= W && i < n - W && (v > THRESHOLD || v < -THRESHOLD)) {
            int peak = v > 0;
            f = peak ? 1 : -1;
            for (int32_t j = i - W; j <= i + W; j++) {
                int32_t w = (int32_t)kref_get32(bufs[0], (uint32_t)j);
                if (j != i && (peak ? w >= v : w <= v))
                    f = 0;
            }
        }
        kref_put32(bufs[1], (uint32_t)i, (uint32_t)f);
        peaks += f == 1;
        troughs += f == -1;
    }
    kref_put32(bufs[2], 0, peaks);
    kref_put32(bufs[2], 1, troughs);
}

static void init(uint8_t *const *bufs, uint64_t seed) { init_n(bufs, seed, N); }
static void run(uint8_t *const *bufs) { run_n(bufs, N); }
static void init_big(uint8_t *const *bufs, uint64_t seed) { init_n(bufs, seed, NBIG); }
static void run_big(uint8_t *const *bufs) { run_n(bufs, NBIG); }

const struct kref kref_delineation = {
    .name = "delineation.comp",
    .groups = { N / 8, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 4 * N }, { 1, 4 * N }, { 2, 8 } },
    .init = init,
    .run = run,
};

/* delineation.cl's arguments: x, flag, count, n, w, threshold. */
const struct kref kref_delineation_cl = {
    .name = "delineation.cl",
    .groups = { N / 8, 1, 1 },
    .local = { 8, 1, 1 },
    .nargs = 3,
    .arg = { { 3, N }, { 4, W }, { 5, THRESHOLD } },
    .nbufs = 3,
    .buf = { { 0, 4 * N }, { 1, 4 * N }, { 2, 8 } },
    .init = init,
    .run = run,
};

const struct kref kref_delineation_big_cl = {
    .name = "delineation.cl",
    .groups = { NBIG / 8, 1, 1 },
    .local = { 8, 1, 1 },
    .nargs = 3,
    .arg = { { 3, NBIG }, { 4, W }, { 5, THRESHOLD } },
    .nbufs = 3,
    .buf = { { 0, 4 * NBIG }, { 1, 4 * NBIG }, { 2, 8 } },
    .init = init_big,
    .run = run_big,
};
