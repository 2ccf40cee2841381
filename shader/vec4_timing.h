/*
 * The issue engine shared by the four vec4-family baselines of SPEC
 * section 2 (simd4, vliw, superscalar, hetero).
 *
 * A model describes its code as a list of issue GROUPS, each a few OPS:
 *
 *   simd4, superscalar  one vec4 instruction per group (the superscalar
 *                       engine may co-issue group g+1 with group g);
 *   vliw                one bundle per group, its non-NOP scalar slots;
 *   hetero              one bundle per group: a vector-slot and/or a
 *                       scalar-slot vec4 instruction.
 *
 * Every processor holds threads_per_proc threads (shader/timing.h's queue,
 * pick policy and scoreboard).  Each cycle a processor issues at most one
 * group of one ready thread: ready when every register the group's ops
 * read or write is usable (RAW, WAW).  At issue the ops run through the
 * shared functional core, in an order that puts every reader of a register
 * before the group's writer of it (a bundle reads its operands before it
 * writes: the list scheduler's rule, isa/baseline_sched.c), so all models
 * leave the reference interpreter's bits.  An op's results become usable
 * `latency[unit]` cycles after the group's last issue cycle.
 *
 * Time: cycle c issues; a thread retires at the first cycle at which it
 * has issued everything and every result it produced is usable, and its
 * slot takes the next thread in that same cycle.  `cycles` is the cycle at
 * which the last thread retired, so a chain of k dependent operations of
 * latency L on one thread takes k * L cycles.
 *
 * Fetch, as on the scalar model: before issue, each processor fetches
 * words (a group is one word: a simd4 / superscalar instruction, a VLIW or
 * hetero bundle) into per-thread buffers of 2 words, the buffer holding the
 * fewest first in round-robin order; a group issues only from the buffer,
 * otherwise the thread is blocked on fetch (stalls.fetch).  fetch_width
 * words per cycle -- the dual-issue superscalar processor fetches twice as
 * many into buffers twice as large (fetch_width counts issue widths), else
 * a one-word fetch would forbid its co-issue by construction.
 *
 * Flow control: a thread's sequencer (a one-lane struct us_flow_state over
 * the groups) picks its next group; a flow group issues like any other
 * (one issue slot, no useful op, no datapath work) and, when the thread's
 * next group is not the following one, empties its fetch buffer: the words
 * after a taken branch are refetched from the target.
 *
 * Lockstep (knob lockstep = L > 1; 0 and 1 are the above): processors
 * gL .. gL+L-1 (the last group may be smaller) share one instruction
 * stream, as the pixel pipes of a quad did on the SIMD shaders of the
 * time.  Slot j of each is lane i of WARP j: one pc, one fetch buffer
 * (fetch_width words per cycle for the group, each fetched once for the
 * warp), one us_flow_state over the L lanes (active mask, reconvergence
 * stack: shader/flow.c).  Each cycle the group picks one warp (the
 * threads_per_proc policy over warps) whose next group's registers are
 * usable on every active lane, and issues it on all of the group's
 * processors: active lanes run it on their own registers, masked lanes
 * (a thread in the warp that flow control switched off) sit idle for the
 * issue's cycles -- lanes_per_proc lane slots each per cycle, counted in
 * masked_lane_slots and absent from useful_ops.  An IF or BRA whose active lanes
 * disagree counts a divergent branch.  `issued`, branch_instructions and
 * the fetched words count once per warp; slot occupancy counts the
 * active lanes' bundles.  A lane retires when the warp is past the end
 * and its own results are usable; the warp takes new threads only when
 * all its lanes have retired (they share one pc).  A cycle in which the
 * group issues nothing counts a stall per processor holding threads.
 * With L = 1 a warp is one thread and a group one processor: the same
 * code is the default engine.
 *
 * Stalls, as on the scalar model: a cycle in which a processor holding
 * threads issues nothing counts one stall, charged to the first thread
 * with work left that the policy tried -- a barrier, fetch, or the unit
 * class whose pending result it waits for (ALU/ADDR dependency, SFU sfu,
 * TEX texture, LSU memory); dependency when every thread is only
 * draining.  A processor without threads counts idle.
 *
 * Compute (a workload with workgroups, shader/workgroup.h), as on the
 * scalar model:
 *   - a memory op issues in one cycle: its requests, one per component of
 *     each active lane, go to the processor's load/store unit, which takes
 *     one request per lane per cycle, and a processor has at least as
 *     many lanes as a vec4 op has components; its results are usable
 *     mem_latency after issue.  Accesses take effect at issue, in the
 *     group's op order (program order: the static schedulers of vliw and
 *     hetero keep memory operations in it);
 *   - BAR and MEMBAR take one issue and no datapath work (BAR never
 *     co-issues on the superscalar processor); after a BAR a warp is not
 *     ready until its workgroup's barrier releases (stalls.barrier);
 *   - workgroups start whole, in whole warps, when enough are free (the
 *     order threads go round the processors); a warp that issues BAR with
 *     live lanes masked off fails the run, and a watchdog fails one in
 *     which nothing issues or retires for far longer than any latency.
 */
