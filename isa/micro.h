/*
 * Per-lane micro-operations: the arithmetic of every vec4 opcode, written
 * once on binary32 scalars.  The reference interpreter (shader/interp.c)
 * applies them through generic operand/write-mask wrappers, and every
 * architecture model (the scalar SP lowering each vec4 instruction into
 * scalar MUL/MAD/ADD/SFU operations, SIMD, VLIW ...) calls the same
 * functions, so all models give bit-identical results.
 *
 * Arithmetic rules (the ARB specs leave precision to the implementation;
 * this model fixes it):
 *
 *  - Every operation is IEEE 754 binary32 with round-to-nearest-even, one
 *    rounding per operation.  FLT_EVAL_METHOD must be 0 (x86-64 SSE, no
 *    excess precision); the #error below guards it.
 *
 *  - MAD is UNFUSED: the product is rounded to binary32, then the sum is
 *    rounded (micro_mad).  A scalar SP whose multiply-add rounds twice gives
 *    the same bits.  This relies on the compiler not contracting a*b+c into
 *    an fma: gcc keeps -ffp-contract=off in ISO C mode (-std=c11, which the
 *    Makefile uses; checked with gcc 12 -O2 -mfma: vmulss + vaddss), and
 *    gcc rejects `#pragma STDC FP_CONTRACT` under -Werror, so the guarantee
 *    is the ISO mode plus tests/unit/test_interp.c's `mad_is_unfused` test.
 *
 *  - Dot products accumulate in the order x, y, z (, w) as one MUL followed
 *    by MADs: dp = x0*y0; dp = x1*y1 + dp; dp = x2*y2 + dp; ...  DPH adds
 *    y.w last with an ADD (equal to a MAD with x.w forced to 1.0, since
 *    1.0 * y.w is exact).
 *
 *  - SUB a - b is IEEE-identical to ADD a + (-b); XPD components are
 *    MUL then MAD with the negated product: a*b - c*d = mad(a, b, -(c*d)).
 *
 *  - LRP uses ARB_fragment_program 3.11.5.14's formula
 *    a*b + (1 - a)*c, as ADD (1 - a), MUL by c, MAD a*b + that.
 *
 *  - Elementary functions (RCP RSQ EX2 LG2 SIN COS POW, LIT's power, the
 *    z components of EXP and LOG) reach the SFU only through a
 *    `struct us_math`; the ARB instructions' own operand rules (RSQ and LOG
 *    take |x|, LIT's clamps) live here, not in us_math.
 *
 *  - Components the specs leave undefined (XPD .w, SCS .z .w) are not
 *    written: micro_written_mask() gives the components an instruction
 *    really writes, so no model spends a datapath slot on them.
 *
 *  - Saturation clamps to [0, 1] with NaN -> 0 and -0 -> +0 (the clamp is
 *    written as x > 0 ? min(x, 1) : 0).
 */
#ifndef US_MICRO_H
#define US_MICRO_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "ushader.h"
#include "isa/micro_int.h"
#include "isa/micro_mem.h"

#if FLT_EVAL_METHOD != 0
#error "micro-ops need binary32 evaluation without excess precision"
#endif

/* ---- ALU (multiply-add datapath) --------------------------------------- */

static inline float micro_mov(float a) { return a; }
static inline float micro_abs(float a) { return fabsf(a); }
static inline float micro_neg(float a) { return -a; }
static inline float micro_add(float a, float b) { return a + b; }
static inline float micro_sub(float a, float b) { return a - b; }
static inline float micro_mul(float a, float b) { return a * b; }

/* Unfused: round(round(a * b) + c). */
static inline float micro_mad(float a, float b, float c)
{
    float p = a * b;
    return p + c;
}

/* ARB 2.14.5.16/17: the comparison decides, so NaN operands pick b (MAX)
 * or a (MIN) exactly as the pseudo-code says. */
static inline float micro_max(float a, float b) { return a > b ? a : b; }
static inline float micro_min(float a, float b) { return a > b ? b : a; }

static inline float micro_sge(float a, float b) { return a >= b ? 1.0f : 0.0f; }
static inline float micro_slt(float a, float b) { return a < b ? 1.0f : 0.0f; }
/* NV_vertex_program2's set-on comparisons: NaN compares unordered, so only
 * SNE is 1.0 when an operand is NaN (IEEE 754 5.11). */
static inline float micro_seq(float a, float b) { return a == b ? 1.0f : 0.0f; }
static inline float micro_sne(float a, float b) { return a != b ? 1.0f : 0.0f; }
static inline float micro_sgt(float a, float b) { return a > b ? 1.0f : 0.0f; }
static inline float micro_sle(float a, float b) { return a <= b ? 1.0f : 0.0f; }

/* GLSL sign(): -1, 0 or 1; zero keeps its sign, NaN stays NaN. */
static inline float micro_ssg(float a)
{
    return a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : a;
}

/* Round toward zero: GLSL trunc() and float-to-int conversion. */
static inline float micro_trc(float a) { return truncf(a); }

