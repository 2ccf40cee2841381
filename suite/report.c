/* The bench outputs: stdout table, results.csv, results.json, report.md
 * (suite/suite.h).  Everything printed is a function of the results and
 * the provenance only -- no host times or dates -- so runs with any --jobs
 * differ only in the command line the provenance records. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suite/provenance.h"
#include "suite/report.h"

static const char *const arch_names[] = {
    "scalar", "simd4", "vliw", "superscalar", "hetero",
};
enum { NARCH = sizeof arch_names / sizeof arch_names[0] };

/* The per-job statistics the CSV carries, in order (suite/suite.h). */
const char *const us_bench_csv_stats[] = {
    "cycles", "threads", "threads_per_cycle", "latency", "useful_ops",
    "utilization", "issued", "stalls.dependency", "stalls.sfu", "stalls.lut",
    "stalls.texture", "stalls.fetch", "idle", "slot_occupancy", "instr_words",
    "instr_bits", "instr_mem_bits", "lut.accesses", "lut.merged",
    "lut.conflicts", "lut.stall_cycles", "area", "area_simd4", "area.sfu",
    "area.lut", "energy", "energy_per_thread", "area_delay", NULL,
};
enum { NCSV = sizeof us_bench_csv_stats / sizeof us_bench_csv_stats[0] - 1 };

static const char *stage_name(const struct us_bench_prog *bp)
{
    return bp->prog.stage == US_STAGE_VERTEX ? "vertex" : "fragment";
}

/* A number for a table cell: "n/a" for NaN. */
static const char *num(char *buf, size_t size, const char *fmt, double x)
{
    if (isnan(x) || isinf(x))
        snprintf(buf, size, "n/a");
    else
        snprintf(buf, size, fmt, x);
    return buf;
}

/* (x - 1) as a signed percentage: 1.88 -> "+88.0%". */
static const char *gain(char *buf, size_t size, double ratio)
{
    return num(buf, size, "%+.1f%%", (ratio - 1) * 100);
}

static double ratio_of(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

/* ---- stdout table -------------------------------------------------------- */

void us_bench_table(FILE *f, const struct us_bench *b)
{
    int v[NARCH];
    for (unsigned a = 0; a < NARCH; a++)
        v[a] = us_bench_var(b, arch_names[a]);
    fprintf(f, "%-28s %-8s %6s", "program", "stage", "threads");
    for (unsigned a = 0; a < NARCH; a++)
        if (v[a] >= 0)
            fprintf(f, " %11s", arch_names[a]);
    fprintf(f, "   (utilization%s)\n", v[0] >= 0 ? "; cycles of the scalar SP"
                                                  : "");
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        fprintf(f, "%-28s %-8s %6u", bp->name, stage_name(bp), bp->n);
        char buf[32];
        for (unsigned a = 0; a < NARCH; a++)
            if (v[a] >= 0)
                fprintf(f, " %11s", num(buf, sizeof buf, "%.3f",
                        us_bench_stat(b, p, v[a], "utilization")));
        if (v[0] >= 0)
            fprintf(f, "   %s", num(buf, sizeof buf, "%.0f",
                    us_bench_stat(b, p, v[0], "cycles")));
        fputc('\n', f);
    }
    /* means over the programs with useful ALU ops (us_bench_util_mean) */
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
        if (!us_bench_class_count(b, c, true))
            continue;
        char label[40], buf[32];
        snprintf(label, sizeof label, "mean (%s)", us_bench_class_names[c]);
        fprintf(f, "%-28s %-8s %6s", label, "", "");
        for (unsigned a = 0; a < NARCH; a++)
            if (v[a] >= 0)
                fprintf(f, " %11s", num(buf, sizeof buf, "%.3f",
                        us_bench_util_mean(b, v[a], c)));
        fputc('\n', f);
    }
    unsigned left = us_bench_class_count(b, US_BENCH_ALL, false) -
                    us_bench_class_count(b, US_BENCH_ALL, true);
    if (left)
        fprintf(f, "(the means leave out %u program%s without useful ALU "
                "ops)\n", left, left == 1 ? "" : "s");
    fprintf(f, "%u programs x %u variants = %u runs; %u failed or "
            "differed from the reference\n", b->nprogs, b->nvars,
            b->nprogs * b->nvars, b->failures);
}

/* ---- results.csv --------------------------------------------------------- */

void us_bench_csv(FILE *f, const struct us_bench *b)
{
    if (b->prov)
        us_prov_csv(f, b->prov);
    fprintf(f, "program,stage,scene,variant,model,ok,identical");
    for (unsigned i = 0; i < NCSV; i++)
        fprintf(f, ",%s", us_bench_csv_stats[i]);
    fputc('\n', f);
    for (unsigned p = 0; p < b->nprogs; p++)
        for (unsigned v = 0; v < b->nvars; v++) {
            const struct us_bench_prog *bp = &b->progs[p];
            const struct us_bench_result *r = &b->res[p * b->nvars + v];
            fprintf(f, "%s,%s,%s,%s,%s,%d,%d", bp->name, stage_name(bp),
                    bp->scene_name, b->vars[v].name, b->vars[v].model->name,
                    r->ok, r->identical);
            for (unsigned i = 0; i < NCSV; i++) {
                double x = us_bench_stat(b, p, (int)v,
                                         us_bench_csv_stats[i]);
                if (isnan(x))
                    fputc(',', f);
                else
                    fprintf(f, ",%.10g", x);
            }
            fputc('\n', f);
        }
}

