/*
 * Core-model configuration: the knob table (shader/knobs.def) expanded,
 * defaults, "key=value" settings and INI files (inih).
 *
 * INI format (configs/ *.ini):
 *   [core]            knobs of shader/knobs.def, e.g.  lut_banks = 4
 *   [sfu]             keys of the SFU configuration (us_sfu_config_help),
 *                     e.g.  rcp.k = 7
 *   ; and # start comments.  Values: INT decimal; BOOL 0/1, true/false,
 *   on/off, yes/no; ENUM one of the knob's choices.
 *
 * inih reads a line in pieces of INI_MAX_LINE - 1 bytes and the text up to
 * its first NUL, so a longer line would be parsed as two (the tail of a
 * comment becoming a setting) and a NUL would end the file: both are
 * refused before inih sees the text.
 */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shader/core.h"

const struct us_knob_info us_knobs[US_KNOB_COUNT] = {
#define KNOB(name, type, def, lo, hi, choices, doc) \
    { #name, US_KNOB_##type, def, lo, hi, choices, doc },
#include "shader/knobs.def"
#undef KNOB
};

void us_config_default(struct us_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (unsigned i = 0; i < US_KNOB_COUNT; i++)
        cfg->v[i] = us_knobs[i].def;
    us_sfu_config_default(&cfg->sfu);
}

static bool fail(struct us_diag *diag, const char *fmt, const char *a,
                 const char *b)
{
    if (diag) {
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, fmt, a, b);
    }
    return false;
}

/* Index of `word` (length len) among "a|b|c", or -1. */
static int choice_index(const char *choices, const char *word, size_t len)
{
    int i = 0;
    for (const char *p = choices;; i++) {
        size_t n = strcspn(p, "|");
        if (n == len && !memcmp(p, word, len))
            return i;
        if (!p[n])
            return -1;
        p += n + 1;
    }
}

static bool set_knob(struct us_config *cfg, const struct us_knob_info *k,
                     unsigned idx, const char *val, struct us_diag *diag)
{
    while (*val == ' ' || *val == '\t')
        val++;
    size_t len = strcspn(val, " \t\r\n");
    if (val[len] != '\0' && val[len + strspn(val + len, " \t\r\n")] != '\0')
        return fail(diag, "%s: bad value '%s'", k->name, val);
    switch (k->type) {
    case US_KNOB_BOOL: {
        static const char *const yes[] = { "1", "true", "on", "yes" };
        static const char *const no[] = { "0", "false", "off", "no" };
        for (unsigned i = 0; i < 4; i++) {
            if (strlen(yes[i]) == len && !strncmp(val, yes[i], len)) {
                cfg->v[idx] = 1;
                return true;
            }
            if (strlen(no[i]) == len && !strncmp(val, no[i], len)) {
                cfg->v[idx] = 0;
                return true;
            }
        }
        return fail(diag, "%s: want 0 or 1, not '%s'", k->name, val);
    }
    case US_KNOB_ENUM: {
        int c = choice_index(k->choices, val, len);
        if (c < 0) {
            if (diag) {
                diag->line = diag->col = 0;
                snprintf(diag->msg, sizeof diag->msg,
                         "%s: want one of %s, not '%.*s'", k->name,
                         k->choices, (int)len, val);
            }
            return false;
        }
        cfg->v[idx] = c;
        return true;
    }
    case US_KNOB_INT: {
        char *end;
        errno = 0;
        long v = strtol(val, &end, 10);
        if (end == val || end != val + len || errno)
            return fail(diag, "%s: bad number '%s'", k->name, val);
        if (v < k->lo || v > k->hi) {
            if (diag) {
                diag->line = diag->col = 0;
                snprintf(diag->msg, sizeof diag->msg,
                         "%s: %ld out of range (%d..%d)", k->name, v, k->lo,
                         k->hi);
            }
            return false;
        }
        cfg->v[idx] = (int)v;
        return true;
    }
    }
    return false;
}

/* SFU key `key` (length klen) = `val`, as us_sfu_config_set's
 * "key=value". */
static bool set_sfu(struct us_config *cfg, const char *key, size_t klen,
                    const char *val, struct us_diag *diag)
{
    size_t vlen = strlen(val);
    char *kv = malloc(klen + vlen + 2);
    if (!kv)
        return fail(diag, "out of memory%s%s", "", "");
    memcpy(kv, key, klen);
    kv[klen] = '=';
    memcpy(kv + klen + 1, val, vlen + 1);
    bool ok = us_sfu_config_set(&cfg->sfu, kv, diag);
    free(kv);
    return ok;
}

