/*
 * Flow control (OPTION USHADER_extensions): IF/ELSE/ENDIF and
 * BGNLOOP/ENDLOOP with BRK and CONT, and the unstructured BRA
 * (docs/COMPUTE.md), written once for every executor.
 *
 * us_flow_build checks the nesting and links each flow instruction to its
 * partner (shader/flow_cfg.c finds each BRA's reconvergence point).
 * us_flow_state then runs a group of lanes in lockstep the way a SIMD
 * sequencer does: an active mask and a reconvergence stack, one frame per
 * open IF or loop and per divergent BRA.
 *
 *   IF      push {outer = active, other = active & ~cond}; active &= cond
 *   ELSE    active = other (the IF lanes wait in outer)
 *   ENDIF   active = outer; pop
 *   BGNLOOP push {outer = active, cont = 0}
 *   BRK     the active lanes leave every frame above the loop and wait in
 *           the loop's outer mask; active = 0
 *   CONT    the same, but they wait in the loop's cont mask
 *   ENDLOOP active |= cont; if any lane is active, back to the top of the
 *           body, else active = outer (every lane has left); pop
 *   BRA     taken = active & cond; if some active lanes are not taken,
 *           push {BRA, outer = active, other = those, pc = pc + 1,
 *           rpc = the branch's reconvergence point}; active = taken, on to
 *           the target.  When the running path reaches rpc or has no lane
 *           left, the frame hands over to `other`; the second time,
 *           active = outer at rpc; pop.  A divergence whose rpc is the top
 *           frame's and whose other path is empty or already at rpc reuses
 *           that frame, so a loop built of branches, or an else-if chain,
 *           stays one frame deep.
 *
 * When no lane is active the sequencer does not issue: it walks forward,
 * jumping over whole IFs and loops (nothing inside can wake a lane), and
 * stops at the ELSE, ENDIF or ENDLOOP that reactivates lanes.  A single
 * thread is a group of one lane, so independent threads (the scalar SPs)
 * and lockstep groups (simd4, a 2x2 quad) run the same semantics and leave
 * the same registers.
 *
 * A program that would hang hardware must not hang a model: each lane
 * has an instruction budget (struct us_flow_state), checked at every flow
 * instruction, that stops it for good once exceeded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

enum us_flow_kind us_op_flow_kind(enum us_opcode op)
{
    switch (op) {
    case US_OP_IF: return US_FLOW_IF;
    case US_OP_ELSE: return US_FLOW_ELSE;
    case US_OP_ENDIF: return US_FLOW_ENDIF;
    case US_OP_BGNLOOP: return US_FLOW_LOOP;
    case US_OP_ENDLOOP: return US_FLOW_ENDLOOP;
    case US_OP_BRK: return US_FLOW_BRK;
    case US_OP_CONT: return US_FLOW_CONT;
    case US_OP_BRA: return US_FLOW_BRA;
    case US_OP_SYNC: return US_FLOW_SYNC;
    default: return US_FLOW_NONE;
    }
}

void us_flow_free(struct us_flow *f)
{
    if (!f)
        return;
    free(f->kind);
    free(f->partner);
    free(f->weight);
    free(f->rpc);
    free(f->always);
    free(f);
}

static bool fail(struct us_diag *d, unsigned line, const char *msg)
{
    d->line = line;
    d->col = 1;
    snprintf(d->msg, sizeof d->msg, "%s", msg);
    return false;
}

bool us_flow_link(const uint8_t *kind, uint32_t *partner, unsigned n,
                  const uint32_t *lines, struct us_diag *diag)
{
    uint32_t open[US_FLOW_NEST];   /* pcs of the open IF/ELSE/BGNLOOP */
    unsigned depth = 0;
    for (unsigned pc = 0; pc < n; pc++) {
        unsigned line = lines ? lines[pc] : 0;
        if (kind[pc] == US_FLOW_BRA) {   /* the caller's target */
            if (partner[pc] > n)
                return fail(diag, line, "BRA target out of range");
            continue;
        }
        partner[pc] = UINT32_MAX;
        switch ((enum us_flow_kind)kind[pc]) {
        case US_FLOW_NONE:
        case US_FLOW_BRA:
            break;
        case US_FLOW_SYNC:   /* it goes on to the next instruction */
            partner[pc] = pc + 1;
            break;
        case US_FLOW_IF:
        case US_FLOW_LOOP:
            if (depth == US_FLOW_NEST)
                return fail(diag, line, "flow control nested too deeply");
            open[depth++] = pc;
            break;
        case US_FLOW_ELSE:
            if (!depth || kind[open[depth - 1]] != US_FLOW_IF)
                return fail(diag, line, "ELSE without IF");
            partner[open[depth - 1]] = pc;
            open[depth - 1] = pc;
            break;
        case US_FLOW_ENDIF:
            if (!depth || kind[open[depth - 1]] == US_FLOW_LOOP)
                return fail(diag, line, "ENDIF without IF");
            partner[open[depth - 1]] = pc;
            partner[pc] = open[--depth];
            break;
        case US_FLOW_ENDLOOP:
            if (!depth || kind[open[depth - 1]] != US_FLOW_LOOP)
                return fail(diag, line, "ENDLOOP without BGNLOOP");
            partner[open[depth - 1]] = pc;
            partner[pc] = open[--depth];
            break;
        case US_FLOW_BRK:
        case US_FLOW_CONT: {
            unsigned d = depth;
            while (d && kind[open[d - 1]] != US_FLOW_LOOP)
                d--;
            if (!d)
                return fail(diag, line, kind[pc] == US_FLOW_BRK
                                            ? "BRK outside a loop"
                                            : "CONT outside a loop");
            partner[pc] = open[d - 1];  /* the BGNLOOP until ENDLOOP is known */
            break;
        }
        }
    }
    if (depth)
        return fail(diag, lines ? lines[open[depth - 1]] : 0,
                    kind[open[depth - 1]] == US_FLOW_LOOP
                        ? "BGNLOOP without ENDLOOP" : "IF without ENDIF");
    for (unsigned pc = 0; pc < n; pc++)
        if (kind[pc] == US_FLOW_BRK || kind[pc] == US_FLOW_CONT)
            partner[pc] = partner[partner[pc]];  /* BGNLOOP -> its ENDLOOP */
    return true;
}

