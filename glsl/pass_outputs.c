/*
 * Outputs written in place, on virtual registers: when an output is a
 * plain MOV of an SSA register read nowhere else, and that register's
 * definitions are the instructions right before the MOV, they write the
 * output's components themselves and the MOV goes.
 */
#include <stdlib.h>

#include "glsl/passes.h"

bool pass_outputs(struct spv *s)
{
    unsigned *uses = calloc(s->nvregs + 1, sizeof *uses);
    unsigned *defs = calloc(s->nvregs + 1, sizeof *defs);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool *target = calloc(s->ninsts + 1, sizeof *target);
    bool changed = false;
    if (!uses || !defs || !dead || !target)
        goto out;
    pass_branch_targets(s, target);
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (in->dst.file == US_FILE_TEMP)
            defs[in->dst.index]++;
        for (int k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP)
                uses[in->src[k].index]++;
    }
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        const struct us_src *x = &in->src[0];
        if (dead[i] || (in->op != US_OP_MOV && in->op != US_OP_MOV_U) ||
            in->sat ||
            in->dst.file != US_FILE_OUTPUT || x->file != US_FILE_TEMP ||
            !pass_identity(x, in->dst.mask) || !s->vreg_ssa[x->index] ||
            uses[x->index] != 1 || defs[x->index] > 4)
            continue;
        /* The value's defs must be the instructions right before. */
        unsigned want = defs[x->index], got = 0, j = i, covered = 0;
        while (got < want && j-- > 0) {
            if (dead[j])
                continue;
            const struct us_inst *d = &s->insts[j];
            if (d->dst.file != US_FILE_TEMP || d->dst.index != x->index ||
                pass_is_flow(d->op) || target[j + 1])
                break;
            covered |= d->dst.mask;
            got++;
        }
        if (got != want || (covered & in->dst.mask) != in->dst.mask)
            continue;
        for (unsigned k = j; k < i; k++) {
            struct us_inst *d = &s->insts[k];
            if (dead[k])
                continue;
            d->dst.mask &= in->dst.mask;
            d->dst.file = in->dst.file;
            d->dst.index = in->dst.index;
            if (!d->dst.mask)
                dead[k] = true;
        }
        dead[i] = true;
    }
    changed = pass_compact(s, dead);
out:
    free(uses);
    free(defs);
    free(dead);
    free(target);
    return changed;
}
