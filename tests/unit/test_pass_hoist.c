/*
 * pass_hoist (glsl/pass_hoist.c): work on uniforms alone moves to the
 * preshader, which us_resolve_params runs once; the per-thread program
 * reads its registers as program.pre[n].  Hand cases against expected
 * text (the PRESHADER block the assembler reads), the assembler's
 * refusals, and random programs with uniform-only subexpressions, whose
 * outputs through us_resolve_params and the interpreter keep every bit.
 */
#include <math.h>

#include "pass_util.h"

#include "check_main.h"

/* A vertex program with the TEMPs `temps` declares and two matrices;
 * VP's have R0..R3 (the TEMPs nothing reads or writes after the pass are
 * gone, the others keep their names). */
#define VPT(temps, body) "!!ARBvp1.0\nOPTION USHADER_extensions;\n" \
    temps \
    "PARAM P[4] = { state.matrix.projection.transpose };\n" \
    "PARAM M[4] = { state.matrix.modelview.transpose };\n" \
    body "END\n"
#define VP(body) VPT("TEMP R0, R1, R2, R3;\n", body)

static void assemble(const char *text, struct us_program *p)
{
    struct us_diag d;
    if (!us_assemble(text, strlen(text), US_STAGE_ANY, p, &d))
        ck_abort_msg("does not assemble: %u:%u: %s\n%s", d.line, d.col,
                     d.msg, text);
}

/* The pass on `in` must give `want` (canonical texts); the text of the
 * result must assemble to an equal program. */
static bool expect_hoist(const char *in, const char *want)
{
    struct us_program p, w, q;
    assemble(in, &p);
    bool changed = pass_hoist(&p);
    assemble(want, &w);
    char *got = us_disassemble(&p), *exp = us_disassemble(&w);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(exp);
    if (strcmp(got, exp))
        ck_abort_msg("pass output:\n%s\nexpected:\n%s", got, exp);
    assemble(got, &q);
    ck_assert_msg(us_program_equal(&p, &q), "round trip differs:\n%s", got);
    free(got);
    free(exp);
    us_program_free(&p);
    us_program_free(&w);
    us_program_free(&q);
    return changed;
}

START_TEST(matrix_product)
{
    /* P * MV, then the product with the vertex: the first part moves */
    ck_assert(expect_hoist(
        VP("MUL R0, P[0], M[0].x;\n"
           "MAD R0, P[1], M[0].y, R0;\n"
           "MUL R1, P[0], M[1].x;\n"
           "MAD R1, P[1], M[1].y, R1;\n"
           "MUL R2, R0, vertex.position.x;\n"
           "MAD result.position, R1, vertex.position.y, R2;\n"),
        VPT("TEMP R2;\n",
           "PRESHADER;\n"
           "MUL program.pre[0], P[0], M[0].x;\n"
           "MAD program.pre[1], P[1], M[0].y, program.pre[0];\n"
           "MUL program.pre[2], P[0], M[1].x;\n"
           "MAD program.pre[3], P[1], M[1].y, program.pre[2];\n"
           "ENDPRESHADER;\n"
           "MUL R2, program.pre[1], vertex.position.x;\n"
           "MAD result.position, program.pre[3], vertex.position.y, R2;\n")));
}
END_TEST

START_TEST(partial_writes_merge)
{
    /* R0.x and R0.y by two instructions, read as R0.xy: one register, the
     * second copies the first's components before writing its own */
    ck_assert(expect_hoist(
        VP("ADD R0.x, P[0], M[0];\n"
           "MUL R0.y, P[1], M[1];\n"
           "MUL result.position, R0.xyxy, vertex.position;\n"),
        VPT("",
           "PRESHADER;\n"
           "ADD program.pre[0].x, P[0], M[0];\n"
           "MOV program.pre[1], program.pre[0];\n"
           "MUL program.pre[1].y, P[1], M[1];\n"
           "ENDPRESHADER;\n"
           "MUL result.position, program.pre[1].xyxy, vertex.position;\n")));
}
END_TEST

