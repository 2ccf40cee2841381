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
 * processor's slots idle (shader/vec4_timing.h).  Code with memory words,
 * barriers or BRA is scheduled in segments (vt_cuts) until the scheduler
 * orders them itself.
 */
#include <stdlib.h>
#include <string.h>

#include "shader/vec4_timing.h"

/* Memory words, barriers and BRA: the scheduler must not move the first
 * two past each other nor anything across a BRA target (vt_cuts). */
static bool ordered_word(const struct us_sinst *in)
{
    enum us_sop_kind k = us_sops[in->op].kind;
    return k == US_SK_MEM || k == US_SK_BAR;
}

static bool needs_segments(const struct us_scode *sc)
{
    for (unsigned i = 0; i < sc->n; i++)
        if (ordered_word(&sc->insts[i]) ||
            us_sop_flow_kind((enum us_sop)sc->insts[i].op) == US_FLOW_BRA)
            return true;
    return false;
}

/* us_vliw_schedule segment by segment (vt_cuts), the bundles laid out in
 * order; the flow words' targets become bundles: a BRA's the first bundle
 * of the segment its target starts, the others' their partner's bundle
 * (a flow word is alone in its bundle). */
static bool schedule_segments(const struct us_scode *sc, unsigned nslots,
                              bool tslot, struct us_sinst **slots_out,
                              uint32_t **origin_out, unsigned *nb_out)
{
    unsigned n = sc->n, nt = 0, total = 0;
    bool *ordered = malloc((n + 1) * sizeof *ordered);
    uint32_t *targets = malloc((n + 1) * sizeof *targets);
    uint32_t *base = malloc((n + 1) * sizeof *base);      /* at cuts */
    uint32_t *bundle = malloc((n + 1) * sizeof *bundle);  /* of each word */
    struct us_sinst *tmp = malloc((n + 1) * sizeof *tmp);
    struct us_sinst *slots = NULL;
    uint32_t *origin = NULL;
    uint8_t *cut = NULL;
    bool ok = ordered && targets && base && bundle && tmp;
    for (unsigned i = 0; ok && i < n; i++) {
        ordered[i] = ordered_word(&sc->insts[i]);
        if (us_sop_flow_kind((enum us_sop)sc->insts[i].op) == US_FLOW_BRA)
            targets[nt++] = sc->insts[i].target;
    }
    ok = ok && (cut = vt_cuts(n, ordered, targets, nt)) != NULL;
    for (unsigned a = 0, b; ok && a < n; a = b) {
        for (b = a + 1; !cut[b]; b++)
            ;
        /* the flow words' targets are set below: none is local */
        memcpy(tmp, sc->insts + a, (b - a) * sizeof *tmp);
        for (unsigned i = 0; i < b - a; i++)
            if (us_sops[tmp[i].op].kind == US_SK_FLOW)
                tmp[i].target = 0;
        struct us_scode seg = { .insts = tmp, .n = b - a };
        struct us_sinst *s = NULL;
        uint32_t *org = NULL;
        unsigned nb = 0;
        ok = us_vliw_schedule(&seg, nslots, tslot, &s, &org, &nb);
        struct us_sinst *ns = ok ? realloc(slots, ((size_t)total + nb) *
                                           nslots * sizeof *ns) : NULL;
        if (ns)
            slots = ns;
        uint32_t *no = ns ? realloc(origin, ((size_t)total + nb) * nslots *
                                    sizeof *no) : NULL;
        if (no)
            origin = no;
        ok = ok && ns && no;
        for (size_t k = 0; ok && k < (size_t)nb * nslots; k++) {
            size_t at = (size_t)total * nslots + k;
            slots[at] = s[k];
            origin[at] = org[k] == UINT32_MAX ? UINT32_MAX : org[k] + a;
            if (org[k] != UINT32_MAX)
                bundle[org[k] + a] = total + (unsigned)(k / nslots);
        }
        base[a] = total;
        total += nb;
        free(s);
        free(org);
    }
    if (ok) {
        base[n] = total;
        for (size_t k = 0; k < (size_t)total * nslots; k++) {
            if (origin[k] == UINT32_MAX ||
                us_sops[slots[k].op].kind != US_SK_FLOW)
                continue;
            uint32_t t = sc->insts[origin[k]].target;
            slots[k].target =
                us_sop_flow_kind((enum us_sop)slots[k].op) == US_FLOW_BRA
                    ? base[t] : bundle[t];
        }
        *slots_out = slots;
        *origin_out = origin;
        *nb_out = total;
    } else {
        free(slots);
        free(origin);
    }
    free(ordered);
    free(targets);
    free(base);
    free(bundle);
    free(tmp);
    free(cut);
    return ok;
}

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
    bool ok = needs_segments(&sc)
                  ? schedule_segments(&sc, nslots, tslot, &code.sinsts,
                                      &origin, &nb)
                  : us_vliw_schedule(&sc, nslots, tslot, &code.sinsts,
                                     &origin, &nb);
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
    /* Per processor: a scalar multiply-add per slot and no dot-product
     * tree, a full SFU per SFU-capable slot (its LUT with it), one issue
     * slot per slot.  The register file is banked by component as on
     * TeraScale (3 reads + 1 write per bank, simd4's ports); the bank
     * read conflicts that organization imposes on the scheduler are not
     * modelled. */
    struct us_hw simd;
    us_hw_simd4(cfg, code.mem_words * us_target_word_bits(d.target), &simd);
    d.hw = simd;
    d.hw.fmul = d.hw.fadd = nslots * d.procs;
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
