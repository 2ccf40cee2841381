/*
 * The SFU model: table-driven elementary functions evaluated on the SP's
 * own multiply-add datapath (the "partial SFU" of SPEC section 1), with one
 * coefficient LUT shared by the SPs.  Public API: include/ushader.h.
 *
 * WHAT A FUNCTION DOES (sfu/sfu_lane.h is the bit-exact definition)
 *
 *  1. Special cases, before anything else.  Flush-to-zero (FTZ) on input
 *     and output, sign preserved: a denormal input is read as +-0, a result
 *     below 2^-126 (after rounding) is returned as +-0.  This is the D3D10+
 *     rule for binary32 arithmetic (denorms flushed on input and output,
 *     sign preserved) and what ARB_vertex_program / ARB_fragment_program
 *     allow (they do not require denormalized numbers).  D3D9-class
 *     hardware flushed too; keeping denormals would need a normalizing
 *     shifter on the SFU input and output for no shader-visible benefit.
 *     Then the IEEE 754 values, which are also the D3D10/11 ones:
 *        rcp(+-0) = +-inf   rcp(+-inf) = +-0
 *        rsq(+0) = +inf     rsq(-0) = -inf (IEEE rSqrt; MPFR says +inf)
 *        rsq(x<0) = NaN     rsq(+inf) = +0
 *        sqrt(+-0) = +-0    sqrt(x<0) = NaN    sqrt(+inf) = +inf
 *        lg2(+-0) = -inf    lg2(x<0) = NaN     lg2(+inf) = +inf
 *        ex2(+-0) = 1       ex2(-inf) = +0     ex2(+inf) = +inf
 *        ex2(x >= 128) = +inf, ex2(x <= -128) = +0 (and x < -126 flushes)
 *        sin/cos(+-inf) = NaN, sin(+-0) = +-0, cos(+-0) = 1
 *     NaN in gives the default NaN 0x7fc00000.  The ARB instruction rules
 *     (RSQ of |x|, ...) are the interpreter's (isa/micro.h).
 *
 *  2. Range reduction (SFU-specific shifters; only the sin/cos multiply
 *     below runs on the datapath):
 *     rcp, lg2:  x = m 2^e, m in [1,2): 23 fraction bits f.
 *     rsq, sqrt: x = m' 2^e', e' even, m' in [1,4); the exponent parity is
 *                the top index bit, so 2^(k-1) segments cover each binade.
 *     ex2:       x -> fixed point with 32 fraction bits, floor to -inf:
 *                x = i + f, f in [0,1); i is the result exponent.
 *     sin, cos:  |x| tiny (< 2^-12): sin x = x, cos x = 1 (both correctly
 *                rounded there).  Otherwise r = frac(|x| / 2 pi) with 32
 *                fraction bits.  With |x| = M 2^E (M the 24-bit integer
 *                significand), bits 1..E of 1/(2 pi) only add whole
 *                revolutions, so M is multiplied by the 72-bit window of
 *                bits max(1, E+1) .. +71 (Payne-Hanek), i.e. three 24x24
 *                multiply-adds on the datapath, and the product truncated.
 *                Error < 1 + 2^-16 units of 2^-32 revolution for EVERY
 *                binary32 x: reduced angle error < 2^-29.3 rad.  The top
 *                two bits are the quadrant, the 30 others u; both sin and
 *                cos use the quarter wave S(v) = sin(pi/2 v) at v = u or
 *                v = ~u (= 1 - u - 2^-30: the complement adds 2^-29.3 rad).
 *
 *  3. Segment index: the top kb bits of the reduced fraction (kb = k, or
 *     k - 1 below the parity bit of rsq/sqrt); t = the next tw <= 24 bits
 *     (T, the multiplier's 24-bit operand; lower bits are dropped).
 *
 *  4. Polynomial: p(t) = c0 + c1 t + ... + cd t^d, Horner from cd down,
 *     each step ONE multiply-add pass on the SP datapath:
 *         acc_d = C_d
 *         acc_i = round(acc_{i+1} * T >> sh_i) + C_i
 *     C_i are signed integers of width w_i (c_i = C_i 2^-s_i, s_i fixed per
 *     table and coefficient by the generator so acc_i fits w_i bits);
 *     the 24x24-bit product is exact (|acc_{i+1}| < 2^24 since w_i <= 25)
 *     and is aligned to C_i's LSB with round-half-up (add 2^(sh-1), then an
 *     arithmetic shift).  c0 may be up to 32 bits: it meets only the adder
 *     (the FMA adder is >= 48 bits wide).  lg2 injects the integer exponent
 *     e into the integer bits of the c0 operand (wiring, not a pass).
 *
 *  5. Normalization and rounding: the leading one of |acc_0| is found and
 *     the value rounded to a 24-bit significand, round to nearest with
 *     ties away from zero (add half an ulp, truncate); a carry out
 *     renormalizes.  sin/cos clamp acc_0 to [0, 1] first.
 *
 *  POW (ARB POW) = ex2(y * lg2(x)): the multiply is an ordinary FP32 MUL
 *  on the datapath (round to nearest even).  It inherits lg2's absolute
 *  error times |y|.
 *
 * PASSES per function (us_sfu_passes): degree d for rcp rsq sqrt lg2 ex2,
 * 3 + d for sin and cos (the reduction multiplies), lg2 + 1 + ex2 for pow.
 *
 * COEFFICIENTS (sfu/sfu_remez.c, committed default: sfu/sfu_tables.c):
 * per segment, MPFR evaluates f on a 257-point grid (correctly rounded to
 * 64 bits); a discrete Remez exchange finds the minimax polynomial of
 * absolute error; the generator then fixes the coefficients from the top
 * degree down, rounding c_j to its grid and re-optimizing c_{j-1}..c_0 by
 * another Remez on the residual, so each rounding is absorbed by the
 * coefficients still free.  lg2 and sin segment 0 have c0 = 0 (t times a
 * minimax of degree d - 1), so lg2(1) = 0 and sin keeps relative accuracy
 * near 0.
 *
 * LUT LAYOUT AND BANKS: table T holds 2^k[T] entries of sum(w_0..w_d) bits,
 * one entry per segment; the tables are stacked in the order of
 * enum us_sfu_table (entry g = base[T] + segment).  With B banks entry g
 * lives in bank g % B, row g / B: the LOW segment bits select the bank, so
 * neighbouring segments -- what coherent neighbouring fragments read --
 * fall in different banks, and equal segments merge (multi-fetch).
 *
 * ACCURACY.  SPEC 5 anchors: D3D9 / NV_fragment_program ask 2^-22 for
 * rcp on [1,2), rsq on [1,4), ex2 and lg2, and 2^-22 absolute for sin/cos;
 * AMD's v_exp_f32 / v_log_f32 are 1 ulp; quadratic interpolation needs
 * about k = 7 for rcp and k = 6 for the others.  The default configuration
 * (degree 2, widths 32/24/18) is chosen to meet, measured exhaustively by
 * `ushader sfu check` (tests/sfu_check.test.sh, bench/sfu_full.bench.sh):
 *   rcp, rsq, sqrt, ex2: <= 1 ulp for every normal input with a normal
 *        result (primary domains: 0.75, 0.59, 0.60, 0.81 ulp; 95-98%
 *        correctly rounded, 100% faithful); RCP(1) = RSQ(1) = 1 exactly,
 *        ex2 of integers and lg2 of powers of two exact.
 *   lg2: <= 2^-22 absolute on [0.5,2] (2^-24.6), <= 1 ulp elsewhere.
 *   sin, cos: <= 2^-22 absolute (2^-23.3) on [-pi,pi] AND over the whole
 *        binary32 range, since the reduction error (< 2^-29.3 rad) does not
 *        grow with |x|.
 *
 * SEGMENT BUDGET.  The generator's grid error of a degree-2 table is
 * about 2^(-3k) times a per-function constant (`ushader sfu sweep`):
 *   rcp k=7: 2^-26.0 against a half ulp of 2^-25 -> fits, 128 segments.
 *   ex2 k=6: 2^-26.0 against 2^-24 -> 64 segments.
 *   sin/cos k=6: 2^-23.3 against the 2^-22 anchor -> 64 segments, shared.
 *   lg2 k=7 (128): with k=6 the error is 2^-23.8, but lg2 of x in (2,4) or
 *        [0.25,0.5) lies in [1,2) where an ulp is 2^-23: 1.04 ulp measured.
 *   sqrt k=7 (128 = 64 per binade): k=6 gives 2^-23.5 in [2,4), whose
 *        segments are twice as wide in m, i.e. 1.19 ulp.
 *   rsq k=8 (256 = 128 per binade): results lie in (0.5,1] where an ulp is
 *        2^-24; k=7 gives 2^-24.7, measured 1.09 ulp.
 * These three exceed 64 segments because "~1 ulp" from the anchor is not
 * "<= 1 ulp" once the final rounding (0.5 ulp) is added.  The alternative
 * is degree 3, which meets every bound with at most 64 segments and fewer
 * LUT bits (rsq k=6: 5632 bits instead of 18944) at the price of one more
 * datapath pass per function: `--set degree=3 --set rsq.k=6 ...`.
 */
