/*
 * The scalar-SP core (SPEC 1, the design under study): alu_lanes scalar
 * SPs, each keeping threads_per_proc threads in flight and issuing at most
 * one scalar instruction per cycle from the thread the `sched` policy
 * picks among the ready ones.
 *
 * Timing rules (cycle c = the issue cycle):
 *   - a compacted instruction issues once and occupies the SP datapath for
 *     `count` cycles, repetition k in cycle c + k (one component per cycle:
 *     variable latency 1-4); its result of repetition k is usable at
 *     c + k + alu_latency.  A repetition that reads what an earlier one of
 *     the same instruction wrote (the DOT accumulator, aliasing moves) is
 *     forwarded in place;
 *   - a source read by repetition k must be usable by c + k (scoreboard
 *     over scalar registers, shader/timing.h), and a destination's older
 *     pending write must be done by then (WAW);
 *   - TEX occupies one cycle; its components are usable at c + tex_latency;
 *   - SFU, per the `sfu` knob:
 *       partial  the SP's own multiply-add runs us_sfu_passes passes after
 *                the coefficient lookup (the shared LUT, shader/lut.c,
 *                issued at c and needed at c + lookahead: a conflict the
 *                lookahead does not hide delays the passes); the datapath
 *                is busy for stall + passes + count - 1 cycles and
 *                repetition k is usable at
 *                c + stall + passes - 1 + k + alu_latency;
 *       full     a private pipelined SFU: count cycles of issue, results at
 *                c + k + sfu_latency;
 *       pool     the same with sfu_pool SFUs shared by all SPs: at most
 *                sfu_pool SFU instructions start per cycle (SPs asked in an
 *                order rotating each cycle); a refused SP stalls (sfu);
 *   - fetch: each SP fetches fetch_width words per cycle into per-thread
 *     buffers of FBUF_WORDS words (the thread with the fewest buffered
 *     words first, in the scheduler's round-robin order); a word fetched
 *     in cycle c can issue from c + 1 (a fetch stage before issue, so
 *     every SP's first cycle is a fetch stall).  Compacted code needs one word
 *     per up to four cycles of work; uncompacted code one per cycle, so a
 *     thread switch can find its buffer empty (stalls.fetch).
 *   - a thread retires at the first cycle at which it has issued
 *     everything and all its results are usable; its slot takes the next
 *     thread in that cycle.  `cycles` is the cycle of the last retirement
 *     (so k dependent single-component MULs on one thread take
 *     k * alu_latency cycles).
 * A cycle in which a free SP with threads issues nothing counts one stall,
 * charged to the cause blocking the first thread the policy tried.
 *
 * Flow control (shader/flow.c, the scalar words of isa/scalar.h):
 *   - independent SPs (lockstep 0 or 1, the default): every thread has its
 *     own one-lane sequencer (struct us_flow_state over the code's
 *     us_flow), so each thread of an SP follows its own path.  Fetch is
 *     unchanged: the SP fetches for each thread, from the one instruction
 *     memory the threads share, into that thread's buffer, so threads on
 *     different paths cost only their own words; a taken branch (the
 *     thread's next pc is not pc + 1) empties its buffer, and the target's
 *     words are fetched again.  A flow word takes the SP's issue slot for
 *     one cycle and no datapath work;
 *   - lockstep = L > 1: SPs gL .. gL+L-1 share one sequencer.  Slot j of
 *     each is lane i of warp j: one pc, one fetch buffer (fetch_width
 *     words per cycle for the group, counted once per warp), one active
 *     mask and reconvergence stack.  The group issues a warp's word when
 *     every active lane's registers are ready and the group's datapaths
 *     are free; each active lane runs it on its SP as above, masked lanes
 *     sit idle for as long as the word occupies the others
 *     (masked_lane_slots); an IF or BRA whose active lanes disagree counts a
 *     divergent branch.  A warp's lanes retire one by one, and the warp
 *     takes new threads only when all have (they share one pc).  With
 *     sfu=pool a warp could need more SFUs than the pool has in one
 *     cycle, so lockstep needs sfu=partial or full.  A group without an
 *     issue counts a stall (or idle) per SP, as independent SPs do.
 *
 * Compute (docs/COMPUTE.md; a workload with workgroups):
 *   - memory words go to the SP's load/store unit, one request per
 *     repetition (a component's access) per cycle, like the datapath's
 *     repetitions: a word of count k occupies the SP k cycles and
 *     repetition j's loaded (or atomic's old) value is usable at
 *     c + j + mem_latency; a store's needs nothing afterwards.  Accesses
 *     take effect at issue (no memory system is modelled); a thread
 *     waiting for a load's result stalls on `memory`;
 *   - BAR and MEMBAR take the issue slot for one cycle and no datapath
 *     work; after its BAR a thread is not ready until its workgroup's
 *     barrier releases (shader/workgroup.h: the cycle after the last
 *     thread's BAR or end), a slot so blocked stalls on `barrier`;
 *   - workgroups start whole: when enough slots are free (in the order
 *     threads go round the SPs: slot j of every SP, then slot j + 1), the
 *     next workgroup's threads take them in one cycle; with lockstep they
 *     take whole warps (a warp never mixes two workgroups), and a warp
 *     that issues BAR with live lanes masked off by flow control fails
 *     the run.  A watchdog (shader/timing.h) fails a run in which nothing
 *     issues or retires for far longer than any latency.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "shader/lut.h"
#include "shader/memsys.h"
#include "shader/timing.h"
#include "shader/workgroup.h"

enum { FBUF_WORDS = 2, MAX_READS = 16, MAX_WRITES = 4 };

/* One scalar instruction, digested at create time. */
struct sinfo {
    uint8_t kind, unit, count, nsrc;
    uint8_t nreads, nwrites;
    uint8_t span;      /* cycles from the first repetition to the last + 1 */
    uint8_t off[4];    /* each repetition's cycle offset from issue       */
    uint8_t rf_reads;  /* register-file reads (PARAM and IMM are constant
                          stores, not the register file: as us_sched_item) */
    /* registers read and written, with the cycle offset (from issue) of
     * the first repetition that reads / the repetition that writes */
    struct { uint16_t key, x; uint8_t k; } rd[MAX_READS];
    struct { uint16_t key, x; uint8_t k; } wr[MAX_WRITES];  /* x: the key's
                                          scoreboard entry (number_regs) */
    /* what gates the issue, the reads then the writes (number_regs):
     * entry gate_x[i] must be usable by issue + gate_k[i] */
    uint8_t ngate;
    uint8_t gate_k[MAX_READS + MAX_WRITES];
    uint16_t gate_x[MAX_READS + MAX_WRITES];
    /* the datapath's busy cycles and each write's usable cycle, from
     * issue, but for an SFU word's LUT stall (exec_inst adds it) */
    uint8_t busy;
    unsigned at[MAX_WRITES];
    int8_t func;       /* enum us_sfu_func, -1: POW-like (LG2 then EX2) */
    bool lit;          /* LITZ: POW of LIT's clamped operands           */
    unsigned passes;   /* partial SFU datapath passes                   */
    struct us_opcount w;  /* the vec4 work it carries (us_scode vbegin)  */
};

/* A thread slot's large state, apart from the fields read every cycle
 * (so scanning the slots stays in cache). */
struct slot_regs {
    float scratch[US_SCRATCH_REGS];
    struct us_flow_state fs;       /* the thread's own sequencer (pc
                                      mirrored in slot.pc)               */
    /* The scoreboard over the registers the code names, numbered densely
     * (sinfo's x; us_scoreboard's ready[] spans every register a program
     * could name, kilobytes per slot): the cycle each value is usable and
     * the unit whose result it awaits. */
    uint64_t *ready;
    uint8_t *producer;
};

struct slot {
    bool active;
    uint8_t done_unit;             /* unit of the result done_at waits for */
    int wg;                        /* workgroup entry, -1: graphics       */
    unsigned tid, pc, fbuf;
    struct us_thread *t;           /* thread tid's record (the stream's
                                      window keeps it while in flight)   */
    uint64_t start, done_at;
    uint64_t ready_at;             /* first cycle word pc's registers allow
                                      its issue (slot_arm)               */
    struct slot_regs *r;
    struct sp *sp;                 /* the SP it belongs to, */
    unsigned idx;                  /* as its slot idx */
};

struct sp {
    uint64_t free_at;
    /* slots fetch can fill (active, buffer not full, words left), by the
     * words they hold: want[f] bit j for slot j holding f (want_update) */
    uint64_t want[FBUF_WORDS];
    struct us_tsched sched;
    struct slot *slot;
    struct us_lut *lut;            /* the LUT this SP reads */
};

