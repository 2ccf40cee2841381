/*
 * Helpers shared by every core model (shader/model_*.c): thread slots and
 * the policy that picks a ready thread, a register scoreboard, latency by
 * unit class, the counters every model keeps and the one function that
 * turns them into the SPEC section 3 statistics, and the area/energy model
 * (shader/area.c, parameters in shader/area.def).
 *
 * How a model uses them (see shader/model_scalar.c for a complete one):
 *
 *   create:  us_tqueue_init(&q, w->nthreads);
 *            per processor: us_tsched_init(&p->sched, cfg) and, for each of
 *            its threads_per_proc slots, us_tqueue_take(&q, &tid) to get a
 *            thread (us_sb_clear its scoreboard, note its start cycle);
 *   step:    per processor, pick = us_tsched_pick(&p->sched, n, ready, p)
 *            where ready(p, slot) says whether that slot can issue now
 *            (typically us_sb_item_ready(&sb, &item) <= cycle, plus the
 *            model's structural checks); on issue, execute the instruction
 *            functionally and us_sb_item_write(&sb, &item, cycle + lat)
 *            with lat = us_unit_latency(cfg, unit); when a thread retires,
 *            count it in struct us_tcounts and take the next from the queue;
 *            when no slot issues, count one stall cycle in
 *            counts.stall[cause] (the cause blocking the slot that would
 *            have issued first);
 *   stats:   us_tcounts_report(&counts, cfg, st) then, with the model's own
 *            component counts, us_area_report(cfg, &hw, &act, counts.cycles,
 *            counts.threads, st).
 *
 * Everything here is deterministic and keeps no global state.
 */
#ifndef US_SHADER_TIMING_H
#define US_SHADER_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/scalar.h"
#include "shader/core.h"

/* ---- Threads: the global queue and the per-processor pick ---------------- */

/* Threads are handed out in index order to whichever processor slot frees
 * first: a processor keeps threads_per_proc threads in flight. */
struct us_tqueue {
    unsigned next, n;
};

static inline void us_tqueue_init(struct us_tqueue *q, unsigned nthreads)
{
    q->next = 0;
    q->n = nthreads;
}

/* The next thread to start, or false when every thread has been handed
 * out. */
static inline bool us_tqueue_take(struct us_tqueue *q, unsigned *tid)
{
    if (q->next >= q->n)
        return false;
    *tid = q->next++;
    return true;
}

enum us_sched_policy { US_SCHED_RR, US_SCHED_OLDEST };  /* knob `sched` */

struct us_tsched {
    enum us_sched_policy policy;
    unsigned last;       /* slot that issued last (RR starts after it) */
};

void us_tsched_init(struct us_tsched *s, const struct us_config *cfg);

/*
 * Pick the slot that issues this cycle among slots 0..n-1: `ready(ctx,
 * slot)` says whether it can; `age(ctx, slot)` (OLDEST only; NULL = slot
 * order) is smaller for older threads -- e.g. the thread index.  RR tries
 * slots starting after the last issuer; OLDEST tries them from the oldest.
 * Stops at the first ready slot, so `ready` may record why a slot is not
 * ready.  Returns the slot, or -1 when none is ready (then `last` is kept).
 */
int us_tsched_pick(struct us_tsched *s, unsigned n,
                   bool (*ready)(void *ctx, unsigned slot),
                   uint64_t (*age)(void *ctx, unsigned slot), void *ctx);

/* ---- Scoreboard over scalar registers ------------------------------------ */

/*
 * The cycle at which each writable scalar register's pending value becomes
 * usable (isa/scalar.h's register view: vec4 register n component c is
 * scalar register 4n + c).  Keys are `file << 12 | reg` as in struct
 * us_sched_item (isa/scalar.h); read-only files (INPUT, PARAM, IMM) never
 * wait.  A vec4 model reads and writes component registers too, so
 * us_sched_item_vec4 gives it the keys of one vec4 instruction.
 */