#ifndef US_SFU_SFU_H
#define US_SFU_SFU_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ushader.h"

/* A binary32's bit pattern and back. */
static inline uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float float_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

enum {
    US_SFU_MAX_K = 8,          /* at most 256 segments per table          */
    US_SFU_TRIG_PASSES = 3,    /* 72-bit 1/(2 pi) window = 3 x 24 bits    */
    US_SFU_MUL_BITS = 24,      /* multiplier operand magnitude            */
};

/* Where the segment index and t come from in a table's reduced fraction
 * (`fb0` bits wide): index = top kb bits, T = next tw bits, and t = T *
 * 2^-(kb + tw) in [0, 2^-kb). */
struct us_sfu_geom {
    unsigned fb0, kb, tw;
};
void us_sfu_geom(enum us_sfu_table t, unsigned k, struct us_sfu_geom *g);

/* The committed default tables (sfu/sfu_tables.c, generated). */
extern const struct us_sfu_coeffs us_sfu_default_coeffs[US_SFU_NTABLES];

/* Build one table for `cfg` into `coef` (2^k * (degree + 1) entries);
 * *err gets the largest absolute error of the rounded polynomials on the
 * generator's grid. */
US_MUST_CHECK bool us_sfu_generate(const struct us_sfu_config *cfg,
                                   enum us_sfu_table t, int32_t *coef,
                                   struct us_sfu_coeffs *out, double *err,
                                   struct us_diag *diag);

/* us_sfu_eval of x[0..n-1] into out[0..n-1] (the arrays do not overlap),
 * the same bits, with the lanes in one loop (sfu/sfu_batch.c). */
void us_sfu_eval_batch(const struct us_sfu *sfu, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n);

/* us_sfu_eval_batch on one build of its loops (the tests'): false when
 * the CPU lacks it.  BEST is what us_sfu_eval_batch takes. */
enum us_sfu_isa { US_SFU_ISA_BEST, US_SFU_ISA_BASE, US_SFU_ISA_AVX2,
                  US_SFU_ISA_AVX512 };
bool us_sfu_eval_batch_isa(const struct us_sfu *sfu, enum us_sfu_isa isa,
                           enum us_sfu_func f, const float *restrict x,
                           float *restrict out, size_t n);

/* 1/(2 pi) as 32-bit words, most significant first: bit j (weight 2^-j,
 * j >= 1) is bit 31 - (j - 1) % 32 of word (j - 1) / 32. */
extern const uint32_t us_sfu_inv2pi[9];

#endif
