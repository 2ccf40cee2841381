/*
 * Structured control flow (SPIR-V 1.x specification, 2.11 "Structured
 * Control Flow") rebuilt as IF/ELSE/ENDIF and BGNLOOP/ENDLOOP with BRK
 * and CONT, walking the constructs from their headers:
 *
 *   selection header   IF c; <true arm>; ELSE; <false arm>; ENDIF; merge
 *   switch             BGNLOOP; nested IF (sel == case) ... ELSE
 *                      <default> ENDIFs; BRK; ENDLOOP: a loop run once, so
 *                      a `break` (or an inlined function's `return`) from
 *                      inside nested constructs is a BRK
 *   loop header        BGNLOOP; <header, body>; ENDLOOP; merge
 *   branch to the loop merge        BRK
 *   branch to the continue target   the continue construct's code, then
 *                                   CONT (our CONT jumps to ENDLOOP, so
 *                                   the construct runs first; a CONT just
 *                                   before ENDLOOP is dropped)
 *
 * OpPhi results are registers written on every incoming edge, as a
 * parallel copy (MOV, MOV.U for integer words): when one phi's source is
 * another phi of the same block (a loop swapping values) the sources go
 * through fresh registers first.  A condition is a boolean's integer form
 * when it has one (spirv_ops.c).
 *
 * An OpenCL kernel's SPIR-V is unstructured (its rare OpLoopMerge is
 * llvm-spirv's reading of loop metadata, no structure): its blocks go
 * out in reverse postorder with BRAs instead (unstructured(),
 * docs/OPENCL.md).
 */
#include <string.h>

#include <stdlib.h>

#include "glsl/spirv.h"

#define NONE ((struct us_src){ 0 })

enum { MAX_DEPTH = 64 };

struct walker {
    struct spv *s;
    unsigned visits, max_visits;
};

static bool flow(struct spv *s, enum us_opcode op, struct us_src c)
{
    return emit(s, op, (struct us_dst){ 0 }, c, NONE, NONE);
}

/* Registers of a phi result, made on first use. */
static bool phi_regs(struct spv *s, uint32_t id, struct us_src **v,
                     uint32_t *n)
{
    struct sid *x = &s->ids[id];
    if (!x->has_val) {
        uint32_t k = s->ids[x->type].slots, at;
        if (k == 0 || k > 64 || !alloc_vals(s, k, &at))
            return spv_fail(s, "SPIR-V: bad OpPhi type");
        for (uint32_t i = 0; i < k; i++) {
            unsigned r;
            if (!new_vreg(s, false, &r))
                return false;
            s->vals[at + i] = src_vreg(r);
        }
        x->has_val = true;
        x->val = at;
    }
    *v = &s->vals[x->val];
    *n = s->ids[x->type].slots;
    return true;
}

