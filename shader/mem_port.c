/*
 * mem_system=port: a memory port per requester (core) shared by its
 * lanes, as kGPU's memorycontroller.sv (one request at a time, lowest
 * index first, IDLE -> WAIT -> DONE) and the FPGA fork's lsu_arbiter.sv
 * (reads served continuously, lowest lane first, 3 cycles each: address,
 * BRAM wait, ready pulse) have it (/work/shared/SIMT-NOTES.md 1.2, 1.3).
 *
 *   - a port serves one request per mem_port_cycles cycles; whenever it
 *     is free it takes, among the requests of the call that have arrived,
 *     the lowest lane's (an idle port waits for the next arrival), and
 *     the request is done when its cycles end: 8 loads at cycle 0 and 3
 *     cycles each complete at 3, 6, ..., 24;
 *   - mem_port_split: stores go through a port of their own (the fork's
 *     lsu_write_arbiter.sv), in parallel with loads and atomics;
 *   - mem_ports = N > 0: instead, N channels shared by every requester
 *     (upstream tiny-gpu's controller.sv: 4 data channels for 8 LSUs); a
 *     request takes the channel that frees first (the lowest on a tie).
 *     tiny-gpu picks the lowest consumer among those waiting; calls come
 *     in the order the model issues (a model visits its cores in index
 *     order), and requests of a later call queue behind an earlier one's.
 * A transaction is a request; stall_cycles counts each request's wait for
 * its port.
 */
#include <stdlib.h>

#include "shader/memsys.h"

struct us_memsys {
    unsigned cycles, requesters, classes, shared;
    uint64_t *free;     /* ports' free-at cycles, class-major when shared */
    struct us_memsys_counts c;
};

static void reset(struct us_memsys *m)
{
    unsigned n = m->shared ? m->shared * m->classes
                           : m->requesters * m->classes;
    for (unsigned i = 0; i < n; i++)
        m->free[i] = 0;
    m->c = (struct us_memsys_counts){ 0 };
}

static void destroy(struct us_memsys *m)
{
    if (m)
        free(m->free);
    free(m);
}

static struct us_memsys *create(const struct us_config *cfg,
                                unsigned requesters, struct us_diag *diag)
{
    struct us_memsys *m = calloc(1, sizeof *m);
    if (!m)
        return us_memsys_oom("port", diag);
    m->cycles = (unsigned)cfg->v[US_KNOB_mem_port_cycles];
    m->requesters = requesters ? requesters : 1;
    m->classes = cfg->v[US_KNOB_mem_port_split] ? 2 : 1;
    m->shared = (unsigned)cfg->v[US_KNOB_mem_ports];
    size_t n = (size_t)(m->shared ? m->shared : m->requesters) * m->classes;
    m->free = calloc(n, sizeof *m->free);
    if (!m->free) {
        destroy(m);
        return us_memsys_oom("port", diag);
    }
    reset(m);
    return m;
}

/* The port class of a request: 1 (the write port) for a store when the
 * ports are split. */
static unsigned req_class(const struct us_memsys *m, const struct us_mem_req *r)
{
    return m->classes == 2 && r->kind == US_MEM_STORE;
}

/* Serve the requests of class cl on ports[0 .. np). */
static void serve(struct us_memsys *m, uint64_t *ports, unsigned np,
                  unsigned cl, const struct us_mem_req *req, unsigned n,
                  uint64_t *done)
{
    bool waiting[US_MEMSYS_MAX_REQS];
    unsigned left = 0;
    for (unsigned i = 0; i < n; i++) {
        waiting[i] = req_class(m, &req[i]) == cl;
        left += waiting[i];
    }
    while (left) {
        unsigned p = 0;                       /* the port free first */
        for (unsigned k = 1; k < np; k++)
            if (ports[k] < ports[p])
                p = k;
        uint64_t first = UINT64_MAX;          /* the next arrival */
        for (unsigned i = 0; i < n; i++)
            if (waiting[i] && req[i].at < first)
                first = req[i].at;
        uint64_t t = ports[p] > first ? ports[p] : first;
        int pick = -1;                        /* lowest lane arrived by t */
        for (unsigned i = 0; i < n; i++)
            if (waiting[i] && req[i].at <= t &&
                (pick < 0 || req[i].lane < req[pick].lane))
                pick = (int)i;
        waiting[pick] = false;
        left--;
        done[pick] = t + m->cycles;
        ports[p] = done[pick];
        m->c.stall_cycles += t - req[pick].at;
    }
}

static void access(struct us_memsys *m, unsigned requester,
                   const struct us_mem_req *req, unsigned n, uint64_t *done)
{
    for (unsigned off = 0; off < n; off += US_MEMSYS_MAX_REQS) {
        unsigned k = n - off < US_MEMSYS_MAX_REQS ? n - off
                                                  : US_MEMSYS_MAX_REQS;
        for (unsigned cl = 0; cl < m->classes; cl++) {
            uint64_t *ports = m->shared
                ? &m->free[cl * m->shared]
                : &m->free[(requester % m->requesters) * m->classes + cl];
            serve(m, ports, m->shared ? m->shared : 1, cl, req + off, k,
                  done + off);
        }
    }
    m->c.requests += n;
    m->c.transactions += n;
}

static void stats(const struct us_memsys *m, struct us_stats *st)
{
    us_memsys_report(&m->c, st);
}

/* A load/store unit per port: one per requester, or the mem_ports
 * shared channels; mem_port_split doubles them (a write port each). */
static void hw(const struct us_config *cfg, unsigned requesters,
               unsigned lanes, struct us_hw *h)
{
    (void)lanes;
    unsigned shared = (unsigned)cfg->v[US_KNOB_mem_ports];
    unsigned ports = shared ? shared : requesters;
    h->lsus = ports * (cfg->v[US_KNOB_mem_port_split] ? 2 : 1);
}

static const struct us_memsys_counts *counts(const struct us_memsys *m)
{
    return &m->c;
}

const struct us_memsys_part us_memsys_port = {
    "port", create, reset, access, stats, destroy, hw, counts,
};