/* lockstep: slot j of the SPs of a group is one warp of threads with one
 * instruction stream (pc, fetch buffer) and one flow-control mask; lane i
 * of the warp is the group's SP i. */
struct warp {
    struct us_flow_state fs;
    unsigned fbuf;
    uint32_t present;              /* lanes whose thread has not retired */
};

struct group {
    unsigned first, n;             /* SPs first .. first + n - 1         */
    uint64_t free_at;              /* the issuing lanes' datapaths busy  */
    struct us_tsched sched;
    struct warp *warp;             /* nslots                             */
};

/* A thread's memory word waiting for its requests' completion times:
 * requests first .. first + n - 1 of the core's batch. */
struct mem_wait {
    struct slot *sl;
    const struct sinfo *s;
    unsigned first, n;
};

struct us_core {
    struct us_config cfg;
    const struct us_workload *w;
    struct us_exec_env env;        /* *w->env, noting accesses in trace */
    struct us_mem_trace trace;
    const struct us_memsys_part *mp;
    struct us_memsys *mem;
    /* the memory words of one issue (a thread's, or a lockstep warp's
     * lanes'), handed to the memory system together */
    struct us_mem_req req[US_MEMSYS_MAX_REQS];
    uint64_t req_done[US_MEMSYS_MAX_REQS];
    struct mem_wait wait[32];
    unsigned nreq, nwait;
    struct us_scode code;
    struct sinfo *info;
    struct us_sprep *prep;         /* each word's operands, resolved    */
    uint64_t *execs;               /* each word's executions (lanes that
                                      ran it): the counts every execution
                                      adds alike, summed at stats        */
    struct us_sfu sfu;
    bool have_sfu;
    unsigned nsp, nslots, nluts;
    struct sp *sp;
    struct slot_regs *regs;
    unsigned nsb;                  /* scoreboard entries per slot       */
    uint64_t *sb_ready;            /* nsp x nslots x nsb                 */
    uint8_t *sb_producer;
    struct us_lut *luts;
    struct us_tqueue queue;
    unsigned lockstep;             /* SPs per lockstep group; 0: none   */
    unsigned ngroups;
    struct group *groups;
    struct warp *warps;            /* ngroups * nslots                  */
    uint64_t now;
    /* configuration read every cycle, looked up once */
    unsigned word_bits;            /* the compaction form's words       */
    unsigned fetch_width, sfu_mode, sfu_pool;
    unsigned lat[US_UNIT_COUNT];   /* us_unit_latency by unit           */
    unsigned pool_used;            /* pool SFUs started this cycle */
    unsigned nactive;              /* slots holding a thread */
    uint64_t *drain;               /* bit i * nslots + j: slot j of SP i
                                      has issued everything (its thread
                                      retires once done_at is reached)   */
    uint64_t next_retire;          /* earliest done_at of a thread that has
                                      issued everything */
    bool finished;
    struct us_tcounts c;
    struct us_activity act;
    struct us_wgs wgs;             /* a compute launch's workgroups     */
    struct us_watchdog dog;
    bool failed;                   /* the run cannot go on: `why`       */
    struct us_diag why;
};

static unsigned drain_words(const struct us_core *core)
{
    return (core->nsp * core->nslots + 63) / 64;
}

/* Slot sl's place in its SP's fetch masks, after its thread, pc or buffer
 * changed. */
static void want_update(const struct us_core *core, struct slot *sl)
{
    struct sp *p = sl->sp;
    uint64_t bit = 1ull << sl->idx;
    for (unsigned f = 0; f < FBUF_WORDS; f++)
        p->want[f] &= ~bit;
    if (sl->active && sl->fbuf < FBUF_WORDS &&
        sl->pc + sl->fbuf < core->code.n)
        p->want[sl->fbuf] |= bit;
}

/* Slot sl's ready_at, and its drain bit, after its pc or scoreboard
 * changed (now): the scoreboard is the slot's own, written only by its
 * own issues, so until its next issue the registers of word pc block it
 * exactly in the cycles before ready_at (regs_blocked). */
static inline __attribute__((always_inline)) void
slot_arm(const struct us_core *core, struct slot *sl)
{
    unsigned at = sl->idx + (unsigned)(sl->sp - core->sp) * core->nslots;
    uint64_t bit = 1ull << (at & 63);
    core->drain[at >> 6] &= ~bit;
    sl->ready_at = 0;
    if (sl->pc >= core->code.n) {
        core->drain[at >> 6] |= sl->active ? bit : 0;
        return;
    }
    const struct sinfo *s = &core->info[sl->pc];
    const uint64_t *ready = sl->r->ready;
    /* a local: ready[] could alias sl->ready_at; from now, the cycle of
     * every later test, so that the values usable already (most) leave
     * it be */
    uint64_t at_least = core->now;
    for (unsigned i = 0; i < s->ngate; i++) {
        uint64_t r = ready[s->gate_x[i]];
        if (r > at_least + s->gate_k[i])
            at_least = r - s->gate_k[i];
    }
    sl->ready_at = at_least;
}

static void add_read(struct sinfo *s, unsigned file, unsigned reg, unsigned k)
{
    unsigned key = us_sb_key(file, reg);
    if (us_sb_index(key) < 0)
        return;
    for (unsigned i = 0; i < s->nwrites; i++)
        if (s->wr[i].key == key && s->wr[i].k < k)
            return;  /* written by an earlier repetition: forwarded */
    for (unsigned i = 0; i < s->nreads; i++)
        if (s->rd[i].key == key)
            return;  /* an earlier repetition already waits for it */
    if (s->nreads < MAX_READS) {
        s->rd[s->nreads].key = (uint16_t)key;
        s->rd[s->nreads].x = (uint16_t)us_sb_index(key);
        s->rd[s->nreads].k = (uint8_t)k;
        s->nreads++;
    }
}

static void add_write(struct sinfo *s, unsigned file, unsigned reg, unsigned k)
{
    unsigned key = us_sb_key(file, reg);
    if (us_sb_index(key) < 0 || s->nwrites == MAX_WRITES)
        return;
    s->wr[s->nwrites].key = (uint16_t)key;
    s->wr[s->nwrites].x = (uint16_t)us_sb_index(key);
    s->wr[s->nwrites].k = (uint8_t)k;
    s->nwrites++;
}

/* Cycle offset of each repetition from the issue cycle: k, unless a
 * repetition reads what an earlier one of the same instruction wrote
 * (MUL[3] r0.x+0, r0.x+0, r0.x+0: isa/compact.c never forms such a chain,
 * but the ISA can express it); it then waits for that result like any
 * other.  The DOT accumulator is the
 * exception: the multiply-add accumulates in place. */
static void rep_offsets(const struct us_sinst *in, unsigned lat,
                        unsigned off[4])
{
    const struct us_sopinfo *o = &us_sops[in->op];
    bool chained = (o->kind == US_SK_VAL && o->unit == US_UNIT_ALU) ||
                   o->kind == US_SK_INT || o->kind == US_SK_MEM;
    for (unsigned k = 0; k < in->count; k++) {
        off[k] = k ? off[k - 1] + 1 : 0;
        if (!chained)
            continue;
        for (unsigned j = 0; j < k; j++) {
            unsigned w = us_sopnd_reg(&in->dst, j);
            for (unsigned i = 0; i < o->nsrc; i++)
                if (in->src[i].file == in->dst.file &&
                    us_sopnd_reg(&in->src[i], k) == w &&
                    off[j] + lat > off[k])
                    off[k] = off[j] + lat;
        }
    }
}

