/*
 * pass_mad (glsl/pass_mad.c): a product read once by an ADD or SUB
 * becomes that instruction's MAD -- bit for bit, since the model's MAD
 * rounds the product first.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1, R2, R3, R4;\nADDRESS A0;\n" \
                 "PARAM p[4] = { program.local[0..3] };\n" body "END\n"
#define FP(body) "!!ARBfp1.0\nTEMP R0, R1;\n" body "END\n"

START_TEST(products_into_sums)
{
    /* selectors compose; a negated product negates a factor; SUB's
     * operands either way round */
    ck_assert(expect_pass(pass_mad,
        VP("MUL R1.xyz, vertex.position.zyxw, vertex.color;\n"
           "ADD R2.xy, vertex.normal, -R1.yzzz;\n"
           "MUL R3.x, vertex.position.x, vertex.color.y;\n"
           "SUB R0.x, vertex.normal.w, R3.x;\n"
           "MUL R4.x, vertex.position.x, vertex.color.y;\n"
           "SUB result.color, R4.x, vertex.normal;\n"
           "ADD result.position, R2, R0.x;\n"), 0x1e,
        VP("MAD R2.xy, -vertex.position.yxxx, vertex.color.yzzz, vertex.normal;\n"
           "MAD R0.x, -vertex.position.x, vertex.color.y, vertex.normal.w;\n"
           "MAD result.color, vertex.position.x, vertex.color.y, -vertex.normal;\n"
           "ADD result.position, R2, R0.x;\n")));
    /* the sum's _SAT carries over */
    ck_assert(expect_pass(pass_mad,
        FP("MUL R1, fragment.color, fragment.texcoord[0];\n"
           "ADD_SAT result.color, R1, fragment.texcoord[1];\n"), 0x2,
        FP("MAD_SAT result.color, fragment.color, fragment.texcoord[0], "
           "fragment.texcoord[1];\n")));
}
END_TEST

START_TEST(left_alone)
{
    static const char *const same[] = {
        /* read twice; _SAT on the product; a component it does not write */
        VP("MUL R1, vertex.position, vertex.color;\n"
           "ADD R2, R1, vertex.normal;\n"
           "ADD result.position, R2, R1;\n"),
        FP("MUL_SAT R1, fragment.color, fragment.texcoord[0];\n"
           "ADD result.color, R1, fragment.texcoord[1];\n"),
        VP("MUL R1.xy, vertex.position, vertex.color;\n"
           "ADD result.position, R1.xyzz, vertex.normal;\n"),
        /* a factor's register or the address register written between */
        VP("MOV R0, vertex.normal;\n"
           "MUL R1, R0, vertex.color;\n"
           "MOV R0, vertex.color;\n"
           "ADD result.position, R1, R0;\n"),
        VP("ARL A0.x, vertex.normal.x;\n"
           "MUL R1, p[A0.x], vertex.color;\n"
           "ARL A0.x, vertex.normal.y;\n"
           "ADD result.position, R1, vertex.normal;\n"),
        /* another block; not an SSA value */
        "!!ARBvp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
        "MUL R1, vertex.position, vertex.color;\n"
        "IF vertex.normal.x;\n"
        "ADD R0, R1, vertex.normal;\n"
        "ENDIF;\n"
        "MOV result.position, R0;\nEND\n",
    };
    for (unsigned k = 0; k < sizeof same / sizeof *same; k++)
        if (expect_pass(pass_mad, same[k], 0x2, same[k]))
            ck_abort_msg("case %u changed", k);
    const char *not_ssa = VP("MUL R1, vertex.position, vertex.color;\n"
                             "ADD result.position, R1, vertex.normal;\n");
    ck_assert(!expect_pass(pass_mad, not_ssa, 0, not_ssa));
}
END_TEST

/* ---- the property ---- */

enum { NVALS = 14, VAR = 0 };   /* a value per output; TEMP 0 a variable */

