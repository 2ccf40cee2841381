/* GL-like state: initial values, every state.* binding, matrix modifiers,
 * and parameter resolution. */
#include <math.h>
#include <string.h>

#include "ushader.h"

#include "check_main.h"

static struct us_state_ref ref(unsigned item, unsigned a, unsigned b,
                               unsigned c, unsigned d)
{
    struct us_state_ref r = { (uint8_t)item, (uint8_t)a, (uint8_t)b,
                              (uint8_t)c, (uint8_t)d };
    return r;
}

/* fetch(ref) == (x, y, z, w) exactly. */
static void expect(const struct us_glstate *gl, struct us_state_ref r,
                   float x, float y, float z, float w)
{
    float v[4];
    us_glstate_fetch(gl, r, v);
    ck_assert_msg(v[0] == x && v[1] == y && v[2] == z && v[3] == w,
                  "item %u (%u,%u,%u,%u): got (%g,%g,%g,%g), want "
                  "(%g,%g,%g,%g)", r.item, r.a, r.b, r.c, r.d, v[0], v[1],
                  v[2], v[3], x, y, z, w);
}

static void expect_near(const struct us_glstate *gl, struct us_state_ref r,
                        float x, float y, float z, float w)
{
    float v[4], want[4] = { x, y, z, w };
    us_glstate_fetch(gl, r, v);
    for (int i = 0; i < 4; i++)
        ck_assert_msg(fabsf(v[i] - want[i]) <= 1e-6f,
                      "item %u component %d: got %.9g, want %.9g", r.item,
                      i, v[i], want[i]);
}

static void mat_rows(const struct us_glstate *gl, unsigned which,
                     unsigned index, unsigned mod, us_mat4 out)
{
    for (unsigned row = 0; row < 4; row++)
        us_glstate_fetch(gl, ref(US_STATE_MATRIX_ROW, which, index, mod, row),
                         &out[4 * row]);
}

