/* Two result sets side by side (suite/compare.h): the rows of each
 * document, matched by (program, variant); the geometric means, the
 * helped/hurt counts and the differences of configuration and programs. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "shader/core.h"
#include "suite/compare.h"

const struct us_cmp_metric_info us_cmp_metrics[US_CMP_NMETRIC] = {
    [US_CMP_CYCLES] = { "cycles", "cycles", false, true },
    [US_CMP_UTIL] = { "utilization", "utilization", true, false },
    [US_CMP_INSTS] = { "instructions", "issued", false, true },
    [US_CMP_AREA] = { "area", "area/total", false, false },
    [US_CMP_ENERGY] = { "energy", "energy", false, false },
};

static bool fail(struct us_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool fail(struct us_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    d->line = d->col = 0;
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* ---- Reading a set ------------------------------------------------------ */

/* obj's member at "k1/k2" (a statistic that nests), or NULL. */
static json_t *member(json_t *obj, const char *path)
{
    char key[64];
    while (obj && *path) {
        size_t n = strcspn(path, "/");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        obj = json_object_get(obj, key);
        path += n + (path[n] == '/');
    }
    return obj;
}

static const char *text_of(json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

/* The row's metrics from its statistics object `st` (at `where`). */
static bool row_stats(struct us_cmp_row *r, json_t *st, const char *where,
                      struct us_diag *d)
{
    if (!json_is_object(st))
        return fail(d, "%s: the statistics are not an object", where);
    for (unsigned m = 0; m < US_CMP_NMETRIC; m++) {
        json_t *v = member(st, us_cmp_metrics[m].stat);
        if (!json_is_number(v) && !json_is_null(v))
            return fail(d, "%s: no number '%s' in the statistics", where,
                        us_cmp_metrics[m].stat);
        /* null: undefined (docs/METRICS.md), NaN here */
        r->v[m] = json_is_null(v) ? NAN : json_number_value(v);
    }
    return true;
}

static bool add_row(struct us_cmp_set *s, size_t cap, const char *program,
                    const char *variant, const char *model, json_t *st,
                    const char *where, struct us_diag *d)
{
    if (!program || !variant)
        return fail(d, "%s: no \"program\" (or \"kernel\") and "
                    "\"variant\" strings", where);
    if (s->nrows == cap)
        return fail(d, "%s: too many rows", where);
    struct us_cmp_row *r = &s->rows[s->nrows];
    r->program = program;
    r->variant = variant;
    r->model = model ? model : text_of(st, "arch");
    if (!r->model)
        r->model = variant;
    if (!row_stats(r, st, where, d))
        return false;
    s->nrows++;
    return true;
}

/* "variants": [{"name", "model"}] of a bench: the model of `variant`. */
static const char *variant_model(json_t *doc, const char *variant)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(doc, "variants"), i, v) {
        const char *name = text_of(v, "name");
        if (name && variant && !strcmp(name, variant))
            return text_of(v, "model");
    }
    return NULL;
}

/* The rows of a list of runs (bench "runs", a sweep point's "runs",
 * bench-compute "jobs"), into s->rows of `cap`; `knobs` (a sweep point's
 * values, NULL for none) is part of each row's variant: "scalar
 * [lut_banks=1,lookahead=2]". */
static bool parse_list(struct us_cmp_set *s, json_t *list, const char *lname,
                       size_t cap, const char *knobs, struct us_diag *d)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e) {
        char where[64];
        snprintf(where, sizeof where, "%s[%zu]", lname, i);
        if (!json_is_object(e))
            return fail(d, "%s: not an object", where);
        json_t *st = json_object_get(e, "stats");
        if (!st)
            continue;   /* failed or refused: no figures */
        const char *prog = text_of(e, "program");
        if (!prog)
            prog = text_of(e, "kernel");
        const char *var = text_of(e, "variant");
        const char *model = text_of(e, "model");
        if (!var)
            var = model;
        if (!model)
            model = variant_model(s->doc, var);
        if (var && knobs) {
            size_t n = strlen(var) + strlen(knobs) + 4;
            char *v = malloc(n);
            if (!v)
                return fail(d, "out of memory");
            snprintf(v, n, "%s [%s]", var, knobs);
            s->owned[s->nowned++] = v;
            var = v;
        }
        char swhere[72];
        snprintf(swhere, sizeof swhere, "%s.stats", where);
        if (!add_row(s, cap, prog, var, model, st, swhere, d))
            return false;
    }
    return true;
}

