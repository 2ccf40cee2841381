/*
 * Reconvergence points of BRA (docs/COMPUTE.md, shader/flow.c): the
 * immediate post-dominator of each branch in the control-flow graph, the
 * first instruction every path from the branch to the end must pass.
 *
 * The graph has a node per instruction and one for the end (n).  Edges:
 * an instruction falls through to pc + 1; a BRA also (or, unconditional,
 * only) jumps to its target; structured instructions follow their
 * sequencer (IF: the body, and the ELSE's body or the ENDIF; ELSE: its
 * ENDIF; ENDLOOP: back to the loop's first instruction; BRK: past the
 * ENDLOOP; CONT: the ENDLOOP).  Post-dominators are the dominators of the
 * reversed graph rooted at the end, by the iterative algorithm of Cooper,
 * Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001).  An
 * instruction from which the end cannot be reached (an endless loop) has
 * none; its branches reconverge at the end.
 *
 * A BRA may mix with structured flow control when it stays in its block:
 * its target and its reconvergence point must lie in the same IF, ELSE or
 * loop body as the branch (or be the ELSE, ENDIF or ENDLOOP closing it), so
 * the structured frames and the branch's frame nest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

struct cfg {
    unsigned n;              /* instructions; node n is the end         */
    uint32_t (*succ)[2];     /* successors, UINT32_MAX when absent       */
    uint32_t *pred_first, *pred;  /* CSR lists of predecessors            */
    uint32_t *order;         /* postorder number of each node, or MAX    */
    uint32_t *ipdom;
};

/* Where the sequencer goes from pc: for a group of lanes (`lane` false),
 * or for a lane alone (true), which never stops at an instruction only a
 * mask change happens at: an IF's false path resumes past the ELSE or the
 * ENDIF, an ELSE's lanes go past the ENDIF, a CONT's to the loop's first
 * instruction (shader/flow.c). */
static void successors(const struct us_flow *f, const uint8_t *always,
                       unsigned pc, bool lane, uint32_t s[2])
{
    unsigned n = f->n, p = f->partner[pc];
    s[0] = pc + 1;
    s[1] = UINT32_MAX;
    switch ((enum us_flow_kind)f->kind[pc]) {
    case US_FLOW_NONE: case US_FLOW_ENDIF: case US_FLOW_LOOP:
    case US_FLOW_SYNC:
        break;
    case US_FLOW_IF:
        s[1] = f->kind[p] == US_FLOW_ELSE || lane ? p + 1 : p;
        break;
    case US_FLOW_ELSE:
        s[0] = lane ? p + 1 : p;
        break;
    case US_FLOW_CONT:
        s[0] = lane ? f->partner[p] + 1 : p;
        break;
    case US_FLOW_ENDLOOP:
        s[0] = p + 1;
        break;
    case US_FLOW_BRK:
        s[0] = p + 1;
        break;
    case US_FLOW_BRA:
        if (always[pc])
            s[0] = p;
        else if (p != pc + 1)
            s[1] = p;
        break;
    }
    for (int k = 0; k < 2; k++)
        if (s[k] != UINT32_MAX && s[k] > n)
            s[k] = n;
}

static bool build(struct cfg *g, const struct us_flow *f,
                  const uint8_t *always, bool lane)
{
    unsigned n = f->n, nodes = n + 1;
    g->n = n;
    g->succ = malloc(nodes * sizeof *g->succ);
    g->pred_first = calloc(nodes + 1, sizeof *g->pred_first);
    g->pred = malloc(2 * nodes * sizeof *g->pred);
    g->order = malloc(nodes * sizeof *g->order);
    g->ipdom = malloc(nodes * sizeof *g->ipdom);
    if (!g->succ || !g->pred_first || !g->pred || !g->order || !g->ipdom)
        return false;
    for (unsigned pc = 0; pc < n; pc++)
        successors(f, always, pc, lane, g->succ[pc]);
    g->succ[n][0] = g->succ[n][1] = UINT32_MAX;
    for (unsigned v = 0; v < nodes; v++)
        for (int k = 0; k < 2; k++)
            if (g->succ[v][k] != UINT32_MAX)
                g->pred_first[g->succ[v][k] + 1]++;
    for (unsigned v = 0; v < nodes; v++)
        g->pred_first[v + 1] += g->pred_first[v];
    uint32_t *fill = malloc(nodes * sizeof *fill);
    if (!fill)
        return false;
    memcpy(fill, g->pred_first, nodes * sizeof *fill);
    for (unsigned v = 0; v < nodes; v++)
        for (int k = 0; k < 2; k++)
            if (g->succ[v][k] != UINT32_MAX)
                g->pred[fill[g->succ[v][k]]++] = v;
    free(fill);
    return true;
}

/* Postorder of the reversed graph from the end (iterative DFS); returns
 * the nodes in that order. */