static void digest(const struct us_sinst *in, const struct us_config *cfg,
                   struct sinfo *s)
{
    const struct us_sopinfo *o = &us_sops[in->op];
    const struct us_sfu_config *sfu = &cfg->sfu;
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)o->kind;
    s->unit = (uint8_t)o->unit;
    s->count = in->count;
    s->nsrc = o->nsrc;
    s->func = -1;
    unsigned off[4];
    rep_offsets(in, us_unit_latency(cfg, o->unit), off);
    s->span = (uint8_t)(off[in->count - 1] + 1);
    for (unsigned k = 0; k < in->count; k++)
        s->off[k] = (uint8_t)off[k];
    /* SFU and TEX read their sources once, at repetition 0. */
    bool once = o->unit == US_UNIT_SFU || o->kind == US_SK_TEX;
    for (unsigned k = 0; k < in->count; k++) {
        if (!once || k == 0)
            for (unsigned i = 0; i < o->nsrc; i++) {
                unsigned reads = o->kind == US_SK_TEX ? 4 : 1;
                unsigned f = in->src[i].file;
                if (f != US_FILE_NULL && f != US_FILE_PARAM && f != US_FILE_IMM)
                    s->rf_reads = (uint8_t)(s->rf_reads + reads);
                for (unsigned j = 0; j < reads; j++)
                    add_read(s, in->src[i].file,
                             us_sopnd_reg(&in->src[i],
                                          o->kind == US_SK_TEX ? j : k),
                             off[k]);
            }
        if (o->kind == US_SK_LDR)
            add_read(s, US_FILE_ADDRESS, 4u * in->rel_addr, off[k]);
        if (o->kind != US_SK_KIL && o->kind != US_SK_NOP &&
            o->kind != US_SK_FLOW && o->kind != US_SK_BAR)
            add_write(s, in->dst.file, us_sopnd_reg(&in->dst, k), off[k]);
    }
    if (o->unit == US_UNIT_SFU) {
        char name[16];
        size_t n = strlen(o->name);
        for (size_t i = 0; i <= n && i < sizeof name; i++)
            name[i] = (char)tolower((unsigned char)o->name[i]);
        enum us_sfu_func f;
        if (n < sizeof name && us_sfu_func_lookup(name, &f)) {
            s->func = (int8_t)f;
            s->passes = us_sfu_passes(sfu, f);
        } else {
            s->lit = o->from == US_OP_LIT;
            s->passes = us_sfu_pow_passes(sfu);
        }
    }
    /* The timing rules of the header: an SFU's results per the `sfu`
     * knob, TEX and flow words one issue cycle, the datapath or LSU a
     * cycle per repetition with the bubbles between them. */
    unsigned first = 0, lat = us_unit_latency(cfg, o->unit);
    s->busy = s->span;
    if (o->unit == US_UNIT_SFU) {
        if (cfg->v[US_KNOB_sfu] == 0) {   /* partial: the SP's datapath */
            first = s->passes - 1;
            s->busy = (uint8_t)(first + in->count);
            lat = (unsigned)cfg->v[US_KNOB_alu_latency];
        } else {                          /* a full SFU */
            s->busy = in->count;
            lat = (unsigned)cfg->v[US_KNOB_sfu_latency];
        }
    } else if (o->kind == US_SK_TEX) {
        s->busy = 1;
        lat = (unsigned)cfg->v[US_KNOB_tex_latency];
    } else if (o->kind == US_SK_FLOW || o->kind == US_SK_BAR) {
        s->busy = 1;   /* an issue slot; the sequencer, not the datapath */
    }
    for (unsigned i = 0; i < s->nwrites; i++)
        s->at[i] = o->kind == US_SK_TEX ? lat : first + s->wr[i].k + lat;
}

/* Number the scoreboard registers the n words read or write densely, in
 * order of first appearance, rewriting their x; returns how many. */
static unsigned number_regs(struct sinfo *info, unsigned n)
{
    int16_t entry[US_SB_REGS];
    unsigned m = 0;
    memset(entry, 0xff, sizeof entry);   /* -1: not named yet */
    for (unsigned i = 0; i < n; i++) {
        struct sinfo *s = &info[i];
        for (unsigned r = 0; r < s->nreads + s->nwrites; r++) {
            uint16_t *x = r < s->nreads ? &s->rd[r].x
                                        : &s->wr[r - s->nreads].x;
            if (entry[*x] < 0)
                entry[*x] = (int16_t)m++;
            *x = (uint16_t)entry[*x];
            s->gate_x[r] = *x;
            s->gate_k[r] = r < s->nreads ? s->rd[r].k
                                         : s->wr[r - s->nreads].k;
        }
        s->ngate = (uint8_t)(s->nreads + s->nwrites);
    }
    return m;
}

/* Value of source operand `o` at repetition 0, with its modifiers. */
static float read_src(const struct us_core *core, const struct slot *sl,
                      const struct us_sopnd *o)
{
    const struct us_thread *t = sl->t;
    unsigned r = o->reg;
    float v = 0.0f;
    switch (o->file) {
    case US_FILE_TEMP: v = t->temp[r >> 2][r & 3]; break;
    case US_FILE_INPUT: v = t->input[r >> 2][r & 3]; break;
    case US_FILE_OUTPUT: v = t->output[r >> 2][r & 3]; break;
    case US_FILE_PARAM: v = core->w->env->params[r >> 2][r & 3]; break;
    case US_FILE_IMM: v = us_imm_rom[r % US_IMM_REGS]; break;
    case US_FILE_SCRATCH: v = sl->r->scratch[r % US_SCRATCH_REGS]; break;
    default: break;
    }
    if (o->abs)
        v = v < 0.0f ? -v : v;
    return o->neg ? -v : v;
}

/* Ask the LUT for the entry `f` reads at x; returns the stall cycles. */
static unsigned lookup(struct us_core *core, struct sp *p, enum us_sfu_func f,
                       float x, unsigned slack)
{
    enum us_sfu_table t;
    unsigned seg;
    if (!us_sfu_segment(&core->sfu, f, x, &t, &seg))
        return 0;  /* a special-case path: no table read */
    return us_lut_request(p->lut, core->now, t, seg, slack);
}

/* The LUT lookups of an SFU instruction issued now; returns the stall. */
static unsigned sfu_lookups(struct us_core *core, struct sp *p,
                            const struct slot *sl, const struct us_sinst *in,
                            const struct sinfo *s)
{
    if (s->func >= 0)
        return lookup(core, p, (enum us_sfu_func)s->func,
                      read_src(core, sl, &in->src[0]), 0);
    float base, e;
    if (s->lit) {  /* micro_lit_z: pow(max(y, 0), clamp(w)) when x > 0 */
        float x = read_src(core, sl, &in->src[0]);
        float y = read_src(core, sl, &in->src[1]);
        float w = read_src(core, sl, &in->src[2]);
        if (!(x > 0.0f))
            return 0;
        base = y > 0.0f ? y : 0.0f;
        e = w < -128.0f ? -128.0f : w > 128.0f ? 128.0f : w;
        if (base == 0.0f && e == 0.0f)
            return 0;
    } else {
        base = read_src(core, sl, &in->src[0]);
        e = read_src(core, sl, &in->src[1]);
    }
    unsigned st = lookup(core, p, US_SFU_LG2, base, 0);
    float arg = e * us_sfu_eval(&core->sfu, US_SFU_LG2, base);
    /* The EX2 entry is needed after the LG2 passes and the multiply. */
    unsigned slack = us_sfu_passes(&core->cfg.sfu, US_SFU_LG2) + 1;
    unsigned st2 = lookup(core, p, US_SFU_EX2, arg, slack);
    return st > st2 ? st : st2;
}

/* Slot sl takes thread tid (of workgroup entry wg, or -1). */
static void begin_thread(struct us_core *core, struct slot *sl, unsigned tid,
                         int wg)
{
    core->nactive += !sl->active;
    sl->active = true;
    if (core->code.n == 0)
        core->next_retire = core->now;  /* nothing to issue */
    sl->tid = tid;
    sl->wg = wg;
    sl->t = us_workload_start(core->w, tid);
    sl->t->overrun = false;
    sl->pc = 0;
    us_flow_start(&sl->r->fs, 1, core->w->env->max_insts);
    sl->fbuf = 0;
    want_update(core, sl);
    sl->start = core->now;
    sl->done_at = core->now;
    sl->done_unit = US_UNIT_ALU;
    slot_arm(core, sl);
    memset(sl->r->scratch, 0, sizeof sl->r->scratch);
    /* The scoreboard is not cleared: the previous thread retired only once
     * every result it wrote was usable, so each entry is <= now already
     * (reset clears them, as time restarts at 0). */
    if (wg >= 0) {
        us_wgs_place(&core->wgs, wg, sl->t);
        if (core->code.n == 0)   /* finished before it starts */
            us_wgs_finish(&core->wgs, wg, tid, sl->t, core->now);
    }
}

/* Graphics: the slot takes the next thread of the queue, or empties. */
static void start_thread(struct us_core *core, struct slot *sl)
{
    unsigned tid;
    if (us_tqueue_take(&core->queue, &tid)) {
        begin_thread(core, sl, tid, -1);
    } else {
        core->nactive -= sl->active;
        sl->active = false;
        want_update(core, sl);
    }
}

/* The register that blocks the thread of slot sl now (before ready_at):
 * the first read, then write, not yet usable names the cause. */
static enum us_stall regs_cause(const struct us_core *core,
                                const struct slot *sl)
{
    const struct sinfo *s = &core->info[sl->pc];
    for (unsigned i = 0; i < s->ngate; i++) {
        unsigned x = s->gate_x[i];
        if (sl->r->ready[x] > core->now + s->gate_k[i])
            return us_unit_stall(sl->r->producer[x]);
    }
    return US_STALL_COUNT;   /* not reached: ready_at > now */
}

