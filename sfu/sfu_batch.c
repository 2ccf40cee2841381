/*
 * The SFU model over arrays of inputs (us_sfu_eval_batch, sfu/sfu.h):
 * the per-lane arithmetic of sfu/sfu_lane.h in one loop per function
 * with f a constant, built three times -- for the x86-64 baseline and,
 * chosen at run time, for AVX2 and AVX-512 (integer arithmetic and one
 * exact double subtraction; no FMA; the LUT read by the hardware's
 * gather) -- so the results are us_sfu_eval's bit for bit
 * (tests/unit/test_sfu_batch.c, every build the CPU has;
 * tools/bench_sfu_batch times them).
 */
#include <stddef.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"
#include "sfu/sfu_lane.h"

enum { BLK = 64 };

enum gather { GATHER_NONE, GATHER_AVX2, GATHER_AVX512 };

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_GATHER 1
__attribute__((target("avx2")))
static inline void gather_avx2(const int32_t *table, const uint32_t *idx,
                               int32_t *out)
{
    for (unsigned l = 0; l < BLK; l += 8) {
        __m256i i = _mm256_loadu_si256((const __m256i *)(idx + l));
        _mm256_storeu_si256((__m256i *)(out + l),
                            _mm256_i32gather_epi32(table, i, 4));
    }
}

__attribute__((target("avx512f")))
static inline void gather_avx512(const int32_t *table, const uint32_t *idx,
                                 int32_t *out)
{
    for (unsigned l = 0; l < BLK; l += 16) {
        __m512i i = _mm512_loadu_si512(idx + l);
        _mm512_storeu_si512(out + l, _mm512_i32gather_epi32(i, table, 4));
    }
}
#endif

/* out[l] = table[idx[l]] for the BLK lanes (idx < 2^31): the hardware's
 * gather where the build has one, since gcc 12 emulates gathers with a
 * load and an insert per lane (1.7x slower on AVX-512). */
__attribute__((always_inline))
static inline void lut_read(enum gather g, const int32_t *table,
                            const uint32_t *idx, int32_t *out)
{
#ifdef HAVE_GATHER
    if (g == GATHER_AVX512) {
        gather_avx512(table, idx, out);
        return;
    }
    if (g == GATHER_AVX2) {
        gather_avx2(table, idx, out);
        return;
    }
#endif
    (void)g;
    for (unsigned l = 0; l < BLK; l++)
        out[l] = table[idx[l]];
}

/* The functions whose reduce() is a few shifts and compares: the batch
 * takes them through reduce_sel(), the others (sin, cos: the 128-bit
 * Payne-Hanek product) through reduce() lane by lane. */
static inline bool selectable(enum us_sfu_func f)
{
    return f == US_SFU_RCP || f == US_SFU_RSQ || f == US_SFU_SQRT ||
           f == US_SFU_LG2 || f == US_SFU_EX2;
}

/* What reduce() gives for lane x of function F (selectable), with
 * selects instead of its early returns so that a loop of it vectorises:
 * the same tests in the same order for the special cases (*res the
 * result, *spec set), the same shifts for the rest.  A special lane's
 * seg, T, extra, sign and e2 are not reduce()'s zeros but are ignored
 * (the result is selected at the end); they stay in range (seg < 2^k, no
 * shift of 64 or more). */
