/*
 * mem_system=cache: e-GPU's shared data cache (seed 000, section III;
 * /work/shared/SIMT-NOTES.md 1.1): direct-mapped, cache_kib KiB (16),
 * cache_banks banks (2/4/8) with lines interleaved across them (line L in
 * bank L mod banks), lines of cache_line bytes (threads per CU x 4 B:
 * 8/16/32), cache_hit_latency cycles (4), outstanding misses, and a miss
 * fetching the whole line as 32-bit OBI transactions through one arbiter
 * on the output port.  The geometry is Vortex's (vortexgpgpu/vortex
 * hw/rtl/VX_config.vh: DCACHE_SIZE 16384, L1_BLOCK_SIZE NUM_THREADS * 4,
 * DNUM_BANKS NUM_THREADS, one port per bank).
 *
 *   - banks: each bank makes one access per cycle; requests reach their
 *     bank in call order (lane order), and requests of one cycle to the
 *     line the bank is accessing share that access (a CU's request gets
 *     one unified response); a request to another line waits for the next
 *     free cycle of its bank: a bank conflict (memsys.bank_conflicts);
 *   - loads and atomics: a line present (or in flight) is a hit, its data
 *     usable cache_hit_latency after the bank access, or that long after
 *     the line arrives; otherwise a miss (memsys.misses, one per line
 *     fetch): the arbiter fetches the line's cache_line / 4 words, one
 *     each cache_miss_cycles, when it is free, the frame takes the line
 *     (evicting its old one), and the data is usable cache_hit_latency
 *     after the fill.  Misses are outstanding without limit: a later
 *     request to a line in flight waits for it and fetches nothing (the
 *     MSHR's job; counted a hit);
 *   - writes: write-through, no write-allocate.  A store updates the line
 *     if present (no cycles) and writes its word through the arbiter
 *     (cache_miss_cycles): it is done when that write ends.  An atomic is a load of its line and then a written-through
 *     word.  Write-through is Vortex's at that commit (VX_config.vh has no
 *     write-back option; later Vortex defaults DCACHE_WRITEBACK to 0, its
 *     tests set VX_CFG_DCACHE_WRITEBACK=1 to try write-back); no
 *     write-allocate is assumed, the e-GPU paper does not say;
 *   - shared memory (LDS, STS, ATOMS) is not cached: a scratchpad at
 *     cache_hit_latency, without conflicts.
 * memsys.transactions counts the arbiter's 32-bit transactions (line
 * words and written words); stall_cycles: done - at beyond a hit's
 * latency (a miss's: its fill's words and the hit latency; a store's:
 * one word's cycles).  For the energy model it counts the data array's
 * accesses: each bank access (requests sharing one count it once) and
 * each line fill.  Its hardware (area): a load/store unit per lane and
 * the array, a line's data plus a tag from the 32-bit byte address (the
 * buffer binding the model keeps beside the address is not tag bits: a
 * machine has one address space) and a valid bit.
 */
#include <stdlib.h>

#include "shader/memsys.h"

struct frame {
    bool valid;
    uint64_t line;      /* (space << 32 | addr) >> line_shift */
    uint64_t fill;      /* cycle its data arrives(d)          */
};

struct bank {
    bool used;
    uint64_t last;      /* the cycle of its latest access     */
    uint64_t line;      /* the line it accessed then          */
};

struct us_memsys {
    unsigned hit, word_cycles, words, nbanks, nframes, line_shift;
    struct frame *f;
    struct bank *b;
    uint64_t arb;       /* the memory arbiter's free-at cycle */
    struct us_memsys_counts c;
    uint64_t hits, misses, conflicts;
};

static void reset(struct us_memsys *m)
{
    for (unsigned i = 0; i < m->nframes; i++)
        m->f[i] = (struct frame){ false, 0, 0 };
    for (unsigned i = 0; i < m->nbanks; i++)
        m->b[i] = (struct bank){ false, 0, 0 };
    m->arb = 0;
    m->c = (struct us_memsys_counts){ 0 };
    m->hits = m->misses = m->conflicts = 0;
}

static void destroy(struct us_memsys *m)
{
    if (m) {
        free(m->f);
        free(m->b);
    }
    free(m);
}

static struct us_memsys *create(const struct us_config *cfg,
                                unsigned requesters, struct us_diag *diag)
{
    (void)requesters;   /* one cache shared by every core */
    unsigned line = (unsigned)cfg->v[US_KNOB_cache_line];
    unsigned banks = (unsigned)cfg->v[US_KNOB_cache_banks];
    size_t bytes = (size_t)cfg->v[US_KNOB_cache_kib] * 1024;
    if (!us_memsys_pow2("cache", "cache_line", line, diag) ||
        !us_memsys_pow2("cache", "cache_banks", banks, diag))
        return NULL;
    struct us_memsys *m = calloc(1, sizeof *m);
    if (!m)
        return us_memsys_oom("cache", diag);
    m->hit = (unsigned)cfg->v[US_KNOB_cache_hit_latency];
    m->word_cycles = (unsigned)cfg->v[US_KNOB_cache_miss_cycles];
    m->words = line / 4;
    m->nbanks = banks;
    m->nframes = (unsigned)(bytes / line);
    m->line_shift = (unsigned)__builtin_ctz(line);
    m->f = calloc(m->nframes, sizeof *m->f);
    m->b = calloc(m->nbanks, sizeof *m->b);
    if (!m->f || !m->b) {
        destroy(m);
        return us_memsys_oom("cache", diag);
    }
    reset(m);
    return m;
}