/* Can the thread of slot sl issue instruction sl->pc now, registers and
 * SFU pool considered? */
static inline enum us_stall regs_blocked(const struct us_core *core,
                                         const struct slot *sl)
{
    if (sl->ready_at > core->now)
        return regs_cause(core, sl);
    if (core->info[sl->pc].unit == US_UNIT_SFU && core->sfu_mode == 2 &&
        core->pool_used >= core->sfu_pool)
        return US_STALL_SFU;
    return US_STALL_COUNT;
}

/* At a barrier its workgroup has not released? */
static inline bool at_barrier(const struct us_core *core,
                              const struct slot *sl)
{
    return sl->wg >= 0 &&
           us_wgs_waiting(&core->wgs, sl->wg, sl->tid, core->now);
}

static enum us_stall blocked(const struct us_core *core, const struct slot *sl)
{
    if (!sl->active || sl->pc >= core->code.n)
        return us_unit_stall(sl->done_unit);  /* draining: results pending */
    if (at_barrier(core, sl))
        return US_STALL_BARRIER;
    if (sl->fbuf == 0)
        return US_STALL_FETCH;
    return regs_blocked(core, sl);
}

struct pick_ctx {
    const struct us_core *core;
    const struct sp *p;
    enum us_stall cause;   /* of the first slot tried with work left */
    bool have_cause, cause_work;
};

/* blocked(core, sl) == US_STALL_COUNT, without naming a cause. */
static inline __attribute__((always_inline)) bool
slot_free(const struct us_core *core, const struct slot *sl)
{
    return sl->active && sl->pc < core->code.n && sl->fbuf &&
           sl->ready_at <= core->now && !at_barrier(core, sl) &&
           !(core->sfu_mode == 2 && core->pool_used >= core->sfu_pool &&
             core->info[sl->pc].unit == US_UNIT_SFU);
}

static inline __attribute__((always_inline)) bool
slot_can_issue(struct pick_ctx *pc, unsigned i)
{
    const struct slot *sl = &pc->p->slot[i];
    if (slot_free(pc->core, sl))
        return true;
    /* The first slot with work left names the cause; else the first
     * draining one (the cause is looked for only then). */
    bool work = sl->active && sl->pc < pc->core->code.n;
    if (sl->active && (!pc->have_cause || (work && !pc->cause_work))) {
        pc->cause = blocked(pc->core, sl);
        pc->have_cause = true;
        pc->cause_work = work;
    }
    return false;
}

static bool slot_ready(void *ctx, unsigned i)
{
    return slot_can_issue(ctx, i);
}

static uint64_t slot_age(void *ctx, unsigned i)
{
    const struct pick_ctx *pc = ctx;
    const struct slot *sl = &pc->p->slot[i];
    return sl->active ? sl->tid : UINT64_MAX - pc->core->nslots + i;
}

/* us_tsched_pick over the slots, its round robin inline (the common
 * policy, tried by every free SP every cycle). */
static int pick(struct us_tsched *s, unsigned n, struct pick_ctx *ctx)
{
    if (s->policy != US_SCHED_RR)
        return us_tsched_pick(s, n, slot_ready, slot_age, ctx);
    unsigned slot = s->last;
    for (unsigned i = 1; i <= n; i++) {
        if (++slot >= n)
            slot = 0;
        if (slot_can_issue(ctx, slot)) {
            s->last = slot;
            return (int)slot;
        }
    }
    return -1;
}

/* Fetch up to fetch_width words into the buffers that hold the fewest,
 * trying slots in the scheduler's round-robin order: the first slot after
 * the last issuer among those holding fewest words (the masks). */
static void fetch_words(struct us_core *core, struct sp *p)
{
    unsigned n = core->nslots;
    for (unsigned w = 0; w < core->fetch_width; w++) {
        uint64_t m = p->want[0];
        for (unsigned f = 1; !m && f < FBUF_WORDS; f++)
            m = p->want[f];
        if (!m)
            return;
        unsigned from = p->sched.last + 1 == n ? 0 : p->sched.last + 1;
        uint64_t later = m & (~0ull << from);
        struct slot *sl = &p->slot[__builtin_ctzll(later ? later : m)];
        sl->fbuf++;
        want_update(core, sl);
        core->c.instr_words++;   /* instr_bits, imem_bits: at stats */
    }
}

static inline void fetch(struct us_core *core, struct sp *p)
{
    uint64_t any = 0;
    for (unsigned f = 0; f < FBUF_WORDS; f++)
        any |= p->want[f];
    if (any)
        fetch_words(core, p);
}

/* The requests of the memory word slot sl just executed (its trace),
 * repetition k reaching the load/store unit in cycle now + off[k]. */
static void mem_note(struct us_core *core, struct slot *sl,
                     const struct sinfo *s, unsigned lane)
{
    unsigned n = core->trace.n < s->count ? core->trace.n : s->count;
    if (core->nwait == sizeof core->wait / sizeof core->wait[0] ||
        core->nreq + n > US_MEMSYS_MAX_REQS)
        return;   /* cannot happen: 32 lanes x 4 repetitions at most */
    core->wait[core->nwait++] = (struct mem_wait){ sl, s, core->nreq, n };
    for (unsigned k = 0; k < n; k++) {
        const struct us_mem_access *a = &core->trace.a[k];
        core->req[core->nreq++] = (struct us_mem_req){
            core->now + s->off[k], a->addr, a->space, a->bytes, a->kind,
            (uint8_t)lane };
    }
}

/* Hand the issue's memory requests to the memory system as `requester`
 * (an SP, or a lockstep group): a loaded (or atomic's old) value is
 * usable when its request is done; a store holds nothing afterwards (the
 * thread may retire before it is performed). */
static void mem_flush_reqs(struct us_core *core, unsigned requester)
{
    core->mp->access(core->mem, requester, core->req, core->nreq,
                     core->req_done);
    for (unsigned w = 0; w < core->nwait; w++) {
        const struct mem_wait *mw = &core->wait[w];
        struct slot *sl = mw->sl;
        const uint64_t *done = &core->req_done[mw->first];
        for (unsigned i = 0; i < mw->s->nwrites; i++) {
            uint64_t at = 0;
            for (unsigned k = 0; k < mw->n; k++)
                if (mw->s->off[k] == mw->s->wr[i].k)
                    at = done[k];
            unsigned x = mw->s->wr[i].x;
            if (sl->r->ready[x] < at) {
                sl->r->ready[x] = at;
                sl->r->producer[x] = US_UNIT_LSU;
            }
            if (at > sl->done_at) {
                sl->done_at = at;
                sl->done_unit = US_UNIT_LSU;
            }
        }
    }
    core->nreq = core->nwait = 0;
}

static inline void mem_flush(struct us_core *core, unsigned requester)
{
    if (core->nreq)
        mem_flush_reqs(core, requester);
}

/* What n executions of word pc add alike to the counts (exec_inst counts
 * them in core->execs; stats adds them): the vec4 work, the dependency
 * bubbles between its repetitions, the datapath and register-file
 * activity. */
static void exec_counts(const struct us_core *core, unsigned pc, uint64_t n,
                        struct us_tcounts *c, struct us_activity *act)
{
    const struct sinfo *s = &core->info[pc];
    us_tcounts_exec(c, &s->w, n);
    if (s->unit == US_UNIT_SFU) {
        if (core->sfu_mode == 0) {
            act->fmul_ops += n * s->passes;
            act->fadd_ops += n * s->passes;
        } else {
            act->sfu_full_ops += n;
        }
    } else if (s->kind != US_SK_TEX && s->kind != US_SK_FLOW &&
               s->kind != US_SK_BAR) {
        c->stall[US_STALL_DEPENDENCY] += n * (uint64_t)(s->span - s->count);
        if (s->kind == US_SK_INT) {
            us_activity_int(act, us_sop_int_kind(core->code.insts[pc].op),
                            n * s->count);
        } else if (s->kind != US_SK_MEM) {
            act->fmul_ops += n * s->count;
            act->fadd_ops += n * s->count;
        }
    }
    act->rf_reads += n * s->rf_reads;
    act->rf_writes += n * s->nwrites;
}

/* Time and execute instruction sl->pc for the thread of slot sl on SP p
 * (the sequencer's part is the caller's); returns the cycles the SP's
 * datapath is busy. */
