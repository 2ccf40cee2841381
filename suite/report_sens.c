/*
 * Section h of report.md, sensitivity (suite/suite.h, suite/report.h):
 * how the scalar SP's utilization gain over each baseline depends on what
 * the paper leaves unstated.  Per program, the gain against the
 * program's four-component share, a least-squares line through those
 * points and its value at the paper's 37.3% (the scatter plot
 * sensitivity.png); the mean gain at other values of the knobs of
 * us_bench_sens (threads per processor, ALU latency, texture latency),
 * one knob at a time; and the baselines' issue rules side by side
 * (single issue, dynamic dual issue, 4 and 4+1 VLIW slots, 3+1 and 4+1
 * heterogeneous pairs), from the variants the bench runs anyway.
 */
#include <math.h>
#include <string.h>

#include "suite/report.h"

#define PAPER_SHARE 0.373

/* suite.h */
double us_bench_prog_share4(const struct us_bench *b, unsigned p)
{
    const unsigned *h = b->progs[p].code.width_hist;
    double n = (double)h[1] + h[2] + h[3] + h[4];
    return n > 0 ? h[4] / n : NAN;
}

/* suite.h */
bool us_bench_sens_fit(const struct us_bench *b, int v, int ref,
                       struct us_bench_fit *fit)
{
    memset(fit, 0, sizeof *fit);
    double sx = 0, sy = 0, sxx = 0, sxy = 0, syy = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        if (us_bench_prog_ops(b, p) == 0)
            continue;
        double x = us_bench_prog_share4(b, p),
               y = us_bench_stat(b, p, v, "utilization") /
                   us_bench_stat(b, p, ref, "utilization") - 1;
        if (!isfinite(x) || !isfinite(y))
            continue;
        fit->n++;
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
    }
    double n = fit->n, dxx = sxx - sx * sx / n, dyy = syy - sy * sy / n,
           dxy = sxy - sx * sy / n;
    if (fit->n < 3 || !(dxx > 0))
        return false;
    fit->slope = dxy / dxx;
    fit->icept = (sy - fit->slope * sx) / n;
    fit->r2 = dyy > 0 ? dxy * dxy / (dxx * dyy) : 1;
    fit->at_paper = fit->icept + fit->slope * PAPER_SHARE;
    return true;
}

/* Mean utilization of `model` at value `value` of knob k (section b's
 * mean; NaN when that variant did not run). */
static double sens_util(const struct us_bench *b, const char *model,
                        unsigned k, int value)
{
    return us_bench_util_mean(b, us_bench_sens_var(b, model, k, value),
                              US_BENCH_ALL);
}

/* Gain of the scalar SP over each baseline at one knob value. */
static void knob_row(FILE *f, const struct us_report *r, unsigned k,
                     int value)
{
    const struct us_bench *b = r->b;
    fprintf(f, "| %d%s |", value,
            value == b->base.v[us_bench_sens[k].knob] ? " (base)" : "");
    double us = sens_util(b, "scalar", k, value);
    fprintf(f, isfinite(us) ? " %.1f%% |" : " n/a |", 100 * us);
    for (unsigned a = R_SIMD4; a < R_NARCH; a++) {
        if (!us_report_ran(r, a))
            continue;
        double g = us / sens_util(b, us_report_arch[a], k, value);
        fprintf(f, isfinite(g) ? " %+.1f%% |" : " n/a |", 100 * (g - 1));
    }
    fputc('\n', f);
}

static void head(FILE *f, const struct us_report *r, const char *first)
{
    fprintf(f, "| %s | scalar utilization |", first);
    unsigned n = 0;
    for (unsigned a = R_SIMD4; a < R_NARCH; a++)
        if (us_report_ran(r, a)) {
            fprintf(f, " gain over %s |", us_report_arch[a]);
            n++;
        }
    fprintf(f, "\n|---|---:|");
    while (n--)
        fprintf(f, "---:|");
    fputc('\n', f);
}

static void knob_tables(FILE *f, const struct us_report *r)
{
    const struct us_bench *b = r->b;
    for (unsigned k = 0; k < US_BENCH_SENS_KNOBS; k++) {
        enum us_knob knob = us_bench_sens[k].knob;
        int vals[US_BENCH_SENS_VALUES + 1], n = 0;
        for (unsigned i = 0; i < US_BENCH_SENS_VALUES; i++)
            if (us_bench_sens[k].values[i])
                vals[n++] = us_bench_sens[k].values[i];
        bool has_base = false;
        for (int i = 0; i < n; i++)
            has_base |= vals[i] == b->base.v[knob];
        if (!has_base)
            vals[n++] = b->base.v[knob];
        for (int i = 1; i < n; i++)   /* ascending */
            for (int j = i; j > 0 && vals[j] < vals[j - 1]; j--) {
                int t = vals[j];
                vals[j] = vals[j - 1];
                vals[j - 1] = t;
            }
        fprintf(f, "**%s** (%s):\n\n", us_knobs[knob].name, us_knobs[knob].doc);
        head(f, r, us_knobs[knob].name);
        for (int i = 0; i < n; i++)
            knob_row(f, r, k, vals[i]);
        fputc('\n', f);
    }
}