START_TEST(defaults)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    for (unsigned f = 0; f < 2; f++) {
        expect(&gl, ref(US_STATE_MATERIAL, f, US_PROP_AMBIENT, 0, 0),
               0.2f, 0.2f, 0.2f, 1);
        expect(&gl, ref(US_STATE_MATERIAL, f, US_PROP_DIFFUSE, 0, 0),
               0.8f, 0.8f, 0.8f, 1);
        expect(&gl, ref(US_STATE_MATERIAL, f, US_PROP_SPECULAR, 0, 0),
               0, 0, 0, 1);
        expect(&gl, ref(US_STATE_MATERIAL, f, US_PROP_EMISSION, 0, 0),
               0, 0, 0, 1);
        expect(&gl, ref(US_STATE_MATERIAL, f, US_PROP_SHININESS, 0, 0),
               0, 0, 0, 1);
    }
    for (unsigned l = 0; l < US_MAX_LIGHTS; l++) {
        float c = l == 0 ? 1 : 0;
        expect(&gl, ref(US_STATE_LIGHT, l, US_PROP_AMBIENT, 0, 0), 0, 0, 0, 1);
        expect(&gl, ref(US_STATE_LIGHT, l, US_PROP_DIFFUSE, 0, 0), c, c, c, 1);
        expect(&gl, ref(US_STATE_LIGHT, l, US_PROP_SPECULAR, 0, 0), c, c, c, 1);
        expect(&gl, ref(US_STATE_LIGHT, l, US_PROP_POSITION, 0, 0), 0, 0, 1, 0);
        expect(&gl, ref(US_STATE_LIGHT, l, US_PROP_ATTENUATION, 0, 0),
               1, 0, 0, 0);
        /* cutoff 180 degrees: cosine -1 */
        expect(&gl, ref(US_STATE_LIGHT, l, US_PROP_SPOT_DIRECTION, 0, 0),
               0, 0, -1, -1);
        /* light along +z: P = (0,0,1), h = ||(0,0,2)|| = (0,0,1) */
        expect(&gl, ref(US_STATE_LIGHT, l, US_PROP_HALF, 0, 0), 0, 0, 1, 1);
    }
    expect(&gl, ref(US_STATE_LIGHTMODEL_AMBIENT, 0, 0, 0, 0),
           0.2f, 0.2f, 0.2f, 1);
    /* 0.2 * 0.2 + 0 in binary32 */
    float s = 0.2f * 0.2f;
    expect(&gl, ref(US_STATE_LIGHTMODEL_SCENECOLOR, US_FACE_FRONT, 0, 0, 0),
           s, s, s, 1);
    expect(&gl, ref(US_STATE_LIGHTMODEL_SCENECOLOR, US_FACE_BACK, 0, 0, 0),
           s, s, s, 1);
    expect(&gl, ref(US_STATE_LIGHTPROD, 0, US_FACE_FRONT, US_PROP_DIFFUSE, 0),
           0.8f, 0.8f, 0.8f, 1);
    expect(&gl, ref(US_STATE_LIGHTPROD, 1, US_FACE_BACK, US_PROP_DIFFUSE, 0),
           0, 0, 0, 1);
    for (unsigned u = 0; u < US_MAX_TEX_COORDS; u++)
        for (unsigned p = 0; p < 2; p++) {
            expect(&gl, ref(US_STATE_TEXGEN, u, p, 0, 0), 1, 0, 0, 0);
            expect(&gl, ref(US_STATE_TEXGEN, u, p, 1, 0), 0, 1, 0, 0);
            expect(&gl, ref(US_STATE_TEXGEN, u, p, 2, 0), 0, 0, 0, 0);
            expect(&gl, ref(US_STATE_TEXGEN, u, p, 3, 0), 0, 0, 0, 0);
        }
    expect(&gl, ref(US_STATE_FOG_COLOR, 0, 0, 0, 0), 0, 0, 0, 0);
    expect(&gl, ref(US_STATE_FOG_PARAMS, 0, 0, 0, 0), 1, 0, 1, 1);
    for (unsigned p = 0; p < US_MAX_CLIP_PLANES; p++)
        expect(&gl, ref(US_STATE_CLIP_PLANE, p, 0, 0, 0), 0, 0, 0, 0);
    expect(&gl, ref(US_STATE_POINT_SIZE, 0, 0, 0, 0), 1, 0, 1, 1);
    expect(&gl, ref(US_STATE_POINT_ATTENUATION, 0, 0, 0, 0), 1, 0, 0, 1);
    expect(&gl, ref(US_STATE_TEXENV_COLOR, 3, 0, 0, 0), 0, 0, 0, 0);
    expect(&gl, ref(US_STATE_DEPTH_RANGE, 0, 0, 0, 0), 0, 1, 1, 1);
    for (unsigned m = 0; m < US_MATRIX_COUNT; m++)
        for (unsigned mod = 0; mod < 4; mod++)
            for (unsigned row = 0; row < 4; row++) {
                float e[4] = { 0, 0, 0, 0 };
                e[row] = 1;
                expect(&gl, ref(US_STATE_MATRIX_ROW, m, 0, mod, row),
                       e[0], e[1], e[2], e[3]);
            }
    for (unsigned i = 0; i < US_MAX_ENV_PARAMS; i++)
        ck_assert(gl.env[0][i][0] == 0 && gl.env[1][i][3] == 0);
}
END_TEST

