/* The glmark2 section of report.md (docs/GLMARK2.md): for the programs
 * instantiated from glmark2-data (a path under glmark2/), the vector-width
 * mix against the paper's 37.3% four-component instructions, utilization
 * and cycles per model, the cost of divergent branches, and the runs that
 * failed.  Like the rest of the report, a function of the results only. */
#include <math.h>
#include <string.h>

#include "suite/suite.h"

static const char *const models[] = {
    "scalar", "simd4", "vliw", "superscalar", "hetero",
};
enum { NMODELS = sizeof models / sizeof models[0] };

bool us_bench_is_glmark2(const struct us_bench_prog *bp)
{
    return strstr(bp->path, "glmark2/") != NULL;
}

static const char *cell(char *buf, size_t size, const char *fmt, double x)
{
    if (isnan(x) || isinf(x))
        snprintf(buf, size, "n/a");
    else
        snprintf(buf, size, fmt, x);
    return buf;
}

/* Share of each width among a program's vec4 instructions; false when it
 * has none. */
static bool widths(const struct us_bench_prog *bp, double w[5])
{
    unsigned total = 0;
    for (unsigned k = 1; k <= 4; k++)
        total += bp->code.width_hist[k];
    for (unsigned k = 1; k <= 4; k++)
        w[k] = total ? (double)bp->code.width_hist[k] / total : NAN;
    return total > 0;
}

/* Does source `s` of a component-wise instruction give the same value in
 * every component?  A replicated swizzle does; so does a literal whose
 * swizzled components are equal, or a temporary that only ever holds
 * such values (bcast[]). */
static bool same_everywhere(const struct us_program *prog,
                            const struct us_src *s, const bool *bcast)
{
    bool repl = s->swz[0] == s->swz[1] && s->swz[1] == s->swz[2] &&
                s->swz[2] == s->swz[3];
    unsigned neg = s->negate & 0xf;
    if (neg != 0 && neg != 0xf)
        return false;
    if (repl)
        return true;
    if (s->file == US_FILE_TEMP)
        return s->index < prog->ntemps && bcast[s->index];
    if (s->file == US_FILE_PARAM && !s->rel && s->index < prog->nparams &&
        prog->params[s->index].kind == US_PARAM_CONST) {
        const float *v = prog->params[s->index].value;
        float x[4];
        for (unsigned c = 0; c < 4; c++)
            x[c] = s->swz[c] <= US_SWZ_W ? v[s->swz[c]]
                   : s->swz[c] == US_SWZ_ZERO ? 0.0f : 1.0f;
        return x[0] == x[1] && x[1] == x[2] && x[2] == x[3];
    }
    return false;
}

/* Does instruction `in` write one value to all four components? */
static bool broadcast_result(const struct us_program *prog,
                             const struct us_inst *in, const bool *bcast)
{
    if (in->dst.mask != 0xf)
        return false;
    enum us_shape sh = us_ops[in->op].shape;
    if (sh == US_SHAPE_REPL || sh == US_SHAPE_DOT)
        return true;
    if (sh != US_SHAPE_COMP || us_ops[in->op].unit == US_UNIT_TEX)
        return false;
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
        if (!same_everywhere(prog, &in->src[k], bcast))
            return false;
    return true;
}

/* Components of each temporary that some instruction reads (for the
 * components it computes: a component-wise source's swizzle under the
 * write mask, a replicated or scalar source's first selector, DP3's
 * first three, everything for the others). */
