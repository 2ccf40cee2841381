/*
 * pass_vectorize (glsl/pass_vectorize.c): same-operation instructions
 * writing different components of one register from the same sources
 * become one; replicated and dot-product results of the same operands
 * too; the translation's constants merge.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nTEMP R0, R1, R2;\n" body "END\n"

START_TEST(component_chain)
{
    ck_assert(expect_pass(pass_vectorize,
        VP("MUL R0.x, vertex.position.y, vertex.color.x;\n"
           "MUL R0.y, vertex.position.x, vertex.color.x;\n"
           "MUL R0.z, vertex.position.z, vertex.color.y;\n"
           "MUL R0.w, vertex.position.w, vertex.color.w;\n"
           "MOV result.position, R0;\n"),
        0, VP("MUL R0, vertex.position.yxzw, vertex.color.xxyw;\n"
              "MOV result.position, R0;\n")));
}
END_TEST

/* Past instructions that do not touch its registers; RCP of one value. */
START_TEST(moves_up)
{
    ck_assert(expect_pass(pass_vectorize,
        VP("RCP R0.x, vertex.position.y;\n"
           "ADD R1, vertex.color, vertex.color;\n"
           "RCP R0.z, vertex.position.y;\n"
           "DP3 R2.x, R1, vertex.color;\n"
           "DP3 R2.y, R1, vertex.color;\n"
           "ADD R0.y, R1.x, R2.x;\n"
           "MOV result.position, R0;\n"),
        0, VP("RCP R0.xz, vertex.position.y;\n"
              "ADD R1, vertex.color, vertex.color;\n"
              "DP3 R2.xy, R1, vertex.color;\n"
              "ADD R0.y, R1.x, R2.x;\n"
              "MOV result.position, R0;\n")));
}
END_TEST

/* A dependence, a register written between, other sources, another
 * negation, a different value replicated: each stays. */
START_TEST(left_alone)
{
    const char *dep = VP("ADD R0.x, vertex.position, vertex.color;\n"
                         "ADD R0.y, R0.x, vertex.color;\n"
                         "MOV result.position, R0;\n");
    ck_assert(!expect_pass(pass_vectorize, dep, 0, dep));
    const char *between = VP("ADD R0.x, R1, vertex.color;\n"
                             "MOV R1, vertex.position;\n"
                             "ADD R0.y, R1, vertex.color;\n"
                             "MOV result.position, R0;\n");
    ck_assert(!expect_pass(pass_vectorize, between, 0, between));
    const char *other = VP("ADD R0.x, vertex.position, vertex.color;\n"
                           "ADD R0.y, vertex.position, vertex.normal;\n"
                           "ADD R0.z, vertex.position, -vertex.color;\n"
                           "RCP R0.w, vertex.position.x;\n"
                           "RCP R1.x, vertex.position.y;\n"
                           "RCP R1.y, vertex.position.x;\n"
                           "MOV result.position, R0;\n"
                           "MOV result.color, R1;\n");
    ck_assert(!expect_pass(pass_vectorize, other, 0, other));
    const char *flow =
        "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0;\n"
        "ADD R0.x, vertex.position, vertex.color;\n"
        "IF vertex.color.x;\n"
        "ADD R0.y, vertex.position, vertex.color;\n"
        "ENDIF;\n"
        "MOV result.position, R0;\nEND\n";
    ck_assert(!expect_pass(pass_vectorize, flow, 0, flow));
}
END_TEST

/* Before allocation the translation's constants are its own: two merge
 * into one holding each instruction's values. */
START_TEST(constants_merge)
{
    struct spv s;
    memset(&s, 0, sizeof s);
    s.stage = US_STAGE_VERTEX;
    struct constant c[4] = { { { 0, 0, 0, 0 } }, { { 1, 1, 1, 1 } } };
    s.consts = c;
    s.nconsts = 2;
    s.cap_consts = 4;
    struct us_inst in[2];
    memset(in, 0, sizeof in);
    for (unsigned i = 0; i < 2; i++) {
        in[i].op = US_OP_MOV;
        in[i].dst = (struct us_dst){ .file = US_FILE_TEMP, .index = 0,
                                     .mask = i ? 0x8 : 0x7 };
        in[i].src[0] = (struct us_src){ .file = US_FILE_PARAM,
                                        .index = (uint16_t)(CONST_BASE + i),
                                        .swz = { 0, 0, 0, 0 } };
    }
    s.insts = in;
    s.ninsts = 2;
    ck_assert(pass_vectorize(&s));
    ck_assert_uint_eq(s.ninsts, 1);
    ck_assert_uint_eq(in[0].dst.mask, 0xf);
    ck_assert_uint_eq(s.nconsts, 3);
    ck_assert_uint_eq(in[0].src[0].index, CONST_BASE + 2);
    const float want[4] = { 0, 0, 0, 1 };
    ck_assert(!memcmp(c[2].v, want, sizeof want));
    for (unsigned p = 0; p < 4; p++)
        ck_assert_uint_eq(in[0].src[0].swz[p], p);
}
END_TEST

static void just_vectorize(struct spv *s)
{
    pass_vectorize(s);
}

START_TEST(random_programs_keep_bits)
{
    unsigned changed = random_property(just_vectorize, _i, true,
                                       0x7ec + (uint64_t)_i, 400);
    printf("vectorize: %u of 400 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 5);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_vectorize");
    TCase *t = tcase_create("vectorize");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, component_chain);
    tcase_add_test(t, moves_up);
    tcase_add_test(t, left_alone);
    tcase_add_test(t, constants_merge);
    tcase_add_loop_test(t, random_programs_keep_bits, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
