/* A sweep's axes (cli/sweep.h): the spec file, the --set options, their
 * check on the base configuration, and a point's knob values.
 *
 *   spec    := (line '\n')* line
 *   line    := blank* ('#' any* | ';' any* | '[sweep]' | entry)? blank*
 *   entry   := KEY blank* '=' blank* value (blank* ',' blank* value)*
 * where KEY "mode" takes grid or zip and every other KEY is a knob as
 * --set spells it ([core] knobs, sfu.KEY for the SFU). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sweep.h"
#include "suite/provenance.h"

/* The spec file's position for an error, or none for --set. */
struct where {
    const char *file;
    unsigned line, col;
    const char *opt;          /* the --set argument, for its messages */
};

static void err_at(const struct where *w, const char *fmt, const char *a,
                   const char *b)
{
    if (w->file)
        cli_error(w->file, w->line, w->col, fmt, a, b);
    else {
        char msg[512];
        snprintf(msg, sizeof msg, fmt, a, b);
        cli_error(NULL, 0, 0, "sweep: --set '%s': %s",
                  w->opt ? w->opt : "", msg);
    }
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* Trimmed [*s, *e). */
static void trim(const char **s, const char **e)
{
    while (*s < *e && is_blank(**s))
        (*s)++;
    while (*e > *s && is_blank((*e)[-1]))
        (*e)--;
}

/* One axis KEY = V1,V2,... (key and list already trimmed); every value
 * checked as KEY=V on `base`. */
static bool add_axis(struct sw_spec *s, const struct us_config *base,
                     const char *key, size_t klen, const char *list,
                     const char *lend, struct where *w)
{
    char kbuf[128];
    snprintf(kbuf, sizeof kbuf, "%.*s", (int)klen, key);
    if (klen == 0 || klen >= sizeof kbuf || strchr(kbuf, '=')) {
        err_at(w, "want KNOB=V1,V2,... (a knob of `ushader config --list` "
               "or sfu.KEY)%s%s", "", "");
        return false;
    }
    for (unsigned a = 0; a < s->naxes; a++)
        if (!strcmp(s->axes[a].key, kbuf)) {
            err_at(w, "%s is swept twice%s", kbuf, "");
            return false;
        }
    if (s->naxes == SW_MAX_AXES) {
        err_at(w, "more than %s knobs%s", "16", "");
        return false;
    }
    struct sw_axis *ax = &s->axes[s->naxes];
    memset(ax, 0, sizeof *ax);
    ax->key = strdup(kbuf);
    if (!ax->key)
        return false;
    s->naxes++;
    if (list == lend) {
        err_at(w, "empty sweep: %s has no value%s", kbuf, "");
        return false;
    }
    for (const char *p = list; p <= lend;) {
        const char *c = memchr(p, ',', (size_t)(lend - p));
        const char *ve = c ? c : lend, *vs = p;
        trim(&vs, &ve);
        if (vs == ve) {
            err_at(w, "%s: an empty value in the list%s", kbuf, "");
            return false;
        }
        if (ax->nvals == SW_MAX_VALUES) {
            err_at(w, "%s: more than %s values", kbuf, "256");
            return false;
        }
        if (klen + (size_t)(ve - vs) + 2 > SW_MAX_SET) {
            err_at(w, "%s: KNOB=VALUE longer than %s bytes", kbuf, "190");
            return false;
        }
        char *v = dup_n(vs, (size_t)(ve - vs));
        if (!v)
            return false;
        ax->vals[ax->nvals++] = v;
        for (unsigned i = 0; i + 1 < ax->nvals; i++)
            if (!strcmp(ax->vals[i], v)) {
                err_at(w, "%s lists %s twice", kbuf, v);
                return false;
            }
        /* the value as a --set would take it, on the base configuration */
        size_t n = strlen(kbuf) + strlen(v) + 2;
        char *kv = malloc(n);
        if (!kv)
            return false;
        snprintf(kv, n, "%s=%s", kbuf, v);
        struct us_config probe = *base;
        struct us_diag d = { 0 };
        bool ok = us_config_set(&probe, kv, &d);
        free(kv);
        if (!ok) {
            err_at(w, "%s%s", d.msg, "");
            return false;
        }
        if (!c)
            break;
        p = c + 1;
    }
    return true;
}

/* The spec file, line by line. */
static bool parse_file(struct sw_spec *s, const struct us_config *base,
                       bool *mode_set)
{
    size_t len;
    if (!cli_read_file(s->spec_file, &s->text, &len))
        return false;
    struct where w = { s->spec_file, 0, 0, NULL };
    bool in_sweep = false;
    if (strlen(s->text) != len) {
        cli_error(s->spec_file, 0, 0, "a NUL byte in the sweep spec");
        return false;
    }
    for (const char *line = s->text; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        w.line++;
        const char *ls = line, *le = end;
        trim(&ls, &le);
        w.col = (unsigned)(ls - line) + 1;
        const char *next = *end ? end + 1 : end;
        if (ls == le || *ls == '#' || *ls == ';') {
            line = next;
            continue;
        }
        if (*ls == '[') {
            if (le - ls != 7 || memcmp(ls, "[sweep]", 7)) {
                char sec[64];
                snprintf(sec, sizeof sec, "%.*s", (int)(le - ls), ls);
                err_at(&w, "unknown section %s (a sweep spec has one "
                       "section, [sweep]; the configuration goes in "
                       "--config)%s", sec, "");
                return false;
            }
            in_sweep = true;
            line = next;
            continue;
        }
        if (!in_sweep) {
            err_at(&w, "an entry before [sweep]%s%s", "", "");
            return false;
        }
        const char *eq = memchr(ls, '=', (size_t)(le - ls));
        if (!eq) {
            err_at(&w, "want KEY = V1,V2,... or mode = grid|zip%s%s", "", "");
            return false;
        }
        const char *ks = ls, *ke = eq, *vs = eq + 1, *ve = le;
        trim(&ks, &ke);
        trim(&vs, &ve);
        if (ke - ks == 4 && !memcmp(ks, "mode", 4)) {
            bool zip = ve - vs == 3 && !memcmp(vs, "zip", 3),
                 grid = ve - vs == 4 && !memcmp(vs, "grid", 4);
            if ((!zip && !grid) || *mode_set) {
                err_at(&w, *mode_set ? "mode given twice%s%s"
                                     : "mode is grid or zip%s%s", "", "");
                return false;
            }
            *mode_set = true;
            s->zip = zip;
        } else if (!add_axis(s, base, ks, (size_t)(ke - ks), vs, ve, &w)) {
            return false;
        }
        line = next;
    }
    return true;
}

bool sw_spec_build(struct sw_spec *s, const struct us_config *base)
{
    bool mode_set = false;
    if (s->spec_file && !parse_file(s, base, &mode_set))
        return false;
    if (s->zip_opt) {
        if (mode_set && !s->zip) {
            cli_error(s->spec_file, 0, 0, "the spec says mode = grid, the "
                      "command line --zip");
            return false;
        }
        s->zip = true;
    }
    for (unsigned i = 0; i < s->nsets; i++) {
        struct where w = { NULL, 0, 0, s->sets[i] };
        const char *eq = strchr(s->sets[i], '=');
        if (!eq) {
            err_at(&w, "want KNOB=V1,V2,...%s%s", "", "");
            return false;
        }
        const char *ks = s->sets[i], *ke = eq, *vs = eq + 1,
                   *ve = vs + strlen(vs);
        trim(&ks, &ke);
        trim(&vs, &ve);
        if (!add_axis(s, base, ks, (size_t)(ke - ks), vs, ve, &w))
            return false;
    }
    if (s->naxes == 0) {
        cli_error(s->spec_file, 0, 0, "%sempty sweep: no knob to sweep "
                  "(--set KNOB=V1,V2,... or KNOB = V1,V2,... under [sweep])",
                  s->spec_file ? "" : "sweep: ");
        return false;
    }
    unsigned long long n = 1;
    for (unsigned a = 0; a < s->naxes; a++) {
        unsigned m = s->axes[a].nvals;
        if (s->zip) {
            /* zip pairs the lists; a single value holds for every point */
            if (m > 1 && n > 1 && m != n) {
                cli_error(s->spec_file, 0, 0, "%szip: %s has %u values, an "
                          "earlier knob %llu (zipped lists have one length)",
                          s->spec_file ? "" : "sweep: ", s->axes[a].key, m, n);
                return false;
            }
            if (m > n)
                n = m;
        } else {
            n *= m;
            if (n > SW_MAX_POINTS)
                break;
        }
    }
    if (n > SW_MAX_POINTS) {
        cli_error(s->spec_file, 0, 0, "%sthe sweep has more than %d points",
                  s->spec_file ? "" : "sweep: ", SW_MAX_POINTS);
        return false;
    }
    s->npoints = (unsigned)n;
    return true;
}

void sw_spec_free(struct sw_spec *s)
{
    for (unsigned a = 0; a < s->naxes; a++) {
        free(s->axes[a].key);
        for (unsigned i = 0; i < s->axes[a].nvals; i++)
            free(s->axes[a].vals[i]);
    }
    free(s->text);
    s->naxes = 0;
    s->text = NULL;
}

/* Grid: the first knob outermost, the last fastest, as nested loops. */
unsigned sw_point_value(const struct sw_spec *s, unsigned k, unsigned a)
{
    if (s->zip)
        return s->axes[a].nvals == 1 ? 0 : k;
    for (unsigned b = s->naxes; b-- > a + 1;)
        k /= s->axes[b].nvals;
    return k % s->axes[a].nvals;
}

void sw_point_set(const struct sw_spec *s, unsigned k, unsigned a, char *buf,
                  size_t size)
{
    snprintf(buf, size, "%s=%s", s->axes[a].key,
             s->axes[a].vals[sw_point_value(s, k, a)]);
}

json_t *sw_spec_json(const struct sw_spec *s)
{
    json_t *knobs = json_array();
    for (unsigned a = 0; knobs && a < s->naxes; a++) {
        json_t *vals = json_array();
        for (unsigned i = 0; vals && i < s->axes[a].nvals; i++)
            json_array_append_new(vals, us_json_text(s->axes[a].vals[i]));
        json_array_append_new(knobs, json_pack("{s:o, s:o}", "key",
                              us_json_text(s->axes[a].key), "values", vals));
    }
    return json_pack("{s:s, s:o, s:o, s:o, s:i, s:o, s:i}",
                     "mode", s->zip ? "zip" : "grid", "knobs", knobs,
                     "arch", us_json_text(s->arch ? s->arch : "all"),
                     "only", us_json_text(s->only ? s->only : ""),
                     "threads", (int)(s->compute ? 0 : s->threads
                                      ? s->threads : US_BENCH_DEFAULT_THREADS),
                     "suite", us_json_text(s->suite),
                     "points", (int)s->npoints);
}

unsigned sw_spec_argv(const struct sw_spec *s, const char **argv,
                      unsigned max)
{
    unsigned n = 0;
#define PUT(x) do { if (n < max) argv[n] = (x); n++; } while (0)
    PUT("sweep");
    if (s->spec_file) {
        PUT("--spec");
        PUT(s->spec_file);
    }
    for (unsigned i = 0; i < s->nsets; i++) {
        PUT("--set");
        PUT(s->sets[i]);
    }
    if (s->zip_opt)
        PUT("--zip");
    if (s->config) {
        PUT("--config");
        PUT(s->config);
    }
    if (s->arch) {
        PUT("--arch");
        PUT(s->arch);
    }
    if (s->only) {
        PUT("--only");
        PUT(s->only);
    }
    if (s->threads_arg) {
        PUT("--threads");
        PUT(s->threads_arg);
    }
    if (s->suite_arg) {
        PUT("--suite");
        PUT(s->suite_arg);
    }
#undef PUT
    return n;
}