struct mgen {
    struct us_rng *r;
    struct us_inst *code;
    unsigned n, nvals;
    uint8_t written[NVALS + 1];
    bool shown[NVALS + 1];   /* goes to an output */
};

static struct us_src operand(struct mgen *g)
{
    struct us_src x = { .negate = us_rng_below(g->r, 3) == 0 ? 0xf : 0 };
    unsigned k = us_rng_below(g->r, 6);
    if (k == 0) {
        x.file = US_FILE_INPUT;
        x.index = US_VIN_POSITION;
    } else if (k == 1) {
        x.file = US_FILE_PARAM;
        x.index = (uint16_t)us_rng_below(g->r, 4);
        if (us_rng_below(g->r, 3) == 0) {
            x.rel = true;
            x.index = 0;
            x.rel_offset = (int16_t)us_rng_below(g->r, 3);
            x.rel_size = 4;
        }
    } else if (k == 2 || !g->nvals) {
        x.file = US_FILE_TEMP;
        x.index = VAR;
    } else {
        x.file = US_FILE_TEMP;
        x.index = (uint16_t)(1 + us_rng_below(g->r, g->nvals));
    }
    for (unsigned p = 0; p < 4; p++)
        x.swz[p] = (uint8_t)us_rng_below(g->r, 4);
    return x;
}

static struct us_inst *emit_op(struct mgen *g, unsigned op)
{
    struct us_inst *in = &g->code[g->n++];
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    return in;
}

/* Groups of a MUL into a fresh SSA value, now and then something between
 * (the variable or the address register written), and an ADD or SUB
 * reading the product with random selectors (sometimes components the
 * MUL did not write) into another fresh value.  Every sum and some
 * products (read twice then) go to an output. */
static void mad_program(struct us_rng *r, struct us_program *p, uint8_t *ssa)
{
    struct mgen g = { .r = r };
    g.code = calloc(8 * NVALS + 8, sizeof *g.code);
    ck_assert_ptr_nonnull(g.code);
    while (g.nvals + 2 <= NVALS) {
        struct us_inst *m = emit_op(&g, US_OP_MUL);
        m->src[0] = operand(&g);
        m->src[1] = operand(&g);
        m->sat = us_rng_below(r, 8) == 0;
        unsigned t = ++g.nvals;
        m->dst = (struct us_dst){ .file = US_FILE_TEMP, .index = (uint16_t)t,
                                  .mask = (uint8_t)(1 + us_rng_below(r, 15)) };
        g.written[t] = m->dst.mask;
        g.shown[t] = us_rng_below(r, 5) == 0;   /* read twice */
        ssa[t] = 1;
        unsigned k = us_rng_below(r, 6);
        if (k == 0) {
            struct us_inst *v = emit_op(&g, US_OP_MOV);
            v->dst = (struct us_dst){ .file = US_FILE_TEMP, .index = VAR,
                                      .mask = 0xf };
            v->src[0] = operand(&g);
        } else if (k == 1) {
            struct us_inst *a = emit_op(&g, US_OP_ARL);
            a->dst = (struct us_dst){ .file = US_FILE_ADDRESS, .mask = 1 };
            a->src[0] = (struct us_src){ .file = US_FILE_PARAM,
                                         .index = (uint16_t)us_rng_below(r, 4) };
        }
        struct us_inst *s = emit_op(&g, us_rng_below(r, 2) ? US_OP_ADD
                                                          : US_OP_SUB);
        unsigned q = us_rng_below(r, 2);
        s->src[q] = (struct us_src){ .file = US_FILE_TEMP, .index = (uint16_t)t,
                                     .negate = us_rng_below(r, 3) ? 0 : 0xf };
        unsigned comps[4], nc = 0;
        for (unsigned c = 0; c < 4; c++)
            if (g.written[t] >> c & 1)
                comps[nc++] = c;
        for (unsigned c = 0; c < 4; c++)
            s->src[q].swz[c] = us_rng_below(r, 8) ? (uint8_t)comps[us_rng_below(r, nc)]
                                                  : (uint8_t)us_rng_below(r, 4);
        s->src[1 - q] = operand(&g);
        s->sat = us_rng_below(r, 6) == 0;
        unsigned u = ++g.nvals;
        s->dst = (struct us_dst){ .file = US_FILE_TEMP, .index = (uint16_t)u,
                                  .mask = 0xf };
        g.written[u] = 0xf;
        g.shown[u] = true;
        ssa[u] = 1;
    }
    for (unsigned v = 1; v <= g.nvals; v++) {
        if (!g.shown[v])
            continue;
        struct us_inst *o = emit_op(&g, US_OP_MOV);
        o->dst = (struct us_dst){ .file = US_FILE_OUTPUT, .mask = 0xf,
                                  .index = (uint16_t)(v - 1) };
        o->src[0] = (struct us_src){ .file = US_FILE_TEMP,
                                     .index = (uint16_t)v,
                                     .swz = { 0, 1, 2, 3 } };
    }
    memset(p, 0, sizeof *p);
    p->stage = US_STAGE_VERTEX;
    p->insts = g.code;
    p->ninsts = g.n;
    p->ntemps = NVALS + 1;
    p->naddrs = 1;
    p->nparams = 4;
    p->params = calloc(4, sizeof *p->params);
    ck_assert_ptr_nonnull(p->params);
    for (unsigned i = 0; i < 4; i++) {
        p->params[i].kind = US_PARAM_CONST;
        p->params[i].decl = -1;
        for (unsigned c = 0; c < 4; c++)
            p->params[i].value[c] = c == 0 && us_rng_below(r, 2)
                                        ? (float)us_rng_below(r, 3)
                                        : us_random_float(r);
    }
}

