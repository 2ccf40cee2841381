/*
 * ushader compare A B [--json | --markdown] [--threshold PCT] [--force]:
 * two result sets side by side (suite/compare.h reads them and computes
 * the figures; this file prints them): every (program, variant) in both
 * with its cycles, utilization, instructions, area and energy in A and B,
 * the change and the change in percent; the rows in one set only; the
 * geometric means of B/A per variant; shader-db's helped/hurt counts.
 * Every form starts with the configuration keys that differ.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/cli.h"
#include "suite/compare.h"
#include "suite/provenance.h"

static const char usage[] =
    "usage: ushader compare A B [--json | --markdown] [--threshold PCT]\n"
    "                       [--force]\n"
    "  Compares two result sets: a bench results.json (or its output\n"
    "  directory), `bench --json`, `bench --suite compute` results, a\n"
    "  sweep's (its knob values in the variant: \"scalar [lut_banks=1]\"),\n"
    "  or `run --arch M|all --json`.  Rows are matched by (program,\n"
    "  variant); per row: cycles, utilization, instructions (issued),\n"
    "  area (area.total) and energy in A and B, B - A and the change in\n"
    "  percent; then the rows in one set only, the geometric means of\n"
    "  B/A per variant and over all rows in both, and per metric how many\n"
    "  rows B helped, hurt or left unchanged (helped: fewer cycles,\n"
    "  instructions, area, energy; a higher utilization).  Every form\n"
    "  starts with the configuration keys (the provenance's config, math,\n"
    "  threads, INI inputs) that differ between A and B.\n"
    "  --json         one JSON object (docs/METRICS.md, schema compare)\n"
    "  --markdown     Markdown tables instead of the text table\n"
    "  --threshold PCT  a change of at most PCT percent of A counts as\n"
    "                 unchanged (default 0: only an equal value)\n"
    "  --force        compare sets whose provenance says they used\n"
    "                 different programs (a program or input file with\n"
    "                 another hash, or in one set only); without it\n"
    "                 that is an error\n"
    "  Exit 0 when compared, 1 on a file or provenance error or no rows\n"
    "  in common, 2 on a usage error.\n";

enum form { FORM_TEXT, FORM_MARKDOWN, FORM_JSON };

struct side {
    char *path;              /* the file read (DIR/results.json for DIR) */
    struct us_cmp_set set;
};

/* DIR stands for DIR/results.json, as bench --out writes it. */
static char *resolve(const char *arg)
{
    struct stat st;
    bool dir = strcmp(arg, "-") && !stat(arg, &st) && S_ISDIR(st.st_mode);
    size_t n = strlen(arg);
    char *p = malloc(n + sizeof "/results.json");
    if (p)
        snprintf(p, n + sizeof "/results.json", "%s%s", arg,
                 dir ? (n && arg[n - 1] == '/' ? "results.json"
                                               : "/results.json") : "");
    return p;
}

static bool load_side(const char *arg, struct side *s)
{
    s->path = resolve(arg);
    if (!s->path) {
        cli_error(arg, 0, 0, "out of memory");
        return false;
    }
    char *text;
    size_t len;
    if (!cli_read_file(s->path, &text, &len))
        return false;
    struct us_diag d = { 0 };
    bool ok = us_cmp_set_parse(&s->set, text, len, &d);
    free(text);
    if (!ok)
        cli_error(s->path, d.line, d.col, "%s", d.msg);
    return ok;
}

/* ---- Figures as text ---------------------------------------------------- */

static void fmt_value(char *buf, size_t n, enum us_cmp_metric m, double x,
                      bool sign)
{
    const char *f = us_cmp_metrics[m].integer ? (sign ? "%+.0f" : "%.0f")
                  : m == US_CMP_UTIL ? (sign ? "%+.4f" : "%.4f")
                  : (sign ? "%+.1f" : "%.1f");
    if (isnan(x))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, f, x);
}

/* The change in percent of a, or NaN when a is 0 and b is not (or
 * either is undefined). */