/* The copies of the edge from -> to into the phis of `to`. */
static bool phi_copies(struct spv *s, uint32_t from, uint32_t to)
{
    struct block *b = spv_block(s, to);
    if (!b)
        return spv_fail(s, "SPIR-V: branch to unknown block %u", to);
    enum { MAXC = 256 };
    struct us_src src[MAXC];
    unsigned dst[MAXC], masks[MAXC], n = 0;
    uint8_t ops[MAXC];   /* MOV, or MOV.U for integer words */
    for (uint32_t at = b->first; at < b->term; at += spv_wc(s, at)) {
        if (spv_op(s, at) != SpvOpPhi)
            continue;
        uint32_t id = s->w[at + 2], wc = spv_wc(s, at);
        for (uint32_t k = 3; k + 1 < wc; k += 2) {
            if (s->w[at + k + 1] != from)
                continue;
            struct us_src *pv, *sv;
            uint32_t pn, sn, sid;
            if (!phi_regs(s, id, &pv, &pn) || !spv_id(s, at, k, &sid))
                return false;
            struct sid *si = &s->ids[sid];
            if (si->op == SpvOpPhi && !si->has_val &&
                !phi_regs(s, sid, &sv, &sn))
                return false;
            if (!value_of(s, sid, &sv, &sn) || !phi_regs(s, id, &pv, &pn))
                return false;
            for (uint32_t i = 0; i < pn && i < sn; i++) {
                if (n == MAXC)
                    return spv_fail(s, "too many phi values");
                src[n] = sv[i];
                dst[n] = pv[i].index;
                ops[n] = slot_int(s, s->ids[id].type, i) ? US_OP_MOV_U
                                                         : US_OP_MOV;
                masks[n++] = 0xf;
            }
            break;
        }
    }
    /* Sequentialize the parallel copy: a copy goes once no other pending
     * copy reads its destination; a cycle (a swap) is broken by saving one
     * destination in a fresh register. */
    bool done[MAXC] = { false };
    for (unsigned left = n; left;) {
        bool progress = false;
        for (unsigned i = 0; i < n; i++) {
            if (done[i])
                continue;
            bool read = false;
            for (unsigned j = 0; j < n && !read; j++)
                read = j != i && !done[j] && src[j].file == US_FILE_TEMP &&
                       src[j].index == dst[i];
            if (read)
                continue;
            if (!emit(s, (enum us_opcode)ops[i], dst_vreg(dst[i], masks[i]),
                      src[i], NONE, NONE))
                return false;
            done[i] = progress = true;
            left--;
        }
        if (progress)
            continue;
        for (unsigned i = 0; i < n; i++) {
            if (done[i])
                continue;
            struct us_src saved;
            if (!emit_new(s, (enum us_opcode)ops[i], src_vreg(dst[i]), NONE,
                          NONE, &saved))
                return false;
            for (unsigned j = 0; j < n; j++)
                if (!done[j] && src[j].file == US_FILE_TEMP &&
                    src[j].index == dst[i])
                    src[j].index = saved.index;
            break;
        }
    }
    return true;
}

static bool region(struct walker *w, uint32_t label,
                   const struct flowctx *ctx);

/* Where control goes at `to` from inside ctx: exits emit their
 * instruction and give 0; a sequential successor is returned. */
static bool go(struct walker *w, uint32_t to, const struct flowctx *ctx,
               uint32_t *next)
{
    struct spv *s = w->s;
    *next = 0;
    if (to == ctx->sel_merge)
        return true;   /* after the ENDIF, the enclosing context goes on */
    if (ctx->loop_header && to == ctx->loop_header)
        return flow(s, US_OP_CONT, NONE);
    if (ctx->loop_header && to == ctx->loop_merge)
        return flow(s, US_OP_BRK, NONE);
    if (ctx->loop_header && to == ctx->loop_cont && !ctx->in_continue) {
        /* The continue construct belongs to the loop, not to the
         * selections this edge leaves. */
        const struct flowctx *l = ctx;
        while (l->parent && l->parent->loop_header == ctx->loop_header)
            l = l->parent;
        struct flowctx c = *l;
        c.in_continue = true;
        c.sel_merge = 0;
        c.parent = l;
        return region(w, to, &c);
    }
    /* Leaving a construct other than the innermost needs more than one
     * instruction (a flag): not supported. */
    for (const struct flowctx *p = ctx->parent; p; p = p->parent)
        if (to == p->sel_merge || (p->loop_header &&
            (to == p->loop_header || to == p->loop_merge ||
             to == p->loop_cont)))
            return spv_fail(s, "unsupported control flow: a branch out of "
                            "several constructs at once (block %u)", to);
    *next = to;
    return true;
}

static bool edge(struct walker *w, uint32_t from, uint32_t to,
                 const struct flowctx *ctx, uint32_t *next)
{
    return phi_copies(w->s, from, to) && go(w, to, ctx, next);
}

/* An arm of a construct: the edge, then the blocks it leads to. */
static bool arm(struct walker *w, uint32_t from, uint32_t to,
                const struct flowctx *ctx)
{
    uint32_t next;
    return edge(w, from, to, ctx, &next) && (!next || region(w, next, ctx));
}

