/* Unit tests of the memory budget (gfx/budget.c) and what it charges:
 * texture and mesh sizes known before allocation, given back when freed;
 * the OBJ loader's first-use vertex order against a brute-force dedup;
 * regular-file reads; paths shortened in messages. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gfx/gfx.h"

static const size_t MIB = (size_t)1 << 20;

START_TEST(budget_arithmetic)
{
    struct gfx_budget b;
    struct us_diag d;
    gfx_budget_init(&b);
    ck_assert_uint_eq(b.left, (size_t)GFX_MEM_BUDGET_MIB * MIB);
    ck_assert(gfx_budget_take(&b, 1000, MIB, "some", &d));
    ck_assert_uint_eq(b.left, (size_t)(GFX_MEM_BUDGET_MIB - 1000) * MIB);
    ck_assert(gfx_budget_check(&b, b.left, 1, "the rest", &d));
    ck_assert(!gfx_budget_check(&b, b.left + 1, 1, "one more", &d));
    ck_assert(!gfx_budget_take(&b, 30, MIB, "a lot", &d));
    ck_assert_str_eq(d.msg, "a lot needs 30 MiB, more than the 24 MiB left "
                            "of the 1024 MiB memory budget");
    ck_assert_uint_eq(b.left, (size_t)24 * MIB);  /* nothing charged */
    /* n * size overflowing size_t is refused, not wrapped */
    ck_assert(!gfx_budget_take(&b, SIZE_MAX / 2, 4, "wrap", &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "wrap needs more memory than"));
    gfx_budget_give(&b, 1000 * MIB);
    ck_assert_uint_eq(b.left, (size_t)GFX_MEM_BUDGET_MIB * MIB);
    /* no budget: everything fits */
    ck_assert(gfx_budget_take(NULL, SIZE_MAX, 1, "all", &d));
    gfx_budget_give(NULL, 5);
}
END_TEST

/* The bytes of a texture's levels as allocated. */
static size_t level_bytes(const struct gfx_texture *t)
{
    size_t n = 0;
    for (unsigned l = 0; l < t->nlevels; l++)
        n += (size_t)t->level[l].w * t->level[l].h * t->level[l].d * 16;
    return n;
}