static void temps_read(const struct us_program *prog, uint8_t *used,
                       unsigned nt)
{
    memset(used, 0, nt);
    for (unsigned i = 0; i < prog->ninsts; i++) {
        const struct us_inst *in = &prog->insts[i];
        const struct us_opinfo *op = &us_ops[in->op];
        for (unsigned k = 0; k < op->nsrc; k++) {
            const struct us_src *src = &in->src[k];
            if (src->file != US_FILE_TEMP || src->index >= nt)
                continue;
            unsigned comps = 0xf;
            if (op->shape == US_SHAPE_COMP && op->unit != US_UNIT_TEX)
                comps = in->dst.mask;
            else if (op->shape == US_SHAPE_REPL || op->format == US_FMT_SCL)
                comps = 1;
            else if (in->op == US_OP_DP3)
                comps = 7;
            for (unsigned c = 0; c < 4; c++)
                if (comps >> c & 1 && src->swz[c] <= US_SWZ_W)
                    used[src->index] |= (uint8_t)(1u << src->swz[c]);
        }
    }
}

/* Width histogram of the values instructions compute, texture fetches
 * left out: a component-wise instruction counts the components it writes
 * that something reads (all of them for outputs), and 1 when all four
 * hold one value (every source replicated: a GLSL float kept in a whole
 * vec4 register); other instructions count us_inst_hist_width.  *bcast4
 * gets the number of four-wide instructions that compute one value.
 * Temporaries are assumed to hold one value until a write says
 * otherwise, to a fixed point, so loops and branches are covered. */
static void live_widths(const struct us_program *prog, unsigned hist[5],
                        unsigned *bcast4)
{
    enum { MAXT = 1024 };
    bool bcast[MAXT];
    uint8_t used[MAXT];
    unsigned nt = prog->ntemps < MAXT ? prog->ntemps : MAXT;
    for (unsigned t = 0; t < nt; t++)
        bcast[t] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < prog->ninsts; i++) {
            const struct us_inst *in = &prog->insts[i];
            if (in->dst.file != US_FILE_TEMP || in->dst.index >= nt ||
                !bcast[in->dst.index] || broadcast_result(prog, in, bcast))
                continue;
            bcast[in->dst.index] = false;
            changed = true;
        }
    }
    temps_read(prog, used, nt);
    memset(hist, 0, 5 * sizeof *hist);
    *bcast4 = 0;
    for (unsigned i = 0; i < prog->ninsts; i++) {
        const struct us_inst *in = &prog->insts[i];
        unsigned w = us_inst_hist_width(in);   /* texture fetches: 0 */
        if (w == 0)
            continue;
        if (us_ops[in->op].shape == US_SHAPE_COMP) {
            unsigned mask = in->dst.mask;
            if (in->dst.file == US_FILE_TEMP && in->dst.index < nt)
                mask &= used[in->dst.index];
            unsigned live = (unsigned)__builtin_popcount(mask);
            if (w == 4 && broadcast_result(prog, in, bcast)) {
                ++*bcast4;
                live = 1;
            }
            w = live < w ? (live ? live : 1) : w;
        }
        hist[w > 4 ? 4 : w]++;
    }
}

static bool in_class(const struct us_bench_prog *bp, unsigned c)
{
    return c == US_BENCH_ALL ||
           (c == US_BENCH_VERTEX) == (bp->prog.stage == US_STAGE_VERTEX);
}

static void width_table(FILE *f, const struct us_bench *b)
{
    fprintf(f, "| programs | n | 1 | 2 | 3 | 4 |\n"
            "|---|---:|---:|---:|---:|---:|\n");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
        double sum[5] = { 0 }, w[5];
        unsigned n = 0;
        for (unsigned p = 0; p < b->nprogs; p++) {
            const struct us_bench_prog *bp = &b->progs[p];
            if (!us_bench_is_glmark2(bp) || !in_class(bp, c) ||
                !widths(bp, w))
                continue;
            for (unsigned k = 1; k <= 4; k++)
                sum[k] += w[k];
            n++;
        }
        if (n == 0)
            continue;   /* no program of this class */
        char s[5][16];
        for (unsigned k = 1; k <= 4; k++)
            cell(s[k], sizeof s[k], "%.1f%%", 100 * sum[k] / n);
        fprintf(f, "| %s | %u | %s | %s | %s | %s |\n",
                us_bench_class_names[c], n, s[1], s[2], s[3], s[4]);
    }
    fputc('\n', f);
}

