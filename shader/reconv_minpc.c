/*
 * reconv=minpc: every lane has its own pc and the warp issues the lanes
 * at the lowest one (kGPU, seed 003: RTL/core/warp.sv).  No stack: lanes
 * that parted meet again when the ones behind catch up, which a lane
 * looping ahead makes the others wait for.
 */
#include "shader/reconv.h"

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
    uint32_t left = lanes & w->live;
    if (us_reconv_parted(w, left)) {
        st->divergent++;
        return true;
    }
    if (!left)
        return true;
    /* Caught up: lanes that were not issued already wait at this pc. */
    unsigned at = w->pc[__builtin_ctz(left)];
    for (uint32_t m = w->live & ~lanes; m; m &= m - 1)
        if (w->pc[__builtin_ctz(m)] == at) {
            st->reconverged++;
            break;
        }
    return true;
}

const struct us_reconv_part us_reconv_minpc = {
    .name = "minpc", .start = start, .pick = pick, .issued = issued,
};