bool us_flow_build(const struct us_program *prog, struct us_flow **out,
                   struct us_diag *diag)
{
    *out = NULL;
    bool any = false;
    for (unsigned pc = 0; pc < prog->ninsts; pc++)
        any |= us_op_flow_kind(prog->insts[pc].op) != US_FLOW_NONE;
    if (!any)
        return true;
    unsigned n = prog->ninsts;
    struct us_flow *f = calloc(1, sizeof *f);
    uint32_t *lines = malloc(n * sizeof *lines);
    uint8_t *always = malloc(n);
    if (f) {
        f->n = n;
        f->kind = malloc(n);
        f->partner = malloc(n * sizeof *f->partner);
    }
    if (!f || !lines || !always || !f->kind || !f->partner) {
        free(lines);
        free(always);
        us_flow_free(f);
        return fail(diag, 0, "out of memory");
    }
    bool bra = false;
    for (unsigned pc = 0; pc < n; pc++) {
        const struct us_inst *in = &prog->insts[pc];
        f->kind[pc] = (uint8_t)us_op_flow_kind(in->op);
        f->partner[pc] = in->target;
        always[pc] = in->sub == US_COND_ALWAYS;
        lines[pc] = in->line;
        bra |= f->kind[pc] == US_FLOW_BRA;
        if (f->kind[pc] == US_FLOW_BRA && in->target < n &&
            prog->insts[in->target].joined) {
            free(lines);
            free(always);
            us_flow_free(f);
            return fail(diag, in->line, "BRA into the middle of a source "
                        "instruction (a '|' group)");
        }
    }
    bool ok = us_flow_link(f->kind, f->partner, n, lines, diag) &&
              (!bra || us_flow_branches(f, always, lines, diag));
    free(lines);
    free(always);
    if (!ok) {
        us_flow_free(f);
        return false;
    }
    *out = f;
    return true;
}

void us_flow_start(struct us_flow_state *s, uint32_t lanes, uint32_t budget)
{
    s->pc = 0;
    s->active = lanes;
    s->depth = 0;
    s->stopped = 0;
    s->budget = budget ? budget : US_MAX_INSTS_DEFAULT;
    s->run = 0;
    memset(s->executed, 0, sizeof s->executed);
}

/* Stop lanes for good: they wait in no frame, so nothing wakes them. */
static void stop(struct us_flow_state *s, uint32_t lanes)
{
    for (unsigned d = 0; d < s->depth; d++) {
        s->stack[d].outer &= ~lanes;
        s->stack[d].other &= ~lanes;
    }
    s->active &= ~lanes;
    s->stopped |= lanes;
}

/* Charge the active lanes with what they ran since the last flow
 * instruction (or change of mask), and stop those over the budget. */
static void charge(struct us_flow_state *s)
{
    uint32_t over = 0;
    for (uint32_t m = s->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        s->executed[l] += s->run;
        if (s->executed[l] > s->budget)
            over |= 1u << l;
    }
    s->run = 0;
    if (over)
        stop(s, over);
}

/* A new frame, or NULL when the stack is full (the active lanes are then
 * stopped: see struct us_flow_state). */
static struct us_flow_frame *push(struct us_flow_state *s, uint8_t kind)
{
    if (s->depth == US_FLOW_DEPTH) {
        stop(s, s->active);
        return NULL;
    }
    struct us_flow_frame *f = &s->stack[s->depth++];
    f->kind = kind;
    f->outer = s->active;
    f->other = 0;
    f->pc = f->rpc = 0;
    return f;
}

