/* Gnuplot script and data files of the bench report: suite/suite.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suite.h"

const char *const us_bench_plot_names[] = {
    "width.png", "utilization.png", "programs.png", "imem.png", "lut.png",
    "area_energy.png", "sensitivity.png", NULL,
};

static const char *const arch_names[] = {
    "scalar", "simd4", "vliw", "superscalar", "hetero",
};
enum { NARCH = sizeof arch_names / sizeof arch_names[0] };

/* NaN as gnuplot's missing value "?". */
static void val(FILE *f, double x)
{
    if (isnan(x) || isinf(x))
        fprintf(f, " ?");
    else
        fprintf(f, " %.6g", x);
}

static void width_dat(FILE *f, const struct us_bench *b)
{
    fprintf(f, "# class  width1 width2 width3 width4  (%% of vec4 "
            "instructions)\n");
    for (unsigned c = 0; c < US_BENCH_NCLASS; c++) {
        struct us_bench_code cs;
        us_bench_code_summary(b, c, &cs);
        fprintf(f, "%s", us_bench_class_names[c]);
        for (unsigned w = 1; w <= 4; w++)
            val(f, cs.w[w] * 100);
        fputc('\n', f);
    }
}

static void util_dat(FILE *f, const struct us_bench *b)
{
    fprintf(f, "# model  vertex fragment all  (mean utilization, %%, over "
            "the programs with useful ALU ops)\n");
    for (unsigned a = 0; a < NARCH; a++) {
        int v = us_bench_var(b, arch_names[a]);
        if (v < 0)
            continue;
        fprintf(f, "%s", arch_names[a]);
        for (unsigned c = 0; c < US_BENCH_NCLASS; c++)
            val(f, us_bench_util_mean(b, v, c) * 100);
        fputc('\n', f);
    }
}

static void programs_dat(FILE *f, const struct us_bench *b)
{
    fprintf(f, "# program");
    for (unsigned a = 0; a < NARCH; a++)
        fprintf(f, " %s", arch_names[a]);
    fprintf(f, "  (utilization, %%; ? = not run)\n");
    for (unsigned p = 0; p < b->nprogs; p++) {
        fprintf(f, "\"%s\"", b->progs[p].name);
        for (unsigned a = 0; a < NARCH; a++)
            val(f, 100 * us_bench_stat(b, p, us_bench_var(b, arch_names[a]),
                                       "utilization"));
        fputc('\n', f);
    }
}

static void imem_dat(FILE *f, const struct us_bench *b)
{
    fprintf(f, "# program  uncompacted/vec4 compacted/vec4  (instructions)\n");
    for (unsigned p = 0; p < b->nprogs; p++) {
        const struct us_code_stats *cs = &b->progs[p].code;
        double n = cs->vec4_instructions;
        fprintf(f, "\"%s\"", b->progs[p].name);
        val(f, n > 0 ? cs->scalar_instructions / n : NAN);
        val(f, n > 0 ? cs->compacted_instructions / n : NAN);
        fputc('\n', f);
    }
}

static void lut_dat(FILE *f, const struct us_bench *b)
{
    static const unsigned banks[] = { 1, 2, 4, 8 };
    int priv = us_bench_var(b, "scalar-lut-private");
    double base = us_bench_sum(b, priv, US_BENCH_ALL, "cycles", true);
    fprintf(f, "# lookahead, then cycles / private-LUT cycles for banks "
            "1 2 4 8 with multi-fetch on, then off\n");
    for (int la = 0; la <= 3; la++) {
        fprintf(f, "%d", la);
        for (int mf = 1; mf >= 0; mf--)
            for (unsigned bi = 0; bi < 4; bi++) {
                char name[48];
                snprintf(name, sizeof name, "scalar-lut-b%u-mf%d-la%d",
                         banks[bi], mf, la);
                double c = us_bench_sum(b, us_bench_var(b, name),
                                        US_BENCH_ALL, "cycles", true);
                val(f, base > 0 ? c / base : NAN);
            }
        fputc('\n', f);
    }
}

static void norm_dat(FILE *f, const struct us_bench *b)
{
    int s4 = us_bench_var(b, "simd4");
    fprintf(f, "# model  area time energy power area*delay  (geometric "
            "means of ratios to simd4)\n");
    for (unsigned a = 0; a < NARCH; a++) {
        int v = us_bench_var(b, arch_names[a]);
        if (v < 0)
            continue;
        double area = us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "area");
        double time = us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "cycles");
        double en = us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "energy");
        double ad = us_bench_geo_ratio(b, v, s4, US_BENCH_ALL, "area_delay");
        fprintf(f, "%s", arch_names[a]);
        val(f, area);
        val(f, time);
        val(f, en);
        val(f, en / time);
        val(f, ad);
        fputc('\n', f);
    }
}

