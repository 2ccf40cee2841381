/*
 * Dead stores, on virtual registers: an instruction whose written
 * components are all overwritten before anything reads them, or never
 * read again, goes -- found per component, backwards, within straight-line
 * code.  pass_dce removes what writes a register nobody reads at all; a
 * register assigned more than once (a GLSL variable, a phi register) keeps
 * every assignment there, though its last one may be read by nobody once
 * pass_localprop has given its readers the copied value.
 *
 * Components are live at the end of the program only in outputs (not
 * TEMPs); at every flow instruction and branch target every component is
 * taken as live (a loop's next iteration, the other arm of an IF), so
 * only what straight-line code provably overwrites or leaves unread goes.
 * (An instruction's written components are micro_written_mask's: XPD
 * leaves .w as it was.)  Exact: the instruction's results are never read.  Side effects (memory
 * writes, atomics, barriers), flow and KIL stay.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"
#include "isa/micro.h"

/* Components of vreg x->index operand k of `in` reads. */
static unsigned reads(const struct us_inst *in, unsigned k)
{
    const struct us_src *x = &in->src[k];
    unsigned pos = us_ops[in->op].unit == US_UNIT_TEX
                   ? 0xf : src_positions(in, k, in->dst.mask);
    unsigned m = 0;
    for (unsigned p = 0; p < 4; p++)
        if ((pos >> p & 1) && x->swz[p] < 4)
            m |= 1u << x->swz[p];
    return m;
}

bool pass_deadstore(struct spv *s)
{
    uint8_t *live = malloc(s->nvregs + 1);
    bool *target = calloc(s->ninsts + 1, sizeof *target);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool changed = false;
    if (!live || !target || !dead)
        goto out;
    pass_branch_targets(s, target);
    memset(live, 0, s->nvregs + 1);
    for (unsigned i = s->ninsts; i-- > 0;) {
        const struct us_inst *in = &s->insts[i];
        if (pass_is_flow(in->op) || target[i + 1]) {
            memset(live, 0xf, s->nvregs + 1);
            if (pass_is_flow(in->op))
                goto operands;
        }
        if (pass_writes_temp(in) && in->dst.index < s->nvregs &&
            !has_side_effect(in->op)) {
            unsigned v = in->dst.index;
            unsigned w = micro_written_mask((enum us_opcode)in->op,
                                            in->dst.mask);
            if (!(live[v] & w)) {
                dead[i] = true;
                continue;
            }
            live[v] &= (uint8_t)~w;
        }
    operands:
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
            const struct us_src *x = &in->src[k];
            if (x->file != US_FILE_TEMP)
                continue;
            if (x->rel) {   /* any element of the array */
                memset(live, 0xf, s->nvregs + 1);
                continue;
            }
            if (x->index < s->nvregs)
                live[x->index] |= (uint8_t)reads(in, k);
        }
        if (target[i])
            memset(live, 0xf, s->nvregs + 1);
    }
    changed = pass_compact(s, dead);
out:
    free(live);
    free(target);
    free(dead);
    return changed;
}
