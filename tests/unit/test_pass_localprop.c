/*
 * pass_localprop (glsl/pass_localprop.c): within straight-line code,
 * readers of a copy read its source while neither side has been written
 * since; copies of copies go back to the first source.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nOPTION USHADER_extensions;\n" \
                 "TEMP R0, R1, R2, R3;\n" body "END\n"

/* terrain.vert's vNormal: assigned twice, so not stable for
 * pass_copyprop, but each read sees one copy. */
START_TEST(variable_assigned_twice)
{
    const char *twice = VP(
        "MOV R0, vertex.normal;\n"
        "MOV R1, R0.yxzw;\n"
        "XPD R2.xyz, R1, vertex.color;\n"
        "MOV R0, -vertex.position;\n"
        "MOV R3, R0;\n"
        "ADD R2, R2, R3.wzyx;\n"
        "MOV result.position, R2;\n");
    ck_assert(!expect_pass(pass_copyprop, twice, 0, twice));
    ck_assert(expect_pass(pass_localprop, twice, 0, VP(
        "MOV R0, vertex.normal;\n"
        "MOV R1, vertex.normal.yxzy;\n"
        "XPD R2.xyz, vertex.normal.yxzy, vertex.color;\n"
        "MOV R0, -vertex.position;\n"
        "MOV R3, -vertex.position;\n"
        "ADD R2, R2, -vertex.position.wzyx;\n"
        "MOV result.position, R2;\n")));
}
END_TEST

START_TEST(written_between)
{
    /* the source's .y rewritten: what the copy took from it is lost
     * there only; a copy of a copy reads the first source */
    const char *a = VP(
        "ADD R0, vertex.normal, vertex.color;\n"
        "MOV R1, R0;\n"
        "ADD R0.y, R0, R0;\n"
        "ADD R2, R1, vertex.color;\n"
        "ADD R3.xz, R1, vertex.color;\n"
        "MOV R1, vertex.normal;\n"
        "MOV R0, R1.wzyx;\n"
        "MOV R1.z, vertex.color;\n"
        "ADD R3.y, R0.y, R1.z;\n"
        "ADD result.position, R2, R3;\n");
    ck_assert(expect_pass(pass_localprop, a, 0, VP(
        "ADD R0, vertex.normal, vertex.color;\n"
        "MOV R1, R0;\n"
        "ADD R0.y, R0, R0;\n"
        "ADD R2, R1, vertex.color;\n"
        "ADD R3.xz, R0.xxzx, vertex.color;\n"
        "MOV R1, vertex.normal;\n"
        "MOV R0, vertex.normal.wzyx;\n"
        "MOV R1.z, vertex.color;\n"
        "ADD R3.y, vertex.normal.z, vertex.color.z;\n"
        "ADD result.position, R2, R3;\n")));
    /* flow between copy and reader */
    const char *b = VP(
        "MOV R1, R0;\n"
        "IF vertex.color.x;\n"
        "ADD R2, R1, vertex.color;\n"
        "ENDIF;\n"
        "MOV result.position, R2;\n");
    ck_assert(!expect_pass(pass_localprop, b, 0, b));
    /* mixed sources, mixed negation, an integer reader of a float copy,
     * a saturated copy */
    const char *c =
        "!!ARBfp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1, R2, R3;\n"
        "MOV R0.x, fragment.color.x;\n"
        "MOV R0.y, fragment.texcoord[0].y;\n"
        "MOV R1.x, -fragment.color.x;\n"
        "MOV R1.y, fragment.color.y;\n"
        "MOV R2, fragment.color;\n"
        "MOV_SAT R3, fragment.color;\n"
        "ADD R0, R0, R1;\n"
        "ADD.U R2, R2, R2;\n"
        "ADD R0, R0, R3;\n"
        "ADD result.color, R0, R2;\nEND\n";
    ck_assert(!expect_pass(pass_localprop, c, 0, c));
}
END_TEST

/* Only what is read for a live result counts: the .w an XPD (or a
 * result nobody reads) does not take need not come from the copy. */
START_TEST(live_positions)
{
    ck_assert(expect_pass(pass_localprop, VP(
        "MOV R0.xyz, vertex.normal;\n"
        "MOV R1, R0;\n"
        "MUL R2, R1, vertex.color.x;\n"
        "MOV result.position.xyz, R2;\n"), 0, VP(
        "MOV R0.xyz, vertex.normal;\n"
        "MOV R1, vertex.normal.xyzx;\n"
        "MUL R2, vertex.normal.xyzx, vertex.color.x;\n"
        "MOV result.position.xyz, R2;\n")));
}
END_TEST

static void just_localprop(struct spv *s)
{
    pass_localprop(s);
}

START_TEST(random_programs_keep_bits)
{
    unsigned changed = random_property(just_localprop, _i, false,
                                       0x10ca1 + (uint64_t)_i, 400);
    printf("localprop: %u of 400 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 40);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_localprop");
    TCase *t = tcase_create("localprop");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, variable_assigned_twice);
    tcase_add_test(t, written_between);
    tcase_add_test(t, live_positions);
    tcase_add_loop_test(t, random_programs_keep_bits, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
