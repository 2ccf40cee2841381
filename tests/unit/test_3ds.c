/* Unit tests of the .3ds loader (gfx/model3ds.c): a file built here, its
 * errors, every truncation and byte corruption (errors, never crashes),
 * glmark2-data's models when the package is installed, and the scene
 * directives the glmark2 scenes use (`mesh NAME 3ds`, `uniform`). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

struct bytes {
    uint8_t b[1024];
    size_t n;
};

static void put16(struct bytes *f, unsigned v)
{
    f->b[f->n++] = (uint8_t)v;
    f->b[f->n++] = (uint8_t)(v >> 8);
}

static void put32(struct bytes *f, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        f->b[f->n++] = (uint8_t)(v >> 8 * i);
}

static void putf(struct bytes *f, float x)
{
    uint32_t v;
    memcpy(&v, &x, 4);
    put32(f, v);
}

/* Open a chunk; returns where its length goes. */
static size_t open_chunk(struct bytes *f, unsigned id)
{
    put16(f, id);
    size_t at = f->n;
    put32(f, 0);
    return at;
}

static void close_chunk(struct bytes *f, size_t at)
{
    uint32_t len = (uint32_t)(f->n - (at - 2));
    for (int i = 0; i < 4; i++)
        f->b[at + i] = (uint8_t)(len >> 8 * i);
}

/* A unit quad in the xy plane facing +z (two counter-clockwise
 * triangles), with texture coordinates and a material chunk to skip. */
static void quad_file(struct bytes *f, unsigned bad_index)
{
    static const float pos[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 },
                                     { 0, 1, 0 } };
    memset(f, 0, sizeof *f);
    size_t main = open_chunk(f, 0x4D4D);
    size_t ver = open_chunk(f, 0x0002);
    put32(f, 3);
    close_chunk(f, ver);
    size_t ed = open_chunk(f, 0x3D3D);
    size_t mat = open_chunk(f, 0xAFFF);
    f->b[f->n++] = 'x';
    close_chunk(f, mat);
    size_t obj = open_chunk(f, 0x4000);
    memcpy(f->b + f->n, "Quad", 5);
    f->n += 5;
    size_t tri = open_chunk(f, 0x4100);
    size_t v = open_chunk(f, 0x4110);
    put16(f, 4);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            putf(f, pos[i][j]);
    close_chunk(f, v);
    size_t fc = open_chunk(f, 0x4120);
    put16(f, 2);
    put16(f, 0), put16(f, 1), put16(f, 2), put16(f, 7);
    put16(f, 0), put16(f, 2), put16(f, bad_index ? bad_index : 3), put16(f, 7);
    size_t sm = open_chunk(f, 0x4150);
    put32(f, 1), put32(f, 1);
    close_chunk(f, sm);
    close_chunk(f, fc);
    size_t uv = open_chunk(f, 0x4140);
    put16(f, 4);
    for (int i = 0; i < 4; i++)
        putf(f, pos[i][0]), putf(f, pos[i][1]);
    close_chunk(f, uv);
    close_chunk(f, tri);
    close_chunk(f, obj);
    close_chunk(f, ed);
    close_chunk(f, main);
}

START_TEST(quad)
{
    struct bytes f;
    quad_file(&f, 0);
    struct gfx_mesh m;
    struct us_diag d;
    ck_assert_msg(gfx_mesh_3ds(&m, f.b, f.n, NULL, &d), "%s", d.msg);
    ck_assert_uint_eq(m.nverts, 4);
    ck_assert_uint_eq(m.ntris, 2);
    ck_assert_uint_eq(m.idx[5], 3);
    ck_assert_ptr_nonnull(m.attr[GFX_ATTR_TEXCOORD0]);
    for (unsigned i = 0; i < 4; i++) {
        const float *n = m.attr[GFX_ATTR_NORMAL][i];
        const float *t = m.attr[GFX_ATTR_TANGENT][i];
        const float *t1 = m.attr[GFX_ATTR_TEXCOORD0 + 1][i];
        ck_assert(fabsf(n[2] - 1) < 1e-6f && fabsf(n[0]) < 1e-6f);
        ck_assert(fabsf(t[0] - 1) < 1e-6f);
        ck_assert(!memcmp(t, t1, sizeof(us_vec4)));
        ck_assert(m.attr[GFX_ATTR_POSITION][i][3] == 1.0f);
    }
    ck_assert(m.attr[GFX_ATTR_TEXCOORD0][2][0] == 1.0f);
    gfx_mesh_free(&m);
}
END_TEST

