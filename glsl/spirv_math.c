/*
 * GLSL.std.450 extended instructions lowered the way a compiler for an
 * SFU-equipped vec4 shader does: RCP RSQ EX2 LG2 SIN COS POW where the
 * hardware has them (one per component: they are scalar), ALU sequences
 * otherwise; with 32-bit integer words, the integer functions, ldexp,
 * frexp and the packing functions are integer instructions on the bits.  The inverse trigonometric functions use Hastings'
 * approximations as printed in Abramowitz & Stegun, Handbook of
 * Mathematical Functions (1964):
 *   4.4.46  arccos x = sqrt(1 - x) * (a0 + a1 x + ... + a7 x^7),
 *           0 <= x <= 1, |error| <= 2e-8
 *   4.4.49  arctan x = x * (1 + a2 x^2 + ... + a16 x^16),
 *           0 <= x <= 1, |error| <= 2e-8
 * with the usual range reductions (arcsin x = pi/2 - arccos x, odd
 * symmetry, arctan x = pi/2 - arctan(1/x) for x > 1, atan2's quadrants).
 */
#include <spirv/unified1/GLSL.std.450.h>

#include "glsl/spirv.h"
#include <spirv/unified1/OpenCL.std.h>

#define NONE ((struct us_src){ 0 })

static const float acos_coef[8] = {
    1.5707963050f, -0.2145988016f, 0.0889789874f, -0.0501743046f,
    0.0308918810f, -0.0170881256f, 0.0066700901f, -0.0012624911f,
};

static const float atan_coef[9] = {   /* of x^0, x^2, ..., x^16 */
    1.0f, -0.3333314528f, 0.1999355085f, -0.1420889944f, 0.1065626393f,
    -0.0752896400f, 0.0429096138f, -0.0161657367f, 0.0028662257f,
};

static const float half_pi = 1.57079632679489661923f;
static const float pi = 3.14159265358979323846f;

static bool arg(struct spv *s, uint32_t at, unsigned k, struct us_src *out)
{
    uint32_t id, n;
    struct us_src *v;
    if (!spv_id(s, at, k, &id) || !value_of(s, id, &v, &n))
        return false;
    *out = v[0];
    return true;
}

static bool k(struct spv *s, float v, struct us_src *out)
{
    return const_scalar(s, v, out);
}

static bool op1(struct spv *s, enum us_opcode op, struct us_src a,
                struct us_src *out)
{
    return emit_new(s, op, a, NONE, NONE, out);
}

static bool op2(struct spv *s, enum us_opcode op, struct us_src a,
                struct us_src b, struct us_src *out)
{
    return emit_new(s, op, a, b, NONE, out);
}

/* Horner: c[n-1] x^(n-1) + ... + c[0]. */
static bool poly(struct spv *s, const float *c, unsigned n, struct us_src x,
                 struct us_src *out)
{
    struct us_src p, ck;
    if (!k(s, c[n - 1], &p))
        return false;
    for (unsigned i = n - 1; i-- > 0;)
        if (!k(s, c[i], &ck) || !emit_new(s, US_OP_MAD, p, x, ck, &p))
            return false;
    *out = p;
    return true;
}

/* sqrt(x) = RCP(RSQ(x)): RSQ(0) = inf, RCP(inf) = 0. */
static bool sqrt_n(struct spv *s, unsigned n, struct us_src x,
                   struct us_src *out)
{
    struct us_src r;
    return emit_scalar(s, US_OP_RSQ, n, x, NONE, &r) &&
           emit_scalar(s, US_OP_RCP, n, r, NONE, out);
}

static bool dot_n(struct spv *s, unsigned n, struct us_src a,
                  struct us_src b, struct us_src *out)
{
    if (n == 1)
        return op2(s, US_OP_MUL, a, b, out);
    if (n == 2) {
        struct us_src t;
        return op2(s, US_OP_MUL, a, b, &t) &&
               op2(s, US_OP_ADD, src_comp(t, 0), src_comp(t, 1), out);
    }
    return op2(s, n == 3 ? US_OP_DP3 : US_OP_DP4, a, b, out);
}

/* arccos |x| for 0 <= |x| <= 1 (4.4.46). */
static bool acos_abs(struct spv *s, unsigned n, struct us_src x,
                     struct us_src *out)
{
    struct us_src a, p, one, om, r;
    return op1(s, US_OP_ABS, x, &a) && poly(s, acos_coef, 8, a, &p) &&
           k(s, 1, &one) && op2(s, US_OP_SUB, one, a, &om) &&
           sqrt_n(s, n, om, &r) && op2(s, US_OP_MUL, r, p, out);
}

/* arctan t for 0 <= t <= 1 (4.4.49). */
static bool atan_unit(struct spv *s, struct us_src t, struct us_src *out)
{
    struct us_src t2, p;
    return op2(s, US_OP_MUL, t, t, &t2) && poly(s, atan_coef, 9, t2, &p) &&
           op2(s, US_OP_MUL, p, t, out);
}