static bool is_exit(uint32_t to, const struct flowctx *ctx)
{
    return ctx->loop_header && (to == ctx->loop_header ||
                                to == ctx->loop_merge ||
                                to == ctx->loop_cont);
}

/* A condition: a boolean's integer form when it has one (IF takes any
 * nonzero word, and the comparison computing it can be inverted). */
static bool cond_of(struct spv *s, uint32_t at, unsigned k, struct us_src *c)
{
    uint32_t id, n;
    struct us_src *v;
    if (!spv_id(s, at, k, &id))
        return false;
    if (bool_raw(s, id, c)) {
        *c = src_comp(*c, 0);
        return true;
    }
    if (!value_of(s, id, &v, &n))
        return false;
    *c = src_comp(v[0], 0);
    return true;
}

/* The negation of condition c when the instruction just emitted computed
 * it with a comparison: the opposite comparison (NaN aside, as for every
 * comparison here), so `IF !c; exit; ENDIF` needs no ELSE. */
static bool negated(struct spv *s, struct us_src c, struct us_src *out)
{
    static const uint8_t opposite[][2] = {
        { US_OP_SLT, US_OP_SGE }, { US_OP_SGE, US_OP_SLT },
        { US_OP_SGT, US_OP_SLE }, { US_OP_SLE, US_OP_SGT },
        { US_OP_SEQ, US_OP_SNE }, { US_OP_SNE, US_OP_SEQ },
        { US_OP_SLT_S, US_OP_SGE_S }, { US_OP_SGE_S, US_OP_SLT_S },
        { US_OP_SGT_S, US_OP_SLE_S }, { US_OP_SLE_S, US_OP_SGT_S },
        { US_OP_SLT_U, US_OP_SGE_U }, { US_OP_SGE_U, US_OP_SLT_U },
        { US_OP_SGT_U, US_OP_SLE_U }, { US_OP_SLE_U, US_OP_SGT_U },
        { US_OP_SEQ_U, US_OP_SNE_U }, { US_OP_SNE_U, US_OP_SEQ_U },
    };
    if (!s->ninsts || c.file != US_FILE_TEMP || c.negate)
        return false;
    const struct us_inst *d = &s->insts[s->ninsts - 1];
    /* An integer comparison is followed by its float boolean (an AND.U
     * into another register, which reads no operand of the comparison
     * but the result). */
    if (s->ninsts >= 2 && d->op == US_OP_AND_U &&
        d->dst.file == US_FILE_TEMP && d->dst.index != c.index &&
        s->vreg_ssa[d->dst.index] &&
        d->src[0].file == US_FILE_TEMP && d->src[0].index == c.index)
        d--;
    if (d->dst.file != US_FILE_TEMP || d->dst.index != c.index || d->sat ||
        !(d->dst.mask & (1u << c.swz[0])))
        return false;
    for (size_t i = 0; i < sizeof opposite / sizeof opposite[0]; i++)
        if (d->op == opposite[i][0]) {
            struct us_src a = d->src[0], b = d->src[1];
            return emit_new(s, (enum us_opcode)opposite[i][1], a, b, NONE,
                            out) &&
                   (*out = src_comp(*out, c.swz[0]), true);
        }
    return false;
}

/* IF c; then-arm; ELSE; else-arm; ENDIF (an empty ELSE dropped; an empty
 * then-arm turns into IF !c when the condition is a comparison). */
static bool if_else(struct walker *w, struct us_src c, uint32_t from,
                    uint32_t t, uint32_t f, const struct flowctx *ctx)
{
    struct spv *s = w->s;
    unsigned if_at = s->ninsts;
    if (!flow(s, US_OP_IF, c) || (t && !arm(w, from, t, ctx)))
        return false;
    if (s->ninsts == if_at + 1 && f) {
        struct us_src nc;
        s->ninsts = if_at;
        if (negated(s, c, &nc))
            return flow(s, US_OP_IF, nc) && arm(w, from, f, ctx) &&
                   flow(s, US_OP_ENDIF, NONE);
        if (s->diag->msg[0] || !flow(s, US_OP_IF, c))
            return false;
    }
    unsigned else_at = s->ninsts;
    if (!flow(s, US_OP_ELSE, NONE) || (f && !arm(w, from, f, ctx)))
        return false;
    if (s->ninsts == else_at + 1)
        s->ninsts--;
    return flow(s, US_OP_ENDIF, NONE);
}

