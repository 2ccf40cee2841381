/* The GLSL front step (glsl/front.c): rewrites, line numbers, the link
 * table shared by a program pair, and errors with their line and column. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

static char *front(const char *src, enum us_stage st, struct us_glsl_link *l)
{
    char *out;
    size_t len;
    struct us_diag d = { 0 };
    ck_assert_msg(us_glsl_front(src, strlen(src), st, l, &out, &len, &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    ck_assert_uint_eq(strlen(out), len);
    return out;
}

static void expect_error(const char *src, enum us_stage st,
                         struct us_glsl_link *l, unsigned line, unsigned col,
                         const char *msg)
{
    char *out = (char *)1;
    size_t len;
    struct us_diag d = { 0 };
    ck_assert_msg(!us_glsl_front(src, strlen(src), st, l, &out, &len, &d),
                  "accepted: %s", src);
    ck_assert_ptr_null(out);
    ck_assert_msg(d.line == line && d.col == col && strstr(d.msg, msg),
                  "%s: got %u:%u: %s", src, d.line, d.col, d.msg);
}

/* The output line that input line `n` became: the lines after `#line 1`. */
static const char *line_of(const char *out, unsigned n)
{
    const char *p = strstr(out, "#line 1\n");
    ck_assert_ptr_nonnull(p);
    p += 8;
    for (unsigned k = 1; k < n; k++) {
        p = strchr(p, '\n');
        ck_assert_ptr_nonnull(p);
        p++;
    }
    return p;
}

static bool line_has(const char *out, unsigned n, const char *what)
{
    const char *p = line_of(out, n), *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    size_t k = strlen(what);
    for (size_t i = 0; i + k <= len; i++)
        if (!memcmp(p + i, what, k))
            return true;
    return false;
}

START_TEST(version_and_precision)
{
    const char *src =
        "// a comment first\n"
        "#version 100\n"
        "precision mediump float;\n"
        "uniform highp vec4 c;\n"
        "void main() { gl_FragColor = c; }\n";
    char *out = front(src, US_STAGE_FRAGMENT, NULL);
    ck_assert(!strncmp(out, "#version 330\n", 13));
    ck_assert(!strstr(out, "#version 100"));
    ck_assert(!strstr(out, "precision"));
    ck_assert(!strstr(out, "highp"));
    ck_assert(line_has(out, 1, "// a comment first"));
    ck_assert(line_has(out, 4, "uniform       vec4 c;"));  /* columns kept */
    ck_assert(line_has(out, 5, "us_gl_FragColor = c;"));
    ck_assert(strstr(out, "layout(location=0) out vec4 us_gl_FragColor;\n"));
    free(out);
}
END_TEST

START_TEST(attributes_and_varyings)
{
    struct us_glsl_link link;
    us_glsl_link_init(&link);
    const char *vs =
        "attribute vec4 piglit_vertex, extra;\n"
        "attribute mat2 m;\n"
        "varying vec4 a;\n"
        "varying mat3 b[2]; /* six slots */\n"
        "void main() {\n"
        "  gl_Position = piglit_vertex + gl_Color;\n"
        "  a = extra; b[0] = mat3(m); b[1] = mat3(1.0);\n"
        "}\n";
    char *out = front(vs, US_STAGE_VERTEX, &link);
    ck_assert(line_has(out, 1, "layout(location=0) in vec4 piglit_vertex;"));
    /* gl_Color aliases generic attribute 3: extra and m stay clear of it */
    ck_assert(line_has(out, 1, "layout(location=1) in vec4 extra;"));
    ck_assert(line_has(out, 2, "layout(location=4) in mat2 m;"));
    ck_assert(line_has(out, 3, "layout(location=7) out vec4 a;"));
    ck_assert(line_has(out, 4, "layout(location=1) out mat3 b[2];"));
    ck_assert(line_has(out, 6, "us_gl_Color"));
    ck_assert(strstr(out, "in vec4 us_gl_Color;"));
    free(out);
    ck_assert_uint_eq(us_glsl_link_attrib(&link, "m")->first, 4);
    ck_assert_uint_eq(us_glsl_link_varying(&link, "b")->count, 6);

    /* the fragment shader finds the same slots, whatever its order */
    const char *fs =
        "varying mat3 b[2];\n"
        "varying vec4 a;\n"
        "void main() { gl_FragData[0] = a + vec4(b[1][0], 1.0); }\n";
    out = front(fs, US_STAGE_FRAGMENT, &link);
    ck_assert(line_has(out, 1, "layout(location=1) in mat3 b[2];"));
    ck_assert(line_has(out, 2, "layout(location=7) in vec4 a;"));
    ck_assert(line_has(out, 3, "us_gl_FragColor = a"));
    free(out);

    /* a ninth slot does not fit */
    expect_error("varying vec4 a;\nvarying mat3 b[2];\nvarying vec2 c;\n"
                 "varying float d;\n", US_STAGE_FRAGMENT, &link, 4, 15,
                 "does not fit");
}
END_TEST

