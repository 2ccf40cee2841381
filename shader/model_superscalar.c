/*
 * The superscalar baseline (SPEC section 2), an NV40-class shader:
 * alu_lanes / 4 processors with a 4-wide vec4 datapath (and its dot-product
 * tree) and a full, pipelined SFU.  Issue is in order and dynamic: with the
 * thread's next instruction the processor co-issues the one after it when
 * that one is independent of the first (no RAW or WAW), its registers are
 * ready, the two component counts (us_inst_width) fit the 4 lanes (2+2,
 * 3+1, 1+1, ...) and they do not both need the SFU, the texture unit or
 * the address unit.  The issue engine is shader/vec4_timing.c; with
 * lockstep=L, L processors share one instruction stream and co-issue
 * needs the pair ready on every active lane (shader/vec4_timing.h).
 */
#include "shader/vec4_timing.h"

static bool superscalar_check(const struct us_config *cfg,
                              struct us_diag *diag)
{
    return vt_check_lanes(cfg, "superscalar", 4, diag);
}

static struct us_core *superscalar_create(const struct us_config *cfg,
                                          const struct us_workload *w,
                                          struct us_diag *diag)
{
    if (!superscalar_check(cfg, diag))
        return NULL;
    const struct us_program *prog = w->prog;
    struct vt_code code = { .vinsts = prog->insts, .mem_words = prog->ninsts };
    for (unsigned pc = 0; pc < prog->ninsts; pc++)
        if (!vt_code_add_vec4(&code, pc) || !vt_code_group(&code, 1))
            return vt_oom("superscalar", &code, diag);
    struct vt_desc d = { .name = "superscalar",
                         .target = US_TARGET_SUPERSCALAR,
                         .procs = vt_procs(cfg, 4), .lanes_per_proc = 4,
                         .dual = true };
    vt_latencies(cfg, d.latency);
    /* simd4's datapath (its integer ALU and multiplier per lane), SFU and
     * dot-product tree, with two issue slots and twice the register-file
     * ports per processor (two instructions read and write each cycle);
     * LSUs per lane or port (vt_create). */
    us_hw_simd4(cfg, code.mem_words * us_target_word_bits(d.target), &d.hw);
    d.hw.issue_slots = 2 * d.procs;
    d.hw.rf_ports *= 2;
    return vt_create(cfg, w, &d, &code, diag);
}

const struct us_core_model us_model_superscalar = {
    "superscalar", superscalar_create, vt_reset, vt_step, vt_stats,
    vt_destroy, superscalar_check, vt_failed,
};
