/* The SFU model: special values, exact cases, pass counts, LUT layout,
 * configuration parsing, the 1/(2 pi) constant and the ulp metric. */
#include <math.h>
#include <mpfr.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"
#include "sfu/sfu_check.h"

#include "check_main.h"

static uint32_t bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float flt(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

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

static uint32_t ev(enum us_sfu_func f, float x)
{
    return bits(us_sfu_eval(&sfu, f, x));
}

#define IS_NAN(u) (((u) & 0x7fffffffu) > 0x7f800000u)

START_TEST(special_values)
{
    const float inf = INFINITY, den = flt(0x00000123u);
    /* rcp */
    ck_assert_uint_eq(ev(US_SFU_RCP, 0.0f), 0x7f800000u);
    ck_assert_uint_eq(ev(US_SFU_RCP, -0.0f), 0xff800000u);
    ck_assert_uint_eq(ev(US_SFU_RCP, inf), 0x00000000u);
    ck_assert_uint_eq(ev(US_SFU_RCP, -inf), 0x80000000u);
    ck_assert_uint_eq(ev(US_SFU_RCP, -den), 0xff800000u);   /* FTZ in */
    ck_assert_uint_eq(ev(US_SFU_RCP, 0x1.8p127f), 0x00000000u); /* FTZ out */
    ck_assert(IS_NAN(ev(US_SFU_RCP, NAN)));
    /* rsq */
    ck_assert_uint_eq(ev(US_SFU_RSQ, 0.0f), 0x7f800000u);
    ck_assert_uint_eq(ev(US_SFU_RSQ, -0.0f), 0xff800000u);
    ck_assert_uint_eq(ev(US_SFU_RSQ, den), 0x7f800000u);
    ck_assert_uint_eq(ev(US_SFU_RSQ, inf), 0x00000000u);
    ck_assert(IS_NAN(ev(US_SFU_RSQ, -1.0f)));
    ck_assert(IS_NAN(ev(US_SFU_RSQ, -inf)));
    /* sqrt */
    ck_assert_uint_eq(ev(US_SFU_SQRT, -0.0f), 0x80000000u);
    ck_assert_uint_eq(ev(US_SFU_SQRT, -den), 0x80000000u);
    ck_assert_uint_eq(ev(US_SFU_SQRT, inf), 0x7f800000u);
    ck_assert(IS_NAN(ev(US_SFU_SQRT, -2.0f)));
    /* lg2 */
    ck_assert_uint_eq(ev(US_SFU_LG2, 0.0f), 0xff800000u);
    ck_assert_uint_eq(ev(US_SFU_LG2, -0.0f), 0xff800000u);
    ck_assert_uint_eq(ev(US_SFU_LG2, inf), 0x7f800000u);
    ck_assert(IS_NAN(ev(US_SFU_LG2, -1.0f)));
    ck_assert(IS_NAN(ev(US_SFU_LG2, NAN)));
    /* ex2 */
    ck_assert_uint_eq(ev(US_SFU_EX2, -inf), 0x00000000u);
    ck_assert_uint_eq(ev(US_SFU_EX2, inf), 0x7f800000u);
    ck_assert_uint_eq(ev(US_SFU_EX2, 128.0f), 0x7f800000u);
    ck_assert_uint_eq(ev(US_SFU_EX2, -127.5f), 0x00000000u); /* FTZ out */
    ck_assert_uint_eq(ev(US_SFU_EX2, -0.0f), 0x3f800000u);
    ck_assert_uint_eq(ev(US_SFU_EX2, den), 0x3f800000u);
    /* sin, cos */
    ck_assert(IS_NAN(ev(US_SFU_SIN, inf)));
    ck_assert(IS_NAN(ev(US_SFU_COS, -inf)));
    ck_assert_uint_eq(ev(US_SFU_SIN, -0.0f), 0x80000000u);
    ck_assert_uint_eq(ev(US_SFU_SIN, den), 0x00000000u);
    ck_assert_uint_eq(ev(US_SFU_COS, -0.0f), 0x3f800000u);
    ck_assert_uint_eq(ev(US_SFU_SIN, 0x1p-13f), bits(0x1p-13f));
    ck_assert_uint_eq(ev(US_SFU_COS, 0x1p-13f), 0x3f800000u);
    ck_assert(IS_NAN(ev(US_SFU_SIN, NAN)));
}
END_TEST

START_TEST(exact_cases)
{
    ck_assert_uint_eq(ev(US_SFU_RCP, 1.0f), 0x3f800000u);
    ck_assert_uint_eq(ev(US_SFU_RSQ, 1.0f), 0x3f800000u);
    ck_assert_uint_eq(ev(US_SFU_SQRT, 1.0f), 0x3f800000u);
    ck_assert_uint_eq(ev(US_SFU_LG2, 1.0f), 0x00000000u);
    for (int n = -126; n <= 126; n++) {
        float p = ldexpf(1, n);
        ck_assert_float_eq(us_sfu_eval(&sfu, US_SFU_RCP, p), ldexpf(1, -n));
        ck_assert_float_eq(us_sfu_eval(&sfu, US_SFU_LG2, p), (float)n);
        ck_assert_float_eq(us_sfu_eval(&sfu, US_SFU_EX2, (float)n), p);
        if (n % 2 == 0) {
            ck_assert_float_eq(us_sfu_eval(&sfu, US_SFU_RSQ, p), ldexpf(1, -n / 2));
            ck_assert_float_eq(us_sfu_eval(&sfu, US_SFU_SQRT, p), ldexpf(1, n / 2));
        }
    }
    ck_assert_float_eq(us_sfu_eval(&sfu, US_SFU_EX2, 127.0f), 0x1p127f);
    ck_assert_float_eq(us_sfu_pow(&sfu, 2.0f, 3.0f), 8.0f);
}
END_TEST

START_TEST(close_to_libm)
{
    /* A smoke test over a few values; the exhaustive check is
     * tests/sfu_check.test.sh. */
    static const float xs[] = { 0.3f, 1.7f, 3.0f, 10.5f, 1234.5f, 0.001f };
    for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_RCP, xs[i]) * x - 1) < 0x1p-22);
        ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_RSQ, xs[i]) * sqrt(x) - 1) < 0x1p-22);
        ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_SQRT, xs[i]) / sqrt(x) - 1) < 0x1p-22);
        ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_LG2, xs[i]) - log2(x)) < 0x1p-20);
        ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_SIN, xs[i]) - sin(x)) < 0x1p-22);
        ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_COS, -xs[i]) - cos(x)) < 0x1p-22);
        if (x < 100)
            ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_EX2, -xs[i]) / exp2(-x) - 1) < 0x1p-22);
    }
    /* Whole-range reduction: sin(2^100) and a large odd multiple of pi/2. */
    ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_SIN, 0x1p100f) - sin(0x1p100)) < 0x1p-22);
    ck_assert(fabs(us_sfu_eval(&sfu, US_SFU_COS, 0x1.8p120f) - cos(0x1.8p120)) < 0x1p-22);
}
END_TEST

