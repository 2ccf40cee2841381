/*
 * The SFU model over arrays of inputs (us_sfu_eval_batch, sfu/sfu.h):
 * us_sfu_eval's bits (sfu/sfu_lane.h defines them) computed another way,
 * in SIMD registers, built three times -- x86-64 baseline (SSE2, 4 lanes
 * an iteration), AVX2 (8) and AVX-512 (16) -- and chosen at run time;
 * us_sfu_eval_batch_isa runs one build (tests/unit/test_sfu_batch.c runs
 * every build the CPU has; tools/bench_sfu_batch times them).
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
    const int32_t *soa;         /* or soa[i SOA_N + s] (default tables), or NULL */
    unsigned deg;
    unsigned rest, tsh, kb;     /* seg = frac >> rest, T = frac >> tsh & tmask */
    uint32_t tmask;
    double scale[US_SFU_MAX_DEGREE];    /* 2^-sh_i */
    double w0;                  /* 2^s0: lg2's weight of e, sin/cos's 1 */
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
 * be exact (see the top).  want_soa: the caller can use soa_tab. */
static bool plan(const struct us_sfu *s, enum us_sfu_func f, bool want_soa,
                 struct plan *p)
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
    for (int i = 0; i < (int)c->degree; i++) {
        int sh = horner_shift(c, tbits, i);
        if (sh < -3 || sh > 52)
            return false;
        p->scale[i] = pow2(-sh);
    }
    if (c->shift[0] < 0 || c->shift[0] > 40)
        return false;
    p->w0 = pow2(c->shift[0]);
    p->e2off = -c->shift[0];
    p->soa = NULL;
    if (want_soa) {
        (void)pthread_once(&soa_once, soa_init);
        const struct us_sfu_coeffs *d = &us_sfu_default_coeffs[t];
        if (soa_ok[t] && c->coef == d->coef && c->k == d->k &&
            c->degree == d->degree)
            p->soa = soa_tab[t][0];
    }
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

/* ---- x86-64 baseline (SSE2): 4 lanes ---------------------------------- */

#define SSE2 __attribute__((always_inline)) static inline

/* reduce()'s results for 4 lanes: segment, T, e2 - s0, the result's
 * sign (rcp's, sin's, cos's), the special result and whether it is taken
 * (all ones or zero), lg2's e. */
struct red4 {
    __m128i seg, T, adj, sgn, res, spec, e;
};

SSE2 __m128i b4(uint32_t v) { return _mm_set1_epi32((int)v); }

SSE2 __m128i srl4(__m128i v, unsigned n)
{
    return _mm_srl_epi32(v, _mm_cvtsi32_si128((int)n));
}

/* m ? a : b, m all ones or zero per lane (no blendv before SSE4.1) */
SSE2 __m128i sel4(__m128i m, __m128i a, __m128i b)
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

/* floor(v) for |v| < 2^51 without SSE4.1's roundpd: v + 1.5 2^52 - 1.5
 * 2^52 is v rounded to an integer (in any rounding mode), one less where
 * that went up. */
SSE2 __m128d floor2(__m128d v)
{
    const __m128d M = _mm_set1_pd(0x1.8p52);
    __m128d r = _mm_sub_pd(_mm_add_pd(v, M), M);
    return _mm_sub_pd(r, _mm_and_pd(_mm_cmpgt_pd(r, v), _mm_set1_pd(1.0)));
}

/* The int32 lanes 2h, 2h + 1 of v as doubles. */
SSE2 __m128d cvt4(__m128i v, int h)
{
    return _mm_cvtepi32_pd(h ? _mm_srli_si128(v, 8) : v);
}

/* reduce() of 4 lanes (bits u): its tests in its order as selects, the
 * same segment and T; the other builds' reduce8 and reduce16 are this. */
