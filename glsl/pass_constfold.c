/*
 * Constant folding, on virtual registers, where it is exact: a product
 * with the constant 1 is its other factor (MUL a, 1 -> MOV a; MAD a, 1, c
 * -> ADD a, c).  a * 1 is a for every binary32 a (a NaN stays a NaN, which
 * every register write makes the default NaN), so each component keeps its
 * bits; pass_copyprop then removes the MOV.  Nothing that rounds is
 * evaluated here: the models' SFUs differ (RCP of a constant stays), and
 * no operation is reassociated.
 */
#include <string.h>

#include "glsl/passes.h"

/* Operand x is the translation's constant 1.0 wherever it is read. */
static bool is_one(const struct spv *s, const struct us_inst *in, unsigned k)
{
    const struct us_src *x = &in->src[k];
    if (x->file != US_FILE_PARAM || x->rel || x->negate ||
        x->index < CONST_BASE ||
        (unsigned)(x->index - CONST_BASE) >= s->nconsts)
        return false;
    const float *v = s->consts[x->index - CONST_BASE].v;
    const float one = 1.0f;
    unsigned pos = src_positions(in, k, in->dst.mask);
    for (unsigned p = 0; p < 4; p++)
        if ((pos >> p & 1) &&
            (x->swz[p] >= 4 || memcmp(&v[x->swz[p]], &one, sizeof one)))
            return false;
    return true;
}

bool pass_constfold(struct spv *s)
{
    bool changed = false;
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        if (in->op != US_OP_MUL && in->op != US_OP_MAD)
            continue;
        int k = is_one(s, in, 1) ? 1 : is_one(s, in, 0) ? 0 : -1;
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
    return changed;
}
