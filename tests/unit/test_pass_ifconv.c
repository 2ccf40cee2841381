/*
 * pass_ifconv (glsl/pass_ifconv.c): a small IF on a comparison's 0.0/1.0
 * whose arms are pure float ALU code becomes both arms into fresh
 * registers and a CMP per value read after it; anything else stays an IF.
 * Random programs with such IFs keep the reference interpreter's bits.
 */
#include "pass_util.h"

#include "check_main.h"

#define VP(temps, body) "!!ARBvp1.0\nOPTION USHADER_extensions;\n" \
                        "TEMP " temps ";\n" body "END\n"
#define T8 "R0, R1, R2, R3, R4, R5, R6, R7"

/* The pass on `in` whose first `nv` TEMPs are the virtual registers (the
 * others declared for the fresh ones); ssa as in ir_of. */
static bool expect_ifconv(const char *in, unsigned nv, unsigned ssa,
                          const char *want)
{
    struct us_program p, w;
    struct spv s;
    ir_of(in, ssa, &p, &s);
    s.nvregs = nv;
    bool changed = pass_ifconv(&s);
    back_to(&p, &s);
    struct us_diag d;
    if (!us_assemble(want, strlen(want), US_STAGE_ANY, &w, &d))
        ck_abort_msg("expected text does not assemble: %s\n%s", d.msg, want);
    char *got = canonical(&p), *exp = canonical(&w);
    if (strcmp(got, exp))
        ck_abort_msg("pass output:\n%s\nexpected:\n%s", got, exp);
    free(got);
    free(exp);
    us_program_free(&p);
    us_program_free(&w);
    return changed;
}

START_TEST(both_arms_and_a_select)
{
    /* glmark2's conditionals: R3 is written in both arms and read after */
    ck_assert(expect_ifconv(
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\n"
               "MUL R1, vertex.color, vertex.position;\n"
               "FRC R3, R1;\n"
               "ELSE;\n"
               "MUL R2, vertex.color, vertex.normal;\n"
               "FRC R3, R2;\n"
               "ENDIF;\n"
               "MOV result.position, R3;\n"), 4, 0x7,
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "MUL R4, vertex.color, vertex.position;\n"
               "FRC R5, R4;\n"
               "MUL R6, vertex.color, vertex.normal;\n"
               "FRC R7, R6;\n"
               "CMP R3, -R0.x, R5, R7;\n"
               "MOV result.position, R3;\n")));
    /* no ELSE, a negated condition, components written by one arm only,
     * a component read back inside the arm from its fresh register and
     * one from the register as it was */
    ck_assert(expect_ifconv(
        VP(T8, "SLT R0.y, vertex.position.x, vertex.position.y;\n"
               "MOV R1, vertex.color;\n"
               "IF -R0.y;\n"
               "ADD R1.x, R1.y, vertex.position.x;\n"
               "MUL R1.z, R1.x, R1.w;\n"
               "ENDIF;\n"
               "MOV result.position, R1;\n"), 2, 0x1,
        VP(T8, "SLT R0.y, vertex.position.x, vertex.position.y;\n"
               "MOV R1, vertex.color;\n"
               "ADD R2.x, R1.y, vertex.position.x;\n"
               "MUL R2.z, R2.x, R1.w;\n"
               "CMP R1.xz, -R0.y, R2, R1;\n"
               "MOV result.position, R1;\n")));
    /* one component from each arm, another from both: a CMP per group;
     * an arm's temporary read nowhere else gets none */
    ck_assert(expect_ifconv(
        VP(T8, "SEQ R0.z, vertex.position.x, vertex.position.y;\n"
               "IF R0.z;\n"
               "ADD R2, vertex.color, vertex.normal;\n"
               "MOV R1.xy, R2;\n"
               "ELSE;\n"
               "MOV R1.xz, vertex.normal;\n"
               "ENDIF;\n"
               "MOV result.position, R1;\n"), 3, 0x1,
        VP(T8, "SEQ R0.z, vertex.position.x, vertex.position.y;\n"
               "ADD R3, vertex.color, vertex.normal;\n"
               "MOV R4.xy, R3;\n"
               "MOV R5.xz, vertex.normal;\n"
               "CMP R1.x, -R0.z, R4, R5;\n"
               "CMP R1.y, -R0.z, R4, R1;\n"
               "CMP R1.z, -R0.z, R1, R5;\n"
               "MOV result.position, R1;\n")));
}
END_TEST

