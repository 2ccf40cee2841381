/* The issue engine of the vec4-family baselines: see shader/vec4_timing.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/decode.h"
#include "shader/memsys.h"
#include "shader/vec4_timing.h"
#include "shader/workgroup.h"
#include "isa/micro.h"

/* ---- Code building ------------------------------------------------------- */

void vt_code_free(struct vt_code *c)
{
    free(c->ops);
    free(c->groups);
    free(c->vinsts_owned);
    free(c->sinsts);
    us_flow_free(c->flow);
    memset(c, 0, sizeof *c);
}

static bool add_op(struct vt_code *c, const struct vt_op *op)
{
    if (c->nops == c->ops_cap) {
        unsigned cap = c->ops_cap ? 2 * c->ops_cap : 64;
        struct vt_op *p = realloc(c->ops, cap * sizeof *p);
        if (!p)
            return false;
        c->ops = p;
        c->ops_cap = cap;
    }
    c->ops[c->nops++] = *op;
    return true;
}

bool vt_code_add_vec4(struct vt_code *c, unsigned ref)
{
    const struct us_inst *in = &c->vinsts[ref];
    struct vt_op op = { .unit = (uint8_t)us_ops[in->op].unit,
                        .width = (uint8_t)us_inst_width(in),
                        .ikind = (uint8_t)us_op_int_kind(in->op),
                        .flow = (uint8_t)us_op_flow_kind(in->op),
                        .bar = in->op == US_OP_BAR,
                        .always = in->sub == US_COND_ALWAYS,
                        .ref = ref, .target = in->target };
    us_opcount_add(&op.w, c->vinsts, ref, ref + 1);
    us_sched_item_vec4(in, &op.item);
    return add_op(c, &op);
}

bool vt_code_add_scalar(struct vt_code *c, unsigned ref,
                        const struct us_opcount *w)
{
    const struct us_sinst *in = &c->sinsts[ref];
    struct vt_op op = { .unit = (uint8_t)us_sops[in->op].unit, .width = 1,
                        .ikind = (uint8_t)us_sop_int_kind(in->op),
                        .flow = (uint8_t)us_sop_flow_kind(in->op),
                        .bar = in->op == US_SOP_BAR,
                        .always = in->cond == US_COND_ALWAYS,
                        .ref = ref, .target = in->target, .w = *w };
    us_sched_item_scalar(in, &op.item);
    return add_op(c, &op);
}

static bool item_writes(const struct us_sched_item *it, uint16_t key)
{
    for (unsigned i = 0; i < it->nwrites; i++)
        if (it->writes[i] == key)
            return true;
    return false;
}

/* Must `a` run before `b`: does a read a register that b writes? */
static bool reads_what_writes(const struct vt_op *a, const struct vt_op *b)
{
    for (unsigned i = 0; i < a->item.nreads; i++)
        if (item_writes(&b->item, a->item.reads[i]))
            return true;
    return false;
}

bool vt_code_group(struct vt_code *c, unsigned issues)
{
    unsigned first = c->ngroups ? c->groups[c->ngroups - 1].first +
                                  c->groups[c->ngroups - 1].nops : 0;
    unsigned n = c->nops - first;
    struct vt_op *g = c->ops + first;
    /* Selection: place first an op no later op of the group must precede
     * (only WAR pairs share a group, so one always exists). */
    for (unsigned i = 0; i < n; i++) {
        unsigned pick = i;
        for (unsigned j = i; j < n; j++) {
            bool free_ = true;
            for (unsigned k = i; k < n && free_; k++)
                if (k != j && reads_what_writes(&g[k], &g[j]))
                    free_ = false;
            if (free_) {
                pick = j;
                break;
            }
        }
        struct vt_op t = g[i];
        g[i] = g[pick];
        g[pick] = t;
    }
    if (c->ngroups == c->groups_cap) {
        unsigned cap = c->groups_cap ? 2 * c->groups_cap : 64;
        struct vt_group *p = realloc(c->groups, cap * sizeof *p);
        if (!p)
            return false;
        c->groups = p;
        c->groups_cap = cap;
    }
    struct vt_group grp = { first, n, (uint8_t)issues, US_FLOW_NONE, false,
                            { 0 } };
    for (unsigned i = 0; i < n; i++) {
        grp.w.ops += g[i].w.ops;
        for (unsigned k = 0; k < 5; k++)
            grp.w.n[k] = (uint16_t)(grp.w.n[k] + g[i].w.n[k]);
        grp.w.mem = (uint16_t)(grp.w.mem + g[i].w.mem);
        grp.w.bar = (uint16_t)(grp.w.bar + g[i].w.bar);
        if (g[i].flow != US_FLOW_NONE)
            grp.flow = g[i].flow;   /* alone in its group (the compilers') */
        grp.bar |= g[i].bar;
    }
    assert(grp.flow == US_FLOW_NONE || n == 1);
    c->groups[c->ngroups++] = grp;
    return true;
}

/* ---- The engine ---------------------------------------------------------- */

/* A thread's fetch buffer holds this many issue widths of words (as on
 * the scalar model). */
enum { FBUF_GROUPS = 2, FBUF_MAX = 2 * FBUF_GROUPS };  /* dual: 2 words */

/* One thread slot of a processor: a lane of the warp of its slot index. */
struct slot {
    bool busy;                  /* holds a thread                          */
    int wg;                     /* workgroup entry, -1: graphics           */
    unsigned tid;
    uint64_t start, done;       /* arrival; all results usable             */
    struct us_scoreboard sb;
    uint8_t unit[US_SB_REGS];   /* unit of each register's pending write   */
    float scratch[US_SCRATCH_REGS];
    /* group_ready of group rdy_pc (UINT_MAX: none), kept until the
     * scoreboard changes (an issue of this slot's, or its start): a warp
     * waiting for a result is checked every cycle */
    unsigned rdy_pc;
    uint8_t rdy_unit;           /* UINT8_MAX: group_ready left it alone    */
    uint64_t rdy_at;
};

struct proc {
    struct slot *slots;
    unsigned nbusy;             /* slots holding a thread                  */
};

/* Slot j of the processors of a lockstep group: one instruction stream
 * (one pc, one fetch buffer) and one flow mask over their threads; lane i
 * is the group's processor i.  Without lockstep a warp is one thread. */
struct warp {
    struct us_flow_state fs;    /* fs.pc: the next group                   */
    unsigned fbuf;              /* fetched words not yet issued            */
    uint32_t present;           /* lanes holding a thread not yet retired  */
};

/* Processors first .. first + n - 1 issuing in lockstep (n = 1 without
 * the knob): one issue stage, one fetch, one pick among the warps. */
struct lgroup {
    unsigned first, n;
    struct us_tsched sched;
    uint64_t busy_until;        /* issue stage busy (multi-cycle issue)    */
    /* warps fetch can fill (present, buffer not full, groups left), by
     * the words they hold: want[f] bit j for warp j holding f
     * (want_update) */
    uint64_t want[FBUF_MAX];
    struct warp *warps;         /* tpp                                     */
};

