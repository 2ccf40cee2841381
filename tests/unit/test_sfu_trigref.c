/*
 * The fast filter of `sfu check --full` (sfu/sfu_trigref.c, sfu/sfu_check.c):
 *  - us_sfu_trig_revolutions and us_sfu_trig_ref against MPFR at 320 bits:
 *    the stated bounds hold on random bit patterns, on floats next to
 *    multiples of pi/2 (where sin or cos is tiny), on the worst cases of
 *    the exhaustive check and on the range edges (2^-12, FLT_MAX);
 *  - us_sfu_check with the trig filter gives the statistics of the libm
 *    filter (every figure but the count MPFR decided) and of MPFR alone
 *    (the counts and worst inputs; the maxima to 1e-6, MPFR's 53-bit
 *    value against libm's) on ranges with the special values (zeros,
 *    denormals, inf, NaN, huge arguments), hard cases and a sample of
 *    the whole range, for every function;
 *  - the SFU model's results (sfu/sfu_lane.h, specialised per function
 *    for the check) hash to the values of the model before (6faa626).
 */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"
#include "sfu/sfu_check.h"
#include "sfu/sfu_trigref.h"

#include "check_main.h"

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

struct trig_tally {
    unsigned n, bad, undecided;
    double worst;              /* max |y - f(x)| / err */
};

/* One argument: |y - f(x)| <= err, and the reduction's bracket. */
static void check_trig(struct trig_tally *t, uint32_t xb)
{
    uint32_t a = xb & 0x7fffffffu;
    if (a < 0x39800000u || a >= 0x7f800000u)
        return;                        /* tiny, inf, NaN: not its domain */
    float x = float_of(xb);
    mpfr_t mx, r, e, tmp;
    mpfr_inits2(320, mx, r, e, tmp, (mpfr_ptr)0);
    /* The reduction: F 2^-128 <= frac(|x| / 2 pi) < F 2^-128 + 2^-103. */
    mpfr_set_flt(mx, fabsf(x), MPFR_RNDN);
    mpfr_const_pi(tmp, MPFR_RNDN);
    mpfr_mul_2ui(tmp, tmp, 1, MPFR_RNDN);
    mpfr_div(r, mx, tmp, MPFR_RNDN);
    mpfr_frac(r, r, MPFR_RNDN);
    unsigned __int128 F = us_sfu_trig_revolutions(a);
    mpfr_set_ui_2exp(e, (unsigned long)(uint64_t)(F >> 64), -64, MPFR_RNDN);
    mpfr_set_ui_2exp(tmp, (unsigned long)(uint64_t)F, -128, MPFR_RNDN);
    mpfr_add(e, e, tmp, MPFR_RNDN);         /* exact: 128 bits */
    mpfr_sub(e, r, e, MPFR_RNDN);           /* r - F 2^-128 */
    bool red_ok = mpfr_sgn(e) >= 0 && mpfr_cmp_d(e, 0x1p-103) < 0;
    for (int c = 0; c < 2; c++) {
        double y, err;
        t->n++;
        if (!us_sfu_trig_ref(c, x, &y, &err)) {
            t->undecided++;
            continue;
        }
        mpfr_set_flt(mx, x, MPFR_RNDN);
        if (c)
            mpfr_cos(r, mx, MPFR_RNDN);
        else
            mpfr_sin(r, mx, MPFR_RNDN);
        mpfr_set_d(e, y, MPFR_RNDN);
        mpfr_sub(e, e, r, MPFR_RNDN);
        mpfr_abs(e, e, MPFR_RNDN);
        double q = mpfr_get_d(e, MPFR_RNDU) / err;
        if (q > t->worst)
            t->worst = q;
        t->bad += !(q <= 1) || !red_ok;
    }
    mpfr_clears(mx, r, e, tmp, (mpfr_ptr)0);
}

/* The worst inputs of the exhaustive check (docs/perf/sfu.md) and
 * arguments of known interest. */
static const uint32_t hard[] = {
    0x48f681f5u, 0x7a58d858u, 0x5988666eu, 0x614e2b3du, 0x6f76f263u,
    0xc4a7af4bu, 0xbc937b01u, 0xbfc6cab7u, 0xe27f908cu, 0x3fcb63e5u,
    0x40490fdbu, 0x3fc90fdbu, 0x40c90fdbu, 0x39800000u, 0x397fffffu,
    0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0x4b000000u, 0x5922aa80u,
    0x6c4ed1b1u, 0x4d7d2a5cu,
};

