/*
 * pass_coalesce (glsl/pass_coalesce.c): the instruction computing a value
 * copied once writes the copy's register itself, its operands' selectors
 * following the copy's.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nTEMP R0, R1, R2;\n" body "END\n"

START_TEST(into_the_copy)
{
    /* R1 (SSA, bit 1) read once by the copy into the variable R0 */
    ck_assert(expect_pass(pass_coalesce,
        VP("MUL R1.xy, vertex.position.xyzw, vertex.color.zwxy;\n"
           "MOV R0.zw, R1.xxxy;\n"
           "MOV result.position, R0;\n"), 0x2,
        VP("MUL R0.zw, vertex.position.xyxy, vertex.color.zwzw;\n"
           "MOV result.position, R0;\n")));
    /* a replicated result goes anywhere, a lookup only where it was */
    ck_assert(expect_pass(pass_coalesce,
        VP("RCP R1.x, vertex.position.y;\n"
           "MOV R0.yz, R1.x;\n"
           "DP3 R2.x, vertex.position, vertex.color;\n"
           "MOV result.position.xw, R2.x;\n"
           "MOV result.color, R0;\n"), 0x6,
        VP("RCP R0.yz, vertex.position.y;\n"
           "DP3 result.position.xw, vertex.position, vertex.color;\n"
           "MOV result.color, R0;\n")));
    /* one component of a component-wise result copied to several: each
     * computes it (build.vert's max(dot(N, L), 0.0) * vec3(1.0)) */
    ck_assert(expect_pass(pass_coalesce,
        VP("MAX R1.x, vertex.position.y, vertex.color.z;\n"
           "MOV result.color.xyz, R1.x;\n"
           "ADD R2.xy, vertex.position, vertex.color;\n"
           "MOV R0.yzw, R2.yxxy;\n"
           "MOV result.position, R0;\n"), 0x6,
        VP("MAX result.color.xyz, vertex.position.y, vertex.color.z;\n"
           "ADD R0.yzw, vertex.position.xxxy, vertex.color.xxxy;\n"
           "MOV result.position, R0;\n")));
}
END_TEST

/* A copy of a copy (pass_constfold can leave one): the value goes into
 * the last register, once. */
START_TEST(copy_of_a_copy)
{
    ck_assert(expect_pass(pass_coalesce,
        VP("ADD R1, vertex.position, vertex.color;\n"
           "MOV R2, R1;\n"
           "MOV R0, R2;\n"
           "MOV result.position, R0;\n"), 0x6,
        VP("ADD R0, vertex.position, vertex.color;\n"
           "MOV result.position, R0;\n")));
}
END_TEST

START_TEST(left_alone)
{
    /* read twice; R0 read between; the copy negates; a lookup's
     * components moved; another block */
    const char *twice = VP("ADD R1, vertex.position, vertex.color;\n"
                           "MOV R0, R1;\n"
                           "MOV result.color, R1;\n"
                           "MOV result.position, R0;\n");
    ck_assert(!expect_pass(pass_coalesce, twice, 0x2, twice));
    const char *between = VP("ADD R1, vertex.position, vertex.color;\n"
                             "MOV result.color, R0;\n"
                             "MOV R0, R1;\n"
                             "MOV result.position, R0;\n");
    ck_assert(!expect_pass(pass_coalesce, between, 0x2, between));
    const char *neg = VP("ADD R1, vertex.position, vertex.color;\n"
                         "MOV R0, -R1;\n"
                         "MOV result.position, R0;\n");
    ck_assert(!expect_pass(pass_coalesce, neg, 0x2, neg));
    const char *tex = "!!ARBfp1.0\nTEMP R0, R1;\n"
                      "TEX R1, fragment.texcoord[0], texture[0], 2D;\n"
                      "MOV R0, R1.yxzw;\n"
                      "MOV result.color, R0;\nEND\n";
    ck_assert(!expect_pass(pass_coalesce, tex, 0x2, tex));
    const char *flow =
        "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
        "ADD R1, vertex.position, vertex.color;\n"
        "IF vertex.color.x;\n"
        "MOV R0, R1;\n"
        "ENDIF;\n"
        "MOV result.position, R0;\nEND\n";
    ck_assert(!expect_pass(pass_coalesce, flow, 0x2, flow));
}
END_TEST

static void just_coalesce(struct spv *s)
{
    pass_coalesce(s);
}

START_TEST(random_programs_keep_outputs)
{
    unsigned changed = random_property(just_coalesce, _i, false,
                                       0xc0a1 + (uint64_t)_i, 400);
    printf("coalesce: %u of 400 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 0);   /* the pass did something */
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_coalesce");
    TCase *t = tcase_create("coalesce");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, into_the_copy);
    tcase_add_test(t, copy_of_a_copy);
    tcase_add_test(t, left_alone);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
