/*
 * Procedural textures, computed at load time so scenes need no binary
 * assets: checkerboard, value noise (Perlin's 1985 "image synthesizer" idea
 * of summing octaves of smoothly interpolated lattice noise), bricks, a
 * normal map of bumps (normals from central differences of a height field,
 * stored as n * 0.5 + 0.5, height in alpha) and a sky/ground environment
 * for cube maps (directions from the inverse of GL 2.1 table 3.21).
 */
#include <math.h>

#include "gfx/gfx.h"

/* Integer hash (a 32-bit finalizer: xor-shift and multiply rounds). */
static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static float lattice(int x, int y, unsigned period, uint32_t seed)
{
    unsigned ux = (unsigned)x % period, uy = (unsigned)y % period;
    return (float)(hash32(ux * 73856093u ^ uy * 19349663u ^ seed) & 0xffff) /
           65535.0f;
}

/* Smooth value noise, periodic so the texture tiles under REPEAT. */
static float value_noise(float x, float y, unsigned period, uint32_t seed)
{
    int ix = (int)floorf(x), iy = (int)floorf(y);
    float fx = x - (float)ix, fy = y - (float)iy;
    fx = fx * fx * (3.0f - 2.0f * fx);
    fy = fy * fy * (3.0f - 2.0f * fy);
    float a = lattice(ix, iy, period, seed), b = lattice(ix + 1, iy, period, seed);
    float c = lattice(ix, iy + 1, period, seed), d = lattice(ix + 1, iy + 1, period, seed);
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
}

static float fbm(float u, float v, uint32_t seed)
{
    float sum = 0.0f, amp = 0.5f;
    unsigned period = 4;
    for (int o = 0; o < 5; o++) {
        sum += amp * value_noise(u * (float)period, v * (float)period, period,
                                 seed + (uint32_t)o);
        amp *= 0.5f;
        period *= 2;
    }
    return sum;
}

static float bump_height(float u, float v)
{
    float s = sinf(u * 2.0f * (float)GFX_PI * 4.0f);
    float t = sinf(v * 2.0f * (float)GFX_PI * 4.0f);
    float h = s * t;
    return h > 0.0f ? h : 0.0f;
}

static void sky(unsigned face, float s, float t, float o[4])
{
    float sc = 2.0f * s - 1.0f, tc = 2.0f * t - 1.0f, r[3];
    switch (face) {
    case 0: r[0] = 1; r[1] = -tc; r[2] = -sc; break;
    case 1: r[0] = -1; r[1] = -tc; r[2] = sc; break;
    case 2: r[0] = sc; r[1] = 1; r[2] = tc; break;
    case 3: r[0] = sc; r[1] = -1; r[2] = -tc; break;
    case 4: r[0] = sc; r[1] = -tc; r[2] = 1; break;
    default: r[0] = -sc; r[1] = -tc; r[2] = -1; break;
    }
    float l = sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    for (int i = 0; i < 3; i++)
        r[i] /= l;
    if (r[1] >= 0.0f) {
        float k = r[1];
        o[0] = 0.85f - 0.65f * k;
        o[1] = 0.9f - 0.5f * k;
        o[2] = 1.0f - 0.1f * k;
        /* a sun towards +x +y -z */
        float sd = 0.6f * r[0] + 0.5f * r[1] - 0.62f * r[2];
        if (sd > 0.97f)
            o[0] = o[1] = o[2] = 1.0f;
    } else {
        /* ground: a checkerboard seen from the centre */
        float gx = r[0] / -r[1], gz = r[2] / -r[1];
        bool c = ((int)floorf(gx * 2.0f) + (int)floorf(gz * 2.0f)) & 1;
        float k = c ? 0.45f : 0.3f;
        o[0] = k + 0.1f;
        o[1] = k;
        o[2] = k - 0.1f;
    }
    o[3] = 1.0f;
}

void gfx_proc_fill(enum gfx_proc kind, unsigned w, unsigned h, unsigned face,
                   uint32_t seed, float *out)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            float u = ((float)x + 0.5f) / (float)w;
            float v = ((float)y + 0.5f) / (float)h;
            float *o = out + 4 * ((size_t)y * w + x);
            o[3] = 1.0f;
            switch (kind) {
            case GFX_PROC_CHECKER: {
                bool c = ((x * 8 / w) + (y * 8 / h)) & 1;
                o[0] = c ? 0.95f : 0.15f;
                o[1] = c ? 0.9f : 0.2f;
                o[2] = c ? 0.8f : 0.45f;
                break;
            }
            case GFX_PROC_NOISE: {
                float n = fbm(u, v, seed);
                o[0] = o[1] = o[2] = n;
                break;
            }
            case GFX_PROC_BRICK: {
                float by = v * 8.0f, bx = u * 4.0f;
                if ((int)floorf(by) & 1)
                    bx += 0.5f;
                float fx = bx - floorf(bx), fy = by - floorf(by);
                bool mortar = fx < 0.06f || fy < 0.12f;
                float n = fbm(u, v, 7u);
                o[0] = mortar ? 0.75f : 0.55f + 0.3f * n;
                o[1] = mortar ? 0.72f : 0.2f + 0.15f * n;
                o[2] = mortar ? 0.68f : 0.12f + 0.1f * n;
                break;
            }
            case GFX_PROC_BUMPS: {
                float e = 1.0f / (float)w, k = 6.0f;
                float dx = (bump_height(u + e, v) - bump_height(u - e, v)) / (2 * e);
                float dy = (bump_height(u, v + e) - bump_height(u, v - e)) / (2 * e);
                float n[3] = { -dx / k / 8.0f, -dy / k / 8.0f, 1.0f };
                float l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                for (int i = 0; i < 3; i++)
                    o[i] = 0.5f * n[i] / l + 0.5f;
                o[3] = bump_height(u, v);
                break;
            }
            case GFX_PROC_SKY:
            default:
                sky(face, u, v, o);
                break;
            }
        }
}