/* A point's "knobs" {"lut_banks": "1", ...} as "lut_banks=1,..." */
static bool knob_text(json_t *knobs, char *buf, size_t size)
{
    size_t n = 0;
    const char *k;
    json_t *v;
    buf[0] = '\0';
    json_object_foreach(knobs, k, v) {
        const char *t = json_string_value(v);
        char num[32];
        if (!t) {
            snprintf(num, sizeof num, "%g", json_number_value(v));
            t = num;
        }
        n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s=%s",
                              n ? "," : "", k, t);
    }
    return n < size;
}

/* A sweep's "points" (or one point.json's "point"): each point's runs,
 * the variants named with the point's knobs. */
static bool parse_points(struct us_cmp_set *s, json_t *points,
                         struct us_diag *d)
{
    size_t cap = 0, i;
    json_t *pt;
    json_array_foreach(points, i, pt)
        cap += json_array_size(json_object_get(pt, "runs"));
    s->rows = calloc(cap ? cap : 1, sizeof *s->rows);
    s->owned = calloc(cap ? cap : 1, sizeof *s->owned);
    if (!s->rows || !s->owned)
        return fail(d, "out of memory");
    json_array_foreach(points, i, pt) {
        char knobs[512], lname[48];
        json_t *runs = json_object_get(pt, "runs");
        snprintf(lname, sizeof lname, "points[%zu].runs", i);
        if (!json_is_array(runs))
            return fail(d, "points[%zu]: no \"runs\" array", i);
        if (!knob_text(json_object_get(pt, "knobs"), knobs, sizeof knobs))
            return fail(d, "points[%zu]: knobs too long", i);
        if (!parse_list(s, runs, lname, cap, knobs[0] ? knobs : NULL, d))
            return false;
    }
    return true;
}

static bool parse_runs(struct us_cmp_set *s, json_t *list, const char *lname,
                       struct us_diag *d)
{
    size_t n = json_array_size(list);
    s->rows = calloc(n ? n : 1, sizeof *s->rows);
    if (!s->rows)
        return fail(d, "out of memory");
    return parse_list(s, list, lname, n, NULL, d);
}

/* run's documents: the program is the provenance's first input. */
static const char *run_program(json_t *doc)
{
    json_t *in = json_array_get(member(doc, "provenance/inputs"), 0);
    return text_of(in, "path");
}

static bool parse_run(struct us_cmp_set *s, json_t *models, struct us_diag *d)
{
    const char *prog = run_program(s->doc);
    if (!prog)
        return fail(d, "a run document without its program in "
                    "provenance.inputs");
    size_t n = models ? json_array_size(models) : 1;
    s->rows = calloc(n ? n : 1, sizeof *s->rows);
    if (!s->rows)
        return fail(d, "out of memory");
    if (!models)
        return add_row(s, 1, prog, text_of(s->doc, "arch"), NULL, s->doc,
                       "the statistics", d);
    size_t i;
    json_t *st;
    json_array_foreach(models, i, st) {
        char where[32];
        snprintf(where, sizeof where, "models[%zu]", i);
        if (!add_row(s, n, prog, text_of(st, "arch"), NULL, st, where, d))
            return false;
    }
    return true;
}

static int row_cmp(const struct us_cmp_row *x, const struct us_cmp_row *y)
{
    int c = strcmp(x->program, y->program);
    return c ? c : strcmp(x->variant, y->variant);
}