static inline __attribute__((always_inline)) unsigned
exec_inst(struct us_core *core, struct sp *p, struct slot *sl,
          unsigned lane)
{
    const struct us_sinst *in = &core->code.insts[sl->pc];
    const struct sinfo *s = &core->info[sl->pc];
    uint64_t now = core->now;
    unsigned busy = s->busy, stall = 0;   /* the LUT's, an SFU word's */
    if (s->unit == US_UNIT_SFU) {
        stall = sfu_lookups(core, p, sl, in, s);
        if (core->sfu_mode == 0) {  /* partial: its passes wait for the bank */
            core->c.stall[US_STALL_LUT] += stall;
            for (unsigned k = 1; k <= stall && core->w->events; k++)
                us_event_stall(core->w->events, now + k,
                               (unsigned)(p - core->sp), US_STALL_LUT);
            busy += stall;
        } else if (core->sfu_mode == 2) {
            core->pool_used++;
        }
    } else if (core->w->events && s->span > s->count) {
        /* the bubbles where a repetition awaits an earlier */
        for (unsigned j = 1, k = 1; j < s->span; j++) {
            if (k < s->count && s->off[k] == j) {
                k++;
                continue;
            }
            us_event_stall(core->w->events, now + j,
                           (unsigned)(p - core->sp), US_STALL_DEPENDENCY);
        }
    }
    bool mem = s->kind == US_SK_MEM;   /* timed by mem_flush */
    uint64_t *ready = sl->r->ready;
    uint8_t *producer = sl->r->producer;
    uint8_t unit = s->unit;
    /* locals: a store to producer[] (a char type) may alias any of
     * them, one to ready[] sl->done_at */
    uint64_t done_at = sl->done_at;
    uint8_t done_unit = sl->done_unit;
    unsigned nwrites = mem ? 0 : s->nwrites;
    for (unsigned i = 0; i < nwrites; i++) {
        uint64_t at = now + s->at[i] + stall;
        unsigned x = s->wr[i].x;
        if (ready[x] < at) {
            ready[x] = at;
            producer[x] = unit;
        }
        if (at > done_at) {
            done_at = at;
            done_unit = unit;
        }
    }
    sl->done_unit = done_unit;
    sl->done_at = now + busy > done_at ? now + busy : done_at;
    p->free_at = now + busy;
    core->execs[sl->pc]++;   /* exec_counts */
    core->trace.n = 0;
    us_scalar_step_prepared(in, &core->prep[sl->pc], &core->env, sl->t,
                            sl->r->scratch);
    if (mem)
        mem_note(core, sl, s, lane);
    return busy;
}

/* A BAR issued by the thread of slot sl, and its last issue. */
static void note_bar(struct us_core *core, const struct slot *sl,
                     const struct us_sinst *in)
{
    if (sl->wg >= 0 && in->op == US_SOP_BAR)
        us_wgs_bar(&core->wgs, sl->wg, sl->tid, core->now);
}

static void note_end(struct us_core *core, const struct slot *sl)
{
    if (sl->wg >= 0 && sl->pc >= core->code.n)
        us_wgs_finish(&core->wgs, sl->wg, sl->tid, sl->t, core->now);
}

/* The pipeline event of word pc issued now on slot sl of SP sp (after
 * mem_flush): done when its datapath cycles are over and every register
 * it writes is usable (WAW keeps older writes earlier). */
static void event_issue(const struct us_core *core, unsigned sp,
                        const struct slot *sl, unsigned pc, unsigned busy,
                        unsigned lanes)
{
    const struct sinfo *s = &core->info[pc];
    uint64_t done = core->now + busy;
    for (unsigned i = 0; i < s->nwrites; i++) {
        uint64_t r = sl->r->ready[s->wr[i].x];
        done = r > done ? r : done;
    }
    struct us_event ev = {
        .kind = US_EVENT_ISSUE, .cycle = core->now, .done = done,
        .proc = sp, .slot = (unsigned)(sl - core->sp[sp].slot),
        .thread = sl->tid, .lanes = lanes, .pc = pc,
        .name = us_sops[core->code.insts[pc].op].name,
    };
    us_event_emit(core->w->events, &ev);
}

/* Independent SPs: the thread's own one-lane sequencer moves on. */
static void issue(struct us_core *core, struct sp *p, struct slot *sl)
{
    const struct us_sinst *in = &core->code.insts[sl->pc];
    const struct sinfo *s = &core->info[sl->pc];
    unsigned busy = exec_inst(core, p, sl, 0);
    mem_flush(core, (unsigned)(p - core->sp));
    if (core->w->events)
        event_issue(core, (unsigned)(p - core->sp), sl, sl->pc, busy, 1);
    note_bar(core, sl, in);
    us_watchdog_kick(&core->dog, core->now);
    core->act.issues++;
    core->c.issued++;
    core->c.branches += s->kind == US_SK_FLOW;
    struct us_thread *t = sl->t;
    /* only IF and BRA (flow words) have a condition */
    us_flow_advance(&sl->r->fs, core->code.flow,
                    s->kind == US_SK_FLOW &&
                        us_scalar_cond(in, core->w->env, t, sl->r->scratch));
    if (sl->r->fs.stopped)
        us_tcounts_overrun(&core->c, t);
    sl->fbuf--;
    if (sl->r->fs.pc != sl->pc + 1)
        sl->fbuf = 0;   /* a taken branch: refetch from the target */
    sl->pc = sl->r->fs.pc;
    want_update(core, sl);
    slot_arm(core, sl);
    note_end(core, sl);
    if (sl->pc >= core->code.n && sl->done_at < core->next_retire)
        core->next_retire = sl->done_at;
}

/* ---- Lockstep groups ------------------------------------------------------ */

static struct slot *lane(const struct us_core *core, const struct group *gr,
                         unsigned i, unsigned j)
{
    return &core->sp[gr->first + i].slot[j];
}

/* Warp j takes the threads its lanes hold (after start_thread). */
static void warp_start(struct us_core *core, struct group *gr, unsigned j)
{
    struct warp *wp = &gr->warp[j];
    wp->present = 0;
    for (unsigned i = 0; i < gr->n; i++)
        wp->present |= (uint32_t)lane(core, gr, i, j)->active << i;
    us_flow_start(&wp->fs, wp->present, core->w->env->max_insts);
    wp->fbuf = 0;
}

struct warp_ctx {
    struct us_core *core;
    struct group *gr;
    enum us_stall cause;
    bool have_cause, cause_work;
};

/* A warp issues when its next word is fetched and every active lane's
 * registers are ready; a draining warp (at the end, results pending)
 * names the cause only when no warp with work does. */
static bool warp_ready(void *ctx, unsigned j)
{
    struct warp_ctx *x = ctx;
    const struct warp *wp = &x->gr->warp[j];
    if (!wp->present)
        return false;
    enum us_stall why = US_STALL_COUNT;
    const struct slot *first = lane(x->core, x->gr,
                                    (unsigned)__builtin_ctz(wp->present), j);
    if (wp->fs.pc >= x->core->code.n)
        why = us_unit_stall(first->done_unit);
    else if (at_barrier(x->core, first))   /* a warp is one workgroup's */
        why = US_STALL_BARRIER;
    else if (!wp->fbuf)
        why = US_STALL_FETCH;
    for (unsigned i = 0; i < x->gr->n && why == US_STALL_COUNT; i++)
        if ((wp->fs.active >> i) & 1)
            why = regs_blocked(x->core, lane(x->core, x->gr, i, j));
    if (why == US_STALL_COUNT)
        return true;
    bool work = wp->fs.pc < x->core->code.n;
    if (!x->have_cause || (work && !x->cause_work)) {
        x->cause = why;
        x->have_cause = true;
        x->cause_work = work;
    }
    return false;
}

static uint64_t warp_age(void *ctx, unsigned j)
{
    const struct warp_ctx *x = ctx;
    const struct warp *wp = &x->gr->warp[j];
    if (!wp->present)
        return UINT64_MAX - x->core->nslots + j;
    return lane(x->core, x->gr, (unsigned)__builtin_ctz(wp->present), j)->tid;
}

/* Issue warp j's next word on its active lanes; lanes the flow masks off
 * sit idle on their SPs for as long as the word occupies the others. */
