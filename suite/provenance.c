/* What produced an output (suite/provenance.h): the version and the
 * commit built (build/gen/version.h, written by the Makefile), the command
 * line, the configuration and the inputs' hashes. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ushader.h"
#include "suite/provenance.h"
#include "version.h"

const char *us_version(void) { return US_VERSION; }
const char *us_commit(void) { return US_COMMIT; }

uint64_t us_fnv1a64_more(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t us_fnv1a64(const void *data, size_t n)
{
    return us_fnv1a64_more(US_FNV1A64_SEED, data, n);
}

size_t us_utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    if (c < 0xc2 || c > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* No overlong forms, surrogates or code points above U+10FFFF. */
    if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
        (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
        return 0;
    return n;
}

json_t *us_json_text(const char *s)
{
    size_t len = strlen(s);
    char *t = malloc(3 * len + 1);   /* a bad byte becomes 3 */
    if (!t)
        return NULL;
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = *p < 0x80 ? 1 : us_utf8_len(p);
        if (n) {
            memcpy(t + o, p, n);
            o += n;
            p += n;
        } else {
            memcpy(t + o, "\xef\xbf\xbd", 3);   /* U+FFFD */
            o += 3;
            p++;
        }
    }
    json_t *j = json_stringn(t, o);
    free(t);
    return j;
}

/* A word needs quotes unless made only of these. */
static bool plain_word(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789-_./=,:+%@", *s))
            return false;
    return true;
}

/* POSIX sh single quotes: ' becomes '\''. */
static void quote_word(FILE *f, const char *s)
{
    if (plain_word(s)) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

bool us_prov_init(struct us_prov *p, int argc, char *const *argv)
{
    memset(p, 0, sizeof *p);
    size_t len = 0;
    FILE *f = open_memstream(&p->command, &len);
    if (!f)
        return false;
    fputs("ushader", f);
    for (int i = 0; i < argc; i++) {
        fputc(' ', f);
        quote_word(f, argv[i]);
    }
    if (fclose(f)) {
        free(p->command);
        p->command = NULL;
        return false;
    }
    return true;
}

void us_prov_add_file(struct us_prov *p, const char *path)
{
    if (!path || path[0] == '-' || p->ninputs == US_PROV_MAX_INPUTS)
        return;
    for (unsigned i = 0; i < p->ninputs; i++)
        if (!strcmp(p->inputs[i].path, path))
            return;
    struct us_prov_input *in = &p->inputs[p->ninputs];
    *in = (struct us_prov_input){ strdup(path), -1, 0, NULL };
    if (!in->path)
        return;
    p->ninputs++;
    FILE *f = fopen(path, "rb");
    if (!f) {
        in->error = "cannot open";
        return;
    }
    uint64_t h = 0xcbf29ce484222325ull;
    long long n = 0;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < got; i++) {
            h ^= buf[i];
            h *= 0x100000001b3ull;
        }
        n += (long long)got;
    }
    if (ferror(f))
        in->error = "read error";
    else {
        in->bytes = n;
        in->hash = h;
    }
    fclose(f);
}

void us_prov_free(struct us_prov *p)
{
    free(p->command);
    for (unsigned i = 0; i < p->ninputs; i++)
        free(p->inputs[i].path);
    memset(p, 0, sizeof *p);
}

/* The configuration as us_config_write prints it, malloc'd. */
static char *config_ini(const struct us_config *cfg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    us_config_write(f, cfg);
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* {"core": {...}, "sfu": {...}} from the INI text: one source for every
 * key, so a new knob or SFU key appears here without a change. */
static json_t *config_json(const struct us_config *cfg)
{
    char *ini = config_ini(cfg);
    json_t *o = json_object(), *sec = NULL;
    if (!ini || !o) {
        free(ini);
        json_decref(o);
        return NULL;
    }
    char *save = NULL;
    for (char *line = strtok_r(ini, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '[') {
            line[strcspn(line, "]")] = '\0';
            sec = json_object();
            json_object_set_new(o, line + 1, sec);
            continue;
        }
        char *eq = strstr(line, " = ");
        if (!eq || !sec)
            continue;
        *eq = '\0';
        const char *v = eq + 3;
        char *end;
        long long n = strtoll(v, &end, 10);
        json_object_set_new(sec, line, *v && !*end ? json_integer(n)
                                                   : json_string(v));
    }
    free(ini);
    return o;
}

json_t *us_prov_json(const struct us_prov *p)
{
    json_t *o = json_object(), *in = json_array();
    if (!o || !in) {
        json_decref(o);
        json_decref(in);
        return NULL;
    }
    json_object_set_new(o, "version", json_string(us_version()));
    json_object_set_new(o, "commit", json_string(us_commit()));
    json_object_set_new(o, "command", us_json_text(p->command ? p->command
                                                              : ""));
    if (p->math)
        json_object_set_new(o, "math", json_string(p->math));
    if (p->cfg)
        json_object_set_new(o, "config", config_json(p->cfg));
    for (unsigned i = 0; i < p->ninputs; i++) {
        const struct us_prov_input *pi = &p->inputs[i];
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)pi->hash);
        json_t *e = pi->error
            ? json_pack("{s:o, s:s}", "path", us_json_text(pi->path),
                        "error", pi->error)
            : json_pack("{s:o, s:I, s:s}", "path", us_json_text(pi->path),
                        "bytes", (json_int_t)pi->bytes, "fnv1a64", hex);
        json_array_append_new(in, e);
    }
    json_object_set_new(o, "inputs", in);
    return o;
}