START_TEST(material_light_and_products)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    struct us_material *back = &gl.material[US_FACE_BACK];
    memcpy(back->ambient, (float[4]){ 0.5f, 0.25f, 2, 0.75f }, 16);
    memcpy(back->diffuse, (float[4]){ 1, 2, 3, 0.5f }, 16);
    memcpy(back->specular, (float[4]){ 4, 5, 6, 0.125f }, 16);
    memcpy(back->emission, (float[4]){ 0.5f, 1, 1.5f, 9 }, 16);
    back->shininess = 64;
    expect(&gl, ref(US_STATE_MATERIAL, US_FACE_BACK, US_PROP_SHININESS, 0, 0),
           64, 0, 0, 1);
    expect(&gl, ref(US_STATE_MATERIAL, US_FACE_BACK, US_PROP_EMISSION, 0, 0),
           0.5f, 1, 1.5f, 9);
    expect(&gl, ref(US_STATE_MATERIAL, US_FACE_FRONT, US_PROP_SHININESS, 0, 0),
           0, 0, 0, 1);

    struct us_light *l = &gl.light[3];
    memcpy(l->ambient, (float[4]){ 2, 4, 8, 0.5f }, 16);
    memcpy(l->diffuse, (float[4]){ 0.5f, 0.5f, 0.5f, 0.25f }, 16);
    memcpy(l->specular, (float[4]){ 1, 0, 2, 3 }, 16);
    memcpy(l->position, (float[4]){ 3, 0, 4, 0 }, 16);
    memcpy(l->attenuation, (float[4]){ 1, 0.5f, 0.25f, 16 }, 16);
    memcpy(l->spot_direction, (float[4]){ 0, -1, 0, 0.5f }, 16);
    expect(&gl, ref(US_STATE_LIGHT, 3, US_PROP_AMBIENT, 0, 0), 2, 4, 8, 0.5f);
    expect(&gl, ref(US_STATE_LIGHT, 3, US_PROP_SPECULAR, 0, 0), 1, 0, 2, 3);
    expect(&gl, ref(US_STATE_LIGHT, 3, US_PROP_POSITION, 0, 0), 3, 0, 4, 0);
    expect(&gl, ref(US_STATE_LIGHT, 3, US_PROP_ATTENUATION, 0, 0),
           1, 0.5f, 0.25f, 16);
    expect(&gl, ref(US_STATE_LIGHT, 3, US_PROP_SPOT_DIRECTION, 0, 0),
           0, -1, 0, 0.5f);
    /* P = (0.6, 0, 0.8); P + (0,0,1) = (0.6, 0, 1.8); |.| = sqrt(3.6) */
    double n = sqrt(3.6);
    expect_near(&gl, ref(US_STATE_LIGHT, 3, US_PROP_HALF, 0, 0),
                (float)(0.6 / n), 0, (float)(1.8 / n), 1);
    /* local light: P is the direction to xyz / w */
    memcpy(l->position, (float[4]){ 0, 6, 0, 2 }, 16);
    expect_near(&gl, ref(US_STATE_LIGHT, 3, US_PROP_HALF, 0, 0),
                0, (float)sqrt(0.5), (float)sqrt(0.5), 1);

    /* products: light colour x material colour, alpha from the material */
    expect(&gl, ref(US_STATE_LIGHTPROD, 3, US_FACE_BACK, US_PROP_AMBIENT, 0),
           1, 1, 16, 0.75f);
    expect(&gl, ref(US_STATE_LIGHTPROD, 3, US_FACE_BACK, US_PROP_DIFFUSE, 0),
           0.5f, 1, 1.5f, 0.5f);
    expect(&gl, ref(US_STATE_LIGHTPROD, 3, US_FACE_BACK, US_PROP_SPECULAR, 0),
           4, 0, 12, 0.125f);
    /* scene colour: ambient x material ambient + emission, diffuse alpha */
    memcpy(gl.lightmodel_ambient, (float[4]){ 2, 4, 0.5f, 7 }, 16);
    expect(&gl, ref(US_STATE_LIGHTMODEL_AMBIENT, 0, 0, 0, 0), 2, 4, 0.5f, 7);
    expect(&gl, ref(US_STATE_LIGHTMODEL_SCENECOLOR, US_FACE_BACK, 0, 0, 0),
           1.5f, 2, 2.5f, 0.5f);
}
END_TEST

START_TEST(other_items)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    memcpy(gl.texgen[5][US_TEXGEN_OBJECT][2], (float[4]){ 1, 2, 3, 4 }, 16);
    memcpy(gl.texgen[5][US_TEXGEN_EYE][3], (float[4]){ 5, 6, 7, 8 }, 16);
    expect(&gl, ref(US_STATE_TEXGEN, 5, US_TEXGEN_OBJECT, 2, 0), 1, 2, 3, 4);
    expect(&gl, ref(US_STATE_TEXGEN, 5, US_TEXGEN_EYE, 3, 0), 5, 6, 7, 8);
    expect(&gl, ref(US_STATE_TEXGEN, 5, US_TEXGEN_EYE, 2, 0), 0, 0, 0, 0);

    memcpy(gl.fog_color, (float[4]){ 0.25f, 0.5f, 0.75f, 1 }, 16);
    gl.fog_density = 0.5f;
    gl.fog_start = 2;
    gl.fog_end = 6;
    expect(&gl, ref(US_STATE_FOG_COLOR, 0, 0, 0, 0), 0.25f, 0.5f, 0.75f, 1);
    expect(&gl, ref(US_STATE_FOG_PARAMS, 0, 0, 0, 0), 0.5f, 2, 6, 0.25f);
    gl.fog_end = 2;  /* 1/(end-start) undefined: the model gives 0 */
    expect(&gl, ref(US_STATE_FOG_PARAMS, 0, 0, 0, 0), 0.5f, 2, 2, 0);

    memcpy(gl.clip_plane[5], (float[4]){ 1, -1, 2, -2 }, 16);
    expect(&gl, ref(US_STATE_CLIP_PLANE, 5, 0, 0, 0), 1, -1, 2, -2);
    expect(&gl, ref(US_STATE_CLIP_PLANE, US_MAX_CLIP_PLANES, 0, 0, 0),
           0, 0, 0, 0);

    gl.point_size = 4;
    gl.point_size_min = 2;
    gl.point_size_max = 8;
    gl.point_fade = 3;
    memcpy(gl.point_attenuation, (float[4]){ 1, 2, 3, 1 }, 16);
    expect(&gl, ref(US_STATE_POINT_SIZE, 0, 0, 0, 0), 4, 2, 8, 3);
    expect(&gl, ref(US_STATE_POINT_ATTENUATION, 0, 0, 0, 0), 1, 2, 3, 1);

    memcpy(gl.texenv_color[15], (float[4]){ 0.5f, 0, 1, 0.25f }, 16);
    expect(&gl, ref(US_STATE_TEXENV_COLOR, 15, 0, 0, 0), 0.5f, 0, 1, 0.25f);
    expect(&gl, ref(US_STATE_TEXENV_COLOR, US_MAX_TEX_UNITS, 0, 0, 0),
           0, 0, 0, 0);

    gl.depth_near = 0.25f;
    gl.depth_far = 0.75f;
    expect(&gl, ref(US_STATE_DEPTH_RANGE, 0, 0, 0, 0), 0.25f, 0.75f, 0.5f, 1);

    /* out of range and unknown items read as zero */
    expect(&gl, ref(US_STATE_LIGHT, US_MAX_LIGHTS, US_PROP_DIFFUSE, 0, 0),
           0, 0, 0, 0);
    expect(&gl, ref(US_STATE_ITEM_COUNT, 0, 0, 0, 0), 0, 0, 0, 0);
}
END_TEST

