/* ushader imgdiff A.png B.png [--json]: how far apart two images are.
 *
 * Both images are compared as 8-bit RGBA (16-bit PNGs are rounded to 8
 * bits first, as the renderer's own output is 8-bit).  PSNR is taken over
 * the R, G and B channels only: rendered images have alpha 1 everywhere,
 * and counting a constant channel would dilute the mean squared error by
 * a quarter.  The maximum difference and the differing-pixel count look
 * at all four channels, so an alpha-only change is still visible. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gfx/gfx.h"

static const char usage[] =
    "usage: ushader imgdiff A.png B.png [--json]\n"
    "  Compare two PNG images of the same size.  Prints the PSNR in dB\n"
    "  over the 8-bit R, G, B channels (\"inf\" when they are equal), the\n"
    "  largest absolute 8-bit difference of any R, G, B or A channel and\n"
    "  the number of pixels where any channel differs.  Exit 0 when both\n"
    "  images load (whether or not they differ), 1 on a file error, 2 on\n"
    "  a usage error.\n"
    "  --json  print {\"psnr_db\": ..., \"max_diff\": ..., ...} instead\n"
    "          (docs/METRICS.md; equal RGB: \"psnr_db\": null,\n"
    "          \"psnr_infinite\": true)\n";

struct img_diff {
    unsigned w, h;
    double psnr;              /* dB over RGB; INFINITY when equal        */
    unsigned max_diff;        /* 0..255 over RGBA                        */
    uint64_t diff_pixels;     /* pixels with any RGBA channel different  */
};

/* Load a PNG as 8-bit RGBA; reports its own errors as FILE: error. */
static uint8_t *load_rgba8(const char *path, unsigned *w, unsigned *h)
{
    char *data;
    size_t len;
    if (!cli_read_file(path, &data, &len))
        return NULL;
    struct us_diag diag = { 0 };
    float *img;
    bool ok = gfx_png_decode(data, len, GFX_MAX_VIEWPORT, &img, w, h, &diag);
    free(data);
    if (!ok) {
        cli_error(path, 0, 0, "%s", diag.msg);
        return NULL;
    }
    size_t n = (size_t)*w * *h * 4;
    uint8_t *out = malloc(n ? n : 1);
    if (!out) {
        cli_error(path, 0, 0, "out of memory");
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = (uint8_t)lrintf(img[i] * 255.0f);
    }
    free(img);
    return out;
}

/* PSNR = 10 log10(255^2 / MSE), MSE averaged over w * h * 3 channels. */
static void compare(const uint8_t *a, const uint8_t *b, struct img_diff *d)
{
    uint64_t sq = 0;
    d->max_diff = 0;
    d->diff_pixels = 0;
    size_t npix = (size_t)d->w * d->h;
    for (size_t p = 0; p < npix; p++) {
        bool differs = false;
        for (unsigned c = 0; c < 4; c++) {
            int e = (int)a[4 * p + c] - (int)b[4 * p + c];
            unsigned ae = (unsigned)abs(e);
            if (ae > d->max_diff)
                d->max_diff = ae;
            differs |= ae != 0;
            if (c < 3)
                sq += (uint64_t)(e * e);
        }
        d->diff_pixels += differs;
    }
    if (sq == 0) {
        d->psnr = INFINITY;
    } else {
        double mse = (double)sq / ((double)npix * 3.0);
        d->psnr = 10.0 * log10(255.0 * 255.0 / mse);
    }
}

int cmd_imgdiff(int argc, char **argv)
{
    const char *path[2] = { NULL, NULL };
    unsigned npath = 0;
    bool json = false;
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--json", false, false, NULL },
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("imgdiff", argc, argv, 1, options))
        return 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (a[0] == '-' && a[1]) {
            cli_error(NULL, 0, 0, "imgdiff: unknown option '%s'", a);
            fputs(usage, stderr);
            return 2;
        } else if (npath == 2) {
            cli_error(NULL, 0, 0, "imgdiff: two images, not more");
            return 2;
        } else {
            path[npath++] = a;
        }
    }
    if (npath != 2) {
        fputs(usage, stderr);
        return 2;
    }

    unsigned w[2], h[2];
    uint8_t *img[2] = { NULL, NULL };
    int rc = 0;
    for (unsigned k = 0; k < 2 && !rc; k++)
        if (!(img[k] = load_rgba8(path[k], &w[k], &h[k])))
            rc = 1;
    if (!rc && (w[0] != w[1] || h[0] != h[1])) {
        cli_error(path[1], 0, 0, "image is %ux%u but %s is %ux%u", w[1], h[1],
                  path[0], w[0], h[0]);
        rc = 1;
    }
    if (!rc) {
        struct img_diff d = { .w = w[0], .h = h[0] };
        compare(img[0], img[1], &d);
        char psnr[32];
        if (isinf(d.psnr))
            snprintf(psnr, sizeof psnr, "inf");
        else
            snprintf(psnr, sizeof psnr, "%.2f", d.psnr);
        if (json) {
            /* equal RGB: PSNR is infinite, null in JSON with the flag
             * "psnr_infinite" (docs/METRICS.md) */
            printf("{\n");
            cli_json_head(argc, argv, path, 2, NULL, NULL);
            printf("\"width\": %u, \"height\": %u, \"psnr_db\": %s, "
                   "\"psnr_infinite\": %s, \"psnr_channels\": \"rgb\", "
                   "\"max_diff\": %u, \"diff_pixels\": %llu}\n",
                   d.w, d.h, isinf(d.psnr) ? "null" : psnr,
                   isinf(d.psnr) ? "true" : "false", d.max_diff,
                   (unsigned long long)d.diff_pixels);
        }
        else
            printf("%ux%u  psnr(rgb) %s dB  max_diff %u  diff_pixels %llu"
                   " of %llu\n", d.w, d.h, psnr, d.max_diff,
                   (unsigned long long)d.diff_pixels,
                   (unsigned long long)d.w * d.h);
    }
    free(img[0]);
    free(img[1]);
    return rc;
}