/* The comparison is an SSA value defined in another block; an inner IF
 * converts, then the outer one holding it. */
START_TEST(ssa_condition_and_nesting)
{
    ck_assert(expect_ifconv(
        VP(T8, "SNE R0.x, vertex.position.x, vertex.position.y;\n"
               "SGT R1.x, vertex.position.z, vertex.position.w;\n"
               "IF vertex.color.x;\n"
               "MOV R2, vertex.color;\n"
               "ENDIF;\n"
               "IF R0.x;\n"
               "IF R1.x;\n"
               "MOV R2, vertex.normal;\n"
               "ENDIF;\n"
               "ENDIF;\n"
               "MOV result.position, R2;\n"), 3, 0x3,
        VP(T8, "SNE R0.x, vertex.position.x, vertex.position.y;\n"
               "SGT R1.x, vertex.position.z, vertex.position.w;\n"
               "IF vertex.color.x;\n"
               "MOV R2, vertex.color;\n"
               "ENDIF;\n"
               "MOV R4, vertex.normal;\n"
               "CMP R5, -R1.x, R4, R2;\n"
               "CMP R2, -R0.x, R5, R2;\n"
               "MOV result.position, R2;\n")));
}
END_TEST

/* Conditions that are not a comparison's 0.0 / 1.0 (a NaN takes an IF but
 * not a CMP), arms that are not pure float code, too long, or whose
 * renaming does not fit: each stays. */
