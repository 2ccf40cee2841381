/*
 * jsonck: read ushader's JSON outputs with jansson, for the tests.
 *
 *   jsonck paths FILE           every value's path and type, one a line
 *   jsonck strip KEY FILE       FILE without its top-level KEY, re-dumped
 *                               as the writers dump (US_JSON_FLAGS)
 *   jsonck check DOC NAME FILE  FILE against the schema NAME of DOC
 *                               (docs/METRICS.md): exit 1, naming each
 *                               undocumented, missing or mistyped key
 *
 * FILE "-" is standard input.  A path is the keys and "[]" (an array's
 * elements) from the root, separated by '/': "runs/[]/stats/area/fp".
 *
 * A schema is a fenced block of DOC opened by "```schema NAME", a line
 * per path:
 *   PATH TYPE[|TYPE...] [optional]   TYPE: object array string integer
 *                                    number (integer or real) boolean null
 *   PATH @OTHER [optional]           the schema OTHER rooted at PATH
 *                                    ("." : here)
 * where a PATH segment "*" stands for any key.  Every path of FILE must
 * match a line (else undocumented), with one of its types (else
 * mistyped), and every line not marked optional must match a path of FILE
 * (else missing) when the value that holds it is there (an optional
 * object's keys are required when it is there; an array may be empty).
 * The check is over the union of an array's elements: a key that one
 * element has and another lacks is not reported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "shader/core.h"

enum { MAX_RULES = 2048, MAX_PATH = 512, MAX_DEPTH = 8 };

struct rule {
    char path[MAX_PATH];
    char types[96];
    bool optional, seen;
    int parent;           /* the rule of the enclosing value, or -1 */
};

struct schema {
    struct rule r[MAX_RULES];
    unsigned n;
};

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "real";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}

typedef void (*visit_fn)(void *ctx, const char *path, const json_t *v);

static void walk(const json_t *v, char *path, size_t len, visit_fn fn,
                 void *ctx)
{
    if (len)
        fn(ctx, path, v);
    const char *key;
    json_t *c;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, key, c) {
            int n = snprintf(path + len, MAX_PATH - len, "%s%s",
                             len ? "/" : "", key);
            if (n > 0 && len + (size_t)n < MAX_PATH)
                walk(c, path, len + (size_t)n, fn, ctx);
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, c) {
            int n = snprintf(path + len, MAX_PATH - len, "%s[]",
                             len ? "/" : "");
            if (n > 0 && len + (size_t)n < MAX_PATH)
                walk(c, path, len + (size_t)n, fn, ctx);
        }
    }
    path[len] = '\0';
}

static json_t *load(const char *file)
{
    json_error_t err;
    json_t *j = !strcmp(file, "-") ? json_loadf(stdin, 0, &err)
                                   : json_load_file(file, 0, &err);
    if (!j)
        fprintf(stderr, "jsonck: %s:%d:%d: %s\n", file, err.line,
                err.column, err.text);
    return j;
}

static void print_path(void *ctx, const char *path, const json_t *v)
{
    (void)ctx;
    printf("%s %s\n", path, type_name(v));
}

/* ---- schemas ------------------------------------------------------------ */

static char *read_all(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + len, 1, 4096, f);
        len += got;
    } while (got);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* The lines of block NAME in doc, or NULL. */
static const char *find_block(const char *doc, const char *name)
{
    char open[128];
    snprintf(open, sizeof open, "```schema %s\n", name);
    for (const char *p = doc; (p = strstr(p, open)); p++)
        if (p == doc || p[-1] == '\n')
            return p + strlen(open);
    return NULL;
}

static bool add_block(struct schema *s, const char *doc, const char *name,
                      const char *prefix, unsigned depth)
{
    const char *p = find_block(doc, name);
    if (!p || depth > MAX_DEPTH) {
        fprintf(stderr, "jsonck: no schema '%s' (or nested too deep)\n",
                name);
        return false;
    }
    while (*p && strncmp(p, "```", 3)) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char line[MAX_PATH + 128], path[MAX_PATH], type[96], opt[16] = "";
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        p += n + (eol != NULL);
        if (line[0] == '#' || sscanf(line, "%511s %95s %15s", path, type,
                                     opt) < 2)
            continue;
        bool o = !strcmp(opt, "optional");
        if (strlen(prefix) + strlen(path) + 2 > MAX_PATH)
            return false;
        char full[2 * MAX_PATH];
        if (!strcmp(path, "."))   /* the root: OTHER's members here */
            snprintf(full, sizeof full, "%s", prefix);
        else
            snprintf(full, sizeof full, "%s%s%s", prefix, *prefix ? "/" : "",
                     path);
        if (type[0] == '@' && !full[0]) {
            if (!add_block(s, doc, type + 1, full, depth + 1))
                return false;
            continue;
        }
        if (type[0] == '@') {
            if (s->n == MAX_RULES)
                return false;
            s->r[s->n++] = (struct rule){ .optional = o };
            memcpy(s->r[s->n - 1].path, full, strlen(full) + 1);
            snprintf(s->r[s->n - 1].types, 96, "object");
            if (!add_block(s, doc, type + 1, full, depth + 1))
                return false;
            continue;
        }
        if (s->n == MAX_RULES)
            return false;
        struct rule *r = &s->r[s->n++];
        *r = (struct rule){ .optional = o };
        memcpy(r->path, full, strlen(full) + 1);   /* length checked */
        snprintf(r->types, sizeof r->types, "%s", type);
    }
    return true;
}