/* ---- results.json -------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void json_config(FILE *f, const struct us_config *cfg)
{
    fputc('{', f);
    for (unsigned k = 0; k < US_KNOB_COUNT; k++) {
        fprintf(f, "%s\"%s\": ", k ? ", " : "", us_knobs[k].name);
        if (us_knobs[k].type == US_KNOB_ENUM) {
            const char *c = us_knobs[k].choices;
            for (int i = 0; i < cfg->v[k] && strchr(c, '|'); i++)
                c = strchr(c, '|') + 1;
            fprintf(f, "\"%.*s\"", (int)strcspn(c, "|"), c);
        } else if (us_knobs[k].type == US_KNOB_BOOL) {
            fprintf(f, "%s", cfg->v[k] ? "true" : "false");
        } else {
            fprintf(f, "%d", cfg->v[k]);
        }
    }
    fputc('}', f);
}

/* "schema_version" and "provenance", one member a line. */
static void prov_members(FILE *f, const struct us_prov *p)
{
    char *m = p ? us_prov_json_members(p) : NULL;
    if (m)
        fprintf(f, "%s,\n", m);
    else
        fprintf(f, "\"schema_version\": %d,\n", US_JSON_SCHEMA_VERSION);
    free(m);
}

void us_bench_json(FILE *f, const struct us_bench *b)
{
    fprintf(f, "{\n");
    prov_members(f, b->prov);
    fprintf(f, "\"threads\": %u,\n\"config\": ", b->threads);
    json_config(f, &b->base);
    fprintf(f, ",\n\"failures\": %u,\n\"programs\": [", b->failures);
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        const struct us_code_stats *cs = &bp->code;
        fprintf(f, "%s\n  {\"name\": ", p ? "," : "");
        json_string(f, bp->name);
        fprintf(f, ", \"stage\": \"%s\", \"scene\": ", stage_name(bp));
        json_string(f, bp->scene_name);
        fprintf(f, ", \"slot\": ");
        json_string(f, bp->slot);
        fprintf(f, ", \"description\": ");
        json_string(f, bp->desc);
        fprintf(f, ", \"threads\": %u, \"shaded\": %llu, \"window\": %u, "
                "\"vec4_instructions\": %u, \"preshader_instructions\": %u, "
                "\"scalar_instructions\": %u, "
                "\"compacted_instructions\": %u, \"sfu_instructions\": %u, "
                "\"width\": {",
                bp->n, (unsigned long long)bp->shaded, bp->window,
                cs->vec4_instructions, cs->preshader_instructions,
                cs->scalar_instructions,
                cs->compacted_instructions, bp->sfu_insts);
        /* the one histogram shape (docs/METRICS.md): shares by width */
        unsigned nw = cs->width_hist[1] + cs->width_hist[2] +
                      cs->width_hist[3] + cs->width_hist[4];
        for (unsigned w = 1; w <= 4; w++)
            fprintf(f, "%s\"%u\": %.10g", w > 1 ? ", " : "", w,
                    nw ? (double)cs->width_hist[w] / nw : 0.0);
        fprintf(f, "}, \"bits\": {");
        for (unsigned t = 0; t < US_TARGET_COUNT; t++)
            fprintf(f, "%s\"%s\": %llu", t ? ", " : "",
                    us_target_name((enum us_target)t),
                    (unsigned long long)cs->bits[t]);
        fprintf(f, "}, \"compaction\": {");
        for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
            fprintf(f, "%s\"%s\": {\"instructions\": %u, \"bits\": %llu}",
                    k > US_COMPACT_OFFSETS ? ", " : "",
                    us_compaction_name((enum us_compaction)k),
                    cs->form_instructions[k],
                    (unsigned long long)cs->form_bits[k]);
        fprintf(f, "}}");
    }
    fprintf(f, "\n],\n\"variants\": [");
    for (unsigned v = 0; v < b->nvars; v++) {
        fprintf(f, "%s\n  {\"name\": \"%s\", \"model\": \"%s\", \"config\": ",
                v ? "," : "", b->vars[v].name, b->vars[v].model->name);
        json_config(f, &b->vars[v].cfg);
        fputc('}', f);
    }
    fprintf(f, "\n],\n\"runs\": [");
    for (unsigned p = 0; p < b->nprogs; p++)
        for (unsigned v = 0; v < b->nvars; v++) {
            const struct us_bench_result *r = &b->res[p * b->nvars + v];
            fprintf(f, "%s\n{\"program\": ", p || v ? "," : "");
            json_string(f, b->progs[p].name);
            fprintf(f, ", \"variant\": \"%s\", \"ok\": %s, \"identical\": %s",
                    b->vars[v].name, r->ok ? "true" : "false",
                    r->identical ? "true" : "false");
            if (r->err[0]) {
                fprintf(f, ", \"error\": ");
                json_string(f, r->err);
            }
            if (r->ok) {
                fprintf(f, ", \"stats\": ");
                us_stats_print(f, &r->st, true);
            }
            fputc('}', f);
        }
    fprintf(f, "\n]\n}\n");
}

/* ---- report.md (suite/report.h; section g in suite/report_paper.c) ------- */

const char *const us_report_arch[R_NARCH] = {
    "scalar", "simd4", "vliw", "superscalar", "hetero",
};

void us_report_init(struct us_report *r, const struct us_bench *b)
{
    memset(r, 0, sizeof *r);
    r->b = b;
    for (unsigned a = 0; a < R_NARCH; a++) {
        r->v[a] = us_bench_var(b, us_report_arch[a]);
        for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
            r->util[a][c] = us_bench_util_mean(b, r->v[a], c);
    }
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        us_bench_code_summary(b, c, &r->code[c]);
    const struct us_config *cfg = &b->base;
    r->lanes = (unsigned)cfg->v[US_KNOB_alu_lanes];
    r->simd4_units = r->lanes / 4;
    r->hetero_width = (unsigned)cfg->v[US_KNOB_hetero_vec_width];
    r->hetero_procs = r->lanes / (r->hetero_width + 1);
    r->sfu = cfg->v[US_KNOB_sfu];
    r->lut = cfg->v[US_KNOB_lut];
    unsigned share = (unsigned)cfg->v[US_KNOB_lut_share];
    r->lut_share = share < r->lanes ? share : r->lanes;
    r->luts = r->lut == 0 ? (r->lanes + share - 1) / share : r->lanes;
}