SSE2 void reduce4(const struct plan *p, enum us_sfu_func F, __m128i u,
                  struct red4 *r)
{
    /* a < 2^31: signed compares with non-negative constants */
    const __m128i a = _mm_and_si128(u, b4(~SIGN));
    const __m128i sign = _mm_xor_si128(u, a);
    const __m128i zero = _mm_cmpgt_epi32(b4(MIN_NORMAL), a);
    const __m128i nan = _mm_cmpgt_epi32(a, b4(INF));
    const __m128i big = _mm_cmpgt_epi32(a, b4(INF - 1));          /* inf, nan */
    const __m128i neg = _mm_srai_epi32(u, 31);
    const uint32_t kmask = (1u << p->kb) - 1u;
    __m128i res, frac = a;
    r->sgn = _mm_setzero_si128();
    r->adj = b4((uint32_t)p->e2off);
    switch (F) {
    case US_SFU_RCP:
        r->spec = _mm_or_si128(zero, big);
        res = _mm_or_si128(sign, _mm_and_si128(zero, b4(INF)));
        r->sgn = sign;
        r->adj = _mm_sub_epi32(b4(127u + (uint32_t)p->e2off), _mm_srli_epi32(a, 23));
        r->seg = _mm_and_si128(srl4(a, p->rest), b4(kmask));
        break;
    case US_SFU_RSQ:
    case US_SFU_SQRT: {
        bool rsq = F == US_SFU_RSQ;
        r->spec = _mm_or_si128(_mm_or_si128(zero, big), neg);
        res = sel4(_mm_or_si128(nan, neg), b4(DEFAULT_NAN), b4(rsq ? 0 : INF));
        res = sel4(zero, rsq ? _mm_or_si128(sign, b4(INF)) : sign, res);
        /* (e - odd) / 2 = floor((bexp - 127) / 2) = ((bexp + 1) >> 1) - 64 */
        __m128i h = _mm_srli_epi32(_mm_add_epi32(a, b4(MIN_NORMAL)), 24);
        r->adj = rsq ? _mm_sub_epi32(b4(64u + (uint32_t)p->e2off), h)
                     : _mm_add_epi32(h, b4((uint32_t)p->e2off - 64u));
        /* the index bit above the fraction's is odd = !(bexp & 1), the
         * bit of a just above its fraction, flipped */
        r->seg = _mm_xor_si128(_mm_and_si128(srl4(a, p->rest), b4(2 * kmask + 1)),
                               b4(kmask + 1));
        break;
    }
    case US_SFU_LG2:
        r->spec = _mm_or_si128(_mm_or_si128(zero, big), neg);
        res = sel4(_mm_or_si128(nan, neg), b4(DEFAULT_NAN), b4(INF));
        res = sel4(zero, b4(SIGN | INF), res);
        r->e = _mm_sub_epi32(_mm_srli_epi32(a, 23), b4(127));
        r->seg = _mm_and_si128(srl4(a, p->rest), b4(kmask));
        break;
    case US_SFU_SIN:
    case US_SFU_COS: {
        bool cos = F == US_SFU_COS;
        /* nan, inf; |x| < 2^-12 (or zero): sin x = x, cos x = 1 */
        r->spec = _mm_or_si128(big, _mm_cmpgt_epi32(b4(0x39800000u), a));
        res = cos ? b4(ONE) : sel4(zero, sign, u);
        res = sel4(big, b4(DEFAULT_NAN), res);
        uint32_t al[4], R[4];
        _mm_storeu_si128((__m128i *)al, a);
        for (int l = 0; l < 4; l++)
            R[l] = revolutions1(al[l]);
        __m128i Rv = _mm_loadu_si128((const __m128i *)R);
        /* the quadrant q (cos: + 1); v = u, or ~u (30 bits) where q is
         * odd; the sign from q's bit 1 (sin: and x's) */
        __m128i q = _mm_add_epi32(_mm_srli_epi32(Rv, 30), b4(cos));
        __m128i odd = _mm_cmpeq_epi32(_mm_and_si128(q, b4(1)), b4(1));
        frac = _mm_xor_si128(_mm_and_si128(Rv, b4(0x3fffffff)),
                             _mm_and_si128(odd, b4(0x3fffffff)));
        r->sgn = _mm_and_si128(_mm_slli_epi32(q, 30), b4(SIGN));
        if (!cos)
            r->sgn = _mm_xor_si128(r->sgn, sign);
        r->seg = srl4(frac, p->rest);
        break;
    }
    default: {                                /* US_SFU_EX2 */
        r->spec = _mm_or_si128(zero, _mm_cmpgt_epi32(a, b4(0x43000000u - 1)));
        res = _mm_andnot_si128(neg, b4(INF));
        res = sel4(zero, b4(ONE), res);
        /* X = floor(x 2^32) (exact, |X| < 2^39 where not special) in
         * 1.5 2^52 + X: f is its low word, i = X >> 32 its high word less
         * 0x43380000 */
        __m128 xf = _mm_castsi128_ps(u);
        __m128 y[2];
        for (int h = 0; h < 2; h++) {
            __m128d X = floor2(_mm_mul_pd(_mm_cvtps_pd(h ? _mm_movehl_ps(xf, xf) : xf),
                                          _mm_set1_pd(0x1p32)));
            y[h] = _mm_castpd_ps(_mm_add_pd(X, _mm_set1_pd(0x1.8p52)));
        }
        frac = _mm_castps_si128(_mm_shuffle_ps(y[0], y[1], _MM_SHUFFLE(2, 0, 2, 0)));
        r->adj = _mm_sub_epi32(_mm_castps_si128(_mm_shuffle_ps(y[0], y[1],
                                                               _MM_SHUFFLE(3, 1, 3, 1))),
                               b4(0x43380000u - (uint32_t)p->e2off));
        r->seg = srl4(frac, p->rest);
        break;
    }
    }
    r->res = sel4(nan, b4(DEFAULT_NAN), res);
    r->T = _mm_and_si128(srl4(frac, p->tsh), b4(p->tmask));
}

/* The LUT read, Horner and pack (see the top) of 4 reduced lanes. */
SSE2 __m128i finish4(const struct plan *p, enum us_sfu_func F, int D,
                     const struct red4 *r)
{
    /* the LUT read lane by lane (no gather) */
    uint32_t seg[4];
    _mm_storeu_si128((__m128i *)seg, r->seg);
    const int32_t *e[4];
    for (int l = 0; l < 4; l++)
        e[l] = p->coef + seg[l] * (unsigned)(D + 1);
    __m128i C[US_SFU_MAX_DEGREE + 1];
    for (int i = 0; i <= D; i++)
        C[i] = _mm_setr_epi32(e[0][i], e[1][i], e[2][i], e[3][i]);
    __m128 fl[2];
    for (int h = 0; h < 2; h++) {
        __m128d T = cvt4(r->T, h);
        __m128d acc = cvt4(C[D], h);
        for (int i = D - 1; i >= 0; i--) {
            __m128d y = _mm_add_pd(_mm_mul_pd(acc, _mm_mul_pd(T, _mm_set1_pd(p->scale[i]))),
                                   _mm_set1_pd(0.5));
            acc = _mm_add_pd(floor2(y), cvt4(C[i], h));
        }
        if (F == US_SFU_LG2)
            acc = _mm_add_pd(acc, _mm_mul_pd(cvt4(r->e, h), _mm_set1_pd(p->w0)));
        else if (F == US_SFU_SIN || F == US_SFU_COS)
            acc = _mm_min_pd(_mm_max_pd(acc, _mm_setzero_pd()), _mm_set1_pd(p->w0));
        else
            acc = _mm_max_pd(acc, _mm_setzero_pd());
        __m128i b = _mm_and_si128(_mm_add_epi64(_mm_castpd_si128(acc),
                                                _mm_set1_epi64x(1ll << 28)),
                                  _mm_set1_epi64x(-(1ll << 29)));
        fl[h] = _mm_cvtpd_ps(_mm_castsi128_pd(b));      /* exact */
    }
    /* fb * 2^adj: the exponent field E + adj, FTZ below 1 (and for 0),
     * infinity above 254 */
    __m128i fb = _mm_castps_si128(_mm_movelh_ps(fl[0], fl[1]));
    __m128i sgn = F == US_SFU_LG2 ? _mm_and_si128(fb, b4(SIGN)) : r->sgn;
    __m128i E = F == US_SFU_LG2 ? _mm_and_si128(_mm_srli_epi32(fb, 23), b4(0xff))
                                : _mm_srli_epi32(fb, 23);
    __m128i eb = _mm_add_epi32(E, r->adj);
    __m128i v = _mm_or_si128(_mm_add_epi32(fb, _mm_slli_epi32(r->adj, 23)), sgn);
    v = sel4(_mm_cmpgt_epi32(eb, b4(254)), _mm_or_si128(sgn, b4(INF)), v);
    v = sel4(_mm_or_si128(_mm_cmpgt_epi32(b4(1), eb),
                          _mm_cmpeq_epi32(E, _mm_setzero_si128())), sgn, v);
    return sel4(r->spec, r->res, v);
}

