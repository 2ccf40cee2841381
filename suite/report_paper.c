/*
 * Section g of report.md, paper vs measured (suite/report.h): one row per
 * claim of the paper whose inputs this run has (a claim about a model that
 * did not run, or about vertex programs in a fragment-only subset, is left
 * out and named as such).  Each verdict compares the two numbers its row
 * prints, read back from the printed text: a figure agrees with the
 * paper's when their ratio is within TOLERANCE of 1 (shares and gains as
 * ratios: 37.3% is 0.373, +88% is 1.88), a range when the figure is
 * inside it.  tests/bench_report.test.sh checks the verdicts the same way.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "suite/report.h"

#define TOLERANCE 0.05

/* How a figure prints: a share "37.3%", a gain "+88.0%" (the ratio 1.88)
 * or a ratio "3.30x". */
enum fig_kind { SHARE, GAIN, RATIO };

/* A figure as printed, and the ratio the printed text stands for. */
struct fig {
    char text[32];
    double x;
};

/* Print ratio x as kind k with prec decimals; false when x is no value. */
static bool fig_make(struct fig *f, enum fig_kind k, double x, int prec)
{
    if (!isfinite(x))
        return false;
    if (k == SHARE)
        snprintf(f->text, sizeof f->text, "%.*f%%", prec, 100 * x);
    else if (k == GAIN)
        snprintf(f->text, sizeof f->text, "%+.*f%%", prec, 100 * (x - 1));
    else
        snprintf(f->text, sizeof f->text, "%.*fx", prec, x);
    double v = strtod(f->text, NULL);
    f->x = k == SHARE ? v / 100 : k == GAIN ? 1 + v / 100 : v;
    return true;
}

/* Measured m against the paper's p, both ratios. */
static const char *verdict(double m, double p)
{
    double q = m / p;
    return fabs(q - 1) <= TOLERANCE ? "Agrees"
           : q > 1                  ? "Differs (higher)"
                                    : "Differs (lower)";
}

static const char *verdict_range(double m, double lo, double hi)
{
    return m < lo ? "Differs (lower)" : m > hi ? "Differs (higher)"
                                               : "Agrees";
}

struct row {
    const char *paper;
    char measured[192];
    char why[1024];
};

/* One claim: fills *w and says true, or says false when this run lacks
 * its inputs. */
typedef bool (*claim_fn)(const struct us_report *r, struct row *w);

/* snprintf appending at the end of buf. */
static void cat(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t size, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, size - n, fmt, ap);
    va_end(ap);
}

static double util_ratio(const struct us_report *r, unsigned a, unsigned c)
{
    return r->util[R_SCALAR][c] / r->util[a][c];
}

/* ---- the claims ---------------------------------------------------------- */

static bool c_four(const struct us_report *r, struct row *w)
{
    struct fig m, v, fr;
    if (!fig_make(&m, SHARE, r->code[US_BENCH_ALL].w[4], 1))
        return false;
    bool both = us_report_has_class(r, US_BENCH_VERTEX) &&
                us_report_has_class(r, US_BENCH_FRAGMENT);
    fig_make(&v, SHARE, r->code[US_BENCH_VERTEX].w[4], 1);
    fig_make(&fr, SHARE, r->code[US_BENCH_FRAGMENT].w[4], 1);
    w->paper = "37.3%";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    if (both)
        cat(w->measured, sizeof w->measured, " (vertex %s, fragment %s)",
            v.text, fr.text);
    snprintf(w->why, sizeof w->why, "%s: the share is a property of the "
             "program mix.  DP4 and DPH count four components, DP3 three, "
             "a scalar SFU result one; texture fetches are the texture "
             "unit's and are left out.", verdict(m.x, 0.373));
    if (both) {
        const char *fv = verdict(fr.x, 0.373);
        cat(w->why, sizeof w->why, "  The vertex programs have %s "
            "four-component instructions, the fragment programs %s, which "
            "%s the paper's 37.3%%.", v.text, fr.text,
            fv[0] == 'A' ? "agrees with" : fr.x < 0.373 ? "is below"
                                                       : "is above");
    }
    return true;
}

