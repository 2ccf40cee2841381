/*
 * pass_copyprop (glsl/pass_copyprop.c): readers of copies read the
 * copies' source, swizzles and negations composed; nothing else changes.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nTEMP R0, R1, R2, R3;\n" body "END\n"

START_TEST(composes_swizzle_and_negation)
{
    ck_assert(expect_pass(pass_copyprop,
        VP("MOV R0, -vertex.position.wzyx;\n"
           "ADD R1, R0.yxzw, vertex.color;\n"
           "MOV result.position, R1;\n"), 0x1,
        VP("MOV R0, -vertex.position.wzyx;\n"
           "ADD R1, -vertex.position.zwyx, vertex.color;\n"
           "MOV result.position, R1;\n")));
}
END_TEST

/* SPIR-V's split components built back: all from one register. */
START_TEST(components_of_one_register)
{
    ck_assert(expect_pass(pass_copyprop,
        VP("MOV R0.x, vertex.position.y;\n"
           "MOV R0.y, vertex.position.x;\n"
           "MOV R0.zw, vertex.position.zzzw;\n"
           "DP4 R1.x, R0, R0;\n"
           "MOV result.position, R1.x;\n"), 0x1,
        VP("MOV R0.x, vertex.position.y;\n"
           "MOV R0.y, vertex.position.x;\n"
           "MOV R0.zw, vertex.position.zzzw;\n"
           "DP4 R1.x, vertex.position.yxzw, vertex.position.yxzw;\n"
           "MOV result.position, R1.x;\n")));
}
END_TEST

/* Components from two registers, or a mixed negation, cannot be one
 * operand; a copy with _SAT is no copy. */
START_TEST(left_alone)
{
    const char *mixed =
        "!!ARBfp1.0\nTEMP R0, R1, R2, R3;\n"
        "MOV R0.x, fragment.texcoord[0].y;\n"
        "MOV R0.y, fragment.color.x;\n"
        "MOV R1.x, -fragment.texcoord[0].x;\n"
        "MOV R1.y, fragment.texcoord[0].y;\n"
        "MOV_SAT R2, fragment.texcoord[0];\n"
        "ADD R3, R0, R1;\n"
        "ADD R3, R3, R2;\n"
        "MOV result.color, R3;\nEND\n";
    ck_assert(!expect_pass(pass_copyprop, mixed, 0x7, mixed));
}
END_TEST

/* A register that is not SSA is stable only with one definition outside
 * flow control before every read. */
START_TEST(variables)
{
    const char *twice =
        "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
        "MOV R0, vertex.position;\n"
        "ADD R1, R0, R0;\n"
        "MOV R0, vertex.color;\n"
        "ADD R1, R1, R0;\n"
        "MOV result.position, R1;\nEND\n";
    ck_assert(!expect_pass(pass_copyprop, twice, 0, twice));
    const char *in_if =
        "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
        "IF vertex.color.x;\n"
        "MOV R0, vertex.position;\n"
        "ENDIF;\n"
        "ADD R1, R0, R0;\n"
        "MOV result.position, R1;\nEND\n";
    ck_assert(!expect_pass(pass_copyprop, in_if, 0, in_if));
    ck_assert(expect_pass(pass_copyprop,
        "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
        "MOV R0, vertex.position;\n"
        "IF vertex.color.x;\n"
        "ADD R1, R0, R0;\n"
        "ENDIF;\n"
        "MOV result.position, R1;\nEND\n", 0,
        "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
        "MOV R0, vertex.position;\n"
        "IF vertex.color.x;\n"
        "ADD R1, vertex.position, vertex.position;\n"
        "ENDIF;\n"
        "MOV result.position, R1;\nEND\n"));
}
END_TEST

/* Chains of copies collapse in one run. */
START_TEST(chains)
{
    ck_assert(expect_pass(pass_copyprop,
        VP("MOV R0, vertex.position.yzwx;\n"
           "MOV R1, R0.yzwx;\n"
           "MOV result.position, R1;\n"), 0x3,
        VP("MOV R0, vertex.position.yzwx;\n"
           "MOV R1, vertex.position.zwxy;\n"
           "MOV result.position, vertex.position.zwxy;\n")));
}
END_TEST

/* A copy from two sources splits into one per source, which then read
 * them directly. */
START_TEST(split_by_source)
{
    ck_assert(expect_pass(pass_split_copies,
        VP("MOV R0.x, vertex.position.y;\n"
           "MOV R0.z, vertex.color.x;\n"
           "MOV R1.xz, R0.xxzx;\n"
           "MOV result.position, R1;\n"), 0x1,
        VP("MOV R0.x, vertex.position.y;\n"
           "MOV R0.z, vertex.color.x;\n"
           "MOV R1.x, R0.xxzx;\n"
           "MOV R1.z, R0.xxzx;\n"
           "MOV result.position, R1;\n")));
    /* one source, or none a copy */
    const char *one = VP("MOV R0, vertex.position;\n"
                         "MOV R1.xz, R0.xxzx;\n"
                         "ADD R2, vertex.position, vertex.color;\n"
                         "MOV R3.xz, R2.xxzx;\n"
                         "MOV result.position, R1;\n"
                         "MOV result.color, R3;\n");
    ck_assert(!expect_pass(pass_split_copies, one, 0x1, one));
}
END_TEST

static void split_and_copyprop(struct spv *s)
{
    pass_copyprop(s);
    if (pass_split_copies(s))
        pass_copyprop(s);
}

START_TEST(random_split_programs_keep_bits)
{
    random_property(split_and_copyprop, _i, true, 0x5b1 + (uint64_t)_i, 300);
}
END_TEST

static void just_copyprop(struct spv *s)
{
    pass_copyprop(s);
}

START_TEST(random_programs_keep_bits)
{
    unsigned changed = random_property(just_copyprop, false, true,
                                       0xc0b1 + (uint64_t)_i, 400);
    printf("copyprop: %u of 400 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 10);
}
END_TEST

START_TEST(random_flow_programs_keep_bits)
{
    unsigned changed = random_property(just_copyprop, true, true, 0xc0b2, 300);
    printf("copyprop: %u of 300 random flow programs changed\n", changed);
    ck_assert_uint_gt(changed, 5);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_copyprop");
    TCase *t = tcase_create("copyprop");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, composes_swizzle_and_negation);
    tcase_add_test(t, components_of_one_register);
    tcase_add_test(t, left_alone);
    tcase_add_test(t, variables);
    tcase_add_test(t, chains);
    tcase_add_loop_test(t, random_programs_keep_bits, 0, 2);
    tcase_add_test(t, random_flow_programs_keep_bits);
    tcase_add_test(t, split_by_source);
    tcase_add_loop_test(t, random_split_programs_keep_bits, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
