/*
 * What the vec4 executors share beyond isa/micro.h: the opcodes each lane
 * loop serves with their micro-operation (X-macro lists), the MIXED
 * opcodes' per-lane formulas and the texture instructions' coordinates.
 * shader/interp.c (the reference, a thread or a quad) and
 * shader/interp_soa.c (a batch as structure-of-arrays) both expand them,
 * so the semantics are written once.
 */
#ifndef US_INTERP_OPS_H
#define US_INTERP_OPS_H

#include <assert.h>
#include <string.h>

#include "ushader.h"
#include "isa/micro.h"

#define ICOMP1_OPS(X)                                                      \
    X(ABS_S, micro_iabs) X(NOT_U, micro_not) X(BFR_U, micro_bfr)           \
    X(BTC_U, micro_btc) X(BTFL_U, micro_btfl) X(BTFM_S, micro_btfm_s)      \
    X(BTFM_U, micro_btfm_u) X(I2F_S, micro_i2f_s) X(I2F_U, micro_i2f_u)    \
    X(TRUNC_S, micro_trunc_s) X(TRUNC_U, micro_trunc_u)                    \
    X(MOV_U, micro_imov)
#define ICOMP2_OPS(X)                                                      \
    X(ADD_U, micro_iadd) X(SUB_U, micro_isub) X(MUL_U, micro_imul)         \
    X(MUL_S_HI, micro_imulhi_s) X(MUL_U_HI, micro_imulhi_u)                \
    X(DIV_S, micro_idiv_s) X(DIV_U, micro_idiv_u)                          \
    X(MOD_S, micro_imod_s) X(MOD_U, micro_imod_u)                          \
    X(MIN_S, micro_imin_s) X(MIN_U, micro_imin_u)                          \
    X(MAX_S, micro_imax_s) X(MAX_U, micro_imax_u)                          \
    X(SHL_U, micro_shl) X(SHR_S, micro_shr_s) X(SHR_U, micro_shr_u)        \
    X(AND_U, micro_and) X(OR_U, micro_or) X(XOR_U, micro_xor)              \
    X(SEQ_U, micro_iseq) X(SNE_U, micro_isne)                              \
    X(SLT_S, micro_islt_s) X(SLT_U, micro_islt_u)                          \
    X(SLE_S, micro_isle_s) X(SLE_U, micro_isle_u)                          \
    X(SGT_S, micro_isgt_s) X(SGT_U, micro_isgt_u)                          \
    X(SGE_S, micro_isge_s) X(SGE_U, micro_isge_u)
#define ICOMP3_OPS(X) X(CMP_S, micro_icmp)

/* The opcodes each lane loop serves, with their micro-operation. */
#define COMP1_OPS(X)                                                       \
    X(ABS, micro_abs) X(FLR, micro_flr) X(FRC, micro_frc)                  \
    X(MOV, micro_mov) X(SSG, micro_ssg) X(TRC, micro_trc)                  \
    X(SWZ, micro_mov) /* the extended swizzle was applied by load_src */
#define COMP2_OPS(X)                                                       \
    X(ADD, micro_add) X(MAX, micro_max) X(MIN, micro_min)                  \
    X(MUL, micro_mul) X(SEQ, micro_seq) X(SGE, micro_sge)                  \
    X(SGT, micro_sgt) X(SLE, micro_sle) X(SLT, micro_slt)                  \
    X(SNE, micro_sne) X(SUB, micro_sub)
#define COMP3_OPS(X) X(CMP, micro_cmp) X(LRP, micro_lrp) X(MAD, micro_mad)
#define REPL1_OPS(X)                                                       \
    X(COS, micro_cos) X(EX2, micro_ex2) X(LG2, micro_lg2)                  \
    X(RCP, micro_rcp) X(RSQ, micro_rsq) X(SIN, micro_sin)
#define REPL2_OPS(X) X(POW, micro_pow)
#define DOT_OPS(X) X(DP3, micro_dp3) X(DP4, micro_dp4) X(DPH, micro_dph)

/* MIXED: each component its own formula (ARL is handled by the caller).
 * Components micro_written_mask excludes are left as 0 and never written. */
static inline void us_mixed_op(enum us_opcode op, const struct us_math *m,
                               const float src[3][4], float r[4])
{
    const float *a = src[0], *b = src[1];
    switch (op) {
    case US_OP_XPD: /* 2.14.5.27 */
        r[0] = micro_xpd(a[1], b[2], a[2], b[1]);
        r[1] = micro_xpd(a[2], b[0], a[0], b[2]);
        r[2] = micro_xpd(a[0], b[1], a[1], b[0]);
        r[3] = 0.0f;
        break;
    case US_OP_DST: /* 2.14.5.7 */
        r[0] = 1.0f;
        r[1] = micro_mul(a[1], b[1]);
        r[2] = a[2];
        r[3] = b[3];
        break;
    case US_OP_LIT: /* 2.14.5.13 */
        r[0] = 1.0f;
        r[1] = micro_lit_clamp0(a[0]);
        r[2] = micro_lit_z(m, a[0], a[1], a[3]);
        r[3] = 1.0f;
        break;
    case US_OP_EXP: /* 2.14.5.9 */
        r[0] = micro_exp_x(a[0]);
        r[1] = micro_exp_y(a[0]);
        r[2] = micro_exp_z(m, a[0]);
        r[3] = 1.0f;
        break;
    case US_OP_LOG: /* 2.14.5.14 */
        r[0] = micro_log_x(a[0]);
        r[1] = micro_log_y(a[0]);
        r[2] = micro_log_z(m, a[0]);
        r[3] = 1.0f;
        break;
    case US_OP_SCS: /* 3.11.5.23 */
        r[0] = micro_cos(m, a[0]);
        r[1] = micro_sin(m, a[0]);
        r[2] = r[3] = 0.0f;
        break;
    default:
        assert(!"not a mixed opcode");
        r[0] = r[1] = r[2] = r[3] = 0.0f;
        break;
    }
}

/* TEX / TXB / TXP (3.11.6.1-3): the coordinates and LOD bias handed to the
 * sampler. */
static inline void us_tex_coord(enum us_opcode op, const float src[4],
                                float coord[4], float *lod_bias)
{
    memcpy(coord, src, 4 * sizeof(float));
    *lod_bias = 0.0f;
    if (op == US_OP_TXP) {
        for (int c = 0; c < 3; c++)
            coord[c] = micro_txp_div(src[c], src[3]);
    } else if (op == US_OP_TXB) {
        *lod_bias = src[3];
    }
}

#endif