/* x[0..n-1] of function F (a constant, as D: the switches fold); the
 * plan copied so that the stores to out cannot change it (they could
 * alias it, for the compiler: it would reload it every iteration). */
SSE2 void run4(const struct plan *pp,
               enum us_sfu_func F, int D, const float *x, float *out, size_t n)
{
    const struct plan P = *pp, *p = &P;
    for (size_t i = 0; i < n; i += 4) {
        size_t left = n - i;
        struct red4 r;
        if (left >= 4) {
            reduce4(p, F, _mm_loadu_si128((const __m128i *)(x + i)), &r);
        } else {
            float t[4] = { 0 };
            memcpy(t, x + i, left * sizeof *t);
            reduce4(p, F, _mm_loadu_si128((const __m128i *)t), &r);
        }
        /* every lane special (lg2(0), ex2(-inf), ...; the lanes past n
         * read +0, special for every function): no LUT read, no Horner */
        __m128i v = _mm_movemask_epi8(r.spec) == 0xffff ? r.res : finish4(p, F, D, &r);
        if (left >= 4) {
            _mm_storeu_si128((__m128i *)(out + i), v);
        } else {
            float t[4];
            _mm_storeu_si128((__m128i *)t, v);
            memcpy(out + i, t, left * sizeof *t);
        }
    }
}

static void loops_base(const struct plan *p, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n)
{
#define CASE(F)                                                            \
    case F:                                                                \
        if (p->deg == 2)                                                   \
            run4(p, F, 2, x, out, n);                                   \
        else                                                               \
            run4(p, F, (int)p->deg, x, out, n);                         \
        break;
    switch (f) {
    CASE(US_SFU_RCP) CASE(US_SFU_RSQ) CASE(US_SFU_SQRT) CASE(US_SFU_LG2)
    CASE(US_SFU_EX2) CASE(US_SFU_SIN) CASE(US_SFU_COS)
    default: break;
    }
#undef CASE
}

/* ---- AVX2: 8 lanes ---------------------------------------------------- */

#define AVX2 __attribute__((target("avx2"), always_inline)) static inline

struct red8 {                    /* struct red4's, 8 lanes, lg2's e 2^s0 */
    __m256i seg, T, adj, sgn, res, spec;
    __m256d ew[2];                            /* for lanes 0-3, 4-7 */
};

AVX2 __m256i b8(uint32_t v) { return _mm256_set1_epi32((int)v); }

AVX2 __m256i srl8(__m256i v, unsigned n)
{
    return _mm256_srl_epi32(v, _mm_cvtsi32_si128((int)n));
}

/* m ? a : b, m all ones or zero per lane */
AVX2 __m256i sel8(__m256i m, __m256i a, __m256i b)
{
    return _mm256_blendv_epi8(b, a, m);
}

AVX2 __m128i half8(__m256i v, int h)
{
    return h ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
}

/* revolutions1 of 8 lanes (the lanes need words 0..6 of 1/(2 pi)). */
AVX2 __m256i revolutions8(__m256i a)
{
    const __m256i words = _mm256_loadu_si256((const __m256i *)us_sfu_inv2pi);
    __m256i M = _mm256_or_si256(_mm256_and_si256(a, b8(0x7fffff)), b8(MIN_NORMAL));
    __m256i E = _mm256_sub_epi32(_mm256_srli_epi32(a, 23), b8(150));
    __m256i pos = _mm256_max_epi32(E, _mm256_setzero_si256());     /* j0 - 1 */
    __m256i rest = _mm256_max_epi32(_mm256_sub_epi32(_mm256_setzero_si256(), E),
                                    _mm256_setzero_si256());
    __m256i w = _mm256_srli_epi32(pos, 5), o = _mm256_and_si256(pos, b8(31));
    __m256i o2 = _mm256_sub_epi32(b8(32), o);           /* 32: a shift to 0 */
    __m256i v[4], t[3];
    for (int k = 0; k < 4; k++)
        v[k] = _mm256_permutevar8x32_epi32(words, _mm256_add_epi32(w, b8((uint32_t)k)));
    for (int k = 0; k < 3; k++)
        t[k] = _mm256_or_si256(_mm256_sllv_epi32(v[k], o), _mm256_srlv_epi32(v[k + 1], o2));
    __m256i A = _mm256_srli_epi32(t[0], 8);
    __m256i B = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(t[0], b8(0xff)), 16),
                                _mm256_srli_epi32(t[1], 16));
    __m256i C = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(t[1], b8(0xffff)), 8),
                                _mm256_srli_epi32(t[2], 24));
    __m256i R[2];
    for (int h = 0; h < 2; h++) {            /* the even lanes, the odd */
        __m256i m = h ? _mm256_srli_epi64(M, 32) : M;
        __m256i ma = _mm256_mul_epu32(m, h ? _mm256_srli_epi64(A, 32) : A);
        __m256i mb = _mm256_mul_epu32(m, h ? _mm256_srli_epi64(B, 32) : B);
        __m256i mc = _mm256_mul_epu32(m, h ? _mm256_srli_epi64(C, 32) : C);
        __m256i q = _mm256_add_epi64(_mm256_slli_epi64(ma, 8),
                                     _mm256_srli_epi64(_mm256_add_epi64(mb, _mm256_srli_epi64(mc, 24)), 16));
        R[h] = _mm256_srlv_epi64(q, h ? _mm256_srli_epi64(rest, 32)
                                      : _mm256_and_si256(rest, _mm256_set1_epi64x(0xffffffff)));
    }
    return _mm256_blend_epi32(R[0], _mm256_slli_epi64(R[1], 32), 0xaa);
}

