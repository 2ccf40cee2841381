/*
 * The SFU model over arrays of inputs (us_sfu_eval_batch, sfu/sfu.h):
 * us_sfu_eval's bits (sfu/sfu_lane.h defines them) computed another way,
 * in SIMD registers, built three times -- x86-64 baseline (SSE2, 4 lanes
 * an iteration), AVX2 (8) and AVX-512 (16) -- and chosen at run time;
 * us_sfu_eval_batch_isa runs one build (tests/unit/test_sfu_batch.c runs
 * every build the CPU has; tools/bench_sfu_batch times them).
 *
 * ONE ALGORITHM, THREE BUILDS.  sfu/sfu_batch_body.h holds reduce,
 * Horner, pack and the loops once, in GCC vector types of W lanes; each
 * build below defines before including it only its primitives, where the
 * instructions differ (a compare's mask, a select, loads of the last
 * lanes, int-double conversion, floor, the LUT read, sin/cos's 64-bit
 * products).
 *
 * HORNER IN DOUBLES, EXACTLY.  A step is acc = floor(acc T 2^-sh + 1/2)
 * + C_i (sfu_lane.h's horner_step: round half up, then an arithmetic
 * shift).  Every value in it is an integer, or an integer times 2^-sh,
 * far inside binary64's 53 bits, so each operation is exact:
 *   - |acc_{i+1}| <= 2^24 (C_d fits w_d <= 25 bits and every other
 *     accumulator w_i bits: us_sfu_generate refuses a table otherwise,
 *     and the committed tables are its output) and T < 2^24, so the
 *     product is below 2^48; T 2^-sh and the product times it are exact;
 *   - + 1/2 is exact while -3 <= sh <= 52, and floor() of that is the
 *     shift; + C_i (|C_i| < 2^31) and lg2's e 2^s0 (< 2^47) add integers
 *     below 2^52.  plan() checks the shifts; a table outside them goes
 *     through us_sfu_eval lane by lane.
 * So a step is mul (T 2^-sh), mul and add (one FMA on AVX-512: its one
 * rounding of an exact value is no rounding), floor, add.
 *
 * pack() ON THE DOUBLE.  acc_0 rounded to 24 significant bits, ties away
 * from zero, is its bit pattern plus 2^28 with the low 29 bits cleared
 * (a carry into the exponent field renormalises by itself); that double
 * converts to binary32 exactly; the binary32's exponent field plus e2 -
 * s0 is the result's, below 1 a signed zero (FTZ), above 254 infinity.
 * lg2's negative acc_0 keeps its sign in the double, as pack()'s sign
 * and magnitude.
 *
 * REDUCTION with selects in 32-bit lanes: reduce()'s tests, rsq/sqrt's
 * exponent parity and e2 from the biased exponent; ex2's floor(x 2^32)
 * is the low and high words of 1.5 2^52 + floor(x 2^32) (exact while
 * |x| < 128); sin and cos's Payne-Hanek product from 24-bit pieces
 * (revolutions1) in 64-bit lanes, lane by lane in the baseline build
 * (SSE2 has no per-lane shift counts).  A group of lanes that are all
 * special (lg2(0), ex2(-inf): half the lg2 and ex2 groups of
 * bench/scenes/phong.scn) skips the LUT and Horner.
 *
 * LUT.  AVX-512 reads the committed default tables from a copy made
 * once per process with one row per coefficient, by vpermt2d (32 entries
 * an instruction) and blends on the index bits above: 2, 4 or 8
 * shuffles per coefficient for 64, 128 or 256 segments, faster than
 * Zen 4's vpgatherdd (rsq 1.94 against 2.70 ns an evaluation when first
 * measured, docs/perf/sfu.md); where the lanes that are not special
 * share one 32-entry block (97% of the rsq groups of phong.scn:
 * neighbouring fragments, neighbouring segments), one vpermt2d a
 * coefficient.  Other tables are gathered.  AVX2 gathers C0 and C1 as
 * one 64-bit element and the others as 32-bit ones (Zen 4's gathers take
 * time per element); the baseline reads lane by lane.
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"
#include "sfu/sfu_lane.h"

/* The SIMD builds; elsewhere us_sfu_eval lane by lane. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_X86 1

/* ---- What the lanes of a call share ----------------------------------- */