enum {
    US_SB_TEMP = 0,
    US_SB_OUTPUT = US_SB_TEMP + 4 * US_MAX_TEMPS,
    US_SB_ADDRESS = US_SB_OUTPUT + 4 * US_MAX_OUTPUTS,
    US_SB_SCRATCH = US_SB_ADDRESS + 4 * US_MAX_ADDRESS,
    US_SB_REGS = US_SB_SCRATCH + US_SCRATCH_REGS,
};

struct us_scoreboard {
    uint64_t ready[US_SB_REGS];  /* cycle the value is usable, 0 = now */
};

/* Index of a key in ready[], or -1 for registers that never wait. */
static inline int us_sb_index(unsigned key)
{
    unsigned file = key >> 12, reg = key & 0xfffu;
    switch (file) {
    case US_FILE_TEMP: return reg < 4 * US_MAX_TEMPS ? (int)(US_SB_TEMP + reg) : -1;
    case US_FILE_OUTPUT: return reg < 4 * US_MAX_OUTPUTS ? (int)(US_SB_OUTPUT + reg) : -1;
    case US_FILE_ADDRESS: return reg < 4 * US_MAX_ADDRESS ? (int)(US_SB_ADDRESS + reg) : -1;
    case US_FILE_SCRATCH: return reg < US_SCRATCH_REGS ? (int)(US_SB_SCRATCH + reg) : -1;
    default: return -1;
    }
}

static inline unsigned us_sb_key(unsigned file, unsigned reg)
{
    return file << 12 | reg;
}

void us_sb_clear(struct us_scoreboard *sb);

/* Cycle at which register `key` is usable (0 for read-only registers). */
static inline uint64_t us_sb_ready(const struct us_scoreboard *sb,
                                   unsigned key)
{
    int i = us_sb_index(key);
    return i < 0 ? 0 : sb->ready[i];
}

/* Register `key` becomes usable at `cycle` (a later pending write of the
 * same register is kept: writes retire in order of their ready cycles). */
static inline void us_sb_write(struct us_scoreboard *sb, unsigned key,
                               uint64_t cycle)
{
    int i = us_sb_index(key);
    if (i >= 0 && sb->ready[i] < cycle)
        sb->ready[i] = cycle;
}

/* Earliest cycle at which an instruction with these reads and writes may
 * issue: every source ready (RAW) and no older write to a destination
 * still pending (WAW). */
uint64_t us_sb_item_ready(const struct us_scoreboard *sb,
                          const struct us_sched_item *it);

/* Every destination of the item becomes usable at `cycle`. */
void us_sb_item_write(struct us_scoreboard *sb, const struct us_sched_item *it,
                      uint64_t cycle);

/* ---- Latency by unit class ----------------------------------------------- */

/* Cycles from issue to a usable result: ALU and ADDR alu_latency, SFU
 * sfu_latency (a full, pipelined SFU), TEX tex_latency. */
unsigned us_unit_latency(const struct us_config *cfg, enum us_unit unit);

/* ---- Counters every model keeps, and their report ------------------------ */

/* Why a processor issued nothing in a cycle (SPEC 3 stall causes). */
enum us_stall {
    US_STALL_DEPENDENCY,  /* a source (or destination) still pending    */
    US_STALL_SFU,         /* the SFU (or the datapath running it) busy  */
    US_STALL_LUT,         /* waiting for a shared-LUT bank              */
    US_STALL_TEXTURE,     /* waiting for a texture result               */
    US_STALL_FETCH,       /* the instruction is not fetched yet         */
    US_STALL_MEMORY,      /* waiting for a load's or atomic's result    */
    US_STALL_BARRIER,     /* waiting at a barrier for its workgroup     */
    US_STALL_COUNT
};