AVX2 void reduce8(const struct plan *p, enum us_sfu_func F, __m256i u,
                  struct red8 *r)
{
    /* a < 2^31: signed compares with non-negative constants */
    const __m256i a = _mm256_and_si256(u, b8(~SIGN));
    const __m256i sign = _mm256_xor_si256(u, a);
    const __m256i zero = _mm256_cmpgt_epi32(b8(MIN_NORMAL), a);
    const __m256i nan = _mm256_cmpgt_epi32(a, b8(INF));
    const __m256i big = _mm256_cmpgt_epi32(a, b8(INF - 1));       /* inf, nan */
    const __m256i neg = _mm256_srai_epi32(u, 31);
    const uint32_t kmask = (1u << p->kb) - 1u;
    __m256i res, frac = a;
    r->sgn = _mm256_setzero_si256();
    r->adj = b8((uint32_t)p->e2off);
    switch (F) {
    case US_SFU_RCP:
        r->spec = _mm256_or_si256(zero, big);
        res = _mm256_or_si256(sign, _mm256_and_si256(zero, b8(INF)));
        r->sgn = sign;
        r->adj = _mm256_sub_epi32(b8(127u + (uint32_t)p->e2off),
                                  _mm256_srli_epi32(a, 23));
        r->seg = _mm256_and_si256(srl8(a, p->rest), b8(kmask));
        break;
    case US_SFU_RSQ:
    case US_SFU_SQRT: {
        bool rsq = F == US_SFU_RSQ;
        r->spec = _mm256_or_si256(_mm256_or_si256(zero, big), neg);
        res = sel8(_mm256_or_si256(nan, neg), b8(DEFAULT_NAN), b8(rsq ? 0 : INF));
        res = sel8(zero, rsq ? _mm256_or_si256(sign, b8(INF)) : sign, res);
        __m256i h = _mm256_srli_epi32(_mm256_add_epi32(a, b8(MIN_NORMAL)), 24);
        r->adj = rsq ? _mm256_sub_epi32(b8(64u + (uint32_t)p->e2off), h)
                     : _mm256_add_epi32(h, b8((uint32_t)p->e2off - 64u));
        r->seg = _mm256_xor_si256(_mm256_and_si256(srl8(a, p->rest),
                                                   b8(2 * kmask + 1)),
                                  b8(kmask + 1));
        break;
    }
    case US_SFU_LG2:
        r->spec = _mm256_or_si256(_mm256_or_si256(zero, big), neg);
        res = sel8(_mm256_or_si256(nan, neg), b8(DEFAULT_NAN), b8(INF));
        res = sel8(zero, b8(SIGN | INF), res);
        /* as a double here, before the gathers: with 16 registers,
         * lg2 3.37 -> 3.04 ns */
        for (int h = 0; h < 2; h++)
            r->ew[h] = _mm256_mul_pd(
                _mm256_cvtepi32_pd(half8(_mm256_sub_epi32(_mm256_srli_epi32(a, 23),
                                                          b8(127)), h)),
                _mm256_set1_pd(p->w0));
        r->seg = _mm256_and_si256(srl8(a, p->rest), b8(kmask));
        break;
    case US_SFU_SIN:
    case US_SFU_COS: {
        bool cos = F == US_SFU_COS;
        /* nan, inf; |x| < 2^-12 (or zero): sin x = x, cos x = 1 */
        r->spec = _mm256_or_si256(big, _mm256_cmpgt_epi32(b8(0x39800000u), a));
        res = cos ? b8(ONE) : sel8(zero, sign, u);
        res = sel8(big, b8(DEFAULT_NAN), res);
        __m256i R = revolutions8(a);
        __m256i q = _mm256_add_epi32(_mm256_srli_epi32(R, 30), b8(cos));
        __m256i odd = _mm256_cmpeq_epi32(_mm256_and_si256(q, b8(1)), b8(1));
        /* v = u, or ~u (30 bits) in the odd quadrants */
        frac = _mm256_xor_si256(_mm256_and_si256(R, b8(0x3fffffff)),
                                _mm256_and_si256(odd, b8(0x3fffffff)));
        r->sgn = _mm256_and_si256(_mm256_slli_epi32(q, 30), b8(SIGN));
        if (!cos)
            r->sgn = _mm256_xor_si256(r->sgn, sign);
        r->seg = srl8(frac, p->rest);
        break;
    }
    default: {                                /* US_SFU_EX2 */
        r->spec = _mm256_or_si256(zero, _mm256_cmpgt_epi32(a, b8(0x43000000u - 1)));
        res = _mm256_andnot_si256(neg, b8(INF));
        res = sel8(zero, b8(ONE), res);
        /* 1.5 2^52 + floor(x 2^32): x 2^32 is exact, so is its floor,
         * and the sum (< 2^39 in magnitude where not special) */
        __m256 xf = _mm256_castsi256_ps(u);
        const __m256i ev_od = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
        __m256i y[2];
        for (int h = 0; h < 2; h++) {
            __m128 xh = h ? _mm256_extractf128_ps(xf, 1) : _mm256_castps256_ps128(xf);
            __m256d X = _mm256_round_pd(_mm256_mul_pd(_mm256_cvtps_pd(xh),
                                                      _mm256_set1_pd(0x1p32)),
                                        _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
            y[h] = _mm256_permutevar8x32_epi32(
                _mm256_castpd_si256(_mm256_add_pd(X, _mm256_set1_pd(0x1.8p52))), ev_od);
        }
        frac = _mm256_permute2x128_si256(y[0], y[1], 0x20);
        r->adj = _mm256_sub_epi32(_mm256_permute2x128_si256(y[0], y[1], 0x31),
                                  b8(0x43380000u - (uint32_t)p->e2off));
        r->seg = srl8(frac, p->rest);
        break;
    }
    }
    r->res = sel8(nan, b8(DEFAULT_NAN), res);
    r->T = _mm256_and_si256(srl8(frac, p->tsh), b8(p->tmask));
}

/* finish4 of 8 lanes. */
AVX2 __m256i finish8(const struct plan *p, enum us_sfu_func F, int D,
                     const struct red8 *r)
{
    /* C0 and C1 are neighbours in the table: one 64-bit gather of both
     * for 4 lanes (16 elements for 8 lanes instead of 24 with 32-bit
     * gathers: Zen 4 takes a gather's time per element) */
    __m256i idx = D == 2 ? _mm256_add_epi32(r->seg, _mm256_add_epi32(r->seg, r->seg))
                         : _mm256_mullo_epi32(r->seg, b8((uint32_t)D + 1));
    __m128i C[2][US_SFU_MAX_DEGREE + 1];
    const __m256i ev_od = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    for (int h = 0; h < 2; h++) {
        __m256i q = _mm256_permutevar8x32_epi32(
            _mm256_i32gather_epi64((const long long *)p->coef, half8(idx, h), 4), ev_od);
        C[h][0] = _mm256_castsi256_si128(q);
        C[h][1] = _mm256_extracti128_si256(q, 1);
    }
    for (int i = 2; i <= D; i++) {
        __m256i c = _mm256_i32gather_epi32(p->coef + i, idx, 4);
        C[0][i] = half8(c, 0);
        C[1][i] = half8(c, 1);
    }
    __m128 fl[2];
    for (int h = 0; h < 2; h++) {
        __m256d T = _mm256_cvtepi32_pd(half8(r->T, h));
        __m256d acc = _mm256_cvtepi32_pd(C[h][D]);
        for (int i = D - 1; i >= 0; i--) {
            __m256d y = _mm256_add_pd(_mm256_mul_pd(acc, _mm256_mul_pd(T, _mm256_set1_pd(p->scale[i]))),
                                      _mm256_set1_pd(0.5));
            acc = _mm256_add_pd(_mm256_round_pd(y, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC),
                                _mm256_cvtepi32_pd(C[h][i]));
        }
        if (F == US_SFU_LG2)
            acc = _mm256_add_pd(acc, r->ew[h]);
        else if (F == US_SFU_SIN || F == US_SFU_COS)
            acc = _mm256_min_pd(_mm256_max_pd(acc, _mm256_setzero_pd()),
                                _mm256_set1_pd(p->w0));
        else
            acc = _mm256_max_pd(acc, _mm256_setzero_pd());
        __m256i b = _mm256_and_si256(_mm256_add_epi64(_mm256_castpd_si256(acc),
                                                      _mm256_set1_epi64x(1ll << 28)),
                                     _mm256_set1_epi64x(-(1ll << 29)));
        fl[h] = _mm256_cvtpd_ps(_mm256_castsi256_pd(b));
    }
    __m256i fb = _mm256_castps_si256(_mm256_set_m128(fl[1], fl[0]));
    __m256i sgn = F == US_SFU_LG2 ? _mm256_and_si256(fb, b8(SIGN)) : r->sgn;
    __m256i E = F == US_SFU_LG2 ? _mm256_and_si256(_mm256_srli_epi32(fb, 23), b8(0xff))
                                : _mm256_srli_epi32(fb, 23);
    __m256i eb = _mm256_add_epi32(E, r->adj);
    __m256i v = _mm256_or_si256(_mm256_add_epi32(fb, _mm256_slli_epi32(r->adj, 23)), sgn);
    v = sel8(_mm256_cmpgt_epi32(eb, b8(254)), _mm256_or_si256(sgn, b8(INF)), v);
    v = sel8(_mm256_or_si256(_mm256_cmpgt_epi32(b8(1), eb),
                             _mm256_cmpeq_epi32(E, _mm256_setzero_si256())), sgn, v);
    return sel8(r->spec, r->res, v);
}

AVX2 void run8(const struct plan *pp,
               enum us_sfu_func F, int D, const float *x, float *out, size_t n)
{
    const struct plan P = *pp, *p = &P;
    for (size_t i = 0; i < n; i += 8) {
        size_t left = n - i;
        struct red8 r;
        /* plain loads and stores but for the last lanes: Zen 4's
         * vpmaskmovd stores cost 0.8 ns an evaluation here */
        __m256i m = _mm256_cmpgt_epi32(b8(left < 8 ? (uint32_t)left : 8u),
                                       _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        reduce8(p, F, left >= 8 ? _mm256_loadu_si256((const __m256i *)(x + i))
                                : _mm256_maskload_epi32((const int *)(x + i), m),
                &r);
        __m256i v = _mm256_testc_si256(r.spec, _mm256_set1_epi32(-1))
                  ? r.res : finish8(p, F, D, &r);
        if (left >= 8)
            _mm256_storeu_si256((__m256i *)(out + i), v);
        else
            _mm256_maskstore_epi32((int *)(out + i), m, v);
    }
}

__attribute__((target("avx2")))
static void loops_avx2(const struct plan *p,
                       enum us_sfu_func f, const float *restrict x,
                       float *restrict out, size_t n)
{
#define CASE(F)                                                            \
    case F:                                                                \
        if (p->deg == 2)                                                   \
            run8(p, F, 2, x, out, n);                                   \
        else                                                               \
            run8(p, F, (int)p->deg, x, out, n);                         \
        break;
    switch (f) {
    CASE(US_SFU_RCP) CASE(US_SFU_RSQ) CASE(US_SFU_SQRT) CASE(US_SFU_LG2)
    CASE(US_SFU_EX2) CASE(US_SFU_SIN) CASE(US_SFU_COS)
    default: break;
    }
#undef CASE
}

/* ---- AVX-512: 16 lanes ---------------------------------------------- */

#define AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512cd"), \
                              always_inline)) static inline

