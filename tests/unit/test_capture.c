/* Input capture (gfx/capture.h): recording the threads a scene shades
 * with one program leaves the image unchanged, keeps whole quads, honours
 * the cap, and gives the program's parameters and texture units. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/capture.h"

/* A small scene: a sphere shaded by a fragment program reading an
 * interpolated texcoord, one textured and one untextured draw. */
static const char scene_text[] =
    "size 32 32\n"
    "light 0 position 1 2 3 1\n"
    "texture n 2d proc noise 16 4 filter bilinear\n"
    "program v vp.vp\n"
    "program f fp.fp\n"
    "program g other.fp\n"
    "mesh ball sphere 1 12 8\n"
    "bind 0 n\n"
    "vp v\nfp f\ndraw ball\nfp g\ndraw ball\n";

static const char vp_text[] =
    "!!ARBvp1.0\n"
    "PARAM mvp[4] = { state.matrix.mvp };\n"
    "DP4 result.position.x, mvp[0], vertex.position;\n"
    "DP4 result.position.y, mvp[1], vertex.position;\n"
    "DP4 result.position.z, mvp[2], vertex.position;\n"
    "DP4 result.position.w, mvp[3], vertex.position;\n"
    "MOV result.texcoord[0], vertex.normal;\nEND\n";

static const char fp_text[] =
    "!!ARBfp1.0\nPARAM k = state.light[0].position;\nTEMP t;\n"
    "TEX t, fragment.texcoord[0], texture[0], 2D;\n"
    "MAD result.color, t, k, fragment.texcoord[0];\nEND\n";

static const char other_text[] =
    "!!ARBfp1.0\nMOV result.color, fragment.texcoord[0];\nEND\n";

static char dir[64];

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/us_capture_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_file("vp.vp", vp_text);
    write_file("fp.fp", fp_text);
    write_file("other.fp", other_text);
}

static void teardown(void)
{
    static const char *const names[] = { "vp.vp", "fp.fp", "other.fp" };
    char path[128];
    for (unsigned i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
    remove(dir);
}

static uint64_t render(const struct gfx_shader_backend *be)
{
    char path[128];
    snprintf(path, sizeof path, "%s/s.scn", dir);
    struct gfx_scene *s;
    struct us_diag d;
    ck_assert_msg(gfx_scene_load(&s, path, scene_text, strlen(scene_text),
                                 &d), "%s", d.msg);
    struct gfx_framebuffer fb = { 0 };
    struct gfx_stats st;
    ck_assert_msg(gfx_scene_render(s, 32, 32, &us_math_exact, be, &fb, &st,
                                   &d), "%s", d.msg);
    uint8_t *px = gfx_fb_rgba8(&fb, 1, NULL);
    ck_assert_ptr_nonnull(px);
    uint64_t h = gfx_hash_rgba8(px, 32 * 32 * 4);
    free(px);
    gfx_scene_free(s);
    return h;
}

static void assemble(const char *text, struct us_program *p)
{
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, p, &d),
                  "%s", d.msg);
}

START_TEST(test_capture_fragments)
{
    struct us_program fp;
    assemble(fp_text, &fp);
    struct gfx_capture c;
    gfx_capture_init(&c, &gfx_backend_functional, &fp, 1 << 14);
    ck_assert_uint_eq(render(&c.be), render(&gfx_backend_functional));
    ck_assert(!c.oom);
    ck_assert_uint_gt(c.n, 0);
    ck_assert_uint_eq(c.n % 4, 0);             /* whole quads       */
    ck_assert_uint_eq(c.seen, c.n);            /* under the cap     */
    ck_assert_ptr_nonnull(c.params);
    ck_assert_ptr_nonnull(c.sampler.unit[0]);  /* the bound texture */
    /* light 0's eye-space position is in the program's one parameter */
    bool nonzero = false;
    for (unsigned i = 0; i < 4; i++)
        nonzero |= c.params[0][i] != 0;
    ck_assert(nonzero);
    /* interpolated normals: not all equal */
    bool varied = false;
    for (unsigned i = 1; i < c.n; i++)
        varied |= memcmp(c.inputs[i][US_FIN_TEXCOORD0],
                         c.inputs[0][US_FIN_TEXCOORD0],
                         sizeof c.inputs[0][0]) != 0;
    ck_assert(varied);
    uint64_t seen = c.seen;
    gfx_capture_free(&c);

    /* The cap keeps whole quads and still counts what was shaded. */
    gfx_capture_init(&c, &gfx_backend_functional, &fp, 10);
    render(&c.be);
    ck_assert_uint_eq(c.n, 8);
    ck_assert_uint_eq(c.seen, seen);
    gfx_capture_free(&c);
    us_program_free(&fp);
}
END_TEST

START_TEST(test_capture_vertices)
{
    struct us_program vp;
    assemble(vp_text, &vp);
    struct gfx_capture c;
    gfx_capture_init(&c, &gfx_backend_functional, &vp, 1 << 14);
    render(&c.be);
    /* both draws use the vertex program: every sphere vertex twice */
    ck_assert_uint_gt(c.n, 0);
    ck_assert_uint_eq(c.n % 2, 0);
    ck_assert_uint_eq(c.seen, c.n);
    ck_assert_float_eq(c.inputs[0][US_VIN_POSITION][3], 1.0f);
    gfx_capture_free(&c);
    us_program_free(&vp);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("capture");
    TCase *tc = tcase_create("capture");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_capture_fragments);
    tcase_add_test(tc, test_capture_vertices);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