static double percent(double a, double b)
{
    return a == b ? 0 : a ? 100 * (b - a) / fabs(a) : NAN;
}

static void fmt_percent(char *buf, size_t n, double a, double b)
{
    double p = percent(a, b);
    if (isnan(p))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%+.2f%%", p);
}

static void fmt_ratio(char *buf, size_t n, double g)
{
    if (isnan(g))
        snprintf(buf, n, "n/a");
    else
        snprintf(buf, n, "%.5f", g);
}

/* ---- A table printed as aligned text or Markdown ------------------------ */

enum { TABLE_MAX_COLS = 3 + 4 * US_CMP_NMETRIC };

struct table {
    size_t ncols, ncells, cap;  /* ncols <= TABLE_MAX_COLS */
    char **cells;            /* row-major, the header first */
    unsigned left;           /* bit c: column c is left-aligned */
    bool oom;
};

static void cell(struct table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cell(struct table *t, const char *fmt, ...)
{
    if (t->ncells == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **c = realloc(t->cells, cap * sizeof *c);
        if (!c) {
            t->oom = true;
            return;
        }
        t->cells = c;
        t->cap = cap;
    }
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s) {
        vsnprintf(s, (size_t)n + 1, fmt, aq);
        t->cells[t->ncells++] = s;
    } else {
        t->oom = true;
    }
    va_end(aq);
    va_end(ap);
}

static void table_free(struct table *t)
{
    for (size_t i = 0; i < t->ncells; i++)
        free(t->cells[i]);
    free(t->cells);
}

/* A `|` in a Markdown cell would end it. */
static void md_cell(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s, f);
    }
}

/* Text: columns padded to their widest cell, two spaces apart;
 * Markdown: a pipe table, the header's separator after it. */
static void table_print(FILE *f, const struct table *t, bool markdown)
{
    size_t w[TABLE_MAX_COLS] = { 0 };
    for (size_t i = 0; i < t->ncells; i++) {
        size_t n = strlen(t->cells[i]);
        if (n > w[i % t->ncols])
            w[i % t->ncols] = n;
    }
    for (size_t i = 0; i < t->ncells; i++) {
        size_t c = i % t->ncols;
        bool left = (t->left >> c) & 1;
        if (markdown) {
            fputs(c ? " | " : "| ", f);
            md_cell(f, t->cells[i]);
        } else {
            int pad = (int)w[c];
            fprintf(f, "%s%*s", c ? "  " : "", left ? -pad : pad,
                    t->cells[i]);
        }
        if (c + 1 < t->ncols)
            continue;
        fputs(markdown ? " |\n" : "\n", f);
        if (markdown && i + 1 == t->ncols) {
            for (size_t k = 0; k < t->ncols; k++)
                fputs((t->left >> k) & 1 ? "|---" : "|---:", f);
            fputs("|\n", f);
        }
    }
}

/* ---- Text and Markdown -------------------------------------------------- */

struct cmp {
    struct side a, b;
    struct us_cmp_result r;
    double threshold;
    bool force;
    enum form form;
};

static const char *or_none(const char *s)
{
    return s ? s : "(none)";
}

static const char *text_at(json_t *doc, const char *k1, const char *k2)
{
    return json_string_value(json_object_get(json_object_get(doc, k1), k2));
}

static void print_side(FILE *f, const char *name, const struct side *s,
                       bool md)
{
    json_t *doc = s->set.doc;
    const char *q = md ? "`" : "";
    fprintf(f, "%s%s: %s%s%s (%s, %zu rows; ushader %s, commit %s)\n",
            md ? "- " : "", name, q, s->path, q, s->set.kind, s->set.nrows,
            or_none(text_at(doc, "provenance", "version")),
            or_none(text_at(doc, "provenance", "commit")));
}

