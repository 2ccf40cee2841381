/*
 * pass_constfold (glsl/pass_constfold.c): a product with the
 * translation's constant 1 is its other factor; a sum with -0.0 (or a
 * difference with +0.0) its other operand, a sum with +0.0 too when that
 * cannot be -0.0; nothing else folds.
 */
#include "pass_util.h"

#include "check_main.h"

static struct us_inst inst(enum us_opcode op, struct us_src a,
                           struct us_src b, struct us_src c)
{
    struct us_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.dst = (struct us_dst){ .file = US_FILE_TEMP, .index = 0, .mask = 0xf };
    in.src[0] = a;
    in.src[1] = b;
    in.src[2] = c;
    return in;
}

static struct us_src konst(unsigned i, uint8_t c)
{
    return (struct us_src){ .file = US_FILE_PARAM,
                            .index = (uint16_t)(CONST_BASE + i),
                            .swz = { c, c, c, c } };
}

START_TEST(times_one)
{
    struct constant k[2] = { { { 1, 1, 1, 1 } }, { { 2, 1, 0, -0.0f } } };
    const struct us_src in = { .file = US_FILE_INPUT, .index = 3,
                               .swz = { 1, 2, 3, 0 } };
    struct us_src neg_one = konst(0, 0);
    neg_one.negate = 0xf;
    struct us_inst code[5] = {
        inst(US_OP_MUL, in, konst(0, 0), (struct us_src){ 0 }),
        inst(US_OP_MAD, konst(1, 1), in, in),
        inst(US_OP_MUL, in, konst(1, 0), (struct us_src){ 0 }),  /* 2 */
        inst(US_OP_MUL, in, neg_one, (struct us_src){ 0 }),      /* -1 */
        inst(US_OP_ADD, in, konst(1, 3), (struct us_src){ 0 }),  /* -0 */
    };
    code[0].sat = true;
    struct spv s;
    memset(&s, 0, sizeof s);
    s.insts = code;
    s.ninsts = 5;
    s.consts = k;
    s.nconsts = 2;
    ck_assert(pass_constfold(&s));
    ck_assert_uint_eq(code[0].op, US_OP_MOV);
    ck_assert(code[0].sat);
    ck_assert(!memcmp(&code[0].src[0], &in, sizeof in));
    ck_assert_uint_eq(code[1].op, US_OP_ADD);
    ck_assert(!memcmp(&code[1].src[0], &in, sizeof in));
    ck_assert(!memcmp(&code[1].src[1], &in, sizeof in));
    ck_assert_uint_eq(code[2].op, US_OP_MUL);
    ck_assert_uint_eq(code[3].op, US_OP_MUL);
    ck_assert_uint_eq(code[4].op, US_OP_MOV);   /* a + -0.0 is a */
    ck_assert(!memcmp(&code[4].src[0], &in, sizeof in));
    ck_assert(!pass_constfold(&s));
}
END_TEST

/* A MUL by 1 in one component only stays. */
START_TEST(partly_one)
{
    struct constant k[1] = { { { 1, 2, 1, 1 } } };
    const struct us_src in = { .file = US_FILE_INPUT, .index = 0,
                               .swz = { 0, 1, 2, 3 } };
    struct us_src one = konst(0, 0);
    one.swz[1] = 1;
    struct us_inst code[1] = { inst(US_OP_MUL, in, one, (struct us_src){ 0 }) };
    struct spv s;
    memset(&s, 0, sizeof s);
    s.insts = code;
    s.ninsts = 1;
    s.consts = k;
    s.nconsts = 1;
    ck_assert(!pass_constfold(&s));
    code[0].dst.mask = 0xd;   /* .y not written: 1 wherever read */
    ck_assert(pass_constfold(&s));
    ck_assert_uint_eq(code[0].op, US_OP_MOV);
}
END_TEST

/* Only the components someone reads need the 1: the product computed in
 * .xyzw and read in .xyz (vec4(d * vec3(1.0), 1.0)); read in .w too, it
 * stays. */
