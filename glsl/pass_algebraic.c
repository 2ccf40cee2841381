/*
 * Algebraic identities that hold bit for bit, on virtual registers (the
 * ones pass_constfold leaves; both look only at the components someone
 * reads, spv_demanded):
 *
 *   - an ADD, SUB, MUL or MAD whose operands are all the translation's
 *     constants is a MOV of its result, computed here with the same
 *     micro-ops (isa/micro.h) every model and the interpreter use: binary32,
 *     one rounding each, the NaN made the default one and _SAT applied as
 *     a register write does (smoothstep(0.0, 1.0, x)'s 1.0 - 0.0);
 *   - x + -0 and x - +0 are x (for x = +0 too: +0 + -0 is +0, -0 - +0 is
 *     -0), -0 - x is -x: ADD/SUB -> MOV;
 *   - a * 1 is a, a * -1 is -a, exactly: MUL -> MOV, MAD -> ADD (with a
 *     negation the translation's constants carry, which pass_constfold
 *     does not take);
 *   - a * b + -0 is a * b: MAD -> MUL.
 * Nothing else: x + +0 is not x for x = -0, x * 0 is not 0 for x = inf,
 * NaN or negative, min/max pick by comparison (NaN), and nothing the SFU
 * computes is evaluated (the models' SFUs differ).  pass_copyprop then
 * removes the MOVs.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"
#include "isa/micro.h"

/* Operand x's value at position p when it is a translation constant. */
static bool const_at(const struct spv *s, const struct us_src *x, unsigned p,
                     float *v)
{
    if (x->file != US_FILE_PARAM || x->rel || x->index < CONST_BASE ||
        (unsigned)(x->index - CONST_BASE) >= s->nconsts || x->swz[p] >= 4)
        return false;
    float c = s->consts[x->index - CONST_BASE].v[x->swz[p]];
    *v = x->negate >> p & 1 ? micro_neg(c) : c;
    return true;
}

/* Operand k reads the constant want (bit for bit, its negation applied)
 * at every position pos names. */
static bool reads_const(const struct spv *s, const struct us_inst *in,
                        unsigned k, unsigned pos, float want)
{
    if (!pos)
        return false;
    for (unsigned p = 0; p < 4; p++) {
        float v;
        if ((pos >> p & 1) &&
            (!const_at(s, &in->src[k], p, &v) || memcmp(&v, &want, sizeof v)))
            return false;
    }
    return true;
}

static bool add_const(struct spv *s, const float v[4], struct us_src *out)
{
    unsigned i;
    for (i = 0; i < s->nconsts; i++)
        if (!memcmp(s->consts[i].v, v, sizeof s->consts[i].v))
            break;
    if (i == s->nconsts) {
        if (s->nconsts >= US_MAX_PARAMS / 2)
            return false;
        if (s->nconsts == s->cap_consts) {
            unsigned cap = s->cap_consts ? 2 * s->cap_consts : 32;
            struct constant *p = realloc(s->consts, cap * sizeof *p);
            if (!p)
                return false;
            s->consts = p;
            s->cap_consts = cap;
        }
        memcpy(s->consts[s->nconsts++].v, v, sizeof s->consts[i].v);
    }
    *out = (struct us_src){ .file = US_FILE_PARAM,
                            .index = (uint16_t)(CONST_BASE + i),
                            .swz = { 0, 1, 2, 3 } };
    return true;
}