/* A well-conditioned matrix with a known layout: rows are the spec's rows. */
static const us_mat4 M = {
    2, 0, 0, 1,
    0, 4, 1, 2,
    1, 0, 8, 3,
    0, 0, 0, 1,
};

START_TEST(matrix_rows_and_modifiers)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    memcpy(gl.program[7], M, sizeof M);
    memcpy(gl.texture[2], M, sizeof M);

    /* plain rows: row 1 is (0, 4, 1, 2) */
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_PROGRAM, 7, US_MOD_NONE, 1),
           0, 4, 1, 2);
    /* transpose: row 0 is column 0 */
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_TEXTURE, 2,
                    US_MOD_TRANSPOSE, 0), 2, 0, 1, 0);

    us_mat4 inv, invt, prod;
    mat_rows(&gl, US_MATRIX_PROGRAM, 7, US_MOD_INVERSE, inv);
    us_mat4_mul(prod, inv, M);
    for (int i = 0; i < 16; i++)
        ck_assert_msg(fabsf(prod[i] - (i % 5 == 0)) < 1e-6f,
                      "inverse x M [%d] = %g", i, prod[i]);
    us_mat4_mul(prod, M, inv);
    for (int i = 0; i < 16; i++)
        ck_assert(fabsf(prod[i] - (i % 5 == 0)) < 1e-6f);

    mat_rows(&gl, US_MATRIX_PROGRAM, 7, US_MOD_INVTRANS, invt);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            ck_assert(invt[4 * r + c] == inv[4 * c + r]);

    /* unmodelled and out-of-range matrices */
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_PALETTE, 3, US_MOD_NONE, 2),
           0, 0, 1, 0);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_PROGRAM,
                    US_MAX_PROGRAM_MATRICES, US_MOD_NONE, 0), 0, 0, 0, 0);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_PROGRAM, 0, US_MOD_NONE, 4),
           0, 0, 0, 0);
}
END_TEST

START_TEST(mvp_is_projection_times_modelview)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    /* P scales x by 2; M translates x by 3: (P*M) row 0 = (2, 0, 0, 6),
     * whereas M*P would give (2, 0, 0, 3). */
    gl.projection[0] = 2;
    gl.modelview[3] = 3;
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_MVP, 0, US_MOD_NONE, 0),
           2, 0, 0, 6);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_MODELVIEW, 0, US_MOD_NONE,
                    0), 1, 0, 0, 3);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_PROJECTION, 0,
                    US_MOD_INVERSE, 0), 0.5f, 0, 0, 0);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_MVP, 0, US_MOD_INVERSE, 0),
           0.5f, 0, 0, -3);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_MVP, 0, US_MOD_INVTRANS,
                    3), -3, 0, 0, 1);
    /* modelview[1] (vertex blend) is not modelled: identity */
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_MODELVIEW, 1, US_MOD_NONE,
                    0), 1, 0, 0, 0);
}
END_TEST