START_TEST(math_interface)
{
    struct us_math m;
    us_sfu_math(&sfu, &m);
    ck_assert_str_eq(m.name, "sfu");
    ck_assert_uint_eq(bits(m.rcp(m.cfg, 3.0f)), ev(US_SFU_RCP, 3.0f));
    ck_assert_uint_eq(bits(m.rsq(m.cfg, 3.0f)), ev(US_SFU_RSQ, 3.0f));
    ck_assert_uint_eq(bits(m.ex2(m.cfg, 3.5f)), ev(US_SFU_EX2, 3.5f));
    ck_assert_uint_eq(bits(m.lg2(m.cfg, 3.0f)), ev(US_SFU_LG2, 3.0f));
    ck_assert_uint_eq(bits(m.sin(m.cfg, 3.0f)), ev(US_SFU_SIN, 3.0f));
    ck_assert_uint_eq(bits(m.cos(m.cfg, 3.0f)), ev(US_SFU_COS, 3.0f));
    /* POW = EX2(y * LG2(x)) with an FP32 multiply in between. */
    float l = us_sfu_eval(&sfu, US_SFU_LG2, 3.0f);
    ck_assert_uint_eq(bits(m.pow(m.cfg, 3.0f, 2.5f)), ev(US_SFU_EX2, 2.5f * l));
}
END_TEST

