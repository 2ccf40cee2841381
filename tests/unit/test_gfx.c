/* Unit tests of the 3D pipeline: fill rule (the rasterizer's too), clipping (user clip planes
 * too), perspective-correct, flat and noperspective interpolation, texture wrap modes and mip selection, the RGBA8 conversion, PNG and OBJ errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/divide.h"
#include "gfx/gfx.h"
#include "gfx/unorm8.h"

/* Rasterize a triangle into a coverage counter. */
static void cover(int *count, unsigned w, unsigned h, const float x[3],
                  const float y[3])
{
    struct gfx_tri_setup s;
    unsigned perm[3];
    if (!gfx_tri_setup(&s, x, y, w, h, perm))
        return;
    for (int py = s.ymin; py <= s.ymax; py++)
        for (int px = s.xmin; px <= s.xmax; px++) {
            int64_t e[3];
            if (gfx_tri_edges(&s, px, py, e))
                count[py * (int)w + px]++;
        }
}

START_TEST(fill_rule_square)
{
    /* A square split along its diagonal, corners exactly on pixel
     * centres and edges through them: every pixel at most once; centres
     * on the left and top (y = 12.5, y is up) edges belong to it, those
     * on the right and bottom edges do not. */
    enum { W = 16, H = 16 };
    int count[W * H] = { 0 };
    float ax[3] = { 2.5f, 12.5f, 12.5f }, ay[3] = { 2.5f, 2.5f, 12.5f };
    float bx[3] = { 2.5f, 12.5f, 2.5f }, by[3] = { 2.5f, 12.5f, 12.5f };
    cover(count, W, H, ax, ay);
    cover(count, W, H, bx, by);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bool inside = x >= 2 && x < 12 && y > 2 && y <= 12;
            ck_assert_msg(count[y * W + x] == (inside ? 1 : 0),
                          "pixel %d,%d covered %d times", x, y,
                          count[y * W + x]);
        }
}
END_TEST

START_TEST(fill_rule_fan)
{
    /* A fan of 12 triangles around an off-grid centre, closed: no pixel
     * inside the polygon is missed or covered twice (either winding). */
    enum { W = 32, H = 32, N = 12 };
    for (int flip = 0; flip < 2; flip++) {
        int count[W * H] = { 0 };
        float cx = 15.3f, cy = 16.7f;
        for (int i = 0; i < N; i++) {
            float a0 = 2 * (float)GFX_PI * i / N, a1 = 2 * (float)GFX_PI * (i + 1) / N;
            float x[3] = { cx, cx + 12 * cosf(a0), cx + 12 * cosf(a1) };
            float y[3] = { cy, cy + 12 * sinf(a0), cy + 12 * sinf(a1) };
            if (flip) {
                float t = x[1]; x[1] = x[2]; x[2] = t;
                t = y[1]; y[1] = y[2]; y[2] = t;
            }
            cover(count, W, H, x, y);
        }
        for (int p = 0; p < W * H; p++)
            ck_assert_int_le(count[p], 1);
        /* the pixel at the centre and a ring around it are covered */
        ck_assert_int_eq(count[16 * W + 15], 1);
        ck_assert_int_eq(count[16 * W + 20], 1);
        ck_assert_int_eq(count[10 * W + 15], 1);
    }
}
END_TEST

static struct gfx_cvert cv(float x, float y, float z, float w, float t)
{
    struct gfx_cvert v;
    memset(&v, 0, sizeof v);
    v.pos[0] = x, v.pos[1] = y, v.pos[2] = z, v.pos[3] = w;
    v.vary[US_VOUT_TEXCOORD0][0] = t;
    return v;
}

START_TEST(clip_near_plane)
{
    uint32_t mask = 1u << US_VOUT_TEXCOORD0;
    struct gfx_cvert a = cv(0, 0, -3, 1, 0), b = cv(0.5f, 0, 0, 1, 1),
                     c = cv(0, 0.5f, 0, 1, 1);
    const struct gfx_cvert *in[3] = { &a, &b, &c };
    struct gfx_cvert out[GFX_CLIP_MAX_VERTS];
    unsigned n = gfx_clip_triangle(in, mask, out);
    ck_assert_uint_eq(n, 4);
    for (unsigned i = 0; i < n; i++)
        ck_assert(out[i].pos[2] >= -out[i].pos[3] - 1e-6f);
    /* the new vertices lie at z = -w, 2/3 of the way from a: t = 2/3 */
    int found = 0;
    for (unsigned i = 0; i < n; i++)
        if (fabsf(out[i].pos[2] + 1) < 1e-6f) {
            ck_assert_float_eq_tol(out[i].vary[US_VOUT_TEXCOORD0][0],
                                   2.0f / 3.0f, 1e-6f);
            found++;
        }
    ck_assert_int_eq(found, 2);
}
END_TEST

START_TEST(clip_trivial)
{
    struct gfx_cvert a = cv(0, 0, 0, 1, 0), b = cv(1, 0, 0, 1, 1),
                     c = cv(0, 1, 0, 1, 1);
    const struct gfx_cvert *in[3] = { &a, &b, &c };
    struct gfx_cvert out[GFX_CLIP_MAX_VERTS];
    ck_assert_uint_eq(gfx_clip_triangle(in, 0, out), 3);
    ck_assert(!memcmp(out[1].pos, b.pos, sizeof b.pos));
    /* wholly beyond the far plane, or behind the eye: nothing */
    struct gfx_cvert d = cv(0, 0, 2, 1, 0), e = cv(1, 0, 3, 1, 0),
                     f = cv(0, 1, 2, 1, 0);
    const struct gfx_cvert *far[3] = { &d, &e, &f };
    ck_assert_uint_eq(gfx_clip_triangle(far, 0, out), 0);
    struct gfx_cvert g = cv(0, 0, 0, -1, 0), h = cv(1, 0, 0, -1, 0),
                     k = cv(0, 1, 0, -2, 0);
    const struct gfx_cvert *behind[3] = { &g, &h, &k };
    ck_assert_uint_eq(gfx_clip_triangle(behind, 0, out), 0);
    /* beyond the guard band in x: clipped to |x| <= 4 w */
    struct gfx_cvert l = cv(0, 0, 0, 1, 0), m = cv(10, 0, 0, 1, 0),
                     o = cv(0, 1, 0, 1, 0);
    const struct gfx_cvert *wide[3] = { &l, &m, &o };
    unsigned n = gfx_clip_triangle(wide, 0, out);
    ck_assert_uint_eq(n, 4);
    for (unsigned i = 0; i < n; i++)
        ck_assert(out[i].pos[0] <= GFX_GUARD_BAND * out[i].pos[3] + 1e-5f);
}
END_TEST

