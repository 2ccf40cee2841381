/* Unit tests of the piglit shader_test runner (piglit/shtest.h): parsing,
 * errors with line and column, skip reasons, piglit's probe tolerances,
 * small in-memory runs, and a few hundred mutated files that must give an
 * error or a result, never a crash (run it under SANITIZE=address,undefined).
 * US_SHTEST_MUTANTS sets the number of mutants (default 400). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "piglit/shtest.h"

static const char basic[] =
    "# comment before any section\n"
    "[require]\n"
    "GL >= 1.3\n"
    "ARB_vertex_program\n"
    "SIZE 8 4\n"
    "\n"
    "[vertex program]\n"
    "!!ARBvp1.0\n"
    "MOV result.position, vertex.position;\n"
    "MOV result.color, program.env[3];\n"
    "END\n"
    "\n"
    "[test]\n"
    "clear color 0.5 0.25 0 1\n"
    "  clear\n"
    "parameter env_vp 3 (0.0, 1.0, 0.0, 1.0)\n"
    "draw rect -1 -1 1 2\n"
    "# a comment\n"
    "probe rgba 0 0 0 1 0 1\n"
    "relative probe rgb (0.9, 0.5) (0.5, 0.25, 0)\n"
    "probe all rgb 0.5 0.25 0;\n";

START_TEST(parse_basic)
{
    struct shtest t;
    struct us_diag d = { 0 };
    ck_assert_msg(shtest_parse(&t, basic, strlen(basic), &d), "%u:%u: %s",
                  d.line, d.col, d.msg);
    ck_assert_uint_eq(t.width, 8);
    ck_assert_uint_eq(t.height, 4);
    ck_assert_ptr_nonnull(t.vp.text);
    ck_assert_ptr_null(t.fp.text);
    ck_assert_uint_eq(t.vp.line, 8);
    ck_assert(!strncmp(t.vp.text, "!!ARBvp1.0\n", 11));
    ck_assert(t.vp.len > 0 && t.vp.text[t.vp.len - 1] == '\n');
    ck_assert_str_eq(t.skip, "");
    ck_assert_uint_eq(t.ncmds, 7);
    ck_assert_int_eq(t.cmds[0].op, SH_CLEAR_COLOR);
    ck_assert_float_eq(t.cmds[0].f[1], 0.25f);
    ck_assert_int_eq(t.cmds[1].op, SH_CLEAR);
    ck_assert_uint_eq(t.cmds[1].line, 15);
    ck_assert_uint_eq(t.cmds[1].col, 3);
    ck_assert_int_eq(t.cmds[2].op, SH_PARAMETER);
    ck_assert_int_eq(t.cmds[2].sub, SH_ENV_VP);
    ck_assert_int_eq(t.cmds[2].i[0], 3);
    ck_assert_int_eq(t.cmds[4].op, SH_PROBE);
    ck_assert_int_eq(t.cmds[4].n, 4);
    ck_assert_int_eq(t.cmds[5].op, SH_PROBE_REL);
    ck_assert_int_eq(t.cmds[5].n, 3);
    ck_assert_float_eq(t.cmds[5].f[4], 0.9f);
    ck_assert_int_eq(t.cmds[6].op, SH_PROBE_ALL);
    shtest_free(&t);
}
END_TEST

/* Compute and buffer commands, and integers as shader_runner passes them
 * to GL: their 32 bits. */
static const char compute_text[] =
    "[require]\n"
    "GL_ARB_compute_shader\n"
    "[compute shader]\n"
    "#version 430\n"
    "layout(local_size_x = 2) in;\n"
    "void main() {}\n"
    "[test]\n"
    "uniform uint u -1\n"
    "uniform int i 0xffffffff\n"
    "uniform ivec2 v 010 -0x10\n"
    "ssbo 3 64\n"
    "ssbo 3 subdata int 8 -2\n"
    "ssbo 3 subdata double 16 0.5\n"
    "atomic counters 4\n"
    "atomic counter buffer 2 3\n"
    "atomic counter 2 1 7\n"
    "compute 4 2 1\n"
    "probe ssbo uint 3 8 != 0xfffffffe\n"
    "probe atomic counter 3 <= 9\n"
    "probe atomic counter buffer 2 4 >= 7\n"
    "memory barrier GL_SHADER_STORAGE_BARRIER_BIT\n"
    "probe ssbo uint64 3 16 == 4602678819172646912\n";

