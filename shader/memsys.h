/*
 * Memory systems (knob mem_system, docs/MEMORY.md): when a core's loads,
 * stores and atomics complete.
 *
 * Accesses take effect functionally when their instruction issues
 * (isa/micro_mem.h, in issue order, the same whatever the part), so a part
 * decides timing only: a model hands it the requests of one issued
 * instruction (the executors note them in us_exec_env.trace) and gets back
 * each request's completion cycle, and the part counts what it did.  The
 * parts (shader/mem_*.c) are listed in us_memsys_parts[]; a model never
 * tests which part it has.
 *
 * Calls come in the order the model issues instructions, so `at` goes
 * back by at most a few cycles between calls; a part keeps its own
 * busy-until state (ports, banks, lines in flight), serves requests in the
 * order they reach it, and is deterministic.
 */
#ifndef US_SHADER_MEMSYS_H
#define US_SHADER_MEMSYS_H

#include <stdint.h>

#include "shader/core.h"
#include "shader/timing.h"

/* One lane's access of one component (kind: enum us_mem_kind; space: a
 * buffer binding or US_MEM_SPACE_SHARED, include/ushader.h). */
struct us_mem_req {
    uint64_t at;          /* cycle it reaches the memory system          */
    uint32_t addr;        /* byte address within its space               */
    uint8_t space;        /* buffer binding 0..31, or US_MEM_SPACE_SHARED */
    uint8_t bytes;        /* 1, 2 or 4                                   */
    uint8_t kind;         /* enum us_mem_kind                            */
    uint8_t lane;         /* the requesting lane (thread) in its warp    */
};

/* The most requests one access call carries (a warp of 32 lanes x 4
 * components, a lockstep group of 32 processors x 5 lanes); a model
 * splits a larger instruction. */
enum { US_MEMSYS_MAX_REQS = 256 };

struct us_memsys;

struct us_memsys_part {
    const char *name;     /* the mem_system knob's choice */
    /* `requesters`: how many sources of requests the model has (cores,
     * SPs, processors), numbered 0..requesters-1.  NULL with *diag for a
     * configuration the part cannot build (a size not a power of two). */
    US_MUST_CHECK struct us_memsys *(*create)(const struct us_config *cfg,
                                              unsigned requesters,
                                              struct us_diag *diag);
    /* Back to cycle 0: idle, empty, counters cleared. */
    void (*reset)(struct us_memsys *m);
    /* The n requests of one instruction from `requester`, in lane order;
     * done[i] receives the cycle request i completes: a load's (or an
     * atomic's) value is usable, a store has been performed (whether a
     * thread waits for its stores is the model's rule).
     * done[i] > req[i].at. */
    void (*access)(struct us_memsys *m, unsigned requester,
                   const struct us_mem_req *req, unsigned n, uint64_t *done);
    /* Register the part's statistics ("memsys.*", docs/METRICS.md). */
    void (*stats)(const struct us_memsys *m, struct us_stats *st);
    void (*destroy)(struct us_memsys *m);
    /* The hardware the part stands for on a machine of `lanes` datapath
     * lanes and `requesters` requesters (as create's): hw->lsus, one per
     * lane or per port, and a cache's geometry (the area model,
     * shader/area.c).  Depends on the configuration only. */
    void (*hw)(const struct us_config *cfg, unsigned requesters,
               unsigned lanes, struct us_hw *hw);
    /* What it has counted since the reset (the energy model). */
    const struct us_memsys_counts *(*counts)(const struct us_memsys *m);
};

extern const struct us_memsys_part us_memsys_lsu, us_memsys_port,
    us_memsys_coalesce, us_memsys_tmcu, us_memsys_cache;

/* Every part, in the order of the mem_system knob's choices;
 * NULL-terminated. */
extern const struct us_memsys_part *const us_memsys_parts[];

/* The part the configuration names. */
const struct us_memsys_part *us_memsys_part(const struct us_config *cfg);

/* The configured part's hardware (its hw callback) on *hw. */
void us_memsys_hw(const struct us_config *cfg, unsigned requesters,
                  unsigned lanes, struct us_hw *hw);

/* Add the run's memory requests and cache accesses (its counts) to *act. */
void us_memsys_activity(const struct us_memsys_part *p,
                        const struct us_memsys *m, struct us_activity *act);

/* ---- For the parts ------------------------------------------------------ */

/* The counts every part keeps. */
struct us_memsys_counts {
    uint64_t requests;      /* requests seen                             */
    uint64_t transactions;  /* what went to memory (each part says what)  */
    uint64_t stall_cycles;  /* sum of done - at - the unloaded latency    */
    uint64_t cache_accesses;  /* a cache's bank accesses and line fills  */
};

/* Register memsys.requests, .transactions, .coalescing, .stall_cycles. */
void us_memsys_report(const struct us_memsys_counts *c, struct us_stats *st);

/* A create's failure for want of memory: NULL, *diag naming the part. */
struct us_memsys *us_memsys_oom(const char *part, struct us_diag *diag);

/* Is v a power of two?  If not, false with *diag naming the part and knob. */
US_MUST_CHECK bool us_memsys_pow2(const char *part, const char *knob,
                                  unsigned v, struct us_diag *diag);

#endif