START_TEST(clip_user_planes)
{
    /* Clip distance 0 is 1 at a and c, -1 at b (w = 3): the new vertices
     * lie halfway along a-b and c-b in clip space.  texcoord[0] is
     * carried perspective-correct (0.5 there), texcoord[1] noperspective:
     * the new vertex on a-b, clip (1.5, 0, 0, 2), is at window x 0.75 of
     * the way from a (x 0) to b (x 1), so 0.75. */
    struct gfx_cvert a = cv(0, 0, 0, 1, 0), b = cv(3, 0, 0, 3, 1),
                     c = cv(0, 0.5f, 0, 1, 0);
    a.vary[US_VOUT_CLIPDIST0][0] = 1;
    b.vary[US_VOUT_CLIPDIST0][0] = -1;
    c.vary[US_VOUT_CLIPDIST0][0] = 1;
    a.vary[US_VOUT_TEXCOORD0 + 1][0] = 0;
    b.vary[US_VOUT_TEXCOORD0 + 1][0] = 1;
    c.vary[US_VOUT_TEXCOORD0 + 1][0] = 0;
    const struct gfx_cvert *in[3] = { &a, &b, &c };
    struct gfx_cvert out[GFX_CLIP_MAX_VERTS];
    uint32_t t0 = 1u << US_VOUT_TEXCOORD0, t1 = 1u << (US_VOUT_TEXCOORD0 + 1);
    struct gfx_clip_spec spec = { .vary_mask = t0 | t1, .linear_mask = t1,
                                  .planes = 1 };
    unsigned n = gfx_clip_polygon(in, &spec, out);
    ck_assert_uint_eq(n, 4);
    int found = 0;
    for (unsigned i = 0; i < n; i++) {
        ck_assert(out[i].vary[US_VOUT_CLIPDIST0][0] >= -1e-6f);
        if (fabsf(out[i].pos[3] - 2) < 1e-6f && fabsf(out[i].pos[1]) < 1e-6f) {
            ck_assert_float_eq_tol(out[i].pos[0], 1.5f, 1e-6f);
            ck_assert_float_eq_tol(out[i].vary[US_VOUT_TEXCOORD0][0], 0.5f, 1e-6f);
            ck_assert_float_eq_tol(out[i].vary[US_VOUT_TEXCOORD0 + 1][0], 0.75f,
                                   1e-6f);
            found++;
        }
    }
    ck_assert_int_eq(found, 1);
    /* the plane disabled, or no distance below 0: nothing clipped */
    spec.planes = 2;
    ck_assert_uint_eq(gfx_clip_polygon(in, &spec, out), 3);
    /* every distance below 0: nothing left */
    a.vary[US_VOUT_CLIPDIST0][0] = c.vary[US_VOUT_CLIPDIST0][0] = -0.5f;
    spec.planes = 1;
    ck_assert_uint_eq(gfx_clip_polygon(in, &spec, out), 0);
}
END_TEST

