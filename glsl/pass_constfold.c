/*
 * Constant folding, on virtual registers, where it is exact: a product
 * with the constant 1 is its other factor (MUL a, 1 -> MOV a; MAD a, 1, c
 * -> ADD a, c).  a * 1 is a for every binary32 a (a NaN stays a NaN, which
 * every register write makes the default NaN), so each component keeps its
 * bits; pass_copyprop then removes the MOV.  Only the components someone
 * reads need the 1 (spv_demanded): vec4(d * vec3(1.0), 1.0)'s product
 * is computed in .xyzw and read in .xyz.  Nothing that rounds is
 * evaluated here: the models' SFUs differ (RCP of a constant stays), and
 * no operation is reassociated.
 *
 * A sum with a zero is the other operand where that is exact: a + (-0.0)
 * is a for every a (+0.0 + -0.0 is +0.0), and so is a - (+0.0); a + (+0.0)
 * turns -0.0 into +0.0, so ADD a, +0.0 folds only when a cannot be -0.0
 * (never_negzero below: in round to nearest a sum is -0.0 only when both
 * operands are, a MAD only when its addend is, and comparisons, _SAT, ABS
 * and FRC never give it).
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"

/* Operand x is the translation's constant 1.0 wherever it is read for a
 * component someone reads (live: the write mask cut down to them). */
static bool is_one(const struct spv *s, const struct us_inst *in, unsigned k,
                   unsigned live)
{
    const struct us_src *x = &in->src[k];
    if (x->file != US_FILE_PARAM || x->rel || x->negate ||
        x->index < CONST_BASE ||
        (unsigned)(x->index - CONST_BASE) >= s->nconsts)
        return false;
    const float *v = s->consts[x->index - CONST_BASE].v;
    const float one = 1.0f;
    unsigned pos = src_positions(in, k, live);
    for (unsigned p = 0; p < 4; p++)
        if ((pos >> p & 1) &&
            (x->swz[p] >= 4 || memcmp(&v[x->swz[p]], &one, sizeof one)))
            return false;
    return true;
}

/* The constant's bits that operand k reads, each compared with `bits`
 * (after the operand's negation); false when not a constant. */
static bool const_is(const struct spv *s, const struct us_inst *in,
                     unsigned k, uint32_t bits, bool all)
{
    const struct us_src *x = &in->src[k];
    if (x->file != US_FILE_PARAM || x->rel || x->index < CONST_BASE ||
        (unsigned)(x->index - CONST_BASE) >= s->nconsts)
        return false;
    const float *v = s->consts[x->index - CONST_BASE].v;
    unsigned pos = src_positions(in, k, in->dst.mask);
    bool any = false;
    for (unsigned p = 0; p < 4; p++) {
        if (!(pos >> p & 1))
            continue;
        uint32_t b;
        if (x->swz[p] >= 4)
            return false;
        memcpy(&b, &v[x->swz[p]], sizeof b);
        b ^= (uint32_t)(x->negate >> p & 1) << 31;
        if (all ? b != bits : b == bits)
            return false;
        any = true;
    }
    return any;
}

static bool never_negzero(const struct spv *s, const unsigned *ndefs,
                          const int *def, const struct us_inst *in,
                          unsigned k, unsigned depth);

/* Whether the instruction writing an SSA value never writes -0.0. */
static bool def_never_negzero(const struct spv *s, const unsigned *ndefs,
                              const int *def, const struct us_inst *d,
                              unsigned depth)
{
    if (d->sat)
        return true;
    switch (d->op) {
    case US_OP_SGE: case US_OP_SLT: case US_OP_SEQ: case US_OP_SNE:
    case US_OP_SGT: case US_OP_SLE: case US_OP_ABS: case US_OP_FRC:
        return true;
    case US_OP_MOV:
        return never_negzero(s, ndefs, def, d, 0, depth);
    case US_OP_ADD:
        return never_negzero(s, ndefs, def, d, 0, depth) ||
               never_negzero(s, ndefs, def, d, 1, depth);
    case US_OP_SUB:   /* a + (-b): -b is not -0.0 when b is no +0.0 */
        return never_negzero(s, ndefs, def, d, 0, depth) ||
               const_is(s, d, 1, 0, false);
    case US_OP_MAD:
        return never_negzero(s, ndefs, def, d, 2, depth);
    case US_OP_CMP:
        return never_negzero(s, ndefs, def, d, 1, depth) &&
               never_negzero(s, ndefs, def, d, 2, depth);
    case US_OP_MIN: case US_OP_MAX:
        return never_negzero(s, ndefs, def, d, 0, depth) &&
               never_negzero(s, ndefs, def, d, 1, depth);
    default:
        return false;
    }
}