START_TEST(pass_counts)
{
    struct us_sfu_config cfg;
    struct us_diag d;
    us_sfu_config_default(&cfg);
    ck_assert_uint_eq(us_sfu_passes(&cfg, US_SFU_RCP), 2);
    ck_assert_uint_eq(us_sfu_passes(&cfg, US_SFU_LG2), 2);
    ck_assert_uint_eq(us_sfu_passes(&cfg, US_SFU_SIN), 5);
    ck_assert_uint_eq(us_sfu_passes(&cfg, US_SFU_COS), 5);
    ck_assert_uint_eq(us_sfu_pow_passes(&cfg), 5);
    ck_assert(us_sfu_config_set(&cfg, "degree=3", &d));
    ck_assert_uint_eq(us_sfu_passes(&cfg, US_SFU_RSQ), 3);
    ck_assert_uint_eq(us_sfu_passes(&cfg, US_SFU_SIN), 6);
    ck_assert(us_sfu_config_set(&cfg, "ex2.degree=1", &d));
    ck_assert_uint_eq(us_sfu_passes(&cfg, US_SFU_EX2), 1);
    ck_assert_uint_eq(us_sfu_pow_passes(&cfg), 5);
}
END_TEST

START_TEST(lut_layout)
{
    struct us_sfu_config cfg;
    us_sfu_config_default(&cfg);
    static const unsigned entries[US_SFU_NTABLES] = { 128, 256, 128, 128, 64, 64 };
    uint64_t total = 0;
    unsigned base = 0;
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        struct us_sfu_lut l;
        us_sfu_lut_layout(&cfg, (enum us_sfu_table)t, &l);
        ck_assert_uint_eq(l.entries, entries[t]);
        ck_assert_uint_eq(l.entry_bits, 32 + 24 + 18);
        ck_assert_uint_eq(l.base, base);
        ck_assert_uint_eq(l.bits, (uint64_t)l.entries * l.entry_bits);
        base += l.entries;
        total += l.bits;
    }
    ck_assert_uint_eq(us_sfu_lut_total_bits(&cfg), total);
    ck_assert_uint_eq(total, 768 * 74);
    /* Neighbouring segments go to different banks; rows fill in order. */
    unsigned bank, row, prev = 99;
    for (unsigned s = 0; s < 8; s++) {
        us_sfu_lut_map(&cfg, US_SFU_T_EX2, s, &bank, &row);
        ck_assert_uint_ne(bank, prev);
        ck_assert_uint_lt(bank, cfg.banks);
        ck_assert_uint_eq(row * cfg.banks + bank, 640 + s);
        prev = bank;
    }
    /* The entry an input reads. */
    enum us_sfu_table t;
    unsigned seg;
    ck_assert(us_sfu_segment(&sfu, US_SFU_RCP, 1.5f, &t, &seg));
    ck_assert_int_eq(t, US_SFU_T_RCP);
    ck_assert_uint_eq(seg, 64);
    ck_assert(us_sfu_segment(&sfu, US_SFU_RSQ, 3.0f, &t, &seg));
    ck_assert_uint_eq(seg, 128 + 64);     /* odd exponent: upper half */
    ck_assert(us_sfu_segment(&sfu, US_SFU_COS, 1.0f, &t, &seg));
    ck_assert_int_eq(t, US_SFU_T_SINCOS);
    ck_assert(!us_sfu_segment(&sfu, US_SFU_RCP, 0.0f, &t, &seg));
    ck_assert(!us_sfu_segment(&sfu, US_SFU_SIN, 1e-5f, &t, &seg));
}
END_TEST

START_TEST(config_parsing)
{
    struct us_sfu_config cfg, def;
    struct us_diag d;
    us_sfu_config_default(&def);
    cfg = def;
    static const char *const bad[] = {
        "k", "=3", "k=0", "k=9", "rcp.k=x", "degree=0", "degree=4",
        "w0=7", "w0=33", "w1=26", "w4=10", "banks=0", "banks=65",
        "foo=1", "tan.k=5", "rcp.w0=20", "k=5x", "k=-1", "",
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(!us_sfu_config_set(&cfg, bad[i], &d), "%s", bad[i]);
        ck_assert(d.msg[0] != '\0');
    }
    ck_assert(us_sfu_config_equal(&cfg, &def));
    ck_assert(us_sfu_config_set(&cfg, "sin.k=5", &d));
    ck_assert_uint_eq(cfg.k[US_SFU_T_SINCOS], 5);
    ck_assert(us_sfu_config_set(&cfg, "k=4", &d));
    for (unsigned t = 0; t < US_SFU_NTABLES; t++)
        ck_assert_uint_eq(cfg.k[t], 4);
    ck_assert(us_sfu_config_set(&cfg, "w2=12", &d));
    ck_assert_uint_eq(cfg.width[2], 12);
    ck_assert(us_sfu_config_set(&cfg, "banks=8", &d));
    ck_assert_uint_eq(cfg.banks, 8);
    ck_assert(!us_sfu_config_equal(&cfg, &def));
    ck_assert(strstr(us_sfu_config_help(), "w0..w3") != NULL);
}
END_TEST

