/*
 * The heterogeneous-SP baseline (SPEC section 2, the paper's comparison
 * point): alu_lanes / (hetero_vec_width + 1) processors, each a vec3 (or
 * vec4) SIMD datapath beside a scalar datapath that holds the SFU, issuing
 * one bundle (vector slot + scalar slot, 3+1 or 4+1) per cycle.
 *
 * Pairing is STATIC: the compiler's bundles from us_hetero_schedule
 * (isa/baseline_hetero.c: SFU operations in the scalar slot, one-component
 * ALU operations in either, the rest in the vector slot).  An ALU
 * operation wider than the vector datapath (4 components on a vec3: DP4,
 * DPH, a full-mask MAD) takes two issues: its bundle holds the issue stage
 * for two cycles and the bundle's results are usable a latency after the
 * second.
 * A bundle reads before it writes: the engine runs its slots
 * readers-first (shader/vec4_timing.c).  With lockstep=L, L processors
 * issue one bundle stream under one flow mask; a masked processor's
 * vw + 1 lanes idle for the bundle's one or two issues
 * (shader/vec4_timing.h).  A program with memory instructions, barriers
 * or BRA is scheduled in segments (vt_cuts) until the scheduler orders
 * them itself.
 */
#include <stdlib.h>
#include <string.h>

#include "shader/vec4_timing.h"

/* Memory instructions and barriers keep their order; BRA targets start a
 * block (vt_cuts). */
static bool ordered_inst(const struct us_inst *in)
{
    enum us_unit u = us_ops[in->op].unit;
    return u == US_UNIT_LSU || u == US_UNIT_BARRIER;
}

/* us_hetero_schedule over the whole program or, when it has memory,
 * barriers or BRA, segment by segment laid out in order; *base (n + 1
 * entries, malloc'd) receives the first bundle of the segment starting at
 * each cut (a BRA's target becomes base[target]). */
static bool schedule(const struct us_program *prog, struct us_inst **slots,
                     bool **empty, unsigned *nbundles, uint32_t **base_out)
{
    unsigned n = prog->ninsts, nt = 0;
    bool segments = false;
    for (unsigned i = 0; i < n; i++)
        segments |= ordered_inst(&prog->insts[i]) ||
                    prog->insts[i].op == US_OP_BRA;
    *base_out = NULL;
    if (!segments)
        return us_hetero_schedule(prog, slots, empty, nbundles);
    *slots = NULL;
    *empty = NULL;
    *nbundles = 0;
    bool *ordered = malloc((n + 1) * sizeof *ordered);
    uint32_t *targets = malloc((n + 1) * sizeof *targets);
    uint32_t *base = malloc((n + 1) * sizeof *base);
    uint8_t *cut = NULL;
    bool ok = ordered && targets && base;
    for (unsigned i = 0; ok && i < n; i++) {
        ordered[i] = ordered_inst(&prog->insts[i]);
        if (prog->insts[i].op == US_OP_BRA)
            targets[nt++] = prog->insts[i].target;
    }
    ok = ok && (cut = vt_cuts(n, ordered, targets, nt)) != NULL;
    unsigned total = 0;
    for (unsigned a = 0, b; ok && a < n; a = b) {
        for (b = a + 1; !cut[b]; b++)
            ;
        struct us_program seg = *prog;
        seg.insts = prog->insts + a;
        seg.ninsts = b - a;
        struct us_inst *s = NULL;
        bool *e = NULL;
        unsigned nb = 0;
        ok = us_hetero_schedule(&seg, &s, &e, &nb);
        struct us_inst *ns = ok ? realloc(*slots, 2 * ((size_t)total + nb) *
                                          sizeof *ns) : NULL;
        if (ns)
            *slots = ns;
        bool *ne = ns ? realloc(*empty, 2 * ((size_t)total + nb) *
                                sizeof *ne) : NULL;
        if (ne)
            *empty = ne;
        ok = ok && ns && ne;
        if (ok) {
            memcpy(*slots + 2 * (size_t)total, s, 2 * (size_t)nb * sizeof *s);
            memcpy(*empty + 2 * (size_t)total, e, 2 * (size_t)nb * sizeof *e);
        }
        base[a] = total;
        total += nb;
        free(s);
        free(e);
    }
    if (ok) {
        base[n] = total;
        *nbundles = total;
        *base_out = base;
        base = NULL;
    } else {
        free(*slots);
        free(*empty);
        *slots = NULL;
        *empty = NULL;
    }
    free(ordered);
    free(targets);
    free(base);
    free(cut);
    return ok;
}

