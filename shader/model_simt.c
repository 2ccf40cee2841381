/*
 * --arch simt: a SIMT core of warps in lockstep (docs/SIMT.md), the
 * execution model of the seeds' GPUs (kGPU, the FPGA tiny-gpu fork and
 * upstream tiny-gpu, e-GPU, DICE; configs/ has each one's preset).
 *
 * The machine: alu_lanes / simt_warp_size cores, each with simt_warps warp
 * slots of simt_warp_size lanes.  Every lane runs its own thread with its
 * own sequencer (a one-lane us_flow_state), through the reference
 * interpreter's per-instruction entry, so the registers and memory are
 * the interpreter's whatever the timing; the reconvergence policy
 * (shader/reconv.h, knob reconv) chooses which lanes issue together, and
 * the memory system (shader/memsys.h, knob mem_system) when their
 * requests complete.
 *
 * One issue is a source instruction: a group `A | B;` (a seed machine's
 * instruction, seeds/) or one IR instruction, which a scalar lane runs
 * as one instruction per component of its write mask (k below; 1 for
 * flow control and barriers).
 *
 * Time, per core (simt_pipelined = 0, the seeds' unpipelined FSMs): one
 * warp instruction at a time goes through every state,
 *   pre    = simt_select + simt_fetch + simt_decode + simt_issue
 *   exec   = simt_exec + ceil(lanes / simt_exec_width)
 *   cost   = k (pre + exec + simt_commit)
 *            + for memory: simt_lsu + the memory system's span (its last
 *              request's completion after they left at now + pre)
 *            + for a texture fetch: tex_latency,
 * where `lanes` is the warp's width, or with simt_dispatch = active
 * (DICE's selective dispatch) the lanes that issue.  With simt_park_loads
 * a load frees the FSM after `pre`; its warp waits for the data and then
 * takes the FSM for its exec and commit states when next picked.  With
 * simt_pipelined = 1 a core starts an instruction every k ceil(lanes /
 * simt_exec_width) cycles and a warp's next instruction waits until the
 * results of its last are in: its start + that + simt_exec (memory: the
 * span + simt_lsu), the FSM's other states being overlapped.
 *
 * Warps: when its FSM (or pipeline) is free, a core picks a ready warp,
 * round robin from the last one (simt_warp_sched = rr, skipping finished
 * warps: kGPU) or the lowest-index ready one (lowest: the fork).  A
 * workgroup takes the lowest free warp slots of the lowest core that has
 * enough (simt_block = warp: kGPU's dispatcher) or a whole free core
 * (core: the fork, tiny-gpu), and its warps hold its threads in order,
 * the last one masked past its end; graphics threads fill free warps in
 * order.  A slot frees when its warp's last results are in, and a new
 * workgroup may take it in that cycle.  The run starts simt_launch cycles
 * late (dispatch and done, kGPU's 3, e-GPU's software scheduler).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/core.h"
#include "shader/decode.h"
#include "shader/memsys.h"
#include "shader/reconv.h"
#include "shader/timing.h"
#include "shader/workgroup.h"

enum { MAX_REQS = US_FLOW_MAX_LANES * US_MEM_TRACE_MAX };

/* A group's class: its heaviest instruction's. */
enum group_class { G_ALU, G_FLOW, G_BAR, G_TEX, G_MEM };

/* What else a group holds. */
enum { F_BRANCH = 1, F_BAR = 2 };

struct lane {
    unsigned tid;
    uint64_t start;
    struct us_flow_state fs;
};

struct warp {
    uint32_t present;           /* lanes holding a thread; 0: free slot  */
    uint32_t done;              /* of which finished                     */
    int wg;                     /* workgroup entry; -1: graphics          */
    uint64_t ready_at;          /* its next instruction may start        */
    unsigned resume;            /* FSM cycles its parked load still needs */
    struct us_simt_warp view;
    struct us_reconv rs;
    struct lane lane[US_FLOW_MAX_LANES];
};

struct simt_core {
    uint64_t free_at;           /* the FSM (pipeline) takes a warp then  */
    unsigned last;              /* the warp that issued last             */
    struct warp *warp;
};

