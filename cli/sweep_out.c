/* The outputs of a sweep (cli/sweep.h): results.json, results.csv,
 * report.md, gnuplot's files and the stdout summary.  Each is a function
 * of the JSON objects of struct sw_results only -- the provenance, the
 * spec and the points as read back from their text -- so a local run and
 * a merge of the jobs' partial results write the same bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sweep.h"
#include "suite/compute.h"
#include "suite/suite.h"

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static const json_t *knobs_of(const struct sw_results *r)
{
    return json_object_get(r->sweep, "knobs");
}

static const char *axis_key(const struct sw_results *r, size_t a)
{
    return str_of(json_array_get(knobs_of(r), a), "key");
}

/* A compute sweep's rows are bench-compute's jobs (cli/sweep_compute.c):
 * "kernel" and "status" where a shader sweep's have "program", "ok". */
static bool is_compute(const struct sw_results *r)
{
    return !strcmp(str_of(r->sweep, "suite"), "compute");
}

/* results.csv's statistics (and --plot's): the bench's or, for the
 * compute suite, the compute bench's (memory system, SIMT). */
static const char *const *csv_stats(const json_t *sweep)
{
    return strcmp(str_of(sweep, "suite"), "compute") ? us_bench_csv_stats
                                                     : us_cb_csv_stats;
}

static bool run_ok(const json_t *run)
{
    return json_is_true(json_object_get(run, "ok")) ||
           !strcmp(str_of(run, "status"), "pass");
}

/* A statistic by dotted name ("stalls.dependency", "area" as area.total);
 * NaN when missing or null. */
static double stat_of(const json_t *stats, const char *name)
{
    const json_t *o = stats;
    char part[64];
    for (const char *p = name; o;) {
        size_t n = strcspn(p, ".");
        snprintf(part, sizeof part, "%.*s", (int)n, p);
        o = json_object_get(o, part);
        if (!p[n])
            break;
        p += n + 1;
    }
    if (json_is_object(o))
        o = json_object_get(o, "total");
    return json_is_number(o) ? json_number_value(o) : NAN;
}

/* ---- results.json ------------------------------------------------------- */

void sw_results_json(FILE *f, const void *ctx)
{
    const struct sw_results *r = ctx;
    json_t *pts = json_array();
    for (unsigned k = 0; pts && k < r->npoints; k++)
        json_array_append(pts, r->points[k]);
    json_t *o = json_pack("{s:i, s:O, s:O, s:o}", "schema_version",
                          US_JSON_SCHEMA_VERSION, "provenance", r->prov,
                          "sweep", r->sweep, "points", pts);
    char *s = o ? json_dumps(o, US_JSON_FLAGS) : NULL;
    if (s)
        fprintf(f, "%s\n", s);
    free(s);
    json_decref(o);
}

/* ---- results.csv -------------------------------------------------------- */