START_TEST(left_alone)
{
    static const char *const same[] = {
        /* an input, an ADD: may be NaN or -0.0 */
        VP(T8, "IF vertex.position.x;\nMOV R1, vertex.color;\nENDIF;\n"
               "MOV result.position, R1;\n"),
        VP(T8, "ADD R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nMOV R1, vertex.color;\nENDIF;\n"
               "MOV result.position, R1;\n"),
        /* the comparison overwritten before the IF; a comparison in
         * another block that is not SSA */
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "ADD R0.x, R0.x, vertex.position.y;\n"
               "IF R0.x;\nMOV R1, vertex.color;\nENDIF;\n"
               "MOV result.position, R1;\n"),
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF vertex.color.x;\nMOV R1, vertex.color;\nENDIF;\n"
               "IF R0.x;\nMOV R1, vertex.normal;\nENDIF;\n"
               "MOV result.position, R1;\n"),
        /* an integer operation, an address write, an output, a loop's BRK */
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nADD.U R1, vertex.color, vertex.color;\nENDIF;\n"
               "MOV result.position, R1;\n"),
        VP(T8 ";\nADDRESS A0", "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nARL A0.x, vertex.color.x;\nENDIF;\n"
               "MOV result.position, R1;\n"),
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nMOV result.position, vertex.color;\nENDIF;\n"),
        VP(T8, "BGNLOOP;\nSGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nBRK;\nENDIF;\nENDLOOP;\n"
               "MOV result.position, R1;\n"),
        /* the arm writes the condition's register */
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nMOV R0.y, vertex.color;\nENDIF;\n"
               "MOV result.position, R0;\n"),
        /* an operand reading a fresh component and one as it was */
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nMOV R1.x, vertex.color;\nADD R2, R1.xyxy, R1;\n"
               "ENDIF;\nMOV result.position, R2;\n"),
        /* nine instructions in an arm */
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\n"
               "ADD R1, R1, vertex.color;\nADD R1, R1, vertex.color;\n"
               "ADD R1, R1, vertex.color;\nADD R1, R1, vertex.color;\n"
               "ADD R1, R1, vertex.color;\nADD R1, R1, vertex.color;\n"
               "ADD R1, R1, vertex.color;\nADD R1, R1, vertex.color;\n"
               "ADD R1, R1, vertex.color;\n"
               "ENDIF;\nMOV result.position, R1;\n"),
        /* three registers read after: three CMPs for two flow instructions */
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "IF R0.x;\nMOV R1, vertex.color;\nMOV R2, vertex.color;\n"
               "MOV R3, vertex.color;\nENDIF;\n"
               "ADD R1, R1, R2;\nADD result.position, R1, R3;\n"),
        /* a CMP could change the NaN bits integer code leaves (MOV.U) */
        VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
               "MOV.U R1, vertex.color;\n"
               "IF R0.x;\nMOV R1.x, vertex.normal;\nENDIF;\n"
               "MOV.U result.position, R1;\n"),
    };
    for (unsigned k = 0; k < sizeof same / sizeof *same; k++)
        if (expect_ifconv(same[k], 4, 0, same[k]))
            ck_abort_msg("case %u changed", k);
    /* texture fetches and KIL read the quad / end the thread */
    const char *tex = "!!ARBfp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
                      "SGE R0.x, fragment.texcoord[0].x, fragment.color.x;\n"
                      "IF R0.x;\nTEX R1, fragment.texcoord[0], texture[0], 2D;\n"
                      "ENDIF;\nMOV result.color, R1;\nEND\n";
    ck_assert(!expect_ifconv(tex, 2, 0, tex));
    const char *kil = "!!ARBfp1.0\nOPTION USHADER_extensions;\nTEMP R0, R1;\n"
                      "SGE R0.x, fragment.texcoord[0].x, fragment.color.x;\n"
                      "IF R0.x;\nKIL fragment.color;\n"
                      "ENDIF;\nMOV result.color, R1;\nEND\n";
    ck_assert(!expect_ifconv(kil, 2, 0, kil));
}
END_TEST

/* && and || of comparisons (CMP, MUL, MIN, MAX of 0.0 / 1.0 values and
 * copies of them) are booleans too; a -1.0 or a 0.5 is not.  A phi both
 * arms write, outside flow, becomes an SSA value. */
START_TEST(combined_conditions)
{
    struct us_program p;
    struct spv s;
    static const struct { const char *cond; bool converts; } cases[] = {
        { "CMP R2.x, -R0.x, R1.x, R0.x;\n", true },
        { "MUL R2.x, R0.x, R1.x;\nMOV R2.y, R2.x;\n"
          "MAX R2.x, R2.y, R1.x;\n", true },
        { "MIN R2.x, R0.x, -R1.x;\n", false },
        { "MUL R2.x, R0.x, vertex.color.x;\n", false },
    };
    for (unsigned k = 0; k < sizeof cases / sizeof *cases; k++) {
        char text[1024];
        snprintf(text, sizeof text,
                 VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
                        "SLT R1.x, vertex.position.z, vertex.position.y;\n"
                        "%s"
                        "IF R2.x;\nMOV R3, vertex.color;\nELSE;\n"
                        "MOV R3, vertex.normal;\nENDIF;\n"
                        "MOV result.position, R3;\n"), cases[k].cond);
        ir_of(text, 0, &p, &s);
        s.nvregs = 4;
        ck_assert_int_eq(pass_ifconv(&s), cases[k].converts);
        /* R3 is the select's alone now */
        ck_assert_int_eq(s.vreg_ssa[3], cases[k].converts);
        back_to(&p, &s);
        us_program_free(&p);
    }
    /* read before the IF (a loop's value): R3 stays a variable */
    ir_of(VP(T8, "SGE R0.x, vertex.position.x, vertex.position.y;\n"
                 "MOV result.color, R3;\n"
                 "IF R0.x;\nMOV R3, vertex.color;\nELSE;\n"
                 "MOV R3, vertex.normal;\nENDIF;\n"
                 "MOV result.position, R3;\n"), 0, &p, &s);
    s.nvregs = 4;
    ck_assert(pass_ifconv(&s));
    ck_assert(!s.vreg_ssa[3]);
    back_to(&p, &s);
    us_program_free(&p);
}
END_TEST