START_TEST(alone_in_name_order)
{
    /* compiled apart, two stages agree on the varyings they share */
    char *v = front("varying vec4 zeta;\nvarying vec2 alpha;\n"
                    "void main() { gl_Position = gl_Vertex; }\n",
                    US_STAGE_VERTEX, NULL);
    char *f = front("varying vec2 alpha;\nvarying vec4 zeta;\n"
                    "void main() { gl_FragColor = zeta; }\n",
                    US_STAGE_FRAGMENT, NULL);
    ck_assert(line_has(v, 1, "layout(location=6) out vec4 zeta;"));
    ck_assert(line_has(f, 2, "layout(location=6) in vec4 zeta;"));
    ck_assert(line_has(v, 2, "layout(location=7) out vec2 alpha;"));
    ck_assert(line_has(f, 1, "layout(location=7) in vec2 alpha;"));
    free(v);
    free(f);
}
END_TEST

START_TEST(texture_functions)
{
    const char *src =
        "uniform sampler2D s; uniform sampler2DShadow z;\n"
        "void main() {\n"
        "  vec4 a = texture2D(s, vec2(0.5)) + texture2DProj(s, vec3(1.0));\n"
        "  vec4 b = shadow2D(z, vec3(f(1.0), 0.5, 0.5)) * textureCube(q, r);\n"
        "  gl_FragColor = a + b + texture2DLod(s, vec2(0.0), 1.0);\n"
        "  b = shadow2DProj(z, vec4(0.5), g(1.0, 2.0)) + shadow1D(y, p);\n"
        "  b += shadow2DLod(z, p, 1.0) + shadow2D(z, p, shadow2D(z, p).x);\n"
        "}\n";
    char *out = front(src, US_STAGE_FRAGMENT, NULL);
    ck_assert(line_has(out, 3, "texture(s, vec2(0.5)) + textureProj(s,"));
    /* shadow lookups carry a zero offset, the translator's mark for the
     * depth mode's vec4; it goes before a bias */
    ck_assert(line_has(out, 4, "vec4(textureOffset(z, vec3(f(1.0), 0.5, "
                               "0.5), ivec2(0))) * texture(q, r)"));
    ck_assert(line_has(out, 5, "textureLod(s, vec2(0.0), 1.0)"));
    ck_assert(line_has(out, 6, "vec4(textureProjOffset(z, vec4(0.5), "
                               "ivec2(0), g(1.0, 2.0))) + "
                               "vec4(textureOffset(y, p, 0))"));
    ck_assert(line_has(out, 7, "vec4(textureLodOffset(z, p, 1.0, ivec2(0)))"
                               " + vec4(textureOffset(z, p, ivec2(0), "
                               "vec4(textureOffset(z, p, ivec2(0))).x))"));
    free(out);
}
END_TEST

/* A do-while body is a scope of its own: a one-statement body gets braces
 * on its line (GLSL 1.20 6.3, piglit's fs-do-while-scope). */