START_TEST(pinned)
{
    /* mixed with a per-thread component: the uniform part stays too
     * (and reads its operands from the preshader) */
    ck_assert(expect_hoist(
        VP("MUL R0, P[0], M[0].x;\n"
           "ADD R1.xy, R0, P[1];\n"
           "MOV R1.zw, vertex.position;\n"
           "MUL result.position, R1, R0;\n"),
        VPT("TEMP R1;\n",
           "PRESHADER;\n"
           "MUL program.pre[0], P[0], M[0].x;\n"
           "ENDPRESHADER;\n"
           "ADD R1.xy, program.pre[0], P[1];\n"
           "MOV R1.zw, vertex.position;\n"
           "MUL result.position, R1, program.pre[0];\n")));
    /* a write under IF: the value before may be read after ENDIF */
    ck_assert(expect_hoist(
        VP("MUL R0, P[0], M[0].x;\n"
           "IF vertex.position.x;\n"
           "MOV R0, vertex.color;\n"
           "ENDIF;\n"
           "MOV result.position, R0;\n"),
        VP("MUL R0, P[0], M[0].x;\n"
           "IF vertex.position.x;\n"
           "MOV R0, vertex.color;\n"
           "ENDIF;\n"
           "MOV result.position, R0;\n")) == false);
    /* a loop that writes the register reads its own value next trip */
    ck_assert(!expect_hoist(
        VP("MUL R0, P[0], M[0].x;\n"
           "MOV R1, P[2];\n"
           "BGNLOOP;\n"
           "ADD R0, R0, P[1];\n"
           "SGE R1.x, R1.x, R0.x;\n"
           "IF R1.x;\n"
           "BRK;\n"
           "ENDIF;\n"
           "ENDLOOP;\n"
           "MOV result.position, R0;\n"),
        VP("MUL R0, P[0], M[0].x;\n"
           "MOV R1, P[2];\n"
           "BGNLOOP;\n"
           "ADD R0, R0, P[1];\n"
           "SGE R1.x, R1.x, R0.x;\n"
           "IF R1.x;\n"
           "BRK;\n"
           "ENDIF;\n"
           "ENDLOOP;\n"
           "MOV result.position, R0;\n")));
}
END_TEST

START_TEST(left_alone)
{
    /* a MOV of a parameter (the reader can read it), an elementary
     * function (the preshader has no us_math), an input */
    const char *t = VP("MOV R0, P[0];\n"
                       "RCP R1, M[0].x;\n"
                       "MUL R2, M[1], vertex.position;\n"
                       "MAD result.position, R0, R1, R2;\n");
    ck_assert(!expect_hoist(t, t));
    /* inside flow control: not once per thread */
    const char *f = VP("IF vertex.position.x;\n"
                       "MUL R0, P[0], M[0];\n"
                       "MOV result.position, R0;\n"
                       "ENDIF;\n");
    ck_assert(!expect_hoist(f, f));
}
END_TEST

START_TEST(runs_once_per_binding)
{
    /* us_resolve_params fills program.pre[n] from the preshader */
    struct us_program p;
    assemble(VP("PRESHADER;\n"
                "MUL program.pre[0], P[0], {2, 3, 4, 5};\n"
                "ADD program.pre[1].xy, program.pre[0], {1, 1, 1, 1};\n"
                "ENDPRESHADER;\n"
                "MOV result.position, program.pre[1];\n"
                "MOV result.color, program.pre[0];\n"), &p);
    ck_assert_uint_eq(p.npre, 2);
    ck_assert_uint_eq(p.npre_temps, 2);
    struct us_glstate gl;
    us_glstate_init(&gl);
    for (unsigned c = 0; c < 16; c++)
        gl.projection[c] = (float)c + 0.5f;
    us_vec4 params[US_MAX_PARAMS];
    us_resolve_params(&p, &gl, params);
    unsigned pre0 = p.insts[1].src[0].index, pre1 = p.insts[0].src[0].index;
    ck_assert_int_eq(p.params[pre0].kind, US_PARAM_PRE);
    /* P[0] is the projection's first column (transpose row 0) */
    for (unsigned c = 0; c < 4; c++) {
        float want = gl.projection[4 * c] * (float)(c + 2);
        ck_assert(params[pre0][c] == want);
        ck_assert(params[pre1][c] == (c < 2 ? want + 1 : 0.0f));
    }
    us_program_free(&p);
}
END_TEST

