/* Running a workload on a core model (shader/core.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "shader/core.h"

unsigned us_workload_group(const struct us_workload *w)
{
    const struct us_program *p = w->prog;
    if (p->stage != US_STAGE_COMPUTE)
        return 0;
    unsigned n = 1;
    for (int d = 0; d < 3; d++)
        n *= p->group_size[d] ? p->group_size[d] : 1;
    return n;
}

bool us_core_check(const struct us_core_model *m,
                   const struct us_config *cfg, struct us_diag *diag)
{
    return !m->check || m->check(cfg, diag);
}

bool us_core_run(const struct us_core_model *m, const struct us_config *cfg,
                 const struct us_workload *w, struct us_stats *st,
                 struct us_diag *diag)
{
    struct us_core *core = m->create(cfg, w, diag);
    if (!core)
        return false;
    /* create leaves the core at cycle 0; reset again so a model that
     * prepares lazily starts from the same state either way. */
    m->reset(core);
    while (m->step(core))
        ;
    us_stats_init(st, m->name);
    m->stats(core, st);
    bool failed = m->failed && m->failed(core, diag);
    m->destroy(core);
    if (failed)
        return false;
    /* streamed: the window's records, each its last thread's */
    unsigned n = w->stream && w->stream->window < w->nthreads
                     ? w->stream->window : w->nthreads;
    for (unsigned i = 0; i < n; i++)
        if (w->threads[i].overrun) {
            unsigned tid = i;
            while (n < w->nthreads && w->nthreads - tid > n)
                tid += n;
            return us_budget_error(w->env, tid, diag);
        }
    return true;
}

bool us_core_run_compute(const struct us_core_model *m,
                         const struct us_config *cfg,
                         const struct us_program *prog,
                         const struct us_exec_env *env,
                         const uint32_t groups[3], struct us_thread *threads,
                         struct us_stats *st, struct us_diag *diag)
{
    return us_core_run_compute_events(m, cfg, prog, env, groups, threads,
                                      NULL, st, diag);
}

bool us_core_run_compute_events(const struct us_core_model *m,
                                const struct us_config *cfg,
                                const struct us_program *prog,
                                const struct us_exec_env *env,
                                const uint32_t groups[3],
                                struct us_thread *threads,
                                const struct us_event_sink *events,
                                struct us_stats *st, struct us_diag *diag)
{
    uint64_t items = us_compute_items(prog, groups, UINT_MAX, diag);
    if (!items)
        return false;
    struct us_thread *t = threads ? threads : malloc(items * sizeof *t);
    if (!t) {
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "%s: out of memory", m->name);
        return false;
    }
    for (uint64_t i = 0; i < items; i++)
        us_compute_thread(prog, groups, i, &t[i]);
    struct us_workload w = { prog, env, t, (unsigned)items, events,
                             NULL };
    bool ok = us_core_run(m, cfg, &w, st, diag);
    if (!threads)
        free(t);
    return ok;
}