static struct us_program assemble(const char *text)
{
    struct us_program p;
    struct us_diag d;
    ck_assert_msg(us_assemble(text, strlen(text), US_STAGE_ANY, &p, &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    return p;
}

/* An RGBA8 framebuffer (gfx_fb_alloc_rgba8, what a scene without
 * blending renders on) gives the bytes and hash the float one's export
 * does: random overlapping triangles of interpolated colours (some over
 * 1 and below 0), whole quads and edges, with and without the depth
 * test, on one and two host threads; a draw that blends, or tests depth
 * without a depth buffer, is refused. */
START_TEST(rgba8_framebuffer)
{
    enum { W = 67, H = 45, TRIS = 40 };
    struct us_program vp = assemble(
        "!!ARBvp1.0\nMOV result.position, vertex.position;\n"
        "MOV result.color, vertex.color;\nEND\n");
    struct us_program fp = assemble(
        "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n");
    struct us_glstate gl;
    us_glstate_init(&gl);
    struct us_diag d;
    struct gfx_mesh m;
    ck_assert(gfx_mesh_alloc(&m, 3 * TRIS, GFX_ALL_ATTRS, TRIS, NULL, &d));
    uint64_t seed = 0x5eed0f8b1ull;
    for (unsigned v = 0; v < 3 * TRIS; v++) {
        float a[8];
        for (int k = 0; k < 8; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a[k] = (float)((seed >> 40) % 24001) / 10000.0f - 1.2f;
        }
        float pos[4] = { a[0], a[1], a[2] * 0.8f, 1 };
        memcpy(m.attr[GFX_ATTR_POSITION][v], pos, sizeof pos);
        memcpy(m.attr[GFX_ATTR_COLOR0][v], a + 4, 4 * sizeof *a);
        m.idx[v] = v;
    }
    static const float clear[4] = { 0.25f, 0.5f, 1.5f, -1.0f };
    for (int depth = 0; depth < 2; depth++)
        for (unsigned jobs = 1; jobs <= 2; jobs++) {
            struct gfx_state st;
            gfx_state_init(&st);
            st.depth_test = st.depth_write = depth;
            st.cull = GFX_CULL_NONE;
            struct gfx_draw dr = { .mesh = &m, .vp = &vp, .fp = &fp,
                                   .gl = &gl, .state = &st,
                                   .math = &us_math_exact,
                                   .backend = &gfx_backend_functional,
                                   .jobs = jobs };
            uint8_t *img[2];
            uint64_t hash[2];
            struct gfx_stats stats[2] = { { 0 }, { 0 } };
            for (int k = 0; k < 2; k++) {
                struct gfx_framebuffer fb;
                ck_assert(k ? gfx_fb_alloc_rgba8(&fb, W, H, depth, &d)
                            : gfx_fb_alloc(&fb, W, H, &d));
                ck_assert((fb.rgba8 != NULL) == k);
                ck_assert((fb.depth != NULL) == (!k || depth));
                gfx_fb_clear(&fb, clear, 1.0f);
                ck_assert_msg(gfx_draw_mesh(&fb, &dr, &stats[k], &d), "%s",
                              d.msg);
                img[k] = gfx_fb_rgba8(&fb, jobs, &hash[k]);
                ck_assert_ptr_nonnull(img[k]);
            }
            ck_assert_int_eq(memcmp(img[0], img[1], (size_t)W * H * 4), 0);
            ck_assert_uint_eq(hash[0], hash[1]);
            ck_assert_uint_eq(stats[0].written, stats[1].written);
            ck_assert_uint_gt(stats[0].written, W * H / 2);
            if (depth)
                ck_assert_uint_gt(stats[0].depth_failed, 0);
            free(img[0]);
            free(img[1]);
        }
    /* what an RGBA8 framebuffer lacks */
    for (int k = 0; k < 2; k++) {
        struct gfx_state st;
        gfx_state_init(&st);
        st.blend = k == 0;
        st.depth_test = k == 1;
        struct gfx_framebuffer fb;
        ck_assert(gfx_fb_alloc_rgba8(&fb, W, H, false, &d));
        struct gfx_draw dr = { .mesh = &m, .vp = &vp, .fp = &fp, .gl = &gl,
                               .state = &st, .math = &us_math_exact,
                               .backend = &gfx_backend_functional };
        struct gfx_stats stats = { 0 };
        ck_assert(!gfx_draw_mesh(&fb, &dr, &stats, &d));
        ck_assert_str_eq(d.msg, k ? "a draw that tests depth needs a depth "
                                    "buffer"
                                  : "a draw that blends needs a float colour "
                                    "buffer");
        gfx_fb_free(&fb);
    }
    gfx_mesh_free(&m);
    us_program_free(&vp);
    us_program_free(&fp);
}
END_TEST

/* The pipeline's rasterizer (edge functions stepped along quad rows, the
 * quads wholly outside a triangle skipped) covers exactly the pixels
 * gfx_tri_edges covers, on random triangles of every size and slope in
 * an odd-sized viewport: each pixel written iff covered, and the count. */
START_TEST(raster_matches_edges)
{
    enum { W = 37, H = 29 };
    struct us_program vp = assemble(
        "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND\n");
    struct us_program fp = assemble(
        "!!ARBfp1.0\nMOV result.color, 1.0;\nEND\n");
    struct us_glstate gl;
    us_glstate_init(&gl);
    struct gfx_state st;
    gfx_state_init(&st);
    st.depth_test = false;
    struct us_diag d;
    uint64_t seed = 0x7a57e125ull, covered = 0;
    for (int n = 0; n < 120; n++) {
        struct gfx_mesh m;
        ck_assert(gfx_mesh_alloc(&m, 3, GFX_ALL_ATTRS, 1, NULL, &d));
        float wx[3], wy[3];
        /* small, large and sliver triangles inside the viewport */
        float scale = (n % 3 == 0) ? 0.1f : 1.0f;
        float cx = 0, cy = 0;
        for (int i = 0; i < 3; i++) {
            float xy[2];
            for (int k = 0; k < 2; k++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                xy[k] = (float)((seed >> 40) % 20001) / 10000.0f - 1.0f;
            }
            if (i == 0) {
                cx = xy[0];
                cy = xy[1];
            } else {
                xy[0] = cx + (xy[0] - cx) * scale;
                xy[1] = cy + (xy[1] - cy) * scale;
            }
            float pos[4] = { xy[0], xy[1], 0, 1 };
            memcpy(m.attr[GFX_ATTR_POSITION][i], pos, sizeof pos);
            m.idx[i] = (uint32_t)i;
            /* the viewport transform of draw_polygon, w = 1 */
            wx[i] = (pos[0] * (1.0f / pos[3]) + 1.0f) * (0.5f * (float)W);
            wy[i] = (pos[1] * (1.0f / pos[3]) + 1.0f) * (0.5f * (float)H);
        }
        int count[W * H] = { 0 };
        cover(count, W, H, wx, wy);
        struct gfx_framebuffer fb;
        ck_assert(gfx_fb_init(&fb, W, H, &d));
        struct gfx_stats stats = { 0 };
        struct gfx_draw dr = { .mesh = &m, .vp = &vp, .fp = &fp, .gl = &gl,
                               .state = &st, .math = &us_math_exact,
                               .backend = &gfx_backend_functional };
        ck_assert(gfx_draw_mesh(&fb, &dr, &stats, &d));
        uint64_t want = 0;
        for (int i = 0; i < W * H; i++) {
            ck_assert_int_le(count[i], 1);
            want += (uint64_t)count[i];
            ck_assert_msg((fb.color[4 * i] == 1.0f) == (count[i] == 1),
                          "triangle %d pixel %d", n, i);
        }
        ck_assert_uint_eq(stats.fragments, want);
        covered += want;
        gfx_fb_free(&fb);
        gfx_mesh_free(&m);
    }
    ck_assert_uint_gt(covered, 4000);
    us_program_free(&vp);
    us_program_free(&fp);
}
END_TEST

START_TEST(perspective_interpolation)
{
    /* Clip-space positions given directly; w = 2 at vertex 1.  The
     * fragment colour shows the interpolated texcoord. */
    struct us_program vp = assemble(
        "!!ARBvp1.0\nMOV result.position, vertex.position;\n"
        "MOV result.texcoord[0], vertex.texcoord[0];\nEND\n");
    struct us_program fp = assemble(
        "!!ARBfp1.0\nMOV result.color, fragment.texcoord[0];\nEND\n");
    struct gfx_mesh m;
    struct us_diag d;
    ck_assert(gfx_mesh_alloc(&m, 3, GFX_ALL_ATTRS, 1, NULL, &d));
    float pos[3][4] = { { -1, -1, 0, 1 }, { 2, -2, 0, 2 }, { -1, 1, 0, 1 } };
    float tc[3] = { 0, 1, 0 };
    for (int i = 0; i < 3; i++) {
        memcpy(m.attr[GFX_ATTR_POSITION][i], pos[i], sizeof pos[i]);
        m.attr[GFX_ATTR_TEXCOORD0][i][0] = tc[i];
        m.idx[i] = (uint32_t)i;
    }
    struct us_glstate gl;
    us_glstate_init(&gl);
    struct gfx_state st;
    gfx_state_init(&st);
    struct gfx_framebuffer fb;
    ck_assert(gfx_fb_init(&fb, 16, 16, &d));
    struct gfx_stats stats = { 0 };
    struct gfx_draw dr = { .mesh = &m, .vp = &vp, .fp = &fp, .gl = &gl,
                           .state = &st, .math = &us_math_exact,
                           .backend = &gfx_backend_functional };
    ck_assert(gfx_draw_mesh(&fb, &dr, &stats, &d));
    /* centres with px + py < 15; the diagonal edge is a right edge */
    ck_assert_uint_eq(stats.fragments, 120);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++) {
            double x = (px + 0.5) / 8 - 1, y = (py + 0.5) / 8 - 1;
            double l1 = (x + 1) / 2, l2 = (y + 1) / 2, l0 = 1 - l1 - l2;
            if (l0 <= 0)
                continue;
            double u = (l1 / 2) / (l0 + l1 / 2 + l2);
            ck_assert_float_eq_tol(fb.color[4 * (py * 16 + px)], (float)u, 2e-6f);
        }
    gfx_fb_free(&fb);
    gfx_mesh_free(&m);
    us_program_free(&vp);
    us_program_free(&fp);
}
END_TEST

/* Draw the perspective_interpolation triangle with the fragment program
 * `fp_text`, vertex colours (1, 0, 0) (0, 1, 0) (0, 0, 1) and texcoords
 * (0, 1, 0), on 16 x 16 pixels; the per-draw state from st. */
static void draw_w2(struct us_program *fp, const struct gfx_state *st,
                    const char *vp_text, struct gfx_framebuffer *fb,
                    struct gfx_stats *stats)
{
    struct us_program vp = assemble(vp_text);
    struct gfx_mesh m;
    struct us_diag d;
    ck_assert(gfx_mesh_alloc(&m, 3, GFX_ALL_ATTRS, 1, NULL, &d));
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
    ck_assert(gfx_fb_init(fb, 16, 16, &d));
    struct gfx_draw dr = { .mesh = &m, .vp = &vp, .fp = fp, .gl = &gl,
                           .state = st, .math = &us_math_exact,
                           .backend = &gfx_backend_functional };
    memset(stats, 0, sizeof *stats);
    ck_assert(gfx_draw_mesh(fb, &dr, stats, &d));
    gfx_mesh_free(&m);
    us_program_free(&vp);
}

static const char vp_w2[] =
    "!!ARBvp1.0\nMOV result.position, vertex.position;\n"
    "MOV result.texcoord[0], vertex.texcoord[0];\n"
    "MOV result.texcoord[1], vertex.texcoord[0];\n"
    "MOV result.texcoord[2], vertex.color;\n"
    "MOV result.color, vertex.color;\nEND\n";

START_TEST(flat_and_noperspective)
{
    /* texcoord[0] smooth, texcoord[1] noperspective, texcoord[2] flat
     * (the interp bits the translator sets for GLSL's qualifiers), the
     * colour unqualified under glShadeModel(GL_FLAT): red = the
     * perspective-correct u, green = the window barycentric l1, blue =
     * the last vertex's blue (1), alpha = its colour's blue (1). */
    struct us_program fp = assemble(
        "!!ARBfp1.0\nMOV result.color.x, fragment.texcoord[0].x;\n"
        "MOV result.color.y, fragment.texcoord[1].x;\n"
        "MOV result.color.z, fragment.texcoord[2].z;\n"
        "MOV result.color.w, fragment.color.z;\nEND\n");
    fp.interp_linear = 1u << (US_FIN_TEXCOORD0 + 1);
    fp.interp_flat = 1u << (US_FIN_TEXCOORD0 + 2);
    struct gfx_state st;
    gfx_state_init(&st);
    st.flat_shade = true;
    struct gfx_framebuffer fb;
    struct gfx_stats stats;
    draw_w2(&fp, &st, vp_w2, &fb, &stats);
    ck_assert_uint_eq(stats.fragments, 120);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++) {
            double x = (px + 0.5) / 8 - 1, y = (py + 0.5) / 8 - 1;
            double l1 = (x + 1) / 2, l2 = (y + 1) / 2, l0 = 1 - l1 - l2;
            if (l0 <= 0)
                continue;
            const float *c = &fb.color[4 * (py * 16 + px)];
            double u = (l1 / 2) / (l0 + l1 / 2 + l2);
            ck_assert_float_eq_tol(c[0], (float)u, 2e-6f);
            ck_assert_float_eq_tol(c[1], (float)l1, 2e-6f);
            ck_assert_float_eq(c[2], 1.0f);
            ck_assert_float_eq(c[3], 1.0f);
        }
    gfx_fb_free(&fb);
    /* an explicit smooth colour ignores the shade model: alpha is the
     * perspective-correct weight of the last vertex */
    fp.interp_smooth = 1u << US_FIN_COLOR0;
    draw_w2(&fp, &st, vp_w2, &fb, &stats);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 16; px++) {
            double x = (px + 0.5) / 8 - 1, y = (py + 0.5) / 8 - 1;
            double l1 = (x + 1) / 2, l2 = (y + 1) / 2, l0 = 1 - l1 - l2;
            if (l0 <= 0)
                continue;
            double b2 = l2 / (l0 + l1 / 2 + l2);
            ck_assert_float_eq_tol(fb.color[4 * (py * 16 + px) + 3],
                                   (float)b2, 2e-6f);
        }
    gfx_fb_free(&fb);
    us_program_free(&fp);
}
END_TEST