/* The script: every plot reads one data file and writes NAME.png.tmp. */
/* The script; `lut` and `norm` say whether the LUT sweep and simd4 ran
 * (else their plots say so: gnuplot stops at a plot without data). */
/* Per program with useful ALU ops: its four-component share and the
 * scalar SP's gain over each baseline, in % (report section h). */
static void sens_dat(FILE *f, const struct us_bench *b)
{
    fprintf(f, "# program share4 gain_over_simd4 vliw superscalar hetero "
            "(%%)\n");
    int sc = us_bench_var(b, "scalar");
    for (unsigned p = 0; p < b->nprogs; p++) {
        if (us_bench_prog_ops(b, p) == 0)
            continue;
        fprintf(f, "%s", b->progs[p].name);
        val(f, us_bench_prog_share4(b, p) * 100);
        for (unsigned a = 1; a < NARCH; a++) {
            int v = us_bench_var(b, arch_names[a]);
            val(f, (us_bench_stat(b, p, sc, "utilization") /
                    us_bench_stat(b, p, v, "utilization") - 1) * 100);
        }
        fputc('\n', f);
    }
}

/* The scatter of sens_dat with each baseline's fitted line and the
 * paper's point (37.3%, +88% over SIMD). */
static void sens_script(FILE *f, const struct us_bench *b)
{
    fprintf(f,
        "\nset output 'sensitivity.png.tmp'\n"
        "set style data points\nset xtics norotate font ''\n"
        "set title 'Scalar SP gain over each baseline per program, "
        "against its four-component share'\n"
        "set xlabel 'four-component ALU instructions, %%'\n"
        "set ylabel 'utilization gain, %%'\n"
        "set xrange [0:100]\nset yrange [*:*]\nset xtics 10\n");
    int sc = us_bench_var(b, "scalar");
    fprintf(f, "plot");
    for (unsigned a = 1; a < NARCH; a++) {
        struct us_bench_fit fit;
        int v = us_bench_var(b, arch_names[a]);
        if (v < 0 || sc < 0)
            continue;
        fprintf(f, " 'sensitivity.dat' using 2:%u title 'over %s' pt 7 "
                "ps 0.8 lc %u,", a + 2, arch_names[a], a);
        if (us_bench_sens_fit(b, sc, v, &fit))
            fprintf(f, " (%.6g + %.6g * x) title 'fit, %s' with lines "
                    "lc %u lw 2,", 100 * fit.icept, fit.slope, arch_names[a],
                    a);
    }
    fprintf(f, " '-' using 1:2 title 'paper: 37.3%%, +88%% over SIMD' "
            "with points pt 5 ps 2 lc rgb 'black'\n37.3 88\ne\n");
}

