/*
 * pass_outputs (glsl/pass_outputs.c): an SSA value copied to an output
 * and read nowhere else is computed into the output.
 */
#include "pass_util.h"

#include "check_main.h"

START_TEST(written_in_place)
{
    ck_assert(expect_pass(pass_outputs,
        "!!ARBvp1.0\nTEMP R0;\n"
        "MUL R0.xy, vertex.position, vertex.color;\n"
        "ADD R0.zw, vertex.position, vertex.color;\n"
        "MOV result.position, R0;\nEND\n", 0x1,
        "!!ARBvp1.0\nTEMP R0;\n"
        "MUL result.position.xy, vertex.position, vertex.color;\n"
        "ADD result.position.zw, vertex.position, vertex.color;\nEND\n"));
}
END_TEST

/* Not SSA, read twice, or not right before: the MOV stays. */
START_TEST(left_alone)
{
    const char *var =
        "!!ARBvp1.0\nTEMP R0;\n"
        "MUL R0, vertex.position, vertex.color;\n"
        "MOV result.position, R0;\nEND\n";
    ck_assert(!expect_pass(pass_outputs, var, 0, var));
    const char *twice =
        "!!ARBvp1.0\nTEMP R0;\n"
        "MUL R0, vertex.position, vertex.color;\n"
        "MOV result.position, R0;\n"
        "MOV result.color, R0;\nEND\n";
    ck_assert(!expect_pass(pass_outputs, twice, 0x1, twice));
    const char *swizzled =
        "!!ARBvp1.0\nTEMP R0;\n"
        "MUL R0, vertex.position, vertex.color;\n"
        "MOV result.position, R0.yxzw;\nEND\n";
    ck_assert(!expect_pass(pass_outputs, swizzled, 0x1, swizzled));
}
END_TEST

static void just_outputs(struct spv *s)
{
    pass_outputs(s);
}

START_TEST(random_programs_keep_outputs)
{
    unsigned changed = random_property(just_outputs, _i, false,
                                       0x0e7 + (uint64_t)_i, 300);
    printf("outputs: %u of 300 random programs changed\n", changed);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_outputs");
    TCase *t = tcase_create("outputs");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, written_in_place);
    tcase_add_test(t, left_alone);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