/* The stall cause model a waits for most (section c), or NULL. */
static const char *top_stall(const struct us_report *r, unsigned a)
{
    static const char *const key[] = {
        "stalls.dependency", "stalls.sfu", "stalls.lut", "stalls.texture",
        "stalls.fetch",
    };
    static const char *const what[] = {
        "ALU results", "the SFU", "the LUT", "texture results",
        "instruction words",
    };
    double most = 0;
    const char *cause = NULL;
    for (unsigned k = 0; k < 5; k++) {
        double s = us_bench_sum(r->b, r->v[a], US_BENCH_ALL, key[k], false);
        if (s > most) {
            most = s;
            cause = what[k];
        }
    }
    return cause;
}

static bool c_bound(const struct us_report *r, struct row *w)
{
    struct fig m, s;
    if (!fig_make(&m, SHARE, r->code[US_BENCH_ALL].simd_bound, 1))
        return false;
    bool s4 = fig_make(&s, SHARE, r->util[R_SIMD4][US_BENCH_ALL], 1);
    w->paper = "about 68%";
    snprintf(w->measured, sizeof w->measured, "bound %s", m.text);
    if (s4)
        cat(w->measured, sizeof w->measured, ", simd4 measured %s", s.text);
    snprintf(w->why, sizeof w->why, "%s: the bound is the mean useful ops "
             "per issued vec4 instruction over 4 (a texture fetch takes an "
             "issue slot and does no ALU op), so it follows the width mix "
             "of section a.", verdict(m.x, 0.68));
    if (!s4)
        return true;
    const char *cause = top_stall(r, R_SIMD4);
    if (s.x < m.x)
        cat(w->why, sizeof w->why, "  Measured simd4 utilization is lower "
            "still (%s): its threads wait%s%s, which %d threads per unit "
            "hide only in part (section c).", s.text,
            cause ? " most for " : "", cause ? cause : "",
            r->b->base.v[US_KNOB_threads_per_proc]);
    else
        cat(w->why, sizeof w->why, "  Measured simd4 utilization (%s) "
            "reaches the bound.", s.text);
    return true;
}

/* What section h measured about the gain over model a: the per-program
 * fit at the paper's share, and the knob value closest to the paper's
 * figure `paper` (a ratio). */
static void cite_sens(const struct us_report *r, unsigned a, double paper,
                      double measured, struct row *w)
{
    struct us_bench_fit fit;
    if (us_bench_sens_fit(r->b, r->v[R_SCALAR], r->v[a], &fit)) {
        double at = 1 + fit.at_paper;
        cat(w->why, sizeof w->why, "  Section h: fitted over the %u "
            "programs at the paper's 37.3%% four-component share, the gain "
            "is %+.1f%% (r^2 %.2f), so the share mix %s", fit.n,
            100 * fit.at_paper, fit.r2,
            fabs(log(at / paper)) < fabs(log(measured / paper))
                ? "explains part of the difference"
                : "does not explain the difference");
    }
    unsigned k;
    int value;
    double g;
    if (us_report_sens_closest(r, a, paper, &k, &value, &g))
        cat(w->why, sizeof w->why, "; of the knobs the paper leaves "
            "unstated, %s=%d comes closest to its figure, at %+.1f%%",
            us_knobs[us_bench_sens[k].knob].name, value, 100 * (g - 1));
    cat(w->why, sizeof w->why, ".");
}

static bool c_gain_simd4(const struct us_report *r, struct row *w)
{
    struct fig g, pred, u;
    if (!fig_make(&g, GAIN, util_ratio(r, R_SIMD4, US_BENCH_ALL), 1) ||
        !fig_make(&pred, GAIN, 1 / r->code[US_BENCH_ALL].simd_bound, 1) ||
        !fig_make(&u, SHARE, r->util[R_SCALAR][US_BENCH_ALL], 1))
        return false;
    w->paper = "+88%";
    snprintf(w->measured, sizeof w->measured, "%s", g.text);
    const char *cause = top_stall(r, R_SCALAR);
    snprintf(w->why, sizeof w->why, "%s: the scalar SP wastes no lane on "
             "components an instruction does not compute, so 1 / simd4's "
             "bound predicts %s; %s (scalar SP utilization %s", 
             verdict(g.x, 1.88), pred.text,
             g.x < pred.x ? "the scalar SP's own waits take part of it back"
                          : "simd4's stalls below its bound add to it",
             u.text);
    if (g.x < pred.x && cause)
        cat(w->why, sizeof w->why, ", waiting most for %s, section c",
            cause);
    cat(w->why, sizeof w->why, ").");
    cite_sens(r, R_SIMD4, 1.88, g.x, w);
    return true;
}

