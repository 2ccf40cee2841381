/*
 * The SFU's bit-exact arithmetic for one lane (algorithm, widths and
 * rounding rules: sfu/sfu.h), included by sfu/sfu_eval.c (one input) and
 * sfu/sfu_batch.c (arrays of inputs): the one definition of what a
 * function computes.  Each function is split in two: reduce() applies the
 * special cases and the range reduction and says which LUT entry is read;
 * finish() runs the Horner passes and normalizes.  us_sfu_segment() uses
 * reduce() alone, so the timing models see exactly the entries the
 * arithmetic reads.
 */
#ifndef US_SFU_LANE_H
#define US_SFU_LANE_H

#include <stdbool.h>
#include <stdint.h>

#include "ushader.h"
#include "sfu/sfu.h"

enum {
    SIGN = 0x80000000u,
    INF = 0x7f800000u,
    DEFAULT_NAN = 0x7fc00000u,
    MIN_NORMAL = 0x00800000u,
    ONE = 0x3f800000u,
};

/* Arithmetic shift right (floor), written out so it does not depend on
 * the implementation-defined >> of negative values: for v < 0 it is
 * ~(~v >> sh) (~v = -v - 1 >= 0).  Selects, no branch (the batch's loops
 * vectorise). */
static inline int64_t asr(int64_t v, unsigned sh)
{
    int64_t n = v < 0 ? ~v : v, q = n >> sh;
    return v < 0 ? ~q : q;
}

/* us_sfu_geom, visible to the compiler here. */
static inline void geom(enum us_sfu_table t, unsigned k, struct us_sfu_geom *g)
{
    /* Width of the reduced fraction, and whether the top index bit is the
     * exponent parity (rsq, sqrt), per enum us_sfu_table. */
    static const uint8_t fb0[US_SFU_NTABLES] = { 23, 23, 23, 23, 32, 30 };
    static const uint8_t parity[US_SFU_NTABLES] = { 0, 1, 1, 0, 0, 0 };
    g->fb0 = fb0[t];
    g->kb = k - parity[t];
    unsigned left = g->fb0 - g->kb;
    g->tw = left < US_SFU_MUL_BITS ? left : US_SFU_MUL_BITS;
}

/* Index and T from a reduced fraction `frac` of g->fb0 bits. */
static inline void split(const struct us_sfu_geom *g, uint64_t frac, unsigned *seg,
                  int64_t *T)
{
    unsigned rest = g->fb0 - g->kb;
    *seg = (unsigned)(frac >> rest);
    *T = (int64_t)((frac >> (rest - g->tw)) & ((1ull << g->tw) - 1));
}

/* The alignment of Horner step i (acc_{i+1} * T to C_i's LSB). */
static inline int horner_shift(const struct us_sfu_coeffs *c, unsigned tbits,
                               int i)
{
    return c->shift[i + 1] + (int)tbits - c->shift[i];
}

/* One multiply-add pass: round(acc * T >> sh) + Ci (sfu/sfu.h, 4). */
static inline int64_t horner_step(int64_t acc, int64_t T, int64_t Ci, int sh)
{
    int64_t prod = acc * T;               /* 24 x 24 bits: exact */
    int64_t aligned = sh > 0
        ? asr(prod + ((int64_t)1 << (sh - 1)), (unsigned)sh)
        : prod * ((int64_t)1 << -sh);
    return aligned + Ci;
}

/* Horner on the datapath: one multiply-add per degree d (c->degree),
 * C_0 with lg2's exponent wired in (sfu/sfu.h, 4). */
__attribute__((always_inline))
static inline int64_t horner_d(const struct us_sfu_coeffs *c, int d,
                               unsigned tbits, unsigned seg, int64_t T,
                               int64_t c0_extra)
{
    const int32_t *C = c->coef + (size_t)seg * ((unsigned)d + 1u);
    int64_t acc = C[d];
    for (int i = d - 1; i >= 0; i--)
        acc = horner_step(acc, T, C[i] + (i == 0 ? c0_extra : 0),
                          horner_shift(c, tbits, i));
    return acc;
}

/* The same, the degree a constant in each case (the loop unrolled). */
__attribute__((always_inline))
static inline int64_t horner(const struct us_sfu_coeffs *c, unsigned tbits,
                             unsigned seg, int64_t T, int64_t c0_extra)
{
    switch (c->degree) {
    case 1: return horner_d(c, 1, tbits, seg, T, c0_extra);
    case 2: return horner_d(c, 2, tbits, seg, T, c0_extra);
    default: return horner_d(c, c->degree, tbits, seg, T, c0_extra);
    }
}