/* The configuration keys that differ, then (forced) the programs. */
static void print_head(FILE *f, const struct cmp *c, bool md)
{
    if (md)
        fprintf(f, "## ushader compare\n\n");
    print_side(f, "A", &c->a, md);
    print_side(f, "B", &c->b, md);
    const struct us_cmp_result *r = &c->r;
    const char *q = md ? "`" : "";
    if (!r->nconfig)
        fprintf(f, "%sconfiguration: the same in A and B\n", md ? "- " : "");
    else
        fprintf(f, "%sconfiguration differences (A -> B):\n", md ? "- " : "");
    for (size_t i = 0; i < r->nconfig; i++)
        fprintf(f, "%s%s%s%s: %s -> %s\n", md ? "  - " : "  ", q,
                r->config[i].key, q, or_none(r->config[i].a),
                or_none(r->config[i].b));
    if (r->nprograms)
        fprintf(f, "%sprograms differ (compared anyway, --force):\n",
                md ? "- " : "");
    for (size_t i = 0; i < r->nprograms; i++)
        fprintf(f, "%s%s%s%s: fnv1a64 %s -> %s\n", md ? "  - " : "  ", q,
                r->programs[i].key, q, or_none(r->programs[i].a),
                or_none(r->programs[i].b));
    fputc('\n', f);
}

static void rows_table(struct table *t, const struct cmp *c)
{
    t->ncols = 3 + 4 * US_CMP_NMETRIC;
    t->left = 7;
    cell(t, "program");
    cell(t, "variant");
    cell(t, "model");
    for (unsigned m = 0; m < US_CMP_NMETRIC; m++) {
        cell(t, "%s A", us_cmp_metrics[m].name);
        cell(t, "B");
        cell(t, "delta");
        cell(t, "%%");
    }
    const struct us_cmp_result *r = &c->r;
    for (size_t i = 0; i < r->npairs; i++) {
        const struct us_cmp_row *x = &c->a.set.rows[r->pair_a[i]],
                                *y = &c->b.set.rows[r->pair_b[i]];
        cell(t, "%s", x->program);
        cell(t, "%s", x->variant);
        cell(t, "%s", x->model);
        for (unsigned m = 0; m < US_CMP_NMETRIC; m++) {
            char buf[4][48];
            fmt_value(buf[0], sizeof buf[0], m, x->v[m], false);
            fmt_value(buf[1], sizeof buf[1], m, y->v[m], false);
            fmt_value(buf[2], sizeof buf[2], m, y->v[m] - x->v[m], true);
            fmt_percent(buf[3], sizeof buf[3], x->v[m], y->v[m]);
            for (int k = 0; k < 4; k++)
                cell(t, "%s", buf[k]);
        }
    }
}

static void group_cells(struct table *t, const struct us_cmp_group *g)
{
    cell(t, "%s", g->variant ? g->variant : "all");
    cell(t, "%s", g->model ? g->model : "");
    cell(t, "%zu", g->rows);
    for (unsigned m = 0; m < US_CMP_NMETRIC; m++) {
        char buf[48];
        fmt_ratio(buf, sizeof buf, g->geomean[m]);
        cell(t, "%s", buf);
    }
}

static void means_table(struct table *t, const struct cmp *c)
{
    t->ncols = 3 + US_CMP_NMETRIC;
    t->left = 3;
    cell(t, "variant");
    cell(t, "model");
    cell(t, "rows");
    for (unsigned m = 0; m < US_CMP_NMETRIC; m++)
        cell(t, "%s", us_cmp_metrics[m].name);
    for (size_t g = 0; g < c->r.ngroups; g++)
        group_cells(t, &c->r.groups[g]);
    group_cells(t, &c->r.all);
}

static void helped_table(struct table *t, const struct cmp *c)
{
    t->ncols = 4;
    t->left = 1;
    cell(t, "metric");
    cell(t, "helped");
    cell(t, "hurt");
    cell(t, "unchanged");
    for (unsigned m = 0; m < US_CMP_NMETRIC; m++) {
        cell(t, "%s", us_cmp_metrics[m].name);
        cell(t, "%u", c->r.helped[m]);
        cell(t, "%u", c->r.hurt[m]);
        cell(t, "%u", c->r.unchanged[m]);
    }
}