enum { SOA_N = 1 << US_SFU_MAX_K };

struct plan {
    const int32_t *coef;        /* C_i of segment s: coef[s (deg + 1) + i] */
    const int32_t *soa;         /* or soa[i SOA_N + s]: the default table
                                   (its geometry constants), or NULL */
    unsigned deg;
    unsigned rest, tsh, kb;     /* seg = frac >> rest, T = frac >> tsh & tmask */
    uint32_t tmask;
    double scale[US_SFU_MAX_DEGREE];    /* 2^-sh_i */
    double w0;                  /* 2^s0: lg2's weight of e, sin/cos's 1 */
    uint32_t one;               /* 2^s0 as a binary32's bits */
    int32_t e2off;              /* -s0 */
};

/* The segment bits the permute lookups are unrolled for: the default
 * configuration's (us_sfu_config_default); soa_init() checks them. */
static inline unsigned soa_k(enum us_sfu_table t)
{
    switch (t) {
    case US_SFU_T_RCP: return 7;
    case US_SFU_T_RSQ: return 8;
    case US_SFU_T_SQRT: return 7;
    case US_SFU_T_LG2: return 7;
    default: return 6;
    }
}

/* The default tables, one row per coefficient (AVX-512's lookups). */
static int32_t soa_tab[US_SFU_NTABLES][3][SOA_N] __attribute__((aligned(64)));
static bool soa_ok[US_SFU_NTABLES];
static pthread_once_t soa_once = PTHREAD_ONCE_INIT;

static void soa_init(void)
{
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        const struct us_sfu_coeffs *c = &us_sfu_default_coeffs[t];
        if (c->degree != 2 || c->k != soa_k((enum us_sfu_table)t))
            continue;
        for (unsigned s = 0; s < 1u << c->k; s++)
            for (unsigned i = 0; i < 3; i++)
                soa_tab[t][i][s] = c->coef[s * 3 + i];
        soa_ok[t] = true;
    }
}