static bool c_gain_hetero(const struct us_report *r, struct row *w)
{
    struct fig g, h, s;
    if (!fig_make(&g, GAIN, util_ratio(r, R_HETERO, US_BENCH_ALL), 1) ||
        !fig_make(&h, SHARE, r->util[R_HETERO][US_BENCH_ALL], 1))
        return false;
    unsigned vw = r->hetero_width;
    w->paper = "+48%";
    snprintf(w->measured, sizeof w->measured, "%s", g.text);
    snprintf(w->why, sizeof w->why, "%s: our hetero baseline "
             "(hetero_vec_width=%u) pairs a vec%u datapath with a scalar "
             "one; %s; at %u ALU lanes it has %u processors of %u lanes, "
             "and reaches %s", verdict(g.x, 1.48), vw, vw,
             vw < 4 ? "a four-component operation takes two issues of the "
                      "vec3 datapath"
                    : "its vec4 datapath takes a four-component operation "
                      "in one issue",
             r->lanes, r->hetero_procs, vw + 1, h.text);
    if (fig_make(&s, SHARE, r->util[R_SIMD4][US_BENCH_ALL], 1))
        cat(w->why, sizeof w->why, " against simd4's %s", s.text);
    cat(w->why, sizeof w->why, ".");
    cite_sens(r, R_HETERO, 1.48, g.x, w);
    return true;
}

static bool c_pixel(const struct us_report *r, struct row *w)
{
    struct fig gv, gf, bv, bf;
    if (!fig_make(&gv, GAIN, util_ratio(r, R_SIMD4, US_BENCH_VERTEX), 1) ||
        !fig_make(&gf, GAIN, util_ratio(r, R_SIMD4, US_BENCH_FRAGMENT), 1) ||
        !fig_make(&bv, SHARE, r->code[US_BENCH_VERTEX].simd_bound, 1) ||
        !fig_make(&bf, SHARE, r->code[US_BENCH_FRAGMENT].simd_bound, 1))
        return false;
    bool more = gf.x > gv.x;
    w->paper = "yes";
    snprintf(w->measured, sizeof w->measured, "vertex %s, fragment %s over "
             "simd4", gv.text, gf.text);
    snprintf(w->why, sizeof w->why, "%s: the SIMD bound is %s for the "
             "vertex and %s for the fragment programs; %s",
             more ? "Agrees" : "Differs", bv.text, bf.text,
             more == (bf.x < bv.x)
                 ? "the class with the lower bound leaves more of simd4's "
                   "lanes idle, which the scalar SP fills."
                 : "the bounds alone do not explain it: the models' stalls "
                   "differ between the classes.");
    return true;
}

static bool c_uncompacted(const struct us_report *r, struct row *w)
{
    struct fig m;
    if (!r->code[US_BENCH_ALL].programs ||
        !fig_make(&m, RATIO, r->code[US_BENCH_ALL].scalar_ratio, 2))
        return false;
    w->paper = "3.3x";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    snprintf(w->why, sizeof w->why, "%s: one scalar instruction per useful "
             "component (DP4 = MUL + 3 MAD) plus the lowering's moves",
             verdict(m.x, 3.3));
    double ops = r->code[US_BENCH_ALL].mean_ops;
    if (isfinite(ops) && r->code[US_BENCH_ALL].alu_programs)
        cat(w->why, sizeof w->why, ", so the ratio follows the programs' "
            "mean of %.2f useful ops per ALU instruction", ops);
    cat(w->why, sizeof w->why, ".");
    return true;
}

