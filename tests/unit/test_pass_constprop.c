/*
 * pass_constprop (glsl/pass_constprop.c): an operand reading components
 * last written, in the same straight-line code, by copies of one constant
 * reads the constant.  Random programs keep every register's bits.
 */
#include "pass_util.h"

#include "check_main.h"

static struct us_inst inst(enum us_opcode op, unsigned dst, unsigned mask,
                           struct us_src a, struct us_src b)
{
    struct us_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.dst = (struct us_dst){ .file = US_FILE_TEMP, .index = (uint16_t)dst,
                              .mask = (uint8_t)mask };
    in.src[0] = a;
    in.src[1] = b;
    return in;
}

static struct us_src src(unsigned file, unsigned index, const char *swz)
{
    struct us_src x = { .file = (uint8_t)file, .index = (uint16_t)index };
    for (unsigned p = 0; p < 4; p++)
        x.swz[p] = (uint8_t)(strchr("xyzw", swz[p]) - "xyzw");
    return x;
}

START_TEST(through_a_variable)
{
    struct constant k[2] = { { { 0, 1, 2, 3 } }, { { 5, 6, 7, 8 } } };
    const struct us_src in = src(US_FILE_INPUT, 1, "xyzw");
    struct us_src neg = src(US_FILE_TEMP, 0, "yyyy");
    neg.negate = 0xf;
    struct us_inst code[] = {
        inst(US_OP_MOV, 0, 0xf, src(US_FILE_PARAM, CONST_BASE, "xyzw"), in),
        inst(US_OP_ADD, 1, 0xf, src(US_FILE_TEMP, 0, "yxzw"), in),
        inst(US_OP_MOV, 0, 0x1, src(US_FILE_PARAM, CONST_BASE + 1, "wwww"), in),
        inst(US_OP_MUL, 2, 0xf, src(US_FILE_TEMP, 0, "xyxy"), in),  /* two */
        inst(US_OP_ADD_U, 3, 0xf, src(US_FILE_TEMP, 0, "yyyy"), in), /* int */
        inst(US_OP_MUL, 4, 0xf, neg, in),
        inst(US_OP_IF, 0, 0, in, in),
        inst(US_OP_ADD, 5, 0xf, src(US_FILE_TEMP, 0, "yyyy"), in),  /* flow */
        inst(US_OP_ENDIF, 0, 0, in, in),
    };
    code[6].dst.file = code[8].dst.file = US_FILE_NULL;
    struct spv s;
    memset(&s, 0, sizeof s);
    s.insts = code;
    s.ninsts = sizeof code / sizeof *code;
    s.consts = k;
    s.nconsts = 2;
    s.nvregs = 6;
    ck_assert(pass_constprop(&s));
    struct us_src want = src(US_FILE_PARAM, CONST_BASE, "yxzw");
    ck_assert(!memcmp(&code[1].src[0], &want, sizeof want));
    ck_assert_uint_eq(code[3].src[0].file, US_FILE_TEMP);
    ck_assert_uint_eq(code[4].src[0].file, US_FILE_TEMP);
    want = src(US_FILE_PARAM, CONST_BASE, "yyyy");
    want.negate = 0xf;
    ck_assert(!memcmp(&code[5].src[0], &want, sizeof want));
    ck_assert_uint_eq(code[7].src[0].file, US_FILE_TEMP);
    ck_assert(!pass_constprop(&s));
}
END_TEST

/* Random flow programs with copies of constants into registers (MOV or
 * MOV.U, some negated, some partial) before random instructions; the
 * parameters read as the translation's constants while the pass runs.
 * Every register and output keeps its bits. */
START_TEST(random_programs_keep_registers)
{
    struct us_rng r = { 0xc0c0 + (uint64_t)_i };
    unsigned changed = 0;
    for (unsigned k = 0; k < 400; k++) {
        enum us_stage stage = k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
        struct us_program p;
        ck_assert(us_random_flow_program(&r, stage, 4 + us_rng_below(&r, 24),
                                         &p));
        struct us_inst *code = calloc(2 * p.ninsts + 1, sizeof *code);
        ck_assert_ptr_nonnull(code);
        unsigned n = 0;
        for (unsigned i = 0; i < p.ninsts; i++) {
            if (us_rng_below(&r, 3) == 0) {
                struct us_inst m;
                memset(&m, 0, sizeof m);
                m.op = us_rng_below(&r, 4) ? US_OP_MOV : US_OP_MOV_U;
                m.dst = (struct us_dst){ .file = US_FILE_TEMP,
                    .index = (uint16_t)us_rng_below(&r, 6),
                    .mask = (uint8_t)(us_rng_below(&r, 2) ? 0xf
                                      : 1 + us_rng_below(&r, 15)) };
                m.src[0] = (struct us_src){ .file = US_FILE_PARAM,
                    .index = (uint16_t)us_rng_below(&r, 16),
                    .negate = us_rng_below(&r, 4) ? 0 : 0xf };
                for (unsigned c = 0; c < 4; c++)
                    m.src[0].swz[c] = (uint8_t)us_rng_below(&r, 4);
                m.line = p.insts[i].line;
                code[n++] = m;
            }
            code[n++] = p.insts[i];
        }
        free(p.insts);
        p.insts = code;
        p.ninsts = n;
        us_flow_free(p.flow);
        p.flow = NULL;
        struct us_diag d;
        ck_assert(us_flow_build(&p, &p.flow, &d));
        /* the parameters as constants of the translation */
        struct constant *consts = calloc(p.nparams + 1, sizeof *consts);
        ck_assert_ptr_nonnull(consts);
        for (unsigned i = 0; i < p.nparams; i++)
            memcpy(consts[i].v, p.params[i].value, sizeof consts[i].v);
        struct spv s;
        spv_of(&p, NULL, &s);
        s.consts = consts;
        s.nconsts = p.nparams;
        for (unsigned i = 0; i < s.ninsts; i++)
            for (unsigned q = 0; q < 3; q++)
                if (s.insts[i].src[q].file == US_FILE_PARAM &&
                    !s.insts[i].src[q].rel)
                    s.insts[i].src[q].index += CONST_BASE;
        changed += pass_constprop(&s);
        for (unsigned i = 0; i < s.ninsts; i++)
            for (unsigned q = 0; q < 3; q++)
                if (s.insts[i].src[q].file == US_FILE_PARAM &&
                    s.insts[i].src[q].index >= CONST_BASE)
                    s.insts[i].src[q].index -= CONST_BASE;
        struct us_program o;
        program_of(&p, &s, &o);   /* frees consts */
        /* the values the pass read as constants */
        us_vec4 *params = calloc(p.nparams + 1, sizeof *params);
        ck_assert_ptr_nonnull(params);
        for (unsigned i = 0; i < p.nparams; i++)
            memcpy(params[i], p.params[i].value, sizeof params[i]);
        expect_same_runs(&r, &p, &o, params, true, k, "pass_constprop");
        free(params);
        program_of_free(&o);
        us_program_free(&p);
    }
    printf("constprop: %u of 400 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 50);   /* the pass did something */
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_constprop");
    TCase *t = tcase_create("constprop");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, through_a_variable);
    tcase_add_loop_test(t, random_programs_keep_registers, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
