/*
 * pass_cse (glsl/pass_cse.c): work done twice in straight-line code on the
 * same stable operands is done once, readers reading the first result.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1, R2, R3;\n" body "END\n"

START_TEST(done_once)
{
    /* R0 R1 R2 SSA; R1 repeats R0's ADD (on fewer components); R2 repeats
     * a replicated RCP and is read at .y */
    ck_assert(expect_pass(pass_cse,
        VP("ADD R0, vertex.position, vertex.color.yxzw;\n"
           "RCP R3.x, vertex.color.w;\n"
           "ADD R1.xy, vertex.position, vertex.color.yxzw;\n"
           "RCP R2, vertex.color.w;\n"
           "MUL result.position, R1, R2.y;\n"
           "MOV result.color, R3;\n"), 0xf,
        VP("ADD R0, vertex.position, vertex.color.yxzw;\n"
           "RCP R3.x, vertex.color.w;\n"
           "MUL result.position, R0, R3.x;\n"
           "MOV result.color, R3;\n")));
}
END_TEST

START_TEST(left_alone)
{
    /* another negation; across flow; a variable's operand; more
     * components than the first computed */
    const char *t = VP("ADD R0, vertex.position, vertex.color;\n"
                       "ADD R1, vertex.position, -vertex.color;\n"
                       "IF vertex.color.x;\n"
                       "ADD R2, vertex.position, vertex.color;\n"
                       "ENDIF;\n"
                       "MOV R3, vertex.position;\n"
                       "ADD R3, R3, vertex.color;\n"
                       "MUL R0.x, R3, R3;\n"
                       "MUL result.position, R0, R1;\n"
                       "MOV result.color, R2;\n");
    ck_assert(!expect_pass(pass_cse, t, 0x7, t));
    const char *more = VP("ADD R0.x, vertex.position, vertex.color;\n"
                          "ADD R1, vertex.position, vertex.color;\n"
                          "MUL result.position, R0, R1;\n");
    ck_assert(!expect_pass(pass_cse, more, 0x3, more));
}
END_TEST

static void just_cse(struct spv *s)
{
    pass_cse(s);
}

START_TEST(random_programs_keep_outputs)
{
    random_property(just_cse, _i, false, 0xc5e + (uint64_t)_i, 400);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_cse");
    TCase *t = tcase_create("cse");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, done_once);
    tcase_add_test(t, left_alone);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
