/*
 * us_math_exact against MPFR: every function on ~10^5 inputs (special
 * values, every power of two, subnormals, integers and half-integers,
 * dense runs of consecutive floats, random bit patterns, function-specific
 * ranges), compared by bit pattern (any NaN matches any NaN).
 *
 * The reference is independent of sfu/exact*.c: MPFR at 128 bits in its
 * default exponent range, rounded once more by mpfr_get_flt (which rounds
 * subnormals correctly); the intermediate 128-bit rounding cannot create a
 * false midpoint for these functions' binary32 hard cases.
 */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ushader.h"
#include "sfu/exact.h"

#include "check_main.h"

enum fn { F_RCP, F_RSQ, F_EX2, F_LG2, F_SIN, F_COS, F_POW };

static float ref(enum fn f, float x, float y)
{
    if (f == F_RSQ && x == 0.0f)  /* IEEE rSqrt(+-0) = +-inf; MPFR: +inf */
        return signbit(x) ? -INFINITY : INFINITY;
    mpfr_t a, b, r;
    mpfr_inits2(128, a, b, r, (mpfr_ptr)0);
    mpfr_set_flt(a, x, MPFR_RNDN);
    mpfr_set_flt(b, y, MPFR_RNDN);
    switch (f) {
    case F_RCP: mpfr_ui_div(r, 1, a, MPFR_RNDN); break;
    case F_RSQ: mpfr_rec_sqrt(r, a, MPFR_RNDN); break;
    case F_EX2: mpfr_exp2(r, a, MPFR_RNDN); break;
    case F_LG2: mpfr_log2(r, a, MPFR_RNDN); break;
    case F_SIN: mpfr_sin(r, a, MPFR_RNDN); break;
    case F_COS: mpfr_cos(r, a, MPFR_RNDN); break;
    case F_POW: mpfr_pow(r, a, b, MPFR_RNDN); break;
    }
    float res = mpfr_get_flt(r, MPFR_RNDN);
    mpfr_clears(a, b, r, (mpfr_ptr)0);
    return res;
}