static bool atan_fn(struct spv *s, unsigned n, struct us_src x,
                    struct us_src *out)
{
    struct us_src a, one, lo, hi, rh, t, p, q, hp, d, sg, r;
    return op1(s, US_OP_ABS, x, &a) && k(s, 1, &one) &&
           op2(s, US_OP_MIN, a, one, &lo) && op2(s, US_OP_MAX, a, one, &hi) &&
           emit_scalar(s, US_OP_RCP, n, hi, NONE, &rh) &&
           op2(s, US_OP_MUL, lo, rh, &t) && atan_unit(s, t, &p) &&
           k(s, half_pi, &hp) && op2(s, US_OP_SUB, hp, p, &q) &&
           op2(s, US_OP_SUB, one, a, &d) &&
           emit_new(s, US_OP_CMP, d, q, p, &r) &&     /* |x| > 1 */
           op1(s, US_OP_SSG, x, &sg) && op2(s, US_OP_MUL, r, sg, out);
}

static bool atan2_fn(struct spv *s, unsigned n, struct us_src y,
                     struct us_src x, struct us_src *out)
{
    struct us_src ax, ay, mx, mn, tiny, rm, t, p, hp, q, d, pk, r;
    return op1(s, US_OP_ABS, x, &ax) && op1(s, US_OP_ABS, y, &ay) &&
           op2(s, US_OP_MAX, ax, ay, &mx) && op2(s, US_OP_MIN, ax, ay, &mn) &&
           k(s, 1e-30f, &tiny) && op2(s, US_OP_MAX, mx, tiny, &mx) &&
           emit_scalar(s, US_OP_RCP, n, mx, NONE, &rm) &&
           op2(s, US_OP_MUL, mn, rm, &t) && atan_unit(s, t, &p) &&
           k(s, half_pi, &hp) && op2(s, US_OP_SUB, hp, p, &q) &&
           op2(s, US_OP_SUB, ax, ay, &d) &&
           emit_new(s, US_OP_CMP, d, q, p, &r) &&      /* |y| > |x| */
           k(s, pi, &pk) && op2(s, US_OP_SUB, pk, r, &q) &&
           emit_new(s, US_OP_CMP, x, q, r, &r) &&      /* x < 0 */
           emit_new(s, US_OP_CMP, y, src_neg(r), r, out); /* y < 0 */
}

static bool refract(struct spv *s, unsigned n, struct us_src i,
                    struct us_src nn, struct us_src eta, struct us_src *out)
{
    struct us_src d, one, om, e2, kk, sk, t, r, zero;
    eta = src_comp(eta, 0);
    return dot_n(s, n, nn, i, &d) && k(s, 1, &one) &&
           emit_new(s, US_OP_MAD, src_neg(d), d, one, &om) &&
           op2(s, US_OP_MUL, eta, eta, &e2) &&
           emit_new(s, US_OP_MAD, src_neg(e2), om, one, &kk) &&
           sqrt_n(s, 1, kk, &sk) &&
           emit_new(s, US_OP_MAD, eta, d, sk, &t) &&
           op2(s, US_OP_MUL, eta, i, &r) &&
           emit_new(s, US_OP_MAD, src_neg(t), nn, r, &r) && k(s, 0, &zero) &&
           emit_new(s, US_OP_CMP, kk, zero, r, out);
}

static bool smoothstep(struct spv *s, unsigned n, struct us_src e0,
                       struct us_src e1, struct us_src x, struct us_src *out)
{
    struct us_src w, d, rw, t, a, b, c3, m2, zero, one;
    if (!op2(s, US_OP_SUB, e1, e0, &w) || !op2(s, US_OP_SUB, x, e0, &d) ||
        !emit_scalar(s, US_OP_RCP, n, w, NONE, &rw) ||
        !emit_new(s, US_OP_MUL, d, rw, NONE, &t))
        return false;
    /* Clamp to [0, 1]: _SAT where the stage has it (ARB_fragment_program
     * only), else MAX and MIN. */
    if (s->stage == US_STAGE_FRAGMENT)
        s->insts[s->ninsts - 1].sat = true;
    else if (!k(s, 0, &zero) || !k(s, 1, &one) ||
             !op2(s, US_OP_MAX, t, zero, &t) || !op2(s, US_OP_MIN, t, one, &t))
        return false;
    return k(s, 3, &c3) && k(s, -2, &m2) &&
           emit_new(s, US_OP_MAD, t, m2, c3, &a) &&
           op2(s, US_OP_MUL, t, t, &b) && op2(s, US_OP_MUL, a, b, out);
}

/* e^x and e^-x, one EX2 each per component. */
static bool exps(struct spv *s, unsigned n, struct us_src x, struct us_src *ep,
                 struct us_src *em)
{
    struct us_src l, t;
    return k(s, 1.44269504088896340736f, &l) && op2(s, US_OP_MUL, x, l, &t) &&
           emit_scalar(s, US_OP_EX2, n, t, NONE, ep) &&
           emit_scalar(s, US_OP_EX2, n, src_neg(t), NONE, em);
}

/* sinh, cosh, tanh from e^x and e^-x; tanh as 1 - 2 / (e^2x + 1), which
 * stays finite for large |x|. */
static bool hyperbolic(struct spv *s, unsigned fn, unsigned n, struct us_src x,
                       struct us_src *out)
{
    struct us_src ep, em, h, t, one, two, r;
    if (fn == GLSLstd450Tanh) {
        return k(s, 2.88539008177792681472f, &t) &&   /* 2 log2 e */
               op2(s, US_OP_MUL, x, t, &t) &&
               emit_scalar(s, US_OP_EX2, n, t, NONE, &ep) &&
               k(s, 1, &one) && k(s, -2, &two) &&
               op2(s, US_OP_ADD, ep, one, &t) &&
               emit_scalar(s, US_OP_RCP, n, t, NONE, &r) &&
               emit_new(s, US_OP_MAD, r, two, one, out);
    }
    return exps(s, n, x, &ep, &em) && k(s, 0.5f, &h) &&
           op2(s, fn == GLSLstd450Sinh ? US_OP_SUB : US_OP_ADD, ep, em, &t) &&
           op2(s, US_OP_MUL, t, h, out);
}

