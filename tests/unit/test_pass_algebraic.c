/*
 * pass_algebraic (glsl/pass_algebraic.c): exact identities -- constant
 * operands evaluated with the micro-ops, x + -0, x - +0, -0 - x, a * +-1,
 * a * b + -0 -- and nothing that is not exact (x + +0, x * 0).
 *
 * The pass works on the translation's constants (operands PARAM
 * CONST_BASE + i); the tests write programs with literal constants and
 * read each literal param i as constant i, then map the constants back,
 * new ones as new params, so the interpreter can run both sides.
 */
#include "pass_util.h"

#include "check_main.h"

/* Operands reading literal params read the translation's constants. */
static void to_consts(const struct us_program *p, struct spv *s)
{
    s->consts = calloc(p->nparams + 1, sizeof *s->consts);
    ck_assert_ptr_nonnull(s->consts);
    s->nconsts = s->cap_consts = p->nparams;
    for (unsigned i = 0; i < p->nparams; i++)
        memcpy(s->consts[i].v, p->params[i].value, sizeof s->consts[i].v);
    for (unsigned i = 0; i < s->ninsts; i++)
        for (unsigned k = 0; k < 3; k++) {
            struct us_src *x = &s->insts[i].src[k];
            if (k < us_ops[s->insts[i].op].nsrc &&
                x->file == US_FILE_PARAM && !x->rel &&
                p->params[x->index].kind == US_PARAM_CONST)
                x->index = (uint16_t)(CONST_BASE + x->index);
        }
}

/* The pass's code as a program: constant i is param i, new ones added. */
static void from_consts(const struct us_program *p, const struct spv *s,
                        struct us_program *o)
{
    *o = *p;
    o->flow = NULL;
    o->params = calloc(s->nconsts + 1, sizeof *o->params);
    ck_assert_ptr_nonnull(o->params);
    memcpy(o->params, p->params, p->nparams * sizeof *p->params);
    for (unsigned i = p->nparams; i < s->nconsts; i++) {
        o->params[i].kind = US_PARAM_CONST;
        o->params[i].decl = -1;
        memcpy(o->params[i].value, s->consts[i].v, sizeof s->consts[i].v);
    }
    o->nparams = s->nconsts;
    o->insts = malloc((s->ninsts + 1) * sizeof *o->insts);
    ck_assert_ptr_nonnull(o->insts);
    memcpy(o->insts, s->insts, s->ninsts * sizeof *o->insts);
    o->ninsts = s->ninsts;
    for (unsigned i = 0; i < o->ninsts; i++)
        for (unsigned k = 0; k < 3; k++) {
            struct us_src *x = &o->insts[i].src[k];
            if (x->file == US_FILE_PARAM && !x->rel && x->index >= CONST_BASE)
                x->index = (uint16_t)(x->index - CONST_BASE);
        }
    struct us_diag d;
    ck_assert(us_flow_build(o, &o->flow, &d));
}

/* The pass on `text`; its code must disassemble as `want`. */
static bool expect_alg(const char *text, const char *want)
{
    struct us_program p, o, w;
    struct spv s;
    ir_of(text, 0, &p, &s);
    to_consts(&p, &s);
    bool changed = pass_algebraic(&s);
    from_consts(&p, &s, &o);
    struct us_diag d;
    if (!us_assemble(want, strlen(want), US_STAGE_ANY, &w, &d))
        ck_abort_msg("expected text does not assemble: %s\n%s", d.msg, want);
    /* constants compare by value: both sides written out as literals */
    char *got = canonical(&o), *exp = canonical(&w);
    if (strcmp(got, exp))
        ck_abort_msg("pass output:\n%s\nexpected:\n%s", got, exp);
    free(got);
    free(exp);
    free(s.insts);
    free(s.vreg_ssa);
    free(s.consts);
    free(o.insts);
    free(o.params);
    us_flow_free(o.flow);
    us_program_free(&p);
    us_program_free(&w);
    return changed;
}

#define FP(body) "!!ARBfp1.0\nTEMP R0, R1;\n" body \
                 "ADD result.color, R0, R1;\nEND\n"

START_TEST(identities)
{
    ck_assert(expect_alg(FP(
        "ADD R0, fragment.color, -{0, 0, 0, 0};\n"
        "SUB R1, fragment.color, {0, 0, 0, 0};\n"),
        FP("MOV R0, fragment.color;\nMOV R1, fragment.color;\n")));
    ck_assert(expect_alg(FP(
        "SUB R0, -{0, 0, 0, 0}, fragment.color;\n"
        "MUL R1, fragment.color, -{1, 1, 1, 1};\n"),
        FP("MOV R0, -fragment.color;\nMOV R1, -fragment.color;\n")));
    ck_assert(expect_alg(FP(
        "MAD R0, -{1, 1, 1, 1}, -fragment.color, fragment.texcoord[0];\n"
        "MAD R1, fragment.color, fragment.texcoord[0], {-0., -0., -0., -0.};\n"),
        FP("ADD R0, fragment.color, fragment.texcoord[0];\n"
           "MUL R1, fragment.color, fragment.texcoord[0];\n")));
}
END_TEST