void us_report_scalar_sfu(const struct us_report *r, char *buf, size_t size)
{
    if (r->sfu == 1)
        snprintf(buf, size, "a full SFU each");
    else if (r->sfu == 2)
        snprintf(buf, size, "a pool of %d full SFUs",
                 r->b->base.v[US_KNOB_sfu_pool]);
    else if (r->lut == 0)
        snprintf(buf, size, "%u partial SFUs on the SPs' multiply-adds and "
                 "%u LUT%s shared by %u SPs", r->lanes, r->luts,
                 r->luts == 1 ? "" : "s, each", r->lut_share);
    else
        snprintf(buf, size, "%u partial SFUs on the SPs' multiply-adds, each "
                 "with a private LUT", r->lanes);
}

/* The programs of the run without useful ALU ops, "a, b" (or ""). */
static void no_alu_programs(const struct us_bench *b, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned p = 0; p < b->nprogs && n + 1 < size; p++)
        if (us_bench_prog_ops(b, p) == 0)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
                                  b->progs[p].name);
}

/* A markdown cell's text: '|' escaped. */
static void cell_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

static void section_programs(FILE *f, const struct us_bench *b)
{
    fprintf(f, "## Programs and their inputs\n\n"
            "Each program runs on the inputs it receives when its scene is "
            "rendered with the program in place of the scene's program "
            "*slot*: mesh vertices for vertex programs, perspective-"
            "interpolated fragments (whole 2x2 quads, in raster order) for "
            "fragment programs, with the scene's GL state and textures "
            "(`bench/suite.list`).  The workload is a window of consecutive "
            "threads from the middle of what the scene shaded.  *What* is "
            "the first sentence of the program's leading comment.\n\n"
            "| program | stage | vec4 instr. | SFU instr. | scene (slot) | "
            "threads (of shaded) | what |\n|---|---|---:|---:|---|---:|---|\n");
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        fprintf(f, "| %s | %s | %u | %u | %s (%s) | %u (%llu) | ",
                bp->name, stage_name(bp), bp->code.vec4_instructions,
                bp->sfu_insts, bp->scene_name, bp->slot, bp->n,
                (unsigned long long)bp->shaded);
        cell_text(f, bp->desc);
        fprintf(f, " |\n");
    }
    fputc('\n', f);
}

static void section_width(FILE *f, const struct us_report *r, bool plots)
{
    const struct us_bench_code *all = &r->code[US_BENCH_ALL];
    char none[512];
    no_alu_programs(r->b, none, sizeof none);
    fprintf(f, "## a. Vector width\n\n"
            "Share of ALU vec4 instructions by the useful ops they ask for "
            "(SPEC 3: written components; DP3 3, DP4 4, a scalar SFU result "
            "1), averaged over the programs with useful ALU ops.  *SIMD "
            "bound* is useful ops / (4 x instructions issued): the "
            "utilization a vec4 SIMD datapath reaches at best, one "
            "instruction per cycle without stalls.");
    if (all->tex_insts)
        fprintf(f, "  The %u texture fetches of these programs are the "
                "texture unit's work: left out of the shares, counted in "
                "the bound's instructions (they take a vec4 issue slot).",
                all->tex_insts);
    if (none[0])
        fprintf(f, "  Left out for having no useful ALU op: %s.", none);
    fprintf(f, "\n\n| programs | n | 1 | 2 | 3 | 4 | SIMD bound |\n"
            "|---|---:|---:|---:|---:|---:|---:|\n");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
        const struct us_bench_code *cs = &r->code[c];
        if (!us_report_has_class(r, c))
            continue;
        char w[5][16], bound[16];
        for (unsigned k = 1; k <= 4; k++)
            num(w[k], sizeof w[k], "%.1f%%", cs->w[k] * 100);
        fprintf(f, "| %s | %u | %s | %s | %s | %s | %s |\n",
                us_bench_class_names[c], cs->alu_programs, w[1], w[2], w[3],
                w[4], num(bound, sizeof bound, "%.1f%%",
                          cs->simd_bound * 100));
    }
    if (us_report_has_class(r, US_BENCH_ALL))
        fprintf(f, "\nPaper: 37.3%% of the benchmark instructions use four "
                "components, so a SIMD datapath is at most about 68%% "
                "utilized.  Measured: %.1f%% and a bound of %.1f%%.\n",
                all->w[4] * 100, all->simd_bound * 100);
    fputc('\n', f);
    if (plots)
        fprintf(f, "![vector width](width.png)\n\n");
}

/* ", vertex X, fragment Y" for the classes this run has. */
static void class_gains(const struct us_report *r, unsigned a, char *buf,
                        size_t size)
{
    buf[0] = '\0';
    if (!us_report_has_class(r, US_BENCH_VERTEX) ||
        !us_report_has_class(r, US_BENCH_FRAGMENT))
        return;
    char gv[16], gf[16];
    gain(gv, sizeof gv, r->util[R_SCALAR][US_BENCH_VERTEX] /
                        r->util[a][US_BENCH_VERTEX]);
    gain(gf, sizeof gf, r->util[R_SCALAR][US_BENCH_FRAGMENT] /
                        r->util[a][US_BENCH_FRAGMENT]);
    snprintf(buf, size, " (vertex %s, fragment %s)", gv, gf);
}

