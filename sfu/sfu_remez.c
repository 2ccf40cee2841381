/*
 * Coefficient generator (used by tools/sfu_gen.c for the committed tables
 * and by us_sfu_init for other configurations).
 *
 * Per segment, MPFR evaluates the function on GRID + 1 evenly spaced points
 * (results correctly rounded to 64 bits, which long double holds exactly).
 * A discrete Remez exchange on that grid gives the minimax polynomial of
 * absolute error.  The exchange itself runs in long double: its rounding
 * (2^-64 relative) is some 2^30 times smaller than the approximation
 * errors (2^-24..2^-30) it balances.  Then the coefficients are fixed from
 * the top degree down: c_j is rounded to its fixed-point grid and the
 * lower coefficients are re-optimized by a Remez on the residual, so each
 * rounding error is absorbed by the coefficients still free.
 *
 * The polynomial variable is tau = t / H in [0, 1] (H = 2^-kb, the segment
 * width) so the linear systems stay well conditioned; c_j = a_j / H^j.
 */
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"

enum { GRID = 256, MAXREF = US_SFU_MAX_DEGREE + 2 };

/* Solve the (n x n) system m * x = rhs by Gaussian elimination with
 * partial pivoting; false if singular. */
static bool solve(long double m[MAXREF][MAXREF + 1], int n, long double *x)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabsl(m[r][c]) > fabsl(m[p][c]))
                p = r;
        if (m[p][c] == 0)
            return false;
        for (int j = 0; j <= n; j++) {
            long double tmp = m[c][j];
            m[c][j] = m[p][j];
            m[p][j] = tmp;
        }
        for (int r = c + 1; r < n; r++) {
            long double f = m[r][c] / m[c][c];
            for (int j = c; j <= n; j++)
                m[r][j] -= f * m[c][j];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        long double s = m[r][n];
        for (int j = r + 1; j < n; j++)
            s -= m[r][j] * x[j];
        x[r] = s / m[r][r];
    }
    return true;
}

static long double tau_of(int i) { return (long double)i / GRID; }

static long double poly(const long double *a, int lo, int hi, long double tau)
{
    long double p = 0;
    for (int j = hi; j >= lo; j--)
        p = p * tau + a[j];
    for (int j = 0; j < lo; j++)
        p *= tau;
    return p;
}

/*
 * Minimax of g (on grid points i0..GRID) by sum_{j=lo..hi} a_j tau^j.
 * Returns the maximum error on the grid.
 */
static long double remez(const long double *g, int i0, int lo, int hi,
                         long double *a)
{
    int n = hi - lo + 1, nr = n + 1;
    int ref[MAXREF];
    for (int r = 0; r < nr; r++) {
        double x = 0.5 - 0.5 * cos(3.14159265358979323846 * r / (nr - 1));
        ref[r] = i0 + (int)lround(x * (GRID - i0));
        if (r > 0 && ref[r] <= ref[r - 1])
            ref[r] = ref[r - 1] + 1;
    }
    long double maxerr = 0;
    for (int iter = 0; iter < 40; iter++) {
        long double m[MAXREF][MAXREF + 1], x[MAXREF];
        for (int r = 0; r < nr; r++) {
            long double tau = tau_of(ref[r]), pw = 1;
            for (int j = 0; j < lo; j++)
                pw *= tau;
            for (int c = 0; c < n; c++, pw *= tau)
                m[r][c] = pw;
            m[r][n] = (r & 1) ? -1 : 1;
            m[r][n + 1] = g[ref[r]];
        }
        /* nr x nr system: unknowns a_lo..a_hi and the levelled error E. */
        if (!solve(m, nr, x))
            break;
        for (int j = 0; j < n; j++)
            a[lo + j] = x[j];
        long double E = fabsl(x[n]);

        /* Alternating extrema of the error over the grid. */
        int ext[GRID + 1], next = 0;
        long double ev[GRID + 1];
        maxerr = 0;
        for (int i = i0; i <= GRID; i++) {
            long double e = g[i] - poly(a, lo, hi, tau_of(i));
            if (fabsl(e) > maxerr)
                maxerr = fabsl(e);
            if (next > 0 && (e >= 0) == (ev[next - 1] >= 0)) {
                if (fabsl(e) > fabsl(ev[next - 1])) {
                    ev[next - 1] = e;
                    ext[next - 1] = i;
                }
            } else {
                ev[next] = e;
                ext[next++] = i;
            }
        }
        if (next < nr || maxerr <= E * (1 + 1e-12L))
            break;
        int first = 0, last = next - 1;
        while (last - first + 1 > nr) {
            if (fabsl(ev[first]) < fabsl(ev[last]))
                first++;
            else
                last--;
        }
        bool same = true;
        for (int r = 0; r < nr; r++) {
            same = same && ref[r] == ext[first + r];
            ref[r] = ext[first + r];
        }
        if (same)
            break;
    }
    return maxerr;
}