static void json_scalar(FILE *f, const json_t *v)
{
    if (json_is_string(v))
        fputs(json_string_value(v), f);
    else if (json_is_integer(v))
        fprintf(f, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        fprintf(f, "%.10g", json_real_value(v));
}

/* The provenance as us_prov_csv writes it, from its JSON object. */
static void prov_csv(FILE *f, const json_t *p)
{
    fprintf(f, "# schema_version: %d\n# version: %s\n# commit: %s\n"
            "# command: %s\n", US_JSON_SCHEMA_VERSION, str_of(p, "version"),
            str_of(p, "commit"), str_of(p, "command"));
    if (json_object_get(p, "math"))
        fprintf(f, "# math: %s\n", str_of(p, "math"));
    const char *sec, *key;
    json_t *so, *v;
    json_object_foreach(json_object_get(p, "config"), sec, so)
        json_object_foreach(so, key, v) {
            fprintf(f, "# config.%s.%s: ", sec, key);
            json_scalar(f, v);
            fputc('\n', f);
        }
    size_t i;
    json_array_foreach(json_object_get(p, "inputs"), i, v) {
        if (json_object_get(v, "error"))
            fprintf(f, "# input: %s (%s)\n", str_of(v, "path"),
                    str_of(v, "error"));
        else
            fprintf(f, "# input: %s %lld bytes fnv1a64 %s\n",
                    str_of(v, "path"),
                    (long long)json_integer_value(json_object_get(v, "bytes")),
                    str_of(v, "fnv1a64"));
    }
}

void sw_results_csv(FILE *f, const void *ctx)
{
    const struct sw_results *r = ctx;
    prov_csv(f, r->prov);
    fprintf(f, "# sweep.mode: %s\n# sweep.points: %u\npoint",
            str_of(r->sweep, "mode"), r->npoints);
    size_t na = json_array_size(knobs_of(r));
    for (size_t a = 0; a < na; a++)
        fprintf(f, ",%s", axis_key(r, a));
    bool compute = is_compute(r);
    fprintf(f, compute ? ",kernel,variant,model,status"
                       : ",program,stage,variant,model,ok,identical");
    const char *const *stats = csv_stats(r->sweep);
    for (unsigned i = 0; stats[i]; i++)
        fprintf(f, ",%s", stats[i]);
    fputc('\n', f);
    for (unsigned k = 0; k < r->npoints; k++) {
        const json_t *pt = r->points[k], *knobs = json_object_get(pt, "knobs");
        size_t i;
        json_t *run;
        json_array_foreach(json_object_get(pt, "runs"), i, run) {
            fprintf(f, "%u", k);
            for (size_t a = 0; a < na; a++)
                fprintf(f, ",%s", str_of(knobs, axis_key(r, a)));
            if (compute)
                fprintf(f, ",%s,%s,%s,%s", str_of(run, "kernel"),
                        str_of(run, "variant"), str_of(run, "model"),
                        str_of(run, "status"));
            else
                fprintf(f, ",%s,%s,%s,%s,%d,%d", str_of(run, "program"),
                        str_of(run, "stage"), str_of(run, "variant"),
                        str_of(run, "model"),
                        json_is_true(json_object_get(run, "ok")),
                        json_is_true(json_object_get(run, "identical")));
            const json_t *st = json_object_get(run, "stats");
            for (unsigned s = 0; stats[s]; s++) {
                double x = stat_of(st, stats[s]);
                if (isnan(x))
                    fputc(',', f);
                else
                    fprintf(f, ",%.10g", x);
            }
            fputc('\n', f);
        }
    }
}

/* ---- Aggregates --------------------------------------------------------- */

/* The models of the sweep, in the order of point 0's rows. */
enum { MAX_MODELS = 16 };
static unsigned models_of(const struct sw_results *r,
                          const char *names[MAX_MODELS])
{
    unsigned n = 0;
    size_t i;
    json_t *run;
    json_array_foreach(json_object_get(r->points[0], "runs"), i, run) {
        const char *v = str_of(run, "variant");
        unsigned m = 0;
        while (m < n && strcmp(names[m], v))
            m++;
        if (m == n && n < MAX_MODELS)
            names[n++] = v;
    }
    return n;
}

/* Mean of a statistic over the programs point k ran on variant `var`
 * (its runs that are ok); NaN when none. */
static double point_mean(const json_t *pt, const char *var,
                         const char *metric)
{
    double sum = 0;
    unsigned n = 0;
    size_t i;
    json_t *run;
    json_array_foreach(json_object_get(pt, "runs"), i, run) {
        if (strcmp(str_of(run, "variant"), var) || !run_ok(run))
            continue;
        double x = stat_of(json_object_get(run, "stats"), metric);
        if (!isnan(x)) {
            sum += x;
            n++;
        }
    }
    return n ? sum / n : NAN;
}

static unsigned point_failures(const json_t *pt)
{
    return (unsigned)json_integer_value(json_object_get(pt, "failures"));
}

static void cell(FILE *f, const char *fmt, double x)
{
    if (isnan(x))
        fprintf(f, " n/a");
    else
        fprintf(f, fmt, x);
}

void sw_results_table(FILE *f, const struct sw_results *r)
{
    const char *metric = r->nplots ? r->plots[0].metric : "cycles";
    const char *models[MAX_MODELS];
    unsigned nm = models_of(r, models);
    size_t na = json_array_size(knobs_of(r));
    fprintf(f, "point");
    for (size_t a = 0; a < na; a++)
        fprintf(f, " %s", axis_key(r, a));
    for (unsigned m = 0; m < nm; m++)
        fprintf(f, " %s", models[m]);
    fprintf(f, "   (%s, mean over the programs)\n", metric);
    unsigned fails = 0;
    for (unsigned k = 0; k < r->npoints; k++) {
        const json_t *knobs = json_object_get(r->points[k], "knobs");
        fprintf(f, "%u", k);
        for (size_t a = 0; a < na; a++)
            fprintf(f, " %s", str_of(knobs, axis_key(r, a)));
        for (unsigned m = 0; m < nm; m++)
            cell(f, " %.6g", point_mean(r->points[k], models[m], metric));
        fputc('\n', f);
        fails += point_failures(r->points[k]);
    }
    fprintf(f, "%u points; %u runs failed or differed from the reference\n",
            r->npoints, fails);
}

/* ---- report.md ---------------------------------------------------------- */

static void prov_markdown(FILE *f, const json_t *p)
{
    fprintf(f, "## Provenance\n\n- ushader %s (commit %s), JSON schema %d\n"
            "- command: `%s`\n", str_of(p, "version"), str_of(p, "commit"),
            US_JSON_SCHEMA_VERSION, str_of(p, "command"));
    if (json_object_get(p, "math"))
        fprintf(f, "- math: %s\n", str_of(p, "math"));
    const json_t *in = json_object_get(p, "inputs");
    size_t i;
    json_t *v;
    if (json_array_size(in))
        fprintf(f, "\n| input | bytes | FNV-1a 64 |\n|---|---:|---|\n");
    json_array_foreach(in, i, v) {
        if (json_object_get(v, "error"))
            fprintf(f, "| `%s` | | %s |\n", str_of(v, "path"),
                    str_of(v, "error"));
        else
            fprintf(f, "| `%s` | %lld | `%s` |\n", str_of(v, "path"),
                    (long long)json_integer_value(json_object_get(v, "bytes")),
                    str_of(v, "fnv1a64"));
    }
    fprintf(f, "\nThe base configuration (every point applies its knobs "
            "over it):\n\n```ini\n");
    const char *sec, *key;
    json_t *so;
    json_object_foreach(json_object_get(p, "config"), sec, so) {
        fprintf(f, "[%s]\n", sec);
        json_object_foreach(so, key, v) {
            fprintf(f, "%s = ", key);
            json_scalar(f, v);
            fputc('\n', f);
        }
    }
    fprintf(f, "```\n");
}

void sw_results_report(FILE *f, const void *ctx, bool plots, const char *note)
{
    const struct sw_results *r = ctx;
    const json_t *sw = r->sweep;
    size_t na = json_array_size(knobs_of(r)), i;
    json_t *ax;
    if (is_compute(r))
        fprintf(f, "# ushader sweep\n\n%u points (%s) of `ushader bench "
                "--suite compute%s%s` on the models of --arch %s (each at "
                "its defaults; the presets and studies left out), each "
                "point's knobs applied over the base configuration:\n\n"
                "| knob | values |\n|---|---|\n", r->npoints,
                str_of(sw, "mode"), *str_of(sw, "only") ? " --only " : "",
                str_of(sw, "only"), str_of(sw, "arch"));
    else
        fprintf(f, "# ushader sweep\n\n%u points (%s) of `ushader bench "
                "--arch %s%s%s --threads %lld --suite %s`, each point's "
                "knobs applied over the base configuration:\n\n| knob | "
                "values |\n|---|---|\n",
                r->npoints, str_of(sw, "mode"), str_of(sw, "arch"),
                *str_of(sw, "only") ? " --only " : "", str_of(sw, "only"),
                (long long)json_integer_value(json_object_get(sw, "threads")),
                str_of(sw, "suite"));
    json_array_foreach(knobs_of(r), i, ax) {
        fprintf(f, "| `%s` |", str_of(ax, "key"));
        size_t j;
        json_t *v;
        json_array_foreach(json_object_get(ax, "values"), j, v)
            fprintf(f, "%s%s", j ? ", " : " ", json_string_value(v));
        fprintf(f, " |\n");
    }
    const char *models[MAX_MODELS];
    unsigned nm = models_of(r, models);
    fprintf(f, "\n## Results\n\nMeans over the programs; results.csv has "
            "every program.\n\n| point |");
    for (size_t a = 0; a < na; a++)
        fprintf(f, " %s |", axis_key(r, a));
    fprintf(f, " model | cycles | utilization | energy | failures |\n|---:|");
    for (size_t a = 0; a < na; a++)
        fprintf(f, "---:|");
    fprintf(f, "---|---:|---:|---:|---:|\n");
    for (unsigned k = 0; k < r->npoints; k++)
        for (unsigned m = 0; m < nm; m++) {
            const json_t *pt = r->points[k], *knobs = json_object_get(pt,
                                                                      "knobs");
            fprintf(f, "| %u |", k);
            for (size_t a = 0; a < na; a++)
                fprintf(f, " %s |", str_of(knobs, axis_key(r, a)));
            fprintf(f, " %s |", models[m]);
            cell(f, " %.1f |", point_mean(pt, models[m], "cycles"));
            cell(f, " %.3f |", point_mean(pt, models[m], "utilization"));
            cell(f, " %.4g |", point_mean(pt, models[m], "energy"));
            fprintf(f, " %u |\n", point_failures(pt));
        }
    fprintf(f, "\n## Plots\n\n");
    if (!r->nplots)
        fprintf(f, "No plot was requested.\n\n");
    else if (!plots)
        fprintf(f, "%s\n\n", note ? note : "No plots.");
    else
        for (unsigned p = 0; p < r->nplots; p++)
            fprintf(f, "![%s against %s](%s)\n\n", r->plots[p].metric,
                    axis_key(r, r->plots[p].axis), r->plot_names[p]);
    prov_markdown(f, r->prov);
}

/* ---- Plots -------------------------------------------------------------- */

bool sw_parse_plot(const char *arg, const json_t *sweep, struct sw_plot *p)
{
    const json_t *knobs = json_object_get(sweep, "knobs");
    const char *colon = strchr(arg, ':');
    size_t mlen = colon ? (size_t)(colon - arg) : strlen(arg);
    const char *const *stats = csv_stats(sweep);
    unsigned i = 0;
    while (stats[i] && (strlen(stats[i]) != mlen ||
                        memcmp(stats[i], arg, mlen)))
        i++;
    if (!stats[i]) {
        cli_error(NULL, 0, 0, "sweep: --plot '%s': %.*s is not a statistic "
                  "of results.csv (cycles, utilization, energy, ...: "
                  "docs/SWEEP.md)", arg, (int)mlen, arg);
        return false;
    }
    snprintf(p->metric, sizeof p->metric, "%s", stats[i]);
    p->axis = 0;
    if (!colon)
        return true;
    for (size_t a = 0; a < json_array_size(knobs); a++)
        if (!strcmp(str_of(json_array_get(knobs, a), "key"), colon + 1)) {
            p->axis = (unsigned)a;
            return true;
        }
    cli_error(NULL, 0, 0, "sweep: --plot '%s': %s is not a swept knob", arg,
              colon + 1);
    return false;
}

/* "sweep_METRIC_KNOB" with '.' and other non-word bytes as '_'. */
static void plot_base(const struct sw_results *r, unsigned p, char *buf,
                      size_t size)
{
    snprintf(buf, size, "sweep_%s_%s", r->plots[p].metric,
             axis_key(r, r->plots[p].axis));
    for (char *c = buf; *c; c++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789_-", *c))
            *c = '_';
}

bool sw_results_name_plots(struct sw_results *r)
{
    for (unsigned p = 0; p < r->nplots; p++) {
        char base[56];
        plot_base(r, p, base, sizeof base);
        size_t n = strlen(base) + 5;
        r->plot_names[p] = malloc(n);
        if (!r->plot_names[p])
            return false;
        snprintf(r->plot_names[p], n, "%s.png", base);
    }
    r->plot_names[r->nplots] = NULL;
    return true;
}

/* Are all values of axis a numbers (then the x axis is numeric)? */
static bool numeric_axis(const struct sw_results *r, unsigned a)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(json_array_get(knobs_of(r), a),
                                       "values"), i, v) {
        char *end;
        const char *s = json_string_value(v);
        strtod(s, &end);
        if (end == s || *end)
            return false;
    }
    return true;
}