START_TEST(constants_evaluated)
{
    /* 1 - 0; 0.1 * 3 rounded once; saturated; a NaN made the default */
    ck_assert(expect_alg(FP(
        "SUB R0.x, {1, 1, 1, 1}, {0, 0, 0, 0};\n"
        "MUL R0.y, {0.1, 0, 0, 0}.x, {3, 0, 0, 0}.x;\n"
        "MAD_SAT R0.zw, {2, 2, 2, 2}, {3, -3, 3, -3}.xxxy, {0, 0, 0, 0};\n"
        "MOV R1, {0, 0, 0, 0};\n"),
        FP("MOV R0.x, {1, 0, 0, 0};\n"
           "MOV R0.y, {0, 0.300000012, 0, 0};\n"
           "MOV R0.zw, {0, 0, 1, 0};\n"
           "MOV R1, {0, 0, 0, 0};\n")));
}
END_TEST

START_TEST(not_exact_stays)
{
    const char *cases[] = {
        /* -0 + +0 is +0 */
        FP("ADD R0, fragment.color, {0, 0, 0, 0};\n"
           "MOV R1, fragment.color;\n"),
        /* inf * 0 is NaN, -1 * 0 is -0 */
        FP("MUL R0, fragment.color, {0, 0, 0, 0};\n"
           "MOV R1, fragment.color;\n"),
        /* 1 in some components only; a negation in some components */
        FP("MUL R0, fragment.color, {1, 2, 1, 1};\n"
           "SWZ R1, fragment.color, x, -y, z, w;\n"),
        /* min/max and the SFU are not evaluated */
        FP("MIN R0, {1, 1, 1, 1}, {2, 2, 2, 2};\n"
           "RCP R1, {2, 2, 2, 2}.x;\n"),
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_msg(!expect_alg(cases[i], cases[i]), "case %u", i);
}
END_TEST

/* Random programs with operands replaced by literals from a pool of the
 * values that matter (+-0, +-1, NaN, +-inf, others), through the pass:
 * the interpreter's outputs keep their bits. */
START_TEST(random_programs_keep_bits)
{
    static const float pool[][4] = {
        { 0.0f, -0.0f, 1.0f, -1.0f },
        { -0.0f, -0.0f, -0.0f, -0.0f },
        { 1.0f, 1.0f, 1.0f, 1.0f },
        { -1.0f, -1.0f, -1.0f, -1.0f },
        { __builtin_nanf(""), __builtin_inff(), -__builtin_inff(), 0.5f },
        { 3.0f, 0.1f, 1e30f, 1e-40f },
    };
    const unsigned npool = sizeof pool / sizeof *pool;
    struct us_rng r = { 0xa16e + (uint64_t)_i };
    unsigned changed = 0, n = 300;
    for (unsigned k = 0; k < n; k++) {
        struct us_program p;
        enum us_stage stage = k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
        ck_assert(us_random_program(&r, stage, 4 + us_rng_below(&r, 20), &p));
        /* the pool as literal params */
        unsigned base = p.nparams;
        struct us_param *np = realloc(p.params,
                                      (base + npool) * sizeof *np);
        ck_assert_ptr_nonnull(np);
        p.params = np;
        for (unsigned j = 0; j < npool; j++) {
            memset(&p.params[base + j], 0, sizeof *p.params);
            p.params[base + j].kind = US_PARAM_CONST;
            p.params[base + j].decl = -1;
            memcpy(p.params[base + j].value, pool[j], sizeof pool[j]);
        }
        p.nparams = base + npool;
        for (unsigned i = 0; i < p.ninsts; i++) {
            struct us_inst *in = &p.insts[i];
            unsigned op = in->op;
            bool alu = op == US_OP_ADD || op == US_OP_SUB ||
                       op == US_OP_MUL || op == US_OP_MAD;
            for (unsigned q = 0; alu && q < us_ops[op].nsrc; q++) {
                if (us_rng_below(&r, 2))
                    continue;
                struct us_src *x = &in->src[q];
                x->file = US_FILE_PARAM;
                x->rel = false;
                x->index = (uint16_t)(base + us_rng_below(&r, npool));
                if (us_rng_below(&r, 2))
                    for (unsigned c = 0; c < 4; c++)
                        x->swz[c] = x->swz[0];
            }
        }
        struct spv s;
        spv_of(&p, NULL, &s);
        to_consts(&p, &s);
        changed += pass_algebraic(&s);
        struct us_program o;
        from_consts(&p, &s, &o);
        us_vec4 *va = random_params(&r, &o);
        /* TEMPs may differ in components nobody reads */
        expect_same_runs(&r, &p, &o, va, false, k, "pass_algebraic");
        free(va);
        free(s.insts);
        free(s.vreg_ssa);
        free(s.consts);
        free(o.params);
        program_of_free(&o);
        us_program_free(&p);
    }
    printf("algebraic: %u of %u random programs changed\n", changed, n);
    ck_assert_uint_gt(changed, 30);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_algebraic");
    TCase *t = tcase_create("algebraic");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, identities);
    tcase_add_test(t, constants_evaluated);
    tcase_add_test(t, not_exact_stays);
    tcase_add_loop_test(t, random_programs_keep_bits, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
