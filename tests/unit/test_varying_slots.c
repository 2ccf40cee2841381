/* Varying slots beyond GLES 2.0's 8 (knob varying_slots, include/ushader.h
 * US_MAX_VARYINGS): the knob's bounds, the assembler's and disassembler's
 * texcoord[8..31], the check that names the knob, the GLSL link table's
 * size, and a draw whose flat, noperspective and smooth varyings sit in
 * slots 12, 20 and 31 giving the bits the same draw gives in slots 0..2. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"
#include "shader/core.h"
#include "ushader.h"

static struct us_program assemble(const char *text)
{
    struct us_program p;
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &p, &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    return p;
}

static void assemble_fails(const char *text, const char *msg)
{
    struct us_program p;
    struct us_diag d = { 0 };
    ck_assert_msg(!us_assemble(text, strlen(text), US_STAGE_ANY, &p, &d),
                  "accepted: %s", text);
    ck_assert_msg(strstr(d.msg, msg), "%s: got %s", text, d.msg);
}

START_TEST(knob_bounds)
{
    const struct us_knob_info *k = &us_knobs[US_KNOB_varying_slots];
    ck_assert_str_eq(k->name, "varying_slots");
    ck_assert_int_eq(k->def, US_VARYING_SLOTS_DEFAULT);
    ck_assert_int_eq(k->def, 8);
    ck_assert_int_eq(k->lo, 8);
    ck_assert_int_eq(k->hi, US_MAX_VARYINGS);
    struct us_config cfg;
    struct us_diag d;
    us_config_default(&cfg);
    ck_assert(us_config_set(&cfg, "varying_slots=32", &d));
    ck_assert_int_eq(cfg.v[US_KNOB_varying_slots], 32);
    ck_assert(!us_config_set(&cfg, "varying_slots=33", &d));
    ck_assert(!us_config_set(&cfg, "varying_slots=7", &d));
    /* the masks hold every slot */
    ck_assert_uint_lt(US_VOUT_COUNT, 64);
    ck_assert_uint_lt(US_FIN_COUNT, 64);
}
END_TEST

static const char vp31[] =
    "!!ARBvp1.0\nOPTION USHADER_extensions;\n"
    "MOV result.position, vertex.position;\n"
    "MOV result.texcoord[31], vertex.color;\n"
    "MOV result.texcoord[9].xz, vertex.position;\nEND\n";
static const char fp20[] =
    "!!ARBfp1.0\nOPTION USHADER_extensions;\n"
    "ADD result.color, fragment.texcoord[20], fragment.texcoord[8];\n"
    "END\n";

START_TEST(asm_dis_round_trip)
{
    const char *texts[] = { vp31, fp20 };
    const char *names[] = { "result.texcoord[31]", "fragment.texcoord[20]" };
    for (int i = 0; i < 2; i++) {
        struct us_program p = assemble(texts[i]), q;
        char *dis = us_disassemble(&p);
        ck_assert_ptr_nonnull(dis);
        ck_assert_msg(strstr(dis, names[i]), "%s", dis);
        q = assemble(dis);
        ck_assert(us_program_equal(&p, &q));
        ck_assert_uint_eq(q.inputs_read, p.inputs_read);
        ck_assert_uint_eq(q.outputs_written, p.outputs_written);
        free(dis);
        us_program_free(&q);
        us_program_free(&p);
    }
    struct us_program p = assemble(vp31);
    ck_assert_uint_eq(p.outputs_written >> (US_VOUT_TEXCOORD0 + 31) & 1, 1);
    ck_assert_uint_eq(p.outputs_written >> (US_VOUT_TEXCOORD0 + 9) & 1, 1);
    ck_assert_str_eq(us_output_name(US_STAGE_VERTEX, US_VOUT_TEXCOORD0 + 31),
                     "result.texcoord[31]");
    ck_assert_str_eq(us_output_name(US_STAGE_VERTEX, US_VOUT_CLIPVERTEX),
                     "result.clipvertex");
    ck_assert_str_eq(us_input_name(US_STAGE_FRAGMENT, US_FIN_FACING),
                     "fragment.facing");
    us_program_free(&p);
    /* ARB's 8 sets without the option, 32 with it */
    assemble_fails("!!ARBvp1.0\nMOV result.texcoord[8], vertex.color;\nEND\n",
                   "out of range (0..7)");
    assemble_fails("!!ARBfp1.0\nMOV result.color, fragment.texcoord[8];\n"
                   "END\n", "out of range (0..7)");
    assemble_fails("!!ARBvp1.0\nOPTION USHADER_extensions;\n"
                   "MOV result.texcoord[32], vertex.color;\nEND\n",
                   "out of range (0..31)");
}
END_TEST