struct red16 {                                /* struct red4's, 16 lanes */
    __m512i seg, T, adj, sgn, res, e;
    __mmask16 spec;
};

AVX512 __m512i b16(uint32_t v) { return _mm512_set1_epi32((int)v); }

AVX512 __m512i srl16(__m512i v, unsigned n)
{
    return _mm512_srl_epi32(v, _mm_cvtsi32_si128((int)n));
}

AVX512 __m256i half16(__m512i v, int h)
{
    return h ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v);
}

/* Lanes whose bits u (as unsigned) lie in [lo, hi) */
AVX512 __mmask16 in16(__m512i u, uint32_t lo, uint32_t hi)
{
    return _mm512_cmplt_epu32_mask(_mm512_sub_epi32(u, b16(lo)), b16(hi - lo));
}

/* revolutions8 of 16 lanes. */
AVX512 __m512i revolutions16(__m512i a)
{
    const __m512i words = _mm512_maskz_loadu_epi32(0x1ff, us_sfu_inv2pi);
    __m512i M = _mm512_or_si512(_mm512_and_si512(a, b16(0x7fffff)), b16(MIN_NORMAL));
    __m512i E = _mm512_sub_epi32(_mm512_srli_epi32(a, 23), b16(150));
    __m512i pos = _mm512_max_epi32(E, _mm512_setzero_si512());     /* j0 - 1 */
    __m512i rest = _mm512_max_epi32(_mm512_sub_epi32(_mm512_setzero_si512(), E),
                                    _mm512_setzero_si512());
    __m512i w = _mm512_srli_epi32(pos, 5), o = _mm512_and_si512(pos, b16(31));
    __m512i o2 = _mm512_sub_epi32(b16(32), o);          /* 32: a shift to 0 */
    __m512i v[4], t[3];
    for (int k = 0; k < 4; k++)
        v[k] = _mm512_permutexvar_epi32(_mm512_add_epi32(w, b16((uint32_t)k)), words);
    for (int k = 0; k < 3; k++)
        t[k] = _mm512_or_si512(_mm512_sllv_epi32(v[k], o), _mm512_srlv_epi32(v[k + 1], o2));
    __m512i A = _mm512_srli_epi32(t[0], 8);
    __m512i B = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(t[0], b16(0xff)), 16),
                                _mm512_srli_epi32(t[1], 16));
    __m512i C = _mm512_or_si512(_mm512_slli_epi32(_mm512_and_si512(t[1], b16(0xffff)), 8),
                                _mm512_srli_epi32(t[2], 24));
    __m512i R[2];
    for (int h = 0; h < 2; h++) {            /* the even lanes, the odd */
        __m512i m = h ? _mm512_srli_epi64(M, 32) : M;
        __m512i ma = _mm512_mul_epu32(m, h ? _mm512_srli_epi64(A, 32) : A);
        __m512i mb = _mm512_mul_epu32(m, h ? _mm512_srli_epi64(B, 32) : B);
        __m512i mc = _mm512_mul_epu32(m, h ? _mm512_srli_epi64(C, 32) : C);
        __m512i q = _mm512_add_epi64(_mm512_slli_epi64(ma, 8),
                                     _mm512_srli_epi64(_mm512_add_epi64(mb, _mm512_srli_epi64(mc, 24)), 16));
        R[h] = _mm512_srlv_epi64(q, h ? _mm512_srli_epi64(rest, 32)
                                      : _mm512_and_si512(rest, _mm512_set1_epi64(0xffffffff)));
    }
    return _mm512_mask_blend_epi32(0xaaaa, R[0], _mm512_slli_epi64(R[1], 32));
}