static bool switch_cases(struct walker *w, struct block *b,
                         const struct flowctx *ctx, unsigned first)
{
    struct spv *s = w->s;
    uint32_t at = b->term, wc = spv_wc(s, at);
    uint32_t def = s->w[at + 2];
    /* Case targets in order; each case's literals OR'ed. */
    for (uint32_t k = first; k + 1 < wc; k += 2) {
        uint32_t target = s->w[at + k + 1];
        bool seen = false;
        for (uint32_t j = 3; j < k; j += 2)
            seen |= s->w[at + j + 1] == target;
        if (seen || target == def)
            continue;
        struct us_src sel, cond = NONE;
        if (!cond_of(s, at, 1, &sel))
            return false;
        /* a 32-bit-word selector compares words (SEQ.U, OR.U: all ones
         * for a match), a float one floats */
        bool ints = int_data(s, s->ids[s->w[at + 1]].type);
        for (uint32_t j = k; j + 1 < wc; j += 2) {
            if (s->w[at + j + 1] != target)
                continue;
            struct us_src lit, eq;
            if (!(ints ? const_int(s, s->w[at + j], &lit)
                       : const_scalar(s, (float)(int32_t)s->w[at + j],
                                      &lit)) ||
                !emit_new(s, ints ? US_OP_SEQ_U : US_OP_SEQ, sel, lit, NONE,
                          &eq) ||
                (cond.file && !emit_new(s, ints ? US_OP_OR_U : US_OP_MAX,
                                        cond, eq, NONE, &eq)))
                return false;
            cond = eq;
        }
        if (!flow(s, US_OP_IF, src_comp(cond, 0)) ||
            !arm(w, b->label, target, ctx) || !flow(s, US_OP_ELSE, NONE) ||
            !switch_cases(w, b, ctx, k + 2) || !flow(s, US_OP_ENDIF, NONE))
            return false;
        return true;
    }
    return arm(w, b->label, def, ctx);
}

/* A block's instructions and terminator; *next: the sequential
 * successor or 0. */
