/*
 * pass_deadstore (glsl/pass_deadstore.c): writes of components that
 * straight-line code overwrites before reading them, or never reads
 * again, go; at flow everything is live.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nOPTION USHADER_extensions;\n" \
                 "TEMP R0, R1, R2;\n" body "END\n"

START_TEST(overwritten_or_unread)
{
    ck_assert(expect_pass(pass_deadstore, VP(
        "MOV R0, vertex.normal;\n"         /* overwritten */
        "MOV R0, vertex.color;\n"
        "MOV R1.xy, vertex.normal;\n"      /* .x read below, .y not */
        "MOV R1.zw, vertex.normal;\n"      /* overwritten, never read */
        "ADD R2, R0, R1.x;\n"
        "MOV R1.zw, vertex.color;\n"
        "MOV result.position, R2;\n"
        "MOV R2, R0;\n"), 0, VP(            /* never read again */
        "MOV R0, vertex.color;\n"
        "MOV R1.xy, vertex.normal;\n"
        "ADD R2, R0, R1.x;\n"
        "MOV result.position, R2;\n")));
}
END_TEST

START_TEST(stays)
{
    const char *cases[] = {
        /* read by the next loop iteration or after the IF */
        VP("MOV R0, vertex.normal;\n"
           "BGNLOOP;\n"
           "ADD R1, R0, R1;\n"
           "MOV R0, vertex.color;\n"
           "IF R1.x;\nBRK;\nENDIF;\n"
           "ENDLOOP;\n"
           "MOV result.position, R1;\n"),
        VP("MOV R0, vertex.normal;\n"
           "IF vertex.color.x;\n"
           "MOV R0, vertex.color;\n"
           "ENDIF;\n"
           "MOV result.position, R0;\n"),
        /* XPD does not write .w: the .w before it is read */
        VP("MOV R0, vertex.normal;\n"
           "XPD R0, vertex.color, vertex.normal;\n"
           "MOV result.position, R0;\n"),
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_msg(!expect_pass(pass_deadstore, cases[i], 0, cases[i]),
                      "case %u", i);
}
END_TEST

static void just_deadstore(struct spv *s)
{
    pass_deadstore(s);
}

START_TEST(random_programs_keep_outputs)
{
    unsigned changed = random_property(just_deadstore, _i, false,
                                       0xdead5 + (uint64_t)_i, 400);
    printf("deadstore: %u of 400 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 40);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_deadstore");
    TCase *t = tcase_create("deadstore");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, overwritten_or_unread);
    tcase_add_test(t, stays);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