START_TEST(check_names_the_knob)
{
    struct us_program vp = assemble(vp31), fp = assemble(fp20);
    struct us_diag d = { 0 };
    ck_assert_uint_eq(us_program_varying_slots(&vp), 32);
    ck_assert_uint_eq(us_program_varying_slots(&fp), 21);
    ck_assert(!us_check_varying_slots(&vp, 0, &d));
    ck_assert_msg(strstr(d.msg, "result.texcoord[31]") &&
                  strstr(d.msg, "32 vec4 varying slots") &&
                  strstr(d.msg, "varying_slots=8"), "%s", d.msg);
    ck_assert(!us_check_varying_slots(&fp, 20, &d));
    ck_assert_msg(strstr(d.msg, "fragment.texcoord[20]") &&
                  strstr(d.msg, "varying_slots=20"), "%s", d.msg);
    ck_assert(us_check_varying_slots(&fp, 21, &d));
    ck_assert(us_check_varying_slots(&vp, 32, &d));
    struct us_program lo = assemble(
        "!!ARBvp1.0\nMOV result.position, vertex.position;\n"
        "MOV result.texcoord[7], vertex.color;\nEND\n");
    ck_assert_uint_eq(us_program_varying_slots(&lo), 8);
    ck_assert(us_check_varying_slots(&lo, 0, &d));
    us_program_free(&lo);
    us_program_free(&fp);
    us_program_free(&vp);
}
END_TEST

/* 13 vec4 slots: piglit's vs-varying-array-mat4 tests' interface. */
static const char vs13[] =
    "varying mat4 m[3];\nvarying vec4 color;\n"
    "void main() { gl_Position = gl_Vertex; m[0] = mat4(1.0);\n"
    "  m[1] = mat4(2.0); m[2] = mat4(3.0); color = vec4(1.0); }\n";

START_TEST(link_table_size)
{
    struct us_glsl_link link;
    struct us_diag d = { 0 };
    char *out = NULL;
    size_t len;
    us_glsl_link_init(&link);
    ck_assert_uint_eq(link.slots, 8);
    ck_assert(!us_glsl_front(vs13, strlen(vs13), US_STAGE_VERTEX, &link,
                             &out, &len, &d));
    ck_assert_msg(strstr(d.msg, "more than the 8 vec4 varying slots") &&
                  strstr(d.msg, "knob varying_slots"), "%s", d.msg);
    ck_assert(!us_glsl_front_alone(vs13, strlen(vs13), US_STAGE_VERTEX, 0,
                                   &out, &len, &d));
    ck_assert(!us_glsl_front_alone(vs13, strlen(vs13), US_STAGE_VERTEX, 12,
                                   &out, &len, &d));
    ck_assert(strstr(d.msg, "more than the 12 vec4 varying slots"));

    us_glsl_link_init(&link);
    us_glsl_link_slots(&link, 16);
    ck_assert_msg(us_glsl_front(vs13, strlen(vs13), US_STAGE_VERTEX, &link,
                                &out, &len, &d), "%s", d.msg);
    free(out);
    /* from the top down: m takes 4..15, color 3 */
    ck_assert_uint_eq(us_glsl_link_varying(&link, "m")->first, 4);
    ck_assert_uint_eq(us_glsl_link_varying(&link, "m")->count, 12);
    ck_assert_uint_eq(us_glsl_link_varying(&link, "color")->first, 3);
    ck_assert_msg(us_glsl_front_alone(vs13, strlen(vs13), US_STAGE_VERTEX,
                                      13, &out, &len, &d), "%s", d.msg);
    /* alone, in name order from the top: color 12, m 0..11 */
    ck_assert_msg(strstr(out, "layout(location=12) out vec4 color;") &&
                  strstr(out, "layout(location=0) out mat4 m[3];"), "%s",
                  out);
    free(out);
    /* alone, the slots do not depend on the knob: the lowest top that
     * holds them, at least 8 */
    ck_assert(us_glsl_front_alone(vs13, strlen(vs13), US_STAGE_VERTEX, 32,
                                  &out, &len, &d));
    ck_assert(strstr(out, "layout(location=12) out vec4 color;"));
    free(out);
    static const char two[] = "varying vec4 b;\nvarying vec2 a;\n"
                              "void main() { gl_Position = gl_Vertex; }\n";
    ck_assert(us_glsl_front_alone(two, strlen(two), US_STAGE_VERTEX, 32,
                                  &out, &len, &d));
    ck_assert_msg(strstr(out, "layout(location=7) out vec2 a;") &&
                  strstr(out, "layout(location=6) out vec4 b;"), "%s", out);
    free(out);
}
END_TEST

/* Slots a, b, c of the pair below: texcoord[a] smooth, [b] noperspective,
 * [c] flat (the bits the translator sets for GLSL's qualifiers). */