/* Mean utilization over the glmark2 programs of class c with useful ALU
 * ops (as us_bench_util_mean). */
static double util_mean(const struct us_bench *b, int v, unsigned c)
{
    double sum = 0;
    unsigned n = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        if (!us_bench_is_glmark2(&b->progs[p]) ||
            !in_class(&b->progs[p], c) || !us_bench_prog_ops(b, p))
            continue;
        double x = us_bench_stat(b, p, v, "utilization");
        if (!isnan(x)) {
            sum += x;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* Mean utilization per model, a column per class the section has. */
static void util_table(FILE *f, const struct us_bench *b, const int *v,
                       unsigned lanes)
{
    bool has[US_BENCH_NCLASS];
    unsigned none = 0;
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        has[c] = false;
    for (unsigned p = 0; p < b->nprogs; p++) {
        if (!us_bench_is_glmark2(&b->progs[p]))
            continue;
        none += !us_bench_prog_ops(b, p);
        for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
            has[c] |= in_class(&b->progs[p], c) && us_bench_prog_ops(b, p);
    }
    fprintf(f, "### Utilization and cycles per model\n\n"
            "Mean utilization (useful ops / (%u lanes x cycles)) over the "
            "glmark2 programs with useful ALU ops", lanes);
    if (none)
        fprintf(f, " (%u without any left out)", none);
    fprintf(f, ".\n\n| model |");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        if (has[c])
            fprintf(f, " %s |", us_bench_class_names[c]);
    fprintf(f, "\n|---|");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        if (has[c])
            fprintf(f, "---:|");
    fputc('\n', f);
    for (unsigned a = 0; a < NMODELS; a++) {
        if (v[a] < 0)
            continue;
        fprintf(f, "| %s |", models[a]);
        for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
            char s[16];
            if (has[c])
                fprintf(f, " %s |", cell(s, sizeof s, "%.1f%%",
                                         100 * util_mean(b, v[a], c)));
        }
        fputc('\n', f);
    }
}

/* ---- Mesa's TGSI beside our code (suite/tgsi.h) ------------------------ */

static bool any_mesa(const struct us_bench *b)
{
    for (unsigned p = 0; p < b->nprogs; p++)
        if (us_bench_is_glmark2(&b->progs[p]) && b->progs[p].has_mesa)
            return true;
    return false;
}

/* The SIMD bound of our code (suite/summary.c): useful ops / (4 x the
 * instructions that issue, texture fetches included). */
static double bound_ours(const struct us_bench *b, unsigned p)
{
    const struct us_program *prog = &b->progs[p].prog;
    unsigned n = 0;
    for (unsigned i = 0; i < prog->ninsts; i++)
        n += us_inst_width(&prog->insts[i]) > 0;
    return n ? us_bench_prog_ops(b, p) / (4.0 * n) : NAN;
}

/* The same on Mesa's code. */
static double bound_mesa(const struct us_bench_prog *bp)
{
    return bp->mesa.issued ? bp->mesa.ops / (4.0 * bp->mesa.issued) : NAN;
}

/* Share of each width among Mesa's ALU instructions (widths() on ours). */
static bool mesa_widths(const struct us_bench_prog *bp, double w[5])
{
    unsigned total = 0;
    for (unsigned k = 1; k <= 4; k++)
        total += bp->mesa.width_hist[k];
    for (unsigned k = 1; k <= 4; k++)
        w[k] = total ? (double)bp->mesa.width_hist[k] / total : NAN;
    return total > 0;
}

/* Does program p count in the Mesa comparison: a glmark2 program of class
 * c with Mesa's TGSI and useful ALU ops on both sides? */
static bool mesa_prog(const struct us_bench *b, unsigned p, unsigned c)
{
    const struct us_bench_prog *bp = &b->progs[p];
    return us_bench_is_glmark2(bp) && in_class(bp, c) && bp->has_mesa &&
           bp->mesa.ops > 0 && us_bench_prog_ops(b, p) > 0;
}

/* Utilization of model a (variant v) on program p, on our code or, with
 * `mesa`, estimated on Mesa's: a vec4 model keeps its measured cycles per
 * issued instruction, so its utilization scales by the SIMD bound; the
 * scalar SP issues one op per component, so its cycles scale with the
 * ops and its utilization stays. */
static double util_of(const struct us_bench *b, unsigned p, int v,
                      unsigned a, bool mesa)
{
    double u = us_bench_stat(b, p, v, "utilization");
    if (!mesa || a == 0)
        return u;
    return u * bound_mesa(&b->progs[p]) / bound_ours(b, p);
}

/* Means over the programs of class c in the comparison: four-component
 * share, instructions (sums), bound, utilization of model a. */
struct mesa_means {
    unsigned n, insts[2];
    double w4[2], bound[2], util[NMODELS][2];
};

static void mesa_means(const struct us_bench *b, const int *v, unsigned c,
                       struct mesa_means *m)
{
    memset(m, 0, sizeof *m);
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        double wo[5], wm[5];
        if (!mesa_prog(b, p, c) || !widths(bp, wo) || !mesa_widths(bp, wm))
            continue;
        m->n++;
        m->insts[0] += bp->code.vec4_instructions;
        m->insts[1] += bp->mesa.instructions;
        m->w4[0] += wo[4];
        m->w4[1] += wm[4];
        m->bound[0] += bound_ours(b, p);
        m->bound[1] += bound_mesa(bp);
        for (unsigned a = 0; a < NMODELS; a++)
            for (int k = 0; k < 2 && v[a] >= 0; k++)
                m->util[a][k] += util_of(b, p, v[a], a, k);
    }
    double n = m->n ? m->n : NAN;
    for (int k = 0; k < 2; k++) {
        m->w4[k] /= n;
        m->bound[k] /= n;
        for (unsigned a = 0; a < NMODELS; a++)
            m->util[a][k] /= n;
    }
}

