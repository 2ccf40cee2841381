/*
 * The batch form of the SFU model (sfu/sfu_batch.c) and the SFU's
 * us_math batch entry against the one-input entries:
 *  - us_sfu_eval_batch == us_sfu_eval bit for bit, every function, on
 *    every 257th bit pattern of the 2^32 (both signs, every exponent,
 *    zeros, denormals, infinities, NaNs among them), the special-case
 *    edges, and random patterns; with the default tables and with
 *    generated degree-1 and degree-3 tables (the Horner loop's trip);
 *  - batches of every length 0 .. 3 blocks + 1 (the last partial group);
 *  - a table the batch's doubles cannot take exactly (lane by lane);
 *  - us_math.batch == the per-lane members (pow included), in place
 *    (out = x, out = y) and not.
 * The sweeps run every build of the loops the CPU has (baseline, AVX2,
 * AVX-512); the rest sees the one chosen at run time.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"

#include "check_main.h"

enum { N = 4096 };

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Batch vs one at a time on x[0..n-1], every build of the loops the CPU
 * has; the number of differences. */
static unsigned compare(const struct us_sfu *sfu, enum us_sfu_func f,
                        const float *x, unsigned n)
{
    static float out[N];
    unsigned bad = 0;
    for (int isa = US_SFU_ISA_BASE; isa <= US_SFU_ISA_AVX512; isa++) {
        if (!us_sfu_eval_batch_isa(sfu, isa, f, x, out, n))
            continue;
        for (unsigned i = 0; i < n; i++)
            if (bits_of(out[i]) != bits_of(us_sfu_eval(sfu, f, x[i])) &&
                !bad++)
                ck_assert_msg(0, "f %d isa %d x 0x%08x: batch 0x%08x, "
                              "eval 0x%08x", (int)f, isa, bits_of(x[i]),
                              bits_of(out[i]),
                              bits_of(us_sfu_eval(sfu, f, x[i])));
    }
    return bad;
}

static void sweep(const struct us_sfu *sfu)
{
    static float x[N];
    static const uint32_t edges[] = {
        0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000,
        0x80800000, 0x3f800000, 0xbf800000, 0x3f7fffff, 0x40000000,
        0x39800000, 0x397fffff, 0xb9800000, 0x43000000, 0x42ffffff,
        0xc3000000, 0xc2ffffff, 0x30800000, 0x7f7fffff, 0xff7fffff,
        0x7f800000, 0xff800000, 0x7fc00000, 0xffffffff, 0x7f800001,
        0x40490fdb, 0xc0490fdb, 0x4b000000, 0x5f000000, 0x3f000000,
    };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int f = 0; f < US_SFU_NFUNC; f++) {
        unsigned n = 0;
        for (uint64_t u = 0; u < (1ull << 32); u += 257) {
            x[n++] = float_of((uint32_t)u);
            if (n == N) {
                ck_assert_uint_eq(compare(sfu, f, x, n), 0);
                n = 0;
            }
        }
        ck_assert_uint_eq(compare(sfu, f, x, n), 0);
        n = sizeof edges / sizeof *edges;
        for (unsigned i = 0; i < n; i++)
            x[i] = float_of(edges[i]);
        ck_assert_uint_eq(compare(sfu, f, x, n), 0);
        for (int r = 0; r < 64; r++) {
            for (unsigned i = 0; i < N; i++)
                x[i] = float_of((uint32_t)next_rand(&seed));
            ck_assert_uint_eq(compare(sfu, f, x, N), 0);
        }
    }
}

START_TEST(batch_default)
{
    struct us_sfu_config cfg;
    struct us_sfu sfu;
    struct us_diag d;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_init(&sfu, &cfg, &d));
    sweep(&sfu);
    us_sfu_free(&sfu);
}
END_TEST

START_TEST(batch_degrees)
{
    /* Generated tables (small k keeps the Remez generator quick). */
    static const char *const sets[][2] = {
        { "degree=1", "k=6" }, { "degree=3", "k=4" },
    };
    for (unsigned s = 0; s < 2; s++) {
        struct us_sfu_config cfg;
        struct us_sfu sfu;
        struct us_diag d;
        us_sfu_config_default(&cfg);
        for (unsigned i = 0; i < 2; i++)
            ck_assert_msg(us_sfu_config_set(&cfg, sets[s][i], &d), "%s",
                          d.msg);
        ck_assert_msg(us_sfu_init(&sfu, &cfg, &d), "%s", d.msg);
        sweep(&sfu);
        us_sfu_free(&sfu);
    }
}
END_TEST