static float call(enum fn f, float x, float y)
{
    const struct us_math *m = &us_math_exact;
    switch (f) {
    case F_RCP: return m->rcp(m->cfg, x);
    case F_RSQ: return m->rsq(m->cfg, x);
    case F_EX2: return m->ex2(m->cfg, x);
    case F_LG2: return m->lg2(m->cfg, x);
    case F_SIN: return m->sin(m->cfg, x);
    case F_COS: return m->cos(m->cfg, x);
    default: return m->pow(m->cfg, x, y);
    }
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static bool same(float a, float b)
{
    return (isnan(a) && isnan(b)) || bits(a) == bits(b);
}

/* splitmix64: deterministic inputs, state in the caller. */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static float uniform(uint64_t *s, float lo, float hi)
{
    double u = (double)(next_rand(s) >> 11) * 0x1p-53;
    return (float)(lo + (hi - lo) * u);
}

struct tally {
    enum fn f;
    unsigned n, bad;
};

static void check1(struct tally *t, float x, float y)
{
    float got = call(t->f, x, y), want = ref(t->f, x, y);
    t->n++;
    if (!same(got, want)) {
        if (t->bad++ < 10)
            fprintf(stderr, "fn %d (%a, %a): got %a want %a\n", (int)t->f,
                    (double)x, (double)y, (double)got, (double)want);
    }
}

static const float specials[] = {
    0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 2.0f, -2.0f, 0.5f,
    -0.5f, 3.0f, -3.0f, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, 0x1p-149f,
    -0x1p-149f, 0x1.fffffcp-127f, 0x1p-127f, 0x1.000002p+0f, 0x1.fffffep-1f,
    128.0f, -126.0f, -149.0f, -150.0f, -149.5f, 127.99999f, 3.14159274f,
    -3.14159274f, 1.57079637f, 6.28318548f, 1e10f, -1e10f, 1e30f,
};
enum { NSPECIAL = sizeof specials / sizeof specials[0] };

/* The inputs every unary function sees (about 10^5 of them). */
static void unary_inputs(struct tally *t, float lo, float hi)
{
    uint64_t s = 12345u + (uint64_t)t->f;
    for (int i = 0; i < NSPECIAL; i++)
        check1(t, specials[i], 0.0f);
    for (int e = -149; e <= 127; e++) {
        check1(t, ldexpf(1.0f, e), 0.0f);
        check1(t, -ldexpf(1.0f, e), 0.0f);
    }
    for (int k = -320; k <= 320; k++)  /* integers and half-integers */
        check1(t, (float)k * 0.5f, 0.0f);
    for (uint32_t u = 1; u < 4000; u++)  /* subnormals, both ends */
        check1(t, from_bits(u * 2047u % 0x800000u), 0.0f);
    for (uint32_t u = 0; u < 10000; u++) /* consecutive floats from 1.0 */
        check1(t, from_bits(0x3f800000u + u), 0.0f);
    for (int i = 0; i < 45000; i++)      /* any bit pattern */
        check1(t, from_bits((uint32_t)next_rand(&s)), 0.0f);
    for (int i = 0; i < 45000; i++)      /* the function's useful range */
        check1(t, uniform(&s, lo, hi), 0.0f);
}

#define UNARY_TEST(name, fn, lo, hi)                                        \
    START_TEST(name)                                                        \
    {                                                                       \
        struct tally t = { fn, 0, 0 };                                      \
        unary_inputs(&t, lo, hi);                                           \
        ck_assert_uint_ge(t.n, 100000);                                     \
        ck_assert_msg(t.bad == 0, "%u of %u results differ from MPFR",      \
                      t.bad, t.n);                                          \
    }                                                                       \
    END_TEST

UNARY_TEST(rcp_matches_mpfr, F_RCP, -1e3f, 1e3f)
UNARY_TEST(rsq_matches_mpfr, F_RSQ, 0.0f, 16.0f)
UNARY_TEST(ex2_matches_mpfr, F_EX2, -155.0f, 130.0f)
UNARY_TEST(lg2_matches_mpfr, F_LG2, 0.0f, 4.0f)
UNARY_TEST(sin_matches_mpfr, F_SIN, -100.0f, 100.0f)
UNARY_TEST(cos_matches_mpfr, F_COS, -100.0f, 100.0f)

/* Near multiples of pi/2, where sin or cos is tiny. */
START_TEST(sin_cos_near_zeros)
{
    struct tally ts = { F_SIN, 0, 0 }, tc = { F_COS, 0, 0 };
    for (int k = -2000; k <= 2000; k++) {
        float c = (float)(k * 1.5707963267948966);
        for (int d = -3; d <= 3; d++) {
            float x = from_bits(bits(c) + (uint32_t)d);
            check1(&ts, x, 0.0f);
            check1(&tc, x, 0.0f);
        }
    }
    ck_assert_uint_eq(ts.bad + tc.bad, 0);
}
END_TEST

START_TEST(pow_matches_mpfr)
{
    struct tally t = { F_POW, 0, 0 };
    uint64_t s = 777;
    for (int i = 0; i < NSPECIAL; i++)
        for (int j = 0; j < NSPECIAL; j++)
            check1(&t, specials[i], specials[j]);
    for (int i = 0; i < 30000; i++)  /* typical lighting exponents */
        check1(&t, uniform(&s, 0.0f, 4.0f), uniform(&s, -130.0f, 130.0f));
    for (int i = 0; i < 20000; i++)  /* negative bases, integer exponents */
        check1(&t, uniform(&s, -8.0f, 8.0f), (float)(int)uniform(&s, -40, 40));
    for (int i = 0; i < 30000; i++)  /* any bit patterns */
        check1(&t, from_bits((uint32_t)next_rand(&s)),
               from_bits((uint32_t)next_rand(&s)));
    for (int i = 0; i < 20000; i++)  /* results near under/overflow */
        check1(&t, uniform(&s, 1.5f, 3.0f), uniform(&s, -160.0f, 130.0f));
    ck_assert_uint_ge(t.n, 100000);
    ck_assert_msg(t.bad == 0, "%u of %u pow results differ", t.bad, t.n);
}
END_TEST

/* (1 + k 2^-12)^2 has 25 significant bits: an exact midpoint between two
 * floats, decided by ties-to-even through the MPFR path. */
START_TEST(pow_exact_midpoints)
{
    struct tally t = { F_POW, 0, 0 };
    for (int k = 1; k < 4096; k += 2) {
        float x = 1.0f + (float)k * 0x1p-12f;
        check1(&t, x, 2.0f);
        check1(&t, -x, 2.0f);
        check1(&t, x * x, 0.5f);  /* an exact square root */
    }
    ck_assert_uint_eq(t.bad, 0);
    /* ties to even: 1 + 2^-11 + 2^-24 -> 1 + 2^-11 */
    ck_assert_uint_eq(bits(call(F_POW, 1.0f + 0x1p-12f, 2.0f)),
                      bits(1.0f + 0x1p-11f));
}
END_TEST

START_TEST(exact_cases)
{
    const struct us_math *m = &us_math_exact;
    for (int e = -149; e <= 127; e++) {
        ck_assert_float_eq(m->ex2(m->cfg, (float)e), ldexpf(1.0f, e));
        ck_assert_float_eq(m->lg2(m->cfg, ldexpf(1.0f, e)), (float)e);
    }
    ck_assert_float_eq(m->ex2(m->cfg, -150.0f), 0.0f);  /* tie to even */
    ck_assert(isinf(m->ex2(m->cfg, 128.0f)));
    ck_assert_float_eq(m->rcp(m->cfg, 1.0f), 1.0f);
    ck_assert_float_eq(m->rsq(m->cfg, 4.0f), 0.5f);
    ck_assert_float_eq(m->pow(m->cfg, 0.0f, 0.0f), 1.0f);
    ck_assert_float_eq(m->pow(m->cfg, -3.0f, 2.0f), 9.0f);
    ck_assert_float_eq(m->pow(m->cfg, -0.5f, -2.0f), 4.0f);
    ck_assert(isnan(m->pow(m->cfg, -2.0f, 0.5f)));
    ck_assert(isinf(m->rcp(m->cfg, -0.0f)) && signbit(m->rcp(m->cfg, -0.0f)));
    ck_assert(isinf(m->rsq(m->cfg, 0.0f)) && !signbit(m->rsq(m->cfg, 0.0f)));
    ck_assert(isinf(m->rsq(m->cfg, -0.0f)) && signbit(m->rsq(m->cfg, -0.0f)));
    ck_assert(isnan(m->rsq(m->cfg, -1.0f)));
    ck_assert(isinf(m->lg2(m->cfg, 0.0f)) && signbit(m->lg2(m->cfg, 0.0f)));
    ck_assert(isnan(m->lg2(m->cfg, -1.0f)));
    ck_assert(isnan(m->sin(m->cfg, INFINITY)));
    ck_assert(isnan(m->cos(m->cfg, -INFINITY)));
    ck_assert_uint_eq(bits(m->sin(m->cfg, -0.0f)), bits(-0.0f));
}
END_TEST

/* Inputs whose double result lies within the 2^-50 margin of a float
 * rounding boundary (found by scanning 2^26 floats upwards from 2^-7), so
 * us_math_exact decides them with MPFR. */
START_TEST(known_hard_cases)
{
    struct tally e = { F_EX2, 0, 0 }, l = { F_LG2, 0, 0 },
                 s = { F_SIN, 0, 0 }, c = { F_COS, 0, 0 };
    check1(&e, 0x1.05535ap-7f, 0.0f);
    check1(&l, 0x1.40f572p-2f, 0.0f);
    check1(&s, 0x1.9eab2ep-4f, 0.0f);
    check1(&s, 0x1.e7061ep-2f, 0.0f);
    check1(&c, 0x1.20ffccp-7f, 0.0f);
    ck_assert_uint_eq(e.bad + l.bad + s.bad + c.bad, 0);
}
END_TEST

/* The MPFR half on its own: subnormal and overflowing results, and the
 * caller's exponent range left as it was. */
START_TEST(mpfr_path)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    uint64_t s = 99;
    unsigned bad = 0;
    for (int i = 0; i < 3000; i++) {
        float x = uniform(&s, -160.0f, 130.0f);
        bad += !same(us_exact_mpfr(US_EXACT_EX2, x, 0), ref(F_EX2, x, 0));
        float p = from_bits((uint32_t)next_rand(&s) & 0x7fffffffu);
        if (isfinite(p) && p > 0.0f) {
            bad += !same(us_exact_mpfr(US_EXACT_RSQ, p, 0), ref(F_RSQ, p, 0));
            bad += !same(us_exact_mpfr(US_EXACT_LG2, p, 0), ref(F_LG2, p, 0));
            bad += !same(us_exact_mpfr(US_EXACT_SIN, p, 0), ref(F_SIN, p, 0));
            bad += !same(us_exact_mpfr(US_EXACT_COS, p, 0), ref(F_COS, p, 0));
        }
        float b = uniform(&s, 0.0f, 3.0f), y = uniform(&s, -200.0f, 200.0f);
        bad += !same(us_exact_mpfr(US_EXACT_POW, b, y), ref(F_POW, b, y));
    }
    ck_assert_uint_eq(bad, 0);
    ck_assert_float_eq(us_exact_mpfr(US_EXACT_EX2, -149.0f, 0), 0x1p-149f);
    ck_assert_float_eq(us_exact_mpfr(US_EXACT_EX2, -150.0f, 0), 0.0f);
    ck_assert(isinf(us_exact_mpfr(US_EXACT_EX2, 128.0f, 0)));
    ck_assert(mpfr_get_emin() == emin && mpfr_get_emax() == emax);
    /* the range switch is per thread only when MPFR keeps it in TLS */
    ck_assert(mpfr_buildopt_tls_p());
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("exact");
    TCase *tc = tcase_create("mpfr");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, rcp_matches_mpfr);
    tcase_add_test(tc, rsq_matches_mpfr);
    tcase_add_test(tc, ex2_matches_mpfr);
    tcase_add_test(tc, lg2_matches_mpfr);
    tcase_add_test(tc, sin_matches_mpfr);
    tcase_add_test(tc, cos_matches_mpfr);
    tcase_add_test(tc, sin_cos_near_zeros);
    tcase_add_test(tc, pow_matches_mpfr);
    tcase_add_test(tc, pow_exact_midpoints);
    tcase_add_test(tc, exact_cases);
    tcase_add_test(tc, known_hard_cases);
    tcase_add_test(tc, mpfr_path);
    suite_add_tcase(s, tc);
    return s;
}
