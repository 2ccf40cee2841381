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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/* The same of a pixel's four components, its four bytes in memory order
 * (SSE2: the compiler's own vector of bytes went through the stack). */
static inline uint32_t gfx_unorm8_pixel(const float c[4])
{
#ifdef __SSE2__
    __m128i b = _mm_castps_si128(_mm_loadu_ps(c));
    __m128i one = _mm_set1_epi32(0x3f800000);
    __m128i keep = _mm_andnot_si128(
        _mm_cmpgt_epi32(b, _mm_set1_epi32(0x7f800000)),
        _mm_cmpgt_epi32(b, _mm_setzero_si128()));
    __m128i above = _mm_cmpgt_epi32(b, one);
    b = _mm_and_si128(_mm_or_si128(_mm_andnot_si128(above, b),
                                   _mm_and_si128(above, one)), keep);
    __m128i i = _mm_cvttps_epi32(_mm_add_ps(
        _mm_mul_ps(_mm_castsi128_ps(b), _mm_set1_ps(255.0f)),
        _mm_set1_ps(0.5f)));
    i = _mm_packs_epi32(i, i);
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(i, i));
#else
    uint8_t px[4];
    for (int k = 0; k < 4; k++)
        px[k] = gfx_unorm8(c[k]);
    uint32_t u;
    memcpy(&u, px, sizeof u);
    return u;
#endif
}

#endif