AVX512 void reduce16(const struct plan *p, enum us_sfu_func F, __m512i u,
                     struct red16 *r)
{
    const __m512i a = _mm512_and_si512(u, b16(~SIGN));
    const __m512i sign = _mm512_xor_si512(u, a);
    const __mmask16 zero = _mm512_cmplt_epu32_mask(a, b16(MIN_NORMAL));
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(a, b16(INF));
    const uint32_t kmask = (1u << p->kb) - 1u;
    __m512i res, frac = a;
    r->sgn = _mm512_setzero_si512();
    r->adj = b16((uint32_t)p->e2off);
    switch (F) {
    case US_SFU_RCP:
        r->spec = ~in16(a, MIN_NORMAL, INF);
        res = _mm512_mask_or_epi32(sign, zero, sign, b16(INF));
        r->sgn = sign;
        /* -e - s0 */
        r->adj = _mm512_sub_epi32(b16(127u + (uint32_t)p->e2off),
                                  _mm512_srli_epi32(a, 23));
        r->seg = _mm512_and_si512(srl16(a, p->rest), b16(kmask));
        break;
    case US_SFU_RSQ:
    case US_SFU_SQRT: {
        bool rsq = F == US_SFU_RSQ;
        r->spec = ~in16(u, MIN_NORMAL, INF);
        res = _mm512_mask_mov_epi32(b16(rsq ? 0 : INF),
                                    _mm512_cmpgt_epu32_mask(u, b16(INF)),
                                    b16(DEFAULT_NAN));
        res = _mm512_mask_mov_epi32(res, zero,
                                    rsq ? _mm512_or_si512(sign, b16(INF)) : sign);
        /* (e - odd) / 2 = floor((bexp - 127) / 2) = ((bexp + 1) >> 1) - 64 */
        __m512i h = _mm512_srli_epi32(_mm512_add_epi32(a, b16(MIN_NORMAL)), 24);
        r->adj = rsq ? _mm512_sub_epi32(b16(64u + (uint32_t)p->e2off), h)
                     : _mm512_add_epi32(h, b16((uint32_t)p->e2off - 64u));
        /* the exponent's parity bit above the index: odd = !(bexp & 1) */
        r->seg = _mm512_xor_si512(_mm512_and_si512(srl16(a, p->rest),
                                                   b16(2 * kmask + 1)),
                                  b16(kmask + 1));
        break;
    }
    case US_SFU_LG2:
        r->spec = ~in16(u, MIN_NORMAL, INF);
        res = _mm512_mask_mov_epi32(b16(INF), _mm512_cmpgt_epu32_mask(u, b16(INF)),
                                    b16(DEFAULT_NAN));
        res = _mm512_mask_mov_epi32(res, zero, b16(SIGN | INF));
        r->e = _mm512_sub_epi32(_mm512_srli_epi32(a, 23), b16(127));
        r->seg = _mm512_and_si512(srl16(a, p->rest), b16(kmask));
        break;
    case US_SFU_SIN:
    case US_SFU_COS: {
        bool cos = F == US_SFU_COS;
        r->spec = ~in16(a, 0x39800000u, INF);
        res = cos ? b16(ONE) : _mm512_mask_mov_epi32(u, zero, sign);
        res = _mm512_mask_mov_epi32(res, _mm512_cmpeq_epi32_mask(a, b16(INF)),
                                    b16(DEFAULT_NAN));
        __m512i R = revolutions16(a);
        __m512i q = _mm512_add_epi32(_mm512_srli_epi32(R, 30), b16(cos));
        frac = _mm512_and_si512(R, b16(0x3fffffff));
        frac = _mm512_mask_xor_epi32(frac, _mm512_test_epi32_mask(q, b16(1)), frac,
                                     b16(0x3fffffff));
        r->sgn = _mm512_and_si512(_mm512_slli_epi32(q, 30), b16(SIGN));
        if (!cos)
            r->sgn = _mm512_xor_si512(r->sgn, sign);
        r->seg = srl16(frac, p->rest);
        break;
    }
    default: {                                /* US_SFU_EX2 */
        r->spec = ~in16(a, MIN_NORMAL, 0x43000000u);
        res = _mm512_andnot_si512(_mm512_srai_epi32(u, 31), b16(INF));
        res = _mm512_mask_mov_epi32(res, zero, b16(ONE));
        /* 1.5 2^52 + floor(x 2^32), exact: one rounding down of the exact
         * sum to the integers (|x 2^32| < 2^39 where not special) */
        __m512 xf = _mm512_castsi512_ps(u);
        __m512i y[2];
        for (int h = 0; h < 2; h++) {
            __m256 xh = h ? _mm512_extractf32x8_ps(xf, 1) : _mm512_castps512_ps256(xf);
            y[h] = _mm512_castpd_si512(_mm512_fmadd_round_pd(
                _mm512_cvtps_pd(xh), _mm512_set1_pd(0x1p32), _mm512_set1_pd(0x1.8p52),
                _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
        }
        const __m512i ev = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
                                             20, 22, 24, 26, 28, 30);
        const __m512i od = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19,
                                             21, 23, 25, 27, 29, 31);
        frac = _mm512_permutex2var_epi32(y[0], ev, y[1]);
        r->adj = _mm512_sub_epi32(_mm512_permutex2var_epi32(y[0], od, y[1]),
                                  b16(0x43380000u - (uint32_t)p->e2off));
        r->seg = srl16(frac, p->rest);
        break;
    }
    }
    r->res = _mm512_mask_mov_epi32(res, nan, b16(DEFAULT_NAN));
    r->T = _mm512_and_si512(srl16(frac, p->tsh), b16(p->tmask));
}