static void refused(const char *text, const char *why)
{
    struct us_program p;
    struct us_diag d;
    ck_assert_msg(!us_assemble(text, strlen(text), US_STAGE_ANY, &p, &d),
                  "assembled: %s", text);
    ck_assert_msg(strstr(d.msg, why), "message '%s' lacks '%s'", d.msg, why);
}

START_TEST(assembler_refuses)
{
    refused(VP("PRESHADER;\nMUL program.pre[0], P[0], vertex.position;\n"
               "ENDPRESHADER;\n"), "reads only parameters");
    refused(VP("PRESHADER;\nMUL program.pre[0], P[0], R0;\n"
               "ENDPRESHADER;\n"), "reads only parameters");
    refused(VP("PRESHADER;\nMUL R0, P[0], P[1];\nENDPRESHADER;\n"),
            "writes only program.pre");
    refused(VP("PRESHADER;\nRCP program.pre[0], P[0].x;\nENDPRESHADER;\n"),
            "cannot be in a preshader");
    refused(VP("PRESHADER;\nMUL program.pre[0], P[0], P[1];\n"),
            "missing ENDPRESHADER");
    refused(VP("PRESHADER;\nENDPRESHADER;\nPRESHADER;\nENDPRESHADER;\n"),
            "second PRESHADER");
}
END_TEST

/* ---- the property ---- */

/* A copy of n elements of size sz, one more allocated so n = 0 is no NULL
 * (memcpy from a NULL source is undefined even for 0 bytes). */
static void *dup_array(const void *a, size_t n, size_t sz)
{
    void *b = malloc((n + 1) * sz);
    ck_assert_ptr_nonnull(b);
    if (n)
        memcpy(b, a, n * sz);
    return b;
}

static void copy_program(const struct us_program *p, struct us_program *q)
{
    *q = *p;
    q->insts = dup_array(p->insts, p->ninsts, sizeof *q->insts);
    q->params = dup_array(p->params, p->nparams, sizeof *q->params);
    q->decls = dup_array(p->decls, p->ndecls, sizeof *q->decls);
    q->pre = dup_array(p->pre, p->npre, sizeof *q->pre);
    q->flow = NULL;
    struct us_diag d;
    ck_assert(us_flow_build(q, &q->flow, &d));
}

/* The random programs' own temps and literals (isa/randprog.c: loop
 * counters and bounds lie above, which must stay as they are). */
enum { RAND_TEMPS = 6, RAND_CONSTS = 16 };

/* A random uniform-only instruction: parameters and the temps `uni`
 * marks (all four components written by uniform instructions). */
static void uniform_inst(struct us_rng *r,
                         const bool *uni, struct us_inst *in)
{
    static const uint8_t ops[] = { US_OP_MUL, US_OP_MAD, US_OP_ADD,
                                   US_OP_DP4, US_OP_DP3, US_OP_MOV,
                                   US_OP_MAX, US_OP_MIN, US_OP_FRC,
                                   US_OP_SGE, US_OP_CMP, US_OP_LRP,
                                   US_OP_XPD, US_OP_SUB, US_OP_ABS };
    memset(in, 0, sizeof *in);
    in->op = ops[us_rng_below(r, sizeof ops)];
    in->sat = us_rng_below(r, 5) == 0;
    in->dst.file = US_FILE_TEMP;
    in->dst.index = (uint16_t)us_rng_below(r, RAND_TEMPS);
    in->dst.mask = us_rng_below(r, 2) ? 0xf
                                      : (uint8_t)(1 + us_rng_below(r, 15));
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
        struct us_src *s = &in->src[k];
        unsigned t = us_rng_below(r, RAND_TEMPS);
        if (uni[t] && us_rng_below(r, 2)) {
            s->file = US_FILE_TEMP;
            s->index = (uint16_t)t;
        } else {
            s->file = US_FILE_PARAM;
            s->index = (uint16_t)(1 + us_rng_below(r, RAND_CONSTS - 1));
        }
        for (unsigned c = 0; c < 4; c++)
            s->swz[c] = (uint8_t)us_rng_below(r, 4);
        s->negate = us_rng_below(r, 4) == 0 ? 0xf : 0;
    }
}