static bool c_compacted(const struct us_report *r, struct row *w)
{
    struct fig m;
    if (!r->code[US_BENCH_ALL].programs ||
        !fig_make(&m, RATIO, r->code[US_BENCH_ALL].compact_ratio, 3))
        return false;
    w->paper = "1.02-1.06x";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    const struct us_bench_code *cs = &r->code[US_BENCH_ALL];
    snprintf(w->why, sizeof w->why, "%s: the repeat counter and per-operand "
             "offsets cover every write mask and progression swizzle.  "
             "Section d measures the variants: a per-operand swizzle table "
             "gives %.3fx (at 112-bit words, %.3fx simd4's bits against "
             "%.3fx), dependent repetitions with lookahead %.3fx, so "
             "swizzles explain %.0f%% of the excess over 1.", 
             verdict_range(m.x, 1.02, 1.06),
             cs->form_ratio[US_COMPACT_SWIZZLE],
             cs->form_bits_ratio[US_COMPACT_SWIZZLE],
             cs->form_bits_ratio[US_COMPACT_OFFSETS],
             cs->form_ratio[US_COMPACT_CHAIN],
             100 * (m.x - cs->form_ratio[US_COMPACT_SWIZZLE]) / (m.x - 1));
    /* the opcodes that keep the most words beyond one per instruction
     * with swizzle tables */
    int excess[US_OP_COUNT] = { 0 };
    for (unsigned p = 0; p < r->b->nprogs; p++)
        for (unsigned op = 0; op < US_OP_COUNT; op++)
            excess[op] += (int)r->b->progs[p].code.op_form[US_COMPACT_SWIZZLE][op] -
                          (int)r->b->progs[p].code.op_count[op];
    cat(w->why, sizeof w->why, "  The rest is in instructions whose "
        "components are different operations or read different registers, "
        "relative reads (LDR) and per-component negation, which no "
        "per-operand encoding joins (isa/lower.c); most words beyond one "
        "per instruction:");
    for (unsigned n = 0; n < 5; n++) {
        unsigned top = 0;
        for (unsigned op = 1; op < US_OP_COUNT; op++)
            if (excess[op] > excess[top])
                top = op;
        if (excess[top] <= 0)
            break;
        cat(w->why, sizeof w->why, "%s %s %+d", n ? "," : "",
            us_ops[top].name, excess[top]);
        excess[top] = 0;
    }
    cat(w->why, sizeof w->why, " (section d, per opcode).");
    return true;
}

static bool c_sfu_share(const struct us_report *r, struct row *w)
{
    struct fig m;
    if (!fig_make(&m, SHARE, us_bench_mean(r->b, r->v[R_SCALAR], US_BENCH_ALL,
                                           "area.partial_sfu_share"), 1))
        return false;
    w->paper = "about 10%";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    snprintf(w->why, sizeof w->why, "%s: ours comes from the component "
             "table of shader/area.def (range-reduction shifters, "
             "leading-zero count, rounding, coefficient muxes) against an "
             "SP with its register file, not from a synthesized netlist as "
             "in the paper.", verdict(m.x, 0.10));
    return true;
}

static bool c_lut(const struct us_report *r, struct row *w)
{
    const struct us_bench *b = r->b;
    int priv = us_bench_var(b, "scalar-lut-private");
    int shared = us_bench_var(b, "scalar-lut-b4-mf1-la3");
    double base = us_bench_sum(b, priv, US_BENCH_ALL, "cycles", true);
    struct fig m;
    if (!(base > 0) ||
        !fig_make(&m, RATIO, us_bench_sum(b, shared, US_BENCH_ALL, "cycles",
                                          true) / base, 3))
        return false;
    double reads = us_bench_sum(b, shared, US_BENCH_ALL, "lut.accesses", true),
           merged = us_bench_sum(b, shared, US_BENCH_ALL, "lut.merged", true),
           stall = us_bench_sum(b, shared, US_BENCH_ALL, "lut.stall_cycles",
                                true);
    w->paper = "about 1.0x";
    snprintf(w->measured, sizeof w->measured, "%s the private-LUT cycles "
             "(4 banks, multi-fetch, lookahead 3)", m.text);
    snprintf(w->why, sizeof w->why, "%s: with one LUT per %u SPs, "
             "multi-fetch answered %.0f of %.0f requests with another's "
             "read and requesters stalled %.0f cycles beyond the 3-cycle "
             "lookahead (section e).", verdict(m.x, 1.0), r->lut_share,
             merged, reads + merged, stall);
    return true;
}

