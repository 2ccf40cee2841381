/*
 * pass_pack (glsl/pass_pack.c), with the pass_vectorize after it
 * (us_passes_narrowed): two SSA values of the same component-wise
 * operation on the same sources share one register and become one
 * instruction; their readers follow.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(body) "!!ARBvp1.0\nTEMP R0, R1, R2, R3, R4;\n" body "END\n"

START_TEST(two_chains_become_one)
{
    /* the two arms of an if-converted IF: MUL then FRC in each */
    ck_assert(expect_pass(us_passes_narrowed,
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "FRC R2.x, R1.x;\n"
           "MUL R3.x, vertex.position.y, vertex.color.x;\n"
           "FRC R4.x, R3.x;\n"
           "ADD result.position, R2.x, R4.x;\n"), 0x1e,
        VP("MUL R1.xy, vertex.position.xyxx, vertex.color.yxyy;\n"
           "FRC R2.xy, R1.xyxx;\n"
           "ADD result.position, R2.x, R2.y;\n")));
    /* a two-component value goes after a one-component one, its
     * readers' selectors following */
    ck_assert(expect_pass(us_passes_narrowed,
        VP("ADD R1.x, vertex.position.x, vertex.color.y;\n"
           "ADD R3.xy, vertex.position.zwzw, vertex.color.xyxy;\n"
           "MUL result.position, R1.x, R3.yxyx;\n"), 0xa,
        VP("ADD R1.xyz, vertex.position.xzwx, vertex.color.yxyy;\n"
           "MUL result.position, R1.x, R1.zyzy;\n")));
}
END_TEST

START_TEST(left_alone)
{
    static const char *const same[] = {
        /* b reads a's result */
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "MUL R3.x, R1.x, vertex.color.y;\n"
           "ADD result.position, R1.x, R3.x;\n"),
        /* a component b does not write is read (or one a does not) */
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "MUL R3.x, vertex.position.y, vertex.color.x;\n"
           "ADD result.position, R1.x, R3.y;\n"),
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "MUL R3.x, vertex.position.y, vertex.color.x;\n"
           "ADD result.position, R1.y, R3.x;\n"),
        /* a source written between them */
        VP("MOV R0, vertex.normal;\n"
           "MUL R1.x, R0.x, vertex.color.y;\n"
           "MOV R0.x, vertex.position.x;\n"
           "MUL R3.x, R0.x, vertex.color.x;\n"
           "ADD result.position, R1.x, R3.x;\n"),
        /* five components; other sources; another negation */
        VP("MUL R1.xyz, vertex.position, vertex.color;\n"
           "MUL R3.xy, vertex.position, vertex.color;\n"
           "ADD result.position, R1, R3.xyxy;\n"),
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "MUL R3.x, vertex.normal.y, vertex.color.x;\n"
           "ADD result.position, R1.x, R3.x;\n"),
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "MUL R3.x, -vertex.position.y, vertex.color.x;\n"
           "ADD result.position, R1.x, R3.x;\n"),
    };
    for (unsigned k = 0; k < sizeof same / sizeof *same; k++)
        if (expect_pass(us_passes_narrowed, same[k], 0x1e, same[k]))
            ck_abort_msg("case %u changed", k);
    /* not SSA values */
    ck_assert(!expect_pass(us_passes_narrowed,
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "MUL R3.x, vertex.position.y, vertex.color.x;\n"
           "ADD result.position, R1.x, R3.x;\n"), 0,
        VP("MUL R1.x, vertex.position.x, vertex.color.y;\n"
           "MUL R3.x, vertex.position.y, vertex.color.x;\n"
           "ADD result.position, R1.x, R3.x;\n")));
}
END_TEST

/* ---- the property ---- */

enum { POOL = 16, NON_SSA = 0 };   /* at most 14 values: an output each */

struct vgen {
    struct us_rng *r;
    struct us_inst *code;
    unsigned n;
    uint8_t written[POOL];   /* components each SSA register holds */
    unsigned nvals;          /* SSA registers 1 .. nvals */
};

/* An operand: an input, a parameter, TEMP 0 (a variable) or an earlier
 * SSA value, with selectors among the components it holds. */
static struct us_src random_operand(struct vgen *g)
{
    struct us_src x = { .negate = us_rng_below(g->r, 4) == 0 ? 0xf : 0 };
    unsigned k = us_rng_below(g->r, 8), held = 0xf;
    if (k < 3) {
        x.file = US_FILE_INPUT;
        x.index = (uint16_t)(k ? US_VIN_POSITION : US_VIN_COLOR0);
    } else if (k < 5) {
        x.file = US_FILE_PARAM;
        x.index = (uint16_t)(k - 3);
    } else if (k < 6 || !g->nvals) {
        x.file = US_FILE_TEMP;
        x.index = NON_SSA;
    } else {
        x.file = US_FILE_TEMP;
        x.index = (uint16_t)(1 + us_rng_below(g->r, g->nvals));
        held = g->written[x.index];
    }
    unsigned comps[4], nc = 0;
    for (unsigned c = 0; c < 4; c++)
        if (held >> c & 1)
            comps[nc++] = c;
    for (unsigned p = 0; p < 4; p++)
        x.swz[p] = (uint8_t)comps[us_rng_below(g->r, nc)];
    return x;
}