static bool block(struct walker *w, struct block *b,
                  const struct flowctx *ctx, uint32_t *next)
{
    struct spv *s = w->s;
    *next = 0;
    if (++w->visits > w->max_visits)
        return spv_fail(s, "unstructured control flow");
    s->line = b->line;
    for (uint32_t at = b->first; at < b->term; at += spv_wc(s, at))
        if (!translate_inst(s, at))
            return false;
    uint32_t at = b->term;
    unsigned op = spv_op(s, at), wc = spv_wc(s, at);
    struct flowctx inner = *ctx;
    inner.depth++;
    inner.parent = ctx;
    if (inner.depth > MAX_DEPTH)
        return spv_fail(s, "control flow nested too deeply");
    switch (op) {
    case SpvOpBranch:
        if (wc < 2)
            return spv_fail(s, "SPIR-V: bad OpBranch");
        return edge(w, b->label, s->w[at + 1], ctx, next);
    case SpvOpBranchConditional: {
        struct us_src c;
        if (wc < 4 || !cond_of(s, at, 1, &c))
            return spv_fail(s, "SPIR-V: bad OpBranchConditional");
        uint32_t t = s->w[at + 2], f = s->w[at + 3];
        if (b->merge && !b->loop) {
            inner.sel_merge = b->merge;
            return if_else(w, c, b->label, t, f, &inner) &&
                   go(w, b->merge, ctx, next);
        }
        if (t == f)
            return edge(w, b->label, t, ctx, next);
        if (is_exit(t, ctx)) {
            uint32_t n;
            if (!flow(s, US_OP_IF, c) || !edge(w, b->label, t, ctx, &n) ||
                !flow(s, US_OP_ENDIF, NONE))
                return false;
            return edge(w, b->label, f, ctx, next);
        }
        if (is_exit(f, ctx)) {
            uint32_t n;
            struct us_src nc;
            bool inverted = negated(s, c, &nc);
            if (s->diag->msg[0])
                return false;
            if (!flow(s, US_OP_IF, inverted ? nc : c) ||
                (!inverted && !flow(s, US_OP_ELSE, NONE)) ||
                !edge(w, b->label, f, ctx, &n) || !flow(s, US_OP_ENDIF, NONE))
                return false;
            return edge(w, b->label, t, ctx, next);
        }
        if (t == ctx->sel_merge || f == ctx->sel_merge)
            /* Leaving the enclosing selection early: the rest of it goes
             * in the other arm. */
            return if_else(w, c, b->label, t, f, ctx);
        return spv_fail(s, "unstructured conditional branch in block %u",
                        b->label);
    }
    case SpvOpSwitch:
        if (!b->merge || wc < 3)
            return spv_fail(s, "SPIR-V: OpSwitch without a merge");
        inner.sel_merge = b->merge;
        inner.loop_header = inner.loop_cont = NO_LABEL;
        inner.loop_merge = b->merge;
        inner.in_continue = false;
        return flow(s, US_OP_BGNLOOP, NONE) &&
               switch_cases(w, b, &inner, 3) && flow(s, US_OP_BRK, NONE) &&
               flow(s, US_OP_ENDLOOP, NONE) && go(w, b->merge, ctx, next);
    case SpvOpReturn: case SpvOpReturnValue:
        if (ctx->depth)
            return spv_fail(s, "return inside control flow (compile with "
                            "optimization: spirv-opt --merge-return)");
        return flush_outputs(s);
    case SpvOpKill: case SpvOpTerminateInvocation: {
        struct us_src one;
        if (s->stage != US_STAGE_FRAGMENT)
            return spv_fail(s, "discard outside a fragment shader");
        if (!const_scalar(s, 1, &one) ||
            !emit(s, US_OP_KIL, (struct us_dst){ 0 }, src_neg(one), NONE,
                  NONE))
            return false;
        /* KIL marks the thread and execution goes on: leave the loop so a
         * killed thread cannot spin in it. */
        return !ctx->loop_header || flow(s, US_OP_BRK, NONE);
    }
    case SpvOpUnreachable:
        return true;
    default:
        return spv_fail(s, "SPIR-V: bad terminator (opcode %u)", op);
    }
}

static bool loop(struct walker *w, struct block *b, const struct flowctx *ctx)
{
    struct spv *s = w->s;
    if (!spv_block(s, b->merge) || !spv_block(s, b->cont))
        return spv_fail(s, "SPIR-V: loop %u: bad merge or continue target",
                        b->label);
    struct flowctx c = { .loop_header = b->label, .loop_merge = b->merge,
                         .loop_cont = b->cont, .depth = ctx->depth + 1,
                         .parent = ctx };
    uint32_t next;
    if (!flow(s, US_OP_BGNLOOP, NONE) || !block(w, b, &c, &next) ||
        (next && !region(w, next, &c)))
        return false;
    if (s->ninsts && s->insts[s->ninsts - 1].op == US_OP_CONT)
        s->ninsts--;
    return flow(s, US_OP_ENDLOOP, NONE);
}

static bool region(struct walker *w, uint32_t label,
                   const struct flowctx *ctx)
{
    struct spv *s = w->s;
    while (label) {
        struct block *b = spv_block(s, label);
        if (!b)
            return spv_fail(s, "SPIR-V: branch to unknown block %u", label);
        if (b->loop && label != ctx->loop_header) {
            if (!loop(w, b, ctx) || !go(w, b->merge, ctx, &label))
                return false;
            continue;
        }
        if (!block(w, b, ctx, &label))
            return false;
    }
    return true;
}

/* The root variable a pointer reaches through access chains; *dynamic:
 * whether one of their indices is not a constant. */