/* p with uniform-only instructions inserted at random places (their
 * temps read by the program's own instructions), some parameters bound
 * to program.local (set in gl) instead of literals. */
static void with_uniforms(struct us_rng *r, struct us_program *p,
                          struct us_glstate *gl)
{
    p->options |= US_OPT_USHADER_EXTENSIONS;
    for (unsigned i = 1; i < RAND_CONSTS && i < p->nparams; i++)
        if (us_rng_below(r, 3) == 0) {
            p->params[i].kind = US_PARAM_LOCAL;
            p->params[i].index = (uint16_t)i;
            for (unsigned c = 0; c < 4; c++)
                gl->local[p->stage][i][c] = us_random_float(r);
        }
    unsigned nu = 3 + us_rng_below(r, 10);
    struct us_inst *out = calloc(p->ninsts + nu + 1, sizeof *out);
    ck_assert_ptr_nonnull(out);
    bool uni[US_MAX_TEMPS] = { false };
    unsigned n = 0, u = 0;
    for (unsigned i = 0; i <= p->ninsts; i++) {
        while (u < nu && us_rng_below(r, 2)) {
            uniform_inst(r, uni, &out[n]);
            if (out[n].dst.mask == 0xf)
                uni[out[n].dst.index] = true;
            n++;
            u++;
        }
        if (i < p->ninsts) {
            out[n] = p->insts[i];
            if (pass_writes_temp(&out[n]))
                uni[out[n].dst.index] = false;
            n++;
        }
    }
    free(p->insts);
    p->insts = out;
    p->ninsts = n;
    us_flow_free(p->flow);
    p->flow = NULL;
    struct us_diag d;
    ck_assert(us_flow_build(p, &p->flow, &d));
}

static bool finite_literals(const struct us_program *p)
{
    for (unsigned i = 0; i < p->nparams; i++)
        for (unsigned c = 0; c < 4; c++)
            if (p->params[i].kind == US_PARAM_CONST &&
                !isfinite(p->params[i].value[c]))
                return false;
    return true;
}