/* asinh x = sign(x) ln(|x| + sqrt(x^2 + 1)), acosh x = ln(x + sqrt(x^2 -
 * 1)), atanh x = ln((1 + x) / (1 - x)) / 2. */
static bool area(struct spv *s, unsigned fn, unsigned n, struct us_src x,
                 struct us_src *out)
{
    struct us_src one, a, t, r, ln2, sg;
    if (!k(s, 1, &one) || !k(s, 0.69314718055994530942f, &ln2))
        return false;
    if (fn == GLSLstd450Atanh) {
        struct us_src p, m, h;
        return op2(s, US_OP_ADD, one, x, &p) &&
               op2(s, US_OP_SUB, one, x, &m) &&
               emit_scalar(s, US_OP_RCP, n, m, NONE, &m) &&
               op2(s, US_OP_MUL, p, m, &p) &&
               emit_scalar(s, US_OP_LG2, n, p, NONE, &t) &&
               k(s, 0.34657359027997265471f, &h) &&   /* ln 2 / 2 */
               op2(s, US_OP_MUL, t, h, out);
    }
    bool as = fn == GLSLstd450Asinh;
    a = x;
    if (as && !op1(s, US_OP_ABS, x, &a))
        return false;
    return emit_new(s, US_OP_MAD, a, a, as ? one : src_neg(one), &t) &&
           sqrt_n(s, n, t, &t) && op2(s, US_OP_ADD, a, t, &t) &&
           emit_scalar(s, US_OP_LG2, n, t, NONE, &r) &&
           op2(s, US_OP_MUL, r, ln2, &r) &&
           (!as || (op1(s, US_OP_SSG, x, &sg) &&
                    op2(s, US_OP_MUL, r, sg, &r))) &&
           (*out = r, true);
}

/* round half to even: r = floor(x + 0.5), minus 1 at a tie with odd r. */
static bool round_even(struct spv *s, struct us_src x, struct us_src *out)
{
    struct us_src h, r, d, tie, odd;
    return k(s, 0.5f, &h) && op2(s, US_OP_ADD, x, h, &r) &&
           op1(s, US_OP_FLR, r, &r) && op2(s, US_OP_SUB, r, x, &d) &&
           op2(s, US_OP_SEQ, d, h, &tie) &&
           op2(s, US_OP_MUL, r, h, &odd) && op1(s, US_OP_FRC, odd, &odd) &&
           op2(s, US_OP_ADD, odd, odd, &odd) &&
           op2(s, US_OP_MUL, tie, odd, &tie) &&
           op2(s, US_OP_SUB, r, tie, out);
}

/* The integer functions of 32-bit words; *done: fn was one. */
static bool int_ext(struct spv *s, unsigned fn, const struct us_src *a,
                    struct us_src *r, bool *done)
{
    struct us_src t, u, k;
    *done = true;
    switch (fn) {
    case GLSLstd450SAbs: return op1(s, US_OP_ABS_S, a[0], r);
    case GLSLstd450SSign:   /* (x >> 31) | ((-x) >>> 31) */
        return const_int(s, 31, &k) &&
               op2(s, US_OP_SHR_S, a[0], k, &t) &&
               op2(s, US_OP_SHR_U, src_neg(a[0]), k, &u) &&
               op2(s, US_OP_OR_U, t, u, r);
    case GLSLstd450SMin: return op2(s, US_OP_MIN_S, a[0], a[1], r);
    case GLSLstd450UMin: return op2(s, US_OP_MIN_U, a[0], a[1], r);
    case GLSLstd450SMax: return op2(s, US_OP_MAX_S, a[0], a[1], r);
    case GLSLstd450UMax: return op2(s, US_OP_MAX_U, a[0], a[1], r);
    case GLSLstd450SClamp:
        return op2(s, US_OP_MAX_S, a[0], a[1], &t) &&
               op2(s, US_OP_MIN_S, t, a[2], r);
    case GLSLstd450UClamp:
        return op2(s, US_OP_MAX_U, a[0], a[1], &t) &&
               op2(s, US_OP_MIN_U, t, a[2], r);
    case GLSLstd450FindILsb: return op1(s, US_OP_BTFL_U, a[0], r);
    case GLSLstd450FindSMsb: return op1(s, US_OP_BTFM_S, a[0], r);
    case GLSLstd450FindUMsb: return op1(s, US_OP_BTFM_U, a[0], r);
    default:
        *done = false;
        return true;
    }
}

static bool ki(struct spv *s, uint32_t v, struct us_src *out)
{
    return const_int(s, v, out);
}

static bool kv(struct spv *s, uint32_t x, uint32_t y, uint32_t z, uint32_t w,
               struct us_src *out)
{
    const uint32_t v[4] = { x, y, z, w };
    return const_ints(s, v, out);
}