/* The stall of a thread waiting for a result of unit class `unit`. */
static inline enum us_stall us_unit_stall(unsigned unit)
{
    switch (unit) {
    case US_UNIT_SFU: return US_STALL_SFU;
    case US_UNIT_TEX: return US_STALL_TEXTURE;
    case US_UNIT_LSU: return US_STALL_MEMORY;
    default: return US_STALL_DEPENDENCY;
    }
}

extern const char *const us_stall_names[US_STALL_COUNT];

/* ---- Pipeline events (shader/core.h, docs/TRACE.md) ---------------------- */

/* A model reports where it counts: a stall where it counts stall[why], a
 * retirement where it counts threads; nothing without a sink (`s` is the
 * workload's `events`).  Issues carry the model's own figures: it fills a
 * struct us_event and calls us_event_emit, after testing `s`. */
static inline void us_event_emit(const struct us_event_sink *s,
                                 const struct us_event *ev)
{
    s->event(s->ctx, ev);
}

static inline void us_event_stall(const struct us_event_sink *s,
                                  uint64_t cycle, unsigned proc,
                                  enum us_stall why)
{
    if (!s)
        return;
    struct us_event ev = { .kind = US_EVENT_STALL, .cycle = cycle,
                           .proc = proc, .name = us_stall_names[why] };
    us_event_emit(s, &ev);
}

static inline void us_event_retire(const struct us_event_sink *s,
                                   uint64_t cycle, unsigned proc,
                                   unsigned slot, unsigned thread)
{
    if (!s)
        return;
    struct us_event ev = { .kind = US_EVENT_RETIRE, .cycle = cycle,
                           .proc = proc, .slot = slot, .thread = thread };
    us_event_emit(s, &ev);
}

struct us_tcounts {
    uint64_t cycles;
    uint64_t threads;            /* retired                                 */
    uint64_t latency_sum;        /* sum of (retire - start) cycles          */
    uint64_t issued;             /* issue events (instructions, bundles)    */
    uint64_t stall[US_STALL_COUNT];  /* processor-cycles with no issue      */
    uint64_t idle;               /* processor-cycles with no thread at all  */
    uint64_t slots_filled, slots_total;  /* issue-slot occupancy (0 = n/a)  */
    uint64_t instr_words, instr_bits;    /* fetched from instruction memory */
    uint64_t instr_mem_bits;     /* program size in the model's encoding    */
    uint64_t lut_accesses, lut_merged, lut_conflicts, lut_stall_cycles;
    /* What the threads executed (us_tcounts_exec), so that threads taking
     * different paths through flow control count what they ran. */
    uint64_t useful_ops;         /* SPEC 3 useful ops, all threads          */
    uint64_t width[5];           /* vec4 instructions executed, by width    */
    /* Flow control (docs/METRICS.md) */
    uint64_t branches;           /* flow instructions issued, per group     */
    uint64_t divergent;          /* IFs, BRAs whose active lanes disagreed  */
    uint64_t masked_lane_slots;  /* lane-cycles of issued instructions
                                    spent on lanes masked off by flow      */
    uint64_t budget_overruns;    /* threads the instruction budget stopped
                                    (the run then ends: us_tcounts_overrun) */
    /* Compute (docs/METRICS.md) */
    uint64_t mem_insts;          /* vec4 memory instructions executed      */
    uint64_t bar_insts;          /* BAR and MEMBAR executed                */
    uint64_t barrier_wait;       /* thread-cycles waiting at barriers      */
    uint64_t workgroups;         /* workgroups started                     */
    struct us_mem_counts mem;    /* what the run did to memory
                                    (us_tcounts_mem)                       */
    struct us_mem_counts mem_base;  /* env->mem's counts at the start     */
};

/* The useful ops and the vec4 instructions by width that executing some
 * instructions of the vec4 program amounts to: a model's issue unit (a
 * vec4 instruction, a scalar word, a bundle) carries one. */