START_TEST(random_programs_keep_outputs)
{
    struct us_rng r = { 0x3ad0 + (uint64_t)_i };
    unsigned changed = 0;
    for (unsigned k = 0; k < 500; k++) {
        struct us_program p;
        uint8_t ssa[NVALS + 1] = { 0 };
        mad_program(&r, &p, ssa);
        struct spv s;
        memset(&s, 0, sizeof s);
        s.stage = p.stage;
        s.insts = malloc((p.ninsts + 1) * sizeof *s.insts);
        ck_assert_ptr_nonnull(s.insts);
        memcpy(s.insts, p.insts, p.ninsts * sizeof *s.insts);
        s.ninsts = s.cap_insts = p.ninsts;
        s.nvregs = p.ntemps;
        s.vreg_ssa = calloc(s.nvregs + 1, 1);
        ck_assert_ptr_nonnull(s.vreg_ssa);
        memcpy(s.vreg_ssa, ssa, NVALS + 1);
        changed += pass_mad(&s);
        struct us_program o = p;
        o.insts = s.insts;
        o.ninsts = s.ninsts;
        free(s.vreg_ssa);
        us_vec4 params[4];
        for (unsigned i = 0; i < 4; i++)
            memcpy(params[i], p.params[i].value, sizeof params[i]);
        struct us_exec_env env = { .params = (const us_vec4 *)params,
                                   .math = &us_math_exact,
                                   .max_insts = 20000 };
        static struct us_thread t0, ta, tb;
        for (unsigned t = 0; t < 8; t++) {
            us_random_thread(&r, &t0);
            ta = t0;
            tb = t0;
            us_interpret(&p, &env, &ta);
            us_interpret(&o, &env, &tb);
            if (!same_bits(ta.output, tb.output, US_MAX_OUTPUTS)) {
                char *before = us_disassemble(&p), *after = us_disassemble(&o);
                ck_abort_msg("program %u computes differently after "
                             "pass_mad:\n%s\nbecame\n%s", k, before, after);
            }
        }
        free(o.insts);
        us_program_free(&p);
    }
    printf("mad: %u of 500 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 100);   /* the pass did something */
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_mad");
    TCase *t = tcase_create("mad");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, products_into_sums);
    tcase_add_test(t, left_alone);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 3);
    suite_add_tcase(s, t);
    return s;
}
