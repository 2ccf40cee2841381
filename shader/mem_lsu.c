/*
 * mem_system=lsu, the default: no memory system.  Every request is on its
 * own, done mem_latency cycles after it (a load's or atomic's value
 * usable, a store performed).  The models already send at
 * most one request per lane per cycle (a scalar SP's repetitions, a vec4
 * processor's lanes), so nothing here waits: the cycles are those of the
 * models before memory systems were parts.
 */
#include <stdlib.h>

#include "shader/memsys.h"

struct us_memsys {
    unsigned latency;
    struct us_memsys_counts c;
};

static struct us_memsys *create(const struct us_config *cfg,
                                unsigned requesters, struct us_diag *diag)
{
    (void)requesters;
    struct us_memsys *m = calloc(1, sizeof *m);
    if (!m)
        return us_memsys_oom("lsu", diag);
    m->latency = (unsigned)cfg->v[US_KNOB_mem_latency];
    return m;
}

static void reset(struct us_memsys *m)
{
    m->c = (struct us_memsys_counts){ 0 };
}

static void access(struct us_memsys *m, unsigned requester,
                   const struct us_mem_req *req, unsigned n, uint64_t *done)
{
    (void)requester;
    for (unsigned i = 0; i < n; i++)
        done[i] = req[i].at + m->latency;
    m->c.requests += n;
    m->c.transactions += n;
}

static void stats(const struct us_memsys *m, struct us_stats *st)
{
    us_memsys_report(&m->c, st);
}

static void destroy(struct us_memsys *m)
{
    free(m);
}

/* A load/store unit per lane: each takes its lane's request every cycle. */
static void hw(const struct us_config *cfg, unsigned requesters,
               unsigned lanes, struct us_hw *h)
{
    (void)cfg;
    (void)requesters;
    h->lsus = lanes;
}

static const struct us_memsys_counts *counts(const struct us_memsys *m)
{
    return &m->c;
}

const struct us_memsys_part us_memsys_lsu = {
    "lsu", create, reset, access, stats, destroy, hw, counts,
};