static void warp_issue(struct us_core *core, struct group *gr, unsigned j)
{
    struct warp *wp = &gr->warp[j];
    unsigned pc = wp->fs.pc;
    const struct us_sinst *in = &core->code.insts[pc];
    const struct sinfo *s = &core->info[pc];
    uint32_t active = wp->fs.active, cond = 0;
    uint32_t masked = wp->present & ~active & ~wp->fs.stopped;
    if (in->op == US_SOP_BAR && masked && us_wgs_on(&core->wgs)) {
        core->failed = true;   /* its masked lanes wait for its active ones */
        us_wgs_divergent_error("scalar", core->w->prog, core->code.vbegin[pc],
                               us_lanes(masked),
                               &core->why);
        return;
    }
    unsigned busy = 0, lbusy[US_FLOW_MAX_LANES];
    for (unsigned i = 0; i < gr->n; i++) {
        if (!((active >> i) & 1))
            continue;
        struct slot *sl = lane(core, gr, i, j);
        unsigned b = exec_inst(core, &core->sp[gr->first + i], sl, i);
        lbusy[i] = b;
        busy = b > busy ? b : busy;
        note_bar(core, sl, in);
        if (us_scalar_cond(in, core->w->env, sl->t, sl->r->scratch))
            cond |= 1u << i;
    }
    mem_flush(core, (unsigned)(gr - core->groups));
    for (unsigned i = 0; i < gr->n && core->w->events; i++)
        if ((active >> i) & 1)
            event_issue(core, gr->first + i, lane(core, gr, i, j), pc,
                        lbusy[i], us_lanes(active));
    us_watchdog_kick(&core->dog, core->now);
    core->act.issues++;
    core->c.issued++;
    core->c.branches += s->kind == US_SK_FLOW;
    enum us_flow_kind fk = us_sop_flow_kind((enum us_sop)in->op);
    core->c.divergent += (fk == US_FLOW_IF || fk == US_FLOW_BRA) &&
                         cond != 0 && cond != active;
    core->c.masked_lane_slots +=
        (uint64_t)us_lanes(wp->present & ~active) * busy;
    gr->free_at = core->now + busy;
    us_flow_advance(&wp->fs, core->code.flow, cond);
    for (uint32_t m = wp->fs.stopped; m; m &= m - 1)
        us_tcounts_overrun(&core->c,
                           lane(core, gr, (unsigned)__builtin_ctz(m), j)->t);
    wp->fbuf--;
    if (wp->fs.pc != pc + 1)
        wp->fbuf = 0;   /* a taken branch: refetch from the target */
    for (unsigned i = 0; i < gr->n; i++) {
        if (!((wp->present >> i) & 1))
            continue;
        struct slot *sl = lane(core, gr, i, j);
        sl->pc = wp->fs.pc;
        slot_arm(core, sl);
        note_end(core, sl);
        if (sl->pc >= core->code.n && sl->done_at < core->next_retire)
            core->next_retire = sl->done_at;
    }
}

/* One instruction stream per warp: fetch_width words per cycle for the
 * group, into the warp buffers holding the fewest (round robin). */
static void warp_fetch(struct us_core *core, struct group *gr)
{
    unsigned n = core->nslots;
    for (unsigned w = 0; w < core->fetch_width; w++) {
        int best = -1;
        for (unsigned k = 1; k <= n; k++) {
            unsigned j = (gr->sched.last + k) % n;
            const struct warp *wp = &gr->warp[j];
            if (!wp->present || wp->fbuf >= FBUF_WORDS ||
                wp->fs.pc + wp->fbuf >= core->code.n)
                continue;
            if (best < 0 || wp->fbuf < gr->warp[best].fbuf)
                best = (int)j;
        }
        if (best < 0)
            return;
        gr->warp[best].fbuf++;
        core->c.instr_words++;
    }
}

static void group_step(struct us_core *core, struct group *gr)
{
    if (gr->free_at > core->now) {
        warp_fetch(core, gr);
        return;
    }
    struct warp_ctx x = { core, gr, US_STALL_DEPENDENCY, false, false };
    int j = us_tsched_pick(&gr->sched, core->nslots, warp_ready, warp_age, &x);
    if (j >= 0) {
        warp_issue(core, gr, (unsigned)j);
    } else {
        for (unsigned i = 0; i < gr->n; i++) {
            bool busy = false;
            for (unsigned k = 0; k < core->nslots; k++)
                busy |= lane(core, gr, i, k)->active;
            if (busy) {
                core->c.stall[x.cause]++;
                us_event_stall(core->w->events, core->now, gr->first + i,
                               x.cause);
            } else {
                core->c.idle++;
            }
        }
    }
    warp_fetch(core, gr);
}

/* Retirement in lockstep: a lane's slot frees, and the warp takes new
 * threads only when every lane has retired (they share one pc). */
static void retire_lane(struct us_core *core, unsigned sp, unsigned j)
{
    struct group *gr = &core->groups[sp / core->lockstep];
    struct warp *wp = &gr->warp[j];
    struct slot *sl = &core->sp[sp].slot[j];
    sl->active = false;
    want_update(core, sl);
    core->nactive--;
    wp->present &= ~(1u << (sp - gr->first));
    if (wp->present || us_wgs_on(&core->wgs))
        return;   /* a workgroup's warp waits for admission (admit) */
    for (unsigned i = 0; i < gr->n; i++)
        start_thread(core, lane(core, gr, i, j));
    warp_start(core, gr, j);
}

/* ---- Workgroups ----------------------------------------------------------- */

/* Start workgroups while their threads fit in free slots, taken in the
 * order threads go round the SPs (slot j of each SP, then j + 1); with
 * lockstep, whole free warps in that order, a workgroup's threads filling
 * each warp's lanes from the first. */
static void admit(struct us_core *core)
{
    unsigned G = core->wgs.size;
    for (;;) {
        unsigned room = 0;
        if (core->lockstep) {
            for (unsigned j = 0; j < core->nslots; j++)
                for (unsigned g = 0; g < core->ngroups; g++)
                    room += core->groups[g].warp[j].present ? 0
                                                            : core->groups[g].n;
        } else {
            room = core->nsp * core->nslots - core->nactive;
        }
        uint32_t tid;
        int e;
        if (room < G || (e = us_wgs_admit(&core->wgs, &tid)) < 0)
            return;
        us_watchdog_kick(&core->dog, core->now);
        uint32_t end = tid + G;
        for (unsigned j = 0; j < core->nslots && tid < end; j++) {
            if (core->lockstep) {
                for (unsigned g = 0; g < core->ngroups && tid < end; g++) {
                    struct group *gr = &core->groups[g];
                    if (gr->warp[j].present)
                        continue;
                    for (unsigned i = 0; i < gr->n && tid < end; i++) {
                        begin_thread(core, lane(core, gr, i, j), tid++, e);
                    }
                    warp_start(core, gr, j);
                }
                continue;
            }
            for (unsigned i = 0; i < core->nsp && tid < end; i++) {
                struct slot *sl = &core->sp[i].slot[j];
                if (sl->active)
                    continue;
                begin_thread(core, sl, tid++, e);
            }
        }
    }
}

/* ---- Run ------------------------------------------------------------------ */

static void reset(struct us_core *core)
{
    core->now = 0;
    core->env = *core->w->env;
    core->env.trace = &core->trace;
    core->nreq = core->nwait = 0;
    core->mp->reset(core->mem);
    core->finished = false;
    memset(&core->c, 0, sizeof core->c);
    memset(&core->act, 0, sizeof core->act);
    memset(core->execs, 0, (core->code.n ? core->code.n : 1) *
                               sizeof *core->execs);
    core->c.instr_mem_bits = (uint64_t)core->code.n * core->word_bits;
    us_tcounts_mem_start(&core->c, core->w->env);
    core->failed = false;
    us_watchdog_init(&core->dog, &core->cfg);
    us_wgs_reset(&core->wgs);
    us_tqueue_init(&core->queue, core->w->nthreads);
    core->nactive = 0;
    core->next_retire = UINT64_MAX;
    for (unsigned i = 0; i < core->nsp; i++)
        for (unsigned j = 0; j < core->nslots; j++)
            core->sp[i].slot[j].active = false;
    memset(core->drain, 0, drain_words(core) * sizeof *core->drain);
    for (unsigned l = 0; l < core->nluts; l++)
        us_lut_reset(&core->luts[l]);
    memset(core->sb_ready, 0, (size_t)core->nsp * core->nslots * core->nsb *
                                  sizeof *core->sb_ready);
    for (unsigned i = 0; i < core->nsp; i++) {
        struct sp *p = &core->sp[i];
        p->free_at = 0;
        memset(p->want, 0, sizeof p->want);   /* every slot emptied above */
        us_tsched_init(&p->sched, &core->cfg);
        p->sched.last = core->nslots - 1;  /* RR starts at slot 0 */
    }
    /* Threads go round the SPs first, so a few threads spread out (and
     * a warp's lanes hold consecutive threads); workgroups start whole. */
    bool wgs = us_wgs_on(&core->wgs);
    for (unsigned j = 0; j < core->nslots && !wgs; j++)
        for (unsigned i = 0; i < core->nsp; i++)
            start_thread(core, &core->sp[i].slot[j]);
    for (unsigned g = 0; g < core->ngroups; g++) {
        struct group *gr = &core->groups[g];
        gr->free_at = 0;
        us_tsched_init(&gr->sched, &core->cfg);
        gr->sched.last = core->nslots - 1;
        for (unsigned j = 0; j < core->nslots; j++)
            warp_start(core, gr, j);
    }
    if (wgs)
        admit(core);
}

