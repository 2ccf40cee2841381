/*
 * The passes in their order (glsl/passes.c): us_passes_virtual then
 * us_passes_physical on random programs, with copies and split
 * instructions, keep the reference interpreter's outputs bit for bit.
 */
#include "pass_util.h"

#include "check_main.h"

static void all_passes(struct spv *s)
{
    us_passes_virtual(s);
    us_passes_physical(s);
}

START_TEST(random_programs_keep_outputs)
{
    unsigned changed = random_property(all_passes, _i, false,
                                       0xa11 + (uint64_t)_i, 600);
    printf("passes: %u of 600 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 100);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("passes");
    TCase *t = tcase_create("passes");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