/* Run a program on one thread with the given vertex.position. */
static void run_vp(const struct us_program *p, const float pos[4],
                   float out[4])
{
    struct us_exec_env env = { .math = &us_math_exact, .max_insts = 1000 };
    static struct us_thread t;
    us_thread_reset(&t);
    memcpy(t.input[US_VIN_POSITION], pos, 4 * sizeof *pos);
    for (unsigned c = 0; c < 4; c++)
        t.input[US_VIN_COLOR0][c] = 2.0f + (float)c;
    us_interpret(p, &env, &t);
    memcpy(out, t.output[US_VOUT_POSITION], 4 * sizeof *out);
}

/* NaN conditions: SNE of a NaN is 1.0 (converted, and it selects the
 * then-value as IF took the arm); IF on the NaN itself stays an IF, and
 * the CMP a naive conversion would make picks the other value. */
START_TEST(nan_conditions)
{
    const char *sne = VP("R0, R1, R2, R3",
        "SNE R0.x, vertex.position.x, vertex.position.x;\n"
        "IF R0.x;\nMOV R1, vertex.color;\nELSE;\nMOV R1, vertex.position;\n"
        "ENDIF;\nMOV result.position, R1;\n");
    const float nan_pos[4] = { NAN, 1, 2, 3 }, pos[4] = { 5, 1, 2, 3 };
    struct us_program p, q;
    struct us_diag d;
    ck_assert(us_assemble(sne, strlen(sne), US_STAGE_ANY, &p, &d));
    struct spv s;
    ir_of(sne, 0, &q, &s);
    s.nvregs = 2;
    ck_assert(pass_ifconv(&s));
    back_to(&q, &s);
    us_flow_free(q.flow);
    q.flow = NULL;
    ck_assert(us_flow_build(&q, &q.flow, &d));
    for (unsigned k = 0; k < 2; k++) {
        float a[4], b[4];
        run_vp(&p, k ? nan_pos : pos, a);
        run_vp(&q, k ? nan_pos : pos, b);
        ck_assert(!memcmp(a, b, sizeof a));
        ck_assert(a[0] == (k ? 2.0f : 5.0f));
    }
    us_program_free(&p);
    us_program_free(&q);
    /* IF NaN takes the arm; CMP -NaN does not pick the then-value */
    const char *raw = VP("R0, R1",
        "IF vertex.position.x;\nMOV R1, vertex.color;\nELSE;\n"
        "MOV R1, vertex.normal;\nENDIF;\nMOV result.position, R1;\n");
    ck_assert(!expect_ifconv(raw, 2, 0, raw));
    const char *cmp = VP("R0, R1",
        "CMP result.position, -vertex.position.x, vertex.color, "
        "vertex.normal;\n");
    ck_assert(us_assemble(raw, strlen(raw), US_STAGE_ANY, &p, &d));
    ck_assert(us_assemble(cmp, strlen(cmp), US_STAGE_ANY, &q, &d));
    float a[4], b[4];
    run_vp(&p, nan_pos, a);
    run_vp(&q, nan_pos, b);
    ck_assert(a[0] == 2.0f && b[0] != 2.0f);
    us_program_free(&p);
    us_program_free(&q);
}
END_TEST

/* ---- the property ---- */

static bool pure(const struct us_inst *in)
{
    const struct us_opinfo *o = &us_ops[in->op];
    return (o->format == US_FMT_VEC || o->format == US_FMT_SCL ||
            o->format == US_FMT_SWZ) &&
           (o->unit == US_UNIT_ALU || o->unit == US_UNIT_SFU) &&
           !(o->flags & (US_I_SRC | US_I_DST)) &&
           in->dst.file == US_FILE_TEMP;
}