START_TEST(clip_planes_draw)
{
    /* The same triangle; clip distance 0 = x (result.clipdistance[0].x)
     * keeps the pixels right of NDC x = 0; a program that writes no
     * distance is clipped by plane 1 (y >= 0) against its position. */
    struct us_program fp = assemble(
        "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n");
    struct gfx_state st;
    gfx_state_init(&st);
    struct gfx_framebuffer fb;
    struct gfx_stats stats;
    static const char vp_dist[] =
        "!!ARBvp1.0\nOPTION USHADER_extensions;\n"
        "MOV result.position, vertex.position;\n"
        "MOV result.clipdistance[0].x, vertex.position.x;\n"
        "MOV result.color, vertex.color;\nEND\n";
    draw_w2(&fp, &st, vp_dist, &fb, &stats);
    ck_assert_uint_eq(stats.fragments, 120);   /* no plane enabled */
    gfx_fb_free(&fb);
    st.clip_planes = 1;
    draw_w2(&fp, &st, vp_dist, &fb, &stats);
    /* centres with px >= 8 and px + py < 15: 7 + 6 + ... + 0 = 28 */
    ck_assert_uint_eq(stats.fragments, 28);
    for (int py = 0; py < 16; py++)
        for (int px = 0; px < 8; px++)
            ck_assert_float_eq(fb.color[4 * (py * 16 + px) + 3], 0.0f);
    gfx_fb_free(&fb);
    st.clip_planes = 2;
    draw_w2(&fp, &st, vp_w2, &fb, &stats);
    /* py >= 8: the same count by symmetry */
    ck_assert_uint_eq(stats.fragments, 28);
    gfx_fb_free(&fb);
    us_program_free(&fp);
}
END_TEST