/* A lane's memory op waiting for its requests' completion times:
 * requests first .. first + n - 1 of the core's batch. */
struct mem_wait {
    struct slot *s;
    unsigned op;                /* its index in the group                  */
    unsigned first, n;
};

enum { MAX_WAITS = 160 };       /* lanes x memory ops of one issue        */

struct vt_core {
    struct us_config cfg;
    const struct us_workload *w;
    struct us_exec_env env;     /* *w->env, noting accesses in trace       */
    struct us_mem_trace trace;
    const struct us_memsys_part *mp;
    struct us_memsys *mem;
    /* the memory ops of one issue, handed to the memory system op by op */
    struct us_mem_req req[US_MEMSYS_MAX_REQS];
    struct mem_wait wait[MAX_WAITS];
    unsigned nreq, nwait;
    struct vt_desc desc;
    struct vt_code code;
    struct us_program xprog;    /* *w->prog with the reordered instructions */
    const struct us_program *vprog;  /* what vec4 ops index                */
    struct us_dinst *dec;            /* vprog's instructions decoded once  */
    struct us_sprep *sprep;     /* scalar code: each op's operands resolved */
    /* lanes that executed each group: the counts every execution adds
     * alike (exec_counts), summed at stats */
    uint64_t *execs;
    /* the scoreboard entries group g names, its ops' reads then writes in
     * order: sbx[sbx_at[g] .. sbx_at[g + 1]) */
    uint16_t *sbx;
    unsigned *sbx_at;
    /* likewise the entries op i writes: wx[wx_at[i] .. wx_at[i + 1]) */
    uint16_t *wx;
    unsigned *wx_at;
    /* scoreboard entries the ops name, per register file (temps, outputs,
     * addresses, scratch): [lo, hi) each; a thread's start clears only
     * these */
    unsigned sb_lo[4], sb_hi[4];
    unsigned tpp;               /* threads per processor                   */
    unsigned fetch_words;       /* words fetched per cycle per group       */
    unsigned fbuf_words;        /* capacity of a warp's fetch buffer       */
    struct proc *procs;
    struct slot *slot_mem;
    unsigned nlgroups;
    struct lgroup *lgroups;
    struct warp *warp_mem;
    struct us_tqueue queue;
    uint64_t now;
    /* no thread can retire before: the earliest `done` of a finished
     * warp's lanes (a thread's start, or its warp's last issue, lowers
     * it) */
    uint64_t next_retire;
    unsigned word_bits;         /* us_target_word_bits of the target       */
    bool finished;
    struct us_tcounts counts;
    struct us_activity act;
    uint64_t dual_issued;       /* superscalar: second instructions        */
    struct us_wgs wgs;          /* a compute launch's workgroups           */
    struct us_watchdog dog;
    bool failed;                /* the run cannot go on: `why`             */
    struct us_diag why;
};

static struct vt_core *vt(struct us_core *c) { return (struct vt_core *)c; }
static const struct vt_core *cvt(const struct us_core *c)
{
    return (const struct vt_core *)c;
}

struct us_core *vt_oom(const char *name, struct vt_code *code,
                       struct us_diag *diag)
{
    vt_code_free(code);
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "%s: out of memory", name);
    return NULL;
}

void vt_latencies(const struct us_config *cfg, unsigned lat[US_UNIT_COUNT])
{
    for (unsigned u = 0; u < US_UNIT_COUNT; u++)
        lat[u] = us_unit_latency(cfg, (enum us_unit)u);
}

unsigned vt_procs(const struct us_config *cfg, unsigned lanes_per_proc)
{
    unsigned p = (unsigned)cfg->v[US_KNOB_alu_lanes] / lanes_per_proc;
    return p ? p : 1;
}

bool vt_check_lanes(const struct us_config *cfg, const char *what,
                    unsigned width, struct us_diag *diag)
{
    unsigned lanes = (unsigned)cfg->v[US_KNOB_alu_lanes];
    if (lanes % width == 0)
        return true;
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "%s: alu_lanes=%u cannot be built "
             "from processors of %u lanes; it takes a multiple of %u (%u, "
             "%u, %u, ...)", what, lanes, width, width, width, 2 * width,
             3 * width);
    return false;
}

static struct slot *lane(const struct vt_core *c, const struct lgroup *gr,
                         unsigned i, unsigned j)
{
    return &c->procs[gr->first + i].slots[j];
}

/* Slot s takes thread tid (of workgroup entry wg, or -1). */
/* Slot s holds a thread or not. */
/* Warp j's place in its group's fetch masks, after its lanes, pc or
 * buffer changed. */
static void want_update(const struct vt_core *c, struct lgroup *gr,
                        unsigned j)
{
    const struct warp *wp = &gr->warps[j];
    uint64_t bit = 1ull << j;
    for (unsigned f = 0; f < FBUF_MAX; f++)
        gr->want[f] &= ~bit;
    if (wp->present && wp->fbuf < c->fbuf_words &&
        wp->fs.pc + wp->fbuf < c->code.ngroups)
        gr->want[wp->fbuf] |= bit;
}

static void set_busy(struct vt_core *c, struct slot *s, bool busy)
{
    c->procs[(size_t)(s - c->slot_mem) / c->tpp].nbusy += (unsigned)busy -
                                                           (unsigned)s->busy;
    s->busy = busy;
}

static void begin_thread(struct vt_core *c, struct slot *s, unsigned tid,
                         int wg)
{
    set_busy(c, s, true);
    c->next_retire = c->now;   /* (no code: done at once) scan next cycle */
    s->wg = wg;
    s->tid = tid;
    us_workload_start(c->w, tid)->overrun = false;
    s->start = s->done = c->now;
    s->rdy_pc = UINT_MAX;
    /* the entries no op reads or writes stay 0 */
    for (unsigned f = 0; f < 4; f++)
        if (c->sb_lo[f] < c->sb_hi[f]) {
            unsigned lo = c->sb_lo[f], n = c->sb_hi[f] - lo;
            memset(&s->sb.ready[lo], 0, n * sizeof s->sb.ready[0]);
            memset(&s->unit[lo], 0, n * sizeof s->unit[0]);
        }
    memset(s->scratch, 0, sizeof s->scratch);
    if (wg >= 0) {
        us_wgs_place(&c->wgs, wg, us_workload_thread(c->w, tid));
        if (c->code.ngroups == 0)   /* finished before it starts */
            us_wgs_finish(&c->wgs, wg, tid, us_workload_thread(c->w, tid),
                          c->now);
    }
}

/* Graphics: the slot takes the next thread of the queue, or empties. */
static void start_thread(struct vt_core *c, struct slot *s)
{
    unsigned tid;
    if (us_tqueue_take(&c->queue, &tid))
        begin_thread(c, s, tid, -1);
    else
        set_busy(c, s, false);
}