/* mag * 2^e2 rounded to binary32 (ties away from zero), FTZ, with `sign`. */
static inline float pack(uint32_t sign, uint64_t mag, int e2)
{
    if (mag == 0)
        return float_of(sign);
    int b = 63 - __builtin_clzll(mag);
    uint64_t m;
    if (b > 23) {
        unsigned sh = (unsigned)(b - 23);
        m = (mag + (1ull << (sh - 1))) >> sh;
        if (m >> 24) {
            m >>= 1;
            b++;
        }
    } else {
        m = mag << (23 - b);
    }
    int e = b + e2;
    if (e > 127)
        return float_of(sign | INF);
    if (e < -126)
        return float_of(sign);
    return float_of(sign | (uint32_t)(e + 127) << 23 | (uint32_t)(m & 0x7fffff));
}

/* us_sfu_func_table (sfu/sfu_config.c), visible to the compiler here. */
static inline enum us_sfu_table func_table(enum us_sfu_func f)
{
    switch (f) {
    case US_SFU_RCP: return US_SFU_T_RCP;
    case US_SFU_RSQ: return US_SFU_T_RSQ;
    case US_SFU_SQRT: return US_SFU_T_SQRT;
    case US_SFU_LG2: return US_SFU_T_LG2;
    case US_SFU_EX2: return US_SFU_T_EX2;
    default: return US_SFU_T_SINCOS;
    }
}

/* What reduce() decided. */
struct red {
    bool special;       /* `result` is final; no LUT read */
    unsigned tbits;     /* kb + tw: t = T 2^-tbits */
    float result;
    unsigned seg;
    int64_t T;
    int64_t c0_extra;   /* lg2: e << s0 */
    uint32_t sign;
    int e2;             /* result = acc_0 * 2^(e2 - s0) */
};

static inline void special(struct red *r, uint32_t bits)
{
    r->special = true;
    r->result = float_of(bits);
}

/* sin/cos: reduced fraction of |x| / (2 pi) with 32 fraction bits. */
static inline uint32_t reduce_revolutions(uint32_t a)
{
    uint64_t M = (a & 0x7fffffu) | MIN_NORMAL;
    int E = (int)(a >> 23) - 150;             /* |x| = M 2^E */
    int j0 = E + 1 < 1 ? 1 : E + 1;           /* first bit of the window */
    unsigned pos = (unsigned)(j0 - 1), w = pos / 32, o = pos % 32;
    unsigned __int128 v = 0;
    for (unsigned i = 0; i < 4; i++)
        v = v << 32 | us_sfu_inv2pi[w + i];
    unsigned __int128 window = (v << o) >> (128 - 72);   /* 72 bits */
    unsigned __int128 prod = window * M;      /* 3 passes of 24 x 24 */
    int sh = j0 - E + 39;
    return sh >= 128 ? 0 : (uint32_t)(prod >> sh);
}

__attribute__((always_inline))
static inline void reduce(const struct us_sfu *s, enum us_sfu_func f, float x,
                          struct red *r)
{
    uint32_t u = bits_of(x), sign = u & SIGN, a = u & ~SIGN;
    struct us_sfu_geom g;
    enum us_sfu_table t = func_table(f);
    geom(t, s->tab[t].k, &g);
    r->special = false;
    r->result = 0;
    r->seg = 0;                               /* special cases read none */
    r->T = 0;
    r->c0_extra = 0;
    r->sign = 0;
    r->e2 = 0;
    r->tbits = g.kb + g.tw;
    if (a > INF) {
        special(r, DEFAULT_NAN);
        return;
    }
    bool zero = a < MIN_NORMAL;               /* FTZ: denormals are zeros */
    int e = (int)(a >> 23) - 127;
    uint32_t frac = a & 0x7fffff;

