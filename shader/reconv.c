/*
 * The reconvergence policies' table and the helpers they share
 * (shader/reconv.h).
 */
#include <stdio.h>

#include "shader/reconv.h"

static const struct us_reconv_part *const parts[] = {
    &us_reconv_pdom, &us_reconv_minpc, &us_reconv_sync, &us_reconv_none,
};

const struct us_reconv_part *us_reconv_part(int choice)
{
    return parts[choice];   /* the knob's choices, in this order */
}

uint32_t us_reconv_lowest(const struct us_simt_warp *w, uint32_t mask,
                          unsigned *pc)
{
    uint32_t at = 0;
    unsigned low = UINT32_MAX;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        if (w->pc[i] < low) {
            low = w->pc[i];
            at = 0;
        }
        if (w->pc[i] == low)
            at |= 1u << i;
    }
    *pc = low;
    return at;
}

bool us_reconv_parted(const struct us_simt_warp *w, uint32_t mask)
{
    unsigned pc;
    return us_reconv_lowest(w, mask, &pc) != mask;
}

void us_reconv_push(struct us_reconv *r, uint32_t mask, uint32_t rpc,
                    struct us_reconv_stats *st)
{
    r->stack[r->depth].mask = mask;
    r->stack[r->depth].rpc = rpc;
    r->depth++;
    if (r->depth > st->stack_max)
        st->stack_max = r->depth;
}

bool us_reconv_overflow(const struct us_reconv_code *code, unsigned pc,
                        struct us_diag *diag)
{
    diag->line = 0;
    diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "simt: a warp diverged at "
             "instruction %u with its reconvergence stack full (%u entries, "
             "knob reconv_depth)", pc, code->depth);
    return false;
}
