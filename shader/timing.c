/* Helpers shared by the core models: see shader/timing.h. */
#include <string.h>

#include "shader/timing.h"

#include <stdio.h>

const char *const us_stall_names[US_STALL_COUNT] = {
    "dependency", "sfu", "lut", "texture", "fetch", "memory", "barrier",
};

void us_tsched_init(struct us_tsched *s, const struct us_config *cfg)
{
    s->policy = cfg->v[US_KNOB_sched] == 1 ? US_SCHED_OLDEST : US_SCHED_RR;
    s->last = 0;
}

int us_tsched_pick(struct us_tsched *s, unsigned n,
                   bool (*ready)(void *ctx, unsigned slot),
                   uint64_t (*age)(void *ctx, unsigned slot), void *ctx)
{
    if (n == 0)
        return -1;
    if (s->policy == US_SCHED_RR) {
        for (unsigned i = 1; i <= n; i++) {
            unsigned slot = (s->last + i) % n;
            if (ready(ctx, slot)) {
                s->last = slot;
                return (int)slot;
            }
        }
        return -1;
    }
    /* OLDEST: try slots by increasing age; n is small (threads_per_proc),
     * so a selection pass per try is cheaper than sorting. */
    uint64_t prev = 0;
    bool have_prev = false;
    for (unsigned tried = 0; tried < n; tried++) {
        int best = -1;
        uint64_t best_age = 0;
        for (unsigned slot = 0; slot < n; slot++) {
            uint64_t a = age ? age(ctx, slot) : slot;
            if (have_prev && a <= prev)
                continue;
            if (best < 0 || a < best_age) {
                best = (int)slot;
                best_age = a;
            }
        }
        if (best < 0)
            break;
        if (ready(ctx, (unsigned)best)) {
            s->last = (unsigned)best;
            return best;
        }
        prev = best_age;
        have_prev = true;
    }
    return -1;
}

void us_sb_clear(struct us_scoreboard *sb)
{
    memset(sb->ready, 0, sizeof sb->ready);
}

uint64_t us_sb_item_ready(const struct us_scoreboard *sb,
                          const struct us_sched_item *it)
{
    uint64_t at = 0;
    for (unsigned i = 0; i < it->nreads; i++) {
        uint64_t r = us_sb_ready(sb, it->reads[i]);
        if (r > at)
            at = r;
    }
    for (unsigned i = 0; i < it->nwrites; i++) {
        uint64_t r = us_sb_ready(sb, it->writes[i]);
        if (r > at)
            at = r;
    }
    return at;
}

void us_sb_item_write(struct us_scoreboard *sb, const struct us_sched_item *it,
                      uint64_t cycle)
{
    for (unsigned i = 0; i < it->nwrites; i++)
        us_sb_write(sb, it->writes[i], cycle);
}

unsigned us_unit_latency(const struct us_config *cfg, enum us_unit unit)
{
    switch (unit) {
    case US_UNIT_SFU: return (unsigned)cfg->v[US_KNOB_sfu_latency];
    case US_UNIT_TEX: return (unsigned)cfg->v[US_KNOB_tex_latency];
    case US_UNIT_BRANCH: return 1;  /* the sequencer decides next cycle */
    case US_UNIT_LSU: return (unsigned)cfg->v[US_KNOB_mem_latency];
    case US_UNIT_BARRIER: return 1;
    case US_UNIT_ALU:
    case US_UNIT_ADDR:
    case US_UNIT_COUNT:
        break;
    }
    return (unsigned)cfg->v[US_KNOB_alu_latency];
}

uint64_t us_program_useful_ops(const struct us_program *prog,
                               uint64_t width[5])
{
    uint64_t ops = 0;
    if (width)
        memset(width, 0, 5 * sizeof *width);
    for (unsigned i = 0; i < prog->ninsts; i++) {
        unsigned wd = us_inst_hist_width(&prog->insts[i]);
        ops += us_inst_useful_ops(&prog->insts[i]);
        if (width && wd <= 4)
            width[wd]++;
    }
    return ops;
}

void us_opcount_add(struct us_opcount *oc, const struct us_inst *insts,
                    unsigned first, unsigned end)
{
    for (unsigned i = first; i < end; i++) {
        unsigned wd = us_inst_hist_width(&insts[i]);
        enum us_unit u = us_ops[insts[i].op].unit;
        oc->ops += us_inst_useful_ops(&insts[i]);
        oc->n[wd <= 4 ? wd : 4]++;
        oc->mem += u == US_UNIT_LSU;
        oc->bar += u == US_UNIT_BARRIER;
    }
}