/* Straight-line code of component-wise ALU operations, most writing one
 * or two components of a fresh SSA register from a small pool of
 * operands (so that many pairs share their sources), some writing the
 * variable TEMP 0, an IF now and then; every value then goes to an
 * output.  The SSA registers are TEMP 1 .. nvals. */
static void value_program(struct us_rng *r, struct us_program *p,
                          uint8_t *ssa)
{
    static const uint8_t ops[] = { US_OP_ADD, US_OP_MUL, US_OP_MAD,
                                   US_OP_FRC, US_OP_FRC, US_OP_MAX,
                                   US_OP_SGE, US_OP_MOV, US_OP_MOV,
                                   US_OP_FLR, US_OP_CMP, US_OP_LRP };
    struct vgen g = { .r = r };
    g.code = calloc(4 * POOL + 8, sizeof *g.code);
    ck_assert_ptr_nonnull(g.code);
    unsigned len = 4 + us_rng_below(r, POOL - 4), open = 0;
    for (unsigned i = 0; i < len; i++) {
        if (us_rng_below(r, 10) == 0) {
            struct us_inst *f = &g.code[g.n++];
            memset(f, 0, sizeof *f);
            f->op = open ? US_OP_ENDIF : US_OP_IF;
            if (!open)
                f->src[0] = random_operand(&g);
            open = !open;
            continue;
        }
        struct us_inst *in = &g.code[g.n++];
        memset(in, 0, sizeof *in);
        in->op = ops[us_rng_below(r, sizeof ops)];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            in->src[k] = random_operand(&g);
        in->dst.file = US_FILE_TEMP;
        if (us_rng_below(r, 6) == 0 || g.nvals + 1 >= POOL || open) {
            in->dst.index = NON_SSA;
            in->dst.mask = (uint8_t)(1 + us_rng_below(r, 15));
        } else {
            in->dst.index = (uint16_t)++g.nvals;
            unsigned c = us_rng_below(r, 4);
            in->dst.mask = (uint8_t)(1u << c);
            if (us_rng_below(r, 3) == 0)
                in->dst.mask |= (uint8_t)(1u << ((c + 1 + us_rng_below(r, 3)) & 3));
            g.written[in->dst.index] = in->dst.mask;
            ssa[in->dst.index] = 1;
        }
        in->sat = us_rng_below(r, 8) == 0;
    }
    if (open) {
        memset(&g.code[g.n], 0, sizeof *g.code);
        g.code[g.n++].op = US_OP_ENDIF;
    }
    for (unsigned v = 1; v <= g.nvals; v++) {
        struct us_inst *in = &g.code[g.n++];
        memset(in, 0, sizeof *in);
        in->op = US_OP_ADD;
        in->dst = (struct us_dst){ .file = US_FILE_OUTPUT, .mask = 0xf,
                                   .index = (uint16_t)(v - 1) };
        in->src[0] = (struct us_src){ .file = US_FILE_TEMP,
                                      .index = (uint16_t)v };
        unsigned first = (unsigned)__builtin_ctz(g.written[v]);
        for (unsigned c = 0; c < 4; c++)
            in->src[0].swz[c] = (uint8_t)(g.written[v] >> c & 1 ? c : first);
        in->src[1] = (struct us_src){ .file = US_FILE_PARAM, .index = 3,
                                      .swz = { 0, 1, 2, 3 } };
    }
    memset(p, 0, sizeof *p);
    p->stage = US_STAGE_VERTEX;
    p->options = US_OPT_USHADER_EXTENSIONS;
    p->insts = g.code;
    p->ninsts = g.n;
    p->ntemps = POOL;
    p->nparams = 4;
    p->params = calloc(4, sizeof *p->params);
    ck_assert_ptr_nonnull(p->params);
    for (unsigned i = 0; i < 4; i++) {
        p->params[i].kind = US_PARAM_CONST;
        p->params[i].decl = -1;
        for (unsigned c = 0; c < 4; c++)
            p->params[i].value[c] = us_random_float(r);
    }
    struct us_diag d;
    ck_assert(us_flow_build(p, &p->flow, &d));
}

START_TEST(random_programs_keep_outputs)
{
    struct us_rng r = { 0xbac0 + (uint64_t)_i };
    unsigned changed = 0;
    for (unsigned k = 0; k < 1000; k++) {
        struct us_program p;
        uint8_t ssa[POOL] = { 0 };
        value_program(&r, &p, ssa);
        struct spv s;
        spv_of(&p, ssa, &s);
        us_passes_narrowed(&s);
        struct us_program o;
        program_of(&p, &s, &o);
        changed += o.ninsts != p.ninsts;
        us_vec4 *params = random_params(&r, &p);   /* all constants */
        expect_same_runs(&r, &p, &o, params, false, k, "pass_pack");
        free(params);
        program_of_free(&o);
        us_program_free(&p);
    }
    printf("pack: %u of 1000 random programs joined\n", changed);
    ck_assert_uint_gt(changed, 30);   /* the pass did something */
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_pack");
    TCase *t = tcase_create("pack");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, two_chains_become_one);
    tcase_add_test(t, left_alone);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 3);
    suite_add_tcase(s, t);
    return s;
}
