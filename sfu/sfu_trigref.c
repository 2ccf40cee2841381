/*
 * Rigorous double-precision sin/cos of binary32 arguments (interface:
 * sfu/sfu_trigref.h).  All arithmetic is IEEE double, round to nearest,
 * no FMA contraction (the build's -ffp-contract=off); u = 2^-53.
 *
 * 1. Reduction, exact integer Payne-Hanek.  |x| = M 2^E, M the 24-bit
 *    significand.  Bits 1..p of 1/(2 pi) (p = max(E, 0)) times |x| are
 *    whole revolutions; the next 128 bits W (us_sfu_inv2pi, 288 bits)
 *    give the 152-bit product M W, of which the 128 bits below the
 *    binary point (shifted right by -E when E < 0) are F.  Dropped: the
 *    bits of 1/(2 pi) beyond p + 128, worth < M 2^(E - p - 128) < 2^-104
 *    revolutions, and the shifted-out bits, < 2^-128: r = frac(|x|/2pi)
 *    lies in [F 2^-128, F 2^-128 + 2^-103).
 * 2. Quadrant: q = the top two bits of F, d = the other 126 bits taken
 *    as a signed offset in [-2^125, 2^125) from the nearest quarter
 *    turn (q + 1 when d is in the upper half).  theta = 2 pi d 2^-128,
 *    |theta| <= pi/4, and |theta - theta_true| < 2 pi 2^-103 < 2^-100.
 *    d = 0 would mean |x| within 2^-103 revolutions of a quarter turn:
 *    false is returned (no binary32 comes near: the closest is ~2^-31).
 * 3. theta in double: |d|'s top 64 bits converted (relative error <= u,
 *    plus < 2^-63 for the bits below), times 2 pi 2^-128 as a double
 *    (relative error < u/2 of the constant and u of the product):
 *    |theta^ - theta| <= 2.6 u |theta| + 2^-100.
 * 4. Polynomials on z = theta^2 <= (pi/4)^2 < 0.617, Taylor series with
 *    double coefficients 1/n! (each within u relative):
 *    (Estrin's scheme for P and Q):
 *      sin: theta + theta z P(z), P = -1/3! + z/5! - ... - z^6/15!;
 *           the first term left out is < theta 0.617^8 / 17! < 2^-53.9
 *           theta.  |theta z P| < 0.11 |theta|: its rounding errors
 *           (z, Horner over alternating terms decreasing by >= 6x, the
 *           two products, coefficient errors) are < 6 u of it, i.e.
 *           < 0.7 u of the result, plus u for the final add.
 *      cos: 1 + z Q(z), Q = -1/2! + z/4! - ... + z^7/16!; left out
 *           < 0.617^9 / 18! < 2^-58; |z Q| < 0.31 and cos >= 0.707:
 *           < 6 u 0.31 / 0.707 < 2.7 u, plus u for the final add.
 *    The argument error of step 3 moves sin by at most |cos theta| <= 1
 *    times it, i.e. relative (sin theta >= 0.9 theta) < 2.9 u +
 *    2^-99.8 / |theta|; cos by |sin theta| <= 0.71 times it, relative
 *    (|theta| <= pi/4, cos >= 0.707) < 2.1 u + 2^-100.
 *    Sums: sin < (2.9 + 0.07 + 0.7 + 1) u < 5 u, cos < (2.1 + 2.7 + 1 +
 *    0.04) u < 6 u of the result, plus 2^-100 absolute from the
 *    reduction (the slopes of sin and cos are at most 1).
 * The bound returned is about twice that, 2^-49 |y| + 2^-99 = 16 u |y| +
 * 2^-99.  tests/unit/test_sfu_trigref.c
 * checks it against MPFR on random, hard and special arguments.
 */
#include <math.h>
#include <string.h>

#include "sfu/sfu.h"
#include "sfu/sfu_trigref.h"

typedef unsigned __int128 u128;

