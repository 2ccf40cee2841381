/* Unit tests of the render's host threads (gfx/pool.c) and of a draw on
 * them: every worker index runs once a run, scratch memory is kept, and
 * a draw on 1 thread, on 3 started per stage and on a pool of 3 gives the
 * same framebuffer and counts. */
#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

struct calls {
    atomic_uint n[8];
};

static void count_call(void *arg, unsigned i)
{
    struct calls *c = arg;
    ck_assert_uint_lt(i, 8);
    atomic_fetch_add(&c->n[i], 1);
}

START_TEST(pool_runs_each_index_once)
{
    struct gfx_pool *p = gfx_pool_new(3);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(gfx_pool_workers(p), 3);
    /* fewer, as many and more calls than workers (the rest on the
     * caller's thread), over and over */
    for (unsigned rep = 0; rep < 200; rep++) {
        unsigned n = rep % 7;
        struct calls c;
        for (unsigned i = 0; i < 8; i++)
            atomic_init(&c.n[i], 0);
        gfx_pool_run(p, n, count_call, &c);
        for (unsigned i = 0; i < 8; i++)
            ck_assert_uint_eq(atomic_load(&c.n[i]), i < n ? 1 : 0);
    }
    gfx_pool_free(p);
    gfx_pool_free(NULL);
}
END_TEST