static void print_only(FILE *f, const char *name, const struct us_cmp_set *s,
                       const size_t *idx, size_t n, bool md)
{
    fprintf(f, "%srows only in %s: %zu%s", md ? "- " : "", name, n,
            n ? " (" : "\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%s %s%s", i ? ", " : "", s->rows[idx[i]].program,
                s->rows[idx[i]].variant, i + 1 == n ? ")\n" : "");
}

static bool print_tables(const struct cmp *c)
{
    bool md = c->form == FORM_MARKDOWN;
    FILE *f = stdout;
    struct table rows = { 0 }, means = { 0 }, helped = { 0 };
    rows_table(&rows, c);
    means_table(&means, c);
    helped_table(&helped, c);
    bool ok = !rows.oom && !means.oom && !helped.oom;
    if (ok) {
        print_head(f, c, md);
        if (md)
            fprintf(f, "### Rows in both (%zu)\n\n", c->r.npairs);
        table_print(f, &rows, md);
        fputc('\n', f);
        print_only(f, "A", &c->a.set, c->r.only_a, c->r.nonly_a, md);
        print_only(f, "B", &c->b.set, c->r.only_b, c->r.nonly_b, md);
        fprintf(f, "\n%sgeometric means of B/A (rows in both; a metric "
                "over its rows with both values positive)%s\n\n",
                md ? "### " : "", md ? "" : ":");
        table_print(f, &means, md);
        char within[48] = "equal";
        if (c->threshold > 0)
            snprintf(within, sizeof within, "within %g%% of A",
                     c->threshold);
        fprintf(f, "\n%shelped / hurt (B against A; unchanged: %s)%s\n\n",
                md ? "### " : "", within, md ? "" : ":");
        table_print(f, &helped, md);
    } else {
        cli_error(NULL, 0, 0, "out of memory");
    }
    table_free(&rows);
    table_free(&means);
    table_free(&helped);
    return ok;
}

/* ---- JSON --------------------------------------------------------------- */

static json_t *num(enum us_cmp_metric m, double x)
{
    if (us_cmp_metrics[m].integer && fabs(x) < 9e15 && x == floor(x))
        return json_integer((json_int_t)x);
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *or_null(const char *s)
{
    return s ? us_json_text(s) : json_null();
}

static json_t *side_json(const struct side *s)
{
    json_t *p = json_object_get(s->set.doc, "provenance");
    return json_pack("{s:o, s:s, s:I, s:o, s:o, s:o}",
                     "path", us_json_text(s->path), "kind", s->set.kind,
                     "rows", (json_int_t)s->set.nrows,
                     "version", or_null(json_string_value(
                         json_object_get(p, "version"))),
                     "commit", or_null(json_string_value(
                         json_object_get(p, "commit"))),
                     "command", or_null(json_string_value(
                         json_object_get(p, "command"))));
}

static json_t *diffs_json(const struct us_cmp_diff *l, size_t n,
                          const char *keyname)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, json_pack("{s:o, s:o, s:o}", keyname,
                                           us_json_text(l[i].key),
                                           "a", or_null(l[i].a),
                                           "b", or_null(l[i].b)));
    return a;
}

static json_t *row_key(const struct us_cmp_row *x)
{
    return json_pack("{s:o, s:o, s:o}", "program", us_json_text(x->program),
                     "variant", us_json_text(x->variant),
                     "model", us_json_text(x->model));
}

static json_t *rows_json(const struct cmp *c)
{
    static const char *const change[] = { "hurt", "unchanged", "helped" };
    json_t *arr = json_array();
    const struct us_cmp_result *r = &c->r;
    for (size_t i = 0; arr && i < r->npairs; i++) {
        const struct us_cmp_row *x = &c->a.set.rows[r->pair_a[i]],
                                *y = &c->b.set.rows[r->pair_b[i]];
        json_t *o = row_key(x);
        for (unsigned m = 0; o && m < US_CMP_NMETRIC; m++) {
            double a = x->v[m], b = y->v[m], p = percent(a, b);
            int v = us_cmp_verdict(m, a, b, c->threshold);
            json_object_set_new(o, us_cmp_metrics[m].name, json_pack(
                "{s:o, s:o, s:o, s:o, s:s}", "a", num(m, a), "b", num(m, b),
                "delta", num(m, b - a),
                "percent", isnan(p) ? json_null() : json_real(p),
                "change", change[v + 1]));
        }
        json_array_append_new(arr, o);
    }
    return arr;
}