/* ARB_fragment_program 3.11.5.3: (a < 0) ? b : c; -0 and NaN select c. */
static inline float micro_cmp(float a, float b, float c)
{
    return a < 0.0f ? b : c;
}

static inline float micro_flr(float a) { return floorf(a); }

/*
 * FRC (2.14.5.11): a - floor(a), "always in the range [0.0, 1.0)".  In
 * binary32 the subtraction rounds up to 1.0 for tiny negative a (e.g.
 * -2^-30), so the result is limited to the largest float below 1 to keep
 * the spec's range.  +-inf and NaN give NaN.
 */
static inline float micro_frc(float a)
{
    float r = a - floorf(a);
    return r >= 1.0f ? 0x1.fffffep-1f : r;
}

/* Every register write goes through micro_canon (or micro_sat): a NaN
 * result becomes the default NaN 0x7fc00000.  IEEE 754 6.3 leaves a NaN's
 * sign and payload to the implementation, and x86 propagates the first
 * operand's NaN -- which gcc may swap when it inlines a*b or a+b -- so
 * without this the same micro-op sequence could give different NaN bits
 * in different models.  GPUs commonly produce one canonical NaN too. */
static inline float micro_canon(float a)
{
    return a != a ? __builtin_nanf("") : a;
}

static inline float micro_sat(float a)
{
    return a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
}

/* LRP (3.11.5.14): a*b + (1 - a)*c. */
static inline float micro_lrp(float a, float b, float c)
{
    return micro_mad(a, b, micro_mul(micro_add(1.0f, -a), c));
}

/* One XPD component: a*b - c*d. */
static inline float micro_xpd(float a, float b, float c, float d)
{
    return micro_mad(a, b, -micro_mul(c, d));
}

static inline float micro_dp3(const float a[4], const float b[4])
{
    float dp = micro_mul(a[0], b[0]);
    dp = micro_mad(a[1], b[1], dp);
    return micro_mad(a[2], b[2], dp);
}

static inline float micro_dp4(const float a[4], const float b[4])
{
    return micro_mad(a[3], b[3], micro_dp3(a, b));
}

static inline float micro_dph(const float a[4], const float b[4])
{
    return micro_add(micro_dp3(a, b), b[3]);
}

/* ---- Elementary functions (SFU) --------------------------------------- */

static inline float micro_rcp(const struct us_math *m, float a)
{
    return m->rcp(m->cfg, a);
}

/* RSQ (2.14.5.22): the reciprocal square root of |a|. */
static inline float micro_rsq(const struct us_math *m, float a)
{
    return m->rsq(m->cfg, fabsf(a));
}

static inline float micro_ex2(const struct us_math *m, float a)
{
    return m->ex2(m->cfg, a);
}

/* LG2 (2.14.5.12) takes the operand as is: zero and negatives are
 * undefined in the spec and give us_math's IEEE -inf / NaN here. */
static inline float micro_lg2(const struct us_math *m, float a)
{
    return m->lg2(m->cfg, a);
}

static inline float micro_sin(const struct us_math *m, float a)
{
    return m->sin(m->cfg, a);
}

static inline float micro_cos(const struct us_math *m, float a)
{
    return m->cos(m->cfg, a);
}

static inline float micro_pow(const struct us_math *m, float a, float b)
{
    return m->pow(m->cfg, a, b);
}

/* ---- Parts of the MIXED instructions ---------------------------------- */

/* LIT (2.14.5.13): "if (tmp.x < 0) tmp.x = 0" (also for tmp.y). */
static inline float micro_lit_clamp0(float a) { return a < 0.0f ? 0.0f : a; }

/* LIT's specular exponent, clamped to (-128, +128) exclusive: 128 - epsilon
 * is the largest binary32 below 128.  NaN passes through, as in the spec. */
static inline float micro_lit_clamp_exp(float w)
{
    const float lim = 0x1.fffffep+6f;  /* 128 - 2^-17 */
    if (w < -lim)
        return -lim;
    return w > lim ? lim : w;
}

/* LIT .z: (x > 0) ? y^w : 0 with the clamped operands.  2.14.5.13: "since
 * 0^0 is defined to be 1, RoughApproxPower(0.0, 0.0) will produce 1.0" --
 * stated here because an SFU's POW = EX2(w * LG2(y)) gives EX2(0 * -inf),
 * a NaN (piglit arb_vertex_program/instructions/lit_degenerate_case). */
static inline float micro_lit_z(const struct us_math *m, float x, float y,
                                float w)
{
    if (!(micro_lit_clamp0(x) > 0.0f))
        return 0.0f;
    float b = micro_lit_clamp0(y), e = micro_lit_clamp_exp(w);
    if (b == 0.0f && e == 0.0f)
        return 1.0f;
    return micro_pow(m, b, e);
}

/* EXP .x (2.14.5.9): 2^floor(a), exact (a power of two, or 0 / inf when
 * out of range, rounded to nearest-even as ldexpf does). */
