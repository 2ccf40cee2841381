/*
 * The statistics registry (STYLE.md item 7): counters and formulas by name,
 * one reporter for every model.  Formulas are a small expression language:
 *
 *   expr   := term { ('+' | '-') term }
 *   term   := unary { ('*' | '/') unary }
 *   unary  := '-' unary | atom
 *   atom   := NUMBER | NAME | '(' expr ')'
 *   NAME   := [A-Za-z_][A-Za-z0-9_.]*   (another statistic)
 *
 * A division by zero gives 0 (an empty run has utilization 0, not NaN); an
 * unknown name, a syntax error or a formula that refers to itself gives NaN.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "shader/core.h"

void us_stats_init(struct us_stats *st, const char *arch)
{
    memset(st, 0, sizeof *st);
    st->arch = arch;
}

/* Registering a name again replaces it, so a model may refine a value. */
static struct us_stat *slot(struct us_stats *st, const char *name)
{
    for (unsigned i = 0; i < st->n; i++)
        if (!strcmp(st->s[i].name, name))
            return &st->s[i];
    if (st->n == US_MAX_STATS)
        return NULL;
    return &st->s[st->n++];
}

void us_stats_counter(struct us_stats *st, const char *name, const char *desc,
                      double value)
{
    struct us_stat *s = slot(st, name);
    if (s)
        *s = (struct us_stat){ name, desc, NULL, value };
}

void us_stats_formula(struct us_stats *st, const char *name, const char *desc,
                      const char *formula)
{
    struct us_stat *s = slot(st, name);
    if (s)
        *s = (struct us_stat){ name, desc, formula, 0.0 };
}

enum { MAX_DEPTH = 16 };  /* formulas referring to formulas */

struct parser {
    const struct us_stats *st;
    const char *p;
    unsigned depth;
    bool bad;
};

static double get(const struct us_stats *st, const char *name, size_t len,
                  unsigned depth);
static double expr(struct parser *ps);

static void skip(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static double atom(struct parser *ps)
{
    skip(ps);
    const char *p = ps->p;
    if (*p == '(') {
        ps->p++;
        double v = expr(ps);
        skip(ps);
        if (*ps->p != ')')
            ps->bad = true;
        else
            ps->p++;
        return v;
    }
    if (isdigit((unsigned char)*p) || *p == '.') {
        char *end;
        double v = strtod(p, &end);
        ps->p = end;
        return v;
    }
    if (isalpha((unsigned char)*p) || *p == '_') {
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_' || *q == '.')
            q++;
        ps->p = q;
        double v = get(ps->st, p, (size_t)(q - p), ps->depth + 1);
        if (isnan(v))
            ps->bad = true;
        return v;
    }
    ps->bad = true;
    return NAN;
}

static double unary(struct parser *ps)
{
    skip(ps);
    if (*ps->p == '-') {
        ps->p++;
        return -unary(ps);
    }
    return atom(ps);
}

static double term(struct parser *ps)
{
    double v = unary(ps);
    for (;;) {
        skip(ps);
        char op = *ps->p;
        if (op != '*' && op != '/')
            return v;
        ps->p++;
        double r = unary(ps);
        v = op == '*' ? v * r : (r == 0.0 ? 0.0 : v / r);
    }
}

static double expr(struct parser *ps)
{
    double v = term(ps);
    for (;;) {
        skip(ps);
        char op = *ps->p;
        if (op != '+' && op != '-')
            return v;
        ps->p++;
        double r = term(ps);
        v = op == '+' ? v + r : v - r;
    }
}

static double eval(const struct us_stats *st, const char *formula,
                   unsigned depth)
{
    struct parser ps = { st, formula, depth, false };
    double v = expr(&ps);
    skip(&ps);
    return ps.bad || *ps.p ? NAN : v;
}

static double get(const struct us_stats *st, const char *name, size_t len,
                  unsigned depth)
{
    if (depth > MAX_DEPTH)
        return NAN;
    for (unsigned i = 0; i < st->n; i++) {
        const struct us_stat *s = &st->s[i];
        if (strlen(s->name) == len && !memcmp(s->name, name, len))
            return s->formula ? eval(st, s->formula, depth) : s->value;
    }
    return NAN;
}

double us_stats_get(const struct us_stats *st, const char *name)
{
    return get(st, name, strlen(name), 0);
}

/* Integers print as integers; everything else with 10 significant digits,
 * which is plenty for ratios and stable across runs. */
static int format_value(char *buf, size_t size, double v)
{
    if (isnan(v) || isinf(v))
        return snprintf(buf, size, "-");
    if (v == floor(v) && fabs(v) < 1e15)
        return snprintf(buf, size, "%.0f", v);
    return snprintf(buf, size, "%.10g", v);
}

/* A value: integral ones as integers (as the text table prints them),
 * undefined ones as null. */
static json_t *value_json(double v)
{
    if (isnan(v) || isinf(v))
        return json_null();
    if (v == floor(v) && fabs(v) < 1e15)
        return json_integer((json_int_t)v);
    return json_real(v);
}

/* The object for prefix name[0..len) under `o`, created (or made from a
 * value, which becomes its "total") as needed. */
static json_t *child(json_t *o, const char *name, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)len, name);
    json_t *c = json_object_get(o, key);
    if (json_is_object(c))
        return c;
    json_t *n = json_object();
    if (!n)
        return NULL;
    if (c)
        json_object_set(n, "total", c);
    json_object_set_new(o, key, n);
    return n;
}

json_t *us_stats_json(const struct us_stats *st)
{
    json_t *root = json_object();
    if (!root)
        return NULL;
    json_object_set_new(root, "arch", json_string(st->arch ? st->arch : ""));
    for (unsigned i = 0; i < st->n; i++) {
        const char *name = st->s[i].name;
        json_t *o = root;
        const char *seg = name, *dot;
        while (o && (dot = strchr(seg, '.'))) {
            o = child(o, seg, (size_t)(dot - seg));
            seg = dot + 1;
        }
        if (!o)
            continue;
        json_t *v = value_json(us_stats_get(st, name));
        json_t *have = json_object_get(o, seg);
        if (json_is_object(have))
            json_object_set_new(have, "total", v);
        else
            json_object_set_new(o, seg, v);
    }
    return root;
}

void us_stats_print(FILE *f, const struct us_stats *st, bool json)
{
    if (json) {
        json_t *o = us_stats_json(st);
        if (o)
            json_dumpf(o, f, US_JSON_FLAGS);
        fputc('\n', f);
        json_decref(o);
        return;
    }
    fprintf(f, "arch: %s\n", st->arch ? st->arch : "");
    for (unsigned i = 0; i < st->n; i++) {
        const struct us_stat *s = &st->s[i];
        char buf[64];
        format_value(buf, sizeof buf, us_stats_get(st, s->name));
        fprintf(f, "  %-24s %-16s # %s\n", s->name, buf,
                s->desc ? s->desc : "");
    }
}