/* The function behind table t at m. */
static void eval_f(enum us_sfu_table t, mpfr_t out, const mpfr_t m,
                   mpfr_t tmp)
{
    switch (t) {
    case US_SFU_T_RCP: mpfr_ui_div(out, 1, m, MPFR_RNDN); break;
    case US_SFU_T_RSQ: mpfr_rec_sqrt(out, m, MPFR_RNDN); break;
    case US_SFU_T_SQRT: mpfr_sqrt(out, m, MPFR_RNDN); break;
    case US_SFU_T_LG2: mpfr_log2(out, m, MPFR_RNDN); break;
    case US_SFU_T_EX2: mpfr_exp2(out, m, MPFR_RNDN); break;
    default:  /* sin(pi/2 m), the quarter wave */
        mpfr_const_pi(tmp, MPFR_RNDN);
        mpfr_mul(tmp, tmp, m, MPFR_RNDN);
        mpfr_div_2ui(tmp, tmp, 1, MPFR_RNDN);
        mpfr_sin(out, tmp, MPFR_RNDN);
        break;
    }
}

/* Segment s covers m = base + sigma * t, t in [0, H). */
static void segment_origin(enum us_sfu_table t, unsigned k, unsigned kb,
                           unsigned s, long double *base, long double *sigma)
{
    long double H = ldexpl(1, -(int)kb);
    switch (t) {
    case US_SFU_T_RSQ:
    case US_SFU_T_SQRT: {
        unsigned p = s >> kb, j = s & ((1u << kb) - 1);
        *sigma = 1 + p;
        *base = (1 + p) * (1 + j * H);
        break;
    }
    case US_SFU_T_EX2:
    case US_SFU_T_SINCOS:
        *sigma = 1;
        *base = s * ldexpl(1, -(int)k);
        break;
    default:
        *sigma = 1;
        *base = 1 + s * H;
        break;
    }
}

static bool gen_fail(struct us_diag *diag, const char *msg, const char *name)
{
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, msg, name);
    return false;
}

bool us_sfu_generate(const struct us_sfu_config *cfg, enum us_sfu_table t,
                     int32_t *coef, struct us_sfu_coeffs *out, double *err,
                     struct us_diag *diag)
{
    unsigned k = cfg->k[t], d = cfg->degree[t], nseg = 1u << k;
    struct us_sfu_geom geo;
    us_sfu_geom(t, k, &geo);
    long double H = ldexpl(1, -(int)geo.kb);
    long double *g = malloc(sizeof *g * nseg * (GRID + 1));
    if (!g)
        return gen_fail(diag, "out of memory generating the %s table",
                        us_sfu_table_name(t));