static uint32_t root_of(const struct spv *s, uint32_t id, bool *dynamic)
{
    *dynamic = false;
    for (unsigned guard = 0; guard < 64 && id && id < s->bound; guard++) {
        const struct sid *x = &s->ids[id];
        if (x->op == SpvOpVariable)
            return id;
        if (x->op != SpvOpAccessChain && x->op != SpvOpInBoundsAccessChain)
            return 0;
        for (unsigned k = 4; k < spv_wc(s, x->def); k++) {
            uint32_t ix = s->w[x->def + k];
            if (ix >= s->bound || s->ids[ix].op != SpvOpConstant)
                *dynamic = true;
        }
        id = s->w[x->def + 3];
    }
    return 0;
}

/*
 * Unstructured control flow (OpenCL's Kernel SPIR-V): the blocks in
 * reverse postorder, each branch a BRA
 * (docs/COMPUTE.md "Branches"; lanes reconverge at its immediate post-
 * dominator, shader/flow_cfg.c).  A conditional branch is
 *
 *       BRA.EQ.U  false_edge, c, 0
 *       <phi copies of the true edge>   BRA true_block
 *   false_edge:
 *       <phi copies of the false edge>  BRA false_block
 *
 * and a return a BRA to the end.  Targets are block labels until every
 * block has its first instruction; then they become indices.
 */
struct fixup {
    unsigned inst;
    uint32_t label;        /* 0: the end */
    bool done;             /* a false edge's code: set already */
};

static bool bra(struct spv *s, struct fixup **fx, unsigned *nfx,
                enum us_cond cond, struct us_src c, uint32_t label)
{
    struct us_src zero = NONE, a = NONE;
    if (cond != US_COND_ALWAYS) {
        if (!const_int(s, 0, &zero))
            return false;
        zero = src_comp(zero, 0);
        a = c;
        if (a.negate && !emit_new(s, US_OP_MOV_U, c, NONE, NONE, &a))
            return false;
    }
    struct fixup *n = realloc(*fx, (*nfx + 1) * sizeof *n);
    if (!n)
        return spv_fail(s, "out of memory");
    *fx = n;
    n[*nfx] = (struct fixup){ .inst = s->ninsts, .label = label };
    ++*nfx;
    if (!emit(s, US_OP_BRA, (struct us_dst){ 0 }, a, zero, NONE))
        return false;
    s->insts[s->ninsts - 1].sub = (uint8_t)cond;
    return true;
}

/* OpSwitch sel default (literal label)...: per case
 * BRA.NE.U next, sel, literal; <phi copies>; BRA label; next: ...; then
 * the default's copies and BRA. */
static bool unstructured_switch(struct spv *s, const struct block *b,
                                struct fixup **fx, unsigned *nfx)
{
    uint32_t at = b->term, sel;
    unsigned wc = spv_wc(s, at);
    struct us_src *v;
    uint32_t n;
    if (wc < 3 || (wc - 3) % 2 || !spv_id(s, at, 1, &sel) ||
        !value_of(s, sel, &v, &n))
        return spv_fail(s, "SPIR-V: bad OpSwitch (a selector of 32 bits "
                        "or less is supported)");
    struct us_src c = src_comp(v[0], 0);
    for (unsigned k = 3; k + 1 < wc; k += 2) {
        struct us_src lit;
        if (!const_int(s, s->w[at + k], &lit))
            return false;
        lit = src_comp(lit, 0);
        unsigned ne = s->ninsts;   /* to the next case's test */
        if (!emit(s, US_OP_BRA, (struct us_dst){ 0 }, c, lit, NONE))
            return false;
        s->insts[ne].sub = US_COND_NE;
        if (!phi_copies(s, b->label, s->w[at + k + 1]) ||
            !bra(s, fx, nfx, US_COND_ALWAYS, NONE, s->w[at + k + 1]))
            return false;
        s->insts[ne].target = (uint16_t)s->ninsts;
    }
    return phi_copies(s, b->label, s->w[at + 2]) &&
           bra(s, fx, nfx, US_COND_ALWAYS, NONE, s->w[at + 2]);
}