struct us_core {
    struct us_config cfg;
    const struct us_workload *w;
    struct us_exec_env env;     /* the workload's, noting accesses here  */
    struct us_mem_trace trace;
    struct us_dinst *dec;       /* the program's instructions, decoded once */
    const struct us_reconv_part *policy;
    struct us_memsys *mem;
    const struct us_memsys_part *mpart;
    /* The code, per instruction that starts an issue group. */
    unsigned n;
    uint32_t *ipdom, *next;
    uint8_t *sync, *flags, *cls, *k;
    struct us_opcount *oc;
    struct us_activity *gact;   /* one lane's datapath and RF events      */
    unsigned ngroups;
    struct us_reconv_code rcode;
    /* The machine. */
    unsigned W, nwarps, ncores, pre, exec_fill, width, commit;
    unsigned fetch_gap, park_cycles, replay, refill, inst_bits;
    uint64_t fetch_free;        /* the shared program channel's next pick */
    bool pipelined, selective, park, lowest, by_core;
    struct simt_core *cores;
    struct warp *warps;
    struct us_wgs wgs;
    struct us_tqueue queue;
    /* The run. */
    uint64_t now, fsm_busy;
    uint64_t active_slots, empty_slots;  /* lane-slots issued: active, and
                                           lanes no thread holds */
    struct us_tcounts counts;
    struct us_reconv_stats rstats;
    struct us_activity act;
    struct us_watchdog dog;
    bool finished, failed;
    struct us_diag why;
    struct us_mem_req req[MAX_REQS];   /* one issue's requests */
    uint64_t req_done[MAX_REQS];
};

/* ---- The code's issue groups ------------------------------------------- */

static unsigned components(const struct us_inst *in)
{
    unsigned k = (unsigned)__builtin_popcount(in->dst.mask);
    return k ? k : 1;
}

static enum group_class inst_class(const struct us_inst *in)
{
    if (us_op_flow_kind(in->op) != US_FLOW_NONE)
        return G_FLOW;
    switch ((enum us_unit)us_ops[in->op].unit) {
    case US_UNIT_LSU: return G_MEM;
    case US_UNIT_TEX: return G_TEX;
    case US_UNIT_BARRIER: return G_BAR;
    default: return G_ALU;
    }
}

static bool build_code(struct us_core *c, struct us_diag *diag)
{
    const struct us_program *prog = c->w->prog;
    unsigned n = c->n = prog->ninsts, m = n ? n : 1;
    c->ipdom = malloc(m * sizeof *c->ipdom);
    c->next = malloc(m * sizeof *c->next);
    c->sync = calloc(m, 1);
    c->flags = calloc(m, 1);
    c->cls = calloc(m, 1);
    c->k = calloc(m, 1);
    c->oc = calloc(m, sizeof *c->oc);
    c->gact = calloc(m, sizeof *c->gact);
    if (!c->ipdom || !c->next || !c->sync || !c->flags || !c->cls || !c->k ||
        !c->oc || !c->gact ||
        (prog->flow && !us_flow_ipdoms(prog->flow, c->ipdom))) {
        snprintf(diag->msg, sizeof diag->msg, "simt: out of memory");
        return false;
    }
    for (unsigned pc = 0; pc < n;) {
        unsigned end = pc + 1;
        while (end < n && prog->insts[end].joined)
            end++;
        enum group_class cls = G_ALU;
        for (unsigned i = pc; i < end; i++) {
            enum group_class ci = inst_class(&prog->insts[i]);
            cls = ci > cls ? ci : cls;
            c->flags[pc] |= (ci == G_FLOW ? F_BRANCH : 0) |
                            (prog->insts[i].op == US_OP_BAR ? F_BAR : 0);
            c->sync[pc] |= prog->insts[i].op == US_OP_SYNC;
        }
        for (unsigned i = pc; i < end; i++) {
            const struct us_inst *in = &prog->insts[i];
            unsigned k = components(in), u = us_ops[in->op].unit;
            struct us_activity *a = &c->gact[pc];
            enum us_int_kind ik = us_op_int_kind(in->op);
            us_activity_int(a, ik, k);
            a->fmul_ops += u == US_UNIT_ALU && ik == US_INT_NONE ? k : 0;
            a->fadd_ops += u == US_UNIT_ALU && ik == US_INT_NONE ? k : 0;
            a->sfu_full_ops += u == US_UNIT_SFU ? k : 0;
            if (inst_class(in) != G_FLOW) {
                a->rf_reads += (uint64_t)us_ops[in->op].nsrc * k;
                a->rf_writes += in->dst.mask ? k : 0;
            }
            c->next[i] = end;
            if (!prog->flow)
                c->ipdom[i] = i + 1;
        }
        c->cls[pc] = (uint8_t)cls;
        c->k[pc] = (uint8_t)(end - pc > 1 || cls == G_FLOW || cls == G_BAR
                                 ? 1 : components(&prog->insts[pc]));
        us_opcount_add(&c->oc[pc], prog->insts, pc, end);
        c->ngroups++;
        pc = end;
    }
    c->rcode = (struct us_reconv_code){
        .n = n, .ipdom = c->ipdom, .next = c->next, .sync = c->sync,
        .depth = (unsigned)c->cfg.v[US_KNOB_reconv_depth],
    };
    return true;
}