__attribute__((always_inline))
static inline void reduce_sel(enum us_sfu_func F, const struct us_sfu_geom *g,
                              int shift0, float x, uint32_t *spec,
                              uint32_t *res, uint32_t *seg, int64_t *T,
                              int64_t *extra, uint32_t *sign_out, int32_t *e2)
{
    uint32_t u = bits_of(x), sign = u & SIGN, a = u & ~SIGN;
    bool nan = a > INF, zero = a < MIN_NORMAL, inf = a == INF;
    int e = (int)(a >> 23) - 127;
    uint32_t frac = a & 0x7fffff;
    unsigned s;
    int64_t t;
    *extra = 0;
    *sign_out = 0;
    *e2 = 0;
    switch (F) {
    case US_SFU_RCP:
        *spec = nan | inf | zero;
        *res = nan ? DEFAULT_NAN : sign | (zero ? INF : 0);
        split(g, frac, &s, &t);
        *sign_out = sign;
        *e2 = -e;
        break;
    case US_SFU_RSQ:
    case US_SFU_SQRT: {
        bool rsq = F == US_SFU_RSQ;
        uint32_t odd = (unsigned)e & 1u;
        *spec = nan | zero | (sign != 0) | inf;
        *res = nan ? DEFAULT_NAN
             : zero ? (rsq ? sign | INF : sign)
             : sign ? DEFAULT_NAN
             : rsq ? 0 : INF;
        split(g, frac, &s, &t);
        s |= odd << g->kb;
        *e2 = rsq ? -(e - (int)odd) / 2 : (e - (int)odd) / 2;
        break;
    }
    case US_SFU_LG2:
        *spec = nan | zero | (sign != 0) | inf;
        *res = nan ? DEFAULT_NAN
             : zero ? SIGN | INF
             : sign ? DEFAULT_NAN : INF;
        split(g, frac, &s, &t);
        *extra = (int64_t)e * ((int64_t)1 << shift0);
        break;
    default: {                                /* US_SFU_EX2 */
        bool big = a >= 0x43000000u;
        *spec = nan | zero | big;
        *res = nan ? DEFAULT_NAN : zero ? ONE : sign ? 0 : INF;
        /* reduce()'s three shift cases in one: a right shift of 63
         * leaves 0 and inexact, as its sh <= -64 case does; a lane
         * that is not special has sh <= 15 (|x| < 128), and the clamp
         * keeps the special ones' mag far from the int64 range */
        uint64_t M = frac | MIN_NORMAL;
        int sh = e - 23 + 32;
        unsigned sl = sh > 0 ? (unsigned)sh : 0u;
        unsigned sr = sh < 0 ? (unsigned)-sh : 0u;
        sl = sl < 15 ? sl : 15;
        sr = sr < 63 ? sr : 63;
        uint64_t right = M >> sr;
        uint64_t mag = sh >= 0 ? M << sl : right;
        bool inexact = sh < 0 && (right << sr) != M;
        int64_t X = sign ? -(int64_t)mag - (inexact ? 1 : 0) : (int64_t)mag;
        split(g, (uint32_t)X, &s, &t);
        *e2 = (int32_t)asr(X, 32);
        break;
    }
    }
    *seg = s;
    *T = t;
}

/* pack() with selects, in two steps so that the second runs in 32-bit
 * lanes (twice as many a register; 1.15-1.2x the function on AVX-512).
 * First, in 64-bit lanes (the vectoriser wants shift counts and operands
 * of one width): the leading one *b of mag from the exponent of its exact
 * double (mag < 2^52: 2^52 + mag is a double whose low bits are mag; less
 * 2^52, exact) and the 24 bits from there rounded, *m (25 bits when the
 * rounding carries; 0 exactly when mag = 0).  *wide is set when mag >=
 * 2^52, where the caller takes pack() itself. */
__attribute__((always_inline))
static inline void pack_mant(uint64_t mag, int32_t *b_out, uint32_t *m_out,
                             uint64_t *wide)
{
    uint64_t v = (mag & ((1ull << 52) - 1)) | 1, vb;
    double d;
    *wide |= mag >> 52;
    vb = v | 0x4330000000000000ull;
    memcpy(&d, &vb, sizeof d);
    d -= 0x1p52;
    memcpy(&vb, &d, sizeof vb);
    int64_t b = (int64_t)(vb >> 52) - 1023;
    bool hi = b > 23;
    /* pack()'s (mag + 2^(sh-1)) >> sh as ((mag >> (sh-1)) + 1) >> 1, the
     * same integer (the bits below 2^(sh-1) carry nothing into it), since
     * the vectoriser does not take 1 << a variable count */
    uint64_t sr1 = hi ? (uint64_t)(b - 24) : 0u;
    uint64_t sl = hi ? 0u : (uint64_t)(23 - b);
    uint64_t m = hi ? ((mag >> sr1) + 1) >> 1 : mag << sl;
    *b_out = (int32_t)b;
    *m_out = mag == 0 ? 0 : (uint32_t)m;
}