static bool unstructured_block(struct spv *s, const struct block *b,
                               struct fixup **fx, unsigned *nfx)
{
    s->line = b->line;
    for (uint32_t at = b->first; at < b->term; at += spv_wc(s, at))
        if (!translate_inst(s, at))
            return false;
    uint32_t at = b->term;
    unsigned op = spv_op(s, at), wc = spv_wc(s, at);
    switch (op) {
    case SpvOpBranch:
        if (wc < 2)
            return spv_fail(s, "SPIR-V: bad OpBranch");
        return phi_copies(s, b->label, s->w[at + 1]) &&
               bra(s, fx, nfx, US_COND_ALWAYS, NONE, s->w[at + 1]);
    case SpvOpBranchConditional: {
        struct us_src c;
        if (wc < 4 || !cond_of(s, at, 1, &c))
            return spv_fail(s, "SPIR-V: bad OpBranchConditional");
        uint32_t t = s->w[at + 2], f = s->w[at + 3];
        if (t == f)
            return phi_copies(s, b->label, t) &&
                   bra(s, fx, nfx, US_COND_ALWAYS, NONE, t);
        /* the false edge's code follows the true edge's */
        unsigned edge_fix = *nfx;
        if (!bra(s, fx, nfx, US_COND_EQ, c, 0) ||
            !phi_copies(s, b->label, t) ||
            !bra(s, fx, nfx, US_COND_ALWAYS, NONE, t))
            return false;
        (*fx)[edge_fix].done = true;
        s->insts[(*fx)[edge_fix].inst].target = (uint16_t)s->ninsts;
        return phi_copies(s, b->label, f) &&
               bra(s, fx, nfx, US_COND_ALWAYS, NONE, f);
    }
    case SpvOpReturn:
        return bra(s, fx, nfx, US_COND_ALWAYS, NONE, 0);
    case SpvOpUnreachable:
        return true;
    case SpvOpSwitch:
        return unstructured_switch(s, b, fx, nfx);
    default: {
        char buf[64];
        return spv_fail(s, "unsupported terminator %s in a kernel",
                        spv_op_name(op, buf, sizeof buf));
    }
    }
}

/* Successor k of block b (k from 0), or 0 when it has no more. */
static uint32_t successor(const struct spv *s, const struct block *b,
                          unsigned k)
{
    uint32_t at = b->term;
    unsigned op = spv_op(s, at), wc = spv_wc(s, at);
    if (op == SpvOpBranch)
        return k == 0 && wc >= 2 ? s->w[at + 1] : 0;
    if (op == SpvOpBranchConditional)
        return k < 2 && wc >= 4 ? s->w[at + 2 + k] : 0;
    if (op == SpvOpSwitch) {
        if (k == 0)
            return wc >= 3 ? s->w[at + 2] : 0;
        return 2 * k + 2 < wc ? s->w[at + 2 * k + 2] : 0;
    }
    return 0;
}

static size_t block_index(const struct spv *s, uint32_t label)
{
    size_t i = 0;
    while (i < s->nblocks && s->blocks[i].label != label)
        i++;
    return i;
}

/* The blocks in reverse postorder from the entry: every block after its
 * dominators, so each value is made before it is read (llvm-spirv-14's
 * module order does not always keep that rule of SPIR-V 2.16.1).
 * Unreachable blocks are left out.  *n: how many. */