struct us_opcount {
    uint32_t ops;
    uint16_t n[5];               /* vec4 instructions per width 0..4        */
    uint16_t mem, bar;           /* of which memory, BAR / MEMBAR           */
};

/* Add vec4 instructions insts[first .. end) to *oc. */
void us_opcount_add(struct us_opcount *oc, const struct us_inst *insts,
                    unsigned first, unsigned end);

/* Lanes set in a lane mask.  A loop over the set bits: the x86-64 baseline
 * has no popcount instruction (__builtin_popcount calls libgcc), and the
 * masks the models count at each issue hold few lanes. */
static inline unsigned us_lanes(uint32_t m)
{
    unsigned n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* `lanes` threads executed an issue unit worth *oc. */
static inline void us_tcounts_exec(struct us_tcounts *c,
                                   const struct us_opcount *oc,
                                   uint64_t lanes)
{
    c->useful_ops += (uint64_t)oc->ops * lanes;
    for (unsigned w = 1; w <= 4; w++)
        c->width[w] += (uint64_t)oc->n[w] * lanes;
    c->mem_insts += (uint64_t)oc->mem * lanes;
    c->bar_insts += (uint64_t)oc->bar * lanes;
}

/* The memory counts of a run: mark the start (reset), then set c->mem to
 * what env->mem counted since (stats). */
void us_tcounts_mem_start(struct us_tcounts *c, const struct us_exec_env *env);
void us_tcounts_mem(struct us_tcounts *c, const struct us_exec_env *env);

/* Does a program use memory or barriers (a compute program, or one with
 * OPTION USHADER_extensions' memory instructions)?  Its runs report the
 * compute statistics (us_tcounts_report). */
bool us_program_computes(const struct us_program *prog);

/* A sequencer stopped thread t (us_flow_state.stopped): mark and count it
 * once.  The run is an error from then on (us_core_run), so a model ends
 * at the cycle's end instead of running the other threads to their own
 * budgets. */
static inline void us_tcounts_overrun(struct us_tcounts *c,
                                      struct us_thread *t)
{
    c->budget_overruns += !t->overrun;
    t->overrun = true;
}

/* The vec4 program's useful ops for a thread that executes every
 * instruction once (SPEC 3: sum of us_inst_useful_ops) and its width
 * histogram (width[1..4], instructions per width): the static figures,
 * which equal a thread's executed ones in straight-line code. */
uint64_t us_program_useful_ops(const struct us_program *prog,
                               uint64_t width[5]);

/*
 * Register the statistics every model reports (docs/METRICS.md):
 * cycles, threads, threads_per_cycle, latency, useful_ops, alu_lanes,
 * utilization, issued, stalls.*, idle, slot_occupancy (when slots_total),
 * instr_words, instr_bits, instr_mem_bits, lut.*, width.1..4 (shares of
 * executed vec4 instructions), for programs with flow control
 * branch_instructions, divergent_branches, masked_lane_slots,
 * budget_overruns, and for programs that compute (us_program_computes)
 * workgroups, memory.*, barrier_instructions, barrier_wait_cycles,
 * stalls.memory and stalls.barrier (the other stall causes and every
 * graphics statistic are as they were without them).  useful_ops and
 * width are what the threads executed (c->useful_ops, c->width).
 */
void us_tcounts_report(const struct us_tcounts *c, const struct us_config *cfg,
                       const struct us_program *prog, struct us_stats *st);

/* ---- The guard against a run that cannot go on ---------------------------- */

/*
 * A model that can make no progress must not step for ever: it kicks the
 * watchdog whenever something happens (an issue, a retirement, a
 * workgroup starting) and fails the run (us_core_model.failed) once
 * nothing has for `bound` cycles -- far longer than any wait a working
 * model has (the latencies and the LUT's queue), so it never fires on a
 * run that would finish.
 */
struct us_watchdog {
    uint64_t last, bound;
};

void us_watchdog_init(struct us_watchdog *w, const struct us_config *cfg);

static inline void us_watchdog_kick(struct us_watchdog *w, uint64_t now)
{
    w->last = now;
}

static inline bool us_watchdog_expired(const struct us_watchdog *w,
                                       uint64_t now)
{
    return now - w->last > w->bound;
}

/* "MODEL: no progress for N cycles: every thread waits for another
 * (a deadlock)"; returns true (failed). */
bool us_watchdog_error(const char *model, const struct us_watchdog *w,
                       struct us_diag *diag);

/* ---- Area and energy (shader/area.c, shader/area.def) -------------------- */

/*
 * The hardware of one modelled machine (all processors of the compared
 * configuration), in components whose cost shader/area.def gives.
 */
struct us_hw {
    unsigned fmul, fadd;       /* FP32 multipliers and adders (a fused MAD
                                  counts one of each); dot-product trees
                                  count their multipliers and adders      */
    uint64_t rf_bits;          /* register-file storage, all processors    */
    unsigned rf_ports;         /* read + write ports of each register file */
    unsigned rf_count;         /* register files                            */
    uint64_t lut_bits;         /* coefficient-LUT storage, all copies      */
    unsigned lut_ports;        /* LUT read ports (banks), all copies       */
    unsigned lut_xbar;         /* (bank, reader) connections of shared
                                  LUTs, all copies: the crossbar that
                                  sharing costs; 0 for private LUTs        */
    uint64_t imem_bits;        /* instruction memory, all copies           */
    unsigned issue_slots;      /* issue slots, all processors (control)    */
    unsigned sfu_full;         /* full SFUs: own multipliers and adder,
                                  range reduction, LUT counted in lut_bits */
    unsigned sfu_partial;      /* SPs with the partial SFU's added logic   */
    /* Integers and memory (compute).  Every datapath lane that executes
     * ALU operations has a 32-bit integer ALU (adder, logic, shifter,
     * leading-zero counter) and a 32x32 multiplier; the memory-system part
     * says how many load/store units and what cache its machine has
     * (us_memsys_hw, shader/memsys.h). */
    unsigned int_alu;          /* 32-bit integer ALUs                      */
    unsigned int_mul;          /* 32x32 integer multipliers                */
    unsigned lsus;             /* load/store units (per lane or per port)  */
    uint64_t cache_lines;      /* data-cache lines (0: no cache)           */
    unsigned cache_line_bits;  /* a line's data + tag + valid bits: what
                                  one access reads or a fill writes       */
    unsigned cache_banks;      /* banks (each with its own periphery)      */
};

/* The integer-datapath class of a vec4 opcode (isa/ops.def: an ALU
 * opcode with integer operands; I_MUL on the multiplier) and of a scalar
 * one (its INT kind; BFM, the scalar ISA's own helper, on the logic). */
enum us_int_kind { US_INT_NONE, US_INT_ALU, US_INT_MUL };

static inline enum us_int_kind us_op_int_kind(unsigned op)
{
    const struct us_opinfo *o = &us_ops[op];
    if (o->unit != US_UNIT_ALU || !(o->flags & (US_I_SRC | US_I_DST)))
        return US_INT_NONE;
    return o->flags & US_I_MUL ? US_INT_MUL : US_INT_ALU;
}

static inline enum us_int_kind us_sop_int_kind(unsigned sop)
{
    const struct us_sopinfo *s = &us_sops[sop];
    if (s->kind != US_SK_INT)
        return US_INT_NONE;
    return s->from < 0 ? US_INT_ALU : us_op_int_kind((unsigned)s->from);
}

/* Register-file capacity every model provisions per thread: 16 vec4
 * temporaries, ARB_fragment_program's minimum MAX_PROGRAM_TEMPORARIES
 * (its implementation-dependent minimum). */
enum { US_AREA_RF_VEC4_PER_THREAD = 16 };

/* What a run did, in events whose energy shader/area.def gives. */
struct us_activity {
    uint64_t fmul_ops, fadd_ops;   /* on the datapaths (SFU passes included
                                      for partial SFUs); integer operations
                                      are not MAD passes                    */
    uint64_t sfu_full_ops;         /* evaluations on full SFUs (their own
                                      LUT read included)                    */
    uint64_t rf_reads, rf_writes;  /* scalar (32-bit) register accesses     */
    uint64_t lut_reads;            /* reads of LUTs outside full SFUs (the
                                      partial SFU's shared or private LUT) */
    uint64_t imem_bits;            /* instruction bits fetched              */
    uint64_t issues;               /* issue events (control energy)         */
    uint64_t int_alu_ops;          /* integer components on the adder,
                                      logic or shifter (us_int_kind)        */
    uint64_t int_mul_ops;          /* integer components on the multiplier  */
    uint64_t mem_requests;         /* component requests through the LSUs
                                      (memsys.requests)                     */
    uint64_t cache_accesses;       /* data-cache bank accesses and line
                                      fills (mem_system=cache)              */
};

/* One executed issue unit's integer work: `n` components of class k. */
static inline void us_activity_int(struct us_activity *a, enum us_int_kind k,
                                   uint64_t n)
{
    if (k == US_INT_ALU)
        a->int_alu_ops += n;
    else if (k == US_INT_MUL)
        a->int_mul_ops += n;
}

/* The lockstep groups (knob lockstep) of `procs` processors: the memory
 * system's requesters on the vec4 models. */
static inline unsigned us_lockstep_groups(const struct us_config *cfg,
                                          unsigned procs)
{
    unsigned L = (unsigned)cfg->v[US_KNOB_lockstep];
    L = L < 1 ? 1 : L > procs ? procs : L;
    return procs ? (procs + L - 1) / L : 1;
}

/* Area of a machine in um^2 (45 nm). */
double us_area_um2(const struct us_hw *hw);

/* Energy of a run in pJ on machine *hw (its cache's line width). */
double us_energy_pj(const struct us_hw *hw, const struct us_activity *act);

/* The same energy by component (area_parts' grouping: a partial SFU's
 * work is the SPs' multiply-adds, in fp, and its LUT reads, in lut). */
struct us_energy_parts {
    double fp, rf, sfu, lut, imem, control, ints, lsu, cache;
};
double us_energy_split(const struct us_hw *hw, const struct us_activity *act,
                       struct us_energy_parts *parts);

/* The simd4 baseline's hardware at the same configuration (alu_lanes / 4
 * vec4 units with a dot-product tree and a full SFU each, an integer ALU
 * and multiplier per lane, the memory system's LSUs and cache), with
 * `imem_bits` of program: the normalization reference. */
void us_hw_simd4(const struct us_config *cfg, uint64_t imem_bits,
                 struct us_hw *hw);

/* The partial SFU's added logic per SP (range reduction shifters, leading-
 * zero counter, rounding, coefficient muxing), in um^2; the ratio to one SP
 * is reported as area.partial_sfu_share. */
double us_area_partial_sfu_logic(void);

/* The LUT of one SFU configuration, in bits. */
uint64_t us_area_lut_bits(const struct us_config *cfg);

/*
 * Register area (um^2), area_simd4 (area over the simd4 machine's at the
 * same configuration, with the simd4 program size that us_tcounts_report
 * registered as simd4_instr_mem_bits), energy (pJ), energy_per_thread,
 * area_delay (area x cycles) and the component breakdown (area.*, among
 * them area.int, area.lsu and area.cache).
 * `imem_bits` is the model's own program size.  Call after
 * us_tcounts_report.
 */
void us_area_report(const struct us_config *cfg, const struct us_hw *hw,
                    const struct us_activity *act, uint64_t imem_bits,
                    struct us_stats *st);

#endif