static void util_gains(FILE *f, const struct us_report *r)
{
    if (!us_report_ran(r, R_SCALAR))
        return;
    static const unsigned vs[] = { R_SIMD4, R_HETERO };
    bool any = false;
    for (unsigned i = 0; i < 2; i++) {
        unsigned a = vs[i];
        if (!us_report_ran(r, a))
            continue;
        char g[16], parts[64];
        gain(g, sizeof g, r->util[R_SCALAR][US_BENCH_ALL] /
                          r->util[a][US_BENCH_ALL]);
        class_gains(r, a, parts, sizeof parts);
        fprintf(f, "%s %s: %s%s", any ? ";" : "Scalar SP over", 
                us_report_arch[a], g, parts);
        any = true;
    }
    if (any)
        fprintf(f, ".  ");
}

static void section_util(FILE *f, const struct us_report *r, bool plots)
{
    const struct us_bench *b = r->b;
    char none[512];
    no_alu_programs(b, none, sizeof none);
    fprintf(f, "## b. Datapath utilization\n\n"
            "Utilization = useful ops / (ALU lanes x cycles), every model at "
            "%u scalar ALU lanes; mean over the programs with useful ALU "
            "ops", r->lanes);
    if (none[0])
        fprintf(f, " (left out: %s, 0 on every model)", none);
    fprintf(f, ".\n\n| model |");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        if (us_report_has_class(r, c))
            fprintf(f, " %s |", us_bench_class_names[c]);
    bool s4 = us_report_ran(r, R_SIMD4);
    fprintf(f, "%s\n|---|", s4 ? " vs simd4 (all) |" : "");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
        if (us_report_has_class(r, c))
            fprintf(f, "---:|");
    fprintf(f, "%s\n", s4 ? "---:|" : "");
    for (unsigned a = 0; a < R_NARCH; a++) {
        if (!us_report_ran(r, a))
            continue;
        char u[16];
        fprintf(f, "| %s |", us_report_arch[a]);
        for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
            if (us_report_has_class(r, c))
                fprintf(f, " %s |", num(u, sizeof u, "%.1f%%",
                                        r->util[a][c] * 100));
        if (s4)
            fprintf(f, " %s |", gain(u, sizeof u, r->util[a][US_BENCH_ALL] /
                                     r->util[R_SIMD4][US_BENCH_ALL]));
        fputc('\n', f);
    }
    fputc('\n', f);
    util_gains(f, r);
    if (s4) {
        double best = NAN;
        for (unsigned p = 0; p < b->nprogs; p++) {
            double u = us_bench_stat(b, p, r->v[R_SIMD4], "utilization");
            if (!(u <= best))
                best = u;
        }
        char bs[16];
        fprintf(f, "The best simd4 utilization of any program is %s.  ",
                num(bs, sizeof bs, "%.1f%%", best * 100));
    }
    fprintf(f, "Paper: +88%% over SIMD, +48%% over hetero, SIMD at most "
            "about 68%%, pixel shaders gain more than vertex shaders.\n\n");
    if (r->code[US_BENCH_ALL].tex_insts)
        fprintf(f, "Texture fetches are not useful ALU ops: the texture "
                "unit does them (us_inst_useful_ops), though they take an "
                "issue slot on every model.\n\n");
    if (plots)
        fprintf(f, "![utilization](utilization.png)\n\n"
                "![utilization per program](programs.png)\n\n");
}

static void cycles_row(FILE *f, const struct us_report *r, unsigned a)
{
    static const char *const stalls[] = {
        "stalls.dependency", "stalls.sfu", "stalls.lut", "stalls.texture",
        "stalls.fetch",
    };
    const struct us_bench *b = r->b;
    int v = r->v[a];
    char c[16], x[16], t[16], l[16], s[16];
    fprintf(f, "| %s | %s |", us_report_arch[a],
            num(c, sizeof c, "%.0f", us_bench_sum(b, v, US_BENCH_ALL,
                                                  "cycles", false)));
    if (us_report_ran(r, R_SIMD4))
        fprintf(f, " %s |", num(x, sizeof x, "%.3f", us_bench_geo_ratio(
                b, v, r->v[R_SIMD4], US_BENCH_ALL, "cycles")));
    fprintf(f, " %s | %s |",
            num(t, sizeof t, "%.4f", us_bench_mean(b, v, US_BENCH_ALL,
                                                   "threads_per_cycle")),
            num(l, sizeof l, "%.1f", us_bench_mean(b, v, US_BENCH_ALL,
                                                   "latency")));
    for (unsigned k = 0; k < 5; k++)
        fprintf(f, " %s |", num(s, sizeof s, "%.0f", us_bench_sum(
                b, v, US_BENCH_ALL, stalls[k], false)));
    fputc('\n', f);
}

static void extra_variants(FILE *f, const struct us_report *r)
{
    const struct us_bench *b = r->b;
    for (unsigned v = 0; v < b->nvars; v++) {
        if (b->vars[v].group != US_BG_ARCH_EXTRA)
            continue;
        char c[16], x[16], u[16], at[48] = "", of[48] = "";
        num(c, sizeof c, "%.0f", us_bench_sum(b, (int)v, US_BENCH_ALL,
                                               "cycles", false));
        num(u, sizeof u, "%.1f%%", 100 * us_bench_util_mean(b, (int)v,
                                                            US_BENCH_ALL));
        int lanes = b->vars[v].cfg.v[US_KNOB_alu_lanes];
        if (lanes != b->base.v[US_KNOB_alu_lanes])
            snprintf(at, sizeof at, " at %d ALU lanes", lanes);
        if (us_report_ran(r, R_SIMD4))
            snprintf(of, sizeof of, " (%s of simd4)",
                     num(x, sizeof x, "%.3f", us_bench_geo_ratio(
                         b, (int)v, r->v[R_SIMD4], US_BENCH_ALL, "cycles")));
        fprintf(f, "\nVariant %s%s: %s cycles%s, utilization %s.",
                b->vars[v].name, at, c, of, u);
    }
}

