/* ushader piglit summary RESULTS.json... [--all] [--json] [--html DIR]
 *
 * Compares the results files of `ushader piglit --results` (piglit's
 * `summary console` and `summary html`): every test of any file, matched
 * by path, with its result in each file; between each file and the next
 * the changes -- fixed (fail or error to pass), regressed (pass to fail
 * or error), enabled (skip to run), disabled (run to skip), changed (fail
 * and error), new, removed -- and the totals of each file.  Text on
 * stdout (the tests that changed, or --all of them), --json the same as
 * an object (docs/METRICS.md, schema piglit-summary), --html DIR a
 * self-contained DIR/index.html (inline CSS, no scripts, nothing fetched).
 * Exit 0 whatever changed; 2 for a file that is not a results file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/piglit.h"
#include "suite/provenance.h"

static const char usage[] =
    "usage: ushader piglit summary RESULTS.json... [--all] [--json]\n"
    "                              [--html DIR]\n"
    "  Compare results files of `ushader piglit --results`: each test's\n"
    "  result in every file, the changes from each file to the next\n"
    "  (fixed, regressed, enabled, disabled, changed, new, removed) and\n"
    "  every file's totals.  Prints the tests that changed.\n"
    "  --all       list every test, changed or not\n"
    "  --json      print the summary as JSON (docs/METRICS.md,\n"
    "              schema piglit-summary) instead of text\n"
    "  --html DIR  also write DIR/index.html (created with DIR), one\n"
    "              self-contained page: the totals, the changes and a row\n"
    "              per test that changed (with --all, per test)\n";

/* Kinds of change between consecutive files, in the order printed. */
enum change { CH_NONE, CH_FIXED, CH_REGRESSED, CH_ENABLED, CH_DISABLED,
              CH_CHANGED, CH_NEW, CH_REMOVED, CH_COUNT };
static const char *const change_names[CH_COUNT] = {
    "unchanged", "fixed", "regressed", "enabled", "disabled", "changed",
    "new", "removed",
};

enum { ABSENT = -1 };

/* One test: its result (enum pg_result or ABSENT) and message per file. */
struct row {
    const char *path;
    int *res;
    const char **msg;
};

struct summary {
    unsigned nfiles;
    char **names;                       /* the files as given          */
    json_t **docs;
    struct row *rows;
    size_t nrows;
    unsigned (*totals)[PG_NRESULTS];    /* per file                    */
    unsigned (*changes)[CH_COUNT];      /* per pair k-1 -> k (k >= 1)  */
    bool all;
};

static enum change change_of(int a, int b)
{
    bool run_a = a == PG_PASS || a == PG_FAIL || a == PG_ERROR,
         run_b = b == PG_PASS || b == PG_FAIL || b == PG_ERROR;
    if (a == b)
        return CH_NONE;
    if (a == ABSENT)
        return CH_NEW;
    if (b == ABSENT)
        return CH_REMOVED;
    if (b == PG_PASS && a != PG_SKIP)
        return CH_FIXED;
    if (a == PG_PASS && b != PG_SKIP)
        return CH_REGRESSED;
    if (a == PG_SKIP && run_b)
        return CH_ENABLED;
    if (run_a && b == PG_SKIP)
        return CH_DISABLED;
    return CH_CHANGED;   /* fail <-> error */
}

static bool row_changed(const struct summary *s, const struct row *r)
{
    for (unsigned k = 1; k < s->nfiles; k++)
        if (change_of(r->res[k - 1], r->res[k]) != CH_NONE)
            return true;
    return false;
}

/* ---- Reading -------------------------------------------------------------- */

static int result_of(const char *s)
{
    for (int k = 0; k < PG_NRESULTS; k++)
        if (!strcmp(s, pg_result_names[k]))
            return k;
    return ABSENT;
}