/* A line of a plot: a model at one value of each other knob (grid; a
 * zipped sweep has one line per model). */
struct line {
    const char *model;
    unsigned first;           /* the point that started it */
};

static bool same_others(const struct sw_results *r, unsigned axis,
                        const json_t *a, const json_t *b)
{
    if (!strcmp(str_of(r->sweep, "mode"), "zip"))
        return true;
    size_t na = json_array_size(knobs_of(r));
    const json_t *ka = json_object_get(a, "knobs"),
                 *kb = json_object_get(b, "knobs");
    for (size_t x = 0; x < na; x++)
        if (x != axis && strcmp(str_of(ka, axis_key(r, x)),
                                str_of(kb, axis_key(r, x))))
            return false;
    return true;
}

/* The data (blocks of "INDEX VALUE Y", one per line) and the script's
 * plot command for plot p. */
static void plot_one(const struct sw_results *r, unsigned p, FILE *dat,
                     FILE *gp, const char *base, const char *terminal)
{
    const struct sw_plot *pl = &r->plots[p];
    const char *key = axis_key(r, pl->axis);
    const json_t *vals = json_object_get(json_array_get(knobs_of(r),
                                                        pl->axis), "values");
    const char *models[MAX_MODELS];
    unsigned nm = models_of(r, models), nl = 0;
    struct line *lines = calloc((size_t)r->npoints * nm, sizeof *lines);
    if (!lines)
        return;
    for (unsigned k = 0; k < r->npoints; k++)
        for (unsigned m = 0; m < nm; m++) {
            unsigned l = 0;
            while (l < nl && (strcmp(lines[l].model, models[m]) ||
                              !same_others(r, pl->axis,
                                           r->points[lines[l].first],
                                           r->points[k])))
                l++;
            if (l == nl)
                lines[nl++] = (struct line){ models[m], k };
        }
    bool num = numeric_axis(r, pl->axis);
    fprintf(gp, "\nset terminal %s size 800,450 noenhanced\n"
            "set output '%s.png.tmp'\nset title '%s (mean over the "
            "programs) against %s'\nset xlabel '%s'\nset ylabel '%s'\n"
            "set style data linespoints\nset key outside right\n"
            "set autoscale\n",
            !strcmp(terminal, "pngcairo") ? "pngcairo font 'sans,10'"
                                          : terminal,
            base, pl->metric, key, key, pl->metric);
    if (num) {
        /* a tic at each value the sweep took, labelled as given */
        fprintf(gp, "set xtics (");
        for (size_t i = 0; i < json_array_size(vals); i++) {
            const char *v = json_string_value(json_array_get(vals, i));
            fprintf(gp, "%s'%s' %s", i ? ", " : "", v, v);
        }
        fprintf(gp, ")\n");
    }
    fprintf(gp, "plot ");
    size_t na = json_array_size(knobs_of(r));
    for (unsigned l = 0; l < nl; l++) {
        const json_t *first = r->points[lines[l].first],
                     *fk = json_object_get(first, "knobs");
        fprintf(dat, "%s# %s", l ? "\n\n" : "", lines[l].model);
        char title[256];
        size_t tn = (size_t)snprintf(title, sizeof title, "%s",
                                     lines[l].model);
        for (size_t x = 0; x < na && strcmp(str_of(r->sweep, "mode"), "zip");
             x++)
            if (x != pl->axis && tn < sizeof title) {
                tn += (size_t)snprintf(title + tn, sizeof title - tn,
                                       " %s=%s", axis_key(r, x),
                                       str_of(fk, axis_key(r, x)));
            }
        fprintf(dat, "%s\n", title + strlen(lines[l].model));
        for (unsigned k = 0; k < r->npoints; k++) {
            if (!same_others(r, pl->axis, first, r->points[k]))
                continue;
            const char *v = str_of(json_object_get(r->points[k], "knobs"),
                                   key);
            size_t vi = 0;
            while (vi < json_array_size(vals) &&
                   strcmp(json_string_value(json_array_get(vals, vi)), v))
                vi++;
            double y = point_mean(r->points[k], lines[l].model, pl->metric);
            fprintf(dat, "%zu %s", vi, v);
            if (isnan(y))
                fprintf(dat, " ?\n");
            else
                fprintf(dat, " %.10g\n", y);
        }
        for (char *c = title; *c; c++)
            if (*c == '\'')
                *c = '"';
        fprintf(gp, "%s'%s.dat' index %u using %s title '%s'",
                l ? ", \\\n     " : "", base, l,
                num ? "2:3" : "1:3:xtic(2)", title);
    }
    fputc('\n', gp);
    free(lines);
}