/* IFs on comparisons: before most IFs (not a loop's own BRK test) a
 * random float comparison into TEMP 12's random component, sometimes
 * combined with a second one (TEMP 13) by MUL, MIN, MAX or CMP (now and
 * then negated: -1.0 is no boolean), which the IF reads (negated or
 * not); inside arms most impure instructions become an
 * ADD of their first operand into a TEMP, so that many IFs qualify. */
static void with_bool_ifs(struct us_rng *r, struct us_program *p)
{
    static const uint8_t cmps[] = { US_OP_SGE, US_OP_SLT, US_OP_SEQ,
                                    US_OP_SNE, US_OP_SGT, US_OP_SLE };
    enum { BOOL_TEMP = 12 };
    struct us_inst *out = calloc(4 * p->ninsts + 1, sizeof *out);
    ck_assert_ptr_nonnull(out);
    unsigned n = 0, depth = 0;
    for (unsigned i = 0; i < p->ninsts; i++) {
        struct us_inst in = p->insts[i];
        enum us_flow_kind k = us_op_flow_kind(in.op);
        bool loop_test = k == US_FLOW_IF && i + 1 < p->ninsts &&
                         (p->insts[i + 1].op == US_OP_BRK ||
                          p->insts[i + 1].op == US_OP_CONT);
        if (k == US_FLOW_IF && !loop_test && us_rng_below(r, 4)) {
            struct us_inst c;
            memset(&c, 0, sizeof c);
            c.op = cmps[us_rng_below(r, 6)];
            unsigned q = us_rng_below(r, 4);
            c.dst = (struct us_dst){ .file = US_FILE_TEMP,
                                     .index = BOOL_TEMP,
                                     .mask = (uint8_t)(1u << q) };
            c.src[0] = in.src[0];
            c.src[1] = (struct us_src){ .file = US_FILE_PARAM,
                                        .index = (uint16_t)us_rng_below(r, 16) };
            for (unsigned p2 = 0; p2 < 4; p2++)
                c.src[1].swz[p2] = (uint8_t)us_rng_below(r, 4);
            c.line = in.line;
            out[n++] = c;
            if (us_rng_below(r, 3) == 0) {
                /* && / || of two comparisons: MUL MIN MAX or a CMP */
                static const uint8_t ands[] = { US_OP_MUL, US_OP_MIN,
                                                US_OP_MAX, US_OP_CMP };
                struct us_inst b = c, j;
                b.op = cmps[us_rng_below(r, 6)];
                b.dst.index = BOOL_TEMP + 1;
                b.src[1].index = (uint16_t)us_rng_below(r, 16);
                out[n++] = b;
                memset(&j, 0, sizeof j);
                j.op = ands[us_rng_below(r, 4)];
                j.dst = c.dst;
                for (unsigned k2 = 0; k2 < 3; k2++) {
                    j.src[k2] = (struct us_src){ .file = US_FILE_TEMP,
                        .index = (uint16_t)(BOOL_TEMP + (k2 + us_rng_below(r, 2)) % 2) };
                    for (unsigned p2 = 0; p2 < 4; p2++)
                        j.src[k2].swz[p2] = (uint8_t)q;
                }
                if (j.op == US_OP_CMP || us_rng_below(r, 3) == 0)
                    j.src[0].negate = 0xf;   /* CMP's condition; a -1.0 */
                j.line = in.line;
                out[n++] = j;
            }
            in.src[0] = (struct us_src){ .file = US_FILE_TEMP,
                                         .index = BOOL_TEMP,
                                         .negate = us_rng_below(r, 2) ? 0xf : 0 };
            for (unsigned p2 = 0; p2 < 4; p2++)
                in.src[0].swz[p2] = (uint8_t)q;
        }
        if (k == US_FLOW_IF || k == US_FLOW_LOOP)
            depth++;
        if (k == US_FLOW_ENDIF || k == US_FLOW_ENDLOOP)
            depth--;
        if (depth && k == US_FLOW_NONE && !pure(&in) && us_rng_below(r, 3)) {
            struct us_src a = in.src[0];
            if (a.file == US_FILE_NULL || us_ops[in.op].nsrc == 0)
                a = (struct us_src){ .file = US_FILE_PARAM, .index = 1 };
            memset(&in.src[1], 0, 2 * sizeof in.src[1]);
            in.op = US_OP_ADD;
            in.src[0] = a;
            in.src[0].rel = false;
            in.src[0].index = a.rel ? 4 : a.index;
            for (unsigned p2 = 0; p2 < 4; p2++)
                in.src[0].swz[p2] &= 3;
            in.src[0].negate = in.src[0].negate ? 0xf : 0;
            in.src[1] = (struct us_src){ .file = US_FILE_PARAM, .index = 2,
                                         .swz = { 1, 0, 3, 2 } };
            in.dst.file = US_FILE_TEMP;
            in.dst.index = (uint16_t)us_rng_below(r, 6);
            if (!in.dst.mask)
                in.dst.mask = 0xf;
            in.tex_unit = in.tex_target = 0;
        }
        out[n++] = in;
    }
    free(p->insts);
    p->insts = out;
    p->ninsts = n;
    if (p->ntemps <= BOOL_TEMP + 1)
        p->ntemps = BOOL_TEMP + 2;
    us_flow_free(p->flow);
    p->flow = NULL;
    struct us_diag d;
    if (!us_flow_build(p, &p->flow, &d))
        ck_abort_msg("flow: %s", d.msg);
}