static json_t *only_json(const struct us_cmp_set *s, const size_t *idx,
                         size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n; i++)
        json_array_append_new(arr, row_key(&s->rows[idx[i]]));
    return arr;
}

static json_t *group_json(const struct us_cmp_group *g)
{
    json_t *o = g->variant
        ? json_pack("{s:o, s:o}", "variant", us_json_text(g->variant),
                    "model", us_json_text(g->model))
        : json_object();
    if (!o)
        return NULL;
    json_object_set_new(o, "rows", json_integer((json_int_t)g->rows));
    for (unsigned m = 0; m < US_CMP_NMETRIC; m++)
        json_object_set_new(o, us_cmp_metrics[m].name, json_pack(
            "{s:o, s:I}", "ratio", isnan(g->geomean[m]) ? json_null()
                                   : json_real(g->geomean[m]),
            "rows", (json_int_t)g->used[m]));
    return o;
}

static bool print_json(const struct cmp *c, int argc, char **argv)
{
    struct us_prov *p = calloc(1, sizeof *p);
    json_t *doc = json_object(), *pj = NULL;
    if (p && us_prov_init(p, argc, argv)) {
        us_prov_add_file(p, c->a.path);
        us_prov_add_file(p, c->b.path);
        pj = us_prov_json(p);
        us_prov_free(p);
    }
    free(p);
    const struct us_cmp_result *r = &c->r;
    json_t *metrics = json_array(), *gm = json_array(), *hh = json_object();
    for (unsigned m = 0; metrics && m < US_CMP_NMETRIC; m++)
        json_array_append_new(metrics, json_string(us_cmp_metrics[m].name));
    for (size_t g = 0; gm && g < r->ngroups; g++)
        json_array_append_new(gm, group_json(&r->groups[g]));
    for (unsigned m = 0; hh && m < US_CMP_NMETRIC; m++)
        json_object_set_new(hh, us_cmp_metrics[m].name, json_pack(
            "{s:i, s:i, s:i}", "helped", (int)r->helped[m],
            "hurt", (int)r->hurt[m], "unchanged", (int)r->unchanged[m]));
    bool ok = doc && pj && metrics && gm && hh;
    if (ok) {
        json_object_set_new(doc, "schema_version",
                            json_integer(US_JSON_SCHEMA_VERSION));
        json_object_set_new(doc, "provenance", pj);
        json_object_set_new(doc, "config_differences",
                            diffs_json(r->config, r->nconfig, "key"));
        json_object_set_new(doc, "program_differences",
                            diffs_json(r->programs, r->nprograms, "path"));
        json_object_set_new(doc, "a", side_json(&c->a));
        json_object_set_new(doc, "b", side_json(&c->b));
        json_object_set_new(doc, "threshold", json_real(c->threshold));
        json_object_set_new(doc, "forced", json_boolean(r->nprograms));
        json_object_set_new(doc, "metrics", metrics);
        json_object_set_new(doc, "rows", rows_json(c));
        json_object_set_new(doc, "only_a", only_json(&c->a.set, r->only_a,
                                                     r->nonly_a));
        json_object_set_new(doc, "only_b", only_json(&c->b.set, r->only_b,
                                                     r->nonly_b));
        json_object_set_new(doc, "geomean", gm);
        json_object_set_new(doc, "geomean_all", group_json(&r->all));
        json_object_set_new(doc, "helped_hurt", hh);
    } else {
        json_decref(pj);
        json_decref(metrics);
        json_decref(gm);
        json_decref(hh);
    }
    char *s = ok ? json_dumps(doc, US_JSON_FLAGS) : NULL;
    json_decref(doc);
    if (!s) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    puts(s);
    free(s);
    return true;
}

