/*
 * PNG in and out through libpng.  libpng reports errors by longjmp: every
 * local that lives across setjmp and changes afterwards is volatile, and
 * every failure (truncated data, bad CRC, not a PNG, too large) comes back
 * as a false return with a message; nothing here can crash on bad input.
 */
#include <inttypes.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

struct png_io {
    const uint8_t *data;
    size_t len, pos;
    uint8_t *out;          /* encoder: growing buffer */
    size_t cap;
    bool oom;
    char msg[200];
};

static void on_error(png_structp png, png_const_charp msg)
{
    struct png_io *io = png_get_error_ptr(png);
    snprintf(io->msg, sizeof io->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static void read_data(png_structp png, png_bytep out, size_t n)
{
    struct png_io *io = png_get_io_ptr(png);
    if (n > io->len - io->pos)
        png_error(png, "truncated file");
    memcpy(out, io->data + io->pos, n);
    io->pos += n;
}

/* The image size from IHDR, the first chunk (PNG spec 11.2.2): width and
 * height at bytes 16..23, big-endian.  False when the data has none. */
static bool ihdr_size(const void *data, size_t len, uint32_t *w, uint32_t *h)
{
    const uint8_t *b = data;
    if (len < 24 || png_sig_cmp(data, 0, 8) || memcmp(b + 12, "IHDR", 4))
        return false;
    *w = (uint32_t)b[16] << 24 | (uint32_t)b[17] << 16 |
         (uint32_t)b[18] << 8 | b[19];
    *h = (uint32_t)b[20] << 24 | (uint32_t)b[21] << 16 |
         (uint32_t)b[22] << 8 | b[23];
    return true;
}

/* Bytes gfx_png_decode allocates for a w x h image besides the result:
 * 16-bit pixels at most, and the row pointers. */
static size_t decode_bytes(size_t w, size_t h)
{
    return w * h * 4 * 2 + h * sizeof(png_bytep);
}

bool gfx_png_decode(const void *data, size_t len, unsigned max_side,
                    float **rgba, unsigned *pw, unsigned *ph,
                    struct us_diag *diag)
{
    *rgba = NULL;
    if (len < 8 || png_sig_cmp(data, 0, 8))
        return gfx_fail(diag, 0, 0, "not a PNG file");
    /* The size limit, with a clear message, before libpng sees the
     * image. */
    uint32_t iw, ih;
    if (ihdr_size(data, len, &iw, &ih)) {
        if (iw > max_side || ih > max_side)
            return gfx_fail(diag, 0, 0, "image %" PRIu32 "x%" PRIu32
                            " is larger than the limit of %u per side",
                            iw, ih, max_side);
    }
    struct png_io io = { .data = data, .len = len };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &io,
                                             on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return gfx_fail(diag, 0, 0, "out of memory");
    }
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return gfx_fail(diag, 0, 0, "bad PNG: %s", io.msg);
    }
    png_set_read_fn(png, &io, read_data);
    png_set_user_limits(png, max_side, max_side);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    if (w > max_side || h > max_side)
        png_error(png, "image larger than the size limit");
    int type = png_get_color_type(png, info);
    png_set_expand(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) &&
        !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int depth = png_get_bit_depth(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes != (size_t)w * 4 * (depth / 8))
        png_error(png, "unexpected pixel layout");
    pixels = malloc(rowbytes * h);
    rows = malloc(h * sizeof *rows);
    if (!pixels || !rows)
        png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++)
        rows[y] = pixels + y * rowbytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    float *img = malloc((size_t)w * h * 4 * sizeof *img);
    if (!img)
        png_error(png, "out of memory");
    for (size_t i = 0; i < (size_t)w * h * 4; i++)
        img[i] = depth == 16
                     ? (float)(pixels[2 * i] << 8 | pixels[2 * i + 1]) / 65535.0f
                     : (float)pixels[i] / 255.0f;
    free(pixels);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    *rgba = img;
    *pw = w;
    *ph = h;
    return true;
}

bool gfx_png_load(const char *path, unsigned max_side,
                  struct gfx_budget *budget, float **rgba, unsigned *w,
                  unsigned *h, struct us_diag *diag)
{
    char *buf;
    size_t n;
    *rgba = NULL;
    if (!gfx_read_file_charged(path, GFX_MAX_PNG_BYTES, budget, &buf, &n,
                               diag))
        return false;
    /* the decoder's arrays and the image, charged before they exist */
    uint32_t iw = 0, ih = 0;
    if (ihdr_size(buf, n, &iw, &ih) && (iw > max_side || ih > max_side))
        iw = ih = 0;  /* refused by the decoder before it allocates */
    size_t work = decode_bytes(iw, ih), image = (size_t)iw * ih * 16;
    char what[64];
    snprintf(what, sizeof what, "a %" PRIu32 "x%" PRIu32 " image", iw, ih);
    bool taken = gfx_budget_take(budget, work + image, 1, what, diag);
    bool ok = taken && gfx_png_decode(buf, n, max_side, rgba, w, h, diag);
    if (taken)
        gfx_budget_give(budget, ok ? work : work + image);
    if (!ok)
        gfx_fail_path(diag, path, "%s", diag->msg);
    free(buf);
    gfx_budget_give(budget, n + 1);
    return ok;
}

static void write_data(png_structp png, png_bytep p, size_t n)
{
    struct png_io *io = png_get_io_ptr(png);
    if (n > io->cap - io->len) {
        size_t cap = io->cap ? io->cap : 65536;
        while (cap - io->len < n)
            cap *= 2;
        uint8_t *q = realloc(io->out, cap);
        if (!q) {
            io->oom = true;
            png_error(png, "out of memory");
        }
        io->out = q;
        io->cap = cap;
    }
    memcpy(io->out + io->len, p, n);
    io->len += n;
}

static void flush_data(png_structp png)
{
    (void)png;
}

bool gfx_png_encode(const uint8_t *rgba, unsigned w, unsigned h, void **out,
                    size_t *len, struct us_diag *diag)
{
    struct png_io io = { 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &io,
                                              on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return gfx_fail(diag, 0, 0, "out of memory");
    }
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(io.out);
        png_destroy_write_struct(&png, &info);
        return gfx_fail(diag, 0, 0, "PNG encoder: %s", io.msg);
    }
    png_set_write_fn(png, &io, write_data, flush_data);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    rows = malloc(h * sizeof *rows);
    if (!rows)
        png_error(png, "out of memory");
    for (unsigned y = 0; y < h; y++)
        rows[y] = (png_bytep)(rgba + (size_t)y * w * 4);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    free(rows);
    png_destroy_write_struct(&png, &info);
    *out = io.out;
    *len = io.len;
    return true;
}