/* All operands constant: the instruction becomes a MOV of its result. */
static bool evaluate(struct spv *s, struct us_inst *in, unsigned live)
{
    unsigned n = us_ops[in->op].nsrc;
    float r[4] = { 0, 0, 0, 0 };
    for (unsigned p = 0; p < 4; p++) {
        if (!(live >> p & 1))
            continue;
        float a[3] = { 0, 0, 0 };
        for (unsigned k = 0; k < n; k++)
            if (!const_at(s, &in->src[k], p, &a[k]))
                return false;
        float v;
        switch (in->op) {
        case US_OP_ADD: v = micro_add(a[0], a[1]); break;
        case US_OP_SUB: v = micro_sub(a[0], a[1]); break;
        case US_OP_MUL: v = micro_mul(a[0], a[1]); break;
        default: v = micro_mad(a[0], a[1], a[2]); break;
        }
        r[p] = in->sat ? micro_sat(v) : micro_canon(v);
    }
    struct us_src k;
    if (!add_const(s, r, &k))
        return false;
    in->op = US_OP_MOV;
    in->sat = false;
    in->src[0] = k;
    memset(&in->src[1], 0, 2 * sizeof in->src[1]);
    return true;
}

/* Operand x's negation at the positions pos names: 0 or 1 for all, or -1. */
static int negation(const struct us_src *x, unsigned pos)
{
    unsigned n = x->negate & pos;
    return !n ? 0 : n == pos ? 1 : -1;
}

/* The instruction becomes op with operand x first (read at positions pos,
 * negated once more when neg) and y second; false when x's negation is
 * not all or nothing there. */
static bool become(struct us_inst *in, unsigned op, struct us_src x,
                   unsigned pos, bool neg, const struct us_src *y)
{
    int n = negation(&x, pos);
    if (n < 0)
        return false;
    x.negate = (n != 0) != neg ? 0xf : 0;
    in->op = (uint8_t)op;
    in->src[0] = x;
    memset(&in->src[1], 0, 2 * sizeof in->src[1]);
    if (y)
        in->src[1] = *y;
    return true;
}

static bool simplify(struct spv *s, struct us_inst *in, unsigned live)
{
    unsigned op = in->op;
    if (op != US_OP_ADD && op != US_OP_SUB && op != US_OP_MUL &&
        op != US_OP_MAD)
        return false;
    if (evaluate(s, in, live))
        return true;
    unsigned p0 = src_positions(in, 0, live), p1 = src_positions(in, 1, live);
    const float one = 1.0f, mone = -1.0f, pzero = 0.0f, nzero = -0.0f;
    switch (op) {
    case US_OP_ADD:
        for (unsigned k = 0; k < 2; k++)
            if (reads_const(s, in, k, k ? p1 : p0, nzero))
                return become(in, US_OP_MOV, in->src[1 - k], k ? p0 : p1,
                              false, NULL);
        return false;
    case US_OP_SUB:
        if (reads_const(s, in, 1, p1, pzero))
            return become(in, US_OP_MOV, in->src[0], p0, false, NULL);
        if (reads_const(s, in, 0, p0, nzero))
            return become(in, US_OP_MOV, in->src[1], p1, true, NULL);
        return false;
    default:   /* MUL, MAD */
        if (op == US_OP_MAD &&
            reads_const(s, in, 2, src_positions(in, 2, live), nzero)) {
            in->op = US_OP_MUL;
            memset(&in->src[2], 0, sizeof in->src[2]);
            return true;
        }
        for (unsigned k = 0; k < 2; k++) {
            unsigned pk = k ? p1 : p0, po = k ? p0 : p1;
            bool neg = reads_const(s, in, k, pk, mone);
            if (!neg && !reads_const(s, in, k, pk, one))
                continue;
            struct us_src addend = in->src[2];
            return become(in, op == US_OP_MAD ? US_OP_ADD : US_OP_MOV,
                          in->src[1 - k], po, neg,
                          op == US_OP_MAD ? &addend : NULL);
        }
        return false;
    }
}

bool pass_algebraic(struct spv *s)
{
    uint8_t *demanded = malloc(s->nvregs + 1);
    if (!demanded)
        return false;
    spv_demanded(s, demanded);
    bool changed = false;
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        unsigned live = in->dst.mask;
        if (in->dst.file == US_FILE_TEMP && in->dst.index < s->nvregs)
            live &= demanded[in->dst.index];
        if (live && !in->word)
            changed |= simplify(s, in, live);
    }
    free(demanded);
    return changed;
}