/* The checked "tests" array of a results file, or NULL after an error. */
static json_t *load(const char *path, json_t **doc)
{
    char *text;
    size_t len;
    if (!cli_read_file(path, &text, &len))
        return NULL;
    json_error_t e;
    *doc = json_loadb(text, len, 0, &e);
    free(text);
    if (!*doc) {
        cli_error(path, e.line > 0 ? (unsigned)e.line : 0,
                  e.column > 0 ? (unsigned)e.column : 0, "not JSON: %s",
                  e.text);
        return NULL;
    }
    json_t *v = json_object_get(*doc, "schema_version"),
           *tests = json_object_get(*doc, "tests");
    if (!json_is_integer(v) || json_integer_value(v) != US_JSON_SCHEMA_VERSION
        || !json_is_array(tests)) {
        cli_error(path, 0, 0, "not a results file of `ushader piglit "
                  "--results` (schema_version %d with \"tests\")",
                  US_JSON_SCHEMA_VERSION);
        return NULL;
    }
    size_t i;
    json_t *t;
    json_array_foreach(tests, i, t) {
        const char *p = json_string_value(json_object_get(t, "path")),
                   *r = json_string_value(json_object_get(t, "result"));
        if (!p || !r || result_of(r) == ABSENT) {
            cli_error(path, 0, 0, "tests[%zu] has no path or no result "
                      "(pass, fail, skip or error)", i);
            return NULL;
        }
    }
    return tests;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const struct row *)a)->path,
                  ((const struct row *)b)->path);
}

/* The rows of every test in any file, sorted by path; a path twice in one
 * file is an error.  Reports its own errors. */
static bool build(struct summary *s, json_t **tests)
{
    size_t cap = 0;
    for (unsigned k = 0; k < s->nfiles; k++)
        cap += json_array_size(tests[k]);
    struct row *all = calloc(cap ? cap : 1, sizeof *all);
    if (!all) {
        cli_error(NULL, 0, 0, "piglit summary: out of memory");
        return false;
    }
    size_t n = 0;
    for (unsigned k = 0; k < s->nfiles; k++) {
        size_t i;
        json_t *t;
        json_array_foreach(tests[k], i, t)
            all[n++].path = json_string_value(json_object_get(t, "path"));
    }
    qsort(all, n, sizeof *all, by_path);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || strcmp(all[m - 1].path, all[i].path))
            all[m++] = all[i];
    s->rows = all;
    s->nrows = m;
    for (size_t i = 0; i < m; i++) {
        all[i].res = malloc(s->nfiles * sizeof *all[i].res);
        all[i].msg = calloc(s->nfiles, sizeof *all[i].msg);
        if (!all[i].res || !all[i].msg) {
            cli_error(NULL, 0, 0, "piglit summary: out of memory");
            return false;
        }
        for (unsigned k = 0; k < s->nfiles; k++)
            all[i].res[k] = ABSENT;
    }
    for (unsigned k = 0; k < s->nfiles; k++) {
        size_t i;
        json_t *t;
        json_array_foreach(tests[k], i, t) {
            struct row key = {
                .path = json_string_value(json_object_get(t, "path")) };
            struct row *r = bsearch(&key, all, m, sizeof *all, by_path);
            if (r->res[k] != ABSENT) {
                cli_error(s->names[k], 0, 0, "%s is in the file twice",
                          r->path);
                return false;
            }
            r->res[k] = result_of(json_string_value(
                json_object_get(t, "result")));
            r->msg[k] = json_string_value(json_object_get(t, "message"));
            s->totals[k][r->res[k]]++;
        }
    }
    for (size_t i = 0; i < m; i++)
        for (unsigned k = 1; k < s->nfiles; k++)
            s->changes[k][change_of(all[i].res[k - 1], all[i].res[k])]++;
    return true;
}

/* ---- Text ------------------------------------------------------------------ */

static const char *res_name(int r)
{
    return r == ABSENT ? "-" : pg_result_names[r];
}

/* "fixed" or "fixed, regressed": the changes of a row (or ""). */
static void row_changes(const struct summary *s, const struct row *r,
                        char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned k = 1; k < s->nfiles && n < size; k++) {
        enum change c = change_of(r->res[k - 1], r->res[k]);
        if (c != CH_NONE)
            n += (size_t)snprintf(buf + n, size - n, "%s%s",
                                  n ? ", " : "", change_names[c]);
    }
}

