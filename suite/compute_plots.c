/* Gnuplot script and data files of the compute bench: suite/compute.h.
 * The data are the report's figures (utilization per model, divergence
 * cost per policy and warp size, e-GPU scaling beside the paper's). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suite/compute.h"

const char *const us_cb_plot_names[] = {
    "utilization.png", "divergence.png", "egpu.png", NULL,
};

/* NaN as gnuplot's missing value "?". */
static void val(FILE *f, double x)
{
    if (isnan(x) || isinf(x))
        fprintf(f, " ?");
    else
        fprintf(f, " %.6g", x);
}

static void util_dat(FILE *f, const struct us_cbench *b)
{
    fprintf(f, "# model  mean utilization over the kernels, %%\n");
    for (unsigned v = 0; v < b->nvars; v++) {
        if (b->vars[v].group != US_CB_MODEL || !b->vars[v].model)
            continue;
        fprintf(f, "%s", b->vars[v].name);
        val(f, us_cb_mean(b, b->vars[v].name, "utilization", NULL) * 100);
        fputc('\n', f);
    }
}

static const char *const policies[] = { "pdom", "minpc", "serial", "dice" };

/* Mean over the divergent kernels of masked / issued lane-slots. */
static double cost(const struct us_cbench *b, const char *variant)
{
    double sum = 0;
    unsigned n = 0;
    for (unsigned j = 0; j < b->njobs; j++) {
        if (strcmp(b->vars[b->jobs[j].v].name, variant))
            continue;
        double a = us_cb_stat(b, (int)j, "simt.active_lane_slots"),
               m = us_cb_stat(b, (int)j, "masked_lane_slots"),
               e = us_cb_stat(b, (int)j, "simt.empty_lane_slots");
        if (!isnan(a + m + e) && a + m + e > 0) {
            sum += m / (a + m + e);
            n++;
        }
    }
    return n ? sum / n : NAN;
}

/* Geometric mean over the kernels of cycles(variant) / cycles(div/scalar). */
static double vs_scalar(const struct us_cbench *b, const char *variant)
{
    double lg = 0;
    unsigned n = 0;
    for (unsigned k = 0; k < b->nkern; k++) {
        double x = us_cb_stat(b, us_cb_job(b, b->kern[k].id, variant),
                              "cycles"),
               y = us_cb_stat(b, us_cb_job(b, b->kern[k].id, "div/scalar"),
                              "cycles");
        if (x > 0 && y > 0) {
            lg += log(x / y);
            n++;
        }
    }
    return n ? exp(lg / n) : NAN;
}

static void div_dat(FILE *f, const struct us_cbench *b)
{
    fprintf(f, "# warp  divergence cost (masked / issued lane-slots, %%, "
            "mean over the divergent kernels): pdom minpc serial dice;  "
            "cycles / the scalar SPs' (geometric mean): pdom minpc serial "
            "dice\n");
    for (unsigned w = 4; w <= 32; w *= 2) {
        fprintf(f, "%u", w);
        char name[48];
        for (unsigned p = 0; p < 8; p++) {
            snprintf(name, sizeof name, "div/%s/w%u", policies[p % 4], w);
            val(f, p < 4 ? cost(b, name) * 100 : vs_scalar(b, name));
        }
        fputc('\n', f);
    }
}

/* Speedup over 1T of kernel `base`'s study kernel on `size` without the
 * launch cost. */
static double speedup(const struct us_cbench *b, const char *base,
                      const char *size)
{
    int j1 = -1;
    for (unsigned j = 0; j < b->njobs && j1 < 0; j++)
        if (!strcmp(b->vars[b->jobs[j].v].name, "egpu/1t") &&
            !strncmp(b->kern[b->jobs[j].k].id, base, strlen(base)))
            j1 = (int)j;
    if (j1 < 0)
        return NAN;
    char v[32];
    snprintf(v, sizeof v, "egpu/%s", size);
    const char *id = b->kern[b->jobs[j1].k].id;
    double L = b->vars[b->jobs[j1].v].cfg.v[US_KNOB_simt_launch],
           c1 = us_cb_stat(b, j1, "cycles"),
           cn = us_cb_stat(b, us_cb_job(b, id, v), "cycles");
    return cn > L ? (c1 - L) / (cn - L) : NAN;
}