/* 2^e as a float for -126 <= e <= 127: the exponent field. */
static bool pow2(struct spv *s, struct us_src e, struct us_src *out)
{
    struct us_src lo, hi, b, k23;
    return ki(s, (uint32_t)-126, &lo) && ki(s, 127, &hi) &&
           ki(s, 127, &b) && ki(s, 23, &k23) &&
           op2(s, US_OP_MAX_S, e, lo, &e) && op2(s, US_OP_MIN_S, e, hi, &e) &&
           op2(s, US_OP_ADD_U, e, b, &e) && op2(s, US_OP_SHL_U, e, k23, out);
}

/* ldexp(x, e) = x * 2^e1 * 2^e2, e1 = e >> 1, e2 = e - e1: each factor a
 * normal float for every exponent a finite result can have. */
static bool ldexp_fn(struct spv *s, struct us_src x, struct us_src e,
                     struct us_src *out)
{
    struct us_src one, e1, e2, p1, p2, t;
    return ki(s, 1, &one) && op2(s, US_OP_SHR_S, e, one, &e1) &&
           op2(s, US_OP_SUB_U, e, e1, &e2) && pow2(s, e1, &p1) &&
           pow2(s, e2, &p2) && op2(s, US_OP_MUL, x, p1, &t) &&
           op2(s, US_OP_MUL, t, p2, out);
}

/* frexp: x = m * 2^e, 0.5 <= |m| < 1, from the exponent field; a
 * denormal is scaled by 2^32 first; 0, inf and NaN give (x, 0). */
static bool frexp_fn(struct spv *s, struct us_src x, struct us_src *m,
                     struct us_src *e)
{
    struct us_src f, d, den, big, y, adj, k, mk, half, abs, z, inf, sp, zero;
    return plain_float(s, &x) &&
           kv(s, 8, 23, 8, 23, &f) && ki(s, 0, &zero) &&
           op2(s, US_OP_BFE_U, f, x, &d) &&
           op2(s, US_OP_SEQ_U, d, zero, &den) &&
           const_scalar(s, 4294967296.0f, &big) &&
           op2(s, US_OP_MUL, x, big, &y) &&
           emit_new(s, US_OP_CMP_S, den, y, x, &y) &&
           ki(s, 32 + 126, &k) && ki(s, 126, &adj) &&
           emit_new(s, US_OP_CMP_S, den, k, adj, &adj) &&
           op2(s, US_OP_BFE_U, f, y, &k) && op2(s, US_OP_SUB_U, k, adj, e) &&
           ki(s, 0x807fffffu, &mk) && ki(s, 0x3f000000u, &half) &&
           op2(s, US_OP_AND_U, y, mk, m) && op2(s, US_OP_OR_U, *m, half, m) &&
           ki(s, 0x7fffffffu, &abs) && op2(s, US_OP_AND_U, x, abs, &z) &&
           op2(s, US_OP_SEQ_U, z, zero, &z) && ki(s, 255, &inf) &&
           op2(s, US_OP_SEQ_U, d, inf, &inf) &&
           op2(s, US_OP_OR_U, z, inf, &sp) &&
           emit_new(s, US_OP_CMP_S, sp, x, *m, m) &&
           emit_new(s, US_OP_CMP_S, sp, zero, *e, e);
}

/* packUnorm/Snorm 4x8 and 2x16: each component scaled, rounded and
 * clamped to its field, shifted into place, OR'ed together. */
static bool pack_fn(struct spv *s, unsigned fn, struct us_src v,
                    struct us_src *out)
{
    bool snorm = fn == GLSLstd450PackSnorm4x8 || fn == GLSLstd450PackSnorm2x16;
    bool x8 = fn == GLSLstd450PackSnorm4x8 || fn == GLSLstd450PackUnorm4x8;
    float scale = x8 ? (snorm ? 127.0f : 255.0f)
                     : (snorm ? 32767.0f : 65535.0f);
    struct us_src lo, hi, k, h, t, m, sh, a, b;
    if (!const_scalar(s, snorm ? -1.0f : 0.0f, &lo) ||
        !const_scalar(s, 1.0f, &hi) || !const_scalar(s, scale, &k) ||
        !const_scalar(s, 0.5f, &h) ||
        !op2(s, US_OP_MAX, v, lo, &t) || !op2(s, US_OP_MIN, t, hi, &t) ||
        !emit_new(s, US_OP_MAD, t, k, h, &t) ||
        !op1(s, US_OP_FLR, t, &t) ||   /* round half up */
        !op1(s, US_OP_TRUNC_S, t, &t) ||
        !ki(s, x8 ? 0xffu : 0xffffu, &m) || !op2(s, US_OP_AND_U, t, m, &t) ||
        !(x8 ? kv(s, 0, 8, 16, 24, &sh) : kv(s, 0, 16, 0, 16, &sh)) ||
        !op2(s, US_OP_SHL_U, t, sh, &t) ||
        !op2(s, US_OP_OR_U, src_comp(t, 0), src_comp(t, 1), &a))
        return false;
    if (!x8) {
        *out = a;
        return true;
    }
    return op2(s, US_OP_OR_U, src_comp(t, 2), src_comp(t, 3), &b) &&
           op2(s, US_OP_OR_U, a, b, out);
}

/* unpackUnorm/Snorm 4x8 and 2x16: the fields (sign-extended for snorm:
 * shifted to the top, then back), as floats over the scale. */
