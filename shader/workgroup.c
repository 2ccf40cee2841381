/* Workgroups of a compute launch on a core model: see shader/workgroup.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/workgroup.h"

static bool fail(struct us_diag *diag, const char *msg)
{
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "%s", msg);
    return false;
}

bool us_wgs_init(struct us_wgs *g, const struct us_workload *w,
                 unsigned slots, const char *model, const char *what,
                 struct us_diag *diag)
{
    memset(g, 0, sizeof *g);
    unsigned G = us_workload_group(w);
    if (!G)
        return true;
    char msg[sizeof diag->msg];
    if (w->nthreads % G) {
        snprintf(msg, sizeof msg, "%s: %u threads are not whole workgroups "
                 "of %u", model, w->nthreads, G);
        return fail(diag, msg);
    }
    if (G > slots) {
        snprintf(msg, sizeof msg, "%s: a workgroup of %u threads needs %u "
                 "thread slots resident together; the model has %s = %u: "
                 "raise threads_per_proc or alu_lanes", model, G, G, what,
                 slots);
        return fail(diag, msg);
    }
    g->size = G;
    g->ngroups = w->nthreads / G;
    g->cap = slots / G;
    if (g->cap > g->ngroups)
        g->cap = g->ngroups ? g->ngroups : 1;
    g->shared_bytes = w->prog->shared_bytes;
    size_t n = (size_t)g->cap * G;
    g->wg = calloc(g->cap, sizeof *g->wg);
    g->bars_mem = calloc(n, sizeof *g->bars_mem);
    g->since_mem = calloc(n, sizeof *g->since_mem);
    g->done_mem = calloc(n, 1);
    g->shared_mem = calloc((size_t)g->cap * g->shared_bytes + 1, 1);
    if (!g->wg || !g->bars_mem || !g->since_mem || !g->done_mem ||
        !g->shared_mem) {
        us_wgs_free(g);
        snprintf(msg, sizeof msg, "%s: out of memory", model);
        return fail(diag, msg);
    }
    for (unsigned e = 0; e < g->cap; e++) {
        struct us_wg *wg = &g->wg[e];
        wg->bars = g->bars_mem + (size_t)e * G;
        wg->since = g->since_mem + (size_t)e * G;
        wg->done = g->done_mem + (size_t)e * G;
        wg->shared.data = g->shared_mem + (size_t)e * g->shared_bytes;
        wg->shared.size = g->shared_bytes;
    }
    return true;
}

void us_wgs_free(struct us_wgs *g)
{
    free(g->wg);
    free(g->bars_mem);
    free(g->since_mem);
    free(g->done_mem);
    free(g->shared_mem);
    memset(g, 0, sizeof *g);
}

void us_wgs_reset(struct us_wgs *g)
{
    g->next = 0;
    g->admitted = 0;
    g->wait_cycles = 0;
    for (unsigned e = 0; e < g->cap; e++)
        g->wg[e].live = false;
}

int us_wgs_admit(struct us_wgs *g, uint32_t *first)
{
    if (g->next >= g->ngroups)
        return -1;
    for (unsigned e = 0; e < g->cap; e++) {
        struct us_wg *wg = &g->wg[e];
        if (wg->live)
            continue;
        wg->live = true;
        wg->group = g->next++;
        wg->first = wg->group * g->size;
        wg->left = wg->behind = g->size;
        wg->level = 0;
        wg->release_at = 0;
        memset(wg->bars, 0, g->size * sizeof *wg->bars);
        memset(wg->since, 0, g->size * sizeof *wg->since);
        memset(wg->done, 0, g->size);
        memset(wg->shared.data, 0, g->shared_bytes);
        g->admitted++;
        *first = wg->first;
        return (int)e;
    }
    return -1;
}

void us_wgs_place(struct us_wgs *g, int e, struct us_thread *t)
{
    t->shared = &g->wg[e].shared;
}

/* Every unfinished thread has executed its BAR number level + 1: the
 * barrier releases, from the next cycle on. */
static void release(struct us_wgs *g, struct us_wg *wg, uint64_t now)
{
    wg->level++;
    for (unsigned i = 0; i < g->size; i++)
        if (!wg->done[i] && wg->bars[i] == wg->level)
            g->wait_cycles += now - wg->since[i];
    wg->behind = wg->left;
    wg->release_at = now + 1;
}

void us_wgs_bar(struct us_wgs *g, int e, uint32_t tid, uint64_t now)
{
    struct us_wg *wg = &g->wg[e];
    unsigned i = tid - wg->first;
    wg->bars[i]++;
    wg->since[i] = now;
    if (wg->bars[i] == wg->level + 1 && --wg->behind == 0)
        release(g, wg, now);
}

void us_wgs_finish(struct us_wgs *g, int e, uint32_t tid,
                   struct us_thread *t, uint64_t now)
{
    struct us_wg *wg = &g->wg[e];
    unsigned i = tid - wg->first;
    t->shared = NULL;
    if (wg->done[i])
        return;
    wg->done[i] = 1;
    wg->left--;
    if (wg->bars[i] == wg->level && --wg->behind == 0 && wg->left)
        release(g, wg, now);
    if (!wg->left)
        wg->live = false;
}

void us_wgs_divergent_error(const char *model, const struct us_program *prog,
                            unsigned inst, unsigned masked,
                            struct us_diag *diag)
{
    diag->line = inst < prog->ninsts ? prog->insts[inst].line : 0;
    diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "%s: a lockstep warp reached BAR "
             "with %u of its lanes masked off by flow control: a barrier in "
             "divergent code would hang a warp without independent thread "
             "scheduling (docs/COMPUTE.md)", model, masked);
}
