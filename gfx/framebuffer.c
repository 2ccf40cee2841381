/* The colour (RGBA float) and depth (float) buffers, their 8-bit export
 * and the golden-image hash. */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"
#include "gfx/unorm8.h"
#include "shader/host_thread.h"
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

/* One block of `first` bytes a pixel, then `second` from the next cache
 * line, for a w x h framebuffer. */
static char *fb_block(struct gfx_framebuffer *fb, unsigned w, unsigned h,
                      size_t first, size_t second, size_t *at,
                      struct us_diag *diag)
{
    memset(fb, 0, sizeof *fb);
    if (w == 0 || h == 0 || w > GFX_MAX_VIEWPORT || h > GFX_MAX_VIEWPORT) {
        gfx_fail(diag, 0, 0, "image size %ux%u outside 1..%d", w, h,
                 GFX_MAX_VIEWPORT);
        return NULL;
    }
    size_t n = (size_t)w * h;
    *at = (n * first + 63) / 64 * 64;
    char *block = gfx_huge_alloc(*at + n * second);
    if (!block) {
        gfx_fail(diag, 0, 0, "out of memory for a %ux%u image", w, h);
        return NULL;
    }
    fb->block = block;
    fb->w = w;
    fb->h = h;
    return block;
}

bool gfx_fb_alloc(struct gfx_framebuffer *fb, unsigned w, unsigned h,
                  struct us_diag *diag)
{
    /* the depth, then the colour (gfx_fb_rgba8 writes the image over the
     * depth and keeps the block) */
    size_t at;
    char *block = fb_block(fb, w, h, sizeof *fb->depth,
                           4 * sizeof *fb->color, &at, diag);
    if (!block)
        return false;
    fb->depth = (float *)block;
    fb->color = (float *)(block + at);
    return true;
}

bool gfx_fb_alloc_rgba8(struct gfx_framebuffer *fb, unsigned w, unsigned h,
                        bool depth, struct us_diag *diag)
{
    /* the image, then the depth (gfx_fb_rgba8 cuts the block to the
     * image): a quarter of the float colour's memory, and fresh memory
     * costs more than the conversion on a VM (docs/perf/memory.md) */
    size_t at;
    char *block = fb_block(fb, w, h, 4, depth ? sizeof *fb->depth : 0, &at,
                           diag);
    if (!block)
        return false;
    fb->rgba8 = (uint8_t *)block;
    fb->depth = depth ? (float *)(block + at) : NULL;
    return true;
}

size_t gfx_fb_bytes(unsigned w, unsigned h)
{
    /* RGBA float, depth, RGBA8, and as much again for its PNG at worst */
    return (size_t)w * h * (4 * sizeof(float) + sizeof(float) + 4 + 4);
}

void gfx_fb_free(struct gfx_framebuffer *fb)
{
    free(fb->block);
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
    size_t i0 = (size_t)fb->w * y0, n = (size_t)fb->w * y1;
    if (fb->depth)
        for (size_t i = i0; i < n; i++)
            fb->depth[i] = depth;
    if (fb->color) {
        for (size_t i = i0; i < n; i++)
            memcpy(fb->color + 4 * i, rgba, 4 * sizeof *rgba);
        return;
    }
    uint8_t px[4];
    for (int k = 0; k < 4; k++)
        px[k] = gfx_unorm8(rgba[k]);
    /* window rows [y0, y1) are image rows [h - y1, h - y0) */
    uint8_t *dst = fb->rgba8 + (size_t)(fb->h - y1) * fb->w * 4;
    for (size_t i = 0; i < n - i0; i++)
        memcpy(dst + 4 * i, px, sizeof px);
}

/* Image rows [r0, r1), top first: image row r is window row h - 1 - r. */
static void rgba8_rows(const struct gfx_framebuffer *fb, uint8_t *out,
                       unsigned r0, unsigned r1)
{
    size_t n = (size_t)fb->w * 4;
    for (unsigned r = r0; r < r1; r++) {
        const float *src = fb->color + (size_t)(fb->h - 1 - r) * n;
        uint8_t *dst = out + (size_t)r * n;
        for (size_t i = 0; i < n; i++)
            dst[i] = gfx_unorm8(src[i]);
    }
}