START_TEST(texture_bytes_match)
{
    static const struct { enum gfx_tex_kind k; unsigned w, h, d; } cases[] = {
        { GFX_TEX_2D, 37, 5, 1 }, { GFX_TEX_2D, 64, 64, 1 },
        { GFX_TEX_3D, 9, 4, 3 }, { GFX_TEX_3D, 2, 16, 5 },
        { GFX_TEX_CUBE, 16, 16, 6 }, { GFX_TEX_1D, 7, 1, 1 },
        { GFX_TEX_RECT, 5, 3, 1 }, { GFX_TEX_2D, 2048, 1, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct gfx_budget b;
        struct gfx_texture t;
        struct us_diag d;
        gfx_budget_init(&b);
        size_t all = b.left;
        ck_assert(gfx_texture_alloc(&t, cases[i].k, cases[i].w, cases[i].h,
                                    cases[i].d, &b, &d));
        ck_assert_uint_eq(level_bytes(&t),
                          gfx_texture_bytes(cases[i].k, cases[i].w,
                                            cases[i].h, cases[i].d, false));
        ck_assert_uint_eq(all - b.left, level_bytes(&t));
        ck_assert(gfx_texture_mipmap(&t, &d));
        ck_assert_uint_eq(level_bytes(&t),
                          gfx_texture_bytes(cases[i].k, cases[i].w,
                                            cases[i].h, cases[i].d, true));
        ck_assert_uint_eq(all - b.left, level_bytes(&t));
        gfx_texture_free(&t);
        ck_assert_uint_eq(b.left, all);
    }
}
END_TEST

START_TEST(texture_refused_before_alloc)
{
    struct gfx_budget b = { .left = 64 * 64 * 16 + 100 };
    struct gfx_texture t;
    struct us_diag d;
    ck_assert(!gfx_texture_alloc(&t, GFX_TEX_2D, 64, 65, 1, &b, &d));
    ck_assert_ptr_null(t.level[0].texels);
    ck_assert_ptr_nonnull(strstr(d.msg, "a 64x65x1 texture needs 1 MiB"));
    ck_assert_uint_eq(b.left, 64 * 64 * 16 + 100);
    /* level 0 fits, level 1 does not: the texture keeps level 0 and
     * gives everything back when freed */
    ck_assert(gfx_texture_alloc(&t, GFX_TEX_2D, 64, 64, 1, &b, &d));
    ck_assert(!gfx_texture_mipmap(&t, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "mipmap level 1 needs"));
    ck_assert_uint_eq(t.nlevels, 1);
    gfx_texture_free(&t);
    ck_assert_uint_eq(b.left, 64 * 64 * 16 + 100);
}
END_TEST

START_TEST(mesh_charged)
{
    struct gfx_budget b;
    struct gfx_mesh m;
    struct us_diag d;
    gfx_budget_init(&b);
    size_t all = b.left;
    ck_assert(gfx_mesh_sphere(&m, 1, 16, 8, &b, &d));
    ck_assert_uint_eq(m.nverts, 17 * 9);
    ck_assert_uint_eq(all - b.left,
                      gfx_mesh_bytes(17 * 9, GFX_MESH_ATTRS, 2 * 16 * 8));
    gfx_mesh_free(&m);
    ck_assert_uint_eq(b.left, all);
    /* too little left: refused before anything is allocated */
    size_t big = gfx_mesh_bytes(1025 * 1025, GFX_MESH_ATTRS, 2 * 1024 * 1024);
    b.left = big - 1;
    ck_assert(!gfx_mesh_sphere(&m, 1, 1024, 1024, &b, &d));
    ck_assert_ptr_null(m.block);
    ck_assert_ptr_nonnull(strstr(d.msg, "a mesh of 1050625 vertices and "
                                        "2097152 triangles needs 105 MiB"));
    ck_assert_uint_eq(b.left, big - 1);
}
END_TEST

/* A random OBJ with many repeated corners, some without vt or vn. */
static char *random_obj(unsigned seed, unsigned nface, unsigned np,
                        unsigned nt, unsigned nn)
{
    size_t cap = 64 * (size_t)(np + nt + nn + nface) + 64, len = 0;
    char *s = malloc(cap);
    for (unsigned i = 0; i < np; i++)
        len += (size_t)sprintf(s + len, "v %u %u 0\n", i % 5, i / 5);
    for (unsigned i = 0; i < nt; i++)
        len += (size_t)sprintf(s + len, "vt %u 0\n", i);
    for (unsigned i = 0; i < nn; i++)
        len += (size_t)sprintf(s + len, "vn 0 0 %u\n", i + 1);
    uint32_t x = seed;
    for (unsigned f = 0; f < nface; f++) {
        /* one format per face: OBJ faces do not mix them */
        unsigned kind = (x = x * 1664525u + 1013904223u) >> 30;
        len += (size_t)sprintf(s + len, "f");
        for (int c = 0; c < 3; c++) {
            unsigned v = (x = x * 1664525u + 1013904223u) >> 8;
            unsigned p = v % np + 1, t = v / np % nt + 1, n = v / 7 % nn + 1;
            len += (size_t)(kind == 0 ? sprintf(s + len, " %u", p)
                          : kind == 1 ? sprintf(s + len, " %u/%u", p, t)
                          : kind == 2 ? sprintf(s + len, " %u//%u", p, n)
                                      : sprintf(s + len, " %u/%u/%u", p, t, n));
        }
        s[len++] = '\n';
    }
    s[len] = '\0';
    return s;
}

/* The corners of the OBJ's face lines, in order: 1-based v, vt, vn
 * (0: absent). */
static unsigned corners_of(const char *text, unsigned (*key)[3])
{
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, "\nf")) != NULL;) {
        p += 2;
        for (int c = 0; c < 3; c++) {
            char *e;
            unsigned *k = key[n++];
            k[1] = k[2] = 0;
            k[0] = (unsigned)strtoul(p, &e, 10);
            if (*e == '/' && e[1] != '/')
                k[1] = (unsigned)strtoul(e + 1, &e, 10);
            else if (*e == '/')
                e++;
            if (*e == '/')
                k[2] = (unsigned)strtoul(e + 1, &e, 10);
            p = e;
        }
    }
    return n;
}