/* Processors of hetero_vec_width + 1 lanes. */
static bool hetero_check(const struct us_config *cfg, struct us_diag *diag)
{
    unsigned vw = (unsigned)cfg->v[US_KNOB_hetero_vec_width];
    char what[48];
    snprintf(what, sizeof what, "hetero %u+1", vw);
    return vt_check_lanes(cfg, what, vw + 1, diag);
}

static struct us_core *hetero_create(const struct us_config *cfg,
                                     const struct us_workload *w,
                                     struct us_diag *diag)
{
    if (!hetero_check(cfg, diag))
        return NULL;
    unsigned vw = (unsigned)cfg->v[US_KNOB_hetero_vec_width];
    struct us_inst *slots = NULL;
    bool *empty = NULL;
    unsigned nb = 0;
    struct vt_code code = { 0 };
    uint32_t *base = NULL;
    if (!schedule(w->prog, &slots, &empty, &nb, &base))
        return vt_oom("hetero", &code, diag);
    /* The ops index a compacted copy of the bundles' instructions. */
    code.vinsts_owned = malloc((2 * (size_t)nb + 1) * sizeof *code.vinsts_owned);
    code.vinsts = code.vinsts_owned;
    code.mem_words = nb;
    bool ok = code.vinsts_owned != NULL;
    unsigned n = 0;
    for (unsigned b = 0; b < nb && ok; b++) {
        unsigned issues = 1;
        for (unsigned s = 0; s < 2 && ok; s++) {
            if (empty[2 * b + s])
                continue;
            const struct us_inst *in = &slots[2 * b + s];
            code.vinsts_owned[n] = *in;
            ok = vt_code_add_vec4(&code, n++);
            if (ok && in->op == US_OP_BRA && base)   /* to its bundle */
                code.ops[code.nops - 1].target = base[in->target];
            if (s == 0 && us_ops[in->op].unit == US_UNIT_ALU &&
                us_inst_width(in) > vw)
                issues = 2;
        }
        ok = ok && vt_code_group(&code, issues);
    }
    free(slots);
    free(empty);
    free(base);
    if (!ok)
        return vt_oom("hetero", &code, diag);
    struct vt_desc d = { .name = "hetero", .target = US_TARGET_HETERO,
                         .procs = vt_procs(cfg, vw + 1),
                         .lanes_per_proc = vw + 1 };
    vt_latencies(cfg, d.latency);
    /* Per processor: vw + 1 multiply-adds (no dot-product tree: a DP3 on
     * the vec3 datapath reduces with two more adders), one full SFU,
     * three read and one write port per datapath, two issue slots. */
    struct us_hw simd;
    us_hw_simd4(cfg, code.mem_words * us_target_word_bits(d.target), &simd);
    d.hw = simd;
    unsigned simd_procs = vt_procs(cfg, 4);
    d.hw.fmul = (vw + 1) * d.procs;
    d.hw.fadd = (vw + 1 + vw - 1) * d.procs;
    d.hw.sfu_full = d.procs;
    if (simd.sfu_full) {
        d.hw.lut_bits = simd.lut_bits / simd.sfu_full * d.hw.sfu_full;
        d.hw.lut_ports = simd.lut_ports / simd.sfu_full * d.hw.sfu_full;
    }
    d.hw.rf_bits = simd.rf_bits / simd_procs * d.procs;
    d.hw.rf_count = d.procs;
    d.hw.rf_ports = 8;
    d.hw.issue_slots = 2 * d.procs;
    return vt_create(cfg, w, &d, &code, diag);
}

const struct us_core_model us_model_hetero = {
    "hetero", hetero_create, vt_reset, vt_step, vt_stats, vt_destroy,
    hetero_check, vt_failed,
};