/* ---- Slots and workgroups ------------------------------------------------ */

static struct warp *warp_of(const struct us_core *c, unsigned core, unsigned j)
{
    return &c->cores[core].warp[j];
}

static void finish_lanes(struct us_core *c, struct warp *wp);

/* Warp wp takes threads first .. first + count - 1 (count <= W). */
static void warp_begin(struct us_core *c, struct warp *wp, unsigned first,
                       unsigned count, int wg, uint64_t ready)
{
    wp->present = count == 32 ? UINT32_MAX : (1u << count) - 1;
    wp->done = 0;
    wp->wg = wg;
    wp->ready_at = ready;
    wp->resume = 0;
    wp->view.nlanes = c->W;
    wp->view.live = wp->present;
    for (unsigned i = 0; i < count; i++) {
        struct lane *l = &wp->lane[i];
        l->tid = first + i;
        l->start = c->now;
        us_flow_start(&l->fs, 1, c->env.max_insts);
        wp->view.pc[i] = 0;
        struct us_thread *t = us_workload_start(c->w, l->tid);
        t->overrun = false;
        if (wg >= 0)
            us_wgs_place(&c->wgs, wg, t);
    }
    c->policy->start(&wp->rs, &wp->view);
    if (!c->n) {   /* an empty program: finished before it starts */
        wp->view.live = 0;
        finish_lanes(c, wp);
    }
    us_watchdog_kick(&c->dog, c->now);
}

static unsigned free_slots(const struct us_core *c, unsigned i)
{
    unsigned k = 0;
    for (unsigned j = 0; j < c->nwarps; j++)
        k += !warp_of(c, i, j)->present;
    return k;
}

/* Start workgroups while a core has room: its lowest free slots
 * (simt_block = warp), or all of them (core); their warps may issue
 * from `ready`. */
static void admit(struct us_core *c, uint64_t ready)
{
    unsigned G = c->wgs.size, need = (G + c->W - 1) / c->W;
    for (;;) {
        int core = -1;
        for (unsigned i = 0; i < c->ncores && core < 0; i++) {
            unsigned f = free_slots(c, i);
            if (c->by_core ? f == c->nwarps : f >= need)
                core = (int)i;
        }
        uint32_t first;
        int e;
        if (core < 0 || (e = us_wgs_admit(&c->wgs, &first)) < 0)
            return;
        for (unsigned j = 0, left = G; j < c->nwarps && left; j++) {
            struct warp *wp = warp_of(c, (unsigned)core, j);
            if (wp->present)
                continue;
            unsigned count = left < c->W ? left : c->W;
            warp_begin(c, wp, first + G - left, count, e, ready);
            left -= count;
        }
    }
}

/* Graphics: free warps take the next W threads of the queue. */
static void fill(struct us_core *c, uint64_t ready)
{
    for (unsigned j = 0; j < c->nwarps; j++)
        for (unsigned i = 0; i < c->ncores; i++) {
            struct warp *wp = warp_of(c, i, j);
            unsigned first, tid, count = 0;
            if (wp->present || !us_tqueue_take(&c->queue, &first))
                continue;
            for (count = 1; count < c->W && us_tqueue_take(&c->queue, &tid);)
                count++;
            warp_begin(c, wp, first, count, -1, ready);
        }
}

/* ---- Issue --------------------------------------------------------------- */

/* Lane i of wp runs the group at its pc; its accesses are appended to
 * c->req[*nreq] (leaving at `at`).  True when it has finished. */
static bool lane_run(struct us_core *c, struct warp *wp, unsigned i,
                     uint64_t at, unsigned *nreq)
{
    const struct us_program *prog = c->w->prog;
    struct lane *l = &wp->lane[i];
    struct us_thread *t = us_workload_thread(c->w, l->tid);
    unsigned end = c->next[l->fs.pc];
    c->trace.n = 0;
    while (l->fs.pc < end) {
        unsigned pc = l->fs.pc;
        bool cond = us_interpret_dinst(&c->dec[pc], &c->env, t);
        us_flow_advance(&l->fs, prog->flow, cond);
        if (l->fs.pc != pc + 1)
            break;
    }
    unsigned na = c->trace.n < US_MEM_TRACE_MAX ? c->trace.n
                                                 : US_MEM_TRACE_MAX;
    for (unsigned a = 0; a < na && *nreq < MAX_REQS; a++) {
        const struct us_mem_access *ma = &c->trace.a[a];
        c->req[(*nreq)++] = (struct us_mem_req){
            .at = at, .addr = ma->addr, .space = ma->space,
            .bytes = ma->bytes, .kind = ma->kind, .lane = (uint8_t)i,
        };
    }
    if (l->fs.stopped)
        us_tcounts_overrun(&c->counts, t);
    return us_flow_done(&l->fs, c->n) || l->fs.stopped;
}