/* The first cycle after `now` whose work can differ from now's, or now + 1:
 * an SP's datapath freeing, a thread able to retire, a register read or
 * written by a free SP's waiting thread becoming usable, the watchdog's
 * deadline.  Called after a cycle in which nothing issued, retired or was
 * fetched, so until then each SP repeats now's stall (or idle, or busy
 * datapath) and nothing else changes; only for independent SPs on a
 * graphics workload without an event sink (barrier releases, the
 * lockstep sequencer and per-cycle events are not followed here). */
static uint64_t quiet_until(const struct us_core *core)
{
    uint64_t now = core->now, next = core->next_retire;
    uint64_t dead = core->dog.last + core->dog.bound + 1;
    next = dead < next ? dead : next;
    for (unsigned i = 0; i < core->nsp && next > now + 1; i++) {
        const struct sp *p = &core->sp[i];
        if (p->free_at > now) {
            next = p->free_at < next ? p->free_at : next;
            continue;   /* its slots are not looked at before then */
        }
        for (unsigned j = 0; j < core->nslots; j++) {
            const struct slot *sl = &p->slot[j];
            if (!sl->active || sl->pc >= core->code.n)
                continue;
            const struct sinfo *si = &core->info[sl->pc];
            const uint64_t *ready = sl->r->ready;
            for (unsigned k = 0; k < si->ngate; k++) {
                uint64_t r = ready[si->gate_x[k]];
                if (r > now + si->gate_k[k] && r - si->gate_k[k] < next)
                    next = r - si->gate_k[k];
            }
        }
    }
    return next > now + 1 ? next : now + 1;
}

static bool step(struct us_core *core)
{
    if (core->finished)
        return false;
    uint64_t now = core->now;
    /* a cycle without retirement, issue or fetch may be followed by
     * copies of itself (quiet_until) */
    bool quiet = core->next_retire > now && !core->w->events &&
                 !us_wgs_on(&core->wgs);
    /* Retire, then refill slots (only when some thread can retire now):
     * the draining slots in the order of their bits, each bit read when
     * reached (a refilled slot that drains at once, on an empty program,
     * retires in this cycle only when it comes later). */
    if (core->next_retire <= now) {
        core->next_retire = UINT64_MAX;
        bool retired = false;
        for (unsigned w = 0; w < drain_words(core); w++)
            for (unsigned b = 0; b < 64; b++) {
                uint64_t m = core->drain[w] & (~0ull << b);
                if (!m)
                    break;
                b = (unsigned)__builtin_ctzll(m);
                unsigned i = (w * 64 + b) / core->nslots;
                unsigned j = (w * 64 + b) % core->nslots;
                struct slot *sl = &core->sp[i].slot[j];
                if (sl->done_at > now) {
                    if (sl->done_at < core->next_retire)
                        core->next_retire = sl->done_at;
                    continue;
                }
                core->drain[w] &= ~(1ull << b);
                us_event_retire(core->w->events, now, i, j, sl->tid);
                us_workload_retire(core->w, sl->tid);
                core->c.threads++;
                core->c.latency_sum += now - sl->start;
                core->c.cycles = now;
                retired = true;
                if (core->lockstep) {
                    retire_lane(core, i, j);
                    continue;
                }
                if (us_wgs_on(&core->wgs)) {   /* admit refills */
                    sl->active = false;
                    want_update(core, sl);
                    core->nactive--;
                    continue;
                }
                start_thread(core, sl);
            }
        if (retired) {
            us_watchdog_kick(&core->dog, now);
            if (us_wgs_on(&core->wgs))
                admit(core);
        }
    }
    if (!core->failed && us_watchdog_expired(&core->dog, now))
        core->failed = us_watchdog_error("scalar", &core->dog, &core->why);
    if (core->nactive == 0 || core->c.budget_overruns || core->failed) {
        core->finished = true;
        if (core->c.budget_overruns || core->failed)
            core->c.cycles = now;
        return false;
    }
    core->pool_used = 0;
    if (core->lockstep) {
        for (unsigned g = 0; g < core->ngroups; g++)
            group_step(core, &core->groups[g]);
        core->now++;
        return true;
    }
    uint64_t stall0[US_STALL_COUNT], idle0 = core->c.idle;
    uint64_t issued0 = core->c.issued, words0 = core->c.instr_words;
    if (quiet)
        memcpy(stall0, core->c.stall, sizeof stall0);
    /* SPs in an order rotating each cycle: fair arbitration of the pool. */
    unsigned first = (unsigned)(now % core->nsp);
    for (unsigned n = 0, i = first; n < core->nsp; n++, i = i + 1 == core->nsp ? 0 : i + 1) {
        struct sp *p = &core->sp[i];
        if (p->free_at > now) {
            fetch(core, p);
            continue;  /* the datapath is busy with an issued instruction */
        }
        struct pick_ctx ctx = { core, p, US_STALL_DEPENDENCY, false, false };
        int s = pick(&p->sched, core->nslots, &ctx);
        if (s >= 0) {
            issue(core, p, &p->slot[s]);
        } else {
            bool busy = false;
            for (unsigned j = 0; j < core->nslots; j++)
                busy |= p->slot[j].active;
            if (busy) {
                core->c.stall[ctx.cause]++;
                us_event_stall(core->w->events, now, i, ctx.cause);
            } else {
                core->c.idle++;
            }
        }
        fetch(core, p);  /* words fetched now are usable from next cycle */
    }
    if (quiet && core->c.issued == issued0 && core->c.instr_words == words0) {
        uint64_t next = quiet_until(core), k = next - now - 1;
        for (unsigned c = 0; c < US_STALL_COUNT && k; c++)
            core->c.stall[c] += k * (core->c.stall[c] - stall0[c]);
        core->c.idle += k * (core->c.idle - idle0);
        core->now = next;
        return true;
    }
    core->now++;
    return true;
}

static void destroy(struct us_core *core)
{
    if (!core)
        return;
    if (core->sp)
        for (unsigned i = 0; i < core->nsp; i++) {
            /* a run that failed leaves threads pointing at shared memory */
            for (unsigned j = 0; core->sp[i].slot && j < core->nslots; j++)
                if (core->sp[i].slot[j].active && core->sp[i].slot[j].wg >= 0)
                    us_workload_thread(core->w, core->sp[i].slot[j].tid)
                        ->shared = NULL;
            free(core->sp[i].slot);
        }
    if (core->luts)
        for (unsigned l = 0; l < core->nluts; l++)
            us_lut_free(&core->luts[l]);
    free(core->luts);
    free(core->groups);
    free(core->warps);
    free(core->regs);
    free(core->sb_ready);
    free(core->sb_producer);
    free(core->drain);
    free(core->sp);
    free(core->info);
    free(core->prep);
    free(core->execs);
    us_wgs_free(&core->wgs);
    if (core->mem)
        core->mp->destroy(core->mem);
    if (core->have_sfu)
        us_sfu_free(&core->sfu);
    us_scode_free(&core->code);
    free(core);
}