static int order_cmp(const void *x, const void *y)
{
    return row_cmp(*(const struct us_cmp_row *const *)x,
                   *(const struct us_cmp_row *const *)y);
}

/* The rows sorted by key in s->order; false on a key twice. */
static bool sort_rows(struct us_cmp_set *s, struct us_diag *d)
{
    s->order = malloc((s->nrows ? s->nrows : 1) * sizeof *s->order);
    if (!s->order)
        return fail(d, "out of memory");
    for (size_t i = 0; i < s->nrows; i++)
        s->order[i] = &s->rows[i];
    qsort(s->order, s->nrows, sizeof *s->order, order_cmp);
    for (size_t i = 1; i < s->nrows; i++)
        if (!row_cmp(s->order[i - 1], s->order[i]))
            return fail(d, "two rows of program '%s', variant '%s'",
                        s->order[i]->program, s->order[i]->variant);
    return true;
}

bool us_cmp_set_parse(struct us_cmp_set *s, const char *text, size_t len,
                      struct us_diag *d)
{
    memset(s, 0, sizeof *s);
    json_error_t je;
    s->doc = json_loadb(text, len, 0, &je);
    if (!s->doc) {
        fail(d, "not JSON: %s", je.text);
        d->line = je.line > 0 ? (unsigned)je.line : 0;
        d->col = je.column > 0 ? (unsigned)je.column : 0;
        return false;
    }
    json_t *doc = s->doc, *sv = json_object_get(doc, "schema_version");
    if (!json_is_object(doc) || !sv || !json_is_object(
            json_object_get(doc, "provenance")))
        return fail(d, "not a ushader result set: no \"schema_version\" "
                    "and \"provenance\" (docs/METRICS.md)");
    if (!json_is_integer(sv) ||
        json_integer_value(sv) != US_JSON_SCHEMA_VERSION)
        return fail(d, "schema_version %s%lld: compare reads schema %d",
                    json_is_integer(sv) ? "" : "not an integer: ",
                    json_is_integer(sv) ? (long long)json_integer_value(sv)
                                        : 0LL, US_JSON_SCHEMA_VERSION);
    json_t *runs = json_object_get(doc, "runs"),
           *jobs = json_object_get(doc, "jobs"),
           *models = json_object_get(doc, "models"),
           *points = json_object_get(doc, "points"),
           *point = json_object_get(doc, "point");
    bool ok;
    s->threads = json_object_get(doc, "threads");
    if (json_is_array(runs)) {
        s->kind = "bench";
        ok = parse_runs(s, runs, "runs", d);
    } else if (json_is_array(jobs)) {
        s->kind = "bench-compute";
        s->threads = NULL;
        ok = parse_runs(s, jobs, "jobs", d);
    } else if (json_is_array(points) || json_is_object(point)) {
        /* ushader sweep: results.json, or one job's point.json */
        json_t *one = json_array();
        if (!one)
            return fail(d, "out of memory");
        if (!points)
            json_array_append(one, point);
        s->kind = "sweep";
        s->threads = member(doc, "sweep/threads");
        ok = parse_points(s, points ? points : one, d);
        json_decref(one);
    } else if (json_is_array(models)) {
        s->kind = "run-all";
        s->threads = json_object_get(json_array_get(models, 0), "threads");
        ok = parse_run(s, models, d);
    } else if (json_is_string(json_object_get(doc, "arch")) &&
               json_object_get(doc, "cycles")) {
        s->kind = "run-arch";
        ok = parse_run(s, NULL, d);
    } else if (json_is_array(json_object_get(doc, "outputs"))) {
        return fail(d, "a run without --arch: outputs, no statistics to "
                    "compare (run --arch M|all --json has them)");
    } else {
        return fail(d, "not a result set: no \"runs\" (bench), \"jobs\" "
                    "(bench --suite compute), \"points\" (sweep), "
                    "\"models\" (run --arch all) or statistics (run --arch "
                    "M)");
    }
    return ok && sort_rows(s, d);
}