START_TEST(wrap_modes)
{
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_REPEAT, -1, 4), 3);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_REPEAT, 4, 4), 0);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_REPEAT, -9, 4), 3);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_CLAMP, -5, 4), 0);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_CLAMP, 7, 4), 3);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_MIRROR, -1, 4), 0);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_MIRROR, 4, 4), 3);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_MIRROR, 7, 4), 0);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_MIRROR, 8, 4), 0);
    ck_assert_int_eq(gfx_wrap_index(GFX_WRAP_MIRROR, -5, 4), 3);

    /* Through the sampler: a 4x1 ramp, nearest, s = 1.1 and -0.1. */
    struct gfx_texture t;
    struct us_diag d;
    ck_assert(gfx_texture_alloc(&t, GFX_TEX_1D, 4, 1, 1, NULL, &d));
    for (unsigned i = 0; i < 4; i++)
        gfx_texel(&t.level[0], i, 0, 0)[0] = (float)i;
    t.filter = GFX_FILTER_NEAREST;
    float out[4], c1[4] = { 1.1f, 0, 0, 1 }, c2[4] = { -0.1f, 0, 0, 1 };
    t.wrap[0] = GFX_WRAP_REPEAT;
    gfx_texture_sample(&t, US_TEX_1D, c1, 0, out);
    ck_assert_float_eq(out[0], 0);
    gfx_texture_sample(&t, US_TEX_1D, c2, 0, out);
    ck_assert_float_eq(out[0], 3);
    t.wrap[0] = GFX_WRAP_MIRROR;
    gfx_texture_sample(&t, US_TEX_1D, c1, 0, out);
    ck_assert_float_eq(out[0], 3);
    gfx_texture_sample(&t, US_TEX_1D, c2, 0, out);
    ck_assert_float_eq(out[0], 0);
    t.wrap[0] = GFX_WRAP_CLAMP;
    gfx_texture_sample(&t, US_TEX_1D, c1, 0, out);
    ck_assert_float_eq(out[0], 3);
    /* bilinear at the clamped edge gives the edge texel exactly */
    t.filter = GFX_FILTER_BILINEAR;
    gfx_texture_sample(&t, US_TEX_1D, c2, 0, out);
    ck_assert_float_eq(out[0], 0);
    /* NaN and infinite coordinates or bias: defined results, no UB */
    float nan4[4] = { NAN, NAN, NAN, NAN }, inf4[4] = { INFINITY, -INFINITY, 1e30f, 1 };
    t.filter = GFX_FILTER_TRILINEAR;
    ck_assert(gfx_texture_mipmap(&t, &d));
    gfx_texture_sample(&t, US_TEX_1D, nan4, NAN, out);
    gfx_texture_sample(&t, US_TEX_1D, inf4, INFINITY, out);
    gfx_texture_sample(&t, US_TEX_1D, inf4, -INFINITY, out);
    t.filter = GFX_FILTER_MIP_NEAREST;
    gfx_texture_sample(&t, US_TEX_1D, nan4, NAN, out);
    gfx_texture_sample(&t, US_TEX_1D, inf4, 1e30f, out);
    float dxn[3] = { NAN, 0, 0 }, dxi[3] = { INFINITY, 0, 0 };
    ck_assert(isfinite(gfx_lod(dxn, dxn, 0)));
    ck_assert(isfinite(gfx_lod(dxi, dxi, 0)));
    ck_assert(isfinite(gfx_lod(dxi, dxi, NAN)));
    gfx_texture_free(&t);
}
END_TEST

START_TEST(mip_selection)
{
    float dx[3] = { 2, 0, 0 }, dy[3] = { 0, 1, 0 };
    ck_assert_float_eq(gfx_lod(dx, dy, 0), 1.0f);
    ck_assert_float_eq(gfx_lod(dx, dy, 0.5f), 1.5f);
    float ex[3] = { 0, 0, 0 }, ey[3] = { 0, 8, 0 };
    ck_assert_float_eq(gfx_lod(ex, ey, 0), 3.0f);

    /* 8x8 texture whose levels hold 0, 1, 2, 3 in red. */
    struct gfx_texture t;
    struct us_diag d;
    ck_assert(gfx_texture_alloc(&t, GFX_TEX_2D, 8, 8, 1, NULL, &d));
    ck_assert(gfx_texture_mipmap(&t, &d));
    ck_assert_uint_eq(t.nlevels, 4);
    ck_assert_uint_eq(t.level[3].w, 1);
    for (unsigned l = 0; l < t.nlevels; l++)
        for (unsigned i = 0; i < t.level[l].w * t.level[l].h; i++)
            t.level[l].texels[4 * i] = (float)l;
    float c[4] = { 0.4f, 0.6f, 0, 1 }, out[4];
    t.filter = GFX_FILTER_MIP_NEAREST;
    gfx_texture_sample(&t, US_TEX_2D, c, 1.0f, out);
    ck_assert_float_eq(out[0], 1);
    gfx_texture_sample(&t, US_TEX_2D, c, 1.6f, out);
    ck_assert_float_eq(out[0], 2);
    gfx_texture_sample(&t, US_TEX_2D, c, -1.0f, out);
    ck_assert_float_eq(out[0], 0);
    gfx_texture_sample(&t, US_TEX_2D, c, 9.0f, out);
    ck_assert_float_eq(out[0], 3);
    t.filter = GFX_FILTER_TRILINEAR;
    gfx_texture_sample(&t, US_TEX_2D, c, 1.25f, out);
    ck_assert_float_eq_tol(out[0], 1.25f, 1e-6f);

    /* The quad sampler takes lambda from the coordinate differences:
     * s advancing 4 texels per pixel across the quad selects level 2. */
    struct gfx_sampler smp = { .unit = { &t } };
    float q[4][4] = { { 0.0f, 0.5f, 0, 1 }, { 0.5f, 0.5f, 0, 1 },
                      { 0.0f, 0.5f, 0, 1 }, { 0.5f, 0.5f, 0, 1 } };
    float bias[4] = { 0, 0, 0, 0 }, res[4][4];
    t.filter = GFX_FILTER_MIP_NEAREST;
    gfx_sample_quad(&smp, 0, US_TEX_2D, (const float (*)[4])q, bias, res);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(res[i][0], 2);
    gfx_texture_free(&t);

    /* Box filter: level 1 of a 2x2 checker is the average. */
    ck_assert(gfx_texture_alloc(&t, GFX_TEX_2D, 2, 2, 1, NULL, &d));
    gfx_texel(&t.level[0], 0, 0, 0)[1] = 1;
    gfx_texel(&t.level[0], 1, 1, 0)[1] = 1;
    ck_assert(gfx_texture_mipmap(&t, &d));
    ck_assert_float_eq(gfx_texel(&t.level[1], 0, 0, 0)[1], 0.5f);
    gfx_texture_free(&t);
}
END_TEST

