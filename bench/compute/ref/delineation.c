/* Delineation (peak/trough detection): the reference of
 * bench/compute/delineation.comp, TinyBio's delineation stage in e-GPU
 * (seed 000, arXiv 2505.08421): a peak is a sample above the threshold
 * larger than every other sample within W, a trough the mirror image. */
#include "kref.h"

enum { N = 512, W = 8, THRESHOLD = 2000 };

/* A synthetic beat: a triangle wave of period 64 (peaks and troughs of about
 * +-6000) plus noise of +-500, with its ramps cutting the threshold. */
static void init(uint8_t *const *bufs, uint64_t seed)
{
    for (int32_t i = 0; i < N; i++) {
        int32_t ph = i % 64, tri = ph < 32 ? ph * 375 - 6000 : (64 - ph) * 375 - 6000;
        int32_t noise = (int32_t)(kref_rand(&seed) % 1001) - 500;
        kref_put32(bufs[0], (uint32_t)i, (uint32_t)(tri + noise));
    }
}

static void run(uint8_t *const *bufs)
{
    uint32_t peaks = kref_get32(bufs[2], 0), troughs = kref_get32(bufs[2], 1);
    for (int32_t i = 0; i < N; i++) {
        int32_t f = 0, v = (int32_t)kref_get32(bufs[0], (uint32_t)i);
        if (i >= W && i < N - W && (v > THRESHOLD || v < -THRESHOLD)) {
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

const struct kref kref_delineation = {
    .name = "delineation.comp",
    .groups = { N / 8, 1, 1 },
    .nbufs = 3,
    .buf = { { 0, 4 * N }, { 1, 4 * N }, { 2, 8 } },
    .init = init,
    .run = run,
};