void us_tcounts_mem_start(struct us_tcounts *c, const struct us_exec_env *env)
{
    memset(&c->mem_base, 0, sizeof c->mem_base);
    if (env->mem)
        c->mem_base = env->mem->counts;
}

void us_tcounts_mem(struct us_tcounts *c, const struct us_exec_env *env)
{
    memset(&c->mem, 0, sizeof c->mem);
    if (!env->mem)
        return;
    const struct us_mem_counts *a = &env->mem->counts, *b = &c->mem_base;
    c->mem.loads = a->loads - b->loads;
    c->mem.stores = a->stores - b->stores;
    c->mem.atomics = a->atomics - b->atomics;
    c->mem.bytes = a->bytes - b->bytes;
    c->mem.oob = a->oob - b->oob;
}

bool us_program_computes(const struct us_program *prog)
{
    if (prog->stage == US_STAGE_COMPUTE)
        return true;
    for (unsigned i = 0; i < prog->ninsts; i++) {
        enum us_unit u = us_ops[prog->insts[i].op].unit;
        if (u == US_UNIT_LSU || u == US_UNIT_BARRIER)
            return true;
    }
    return false;
}

void us_watchdog_init(struct us_watchdog *w, const struct us_config *cfg)
{
    uint64_t lat = 0;
    for (unsigned u = 0; u < US_UNIT_COUNT; u++)
        lat += us_unit_latency(cfg, (enum us_unit)u);
    w->last = 0;
    w->bound = 4 * lat + 65536;
}

bool us_watchdog_error(const char *model, const struct us_watchdog *w,
                       struct us_diag *diag)
{
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "%s: no progress for %llu cycles: "
             "every thread waits for another (a deadlock)", model,
             (unsigned long long)w->bound);
    return true;
}