static void egpu_dat(FILE *f, const struct us_cbench *b)
{
    fprintf(f, "# kernel  ours 4T, ours 16T (over 1T, launch excluded), "
            "paper 4T, paper 16T (over the host)\n");
    for (unsigned i = 0; i < 3; i++) {
        const struct us_cb_paper *p = &us_cb_paper[i];
        fprintf(f, "%s", p->kernel);
        val(f, speedup(b, p->kernel, "4t"));
        val(f, speedup(b, p->kernel, "16t"));
        val(f, p->lo);
        val(f, p->hi);
        fputc('\n', f);
    }
}

static void script(FILE *f, const char *terminal)
{
    const char *term = !strcmp(terminal, "pngcairo")
                           ? "pngcairo font 'sans,10'" : terminal;
    fprintf(f,
        "# The compute bench's plots (ushader bench --suite compute);\n"
        "# run in this directory: gnuplot plots.gp\n"
        "set terminal %s size 800,450 noenhanced\n"
        "set style data histograms\nset style fill solid 0.8 border -1\n"
        "set key top right\nset grid ytics\n"
        "\nset output 'utilization.png.tmp'\n"
        "set title 'Compute suite: utilization per model (mean over "
        "kernels, equal ALU lanes)'\nset ylabel 'utilization, %%'\n"
        "set yrange [0:*]\nset boxwidth 0.8\n"
        "plot 'utilization.dat' using 2:xtic(1) notitle\n"
        "\nset output 'divergence.png.tmp'\n"
        "set terminal %s size 1100,450 noenhanced\n"
        "set multiplot layout 1,2 title 'Divergent kernels at 32 lanes "
        "(means over the kernels)'\n"
        "set style data linespoints\n"
        "set title 'divergence cost: masked / issued lane-slots'\n"
        "set xlabel 'warp size (lanes)'\n"
        "set ylabel 'masked lane-slots, %%'\nset logscale x 2\n"
        "set xrange [3:40]\nset yrange [0:*]\n"
        "plot for [i=2:5] 'divergence.dat' using 1:i title "
        "word('pdom minpc serial dice', i-1) lw 2\n"
        "set title 'cycles / the scalar SPs'\nset ylabel 'ratio'\n"
        "set logscale y 2\nset yrange [*:*]\n"
        "plot for [i=6:9] 'divergence.dat' using 1:i title "
        "word('pdom minpc serial dice', i-5) lw 2\n"
        "unset multiplot\nunset logscale y\n"
        "\nset output 'egpu.png.tmp'\n"
        "set terminal %s size 800,450 noenhanced\n"
        "unset logscale x\nunset xlabel\nset xrange [*:*]\nset yrange [0:*]\n"
        "set style data histograms\nset style histogram clustered gap 1\n"
        "set title 'e-GPU: speedup of 4T and 16T (ours: over 1T without "
        "the launch; the paper: over the host)'\nset ylabel 'speedup'\n"
        "plot 'egpu.dat' using 2:xtic(1) title 'ours 4T', '' using 3 "
        "title 'ours 16T', '' using 4 title 'paper 4T', '' using 5 title "
        "'paper 16T'\n", term, term, term);
}

static bool add_file(struct us_bench_file *files, unsigned *n,
                     const char *name,
                     void (*fill)(FILE *, const struct us_cbench *),
                     const struct us_cbench *b)
{
    struct us_bench_file *o = &files[*n];
    snprintf(o->name, sizeof o->name, "%s", name);
    FILE *f = open_memstream(&o->data, &o->len);
    if (!f)
        return false;
    fill(f, b);
    if (fclose(f)) {
        free(o->data);
        o->data = NULL;
        return false;
    }
    (*n)++;
    return true;
}

bool us_cb_plot_files(const struct us_cbench *b, const char *terminal,
                      struct us_bench_file **files, unsigned *nfiles)
{
    enum { NFILES = 4 };
    struct us_bench_file *fs = calloc(NFILES, sizeof *fs);
    unsigned n = 0;
    if (!fs)
        return false;
    bool ok = add_file(fs, &n, "utilization.dat", util_dat, b) &&
              add_file(fs, &n, "divergence.dat", div_dat, b) &&
              add_file(fs, &n, "egpu.dat", egpu_dat, b);
    if (ok) {
        struct us_bench_file *o = &fs[n];
        snprintf(o->name, sizeof o->name, "plots.gp");
        FILE *f = open_memstream(&o->data, &o->len);
        ok = f != NULL;
        if (f) {
            script(f, terminal);
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