static void print_text(const struct summary *s)
{
    printf("piglit summary of %u results file%s\n", s->nfiles,
           s->nfiles == 1 ? "" : "s");
    for (unsigned k = 0; k < s->nfiles; k++) {
        const unsigned *t = s->totals[k];
        printf("[%u] %s: %u tests: %u pass, %u fail, %u skip, %u error\n",
               k + 1, s->names[k], t[PG_PASS] + t[PG_FAIL] + t[PG_SKIP] +
               t[PG_ERROR], t[PG_PASS], t[PG_FAIL], t[PG_SKIP], t[PG_ERROR]);
    }
    for (unsigned k = 1; k < s->nfiles; k++) {
        printf("[%u] -> [%u]:", k, k + 1);
        for (unsigned c = CH_FIXED; c < CH_COUNT; c++)
            printf("%s %u %s", c > CH_FIXED ? "," : "", s->changes[k][c],
                   change_names[c]);
        putchar('\n');
    }
    size_t listed = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        const struct row *r = &s->rows[i];
        if (!s->all && !row_changed(s, r))
            continue;
        if (!listed++) {
            for (unsigned k = 0; k < s->nfiles; k++) {
                char col[16];
                snprintf(col, sizeof col, "[%u]", k + 1);
                printf("%-6s ", col);
            }
            printf("test%s\n", s->nfiles > 1 ? " (changes)" : "");
        }
        for (unsigned k = 0; k < s->nfiles; k++)
            printf("%-6s ", res_name(r->res[k]));
        char ch[256];
        row_changes(s, r, ch, sizeof ch);
        printf("%s%s%s%s\n", r->path, ch[0] ? " (" : "", ch, ch[0] ? ")" : "");
    }
    if (!listed && s->nfiles > 1)
        printf("no test changed\n");
}

/* ---- JSON ------------------------------------------------------------------- */

static json_t *totals_json(const char *file, const unsigned t[PG_NRESULTS])
{
    json_t *o = json_object();
    json_object_set_new(o, "file", us_json_text(file));
    json_object_set_new(o, "tests", json_integer(t[PG_PASS] + t[PG_FAIL] +
                                                 t[PG_SKIP] + t[PG_ERROR]));
    for (unsigned r = 0; r < PG_NRESULTS; r++)
        json_object_set_new(o, pg_result_names[r], json_integer(t[r]));
    return o;
}

static bool print_json(const struct summary *s, int argc, char **argv)
{
    struct us_prov *prov = calloc(1, sizeof *prov);
    json_t *doc = json_object(), *files = json_array(),
           *changes = json_array(), *tests = json_array(), *pj = NULL;
    bool ok = prov && us_prov_init(prov, argc, argv) && doc && files &&
              changes && tests;
    if (ok) {
        for (unsigned k = 0; k < s->nfiles; k++)
            us_prov_add_file(prov, s->names[k]);
        ok = (pj = us_prov_json(prov)) != NULL;
    }
    if (ok) {
        json_object_set_new(doc, "schema_version",
                            json_integer(US_JSON_SCHEMA_VERSION));
        json_object_set_new(doc, "provenance", pj);
        for (unsigned k = 0; k < s->nfiles; k++) {
            json_array_append_new(files, totals_json(s->names[k],
                                                     s->totals[k]));
        }
        for (unsigned k = 1; k < s->nfiles; k++) {
            json_t *c = json_object();
            json_object_set_new(c, "from", json_integer(k - 1));
            json_object_set_new(c, "to", json_integer(k));
            for (unsigned h = CH_FIXED; h < CH_COUNT; h++)
                json_object_set_new(c, change_names[h],
                                    json_integer(s->changes[k][h]));
            json_array_append_new(changes, c);
        }
        for (size_t i = 0; i < s->nrows; i++) {
            const struct row *r = &s->rows[i];
            if (!s->all && !row_changed(s, r))
                continue;
            json_t *t = json_object(), *res = json_array(),
                   *msg = json_array(), *ch = json_array();
            json_object_set_new(t, "path", us_json_text(r->path));
            for (unsigned k = 0; k < s->nfiles; k++) {
                json_array_append_new(res, r->res[k] == ABSENT ? json_null()
                                      : json_string(res_name(r->res[k])));
                json_array_append_new(msg, r->msg[k] ? json_string(r->msg[k])
                                                     : json_null());
            }
            for (unsigned k = 1; k < s->nfiles; k++)
                json_array_append_new(ch, json_string(change_names[
                    change_of(r->res[k - 1], r->res[k])]));
            json_object_set_new(t, "results", res);
            json_object_set_new(t, "messages", msg);
            json_object_set_new(t, "changes", ch);
            json_array_append_new(tests, t);
        }
        json_object_set_new(doc, "files", files);
        json_object_set_new(doc, "changes", changes);
        json_object_set_new(doc, "tests", tests);
        files = changes = tests = NULL;
    }
    char *out = ok ? json_dumps(doc, US_JSON_FLAGS) : NULL;
    json_decref(doc);
    json_decref(files);
    json_decref(changes);
    json_decref(tests);
    if (prov)
        us_prov_free(prov);
    free(prov);
    if (!out) {
        cli_error(NULL, 0, 0, "piglit summary: out of memory");
        return false;
    }
    puts(out);
    free(out);
    return true;
}

