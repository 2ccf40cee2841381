/*
 * What the tests of the vec4 back end's passes (glsl/pass_*.c) share:
 * ARB program text in, the pass run on it as the translator's IR (TEMP n
 * is virtual register n), the result compared with the expected text by
 * their canonical disassemblies; and random programs (isa/randprog.c)
 * through passes, which must leave the reference interpreter's bits.
 */
#ifndef PASS_UTIL_H
#define PASS_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"
#include "isa/scalar.h"

/* The translation's IR of `p`: its instructions copied, TEMP v an SSA
 * value where ssa[v] (ssa may be NULL). */
static inline void spv_of(const struct us_program *p, const uint8_t *ssa,
                          struct spv *s)
{
    memset(s, 0, sizeof *s);
    s->stage = p->stage;
    s->insts = malloc((p->ninsts + 1) * sizeof *s->insts);
    ck_assert_ptr_nonnull(s->insts);
    memcpy(s->insts, p->insts, p->ninsts * sizeof *s->insts);
    s->ninsts = s->cap_insts = p->ninsts;
    s->nvregs = p->ntemps;
    s->vreg_ssa = calloc(s->nvregs + 1, 1);
    ck_assert_ptr_nonnull(s->vreg_ssa);
    if (ssa)
        memcpy(s->vreg_ssa, ssa, s->nvregs);
}

/* The program of `text` as the translation's IR; ssa: bit v marks TEMP v
 * an SSA value. */
static inline void ir_of(const char *text, unsigned ssa, struct us_program *p,
                  struct spv *s)
{
    struct us_diag d;
    memset(&d, 0, sizeof d);
    if (!us_assemble(text, strlen(text), US_STAGE_ANY, p, &d))
        ck_abort_msg("does not assemble: %u:%u: %s\n%s", d.line, d.col,
                     d.msg, text);
    spv_of(p, NULL, s);
    for (unsigned v = 0; v < s->nvregs && v < 32; v++)
        s->vreg_ssa[v] = ssa >> v & 1;
}

/* The program with the pass's instructions (s is freed). */
static inline void back_to(struct us_program *p, struct spv *s)
{
    free(p->insts);
    p->insts = s->insts;
    p->ninsts = s->ninsts;
    s->insts = NULL;
    free(s->vreg_ssa);
    free(s->consts);
}

/* Canonical text: disassemble and reassemble, so flow links are rebuilt. */
static inline char *canonical(const struct us_program *p)
{
    char *t = us_disassemble(p);
    ck_assert_ptr_nonnull(t);
    struct us_program q;
    struct us_diag d;
    if (!us_assemble(t, strlen(t), US_STAGE_ANY, &q, &d))
        ck_abort_msg("pass output does not assemble: %s\n%s", d.msg, t);
    char *u = us_disassemble(&q);
    us_program_free(&q);
    free(t);
    ck_assert_ptr_nonnull(u);
    return u;
}

/* Run `pass` on `in` and require `want`; returns the pass's answer. */
static inline bool expect_pass(bool (*pass)(struct spv *), const char *in,
                        unsigned ssa, const char *want)
{
    struct us_program p, w;
    struct spv s;
    ir_of(in, ssa, &p, &s);
    bool changed = pass(&s);
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

/* ---- the property: random programs keep the interpreter's bits ---- */

static inline void pass_sample(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4], float lod_bias, float out[4])
{
    (void)ctx;
    for (unsigned c = 0; c < 4; c++)
        out[c] = coord[(c + target) & 3] * (float)(unit + 1) + lod_bias +
                 (float)c * 0.125f;
}

static inline bool same_bits(const us_vec4 *a, const us_vec4 *b, unsigned n)
{
    return !memcmp(a, b, n * sizeof *a);
}

/* Copies into fresh registers before random readers, one of whose
 * operands reads the copy (random swizzle): the SPIR-V pattern the passes
 * are for.  The fresh registers are SSA values (ssa[v]); the program
 * computes something else, and the passes must keep that. */