/* Geometric-mean ratios of the scalar SP to another model. */
struct norm {
    double area, time, energy, power, ad;
};

static void normalized(const struct us_report *r, unsigned ref,
                       struct norm *n)
{
    const struct us_bench *b = r->b;
    int v = r->v[R_SCALAR], rv = r->v[ref];
    n->area = us_bench_geo_ratio(b, v, rv, US_BENCH_ALL, "area");
    n->time = us_bench_geo_ratio(b, v, rv, US_BENCH_ALL, "cycles");
    n->energy = us_bench_geo_ratio(b, v, rv, US_BENCH_ALL, "energy");
    n->power = n->energy / n->time;
    n->ad = us_bench_geo_ratio(b, v, rv, US_BENCH_ALL, "area_delay");
}

static bool c_ad_simd4(const struct us_report *r, struct row *w)
{
    struct norm n;
    struct fig m;
    normalized(r, R_SIMD4, &n);
    if (!fig_make(&m, GAIN, n.ad, 1) || !isfinite(n.area) ||
        !isfinite(n.time))
        return false;
    char sfu[128];
    us_report_scalar_sfu(r, sfu, sizeof sfu);
    w->paper = "-22% (TVLSI: -27%)";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    snprintf(w->why, sizeof w->why, "%s: the scalar machine's area is "
             "%.3fx simd4's in shader/area.def (%u SPs with as many register "
             "files and issue controls, %s, against %u vec4 units with a "
             "full SFU each), so the product follows the time ratio %.3f",
             verdict(m.x, 0.78), n.area, r->lanes, sfu, r->simd4_units,
             n.time);
    if (fabs(m.x / 0.78 - 1) > TOLERANCE)
        cat(w->why, sizeof w->why, "; the paper's figure implies a %s time "
            "gain or a %s area overhead than modelled here",
            m.x < 0.78 ? "smaller" : "larger",
            m.x < 0.78 ? "larger" : "smaller");
    cat(w->why, sizeof w->why, ".");
    return true;
}

static bool c_ad_hetero(const struct us_report *r, struct row *w)
{
    struct norm n;
    struct fig m;
    normalized(r, R_HETERO, &n);
    if (!fig_make(&m, GAIN, n.ad, 1) || !isfinite(n.area) ||
        !isfinite(n.time))
        return false;
    w->paper = "-36%";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    snprintf(w->why, sizeof w->why, "%s: the product of the area (%.3f) and "
             "time (%.3f) ratios of the rows below; the %s ratio is further "
             "from 1.", verdict(m.x, 0.64), n.area, n.time,
             fabs(log(n.time)) >= fabs(log(n.area)) ? "time" : "area");
    return true;
}

static bool c_time_hetero(const struct us_report *r, struct row *w)
{
    struct norm n;
    struct fig m;
    normalized(r, R_HETERO, &n);
    if (!fig_make(&m, GAIN, n.time, 1))
        return false;
    w->paper = "-6%";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    snprintf(w->why, sizeof w->why, "%s", verdict(m.x, 0.94));
    double hs = us_bench_geo_ratio(r->b, r->v[R_HETERO], r->v[R_SIMD4],
                                   US_BENCH_ALL, "cycles");
    if (isfinite(hs))
        cat(w->why, sizeof w->why, ": our hetero baseline takes %.3fx "
            "simd4's cycles here (%s than simd4), where the paper's hetero "
            "was its strongest baseline", hs, hs > 1 ? "slower" : "faster");
    cat(w->why, sizeof w->why, ".");
    return true;
}

static bool c_area_hetero(const struct us_report *r, struct row *w)
{
    struct norm n;
    struct fig m;
    normalized(r, R_HETERO, &n);
    if (!fig_make(&m, GAIN, n.area, 1))
        return false;
    char sfu[128];
    us_report_scalar_sfu(r, sfu, sizeof sfu);
    w->paper = "about -30%";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    snprintf(w->why, sizeof w->why, "%s: hetero's %u processors each pay a "
             "vec%u and a scalar datapath, a full SFU with its LUT and a "
             "two-slot instruction word; the scalar machine's %u SPs pay as "
             "many register files and issue controls, with %s.  The balance "
             "comes from shader/area.def's published component costs, not "
             "from synthesis.", verdict(m.x, 0.70), r->hetero_procs,
             r->hetero_width, r->lanes, sfu);
    return true;
}

