/*
 * us_math_exact: the reference arithmetic.  Each function returns the
 * binary32 nearest (ties to even) to the exact mathematical result,
 * subnormal results included.
 *
 * Method: evaluate in double with libm (the float operand is exact in
 * double), then round to float.  glibc documents its exp2, log2, pow, sin
 * and cos as accurate to well under 1 double ulp, and 1 / sqrt(x) errs by
 * at most ~1.5 ulp (two correctly rounded operations).  The result is
 * trusted when every double within MARGIN (2^-50 relative, i.e. 4 to 8
 * double ulps -- several times the error bound) of it rounds to the same
 * float; otherwise the exact result may lie on the other side of a float
 * rounding boundary (a midpoint between two floats) and MPFR decides
 * (sfu/exact_mpfr.c).  Exact midpoints, such as pow(1 + 2^-12, 2), always
 * take the MPFR path.  Results that are 0, inf or NaN in double are exact
 * special values or lie far outside the float range, so they convert
 * directly.
 *
 * Special values follow IEEE 754 / C99 Annex F: rcp(+-0) = +-inf,
 * rsq(+0) = +inf, rsq(-0) = -inf (IEEE rSqrt), rsq(x < 0) = NaN,
 * lg2(+-0) = -inf, lg2(x < 0) = NaN, ex2 overflow = +inf, underflow = +0,
 * sin/cos(+-inf) = NaN, pow as C99's powf (F.9.4.4).  The ARB instructions'
 * own operand rules (RSQ of |x| ...) are in isa/micro.h.
 */
#include <math.h>

#include "ushader.h"
#include "sfu/exact.h"

/* The float r rounds to, when r's error margin cannot change it. */
static bool round_safely(double r, float *out)
{
    if (r == 0.0 || !isfinite(r)) {
        *out = (float)r;
        return true;
    }
    double margin = fabs(r) * 0x1p-50;
    float lo = (float)(r - margin), hi = (float)(r + margin);
    *out = lo;
    return lo == hi;
}

static float finish(double r, enum us_exact_fn fn, float x, float y)
{
    float f;
    return round_safely(r, &f) ? f : us_exact_mpfr(fn, x, y);
}

/* IEEE division is correctly rounded. */
static float exact_rcp(const void *cfg, float x)
{
    (void)cfg;
    return 1.0f / x;
}

static float exact_rsq(const void *cfg, float x)
{
    (void)cfg;
    if (!(x > 0.0f) || isinf(x))  /* +-0, negatives, NaN, +inf */
        return (float)(1.0 / sqrt((double)x));
    return finish(1.0 / sqrt((double)x), US_EXACT_RSQ, x, 0.0f);
}

static float exact_ex2(const void *cfg, float x)
{
    (void)cfg;
    return finish(exp2((double)x), US_EXACT_EX2, x, 0.0f);
}

static float exact_lg2(const void *cfg, float x)
{
    (void)cfg;
    return finish(log2((double)x), US_EXACT_LG2, x, 0.0f);
}

static float exact_sin(const void *cfg, float x)
{
    (void)cfg;
    return finish(sin((double)x), US_EXACT_SIN, x, 0.0f);
}

static float exact_cos(const void *cfg, float x)
{
    (void)cfg;
    return finish(cos((double)x), US_EXACT_COS, x, 0.0f);
}

static float exact_pow(const void *cfg, float x, float y)
{
    (void)cfg;
    return finish(pow((double)x, (double)y), US_EXACT_POW, x, y);
}

const struct us_math us_math_exact = {
    .name = "exact",
    .cfg = NULL,
    .rcp = exact_rcp,
    .rsq = exact_rsq,
    .ex2 = exact_ex2,
    .lg2 = exact_lg2,
    .sin = exact_sin,
    .cos = exact_cos,
    .pow = exact_pow,
};