static bool fail_at(struct us_core *c, unsigned pc)
{
    c->failed = true;
    if (pc < c->n)
        c->why.line = c->w->prog->insts[pc].line;
    return false;
}

/* The lanes of wp that finished since the last issue: their sequencers
 * end (a policy may have ended them: none), their workgroup learns it. */
static void finish_lanes(struct us_core *c, struct warp *wp)
{
    for (uint32_t m = wp->present & ~wp->done & ~wp->view.live; m;
         m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        struct lane *l = &wp->lane[i];
        l->fs.pc = c->n;
        if (wp->wg >= 0)
            us_wgs_finish(&c->wgs, wp->wg, l->tid,
                          us_workload_thread(c->w, l->tid),
                          c->now);
        wp->done |= 1u << i;
    }
    for (uint32_t m = wp->present & wp->view.live; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        wp->lane[i].fs.pc = wp->view.pc[i];   /* none moves them */
    }
}

/* When an instruction issued now starts: an FSM's fetch waits for the
 * program channel the cores share, if any (simt_fetch_gap). */
static uint64_t start(struct us_core *c)
{
    if (c->pipelined || !c->fetch_gap)
        return c->now;
    uint64_t want = c->now + (unsigned)c->cfg.v[US_KNOB_simt_select];
    uint64_t wait = c->fetch_free > want ? c->fetch_free - want : 0;
    c->fetch_free = want + wait + c->fetch_gap;
    return c->now + wait;
}

/* When an issue at pc on `lanes` (started at t, its nreq requests, in
 * c->req, leaving at `at`) frees its core and its warp (docs/SIMT.md). */
static void time_issue(struct us_core *c, struct simt_core *cr,
                       struct warp *wp, unsigned pc, uint32_t lanes,
                       uint64_t t, uint64_t at, unsigned nreq)
{
    unsigned k = c->k[pc];
    unsigned seq = c->selective ? (unsigned)__builtin_popcount(lanes) : c->W;
    uint64_t occ = (uint64_t)k * ((seq + c->width - 1) / c->width);
    uint64_t span = 0;   /* after `at`: the memory's, a texture's latency */
    if (nreq) {
        c->mpart->access(c->mem, (unsigned)(cr - c->cores), c->req, nreq,
                         c->req_done);
        for (unsigned r = 0; r < nreq; r++)
            if (c->req_done[r] - at > span)
                span = c->req_done[r] - at;
        span += (uint64_t)c->cfg.v[US_KNOB_simt_lsu];
    }
    if (c->cls[pc] == G_TEX)
        span += (uint64_t)c->cfg.v[US_KNOB_tex_latency];
    if (c->pipelined) {
        cr->free_at = t + occ;
        wp->ready_at = t + occ + (span ? span : c->exec_fill);
        c->fsm_busy += occ;
    } else if (c->park && nreq) {   /* the FSM serves other warps meanwhile */
        uint64_t parked = at + c->park_cycles;
        cr->free_at = parked;
        wp->ready_at = at + span > parked ? at + span : parked;
        wp->resume = c->replay;
        c->fsm_busy += parked - c->now;
    } else {
        uint64_t states = k * (c->pre + c->exec_fill + c->commit) + occ;
        cr->free_at = wp->ready_at = t + states + span;
        c->fsm_busy += cr->free_at - c->now;
    }
}

/* The statistics of an issue at pc on `lanes`. */
static void count_issue(struct us_core *c, const struct warp *wp,
                        unsigned pc, uint32_t lanes)
{
    unsigned k = c->k[pc], nl = (unsigned)__builtin_popcount(lanes);
    c->counts.issued++;
    c->counts.masked_lane_slots +=
        (uint64_t)k * (unsigned)__builtin_popcount(wp->present & ~lanes);
    c->active_slots += (uint64_t)k * nl;
    c->empty_slots += (uint64_t)k * (c->W - (unsigned)__builtin_popcount(wp->present));
    us_tcounts_exec(&c->counts, &c->oc[pc], nl);
    c->counts.branches += (c->flags[pc] & F_BRANCH) != 0;
    c->counts.divergent = c->rstats.divergent;
    const struct us_activity *ga = &c->gact[pc];
    c->act.fmul_ops += ga->fmul_ops * nl;
    c->act.fadd_ops += ga->fadd_ops * nl;
    c->act.sfu_full_ops += ga->sfu_full_ops * nl;
    c->act.int_alu_ops += ga->int_alu_ops * nl;
    c->act.int_mul_ops += ga->int_mul_ops * nl;
    c->act.rf_reads += ga->rf_reads * nl;
    c->act.rf_writes += ga->rf_writes * nl;
    c->counts.instr_words += k;
    c->counts.instr_bits += (uint64_t)k * c->inst_bits;
}

