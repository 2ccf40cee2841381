/*
 * Dead-code elimination on virtual registers: an instruction whose
 * destination register nobody reads goes (dead variables, a merged
 * return's flag, copies that pass_copyprop left unread), and with it the
 * reads it made, until nothing more dies.  Flow control and instructions
 * with side effects (stores, atomics, barriers) stay.  Per register, not
 * per component: spirv_width.c cuts the components nobody reads.
 */
#include <stdlib.h>

#include "glsl/passes.h"

bool pass_dce(struct spv *s)
{
    unsigned *uses = calloc(s->nvregs + 1, sizeof *uses);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool changed = false;
    if (!uses || !dead)
        goto out;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        for (int k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP)
                uses[in->src[k].index]++;
    }
    for (bool again = true; again;) {
        again = false;
        for (unsigned i = 0; i < s->ninsts; i++) {
            const struct us_inst *in = &s->insts[i];
            if (dead[i] || in->dst.file != US_FILE_TEMP ||
                uses[in->dst.index] || pass_is_flow(in->op) ||
                has_side_effect(in->op))
                continue;
            dead[i] = again = true;
            for (int k = 0; k < us_ops[in->op].nsrc; k++)
                if (in->src[k].file == US_FILE_TEMP)
                    uses[in->src[k].index]--;
        }
    }
    changed = pass_compact(s, dead);
out:
    free(uses);
    free(dead);
    return changed;
}