static uint32_t *postorder(struct cfg *g, unsigned *count)
{
    unsigned nodes = g->n + 1;
    uint32_t *out = malloc(nodes * sizeof *out);
    uint32_t *stack = malloc(nodes * sizeof *stack);
    uint32_t *next = malloc(nodes * sizeof *next);
    if (!out || !stack || !next) {
        free(out);
        out = NULL;
        goto done;
    }
    for (unsigned v = 0; v < nodes; v++)
        g->order[v] = UINT32_MAX;
    unsigned sp = 0, k = 0;
    stack[sp++] = g->n;
    next[g->n] = g->pred_first[g->n];
    g->order[g->n] = UINT32_MAX - 1;   /* visited */
    while (sp) {
        uint32_t v = stack[sp - 1];
        if (next[v] < g->pred_first[v + 1]) {
            uint32_t u = g->pred[next[v]++];
            if (g->order[u] == UINT32_MAX) {
                g->order[u] = UINT32_MAX - 1;
                next[u] = g->pred_first[u];
                stack[sp++] = u;
            }
            continue;
        }
        g->order[v] = k;
        out[k++] = v;
        sp--;
    }
    *count = k;
done:
    free(stack);
    free(next);
    return out;
}

static uint32_t intersect(const struct cfg *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->order[a] < g->order[b])
            a = g->ipdom[a];
        while (g->order[b] < g->order[a])
            b = g->ipdom[b];
    }
    return a;
}

static bool post_dominators(struct cfg *g)
{
    unsigned count;
    uint32_t *po = postorder(g, &count);
    if (!po)
        return false;
    for (unsigned v = 0; v <= g->n; v++)
        g->ipdom[v] = UINT32_MAX;
    g->ipdom[g->n] = g->n;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = count; i-- > 0;) {   /* reverse postorder */
            uint32_t v = po[i];
            if (v == g->n)
                continue;
            uint32_t d = UINT32_MAX;
            for (int k = 0; k < 2; k++) {
                uint32_t s = g->succ[v][k];
                if (s == UINT32_MAX || g->ipdom[s] == UINT32_MAX)
                    continue;
                d = d == UINT32_MAX ? s : intersect(g, s, d);
            }
            if (d != g->ipdom[v]) {
                g->ipdom[v] = d;
                changed = true;
            }
        }
    }
    free(po);
    return true;
}

/* The structured block of each instruction: the pc of the IF, ELSE or
 * BGNLOOP that opened it, -1 at the top level; ELSE, ENDIF and ENDLOOP
 * belong to the block they close.  us_flow_link checked the nesting. */
static void blocks(const struct us_flow *f, int32_t *blk)
{
    int32_t open[US_FLOW_NEST + 1];
    unsigned depth = 0;
    open[0] = -1;
    for (unsigned pc = 0; pc < f->n; pc++) {
        switch ((enum us_flow_kind)f->kind[pc]) {
        case US_FLOW_IF: case US_FLOW_LOOP:
            blk[pc] = open[depth];
            open[++depth] = (int32_t)pc;
            break;
        case US_FLOW_ELSE:
            blk[pc] = open[depth];
            open[depth] = (int32_t)pc;
            break;
        case US_FLOW_ENDIF: case US_FLOW_ENDLOOP:
            blk[pc] = open[depth--];
            break;
        default:
            blk[pc] = open[depth];
            break;
        }
    }
}

static bool fail(struct us_diag *d, const uint32_t *lines, unsigned pc,
                 const char *msg)
{
    d->line = lines ? lines[pc] : 0;
    d->col = 1;
    snprintf(d->msg, sizeof d->msg, "%s", msg);
    return false;
}

bool us_flow_branches(struct us_flow *f, const uint8_t *always,
                      const uint32_t *lines, struct us_diag *diag)
{
    unsigned n = f->n;
    struct cfg g = { 0 };
    int32_t *blk = malloc((n + 1) * sizeof *blk);
    f->rpc = malloc((n ? n : 1) * sizeof *f->rpc);
    f->always = malloc(n ? n : 1);
    bool ok = blk && f->rpc && f->always && build(&g, f, always, false) &&
              post_dominators(&g);
    if (!ok)
        fail(diag, NULL, 0, "out of memory");
    if (ok) {
        blocks(f, blk);
        blk[n] = -1;
    }
    for (unsigned pc = 0; pc < n && ok; pc++) {
        f->rpc[pc] = 0;
        f->always[pc] = f->kind[pc] == US_FLOW_BRA && always[pc];
        if (f->kind[pc] != US_FLOW_BRA)
            continue;
        uint32_t r = g.ipdom[pc] == UINT32_MAX ? n : g.ipdom[pc];
        f->rpc[pc] = r;
        if (blk[f->partner[pc]] != blk[pc])
            ok = fail(diag, lines, pc, "BRA leaves its IF, ELSE or loop body");
        else if (blk[r] != blk[pc])
            ok = fail(diag, lines, pc, "BRA's paths meet only outside its "
                      "IF, ELSE or loop body");
    }
    free(g.succ);
    free(g.pred_first);
    free(g.pred);
    free(g.order);
    free(g.ipdom);
    free(blk);
    return ok;
}

bool us_flow_ipdoms(const struct us_flow *f, uint32_t *ipdom)
{
    const uint8_t *always = f->always;
    uint8_t *none = NULL;   /* code without BRA: nothing is unconditional */
    if (!always && !(always = none = calloc(f->n ? f->n : 1, 1)))
        return false;
    struct cfg g = { 0 };
    bool ok = build(&g, f, always, true) && post_dominators(&g);
    for (unsigned pc = 0; ok && pc < f->n; pc++)
        ipdom[pc] = g.ipdom[pc] == UINT32_MAX ? f->n : g.ipdom[pc];
    free(g.succ);
    free(g.pred_first);
    free(g.pred);
    free(g.order);
    free(g.ipdom);
    free(none);
    return ok;
}