static bool unpack_fn(struct spv *s, unsigned fn, struct us_src p,
                      struct us_src *out)
{
    bool snorm = fn == GLSLstd450UnpackSnorm4x8 ||
                 fn == GLSLstd450UnpackSnorm2x16;
    bool x8 = fn == GLSLstd450UnpackSnorm4x8 ||
              fn == GLSLstd450UnpackUnorm4x8;
    float scale = x8 ? (snorm ? 127.0f : 255.0f)
                     : (snorm ? 32767.0f : 65535.0f);
    struct us_src up, down, t, k, lo;
    p = src_comp(p, 0);
    if (!(x8 ? kv(s, 24, 16, 8, 0, &up) : kv(s, 16, 0, 16, 0, &up)) ||
        !ki(s, x8 ? 24 : 16, &down) || !op2(s, US_OP_SHL_U, p, up, &t) ||
        !op2(s, snorm ? US_OP_SHR_S : US_OP_SHR_U, t, down, &t) ||
        !op1(s, snorm ? US_OP_I2F_S : US_OP_I2F_U, t, &t) ||
        !const_scalar(s, 1.0f / scale, &k) || !op2(s, US_OP_MUL, t, k, &t))
        return false;
    if (!snorm) {
        *out = t;
        return true;
    }
    return const_scalar(s, -1.0f, &lo) && op2(s, US_OP_MAX, t, lo, out);
}

/* packHalf2x16: each float to binary16, round to nearest even: normals
 * by rebiasing the exponent and rounding the mantissa's low 13 bits
 * away; values below 2^-14 as |v| * 2^24 rounded by a float add of 2^23
 * (whose unit is 1 there); from 65520 on infinity; NaN 0x7e00. */
static bool pack_half(struct spv *s, struct us_src v, struct us_src *out)
{
    struct us_src a, sg, r, lsb, d, t, k, m, big, den, inf, nan, h, sh;
    return plain_float(s, &v) &&
           ki(s, 0x7fffffffu, &k) && op2(s, US_OP_AND_U, v, k, &a) &&
           ki(s, 16, &sh) && op2(s, US_OP_SHR_U, v, sh, &sg) &&
           ki(s, 0x8000u, &k) && op2(s, US_OP_AND_U, sg, k, &sg) &&
           ki(s, 0x38000000u, &k) && op2(s, US_OP_SUB_U, a, k, &r) &&
           ki(s, 13, &k) && op2(s, US_OP_SHR_U, r, k, &lsb) &&
           ki(s, 1, &k) && op2(s, US_OP_AND_U, lsb, k, &lsb) &&
           ki(s, 0xfffu, &k) && op2(s, US_OP_ADD_U, r, k, &r) &&
           op2(s, US_OP_ADD_U, r, lsb, &r) &&
           ki(s, 13, &k) && op2(s, US_OP_SHR_U, r, k, &r) &&
           const_scalar(s, 16777216.0f, &m) && op2(s, US_OP_MUL, a, m, &d) &&
           const_scalar(s, 8388608.0f, &big) &&
           op2(s, US_OP_ADD, d, big, &d) &&
           ki(s, 0x4b000000u, &k) && op2(s, US_OP_SUB_U, d, k, &d) &&
           ki(s, 0x38800000u, &k) && op2(s, US_OP_SLT_U, a, k, &den) &&
           emit_new(s, US_OP_CMP_S, den, d, r, &r) &&
           ki(s, 0x477ff000u, &k) && op2(s, US_OP_SGE_U, a, k, &inf) &&
           ki(s, 0x7c00u, &k) && emit_new(s, US_OP_CMP_S, inf, k, r, &r) &&
           ki(s, 0x7f800000u, &k) && op2(s, US_OP_SGT_U, a, k, &nan) &&
           ki(s, 0x7e00u, &k) && emit_new(s, US_OP_CMP_S, nan, k, r, &r) &&
           op2(s, US_OP_OR_U, r, sg, &h) &&
           ki(s, 16, &k) && op2(s, US_OP_SHL_U, src_comp(h, 1), k, &t) &&
           op2(s, US_OP_OR_U, src_comp(h, 0), t, out);
}

/* unpackHalf2x16: each half to binary32 exactly: a normal's exponent
 * rebiased, a denormal as its mantissa * 2^-24, inf and NaN with the
 * exponent all ones; then the sign. */
static bool unpack_half(struct spv *s, struct us_src p, struct us_src *out)
{
    struct us_src h, mag, t, nrm, den, m, e0, big, sg, k, sh;
    p = src_comp(p, 0);
    return kv(s, 0, 16, 0, 16, &sh) && op2(s, US_OP_SHR_U, p, sh, &h) &&
           ki(s, 0xffffu, &k) && op2(s, US_OP_AND_U, h, k, &h) &&
           ki(s, 0x7fffu, &k) && op2(s, US_OP_AND_U, h, k, &mag) &&
           ki(s, 13, &k) && op2(s, US_OP_SHL_U, mag, k, &t) &&
           ki(s, 0x38000000u, &k) && op2(s, US_OP_ADD_U, t, k, &nrm) &&
           ki(s, 0x3ffu, &k) && op2(s, US_OP_AND_U, h, k, &m) &&
           op1(s, US_OP_I2F_U, m, &den) &&
           const_scalar(s, 5.9604644775390625e-8f, &k) &&   /* 2^-24 */
           op2(s, US_OP_MUL, den, k, &den) &&
           ki(s, 0x400u, &k) && op2(s, US_OP_SLT_U, mag, k, &e0) &&
           emit_new(s, US_OP_CMP_S, e0, den, nrm, &nrm) &&
           ki(s, 0x7c00u, &k) && op2(s, US_OP_SGE_U, mag, k, &big) &&
           ki(s, 0x7f800000u, &k) && op2(s, US_OP_OR_U, t, k, &t) &&
           emit_new(s, US_OP_CMP_S, big, t, nrm, &nrm) &&
           ki(s, 0x8000u, &k) && op2(s, US_OP_AND_U, h, k, &sg) &&
           ki(s, 16, &k) && op2(s, US_OP_SHL_U, sg, k, &sg) &&
           op2(s, US_OP_OR_U, nrm, sg, out);
}