/* The pipeline event of warp wp of core cr issuing the group at pc on
 * `lanes` now (a parked load resuming: "resume"), done when the warp may
 * issue again. */
static void event_issue(const struct us_core *c, const struct simt_core *cr,
                        const struct warp *wp, unsigned pc, uint32_t lanes)
{
    struct us_event ev = {
        .kind = US_EVENT_ISSUE, .cycle = c->now, .done = wp->ready_at,
        .proc = (unsigned)(cr - c->cores), .slot = (unsigned)(wp - cr->warp),
        .thread = wp->lane[__builtin_ctz(lanes ? lanes : wp->present)].tid,
        .lanes = (unsigned)__builtin_popcount(lanes), .pc = pc,
        .name = lanes ? us_ops[c->w->prog->insts[pc].op].name : "resume",
    };
    us_event_emit(c->w->events, &ev);
}

/* Warp wp of core cr issues its next group; false when the run fails. */
static bool issue(struct us_core *c, struct simt_core *cr, struct warp *wp)
{
    if (wp->resume) {   /* a parked load's exec and commit states */
        cr->free_at = wp->ready_at = c->now + wp->resume;
        c->fsm_busy += wp->resume;
        wp->resume = 0;
        if (c->w->events)
            event_issue(c, cr, wp, 0, 0);
        return true;
    }
    unsigned pc;
    uint32_t lanes = c->policy->pick(&wp->rs, &wp->view, &c->rcode, &pc);
    if (!lanes)
        return true;
    bool bar = c->flags[pc] & F_BAR;
    if (bar && lanes != wp->view.live) {
        us_wgs_divergent_error("simt", c->w->prog, pc,
                               (unsigned)__builtin_popcount(wp->view.live &
                                                            ~lanes), &c->why);
        c->failed = true;
        return false;
    }
    uint64_t t = start(c);
    unsigned nreq = 0;
    uint64_t at = t + (c->pipelined ? 0 : c->pre);
    for (uint32_t m = lanes; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        bool end = lane_run(c, wp, i, at, &nreq);
        wp->view.pc[i] = end ? c->n : wp->lane[i].fs.pc;
        if (end)
            wp->view.live &= ~(1u << i);
        if (bar && wp->wg >= 0)
            us_wgs_bar(&c->wgs, wp->wg, wp->lane[i].tid, c->now);
    }
    if (!c->policy->issued(&wp->rs, &wp->view, &c->rcode, lanes, pc,
                           &c->rstats, &c->why))
        return fail_at(c, pc);
    finish_lanes(c, wp);

    time_issue(c, cr, wp, pc, lanes, t, at, nreq);
    if (c->w->events)
        event_issue(c, cr, wp, pc, lanes);
    count_issue(c, wp, pc, lanes);
    cr->last = (unsigned)(wp - cr->warp);
    us_watchdog_kick(&c->dog, c->now);
    return true;
}

/* Can wp issue now?  If not, *why says what it waits for. */
static bool warp_ready(const struct us_core *c, const struct warp *wp,
                       enum us_stall *why)
{
    if (!wp->present || wp->done == wp->present)
        return false;
    if (wp->ready_at > c->now) {
        *why = wp->resume ? US_STALL_MEMORY : US_STALL_DEPENDENCY;
        return false;
    }
    uint32_t live = wp->view.live;
    if (wp->wg >= 0 && live &&
        us_wgs_waiting(&c->wgs, wp->wg,
                       wp->lane[__builtin_ctz(live)].tid, c->now)) {
        *why = US_STALL_BARRIER;
        return false;
    }
    return true;
}