char *us_prov_json_members(const struct us_prov *p)
{
    json_t *o = json_object(), *pj = us_prov_json(p);
    if (!o || !pj) {
        json_decref(o);
        json_decref(pj);
        return NULL;
    }
    json_object_set_new(o, "schema_version",
                        json_integer(US_JSON_SCHEMA_VERSION));
    json_object_set_new(o, "provenance", pj);
    char *s = json_dumps(o, US_JSON_FLAGS);
    json_decref(o);
    if (!s)
        return NULL;
    /* Drop the outer braces (and the newline after "{" / before "}"). */
    size_t n = strlen(s);
    if (n < 4) {
        free(s);
        return NULL;
    }
    memmove(s, s + 2, n - 4);
    s[n - 4] = '\0';
    return s;
}

void us_prov_csv(FILE *f, const struct us_prov *p)
{
    fprintf(f, "# schema_version: %d\n# version: %s\n# commit: %s\n"
            "# command: %s\n", US_JSON_SCHEMA_VERSION, us_version(),
            us_commit(), p->command ? p->command : "");
    if (p->math)
        fprintf(f, "# math: %s\n", p->math);
    if (p->cfg) {
        char *ini = config_ini(p->cfg);
        const char *sec = "";
        char *save = NULL;
        for (char *line = ini ? strtok_r(ini, "\n", &save) : NULL; line;
             line = strtok_r(NULL, "\n", &save)) {
            if (line[0] == '[') {
                line[strcspn(line, "]")] = '\0';
                sec = line + 1;
                continue;
            }
            char *eq = strstr(line, " = ");
            if (eq) {
                *eq = '\0';
                fprintf(f, "# config.%s.%s: %s\n", sec, line, eq + 3);
            }
        }
        free(ini);
    }
    for (unsigned i = 0; i < p->ninputs; i++) {
        const struct us_prov_input *pi = &p->inputs[i];
        if (pi->error)
            fprintf(f, "# input: %s (%s)\n", pi->path, pi->error);
        else
            fprintf(f, "# input: %s %lld bytes fnv1a64 %016llx\n", pi->path,
                    pi->bytes, (unsigned long long)pi->hash);
    }
}

void us_prov_markdown(FILE *f, const struct us_prov *p)
{
    fprintf(f, "## Provenance\n\n"
            "- ushader %s (commit %s), JSON schema %d\n"
            "- command: `%s`\n", us_version(), us_commit(),
            US_JSON_SCHEMA_VERSION, p->command ? p->command : "");
    if (p->math)
        fprintf(f, "- math: %s\n", p->math);
    if (p->ninputs) {
        fprintf(f, "\n| input | bytes | FNV-1a 64 |\n|---|---:|---|\n");
        for (unsigned i = 0; i < p->ninputs; i++) {
            const struct us_prov_input *pi = &p->inputs[i];
            if (pi->error)
                fprintf(f, "| `%s` | | %s |\n", pi->path, pi->error);
            else
                fprintf(f, "| `%s` | %lld | `%016llx` |\n", pi->path,
                        pi->bytes, (unsigned long long)pi->hash);
        }
    }
    if (p->cfg) {
        fprintf(f, "\nThe base configuration (`ushader config` prints the "
                "same INI; each variant's changes are in its section):\n\n"
                "```ini\n");
        us_config_write(f, p->cfg);
        fprintf(f, "```\n");
    }
}