static inline void with_copies(struct us_rng *r, struct us_program *p, uint8_t *ssa)
{
    struct us_inst *out = calloc(2 * p->ninsts + 1, sizeof *out);
    ck_assert_ptr_nonnull(out);
    unsigned n = 0, fresh = p->ntemps;
    for (unsigned i = 0; i < p->ninsts; i++) {
        struct us_inst in = p->insts[i];
        unsigned nsrc = us_ops[in.op].nsrc;
        if (nsrc && fresh < US_MAX_TEMPS && us_rng_below(r, 3)) {
            unsigned k = us_rng_below(r, nsrc);
            struct us_inst m;
            memset(&m, 0, sizeof m);
            m.op = us_rng_below(r, 4) ? US_OP_MOV : US_OP_MOV_U;
            m.dst = (struct us_dst){ .file = US_FILE_TEMP, .index =
                                     (uint16_t)fresh, .mask = 0xf };
            if (us_rng_below(r, 4) == 0)
                m.dst.mask = (uint8_t)(1 + us_rng_below(r, 15));
            m.src[0] = in.src[k];
            m.src[0].negate = us_rng_below(r, 4) == 0 ? 0xf : 0;
            if (in.op == US_OP_SWZ)   /* its 0 and 1 are no register's */
                for (unsigned c = 0; c < 4; c++)
                    m.src[0].swz[c] &= 3;
            m.line = in.line;
            out[n++] = m;
            if (in.op != US_OP_SWZ || us_rng_below(r, 2)) {
                in.src[k].file = US_FILE_TEMP;
                in.src[k].index = (uint16_t)fresh;
                in.src[k].rel = false;
                for (unsigned c = 0; c < 4; c++)
                    if (in.src[k].swz[c] < 4 || in.op != US_OP_SWZ)
                        in.src[k].swz[c] = (uint8_t)us_rng_below(r, 4);
            }
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

/* Instructions split into one per written component (in a random
 * order): what pass_vectorize joins.  When an instruction reads what it
 * writes, the split program computes something else; the passes must
 * keep that too. */
static inline void with_splits(struct us_rng *r, struct us_program *p)
{
    struct us_inst *out = calloc(4 * p->ninsts + 1, sizeof *out);
    ck_assert_ptr_nonnull(out);
    unsigned n = 0;
    for (unsigned i = 0; i < p->ninsts; i++) {
        const struct us_inst *in = &p->insts[i];
        enum us_shape sh = (enum us_shape)us_ops[in->op].shape;
        bool splits = (sh == US_SHAPE_COMP || sh == US_SHAPE_REPL ||
                       sh == US_SHAPE_DOT) &&
                      us_ops[in->op].unit != US_UNIT_TEX &&
                      (in->dst.file == US_FILE_TEMP ||
                       in->dst.file == US_FILE_OUTPUT) &&
                      us_rng_below(r, 3);
        if (!splits) {
            out[n++] = *in;
            continue;
        }
        unsigned first = us_rng_below(r, 4);
        for (unsigned q = 0; q < 4; q++) {
            unsigned c = (q + first) & 3;
            if (!(in->dst.mask >> c & 1))
                continue;
            out[n] = *in;
            out[n++].dst.mask = (uint8_t)(1u << c);
        }
    }
    free(p->insts);
    p->insts = out;
    p->ninsts = n;
    us_flow_free(p->flow);
    p->flow = NULL;
    struct us_diag d;
    if (!us_flow_build(p, &p->flow, &d))
        ck_abort_msg("flow: %s", d.msg);
}

/* `p` with the passes' instructions and registers (its params and decls),
 * its flow rebuilt; s's instructions move to it, the rest is freed. */
static inline void program_of(const struct us_program *p, struct spv *s,
                              struct us_program *o)
{
    ck_assert_uint_le(s->nvregs, US_MAX_TEMPS);
    *o = *p;
    o->insts = s->insts;
    o->ninsts = s->ninsts;
    if (s->nvregs > o->ntemps)
        o->ntemps = s->nvregs;
    o->flow = NULL;
    s->insts = NULL;
    free(s->vreg_ssa);
    free(s->consts);
    s->vreg_ssa = NULL;
    s->consts = NULL;
    struct us_diag d;
    ck_assert(us_flow_build(o, &o->flow, &d));
}

/* What program_of made (p's params and decls stay p's). */
static inline void program_of_free(struct us_program *o)
{
    free(o->insts);
    us_flow_free(o->flow);
}

/* p's parameter values: the constants', random ones for the rest. */
static inline us_vec4 *random_params(struct us_rng *r,
                                     const struct us_program *p)
{
    us_vec4 *v = calloc(p->nparams + 1, sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (unsigned i = 0; i < p->nparams; i++)
        for (unsigned c = 0; c < 4; c++)
            v[i][c] = p->params[i].kind == US_PARAM_CONST
                          ? p->params[i].value[c] : us_random_float(r);
    return v;
}

/* Runs `a` and `b` on the same four random threads: the outputs and KIL
 * (with `all_regs` every register too) must keep their bits, else the
 * test fails naming program k, `what` and both texts.  A thread over the
 * budget (a loop made endless) is not compared. */
static inline void expect_same_runs(struct us_rng *r,
                                    const struct us_program *a,
                                    const struct us_program *b,
                                    const us_vec4 *params, bool all_regs,
                                    unsigned k, const char *what)
{
    struct us_exec_env env = { .params = params, .math = &us_math_exact,
                               .sample = pass_sample, .max_insts = 20000 };
    static struct us_thread t0, ta, tb;
    for (unsigned t = 0; t < 4; t++) {
        us_random_thread(r, &t0);
        ta = t0;
        tb = t0;
        us_interpret(a, &env, &ta);
        us_interpret(b, &env, &tb);
        if (ta.overrun || tb.overrun)
            continue;
        bool same = same_bits(ta.output, tb.output, US_MAX_OUTPUTS) &&
                    ta.killed == tb.killed;
        if (all_regs)
            same = same && same_bits(ta.temp, tb.temp, US_MAX_TEMPS) &&
                   !memcmp(ta.addr, tb.addr, sizeof ta.addr);
        if (same)
            continue;
        for (unsigned i = 0; i < US_MAX_OUTPUTS; i++)
            if (!same_bits(&ta.output[i], &tb.output[i], 1))
                fprintf(stderr, "output %u: %g %g %g %g / %g %g %g %g\n", i,
                        ta.output[i][0], ta.output[i][1], ta.output[i][2], ta.output[i][3],
                        tb.output[i][0], tb.output[i][1], tb.output[i][2], tb.output[i][3]);
        for (unsigned i = 0; all_regs && i < US_MAX_TEMPS; i++)
            if (!same_bits(&ta.temp[i], &tb.temp[i], 1))
                fprintf(stderr, "temp %u: %g %g %g %g / %g %g %g %g\n", i,
                        ta.temp[i][0], ta.temp[i][1], ta.temp[i][2], ta.temp[i][3],
                        tb.temp[i][0], tb.temp[i][1], tb.temp[i][2], tb.temp[i][3]);
        char *before = us_disassemble(a), *after = us_disassemble(b);
        ck_abort_msg("program %u computes differently after %s:\n%s\n"
                     "became\n%s", k, what, before, after);
    }
}

/* Rewrites a random program before the passes: the pattern a pass is
 * for, placed in the random code (its fresh registers marked in ssa). */
typedef void (*pass_prep_fn)(struct us_rng *r, struct us_program *p,
                             uint8_t *ssa);

/* Runs `passes` on random programs (with structured flow when `flow`);
 * with `all_regs` every register must keep its bits, else the outputs
 * and KIL.  Half the programs get copies (with_copies), half are split
 * (with_splits), then `prep` (may be NULL) rewrites each.  Returns how
 * many programs the passes changed; fails the test on the first that
 * computes differently. */
static inline unsigned random_property_prep(void (*passes)(struct spv *),
                                            bool flow, bool all_regs,
                                            uint64_t seed, unsigned n,
                                            pass_prep_fn prep)
{
    struct us_rng r = { seed };
    unsigned changed = 0;
    for (unsigned k = 0; k < n; k++) {
        enum us_stage stage = k & 1 ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
        struct us_program p, o;
        unsigned len = 4 + us_rng_below(&r, 24);
        ck_assert(flow ? us_random_flow_program(&r, stage, len, &p)
                       : us_random_program(&r, stage, len, &p));
        uint8_t ssa[US_MAX_TEMPS] = { 0 };
        if (k % 4 >= 2)
            with_copies(&r, &p, ssa);
        if (k % 4 == 1 || k % 4 == 3)
            with_splits(&r, &p);
        if (prep)
            prep(&r, &p, ssa);
        struct spv s;
        spv_of(&p, ssa, &s);
        passes(&s);
        program_of(&p, &s, &o);
        changed += p.ninsts != o.ninsts ||
                   memcmp(p.insts, o.insts, p.ninsts * sizeof *o.insts) != 0;
        us_vec4 *params = random_params(&r, &p);
        expect_same_runs(&r, &p, &o, params, all_regs, k, "the passes");
        free(params);
        program_of_free(&o);
        us_program_free(&p);
    }
    return changed;
}

static inline unsigned random_property(void (*passes)(struct spv *), bool flow,
                                bool all_regs, uint64_t seed, unsigned n)
{
    return random_property_prep(passes, flow, all_regs, seed, n, NULL);
}

#endif
