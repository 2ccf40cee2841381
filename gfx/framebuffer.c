/* The colour (RGBA float) and depth (float) buffers, their 8-bit export
 * and the golden-image hash. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"
#include "suite/provenance.h"

bool gfx_fb_init(struct gfx_framebuffer *fb, unsigned w, unsigned h,
                 struct us_diag *diag)
{
    if (!gfx_fb_alloc(fb, w, h, diag))
        return false;
    static const float black[4] = { 0, 0, 0, 0 };
    gfx_fb_clear(fb, black, 1.0f);
    return true;
}

bool gfx_fb_alloc(struct gfx_framebuffer *fb, unsigned w, unsigned h,
                  struct us_diag *diag)
{
    memset(fb, 0, sizeof *fb);
    if (w == 0 || h == 0 || w > GFX_MAX_VIEWPORT || h > GFX_MAX_VIEWPORT)
        return gfx_fail(diag, 0, 0, "image size %ux%u outside 1..%d", w, h,
                        GFX_MAX_VIEWPORT);
    /* one block, the depth after the colour */
    size_t n = (size_t)w * h;
    fb->color = gfx_huge_alloc(n * (4 * sizeof *fb->color + sizeof *fb->depth));
    if (!fb->color)
        return gfx_fail(diag, 0, 0, "out of memory for a %ux%u image", w, h);
    fb->depth = fb->color + 4 * n;
    fb->w = w;
    fb->h = h;
    return true;
}

size_t gfx_fb_bytes(unsigned w, unsigned h)
{
    /* RGBA float, depth, RGBA8, and as much again for its PNG at worst */
    return (size_t)w * h * (4 * sizeof(float) + sizeof(float) + 4 + 4);
}

void gfx_fb_free(struct gfx_framebuffer *fb)
{
    free(fb->color);
    memset(fb, 0, sizeof *fb);
}

void gfx_fb_clear(struct gfx_framebuffer *fb, const float rgba[4],
                  float depth)
{
    gfx_fb_clear_rows(fb, rgba, depth, 0, fb->h);
}

void gfx_fb_clear_rows(struct gfx_framebuffer *fb, const float rgba[4],
                       float depth, unsigned y0, unsigned y1)
{
    size_t n = (size_t)fb->w * y1;
    for (size_t i = (size_t)fb->w * y0; i < n; i++) {
        memcpy(fb->color + 4 * i, rgba, 4 * sizeof *rgba);
        fb->depth[i] = depth;
    }
}

/* GL 2.1 §2.14.9: a [0, 1] colour component c becomes round(c * 255).
 * Clamped to [0, 1] first (NaN and negatives -> 0, +inf -> 1), then
 * floor(c * 255 + 0.5) (the sum is positive, so the conversion's
 * truncation is the floor).  The clamp works on the bits: float compares
 * may trap (ISO C's -ftrapping-math), so gcc would not turn them into
 * vector selects. */
static inline uint8_t unorm8(const float *src)
{
    int32_t b;
    memcpy(&b, src, sizeof b);
    int32_t keep = -(int32_t)(b > 0 && b <= 0x7f800000);  /* (0, +inf] */
    b = (b < 0x3f800000 ? b : 0x3f800000) & keep;          /* 1.0f */
    float c;
    memcpy(&c, &b, sizeof c);
    return (uint8_t)(int32_t)(c * 255.0f + 0.5f);
}

uint8_t *gfx_fb_rgba8(const struct gfx_framebuffer *fb)
{
    uint8_t *out = gfx_huge_alloc((size_t)fb->w * fb->h * 4);
    if (!out)
        return NULL;
    size_t n = (size_t)fb->w * 4;
    for (unsigned r = 0; r < fb->h; r++) {
        const float *src = fb->color + (size_t)(fb->h - 1 - r) * n;
        uint8_t *dst = out + (size_t)r * n;
        for (size_t i = 0; i < n; i++)
            dst[i] = unorm8(&src[i]);
    }
    return out;
}

/* FNV-1a 64 (suite/provenance.h), the hash every output uses. */
uint64_t gfx_hash_rgba8(const uint8_t *rgba, size_t n)
{
    return us_fnv1a64(rgba, n);
}