    mpfr_t m, y, tmp;
    mpfr_inits2(160, m, tmp, (mpfr_ptr)0);
    mpfr_init2(y, 64);
    for (unsigned s = 0; s < nseg; s++) {
        long double base, sigma;
        segment_origin(t, k, geo.kb, s, &base, &sigma);
        for (int i = 0; i <= GRID; i++) {
            mpfr_set_ld(m, base + sigma * H * tau_of(i), MPFR_RNDN); /* exact */
            eval_f(t, y, m, tmp);
            g[s * (GRID + 1) + i] = mpfr_get_ld(y, MPFR_RNDN);
        }
    }
    mpfr_clears(m, y, tmp, (mpfr_ptr)0);

    /* lg2 and the sine quarter wave vanish at the start of segment 0:
     * there the polynomial is t * q(t), so c0 = 0 exactly. */
    bool zero0 = t == US_SFU_T_LG2 || t == US_SFU_T_SINCOS;

    /* Phase 1: magnitudes of the Horner accumulators fix the scales. */
    long double bound[US_SFU_MAX_DEGREE + 1] = { 0 };
    for (unsigned s = 0; s < nseg; s++) {
        int lo = zero0 && s == 0 ? 1 : 0;
        long double a[US_SFU_MAX_DEGREE + 1] = { 0 }, c[US_SFU_MAX_DEGREE + 1];
        remez(g + s * (GRID + 1), lo, lo, (int)d, a);
        for (unsigned i = 0; i <= d; i++)
            c[i] = a[i] / powl(H, i);
        for (unsigned i = 0; i <= d; i++) {
            long double b = 0;
            for (unsigned j = i; j <= d; j++)
                b += fabsl(c[j]) * powl(H, j - i);
            if (b > bound[i])
                bound[i] = b;
        }
    }
    for (unsigned i = 0; i <= d; i++) {
        int e = bound[i] > 0 ? (int)ceill(log2l(bound[i] * 1.01L)) : 0;
        out->shift[i] = (int8_t)(cfg->width[i] - 1 - e);
    }
    for (unsigned i = d + 1; i <= US_SFU_MAX_DEGREE; i++)
        out->shift[i] = 0;

    /* Phase 2: round from the top degree down, re-optimizing the rest. */
    long double worst = 0;
    for (unsigned s = 0; s < nseg; s++) {
        int lo = zero0 && s == 0 ? 1 : 0;
        long double r[GRID + 1];
        memcpy(r, g + s * (GRID + 1), sizeof r);
        int32_t *C = coef + (size_t)s * (d + 1);
        C[0] = 0;
        for (int j = (int)d; j >= lo; j--) {
            long double a[US_SFU_MAX_DEGREE + 1] = { 0 };
            remez(r, lo, lo, j, a);
            long double cj = a[j] / powl(H, j);
            long long q = llroundl(ldexpl(cj, out->shift[j]));
            long long lim = 1ll << (cfg->width[j] - 1);
            if (q >= lim || q < -lim) {
                free(g);
                return gen_fail(diag, "coefficient overflow in the %s table",
                                us_sfu_table_name(t));
            }
            C[j] = (int32_t)q;
            long double aq = ldexpl((long double)q, -out->shift[j]) * powl(H, j);
            for (int i = 0; i <= GRID; i++)
                r[i] -= aq * powl(tau_of(i), j);
        }
        for (int i = 0; i <= GRID; i++)
            if (fabsl(r[i]) > worst)
                worst = fabsl(r[i]);
        /* The Horner accumulators must fit their widths (the multiplier
         * takes at most 24 magnitude bits): bound them from the integers. */
        long double acc = fabsl((long double)C[d]);
        for (int i = (int)d - 1; i >= 1; i--) {
            acc = fabsl((long double)C[i]) +
                  acc * ldexpl(H, out->shift[i] - out->shift[i + 1]) + 1;
            if (acc >= ldexpl(1, cfg->width[i] - 1)) {
                free(g);
                return gen_fail(diag, "accumulator overflow in the %s table",
                                us_sfu_table_name(t));
            }
        }
    }
    free(g);
    out->k = (uint8_t)k;
    out->degree = (uint8_t)d;
    out->coef = coef;
    *err = (double)worst;
    return true;
}