void us_cmp_set_free(struct us_cmp_set *s)
{
    for (size_t i = 0; i < s->nowned; i++)
        free(s->owned[i]);
    free(s->owned);
    json_decref(s->doc);
    free(s->rows);
    free(s->order);
    memset(s, 0, sizeof *s);
}

/* ---- The figures -------------------------------------------------------- */

int us_cmp_verdict(enum us_cmp_metric m, double a, double b, double threshold)
{
    if (a == b || isnan(a) || isnan(b) ||
        fabs(b - a) <= threshold / 100 * fabs(a))
        return 0;
    bool lower = b < a;
    return lower != us_cmp_metrics[m].higher_better ? 1 : -1;
}

double us_cmp_geomean(const double *a, const double *b, size_t n,
                      size_t *used)
{
    double logs = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] > 0 && b[i] > 0 && isfinite(a[i]) && isfinite(b[i])) {
            logs += log(b[i] / a[i]);
            k++;
        }
    *used = k;
    return k ? exp(logs / (double)k) : NAN;
}

/* The row of b with r's key, or SIZE_MAX. */
static size_t find_row(const struct us_cmp_set *b, const struct us_cmp_row *r)
{
    size_t lo = 0, hi = b->nrows;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = row_cmp(b->order[mid], r);
        if (!c)
            return (size_t)(b->order[mid] - b->rows);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

/* The geometric means of the pairs whose A row has `variant` (NULL: all). */
static bool group_means(const struct us_cmp_set *a, const struct us_cmp_set *b,
                        const struct us_cmp_result *r, struct us_cmp_group *g)
{
    double *va = malloc((r->npairs ? r->npairs : 1) * sizeof *va),
           *vb = malloc((r->npairs ? r->npairs : 1) * sizeof *vb);
    bool ok = va && vb;
    for (unsigned m = 0; ok && m < US_CMP_NMETRIC; m++) {
        size_t n = 0;
        for (size_t i = 0; i < r->npairs; i++) {
            const struct us_cmp_row *x = &a->rows[r->pair_a[i]];
            if (g->variant && strcmp(x->variant, g->variant))
                continue;
            va[n] = x->v[m];
            vb[n++] = b->rows[r->pair_b[i]].v[m];
        }
        g->rows = n;
        g->geomean[m] = us_cmp_geomean(va, vb, n, &g->used[m]);
    }
    free(va);
    free(vb);
    return ok;
}

static bool groups(const struct us_cmp_set *a, const struct us_cmp_set *b,
                   struct us_cmp_result *r)
{
    r->groups = calloc(r->npairs ? r->npairs : 1, sizeof *r->groups);
    if (!r->groups)
        return false;
    for (size_t i = 0; i < r->npairs; i++) {
        const struct us_cmp_row *x = &a->rows[r->pair_a[i]];
        size_t g = 0;
        while (g < r->ngroups && strcmp(r->groups[g].variant, x->variant))
            g++;
        if (g == r->ngroups)
            r->groups[r->ngroups++] = (struct us_cmp_group){
                .variant = x->variant, .model = x->model };
    }
    for (size_t g = 0; g < r->ngroups; g++)
        if (!group_means(a, b, r, &r->groups[g]))
            return false;
    r->all = (struct us_cmp_group){ .variant = NULL, .model = NULL };
    return group_means(a, b, r, &r->all);
}

/* ---- Provenance --------------------------------------------------------- */

/* A JSON scalar as text (malloc'd), NULL for none. */
static char *value_text(json_t *v)
{
    if (!v)
        return NULL;
    if (json_is_string(v))
        return strdup(json_string_value(v));
    return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* Append (key, a, b), taking a and b. */
static bool push_diff(struct us_cmp_diff **list, size_t *n, const char *key,
                      char *a, char *b)
{
    struct us_cmp_diff *l = realloc(*list, (*n + 1) * sizeof *l);
    char *k = strdup(key);
    if (l)
        *list = l;
    if (!l || !k) {
        free(k);
        free(a);
        free(b);
        return false;
    }
    l[(*n)++] = (struct us_cmp_diff){ k, a, b };
    return true;
}

/* Record key's values when they differ (either may be NULL: none). */
static bool diff_values(struct us_cmp_result *r, const char *key, json_t *va,
                        json_t *vb)
{
    char *ta = value_text(va), *tb = value_text(vb);
    if ((!ta && !tb) || (ta && tb && !strcmp(ta, tb))) {
        free(ta);
        free(tb);
        return true;
    }
    return push_diff(&r->config, &r->nconfig, key, ta, tb);
}

/* "core.KEY" and "sfu.KEY" of provenance.config: A's keys in order, then
 * B's keys A lacks. */
static bool diff_config(struct us_cmp_result *r, json_t *ca, json_t *cb)
{
    const char *sec;
    json_t *sa;
    json_object_foreach(ca, sec, sa) {
        json_t *sb = json_object_get(cb, sec), *v;
        const char *k;
        json_object_foreach(sa, k, v) {
            char key[160];
            snprintf(key, sizeof key, "%s.%s", sec, k);
            if (!diff_values(r, key, v, json_object_get(sb, k)))
                return false;
        }
    }
    json_t *sb;
    json_object_foreach(cb, sec, sb) {
        json_t *sa2 = json_object_get(ca, sec), *v;
        const char *k;
        json_object_foreach(sb, k, v) {
            char key[160];
            snprintf(key, sizeof key, "%s.%s", sec, k);
            if (!json_object_get(sa2, k) && !diff_values(r, key, NULL, v))
                return false;
        }
    }
    return true;
}

static bool is_ini(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && !strcmp(path + n - 4, ".ini");
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The input of `inputs` that `e` stands beside: the same path, or for an
 * INI file one of the same name (bench --suite compute --configs DIR
 * reads DIR/kgpu.ini); NULL when none. */
static json_t *partner(json_t *inputs, json_t *e)
{
    const char *path = text_of(e, "path");
    size_t i;
    json_t *o, *named = NULL;
    json_array_foreach(inputs, i, o) {
        const char *p = text_of(o, "path");
        if (!p)
            continue;
        if (!strcmp(p, path))
            return o;
        if (!named && is_ini(path) && !strcmp(base_name(p), base_name(path)))
            named = o;
    }
    return named;
}

/* An input of `inputs` (not an INI file) with this hash. */
static bool hash_among(json_t *inputs, const char *hash)
{
    size_t i;
    json_t *e;
    json_array_foreach(inputs, i, e) {
        const char *h = text_of(e, "fnv1a64"), *p = text_of(e, "path");
        if (h && p && !is_ini(p) && !strcmp(h, hash))
            return true;
    }
    return false;
}

static bool same_hash(json_t *x, json_t *y)
{
    const char *hx = text_of(x, "fnv1a64"), *hy = text_of(y, "fnv1a64");
    return hx && hy && !strcmp(hx, hy);
}

static char *hash_text(json_t *e)
{
    const char *h = text_of(e, "fnv1a64"), *err = text_of(e, "error");
    return e ? strdup(h ? h : err ? err : "unknown") : NULL;
}

/* The inputs of `ia` against those of `ib` (`a_side`: ia is A's).  A
 * file with a partner is judged from A's side; one without is the same
 * when the other set has its content under another name (not for INI
 * files, which differ by name).  Differing INI files are configuration,
 * the others programs. */
static bool diff_inputs(struct us_cmp_result *r, json_t *ia, json_t *ib,
                        bool a_side)
{
    size_t i;
    json_t *e;
    json_array_foreach(ia, i, e) {
        const char *path = text_of(e, "path"), *h = text_of(e, "fnv1a64");
        if (!path)
            continue;
        json_t *o = partner(ib, e);
        if (o && !a_side)
            continue;
        if (o ? same_hash(e, o) : !is_ini(path) && h && hash_among(ib, h))
            continue;
        const char *key = o && strcmp(text_of(o, "path"), path)
                        ? base_name(path) : path;
        char *mine = hash_text(e), *theirs = hash_text(o);
        if (!mine || (o && !theirs)) {
            free(mine);
            free(theirs);
            return false;
        }
        struct us_cmp_diff **l = is_ini(path) ? &r->config : &r->programs;
        size_t *n = is_ini(path) ? &r->nconfig : &r->nprograms;
        if (!push_diff(l, n, key, a_side ? mine : theirs,
                       a_side ? theirs : mine))
            return false;
    }
    return true;
}

static bool diff_prov(struct us_cmp_result *r, const struct us_cmp_set *a,
                      const struct us_cmp_set *b)
{
    json_t *pa = json_object_get(a->doc, "provenance"),
           *pb = json_object_get(b->doc, "provenance");
    if (!diff_values(r, "math", json_object_get(pa, "math"),
                     json_object_get(pb, "math")) ||
        !diff_values(r, "threads", a->threads, b->threads) ||
        !diff_config(r, json_object_get(pa, "config"),
                     json_object_get(pb, "config")))
        return false;
    json_t *ia = json_object_get(pa, "inputs"), *ib = json_object_get(pb, "inputs");
    return diff_inputs(r, ia, ib, true) && diff_inputs(r, ib, ia, false);
}

/* ---- The comparison ----------------------------------------------------- */

bool us_cmp_run(const struct us_cmp_set *a, const struct us_cmp_set *b,
                double threshold, struct us_cmp_result *r, struct us_diag *d)
{
    memset(r, 0, sizeof *r);
    r->pair_a = malloc((a->nrows ? a->nrows : 1) * sizeof *r->pair_a);
    r->pair_b = malloc((a->nrows ? a->nrows : 1) * sizeof *r->pair_b);
    r->only_a = malloc((a->nrows ? a->nrows : 1) * sizeof *r->only_a);
    r->only_b = malloc((b->nrows ? b->nrows : 1) * sizeof *r->only_b);
    bool *matched = calloc(b->nrows ? b->nrows : 1, 1);
    if (!r->pair_a || !r->pair_b || !r->only_a || !r->only_b || !matched) {
        free(matched);
        return fail(d, "out of memory");
    }
    for (size_t i = 0; i < a->nrows; i++) {
        size_t j = find_row(b, &a->rows[i]);
        if (j == SIZE_MAX) {
            r->only_a[r->nonly_a++] = i;
            continue;
        }
        matched[j] = true;
        r->pair_a[r->npairs] = i;
        r->pair_b[r->npairs++] = j;
        for (unsigned m = 0; m < US_CMP_NMETRIC; m++) {
            int v = us_cmp_verdict(m, a->rows[i].v[m], b->rows[j].v[m],
                                   threshold);
            (v > 0 ? r->helped : v < 0 ? r->hurt : r->unchanged)[m]++;
        }
    }
    for (size_t j = 0; j < b->nrows; j++)
        if (!matched[j])
            r->only_b[r->nonly_b++] = j;
    free(matched);
    if (!groups(a, b, r) || !diff_prov(r, a, b))
        return fail(d, "out of memory");
    return true;
}

static void free_diffs(struct us_cmp_diff *l, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(l[i].key);
        free(l[i].a);
        free(l[i].b);
    }
    free(l);
}

void us_cmp_result_free(struct us_cmp_result *r)
{
    free(r->pair_a);
    free(r->pair_b);
    free(r->only_a);
    free(r->only_b);
    free(r->groups);
    free_diffs(r->config, r->nconfig);
    free_diffs(r->programs, r->nprograms);
    memset(r, 0, sizeof *r);
}
