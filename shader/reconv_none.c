/*
 * reconv=none: one pc for the warp, the last lane's (upstream tiny-gpu:
 * src/core.sv takes next_pc[THREADS_PER_BLOCK-1]; SIMT-NOTES 1.2).  After
 * every issue every lane of the warp goes where its last live lane goes:
 * lanes whose branch went the other way follow it, as on the hardware
 * (counted in divergent_branches), and when that lane finishes, the warp
 * does.  A lane's sequencer is only a pc when the code branches with BRA
 * alone, so the policy refuses structured flow control.
 */
#include <stdio.h>

#include "shader/reconv.h"

static bool check(const struct us_program *prog, struct us_diag *diag)
{
    for (unsigned pc = 0; pc < prog->ninsts; pc++) {
        enum us_flow_kind k = us_op_flow_kind(prog->insts[pc].op);
        if (k != US_FLOW_NONE && k != US_FLOW_BRA && k != US_FLOW_SYNC) {
            diag->line = prog->insts[pc].line;
            diag->col = 1;
            snprintf(diag->msg, sizeof diag->msg, "simt: reconv=none (one "
                     "pc per warp, upstream tiny-gpu) runs code that "
                     "branches with BRA only, not %s",
                     us_ops[prog->insts[pc].op].name);
            return false;
        }
    }
    return true;
}

static void start(struct us_reconv *r, const struct us_simt_warp *w)
{
    (void)w;
    r->depth = 0;
}

static uint32_t pick(struct us_reconv *r, const struct us_simt_warp *w,
                     const struct us_reconv_code *code, unsigned *pc)
{
    (void)r;
    (void)code;
    return us_reconv_lowest(w, w->live, pc);
}

static bool issued(struct us_reconv *r, struct us_simt_warp *w,
                   const struct us_reconv_code *code, uint32_t lanes,
                   unsigned pc, struct us_reconv_stats *st,
                   struct us_diag *diag)
{
    (void)r;
    (void)code;
    (void)pc;
    (void)diag;
    if (!lanes)
        return true;
    unsigned last = 31 - (unsigned)__builtin_clz(lanes);
    if (!((w->live >> last) & 1)) {   /* it finished: so does the warp */
        st->divergent += (lanes & w->live) != 0;
        w->live &= ~lanes;
        return true;
    }
    bool parted = false;
    for (uint32_t m = lanes & w->live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        parted |= w->pc[i] != w->pc[last];
        w->pc[i] = w->pc[last];
    }
    st->divergent += parted;
    return true;
}

const struct us_reconv_part us_reconv_none = {
    .name = "none", .check = check, .start = start, .pick = pick,
    .issued = issued,
};