/* The cycle request r's bank accesses `line` for it. */
static uint64_t bank_access(struct us_memsys *m, uint64_t line, uint64_t at)
{
    struct bank *b = &m->b[line % m->nbanks];
    if (b->used && b->line == line && b->last >= at)
        return b->last;                     /* shares that access */
    uint64_t s = at;
    if (b->used && b->last >= at) {
        s = b->last + 1;                    /* busy with another line */
        m->conflicts++;
    }
    m->c.cache_accesses++;
    *b = (struct bank){ true, s, line };
    return s;
}

/* One 32-bit write through the arbiter from cycle s; the cycle it ends. */
static uint64_t write_through(struct us_memsys *m, uint64_t s)
{
    uint64_t start = s > m->arb ? s : m->arb;
    m->arb = start + m->word_cycles;
    m->c.transactions++;
    return m->arb;
}

static uint64_t one(struct us_memsys *m, const struct us_mem_req *r)
{
    if (r->space == US_MEM_SPACE_SHARED)
        return r->at + m->hit;
    uint64_t line = ((uint64_t)r->space << 32 | r->addr) >> m->line_shift;
    uint64_t s = bank_access(m, line, r->at);
    struct frame *f = &m->f[line % m->nframes];
    if (r->kind == US_MEM_STORE) {
        uint64_t done = write_through(m, s);
        m->c.stall_cycles += done - r->at - m->word_cycles;
        return done;
    }
    uint64_t done, unloaded = m->hit;
    if (f->valid && f->line == line) {
        m->hits++;
        done = (s > f->fill ? s : f->fill) + m->hit;
    } else {
        m->misses++;
        uint64_t start = s > m->arb ? s : m->arb;
        uint64_t fetch = (uint64_t)m->words * m->word_cycles;
        *f = (struct frame){ true, line, start + fetch };
        m->arb = f->fill;
        m->c.transactions += m->words;
        m->c.cache_accesses++;              /* the fill writes the line */
        done = f->fill + m->hit;
        unloaded += fetch;
    }
    if (r->kind == US_MEM_ATOMIC)
        write_through(m, done);
    m->c.stall_cycles += done - r->at - unloaded;
    return done;
}

static void access(struct us_memsys *m, unsigned requester,
                   const struct us_mem_req *req, unsigned n, uint64_t *done)
{
    (void)requester;
    for (unsigned i = 0; i < n; i++)
        done[i] = one(m, &req[i]);
    m->c.requests += n;
}

static void stats(const struct us_memsys *m, struct us_stats *st)
{
    us_memsys_report(&m->c, st);
    us_stats_counter(st, "memsys.hits",
                     "cached loads and atomics whose line was present or "
                     "in flight", (double)m->hits);
    us_stats_counter(st, "memsys.misses",
                     "cached loads and atomics that fetched their line",
                     (double)m->misses);
    us_stats_formula(st, "memsys.hit_rate", "hits per cached load or atomic",
                     "memsys.hits / (memsys.hits + memsys.misses)");
    us_stats_counter(st, "memsys.bank_conflicts",
                     "requests that waited for their bank (another line "
                     "in the same cycle)", (double)m->conflicts);
    us_stats_counter(st, "memsys.cache_accesses",
                     "data-array accesses: bank accesses (requests sharing "
                     "one count once) and line fills", (double)m->c.cache_accesses);
}

static unsigned log2u(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static void hw(const struct us_config *cfg, unsigned requesters,
               unsigned lanes, struct us_hw *h)
{
    (void)requesters;
    uint64_t line = (uint64_t)cfg->v[US_KNOB_cache_line];
    uint64_t lines = (uint64_t)cfg->v[US_KNOB_cache_kib] * 1024 / line;
    unsigned index = log2u(lines), offset = log2u(line);
    unsigned tag = index + offset < 32 ? 32 - index - offset : 0;
    h->lsus = lanes;
    h->cache_lines = lines;
    h->cache_line_bits = (unsigned)line * 8 + tag + 1;
    h->cache_banks = (unsigned)cfg->v[US_KNOB_cache_banks];
}

static const struct us_memsys_counts *counts(const struct us_memsys *m)
{
    return &m->c;
}

const struct us_memsys_part us_memsys_cache = {
    "cache", create, reset, access, stats, destroy, hw, counts,
};