START_TEST(obj_first_use_order)
{
    /* the vertices are the distinct (v, vt, vn) corners numbered in the
     * order of their first use: checked against a quadratic dedup */
    enum { FACES = 300 };
    for (unsigned seed = 1; seed <= 6; seed++) {
        unsigned np = 3 + seed * 5, nt = 1 + seed % 4, nn = 1 + seed % 3;
        char *text = random_obj(seed, FACES, np, nt, nn);
        struct gfx_budget b;
        struct gfx_mesh m;
        struct us_diag d;
        gfx_budget_init(&b);
        size_t all = b.left;
        ck_assert_msg(gfx_mesh_obj(&m, text, strlen(text), &b, &d), "%s",
                      d.msg);
        ck_assert_uint_eq(all - b.left, m.charged);  /* only the mesh */
        static unsigned key[3 * FACES][3], vert[3 * FACES];
        unsigned n = corners_of(text, key), nv = 0;
        ck_assert_uint_eq(n, 3 * FACES);
        for (unsigned i = 0; i < n; i++) {
            unsigned j = 0;
            while (j < i && memcmp(key[j], key[i], sizeof key[i]))
                j++;
            vert[i] = j < i ? vert[j] : nv++;
            ck_assert_uint_eq(m.idx[i], vert[i]);
            ck_assert_float_eq(m.attr[GFX_ATTR_POSITION][vert[i]][0],
                               (float)((key[i][0] - 1) % 5));
        }
        ck_assert_uint_eq(m.nverts, nv);
        ck_assert_uint_lt(nv, n);  /* corners were shared */
        gfx_mesh_free(&m);
        ck_assert_uint_eq(b.left, all);
        free(text);
    }
}
END_TEST

START_TEST(obj_refused)
{
    char *text = random_obj(7, 2000, 50, 3, 2);
    struct gfx_budget b = { .left = 100000 };
    struct gfx_mesh m;
    struct us_diag d;
    ck_assert(!gfx_mesh_obj(&m, text, strlen(text), &b, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "memory budget"));
    ck_assert_uint_eq(b.left, 100000);  /* every array given back */
    free(text);
}
END_TEST

START_TEST(show_path)
{
    char buf[GFX_SHOWN_PATH], path[600];
    ck_assert_str_eq(gfx_show_path(buf, "a/b.obj", 40), "a/b.obj");
    memset(path, 'x', sizeof path);
    strcpy(path + 590, "/tail.obj");
    const char *s = gfx_show_path(buf, path, 40);
    ck_assert_uint_eq(strlen(s), 40);
    ck_assert(!strncmp(s, "...", 3));
    ck_assert_str_eq(s + strlen(s) - 9, "/tail.obj");
    /* never more than the buffer holds */
    ck_assert_uint_eq(strlen(gfx_show_path(buf, path, 4000)),
                      GFX_SHOWN_PATH - 1);
    /* a cut inside a UTF-8 character moves to its end */
    memcpy(path + 550, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8);
    for (size_t max = 40; max < 60; max++) {
        s = gfx_show_path(buf, path, max);
        ck_assert((s[3] & 0xC0) != 0x80);
    }
    /* the reason is never cut */
    struct us_diag d;
    gfx_fail_path(&d, path, "cannot open: %s", "No such file or directory");
    ck_assert_uint_lt(strlen(d.msg), sizeof d.msg);
    ck_assert_str_eq(d.msg + strlen(d.msg) - 38,
                     "cannot open: No such file or directory");
}
END_TEST

START_TEST(read_regular_only)
{
    char dir[] = "/tmp/ushader-budget-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char fifo[64], file[64];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(file, sizeof file, "%s/file", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    FILE *f = fopen(file, "w");
    fputs("12345", f);
    fclose(f);
    struct us_diag d;
    struct gfx_budget b;
    gfx_budget_init(&b);
    size_t all = b.left, len;
    char *text;
    /* a FIFO without a writer: refused at once, not waited on */
    ck_assert(!gfx_read_file_charged(fifo, 100, &b, &text, &len, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "fifo: not a regular file (a FIFO)"));
    ck_assert(!gfx_read_file(dir, 100, &text, &len, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, ": is a directory"));
    ck_assert(!gfx_read_file("/dev/null", 100, &text, &len, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "(a character device)"));
    ck_assert_uint_eq(b.left, all);
    ck_assert(gfx_read_file_charged(file, 100, &b, &text, &len, &d));
    ck_assert_uint_eq(len, 5);
    ck_assert_str_eq(text, "12345");
    ck_assert_uint_eq(all - b.left, 6);
    free(text);
    ck_assert(!gfx_read_file(file, 4, &text, &len, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "larger than"));
    b.left = 5;
    ck_assert(!gfx_read_file_charged(file, 100, &b, &text, &len, &d));
    ck_assert_ptr_nonnull(strstr(d.msg, "file: reading it needs"));
    ck_assert_uint_eq(b.left, 5);
    unlink(fifo);
    unlink(file);
    rmdir(dir);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("budget");
    TCase *t = tcase_create("budget");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, budget_arithmetic);
    tcase_add_test(t, texture_bytes_match);
    tcase_add_test(t, texture_refused_before_alloc);
    tcase_add_test(t, mesh_charged);
    tcase_add_test(t, obj_first_use_order);
    tcase_add_test(t, obj_refused);
    tcase_add_test(t, show_path);
    tcase_add_test(t, read_regular_only);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
