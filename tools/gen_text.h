/* What the shader-corpus generators (tools/glmark2_gen.c,
 * tools/minetest_gen.c) share: a growable string, whole-file reads and
 * atomic writes, the catalogues' word splitting, and dying with the
 * tool's name.  Define GEN_NAME ("glmark2_gen") and MAX_FILE (the largest
 * file read) before including it. */
#ifndef GEN_TEXT_H
#define GEN_TEXT_H

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable string. */
struct str {
    char *p;
    size_t n, cap;
};

static inline void die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
static inline void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs(GEN_NAME ": ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static inline void put(struct str *s, const char *t, size_t n)
{
    if (s->n + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (s->n + n + 1 > cap)
            cap *= 2;
        char *p = realloc(s->p, cap);
        if (!p)
            die("out of memory");
        s->p = p;
        s->cap = cap;
    }
    memcpy(s->p + s->n, t, n);
    s->n += n;
    s->p[s->n] = 0;
}

static inline void puts_(struct str *s, const char *t)
{
    put(s, t, strlen(t));
}

static inline void putf(struct str *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void putf(struct str *s, const char *fmt, ...)
{
    char tmp[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp)
        die("text too long");
    put(s, tmp, (size_t)n);
}

/* The whole file, NUL-terminated (malloc'd), at most MAX_FILE bytes. */
static inline char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open %s: %s", path, strerror(errno));
    struct str s = { 0 };
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        put(&s, buf, n);
        if (s.n > MAX_FILE)
            die("%s: larger than %d bytes", path, MAX_FILE);
    }
    bool err = ferror(f);
    fclose(f);
    if (err)
        die("cannot read %s", path);
    if (!s.p)
        put(&s, "", 0);
    return s.p;
}

/* PATH written through PATH.tmp and a rename, so a reader never sees a
 * partial file. */
static inline void write_file(const char *path, const char *text)
{
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        die("cannot write %s: %s", tmp, strerror(errno));
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        die("cannot write %s", path);
    }
}

/* A catalogue line without its comment (`#` at its start or after a
 * blank) and trailing blanks, in place. */
static inline void strip_comment(char *p)
{
    char *hash = strchr(p, '#');
    if (hash && (hash == p || isspace((unsigned char)hash[-1])))
        *hash = 0;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        p[--n] = 0;
}

/* The next blank-separated word of *s (NUL-terminated in place), or NULL. */
static inline char *next_word(char **s)
{
    while (**s == ' ' || **s == '\t')
        (*s)++;
    if (!**s)
        return NULL;
    char *w = *s;
    while (**s && **s != ' ' && **s != '\t')
        (*s)++;
    if (**s)
        *(*s)++ = 0;
    return w;
}

/* The rest of the line, leading blanks skipped. */
static inline char *rest(char **s)
{
    while (**s == ' ' || **s == '\t')
        (*s)++;
    return *s;
}

#endif
