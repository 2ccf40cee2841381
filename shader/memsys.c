/*
 * The memory-system parts (shader/memsys.h): the table the mem_system
 * knob picks from, and what the parts share.
 */
#include <stdio.h>

#include "shader/memsys.h"

/* In the order of knobs.def's mem_system choices. */
const struct us_memsys_part *const us_memsys_parts[] = {
    &us_memsys_lsu, &us_memsys_port, &us_memsys_coalesce, &us_memsys_tmcu,
    &us_memsys_cache, NULL,
};

const struct us_memsys_part *us_memsys_part(const struct us_config *cfg)
{
    unsigned i = (unsigned)cfg->v[US_KNOB_mem_system];
    unsigned n = sizeof us_memsys_parts / sizeof us_memsys_parts[0] - 1;
    return us_memsys_parts[i < n ? i : 0];
}

void us_memsys_hw(const struct us_config *cfg, unsigned requesters,
                  unsigned lanes, struct us_hw *hw)
{
    us_memsys_part(cfg)->hw(cfg, requesters, lanes, hw);
}

void us_memsys_activity(const struct us_memsys_part *p,
                        const struct us_memsys *m, struct us_activity *act)
{
    const struct us_memsys_counts *c = p->counts(m);
    act->mem_requests += c->requests;
    act->cache_accesses += c->cache_accesses;
}

void us_memsys_report(const struct us_memsys_counts *c, struct us_stats *st)
{
    us_stats_counter(st, "memsys.requests",
                     "component requests the memory system served",
                     (double)c->requests);
    us_stats_counter(st, "memsys.transactions",
                     "transactions the memory system sent to memory",
                     (double)c->transactions);
    us_stats_formula(st, "memsys.coalescing", "requests per transaction",
                     "memsys.requests / memsys.transactions");
    us_stats_counter(st, "memsys.stall_cycles",
                     "cycles requests waited beyond their unloaded latency",
                     (double)c->stall_cycles);
}

bool us_memsys_pow2(const char *part, const char *knob, unsigned v,
                    struct us_diag *diag)
{
    if (v && !(v & (v - 1)))
        return true;
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg,
             "mem_system=%s: %s=%u is not a power of two", part, knob, v);
    return false;
}

struct us_memsys *us_memsys_oom(const char *part, struct us_diag *diag)
{
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "mem_system=%s: out of memory", part);
    return NULL;
}