/* Then the binary32 of sign, b, m and e2 (FTZ, overflow to infinity). */
__attribute__((always_inline))
static inline uint32_t pack_join(uint32_t sign, int32_t b, uint32_t m, int e2)
{
    uint32_t carry = m >> 24;                 /* 0 or 1 */
    m >>= carry;
    int32_t e = b + (int32_t)carry + e2;
    uint32_t norm = sign | (uint32_t)(e + 127) << 23 | (m & 0x7fffff);
    uint32_t r = e > 127 ? sign | INF : e < -126 ? sign : norm;
    return m == 0 ? sign : r;
}

/* finish_pack()'s sign and magnitude of acc_0 = P. */
__attribute__((always_inline))
static inline void finish_mag(const struct us_sfu_coeffs *c, enum us_sfu_func F,
                              int64_t P, uint32_t *sign, uint64_t *mag)
{
    switch (F) {
    case US_SFU_LG2:
        *sign = P < 0 ? SIGN : 0;
        *mag = (uint64_t)(P < 0 ? -P : P);
        break;
    case US_SFU_SIN:
    case US_SFU_COS: {
        int64_t one = (int64_t)1 << c->shift[0];
        *mag = (uint64_t)(P < 0 ? 0 : P > one ? one : P);   /* |sin| <= 1 */
        break;
    }
    default:
        *mag = (uint64_t)(P < 0 ? 0 : P);
        break;
    }
}

/* BLK lanes of function F: reduce each lane (its special cases select
 * the result at the end), the Horner passes one degree at a time over all
 * lanes (the alignment is the table's, the same for every lane), then the
 * normalization -- the per-lane steps of eval_const().  Loops of a
 * constant trip count, which gcc -O2 vectorises (all of them for the
 * selectable functions). */
__attribute__((always_inline))
static inline void block(const struct us_sfu *s, enum us_sfu_func F,
                         enum gather gather, const float *restrict x,
                         float *restrict out)
{
    const unsigned n = BLK;
    int64_t acc[BLK], T[BLK], extra[BLK];
    uint32_t seg[BLK], sign[BLK], result[BLK], special[BLK], packed[BLK];
    int32_t e2[BLK];
    const struct us_sfu_coeffs *c = &s->tab[func_table(F)];
    const int32_t *coef = c->coef;
    int d = (int)c->degree;
    struct us_sfu_geom g;
    geom(func_table(F), c->k, &g);
    unsigned tbits = g.kb + g.tw;             /* reduce()'s r.tbits */
    if (selectable(F)) {
        for (unsigned l = 0; l < n; l++)
            reduce_sel(F, &g, c->shift[0], x[l], &special[l], &result[l],
                       &seg[l], &T[l], &extra[l], &sign[l], &e2[l]);
    } else {
        for (unsigned l = 0; l < n; l++) {
            struct red r;
            reduce(s, F, x[l], &r);
            special[l] = r.special;
            result[l] = bits_of(r.result);
            seg[l] = r.seg;
            T[l] = r.T;
            extra[l] = r.c0_extra;
            sign[l] = r.sign;
            e2[l] = r.e2;
        }
    }
    int32_t C[BLK];
    for (unsigned l = 0; l < n; l++)
        seg[l] = seg[l] * (unsigned)(d + 1) + (unsigned)d;
    lut_read(gather, coef, seg, C);
    for (unsigned l = 0; l < n; l++)
        acc[l] = C[l];
    /* only lg2 has a c0_extra (reduce()) */
    for (int i = d - 1; i >= 0; i--) {
        int sh = horner_shift(c, tbits, i);
        for (unsigned l = 0; l < n; l++)
            seg[l]--;
        lut_read(gather, coef, seg, C);
        for (unsigned l = 0; l < n; l++)
            acc[l] = horner_step(acc[l], T[l],
                                 C[l] + (i == 0 && F == US_SFU_LG2 ? extra[l]
                                                                   : 0), sh);
    }
    int e2off = c->shift[0];
    uint64_t wide = 0;
    int32_t lead[BLK];
    uint32_t mant[BLK];
    for (unsigned l = 0; l < n; l++) {
        uint32_t sg = sign[l];
        uint64_t mag;
        finish_mag(c, F, acc[l], &sg, &mag);
        sign[l] = sg;
        pack_mant(mag, &lead[l], &mant[l], &wide);
    }
    for (unsigned l = 0; l < n; l++) {
        uint32_t v = pack_join(sign[l], lead[l], mant[l], e2[l] - e2off);
        packed[l] = special[l] ? result[l] : v;
    }
    if (wide)                                 /* not with these tables */
        for (unsigned l = 0; l < n; l++) {
            uint32_t sg = sign[l];
            uint64_t mag;
            finish_mag(c, F, acc[l], &sg, &mag);
            if (!special[l] && mag >> 52)
                packed[l] = bits_of(pack(sg, mag, e2[l] - e2off));
        }
    memcpy(out, packed, sizeof packed);
}

