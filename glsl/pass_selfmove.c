/*
 * Self-moves, on TEMPs after allocation: a MOV of components onto
 * themselves does nothing, and neither does MOV Ra, Rb when MOV Rb, Ra
 * came before it in the same straight-line code with neither register
 * written since (phi copies of a loop's continue block and header often
 * pair up so; regalloc.c's coalescing makes many copies of the first
 * kind).
 */
#include <stdlib.h>

#include "glsl/passes.h"

/* A copy between temps: MOV Rd.mask, Rs.swz (or MOV.U). */
static bool reg_copy(const struct us_inst *in)
{
    return (in->op == US_OP_MOV || in->op == US_OP_MOV_U) && !in->sat &&
           in->dst.file == US_FILE_TEMP &&
           in->src[0].file == US_FILE_TEMP && !in->src[0].negate &&
           !in->src[0].rel;
}

/* Whether copy `in` (Ra.c = Rb.d for each written c) undoes copy `p`
 * (Rb.d = Ra.c). */
static bool undoes(const struct us_inst *in, const struct us_inst *p)
{
    if (p->dst.index != in->src[0].index || p->src[0].index != in->dst.index)
        return false;
    for (unsigned c = 0; c < 4; c++) {
        if (!(in->dst.mask >> c & 1))
            continue;
        unsigned d = in->src[0].swz[c];
        if (d >= 4 || !(p->dst.mask >> d & 1) || p->src[0].swz[d] != c)
            return false;
    }
    return true;
}

bool pass_selfmove(struct spv *s)
{
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool *target = calloc(s->ninsts + 1, sizeof *target);
    bool changed = false;
    if (!dead || !target)
        goto out;
    pass_branch_targets(s, target);
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (reg_copy(in) && in->src[0].index == in->dst.index &&
            pass_identity(&in->src[0], in->dst.mask)) {
            dead[i] = true;
            continue;
        }
        if (!reg_copy(in) || target[i])
            continue;
        unsigned a = in->dst.index, b = in->src[0].index;
        for (unsigned j = i; j-- > 0;) {
            const struct us_inst *p = &s->insts[j];
            if (dead[j])
                continue;
            if (reg_copy(p) && undoes(in, p)) {
                dead[i] = true;
                break;
            }
            if (pass_is_flow(p->op) || target[j] ||
                (p->dst.file == US_FILE_TEMP &&
                 (p->dst.index == a || p->dst.index == b)))
                break;
        }
    }
    changed = pass_compact(s, dead);
out:
    free(dead);
    free(target);
    return changed;
}