START_TEST(parse_compute)
{
    struct shtest t;
    struct us_diag d = { 0 };
    ck_assert_msg(shtest_parse(&t, compute_text, strlen(compute_text), &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    ck_assert_str_eq(t.skip, "");
    ck_assert(t.glsl);
    ck_assert_uint_eq(t.nsh[US_STAGE_COMPUTE], 1);
    ck_assert_uint_eq(t.sh[US_STAGE_COMPUTE][0].line, 4);
    ck_assert_uint_eq(t.ncmds, 15);
    const struct shtest_cmd *c = t.cmds;
    ck_assert_int_eq(c[0].sub, SH_U_UINT);
    ck_assert_uint_eq(c[0].u[0], 0xffffffffu);
    ck_assert_int_eq(c[1].sub, SH_U_INT);
    ck_assert_uint_eq(c[1].u[0], 0xffffffffu);
    ck_assert_uint_eq(c[2].u[0], 8);             /* octal */
    ck_assert_uint_eq(c[2].u[1], 0xfffffff0u);
    ck_assert_int_eq(c[3].op, SH_SSBO);
    ck_assert_int_eq(c[3].i[0], 3);
    ck_assert_int_eq(c[3].i[1], 64);
    ck_assert_int_eq(c[4].op, SH_SSBO_SUBDATA);
    ck_assert_int_eq(c[4].sub, SH_D_INT);
    ck_assert_int_eq(c[4].i[1], 8);
    ck_assert_uint_eq(c[4].u[0], 0xfffffffeu);
    ck_assert_int_eq(c[5].sub, SH_D_DOUBLE);
    ck_assert_uint_eq(c[5].u[0], 0);             /* 0.5: 0x3fe0000000000000 */
    ck_assert_uint_eq(c[5].u[1], 0x3fe00000u);
    ck_assert_int_eq(c[6].op, SH_ATOMIC_BUFFER);
    ck_assert_int_eq(c[6].i[0], 0);
    ck_assert_int_eq(c[6].i[1], 4);
    ck_assert_int_eq(c[7].op, SH_ATOMIC_BUFFER);
    ck_assert_int_eq(c[7].i[0], 2);
    ck_assert_int_eq(c[7].i[1], 3);
    ck_assert_int_eq(c[8].op, SH_ATOMIC_SET);
    ck_assert_int_eq(c[8].i[1], 1);
    ck_assert_uint_eq(c[8].u[0], 7);
    ck_assert_int_eq(c[9].op, SH_COMPUTE);
    ck_assert_int_eq(c[9].i[0], 4);
    ck_assert_int_eq(c[9].i[1], 2);
    ck_assert_int_eq(c[9].i[2], 1);
    ck_assert_int_eq(c[10].op, SH_PROBE_SSBO);
    ck_assert_int_eq(c[10].i[2], SH_CMP_GT);     /* shader_runner's != */
    ck_assert_uint_eq(c[10].u[0], 0xfffffffeu);
    ck_assert_int_eq(c[11].op, SH_PROBE_ATOMIC);
    ck_assert_int_eq(c[11].i[0], 0);
    ck_assert_int_eq(c[11].i[1], 12);            /* counter 3: byte 12 */
    ck_assert_int_eq(c[11].i[2], SH_CMP_LE);
    ck_assert_int_eq(c[12].i[0], 2);
    ck_assert_int_eq(c[12].i[1], 4);             /* a byte offset */
    ck_assert_int_eq(c[12].i[2], SH_CMP_GE);
    ck_assert_int_eq(c[13].op, SH_NOP);
    ck_assert_int_eq(c[14].sub, SH_D_UINT64);
    ck_assert_uint_eq(c[14].u[1], 0x3fe00000u);
    shtest_free(&t);
}
END_TEST

/* A compute launch and its buffers through the runner (the model's
 * assembly: no GLSL tools needed): atomics from every work-item, a probe
 * that fails with the value seen, one on a missing buffer. */
static const char compute_asm[] =
    "[require]\n"
    "[compute program]\n"
    "!!USHADERcp1.0\n"
    "GROUP_SIZE 3 2;\n"
    "TEMP a;\n"
    "MOV.U a.x, 1;\n"
    "ATOM.ADD.U32 a.y, 0, a.x, buffer[1];\n"
    "ATOM.MAX.U32 a.y, 4, invocation.globalid.y, buffer[1];\n"
    "END\n"
    "[test]\n"
    "ssbo 1 8\n"
    "compute 2 3 4\n"
    "probe ssbo uint 1 0 == 144\n"
    "probe ssbo uint 1 4 == 5\n"
    "probe ssbo int 1 0 < 144\n"
    "probe ssbo uint 0 0 == 0\n";

START_TEST(run_compute)
{
    struct shtest t;
    struct us_diag d = { 0 };
    ck_assert(shtest_parse(&t, compute_asm, strlen(compute_asm), &d));
    struct shtest_env env = { .math = &us_math_exact,
                              .backend = &gfx_backend_functional };
    struct shtest_result r;
    ck_assert_msg(shtest_run(&t, &env, &r, &d), "%s", d.msg);
    ck_assert_int_eq(r.status, SHTEST_FAIL);
    ck_assert_uint_eq(r.probes, 4);
    ck_assert_uint_eq(r.failed, 2);
    ck_assert_uint_eq(r.line, 15);
    ck_assert_msg(strstr(r.msg, "expected < 144, observed 144"), "%s", r.msg);
    shtest_free(&t);
}
END_TEST

static const struct {
    const char *text;
    unsigned line, col;
    const char *msg;
} bad[] = {
    { "[require]\n[vertex progam]\n", 2, 2, "unknown section" },
    { "[require]\n[test\n", 2, 6, "closing ']'" },
    { "[require]\n[test] x\n", 2, 8, "text after the section name" },
    { "[require]\nGL >= 1\n", 2, 7, "MAJOR.MINOR" },
    { "[require]\nGL => 1.3\n", 2, 4, "comparison" },
    { "[require]\nSIZE 10\n", 2, 8, "window height" },
    { "[require]\nGL_ARB_vertex_program x\n", 2, 23, "unexpected text" },
    { "[require]\n[vertex program]\nEND\n[vertex program]\n", 4, 1, "second" },
    { "[require]\n[test]\nclear color 1 1 1\n", 3, 18, "colour component, found end of line" },
    { "[require]\n[test]\ndraw rect 0 0 1 1e\n", 3, 18, "unexpected 'e' in rectangle coordinate" },
    { "[require]\n[test]\nparameter env_fp 256 (1, 1, 1, 1)\n", 3, 18, "outside 0..255" },
    { "[require]\n[test]\nparameter foo_vp 1 (1, 1, 1, 1)\n", 3, 11, "parameter kind" },
    { "[require]\n[test]\nprobe rgba -1 0 0 0 0 0\n", 3, 12, "outside the window" },
    { "[require]\n[test]\nprobe rgbx 1 1 0 0 0\n", 3, 7, "expected 'rgba'" },
    { "[require]\n[test]\nrelative probe rgba (0.5 0.5) (0, 0, 0, 0)\n", 3, 26, "expected ','" },
    { "[require]\n[test]\ntexture rgbw 0 (0, 8)\n", 3, 16, "whole numbers" },
    { "[require]\n[test]\ntexture rgbw 0 (8.5, 8)\n", 3, 16, "whole numbers" },
    { "[require]\n[test]\ntexture cube 0\n", 3, 9, "unknown texture kind" },
    { "[require]\n[test]\ntexparameter 4D min nearest\n", 3, 14, "texture target" },
    { "[require]\n[test]\ntexparameter 2D mag nearest_mipmap_nearest\n", 3, 21, "magnification" },
    { "[require]\n[test]\ntexcoord 8 (0, 0, 0, 1)\n", 3, 10, "outside 0..7" },
    { "[require]\n[test]\nenable DEPTH_TEST\n", 3, 8, "GL_ capability" },
    { "[require]\n[test]\nclear\n[fragment program]\n", 4, 1, "unknown command" },
    { "[require]\n[test]\nprobe depth 1 1\n", 3, 16, "depth" },
    { "[require]\n[test]\northo 0 1 0\n", 3, 12, "ortho bound" },
    { "[require]\n[test]\nlink maybe\n", 3, 6, "expected 'success'" },
    { "[require]\n[test]\nclear color 1 1 1 0x\n", 3, 19, "hexadecimal" },
    /* compute and buffer objects */
    { "[require]\n[test]\ncompute 1 1\n", 3, 12, "workgroup count" },
    { "[require]\n[test]\ncompute 1 65536 1\n", 3, 11, "outside 0..65535" },
    { "[require]\n[test]\nssbo 32 16\n", 3, 6, "SSBO binding" },
    { "[require]\n[test]\nssbo 0 -1\n", 3, 8, "buffer size" },
    { "[require]\n[test]\nssbo 0 subdata uint 0 1\n", 3, 16, "subdata type" },
    { "[require]\n[test]\nssbo 0 subdata int 0 x\n", 3, 22, "value" },
    { "[require]\n[test]\nssbo 0 subdata float 0 1 2\n", 3, 26, "unexpected text" },
    { "[require]\n[test]\nprobe ssbo uint 0 0 = 1\n", 3, 21, "comparison" },
    { "[require]\n[test]\nprobe ssbo vec4 0 0 == 1\n", 3, 12, "probe type" },
    { "[require]\n[test]\nprobe atomic counter 0 == \n", 3, 27, "counter value" },
    { "[require]\n[test]\nprobe atomic countr 0 == 1\n", 3, 14, "'counter'" },
    { "[require]\n[test]\natomic counter buffer 8 4\n", 3, 23, "outside 0..7" },
    { "[require]\n[test]\natomic counter 0 0\n", 3, 19, "counter value" },
    { "[require]\n[test]\natomic thing 1\n", 3, 8, "'counters' or 'counter'" },
    { "[require]\n[test]\nmemory 1\n", 3, 8, "'barrier'" },
    { "[require]\n[compute shader]\nvoid main() {}\n[fragment shader]\n"
      "void main() {}\n", 1, 1, "cannot be linked" },
};

START_TEST(parse_errors)
{
    unsigned wrong = 0;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct shtest t;
        struct us_diag d = { 0 };
        bool ok = shtest_parse(&t, bad[i].text, strlen(bad[i].text), &d);
        ck_assert_msg(!ok, "accepted: %s", bad[i].text);
        if (!(d.line == bad[i].line && d.col == bad[i].col &&
              strstr(d.msg, bad[i].msg))) {
            fprintf(stderr, "case %zu: %s: got %u:%u: %s\n", i, bad[i].text,
                    d.line, d.col, d.msg);
            wrong++;
        }
        ck_assert_ptr_null(t.cmds);
    }
    ck_assert_uint_eq(wrong, 0);
}
END_TEST

static const struct {
    const char *text;
    const char *why;
} skips[] = {
    { "[require]\nGLSL >= 4.40\n", "GLSL 4.40" },
    { "[require]\nGL ES >= 2.0\n", "OpenGL ES" },
    { "[require]\nGL >= 4.4\n", "GL 4.4" },
    { "[require]\n[test]\ncompute group size 1 1 1 4 4 1\n",
      "variable_group_size" },
    { "[require]\n[compute shader]\nvoid main() {}\n[test]\n"
      "uniform dvec4 d 1 2 3 4\n", "double precision" },
    { "[require]\n[test]\nimage 0 GL_RGBA8\n", "images" },
    { "[require]\nGL_ARB_gpu_shader5\n", "GL_ARB_gpu_shader5" },
    { "[require]\n!GL_ARB_vertex_program\n", "absent" },
    { "[require]\n[geometry shader]\nvoid main() {}\n", "[geometry shader]" },
    { "[require]\n[test]\nuniform vec4 c 1 0 0 1\n", "'uniform'" },
    { "[require]\n[test]\ndraw arrays GL_TRIANGLES 0 3\n", "draw" },
    { "[require]\n[test]\ntexparameter 2D lod_bias 1\n", "lod_bias" },
    { "[require]\n[test]\nclip plane 6 1 0 0 0\n", "GL_MAX_CLIP_PLANES" },
};

START_TEST(parse_shade_clip)
{
    /* modelled now: the shade model, clip plane enables and planes */
    static const char text[] = "[require]\n[test]\nshade model flat\n"
        "enable GL_CLIP_PLANE7\nclip plane 2 0 1 0 0.5\n"
        "disable GL_CLIP_PLANE7\nshade model smooth\n";
    struct shtest t;
    struct us_diag d = { 0 };
    ck_assert_msg(shtest_parse(&t, text, strlen(text), &d), "%s", d.msg);
    ck_assert_str_eq(t.skip, "");
    ck_assert_uint_eq(t.ncmds, 5);
    ck_assert_int_eq(t.cmds[0].op, SH_ENABLE);
    ck_assert_int_eq(t.cmds[0].sub, SH_CAP_FLAT_SHADE);
    ck_assert_int_eq(t.cmds[0].i[0], 1);
    ck_assert_int_eq(t.cmds[1].sub, SH_CAP_CLIP_PLANE);
    ck_assert_int_eq(t.cmds[1].i[1], 7);
    ck_assert_int_eq(t.cmds[2].op, SH_CLIP_PLANE);
    ck_assert_int_eq(t.cmds[2].i[0], 2);
    ck_assert_float_eq(t.cmds[2].f[3], 0.5f);
    ck_assert_int_eq(t.cmds[3].i[0], 0);
    ck_assert_int_eq(t.cmds[4].i[0], 0);
    shtest_free(&t);
    /* GL_CLIP_PLANE8 is no plane of the model */
    static const char bad[] = "[require]\n[test]\nenable GL_CLIP_PLANE8\n";
    ck_assert(shtest_parse(&t, bad, strlen(bad), &d));
    ck_assert(strstr(t.skip, "GL_CLIP_PLANE8"));
    shtest_free(&t);
}
END_TEST

START_TEST(parse_skips)
{
    for (size_t i = 0; i < sizeof skips / sizeof *skips; i++) {
        struct shtest t;
        struct us_diag d = { 0 };
        ck_assert_msg(shtest_parse(&t, skips[i].text, strlen(skips[i].text), &d),
                      "%s: %s", skips[i].text, d.msg);
        ck_assert_msg(strstr(t.skip, skips[i].why), "%s: skip '%s'",
                      skips[i].text, t.skip);
        struct shtest_result r;
        struct shtest_env env = { .math = &us_math_exact,
                                  .backend = &gfx_backend_functional };
        ck_assert(shtest_run(&t, &env, &r, &d));
        ck_assert_int_eq(r.status, SHTEST_SKIP);
        shtest_free(&t);
    }
}
END_TEST

START_TEST(tolerances)
{
    const float tol[4] = { 0.01f, 0.01f, 0.01f, 0.01f };
    const float half[4] = { 0.5f, 0.5f, 0.5f, 0.5f };
    uint8_t px[4] = { 130, 128, 127, 125 };
    /* single pixel: |ubyte / 255 - expected| <= 0.01 */
    ck_assert(shtest_match_pixel(px, half, tol, 4));
    px[0] = 131;  /* 0.5137 */
    ck_assert(!shtest_match_pixel(px, half, tol, 4));
    ck_assert(shtest_match_pixel(px + 1, half, tol, 3));
    /* probe all: |ubyte - trunc(127.5)| <= ceil(2.55) = 3 */
    px[0] = 130;
    ck_assert(shtest_match_all(px, half, tol, 4));
    px[0] = 131;
    ck_assert(!shtest_match_all(px, half, tol, 4));
    px[3] = 124;
    ck_assert(shtest_match_all(px + 1, half, tol, 3));
    ck_assert(!shtest_match_all(px, half, tol, 3));
}
END_TEST

/* The pipeline's shadow comparison functions and depth texture modes
 * (gfx/texture.c), which `texparameter` sets. */
START_TEST(shadow_modes)
{
    struct gfx_texture t;
    struct us_diag d;
    ck_assert(gfx_texture_alloc(&t, GFX_TEX_2D, 1, 1, 1, NULL, &d));
    t.filter = GFX_FILTER_NEAREST;
    gfx_texel(&t.level[0], 0, 0, 0)[0] = 0.5f;
    static const struct { uint8_t f; float below, equal, above; } cmp[] = {
        { GFX_CMP_LEQUAL, 1, 1, 0 },  { GFX_CMP_GEQUAL, 0, 1, 1 },
        { GFX_CMP_LESS, 1, 0, 0 },    { GFX_CMP_GREATER, 0, 0, 1 },
        { GFX_CMP_EQUAL, 0, 1, 0 },   { GFX_CMP_NOTEQUAL, 1, 0, 1 },
        { GFX_CMP_ALWAYS, 1, 1, 1 },  { GFX_CMP_NEVER, 0, 0, 0 },
    };
    float out[4];
    for (size_t i = 0; i < sizeof cmp / sizeof *cmp; i++) {
        t.compare = cmp[i].f;
        const float want[3] = { cmp[i].below, cmp[i].equal, cmp[i].above };
        const float ref[3] = { 0.25f, 0.5f, 0.75f };
        for (int k = 0; k < 3; k++) {
            float c[4] = { 0.5f, 0.5f, ref[k], 1 };
            gfx_texture_sample(&t, US_TEX_SHADOW2D, c, 0, out);
            ck_assert_float_eq(out[0], want[k]);
        }
    }
    float c[4] = { 0.5f, 0.5f, 0.75f, 1 };
    t.compare = GFX_CMP_GREATER;
    static const struct { uint8_t mode; float rgba[4]; } modes[] = {
        { GFX_DEPTH_LUMINANCE, { 1, 1, 1, 1 } },
        { GFX_DEPTH_INTENSITY, { 1, 1, 1, 1 } },
        { GFX_DEPTH_ALPHA, { 0, 0, 0, 1 } },
        { GFX_DEPTH_RED, { 1, 0, 0, 1 } },
    };
    for (size_t i = 0; i < 4; i++) {
        t.depth_mode = modes[i].mode;
        gfx_texture_sample(&t, US_TEX_SHADOW2D, c, 0, out);
        for (int k = 0; k < 4; k++)
            ck_assert_float_eq(out[k], modes[i].rgba[k]);
    }
    t.depth_mode = GFX_DEPTH_INTENSITY;
    c[2] = 0.25f;  /* fails: intensity puts 0 in alpha too */
    gfx_texture_sample(&t, US_TEX_SHADOW2D, c, 0, out);
    ck_assert_float_eq(out[3], 0);
    gfx_texture_free(&t);
}
END_TEST

static bool run_text(const char *text, struct shtest_result *r,
                     struct us_diag *d)
{
    struct shtest t;
    if (!shtest_parse(&t, text, strlen(text), d))
        return false;
    struct shtest_env env = { .math = &us_math_exact,
                              .backend = &gfx_backend_functional };
    bool ok = shtest_run(&t, &env, r, d);
    shtest_free(&t);
    return ok;
}

START_TEST(run_basic)
{
    struct shtest_result r;
    struct us_diag d = { 0 };
    ck_assert_msg(run_text(basic, &r, &d), "%u:%u: %s", d.line, d.col, d.msg);
    ck_assert_msg(r.status == SHTEST_FAIL, "%s", r.msg);
    /* the left half is green, so `probe all` fails at the first green
     * pixel, (0, 0), and nothing else did */
    ck_assert_uint_eq(r.line, 21);
    ck_assert_uint_eq(r.failed, 1);
    ck_assert_uint_eq(r.probes, 3);
    ck_assert_msg(strstr(r.msg, "probe all rgb at (0, 0)") &&
                  strstr(r.msg, "observed (0, 1, 0)"), "%s", r.msg);

    static const char pass[] =
        "[require]\nSIZE 6 6\n[vertex program]\n!!ARBvp1.0\n"
        "MOV result.position, vertex.position;\n"
        "MOV result.color, vertex.color;\nEND\n"
        "[fragment program]\n!!ARBfp1.0\n"
        "MUL result.color, fragment.color, program.local[1];\nEND\n"
        "[test]\ncolor 1 0.5 0.25 1\nparameter local_fp 1 (0.5, 0.5, 1, 1)\n"
        "draw rect -1 -1 2 2\nprobe all rgba 0.5 0.25 0.25 1\n";
    ck_assert_msg(run_text(pass, &r, &d), "%u:%u: %s", d.line, d.col, d.msg);
    ck_assert_msg(r.status == SHTEST_PASS, "%s", r.msg);

    /* an assembler error lands on the program's line in the file */
    static const char asmerr[] =
        "[require]\n[test]\n"; /* no program: fixed function, fine */
    ck_assert(run_text(asmerr, &r, &d));
    ck_assert_int_eq(r.status, SHTEST_PASS);
    static const char badfp[] =
        "[require]\n[vertex program]\n!!ARBvp1.0\nEND\n\n[fragment program]\n"
        "!!ARBfp1.0\nMOV result.color, fragment.colour;\nEND\n[test]\n";
    ck_assert(!run_text(badfp, &r, &d));
    ck_assert_uint_eq(d.line, 8);
    ck_assert_uint_eq(d.col, 28);
    ck_assert(!run_text("[test]\nclear\n", &r, &d));
    ck_assert_uint_eq(d.line, 1);
    ck_assert(strstr(d.msg, "no [require] section"));
}
END_TEST

/* ---- mutants --------------------------------------------------------- */

static uint64_t next(uint64_t *s)
{
    /* xorshift64* (Vigna) */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

static const char *const tokens[] = {
    "[", "]", "(", ")", ",", "-", ".", "#", ";", "\n", "\r\n", " ", "0",
    "1e38", "-1e38", "nan", "inf", "-inf", "0x7f800001", "2048", "4097",
    "[test]\n", "[vertex program]\n!!ARBvp1.0\n", "[fragment program]\n",
    "[require]\n", "SIZE 3 5\n", "END\n", "draw rect -1 -1 2 2\n",
    "draw rect tex 0 0 1 1 0 0 1 1\n", "probe all rgba 0 0 0 0\n",
    "texture miptree 3\n", "texture rgbw 15 (2, 1)\n",
    "texture shadowRect 2 (1, 3)\n", "texture shadow1D 0 (1)\n",
    "texparameter 2D min linear_mipmap_linear\n",
    "texparameter Rect wrap_s repeat\n", "enable GL_DEPTH_TEST\n",
    "ortho\n", "frustum -1 1 -1 1 0.5 2\n", "clear depth 0.5\nclear\n",
    "TEX result.color, fragment.texcoord[7], texture[15], RECT;\n",
    "KIL -fragment.position;\n", "parameter env_fp 255 (1, 2, 3, 4)\n",
    "probe depth 0 0 1\n", "relative probe rgba (1, 1) (0, 0, 0, 0)\n",
    "OPTION ARB_position_invariant;\n", "\xff", "\t",
};

static char *mutate(const char *base, size_t n, uint64_t *s, size_t *out_len)
{
    size_t cap = n + 4096;
    char *b = malloc(cap);
    ck_assert_ptr_nonnull(b);
    memcpy(b, base, n);
    unsigned ops = 1 + (unsigned)(next(s) % 4);
    for (unsigned k = 0; k < ops; k++) {
        size_t at = n ? (size_t)(next(s) % (n + 1)) : 0;
        switch (next(s) % 5) {
        case 0:  /* one byte */
            if (at < n)
                b[at] = (char)(next(s) % 4 ? "[]()-.,#0x\r\n "[next(s) % 14]
                                           : (char)next(s));
            break;
        case 1: {  /* delete a span */
            size_t len = 1 + (size_t)(next(s) % 24);
            if (at + len > n)
                len = n - at;
            memmove(b + at, b + at + len, n - at - len);
            n -= len;
            break;
        }
        case 2: {  /* insert a token */
            const char *t = tokens[next(s) % (sizeof tokens / sizeof *tokens)];
            size_t len = strlen(t);
            if (n + len >= cap)
                break;
            memmove(b + at + len, b + at, n - at);
            memcpy(b + at, t, len);
            n += len;
            break;
        }
        case 3: {  /* duplicate a span */
            size_t len = 1 + (size_t)(next(s) % 64);
            if (at + len > n)
                len = n - at;
            if (n + len >= cap)
                break;
            memmove(b + at + len, b + at, n - at);
            n += len;
            break;
        }
        default:  /* truncate */
            n = at;
            break;
        }
    }
    *out_len = n;
    return b;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = malloc(1 << 16);
    size_t n = b ? fread(b, 1, (1 << 16) - 1, f) : 0;
    fclose(f);
    if (b)
        b[n] = 0;
    *len = n;
    return b;
}

START_TEST(mutants)
{
    static const char *const files[] = {
        "tests/shtest/ff_fixed_function.shader_test",
        "tests/shtest/tex_depth.shader_test",
        "tests/shtest/txb_miptree.shader_test",
        "/usr/lib/x86_64-linux-gnu/piglit/tests/spec/arb_fragment_program/texturing/txb-2d.shader_test",
        "/usr/lib/x86_64-linux-gnu/piglit/tests/spec/arb_fragment_program_shadow/txp-shadow2drect.shader_test",
        "/usr/lib/x86_64-linux-gnu/piglit/tests/spec/arb_vertex_program/vp-arl-env-array.shader_test",
        "/usr/lib/x86_64-linux-gnu/piglit/tests/spec/arb_fragment_program/kil-swizzle.shader_test",
        "/usr/lib/x86_64-linux-gnu/piglit/tests/spec/arb_vertex_program/z-write.shader_test",
    };
    enum { NBASE = sizeof files / sizeof *files + 1 };
    const char *base[NBASE];
    size_t blen[NBASE];
    char *owned[NBASE] = { 0 };
    unsigned nb = 0;
    base[nb] = basic;
    blen[nb++] = strlen(basic);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if ((owned[nb] = slurp(files[i], &blen[nb])) != NULL) {
            base[nb] = owned[nb];
            nb++;
        }
    const char *env_n = getenv("US_SHTEST_MUTANTS");
    unsigned count = env_n ? (unsigned)strtoul(env_n, NULL, 10) : 400;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    struct shtest_env env = { .math = &us_math_exact,
                              .backend = &gfx_backend_functional };
    unsigned parsed = 0, ran = 0, passed = 0;
    for (unsigned m = 0; m < count; m++) {
        unsigned k = m % nb;
        size_t n;
        char *text = mutate(base[k], blen[k], &seed, &n);
        struct shtest t;
        struct us_diag d = { 0 };
        if (shtest_parse(&t, text, n, &d)) {
            parsed++;
            /* keep the runs small: a mutant's window is at most 16 x 16 */
            if (t.width > 16)
                t.width = 16;
            if (t.height > 16)
                t.height = 16;
            struct shtest_result r;
            if (shtest_run(&t, &env, &r, &d)) {
                ran++;
                passed += r.status == SHTEST_PASS;
                ck_assert(r.status != SHTEST_SKIP || r.msg[0]);
            } else {
                ck_assert_msg(d.msg[0], "run failed without a message");
            }
            shtest_free(&t);
        } else {
            ck_assert_msg(d.line >= 1 && d.col >= 1 && d.msg[0],
                          "parse error without a position: %u:%u '%s'",
                          d.line, d.col, d.msg);
        }
        free(text);
    }
    for (unsigned i = 0; i < nb; i++)
        free(owned[i]);
    /* the mutants must exercise both the errors and the runs */
    ck_assert_uint_gt(parsed, count / 10);
    ck_assert_uint_gt(ran, count / 20);
    ck_assert_uint_lt(parsed, count);
    printf("shtest: %u mutants: %u parsed, %u ran (%u passed)\n", count,
           parsed, ran, passed);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("shtest");
    TCase *t = tcase_create("shader_test");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, parse_basic);
    tcase_add_test(t, parse_errors);
    tcase_add_test(t, parse_compute);
    tcase_add_test(t, run_compute);
    tcase_add_test(t, parse_skips);
    tcase_add_test(t, parse_shade_clip);
    tcase_add_test(t, tolerances);
    tcase_add_test(t, shadow_modes);
    tcase_add_test(t, run_basic);
    tcase_add_test(t, mutants);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
