/* Running a workload on a core model (shader/core.h). */
#include <stdio.h>

#include "shader/core.h"

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
    m->destroy(core);
    for (unsigned i = 0; i < w->nthreads; i++)
        if (w->threads[i].overrun)
            return us_budget_error(w->env, i, diag);
    return true;
}