START_TEST(one_where_read)
{
    struct constant k[1] = { { { 1, 1, 1, 0 } } };
    const struct us_src in = { .file = US_FILE_INPUT, .index = 0,
                               .swz = { 0, 0, 0, 0 } };
    struct us_src r0 = { .file = US_FILE_TEMP, .index = 0,
                         .swz = { 0, 1, 2, 3 } };
    struct us_src r1 = r0;
    r1.index = 1;
    struct us_src one = konst(0, 0);
    for (uint8_t c = 0; c < 4; c++)
        one.swz[c] = c;
    struct us_inst code[4] = {
        inst(US_OP_MUL, one, in, (struct us_src){ 0 }),
        inst(US_OP_MOV, r0, (struct us_src){ 0 }, (struct us_src){ 0 }),
        inst(US_OP_MUL, one, in, (struct us_src){ 0 }),
        inst(US_OP_MOV, r1, (struct us_src){ 0 }, (struct us_src){ 0 }),
    };
    code[2].dst.index = 1;
    code[1].dst = (struct us_dst){ .file = US_FILE_OUTPUT, .index = 0,
                                   .mask = 0x7 };
    code[3].dst = (struct us_dst){ .file = US_FILE_OUTPUT, .index = 1,
                                   .mask = 0xf };
    struct spv s;
    memset(&s, 0, sizeof s);
    s.insts = code;
    s.ninsts = 4;
    s.consts = k;
    s.nconsts = 1;
    s.nvregs = 2;
    ck_assert(pass_constfold(&s));
    ck_assert_uint_eq(code[0].op, US_OP_MOV);
    ck_assert(!memcmp(&code[0].src[0], &in, sizeof in));
    ck_assert_uint_eq(code[2].op, US_OP_MUL);
}
END_TEST

static struct us_src temp(unsigned v)
{
    return (struct us_src){ .file = US_FILE_TEMP, .index = (uint16_t)v,
                            .swz = { 0, 1, 2, 3 } };
}

static struct us_inst def(enum us_opcode op, unsigned v, struct us_src a,
                          struct us_src b, struct us_src c)
{
    struct us_inst in = inst(op, a, b, c);
    in.dst.index = (uint16_t)v;
    return in;
}

/* x + (+0.0) is x unless x is -0.0: folded when its definition cannot
 * give -0.0 (a comparison, a MAD with a non-zero addend), not for a
 * product or an input; x - (+0.0) always. */
START_TEST(plus_zero)
{
    struct constant k[2] = { { { 0, 0, 0, 0 } }, { { 0.5f, 1, 2, -3 } } };
    const struct us_src in = { .file = US_FILE_INPUT, .index = 1,
                               .swz = { 0, 1, 2, 3 } };
    const struct us_src none = { 0 };
    struct us_src negzero = konst(0, 0);
    negzero.negate = 0xf;   /* -(+0.0): a -0.0 addend, which MAD passes on */
    struct us_inst code[] = {
        def(US_OP_SGE, 1, in, in, none),
        def(US_OP_ADD, 2, temp(1), konst(0, 0), none),        /* 1: MOV */
        def(US_OP_MUL, 3, in, in, none),
        def(US_OP_ADD, 4, temp(3), konst(0, 1), none),        /* 3: stays */
        def(US_OP_MAD, 5, in, in, konst(1, 0)),
        def(US_OP_ADD, 6, konst(0, 2), temp(5), none),        /* 5: MOV */
        def(US_OP_ADD, 7, in, konst(0, 0), none),             /* 6: stays */
        def(US_OP_SUB, 8, in, konst(0, 0), none),             /* 7: MOV */
        def(US_OP_MAD, 9, in, in, negzero),
        def(US_OP_ADD, 10, temp(9), konst(0, 0), none),       /* 9: stays */
    };
    uint8_t ssa[11];
    memset(ssa, 1, sizeof ssa);
    struct spv s;
    memset(&s, 0, sizeof s);
    s.insts = code;
    s.ninsts = sizeof code / sizeof *code;
    s.consts = k;
    s.nconsts = 2;
    s.nvregs = 11;
    s.vreg_ssa = ssa;
    ck_assert(pass_constfold(&s));
    static const uint8_t want[] = { US_OP_SGE, US_OP_MOV, US_OP_MUL,
                                    US_OP_ADD, US_OP_MAD, US_OP_MOV,
                                    US_OP_ADD, US_OP_MOV, US_OP_MAD,
                                    US_OP_ADD };
    for (unsigned i = 0; i < s.ninsts; i++)
        ck_assert_uint_eq(code[i].op, want[i]);
    ck_assert_uint_eq(code[1].src[0].index, 1);
    ck_assert_uint_eq(code[5].src[0].index, 5);
    ck_assert(!memcmp(&code[7].src[0], &in, sizeof in));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_constfold");
    TCase *t = tcase_create("constfold");
    tcase_add_test(t, times_one);
    tcase_add_test(t, partly_one);
    tcase_add_test(t, one_where_read);
    tcase_add_test(t, plus_zero);
    suite_add_tcase(s, t);
    return s;
}