START_TEST(trig_ref_bound)
{
    struct trig_tally t = { 0, 0, 0, 0 };
    uint64_t s = 0x5eed;
    for (int i = 0; i < 40000; i++)
        check_trig(&t, (uint32_t)next_rand(&s));
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++)
        for (int d = -2; d <= 2; d++) {
            check_trig(&t, hard[i] + (uint32_t)d);
            check_trig(&t, (hard[i] ^ 0x80000000u) + (uint32_t)d);
        }
    /* Floats next to k pi/2, large k too (the reduction's hard part). */
    for (int k = 1; k <= 3000; k++) {
        double m[3] = { k * 1.5707963267948966, k * 1.5707963267948966 * 1e6,
                        k * 1.5707963267948966 * 1e20 };
        for (int j = 0; j < 3; j++)
            for (int d = -2; d <= 2; d++)
                check_trig(&t, bits_of((float)m[j]) + (uint32_t)d);
    }
    /* Every binade, its first and last patterns. */
    for (uint32_t e = 0x73; e < 0xff; e++) {
        check_trig(&t, e << 23);
        check_trig(&t, (e << 23) | 0x7fffffu);
    }
    ck_assert_uint_ge(t.n, 100000);
    ck_assert_msg(t.bad == 0 && t.undecided == 0,
                  "%u of %u outside the bound, %u undecided (worst %.3g of "
                  "the bound)", t.bad, t.n, t.undecided, t.worst);
    /* The bound is not vacuous: errors reach a visible part of it. */
    ck_assert_msg(t.worst > 1.0 / 4096, "worst error %.3g of the bound",
                  t.worst);
}
END_TEST

/* ---- the check with the fast filter, with libm and with MPFR alone ---- */

static struct us_sfu sfu;

static void setup(void)
{
    struct us_sfu_config cfg;
    struct us_diag d;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_init(&sfu, &cfg, &d));
}

static void teardown(void)
{
    us_sfu_free(&sfu);
}

static void run(enum us_sfu_func f, uint64_t first, uint64_t count,
                unsigned step, int mode, struct us_sfu_stats *st)
{
    struct us_sfu_check_opts o = {
        .sfu = &sfu, .func = f, .set = US_SFU_SET_RANGE, .first = first,
        .count = count, .step = step, .filter = mode != 0,
        .libm_trig = mode == 2, .jobs = 2,
    };
    struct us_diag d;
    ck_assert(us_sfu_check(&o, st, &d));
}

static bool near(double a, double b)
{
    return a == b || fabs(a - b) <= 1e-6 * fabs(b);
}

/* Everything but mpfr_calls and (for MPFR alone) the maxima's digits. */
static void compare(const struct us_sfu_stats *a, const struct us_sfu_stats *b,
                    bool exact, const char *what, enum us_sfu_func f,
                    uint64_t first)
{
    const char *fn = us_sfu_func_name(f);
    ck_assert_msg(a->n == b->n && a->acc == b->acc && a->cr == b->cr &&
                  a->faithful == b->faithful && a->special == b->special &&
                  a->special_bad == b->special_bad,
                  "%s %s at 0x%08llx: counts differ", what, fn,
                  (unsigned long long)first);
    ck_assert_msg(a->max_ulp_x == b->max_ulp_x && a->max_ulp_got == b->max_ulp_got &&
                  a->max_ulp_out_x == b->max_ulp_out_x &&
                  a->max_abs_x == b->max_abs_x &&
                  a->max_abs_all_x == b->max_abs_all_x &&
                  a->bad_x == b->bad_x && a->bad_got == b->bad_got &&
                  a->bad_want == b->bad_want,
                  "%s %s at 0x%08llx: worst inputs differ", what, fn,
                  (unsigned long long)first);
    if (exact)
        ck_assert_msg(a->max_ulp == b->max_ulp && a->max_ulp_out == b->max_ulp_out &&
                      a->max_abs == b->max_abs && a->max_abs_all == b->max_abs_all,
                      "%s %s at 0x%08llx: maxima differ", what, fn,
                      (unsigned long long)first);
    else
        ck_assert_msg(near(a->max_ulp, b->max_ulp) &&
                      near(a->max_ulp_out, b->max_ulp_out) &&
                      near(a->max_abs, b->max_abs) &&
                      near(a->max_abs_all, b->max_abs_all),
                      "%s %s at 0x%08llx: maxima differ beyond 1e-6", what,
                      fn, (unsigned long long)first);
}

/* first, count, step: zeros and denormals of both signs, the smallest
 * normals, the tiny-argument edge of ex2, sin and cos, [1, 2), near pi,
 * 2^24 (sin's reduction becomes exact-integer), huge, inf and NaN, and
 * samples of all 2^32 patterns (a power-of-two step pairs each x with
 * -x: rcp, sin and cos compute the reference once per pair there). */
static const struct { uint64_t first, count; unsigned step; } sets[] = {
    { 0x00000000u, 0x1000u, 1 }, { 0x007ff000u, 0x2000u, 1 },
    { 0x80000000u, 0x1000u, 1 }, { 0x807ff000u, 0x2000u, 1 },
    { 0x30800000u - 0x800u, 0x1000u, 1 }, { 0x39800000u - 0x800u, 0x1000u, 1 },
    { 0xb9800000u - 0x800u, 0x1000u, 1 }, { 0x3f800000u, 0x4000u, 1 },
    { 0x40490000u, 0x2000u, 1 }, { 0x4b7ff000u, 0x2000u, 1 },
    { 0x7f7fe000u, 0x4000u, 1 }, { 0xff7fe000u, 0x4000u, 1 },
    { 0x5922a000u, 0x1000u, 1 }, { 0x48f68000u, 0x1000u, 1 },
    { 0x7a58d000u, 0x1000u, 1 }, { 0x6f76f000u, 0x1000u, 1 },
    { 0xc4a7a000u, 0x1000u, 1 }, { 0xbc937000u, 0x1000u, 1 },
    { 0, 1ull << 32, 65521 }, { 0, 1ull << 32, 32768 },
};