/* 2^e for |e| < 1000, without a call to ldexp at every batch. */
static inline double pow2(int e)
{
    uint64_t b = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* The constants of function f's table; false when the doubles would not
 * be exact (see the top). */
static bool plan(const struct us_sfu *s, enum us_sfu_func f, struct plan *p)
{
    enum us_sfu_table t = func_table(f);
    const struct us_sfu_coeffs *c = &s->tab[t];
    struct us_sfu_geom g;
    geom(t, c->k, &g);
    unsigned tbits = g.kb + g.tw;
    p->coef = c->coef;
    p->deg = c->degree;
    p->rest = g.fb0 - g.kb;                   /* split()'s shifts */
    p->tsh = p->rest - g.tw;
    p->tmask = (1u << g.tw) - 1u;
    p->kb = g.kb;
    if (c->degree < 1 || c->degree > US_SFU_MAX_DEGREE)
        return false;
    for (int i = 0; i < (int)c->degree; i++) {
        int sh = horner_shift(c, tbits, i);
        if (sh < -3 || sh > 52)
            return false;
        p->scale[i] = pow2(-sh);
    }
    if (c->shift[0] < 0 || c->shift[0] > 40)
        return false;
    p->w0 = pow2(c->shift[0]);
    p->one = (uint32_t)(127 + c->shift[0]) << 23;
    p->e2off = -c->shift[0];
    (void)pthread_once(&soa_once, soa_init);
    const struct us_sfu_coeffs *d = &us_sfu_default_coeffs[t];
    p->soa = soa_ok[t] && c->coef == d->coef && c->k == d->k &&
             c->degree == d->degree ? soa_tab[t][0] : NULL;
    return true;
}


/* reduce_revolutions() (sfu_lane.h) for a = |x|'s bits, 2^-12 <= |x| <
 * inf (any a gives some value): the window's 72 bits as 24-bit chunks
 * A B C of the words of 1/(2 pi) shifted by o, then
 *     prod >> 40 = M A 2^8 + ((M B + (M C >> 24)) >> 16)
 * (< 2^56; the products are 48 bits) and the rest of the shift, sh - 40
 * = max(0, -E).  revolutions8 and revolutions16 are this in 64-bit lanes;
 * the baseline build calls it lane by lane (SSE2 has no per-lane shift
 * counts). */
static inline uint32_t revolutions1(uint32_t a)
{
    uint64_t M = (a & 0x7fffffu) | MIN_NORMAL;
    int32_t E = (int32_t)(a >> 23) - 150;
    uint32_t pos = E > 0 ? (uint32_t)E : 0u;            /* j0 - 1, <= 105 */
    uint32_t rest = E < 0 ? (uint32_t)-E : 0u, w = pos >> 5, o = pos & 31;
    uint32_t t[3];
    for (unsigned k = 0; k < 3; k++)
        t[k] = us_sfu_inv2pi[w + k] << o |
               (o ? us_sfu_inv2pi[w + k + 1] >> (32 - o) : 0u);
    uint64_t A = t[0] >> 8, B = (t[0] & 0xff) << 16 | t[1] >> 16,
             C = (t[1] & 0xffff) << 8 | t[2] >> 24;
    uint64_t q = (M * A << 8) + ((M * B + (M * C >> 24)) >> 16);
    return rest < 64 ? (uint32_t)(q >> rest) : 0u;
}

/* ---- The builds ------------------------------------------------------- */

/* A build's vector types (sfu/sfu_batch_body.h): W 32-bit lanes, the W/2
 * doubles or 64-bit lanes of a half. */
#define VTYPES(w)                                                       \
    typedef uint32_t vu##w __attribute__((vector_size(4 * (w))));       \
    typedef int32_t vs##w __attribute__((vector_size(4 * (w))));        \
    typedef uint64_t vq##w __attribute__((vector_size(4 * (w))));       \
    typedef double vd##w __attribute__((vector_size(4 * (w))))

/* ---- x86-64 baseline (SSE2): 4 lanes ---------------------------------- */

#define W 4
#define V(name) name##4
#define TARGET
#define FN __attribute__((always_inline)) static inline
VTYPES(4);
typedef vu4 mask4;

FN mask4 gt4(vu4 a, vu4 b) { return (mask4)((vs4)a > (vs4)b); }

/* v > lo - 1 and not v > hi - 1 (signed, so x < 0 is outside) */
FN mask4 in4(vu4 v, uint32_t lo, uint32_t hi)
{
    return (mask4)_mm_andnot_si128((__m128i)gt4(v, (vu4){ 0 } + (hi - 1u)),
                                   (__m128i)gt4(v, (vu4){ 0 } + (lo - 1u)));
}

/* no blendv before SSE4.1; and, andnot, or (GCC's xor form of the
 * generic one is a longer chain: rcp 3% slower) */
FN vu4 sel4(mask4 m, vu4 a, vu4 b)
{
    return (vu4)_mm_or_si128(_mm_and_si128((__m128i)m, (__m128i)a),
                             _mm_andnot_si128((__m128i)m, (__m128i)b));
}

FN bool any4(mask4 m) { return _mm_movemask_epi8((__m128i)m) != 0; }

FN vu4 load4(const float *x, size_t left)
{
    if (left >= 4)
        return (vu4)_mm_loadu_si128((const __m128i *)x);
    float t[4] = { 0 };
    memcpy(t, x, left * sizeof *t);
    return (vu4)_mm_loadu_si128((const __m128i *)t);
}

FN void store4(float *out, vu4 v, size_t left)
{
    if (left >= 4) {
        _mm_storeu_si128((__m128i *)out, (__m128i)v);
    } else {
        float t[4];
        _mm_storeu_si128((__m128i *)t, (__m128i)v);
        memcpy(out, t, left * sizeof *t);
    }
}

FN vd4 i2d4(vu4 v, int h)
{
    return (vd4)_mm_cvtepi32_pd(h ? _mm_srli_si128((__m128i)v, 8) : (__m128i)v);
}

FN vd4 fma4(vd4 a, vd4 b, vd4 c) { return a * b + c; }

/* floor(v) for |v| < 2^51 without SSE4.1's roundpd: v + 1.5 2^52 - 1.5
 * 2^52 is v rounded to an integer (in any rounding mode), one less where
 * that went up. */
FN vd4 floor4(vd4 v)
{
    vd4 r = (v + 0x1.8p52) - 0x1.8p52;
    return r - (vd4)((vq4)(r > v) & (vq4)(vd4){ 1.0, 1.0 });
}

FN vd4 max4(vd4 a, vd4 b) { return (vd4)_mm_max_pd((__m128d)a, (__m128d)b); }
FN vd4 min4(vd4 a, vd4 b) { return (vd4)_mm_min_pd((__m128d)a, (__m128d)b); }

FN vu4 narrow4(vd4 lo, vd4 hi)
{
    const vq4 m = { ~(((uint64_t)1 << 29) - 1), ~(((uint64_t)1 << 29) - 1) };
    return (vu4)_mm_movelh_ps(_mm_cvtpd_ps((__m128d)((vq4)lo & m)),
                              _mm_cvtpd_ps((__m128d)((vq4)hi & m)));
}

FN void fixed4(vu4 u, vu4 *lo, vu4 *hi)
{
    __m128 xf = (__m128)u, y[2];
    for (int h = 0; h < 2; h++) {
        vd4 x = (vd4)_mm_cvtps_pd(h ? _mm_movehl_ps(xf, xf) : xf);
        y[h] = (__m128)(floor4(x * 0x1p32) + 0x1.8p52);
    }
    *lo = (vu4)_mm_shuffle_ps(y[0], y[1], _MM_SHUFFLE(2, 0, 2, 0));
    *hi = (vu4)_mm_shuffle_ps(y[0], y[1], _MM_SHUFFLE(3, 1, 3, 1));
}

/* The LUT read lane by lane (no gather), each coefficient of a half
 * where it is converted (the 16 registers: rcp 8% slower otherwise). */
struct coef4 {
    const int32_t *e[4];        /* lane l's C_0 */
};

FN void lut4(const struct plan *p, int D, unsigned K, vu4 seg, mask4 live,
             struct coef4 *C)
{
    (void)K, (void)live;
    for (int l = 0; l < 4; l++)
        C->e[l] = p->coef + seg[l] * (unsigned)(D + 1);
}

FN vd4 cof4(const struct coef4 *C, int i, int h)
{
    return (vd4)_mm_cvtepi32_pd(_mm_setr_epi32(C->e[2 * h][i], C->e[2 * h + 1][i], 0, 0));
}

/* SSE2 has no per-lane shift counts */
FN vu4 revolutions4(vu4 a)
{
    return (vu4){ revolutions1(a[0]), revolutions1(a[1]), revolutions1(a[2]),
                  revolutions1(a[3]) };
}

#include "sfu/sfu_batch_body.h"
#undef W
#undef V
#undef TARGET
#undef FN

/* ---- AVX2: 8 lanes ---------------------------------------------------- */

#define W 8
#define V(name) name##8
#define TARGET __attribute__((target("avx2")))
#define FN TARGET __attribute__((always_inline)) static inline
#define V_VECTOR_REVOLUTIONS
VTYPES(8);
typedef vu8 mask8;

FN mask8 gt8(vu8 a, vu8 b) { return (mask8)((vs8)a > (vs8)b); }

FN mask8 in8(vu8 v, uint32_t lo, uint32_t hi)
{
    return (mask8)_mm256_andnot_si256((__m256i)gt8(v, (vu8){ 0 } + (hi - 1u)),
                                      (__m256i)gt8(v, (vu8){ 0 } + (lo - 1u)));
}

FN vu8 sel8(mask8 m, vu8 a, vu8 b)
{
    return (vu8)_mm256_blendv_epi8((__m256i)b, (__m256i)a, (__m256i)m);
}

FN bool any8(mask8 m) { return !_mm256_testz_si256((__m256i)m, (__m256i)m); }

/* plain loads and stores but for the last lanes: Zen 4's vpmaskmovd
 * stores cost 0.8 ns an evaluation here */
FN __m256i tail8(size_t left)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)left),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

