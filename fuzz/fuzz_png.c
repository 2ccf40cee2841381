/*
 * PNG texture decoder (gfx_png_decode, used by `texture ... png FILE`).
 * Any bytes either fail with a message or decode to an image within the
 * side limit whose texels are all finite and within [0, 1].
 */
#include <math.h>

#include "fuzz/fuzz.h"
#include "gfx/gfx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    float *rgba;
    unsigned w, h;
    struct us_diag d;
    /* A small side limit keeps each run fast; the limit check is the same. */
    if (!gfx_png_decode(data, size, 256, &rgba, &w, &h, &d)) {
        fuzz_check_diag(&d);
        return 0;
    }
    if (w == 0 || h == 0 || w > 256 || h > 256)
        fuzz_fail("decoded PNG outside the side limit", NULL);
    for (size_t i = 0; i < 4 * (size_t)w * h; i++)
        if (!(rgba[i] >= 0.0f && rgba[i] <= 1.0f))
            fuzz_fail("decoded texel outside [0, 1]", NULL);
    free(rgba);
    return 0;
}