/* A quad whose directions straddle a cube edge (fragment 0 on +y, the
 * others' major axes x or z): every fragment is measured on fragment 0's
 * face, so lambda stays that of a small step.  Re-selecting the face of
 * each fragment jumped across the face and chose level 6 of 7 (the grey
 * seams in bench/scenes/envmap.scn). */
START_TEST(cube_lod_across_edge)
{
    struct gfx_texture t;
    struct us_diag d;
    ck_assert(gfx_texture_alloc(&t, GFX_TEX_CUBE, 64, 64, 6, NULL, &d));
    ck_assert(gfx_texture_mipmap(&t, &d));
    for (unsigned l = 0; l < t.nlevels; l++)
        for (unsigned i = 0; i < t.level[l].w * t.level[l].h * 6; i++)
            t.level[l].texels[4 * i] = (float)l;
    t.filter = GFX_FILTER_MIP_NEAREST;
    struct gfx_sampler smp = { .unit = { &t } };
    float q[4][4] = { { 0.951149f, 0.96872f, 0.967035f, 1 },
                      { 0.975766f, 0.966177f, 0.954628f, 1 },
                      { 0.949012f, 0.964172f, 0.972192f, 1 },
                      { 0.973617f, 0.961629f, 0.959794f, 1 } };
    float bias[4] = { 0, 0, 0, 0 }, res[4][4];
    gfx_sample_quad(&smp, 0, US_TEX_CUBE, (const float (*)[4])q, bias, res);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(res[i][0], 0);
    gfx_texture_free(&t);
}
END_TEST

START_TEST(shadow_compare)
{
    struct gfx_texture t;
    struct us_diag d;
    ck_assert(gfx_texture_alloc(&t, GFX_TEX_2D, 2, 1, 1, NULL, &d));
    gfx_texel(&t.level[0], 0, 0, 0)[0] = 0.25f;
    gfx_texel(&t.level[0], 1, 0, 0)[0] = 0.75f;
    t.filter = GFX_FILTER_NEAREST;
    t.wrap[0] = t.wrap[1] = GFX_WRAP_CLAMP;
    float out[4];
    float a[4] = { 0.25f, 0.5f, 0.5f, 1 }, b[4] = { 0.75f, 0.5f, 0.5f, 1 };
    gfx_texture_sample(&t, US_TEX_SHADOW2D, a, 0, out);
    ck_assert_float_eq(out[0], 0);  /* 0.5 > 0.25: in shadow */
    ck_assert_float_eq(out[3], 1);
    gfx_texture_sample(&t, US_TEX_SHADOW2D, b, 0, out);
    ck_assert_float_eq(out[0], 1);
    ck_assert_float_eq(out[2], 1);
    float e[4] = { 0.25f, 0.5f, 0.25f, 1 };  /* equal: LEQUAL passes */
    gfx_texture_sample(&t, US_TEX_SHADOW2D, e, 0, out);
    ck_assert_float_eq(out[0], 1);
    gfx_texture_free(&t);
}
END_TEST

/* gfx_fb_rgba8's clamp on the bits against the float expression it
 * replaces, on every 4099th bit pattern and the edges (NaNs, infinities,
 * zeros, the rounding points k / 255 - 1/510 and their neighbours), and
 * the row order (the framebuffer's bottom row first); on 1, 2 and 3
 * threads, the same bytes and the hash of them. */
static uint8_t unorm8_ref(float c)
{
    c = c > 0.0f ? (c < 1.0f ? c : 1.0f) : 0.0f;  /* NaN -> 0 */
    return (uint8_t)(int)(c * 255.0f + 0.5f);
}

START_TEST(rgba8_conversion)
{
    enum { W = 1024, H = 1025 };   /* 4 W H > 2^32 / 4099 + the edges */
    struct gfx_framebuffer fb;
    struct us_diag d;
    ck_assert(gfx_fb_alloc(&fb, W, H, &d));
    size_t n = (size_t)W * H * 4, k = 0;
    const uint32_t edge[] = { 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                              0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
                              0x3f800000, 0x3f800001, 0x3f7fffff, 0x00000001,
                              0x807fffff, 0xbf800000 };
    for (; k < sizeof edge / sizeof edge[0]; k++)
        memcpy(&fb.color[k], &edge[k], 4);
    for (unsigned q = 0; q < 256; q++) {
        float c = ((float)q - 0.5f) / 255.0f;
        fb.color[k++] = c;
        fb.color[k++] = nextafterf(c, 0.0f);
        fb.color[k++] = nextafterf(c, 1.0f);
    }
    for (uint64_t b = 0; k < n; k++, b += 4099) {
        uint32_t u = (uint32_t)b;
        memcpy(&fb.color[k], &u, 4);
    }
    /* on 1 to 3 threads (the image replaces the framebuffer) */
    float *color = malloc(n * sizeof *color);
    ck_assert_ptr_nonnull(color);
    memcpy(color, fb.color, n * sizeof *color);
    uint8_t *first = NULL;
    for (unsigned jobs = 1; jobs <= 3; jobs++) {
        if (jobs > 1) {
            ck_assert(gfx_fb_alloc(&fb, W, H, &d));
            memcpy(fb.color, color, n * sizeof *color);
        }
        uint64_t hash;
        uint8_t *px = gfx_fb_rgba8(&fb, jobs, &hash);
        ck_assert_ptr_nonnull(px);
        ck_assert_ptr_null(fb.color);
        ck_assert_uint_eq(hash, gfx_hash_rgba8(px, n));
        if (first) {
            ck_assert_int_eq(memcmp(px, first, n), 0);
            free(px);
            continue;
        }
        first = px;
        for (unsigned r = 0; r < H; r++)
            for (unsigned i = 0; i < W * 4; i++) {
                float c = color[(size_t)(H - 1 - r) * W * 4 + i];
                ck_assert_uint_eq(px[(size_t)r * W * 4 + i], unorm8_ref(c));
            }
    }
    /* the fragment stage's conversion of a pixel at once */
    for (size_t k = 0; k < n; k += 4) {
        uint32_t u = gfx_unorm8_pixel(color + k);
        uint8_t b[4];
        memcpy(b, &u, sizeof b);
        for (unsigned i = 0; i < 4; i++)
            ck_assert_uint_eq(b[i], unorm8_ref(color[k + i]));
    }
    free(first);
    free(color);
}
END_TEST