/* ---- HTML -------------------------------------------------------------------- */

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
}

static const char html_style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #999;padding:.25em .6em;text-align:left}"
    "th{background:#ddd}td.n{text-align:right}"
    ".pass{background:#8d8}.fail{background:#e77}.skip{background:#bbb}"
    ".error{background:#f2a33a}.absent{background:#fff;color:#888}"
    ".fixed{color:#070;font-weight:bold}"
    ".regressed{color:#b00;font-weight:bold}";

static void html_row_totals(FILE *f, const struct summary *s, unsigned k)
{
    const unsigned *t = s->totals[k];
    fprintf(f, "<tr><td>[%u] ", k + 1);
    html_text(f, s->names[k]);
    fprintf(f, "</td><td class=\"n\">%u</td>", t[PG_PASS] + t[PG_FAIL] +
            t[PG_SKIP] + t[PG_ERROR]);
    for (unsigned r = 0; r < PG_NRESULTS; r++)
        fprintf(f, "<td class=\"n %s\">%u</td>", pg_result_names[r], t[r]);
    fputs("</tr>\n", f);
}

static void html_page(FILE *f, const struct summary *s)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
            "<meta charset=\"utf-8\">\n<title>piglit summary</title>\n"
            "<style>%s</style>\n</head>\n<body>\n"
            "<h1>piglit summary of %u results file%s</h1>\n",
            html_style, s->nfiles, s->nfiles == 1 ? "" : "s");
    fputs("<h2>Totals</h2>\n<table id=\"totals\">\n<tr><th>results file"
          "</th><th>tests</th>", f);
    for (unsigned r = 0; r < PG_NRESULTS; r++)
        fprintf(f, "<th>%s</th>", pg_result_names[r]);
    fputs("</tr>\n", f);
    for (unsigned k = 0; k < s->nfiles; k++)
        html_row_totals(f, s, k);
    fputs("</table>\n", f);
    if (s->nfiles > 1) {
        fputs("<h2>Changes</h2>\n<table id=\"changes\">\n<tr><th>from</th>"
              "<th>to</th>", f);
        for (unsigned c = CH_FIXED; c < CH_COUNT; c++)
            fprintf(f, "<th>%s</th>", change_names[c]);
        fputs("</tr>\n", f);
        for (unsigned k = 1; k < s->nfiles; k++) {
            fprintf(f, "<tr><td>[%u]</td><td>[%u]</td>", k, k + 1);
            for (unsigned c = CH_FIXED; c < CH_COUNT; c++)
                fprintf(f, "<td class=\"n\">%u</td>", s->changes[k][c]);
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    fprintf(f, "<h2>%s</h2>\n", s->all ? "Tests" : "Tests that changed");
    fputs("<table id=\"tests\">\n<tr><th>test</th>", f);
    for (unsigned k = 0; k < s->nfiles; k++)
        fprintf(f, "<th>[%u]</th>", k + 1);
    if (s->nfiles > 1)
        fputs("<th>changes</th>", f);
    fputs("<th>message</th></tr>\n", f);
    size_t listed = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        const struct row *r = &s->rows[i];
        if (!s->all && !row_changed(s, r))
            continue;
        listed++;
        fputs("<tr><td>", f);
        html_text(f, r->path);
        fputs("</td>", f);
        for (unsigned k = 0; k < s->nfiles; k++)
            fprintf(f, "<td class=\"%s\">%s</td>", r->res[k] == ABSENT
                    ? "absent" : pg_result_names[r->res[k]],
                    res_name(r->res[k]));
        if (s->nfiles > 1) {
            char ch[256];
            row_changes(s, r, ch, sizeof ch);
            enum change last = change_of(r->res[s->nfiles - 2],
                                         r->res[s->nfiles - 1]);
            fprintf(f, "<td class=\"%s\">%s</td>", change_names[last], ch);
        }
        /* the message of the last file that has one */
        const char *m = NULL;
        for (unsigned k = s->nfiles; k-- > 0 && !m;)
            m = r->msg[k];
        fputs("<td>", f);
        html_text(f, m ? m : "");
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    if (!listed)
        fputs("<p id=\"none\">No test changed.</p>\n", f);
    fputs("</body>\n</html>\n", f);
}

static bool write_html(const char *dir, const struct summary *s)
{
    if (!cli_make_dirs(dir)) {
        cli_error(dir, 0, 0, "cannot create the directory: %s",
                  strerror(errno));
        return false;
    }
    size_t n = strlen(dir) + sizeof "/index.html";
    char *path = malloc(n), *data = NULL;
    size_t len = 0;
    FILE *f = path ? open_memstream(&data, &len) : NULL;
    if (!f) {
        free(path);
        cli_error(dir, 0, 0, "out of memory");
        return false;
    }
    snprintf(path, n, "%s/index.html", dir);
    html_page(f, s);
    bool ok = fclose(f) == 0;
    if (!ok)
        cli_error(path, 0, 0, "out of memory");
    ok = ok && cli_check_output(path, (const char *const *)s->names,
                                s->nfiles) &&
         cli_write_file(path, data, len);
    free(data);
    free(path);
    return ok;
}

/* ---- The command ------------------------------------------------------------- */

static void summary_free(struct summary *s)
{
    for (size_t i = 0; s->rows && i < s->nrows; i++) {
        free(s->rows[i].res);
        free(s->rows[i].msg);
    }
    free(s->rows);
    for (unsigned k = 0; s->docs && k < s->nfiles; k++)
        json_decref(s->docs[k]);
    free(s->docs);
    free(s->names);
    free(s->totals);
    free(s->changes);
}

int cmd_piglit_summary(int argc, char **argv)
{
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--all", false, false, NULL },
        { "--json", false, false, NULL },
        { "--html", true, false, "a DIR" },
        { NULL, false, false, NULL },
    };
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("piglit summary", argc, argv, 2, options))
        return 2;
    struct summary s = { 0 };
    const char *html = NULL;
    bool json = false, ends = false;
    s.names = calloc((size_t)argc, sizeof *s.names);
    if (!s.names) {
        cli_error(NULL, 0, 0, "piglit summary: out of memory");
        return 1;
    }
    for (int i = 2; i < argc; i++) {
        if (!ends && !strcmp(argv[i], "--"))
            ends = true;
        else if (!ends && !strcmp(argv[i], "--all"))
            s.all = true;
        else if (!ends && !strcmp(argv[i], "--json"))
            json = true;
        else if (!ends && !strcmp(argv[i], "--html"))
            html = argv[++i];
        else
            s.names[s.nfiles++] = argv[i];
    }
    if (!s.nfiles) {
        fputs(usage, stderr);
        summary_free(&s);
        return 2;
    }
    int rc = 2;
    json_t **tests = calloc(s.nfiles, sizeof *tests);
    s.docs = calloc(s.nfiles, sizeof *s.docs);
    s.totals = calloc(s.nfiles, sizeof *s.totals);
    s.changes = calloc(s.nfiles, sizeof *s.changes);
    if (!tests || !s.docs || !s.totals || !s.changes) {
        cli_error(NULL, 0, 0, "piglit summary: out of memory");
        rc = 1;
        goto out;
    }
    for (unsigned k = 0; k < s.nfiles; k++)
        if (!(tests[k] = load(s.names[k], &s.docs[k])))
            goto out;
    if (!build(&s, tests))
        goto out;
    rc = 1;
    if (json ? !print_json(&s, argc, argv) : (print_text(&s), false))
        goto out;
    if (!cli_flush_stdout())
        goto out;
    if (html && !write_html(html, &s))
        goto out;
    rc = 0;
out:
    free(tests);
    summary_free(&s);
    return rc;
}