/* Warp j takes the threads its lanes hold (after start_thread). */
static void warp_start(struct vt_core *c, struct lgroup *gr, unsigned j)
{
    struct warp *wp = &gr->warps[j];
    wp->present = 0;
    for (unsigned i = 0; i < gr->n; i++)
        wp->present |= (uint32_t)lane(c, gr, i, j)->busy << i;
    us_flow_start(&wp->fs, wp->present, c->w->env->max_insts);
    wp->fbuf = 0;
    want_update(c, gr, j);
}

/* Start workgroups while whole free warps hold them, warps taken in the
 * order threads go round the processors (slot j of every lockstep group,
 * then j + 1), a workgroup's threads filling each warp from its first
 * lane. */
static void admit(struct vt_core *c)
{
    unsigned G = c->wgs.size;
    for (;;) {
        unsigned room = 0;
        for (unsigned j = 0; j < c->tpp; j++)
            for (unsigned g = 0; g < c->nlgroups; g++)
                room += c->lgroups[g].warps[j].present ? 0 : c->lgroups[g].n;
        uint32_t tid;
        int e;
        if (room < G || (e = us_wgs_admit(&c->wgs, &tid)) < 0)
            return;
        us_watchdog_kick(&c->dog, c->now);
        uint32_t end = tid + G;
        for (unsigned j = 0; j < c->tpp && tid < end; j++)
            for (unsigned g = 0; g < c->nlgroups && tid < end; g++) {
                struct lgroup *gr = &c->lgroups[g];
                if (gr->warps[j].present)
                    continue;
                for (unsigned i = 0; i < gr->n && tid < end; i++)
                    begin_thread(c, lane(c, gr, i, j), tid++, e);
                warp_start(c, gr, j);
            }
    }
}

void vt_reset(struct us_core *core)
{
    struct vt_core *c = vt(core);
    c->now = 0;
    c->env = *c->w->env;
    c->env.trace = &c->trace;
    c->nreq = c->nwait = 0;
    c->mp->reset(c->mem);
    c->finished = false;
    c->failed = false;
    memset(&c->counts, 0, sizeof c->counts);
    memset(&c->act, 0, sizeof c->act);
    memset(c->execs, 0, (c->code.ngroups ? c->code.ngroups : 1) *
                            sizeof *c->execs);
    us_tcounts_mem_start(&c->counts, c->w->env);
    us_watchdog_init(&c->dog, &c->cfg);
    us_wgs_reset(&c->wgs);
    c->dual_issued = 0;
    us_tqueue_init(&c->queue, c->w->nthreads);
    /* Threads go round the processors first, as on the scalar model (and
     * a warp's lanes hold consecutive threads); workgroups start whole. */
    bool wgs = us_wgs_on(&c->wgs);
    c->next_retire = 0;
    for (unsigned p = 0; p < c->desc.procs; p++)
        c->procs[p].nbusy = 0;
    for (unsigned i = 0; i < c->tpp; i++)
        for (unsigned p = 0; p < c->desc.procs; p++) {
            c->procs[p].slots[i].busy = false;
            if (!wgs)
                start_thread(c, &c->procs[p].slots[i]);
        }
    for (unsigned g = 0; g < c->nlgroups; g++) {
        struct lgroup *gr = &c->lgroups[g];
        us_tsched_init(&gr->sched, &c->cfg);
        gr->sched.last = c->tpp - 1;  /* RR starts at slot 0 */
        gr->busy_until = 0;
        for (unsigned j = 0; j < c->tpp; j++)
            warp_start(c, gr, j);
    }
    if (wgs)
        admit(c);
    c->counts.instr_mem_bits =
        c->code.mem_words * us_target_word_bits(c->desc.target);
}

