/* Aggregates over the bench results: suite/suite.h.  Means are over
 * programs (each program weighs the same, as in the paper's averages);
 * ratios between models are geometric means of per-program ratios. */
#include <math.h>
#include <string.h>

#include "suite/suite.h"

const char *const us_bench_class_names[US_BENCH_NCLASS] = {
    "vertex", "fragment", "all",
};

bool us_bench_in_class(const struct us_bench *b, unsigned p, unsigned c)
{
    enum us_stage s = b->progs[p].prog.stage;
    return c == US_BENCH_ALL ||
           (c == US_BENCH_VERTEX && s == US_STAGE_VERTEX) ||
           (c == US_BENCH_FRAGMENT && s == US_STAGE_FRAGMENT);
}

int us_bench_var(const struct us_bench *b, const char *name)
{
    for (unsigned v = 0; v < b->nvars; v++)
        if (!strcmp(b->vars[v].name, name))
            return (int)v;
    return -1;
}

double us_bench_stat(const struct us_bench *b, unsigned p, int v,
                     const char *name)
{
    if (v < 0 || !b->res)
        return NAN;
    const struct us_bench_result *r = &b->res[p * b->nvars + (unsigned)v];
    return r->ok ? us_stats_get(&r->st, name) : NAN;
}

double us_bench_mean(const struct us_bench *b, int v, unsigned c,
                     const char *name)
{
    double sum = 0;
    unsigned n = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        double x = us_bench_in_class(b, p, c) ? us_bench_stat(b, p, v, name)
                                              : NAN;
        if (!isnan(x)) {
            sum += x;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

double us_bench_geo_ratio(const struct us_bench *b, int v, int ref,
                          unsigned c, const char *name)
{
    double logs = 0;
    unsigned n = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        if (!us_bench_in_class(b, p, c))
            continue;
        double x = us_bench_stat(b, p, v, name);
        double y = us_bench_stat(b, p, ref, name);
        if (x > 0 && y > 0) {
            logs += log(x / y);
            n++;
        }
    }
    return n ? exp(logs / n) : NAN;
}

double us_bench_sum(const struct us_bench *b, int v, unsigned c,
                    const char *name, bool sfu_only)
{
    double sum = 0;
    bool any = false;
    for (unsigned p = 0; p < b->nprogs; p++) {
        if (!us_bench_in_class(b, p, c) ||
            (sfu_only && b->progs[p].sfu_insts == 0))
            continue;
        double x = us_bench_stat(b, p, v, name);
        if (!isnan(x)) {
            sum += x;
            any = true;
        }
    }
    return any ? sum : NAN;
}

unsigned us_bench_prog_ops(const struct us_bench *b, unsigned p)
{
    const struct us_program *prog = &b->progs[p].prog;
    unsigned ops = 0;
    for (unsigned i = 0; i < prog->ninsts; i++)
        ops += us_inst_useful_ops(&prog->insts[i]);
    return ops;
}

double us_bench_util_mean(const struct us_bench *b, int v, unsigned c)
{
    double sum = 0;
    unsigned n = 0;
    for (unsigned p = 0; p < b->nprogs; p++) {
        double x = us_bench_in_class(b, p, c) && us_bench_prog_ops(b, p)
                       ? us_bench_stat(b, p, v, "utilization") : NAN;
        if (!isnan(x)) {
            sum += x;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

unsigned us_bench_class_count(const struct us_bench *b, unsigned c,
                              bool alu_only)
{
    unsigned n = 0;
    for (unsigned p = 0; p < b->nprogs; p++)
        n += us_bench_in_class(b, p, c) &&
             (!alu_only || us_bench_prog_ops(b, p));
    return n;
}

/* Add program p's static figures to *out (means taken by the caller). */
static void code_add(const struct us_bench *b, unsigned p,
                     struct us_bench_code *out)
{
    const struct us_code_stats *cs = &b->progs[p].code;
    const struct us_program *prog = &b->progs[p].prog;
    if (cs->vec4_instructions == 0)
        return;
    out->scalar_ratio += (double)cs->scalar_instructions /
                         cs->vec4_instructions;
    out->compact_ratio += (double)cs->compacted_instructions /
                          cs->vec4_instructions;
    double s4 = (double)cs->bits[US_TARGET_SIMD4];
    for (unsigned k = 0; k < US_COMPACT_COUNT; k++) {
        out->form_ratio[k] += (double)cs->form_instructions[k] /
                              cs->vec4_instructions;
        if (s4 > 0)
            out->form_bits_ratio[k] += (double)cs->form_bits[k] / s4;
    }
    if (s4 > 0) {
        out->scalar_bits_ratio +=
            (double)cs->bits[US_TARGET_SCALAR_NOCOMPACT] / s4;
        out->compact_bits_ratio += (double)cs->bits[US_TARGET_SCALAR] / s4;
    }
    out->programs++;
    unsigned alu = 0, issued = 0, tex = 0;
    for (unsigned w = 1; w <= 4; w++)
        alu += cs->width_hist[w];
    for (unsigned i = 0; i < prog->ninsts; i++) {
        issued += us_inst_width(&prog->insts[i]) > 0;
        tex += us_ops[prog->insts[i].op].unit == US_UNIT_TEX;
    }
    unsigned ops = us_bench_prog_ops(b, p);
    if (ops == 0 || alu == 0)
        return;   /* no ALU work: out of the width shares and the bound */
    for (unsigned w = 1; w <= 4; w++)
        out->w[w] += (double)cs->width_hist[w] / alu;
    out->simd_bound += ops / (4.0 * issued);
    out->mean_ops += (double)ops / alu;
    out->tex_insts += tex;
    out->alu_programs++;
}

void us_bench_code_summary(const struct us_bench *b, unsigned c,
                           struct us_bench_code *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned p = 0; p < b->nprogs; p++)
        if (us_bench_in_class(b, p, c))
            code_add(b, p, out);
    if (out->programs) {
        double n = out->programs;
        out->scalar_ratio /= n;
        out->compact_ratio /= n;
        out->scalar_bits_ratio /= n;
        out->compact_bits_ratio /= n;
        for (unsigned k = 0; k < US_COMPACT_COUNT; k++) {
            out->form_ratio[k] /= n;
            out->form_bits_ratio[k] /= n;
        }
    }
    if (out->alu_programs) {
        double n = out->alu_programs;
        for (unsigned w = 1; w <= 4; w++)
            out->w[w] /= n;
        out->simd_bound /= n;
        out->mean_ops /= n;
    }
}
