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

bool pass_constfold(struct spv *s)
{
    bool changed = false;
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
