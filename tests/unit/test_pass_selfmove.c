/*
 * pass_selfmove (glsl/pass_selfmove.c): MOVs of components onto
 * themselves, and a copy undoing the copy before it, go.
 */
#include "pass_util.h"

#include "check_main.h"

START_TEST(self_and_undo)
{
    ck_assert(expect_pass(pass_selfmove,
        "!!ARBvp1.0\nTEMP R0, R1;\n"
        "MOV R0, vertex.position;\n"
        "MOV R0.xy, R0;\n"
        "MOV R1.xy, R0.yxzw;\n"
        "MOV R0.xy, R1.yxzw;\n"
        "MOV result.position, R0;\nEND\n", 0,
        "!!ARBvp1.0\nTEMP R0, R1;\n"
        "MOV R0, vertex.position;\n"
        "MOV R1.xy, R0.yxzw;\n"
        "MOV result.position, R0;\nEND\n"));
}
END_TEST

START_TEST(left_alone)
{
    const char *moved =
        "!!ARBvp1.0\nTEMP R0, R1;\n"
        "MOV R0, vertex.position;\n"
        "MOV R0.xy, R0.yxzw;\n"
        "MOV R1, R0;\n"
        "ADD R0, R0, R0;\n"
        "MOV R0, R1;\n"
        "MOV result.position, R0;\nEND\n";
    ck_assert(!expect_pass(pass_selfmove, moved, 0, moved));
}
END_TEST

static void just_selfmove(struct spv *s)
{
    pass_selfmove(s);
}

START_TEST(random_programs_keep_bits)
{
    random_property(just_selfmove, _i, true, 0x5e1f + (uint64_t)_i, 300);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_selfmove");
    TCase *t = tcase_create("selfmove");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, self_and_undo);
    tcase_add_test(t, left_alone);
    tcase_add_loop_test(t, random_programs_keep_bits, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