START_TEST(png_errors)
{
    uint8_t img[6 * 5 * 4];
    for (size_t i = 0; i < sizeof img; i++)
        img[i] = (uint8_t)(i * 7);
    void *png;
    size_t len;
    struct us_diag d;
    ck_assert(gfx_png_encode(img, 6, 5, &png, &len, &d));
    float *rgba;
    unsigned w, h;
    ck_assert(gfx_png_decode(png, len, 64, &rgba, &w, &h, &d));
    ck_assert_uint_eq(w, 6);
    ck_assert_uint_eq(h, 5);
    for (size_t i = 0; i < sizeof img; i++)
        ck_assert_float_eq(rgba[i], (float)img[i] / 255.0f);
    free(rgba);
    /* too large for the limit */
    ck_assert(!gfx_png_decode(png, len, 4, &rgba, &w, &h, &d));
    ck_assert_ptr_null(rgba);
    ck_assert_msg(strstr(d.msg, "limit") != NULL, "%s", d.msg);
    /* truncated at every length: an error, never a crash */
    for (size_t cut = 0; cut < len; cut += 3) {
        ck_assert(!gfx_png_decode(png, cut, 64, &rgba, &w, &h, &d));
        ck_assert(d.msg[0]);
    }
    /* corrupted pixel data (CRC mismatch) */
    uint8_t *bad = malloc(len);
    memcpy(bad, png, len);
    bad[len - 20] ^= 0xff;
    ck_assert(!gfx_png_decode(bad, len, 64, &rgba, &w, &h, &d));
    free(bad);
    free(png);
    ck_assert(!gfx_png_decode("GIF89a....", 10, 64, &rgba, &w, &h, &d));
    ck_assert_str_eq(d.msg, "not a PNG file");
    ck_assert(!gfx_png_load("/nonexistent/x.png", 64, NULL, &rgba, &w, &h, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "cannot open"));
}
END_TEST

static bool obj(const char *text, struct gfx_mesh *m, struct us_diag *d)
{
    return gfx_mesh_obj(m, text, strlen(text), NULL, d);
}