u128 us_sfu_trig_revolutions(uint32_t a)
{
    uint64_t M = (a & 0x7fffffu) | 0x800000u;
    int E = (int)(a >> 23) - 150;
    unsigned p = E > 0 ? (unsigned)E : 0u, w = p / 32, o = p % 32;
    u128 hi = 0;
    for (unsigned i = 0; i < 4; i++)
        hi = hi << 32 | us_sfu_inv2pi[w + i];
    u128 W = o ? hi << o | us_sfu_inv2pi[w + 4] >> (32 - o) : hi;
    u128 pl = (u128)M * (uint64_t)W, ph = (u128)M * (uint64_t)(W >> 64);
    uint64_t p0 = (uint64_t)pl;
    u128 mid = (pl >> 64) + (uint64_t)ph;
    uint64_t p1 = (uint64_t)mid, p2 = (uint64_t)(ph >> 64) + (uint64_t)(mid >> 64);
    if (E >= 0)
        return (u128)p1 << 64 | p0;
    unsigned s = (unsigned)-E;               /* 1..63 for |x| >= 2^-63 */
    uint64_t lo = p0 >> s | p1 << (64 - s), up = p1 >> s | p2 << (64 - s);
    return (u128)up << 64 | lo;
}

/* 2^e for -1022 <= e <= 1023. */
static inline double pow2(int e)
{
    uint64_t b = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Estrin's scheme (shorter dependency chains than Horner; the same
 * rounding analysis: each partial sum carries errors of a few u of its
 * own magnitude, and the terms decrease by >= 6x). */
static double poly_sin(double t)
{
    double z = t * t, z2 = z * z, z4 = z2 * z2;
    double a = -1.0 / 6.0 + z * (1.0 / 120.0);
    double b = -1.0 / 5040.0 + z * (1.0 / 362880.0);
    double c = -1.0 / 39916800.0 + z * (1.0 / 6227020800.0);
    double d = -1.0 / 1307674368000.0;                   /* -1/15! */
    double p = (a + z2 * b) + z4 * (c + z2 * d);
    return t + t * (z * p);
}

static double poly_cos(double t)
{
    double z = t * t, z2 = z * z, z4 = z2 * z2;
    double a = -1.0 / 2.0 + z * (1.0 / 24.0);
    double b = -1.0 / 720.0 + z * (1.0 / 40320.0);
    double c = -1.0 / 3628800.0 + z * (1.0 / 479001600.0);
    double d = -1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0);
    double q = (a + z2 * b) + z4 * (c + z2 * d);
    return 1.0 + z * q;
}

bool us_sfu_trig_ref(bool cos, float x, double *y, double *err)
{
    uint32_t u = bits_of(x), a = u & 0x7fffffffu;
    u128 F = us_sfu_trig_revolutions(a);
    unsigned q = (unsigned)(F >> 126);
    u128 g = F & (((u128)1 << 126) - 1);
    bool neg_d = g >> 125 != 0;
    u128 m = neg_d ? ((u128)1 << 126) - g : g;  /* |d| */
    if (neg_d)
        q = (q + 1) & 3;
    if (m == 0)
        return false;
    uint64_t mh = (uint64_t)(m >> 64), ml = (uint64_t)m;
    int n = mh ? __builtin_clzll(mh) : 64 + __builtin_clzll(ml);
    u128 sm = m << n;
    double dm = (double)(uint64_t)(sm >> 64);   /* |d| 2^(n - 64) */
    /* theta = |d| 2^-128 2 pi = dm 2^(-64 - n) 2 pi; 0x1.921fb54442d18p+2
     * is 2 pi rounded to double. */
    double th = dm * pow2(-64 - n) * 0x1.921fb54442d18p+2;
    if (neg_d)
        th = -th;
    /* sin(2 pi (q/4) + theta), cos likewise: cos x = sin(x + pi/2). */
    unsigned k = (q + (cos ? 1u : 0u)) & 3;
    double v = (k & 1) ? poly_cos(th) : poly_sin(th);
    if (k & 2)
        v = -v;
    if (!cos && (u >> 31))
        v = -v;                              /* sin is odd, cos even */
    *y = v;
    *err = fabs(v) * 0x1p-49 + 0x1p-99;
    return true;
}