START_TEST(do_while_scope)
{
    const char *src =
        "void main() { int i = 1, j = 0;\n"
        "  do int i = (j++, 0); while (i <= 0 && j < 3);\n"
        "  do { j++; } while (j < 5);\n"
        "  do if (j > 0) j--; while (j > 2);\n"
        "  do\n    j += f(1, 2);\n  while (j < 9);\n"
        "  gl_FragColor = vec4(j); }\n";
    char *out = front(src, US_STAGE_FRAGMENT, NULL);
    ck_assert(line_has(out, 2, "do { int i = (j++, 0); } while (i <= 0"));
    ck_assert(line_has(out, 3, "do { j++; } while (j < 5);"));
    ck_assert(line_has(out, 4, "do if (j > 0) j--; while (j > 2);"));
    ck_assert(line_has(out, 6, "{ j += f(1, 2); }"));
    free(out);
}
END_TEST

START_TEST(builtins_and_macros)
{
    const char *src =
        "#define MVP gl_ModelViewProjectionMatrix\n"
        "uniform float k;\n"
        "void main() {\n"
        "  gl_TexCoord[1] = gl_MultiTexCoord0 * float(gl_MaxLights);\n"
        "  gl_Position = MVP * gl_Vertex + ftransform();\n"
        "}\n";
    char *out = front(src, US_STAGE_VERTEX, NULL);
    ck_assert(line_has(out, 1, "#define MVP us_gl_ModelViewProjectionMatrix"));
    ck_assert(line_has(out, 4, "us_gl_TexCoord[1] = us_gl_MultiTexCoord0 * "
                               "float(us_gl_MaxLights)"));
    ck_assert(line_has(out, 5, "gl_Position = MVP * us_gl_Vertex + "
                               "(us_gl_ModelViewProjectionMatrix * "
                               "us_gl_Vertex);"));
    ck_assert(strstr(out, "uniform mat4 us_gl_ModelViewProjectionMatrix;"));
    ck_assert(strstr(out, "const int us_gl_MaxLights = 8;"));
    ck_assert(strstr(out, "out vec4 us_gl_TexCoord[8];"));
    /* declared once however often used */
    const char *once = strstr(out, "in vec4 us_gl_Vertex;");
    ck_assert_ptr_nonnull(once);
    ck_assert_ptr_null(strstr(once + 1, "in vec4 us_gl_Vertex;"));
    free(out);
}
END_TEST

START_TEST(later_keywords_are_names)
{
    /* GLSL 1.10 has no mat4x2 or lowp: they are names there */
    char *out = front("#version 110\nvoid main() {\n  float mat4x2 = 1.0, "
                      "lowp = 2.0, flat = 3.0;\n  gl_FragColor = "
                      "vec4(mat4x2, lowp, flat, 1.0);\n}\n",
                      US_STAGE_FRAGMENT, NULL);
    ck_assert(line_has(out, 3, "float us_id_mat4x2 = 1.0, us_id_lowp = 2.0, "
                               "us_id_flat = 3.0;"));
    ck_assert(line_has(out, 4, "vec4(us_id_mat4x2, us_id_lowp, us_id_flat,"));
    free(out);
    /* in GLSL 1.20 mat4x2 is a type, and lowp stays a qualifier in a
     * source without #version (which may be GLSL ES) */
    out = front("#version 120\nuniform mat4x2 m;\n", US_STAGE_FRAGMENT,
                NULL);
    ck_assert(line_has(out, 2, "uniform mat4x2 m;"));
    free(out);
    out = front("uniform lowp float x;\n", US_STAGE_FRAGMENT, NULL);
    ck_assert(line_has(out, 1, "uniform      float x;"));
    free(out);
}
END_TEST

/* Minetest's desktop header (src/client/shader.cpp) defines the ES
 * precision words away; the step blanks the words itself, so the
 * directives become blanks (glslang refuses a #define without a name) */