/* Operand k of `in` is never -0.0: a constant without it, or an SSA value
 * (read without negation) whose definition cannot give it. */
static bool never_negzero(const struct spv *s, const unsigned *ndefs,
                          const int *def, const struct us_inst *in,
                          unsigned k, unsigned depth)
{
    const struct us_src *x = &in->src[k];
    if (const_is(s, in, k, 0x80000000u, false))
        return true;
    if (x->file != US_FILE_TEMP || x->rel || x->negate || !depth ||
        x->index >= s->nvregs || !s->vreg_ssa[x->index] ||
        ndefs[x->index] != 1 || def[x->index] < 0)
        return false;
    const struct us_inst *d = &s->insts[def[x->index]];
    unsigned pos = src_positions(in, k, in->dst.mask);
    for (unsigned p = 0; p < 4; p++)   /* only what d wrote */
        if ((pos >> p & 1) && (x->swz[p] >= 4 || !(d->dst.mask >> x->swz[p] & 1)))
            return false;
    return us_ops[d->op].shape == US_SHAPE_COMP &&
           def_never_negzero(s, ndefs, def, d, depth - 1);
}

/* ADD a, 0 / SUB a, 0 -> MOV a where exact (the header); true when so. */
static bool fold_zero(const struct spv *s, const unsigned *ndefs,
                      const int *def, struct us_inst *in)
{
    int k = -1;
    if (in->op == US_OP_SUB) {
        if (const_is(s, in, 1, 0, true))
            k = 0;
    } else if (in->op == US_OP_ADD) {
        for (unsigned z = 0; z < 2 && k < 0; z++)
            if (const_is(s, in, z, 0x80000000u, true) ||
                (const_is(s, in, z, 0, true) &&
                 never_negzero(s, ndefs, def, in, 1 - z, 6)))
                k = (int)(1 - z);
    }
    if (k < 0)
        return false;
    in->op = US_OP_MOV;
    in->src[0] = in->src[k];
    memset(&in->src[1], 0, 2 * sizeof in->src[1]);
    return true;
}

bool pass_constfold(struct spv *s)
{
    bool changed = false;
    unsigned *ndefs = calloc(s->nvregs + 1, sizeof *ndefs);
    int *def = malloc((s->nvregs + 1) * sizeof *def);
    if (ndefs && def) {
        for (unsigned v = 0; v < s->nvregs; v++)
            def[v] = -1;
        for (unsigned i = 0; i < s->ninsts; i++)
            if (pass_writes_temp(&s->insts[i]) &&
                s->insts[i].dst.index < s->nvregs) {
                ndefs[s->insts[i].dst.index]++;
                def[s->insts[i].dst.index] = (int)i;
            }
        for (unsigned i = 0; i < s->ninsts; i++)
            changed |= fold_zero(s, ndefs, def, &s->insts[i]);
    }
    free(ndefs);
    free(def);
    uint8_t *demanded = malloc(s->nvregs + 1);
    if (demanded)
        spv_demanded(s, demanded);
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        if (in->op != US_OP_MUL && in->op != US_OP_MAD)
            continue;
        unsigned live = in->dst.mask;
        if (demanded && in->dst.file == US_FILE_TEMP &&
            in->dst.index < s->nvregs)
            live &= demanded[in->dst.index];
        if (!live)
            continue;
        int k = is_one(s, in, 1, live) ? 1 : is_one(s, in, 0, live) ? 0 : -1;
        if (k < 0)
            continue;
        struct us_src other = in->src[1 - k], addend = in->src[2];
        bool mad = in->op == US_OP_MAD;
        in->op = mad ? US_OP_ADD : US_OP_MOV;
        in->src[0] = other;
        memset(&in->src[1], 0, 2 * sizeof in->src[1]);
        if (mad)
            in->src[1] = addend;
        changed = true;
    }
    free(demanded);
    return changed;
}