static unsigned hoist_property(bool flow, uint64_t seed, unsigned n)
{
    struct us_rng r = { seed };
    unsigned changed = 0;
    for (unsigned k = 0; k < n; k++) {
        enum us_stage stage = k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
        struct us_program p, o;
        unsigned len = 4 + us_rng_below(&r, 24);
        ck_assert(flow ? us_random_flow_program(&r, stage, len, &p)
                       : us_random_program(&r, stage, len, &p));
        struct us_glstate gl;
        us_glstate_init(&gl);
        with_uniforms(&r, &p, &gl);
        copy_program(&p, &o);
        bool did = pass_hoist(&o);
        changed += did;
        char *before = us_disassemble(&p), *after = us_disassemble(&o);
        ck_assert_ptr_nonnull(before);
        ck_assert_ptr_nonnull(after);
        /* qb, q: the texts of p and o, assembled (the random programs'
         * unused, repeated and infinite literals do not survive text, so
         * q computes as qb; the hand cases check equality) */
        struct us_program q, qb;
        struct us_diag d;
        if (!finite_literals(&p) ||
            !us_assemble(before, strlen(before), US_STAGE_ANY, &qb, &d)) {
            /* no text: NaN and infinities, _SAT in a vertex program (a
             * failed us_assemble leaves qb empty) */
            copy_program(&p, &qb);
            copy_program(&o, &q);
        } else if (!us_assemble(after, strlen(after), US_STAGE_ANY, &q, &d)) {
            ck_abort_msg("program %u: %s\n%s", k, d.msg, after);
        }
        ck_assert_uint_eq(q.npre, o.npre);
        if (did)
            ck_assert(o.npre > 0 && o.ninsts < p.ninsts);
        us_vec4 *pa = calloc(p.nparams + 1, sizeof *pa);
        us_vec4 *pb = calloc(o.nparams + 1, sizeof *pb);
        us_vec4 *pq = calloc(q.nparams + 1, sizeof *pq);
        us_vec4 *pqb = calloc(qb.nparams + 1, sizeof *pqb);
        ck_assert(pa && pb && pq && pqb);
        us_resolve_params(&qb, &gl, pqb);
        us_resolve_params(&p, &gl, pa);
        us_resolve_params(&o, &gl, pb);
        us_resolve_params(&q, &gl, pq);
        struct us_exec_env ea = { .params = (const us_vec4 *)pa,
                                  .math = &us_math_exact,
                                  .sample = pass_sample,
                                  .max_insts = 20000 };
        struct us_exec_env eb = ea, eq = ea, eqb = ea;
        eb.params = (const us_vec4 *)pb;
        eq.params = (const us_vec4 *)pq;
        eqb.params = (const us_vec4 *)pqb;
        static struct us_thread t0, ta, tb, tq, tqb;
        for (unsigned t = 0; t < 4; t++) {
            us_random_thread(&r, &t0);
            ta = t0;
            tb = t0;
            us_interpret(&p, &ea, &ta);
            us_interpret(&o, &eb, &tb);
            /* through text, temps start as a pipeline's, at 0 (text
             * renumbers the TEMPs a program no longer names) */
            tqb = t0;
            memset(tqb.temp, 0, sizeof tqb.temp);
            memset(tqb.addr, 0, sizeof tqb.addr);
            tq = tqb;
            us_interpret(&q, &eq, &tq);
            us_interpret(&qb, &eqb, &tqb);
            ck_assert(!ta.overrun && !tb.overrun && !tq.overrun);
            if (!same_bits(ta.output, tb.output, US_MAX_OUTPUTS) ||
                !same_bits(tqb.output, tq.output, US_MAX_OUTPUTS) ||
                ta.killed != tb.killed || tqb.killed != tq.killed) {
                for (unsigned i = 0; i < US_MAX_OUTPUTS; i++)
                    if (!same_bits(&ta.output[i], &tb.output[i], 1) ||
                        !same_bits(&tqb.output[i], &tq.output[i], 1))
                        fprintf(stderr, "output %u: %a %a %a %a / %a %a %a "
                                "%a / %a %a %a %a\n", i, tqb.output[i][0],
                                tqb.output[i][1], tqb.output[i][2],
                                tqb.output[i][3], tb.output[i][0],
                                tb.output[i][1], tb.output[i][2],
                                tb.output[i][3], tq.output[i][0],
                                tq.output[i][1], tq.output[i][2],
                                tq.output[i][3]);
                ck_abort_msg("program %u computes differently after the "
                             "hoist:\n%s\nbecame\n%s", k, before, after);
            }
        }
        free(pa);
        free(pb);
        free(pq);
        free(pqb);
        us_program_free(&q);
        us_program_free(&qb);
        free(before);
        free(after);
        us_program_free(&o);
        us_program_free(&p);
    }
    return changed;
}

START_TEST(random_programs_keep_outputs)
{
    unsigned changed = hoist_property(_i, 0x4015 + (uint64_t)_i, 400);
    /* the uniform parts are there to move: many programs change (fewer
     * with flow, where they land inside IFs and loops) */
    unsigned want = _i ? 50 : 200;
    ck_assert_msg(changed >= want, "only %u of 400 programs changed (want "
                  "%u)", changed, want);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("pass_hoist");
    TCase *t = tcase_create("hoist");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, matrix_product);
    tcase_add_test(t, partial_writes_merge);
    tcase_add_test(t, pinned);
    tcase_add_test(t, left_alone);
    tcase_add_test(t, runs_once_per_binding);
    tcase_add_test(t, assembler_refuses);
    tcase_add_loop_test(t, random_programs_keep_outputs, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