static bool c_power_hetero(const struct us_report *r, struct row *w)
{
    struct us_power p;
    struct fig m;
    if (!us_report_power(r, &p) || !fig_make(&m, GAIN, p.power, 1))
        return false;
    w->paper = "-15%";
    snprintf(w->measured, sizeof w->measured, "%s", m.text);
    snprintf(w->why, sizeof w->why, "%s: power is energy / time here, "
             "decomposed in section f: the scalar SP spends %.3fx hetero's "
             "energy on the same work in %.3fx its time, so the sign comes "
             "from %s; per useful op it spends %.3f pJ against %.3f, most "
             "of the difference in %s (%+.3f pJ).  The event-energy model "
             "(shader/area.def) has no leakage, which synthesized designs' "
             "power, the paper's, includes.", verdict(m.x, 0.85), p.energy,
             p.time, us_power_cause(&p), p.total[0], p.total[1],
             us_power_part(p.top), p.per_op[0][p.top] - p.per_op[1][p.top]);
    return true;
}

#define NEED(a) (1u << (a))
enum {
    SC = NEED(R_SCALAR), S4 = NEED(R_SIMD4), HE = NEED(R_HETERO),
};

/* The claims, with the models each needs (a claim about a model that did
 * not run is not even tried). */
static const struct {
    const char *what;
    claim_fn fn;
    unsigned needs;
} claims[] = {
    { "four-component instructions", c_four, 0 },
    { "SIMD utilization at most", c_bound, 0 },
    { "utilization, scalar vs SIMD", c_gain_simd4, SC | S4 },
    { "utilization, scalar vs hetero", c_gain_hetero, SC | HE },
    { "pixel shaders gain more than vertex shaders", c_pixel, SC | S4 },
    { "scalar instructions without compaction", c_uncompacted, 0 },
    { "scalar instructions with compaction", c_compacted, 0 },
    { "partial SFU logic over one SP", c_sfu_share, SC },
    { "shared LUT performs like private LUTs", c_lut, SC },
    { "area x delay vs SIMD", c_ad_simd4, SC | S4 },
    { "area x delay vs hetero", c_ad_hetero, SC | HE },
    { "execution time vs hetero", c_time_hetero, SC | HE },
    { "area vs hetero", c_area_hetero, SC | HE },
    { "power vs hetero", c_power_hetero, SC | HE },
};
enum { NCLAIMS = sizeof claims / sizeof claims[0] };

static bool ran_all(const struct us_report *r, unsigned needs)
{
    for (unsigned a = 0; a < R_NARCH; a++)
        if (needs & NEED(a) && !us_report_ran(r, a))
            return false;
    return true;
}

void us_report_paper(FILE *f, const struct us_report *r)
{
    fprintf(f, "## g. Paper vs measured\n\n"
            "One row per claim of the paper (Kim et al., IEEE TVLSI 20(9), "
            "2012) that this run can check; the last column says whether "
            "the measured figure agrees and why they differ (or agree).  A "
            "figure agrees when its ratio to the paper's is within %.0f%% "
            "of 1 (shares and gains compared as ratios: 37.3%% is 0.373, "
            "+88%% is 1.88), a range when it lies inside.\n\n"
            "| claim | paper | measured | why they differ (or agree) |\n"
            "|---|---|---|---|\n", 100 * TOLERANCE);
    char left[1024] = "";
    for (unsigned i = 0; i < NCLAIMS; i++) {
        struct row w = { 0 };
        if (!ran_all(r, claims[i].needs) || !claims[i].fn(r, &w)) {
            cat(left, sizeof left, "%s%s", left[0] ? "; " : "",
                claims[i].what);
            continue;
        }
        fprintf(f, "| %s | %s | %s | %s |\n", claims[i].what, w.paper,
                w.measured, w.why);
    }
    if (left[0])
        fprintf(f, "\nLeft out, for models or programs this run does not "
                "have: %s.\n", left);
    fputc('\n', f);
}