static void step_core(struct us_core *c, struct simt_core *cr)
{
    if (cr->free_at > c->now)
        return;
    enum us_stall why = US_STALL_COUNT;
    bool any = false;
    for (unsigned s = 0; s < c->nwarps; s++) {
        unsigned j = c->lowest ? s : (cr->last + 1 + s) % c->nwarps;
        struct warp *wp = &cr->warp[j];
        any |= wp->present && wp->done != wp->present;
        enum us_stall w = US_STALL_COUNT;
        if (warp_ready(c, wp, &w)) {
            issue(c, cr, wp);
            return;
        }
        if (why == US_STALL_COUNT)
            why = w;
    }
    if (!any)
        c->counts.idle++;
    else if (why != US_STALL_COUNT) {
        c->counts.stall[why]++;
        us_event_stall(c->w->events, c->now, (unsigned)(cr - c->cores), why);
    }
}

/* Warps whose threads have all finished and whose results are in free
 * their slots. */
static bool retire(struct us_core *c)
{
    bool freed = false;
    for (unsigned i = 0; i < c->ncores; i++)
        for (unsigned j = 0; j < c->nwarps; j++) {
            struct warp *wp = warp_of(c, i, j);
            if (!wp->present || wp->done != wp->present ||
                wp->ready_at > c->now)
                continue;
            for (uint32_t m = wp->present; m; m &= m - 1) {
                us_event_retire(c->w->events, c->now, i, j,
                                wp->lane[__builtin_ctz(m)].tid);
                us_workload_retire(c->w, wp->lane[__builtin_ctz(m)].tid);
                c->counts.threads++;
                c->counts.latency_sum +=
                    c->now - wp->lane[__builtin_ctz(m)].start;
            }
            wp->present = 0;
            freed = true;
        }
    if (freed)
        us_watchdog_kick(&c->dog, c->now);
    return freed;
}

/* ---- The timing interface ------------------------------------------------ */

static bool simt_check(const struct us_config *cfg, struct us_diag *diag)
{
    int W = cfg->v[US_KNOB_simt_warp_size], lanes = cfg->v[US_KNOB_alu_lanes];
    if (lanes % W) {
        snprintf(diag->msg, sizeof diag->msg, "simt: alu_lanes %d is not a "
                 "multiple of simt_warp_size %d (cores of whole warps)",
                 lanes, W);
        return false;
    }
    return true;
}

static void simt_reset(struct us_core *c)
{
    c->now = 0;
    c->fsm_busy = 0;
    c->active_slots = c->empty_slots = 0;
    c->finished = c->failed = false;
    memset(&c->counts, 0, sizeof c->counts);
    memset(&c->rstats, 0, sizeof c->rstats);
    memset(&c->act, 0, sizeof c->act);
    us_tcounts_mem_start(&c->counts, c->w->env);
    us_watchdog_init(&c->dog, &c->cfg);
    us_wgs_reset(&c->wgs);
    us_tqueue_init(&c->queue, c->w->nthreads);
    c->mpart->reset(c->mem);
    c->counts.instr_mem_bits = (uint64_t)c->ngroups * c->inst_bits;
    c->fetch_free = 0;
    uint64_t launch = (uint64_t)c->cfg.v[US_KNOB_simt_launch];
    for (unsigned i = 0; i < c->ncores; i++) {
        c->cores[i].free_at = launch;
        c->cores[i].last = c->nwarps - 1;   /* rr starts at warp 0 */
        for (unsigned j = 0; j < c->nwarps; j++)
            warp_of(c, i, j)->present = 0;
    }
    if (us_wgs_on(&c->wgs))
        admit(c, 0);
    else
        fill(c, 0);
}

static void simt_destroy(struct us_core *c)
{
    if (!c)
        return;
    /* a run that failed leaves threads pointing at shared memory */
    for (unsigned i = 0; c->warps && i < c->ncores * c->nwarps; i++)
        for (uint32_t m = c->warps[i].present & ~c->warps[i].done; m;
             m &= m - 1)
            if (c->warps[i].wg >= 0)
                us_workload_thread(c->w, c->warps[i].lane[
                                       __builtin_ctz(m)].tid)->shared = NULL;
    if (c->mem)
        c->mpart->destroy(c->mem);
    us_wgs_free(&c->wgs);
    free(c->warps);
    free(c->cores);
    free(c->dec);
    free(c->ipdom);
    free(c->next);
    free(c->sync);
    free(c->flags);
    free(c->cls);
    free(c->k);
    free(c->oc);
    free(c->gact);
    free(c);
}

