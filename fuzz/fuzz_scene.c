/*
 * Scene parser (gfx_scene_load, `ushader render`), then a render at 8x8.
 * The scene is taken to live in bench/scenes/ (run from the repository
 * root), so file references reach the real programs, meshes and PNGs
 * there.  Inputs naming absolute paths or ".." are skipped: they would
 * read devices and files outside the repository (/dev/stdin blocks), which
 * tests nothing about the parser.
 */
#include "fuzz/fuzz.h"
#include "gfx/gfx.h"

static int escapes(const uint8_t *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '.' && i + 1 < n && t[i + 1] == '.')
            return 1;
        if (t[i] == '/' && (i == 0 || t[i - 1] <= ' '))
            return 1;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (escapes(data, size)) {
        free(text);
        return 0;
    }
    struct gfx_scene *s;
    struct us_diag d;
    if (!gfx_scene_load(&s, "bench/scenes/fuzz.scn", text, size, &d)) {
        fuzz_check_diag(&d);
        free(text);
        return 0;
    }
    free(text);
    unsigned w, h;
    gfx_scene_size(s, &w, &h);
    if (w < 1 || h < 1 || w > GFX_MAX_VIEWPORT || h > GFX_MAX_VIEWPORT)
        fuzz_fail("scene size outside 1..GFX_MAX_VIEWPORT", NULL);
    struct gfx_framebuffer fb;
    struct gfx_stats st = { 0 };
    if (gfx_scene_render(s, 8, 8, &us_math_exact, &gfx_backend_functional,
                         &fb, &st, &d))
        gfx_fb_free(&fb);
    else
        fuzz_check_diag(&d);
    gfx_scene_free(s);
    return 0;
}