/* Set knob `key` (length klen) to `val`. */
static bool set_kv(struct us_config *cfg, const char *key, size_t klen,
                   const char *val, struct us_diag *diag)
{
    if (klen > 4 && !memcmp(key, "sfu.", 4))
        return set_sfu(cfg, key + 4, klen - 4, val, diag);
    for (unsigned i = 0; i < US_KNOB_COUNT; i++)
        if (strlen(us_knobs[i].name) == klen &&
            !memcmp(us_knobs[i].name, key, klen))
            return set_knob(cfg, &us_knobs[i], i, val, diag);
    if (diag) {
        /* an SFU key without its prefix ("rcp.k"): say how to spell it,
         * rather than accept a second spelling whose bare forms (k,
         * degree, banks, w0) would share the knobs' name space */
        struct us_config probe;
        struct us_diag d;
        us_sfu_config_default(&probe.sfu);
        bool sfu_key = set_sfu(&probe, key, klen, val, &d) ||
                       strncmp(d.msg, "unknown SFU", 11);
        diag->line = diag->col = 0;
        if (sfu_key)
            snprintf(diag->msg, sizeof diag->msg,
                     "unknown knob '%.*s' (an SFU key is sfu.%.*s; "
                     "ushader sfu --help)", (int)klen, key, (int)klen, key);
        else
            snprintf(diag->msg, sizeof diag->msg,
                     "unknown knob '%.*s' (ushader config --list)",
                     (int)klen, key);
    }
    return false;
}

void us_config_env(const struct us_config *cfg, struct us_exec_env *env)
{
    env->max_insts = (uint32_t)cfg->v[US_KNOB_max_instructions];
}

bool us_config_set(struct us_config *cfg, const char *kv,
                   struct us_diag *diag)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return fail(diag, "want key=value, not '%s'%s", kv, "");
    return set_kv(cfg, kv, (size_t)(eq - kv), eq + 1, diag);
}

struct load_ctx {
    struct us_config *cfg;
    struct us_diag *diag;
    bool failed;
};

/* inih handler: nonzero to go on; the first error is kept. */
static int on_entry(void *user, const char *section, const char *name,
                    const char *value)
{
    struct load_ctx *c = user;
    if (c->failed)
        return 0;
    bool ok;
    if (!strcmp(section, "core")) {
        ok = set_kv(c->cfg, name, strlen(name), value, c->diag);
    } else if (!strcmp(section, "sfu")) {
        ok = set_sfu(c->cfg, name, strlen(name), value, c->diag);
    } else {
        ok = fail(c->diag, "unknown section [%s] (want [core] or [sfu])%s",
                  section, "");
    }
    c->failed = !ok;
    return ok;
}

/* Longest line inih reads whole: INI_MAX_LINE - 1 bytes with its '\n'. */
enum { MAX_LINE = INI_MAX_LINE - 2 };

/* Every line fits inih's buffer and no NUL cuts the text short. */
static bool check_lines(const char *text, size_t len, struct us_diag *diag)
{
    unsigned line = 1;
    for (size_t at = 0; at < len; line++) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - text) - at : len - at;
        const char *nul = memchr(text + at, '\0', n);
        if (nul || n > MAX_LINE) {
            if (diag) {
                diag->line = line;
                diag->col = 0;
                if (nul)
                    snprintf(diag->msg, sizeof diag->msg,
                             "NUL byte in the file");
                else
                    snprintf(diag->msg, sizeof diag->msg,
                             "line longer than %d bytes (the INI parser's "
                             "limit)", MAX_LINE);
            }
            return false;
        }
        at += n + 1;
    }
    return true;
}

bool us_config_load(struct us_config *cfg, const char *text, size_t len,
                    struct us_diag *diag)
{
    struct load_ctx c = { cfg, diag, false };
    if (diag)
        diag->msg[0] = '\0';
    if (!check_lines(text, len, diag))
        return false;
    int line = ini_parse_string(text, on_entry, &c);
    if (line == 0)
        return true;
    if (diag) {
        if (line > 0) {
            diag->line = (unsigned)line;
            diag->col = 0;
            if (!c.failed)
                snprintf(diag->msg, sizeof diag->msg,
                         "syntax error (want [section] or key = value)");
        } else {
            diag->line = diag->col = 0;
            snprintf(diag->msg, sizeof diag->msg, "out of memory");
        }
    }
    return false;
}

void us_knob_format(const struct us_knob_info *k, int v, char *buf,
                    size_t size)
{
    if (k->type == US_KNOB_ENUM) {
        const char *p = k->choices;
        for (int i = 0; i < v && strchr(p, '|'); i++)
            p = strchr(p, '|') + 1;
        snprintf(buf, size, "%.*s", (int)strcspn(p, "|"), p);
    } else {
        snprintf(buf, size, "%d", v);
    }
}

void us_config_write(FILE *f, const struct us_config *cfg)
{
    fprintf(f, "[core]\n");
    for (unsigned i = 0; i < US_KNOB_COUNT; i++) {
        char val[64];
        us_knob_format(&us_knobs[i], cfg->v[i], val, sizeof val);
        fprintf(f, "%s = %s\n", us_knobs[i].name, val);
    }
    const struct us_sfu_config *s = &cfg->sfu;
    fprintf(f, "[sfu]\n");
    for (unsigned t = 0; t < US_SFU_NTABLES; t++)
        fprintf(f, "%s.k = %u\n%s.degree = %u\n", us_sfu_table_name(t),
                (unsigned)s->k[t], us_sfu_table_name(t),
                (unsigned)s->degree[t]);
    for (unsigned i = 0; i <= US_SFU_MAX_DEGREE; i++)
        fprintf(f, "w%u = %u\n", i, (unsigned)s->width[i]);
    fprintf(f, "banks = %u\n", (unsigned)s->banks);
}