static void section_cycles(FILE *f, const struct us_report *r)
{
    bool s4 = us_report_ran(r, R_SIMD4);
    fprintf(f, "## c. Cycles and throughput\n\n"
            "Cycles until every thread of a program retired (summed over "
            "programs), %smean threads per cycle and mean thread latency, "
            "and the stall processor-cycles by cause (summed).\n\n"
            "| model | cycles |%s threads/cycle | latency | "
            "dependency | SFU | LUT | texture | fetch |\n"
            "|---|---:|%s---:|---:|---:|---:|---:|---:|---:|\n",
            s4 ? "the geometric mean over programs of the cycle ratio to "
                 "simd4, " : "",
            s4 ? " vs simd4 |" : "", s4 ? "---:|" : "");
    for (unsigned a = 0; a < R_NARCH; a++)
        if (us_report_ran(r, a))
            cycles_row(f, r, a);
    extra_variants(f, r);
    fprintf(f, "\n\n");
}
/* The compaction variants of isa/scalar.h side by side: words and bits
 * per class, and per opcode where any variant leaves more than one word
 * per vec4 instruction (knob compaction_form runs one on the model). */
static void imem_variants(FILE *f, const struct us_bench *b)
{
    fprintf(f, "**Compaction variants** (`isa/scalar.h`, knob "
            "`compaction_form`): per-operand offsets (the paper's, 96-bit "
            "words), a per-operand swizzle table (any swizzle, 112-bit "
            "words) and offsets with dependent repetitions and lookahead "
            "across a basic block (chain, 96 bits).  Instructions per vec4 "
            "instruction and bits per simd4 bit, means over programs:\n\n"
            "| programs |");
    for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
        fprintf(f, " %s / vec4 |", us_compaction_name((enum us_compaction)k));
    for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
        fprintf(f, " %s bits / simd4 |",
                us_compaction_name((enum us_compaction)k));
    fprintf(f, "\n|---|");
    for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
        fprintf(f, "---:|---:|");
    fputc('\n', f);
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
        struct us_bench_code cs;
        us_bench_code_summary(b, c, &cs);
        if (!cs.programs)
            continue;
        fprintf(f, "| %s |", us_bench_class_names[c]);
        for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
            fprintf(f, " %.3fx |", cs.form_ratio[k]);
        for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
            fprintf(f, " %.3fx |", cs.form_bits_ratio[k]);
        fputc('\n', f);
    }
    unsigned cnt[US_OP_COUNT] = { 0 }, words[US_COMPACT_COUNT][US_OP_COUNT];
    memset(words, 0, sizeof words);
    for (unsigned p = 0; p < b->nprogs; p++)
        for (unsigned op = 0; op < US_OP_COUNT; op++) {
            cnt[op] += b->progs[p].code.op_count[op];
            for (unsigned k = 0; k < US_COMPACT_COUNT; k++)
                words[k][op] += b->progs[p].code.op_form[k][op];
        }
    int sc = us_bench_var(b, "scalar");
    for (unsigned k = US_COMPACT_SWIZZLE; sc >= 0 && k < US_COMPACT_COUNT; k++) {
        char name[32];
        snprintf(name, sizeof name, "scalar-%s",
                 us_compaction_name((enum us_compaction)k));
        int v = us_bench_var(b, name);
        if (v >= 0)
            fprintf(f, "%sRunning the %s variant: %.3fx the cycles and "
                    "%.3fx the instruction bits fetched of offsets code "
                    "(geometric means).\n", k == US_COMPACT_SWIZZLE ? "\n" : "",
                    us_compaction_name((enum us_compaction)k),
                    us_bench_geo_ratio(b, v, sc, US_BENCH_ALL, "cycles"),
                    us_bench_geo_ratio(b, v, sc, US_BENCH_ALL, "instr_bits"));
    }
    fprintf(f, "\nPer vec4 opcode where a variant leaves more than one "
            "word per instruction (each instruction lowered alone, summed "
            "over the programs):\n\n| opcode | vec4 | uncompacted |");
    for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
        fprintf(f, " %s |", us_compaction_name((enum us_compaction)k));
    fprintf(f, "\n|---|---:|---:|---:|---:|---:|\n");
    for (unsigned op = 0; op < US_OP_COUNT; op++) {
        bool excess = false;
        for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
            excess |= words[k][op] > cnt[op];
        if (!cnt[op] || !excess)
            continue;
        fprintf(f, "| %s | %u | %u |", us_ops[op].name, cnt[op],
                words[US_COMPACT_NONE][op]);
        for (unsigned k = US_COMPACT_OFFSETS; k < US_COMPACT_COUNT; k++)
            fprintf(f, " %u (%+d) |", words[k][op],
                    (int)words[k][op] - (int)cnt[op]);
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void section_imem(FILE *f, const struct us_bench *b, bool plots)
{
    fprintf(f, "## d. Instruction memory\n\n"
            "Instructions of the scalar SP relative to vec4 instructions: "
            "one scalar instruction per component (uncompacted) and with "
            "the 2-bit repeat counter and per-operand offsets (compacted); "
            "bits of instruction memory relative to simd4's 128-bit words "
            "(scalar words are 96 bits).  Means over programs.\n\n"
            "| programs | uncompacted / vec4 | compacted / vec4 | "
            "uncompacted bits / simd4 | compacted bits / simd4 |\n"
            "|---|---:|---:|---:|---:|\n");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
        struct us_bench_code cs;
        us_bench_code_summary(b, c, &cs);
        if (!cs.programs)
            continue;
        char r[4][16];
        fprintf(f, "| %s | %s | %s | %s | %s |\n", us_bench_class_names[c],
                num(r[0], sizeof r[0], "%.2fx", cs.scalar_ratio),
                num(r[1], sizeof r[1], "%.3fx", cs.compact_ratio),
                num(r[2], sizeof r[2], "%.2fx", cs.scalar_bits_ratio),
                num(r[3], sizeof r[3], "%.2fx", cs.compact_bits_ratio));
    }
    int sc = us_bench_var(b, "scalar");
    int nc = us_bench_var(b, "scalar-nocompact");
    if (sc >= 0 && nc >= 0) {
        char r[3][16];
        fprintf(f, "\nRunning uncompacted code: %s the cycles and %s the "
                "instruction bits fetched of compacted code (geometric "
                "means).\n",
                num(r[0], sizeof r[0], "%.3fx",
                    us_bench_geo_ratio(b, nc, sc, US_BENCH_ALL, "cycles")),
                num(r[1], sizeof r[1], "%.2fx",
                    us_bench_geo_ratio(b, nc, sc, US_BENCH_ALL, "instr_bits")));
    }
    fprintf(f, "\nPaper: about 3.3x more instructions without compaction, "
            "2-6%% more with it.\n\n");
    if (plots)
        fprintf(f, "![instruction memory](imem.png)\n\n");
    imem_variants(f, b);
}

