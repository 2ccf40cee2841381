/*
 * pass_madfuse (glsl/pass_madfuse.c): a product read by one sum alone
 * becomes the sum's (unfused) MAD; nothing else does.
 */
#include "pass_util.h"

#include "check_main.h"

#define FP "!!ARBfp1.0\nTEMP R0;\n"
#define VP "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1, R2, R3;\n"

START_TEST(product_into_sum)
{
    /* R0 SSA: MUL + ADD -> MAD, the sum's selectors composed. */
    ck_assert(expect_pass(pass_madfuse, VP
        "MUL R0, vertex.position, {0.5, 2, 3, 4};\n"
        "ADD result.position.xy, R0.yxxx, vertex.color;\nEND\n", 0x1, VP
        "MAD result.position.xy, vertex.position.yxyy, {0.5, 2, 3, 4}.yxyy,"
        " vertex.color;\nEND\n"));
    /* SUB t, c: MAD a, b, -c; SUB c, t: MAD -a, b, c; a negated t too. */
    ck_assert(expect_pass(pass_madfuse, VP
        "MUL R0, vertex.position, vertex.normal;\n"
        "SUB R1, R0, vertex.color;\n"
        "MUL R2, -vertex.position, vertex.normal;\n"
        "SUB R3, vertex.color, R2;\n"
        "ADD result.position, R1, R3;\nEND\n", 0x5, VP
        "MAD R1, vertex.position, vertex.normal, -vertex.color;\n"
        "MAD R3, vertex.position, vertex.normal, vertex.color;\n"
        "ADD result.position, R1, R3;\nEND\n"));
    /* The product second, saturated sum. */
    ck_assert(expect_pass(pass_madfuse, FP
        "MUL R0.xyz, fragment.color, fragment.texcoord[0];\n"
        "ADD_SAT result.color.xyz, fragment.color, -R0;\nEND\n", 0x1, FP
        "MAD_SAT result.color.xyz, -fragment.color.xyzx, fragment.texcoord[0].xyzx,"
        " fragment.color;\nEND\n"));
}
END_TEST

START_TEST(stays)
{
    const char *cases[] = {
        /* R0 not SSA */
        VP "MUL R0, vertex.position, vertex.normal;\n"
           "ADD result.position, R0, vertex.color;\nEND\n",
        /* read twice */
        VP "MUL R0, vertex.position, vertex.normal;\n"
           "ADD result.position, R0, R0;\nEND\n",
        VP "MUL R0, vertex.position, vertex.normal;\n"
           "ADD result.position, R0, vertex.color;\n"
           "MOV result.color, R0;\nEND\n",
        /* saturated product: the sum would see the unclamped one */
        FP "MUL_SAT R0, fragment.color, fragment.texcoord[0];\n"
           "ADD result.color, R0, fragment.color;\nEND\n",
        /* an operand rewritten between */
        VP "MOV R1, vertex.normal;\n"
           "MUL R0, vertex.position, R1;\n"
           "MOV R1, vertex.color;\n"
           "ADD result.position, R0, R1;\nEND\n",
        /* flow between */
        VP "MUL R0, vertex.position, vertex.normal;\n"
           "IF vertex.color.x;\nMOV result.color, vertex.color;\nENDIF;\n"
           "ADD result.position, R0, vertex.color;\nEND\n",
        /* a component the product does not write */
        VP "MUL R0.xy, vertex.position, vertex.normal;\n"
           "ADD result.position.xz, R0.xyzw, vertex.color;\nEND\n",
        /* negation of some components only */
        VP "MUL R0, vertex.position, -vertex.normal.xxxx;\n"
           "SWZ R1, vertex.color, x, y, z, w;\n"
           "ADD result.position, R0, R1;\nEND\n",
        /* not a sum */
        VP "MUL R0, vertex.position, vertex.normal;\n"
           "MUL result.position, R0, vertex.color;\nEND\n",
    };
    unsigned ssa[] = { 0, 1, 1, 1, 1, 1, 1, 0, 1 };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_msg(!expect_pass(pass_madfuse, cases[i], ssa[i], cases[i]),
                      "case %u", i);
}
END_TEST

/* Products into fresh SSA registers before random sums, one of whose
 * operands reads the product (random selectors and negation). */
static void with_products(struct us_rng *r, struct us_program *p,
                          uint8_t *ssa)
{
    struct us_inst *out = calloc(2 * p->ninsts + 1, sizeof *out);
    ck_assert_ptr_nonnull(out);
    unsigned n = 0, fresh = p->ntemps;
    for (unsigned i = 0; i < p->ninsts; i++) {
        struct us_inst in = p->insts[i];
        if ((in.op == US_OP_ADD || in.op == US_OP_SUB) &&
            fresh < US_MAX_TEMPS && us_rng_below(r, 4)) {
            unsigned k = us_rng_below(r, 2);
            struct us_inst m;
            memset(&m, 0, sizeof m);
            m.op = US_OP_MUL;
            m.sat = us_rng_below(r, 8) == 0;
            m.dst = (struct us_dst){ .file = US_FILE_TEMP,
                                     .index = (uint16_t)fresh, .mask = 0xf };
            if (us_rng_below(r, 4) == 0)
                m.dst.mask = (uint8_t)(1 + us_rng_below(r, 15));
            m.src[0] = in.src[k];
            m.src[1] = in.src[us_rng_below(r, 2)];
            m.src[0].negate = us_rng_below(r, 4) == 0 ? 0xf : 0;
            for (unsigned c = 0; c < 4; c++)
                m.src[1].swz[c] = (uint8_t)us_rng_below(r, 4);
            m.line = in.line;
            out[n++] = m;
            in.src[k].file = US_FILE_TEMP;
            in.src[k].index = (uint16_t)fresh;
            in.src[k].rel = false;
            in.src[k].negate = us_rng_below(r, 3) == 0 ? 0xf : 0;
            for (unsigned c = 0; c < 4; c++)
                in.src[k].swz[c] = (uint8_t)us_rng_below(r, 4);
            ssa[fresh++] = 1;
        }
        out[n++] = in;
    }
    free(p->insts);
    p->insts = out;
    p->ninsts = n;
    p->ntemps = fresh;
    us_flow_free(p->flow);
    p->flow = NULL;
    struct us_diag d;
    if (!us_flow_build(p, &p->flow, &d))
        ck_abort_msg("flow: %s", d.msg);
}

static void just_madfuse(struct spv *s)
{
    pass_madfuse(s);
}

START_TEST(random_programs_keep_bits)
{
    unsigned changed = random_property_prep(just_madfuse, _i, false,
                                            0x3adf + (uint64_t)_i, 400,
                                            with_products);
    printf("madfuse: %u of 400 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 20);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_madfuse");
    TCase *t = tcase_create("madfuse");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, product_into_sum);
    tcase_add_test(t, stays);
    tcase_add_loop_test(t, random_programs_keep_bits, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