/* A BRA issued on the active lanes, `taken` of which jump to `target`. */
static void branch(struct us_flow_state *s, const struct us_flow *f,
                   unsigned pc, uint32_t taken)
{
    unsigned target = f->partner[pc], rpc = f->rpc[pc];
    if (f->always[pc])
        taken = s->active;
    uint32_t fall = s->active & ~taken;
    if (!taken || !fall) {   /* the lanes agree: a jump or nothing */
        s->pc = taken ? target : pc + 1;
        return;
    }
    struct us_flow_frame *top = s->depth ? &s->stack[s->depth - 1] : NULL;
    bool reuse = top && top->kind == US_FLOW_BRA && top->rpc == rpc;
    if (reuse && target == rpc) {          /* the taken lanes wait at rpc */
        s->active = fall;
        s->pc = pc + 1;
        return;
    }
    if (reuse && pc + 1 == rpc) {          /* the others do */
        s->active = taken;
        s->pc = target;
        return;
    }
    if (!(reuse && !top->other) && !(top = push(s, US_FLOW_BRA)))
        return;
    top->other = fall;
    top->pc = pc + 1;
    top->rpc = rpc;
    s->active = taken;
    s->pc = target;
}

/* A divergent branch's frame on top whose running path has reached the
 * reconvergence point or lost its last lane: the other path runs, or,
 * when both have, the frame's lanes go on together at rpc. */
static void reconverge(struct us_flow_state *s)
{
    struct us_flow_frame *top = &s->stack[s->depth - 1];
    if (s->run)
        charge(s);
    if (top->other) {
        s->active = top->other;
        s->pc = top->pc;
        top->other = 0;
        return;
    }
    s->active = top->outer;
    s->pc = top->rpc;
    s->depth--;
}

/* The innermost loop frame (one exists: us_flow_link checked). */
static unsigned loop_frame(const struct us_flow_state *s)
{
    unsigned d = s->depth;
    while (s->stack[d - 1].kind != US_FLOW_LOOP)
        d--;
    return d - 1;
}

/* BRK and CONT: the active lanes leave the frames above their loop. */
static void leave(struct us_flow_state *s, bool cont)
{
    unsigned l = loop_frame(s);
    for (unsigned d = l + 1; d < s->depth; d++) {
        s->stack[d].outer &= ~s->active;
        s->stack[d].other &= ~s->active;
    }
    if (cont)
        s->stack[l].other |= s->active;
    s->active = 0;
}

/* One step of the sequencer at s->pc: an instruction that lanes execute
 * (issued), or flow bookkeeping while no lane is active. */
static void step(struct us_flow_state *s, const struct us_flow *f,
                 uint32_t cond)
{
    unsigned pc = s->pc;
    if (f->kind[pc] == US_FLOW_NONE) {
        s->pc = pc + 1;
        return;
    }
    if (s->run)
        charge(s);
    struct us_flow_frame *top = s->depth ? &s->stack[s->depth - 1] : NULL;
    switch ((enum us_flow_kind)f->kind[pc]) {
    case US_FLOW_NONE:
        return;
    case US_FLOW_SYNC:   /* reconvergence here is a policy's (seed 002) */
        s->pc = pc + 1;
        return;
    case US_FLOW_IF:
    case US_FLOW_LOOP:
        if (!s->active) {  /* nothing inside can wake a lane */
            unsigned end = f->partner[pc];
            if (f->kind[end] == US_FLOW_ELSE)
                end = f->partner[end];
            s->pc = end + 1;
            return;
        }
        if (!(top = push(s, f->kind[pc])))
            return;
        if (f->kind[pc] == US_FLOW_IF) {
            top->other = s->active & ~cond;
            s->active &= cond;
        } else {
            top->other = 0;
        }
        s->pc = pc + 1;
        return;
    case US_FLOW_ELSE:
        s->active = top->other;
        top->other = 0;
        s->pc = s->active ? pc + 1 : f->partner[pc];
        return;
    case US_FLOW_ENDIF:
        s->active = top->outer;
        s->depth--;
        s->pc = pc + 1;
        return;
    case US_FLOW_BRK:
    case US_FLOW_CONT:
        leave(s, f->kind[pc] == US_FLOW_CONT);
        s->pc = pc + 1;
        return;
    case US_FLOW_ENDLOOP:
        s->active |= top->other;
        top->other = 0;
        if (s->active) {
            s->pc = f->partner[pc] + 1;
            return;
        }
        s->active = top->outer;
        s->depth--;
        s->pc = pc + 1;
        return;
    case US_FLOW_BRA:
        if (s->active)
            branch(s, f, pc, cond);
        else
            s->pc = pc + 1;
        return;
    }
}

void us_flow_advance(struct us_flow_state *s, const struct us_flow *f,
                     uint32_t cond)
{
    if (!f) {
        s->pc++;
        return;
    }
    s->run += f->weight ? f->weight[s->pc] : 1;
    step(s, f, cond);
    /* on to an instruction some lane executes */
    for (;;) {
        const struct us_flow_frame *top =
            s->depth ? &s->stack[s->depth - 1] : NULL;
        if (top && top->kind == US_FLOW_BRA &&
            (s->pc == top->rpc || !s->active))
            reconverge(s);
        else if (!s->active && s->pc < f->n)
            step(s, f, 0);
        else
            return;
    }
}

bool us_flow_done(const struct us_flow_state *s, unsigned n)
{
    return s->pc >= n;
}