#ifndef US_SHADER_VEC4_TIMING_H
#define US_SHADER_VEC4_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/scalar.h"
#include "shader/core.h"
#include "shader/timing.h"

/* One operation of a group. */
struct vt_op {
    struct us_sched_item item;  /* registers read and written */
    uint8_t unit;               /* enum us_unit, from us_ops / us_sops    */
    uint8_t width;              /* datapath components it occupies        */
    uint8_t ikind;              /* enum us_int_kind: integer ALU work      */
    uint8_t flow;               /* enum us_flow_kind                      */
    bool bar;                   /* BAR: the workgroup's barrier            */
    bool always;                /* BRA: jumps whatever its sources        */
    unsigned ref;               /* index into the code's vec4 or scalar
                                   instructions (functional execution)    */
    uint32_t target;            /* BRA: the group it jumps to (vt_code_add_*
                                   copy the instruction's target; a model
                                   whose groups are not its instructions
                                   sets it)                               */
    struct us_opcount w;        /* the vec4 program's work it stands for  */
};

/* One issue group.  A flow instruction is a group of its own (the
 * compilers never bundle it), and the groups' flow kinds, linked, are the
 * code's flow control: each warp (a thread, or with lockstep the threads
 * of one slot across a group of processors) is a us_flow_state over the
 * groups. */
struct vt_group {
    unsigned first, nops;       /* ops[first .. first + nops)              */
    uint8_t issues;             /* cycles the issue stage spends on it     */
    uint8_t flow;               /* enum us_flow_kind of its one op, or NONE */
    bool bar;                   /* it holds a BAR                          */
    struct us_opcount w;        /* the sum of its ops'                     */
};

/* A model's code: groups over ops, and the instructions the ops run.
 * Exactly one of `vinsts` (vec4, run by us_interpret_inst) and `sinsts`
 * (scalar, run by us_scalar_step) is set. */
struct vt_code {
    struct vt_op *ops;
    unsigned nops, ops_cap;
    struct vt_group *groups;
    unsigned ngroups, groups_cap;
    const struct us_inst *vinsts;  /* the program's, or vinsts_owned      */
    struct us_inst *vinsts_owned;  /* a reordered copy (hetero)          */
    struct us_sinst *sinsts;    /* owned                                   */
    uint64_t mem_words;         /* instruction-memory words of the program */
    struct us_flow *flow;       /* over the groups (vt_create links it);
                                   NULL: straight-line code                */
};

void vt_code_free(struct vt_code *c);

/* Append a vec4 op (instruction `ref` of c->vinsts) or a scalar op
 * (c->sinsts[ref], standing for the vec4 work *w) to the code; false when
 * out of memory. */
US_MUST_CHECK bool vt_code_add_vec4(struct vt_code *c, unsigned ref);
US_MUST_CHECK bool vt_code_add_scalar(struct vt_code *c, unsigned ref,
                                      const struct us_opcount *w);

/* Close a group over the ops appended since the last group, putting each
 * op that reads a register before the op of the group that writes it.
 * `issues` is 1, or 2 for a hetero bundle whose vector op is wider than
 * its datapath. */
US_MUST_CHECK bool vt_code_group(struct vt_code *c, unsigned issues);

/* What a model tells the engine besides its code. */
struct vt_desc {
    const char *name;
    enum us_target target;      /* instruction-memory word width           */
    unsigned procs;             /* processors                              */
    unsigned lanes_per_proc;    /* scalar ALU lanes of one processor       */
    unsigned nslots;            /* issue slots per group, reported as slot
                                   occupancy (vliw); 0 = not reported      */
    bool dual;                  /* superscalar co-issue of two groups      */
    unsigned latency[US_UNIT_COUNT];  /* the model's table, by unit class  */
    struct us_hw hw;            /* area: the model's components            */
};

/* The engine's create: takes ownership of *code (freed on failure too). */
US_MUST_CHECK struct us_core *vt_create(const struct us_config *cfg,
                                        const struct us_workload *w,
                                        const struct vt_desc *desc,
                                        struct vt_code *code,
                                        struct us_diag *diag);
void vt_reset(struct us_core *core);
bool vt_step(struct us_core *core);
void vt_stats(const struct us_core *core, struct us_stats *st);
void vt_destroy(struct us_core *core);
bool vt_failed(const struct us_core *core, struct us_diag *diag);

/* A create's failure for want of memory: frees *code, fills *diag. */
struct us_core *vt_oom(const char *name, struct vt_code *code,
                       struct us_diag *diag);

/* The model's latency table: us_unit_latency per unit class. */
void vt_latencies(const struct us_config *cfg, unsigned lat[US_UNIT_COUNT]);

/* Processors of `lanes_per_proc` lanes that fit in alu_lanes (at least
 * one). */
unsigned vt_procs(const struct us_config *cfg, unsigned lanes_per_proc);

/* A model built of processors of `width` lanes takes alu_lanes only as a
 * multiple of it: otherwise false, diag naming the model (`what`) and the
 * counts it accepts.  Each vec4 model's check, called by its create. */
US_MUST_CHECK bool vt_check_lanes(const struct us_config *cfg,
                                  const char *what, unsigned width,
                                  struct us_diag *diag);

#endif
