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
 * (shader/vec4_timing.h).  The scheduler keeps memory instructions in
 * order, nothing crosses a barrier or a BRA target, and a BRA's target is
 * a bundle.
 */
#include <stdlib.h>
#include <string.h>

#include "shader/vec4_timing.h"

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
    if (!us_hetero_schedule(w->prog, &slots, &empty, &nb))
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
            ok = vt_code_add_vec4(&code, n++);   /* a BRA: to its bundle */
            if (s == 0 && us_ops[in->op].unit == US_UNIT_ALU &&
                us_inst_width(in) > vw)
                issues = 2;
        }
        ok = ok && vt_code_group(&code, issues);
    }
    free(slots);
    free(empty);
    if (!ok)
        return vt_oom("hetero", &code, diag);
    struct vt_desc d = { .name = "hetero", .target = US_TARGET_HETERO,
                         .procs = vt_procs(cfg, vw + 1),
                         .lanes_per_proc = vw + 1 };
    vt_latencies(cfg, d.latency);
    /* Per processor: vw + 1 multiply-adds (no dot-product tree: a DP3 on
     * the vec3 datapath reduces with two more adders), an integer ALU and
     * multiplier per lane of both datapaths (either slot runs integer
     * operations), one full SFU, three read and one write port per
     * datapath, two issue slots; LSUs per lane or port (vt_create). */
    struct us_hw simd;
    us_hw_simd4(cfg, code.mem_words * us_target_word_bits(d.target), &simd);
    d.hw = simd;
    unsigned simd_procs = vt_procs(cfg, 4);
    d.hw.fmul = (vw + 1) * d.procs;
    d.hw.fadd = (vw + 1 + vw - 1) * d.procs;
    d.hw.int_alu = d.hw.int_mul = (vw + 1) * d.procs;
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