/* The GLSL.std.450 instructions of 32-bit words beyond int_ext: ldexp,
 * frexp, modf and the packing functions; *done: fn was one. */
static bool more_ext(struct spv *s, uint32_t at, unsigned fn,
                     const struct us_src *a, bool *done)
{
    struct us_src r[2], t;
    uint32_t res = s->w[at + 2];
    *done = true;
    switch (fn) {
    case GLSLstd450Ldexp:
        return ldexp_fn(s, a[0], a[1], &r[0]) && set_value(s, res, r, 1);
    case GLSLstd450FrexpStruct:
        return frexp_fn(s, a[0], &r[0], &r[1]) && set_value(s, res, r, 2);
    case GLSLstd450Frexp: {
        uint32_t ptr;
        return spv_id(s, at, 6, &ptr) && frexp_fn(s, a[0], &r[0], &r[1]) &&
               store_ptr(s, ptr, &r[1], 1) && set_value(s, res, r, 1);
    }
    case GLSLstd450ModfStruct:   /* (x - trunc(x), trunc(x)) */
        return op1(s, US_OP_TRC, a[0], &r[1]) &&
               op2(s, US_OP_SUB, a[0], r[1], &r[0]) &&
               set_value(s, res, r, 2);
    case GLSLstd450Modf: {
        uint32_t ptr;
        return spv_id(s, at, 6, &ptr) && op1(s, US_OP_TRC, a[0], &t) &&
               op2(s, US_OP_SUB, a[0], t, &r[0]) && store_ptr(s, ptr, &t, 1) &&
               set_value(s, res, r, 1);
    }
    case GLSLstd450PackSnorm4x8: case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm2x16: case GLSLstd450PackUnorm2x16:
        return pack_fn(s, fn, a[0], &r[0]) && set_value(s, res, r, 1);
    case GLSLstd450UnpackSnorm4x8: case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackSnorm2x16: case GLSLstd450UnpackUnorm2x16:
        return unpack_fn(s, fn, a[0], &r[0]) && set_value(s, res, r, 1);
    case GLSLstd450PackHalf2x16:
        return pack_half(s, a[0], &r[0]) && set_value(s, res, r, 1);
    case GLSLstd450UnpackHalf2x16:
        return unpack_half(s, a[0], &r[0]) && set_value(s, res, r, 1);
    default:
        *done = false;
        return true;
    }
}

/* Operands of the GLSL.std.450 instructions translated (1 for those not
 * listed). */
static unsigned arity(unsigned fn)
{
    switch (fn) {
    case GLSLstd450FClamp: case GLSLstd450UClamp: case GLSLstd450SClamp:
    case GLSLstd450NClamp: case GLSLstd450FMix: case GLSLstd450SmoothStep:
    case GLSLstd450Fma: case GLSLstd450FaceForward: case GLSLstd450Refract:
        return 3;
    case GLSLstd450Atan2: case GLSLstd450Pow: case GLSLstd450FMin:
    case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450NMin:
    case GLSLstd450FMax: case GLSLstd450UMax: case GLSLstd450SMax:
    case GLSLstd450NMax: case GLSLstd450Step: case GLSLstd450Distance:
    case GLSLstd450Cross: case GLSLstd450Reflect: case GLSLstd450Ldexp:
    case GLSLstd450Modf: case GLSLstd450Frexp:
        return 2;
    default:
        return 1;
    }
}

/* OpenCL.std's integer instructions as their GLSL.std.450 twins;
 * mad24 and mul24 (operands of 24 bits, else undefined: OpenCL 1.2
 * 6.12.3) as full 32-bit products. */