/* Full against partial SFUs: area and cycles (section e). */
static void sfu_area(FILE *f, const struct us_bench *b)
{
    int sc = us_bench_var(b, "scalar"), full = us_bench_var(b,
                                                            "scalar-sfu-full");
    if (sc >= 0 && full >= 0 && b->base.v[US_KNOB_sfu] == 0) {
        fprintf(f, "\nFull SFUs (a private SFU with its own multipliers per "
                "SP) against partial SFUs (range reduction and coefficient "
                "muxing only; the polynomial runs on the SP's multiply-add):"
                "\n\n| SFU | area (um^2) | SFU area | LUT area | "
                "area vs simd4 | cycles vs partial |\n"
                "|---|---:|---:|---:|---:|---:|\n");
        int vs[2] = { sc, full };
        for (unsigned i = 0; i < 2; i++) {
            char r[5][24];
            fprintf(f, "| %s | %s | %s | %s | %s | %s |\n",
                    i ? "full" : "partial",
                    num(r[0], sizeof r[0], "%.0f",
                        us_bench_mean(b, vs[i], US_BENCH_ALL, "area")),
                    num(r[1], sizeof r[1], "%.0f",
                        us_bench_mean(b, vs[i], US_BENCH_ALL, "area.sfu")),
                    num(r[2], sizeof r[2], "%.0f",
                        us_bench_mean(b, vs[i], US_BENCH_ALL, "area.lut")),
                    num(r[3], sizeof r[3], "%.3f",
                        us_bench_mean(b, vs[i], US_BENCH_ALL, "area_simd4")),
                    num(r[4], sizeof r[4], "%.3f",
                        us_bench_geo_ratio(b, vs[i], sc, US_BENCH_ALL,
                                           "cycles")));
        }
        char s[16];
        double share = us_bench_mean(b, sc, US_BENCH_ALL,
                                     "area.partial_sfu_share");
        if (isfinite(share))
            fprintf(f, "\nThe partial SFU's own logic is %s of one SP "
                    "(paper: about 10%%).\n",
                    num(s, sizeof s, "%.1f%%", 100 * share));
    }
}

static void section_lut(FILE *f, const struct us_bench *b, bool plots)
{
    int priv = us_bench_var(b, "scalar-lut-private");
    unsigned nsfu = 0;
    for (unsigned p = 0; p < b->nprogs; p++)
        nsfu += b->progs[p].sfu_insts > 0;
    fprintf(f, "## e. SFU and shared LUT\n\n");
    if (priv < 0) {
        fprintf(f, us_bench_var(b, "scalar") < 0
                       ? "(The scalar model was not run.)\n\n"
                       : "(The shared-LUT study was left out of this run: "
                         "`--no-lut-study`.)\n\n");
        return;
    }
    if (nsfu == 0) {
        fprintf(f, "No program of this run has SFU instructions: the LUT "
                "is never read.\n\n");
        sfu_area(f, b);
        return;
    }
    double base = us_bench_sum(b, priv, US_BENCH_ALL, "cycles", true);
    unsigned lanes = (unsigned)b->base.v[US_KNOB_alu_lanes],
             share = (unsigned)b->base.v[US_KNOB_lut_share];
    fprintf(f, "Cycles of the %u program%s with SFU instructions, summed, "
            "relative to private LUTs (one per SP), with one LUT shared by "
            "%u SPs (%u LUT%s for the %u SPs): banks x multi-fetch x "
            "lookahead cycles (the LUT is read this many cycles before the "
            "coefficients are needed).  Below 1.000 would be faster than "
            "private.\n\n"
            "| banks | multi-fetch | lookahead 0 | 1 | 2 | 3 |\n"
            "|---:|---|---:|---:|---:|---:|\n", nsfu, nsfu == 1 ? "" : "s",
            share < lanes ? share : lanes, (lanes + share - 1) / share,
            (lanes + share - 1) / share == 1 ? "" : "s", lanes);
    static const unsigned banks[] = { 1, 2, 4, 8 };
    for (unsigned bi = 0; bi < 4; bi++)
        for (int mf = 1; mf >= 0; mf--) {
            fprintf(f, "| %u | %s |", banks[bi], mf ? "on" : "off");
            for (int la = 0; la <= 3; la++) {
                char name[48], r[16];
                snprintf(name, sizeof name, "scalar-lut-b%u-mf%d-la%d",
                         banks[bi], mf, la);
                int v = us_bench_var(b, name);
                fprintf(f, " %s |", num(r, sizeof r, "%.3f", ratio_of(
                        us_bench_sum(b, v, US_BENCH_ALL, "cycles", true),
                        base)));
            }
            fputc('\n', f);
        }
    fprintf(f, "\nLUT traffic at a 3-cycle lookahead (summed over the "
            "programs): reads, requests merged by multi-fetch, requests "
            "that waited for their bank, and stall cycles beyond the "
            "lookahead.\n\n| banks | multi-fetch | reads | merged | "
            "conflicts | stall cycles |\n|---:|---|---:|---:|---:|---:|\n");
    for (unsigned bi = 0; bi < 4; bi++)
        for (int mf = 1; mf >= 0; mf--) {
            char name[48], r[4][24];
            snprintf(name, sizeof name, "scalar-lut-b%u-mf%d-la3", banks[bi],
                     mf);
            int v = us_bench_var(b, name);
            static const char *const keys[] = {
                "lut.accesses", "lut.merged", "lut.conflicts",
                "lut.stall_cycles",
            };
            for (unsigned k = 0; k < 4; k++)
                num(r[k], sizeof r[k], "%.0f",
                    us_bench_sum(b, v, US_BENCH_ALL, keys[k], true));
            fprintf(f, "| %u | %s | %s | %s | %s | %s |\n", banks[bi],
                    mf ? "on" : "off", r[0], r[1], r[2], r[3]);
        }
    sfu_area(f, b);
    fputc('\n', f);
    if (plots)
        fprintf(f, "![shared LUT](lut.png)\n\n");
}