/* The programs whose loops differ between our code and Mesa's: there the
 * static counts are not the executed ones, so this lists our executed
 * count (simd4's issued instructions per thread, on the scene's inputs)
 * beside Mesa's, which is its static count when its code has no flow. */
static void mesa_loops(FILE *f, const struct us_bench *b, int simd4)
{
    unsigned shown = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        if (!us_bench_is_glmark2(bp) || !bp->has_mesa)
            continue;
        unsigned loops = 0;
        for (unsigned i = 0; i < bp->prog.ninsts; i++)
            loops += bp->prog.insts[i].op == US_OP_BGNLOOP;
        if (loops == bp->mesa.loops)
            continue;
        if (!shown++)
            fprintf(f, "Programs whose loops differ (a loop with a constant "
                    "trip count one compiler unrolled, or the one-trip loop "
                    "glslang makes of a function with early returns), where "
                    "the static counts above are not the executed ones:\n\n");
        fprintf(f, "- %s: %u loop%s in ours, %u in Mesa's; static %u against "
                "%u", bp->name, loops, loops == 1 ? "" : "s", bp->mesa.loops,
                bp->code.vec4_instructions, bp->mesa.instructions);
        double issued = simd4 >= 0 ? us_bench_stat(b, p, simd4, "issued")
                                   : NAN;
        if (!isnan(issued) && bp->n)
            fprintf(f, "; ours executes %.1f per thread (simd4's issued / "
                    "threads, on the scene's inputs)", issued / bp->n);
        if (bp->mesa.width_hist[0] == bp->mesa.tex)   /* no flow at all */
            fprintf(f, ", Mesa's straight-line code its %u",
                    bp->mesa.instructions);
        fprintf(f, "\n");
    }
    if (shown)
        fputc('\n', f);
}