static inline float micro_exp_x(float a)
{
    float f = floorf(a);
    if (isnan(f))
        return f;
    if (f > 300.0f)
        return INFINITY;
    if (f < -300.0f)
        return 0.0f;
    return ldexpf(1.0f, (int)f);
}

/* EXP .y: a - floor(a), the same operation as FRC. */
static inline float micro_exp_y(float a) { return micro_frc(a); }

/* EXP .z: the ARB spec's RoughApprox2ToX; this model uses EX2. */
static inline float micro_exp_z(const struct us_math *m, float a)
{
    return micro_ex2(m, a);
}

/*
 * LOG (2.14.5.14) on t = |a|: .x = floor(log2(t)) exactly, .y = t /
 * 2^floor(log2(t)) in [1, 2) exactly, .z = the spec's RoughApproxLog2 (LG2
 * here).  Special values follow the formula in IEEE arithmetic: t = 0 gives
 * x = -inf, y = 0 / 0 = NaN; t = inf gives x = inf, y = NaN; NaN gives NaN.
 */
static inline float micro_log_x(float a)
{
    float t = fabsf(a);
    if (t == 0.0f)
        return -INFINITY;
    if (!isfinite(t))
        return t;
    int e;
    frexpf(t, &e);  /* t = m * 2^e, m in [0.5, 1) */
    return (float)(e - 1);
}

static inline float micro_log_y(float a)
{
    float t = fabsf(a);
    if (t == 0.0f || !isfinite(t))
        return NAN;
    int e;
    return 2.0f * frexpf(t, &e);
}

static inline float micro_log_z(const struct us_math *m, float a)
{
    return micro_lg2(m, fabsf(a));
}

/* ARL (2.14.5.3): floor into a signed integer.  Values beyond the int32
 * range saturate and NaN gives 0 (the spec leaves them undefined); any of
 * these then reads (0,0,0,0) as an out-of-range relative access. */
static inline int32_t micro_arl(float a)
{
    float f = floorf(a);
    if (isnan(f))
        return 0;
    if (f >= 0x1p31f)
        return INT32_MAX;
    if (f < -0x1p31f)
        return INT32_MIN;
    return (int32_t)f;
}

/* TXP (3.11.6.2): the texture unit divides s, t, r by q (correctly
 * rounded IEEE division; q <= 0 is undefined in the spec). */
static inline float micro_txp_div(float a, float q) { return a / q; }

/* KIL (3.11.6.4): killed when any component is negative (-0 and NaN are
 * not). */
static inline bool micro_kil(const float a[4])
{
    return a[0] < 0.0f || a[1] < 0.0f || a[2] < 0.0f || a[3] < 0.0f;
}

/* ---- Which components an instruction writes ---------------------------- */

/* The destination components `op` really writes under write mask `mask`:
 * XPD has no .w and SCS no .z .w (undefined in the specs, left unwritten),
 * ARL writes the address register's .x, KIL and flow control nothing. */
/* ---- Derivatives (DDX DDY, .FINE) --------------------------------------- */

/* The lanes of a 2x2 fragment quad (gfx/pipeline.c): 0 top-left, 1
 * top-right, 2 bottom-left, 3 bottom-right, y up as in GL's window
 * coordinates.  A derivative is the difference between the quad's lanes
 * (GL 4.6 §15.2.2 allows the finite differences), in each component:
 *   coarse (DDX DDY, GLSL's dFdx dFdy, what Mesa's softpipe computes for
 *   TGSI DDX DDY): one value for the whole quad, dx from the top row
 *   (lane 1 - lane 0), dy from the left column (lane 0 - lane 2) -- the
 *   differences the texture unit takes for its level of detail
 *   (gfx_sample_quad), so a texture's lambda and the shader's derivatives
 *   agree;
 *   fine (DDX.FINE DDY.FINE, dFdxFine dFdyFine, TGSI DDX_FINE DDY_FINE):
 *   dx from the lane's own row, dy from its own column.
 * v holds the source component of the four lanes; q is the lane. */
static inline float micro_ddx(const float v[4], unsigned q, bool fine)
{
    unsigned row = fine ? q & 2u : 0u;
    return micro_sub(v[row + 1], v[row]);
}

static inline float micro_ddy(const float v[4], unsigned q, bool fine)
{
    unsigned col = fine ? q & 1u : 0u;
    return micro_sub(v[col], v[col + 2]);
}

/* A lone thread (a vertex, a compute work-item, a core model's thread) has
 * no neighbours: its derivatives are 0.  The pipeline shades a fragment
 * program that reads them in quads on the interpreter, as it does for
 * texture lookups (gfx/backend_core.c). */
static inline float micro_deriv_lone(float a)
{
    (void)a;
    return 0.0f;
}

static inline unsigned micro_written_mask(enum us_opcode op, unsigned mask)
{
    if (us_ops[op].shape == US_SHAPE_NONE)
        return 0;
    switch (op) {
    case US_OP_XPD: return mask & 0x7u;
    case US_OP_SCS: return mask & 0x3u;
    case US_OP_ARL: return mask & 0x1u;
    default: return mask & 0xfu;
    }
}

#endif