static struct us_core *create(const struct us_config *cfg,
                              const struct us_workload *w,
                              struct us_diag *diag)
{
    struct us_core *core = calloc(1, sizeof *core);
    if (!core)
        goto oom;
    core->cfg = *cfg;
    core->w = w;
    enum us_compaction form = cfg->v[US_KNOB_compaction]
        ? (enum us_compaction)(US_COMPACT_OFFSETS +
                               cfg->v[US_KNOB_compaction_form])
        : US_COMPACT_NONE;
    core->word_bits = us_compaction_word_bits(form);
    core->fetch_width = (unsigned)cfg->v[US_KNOB_fetch_width];
    core->sfu_mode = (unsigned)cfg->v[US_KNOB_sfu];
    core->sfu_pool = (unsigned)cfg->v[US_KNOB_sfu_pool];
    for (unsigned u = 0; u < US_UNIT_COUNT; u++)
        core->lat[u] = us_unit_latency(cfg, (enum us_unit)u);
    if (!us_lower(w->prog, form, &core->code, diag)) {
        destroy(core);
        return NULL;
    }
    core->info = calloc(core->code.n ? core->code.n : 1, sizeof *core->info);
    core->prep = calloc(core->code.n ? core->code.n : 1, sizeof *core->prep);
    core->execs = calloc(core->code.n ? core->code.n : 1,
                         sizeof *core->execs);
    if (!core->info || !core->prep || !core->execs)
        goto oom;
    bool need_sfu = false;
    for (unsigned i = 0; i < core->code.n; i++) {
        digest(&core->code.insts[i], cfg, &core->info[i]);
        us_scalar_prepare(&core->code.insts[i], &core->prep[i]);
        us_opcount_add(&core->info[i].w, w->prog->insts, core->code.vbegin[i],
                       core->code.vbegin[i + 1]);
        need_sfu |= core->info[i].unit == US_UNIT_SFU;
    }
    if (need_sfu) {
        if (!us_sfu_init(&core->sfu, &cfg->sfu, diag)) {
            destroy(core);
            return NULL;
        }
        core->have_sfu = true;
    }
    core->nsp = (unsigned)cfg->v[US_KNOB_alu_lanes];
    core->nslots = (unsigned)cfg->v[US_KNOB_threads_per_proc];
    bool shared = cfg->v[US_KNOB_lut] == 0 && cfg->v[US_KNOB_sfu] == 0;
    unsigned share = shared ? (unsigned)cfg->v[US_KNOB_lut_share] : 1;
    core->nluts = (core->nsp + share - 1) / share;
    core->sp = calloc(core->nsp, sizeof *core->sp);
    core->luts = calloc(core->nluts, sizeof *core->luts);
    if (!core->sp || !core->luts)
        goto oom;
    struct us_config lcfg = *cfg;
    if (!shared)
        lcfg.v[US_KNOB_lut] = 1;  /* full SFUs read their own tables */
    for (unsigned l = 0; l < core->nluts; l++)
        if (!us_lut_init(&core->luts[l], &lcfg, share))
            goto oom;
    size_t nslot = (size_t)core->nsp * core->nslots;
    core->nsb = number_regs(core->info, core->code.n);
    core->regs = calloc(nslot, sizeof *core->regs);
    core->sb_ready = calloc(nslot * core->nsb + 1, sizeof *core->sb_ready);
    core->sb_producer = calloc(nslot * core->nsb + 1, 1);
    core->drain = calloc(drain_words(core), sizeof *core->drain);
    if (!core->regs || !core->sb_ready || !core->sb_producer || !core->drain)
        goto oom;
    for (size_t i = 0; i < nslot; i++) {
        core->regs[i].ready = &core->sb_ready[i * core->nsb];
        core->regs[i].producer = &core->sb_producer[i * core->nsb];
    }
    for (unsigned i = 0; i < core->nsp; i++) {
        core->sp[i].slot = calloc(core->nslots, sizeof *core->sp[i].slot);
        if (!core->sp[i].slot)
            goto oom;
        for (unsigned j = 0; j < core->nslots; j++) {
            core->sp[i].slot[j].r = &core->regs[i * core->nslots + j];
            core->sp[i].slot[j].sp = &core->sp[i];
            core->sp[i].slot[j].idx = j;
        }
        core->sp[i].lut = &core->luts[i / share];
    }
    unsigned L = (unsigned)cfg->v[US_KNOB_lockstep];
    if (L > 1) {
        if (cfg->v[US_KNOB_sfu] == 2) {   /* see the header comment */
            destroy(core);
            diag->line = diag->col = 0;
            snprintf(diag->msg, sizeof diag->msg,
                     "scalar model: lockstep needs sfu=partial or sfu=full");
            return NULL;
        }
        core->lockstep = L;
        core->ngroups = (core->nsp + L - 1) / L;
        core->groups = calloc(core->ngroups, sizeof *core->groups);
        core->warps = calloc((size_t)core->ngroups * core->nslots,
                             sizeof *core->warps);
        if (!core->groups || !core->warps)
            goto oom;
        for (unsigned g = 0; g < core->ngroups; g++) {
            struct group *gr = &core->groups[g];
            gr->first = g * L;
            gr->n = core->nsp - gr->first < L ? core->nsp - gr->first : L;
            gr->warp = &core->warps[(size_t)g * core->nslots];
        }
    }
    core->mp = us_memsys_part(cfg);
    struct us_diag md = { 0 };
    core->mem = core->mp->create(cfg, core->lockstep ? core->ngroups
                                                     : core->nsp, &md);
    if (!core->mem) {
        destroy(core);
        if (diag)
            *diag = md;
        return NULL;
    }
    char what[64];
    snprintf(what, sizeof what, "alu_lanes x threads_per_proc = %u x %u",
             core->nsp, core->nslots);
    if (!us_wgs_init(&core->wgs, w, core->nsp * core->nslots, "scalar", what,
                     diag)) {
        destroy(core);
        return NULL;
    }
    reset(core);
    return core;
oom:
    destroy(core);
    if (diag) {
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "scalar model: out of memory");
    }
    return NULL;
}

static void stats(const struct us_core *core, struct us_stats *st)
{
    struct us_tcounts c = core->c;
    struct us_activity act = core->act;
    for (unsigned pc = 0; pc < core->code.n; pc++)
        exec_counts(core, pc, core->execs[pc], &c, &act);
    c.instr_bits = c.instr_words * core->word_bits;
    act.imem_bits = c.instr_bits;
    us_tcounts_mem(&c, core->w->env);
    c.workgroups = core->wgs.admitted;
    c.barrier_wait = core->wgs.wait_cycles;
    for (unsigned l = 0; l < core->nluts; l++) {
        c.lut_accesses += core->luts[l].accesses;
        c.lut_merged += core->luts[l].merged;
        c.lut_conflicts += core->luts[l].conflicts;
        c.lut_stall_cycles += core->luts[l].stall_cycles;
    }
    us_tcounts_report(&c, &core->cfg, core->w->prog, st);
    if (us_program_computes(core->w->prog))
        core->mp->stats(core->mem, st);

    const struct us_config *cfg = &core->cfg;
    unsigned P = core->nsp;
    struct us_hw hw = { 0 };
    hw.fmul = hw.fadd = P;                 /* one FP32 multiply-add per SP */
    hw.rf_count = P;
    hw.rf_ports = 4;                       /* MAD: 3 reads + 1 write */
    hw.rf_bits = (uint64_t)P * core->nslots * US_AREA_RF_VEC4_PER_THREAD *
                 128;
    hw.issue_slots = P;
    hw.imem_bits = c.instr_mem_bits;
    /* Each SP runs integer operations: an integer ALU and multiplier
     * each; LSUs per SP or per port, as the memory system has it. */
    hw.int_alu = hw.int_mul = P;
    us_memsys_hw(cfg, core->lockstep ? core->ngroups : core->nsp, P, &hw);
    uint64_t lut = us_area_lut_bits(cfg);
    unsigned mode = (unsigned)cfg->v[US_KNOB_sfu];
    if (mode == 0) {
        hw.sfu_partial = P;
        hw.lut_bits = lut * core->nluts;
        unsigned banks = cfg->v[US_KNOB_lut] == 0
                             ? (unsigned)cfg->v[US_KNOB_lut_banks] : 1;
        hw.lut_ports = core->nluts * banks;
        /* Each SP selects its entry among the banks: a (banks:1) mux per
         * entry bit, entries averaged over the tables. */
        unsigned entries = 0;
        for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
            struct us_sfu_lut lay;
            us_sfu_lut_layout(&cfg->sfu, (enum us_sfu_table)t, &lay);
            entries += lay.entries;
        }
        unsigned entry_bits = entries ? (unsigned)(lut / entries) : 0;
        hw.lut_xbar = P * (banks - 1) * entry_bits;
    } else {
        hw.sfu_full = mode == 1 ? P : (unsigned)cfg->v[US_KNOB_sfu_pool];
        hw.lut_bits = lut * hw.sfu_full;
        hw.lut_ports = hw.sfu_full;
    }
    /* LUT energy per bank read actually made (merged requests share one);
     * a full SFU's own table read is part of its evaluation's energy. */
    act.lut_reads = mode == 0 ? c.lut_accesses : 0;
    us_memsys_activity(core->mp, core->mem, &act);
    us_area_report(cfg, &hw, &act, c.instr_mem_bits, st);
}

static bool failed(const struct us_core *core, struct us_diag *diag)
{
    if (core->failed)
        *diag = core->why;
    return core->failed;
}

const struct us_core_model us_model_scalar = {
    "scalar", create, reset, step, stats, destroy, NULL,  /* any count */
    failed,
};