START_TEST(errors)
{
    struct bytes f;
    struct gfx_mesh m;
    struct us_diag d;
    quad_file(&f, 9);
    ck_assert(!gfx_mesh_3ds(&m, f.b, f.n, NULL, &d));
    ck_assert_msg(strstr(d.msg, "uses vertex 9 of 4"), "%s", d.msg);
    ck_assert(m.block == NULL);

    ck_assert(!gfx_mesh_3ds(&m, "MM", 2, NULL, &d));
    ck_assert(strstr(d.msg, "not a 3D Studio file"));

    quad_file(&f, 0);
    f.b[2] = 0xff;                  /* main chunk longer than the file */
    ck_assert(!gfx_mesh_3ds(&m, f.b, f.n, NULL, &d));
    ck_assert_msg(strstr(d.msg, "byte 0: chunk length"), "%s", d.msg);

    /* a main chunk with no geometry */
    static const uint8_t empty[] = { 0x4D, 0x4D, 6, 0, 0, 0 };
    ck_assert(!gfx_mesh_3ds(&m, empty, sizeof empty, NULL, &d));
    ck_assert(strstr(d.msg, "no triangles"));

    /* a vertex count larger than its chunk */
    quad_file(&f, 0);
    for (size_t i = 0; i + 8 < f.n; i++)
        if (f.b[i] == 0x10 && f.b[i + 1] == 0x41) {
            f.b[i + 6] = 200;
            break;
        }
    ck_assert(!gfx_mesh_3ds(&m, f.b, f.n, NULL, &d));
    ck_assert_msg(strstr(d.msg, "vertex list longer"), "%s", d.msg);
}
END_TEST

START_TEST(truncations_and_corruption)
{
    struct bytes f;
    quad_file(&f, 0);
    struct gfx_mesh m;
    struct us_diag d;
    for (size_t n = 0; n < f.n; n++) {
        uint8_t *copy = malloc(n ? n : 1);  /* exact size: ASan sees reads */
        memcpy(copy, f.b, n);
        if (gfx_mesh_3ds(&m, copy, n, NULL, &d))
            gfx_mesh_free(&m);
        free(copy);
    }
    uint32_t seed = 12345;
    for (int k = 0; k < 4000; k++) {
        struct bytes g = f;
        for (int j = 0; j < 3; j++) {
            seed = seed * 1664525u + 1013904223u;
            g.b[(seed >> 8) % g.n] = (uint8_t)(seed >> 24);
        }
        uint8_t *copy = malloc(g.n);
        memcpy(copy, g.b, g.n);
        if (gfx_mesh_3ds(&m, copy, g.n, NULL, &d)) {
            for (unsigned t = 0; t < 3 * m.ntris; t++)
                ck_assert_uint_lt(m.idx[t], m.nverts);
            gfx_mesh_free(&m);
        }
        free(copy);
    }
}
END_TEST

/* glmark2-data's models, when installed (never copied into the repo). */
START_TEST(glmark2_models)
{
    static const char *const names[] = { "cube", "horse", "cat",
                                         "asteroid-low" };
    for (unsigned i = 0; i < 4; i++) {
        char path[256];
        snprintf(path, sizeof path, "/usr/share/glmark2/models/%s.3ds",
                 names[i]);
        char *text;
        size_t len;
        struct us_diag d;
        if (!gfx_read_file(path, 64u << 20, &text, &len, &d))
            continue;
        struct gfx_mesh m;
        ck_assert_msg(gfx_mesh_3ds(&m, text, len, NULL, &d), "%s: %s", path,
                      d.msg);
        ck_assert_uint_gt(m.ntris, 0);
        for (unsigned t = 0; t < 3 * m.ntris; t++)
            ck_assert_uint_lt(m.idx[t], m.nverts);
        if (i == 0)
            ck_assert_uint_eq(m.ntris, 12);
        gfx_mesh_free(&m);
        free(text);
    }
}
END_TEST