START_TEST(generated_config)
{
    /* A non-default configuration builds its tables at run time. */
    struct us_sfu_config cfg;
    struct us_diag d;
    struct us_sfu s2;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_config_set(&cfg, "rcp.k=5", &d));
    ck_assert(us_sfu_config_set(&cfg, "rcp.degree=3", &d));
    ck_assert(us_sfu_init(&s2, &cfg, &d));
    ck_assert(s2.owned != NULL);
    ck_assert_uint_eq(s2.tab[US_SFU_T_RCP].k, 5);
    for (float x = 1.0f; x < 2.0f; x += 0.013f)
        ck_assert(fabs(us_sfu_eval(&s2, US_SFU_RCP, x) * (double)x - 1) < 0x1p-22);
    ck_assert_float_eq(us_sfu_eval(&s2, US_SFU_RCP, 1.0f), 1.0f);
    us_sfu_free(&s2);
    /* The generator reproduces the committed default tables. */
    us_sfu_config_default(&cfg);
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        int32_t coef[256 * 4];
        struct us_sfu_coeffs c;
        double err;
        ck_assert(us_sfu_generate(&cfg, (enum us_sfu_table)t, coef, &c, &err, &d));
        const struct us_sfu_coeffs *ref = &us_sfu_default_coeffs[t];
        ck_assert_uint_eq(c.k, ref->k);
        ck_assert_mem_eq(c.shift, ref->shift, sizeof c.shift);
        ck_assert_mem_eq(coef, ref->coef,
                         sizeof(int32_t) * (1u << c.k) * (c.degree + 1u));
    }
}
END_TEST

START_TEST(inv2pi_matches_mpfr)
{
    mpfr_t c, w;
    mpfr_inits2(400, c, w, (mpfr_ptr)0);
    mpfr_const_pi(c, MPFR_RNDN);
    mpfr_mul_2ui(c, c, 1, MPFR_RNDN);
    mpfr_ui_div(c, 1, c, MPFR_RNDN);
    for (unsigned i = 0; i < 9; i++) {
        mpfr_mul_2ui(c, c, 32, MPFR_RNDN);
        mpfr_floor(w, c);
        ck_assert_uint_eq(mpfr_get_ui(w, MPFR_RNDN), us_sfu_inv2pi[i]);
        mpfr_sub(c, c, w, MPFR_RNDN);
    }
    mpfr_clears(c, w, (mpfr_ptr)0);
    mpfr_free_cache();
}
END_TEST

START_TEST(ulp_metric)
{
    /* Within a binade: |got - exact| / ulp. */
    ck_assert_double_eq(us_sfu_ulp_error(1.0f, 1.0 - 0x1p-25), 0.25);
    ck_assert_double_eq(us_sfu_ulp_error(1.5f, 1.5), 0);
    /* Across 1.0: 2^-24 below counts one ulp of [0.5,1), 2^-24 above half
     * an ulp of [1,2) (LLVM libc's MPFR utils). */
    ck_assert_double_eq(us_sfu_ulp_error(1.0f - 0x1p-24f, 1.0 + 0x1p-24), 1.5);
    ck_assert(isinf(us_sfu_ulp_error(NAN, 1.0)));
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sfu");
    TCase *tc = tcase_create("sfu");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, special_values);
    tcase_add_test(tc, exact_cases);
    tcase_add_test(tc, close_to_libm);
    tcase_add_test(tc, math_interface);
    tcase_add_test(tc, pass_counts);
    tcase_add_test(tc, lut_layout);
    tcase_add_test(tc, config_parsing);
    tcase_add_test(tc, generated_config);
    tcase_add_test(tc, inv2pi_matches_mpfr);
    tcase_add_test(tc, ulp_metric);
    suite_add_tcase(s, tc);
    return s;
}