static bool reverse_postorder(struct spv *s, size_t *order, size_t *n)
{
    size_t nb = s->nblocks;
    uint8_t *seen = calloc(nb, 1);
    size_t *stack = malloc(nb * sizeof *stack);
    unsigned *next = calloc(nb, sizeof *next);
    size_t sp = 0, post = nb;
    bool ok = seen && stack && next;
    if (ok) {
        seen[0] = 1;
        stack[sp++] = 0;
    }
    while (ok && sp) {
        size_t b = stack[sp - 1];
        uint32_t l = successor(s, &s->blocks[b], next[b]++);
        if (!l) {
            order[--post] = b;
            sp--;
            continue;
        }
        size_t i = block_index(s, l);
        if (i == nb)
            ok = spv_fail(s, "SPIR-V: branch to unknown block %u", l);
        else if (!seen[i]) {
            seen[i] = 1;
            stack[sp++] = i;
        }
    }
    if (!(seen && stack && next))
        ok = spv_fail(s, "out of memory");
    /* the reachable ones are order[post..nb) */
    if (ok) {
        memmove(order, order + post, (nb - post) * sizeof *order);
        *n = nb - post;
    }
    free(seen);
    free(stack);
    free(next);
    return ok;
}

static bool unstructured(struct spv *s)
{
    unsigned *start = calloc(s->nblocks + 1, sizeof *start);
    size_t *order = calloc(s->nblocks + 1, sizeof *order), norder = 0;
    struct fixup *fx = NULL;
    unsigned nfx = 0;
    bool ok = (start && order) || spv_fail(s, "out of memory");
    ok = ok && reverse_postorder(s, order, &norder);
    for (size_t j = 0; ok && j < norder; j++) {
        size_t i = order[j];
        start[i] = s->ninsts;
        ok = unstructured_block(s, &s->blocks[i], &fx, &nfx);
    }
    for (unsigned k = 0; ok && k < nfx; k++) {
        uint32_t l = fx[k].label;
        unsigned to = s->ninsts;
        if (fx[k].done)
            continue;
        if (l) {
            size_t i = block_index(s, l);
            if (i == s->nblocks)
                ok = spv_fail(s, "SPIR-V: branch to unknown block %u", l);
            to = i < s->nblocks ? start[i] : 0;
        }
        if (to > 0xffff)
            ok = spv_fail(s, "a kernel of more than 65535 instructions");
        s->insts[fx[k].inst].target = (uint16_t)to;
    }
    free(start);
    free(order);
    free(fx);
    return ok;
}

bool translate_function(struct spv *s)
{
    /* Constants first, so the operand pool does not move under a caller
     * holding operands of one while another is made. */
    for (uint32_t id = 1; id < s->bound; id++) {
        const struct sid *x = &s->ids[id];
        bool constant = (x->op >= SpvOpConstantTrue &&
                         x->op <= SpvOpConstantNull) ||
                        x->op == SpvOpUndef ||
                        (x->op >= SpvOpSpecConstantTrue &&
                         x->op <= SpvOpSpecConstantComposite);
        if (!constant || x->op == SpvOpConstantSampler ||
            s->ids[x->type].ty < TY_BOOL || s->ids[x->type].ty > TY_STRUCT)
            continue;
        struct us_src *v;
        uint32_t n;
        if (!value_of(s, id, &v, &n))
            return false;
    }
    /* Outputs read back or written with a dynamic index live in registers
     * until the end (result.* is write-only and not indexable). */
    for (size_t i = 0; i < s->nblocks; i++)
        for (uint32_t at = s->blocks[i].first; at < s->blocks[i].term;
             at += spv_wc(s, at)) {
            unsigned op = spv_op(s, at);
            bool dynamic;
            uint32_t r = 0;
            if (op == SpvOpLoad && spv_wc(s, at) >= 4)
                r = root_of(s, s->w[at + 3], &dynamic);
            else if (op == SpvOpStore && spv_wc(s, at) >= 3 &&
                     (r = root_of(s, s->w[at + 1], &dynamic)) && !dynamic)
                r = 0;
            if (r && s->ids[s->ids[r].type].storage == SpvStorageClassOutput)
                s->ids[r].var_loaded = true;
        }
    if (s->kernel && !bind_kernel_args(s))
        return false;
    if (s->unstructured)
        return unstructured(s);
    struct walker w = { .s = s, .max_visits = 64 * (unsigned)s->nblocks + 64 };
    struct flowctx top = { 0 };
    return region(&w, s->blocks[0].label, &top);
}