START_TEST(precision_macros)
{
    char *out = front("#version 120\n#define lowp\n#define mediump\n"
                      "#define highp\nvarying lowp vec4 c;\n"
                      "void main() { gl_FragColor = c; }\n",
                      US_STAGE_FRAGMENT, NULL);
    ck_assert(!strstr(out, "#define"));
    ck_assert(!strstr(out, "lowp"));
    ck_assert(line_has(out, 2, "            "));     /* "#define lowp" */
    ck_assert(line_has(out, 6, "us_gl_FragColor = c;"));
    free(out);
    /* in GLSL 1.10 lowp is a name, and its macro stays one */
    out = front("#version 110\n#define lowp 2.0\nvoid main() { "
                "gl_FragColor = vec4(lowp); }\n", US_STAGE_FRAGMENT, NULL);
    ck_assert(line_has(out, 2, "#define us_id_lowp 2.0"));
    free(out);
    /* other macros are kept */
    out = front("#version 120\n#define lowpass 1.0\nvoid main() { "
                "gl_FragColor = vec4(lowpass); }\n", US_STAGE_FRAGMENT, NULL);
    ck_assert(line_has(out, 2, "#define lowpass 1.0"));
    free(out);
}
END_TEST

START_TEST(errors_have_positions)
{
    expect_error("void main() {\n  gl_FragColor = gl_Bogus;\n}\n",
                 US_STAGE_FRAGMENT, NULL, 2, 18, "unknown built-in 'gl_Bogus'");
    expect_error("void main()\n{\n   gl_FragColor = gl_Vertex;\n}\n",
                 US_STAGE_FRAGMENT, NULL, 3, 19, "not available in a fragment");
    expect_error("/* x */ attribute vec4 a;\n", US_STAGE_FRAGMENT, NULL, 1, 9,
                 "'attribute' in a fragment shader");
    expect_error("void main() { gl_FragData[1] = vec4(0.0); }\n",
                 US_STAGE_FRAGMENT, NULL, 1, 15, "gl_FragData[0]");
    expect_error("#version 200\nvoid main() {}\n", US_STAGE_FRAGMENT, NULL, 1,
                 1, "#version 100, 110, 120, 130, 140 or 150");
    expect_error("varying vec4 v[n];\n", US_STAGE_VERTEX, NULL, 1, 15,
                 "literal size");
    expect_error("attribute mat4 a[2];\n", US_STAGE_VERTEX, NULL, 1, 16,
                 "is an array");
    expect_error("void f() { float varying = 1.0; }\n", US_STAGE_VERTEX,
                 NULL, 1, 18, "must start a global declaration");
    /* gl_TexCoord[5] and two user slots need 8 + 1 */
    expect_error("varying mat4 m;\nvoid main() { gl_TexCoord[5] = m[0]; }\n",
                 US_STAGE_VERTEX, NULL, 2, 15, "overlaps the user varyings");
}
END_TEST

START_TEST(legacy_detection)
{
    ck_assert(us_glsl_is_legacy("void main() {}", 14));
    ck_assert(us_glsl_is_legacy("#version 120\n", 13));
    ck_assert(us_glsl_is_legacy("// c\n  #version 100\n", 20));
    ck_assert(!us_glsl_is_legacy("#version 330\n", 13));
    ck_assert(!us_glsl_is_legacy("/* */\n#version 450 core\n", 23));
    ck_assert(us_is_arb_text("!!ARBfp1.0\nEND\n", 15));
    ck_assert(!us_is_arb_text("void main() {}", 14));
    ck_assert_int_eq(us_glsl_stage_of_path("a/b.vert"), US_STAGE_VERTEX);
    ck_assert_int_eq(us_glsl_stage_of_path("x.fs"), US_STAGE_FRAGMENT);
    ck_assert_int_eq(us_glsl_stage_of_path("x.glsl"), US_STAGE_ANY);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("front");
    TCase *tc = tcase_create("front");
    tcase_add_test(tc, version_and_precision);
    tcase_add_test(tc, attributes_and_varyings);
    tcase_add_test(tc, alone_in_name_order);
    tcase_add_test(tc, texture_functions);
    tcase_add_test(tc, do_while_scope);
    tcase_add_test(tc, builtins_and_macros);
    tcase_add_test(tc, later_keywords_are_names);
    tcase_add_test(tc, precision_macros);
    tcase_add_test(tc, errors_have_positions);
    tcase_add_test(tc, legacy_detection);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
