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
static int format_value(char *buf, size_t size, double v, bool json)
{
    if (isnan(v) || isinf(v))
        return snprintf(buf, size, "%s", json ? "null" : "-");
    if (v == floor(v) && fabs(v) < 1e15)
        return snprintf(buf, size, "%.0f", v);
    return snprintf(buf, size, "%.10g", v);
}

static void print_value(FILE *f, double v, bool json)
{
    char buf[64];
    format_value(buf, sizeof buf, v, json);
    fputs(buf, f);
}

/* Length of the segment of `name` after `plen` characters, up to a dot. */
static size_t segment(const char *name, size_t plen)
{
    return strcspn(name + plen, ".");
}

/* Print the statistics under prefix[0..plen) as one JSON object's members,
 * in order of first registration. */
static void json_level(FILE *f, const struct us_stats *st, const char *prefix,
                       size_t plen, unsigned indent, bool *first)
{
    for (unsigned i = 0; i < st->n; i++) {
        const char *name = st->s[i].name;
        if (strncmp(name, prefix, plen))
            continue;
        size_t seg = segment(name, plen);
        /* Only the first statistic of each segment prints it. */
        bool seen = false;
        for (unsigned j = 0; j < i && !seen; j++) {
            const char *o = st->s[j].name;
            seen = !strncmp(o, prefix, plen) && segment(o, plen) == seg &&
                   !strncmp(o + plen, name + plen, seg);
        }
        if (seen)
            continue;
        fprintf(f, "%s\n%*s\"%.*s\": ", *first ? "" : ",", indent, "",
                (int)seg, name + plen);
        *first = false;
        if (name[plen + seg] == '\0') {
            print_value(f, us_stats_get(st, name), true);
        } else {
            bool inner = true;
            fputc('{', f);
            json_level(f, st, name, plen + seg + 1, indent + 2, &inner);
            fprintf(f, "\n%*s}", indent, "");
        }
    }
}

void us_stats_print(FILE *f, const struct us_stats *st, bool json)
{
    if (json) {
        fprintf(f, "{\n  \"arch\": \"%s\"", st->arch ? st->arch : "");
        bool first = false;
        json_level(f, st, "", 0, 2, &first);
        fputs("\n}\n", f);
        return;
    }
    fprintf(f, "arch: %s\n", st->arch ? st->arch : "");
    for (unsigned i = 0; i < st->n; i++) {
        const struct us_stat *s = &st->s[i];
        char buf[64];
        format_value(buf, sizeof buf, us_stats_get(st, s->name), false);
        fprintf(f, "  %-24s %-16s # %s\n", s->name, buf,
                s->desc ? s->desc : "");
    }
}