/* ---- The command -------------------------------------------------------- */

/* The refusal: which files differ, a few of them. */
static void refuse(const struct cmp *c)
{
    const struct us_cmp_result *r = &c->r;
    char list[768];
    size_t n = 0;
    for (size_t i = 0; i < r->nprograms && i < 4 && n < sizeof list; i++) {
        const struct us_cmp_diff *x = &r->programs[i];
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s %s", i ? "; "
                              : "", x->key, !x->a ? "only in B"
                              : !x->b ? "only in A" : "differs");
    }
    cli_error(NULL, 0, 0, "compare: %s and %s used different programs "
              "(provenance inputs: %s%s); --force compares them anyway",
              c->a.path, c->b.path, list, r->nprograms > 4 ? "; ..." : "");
}

static bool parse_threshold(const char *v, double *t)
{
    char *end;
    *t = strtod(v, &end);
    if (!*v || *end || !isfinite(*t) || *t < 0) {
        cli_error(NULL, 0, 0, "compare: --threshold '%s': a percentage, "
                  "0 or more", v);
        return false;
    }
    return true;
}

int cmd_compare(int argc, char **argv)
{
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--json", false, false, NULL },
        { "--markdown", false, false, NULL }, { "--force", false, false, NULL },
        { "--threshold", true, false, "a percentage" },
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("compare", argc, argv, 1, options))
        return 2;
    struct cmp c = { .form = FORM_TEXT };
    const char *files[2];
    int nfiles = 0;
    bool json = false, md = false, dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!dashdash && !strcmp(a, "--"))
            dashdash = true;
        else if (dashdash || a[0] != '-' || !a[1]) {
            if (nfiles == 2) {
                cli_error(NULL, 0, 0, "compare: more than two result sets "
                          "('%s')", a);
                return 2;
            }
            files[nfiles++] = a;
        } else if (!strcmp(a, "--json"))
            json = true;
        else if (!strcmp(a, "--markdown"))
            md = true;
        else if (!strcmp(a, "--force"))
            c.force = true;
        else if (!strcmp(a, "--threshold") && !parse_threshold(argv[++i],
                                                               &c.threshold))
            return 2;
    }
    if (json && md) {
        cli_error(NULL, 0, 0, "compare: --json and --markdown: one form");
        return 2;
    }
    if (nfiles != 2) {
        fputs(usage, stderr);
        return 2;
    }
    c.form = json ? FORM_JSON : md ? FORM_MARKDOWN : FORM_TEXT;
    int rc = 1;
    struct us_diag d = { 0 };
    if (!load_side(files[0], &c.a) || !load_side(files[1], &c.b))
        goto out;
    if (!strcmp(c.a.path, "-") && !strcmp(c.b.path, "-")) {
        cli_error(NULL, 0, 0, "compare: standard input read twice");
        goto out;
    }
    if (!us_cmp_run(&c.a.set, &c.b.set, c.threshold, &c.r, &d)) {
        cli_error(NULL, 0, 0, "compare: %s", d.msg);
        goto out;
    }
    if (c.r.nprograms && !c.force) {
        refuse(&c);
        goto out;
    }
    if (!c.r.npairs) {
        cli_error(NULL, 0, 0, "compare: %s and %s have no row (program, "
                  "variant) in common (%zu and %zu rows)", c.a.path,
                  c.b.path, c.a.set.nrows, c.b.set.nrows);
        goto out;
    }
    if (c.form == FORM_JSON ? print_json(&c, argc, argv) : print_tables(&c))
        rc = 0;
out:
    us_cmp_result_free(&c.r);
    us_cmp_set_free(&c.a.set);
    us_cmp_set_free(&c.b.set);
    free(c.a.path);
    free(c.b.path);
    return rc;
}
