/*
 * The SFU model over arrays of inputs (us_sfu_eval_batch, sfu/sfu.h):
 * the per-lane arithmetic of sfu/sfu_lane.h in one loop per function
 * with f a constant, built twice -- for the x86-64 baseline and, chosen
 * at run time, for AVX2 (no FMA: the arithmetic is integer, and
 * -ffp-contract=off holds for the pow multiply) -- so the results are
 * us_sfu_eval's bit for bit (tests/unit/test_sfu_batch.c).
 */
#include <stddef.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"
#include "sfu/sfu_lane.h"

enum { BLK = 64 };

/* BLK lanes of function F: reduce each lane (its special cases select
 * the result at the end), the Horner passes one degree at a time over all
 * lanes (the alignment is the table's, the same for every lane), then the
 * normalization -- the per-lane steps of eval_const().  Loops of a
 * constant trip count, which gcc -O2 vectorises. */
__attribute__((always_inline))
static inline void block(const struct us_sfu *s, enum us_sfu_func F,
                         const float *restrict x, float *restrict out)
{
    const unsigned n = BLK;
    int64_t acc[BLK], T[BLK], extra[BLK];
    unsigned seg[BLK];
    uint32_t sign[BLK], result[BLK];
    int e2[BLK];
    bool special[BLK];
    const struct us_sfu_coeffs *c = &s->tab[func_table(F)];
    const int32_t *coef = c->coef;
    int d = (int)c->degree;
    unsigned tbits = 0;
    for (unsigned l = 0; l < n; l++) {
        struct red r;
        reduce(s, F, x[l], &r);
        tbits = r.tbits;                      /* the table's */
        special[l] = r.special;
        result[l] = bits_of(r.result);
        seg[l] = r.seg * (unsigned)(d + 1);   /* special: segment 0 */
        T[l] = r.T;
        extra[l] = r.c0_extra;
        sign[l] = r.sign;
        e2[l] = r.e2;
    }
    for (unsigned l = 0; l < n; l++)
        acc[l] = coef[seg[l] + (unsigned)d];
    for (int i = d - 1; i >= 0; i--) {
        int sh = horner_shift(c, tbits, i);
        for (unsigned l = 0; l < n; l++)
            acc[l] = horner_step(acc[l], T[l],
                                 coef[seg[l] + (unsigned)i] +
                                     (i == 0 ? extra[l] : 0), sh);
    }
    for (unsigned l = 0; l < n; l++) {
        struct red r = { .sign = sign[l], .e2 = e2[l] };
        float v = finish_pack(s, F, &r, acc[l]);
        out[l] = special[l] ? float_of(result[l]) : v;
    }
}

/* The whole blocks of x; returns how many lanes they cover. */
__attribute__((always_inline))
static inline size_t blocks(const struct us_sfu *s, enum us_sfu_func F,
                            const float *restrict x, float *restrict out,
                            size_t n)
{
    size_t i = 0;
    for (; i + BLK <= n; i += BLK)
        block(s, F, x + i, out + i);
    return i;
}

/* The last n < BLK lanes, padded with zeros. */
__attribute__((always_inline))
static inline void tail(const struct us_sfu *s, enum us_sfu_func F,
                        const float *restrict x, float *restrict out, size_t n)
{
    if (n == 0)
        return;
    float xi[BLK] = { 0 }, o[BLK];
    memcpy(xi, x, n * sizeof *x);
    block(s, F, xi, o);
    memcpy(out, o, n * sizeof *out);
}

__attribute__((always_inline))
static inline void loops(const struct us_sfu *s, enum us_sfu_func f,
                         const float *restrict x, float *restrict out,
                         size_t n)
{
#define LOOP(F)                                                          \
    do {                                                                 \
        size_t full = blocks(s, F, x, out, n);                           \
        tail(s, F, x + full, out + full, n - full);                      \
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
    loops(s, f, x, out, n);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_AVX2 1
__attribute__((target("avx2")))
static void loops_avx2(const struct us_sfu *s, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n)
{
    loops(s, f, x, out, n);
}
#endif

void us_sfu_eval_batch(const struct us_sfu *sfu, enum us_sfu_func f,
                       const float *restrict x, float *restrict out, size_t n)
{
#ifdef HAVE_AVX2
    if (__builtin_cpu_supports("avx2")) {
        loops_avx2(sfu, f, x, out, n);
        return;
    }
#endif
    loops_base(sfu, f, x, out, n);
}
