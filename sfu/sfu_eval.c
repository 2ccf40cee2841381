/*
 * The SFU's entry points: one input (the arithmetic is sfu/sfu_lane.h's),
 * the segment an input reads, pow, the us_math instance and the tables'
 * setup.  Arrays of inputs: sfu/sfu_batch.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"
#include "sfu/sfu_lane.h"

/* 1/(2 pi), 288 bits (checked against MPFR by tests/unit/test_sfu.c). */
const uint32_t us_sfu_inv2pi[9] = {
    0x28be60db, 0x9391054a, 0x7f09d5f4, 0x7d4d3770, 0x36d8a566,
    0x4f10e410, 0x7f9458ea, 0xf7aef158, 0x6dc91b8e,
};

void us_sfu_geom(enum us_sfu_table t, unsigned k, struct us_sfu_geom *g)
{
    geom(t, k, g);
}

float us_sfu_eval(const struct us_sfu *sfu, enum us_sfu_func f, float x)
{
    switch (f) {
    case US_SFU_RCP: return eval_const(sfu, US_SFU_RCP, x);
    case US_SFU_RSQ: return eval_const(sfu, US_SFU_RSQ, x);
    case US_SFU_SQRT: return eval_const(sfu, US_SFU_SQRT, x);
    case US_SFU_LG2: return eval_const(sfu, US_SFU_LG2, x);
    case US_SFU_EX2: return eval_const(sfu, US_SFU_EX2, x);
    case US_SFU_SIN: return eval_const(sfu, US_SFU_SIN, x);
    case US_SFU_COS: return eval_const(sfu, US_SFU_COS, x);
    default: return eval_const(sfu, f, x);
    }
}

bool us_sfu_segment(const struct us_sfu *sfu, enum us_sfu_func f, float x,
                    enum us_sfu_table *table, unsigned *segment)
{
    struct red r;
    reduce(sfu, f, x, &r);
    *table = us_sfu_func_table(f);
    *segment = r.seg;
    return !r.special;
}

float us_sfu_pow(const struct us_sfu *sfu, float x, float y)
{
    float l = us_sfu_eval(sfu, US_SFU_LG2, x);
    float p = y * l;                          /* FP32 MUL, round to even */
    return us_sfu_eval(sfu, US_SFU_EX2, p);
}

/* ---- us_math and instances ------------------------------------------- */

static float m_rcp(const void *c, float x) { return us_sfu_eval(c, US_SFU_RCP, x); }
static float m_rsq(const void *c, float x) { return us_sfu_eval(c, US_SFU_RSQ, x); }
static float m_ex2(const void *c, float x) { return us_sfu_eval(c, US_SFU_EX2, x); }
static float m_lg2(const void *c, float x) { return us_sfu_eval(c, US_SFU_LG2, x); }
static float m_sin(const void *c, float x) { return us_sfu_eval(c, US_SFU_SIN, x); }
static float m_cos(const void *c, float x) { return us_sfu_eval(c, US_SFU_COS, x); }
static float m_pow(const void *c, float x, float y) { return us_sfu_pow(c, x, y); }

/* us_math's batch: straight into out, through a local buffer only when
 * out is x (us_sfu_eval_batch's arrays do not overlap); pow's x and y
 * are read before out is written. */
static void m_batch(const void *c, enum us_math_fn f, const float *x,
                    const float *y, float *out, unsigned n)
{
    static const enum us_sfu_func fn[] = {
        [US_MATH_RCP] = US_SFU_RCP, [US_MATH_RSQ] = US_SFU_RSQ,
        [US_MATH_EX2] = US_SFU_EX2, [US_MATH_LG2] = US_SFU_LG2,
        [US_MATH_SIN] = US_SFU_SIN, [US_MATH_COS] = US_SFU_COS,
    };
    enum { N = 256 };
    float a[N], r[N];
    for (size_t i = 0; i < n; i += N) {   /* size_t: y[i + l] contiguous */
        size_t k = n - i < N ? n - i : N;
        if (f == US_MATH_POW) {
            /* us_sfu_pow: ex2(y * lg2(x)), an FP32 MUL between. */
            us_sfu_eval_batch(c, US_SFU_LG2, x + i, r, k);
            for (size_t l = 0; l < k; l++)
                a[l] = y[i + l] * r[l];
            us_sfu_eval_batch(c, US_SFU_EX2, a, out + i, k);
        } else if (x == out) {
            us_sfu_eval_batch(c, fn[f], x + i, r, k);
            memcpy(out + i, r, k * sizeof *r);
        } else {
            us_sfu_eval_batch(c, fn[f], x + i, out + i, k);
        }
    }
}

void us_sfu_math(const struct us_sfu *sfu, struct us_math *out)
{
    out->name = "sfu";
    out->cfg = sfu;
    out->rcp = m_rcp;
    out->rsq = m_rsq;
    out->ex2 = m_ex2;
    out->lg2 = m_lg2;
    out->sin = m_sin;
    out->cos = m_cos;
    out->pow = m_pow;
    out->batch = m_batch;
}

bool us_sfu_init(struct us_sfu *sfu, const struct us_sfu_config *cfg,
                 struct us_diag *diag)
{
    struct us_sfu_config def;
    us_sfu_config_default(&def);
    memset(sfu, 0, sizeof *sfu);
    sfu->cfg = *cfg;
    /* The bank count does not change the arithmetic. */
    def.banks = cfg->banks;
    if (us_sfu_config_equal(cfg, &def)) {
        memcpy(sfu->tab, us_sfu_default_coeffs, sizeof sfu->tab);
        return true;
    }
    size_t total = 0, off = 0;
    for (unsigned t = 0; t < US_SFU_NTABLES; t++)
        total += ((size_t)1 << cfg->k[t]) * (cfg->degree[t] + 1u);
    sfu->owned = malloc(total * sizeof *sfu->owned);
    if (!sfu->owned) {
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        double err;
        if (!us_sfu_generate(cfg, (enum us_sfu_table)t, sfu->owned + off,
                             &sfu->tab[t], &err, diag)) {
            us_sfu_free(sfu);
            return false;
        }
        off += ((size_t)1 << cfg->k[t]) * (cfg->degree[t] + 1u);
    }
    return true;
}

void us_sfu_free(struct us_sfu *sfu)
{
    free(sfu->owned);
    sfu->owned = NULL;
}