static void script(FILE *f, const char *terminal, bool lut, bool norm)
{
    fprintf(f,
        "# Generated by `ushader bench` (suite/plots.c): run `gnuplot "
        "plots.gp` in this directory.\n"
        "set terminal %s size 800,450 noenhanced\n"
        "set style fill solid 0.85 border -1\n"
        "set key outside right top\n"
        "set grid ytics\n"
        "set style data histograms\n",
        !strcmp(terminal, "pngcairo") ? "pngcairo font 'sans,10'" : terminal);
    fprintf(f,
        "\nset output 'width.png.tmp'\n"
        "set title 'Share of ALU vec4 instructions by useful components "
        "(texture fetches left out)'\n"
        "set ylabel '%% of instructions'\nset yrange [0:100]\n"
        "set style histogram rowstacked\nset boxwidth 0.6\n"
        "plot 'width.dat' using 2:xtic(1) title '1 component', "
        "'' using 3 title '2', '' using 4 title '3', '' using 5 title '4'\n");
    fprintf(f,
        "\nset output 'utilization.png.tmp'\n"
        "set title 'Datapath utilization (mean over the programs with "
        "useful ALU ops, equal ALU lanes)'\n"
        "set ylabel 'utilization, %%'\nset yrange [0:100]\n"
        "set style histogram clustered gap 1\nset boxwidth 0.9\n"
        "plot 'utilization.dat' using 2:xtic(1) title 'vertex', '' using 3 "
        "title 'fragment', '' using 4 title 'all'\n");
    fprintf(f,
        "\nset output 'programs.png.tmp'\n"
        "set terminal %s size 1400,520 noenhanced\n"
        "set title 'Utilization per program'\nset yrange [0:*]\n"
        "set xtics rotate by -60 font ',8'\n"
        "plot 'programs.dat' using 2:xtic(1) title 'scalar', '' using 3 "
        "title 'simd4', '' using 4 title 'vliw', '' using 5 title "
        "'superscalar', '' using 6 title 'hetero'\n",
        !strcmp(terminal, "pngcairo") ? "pngcairo font 'sans,10'" : terminal);
    fprintf(f,
        "\nset output 'imem.png.tmp'\n"
        "set title 'Scalar instructions per vec4 instruction'\n"
        "set ylabel 'ratio'\nset yrange [0:*]\n"
        "plot 'imem.dat' using 2:xtic(1) title 'uncompacted', '' using 3 "
        "title 'compacted'\n");
    fprintf(f,
        "\nset output 'lut.png.tmp'\n"
        "set terminal %s size 800,450 noenhanced\n"
        "set xtics norotate font ''\nset style data linespoints\n"
        "set title 'Shared LUT: cycles relative to private LUTs (programs "
        "with SFU instructions)'\nset xlabel 'lookahead (cycles)'\n"
        "set ylabel 'cycles / private'\nset yrange [*:*]\nset xtics 1\n",
        !strcmp(terminal, "pngcairo") ? "pngcairo font 'sans,10'" : terminal);
    if (lut)
        fprintf(f,
            "plot for [i=2:5] 'lut.dat' using 1:i title sprintf('%%d "
            "bank(s), multi-fetch', 2**(i-2)) lc i-1 lw 2, for [i=6:9] "
            "'lut.dat' using 1:i title sprintf('%%d bank(s), no "
            "multi-fetch', 2**(i-6)) lc i-5 dt 2 lw 2\n");
    else
        fprintf(f, "set label 1 'the scalar model was not run' at graph "
                "0.35, graph 0.5\nplot [0:3][0:2] NaN notitle\n"
                "unset label 1\n");
    fprintf(f,
        "\nset output 'area_energy.png.tmp'\n"
        "set style data histograms\nunset xlabel\n"
        "set title 'Normalized to simd4 (geometric means over programs)'\n"
        "set ylabel 'ratio to simd4'\nset yrange [0:*]\n");
    if (norm)
        fprintf(f,
            "plot 'area_energy.dat' using 2:xtic(1) title 'area', '' using 3 "
            "title 'time', '' using 4 title 'energy', '' using 5 title "
            "'power', '' using 6 title 'area x delay'\n");
    else
        fprintf(f, "set label 1 'simd4, the reference, was not run' at "
                "graph 0.35, graph 0.5\nplot [0:1][0:2] NaN notitle\n");
}

static bool add_file(struct us_bench_file *files, unsigned *n,
                     const char *name, void (*fill)(FILE *,
                                                    const struct us_bench *),
                     const struct us_bench *b)
{
    struct us_bench_file *o = &files[*n];
    snprintf(o->name, sizeof o->name, "%s", name);
    o->data = NULL;
    o->len = 0;
    FILE *f = open_memstream(&o->data, &o->len);
    if (!f)
        return false;
    fill(f, b);
    if (fclose(f)) {
        free(o->data);
        return false;
    }
    (*n)++;
    return true;
}

bool us_bench_plot_files(const struct us_bench *b, const char *terminal,
                         struct us_bench_file **files, unsigned *nfiles)
{
    enum { NFILES = 8 };
    struct us_bench_file *fs = calloc(NFILES, sizeof *fs);
    unsigned n = 0;
    if (!fs)
        return false;
    bool ok = add_file(fs, &n, "width.dat", width_dat, b) &&
              add_file(fs, &n, "utilization.dat", util_dat, b) &&
              add_file(fs, &n, "programs.dat", programs_dat, b) &&
              add_file(fs, &n, "imem.dat", imem_dat, b) &&
              add_file(fs, &n, "lut.dat", lut_dat, b) &&
              add_file(fs, &n, "area_energy.dat", norm_dat, b) &&
              add_file(fs, &n, "sensitivity.dat", sens_dat, b);
    if (ok) {
        struct us_bench_file *o = &fs[n];
        snprintf(o->name, sizeof o->name, "plots.gp");
        FILE *f = open_memstream(&o->data, &o->len);
        ok = f != NULL;
        if (f) {
            script(f, terminal, us_bench_var(b, "scalar-lut-private") >= 0,
                   us_bench_var(b, "simd4") >= 0);
            sens_script(f, b);
            ok = fclose(f) == 0;
            n += ok;
        }
    }
    if (!ok) {
        us_bench_files_free(fs, n);
        return false;
    }
    *files = fs;
    *nfiles = n;
    return true;
}

void us_bench_files_free(struct us_bench_file *files, unsigned nfiles)
{
    for (unsigned i = 0; files && i < nfiles; i++)
        free(files[i].data);
    free(files);
}