static void mesa_section(FILE *f, const struct us_bench *b, const int *v)
{
    if (!any_mesa(b))
        return;   /* bench/tgsi_compare.sh did not run, or Mesa is missing */
    unsigned n = 0, with = 0;
    for (unsigned p = 0; p < b->nprogs; p++)
        if (us_bench_is_glmark2(&b->progs[p])) {
            n++;
            with += b->progs[p].has_mesa;
        }
    struct mesa_means m[US_BENCH_NCLASS];
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        mesa_means(b, v, c, &m[c]);
    char s[8][24];

    fprintf(f, "\n### Against Mesa's TGSI\n\n"
            "Mesa's code for the same shaders: the TGSI Mesa's softpipe "
            "prints for each pair (bench/tgsi_compare.sh runs piglit's "
            "shader_runner with SOFTPIPE_DEBUG=fs,vs at bench time and "
            "leaves PAIR.vert.tgsi and PAIR.frag.tgsi beside the GLSL; a "
            "shader shared by several pairs has the TGSI of the pair it is "
            "listed under), counted as ours (suite/tgsi.c): END, "
            "declarations and immediates left out; an instruction's width "
            "is the components its write mask names (none: four), a dot "
            "product's is its length, and RCP, RSQ, EX2, LG2, POW, SIN and "
            "COS count one; texture fetches are left out of the widths as "
            "ours are.  "
            "%u of the %u programs %s it; the figures below are over "
            "those with useful ALU ops on both sides.\n\n", with, n,
            with == 1 ? "has" : "have");
    fprintf(f, "| programs | n | instructions ours | TGSI | ratio | "
            "4-wide ours | 4-wide TGSI | bound ours | bound TGSI |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
        if (m[c].n == 0)
            continue;
        fprintf(f, "| %s | %u | %u | %u | %s | %s | %s | %s | %s |\n",
                us_bench_class_names[c], m[c].n, m[c].insts[0],
                m[c].insts[1],
                cell(s[0], sizeof s[0], "%.2fx",
                     (double)m[c].insts[0] / m[c].insts[1]),
                cell(s[1], sizeof s[1], "%.1f%%", 100 * m[c].w4[0]),
                cell(s[2], sizeof s[2], "%.1f%%", 100 * m[c].w4[1]),
                cell(s[3], sizeof s[3], "%.1f%%", 100 * m[c].bound[0]),
                cell(s[4], sizeof s[4], "%.1f%%", 100 * m[c].bound[1]));
    }
    fputc('\n', f);
    mesa_loops(f, b, v[1]);
    const struct mesa_means *all = &m[US_BENCH_ALL];
    if (all->n == 0)
        return;
    double d = 100 * (all->w4[0] - all->w4[1]);
    fprintf(f, "Four-component share (mean over programs, as above): "
            "%s on Mesa's mix against %s on ours.  ",
            cell(s[0], sizeof s[0], "%.1f%%", 100 * all->w4[1]),
            cell(s[1], sizeof s[1], "%.1f%%", 100 * all->w4[0]));
    if (fabs(d) <= 5)
        fprintf(f, "They are within 5 points (%+.1f), so the headline share "
                "does not hinge on our compiler's extra instructions.\n\n", d);
    else
        fprintf(f, "Ours is %.1f points %s: read the headline share with "
                "Mesa's beside it.\n\n", fabs(d), d > 0 ? "higher" : "lower");

    fprintf(f, "Utilization on Mesa's mix is an estimate, not a run (the "
            "models run our code only), per program: a vec4 model (simd4, "
            "vliw, superscalar, hetero) keeps the cycles per issued "
            "instruction measured on our code, so its utilization scales "
            "by the SIMD bound, useful ops / (4 x instructions that issue, "
            "texture fetches included): util x bound TGSI / bound ours; the "
            "scalar SP spends a lane-cycle per useful op whatever the "
            "width, so its cycles scale with the ops and its utilization "
            "stays as measured.\n\n| model |");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        if (m[c].n)
            fprintf(f, " %s ours | %s TGSI mix |", us_bench_class_names[c],
                    us_bench_class_names[c]);
    fprintf(f, "\n|---|");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        if (m[c].n)
            fprintf(f, "---:|---:|");
    fputc('\n', f);
    int most = -1;
    for (unsigned a = 0; a < NMODELS; a++) {
        if (v[a] < 0)
            continue;
        fprintf(f, "| %s |", models[a]);
        for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
            for (int k = 0; k < 2 && m[c].n; k++)
                fprintf(f, " %s |", cell(s[0], sizeof s[0], "%.1f%%",
                                         100 * m[c].util[a][k]));
        fputc('\n', f);
        double x = fabs(all->util[a][1] - all->util[a][0]);
        if (most < 0 || x > fabs(all->util[most][1] - all->util[most][0]))
            most = (int)a;
    }
    if (most >= 0)
        fprintf(f, "\nThe largest change is %s's: %s on Mesa's mix against "
                "%s on ours (all programs).",
                models[most],
                cell(s[0], sizeof s[0], "%.1f%%", 100 * all->util[most][1]),
                cell(s[1], sizeof s[1], "%.1f%%", 100 * all->util[most][0]));
    if (v[0] >= 0 && v[1] >= 0)   /* the paper's claim: scalar over simd4 */
        fprintf(f, "  The scalar SP's utilization over simd4's: %s on "
                "Mesa's mix, %s on ours.",
                cell(s[2], sizeof s[2], "%+.0f%%",
                     100 * (all->util[0][1] / all->util[1][1] - 1)),
                cell(s[3], sizeof s[3], "%+.0f%%",
                     100 * (all->util[0][0] / all->util[1][0] - 1)));
    fprintf(f, "\n\n");
}