static void ifconv_then_clean(struct spv *s)
{
    if (pass_ifconv(s)) {
        pass_copyprop(s);
        pass_dce(s);
    }
}

static void ifconv_alone(struct spv *s)
{
    pass_ifconv(s);
}

/* Random flow programs with IFs on comparisons, before and after the
 * pass (alone, or with the copy propagation and dead code after it):
 * identical outputs and KIL on random threads; the arms' registers may
 * differ (they are fresh).  Returns how many programs changed. */
static unsigned ifconv_property(void (*passes)(struct spv *), uint64_t seed,
                                unsigned n)
{
    struct us_rng r = { seed };
    unsigned changed = 0;
    for (unsigned k = 0; k < n; k++) {
        enum us_stage stage = k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
        struct us_program p, o;
        ck_assert(us_random_flow_program(&r, stage, 4 + us_rng_below(&r, 24),
                                         &p));
        with_bool_ifs(&r, &p);
        struct spv s;
        spv_of(&p, NULL, &s);
        passes(&s);
        program_of(&p, &s, &o);
        changed += o.ninsts != p.ninsts ||
                   memcmp(o.insts, p.insts, p.ninsts * sizeof *p.insts) != 0;
        us_vec4 *params = random_params(&r, &p);
        expect_same_runs(&r, &p, &o, params, false, k, "pass_ifconv");
        free(params);
        program_of_free(&o);
        us_program_free(&p);
    }
    return changed;
}

START_TEST(random_programs_keep_outputs)
{
    unsigned changed = ifconv_property(_i ? ifconv_then_clean : ifconv_alone,
                                       0x1fc0 + (uint64_t)_i, 600);
    printf("ifconv: %u of 600 random programs changed\n", changed);
    ck_assert_uint_gt(changed, 30);   /* the pass did something */
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_ifconv");
    TCase *t = tcase_create("ifconv");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, both_arms_and_a_select);
    tcase_add_test(t, ssa_condition_and_nesting);
    tcase_add_test(t, left_alone);
    tcase_add_test(t, nan_conditions);
    tcase_add_test(t, combined_conditions);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