static struct us_core *simt_create(const struct us_config *cfg,
                                   const struct us_workload *w,
                                   struct us_diag *diag)
{
    if (!simt_check(cfg, diag))
        return NULL;
    struct us_core *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(diag->msg, sizeof diag->msg, "simt: out of memory");
        return NULL;
    }
    c->cfg = *cfg;
    c->w = w;
    c->env = *w->env;
    c->env.trace = &c->trace;
    c->W = (unsigned)cfg->v[US_KNOB_simt_warp_size];
    c->nwarps = (unsigned)cfg->v[US_KNOB_simt_warps];
    c->ncores = (unsigned)cfg->v[US_KNOB_alu_lanes] / c->W;
    c->pre = (unsigned)(cfg->v[US_KNOB_simt_select] +
                        cfg->v[US_KNOB_simt_fetch] +
                        cfg->v[US_KNOB_simt_decode] +
                        cfg->v[US_KNOB_simt_issue]);
    c->exec_fill = (unsigned)cfg->v[US_KNOB_simt_exec];
    c->width = (unsigned)cfg->v[US_KNOB_simt_exec_width];
    c->commit = (unsigned)cfg->v[US_KNOB_simt_commit];
    c->fetch_gap = (unsigned)cfg->v[US_KNOB_simt_fetch_gap];
    c->park_cycles = (unsigned)cfg->v[US_KNOB_simt_park_cycles];
    c->replay = (unsigned)cfg->v[US_KNOB_simt_replay];
    c->refill = (unsigned)cfg->v[US_KNOB_simt_refill];
    c->inst_bits = (unsigned)cfg->v[US_KNOB_simt_inst_bits];
    c->pipelined = cfg->v[US_KNOB_simt_pipelined];
    c->selective = cfg->v[US_KNOB_simt_dispatch] == 1;
    c->park = cfg->v[US_KNOB_simt_park_loads];
    c->lowest = cfg->v[US_KNOB_simt_warp_sched] == 1;
    c->by_core = cfg->v[US_KNOB_simt_block] == 1;
    c->policy = us_reconv_part(cfg->v[US_KNOB_reconv]);
    c->mpart = us_memsys_part(cfg);
    c->cores = calloc(c->ncores, sizeof *c->cores);
    c->warps = calloc((size_t)c->ncores * c->nwarps, sizeof *c->warps);
    c->dec = malloc((w->prog->ninsts ? w->prog->ninsts : 1) * sizeof *c->dec);
    if (!c->cores || !c->warps || !c->dec) {
        snprintf(diag->msg, sizeof diag->msg, "simt: out of memory");
        simt_destroy(c);
        return NULL;
    }
    for (unsigned i = 0; i < c->ncores; i++)
        c->cores[i].warp = c->warps + (size_t)i * c->nwarps;
    for (unsigned i = 0; i < w->prog->ninsts; i++)
        us_decode_inst(&w->prog->insts[i], w->prog->word_bits, &c->dec[i]);
    char what[128];
    snprintf(what, sizeof what, "simt_warps x simt_warp_size = %u x %u per "
             "core", c->nwarps, c->W);
    unsigned G = us_workload_group(w);
    if (G > c->nwarps * c->W) {
        snprintf(diag->msg, sizeof diag->msg, "simt: a workgroup of %u "
                 "threads must fit one core, which holds %s: raise "
                 "simt_warps or simt_warp_size", G, what);
        simt_destroy(c);
        return NULL;
    }
    if ((c->policy->check && !c->policy->check(w->prog, diag)) ||
        !build_code(c, diag) ||
        !us_wgs_init(&c->wgs, w, c->ncores * c->nwarps * c->W, "simt", what,
                     diag) ||
        !(c->mem = c->mpart->create(cfg, c->ncores, diag))) {
        simt_destroy(c);
        return NULL;
    }
    simt_reset(c);
    return c;
}

/* While every core's FSM is taken and no finished warp's results are in,
 * a cycle does nothing (step_core returns at once, retire finds none, no
 * stall or idle is counted): go to the first cycle that can differ -- a
 * core freeing, a warp retiring, or the watchdog's deadline. */
static void skip_busy(struct us_core *c)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < c->ncores; i++) {
        if (c->cores[i].free_at <= c->now)
            return;
        next = c->cores[i].free_at < next ? c->cores[i].free_at : next;
    }
    for (unsigned i = 0; i < c->ncores * c->nwarps; i++) {
        const struct warp *wp = &c->warps[i];
        if (wp->present && wp->done == wp->present && wp->ready_at < next)
            next = wp->ready_at;
    }
    uint64_t dead = c->dog.last + c->dog.bound + 1;
    next = dead < next ? dead : next;
    if (next > c->now)
        c->now = next;
}

