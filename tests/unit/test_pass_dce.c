/*
 * pass_dce (glsl/pass_dce.c): instructions whose register nobody reads go,
 * transitively; flow control, outputs and side effects stay.
 */
#include "pass_util.h"

#include "check_main.h"

START_TEST(transitive)
{
    ck_assert(expect_pass(pass_dce,
        "!!ARBvp1.0\nTEMP R0, R1, R2;\n"
        "MOV R0, vertex.position;\n"
        "ADD R1, R0, R0;\n"
        "MUL R2, vertex.color, vertex.color;\n"
        "MOV result.position, R2;\nEND\n", 0,
        "!!ARBvp1.0\nTEMP R0, R1, R2;\n"
        "MUL R2, vertex.color, vertex.color;\n"
        "MOV result.position, R2;\nEND\n"));
}
END_TEST

START_TEST(keeps_what_is_read)
{
    const char *all =
        "!!ARBfp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
        "MOV R0, fragment.color;\n"
        "IF R0.x;\n"
        "KIL -R0;\n"
        "ENDIF;\n"
        "MOV R1, R0;\n"
        "MOV result.color, R1;\nEND\n";
    ck_assert(!expect_pass(pass_dce, all, 0, all));
}
END_TEST

static void just_dce(struct spv *s)
{
    pass_dce(s);
}

START_TEST(random_programs_keep_outputs)
{
    unsigned changed = random_property(just_dce, _i, false, 0xdce + (uint64_t)_i, 300);
    printf("dce: %u of 300 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 10);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_dce");
    TCase *t = tcase_create("dce");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, transitive);
    tcase_add_test(t, keeps_what_is_read);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