void us_bench_report_glmark2(FILE *f, const struct us_bench *b)
{
    unsigned n = 0, nv = 0;
    for (unsigned p = 0; p < b->nprogs; p++)
        if (us_bench_is_glmark2(&b->progs[p])) {
            n++;
            nv += b->progs[p].prog.stage == US_STAGE_VERTEX;
        }
    if (n == 0)
        return;
    int v[NMODELS];
    for (unsigned a = 0; a < NMODELS; a++)
        v[a] = us_bench_var(b, models[a]);
    unsigned lanes = (unsigned)b->base.v[US_KNOB_alu_lanes];
    char s[8][24];

    fprintf(f, "## glmark2 shader pairs\n\n"
            "%u programs (%u vertex, %u fragment) from glmark2's shader "
            "pairs: Debian's glmark2-data templates instantiated with "
            "glmark2's default values by tools/glmark2_gen "
            "(bench/glmark2/pairs.txt names each value's source), compiled "
            "GLSL ES -> SPIR-V -> vec4 IR, and fed by the scenes "
            "bench/glmark2/*.scn (docs/GLMARK2.md lists the pairs and "
            "their status).  A shader shared by several pairs is counted "
            "once.  Every pair fits in the %d vec4 varying slots of knob "
            "varying_slots (%s GLES 2.0's minimum GL_MAX_VARYING_VECTORS, "
            "8).\n\n", n, nv, n - nv, b->base.v[US_KNOB_varying_slots],
            b->base.v[US_KNOB_varying_slots] == US_VARYING_SLOTS_DEFAULT
                ? "the default," : "raised from");

    fprintf(f, "### Vector width\n\nShare of ALU vec4 instructions "
            "(texture fetches left out) by the useful ops they ask for, "
            "averaged over the programs that have any.\n\n");
    width_table(f, b);
    double w4 = 0;
    unsigned nw = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        double w[5];
        if (us_bench_is_glmark2(&b->progs[p]) && widths(&b->progs[p], w)) {
            w4 += w[4];
            nw++;
        }
    }
    /* the widths of the values computed (live_widths) */
    double sv = 0, live[5] = { 0 };
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        unsigned h[5], b4, tot = 0;
        if (!us_bench_is_glmark2(bp))
            continue;
        live_widths(&bp->prog, h, &b4);
        for (unsigned k = 1; k <= 4; k++)
            tot += h[k];
        if (!tot)
            continue;
        sv += (double)b4 / tot;
        for (unsigned k = 1; k <= 4; k++)
            live[k] += (double)h[k] / tot;
    }
    if (nw)
        fprintf(f, "Paper: 37.3%% four-component instructions on its "
            "benchmark shaders.  glmark2: %s, as the metric counts them "
            "(SPEC 3: written components).  The GLSL translation writes "
            "only the components later instructions read and packs "
            "scalars into the components of TEMPs; %s of the "
            "instructions still write four components of one replicated "
            "value (splats into outputs, vec4 constants).  Counting only "
            "the components some instruction reads from that register "
            "(an over-estimate: registers are reused), and one for a "
            "replicated value, the mix is 1: %s, 2: %s, 3: %s, "
            "4: %s.\n\n",
            cell(s[0], sizeof s[0], "%.1f%%", nw ? 100 * w4 / nw : NAN),
            cell(s[1], sizeof s[1], "%.1f%%", nw ? 100 * sv / nw : NAN),
            cell(s[2], sizeof s[2], "%.1f%%", nw ? 100 * live[1] / nw : NAN),
            cell(s[3], sizeof s[3], "%.1f%%", nw ? 100 * live[2] / nw : NAN),
            cell(s[4], sizeof s[4], "%.1f%%", nw ? 100 * live[3] / nw : NAN),
            cell(s[5], sizeof s[5], "%.1f%%", nw ? 100 * live[4] / nw : NAN));

    util_table(f, b, v, lanes);
    mesa_section(f, b, v);
    bool mesa = any_mesa(b);

    fprintf(f, "\nPer program: share of 1/2/3/4-component instructions "
            "(texture fetches left out), utilization and cycles per "
            "model%s%s.\n\n| program | stage | vec4 |%s 1/2/3/4 |",
            v[0] < 0 ? "" : "; *div.* counts the scalar SP's IFs whose "
            "active lanes disagreed and *masked* the share of its "
            "lane-cycles issued to masked lanes (masked_lane_slots / "
            "(lanes x cycles)); - for programs without flow control",
            mesa ? "; *TGSI* Mesa's instructions (section above)" : "",
            mesa ? " TGSI |" : "");
    for (unsigned a = 0; a < NMODELS; a++)
        if (v[a] >= 0)
            fprintf(f, " util %s |", models[a]);
    for (unsigned a = 0; a < NMODELS; a++)
        if (v[a] >= 0)
            fprintf(f, " cycles %s |", models[a]);
    bool sc = v[0] >= 0;   /* div. and masked are the scalar SP's */
    fprintf(f, "%s\n|---|---|---:|%s---|", sc ? " div. | masked |" : "",
            mesa ? "---:|" : "");
    for (unsigned a = 0; a < 2 * NMODELS; a++)
        if (v[a % NMODELS] >= 0)
            fprintf(f, "---:|");
    fprintf(f, "%s\n", sc ? "---:|---:|" : "");
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        if (!us_bench_is_glmark2(bp))
            continue;
        double w[5];
        widths(bp, w);
        fprintf(f, "| %s | %s | %u |", bp->name,
                bp->prog.stage == US_STAGE_VERTEX ? "vertex" : "fragment",
                bp->code.vec4_instructions);
        if (mesa && bp->has_mesa)
            fprintf(f, " %u |", bp->mesa.instructions);
        else if (mesa)
            fprintf(f, " - |");
        fprintf(f, " %s/%s/%s/%s |",
                cell(s[1], sizeof s[1], "%.0f", 100 * w[1]),
                cell(s[2], sizeof s[2], "%.0f", 100 * w[2]),
                cell(s[3], sizeof s[3], "%.0f", 100 * w[3]),
                cell(s[4], sizeof s[4], "%.0f%%", 100 * w[4]));
        for (unsigned a = 0; a < NMODELS; a++)
            if (v[a] >= 0)
                fprintf(f, " %s |", cell(s[0], sizeof s[0], "%.1f%%", 100 *
                        us_bench_stat(b, p, v[a], "utilization")));
        for (unsigned a = 0; a < NMODELS; a++)
            if (v[a] >= 0)
                fprintf(f, " %s |", cell(s[0], sizeof s[0], "%.0f",
                        us_bench_stat(b, p, v[a], "cycles")));
        double cyc = us_bench_stat(b, p, v[0], "cycles");
        if (!sc) {
            fputc('\n', f);
            continue;
        }
        if (!bp->prog.flow) {
            fprintf(f, " - | - |\n");
            continue;
        }
        fprintf(f, " %s | %s |\n",
                cell(s[0], sizeof s[0], "%.0f",
                     us_bench_stat(b, p, v[0], "divergent_branches")),
                cell(s[1], sizeof s[1], "%.1f%%", 100 *
                     us_bench_stat(b, p, v[0], "masked_lane_slots") /
                     (lanes * cyc)));
    }

    int lockstep = b->base.v[US_KNOB_lockstep];
    fprintf(f, "\n### Divergence\n\n");
    if (lockstep <= 1)
        fprintf(f, "This run has lockstep=%d: every scalar SP fetches and "
                "issues on its own, so no branch can diverge.  "
                "bench/glmark2/bench.sh runs the suite a second time on the "
                "scalar SP with lockstep=8 (eight SPs share one instruction "
                "stream, a SIMT warp) to measure what divergence costs: "
                "OUT/lockstep8/report.md.\n\n", lockstep);
    else
        fprintf(f, "lockstep=%d: %d SPs share one instruction stream; an "
                "IF whose lanes disagree runs both sides with the other "
                "lanes masked.\n\n", lockstep, lockstep);
    unsigned ndiv = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        double d = us_bench_stat(b, p, v[0], "divergent_branches");
        if (!us_bench_is_glmark2(&b->progs[p]) || !(d > 0))
            continue;
        double cyc = us_bench_stat(b, p, v[0], "cycles");
        double m = us_bench_stat(b, p, v[0], "masked_lane_slots");
        fprintf(f, "%s- %s: %.0f divergent IFs, %.0f masked lane-cycles "
                "(%.1f%% of the scalar SP's %u x %.0f lane-cycles)\n",
                ndiv ? "" : "Programs whose branches diverge on the scalar "
                "SP (lockstep lanes run both sides of an IF, masked):\n\n",
                b->progs[p].name, d, m, 100 * m / (lanes * cyc), lanes, cyc);
        ndiv++;
    }
    if (!ndiv && lockstep > 1 && v[0] >= 0)
        fprintf(f, "No glmark2 program diverged on the scalar SP.\n");

    fprintf(f, "\n### Runs that failed\n\n");
    unsigned nfail = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        if (!us_bench_is_glmark2(&b->progs[p]))
            continue;
        for (unsigned k = 0; k < b->nvars; k++) {
            const struct us_bench_result *r = &b->res[p * b->nvars + k];
            if (r->ok && r->identical)
                continue;
            fprintf(f, "- %s on %s: %s\n", b->progs[p].name, b->vars[k].name,
                    !r->ok ? r->err : "outputs differ from the reference "
                    "interpreter's");
            nfail++;
        }
    }
    fprintf(f, "%s\nPairs that do not compile never reach this suite: "
            "tests/glmark2.test.sh lists them with the reason, and "
            "bench/glmark2/bench.sh leaves them out of the list it runs.\n\n",
            nfail ? "" : "None: every glmark2 run matched the reference "
            "interpreter bit for bit.\n");
}