    switch (f) {
    case US_SFU_RCP:
        if (a == INF || zero) {
            special(r, sign | (zero ? INF : 0));
            return;
        }
        split(&g, frac, &r->seg, &r->T);
        r->sign = sign;
        r->e2 = -e;
        return;
    case US_SFU_RSQ:
    case US_SFU_SQRT: {
        bool rsq = f == US_SFU_RSQ;
        if (zero) {
            special(r, rsq ? sign | INF : sign);
            return;
        }
        if (sign) {
            special(r, DEFAULT_NAN);
            return;
        }
        if (a == INF) {
            special(r, rsq ? 0 : INF);
            return;
        }
        unsigned odd = (unsigned)e & 1u;      /* x = m' 2^(e - odd) */
        split(&g, frac, &r->seg, &r->T);
        r->seg |= odd << g.kb;
        r->e2 = rsq ? -(e - (int)odd) / 2 : (e - (int)odd) / 2;
        return;
    }
    case US_SFU_LG2:
        if (zero) {
            special(r, SIGN | INF);
            return;
        }
        if (sign) {
            special(r, DEFAULT_NAN);
            return;
        }
        if (a == INF) {
            special(r, INF);
            return;
        }
        split(&g, frac, &r->seg, &r->T);
        r->c0_extra = (int64_t)e * ((int64_t)1 << s->tab[t].shift[0]);
        return;
    case US_SFU_EX2: {
        if (zero) {
            special(r, ONE);
            return;
        }
        if (a >= 0x43000000u) {               /* |x| >= 128 (or inf) */
            special(r, sign ? 0 : INF);
            return;
        }
        /* x * 2^32 rounded toward -inf: i = X >> 32, f = low 32 bits. */
        uint64_t M = frac | MIN_NORMAL;
        int sh = e - 23 + 32;
        uint64_t mag;
        bool inexact = false;
        if (sh >= 0) {
            mag = M << sh;
        } else if (sh > -64) {
            mag = M >> -sh;
            inexact = (mag << -sh) != M;
        } else {
            mag = 0;
            inexact = true;
        }
        int64_t X = sign ? -(int64_t)mag - (inexact ? 1 : 0) : (int64_t)mag;
        split(&g, (uint32_t)X, &r->seg, &r->T);
        r->e2 = (int)asr(X, 32);
        return;
    }
    case US_SFU_SIN:
    case US_SFU_COS: {
        bool cos = f == US_SFU_COS;
        if (a == INF) {
            special(r, DEFAULT_NAN);
            return;
        }
        if (a < 0x39800000u) {                /* |x| < 2^-12, or FTZ zero */
            special(r, cos ? ONE : (zero ? sign : u));
            return;
        }
        uint32_t R = reduce_revolutions(a);
        unsigned q = (R >> 30) + (cos ? 1u : 0u);
        uint32_t v = R & 0x3fffffffu;
        if (q & 1)
            v = ~v & 0x3fffffffu;             /* 1 - u - 2^-30 */
        bool neg = ((q & 2) != 0) != (sign && !cos);
        split(&g, v, &r->seg, &r->T);
        r->sign = neg ? SIGN : 0;
        return;
    }
    default:
        special(r, DEFAULT_NAN);
        return;
    }
}

/* The result from Horner's acc_0 = P (not for a special case). */
__attribute__((always_inline))
static inline float finish_pack(const struct us_sfu *s, enum us_sfu_func f,
                                const struct red *r, int64_t P)
{
    const struct us_sfu_coeffs *c = &s->tab[func_table(f)];
    int e2 = r->e2 - c->shift[0];
    switch (f) {
    case US_SFU_LG2:
        return pack(P < 0 ? SIGN : 0, (uint64_t)(P < 0 ? -P : P), e2);
    case US_SFU_SIN:
    case US_SFU_COS: {
        int64_t one = (int64_t)1 << c->shift[0];
        P = P < 0 ? 0 : P > one ? one : P;    /* |sin| <= 1 */
        return pack(r->sign, (uint64_t)P, e2);
    }
    default:
        return pack(r->sign, (uint64_t)(P < 0 ? 0 : P), e2);
    }
}

__attribute__((always_inline))
static inline float finish(const struct us_sfu *s, enum us_sfu_func f,
                           const struct red *r)
{
    const struct us_sfu_coeffs *c = &s->tab[func_table(f)];
    return finish_pack(s, f, r,
                       horner(c, r->tbits, r->seg, r->T, r->c0_extra));
}

/* One function's evaluation with f a constant: the compiler folds the
 * switches of reduce() and finish() (the exhaustive check evaluates each
 * function 2^32 times); the same code, hence the same bits. */
__attribute__((always_inline))
static inline float eval_const(const struct us_sfu *sfu, enum us_sfu_func f,
                               float x)
{
    struct red r;
    reduce(sfu, f, x, &r);
    return r.special ? r.result : finish(sfu, f, &r);
}

#endif
