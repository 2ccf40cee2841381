/*
 * reconv=sync: the FPGA fork's explicit reconvergence (seed 002;
 * 123-code/gpu_design src/scheduler.sv).  When a branch parts the running
 * lanes, the taken ones run on and the others are pushed; a SYNC pops
 * them (the taken path's SYNC, which the fork's front end pairs with a
 * jump to the join, seeds/fpga.c), and a SYNC on an empty stack restores
 * the lanes that ran when the outermost divergence happened.  The stack
 * is reconv_depth deep (the fork's SDEPTH is 4).
 *
 * Two things the fork does cannot happen to a thread running on its own,
 * so they end the run with an error instead of computing something else:
 * a RET while lanes are pushed (the fork's RET ends the whole warp and
 * would drop them), and a divergence with the stack full.  A nested
 * divergence does not reconverge on the fork (seed 002: commit ee31d49);
 * here lanes that a SYNC leaves at different pcs issue lowest pc first,
 * counted in reconv.serialised.
 */
#include <stdio.h>

#include "shader/reconv.h"

static void start(struct us_reconv *r, const struct us_simt_warp *w)
{
    r->depth = 0;
    r->active = r->base = w->live;
}

static uint32_t pick(struct us_reconv *r, const struct us_simt_warp *w,
                     const struct us_reconv_code *code, unsigned *pc)
{
    (void)code;
    uint32_t m = r->active & w->live;
    return us_reconv_lowest(w, m ? m : w->live, pc);
}

static bool issued(struct us_reconv *r, struct us_simt_warp *w,
                   const struct us_reconv_code *code, uint32_t lanes,
                   unsigned pc, struct us_reconv_stats *st,
                   struct us_diag *diag)
{
    uint32_t left = lanes & w->live;
    if (code->sync[pc]) {
        uint32_t was = r->active & w->live;
        if (r->depth) {
            r->active = r->stack[--r->depth].mask;
        } else {
            r->active = r->base & w->live;
            st->reconverged += (r->active & ~was) != 0;
        }
        st->serialised += us_reconv_parted(w, r->active & w->live);
        return true;
    }
    uint32_t pending = 0;
    for (unsigned k = 0; k < r->depth; k++)
        pending |= r->stack[k].mask & w->live;
    if ((lanes & ~w->live) && pending) {
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "simt: reconv=sync: lanes "
                 "finished at instruction %u while %d others wait on the "
                 "SYNC stack; the FPGA fork's RET ends the whole warp and "
                 "would drop them", pc, __builtin_popcount(pending));
        return false;
    }
    if (!us_reconv_parted(w, left))
        return true;
    st->divergent++;
    uint32_t stay = 0;
    for (uint32_t m = left; m; m &= m - 1)
        if (w->pc[__builtin_ctz(m)] == code->next[pc])
            stay |= m & -m;
    if (r->depth == code->depth)
        return us_reconv_overflow(code, pc, diag);
    if (!r->depth)
        r->base = left;
    us_reconv_push(r, stay, code->next[pc], st);
    r->active = left & ~stay;
    return true;
}

const struct us_reconv_part us_reconv_sync = {
    .name = "sync", .start = start, .pick = pick, .issued = issued,
};