static void rule_row(FILE *f, const struct us_report *r, const char *var,
                     const char *rule)
{
    int v = us_bench_var(r->b, var);
    if (v < 0)
        return;
    double us = r->util[R_SCALAR][US_BENCH_ALL],
           u = us_bench_util_mean(r->b, v, US_BENCH_ALL);
    fprintf(f, "| %s | %s | %.1f%% | %+.1f%% |\n", var, rule, 100 * u,
            100 * (us / u - 1));
}

/* The issue rules of the baselines, from the bench's own variants. */
static void issue_rules(FILE *f, const struct us_report *r)
{
    fprintf(f, "**Issue rules of the baselines** (the bench's own "
            "variants at the base configuration; the second hetero width "
            "runs at the lanes section b states):\n\n"
            "| baseline | issue rule | utilization | scalar gain over it |\n"
            "|---|---|---:|---:|\n");
    rule_row(f, r, "simd4", "one vec4 instruction per cycle per unit");
    rule_row(f, r, "superscalar", "dynamic dual issue of two independent "
             "vec4 instructions whose widths fit 4 lanes (2+2, 3+1, ...)");
    rule_row(f, r, "vliw", "4 scalar slots, list-scheduled");
    rule_row(f, r, "vliw-4+1", "4 slots and a transcendental slot");
    char rule[64];
    for (unsigned w = 3; w <= 4; w++) {
        snprintf(rule, sizeof rule, "a vec%u and a scalar datapath "
                 "co-issuing (%u+1)", w, w);
        if (w == r->hetero_width)
            rule_row(f, r, "hetero", rule);
        else
            rule_row(f, r, w == 3 ? "hetero-3+1" : "hetero-4+1", rule);
    }
    fputc('\n', f);
}

/* report.h */
bool us_report_sens_closest(const struct us_report *r, unsigned a,
                            double paper, unsigned *knob, int *value,
                            double *gain)
{
    const struct us_bench *b = r->b;
    bool any = false;
    for (unsigned k = 0; k < US_BENCH_SENS_KNOBS; k++)
        for (unsigned i = 0; i < US_BENCH_SENS_VALUES; i++) {
            int x = us_bench_sens[k].values[i];
            if (x == 0 || x == b->base.v[us_bench_sens[k].knob])
                continue;
            double g = sens_util(b, "scalar", k, x) /
                       sens_util(b, us_report_arch[a], k, x);
            if (!isfinite(g))
                continue;
            if (!any || fabs(log(g / paper)) < fabs(log(*gain / paper))) {
                *knob = k;
                *value = x;
                *gain = g;
                any = true;
            }
        }
    return any;
}

void us_report_sensitivity(FILE *f, const struct us_report *r, bool plots)
{
    if (!us_report_ran(r, R_SCALAR))
        return;
    const struct us_bench *b = r->b;
    fprintf(f, "## h. Sensitivity\n\n"
            "What the paper leaves unstated, measured.  **Gain against the "
            "four-component share**: per program with useful ALU ops, the "
            "scalar SP's utilization over a baseline's, less 1, against "
            "the program's share of four-component ALU instructions "
            "(section a's definition); a least-squares line through the "
            "points, and its value at the paper's 37.3%% (the paper "
            "reports +88%% over SIMD and +48%% over its heterogeneous "
            "SP there).\n\n"
            "| baseline | programs | slope (per 10 points of share) | "
            "at 0%% | r^2 | fitted at 37.3%% | mean gain (section b) |\n"
            "|---|---:|---:|---:|---:|---:|---:|\n");
    for (unsigned a = R_SIMD4; a < R_NARCH; a++) {
        struct us_bench_fit fit;
        if (!us_report_ran(r, a) ||
            !us_bench_sens_fit(b, r->v[R_SCALAR], r->v[a], &fit))
            continue;
        double g = r->util[R_SCALAR][US_BENCH_ALL] / r->util[a][US_BENCH_ALL];
        fprintf(f, "| %s | %u | %+.1f%% | %+.1f%% | %.2f | %+.1f%% | "
                "%+.1f%% |\n", us_report_arch[a], fit.n, 10 * fit.slope,
                100 * fit.icept, fit.r2, 100 * fit.at_paper,
                100 * (g - 1));
    }
    fputc('\n', f);
    if (plots)
        fprintf(f, "![gain against the four-component share]"
                "(sensitivity.png)\n\n");
    bool ran = false;
    for (unsigned v = 0; v < b->nvars; v++)
        ran |= b->vars[v].group == US_BG_SENS;
    if (ran) {
        fprintf(f, "**Knobs**, one at a time, every other knob at the base "
                "configuration: the mean utilization (section b's mean) of "
                "the scalar SP and its gain over each baseline.\n\n");
        knob_tables(f, r);
    } else {
        fprintf(f, "(The knob tables were left out of this run: "
                "`--no-sensitivity`.)\n\n");
    }
    issue_rules(f, r);
}