START_TEST(check_filters_agree)
{
    for (int f = 0; f < US_SFU_NFUNC; f++)
        for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
            struct us_sfu_stats fast, libm, mp;
            run((enum us_sfu_func)f, sets[i].first, sets[i].count,
                sets[i].step, 1, &fast);
            run((enum us_sfu_func)f, sets[i].first, sets[i].count,
                sets[i].step, 2, &libm);
            run((enum us_sfu_func)f, sets[i].first, sets[i].count,
                sets[i].step, 0, &mp);
            compare(&fast, &libm, true, "trig filter vs libm", (enum us_sfu_func)f,
                    sets[i].first);
            compare(&fast, &mp, false, "trig filter vs MPFR alone",
                    (enum us_sfu_func)f, sets[i].first);
            ck_assert_uint_eq(mp.mpfr_calls, 0);
        }
}
END_TEST

/* The pairs of x and -x (the full range, a step of 2^15) against the two
 * halves checked apart (not paired): the same counts, MPFR's included. */
START_TEST(check_pairs_as_halves)
{
    for (int f = 0; f < US_SFU_NFUNC; f++) {
        struct us_sfu_stats all, pos, neg;
        run((enum us_sfu_func)f, 0, 1ull << 32, 32768, 1, &all);
        run((enum us_sfu_func)f, 0, 1ull << 31, 32768, 1, &pos);
        run((enum us_sfu_func)f, 1ull << 31, 1ull << 31, 32768, 1, &neg);
        ck_assert_uint_eq(all.n, pos.n + neg.n);
        ck_assert_uint_eq(all.acc, pos.acc + neg.acc);
        ck_assert_uint_eq(all.cr, pos.cr + neg.cr);
        ck_assert_uint_eq(all.faithful, pos.faithful + neg.faithful);
        ck_assert_uint_eq(all.special, pos.special + neg.special);
        ck_assert_uint_eq(all.special_bad, pos.special_bad + neg.special_bad);
        ck_assert_uint_eq(all.mpfr_calls, pos.mpfr_calls + neg.mpfr_calls);
        /* Ties go to the first input, i.e. to the positive half. */
        const struct us_sfu_stats *u = neg.max_ulp > pos.max_ulp ? &neg : &pos;
        ck_assert(all.max_ulp == u->max_ulp && all.max_ulp_x == u->max_ulp_x);
        const struct us_sfu_stats *a = neg.max_abs_all > pos.max_abs_all ? &neg : &pos;
        ck_assert(all.max_abs_all == a->max_abs_all &&
                  all.max_abs_all_x == a->max_abs_all_x);
    }
}
END_TEST

/* ---- the SFU model unchanged ------------------------------------------ */

static uint64_t fnv(uint64_t h, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xffu;
        h *= 0x100000001b3ull;
    }
    return h;
}

START_TEST(sfu_model_bits)
{
    /* FNV-1a 64 of the results on every 4099th bit pattern, per function
     * and for pow (y from the pattern), from the model at 6faa626. */
    static const uint64_t want[US_SFU_NFUNC + 1] = {
        0xccc51e13ac040ab3ull, 0x3ce7b43c8969f397ull, 0x203fd10ef5536eebull,
        0x8a34489daa08cbdfull, 0x9b892ecea03c86dbull, 0x373f388b606af38dull,
        0x9774052ca80aae18ull, 0xa8b44038ae638d73ull,
    };
    for (int f = 0; f <= US_SFU_NFUNC; f++) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (uint64_t u = 0; u < (1ull << 32); u += 4099) {
            float x = float_of((uint32_t)u);
            float r = f < US_SFU_NFUNC
                ? us_sfu_eval(&sfu, (enum us_sfu_func)f, x)
                : us_sfu_pow(&sfu, x, float_of((uint32_t)(u * 2654435761u) &
                                                0x41ffffffu));
            h = fnv(h, bits_of(r));
        }
        ck_assert_msg(h == want[f], "function %d: hash %016llx", f,
                      (unsigned long long)h);
    }
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sfu_trigref");
    TCase *tc = tcase_create("filter");
    tcase_set_timeout(tc, 600);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, trig_ref_bound);
    tcase_add_test(tc, check_filters_agree);
    tcase_add_test(tc, check_pairs_as_halves);
    tcase_add_test(tc, sfu_model_bits);
    suite_add_tcase(s, tc);
    return s;
}
