/*
 * The simd4 baseline (SPEC section 2): alu_lanes / 4 processors, each a
 * vec4 SIMD datapath that issues one vec4 instruction per cycle with a
 * fixed latency whatever its number of enabled components -- the waste the
 * paper measures (scalar code keeps 1 of 4 lanes busy).  DP3 / DP4 / DPH
 * run on the dot-product tree in one issue; each processor has a dedicated
 * full, pipelined SFU.  threads_per_proc threads per processor hide the
 * latencies.  The issue engine is shader/vec4_timing.c.  With lockstep=L,
 * L processors share one instruction stream (one pc, fetch and flow mask
 * per warp of L threads, like a quad of pixel pipes): a processor whose
 * thread flow control masks off idles its 4 lanes while the others issue
 * (masked_lane_slots; shader/vec4_timing.h).
 */
#include "shader/vec4_timing.h"

static bool simd4_check(const struct us_config *cfg, struct us_diag *diag)
{
    return vt_check_lanes(cfg, "simd4", 4, diag);
}

static struct us_core *simd4_create(const struct us_config *cfg,
                                    const struct us_workload *w,
                                    struct us_diag *diag)
{
    if (!simd4_check(cfg, diag))
        return NULL;
    const struct us_program *prog = w->prog;
    struct vt_code code = { .vinsts = prog->insts, .mem_words = prog->ninsts };
    for (unsigned pc = 0; pc < prog->ninsts; pc++)
        if (!vt_code_add_vec4(&code, pc) || !vt_code_group(&code, 1))
            return vt_oom("simd4", &code, diag);
    struct vt_desc d = { .name = "simd4", .target = US_TARGET_SIMD4,
                         .procs = vt_procs(cfg, 4), .lanes_per_proc = 4 };
    vt_latencies(cfg, d.latency);
    /* the reference machine: 4 lanes (FP, integer ALU and multiplier each)
     * per processor, LSUs per lane or port (us_hw_simd4, vt_create) */
    us_hw_simd4(cfg, code.mem_words * us_target_word_bits(d.target), &d.hw);
    return vt_create(cfg, w, &d, &code, diag);
}

const struct us_core_model us_model_simd4 = {
    "simd4", simd4_create, vt_reset, vt_step, vt_stats, vt_destroy,
    simd4_check, vt_failed,
};