START_TEST(singular_inverse_is_zero)
{
    us_mat4 z, out;
    memset(z, 0, sizeof z);
    z[0] = 1;
    z[5] = 1;  /* rank 2 */
    ck_assert(!us_mat4_inverse(out, z));
    for (int i = 0; i < 16; i++)
        ck_assert(out[i] == 0);

    struct us_glstate gl;
    us_glstate_init(&gl);
    memset(gl.projection, 0, sizeof gl.projection);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_PROJECTION, 0,
                    US_MOD_INVERSE, 2), 0, 0, 0, 0);
    expect(&gl, ref(US_STATE_MATRIX_ROW, US_MATRIX_MVP, 0, US_MOD_INVTRANS,
                    0), 0, 0, 0, 0);
}
END_TEST

START_TEST(inverse_needs_pivoting)
{
    /* a zero on the diagonal: a permutation with scaling */
    static const us_mat4 p = {
        0, 2, 0, 0,
        4, 0, 0, 0,
        0, 0, 0, 8,
        0, 0, 0.5f, 0,
    };
    us_mat4 inv, prod;
    ck_assert(us_mat4_inverse(inv, p));
    us_mat4_mul(prod, p, inv);
    for (int i = 0; i < 16; i++)
        ck_assert(prod[i] == (i % 5 == 0));
    ck_assert(inv[1] == 0.25f && inv[4] == 0.5f && inv[11] == 2 &&
              inv[14] == 0.125f);
}
END_TEST

START_TEST(resolve_params)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    memcpy(gl.env[US_STAGE_FRAGMENT][7], (float[4]){ 1, 2, 3, 4 }, 16);
    memcpy(gl.env[US_STAGE_VERTEX][7], (float[4]){ 9, 9, 9, 9 }, 16);
    memcpy(gl.local[US_STAGE_FRAGMENT][255], (float[4]){ 5, 6, 7, 8 }, 16);

    struct us_param params[4] = {
        { .kind = US_PARAM_CONST, .value = { 0.5f, -1, 2, 3 }, .decl = -1 },
        { .kind = US_PARAM_ENV, .index = 7, .decl = -1 },
        { .kind = US_PARAM_LOCAL, .index = 255, .decl = -1 },
        { .kind = US_PARAM_STATE, .decl = -1,
          .state = { US_STATE_DEPTH_RANGE, 0, 0, 0, 0 } },
    };
    struct us_program prog = { .stage = US_STAGE_FRAGMENT, .params = params,
                               .nparams = 4 };
    us_vec4 out[4];
    us_resolve_params(&prog, &gl, out);
    ck_assert(!memcmp(out[0], (float[4]){ 0.5f, -1, 2, 3 }, 16));
    ck_assert(!memcmp(out[1], (float[4]){ 1, 2, 3, 4 }, 16));
    ck_assert(!memcmp(out[2], (float[4]){ 5, 6, 7, 8 }, 16));
    ck_assert(!memcmp(out[3], (float[4]){ 0, 1, 1, 1 }, 16));

    prog.stage = US_STAGE_VERTEX;
    us_resolve_params(&prog, &gl, out);
    ck_assert(!memcmp(out[1], (float[4]){ 9, 9, 9, 9 }, 16));
    ck_assert(!memcmp(out[2], (float[4]){ 0, 0, 0, 0 }, 16));

    /* a compute program reads its own stage's parameters */
    memcpy(gl.local[US_STAGE_COMPUTE][255], (float[4]){ 4, 3, 2, 1 }, 16);
    memcpy(gl.env[US_STAGE_COMPUTE][7], (float[4]){ 7, 7, 7, 7 }, 16);
    prog.stage = US_STAGE_COMPUTE;
    us_resolve_params(&prog, &gl, out);
    ck_assert(!memcmp(out[1], (float[4]){ 7, 7, 7, 7 }, 16));
    ck_assert(!memcmp(out[2], (float[4]){ 4, 3, 2, 1 }, 16));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("glstate");
    TCase *tc = tcase_create("state");
    tcase_add_test(tc, defaults);
    tcase_add_test(tc, material_light_and_products);
    tcase_add_test(tc, other_items);
    tcase_add_test(tc, matrix_rows_and_modifiers);
    tcase_add_test(tc, mvp_is_projection_times_modelview);
    tcase_add_test(tc, singular_inverse_is_zero);
    tcase_add_test(tc, inverse_needs_pivoting);
    tcase_add_test(tc, resolve_params);
    suite_add_tcase(s, tc);
    return s;
}