static void draw_slots(unsigned a, unsigned b, unsigned c, unsigned knob,
                       bool flat_bits, struct gfx_framebuffer *fb)
{
    char vtext[512], ftext[512];
    snprintf(vtext, sizeof vtext,
             "!!ARBvp1.0\nOPTION USHADER_extensions;\n"
             "MOV result.position, vertex.position;\n"
             "MOV result.texcoord[%u], vertex.texcoord[0];\n"
             "MOV result.texcoord[%u], vertex.texcoord[0];\n"
             "MOV result.texcoord[%u], vertex.color;\nEND\n", a, b, c);
    snprintf(ftext, sizeof ftext,
             "!!ARBfp1.0\nOPTION USHADER_extensions;\n"
             "MOV result.color.x, fragment.texcoord[%u].x;\n"
             "MOV result.color.y, fragment.texcoord[%u].x;\n"
             "MOV result.color.zw, fragment.texcoord[%u].zyzw;\nEND\n",
             a, b, c);
    struct us_program vp = assemble(vtext), fp = assemble(ftext);
    if (flat_bits) {
        fp.interp_linear = 1ull << (US_FIN_TEXCOORD0 + b);
        fp.interp_flat = 1ull << (US_FIN_TEXCOORD0 + c);
    }
    struct gfx_mesh m;
    struct us_diag d;
    ck_assert(gfx_mesh_alloc(&m, 3, GFX_ALL_ATTRS, 1, NULL, &d));
    /* w = 2 at vertex 1, so perspective and window interpolation differ;
     * the user plane y >= 0 cuts the triangle, so the clipper makes new
     * vertices carrying the varyings */
    float pos[3][4] = { { -1, -1, 0, 1 }, { 2, -2, 0, 2 }, { -1, 1, 0, 1 } };
    for (int i = 0; i < 3; i++) {
        memcpy(m.attr[GFX_ATTR_POSITION][i], pos[i], sizeof pos[i]);
        m.attr[GFX_ATTR_TEXCOORD0][i][0] = i == 1 ? 1.0f : 0.0f;
        float col[4] = { 0, 0, 0, 1 };
        col[i] = 1;
        memcpy(m.attr[GFX_ATTR_COLOR0][i], col, sizeof col);
        m.idx[i] = (uint32_t)i;
    }
    struct us_glstate gl;
    us_glstate_init(&gl);
    gl.clip_plane[1][1] = 1;   /* y >= 0 */
    struct gfx_state st;
    gfx_state_init(&st);
    st.clip_planes = 2;
    struct gfx_shader_backend be = gfx_backend_functional;
    be.varying_slots = knob;
    ck_assert(gfx_fb_init(fb, 16, 16, &d));
    struct gfx_draw dr = { .mesh = &m, .vp = &vp, .fp = &fp, .gl = &gl,
                           .state = &st, .math = &us_math_exact,
                           .backend = &be };
    struct gfx_stats stats = { 0 };
    bool fits = a < knob && b < knob && c < knob;
    bool ok = gfx_draw_mesh(fb, &dr, &stats, &d);
    ck_assert_msg(ok == fits, "slots %u %u %u, knob %u: %s", a, b, c, knob,
                  d.msg);
    if (!ok)
        ck_assert_msg(strstr(d.msg, "varying_slots"), "%s", d.msg);
    else
        ck_assert_uint_gt(stats.fragments, 0);
    gfx_mesh_free(&m);
    us_program_free(&fp);
    us_program_free(&vp);
}

START_TEST(high_slots_render_as_low_ones)
{
    struct gfx_framebuffer lo, hi, smooth, refused;
    draw_slots(0, 1, 2, 8, true, &lo);
    draw_slots(12, 20, 31, 32, true, &hi);
    ck_assert(!memcmp(lo.color, hi.color, 16 * 16 * 4 * sizeof(float)));
    /* the analytic values of tests/unit/test_gfx.c's flat_and_noperspective
     * (the plane y >= 0 keeps the upper half) */
    for (int py = 8; py < 16; py++)
        for (int px = 0; px < 16; px++) {
            double x = (px + 0.5) / 8 - 1, y = (py + 0.5) / 8 - 1;
            double l1 = (x + 1) / 2, l2 = (y + 1) / 2, l0 = 1 - l1 - l2;
            if (l0 <= 0.01)
                continue;
            const float *c = &hi.color[4 * (py * 16 + px)];
            double u = (l1 / 2) / (l0 + l1 / 2 + l2);
            ck_assert_float_eq_tol(c[0], (float)u, 2e-6f);
            ck_assert_float_eq_tol(c[1], (float)l1, 2e-6f);
            /* flat: the provoking (last) vertex's colour, blue 1 */
            ck_assert_float_eq(c[2], 1.0f);
        }
    /* without the bits, slot 31 is interpolated: the image differs */
    draw_slots(12, 20, 31, 32, false, &smooth);
    ck_assert(memcmp(smooth.color, hi.color, 16 * 16 * 4 * sizeof(float)));
    /* the default knob refuses the draw with the knob's name */
    draw_slots(12, 20, 31, 8, true, &refused);
    gfx_fb_free(&refused);
    draw_slots(2, 5, 8, 8, true, &refused);
    gfx_fb_free(&refused);
    draw_slots(2, 5, 8, 9, true, &refused);
    gfx_fb_free(&refused);
    gfx_fb_free(&smooth);
    gfx_fb_free(&hi);
    gfx_fb_free(&lo);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("varying_slots");
    TCase *tc = tcase_create("varying_slots");
    tcase_add_test(tc, knob_bounds);
    tcase_add_test(tc, asm_dis_round_trip);
    tcase_add_test(tc, check_names_the_knob);
    tcase_add_test(tc, link_table_size);
    tcase_add_test(tc, high_slots_render_as_low_ones);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