FN vu8 load8(const float *x, size_t left)
{
    return (vu8)(left >= 8 ? _mm256_loadu_si256((const __m256i *)x)
                           : _mm256_maskload_epi32((const int *)x, tail8(left)));
}

FN void store8(float *out, vu8 v, size_t left)
{
    if (left >= 8)
        _mm256_storeu_si256((__m256i *)out, (__m256i)v);
    else
        _mm256_maskstore_epi32((int *)out, tail8(left), (__m256i)v);
}

FN __m128i half8(vu8 v, int h)
{
    return h ? _mm256_extracti128_si256((__m256i)v, 1) : _mm256_castsi256_si128((__m256i)v);
}

FN vd8 i2d8(vu8 v, int h) { return (vd8)_mm256_cvtepi32_pd(half8(v, h)); }
FN vd8 fma8(vd8 a, vd8 b, vd8 c) { return a * b + c; }

FN vd8 floor8(vd8 v)
{
    return (vd8)_mm256_round_pd((__m256d)v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}

FN vd8 max8(vd8 a, vd8 b) { return (vd8)_mm256_max_pd((__m256d)a, (__m256d)b); }
FN vd8 min8(vd8 a, vd8 b) { return (vd8)_mm256_min_pd((__m256d)a, (__m256d)b); }

FN vu8 narrow8(vd8 lo, vd8 hi)
{
    const __m256i m = _mm256_set1_epi64x(-(1ll << 29));
    return (vu8)_mm256_set_m128(_mm256_cvtpd_ps((__m256d)((__m256i)hi & m)),
                                _mm256_cvtpd_ps((__m256d)((__m256i)lo & m)));
}

FN void fixed8(vu8 u, vu8 *lo, vu8 *hi)
{
    __m256 xf = (__m256)u;
    const __m256i ev_od = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    __m256i y[2];
    for (int h = 0; h < 2; h++) {
        __m128 xh = h ? _mm256_extractf128_ps(xf, 1) : _mm256_castps256_ps128(xf);
        vd8 X = floor8((vd8)_mm256_cvtps_pd(xh) * 0x1p32);
        y[h] = _mm256_permutevar8x32_epi32((__m256i)(X + 0x1.8p52), ev_od);
    }
    *lo = (vu8)_mm256_permute2x128_si256(y[0], y[1], 0x20);
    *hi = (vu8)_mm256_permute2x128_si256(y[0], y[1], 0x31);
}

/* Gathers, per half of the lanes: C0 and C1 are neighbours in the table,
 * one 64-bit element for both (16 elements for 8 lanes instead of 24
 * with 32-bit gathers: Zen 4 takes a gather's time per element). */
struct coef8 {
    __m128i c[2][US_SFU_MAX_DEGREE + 1];
};

FN void lut8(const struct plan *p, int D, unsigned K, vu8 seg, mask8 live,
             struct coef8 *C)
{
    (void)K, (void)live;
    vu8 idx = D == 2 ? seg + seg + seg : seg * (uint32_t)(D + 1);
    const __m256i ev_od = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    for (int h = 0; h < 2; h++) {
        vu8 q = (vu8)_mm256_permutevar8x32_epi32(
            _mm256_i32gather_epi64((const long long *)p->coef, half8(idx, h), 4), ev_od);
        C->c[h][0] = half8(q, 0);
        C->c[h][1] = half8(q, 1);
    }
    for (int i = 2; i <= D; i++) {
        vu8 c = (vu8)_mm256_i32gather_epi32(p->coef + i, (__m256i)idx, 4);
        C->c[0][i] = half8(c, 0);
        C->c[1][i] = half8(c, 1);
    }
}

FN vd8 cof8(const struct coef8 *C, int i, int h)
{
    return (vd8)_mm256_cvtepi32_pd(C->c[h][i]);
}

FN vu8 words8(vu8 i)
{
    return (vu8)_mm256_permutevar8x32_epi32(
        _mm256_loadu_si256((const __m256i *)us_sfu_inv2pi), (__m256i)i);
}

FN vu8 srlv8(vu8 v, vu8 n) { return (vu8)_mm256_srlv_epi32((__m256i)v, (__m256i)n); }
FN vq8 mulu8(vq8 a, vq8 b) { return (vq8)_mm256_mul_epu32((__m256i)a, (__m256i)b); }

#include "sfu/sfu_batch_body.h"
#undef W
#undef V
#undef TARGET
#undef FN

/* ---- AVX-512: 16 lanes ---------------------------------------------- */

#define W 16
#define V(name) name##16
#define TARGET __attribute__((target("avx512f,avx512dq,avx512vl,avx512cd")))
#define FN TARGET __attribute__((always_inline)) static inline
VTYPES(16);
typedef __mmask16 mask16;

FN mask16 gt16(vu16 a, vu16 b)
{
    return _mm512_cmpgt_epi32_mask((__m512i)a, (__m512i)b);
}

/* v - lo < hi - lo, unsigned */
FN mask16 in16(vu16 v, uint32_t lo, uint32_t hi)
{
    return _mm512_cmplt_epu32_mask((__m512i)(v - lo), _mm512_set1_epi32((int)(hi - lo)));
}

FN vu16 sel16(mask16 m, vu16 a, vu16 b)
{
    return (vu16)_mm512_mask_mov_epi32((__m512i)b, m, (__m512i)a);
}

FN bool any16(mask16 m) { return m != 0; }

FN vu16 load16(const float *x, size_t left)
{
    return (vu16)(left >= 16 ? _mm512_loadu_si512(x)
                             : _mm512_maskz_loadu_epi32((__mmask16)((1u << left) - 1u), x));
}

FN void store16(float *out, vu16 v, size_t left)
{
    if (left >= 16)
        _mm512_storeu_si512(out, (__m512i)v);
    else
        _mm512_mask_storeu_epi32(out, (__mmask16)((1u << left) - 1u), (__m512i)v);
}

FN vd16 i2d16(vu16 v, int h)
{
    return (vd16)_mm512_cvtepi32_pd(h ? _mm512_extracti64x4_epi64((__m512i)v, 1)
                                      : _mm512_castsi512_si256((__m512i)v));
}

/* the FMA's sum is exact: one rounding of it is none */
FN vd16 fma16(vd16 a, vd16 b, vd16 c)
{
    return (vd16)_mm512_fmadd_pd((__m512d)a, (__m512d)b, (__m512d)c);
}

FN vd16 floor16(vd16 v)
{
    return (vd16)_mm512_roundscale_pd((__m512d)v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
}

FN vd16 max16(vd16 a, vd16 b) { return (vd16)_mm512_max_pd((__m512d)a, (__m512d)b); }
FN vd16 min16(vd16 a, vd16 b) { return (vd16)_mm512_min_pd((__m512d)a, (__m512d)b); }

/* truncation clears the low 29 bits (narrow4's AND) */
FN vu16 narrow16(vd16 lo, vd16 hi)
{
    const int rz = _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;
    return (vu16)_mm512_insertf32x8(
        _mm512_castps256_ps512(_mm512_cvt_roundpd_ps((__m512d)lo, rz)),
        _mm512_cvt_roundpd_ps((__m512d)hi, rz), 1);
}

/* 1.5 2^52 + floor(x 2^32), exact: one rounding down of the exact sum to
 * the integers (|x 2^32| < 2^39 where not special) */
FN void fixed16(vu16 u, vu16 *lo, vu16 *hi)
{
    __m512 xf = (__m512)u;
    __m512i y[2];
    for (int h = 0; h < 2; h++) {
        __m256 xh = h ? _mm512_extractf32x8_ps(xf, 1) : _mm512_castps512_ps256(xf);
        y[h] = _mm512_castpd_si512(_mm512_fmadd_round_pd(
            _mm512_cvtps_pd(xh), _mm512_set1_pd(0x1p32), _mm512_set1_pd(0x1.8p52),
            _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    }
    const vu16 ev = { 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30 };
    *lo = (vu16)_mm512_permutex2var_epi32(y[0], (__m512i)ev, y[1]);
    *hi = (vu16)_mm512_permutex2var_epi32(y[0], (__m512i)(ev + 1), y[1]);
}

/* row[seg] for a row of 2^K entries (5 <= K <= 8): vpermt2d picks from
 * 32 entries by the index's low 5 bits, then blends on the higher bits. */
FN __m512i lut_perm16(const int32_t *row, __m512i seg, unsigned K)
{
    __m512i v[8];
    unsigned np = 1u << (K - 5);
    for (unsigned q = 0; q < np; q++)
        v[q] = _mm512_permutex2var_epi32(_mm512_load_si512(row + 32 * q), seg,
                                         _mm512_load_si512(row + 32 * q + 16));
    for (unsigned b = 5; b < K; b++) {
        __mmask16 m = _mm512_test_epi32_mask(seg, _mm512_set1_epi32((int)(1u << b)));
        np >>= 1;
        for (unsigned q = 0; q < np; q++)
            v[q] = _mm512_mask_blend_epi32(m, v[2 * q], v[2 * q + 1]);
    }
    return v[0];
}

/* The default tables by vpermt2d (soa_tab), others gathered. */
struct coef16 {
    vu16 c[US_SFU_MAX_DEGREE + 1];
};

FN void lut16(const struct plan *p, int D, unsigned K, vu16 seg, mask16 live,
              struct coef16 *C)
{
    if (K) {
        /* Neighbouring fragments read neighbouring segments: where the
         * live lanes share their 32-entry block (97% of the rsq groups
         * of bench/scenes/phong.scn), one vpermt2d a coefficient. */
        __m512i blk = (__m512i)(seg >> 5);
        __m128i b0 = _mm512_castsi512_si128(blk);
        if (!_mm512_mask_cmpneq_epi32_mask(live, blk,
                                           _mm512_broadcastd_epi32(b0))) {
            const int32_t *row = p->soa + 32 * _mm_cvtsi128_si32(b0);
            for (int i = 0; i <= D; i++)
                C->c[i] = (vu16)_mm512_permutex2var_epi32(
                    _mm512_load_si512(row + i * SOA_N), (__m512i)seg,
                    _mm512_load_si512(row + i * SOA_N + 16));
            return;
        }
        for (int i = 0; i <= D; i++)
            C->c[i] = (vu16)lut_perm16(p->soa + i * SOA_N, (__m512i)seg, K);
    } else {
        __m512i idx = (__m512i)(seg * (uint32_t)(D + 1));
        for (int i = 0; i <= D; i++)
            C->c[i] = (vu16)_mm512_i32gather_epi32(idx, p->coef + i, 4);
    }
}

FN vd16 cof16(const struct coef16 *C, int i, int h) { return i2d16(C->c[i], h); }

FN vu16 words16(vu16 i)
{
    return (vu16)_mm512_permutexvar_epi32((__m512i)i,
                                          _mm512_maskz_loadu_epi32(0x1ff, us_sfu_inv2pi));
}

FN vu16 srlv16(vu16 v, vu16 n) { return (vu16)_mm512_srlv_epi32((__m512i)v, (__m512i)n); }
FN vq16 mulu16(vq16 a, vq16 b) { return (vq16)_mm512_mul_epu32((__m512i)a, (__m512i)b); }

#include "sfu/sfu_batch_body.h"
#undef W
#undef V
#undef TARGET
#undef FN
#undef V_VECTOR_REVOLUTIONS

#endif

static bool have(enum us_sfu_isa isa)
{
    switch (isa) {
    case US_SFU_ISA_BASE:
        return true;
#ifdef HAVE_X86
    case US_SFU_ISA_AVX2:
        return __builtin_cpu_supports("avx2");
    case US_SFU_ISA_AVX512:
        return __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512cd");
#endif
    default:
        return false;
    }
}

bool us_sfu_eval_batch_isa(const struct us_sfu *sfu, enum us_sfu_isa isa,
                           enum us_sfu_func f, const float *restrict x,
                           float *restrict out, size_t n)
{
    if (isa == US_SFU_ISA_BEST)
        isa = have(US_SFU_ISA_AVX512) ? US_SFU_ISA_AVX512
            : have(US_SFU_ISA_AVX2) ? US_SFU_ISA_AVX2 : US_SFU_ISA_BASE;
    if (!have(isa))
        return false;
#ifdef HAVE_X86
    struct plan p;
    if ((unsigned)f < US_SFU_NFUNC && plan(sfu, f, &p)) {
        switch (isa) {
        case US_SFU_ISA_AVX512:
            loops16(&p, f, x, out, n);
            break;
        case US_SFU_ISA_AVX2:
            loops8(&p, f, x, out, n);
            break;
        default:
            loops4(&p, f, x, out, n);
            break;
        }
        return true;
    }
#endif
    /* a table the doubles cannot take exactly (plan()), or not x86-64 */
    for (size_t i = 0; i < n; i++)
        out[i] = us_sfu_eval(sfu, f, x[i]);
    return true;
}

void us_sfu_eval_batch(const struct us_sfu *sfu, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n)
{
    (void)us_sfu_eval_batch_isa(sfu, US_SFU_ISA_BEST, f, x, out, n);
}