/* The export goes over the depth buffer, memory the render touched
 * already: fresh pages cost more than the conversion on a VM (16 MB:
 * 18 ms, docs/perf/memory.md).  On several threads, the image goes in
 * blocks of rows that every thread claims in order and converts; the
 * caller's thread hashes the blocks in order as they are done and, while
 * the next is not, converts one itself.  FNV-1a takes the bytes one
 * after the other (a multiply's latency a byte: 16 MB is about 18 ms),
 * so the conversion runs beside it. */
enum { EXPORT_BLOCK = 64 << 10, EXPORT_HELPERS = 3 };

struct export {
    const struct gfx_framebuffer *fb;
    uint8_t *out;
    unsigned rows, nblocks;      /* rows a block; blocks                */
    atomic_uint next;            /* the first block not claimed         */
    atomic_bool *done;           /* block b converted                   */
};

/* Claim and convert a block: false when none is left. */
static bool export_block(struct export *e)
{
    unsigned b = atomic_fetch_add_explicit(&e->next, 1, memory_order_relaxed);
    if (b >= e->nblocks)
        return false;
    unsigned r1 = (b + 1) * e->rows < e->fb->h ? (b + 1) * e->rows : e->fb->h;
    rgba8_rows(e->fb, e->out, b * e->rows, r1);
    atomic_store_explicit(&e->done[b], true, memory_order_release);
    return true;
}

static void *export_helper(void *arg)
{
    while (export_block(arg))
        ;
    return NULL;
}

uint8_t *gfx_fb_rgba8(struct gfx_framebuffer *fb, unsigned jobs,
                      uint64_t *hash)
{
    size_t row = (size_t)fb->w * 4, bytes = row * fb->h;
    if (fb->rgba8) {                     /* the image already */
        if (hash)
            *hash = us_fnv1a64_more(US_FNV1A64_SEED, fb->rgba8, bytes);
        uint8_t *img = realloc(fb->rgba8, bytes);
        if (!img)
            img = fb->rgba8;
        memset(fb, 0, sizeof *fb);
        return img;
    }
    struct export e = { .fb = fb, .out = fb->block };
    e.rows = row < EXPORT_BLOCK ? (unsigned)(EXPORT_BLOCK / row) : 1;
    e.nblocks = (fb->h + e.rows - 1) / e.rows;
    atomic_init(&e.next, 0);
    e.done = jobs > 1 && e.nblocks > 1 ? calloc(e.nblocks, sizeof *e.done)
                                       : NULL;
    uint64_t h = US_FNV1A64_SEED;
    if (!e.done) {                       /* one thread */
        rgba8_rows(fb, e.out, 0, fb->h);
        if (hash)
            h = us_fnv1a64_more(h, e.out, bytes);
    } else {
        for (unsigned b = 0; b < e.nblocks; b++)
            atomic_init(&e.done[b], false);
        pthread_t helper[EXPORT_HELPERS];
        unsigned nh = 0;
        while (nh + 1 < jobs && nh < EXPORT_HELPERS &&
               !us_thread_create(&helper[nh], export_helper, &e, nh + 1))
            nh++;
        for (unsigned b = 0; b < e.nblocks; b++) {
            while (!atomic_load_explicit(&e.done[b], memory_order_acquire))
                if (!export_block(&e))
                    sched_yield();    /* a helper has it */
            size_t at = (size_t)b * e.rows * row, len = (size_t)e.rows * row;
            if (hash)
                h = us_fnv1a64_more(h, e.out + at,
                                    len < bytes - at ? len : bytes - at);
        }
        for (unsigned i = 0; i < nh; i++)
            pthread_join(helper[i], NULL);
        free(e.done);
    }
    if (hash)
        *hash = h;
    /* the block, cut to the image (it starts with it) */
    uint8_t *img = realloc(e.out, bytes);
    if (!img)
        img = e.out;
    memset(fb, 0, sizeof *fb);
    return img;
}

/* FNV-1a 64 (suite/provenance.h), the hash every output uses. */
uint64_t gfx_hash_rgba8(const uint8_t *rgba, size_t n)
{
    return us_fnv1a64(rgba, n);
}
