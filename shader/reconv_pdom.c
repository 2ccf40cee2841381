/*
 * reconv=pdom: the immediate post-dominator stack (Fung et al., MICRO
 * 2007; NVIDIA Fermi; Vortex's split/join, e-GPU seed 000; DICE's
 * per-CTA stack, seed 004).
 *
 * The warp runs the top entry's lanes (below every entry: all live
 * lanes).  When an issue parts them, the lanes meet again at the
 * immediate post-dominator r of the instruction: each part not yet at r
 * is pushed {its lanes, r}, the part at the lowest pc last, so it runs
 * first; a part already at r waits in the entry below.  An
 * entry pops when its lanes reach its r, or have all finished.  A part
 * with no lane is never pushed, so a path no lane takes costs nothing.
 * A divergence whose r is the top entry's own (a loop of branches, an
 * else-if chain) narrows that entry instead of pushing, so such code
 * stays one entry deep.
 */
#include "shader/reconv.h"

static void start(struct us_reconv *r, const struct us_simt_warp *w)
{
    (void)w;
    r->depth = 0;
}

/* Pop the entries whose lanes have all finished or arrived. */
static void settle(struct us_reconv *r, const struct us_simt_warp *w,
                   struct us_reconv_stats *st)
{
    while (r->depth) {
        uint32_t m = r->stack[r->depth - 1].mask & w->live;
        unsigned pc;
        if (m && (us_reconv_lowest(w, m, &pc) != m ||
                  pc != r->stack[r->depth - 1].rpc))
            return;
        r->depth--;
        st->reconverged += m != 0;
    }
}

static uint32_t pick(struct us_reconv *r, const struct us_simt_warp *w,
                     const struct us_reconv_code *code, unsigned *pc)
{
    (void)code;
    uint32_t m = r->depth ? r->stack[r->depth - 1].mask & w->live : w->live;
    return us_reconv_lowest(w, m, pc);
}

static bool issued(struct us_reconv *r, struct us_simt_warp *w,
                   const struct us_reconv_code *code, uint32_t lanes,
                   unsigned pc, struct us_reconv_stats *st,
                   struct us_diag *diag)
{
    uint32_t left = lanes & w->live;
    if (us_reconv_parted(w, left)) {
        st->divergent++;
        uint32_t rpc = code->ipdom[pc];
        /* The parts not at rpc, by pc. */
        uint32_t parts[US_FLOW_MAX_LANES];
        unsigned nparts = 0;
        for (uint32_t m = left; m;) {
            unsigned at;
            uint32_t part = us_reconv_lowest(w, m, &at);
            m &= ~part;
            if (at != rpc)
                parts[nparts++] = part;
        }
        for (unsigned k = nparts; k-- > 0;) {
            bool narrow = k == nparts - 1 && r->depth &&
                          r->stack[r->depth - 1].rpc == rpc;
            if (narrow) {
                r->stack[r->depth - 1].mask = parts[k];
                continue;
            }
            if (r->depth == code->depth)
                return us_reconv_overflow(code, pc, diag);
            us_reconv_push(r, parts[k], rpc, st);
        }
    }
    settle(r, w, st);
    return true;
}

const struct us_reconv_part us_reconv_pdom = {
    .name = "pdom", .start = start, .pick = pick, .issued = issued,
};