/* row[seg] for a row of 2^K entries (5 <= K <= 8): vpermt2d picks from
 * 32 entries by the index's low 5 bits, then blends on the higher bits. */
AVX512 __m512i lut_perm16(const int32_t *row, __m512i seg, unsigned K)
{
    __m512i v[8];
    unsigned np = 1u << (K - 5);
    for (unsigned q = 0; q < np; q++)
        v[q] = _mm512_permutex2var_epi32(_mm512_load_si512(row + 32 * q), seg,
                                         _mm512_load_si512(row + 32 * q + 16));
    for (unsigned b = 5; b < K; b++) {
        __mmask16 m = _mm512_test_epi32_mask(seg, b16(1u << b));
        np >>= 1;
        for (unsigned q = 0; q < np; q++)
            v[q] = _mm512_mask_blend_epi32(m, v[2 * q], v[2 * q + 1]);
    }
    return v[0];
}

AVX512 void lut16(const struct plan *p, int D, unsigned K, __m512i seg,
                  __mmask16 live, __m512i *C)
{
    if (K) {
        /* Neighbouring fragments read neighbouring segments: where the
         * live lanes share their 32-entry block (97% of the rsq groups
         * of bench/scenes/phong.scn), one vpermt2d a coefficient. */
        __m512i blk = _mm512_srli_epi32(seg, 5);
        __m128i b0 = _mm512_castsi512_si128(blk);
        if (!_mm512_mask_cmpneq_epi32_mask(live, blk, _mm512_broadcastd_epi32(b0))) {
            unsigned q = (unsigned)_mm_cvtsi128_si32(b0);
            for (int i = 0; i <= D; i++) {
                const int32_t *row = p->soa + i * SOA_N + 32 * q;
                C[i] = _mm512_permutex2var_epi32(_mm512_load_si512(row), seg,
                                                 _mm512_load_si512(row + 16));
            }
            return;
        }
        for (int i = 0; i <= D; i++)
            C[i] = lut_perm16(p->soa + i * SOA_N, seg, K);
    } else {
        __m512i idx = _mm512_mullo_epi32(seg, b16((uint32_t)D + 1));
        for (int i = 0; i <= D; i++)
            C[i] = _mm512_i32gather_epi32(idx, p->coef + i, 4);
    }
}