static bool opencl_std(struct spv *s, uint32_t at, unsigned *fn)
{
    static const struct { uint16_t cl, glsl; } twins[] = {
        { OpenCLstd_SAbs, GLSLstd450SAbs }, { OpenCLstd_SMax, GLSLstd450SMax },
        { OpenCLstd_UMax, GLSLstd450UMax }, { OpenCLstd_SMin, GLSLstd450SMin },
        { OpenCLstd_UMin, GLSLstd450UMin },
        { OpenCLstd_SClamp, GLSLstd450SClamp },
        { OpenCLstd_UClamp, GLSLstd450UClamp },
    };
    unsigned f = s->w[at + 4];
    for (size_t i = 0; i < sizeof twins / sizeof *twins; i++)
        if (twins[i].cl == f) {
            *fn = twins[i].glsl;
            return true;
        }
    struct us_src a, b, c, r;
    uint32_t n;
    struct us_src *v;
    unsigned comps = type_comps(s, s->w[at + 1]);
    (void)n;
    switch (f) {
    case OpenCLstd_UAbs:
        return value_of(s, s->w[at + 5], &v, &n) && set_value(s, s->w[at + 2],
                                                              v, 1);
    case OpenCLstd_SMad24: case OpenCLstd_UMad24:
    case OpenCLstd_SMul24: case OpenCLstd_UMul24: {
        bool mad = f == OpenCLstd_SMad24 || f == OpenCLstd_UMad24;
        if (spv_wc(s, at) < (mad ? 8u : 7u) || comps != 1 ||
            !arg(s, at, 5, &a) || !arg(s, at, 6, &b) ||
            (mad && !arg(s, at, 7, &c)) ||
            !emit_new(s, US_OP_MUL_U, a, b, NONE, &r) ||
            (mad && !emit_new(s, US_OP_ADD_U, r, c, NONE, &r)))
            return s->diag->msg[0] ? false
                                   : spv_fail(s, "SPIR-V: bad mad24/mul24");
        *fn = 0;
        return set_value(s, s->w[at + 2], &r, 1);
    }
    default: {
        char buf[32];
        return spv_fail(s, "unsupported OpenCL.std instruction %s",
                        spv_ocl_name(f, buf, sizeof buf));
    }
    }
}