/* Write `n` bytes to a fresh file under /tmp; its name into path. */
static void temp_file(char path[64], const char *suffix, const void *data,
                      size_t n)
{
    snprintf(path, 64, "/tmp/us3dsXXXXXX");
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert(f && fwrite(data, 1, n, f) == n);
    fclose(f);
    char named[64];
    snprintf(named, sizeof named, "%s%s", path, suffix);
    ck_assert(rename(path, named) == 0);
    memcpy(path, named, 64);
}

/* The scene directives: `mesh NAME 3ds FILE` and `uniform STAGE NAME V..`
 * (a PARAM of the current program by name, into its program.local
 * slots). */
START_TEST(scene_directives)
{
    struct bytes q;
    quad_file(&q, 0);
    static const char vp[] = "!!ARBvp1.0\nMOV result.position, "
                             "vertex.position;\nEND\n";
    static const char fp[] = "!!ARBfp1.0\nPARAM k = program.local[3];\n"
                             "MOV result.color, k;\nEND\n";
    char mesh[64], vpf[64], fpf[64], text[1024];
    temp_file(mesh, ".3ds", q.b, q.n);
    temp_file(vpf, ".vp", vp, strlen(vp));
    temp_file(fpf, ".fp", fp, strlen(fp));
    /* the quad spans clip x, y in [0, 1]: the upper-right quarter */
    snprintf(text, sizeof text, "size 8 8\nprogram v %s\nprogram f %s\n"
             "mesh m 3ds %s\nvp v\nfp f\nuniform fragment k 0.25 0.5 "
             "0.75\ndraw m\n", vpf, fpf, mesh);
    struct gfx_scene *scn;
    struct us_diag d;
    ck_assert_msg(gfx_scene_load(&scn, "/tmp/t.scn", text, strlen(text), &d),
                  "%u:%u: %s", d.line, d.col, d.msg);
    struct gfx_framebuffer fb;
    struct gfx_stats st;
    ck_assert_msg(gfx_scene_render(scn, 8, 8, &us_math_exact, &gfx_backend_functional,
                                   &fb, &st, &d), "%s", d.msg);
    /* the image, top row first: window (6, 6) and (1, 1) */
    uint8_t *img = gfx_fb_rgba8(&fb, 1, NULL);
    ck_assert_ptr_nonnull(img);
    const uint8_t *hi = img + 4 * ((8 - 1 - 6) * 8 + 6);
    const uint8_t *lo = img + 4 * ((8 - 1 - 1) * 8 + 1);
    ck_assert(hi[0] == 64 && hi[1] == 128 && hi[2] == 191 && hi[3] == 0);
    ck_assert(lo[0] == 0 && lo[3] == 255);          /* the clear colour */
    free(img);
    gfx_scene_free(scn);

    /* errors: no current program, an unknown name, too many values */
    static const char *const bad[] = {
        "uniform fragment k 1\n",
        "vp v\nfp f\nuniform fragment nope 1\n",
        "vp v\nfp f\nuniform fragment k 1 2 3 4 5\n",
        "vp v\nfp f\nuniform vertex k 1\n",
    };
    static const char *const msg[] = {
        "needs a current fragment program", "has no uniform 'nope'",
        "too many values", "has no uniform 'k'",
    };
    for (unsigned i = 0; i < 4; i++) {
        snprintf(text, sizeof text, "program v %s\nprogram f %s\n%s", vpf,
                 fpf, bad[i]);
        ck_assert(!gfx_scene_load(&scn, "/tmp/t.scn", text, strlen(text),
                                  &d));
        ck_assert_msg(strstr(d.msg, msg[i]), "%s", d.msg);
    }
    remove(mesh);
    remove(vpf);
    remove(fpf);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("3ds");
    TCase *t = tcase_create("loader");
    tcase_add_test(t, quad);
    tcase_add_test(t, errors);
    tcase_add_test(t, truncations_and_corruption);
    tcase_add_test(t, glmark2_models);
    tcase_add_test(t, scene_directives);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