/* The code's flow control over its groups (struct vt_group). */
static bool link_groups(struct vt_code *code, struct us_diag *diag)
{
    bool any = false;
    for (unsigned g = 0; g < code->ngroups; g++)
        any |= code->groups[g].flow != US_FLOW_NONE;
    if (!any)
        return true;
    unsigned n = code->ngroups;
    struct us_flow *f = calloc(1, sizeof *f);
    if (f) {
        f->n = n;
        f->kind = malloc(n);
        f->partner = malloc(n * sizeof *f->partner);
        f->weight = malloc(n * sizeof *f->weight);
    }
    code->flow = f;
    if (!f || !f->kind || !f->partner || !f->weight) {
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    uint8_t *always = malloc(n);
    if (!always) {
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    bool bra = false;
    for (unsigned g = 0; g < n; g++) {
        const struct vt_group *gp = &code->groups[g];
        const struct us_opcount *w = &gp->w;
        f->kind[g] = gp->flow;
        f->weight[g] = 0;   /* the vec4 instructions it stands for */
        for (unsigned k = 0; k < 5; k++)
            f->weight[g] += w->n[k];
        always[g] = 0;
        if (gp->flow == US_FLOW_BRA) {   /* alone in its group */
            f->partner[g] = code->ops[gp->first].target;
            always[g] = code->ops[gp->first].always;
            bra = true;
        }
    }
    bool ok = us_flow_link(f->kind, f->partner, n, NULL, diag) &&
              (!bra || us_flow_branches(f, always, NULL, diag));
    free(always);
    return ok;
}

/* sbx and sbx_at from the groups' ops (registers that never wait left
 * out); false when out of memory. */
static bool index_groups(struct vt_core *c)
{
    size_t n = 0;
    for (unsigned i = 0; i < c->code.nops; i++)
        n += c->code.ops[i].item.nreads + c->code.ops[i].item.nwrites;
    c->sbx = malloc((n ? n : 1) * sizeof *c->sbx);
    c->sbx_at = malloc(((size_t)c->code.ngroups + 1) * sizeof *c->sbx_at);
    c->wx = malloc((n ? n : 1) * sizeof *c->wx);
    c->wx_at = malloc(((size_t)c->code.nops + 1) * sizeof *c->wx_at);
    if (!c->sbx || !c->sbx_at || !c->wx || !c->wx_at)
        return false;
    unsigned m = 0;
    for (unsigned i = 0; i < c->code.nops; i++) {
        const struct us_sched_item *it = &c->code.ops[i].item;
        c->wx_at[i] = m;
        for (unsigned k = 0; k < it->nwrites; k++) {
            int x = us_sb_index(it->writes[k]);
            if (x >= 0)
                c->wx[m++] = (uint16_t)x;
        }
    }
    c->wx_at[c->code.nops] = m;
    m = 0;
    for (unsigned g = 0; g < c->code.ngroups; g++) {
        const struct vt_group *gp = &c->code.groups[g];
        c->sbx_at[g] = m;
        for (unsigned i = 0; i < gp->nops; i++) {
            const struct us_sched_item *it = &c->code.ops[gp->first + i].item;
            for (unsigned k = 0; k < it->nreads + it->nwrites; k++) {
                int x = us_sb_index(k < it->nreads ? it->reads[k]
                                                   : it->writes[k - it->nreads]);
                if (x >= 0)
                    c->sbx[m++] = (uint16_t)x;
            }
        }
    }
    c->sbx_at[c->code.ngroups] = m;
    return true;
}

struct us_core *vt_create(const struct us_config *cfg,
                          const struct us_workload *w,
                          const struct vt_desc *desc, struct vt_code *code,
                          struct us_diag *diag)
{
    struct vt_core *c = calloc(1, sizeof *c);
    unsigned tpp = (unsigned)cfg->v[US_KNOB_threads_per_proc];
    unsigned L = (unsigned)cfg->v[US_KNOB_lockstep];
    L = L < 1 ? 1 : L > desc->procs ? desc->procs : L;
    unsigned ng = us_lockstep_groups(cfg, desc->procs);  /* of L each */
    if (c) {
        c->procs = calloc(desc->procs, sizeof *c->procs);
        c->slot_mem = calloc((size_t)desc->procs * tpp, sizeof *c->slot_mem);
        c->lgroups = calloc(ng, sizeof *c->lgroups);
        c->warp_mem = calloc((size_t)ng * tpp, sizeof *c->warp_mem);
    }
    if (!c || !c->procs || !c->slot_mem || !c->lgroups || !c->warp_mem) {
        if (c) {
            free(c->procs);
            free(c->slot_mem);
            free(c->lgroups);
            free(c->warp_mem);
        }
        free(c);
        return vt_oom(desc->name, code, diag);
    }
    c->cfg = *cfg;
    c->w = w;
    c->desc = *desc;
    /* the memory system's LSUs (per lane or per port) and cache */
    us_memsys_hw(cfg, ng, desc->procs * desc->lanes_per_proc, &c->desc.hw);
    c->code = *code;
    memset(code, 0, sizeof *code);
    if (!link_groups(&c->code, diag)) {
        vt_destroy((struct us_core *)c);
        return NULL;
    }
    c->xprog = *w->prog;
    c->vprog = w->prog;
    if (c->code.vinsts_owned) {
        c->xprog.insts = c->code.vinsts_owned;
        c->vprog = &c->xprog;
    }
    c->dec = malloc((c->vprog->ninsts ? c->vprog->ninsts : 1) *
                    sizeof *c->dec);
    if (!c->dec) {
        vt_destroy((struct us_core *)c);
        struct vt_code none = { 0 };
        return vt_oom(desc->name, &none, diag);
    }
    for (unsigned i = 0; i < c->vprog->ninsts; i++)
        us_decode_inst(&c->vprog->insts[i], c->vprog->word_bits, &c->dec[i]);
    c->execs = calloc(c->code.ngroups ? c->code.ngroups : 1,
                      sizeof *c->execs);
    if (c->code.sinsts)
        c->sprep = malloc((c->code.nops ? c->code.nops : 1) *
                          sizeof *c->sprep);
    if (!c->execs || (c->code.sinsts && !c->sprep)) {
        vt_destroy((struct us_core *)c);
        struct vt_code none = { 0 };
        return vt_oom(desc->name, &none, diag);
    }
    for (unsigned i = 0; c->code.sinsts && i < c->code.nops; i++)
        us_scalar_prepare(&c->code.sinsts[c->code.ops[i].ref], &c->sprep[i]);
    if (!index_groups(c)) {
        vt_destroy((struct us_core *)c);
        struct vt_code none = { 0 };
        return vt_oom(desc->name, &none, diag);
    }
    for (unsigned i = 0; i < c->code.nops; i++) {
        const struct us_sched_item *it = &c->code.ops[i].item;
        for (unsigned k = 0; k < it->nreads + it->nwrites; k++) {
            int x = us_sb_index(k < it->nreads ? it->reads[k]
                                               : it->writes[k - it->nreads]);
            if (x < 0)
                continue;
            unsigned f = (unsigned)x >= US_SB_SCRATCH ? 3
                       : (unsigned)x >= US_SB_ADDRESS ? 2
                       : (unsigned)x >= US_SB_OUTPUT ? 1 : 0;
            if (c->sb_lo[f] >= c->sb_hi[f]) {
                c->sb_lo[f] = (unsigned)x;
                c->sb_hi[f] = (unsigned)x + 1;
            } else {
                c->sb_lo[f] = (unsigned)x < c->sb_lo[f] ? (unsigned)x
                                                        : c->sb_lo[f];
                c->sb_hi[f] = (unsigned)x >= c->sb_hi[f] ? (unsigned)x + 1
                                                         : c->sb_hi[f];
            }
        }
    }
    c->tpp = tpp;
    c->word_bits = us_target_word_bits(desc->target);
    c->mp = us_memsys_part(cfg);
    c->mem = c->mp->create(cfg, ng, diag);
    if (!c->mem) {
        vt_destroy((struct us_core *)c);
        return NULL;
    }
    char what[96];
    snprintf(what, sizeof what, "processors x threads_per_proc = %u x %u "
             "(alu_lanes %d, %u lanes per processor)", desc->procs, tpp,
             cfg->v[US_KNOB_alu_lanes], desc->lanes_per_proc);
    if (!us_wgs_init(&c->wgs, w, desc->procs * tpp, desc->name, what, diag)) {
        vt_destroy((struct us_core *)c);
        return NULL;
    }
    unsigned width = desc->dual ? 2 : 1;   /* words issued per cycle, at most */
    c->fetch_words = width * (unsigned)cfg->v[US_KNOB_fetch_width];
    c->fbuf_words = width * FBUF_GROUPS;
    for (unsigned p = 0; p < desc->procs; p++)
        c->procs[p].slots = c->slot_mem + (size_t)p * tpp;
    c->nlgroups = ng;
    for (unsigned g = 0; g < ng; g++) {
        struct lgroup *gr = &c->lgroups[g];
        gr->first = g * L;
        gr->n = desc->procs - gr->first < L ? desc->procs - gr->first : L;
        gr->warps = c->warp_mem + (size_t)g * tpp;
    }
    vt_reset((struct us_core *)c);
    return (struct us_core *)c;
}

void vt_destroy(struct us_core *core)
{
    struct vt_core *c = vt(core);
    if (!c)
        return;
    /* a run that failed leaves threads pointing at shared memory */
    for (size_t i = 0; c->slot_mem && i < (size_t)c->desc.procs * c->tpp; i++)
        if (c->slot_mem[i].busy && c->slot_mem[i].wg >= 0)
            us_workload_thread(c->w, c->slot_mem[i].tid)->shared = NULL;
    vt_code_free(&c->code);
    free(c->dec);
    free(c->sprep);
    free(c->execs);
    free(c->sbx);
    free(c->sbx_at);
    free(c->wx);
    free(c->wx_at);
    us_wgs_free(&c->wgs);
    if (c->mem)
        c->mp->destroy(c->mem);
    free(c->procs);
    free(c->slot_mem);
    free(c->lgroups);
    free(c->warp_mem);
    free(c);
}

/* Cycle at which group pc's registers are all usable on slot s (0: now),
 * and the unit producing the first (in op order) that is usable last. */
static uint64_t group_ready(const struct vt_core *c, const struct slot *s,
                            unsigned pc, unsigned *unit)
{
    uint64_t at = 0;
    for (unsigned k = c->sbx_at[pc]; k < c->sbx_at[pc + 1]; k++) {
        unsigned x = c->sbx[k];
        if (s->sb.ready[x] > at) {
            at = s->sb.ready[x];
            *unit = s->unit[x];
        }
    }
    return at;
}

/* group_ready of group pc on slot s, from its cache when the scoreboard
 * has not changed since. */
static uint64_t slot_group_ready(const struct vt_core *c, struct slot *s,
                                 unsigned pc, unsigned *unit)
{
    if (s->rdy_pc != pc) {
        unsigned u = UINT8_MAX;
        s->rdy_at = group_ready(c, s, pc, &u);
        s->rdy_unit = (uint8_t)u;
        s->rdy_pc = pc;
    }
    if (s->rdy_unit != UINT8_MAX)
        *unit = s->rdy_unit;
    return s->rdy_at;
}

/* Are group pc's registers usable now on every active lane of warp j?  If
 * not, *unit is the unit the first blocked lane waits for. */
static inline bool lanes_ready(const struct vt_core *c,
                               const struct lgroup *gr, unsigned j,
                               unsigned pc, unsigned *unit)
{
    uint32_t active = gr->warps[j].fs.active;
    for (unsigned i = 0; i < gr->n; i++)
        if (((active >> i) & 1) &&
            slot_group_ready(c, lane(c, gr, i, j), pc, unit) > c->now)
            return false;
    return true;
}

struct pick_ctx {
    const struct vt_core *c;
    const struct lgroup *gr;
    bool cause_set;
    enum us_stall cause;
};

static bool warp_ready(void *ctx, unsigned j)
{
    struct pick_ctx *x = ctx;
    const struct warp *wp = &x->gr->warps[j];
    if (!wp->present || wp->fs.pc >= x->c->code.ngroups)
        return false;   /* empty, or draining: no cause of its own */
    enum us_stall why = US_STALL_FETCH;
    const struct slot *first = lane(x->c, x->gr,
                                    (unsigned)__builtin_ctz(wp->present), j);
    if (first->wg >= 0 &&   /* a warp is one workgroup's */
        us_wgs_waiting(&x->c->wgs, first->wg, first->tid, x->c->now))
        why = US_STALL_BARRIER;
    else if (wp->fbuf > 0) {
        unsigned unit = US_UNIT_ALU;
        if (lanes_ready(x->c, x->gr, j, wp->fs.pc, &unit))
            return true;
        why = us_unit_stall(unit);
    }
    /* The first warp with work left that could not issue names the
     * stall's cause (shader/timing.h). */
    if (!x->cause_set) {
        x->cause_set = true;
        x->cause = why;
    }
    return false;
}

static uint64_t warp_age(void *ctx, unsigned j)
{
    const struct pick_ctx *x = ctx;
    const struct warp *wp = &x->gr->warps[j];
    if (!wp->present)
        return UINT64_MAX - x->c->tpp + j;
    return lane(x->c, x->gr, (unsigned)__builtin_ctz(wp->present), j)->tid;
}

/* A vec4 BRA's condition for thread t: its two scalar sources (swizzled,
 * negated in two's complement, relative PARAM reads within the array)
 * compared at the program's word width.  us_interpret_cond knows only
 * IF's, so the operands are read here from us_decode_inst's locations. */
static uint32_t bra_operand(const struct us_dsrc *s,
                            const struct us_exec_env *env,
                            const struct us_thread *t)
{
    static const float zero[4] = { 0 };
    const float *reg = zero;
    if (s->kind == US_DSRC_THREAD) {
        reg = (const float *)((const char *)t + s->off);
    } else if (s->kind == US_DSRC_PARAM) {
        reg = env->params[s->off];
    } else if (s->kind == US_DSRC_PARAM_REL) {
        int64_t i = (int64_t)t->addr[s->rel_addr][0] + s->rel_offset;
        if (i >= 0 && i < s->rel_size)
            reg = env->params[s->off + i];
    }
    uint32_t v = s->swz[0] <= US_SWZ_W ? micro_bits(reg[s->swz[0]])
               : s->swz[0] == US_SWZ_ONE ? micro_bits(1.0f) : 0;
    return s->negate & 1 ? micro_ineg(v, 32) : v;
}

static bool bra_cond(const struct us_program *prog,
                     const struct us_exec_env *env, const struct us_thread *t,
                     unsigned pc)
{
    const struct us_inst *in = &prog->insts[pc];
    if (in->sub == US_COND_ALWAYS)
        return true;
    struct us_dinst d;
    us_decode_inst(in, prog->word_bits, &d);
    return micro_cond((enum us_cond)d.sub, bra_operand(&d.src[0], env, t),
                      bra_operand(&d.src[1], env, t), d.word);
}

/* The requests of op i of a group, which slot s just executed (the
 * trace), all reaching the load/store unit in the group's last issue
 * cycle; the lane's requests are numbered from `lane`.  False when there
 * are none (the op is timed as any other). */
static bool mem_note(struct vt_core *c, struct slot *s, unsigned i,
                     unsigned lane, uint64_t at)
{
    unsigned n = c->trace.n < US_MEM_TRACE_MAX ? c->trace.n
                                               : US_MEM_TRACE_MAX;
    if (!n || c->nwait == MAX_WAITS || c->nreq + n > US_MEMSYS_MAX_REQS)
        return false;   /* none, or (cannot happen) too many */
    c->wait[c->nwait++] = (struct mem_wait){ s, i, c->nreq, n };
    for (unsigned k = 0; k < n; k++) {
        const struct us_mem_access *a = &c->trace.a[k];
        unsigned l = lane + k;
        c->req[c->nreq++] = (struct us_mem_req){
            at, a->addr, a->space, a->bytes, a->kind,
            (uint8_t)(l < 255 ? l : 255) };
    }
    return true;
}

/* Op i's destinations on slot s usable at `at` (an older, later pending
 * write kept: us_sb_item_write), written by its unit. */
static void op_write(const struct vt_core *c, struct slot *s, unsigned i,
                     uint64_t at)
{
    uint8_t unit = c->code.ops[i].unit;
    for (unsigned k = c->wx_at[i]; k < c->wx_at[i + 1]; k++) {
        unsigned x = c->wx[k];
        if (s->sb.ready[x] < at)
            s->sb.ready[x] = at;
        s->unit[x] = unit;
    }
}

/* Hand the issue's memory requests to the memory system, one op of the
 * group at a time (a warp instruction's requests, in lane order), as
 * `requester` (the lockstep group): an op's results are usable when its
 * last request is done, and a thread retires only once every request of
 * its ops is done, stores too (as every op's latency holds it). */
static void mem_flush_ops(struct vt_core *c, const struct vt_group *g,
                          unsigned requester)
{
    struct us_mem_req req[US_MEMSYS_MAX_REQS];
    uint64_t done[US_MEMSYS_MAX_REQS];
    for (unsigned i = 0; i < g->nops && c->nwait; i++) {
        unsigned n = 0;
        for (unsigned w = 0; w < c->nwait; w++)
            if (c->wait[w].op == i)
                for (unsigned k = 0; k < c->wait[w].n; k++)
                    req[n++] = c->req[c->wait[w].first + k];
        if (!n)
            continue;
        c->mp->access(c->mem, requester, req, n, done);
        n = 0;
        for (unsigned w = 0; w < c->nwait; w++) {
            if (c->wait[w].op != i)
                continue;
            struct slot *s = c->wait[w].s;
            uint64_t at = 0;
            for (unsigned k = 0; k < c->wait[w].n; k++, n++)
                at = done[n] > at ? done[n] : at;
            op_write(c, s, g->first + i, at);
            if (at > s->done)
                s->done = at;
            s->rdy_pc = UINT_MAX;
        }
    }
    c->nreq = c->nwait = 0;
}

/* (a request always comes with its wait: mem_note) */
static inline void mem_flush(struct vt_core *c, const struct vt_group *g,
                             unsigned requester)
{
    if (c->nwait)
        mem_flush_ops(c, g, requester);
}

/* Run and time group g on the thread of slot s, lane `lane` of its warp:
 * results usable `issues - 1 + latency` after now, a memory op's when the
 * memory system says (mem_flush).  True when g is an IF or BRA whose
 * condition holds for the thread. */
static bool lane_issue(struct vt_core *c, struct slot *s,
                       const struct vt_group *g, unsigned lane)
{
    struct us_thread *t = us_workload_thread(c->w, s->tid);
    bool cond = false;
    uint32_t deferred = 0;      /* memory ops timed by mem_flush */
    uint64_t last = c->now + g->issues - 1;
    for (unsigned i = 0; i < g->nops; i++) {
        const struct vt_op *op = &c->code.ops[g->first + i];
        if (op->flow == US_FLOW_IF || op->flow == US_FLOW_BRA)
            cond = c->code.sinsts
                ? us_scalar_cond(&c->code.sinsts[op->ref], c->w->env, t,
                                 s->scratch)
                : op->flow == US_FLOW_BRA
                ? bra_cond(c->vprog, c->w->env, t, op->ref)
                : us_interpret_cond(c->vprog, c->w->env, t, op->ref);
        else if (op->flow != US_FLOW_NONE)
            continue;   /* the sequencer's alone */
        else {
            c->trace.n = 0;
            if (c->code.sinsts)
                us_scalar_step_prepared(&c->code.sinsts[op->ref],
                                        &c->sprep[g->first + i], &c->env, t,
                                        s->scratch);
            else
                us_interpret_dinst(&c->dec[op->ref], &c->env, t);
            if (op->unit == US_UNIT_LSU && i < 32 &&
                mem_note(c, s, i, lane * c->desc.lanes_per_proc, last))
                deferred |= 1u << i;
        }
    }
    for (unsigned i = 0; i < g->nops; i++) {
        const struct vt_op *op = &c->code.ops[g->first + i];
        if (!(i < 32 && (deferred >> i & 1))) {
            uint64_t at = last + c->desc.latency[op->unit];
            op_write(c, s, g->first + i, at);
            if (at > s->done)
                s->done = at;
        }
    }
    if (s->done < c->now + g->issues)
        s->done = c->now + g->issues;
    s->rdy_pc = UINT_MAX;   /* its scoreboard changed */
    return cond;
}


/* Warp j issues its next group on its active lanes (the processors whose
 * lanes are masked off idle meanwhile: the caller counts them), and its
 * sequencer moves on. */
/* The pipeline events of group pc issued now on the active lanes of
 * warp j (after mem_flush): each lane's done when the issue stage is
 * through and every register the group writes is usable.  A group of
 * several ops is named by its ops' mnemonics, "MAD | RCP". */
static void event_issue(const struct vt_core *c, const struct lgroup *gr,
                        unsigned j, unsigned pc, uint32_t active)
{
    const struct vt_group *g = &c->code.groups[pc];
    char name[64];
    size_t len = 0;
    name[0] = '\0';
    for (unsigned i = 0; i < g->nops && len < sizeof name; i++) {
        unsigned ref = c->code.ops[g->first + i].ref;
        const char *m = c->code.sinsts ? us_sops[c->code.sinsts[ref].op].name
                                       : us_ops[c->vprog->insts[ref].op].name;
        int k = snprintf(name + len, sizeof name - len, "%s%s",
                         i ? " | " : "", m);
        len += k > 0 ? (size_t)k : 0;
    }
    struct us_event ev = {
        .kind = US_EVENT_ISSUE, .cycle = c->now, .pc = pc, .name = name,
        .lanes = us_lanes(active),
    };
    for (unsigned i = 0; i < gr->n; i++) {
        if (!((active >> i) & 1))
            continue;
        const struct slot *s = lane(c, gr, i, j);
        uint64_t done = c->now + g->issues;
        for (unsigned k = 0; k < g->nops; k++) {
            const struct vt_op *op = &c->code.ops[g->first + k];
            uint64_t r = us_sb_item_ready(&s->sb, &op->item);
            done = r > done ? r : done;
        }
        ev.done = done;
        ev.proc = gr->first + i;
        ev.slot = j;
        ev.thread = s->tid;
        us_event_emit(c->w->events, &ev);
    }
}

/* What n lanes' executions of group pc add alike to the counts (issue_group
 * counts them in c->execs; stats adds them): the slots filled, the vec4
 * work and the energy events -- an integer ALU or multiplier op, else a
 * MAD-datapath pass (multiply and add), per ALU component; an evaluation
 * per SFU op; a 32-bit access per register read or written. */
static void exec_counts(const struct vt_core *c, unsigned pc, uint64_t n,
                        struct us_tcounts *counts, struct us_activity *act)
{
    const struct vt_group *g = &c->code.groups[pc];
    counts->slots_filled += (uint64_t)g->nops * n;
    counts->slots_total += (uint64_t)c->desc.nslots * n;
    us_tcounts_exec(counts, &g->w, n);
    for (unsigned i = 0; i < g->nops; i++) {
        const struct vt_op *op = &c->code.ops[g->first + i];
        if (op->ikind != US_INT_NONE) {
            us_activity_int(act, (enum us_int_kind)op->ikind, n * op->width);
        } else if (op->unit == US_UNIT_ALU) {
            act->fmul_ops += n * op->width;
            act->fadd_ops += n * op->width;
        } else if (op->unit == US_UNIT_SFU) {
            act->sfu_full_ops += n;
        }
        act->rf_reads += n * op->item.nreads;
        act->rf_writes += n * op->item.nwrites;
    }
}

static void issue_group(struct vt_core *c, struct lgroup *gr, unsigned j)
{
    struct warp *wp = &gr->warps[j];
    unsigned pc = wp->fs.pc;
    const struct vt_group *g = &c->code.groups[pc];
    uint32_t active = wp->fs.active, cond = 0;
    bool bar = g->bar;
    for (unsigned i = 0; i < gr->n; i++) {
        if (!((active >> i) & 1))
            continue;
        struct slot *s = lane(c, gr, i, j);
        if (lane_issue(c, s, g, i))
            cond |= 1u << i;
        if (bar && s->wg >= 0)
            us_wgs_bar(&c->wgs, s->wg, s->tid, c->now);
    }
    mem_flush(c, g, (unsigned)(gr - c->lgroups));
    if (c->w->events)
        event_issue(c, gr, j, pc, active);
    us_watchdog_kick(&c->dog, c->now);
    c->execs[pc] += us_lanes(active);   /* exec_counts */
    wp->fbuf--;
    c->counts.branches += g->flow != US_FLOW_NONE;
    c->counts.divergent += (g->flow == US_FLOW_IF || g->flow == US_FLOW_BRA) &&
                           cond != 0 && cond != active;
    us_flow_advance(&wp->fs, c->code.flow, cond);
    for (uint32_t m = wp->fs.stopped; m; m &= m - 1)
        us_tcounts_overrun(&c->counts, us_workload_thread(c->w,
            lane(c, gr, (unsigned)__builtin_ctz(m), j)->tid));
    if (wp->fs.pc != pc + 1)
        wp->fbuf = 0;   /* a taken branch: refetch from the target */
    want_update(c, gr, j);
    if (wp->fs.pc >= c->code.ngroups)   /* its threads have finished */
        for (unsigned i = 0; i < gr->n; i++) {
            struct slot *s = lane(c, gr, i, j);
            if (((wp->present >> i) & 1) && s->done < c->next_retire)
                c->next_retire = s->done;
            if (((wp->present >> i) & 1) && s->wg >= 0)
                us_wgs_finish(&c->wgs, s->wg, s->tid,
                              us_workload_thread(c->w, s->tid),
                              c->now);
        }
}


/* Superscalar: may group wp->fs.pc (one instruction) issue beside `prev`,
 * the group warp j just issued?  Independent of it (no RAW or WAW on its
 * writes; a WAR is fine, reads come first), its registers usable now on
 * every active lane, their components fit the datapath, and no
 * single-ported unit (SFU, texture, address) asked for twice. */
static bool can_pair(const struct vt_core *c, const struct lgroup *gr,
                     unsigned j, const struct vt_group *prev)
{
    const struct warp *wp = &gr->warps[j];
    if (wp->fs.pc >= c->code.ngroups)
        return false;
    const struct vt_group *g = &c->code.groups[wp->fs.pc];
    if (g->nops != 1 || prev->nops != 1 || wp->fbuf == 0 ||
        g->flow != US_FLOW_NONE || prev->flow != US_FLOW_NONE)
        return false;
    const struct vt_op *a = &c->code.ops[prev->first];
    const struct vt_op *b = &c->code.ops[g->first];
    if (a->width + b->width > c->desc.lanes_per_proc)
        return false;
    if (a->unit == US_UNIT_BARRIER || b->unit == US_UNIT_BARRIER)
        return false;   /* what follows a BAR waits for its workgroup */
    if (a->unit == b->unit && a->unit != US_UNIT_ALU)
        return false;
    for (unsigned k = 0; k < b->item.nreads; k++)
        if (item_writes(&a->item, b->item.reads[k]))
            return false;
    for (unsigned k = 0; k < b->item.nwrites; k++)
        if (item_writes(&a->item, b->item.writes[k]))
            return false;
    unsigned unit;
    return lanes_ready(c, gr, j, wp->fs.pc, &unit);
}

/* Fetch up to fetch_words words into the warp buffers that hold the
 * fewest, trying warps in the round-robin order (as the scalar model
 * does): one instruction stream per warp, a word fetched once for all its
 * lanes. */
static void fetch(struct vt_core *c, struct lgroup *gr)
{
    unsigned n = c->tpp;
    for (unsigned k = 0; k < c->fetch_words; k++) {
        uint64_t m = 0;
        for (unsigned f = 0; !m && f < FBUF_MAX; f++)
            m = gr->want[f];
        if (!m)
            return;
        /* the first after the last issuer among those holding fewest */
        unsigned from = gr->sched.last % n + 1 == n ? 0
                                                    : gr->sched.last % n + 1;
        uint64_t later = m & (~0ull << from);
        unsigned j = (unsigned)__builtin_ctzll(later ? later : m);
        gr->warps[j].fbuf++;
        want_update(c, gr, j);
        c->counts.instr_words++;   /* instr_bits: at stats */
    }
}

static bool proc_has_thread(const struct vt_core *c, unsigned p)
{
    return c->procs[p].nbusy > 0;
}

/* us_tsched_pick over the warps, its round robin inline (the common
 * policy, tried by every free group every cycle). */
static int pick_warp(struct us_tsched *s, unsigned n, struct pick_ctx *x)
{
    if (s->policy != US_SCHED_RR)
        return us_tsched_pick(s, n, warp_ready, warp_age, x);
    unsigned j = s->last % n;
    for (unsigned i = 1; i <= n; i++) {
        j = j + 1 == n ? 0 : j + 1;
        if (warp_ready(x, j)) {
            s->last = j;
            return (int)j;
        }
    }
    return -1;
}

static void step_group(struct vt_core *c, struct lgroup *gr)
{
    /* A processor without threads counts idle; one whose group issues
     * nothing counts a stall. */
    unsigned holding = 0;
    for (unsigned i = 0; i < gr->n; i++) {
        if (proc_has_thread(c, gr->first + i))
            holding |= 1u << i;
        else
            c->counts.idle++;
    }
    if (!holding)
        return;
    fetch(c, gr);
    if (gr->busy_until > c->now)
        return;   /* still issuing a multi-cycle group */
    struct pick_ctx x = { c, gr, false, US_STALL_DEPENDENCY };
    int pick = pick_warp(&gr->sched, c->tpp, &x);
    if (pick < 0) {
        c->counts.stall[x.cause] += us_lanes(holding);
        for (unsigned i = 0; i < gr->n && c->w->events; i++)
            if ((holding >> i) & 1)
                us_event_stall(c->w->events, c->now, gr->first + i, x.cause);
        return;
    }
    unsigned j = (unsigned)pick;
    struct warp *wp = &gr->warps[j];
    const struct vt_group *g = &c->code.groups[wp->fs.pc];
    uint32_t masked = wp->present & ~wp->fs.active & ~wp->fs.stopped;
    if (masked && us_wgs_on(&c->wgs) && g->bar) {
        /* its masked lanes wait for its active ones, which wait at BAR */
        const struct vt_op *op = &c->code.ops[g->first];
        us_wgs_divergent_error(c->desc.name, c->vprog,   /* its line */
                               c->code.sinsts ? UINT32_MAX : op->ref,
                               us_lanes(masked), &c->why);
        c->failed = true;
        return;
    }
    /* The group occupies every processor of the warp for g->issues
     * cycles; those of lanes masked off do nothing (docs/METRICS.md). */
    c->counts.masked_lane_slots +=
        (uint64_t)us_lanes(wp->present & ~wp->fs.active) *
        c->desc.lanes_per_proc * g->issues;
    issue_group(c, gr, j);
    gr->busy_until = c->now + g->issues;
    if (c->desc.dual && can_pair(c, gr, j, g)) {
        issue_group(c, gr, j);
        c->dual_issued++;
    }
    c->counts.issued++;
    c->act.issues++;
}

/* A lane's thread retires; the warp takes new threads only when every
 * lane has (they share one pc): true when it did. */
static bool retire_lane(struct vt_core *c, struct lgroup *gr, unsigned i,
                        unsigned j)
{
    struct warp *wp = &gr->warps[j];
    struct slot *s = lane(c, gr, i, j);
    us_event_retire(c->w->events, c->now, gr->first + i, j, s->tid);
    us_workload_retire(c->w, s->tid);
    c->counts.threads++;
    c->counts.latency_sum += c->now - s->start;
    set_busy(c, s, false);
    wp->present &= ~(1u << i);
    want_update(c, gr, j);
    if (wp->present || us_wgs_on(&c->wgs))
        return false;   /* a workgroup's warp waits for admission (admit) */
    for (unsigned k = 0; k < gr->n; k++)
        start_thread(c, lane(c, gr, k, j));
    warp_start(c, gr, j);
    return true;
}

/* The first cycle after `now` whose work can differ from now's, or now + 1:
 * a group's issue stage freeing, a thread able to retire, a register a
 * waiting warp's lane reads or writes becoming usable, the watchdog's
 * deadline.  Called after a cycle in which nothing retired, issued or was
 * fetched, so until then each processor repeats now's stall (or idle)
 * and nothing else changes; only on a graphics workload without an event
 * sink (barrier releases and per-cycle events are not followed here). */
static uint64_t quiet_until(struct vt_core *c)
{
    uint64_t now = c->now, next = c->next_retire;
    uint64_t dead = c->dog.last + c->dog.bound + 1;
    next = dead < next ? dead : next;
    for (unsigned g = 0; g < c->nlgroups && next > now + 1; g++) {
        struct lgroup *gr = &c->lgroups[g];
        if (gr->busy_until > now) {
            next = gr->busy_until < next ? gr->busy_until : next;
            continue;   /* its warps are not looked at before then */
        }
        for (unsigned j = 0; j < c->tpp; j++) {
            const struct warp *wp = &gr->warps[j];
            if (!wp->present || wp->fs.pc >= c->code.ngroups)
                continue;
            for (unsigned i = 0; i < gr->n; i++) {
                if (!((wp->fs.active >> i) & 1))
                    continue;
                unsigned unit = US_UNIT_ALU;
                uint64_t r = slot_group_ready(c, lane(c, gr, i, j),
                                              wp->fs.pc, &unit);
                if (r > now && r < next)
                    next = r;
            }
        }
    }
    return next > now + 1 ? next : now + 1;
}

bool vt_step(struct us_core *core)
{
    struct vt_core *c = vt(core);
    if (c->finished)
        return false;
    /* Retire threads whose last result is usable; refill their slots
     * (only when some thread can retire now). */
    bool live = false, retired = false;
    if (c->next_retire <= c->now) {
        uint64_t next = UINT64_MAX;
        c->next_retire = UINT64_MAX;   /* begin_thread lowers it */
        for (unsigned g = 0; g < c->nlgroups; g++) {
            struct lgroup *gr = &c->lgroups[g];
            for (unsigned j = 0; j < c->tpp; j++) {
                bool done = us_flow_done(&gr->warps[j].fs, c->code.ngroups);
                for (unsigned i = 0; i < gr->n && done; i++) {
                    struct slot *s = lane(c, gr, i, j);
                    if (!s->busy)
                        continue;
                    if (s->done > c->now) {
                        next = s->done < next ? s->done : next;
                        continue;
                    }
                    retired = true;
                    if (retire_lane(c, gr, i, j))
                        break;   /* new threads: checked from next cycle */
                }
            }
        }
        if (next < c->next_retire)
            c->next_retire = next;
    }
    if (retired) {
        us_watchdog_kick(&c->dog, c->now);
        if (us_wgs_on(&c->wgs))
            admit(c);   /* new workgroups: they issue from next cycle */
    }
    for (unsigned p = 0; p < c->desc.procs && !live; p++)
        live = proc_has_thread(c, p);
    if (!c->failed && us_watchdog_expired(&c->dog, c->now))
        c->failed = us_watchdog_error(c->desc.name, &c->dog, &c->why);
    if (!live || c->counts.budget_overruns || c->failed) {
        c->finished = true;
        c->counts.cycles = c->now;
        return false;
    }
    /* a cycle without retirement, issue or fetch may be followed by
     * copies of itself (quiet_until) */
    bool quiet = !retired && !c->w->events && !us_wgs_on(&c->wgs);
    uint64_t stall0[US_STALL_COUNT], idle0 = c->counts.idle;
    uint64_t issued0 = c->counts.issued, words0 = c->counts.instr_words;
    if (quiet)
        memcpy(stall0, c->counts.stall, sizeof stall0);
    for (unsigned g = 0; g < c->nlgroups; g++)
        step_group(c, &c->lgroups[g]);
    if (quiet && !c->failed && c->counts.issued == issued0 &&
        c->counts.instr_words == words0) {
        uint64_t next = quiet_until(c), k = next - c->now - 1;
        for (unsigned u = 0; u < US_STALL_COUNT && k; u++)
            c->counts.stall[u] += k * (c->counts.stall[u] - stall0[u]);
        c->counts.idle += k * (c->counts.idle - idle0);
        c->now = next;
    } else {
        c->now++;
    }
    c->counts.cycles = c->now;
    return true;
}

void vt_stats(const struct us_core *core, struct us_stats *st)
{
    const struct vt_core *c = cvt(core);
    struct us_tcounts counts = c->counts;
    counts.instr_bits = counts.instr_words * c->word_bits;
    struct us_activity act = c->act;
    for (unsigned pc = 0; pc < c->code.ngroups; pc++)
        exec_counts(c, pc, c->execs[pc], &counts, &act);
    us_tcounts_mem(&counts, c->w->env);
    counts.workgroups = c->wgs.admitted;
    counts.barrier_wait = c->wgs.wait_cycles;
    us_tcounts_report(&counts, &c->cfg, c->w->prog, st);
    if (us_program_computes(c->w->prog))
        c->mp->stats(c->mem, st);
    unsigned lanes = c->desc.procs * c->desc.lanes_per_proc;
    if (lanes != (unsigned)c->cfg.v[US_KNOB_alu_lanes])
        us_stats_counter(st, "alu_lanes", "scalar ALU lanes of the machine "
                         "(processors x lanes per processor)",
                         lanes);
    if (c->desc.dual)
        us_stats_counter(st, "dual_issued", "second instructions co-issued "
                         "with the first (superscalar)",
                         (double)c->dual_issued);
    act.imem_bits = counts.instr_bits;
    us_memsys_activity(c->mp, c->mem, &act);
    us_area_report(&c->cfg, &c->desc.hw, &act, c->counts.instr_mem_bits, st);
}

bool vt_failed(const struct us_core *core, struct us_diag *diag)
{
    const struct vt_core *c = cvt(core);
    if (c->failed)
        *diag = c->why;
    return c->failed;
}
