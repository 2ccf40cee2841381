/*
 * The VLIW baseline (SPEC section 2): alu_lanes / 4 processors issuing one
 * statically scheduled bundle per cycle -- 4 scalar slots, or 4 + 1 with a
 * transcendental slot (vliw_tslot, AMD TeraScale) that alone runs SFU
 * operations.  The compiler (us_vliw_schedule, isa/baseline_vliw.c) packs
 * the uncompacted scalar code of one thread with the list scheduler; empty
 * slots are NOPs, counted in the slot occupancy.  Without the t-slot every
 * slot runs SFU operations too, so each slot has its own full SFU.
 * A bundle reads all its operands before it writes: the engine runs its
 * slots readers-first (shader/vec4_timing.c).  With lockstep=L, L
 * processors issue one bundle stream under one flow mask; a masked
 * processor's slots idle (shader/vec4_timing.h).  The scheduler keeps
 * memory words in order and nothing crosses a barrier or a BRA target.
 */
#include <stdlib.h>
#include <string.h>

#include "shader/vec4_timing.h"

/* Processors of four scalar slots (the t-slot comes on top). */
static bool vliw_check(const struct us_config *cfg, struct us_diag *diag)
{
    return vt_check_lanes(cfg, "vliw", 4, diag);
}

static struct us_core *vliw_create(const struct us_config *cfg,
                                   const struct us_workload *w,
                                   struct us_diag *diag)
{
    if (!vliw_check(cfg, diag))
        return NULL;
    bool tslot = cfg->v[US_KNOB_vliw_tslot] != 0;
    unsigned nslots = tslot ? 5 : 4;
    struct us_scode sc;
    if (!us_lower(w->prog, false, &sc, diag))
        return NULL;
    struct vt_code code = { 0 };
    unsigned nb = 0;
    uint32_t *origin = NULL;
    bool ok = us_vliw_schedule(&sc, nslots, tslot, &code.sinsts, &origin,
                               &nb);
    code.mem_words = nb;
    for (unsigned b = 0; ok && b < nb; b++) {
        for (unsigned s = 0; ok && s < nslots; s++) {
            unsigned i = b * nslots + s;
            if (code.sinsts[i].op == US_SOP_NOP)
                continue;
            /* the vec4 work the slot's scalar operation carries */
            struct us_opcount oc = { 0 };
            uint32_t o = origin[i];
            us_opcount_add(&oc, w->prog->insts, sc.vbegin[o], sc.vbegin[o + 1]);
            ok = vt_code_add_scalar(&code, i, &oc);
        }
        ok = ok && vt_code_group(&code, 1);
    }
    us_scode_free(&sc);
    free(origin);
    if (!ok)
        return vt_oom("vliw", &code, diag);
    struct vt_desc d = { .name = "vliw",
                         .target = tslot ? US_TARGET_VLIW5 : US_TARGET_VLIW,
                         .procs = vt_procs(cfg, 4), .lanes_per_proc = nslots,
                         .nslots = nslots };
    vt_latencies(cfg, d.latency);
    /* Per processor: a scalar multiply-add, an integer ALU and an integer
     * multiplier per slot (every slot, the t-slot too, runs ALU
     * operations) and no dot-product tree, a full SFU per SFU-capable slot
     * (its LUT with it), one issue slot per slot; an LSU per slot or per
     * port as the memory system has it (vt_create).  The register file is banked by component as on
     * TeraScale (3 reads + 1 write per bank, simd4's ports); the bank
     * read conflicts that organization imposes on the scheduler are not
     * modelled. */
    struct us_hw simd;
    us_hw_simd4(cfg, code.mem_words * us_target_word_bits(d.target), &simd);
    d.hw = simd;
    d.hw.fmul = d.hw.fadd = nslots * d.procs;
    d.hw.int_alu = d.hw.int_mul = nslots * d.procs;
    d.hw.sfu_full = (tslot ? 1 : 4) * d.procs;
    if (simd.sfu_full) {
        d.hw.lut_bits = simd.lut_bits / simd.sfu_full * d.hw.sfu_full;
        d.hw.lut_ports = simd.lut_ports / simd.sfu_full * d.hw.sfu_full;
    }
    d.hw.issue_slots = nslots * d.procs;
    return vt_create(cfg, w, &d, &code, diag);
}

const struct us_core_model us_model_vliw = {
    "vliw", vliw_create, vt_reset, vt_step, vt_stats, vt_destroy, vliw_check, vt_failed,
};