/* The whole blocks of x; returns how many lanes they cover. */
__attribute__((always_inline))
static inline size_t blocks(const struct us_sfu *s, enum us_sfu_func F,
                            enum gather gather, const float *restrict x,
                            float *restrict out, size_t n)
{
    size_t i = 0;
    for (; i + BLK <= n; i += BLK)
        block(s, F, gather, x + i, out + i);
    return i;
}

/* The last n < BLK lanes, padded with zeros. */
__attribute__((always_inline))
static inline void tail(const struct us_sfu *s, enum us_sfu_func F,
                        enum gather gather, const float *restrict x,
                        float *restrict out, size_t n)
{
    if (n == 0)
        return;
    float xi[BLK] = { 0 }, o[BLK];
    memcpy(xi, x, n * sizeof *x);
    block(s, F, gather, xi, o);
    memcpy(out, o, n * sizeof *out);
}

__attribute__((always_inline))
static inline void loops(const struct us_sfu *s, enum us_sfu_func f,
                         enum gather gather, const float *restrict x,
                         float *restrict out, size_t n)
{
#define LOOP(F)                                                          \
    do {                                                                 \
        size_t full = blocks(s, F, gather, x, out, n);                   \
        tail(s, F, gather, x + full, out + full, n - full);              \
    } while (0)
    switch (f) {
    case US_SFU_RCP: LOOP(US_SFU_RCP); break;
    case US_SFU_RSQ: LOOP(US_SFU_RSQ); break;
    case US_SFU_SQRT: LOOP(US_SFU_SQRT); break;
    case US_SFU_LG2: LOOP(US_SFU_LG2); break;
    case US_SFU_EX2: LOOP(US_SFU_EX2); break;
    case US_SFU_SIN: LOOP(US_SFU_SIN); break;
    case US_SFU_COS: LOOP(US_SFU_COS); break;
    default: LOOP(f); break;
    }
#undef LOOP
}

static void loops_base(const struct us_sfu *s, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n)
{
    loops(s, f, GATHER_NONE, x, out, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2 1
__attribute__((target("avx2")))
static void loops_avx2(const struct us_sfu *s, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n)
{
    loops(s, f, GATHER_AVX2, x, out, n);
}

/* AVX-512 (F, DQ, VL, CD): 64-bit multiplies, arithmetic shifts and
 * leading-zero counts in one instruction each. */
__attribute__((target("avx512f,avx512dq,avx512vl,avx512cd")))
static void loops_avx512(const struct us_sfu *s, enum us_sfu_func f,
                         const float *restrict x, float *restrict out,
                         size_t n)
{
    loops(s, f, GATHER_AVX512, x, out, n);
}
#endif

static bool have(enum us_sfu_isa isa)
{
    switch (isa) {
    case US_SFU_ISA_BASE:
        return true;
#ifdef HAVE_AVX2
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
    switch (isa) {
#ifdef HAVE_AVX2
    case US_SFU_ISA_AVX512:
        loops_avx512(sfu, f, x, out, n);
        break;
    case US_SFU_ISA_AVX2:
        loops_avx2(sfu, f, x, out, n);
        break;
#endif
    default:
        loops_base(sfu, f, x, out, n);
        break;
    }
    return true;
}

void us_sfu_eval_batch(const struct us_sfu *sfu, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n)
{
    (void)us_sfu_eval_batch_isa(sfu, US_SFU_ISA_BEST, f, x, out, n);
}