/* The machines behind the area table, from the base configuration. */
static void area_machines(FILE *f, const struct us_report *r)
{
    const struct us_bench *b = r->b;
    char sfu[128];
    us_report_scalar_sfu(r, sfu, sizeof sfu);
    fprintf(f, "\nAt %u ALU lanes", r->lanes);
    if (us_report_ran(r, R_SCALAR))
        fprintf(f, ": the scalar machine has %u SPs, each with its register "
                "file and issue control, with %s", r->lanes, sfu);
    if (us_report_ran(r, R_SIMD4))
        fprintf(f, "%s simd4 has %u vec4 units, each with a full SFU and its "
                "LUT", us_report_ran(r, R_SCALAR) ? ";" : ":",
                r->simd4_units);
    if (us_report_ran(r, R_HETERO))
        fprintf(f, "%s hetero has %u processors of a vec%u and a scalar "
                "datapath, each with one full SFU and its LUT",
                us_report_ran(r, R_SCALAR) || us_report_ran(r, R_SIMD4)
                    ? ";" : ":",
                r->hetero_procs, r->hetero_width);
    fprintf(f, ".");
    if (!us_report_ran(r, R_VLIW))
        return;
    /* the VLIW slots' SFU assumption (shader/model_vliw.c) */
    char a4[16], a5[16];
    num(a4, sizeof a4, "%.3f", us_bench_geo_ratio(b, r->v[R_VLIW],
                                                  r->v[R_SIMD4], US_BENCH_ALL,
                                                  "area"));
    fprintf(f, "  vliw assumes that each of its processors' four slots runs "
            "SFU operations, so every slot has its own full SFU and LUT (%u "
            "full SFUs against simd4's %u)", 4 * r->simd4_units,
            r->simd4_units);
    if (us_report_ran(r, R_SIMD4))
        fprintf(f, ": its area is %sx simd4's", a4);
    int v5 = us_bench_var(b, "vliw-4+1");
    if (v5 >= 0 && us_report_ran(r, R_SIMD4))
        fprintf(f, "; vliw-4+1 runs them in its fifth (t-) slot only, one "
                "full SFU per processor, and its area is %sx simd4's",
                num(a5, sizeof a5, "%.3f", us_bench_geo_ratio(
                    b, v5, r->v[R_SIMD4], US_BENCH_ALL, "area")));
    fprintf(f, ".");
}

static void section_area(FILE *f, const struct us_report *r, bool plots)
{
    const struct us_bench *b = r->b;
    fprintf(f, "## f. Area, energy and area x delay\n\n");
    if (us_report_ran(r, R_SIMD4)) {
        fprintf(f, "Normalized to simd4 at the same ALU lanes (geometric "
                "means over programs of per-program ratios): area (45 nm, "
                "`shader/area.def`, including each program's instruction "
                "memory), time (cycles), energy of the run, power (energy / "
                "time) and area x delay.\n\n"
                "| model | area | time | energy | power | area x delay |\n"
                "|---|---:|---:|---:|---:|---:|\n");
        for (unsigned a = 0; a < R_NARCH; a++) {
            if (!us_report_ran(r, a))
                continue;
            int v = r->v[a], s4 = r->v[R_SIMD4];
            double x[5] = {
                us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "area"),
                us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "cycles"),
                us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "energy"),
                0,
                us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "area_delay"),
            };
            x[3] = x[2] / x[1];
            char c[5][16];
            for (unsigned k = 0; k < 5; k++)
                num(c[k], sizeof c[k], "%.3f", x[k]);
            fprintf(f, "| %s | %s | %s | %s | %s | %s |\n",
                    us_report_arch[a], c[0], c[1], c[2], c[3], c[4]);
        }
    } else {
        fprintf(f, "simd4, which these ratios are normalized to, did not "
                "run: no table.\n");
    }
    area_machines(f, r);
    if (us_report_ran(r, R_SCALAR) && us_report_ran(r, R_HETERO)) {
        int sc = r->v[R_SCALAR], h = r->v[R_HETERO];
        double t = us_bench_geo_ratio(b, sc, h, US_BENCH_ALL, "cycles");
        char g[4][16];
        fprintf(f, "\n\nScalar SP against hetero: area %s, time %s, power "
                "%s, area x delay %s.  Paper: area about -30%%, time -6%%, "
                "power -15%%, area x delay -36%% (and -22%% against SIMD).",
                gain(g[0], sizeof g[0], us_bench_geo_ratio(b, sc, h,
                     US_BENCH_ALL, "area")),
                gain(g[1], sizeof g[1], t),
                gain(g[2], sizeof g[2], us_bench_geo_ratio(b, sc, h,
                     US_BENCH_ALL, "energy") / t),
                gain(g[3], sizeof g[3], us_bench_geo_ratio(b, sc, h,
                     US_BENCH_ALL, "area_delay")));
        us_report_power_section(f, r);
    }
    fprintf(f, "\n\n");
    if (plots && us_report_ran(r, R_SIMD4))
        fprintf(f, "![area, energy, area x delay](area_energy.png)\n\n");
}