bool sw_results_plot_files(const void *ctx, const char *terminal,
                           struct us_bench_file **files, unsigned *nfiles)
{
    const struct sw_results *r = ctx;
    struct us_bench_file *fs = calloc(r->nplots + 1, sizeof *fs);
    if (!fs)
        return false;
    struct us_bench_file *gpf = &fs[r->nplots];
    snprintf(gpf->name, sizeof gpf->name, "plots.gp");
    FILE *gp = open_memstream(&gpf->data, &gpf->len);
    bool ok = gp != NULL;
    unsigned n = 0;
    for (unsigned p = 0; ok && p < r->nplots; p++) {
        char base[56];
        plot_base(r, p, base, sizeof base);
        snprintf(fs[p].name, sizeof fs[p].name, "%s.dat", base);
        FILE *dat = open_memstream(&fs[p].data, &fs[p].len);
        if (!dat) {
            ok = false;
            break;
        }
        plot_one(r, p, dat, gp, base, terminal);
        ok = fclose(dat) == 0;
        n += ok;
    }
    if (gp)
        ok = fclose(gp) == 0 && ok;
    if (!ok) {
        us_bench_files_free(fs, r->nplots + 1);
        return false;
    }
    /* plots.gp last, as the bench writes it */
    *files = fs;
    *nfiles = n + 1;
    return true;
}
