/*
 * mem_system=tmcu: DICE's temporal memory coalescing unit (seed 004,
 * section IV-B2 and its Algorithm 1; jiayi-wang98/dice_gpgpu-sim
 * src/gpgpu-sim/cgra_core.cc, dice_mem_request_queue::
 * do_ld_coalescing_new / do_st_coalescing_new, the path coalesce_cycle_new
 * runs).  On a CGRA the threads of a p-graph reach the load/store unit one
 * after another, so a GPGPU's coalescer, which sees a warp's requests at
 * once, does not apply; the TMCU merges them as they come:
 *
 *   - each requester has a load port (loads and atomics) and a store port
 *     (the simulator's dice_cgra_core_num_ld_ports / _st_ports, one each
 *     here); a port takes one request per cycle, the call's requests in
 *     lane order (threads are dispatched in ascending tid order), a
 *     request arriving at max(its at, the port's previous arrival + 1);
 *   - the port's coalescing buffer holds one transaction.  An arriving
 *     request compatible with it (can_coalesce: the same line of
 *     mem_line bytes -- the simulator's segment, 32 B for sm_52's sector
 *     caches -- the same kind and space, the same instruction) merges into
 *     it; an incompatible one flushes it (it goes to memory that cycle)
 *     and becomes the new buffered transaction.  In order: lanes 0 and 2
 *     on one line with lane 1 on another make three transactions;
 *   - the timeout: the buffer is flushed tmcu_timeout cycles after it
 *     opened (the simulator's counter counts the cycles the buffer is
 *     valid from 0 at its opening, merges do not reset it, and it pops
 *     when the counter reaches -dice_ldst_unit_temporal_coalescing_interval,
 *     before that cycle's arrival is looked at);
 *   - tmcu_max_cmd: a buffer that has merged that many requests is
 *     flushed at once (the bound of the simulator's older do_ld_coalescing
 *     loop, -dice_ldst_unit_temporal_coalescing_max_cmd; the RTL's
 *     tid bitmap and address map hold that many);
 *   - an atomic merges with nothing.
 * The algorithm has no flush at the end of an instruction: its last
 * buffer leaves on the timeout, or when the next instruction's first
 * request (never compatible: can_coalesce compares the e-block and the
 * load's destination registers) arrives.  A part sees one instruction at
 * a time, so it charges the timeout: the last transaction of an
 * instruction whose successor comes sooner is late by less than
 * tmcu_timeout cycles.
 * A flushed transaction's requests are done mem_latency cycles after its
 * flush; stall_cycles: done - at beyond that (arrival and buffering).
 */
#include <stdlib.h>

#include "shader/memsys.h"

struct us_memsys {
    unsigned latency, line_shift, timeout, max_cmd, requesters;
    uint64_t *next;     /* per requester and port: the next arrival slot */
    struct us_memsys_counts c;
};

static void reset(struct us_memsys *m)
{
    for (unsigned i = 0; i < 2 * m->requesters; i++)
        m->next[i] = 0;
    m->c = (struct us_memsys_counts){ 0 };
}

static void destroy(struct us_memsys *m)
{
    if (m)
        free(m->next);
    free(m);
}

static struct us_memsys *create(const struct us_config *cfg,
                                unsigned requesters, struct us_diag *diag)
{
    unsigned line = (unsigned)cfg->v[US_KNOB_mem_line];
    if (!us_memsys_pow2("tmcu", "mem_line", line, diag))
        return NULL;
    struct us_memsys *m = calloc(1, sizeof *m);
    if (!m)
        return us_memsys_oom("tmcu", diag);
    m->latency = (unsigned)cfg->v[US_KNOB_mem_latency];
    m->line_shift = (unsigned)__builtin_ctz(line);
    m->timeout = (unsigned)cfg->v[US_KNOB_tmcu_timeout];
    m->max_cmd = (unsigned)cfg->v[US_KNOB_tmcu_max_cmd];
    m->requesters = requesters ? requesters : 1;
    m->next = calloc(2 * (size_t)m->requesters, sizeof *m->next);
    if (!m->next) {
        destroy(m);
        return us_memsys_oom("tmcu", diag);
    }
    reset(m);
    return m;
}

/* One port's coalescing buffer during a call. */
struct buffer {
    bool open;
    unsigned first, count;   /* its first request (the base command)   */
    uint64_t opened;
};

static bool can_coalesce(const struct us_memsys *m, const struct us_mem_req *a,
                         const struct us_mem_req *b)
{
    return a->kind == b->kind && a->kind != US_MEM_ATOMIC &&
           a->space == b->space &&
           a->addr >> m->line_shift == b->addr >> m->line_shift;
}

static void flush(struct us_memsys *m, struct buffer *b, uint64_t at,
                  uint64_t *sent)
{
    sent[b->first] = at;
    b->open = false;
    m->c.transactions++;
}

static void chunk(struct us_memsys *m, unsigned requester,
                  const struct us_mem_req *req, unsigned n, uint64_t *done)
{
    unsigned tx[US_MEMSYS_MAX_REQS];      /* request -> its base command */
    uint64_t sent[US_MEMSYS_MAX_REQS];    /* base command -> flush cycle  */
    struct buffer buf[2] = { { 0 }, { 0 } };
    for (unsigned i = 0; i < n; i++) {
        unsigned p = req[i].kind == US_MEM_STORE;
        uint64_t *next = &m->next[2 * (requester % m->requesters) + p];
        uint64_t t = req[i].at > *next ? req[i].at : *next;
        *next = t + 1;
        struct buffer *b = &buf[p];
        if (b->open && t >= b->opened + m->timeout)
            flush(m, b, b->opened + m->timeout, sent);
        if (b->open && can_coalesce(m, &req[b->first], &req[i])) {
            tx[i] = b->first;
            if (++b->count == m->max_cmd)
                flush(m, b, t, sent);
            continue;
        }
        if (b->open)
            flush(m, b, t, sent);
        *b = (struct buffer){ true, i, 1, t };
        tx[i] = i;
        if (m->max_cmd == 1)
            flush(m, b, t, sent);
    }
    for (unsigned p = 0; p < 2; p++)
        if (buf[p].open)
            flush(m, &buf[p], buf[p].opened + m->timeout, sent);
    for (unsigned i = 0; i < n; i++) {
        done[i] = sent[tx[i]] + m->latency;
        m->c.stall_cycles += done[i] - req[i].at - m->latency;
    }
}

static void access(struct us_memsys *m, unsigned requester,
                   const struct us_mem_req *req, unsigned n, uint64_t *done)
{
    for (unsigned off = 0; off < n; off += US_MEMSYS_MAX_REQS)
        chunk(m, requester, req + off,
              n - off < US_MEMSYS_MAX_REQS ? n - off : US_MEMSYS_MAX_REQS,
              done + off);
    m->c.requests += n;
}

static void stats(const struct us_memsys *m, struct us_stats *st)
{
    us_memsys_report(&m->c, st);
}

/* A load/store unit per port: a load port and a store port per
 * requester. */
static void hw(const struct us_config *cfg, unsigned requesters,
               unsigned lanes, struct us_hw *h)
{
    (void)cfg;
    (void)lanes;
    h->lsus = 2 * requesters;
}

static const struct us_memsys_counts *counts(const struct us_memsys *m)
{
    return &m->c;
}

const struct us_memsys_part us_memsys_tmcu = {
    "tmcu", create, reset, access, stats, destroy, hw, counts,
};