static void section_per_program(FILE *f, const struct us_report *r)
{
    const struct us_bench *b = r->b;
    static const unsigned cyc[] = { R_SCALAR, R_SIMD4 };
    fprintf(f, "## Per-program results\n\n"
            "Share of four-component instructions among the ALU "
            "instructions (- for a program without any), utilization per "
            "model and cycles of the scalar SP and of simd4 where they "
            "ran.\n\n"
            "| program | stage | 4-comp. |");
    for (unsigned a = 0; a < R_NARCH; a++)
        if (us_report_ran(r, a))
            fprintf(f, " %s |", us_report_arch[a]);
    for (unsigned i = 0; i < 2; i++)
        if (us_report_ran(r, cyc[i]))
            fprintf(f, " cycles %s |", us_report_arch[cyc[i]]);
    fprintf(f, "\n|---|---|---:|");
    for (unsigned a = 0; a < R_NARCH; a++)
        if (us_report_ran(r, a))
            fprintf(f, "---:|");
    for (unsigned i = 0; i < 2; i++)
        if (us_report_ran(r, cyc[i]))
            fprintf(f, "---:|");
    fputc('\n', f);
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_bench_prog *bp = &b->progs[p];
        unsigned tot = 0;
        for (unsigned w = 1; w <= 4; w++)
            tot += bp->code.width_hist[w];
        char buf[16];
        if (tot)
            snprintf(buf, sizeof buf, "%.0f%%",
                     100.0 * bp->code.width_hist[4] / tot);
        fprintf(f, "| %s | %s | %s |", bp->name, stage_name(bp),
                tot ? buf : "-");
        for (unsigned a = 0; a < R_NARCH; a++)
            if (us_report_ran(r, a))
                fprintf(f, " %s |", num(buf, sizeof buf, "%.1f%%", 100 *
                        us_bench_stat(b, p, r->v[a], "utilization")));
        for (unsigned i = 0; i < 2; i++)
            if (us_report_ran(r, cyc[i]))
                fprintf(f, " %s |", num(buf, sizeof buf, "%.0f",
                        us_bench_stat(b, p, r->v[cyc[i]], "cycles")));
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void base_config(FILE *f, const struct us_bench *b)
{
    fprintf(f, "Base configuration (`ushader config --list` documents each "
            "knob):");
    for (unsigned k = 0; k < US_KNOB_COUNT; k++) {
        fprintf(f, "%s `%s=", k ? "," : "", us_knobs[k].name);
        if (us_knobs[k].type == US_KNOB_ENUM) {
            const char *c = us_knobs[k].choices;
            for (int i = 0; i < b->base.v[k] && strchr(c, '|'); i++)
                c = strchr(c, '|') + 1;
            fprintf(f, "%.*s`", (int)strcspn(c, "|"), c);
        } else {
            fprintf(f, "%d`", b->base.v[k]);
        }
    }
    int slots = b->base.v[US_KNOB_varying_slots];
    fprintf(f, ".  The programs pass at most %d vec4 varyings between the "
            "stages (varying_slots=%d: %s GLES 2.0's minimum "
            "GL_MAX_VARYING_VECTORS, 8).\n\n", slots, slots,
            slots == US_VARYING_SLOTS_DEFAULT ? "the default," : "raised from");
}

void us_bench_report(FILE *f, const struct us_bench *b, bool plots,
                     const char *note)
{
    struct us_report r;
    us_report_init(&r, b);
    unsigned nv = us_bench_class_count(b, US_BENCH_VERTEX, false);
    char models[96] = "";
    for (unsigned a = 0, n = 0; a < R_NARCH; a++)
        if (us_report_ran(&r, a))
            n += (unsigned)snprintf(models + n, sizeof models - n, "%s%s",
                                    n ? ", " : "", us_report_arch[a]);
    fprintf(f, "# ushader: architecture comparison\n\n"
            "Generated by `ushader bench`: %u programs (%u vertex, %u "
            "fragment) x %u model configurations (models: %s), %u threads "
            "per program, inputs captured from the test scenes.  Every "
            "run's outputs are compared bit for bit with the reference "
            "interpreter's: %u of %u runs failed or differed.\n\n",
            b->nprogs, nv, b->nprogs - nv, b->nvars, models, b->threads,
            b->failures, b->nprogs * b->nvars);
    base_config(f, b);
    if (!plots && note)
        fprintf(f, "*Plots: %s*\n\n", note);
    section_width(f, &r, plots);
    section_util(f, &r, plots);
    section_cycles(f, &r);
    section_imem(f, b, plots);
    section_lut(f, b, plots);
    section_area(f, &r, plots);
    us_report_paper(f, &r);
    us_report_sensitivity(f, &r, plots);
    section_programs(f, b);
    section_per_program(f, &r);
    us_bench_report_glmark2(f, b);
    if (b->prov) {
        fputc('\n', f);
        us_prov_markdown(f, b->prov);
    }
}