static bool simt_step(struct us_core *c)
{
    if (c->finished)
        return false;
    if (retire(c)) {
        if (us_wgs_on(&c->wgs))
            admit(c, c->now + c->refill);
        else
            fill(c, c->now + c->refill);
    }
    bool live = false;
    for (unsigned i = 0; i < c->ncores * c->nwarps && !live; i++)
        live = c->warps[i].present != 0;
    if (!c->failed && us_watchdog_expired(&c->dog, c->now))
        c->failed = us_watchdog_error("simt", &c->dog, &c->why);
    if (!live || c->counts.budget_overruns || c->failed) {
        c->finished = true;
        c->counts.cycles = c->now;
        return false;
    }
    for (unsigned i = 0; i < c->ncores && !c->failed; i++)
        step_core(c, &c->cores[i]);
    c->now++;
    skip_busy(c);
    c->counts.cycles = c->now;
    return true;
}

static void simt_stats(const struct us_core *c, struct us_stats *st)
{
    struct us_tcounts counts = c->counts;
    us_tcounts_mem(&counts, c->w->env);
    counts.workgroups = c->wgs.admitted;
    counts.barrier_wait = c->wgs.wait_cycles;
    us_tcounts_report(&counts, &c->cfg, c->w->prog, st);
    us_stats_counter(st, "simt.cores", "cores (alu_lanes / simt_warp_size)",
                     c->ncores);
    us_stats_counter(st, "simt.busy_cycles", "core-cycles the FSMs (or "
                     "pipelines) were taken by an instruction",
                     (double)c->fsm_busy);
    us_stats_counter(st, "simt.active_lane_slots", "lane-slots of issued "
                     "warp instructions on lanes that executed (k a lane)",
                     (double)c->active_slots);
    us_stats_counter(st, "simt.empty_lane_slots", "lane-slots of issued "
                     "warp instructions on lanes no thread holds (a "
                     "workgroup smaller than its warps)",
                     (double)c->empty_slots);
    uint64_t issued = c->active_slots + c->counts.masked_lane_slots +
                      c->empty_slots;
    us_stats_counter(st, "simt.efficiency", "active share of issued "
                     "lane-slots: active / (active + masked + empty)",
                     issued ? (double)c->active_slots / (double)issued : 0.0);
    us_stats_counter(st, "reconv.divergent", "issues after which the lanes' "
                     "pcs parted", (double)c->rstats.divergent);
    us_stats_counter(st, "reconv.events", "parted lanes issuing together "
                     "again", (double)c->rstats.reconverged);
    us_stats_counter(st, "reconv.stack_max", "deepest reconvergence stack "
                     "(entries above a warp's base)",
                     (double)c->rstats.stack_max);
    us_stats_counter(st, "reconv.serialised", "sync: times a SYNC left the "
                     "running lanes at different pcs (nested divergence)",
                     (double)c->rstats.serialised);
    c->mpart->stats(c->mem, st);
    struct us_hw hw = {
        .fmul = (unsigned)c->cfg.v[US_KNOB_alu_lanes],
        .fadd = (unsigned)c->cfg.v[US_KNOB_alu_lanes],
        .rf_bits = (uint64_t)c->ncores * c->nwarps * c->W *
                   US_AREA_RF_VEC4_PER_THREAD * 128,
        .rf_ports = 3, .rf_count = (unsigned)c->cfg.v[US_KNOB_alu_lanes],
        .imem_bits = c->counts.instr_mem_bits * c->ncores,
        .issue_slots = c->ncores, .sfu_full = c->ncores,
        /* every lane runs integer operations (the seeds' ALUs: kGPU's,
         * e-GPU's Vortex lanes with their multipliers) */
        .int_alu = (unsigned)c->cfg.v[US_KNOB_alu_lanes],
        .int_mul = (unsigned)c->cfg.v[US_KNOB_alu_lanes],
    };
    us_memsys_hw(&c->cfg, c->ncores, (unsigned)c->cfg.v[US_KNOB_alu_lanes],
                 &hw);
    struct us_activity act = c->act;
    act.issues = c->counts.issued;
    act.imem_bits = c->counts.instr_bits;
    us_memsys_activity(c->mpart, c->mem, &act);
    us_area_report(&c->cfg, &hw, &act, c->counts.instr_mem_bits, st);
}

static bool simt_failed(const struct us_core *c, struct us_diag *diag)
{
    if (c->failed)
        *diag = c->why;
    return c->failed;
}

const struct us_core_model us_model_simt = {
    .name = "simt",
    .create = simt_create,
    .reset = simt_reset,
    .step = simt_step,
    .stats = simt_stats,
    .destroy = simt_destroy,
    .check = simt_check,
    .failed = simt_failed,
};
