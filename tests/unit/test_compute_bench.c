/* The compute bench's pure helpers (suite/compute.h): which kernels --only
 * and --all select, the launch Tiny-OpenCL gives a kernel on e-GPU, and
 * which run errors are refusals rather than failures. */
#include <check.h>
#include <string.h>

#include "suite/compute.h"

static const char *ids[US_CB_MAX_KERNELS];

START_TEST(select_only_and_all)
{
    unsigned sample = us_cb_select(NULL, false, ids, US_CB_MAX_KERNELS),
             all = us_cb_select(NULL, true, ids, US_CB_MAX_KERNELS);
    ck_assert_uint_gt(sample, 0);
    ck_assert_uint_gt(all, sample);   /* gemm128, gemm256 are bench only */
    unsigned n = us_cb_select("gemm", false, ids, US_CB_MAX_KERNELS);
    for (unsigned i = 0; i < n; i++) {
        ck_assert_ptr_nonnull(strstr(ids[i], "gemm"));
        ck_assert_ptr_null(strstr(ids[i], "128"));
    }
    ck_assert_uint_gt(us_cb_select("gemm", true, ids, US_CB_MAX_KERNELS), n);
    n = us_cb_select("vadd,rodinia_bfs", false, ids, US_CB_MAX_KERNELS);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(ids[0], "vadd");   /* list.def's order */
    ck_assert_str_eq(ids[1], "rodinia_bfs");
    ck_assert_uint_eq(us_cb_select("nothing", true, ids, US_CB_MAX_KERNELS), 0);
    ck_assert_uint_eq(us_cb_select(NULL, true, ids, 3), 3);   /* bounded */
}
END_TEST

static struct us_cb_variant egpu(int lanes, int warp, int warps)
{
    struct us_cb_variant v = { .group = US_CB_EGPU, .tiny_opencl = true };
    us_config_default(&v.cfg);
    v.cfg.v[US_KNOB_alu_lanes] = lanes;
    v.cfg.v[US_KNOB_simt_warp_size] = warp;
    v.cfg.v[US_KNOB_simt_warps] = warps;
    return v;
}

START_TEST(launch_tiny_opencl)
{
    struct kref k = { .groups = { 32, 1, 1 } };
    struct us_cb_kernel ck = { .k = &k, .any_shape = true };
    ck.prog.group_size[0] = 8;
    ck.prog.group_size[1] = ck.prog.group_size[2] = 1;
    uint32_t g[3], l[3];
    struct us_cb_variant t16 = egpu(16, 8, 4), t1 = egpu(1, 1, 1);
    /* OpenCL C: CUs x (warps x threads), whatever the kernel's own */
    us_cb_launch(&ck, &t16, g, l);
    ck_assert_uint_eq(g[0], 2);
    ck_assert_uint_eq(l[0], 32);
    ck_assert_uint_eq(g[1] * g[2] * l[1] * l[2], 1);
    us_cb_launch(&ck, &t1, g, l);
    ck_assert_uint_eq(g[0], 1);
    ck_assert_uint_eq(l[0], 1);
    /* one workgroup (a barrier): one CU */
    k.groups[0] = 1;
    us_cb_launch(&ck, &t16, g, l);
    ck_assert_uint_eq(g[0], 1);
    ck_assert_uint_eq(l[0], 32);
    /* GLSL keeps its 256 work-items, one CU's slots a workgroup */
    k.groups[0] = 32;
    ck.any_shape = false;
    us_cb_launch(&ck, &t16, g, l);
    ck_assert_uint_eq(g[0], 8);
    ck_assert_uint_eq(l[0], 32);
    us_cb_launch(&ck, &t1, g, l);
    ck_assert_uint_eq(g[0], 256);
    ck_assert_uint_eq(l[0], 1);
    /* ... unless they do not divide, or span two dimensions */
    struct us_cb_variant t12 = egpu(12, 6, 4);
    us_cb_launch(&ck, &t12, g, l);
    ck_assert_uint_eq(g[0], 32);
    ck_assert_uint_eq(l[0], 0);
    k.groups[1] = 4;
    us_cb_launch(&ck, &t16, g, l);
    ck_assert_uint_eq(g[0], 32);
    ck_assert_uint_eq(g[1], 4);
    ck_assert_uint_eq(l[0], 0);
    /* any other variant: the kernel's launch */
    struct us_cb_variant plain = { .group = US_CB_MODEL };
    us_config_default(&plain.cfg);
    k.local[0] = 16;
    k.local[1] = k.local[2] = 1;
    ck.any_shape = true;
    us_cb_launch(&ck, &plain, g, l);
    ck_assert_uint_eq(g[0], 32);
    ck_assert_uint_eq(l[0], 16);
    /* the divergence study: a grid-stride kernel a warp a workgroup (512
     * work-items), a GLSL one as it is */
    k.groups[1] = 1;
    struct us_cb_variant w32 = { .group = US_CB_DIVERGE, .warp = 32 };
    us_config_default(&w32.cfg);
    us_cb_launch(&ck, &w32, g, l);
    ck_assert_uint_eq(g[0], 16);
    ck_assert_uint_eq(l[0], 32);
    ck.any_shape = false;
    us_cb_launch(&ck, &w32, g, l);
    ck_assert_uint_eq(g[0], 32);
    ck_assert_uint_eq(l[0], 16);
}
END_TEST

START_TEST(refusals)
{
    struct us_config pdom, sync;
    struct us_diag d;
    us_config_default(&pdom);
    us_config_default(&sync);
    ck_assert(us_config_set(&sync, "reconv=sync", &d));
    ck_assert(us_cb_is_refusal("simt: a workgroup of 8 threads must fit one "
                               "core, which holds 1 x 4", &pdom));
    ck_assert(us_cb_is_refusal("simt: reconv=none (one pc per warp) runs "
                               "code that branches with BRA only", &pdom));
    ck_assert(us_cb_is_refusal("simt: reconv=sync: lanes finished", &sync));
    const char *bar = "simt: a lockstep warp reached BAR with 3 of its lanes "
                      "masked off by flow control";
    ck_assert(us_cb_is_refusal(bar, &sync));
    ck_assert(!us_cb_is_refusal(bar, &pdom));   /* a bug elsewhere */
    ck_assert(!us_cb_is_refusal("thread 3 exceeded the instruction budget",
                                &sync));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("compute_bench");
    TCase *tc = tcase_create("helpers");
    tcase_add_test(tc, select_only_and_all);
    tcase_add_test(tc, launch_tiny_opencl);
    tcase_add_test(tc, refusals);
    suite_add_tcase(s, tc);
    return s;
}

#include "check_main.h"