START_TEST(pool_scratch_kept)
{
    struct gfx_pool *p = gfx_pool_new(2);
    ck_assert_ptr_nonnull(p);
    char *a = gfx_pool_scratch(p, 1, 1000);
    ck_assert_ptr_nonnull(a);
    memset(a, 7, 1000);
    ck_assert_ptr_eq(gfx_pool_scratch(p, 1, 500), a);
    ck_assert_ptr_eq(gfx_pool_scratch(p, 1, 1000), a);
    ck_assert_int_eq(a[999], 7);
    char *b = gfx_pool_scratch(p, 0, 1000);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_ne(a, b);
    ck_assert_ptr_nonnull(gfx_pool_scratch(p, 1, 5000));   /* grown */
    ck_assert_ptr_null(gfx_pool_scratch(p, 2, 10));        /* no worker 2 */
    gfx_pool_free(p);
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

/* 120 random overlapping triangles (some behind the eye, some off
 * screen) blended on a 70 x 45 framebuffer, jobs host threads, on a pool
 * when pool is set.  quarters > 0: three draws on a budget of that many
 * quarters of one draw's bytes, as one chain (gfx_draw_meshes, on a
 * pool) or one by one, the draws done in *done and the error in *err. */
static void draw_chain(unsigned jobs, bool pool, struct gfx_framebuffer *fb,
                       struct gfx_stats *stats, unsigned quarters,
                       unsigned *done, struct us_diag *err)
{
    struct us_program vp = assemble(
        "!!ARBvp1.0\nMOV result.position, vertex.position;\n"
        "MOV result.color, vertex.color;\nEND\n");
    struct us_program fp = assemble(
        "!!ARBfp1.0\nTEMP t;\nMUL t, fragment.color, fragment.position.z;\n"
        "ADD result.color, t, fragment.color;\nEND\n");
    enum { NT = 120 };
    struct gfx_mesh m;
    struct us_diag d;
    ck_assert(gfx_mesh_alloc(&m, 3 * NT, GFX_ALL_ATTRS, NT, NULL, &d));
    srand(21);
    for (unsigned i = 0; i < 3 * NT; i++) {
        float *p = m.attr[GFX_ATTR_POSITION][i];
        float *c = m.attr[GFX_ATTR_COLOR0][i];
        for (int k = 0; k < 3; k++) {
            p[k] = (float)(rand() % 2001 - 1000) / 700.0f;
            c[k] = (float)(rand() % 256) / 255.0f;
        }
        p[3] = (float)(rand() % 200 - 20) / 100.0f;
        c[3] = 0.5f;
        m.idx[i] = i;
    }
    struct us_glstate gl;
    us_glstate_init(&gl);
    struct gfx_state st;
    gfx_state_init(&st);
    st.blend = true;
    ck_assert(gfx_fb_init(fb, 70, 45, &d));
    struct gfx_pool *p = pool ? gfx_pool_new(jobs) : NULL;
    ck_assert(!pool || p);
    struct gfx_draw dr = { .mesh = &m, .vp = &vp, .fp = &fp, .gl = &gl,
                           .state = &st, .math = &us_math_exact,
                           .backend = &gfx_backend_functional, .pool = p,
                           .jobs = jobs };
    memset(stats, 0, sizeof *stats);
    if (quarters) {
        size_t left = gfx_draw_bytes(&dr) * quarters / 4;
        struct gfx_budget b = { left };
        dr.budget = &b;
        struct gfx_draw three[3] = { dr, dr, dr };
        memset(err, 0, sizeof *err);
        if (pool)
            *done = gfx_draw_meshes(fb, three, 3, stats, err);
        else
            for (*done = 0; *done < 3 &&
                            gfx_draw_mesh(fb, &three[*done], stats, err);)
                ++*done;
        ck_assert_uint_eq(b.left, left);     /* every draw gave back */
    } else {
        /* twice: the second draw on the pool's kept thread records */
        ck_assert(gfx_draw_mesh(fb, &dr, stats, &d));
        ck_assert(gfx_draw_mesh(fb, &dr, stats, &d));
    }
    gfx_pool_free(p);
    gfx_mesh_free(&m);
    us_program_free(&vp);
    us_program_free(&fp);
}

static void draw_random(unsigned jobs, bool pool, struct gfx_framebuffer *fb,
                        struct gfx_stats *stats)
{
    draw_chain(jobs, pool, fb, stats, 0, NULL, NULL);
}

START_TEST(draw_same_on_pool)
{
    struct gfx_framebuffer a, b, c;
    struct gfx_stats sa, sb, sc;
    draw_random(1, false, &a, &sa);
    draw_random(3, false, &b, &sb);
    draw_random(3, true, &c, &sc);
    ck_assert_uint_gt(sa.written, 1000);
    ck_assert_uint_gt(sa.clipped, sa.triangles / 4);
    size_t n = (size_t)a.w * a.h;
    ck_assert(!memcmp(a.color, b.color, 4 * n * sizeof *a.color));
    ck_assert(!memcmp(a.color, c.color, 4 * n * sizeof *a.color));
    ck_assert(!memcmp(a.depth, c.depth, n * sizeof *a.depth));
    ck_assert(!memcmp(&sa, &sb, sizeof sa));
    ck_assert(!memcmp(&sa, &sc, sizeof sa));
    gfx_fb_free(&a);
    gfx_fb_free(&b);
    gfx_fb_free(&c);
}
END_TEST

/* A chain of draws that each fit the budget alone but not two at once:
 * the draws wait for each other's memory instead of being refused, and
 * the image and counts are the serial ones; a budget below one draw
 * refuses the first with the serial message. */
START_TEST(chain_budget_as_serial)
{
    struct gfx_framebuffer a, b;
    struct gfx_stats sa, sb;
    struct us_diag ea, eb;
    unsigned na, nb;
    draw_chain(3, false, &a, &sa, 6, &na, &ea);
    draw_chain(3, true, &b, &sb, 6, &nb, &eb);
    ck_assert_uint_eq(na, 3);
    ck_assert_uint_eq(nb, 3);
    size_t n = (size_t)a.w * a.h;
    ck_assert(!memcmp(a.color, b.color, 4 * n * sizeof *a.color));
    ck_assert(!memcmp(&sa, &sb, sizeof sa));
    gfx_fb_free(&a);
    gfx_fb_free(&b);
    draw_chain(3, false, &a, &sa, 1, &na, &ea);
    draw_chain(3, true, &b, &sb, 1, &nb, &eb);
    ck_assert_uint_eq(na, 0);
    ck_assert_uint_eq(nb, 0);
    ck_assert_str_eq(ea.msg, eb.msg);
    ck_assert(strstr(eb.msg, "drawing 360 vertices"));
    gfx_fb_free(&a);
    gfx_fb_free(&b);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("gfx_pool");
    TCase *t = tcase_create("pool");
    tcase_add_test(t, pool_runs_each_index_once);
    tcase_add_test(t, pool_scratch_kept);
    tcase_add_test(t, draw_same_on_pool);
    tcase_add_test(t, chain_budget_as_serial);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