bool translate_ext(struct spv *s, uint32_t at)
{
    uint32_t set;
    if (!spv_id(s, at, 3, &set) || spv_wc(s, at) < 5)
        return false;
    if (set && set == s->debug_ext)
        return true;   /* debug information: no code */
    if (spv_wc(s, at) < 6)
        return false;
    unsigned fn = s->w[at + 4];
    if (set && set == s->ocl_ext) {
        if (!opencl_std(s, at, &fn))
            return false;
        if (!fn)
            return true;
    } else if (set != s->glsl_ext)
        return spv_fail(s, "unsupported extended instruction set");
    unsigned nargs = spv_wc(s, at) - 5;
    if (nargs < arity(fn)) {
        char buf[32];
        return spv_fail(s, "SPIR-V: GLSL.std.450 %s needs %u operands",
                        spv_std450_name(fn, buf, sizeof buf), arity(fn));
    }
    struct us_src a[3] = { NONE, NONE, NONE }, r, t, c, u;
    for (unsigned i = 0; i < nargs && i < 3; i++) {
        uint32_t id = s->w[at + 5 + i];
        /* modf's and frexp's out parameter is a pointer, not a value */
        if (i == 1 && (fn == GLSLstd450Modf || fn == GLSLstd450Frexp) &&
            id < s->bound && s->ids[s->ids[id].type].ty == TY_POINTER)
            continue;
        if (!arg(s, at, 5 + i, &a[i]))
            return false;
    }
    uint32_t rtype = s->w[at + 1];
    unsigned n = type_comps(s, rtype);
    unsigned na = type_comps(s, s->ids[s->w[at + 5]].type);
    bool ok;
    if (!s->float_ints) {
        bool done;
        ok = int_ext(s, fn, a, &r, &done);
        if (done)
            return ok && set_value(s, s->w[at + 2], &r, 1);
        if (!more_ext(s, at, fn, a, &done))
            return false;
        if (done)
            return true;
    }
    switch (fn) {
    case GLSLstd450Round: ok = k(s, 0.5f, &c) && op2(s, US_OP_ADD, a[0], c, &t)
                               && op1(s, US_OP_FLR, t, &r); break;
    case GLSLstd450RoundEven: ok = round_even(s, a[0], &r); break;
    case GLSLstd450Trunc: ok = op1(s, US_OP_TRC, a[0], &r); break;
    case GLSLstd450FAbs: case GLSLstd450SAbs:
        ok = op1(s, US_OP_ABS, a[0], &r); break;
    case GLSLstd450FSign: case GLSLstd450SSign:
        ok = op1(s, US_OP_SSG, a[0], &r); break;
    case GLSLstd450Floor: ok = op1(s, US_OP_FLR, a[0], &r); break;
    case GLSLstd450Ceil:
        ok = op1(s, US_OP_FLR, src_neg(a[0]), &r);
        r = src_neg(r);
        break;
    case GLSLstd450Fract: ok = op1(s, US_OP_FRC, a[0], &r); break;
    case GLSLstd450Radians:
        ok = k(s, pi / 180, &c) && op2(s, US_OP_MUL, a[0], c, &r); break;
    case GLSLstd450Degrees:
        ok = k(s, 180 / pi, &c) && op2(s, US_OP_MUL, a[0], c, &r); break;
    case GLSLstd450Sin: ok = emit_scalar(s, US_OP_SIN, n, a[0], NONE, &r);
        break;
    case GLSLstd450Cos: ok = emit_scalar(s, US_OP_COS, n, a[0], NONE, &r);
        break;
    case GLSLstd450Tan:
        ok = emit_scalar(s, US_OP_SIN, n, a[0], NONE, &t) &&
             emit_scalar(s, US_OP_COS, n, a[0], NONE, &c) &&
             emit_scalar(s, US_OP_RCP, n, c, NONE, &c) &&
             op2(s, US_OP_MUL, t, c, &r);
        break;
    case GLSLstd450Asin:
        ok = acos_abs(s, n, a[0], &t) && k(s, half_pi, &c) &&
             op2(s, US_OP_SUB, c, t, &t) && op1(s, US_OP_SSG, a[0], &u) &&
             op2(s, US_OP_MUL, t, u, &r);
        break;
    case GLSLstd450Acos:
        ok = acos_abs(s, n, a[0], &t) && k(s, pi, &c) &&
             op2(s, US_OP_SUB, c, t, &u) &&
             emit_new(s, US_OP_CMP, a[0], u, t, &r);
        break;
    case GLSLstd450Atan: ok = atan_fn(s, n, a[0], &r); break;
    case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh:
        ok = hyperbolic(s, fn, n, a[0], &r); break;
    case GLSLstd450Asinh: case GLSLstd450Acosh: case GLSLstd450Atanh:
        ok = area(s, fn, n, a[0], &r); break;
    case GLSLstd450Atan2: ok = atan2_fn(s, n, a[0], a[1], &r); break;
    case GLSLstd450Pow: ok = emit_scalar(s, US_OP_POW, n, a[0], a[1], &r);
        break;
    case GLSLstd450Exp:
        ok = k(s, 1.44269504088896340736f, &c) &&
             op2(s, US_OP_MUL, a[0], c, &t) &&
             emit_scalar(s, US_OP_EX2, n, t, NONE, &r);
        break;
    case GLSLstd450Log:
        ok = emit_scalar(s, US_OP_LG2, n, a[0], NONE, &t) &&
             k(s, 0.69314718055994530942f, &c) && op2(s, US_OP_MUL, t, c, &r);
        break;
    case GLSLstd450Exp2: ok = emit_scalar(s, US_OP_EX2, n, a[0], NONE, &r);
        break;
    case GLSLstd450Log2: ok = emit_scalar(s, US_OP_LG2, n, a[0], NONE, &r);
        break;
    case GLSLstd450Sqrt: ok = sqrt_n(s, n, a[0], &r); break;
    case GLSLstd450InverseSqrt:
        ok = emit_scalar(s, US_OP_RSQ, n, a[0], NONE, &r); break;
    case GLSLstd450FMin: case GLSLstd450UMin: case GLSLstd450SMin:
    case GLSLstd450NMin:
        ok = op2(s, US_OP_MIN, a[0], a[1], &r); break;
    case GLSLstd450FMax: case GLSLstd450UMax: case GLSLstd450SMax:
    case GLSLstd450NMax:
        ok = op2(s, US_OP_MAX, a[0], a[1], &r); break;
    case GLSLstd450FClamp: case GLSLstd450UClamp: case GLSLstd450SClamp:
    case GLSLstd450NClamp:
        ok = op2(s, US_OP_MAX, a[0], a[1], &t) &&
             op2(s, US_OP_MIN, t, a[2], &r);
        break;
    case GLSLstd450FMix:
        ok = emit_new(s, US_OP_LRP, a[2], a[1], a[0], &r); break;
    case GLSLstd450Step: ok = op2(s, US_OP_SGE, a[1], a[0], &r); break;
    case GLSLstd450SmoothStep:
        ok = smoothstep(s, n, a[0], a[1], a[2], &r); break;
    case GLSLstd450Fma: ok = emit_new(s, US_OP_MAD, a[0], a[1], a[2], &r);
        break;
    case GLSLstd450Length:
        if (na == 1) {
            ok = op1(s, US_OP_ABS, a[0], &r);
            break;
        }
        ok = dot_n(s, na, a[0], a[0], &t) && sqrt_n(s, 1, t, &r);
        break;
    case GLSLstd450Distance:
        ok = op2(s, US_OP_SUB, a[0], a[1], &u);
        if (ok && na == 1)
            ok = op1(s, US_OP_ABS, u, &r);
        else if (ok)
            ok = dot_n(s, na, u, u, &t) && sqrt_n(s, 1, t, &r);
        break;
    case GLSLstd450Cross: ok = op2(s, US_OP_XPD, a[0], a[1], &r); break;
    case GLSLstd450Normalize:
        if (n == 1) {
            ok = op1(s, US_OP_SSG, a[0], &r);
            break;
        }
        ok = dot_n(s, n, a[0], a[0], &t) &&
             emit_scalar(s, US_OP_RSQ, 1, t, NONE, &t) &&
             op2(s, US_OP_MUL, a[0], src_comp(t, 0), &r);
        break;
    case GLSLstd450FaceForward:   /* dot(Nref, I) < 0 ? N : -N */
        ok = dot_n(s, n, a[2], a[1], &t) &&
             emit_new(s, US_OP_CMP, src_comp(t, 0), a[0], src_neg(a[0]), &r);
        break;
    case GLSLstd450Reflect:       /* I - 2 dot(N, I) N */
        ok = dot_n(s, n, a[1], a[0], &t) &&
             op2(s, US_OP_ADD, src_comp(t, 0), src_comp(t, 0), &t) &&
             emit_new(s, US_OP_MAD, src_neg(t), a[1], a[0], &r);
        break;
    case GLSLstd450Refract: ok = refract(s, n, a[0], a[1], a[2], &r); break;
    default: {
        char buf[32];
        return spv_fail(s, "unsupported GLSL.std.450 instruction %s",
                        spv_std450_name(fn, buf, sizeof buf));
    }
    }
    return ok && set_value(s, s->w[at + 2], &r, 1);
}