START_TEST(obj_loader)
{
    struct gfx_mesh m;
    struct us_diag d;
    /* a quad (fanned into 2 triangles) with negative indices, vt, vn */
    ck_assert(obj("# quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                  "vt 0 0\nvt 1 1\nvn 0 0 1\n"
                  "f -4/1/1 -3/1/1 -2/2/1 -1/2/1\n", &m, &d));
    ck_assert_uint_eq(m.ntris, 2);
    ck_assert_uint_eq(m.nverts, 4);
    ck_assert_uint_eq(m.idx[3], m.idx[0]);  /* fan from the first corner */
    ck_assert_float_eq(m.attr[GFX_ATTR_TEXCOORD0][m.idx[2]][0], 1);
    gfx_mesh_free(&m);
    /* vertices numbered in the order of first use, by the table of v's
     * (no vt, no vn) as by the sorts (every corner with vn 1) */
    static const uint32_t first_use[6] = { 0, 1, 2, 3, 0, 2 };
    const char *faces[2] = { "f 3 1 2\nf 4 3 2\n",
                             "vn 0 0 1\nf 3//1 1//1 2//1\nf 4//1 3//1 2//1\n" };
    for (int f = 0; f < 2; f++) {
        char text[160];
        snprintf(text, sizeof text, "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n%s",
                 faces[f]);
        ck_assert(obj(text, &m, &d));
        ck_assert_uint_eq(m.nverts, 4);
        for (int i = 0; i < 6; i++)
            ck_assert_uint_eq(m.idx[i], first_use[i]);
        ck_assert_float_eq(m.attr[GFX_ATTR_POSITION][0][0], 1);  /* v 3 */
        ck_assert_float_eq(m.attr[GFX_ATTR_POSITION][0][1], 1);
        ck_assert_float_eq(m.attr[GFX_ATTR_POSITION][3][1], 1);  /* v 4 */
        gfx_mesh_free(&m);
    }
    /* no normals: computed, facing +z for this winding; no vt: no
     * texcoord[0] stored (its current value is read), the tangent (+x
     * without texture coordinates) also in texcoord[1] */
    ck_assert(obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", &m, &d));
    ck_assert_float_eq_tol(m.attr[GFX_ATTR_NORMAL][0][2], 1, 1e-6f);
    ck_assert_ptr_null(m.attr[GFX_ATTR_TEXCOORD0]);
    ck_assert_ptr_null(m.attr[GFX_ATTR_COLOR0]);
    ck_assert_float_eq(m.attr[GFX_ATTR_TANGENT][2][0], 1);
    ck_assert(!memcmp(m.attr[GFX_ATTR_TANGENT], m.attr[GFX_ATTR_TEXCOORD0 + 1],
                      3 * sizeof(us_vec4)));
    ck_assert_uint_eq(m.charged,
                      gfx_mesh_bytes(3, GFX_MESH_ATTRS &
                                     ~GFX_ATTR_BIT(GFX_ATTR_TEXCOORD0), 1));
    ck_assert_uint_eq(m.charged, 3 * 4 * sizeof(us_vec4) + 3 * sizeof(uint32_t));
    gfx_mesh_free(&m);

    ck_assert(!obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", &m, &d));
    ck_assert_uint_eq(d.line, 4);
    ck_assert_uint_eq(d.col, 7);
    ck_assert(!obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", &m, &d));
    ck_assert_str_eq(d.msg, "index out of range");
    ck_assert(!obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 -4 2\n", &m, &d));
    ck_assert(!obj("v 0 0 zero\n", &m, &d));
    ck_assert_uint_eq(d.col, 7);
    ck_assert(!obj("v 0 0 0\nv 1 0 0\nf 1 2\n", &m, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "at least 3"));
    ck_assert(!obj("v 0 0 0\n", &m, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "no faces"));
    ck_assert(!obj("v 1e39 0 0\n", &m, &d));
    ck_assert(!obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/5 2 3\n", &m, &d));
}
END_TEST

/* A mesh stores the attributes it was allocated with, each set to GL's
 * current value (position (0, 0, 0, 1), colour white, normal +z, vertex
 * weight (1, 0, 0, 0)); the others are NULL and read those values. */
START_TEST(mesh_planes)
{
    struct gfx_mesh m;
    struct us_diag d;
    uint32_t attrs = GFX_ATTR_BIT(GFX_ATTR_COLOR0) | GFX_ATTR_BIT(GFX_ATTR_WEIGHT);
    ck_assert(gfx_mesh_alloc(&m, 5, attrs, 2, NULL, &d));
    for (unsigned a = 0; a < GFX_ATTR_COUNT; a++) {
        ck_assert(!m.attr[a] == !(attrs >> a & 1));
        for (unsigned v = 0; m.attr[a] && v < 5; v++)
            ck_assert(!memcmp(m.attr[a][v], gfx_attr_default(a), sizeof(us_vec4)));
    }
    static const us_vec4 white = { 1, 1, 1, 1 }, weight = { 1, 0, 0, 0 },
                         nz = { 0, 0, 1, 1 }, origin = { 0, 0, 0, 1 };
    ck_assert(!memcmp(gfx_attr_default(GFX_ATTR_COLOR0), white, sizeof white));
    ck_assert(!memcmp(gfx_attr_default(GFX_ATTR_WEIGHT), weight, sizeof weight));
    ck_assert(!memcmp(gfx_attr_default(GFX_ATTR_NORMAL), nz, sizeof nz));
    ck_assert(!memcmp(gfx_attr_default(GFX_ATTR_POSITION), origin, sizeof origin));
    ck_assert(!memcmp(gfx_attr_default(GFX_ATTR_TEXCOORD0 + 7), origin, sizeof origin));
    /* the planes and the indices do not overlap */
    ck_assert_ptr_eq(m.attr[GFX_ATTR_COLOR0], m.attr[GFX_ATTR_WEIGHT] + 5);
    ck_assert_ptr_eq((void *)m.idx, (void *)(m.attr[GFX_ATTR_COLOR0] + 5));
    ck_assert_uint_eq(m.charged, 2 * 5 * sizeof(us_vec4) + 6 * sizeof(uint32_t));
    gfx_mesh_free(&m);
}
END_TEST

START_TEST(teapot_outward)
{
    struct gfx_mesh m;
    struct us_diag d;
    ck_assert(gfx_mesh_teapot(&m, 6, NULL, &d));
    /* Body vertices (patches 4..11, 0-based) face away from the y axis. */
    unsigned out = 0, total = 0;
    for (unsigned p = 4; p < 12; p++)
        for (unsigned k = 0; k < 49; k++) {
            const float *v = m.attr[GFX_ATTR_POSITION][p * 49 + k];
            const float *n = m.attr[GFX_ATTR_NORMAL][p * 49 + k];
            out += v[0] * n[0] + v[2] * n[2] > 0;
            total++;
        }
    ck_assert_uint_eq(out, total);
    /* and triangles wind counter-clockwise around their normals */
    const uint32_t *ix = m.idx + 3 * 2 * 36 * 5 + 3 * 7;
    const float *a = m.attr[0][ix[0]], *b = m.attr[0][ix[1]],
                *c = m.attr[0][ix[2]];
    float e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    float e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
    float nx = e1[1] * e2[2] - e1[2] * e2[1], nz = e1[0] * e2[1] - e1[1] * e2[0];
    ck_assert(nx * a[0] + nz * a[2] > 0);
    gfx_mesh_free(&m);
}
END_TEST

/* A double of 53 random bits with exponent e (splitmix64 state *x). */
static double rand_double(uint64_t *x, int e)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return ldexp((double)(z >> 11 | 1ull << 52), e - 52);
}

START_TEST(division_by_reciprocal)
{
    /* gfx_div_by_recip against the division, bit for bit: random
     * operands, divisors whose significand is all ones (the hardest for
     * a reciprocal), and numerators built so that a/b lies within an
     * ulp's fraction of a midpoint between two doubles */
    uint64_t x = 21;
    for (int i = 0; i < 400000; i++) {
        double b = rand_double(&x, (i % 61) - 30);
        if (i % 7 == 0)
            b = ldexp(2.0 - 0x1p-52, (i % 41) - 20);
        double a;
        if (i % 2) {
            double q = rand_double(&x, (i % 37) - 18);
            double mid = q + ldexp(1.0, ilogb(q) - 53);  /* q + ulp / 2 */
            a = mid * b;
        } else {
            a = rand_double(&x, (i % 53) - 26);
        }
        if (i % 3 == 0)
            a = -a;
        double want = a / b, got = gfx_div_by_recip(a, b, 1.0 / b);
        ck_assert_msg(memcmp(&want, &got, sizeof want) == 0,
                      "%a / %a: %a, not %a", a, b, got, want);
    }
    ck_assert(gfx_div_by_recip(0.0, 3.0, 1.0 / 3.0) == 0.0 &&
              !signbit(gfx_div_by_recip(0.0, 3.0, 1.0 / 3.0)));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("gfx");
    TCase *t = tcase_create("pipeline");
    tcase_set_timeout(t, 60);   /* raster_matches_edges draws 120 times */
    tcase_add_test(t, fill_rule_square);
    tcase_add_test(t, fill_rule_fan);
    tcase_add_test(t, raster_matches_edges);
    tcase_add_test(t, rgba8_framebuffer);
    tcase_add_test(t, clip_near_plane);
    tcase_add_test(t, clip_trivial);
    tcase_add_test(t, perspective_interpolation);
    tcase_add_test(t, clip_user_planes);
    tcase_add_test(t, flat_and_noperspective);
    tcase_add_test(t, clip_planes_draw);
    tcase_add_test(t, wrap_modes);
    tcase_add_test(t, mip_selection);
    tcase_add_test(t, cube_lod_across_edge);
    tcase_add_test(t, shadow_compare);
    tcase_add_test(t, rgba8_conversion);
    tcase_add_test(t, png_errors);
    tcase_add_test(t, obj_loader);
    tcase_add_test(t, mesh_planes);
    tcase_add_test(t, teapot_outward);
    tcase_add_test(t, division_by_reciprocal);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