/* Each rule's parent: the longest rule path that is a prefix of it at a
 * '/'. */
static void set_parents(struct schema *s)
{
    for (unsigned i = 0; i < s->n; i++) {
        size_t best = 0;
        s->r[i].parent = -1;
        for (unsigned j = 0; j < s->n; j++) {
            size_t l = strlen(s->r[j].path);
            if (j != i && l > best && !strncmp(s->r[i].path, s->r[j].path, l)
                && s->r[i].path[l] == '/') {
                best = l;
                s->r[i].parent = (int)j;
            }
        }
    }
}

/* Is rule r required: not optional, not an array's elements (an array may
 * be empty), and its parent (if any) present? */
static bool required(const struct schema *s, const struct rule *r)
{
    size_t l = strlen(r->path);
    if (r->optional || (l >= 2 && !strcmp(r->path + l - 2, "[]")))
        return false;
    return r->parent < 0 || s->r[r->parent].seen;
}

/* Does pattern (segments, "*" any one key) match path? */
static bool match(const char *pat, const char *path)
{
    while (*pat && *path) {
        size_t pl = strcspn(pat, "/"), ql = strcspn(path, "/");
        bool any = pl == 1 && pat[0] == '*' && strncmp(path, "[]", ql);
        if (!any && (pl != ql || strncmp(pat, path, pl)))
            return false;
        pat += pl + (pat[pl] == '/');
        path += ql + (path[ql] == '/');
    }
    return !*pat && !*path;
}

static bool has_type(const char *types, const char *t)
{
    size_t n = strlen(t);
    for (const char *p = types; *p;) {
        size_t l = strcspn(p, "|");
        if ((l == n && !strncmp(p, t, n)) ||
            (l == 6 && !strncmp(p, "number", 6) &&
             (!strcmp(t, "integer") || !strcmp(t, "real"))))
            return true;
        p += l + (p[l] == '|');
    }
    return false;
}

struct check {
    struct schema *s;
    const char *file;
    unsigned bad;
};

static void check_path(void *ctx, const char *path, const json_t *v)
{
    struct check *c = ctx;
    const char *t = type_name(v);
    for (unsigned i = 0; i < c->s->n; i++) {
        struct rule *r = &c->s->r[i];
        if (!match(r->path, path))
            continue;
        r->seen = true;
        if (!has_type(r->types, t)) {
            printf("%s: %s: a %s, the schema says %s\n", c->file, path, t,
                   r->types);
            c->bad++;
        }
        return;
    }
    printf("%s: %s: undocumented key (%s)\n", c->file, path, t);
    c->bad++;
}

static int cmd_check(const char *docfile, const char *name, const char *file)
{
    char *doc = read_all(docfile);
    struct schema *s = calloc(1, sizeof *s);
    if (!doc || !s) {
        fprintf(stderr, "jsonck: cannot read %s\n", docfile);
        free(doc);
        free(s);
        return 2;
    }
    bool ok = add_block(s, doc, name, "", 0);
    set_parents(s);
    free(doc);
    json_t *j = ok ? load(file) : NULL;
    if (!j) {
        free(s);
        return 2;
    }
    struct check c = { s, file, 0 };
    char path[MAX_PATH] = "";
    walk(j, path, 0, check_path, &c);
    for (unsigned i = 0; i < s->n; i++)
        if (!s->r[i].seen && required(s, &s->r[i])) {
            printf("%s: %s: missing (schema %s)\n", file, s->r[i].path, name);
            c.bad++;
        }
    json_decref(j);
    free(s);
    return c.bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "paths")) {
        json_t *j = load(argv[2]);
        if (!j)
            return 2;
        char path[MAX_PATH] = "";
        walk(j, path, 0, print_path, NULL);
        json_decref(j);
        return 0;
    }
    if (argc == 4 && !strcmp(argv[1], "strip")) {
        json_t *j = load(argv[3]);
        if (!j)
            return 2;
        json_object_del(j, argv[2]);
        int rc = json_dumpf(j, stdout, US_JSON_FLAGS) ? 1 : 0;
        putchar('\n');
        json_decref(j);
        return rc;
    }
    if (argc == 5 && !strcmp(argv[1], "check"))
        return cmd_check(argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: jsonck paths FILE | strip KEY FILE | "
            "check DOC NAME FILE\n");
    return 2;
}