void us_tcounts_report(const struct us_tcounts *c, const struct us_config *cfg,
                       const struct us_program *prog, struct us_stats *st)
{
    const uint64_t *width = c->width;
    uint64_t ops = c->useful_ops;
    us_stats_counter(st, "cycles", "cycles until every thread retired",
                     (double)c->cycles);
    us_stats_counter(st, "threads", "threads retired", (double)c->threads);
    us_stats_formula(st, "threads_per_cycle", "throughput",
                     "threads / cycles");
    us_stats_counter(st, "latency_sum", "sum over threads of retire - start",
                     (double)c->latency_sum);
    us_stats_formula(st, "latency", "mean cycles from a thread's start to "
                     "its retirement", "latency_sum / threads");
    us_stats_counter(st, "useful_ops", "components the program asks for "
                     "(SPEC 3) in the instructions the threads executed",
                     (double)ops);
    us_stats_counter(st, "alu_lanes", "scalar ALU lanes compared",
                     cfg->v[US_KNOB_alu_lanes]);
    us_stats_formula(st, "utilization", "datapath utilization",
                     "useful_ops / (alu_lanes * cycles)");
    us_stats_counter(st, "issued", "issue events (instructions or bundles)",
                     (double)c->issued);
    if (prog && prog->npre)   /* docs/GLSL.md "Preshader" */
        us_stats_counter(st, "preshader_instructions", "vec4 instructions "
                         "the program's preshader ran once for the run's "
                         "parameters (us_resolve_params, before the threads: "
                         "in no cycle count)", (double)prog->npre);
    static const char *const stall_desc[US_STALL_COUNT] = {
        "processor-cycles waiting for a source register",
        "processor-cycles waiting for the SFU",
        "processor-cycles waiting for a shared-LUT bank",
        "processor-cycles waiting for a texture result",
        "processor-cycles waiting for instruction fetch",
        "processor-cycles waiting for a load's or atomic's result",
        "processor-cycles waiting at a barrier for the workgroup",
    };
    static const char *const stall_key[US_STALL_COUNT] = {
        "stalls.dependency", "stalls.sfu", "stalls.lut", "stalls.texture",
        "stalls.fetch", "stalls.memory", "stalls.barrier",
    };
    for (unsigned i = 0; i < US_STALL_MEMORY; i++)   /* compute's: below */
        us_stats_counter(st, stall_key[i], stall_desc[i], (double)c->stall[i]);
    us_stats_counter(st, "idle", "processor-cycles with no thread left",
                     (double)c->idle);
    if (c->slots_total) {
        us_stats_counter(st, "slots_filled", "issue slots holding an "
                         "operation", (double)c->slots_filled);
        us_stats_counter(st, "slots_total", "issue slots issued",
                         (double)c->slots_total);
        us_stats_formula(st, "slot_occupancy", "filled share of issued "
                         "slots", "slots_filled / slots_total");
    }
    us_stats_counter(st, "instr_words", "instruction words fetched",
                     (double)c->instr_words);
    us_stats_counter(st, "instr_bits", "instruction bits fetched",
                     (double)c->instr_bits);
    us_stats_counter(st, "instr_mem_bits", "program size in the model's "
                     "encoding", (double)c->instr_mem_bits);
    us_stats_counter(st, "simd4_instr_mem_bits", "the program's size in "
                     "simd4 words (area normalization)",
                     (double)prog->ninsts * us_target_word_bits(US_TARGET_SIMD4));
    us_stats_counter(st, "lut.accesses", "LUT bank reads",
                     (double)c->lut_accesses);
    us_stats_counter(st, "lut.merged", "requests answered by another's read "
                     "(multi-fetch)", (double)c->lut_merged);
    us_stats_counter(st, "lut.conflicts", "requests that waited for their "
                     "bank", (double)c->lut_conflicts);
    us_stats_counter(st, "lut.stall_cycles", "cycles requesters stalled "
                     "beyond the lookahead", (double)c->lut_stall_cycles);
    static const char *const wkey[5] = { NULL, "width.1", "width.2",
                                         "width.3", "width.4" };
    uint64_t total = width[1] + width[2] + width[3] + width[4];
    for (unsigned k = 1; k <= 4; k++)
        us_stats_counter(st, wkey[k], "share of executed vec4 instructions "
                         "with this many useful ops",
                         total ? (double)width[k] / (double)total : 0.0);
    if (prog->flow) {   /* straight-line code: the four below are 0 */
        us_stats_counter(st, "branch_instructions", "flow-control "
                         "instructions issued (once per lockstep group)",
                         (double)c->branches);
        us_stats_counter(st, "divergent_branches", "IFs and BRAs issued whose "
                         "active lanes disagreed", (double)c->divergent);
        us_stats_counter(st, "masked_lane_slots", "lane-cycles of issued "
                         "instructions on lanes that flow control masked off",
                         (double)c->masked_lane_slots);
        us_stats_counter(st, "budget_overruns", "threads stopped by the "
                         "instruction budget (max_instructions): the run "
                         "ended there, an error", (double)c->budget_overruns);
    }
    if (!us_program_computes(prog))
        return;
    for (unsigned i = US_STALL_MEMORY; i < US_STALL_COUNT; i++)
        us_stats_counter(st, stall_key[i], stall_desc[i], (double)c->stall[i]);
    us_stats_counter(st, "workgroups", "workgroups run (0: a graphics "
                     "workload)", (double)c->workgroups);
    us_stats_counter(st, "memory.instructions", "memory instructions "
                     "executed (LOAD STORE ATOM LDS STS ATOMS), all threads",
                     (double)c->mem_insts);
    us_stats_counter(st, "memory.loads", "component loads",
                     (double)c->mem.loads);
    us_stats_counter(st, "memory.stores", "component stores",
                     (double)c->mem.stores);
    us_stats_counter(st, "memory.atomics", "component atomics",
                     (double)c->mem.atomics);
    us_stats_counter(st, "memory.bytes", "bytes read and written (an "
                     "atomic: 8)", (double)c->mem.bytes);
    us_stats_counter(st, "memory.oob", "out-of-bounds accesses (read 0, "
                     "wrote nothing)", (double)c->mem.oob);
    us_stats_formula(st, "memory.requests_per_cycle", "component accesses "
                     "per cycle", "(memory.loads + memory.stores + "
                     "memory.atomics) / cycles");
    us_stats_counter(st, "barrier_instructions", "BAR and MEMBAR executed, "
                     "all threads", (double)c->bar_insts);
    us_stats_counter(st, "barrier_wait_cycles", "thread-cycles from a BAR "
                     "to its release", (double)c->barrier_wait);
}