START_TEST(batch_fallback)
{
    /* A table whose alignment the batch's doubles cannot take exactly
     * (sfu_batch.c's plan(): a shift above 52) goes through us_sfu_eval
     * lane by lane: rcp's c2 scaled by 2^40 more, the arithmetic still
     * defined (a 58-bit shift of a 48-bit product).  The other
     * functions keep the vector path. */
    struct us_sfu_config cfg;
    struct us_sfu sfu;
    struct us_diag d;
    static float x[N];
    uint64_t seed = 99;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_init(&sfu, &cfg, &d));
    sfu.tab[US_SFU_T_RCP].shift[2] += 40;
    for (unsigned i = 0; i < N; i++)
        x[i] = float_of((uint32_t)next_rand(&seed));
    ck_assert_uint_eq(compare(&sfu, US_SFU_RCP, x, N), 0);
    ck_assert_uint_eq(compare(&sfu, US_SFU_RSQ, x, N), 0);
    us_sfu_free(&sfu);
}
END_TEST

START_TEST(batch_lengths)
{
    struct us_sfu_config cfg;
    struct us_sfu sfu;
    struct us_diag d;
    static float x[N];
    uint64_t seed = 12345;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_init(&sfu, &cfg, &d));
    for (unsigned i = 0; i < N; i++)
        x[i] = float_of((uint32_t)next_rand(&seed));
    for (int f = 0; f < US_SFU_NFUNC; f++)
        for (unsigned n = 0; n <= 3 * 64 + 1; n++) {
            static float out[N];
            /* Past n nothing is written. */
            out[n] = 12345.0f;
            us_sfu_eval_batch(&sfu, f, x + 1, out, n);
            ck_assert(out[n] == 12345.0f);
            for (unsigned i = 0; i < n; i++)
                ck_assert_uint_eq(bits_of(out[i]),
                                  bits_of(us_sfu_eval(&sfu, f, x[1 + i])));
        }
    us_sfu_free(&sfu);
}
END_TEST

START_TEST(math_batch)
{
    struct us_sfu_config cfg;
    struct us_sfu sfu;
    struct us_diag d;
    struct us_math m;
    static float x[N], y[N], out[N], a[N], b[N];
    uint64_t seed = 777;
    us_sfu_config_default(&cfg);
    ck_assert(us_sfu_init(&sfu, &cfg, &d));
    us_sfu_math(&sfu, &m);
    ck_assert_ptr_nonnull(m.batch);
    for (unsigned i = 0; i < N; i++) {
        uint64_t r = next_rand(&seed);
        /* Half random patterns, half ordinary values (pow's useful range). */
        x[i] = i & 1 ? float_of((uint32_t)r) : (float)(r % 100000) / 997.0f;
        y[i] = i & 1 ? float_of((uint32_t)(r >> 32))
                     : (float)((int)(r >> 40) % 2000) / 113.0f;
    }
    float (*const one[])(const void *, float) = {
        [US_MATH_RCP] = m.rcp, [US_MATH_RSQ] = m.rsq, [US_MATH_EX2] = m.ex2,
        [US_MATH_LG2] = m.lg2, [US_MATH_SIN] = m.sin, [US_MATH_COS] = m.cos,
    };
    for (int f = US_MATH_RCP; f <= US_MATH_POW; f++) {
        unsigned n = N - 3;                   /* not a multiple of a block */
        m.batch(m.cfg, f, x, y, out, n);
        memcpy(a, x, sizeof a);
        m.batch(m.cfg, f, a, y, a, n);        /* out = x */
        memcpy(b, y, sizeof b);
        m.batch(m.cfg, f, x, b, b, n);        /* out = y */
        for (unsigned i = 0; i < n; i++) {
            float want = f == US_MATH_POW ? m.pow(m.cfg, x[i], y[i])
                                          : one[f](m.cfg, x[i]);
            ck_assert_msg(bits_of(out[i]) == bits_of(want),
                          "fn %d x %a y %a: 0x%08x want 0x%08x", f, x[i],
                          y[i], bits_of(out[i]), bits_of(want));
            ck_assert_uint_eq(bits_of(a[i]), bits_of(want));
            if (f == US_MATH_POW)
                ck_assert_uint_eq(bits_of(b[i]), bits_of(want));
        }
    }
    us_sfu_free(&sfu);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("sfu_batch");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, batch_default);
    tcase_add_test(tc, batch_degrees);
    tcase_add_test(tc, batch_fallback);
    tcase_add_test(tc, batch_lengths);
    tcase_add_test(tc, math_batch);
    suite_add_tcase(s, tc);
    return s;
}
