/*
 * GL 2.1 §2.14.9: a [0, 1] colour component c becomes round(c * 255).
 * Clamped to [0, 1] first (NaN and negatives -> 0, +inf -> 1), then
 * floor(c * 255 + 0.5) (the sum is positive, so the conversion's
 * truncation is the floor).  The clamp works on the bits: float compares
 * may trap (ISO C's -ftrapping-math), so gcc would not turn them into
 * vector selects.  The export's conversion (gfx/framebuffer.c), and the
 * fragment stage's when the colour buffer is RGBA8 (gfx/fragment.c).
 */
#ifndef GFX_UNORM8_H
#define GFX_UNORM8_H

#include <stdint.h>
#include <string.h>

static inline uint8_t gfx_unorm8(float x)
{
    int32_t b;
    memcpy(&b, &x, sizeof b);
    int32_t keep = -(int32_t)(b > 0 && b <= 0x7f800000);  /* (0, +inf] */
    b = (b < 0x3f800000 ? b : 0x3f800000) & keep;          /* 1.0f */
    float c;
    memcpy(&c, &b, sizeof c);
    return (uint8_t)(int32_t)(c * 255.0f + 0.5f);
}

#endif