/* finish4 of 16 lanes, their coefficients read. */
AVX512 __m512i finish16(const struct plan *p, enum us_sfu_func F, int D,
                        const struct red16 *r, const __m512i *C)
{
    __m256 fl[2];
    for (int h = 0; h < 2; h++) {
        __m512d T = _mm512_cvtepi32_pd(half16(r->T, h));
        __m512d acc = _mm512_cvtepi32_pd(half16(C[D], h));
        for (int i = D - 1; i >= 0; i--) {
            /* the FMA's sum is exact: one rounding of it is none */
            __m512d y = _mm512_fmadd_pd(acc, _mm512_mul_pd(T, _mm512_set1_pd(p->scale[i])),
                                        _mm512_set1_pd(0.5));
            acc = _mm512_add_pd(_mm512_roundscale_pd(y, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC),
                                _mm512_cvtepi32_pd(half16(C[i], h)));
        }
        if (F == US_SFU_LG2)                  /* exact, an integer < 2^53 */
            acc = _mm512_fmadd_pd(_mm512_cvtepi32_pd(half16(r->e, h)),
                                  _mm512_set1_pd(p->w0), acc);
        else if (F == US_SFU_SIN || F == US_SFU_COS)
            acc = _mm512_min_pd(_mm512_max_pd(acc, _mm512_setzero_pd()),
                                _mm512_set1_pd(p->w0));
        else
            acc = _mm512_max_pd(acc, _mm512_setzero_pd());
        __m512i b = _mm512_add_epi64(_mm512_castpd_si512(acc), _mm512_set1_epi64(1ll << 28));
        /* truncation clears the low 29 bits (the AND of finish4) */
        fl[h] = _mm512_cvt_roundpd_ps(_mm512_castsi512_pd(b),
                                      _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    }
    __m512i fb = _mm512_castps_si512(_mm512_insertf32x8(_mm512_castps256_ps512(fl[0]),
                                                        fl[1], 1));
    __m512i sgn = F == US_SFU_LG2 ? _mm512_and_si512(fb, b16(SIGN)) : r->sgn;
    __m512i E = F == US_SFU_LG2 ? _mm512_and_si512(_mm512_srli_epi32(fb, 23), b16(0xff))
                                : _mm512_srli_epi32(fb, 23);
    __m512i eb = _mm512_add_epi32(E, r->adj);
    __m512i v = _mm512_or_si512(_mm512_add_epi32(fb, _mm512_slli_epi32(r->adj, 23)), sgn);
    v = _mm512_mask_or_epi32(v, _mm512_cmpgt_epi32_mask(eb, b16(254)), sgn, b16(INF));
    v = _mm512_mask_mov_epi32(v, _mm512_cmplt_epi32_mask(eb, b16(1)) |
                                 _mm512_testn_epi32_mask(E, E), sgn);
    return _mm512_mask_mov_epi32(v, r->spec, r->res);
}

AVX512 void run16(const struct plan *pp,
                  enum us_sfu_func F, int D, unsigned K,
                  const float *x, float *out, size_t n)
{
    struct plan P = *pp;
    if (K) {
        /* the default table's geometry as constants (immediate shifts;
         * T's shift of 0 gone): rsq 3% faster */
        struct us_sfu_geom g;
        geom(func_table(F), K, &g);
        P.rest = g.fb0 - g.kb;
        P.tsh = P.rest - g.tw;
        P.tmask = (1u << g.tw) - 1u;
        P.kb = g.kb;
    }
    const struct plan *p = &P;
    for (size_t i = 0; i < n; i += 16) {
        size_t left = n - i;
        __mmask16 m = left >= 16 ? 0xffff : (__mmask16)((1u << left) - 1u);
        struct red16 r;
        reduce16(p, F, _mm512_maskz_loadu_epi32(m, x + i), &r);
        __mmask16 live = m & ~r.spec;
        if (!live) {                          /* lg2(0), ex2(-inf), ... */
            _mm512_mask_storeu_epi32(out + i, m, r.res);
            continue;
        }
        __m512i C[US_SFU_MAX_DEGREE + 1];
        lut16(p, D, K, r.seg, live, C);
        _mm512_mask_storeu_epi32(out + i, m, finish16(p, F, D, &r, C));
    }
}

__attribute__((target("avx512f,avx512dq,avx512vl,avx512cd")))
static void loops_avx512(const struct plan *p,
                         enum us_sfu_func f, const float *restrict x,
                         float *restrict out, size_t n)
{
#define CASE(F)                                                            \
    case F:                                                                \
        if (p->soa)                                                        \
            run16(p, F, 2, soa_k(func_table(F)), x, out, n);            \
        else                                                               \
            run16(p, F, (int)p->deg, 0, x, out, n);                     \
        break;
    switch (f) {
    CASE(US_SFU_RCP) CASE(US_SFU_RSQ) CASE(US_SFU_SQRT) CASE(US_SFU_LG2)
    CASE(US_SFU_EX2) CASE(US_SFU_SIN) CASE(US_SFU_COS)
    default: break;
    }
#undef CASE
}

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
    if ((unsigned)f < US_SFU_NFUNC &&
        plan(sfu, f, isa == US_SFU_ISA_AVX512, &p)) {
        switch (isa) {
        case US_SFU_ISA_AVX512:
            loops_avx512(&p, f, x, out, n);
            break;
        case US_SFU_ISA_AVX2:
            loops_avx2(&p, f, x, out, n);
            break;
        default:
            loops_base(&p, f, x, out, n);
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
