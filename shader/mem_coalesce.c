/*
 * mem_system=coalesce: warp-level coalescing, as a GPGPU's load/store
 * unit does it (the requests of one warp instruction are seen together).
 *
 *   - one call's requests of one kind to one aligned line of mem_line
 *     bytes (in one space; the line of a request's first byte) become one
 *     transaction, which goes when its last request has arrived; an
 *     atomic is a transaction of its own (each is a read-modify-write);
 *   - a requester starts at most mem_tx_per_cycle transactions per cycle,
 *     in the order of their first request (lane order), in a queue kept
 *     across calls;
 *   - a transaction's requests are done mem_latency cycles after it
 *     starts.
 * So 32 lanes' consecutive 4-byte loads with mem_line 128 are one
 * transaction, 128-byte strided ones 32.  stall_cycles: each request's
 * done - at beyond that unloaded latency (waiting for its line's other
 * requests, or for the queue).
 */
#include <stdlib.h>

#include "shader/memsys.h"

struct queue {
    uint64_t cycle;     /* the cycle transactions are being started in */
    unsigned used;      /* transactions started in it                  */
};

struct us_memsys {
    unsigned latency, line_shift, rate, requesters;
    struct queue *q;
    struct us_memsys_counts c;
};

static void reset(struct us_memsys *m)
{
    for (unsigned i = 0; i < m->requesters; i++)
        m->q[i] = (struct queue){ 0, 0 };
    m->c = (struct us_memsys_counts){ 0 };
}

static void destroy(struct us_memsys *m)
{
    if (m)
        free(m->q);
    free(m);
}

static struct us_memsys *create(const struct us_config *cfg,
                                unsigned requesters, struct us_diag *diag)
{
    unsigned line = (unsigned)cfg->v[US_KNOB_mem_line];
    if (!us_memsys_pow2("coalesce", "mem_line", line, diag))
        return NULL;
    struct us_memsys *m = calloc(1, sizeof *m);
    if (!m)
        return us_memsys_oom("coalesce", diag);
    m->latency = (unsigned)cfg->v[US_KNOB_mem_latency];
    m->line_shift = (unsigned)__builtin_ctz(line);
    m->rate = (unsigned)cfg->v[US_KNOB_mem_tx_per_cycle];
    m->requesters = requesters ? requesters : 1;
    m->q = calloc(m->requesters, sizeof *m->q);
    if (!m->q) {
        destroy(m);
        return us_memsys_oom("coalesce", diag);
    }
    reset(m);
    return m;
}

/* The cycle a transaction ready at `at` starts in, from queue q. */
static uint64_t start(struct us_memsys *m, struct queue *q, uint64_t at)
{
    if (at > q->cycle) {
        q->cycle = at;
        q->used = 0;
    }
    if (q->used == m->rate) {
        q->cycle++;
        q->used = 0;
    }
    q->used++;
    return q->cycle;
}

static void chunk(struct us_memsys *m, struct queue *q,
                  const struct us_mem_req *req, unsigned n, uint64_t *done)
{
    /* tx[i]: the transaction request i joins, as the index of its first
     * request; ready[f]: when transaction f's last request has arrived */
    unsigned tx[US_MEMSYS_MAX_REQS];
    uint64_t ready[US_MEMSYS_MAX_REQS];
    for (unsigned i = 0; i < n; i++) {
        tx[i] = i;
        ready[i] = req[i].at;
        if (req[i].kind == US_MEM_ATOMIC)
            continue;
        for (unsigned f = 0; f < i; f++)
            if (tx[f] == f && req[f].kind == req[i].kind &&
                req[f].space == req[i].space &&
                req[f].addr >> m->line_shift == req[i].addr >> m->line_shift) {
                tx[i] = f;
                if (req[i].at > ready[f])
                    ready[f] = req[i].at;
                break;
            }
    }
    for (unsigned f = 0; f < n; f++)
        if (tx[f] == f) {
            ready[f] = start(m, q, ready[f]);   /* now: its start */
            m->c.transactions++;
        }
    for (unsigned i = 0; i < n; i++) {
        done[i] = ready[tx[i]] + m->latency;
        m->c.stall_cycles += done[i] - req[i].at - m->latency;
    }
}

static void access(struct us_memsys *m, unsigned requester,
                   const struct us_mem_req *req, unsigned n, uint64_t *done)
{
    struct queue *q = &m->q[requester % m->requesters];
    for (unsigned off = 0; off < n; off += US_MEMSYS_MAX_REQS)
        chunk(m, q, req + off,
              n - off < US_MEMSYS_MAX_REQS ? n - off : US_MEMSYS_MAX_REQS,
              done + off);
    m->c.requests += n;
}

static void stats(const struct us_memsys *m, struct us_stats *st)
{
    us_memsys_report(&m->c, st);
}

/* A load/store unit per lane (its address and data path); the
 * coalescer that merges a warp's requests is not counted. */
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

const struct us_memsys_part us_memsys_coalesce = {
    "coalesce", create, reset, access, stats, destroy, hw, counts,
};
