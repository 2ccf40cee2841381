/*
 * A scene with one of its programs replaced (gfx_scene_load_slot in
 * gfx/gfx.h): the benchmark suite's captures (suite/load.c) and `ushader
 * run --inputs-from` render a scene with the program under study in
 * place of the one a `program SLOT FILE` line names.
 *
 * The replacement is made in the scene's text, not in a loaded scene, so
 * the program is parsed where the scene declares it: the `uniform`
 * directives after it and its GLSL initializers (us_load_initial_locals)
 * apply to it as they would to the original.
 */
#define _XOPEN_SOURCE 700  /* realpath: glibc declares it for X/Open only */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

/* Blanks separate the scene parser's words; '#' ends one and starts a
 * comment. */
static bool word_end(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '#' ||
           c == '\0';
}

/* The next word in [*p, end): its start, its length in *n (0: none). */
static const char *next_word(const char **p, const char *end, size_t *n)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    const char *e = s;
    while (e < end && !word_end(*e))
        e++;
    *p = e;
    *n = (size_t)(e - s);
    return s;
}

/* Is the line [line, end) the directive `program SLOT ...`? */
static bool names_slot(const char *line, const char *end, const char *slot)
{
    size_t n;
    const char *w = next_word(&line, end, &n);
    if (n != 7 || memcmp(w, "program", 7))
        return false;
    w = next_word(&line, end, &n);
    return n == strlen(slot) && !memcmp(w, slot, n);
}

/* The scene text (len bytes) with `program SLOT FILE` pointing at `abs`
 * instead; the length in *out_len. */
static char *substitute(const char *text, size_t len, const char *slot,
                        const char *abs, bool *found, size_t *out_len)
{
    /* the new line: "program " SLOT ' ' ABS '\n' */
    size_t cap = len + strlen(slot) + strlen(abs) + 16;
    char *out = malloc(cap + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    *found = false;
    for (const char *line = text, *end = text + len; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line + 1) : (size_t)(end - line);
        if (!*found && names_slot(line, line + n, slot)) {
            o += (size_t)snprintf(out + o, cap + 1 - o, "program %s %s\n",
                                  slot, abs);
            *found = true;
        } else {
            memcpy(out + o, line, n);
            o += n;
        }
        line += n;
    }
    out[o] = '\0';
    *out_len = o;
    return out;
}

/* `path` with its directory made absolute and canonical (realpath); the
 * file name stays, so a symbolic link to a scene still finds the scene's
 * files from the link's directory.  NULL with errno on failure. */
static char *canonical_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dn = slash ? (size_t)(slash - path) + 1 : 0;
    char *dir = malloc(dn + 2);
    if (!dir)
        return NULL;
    memcpy(dir, dn ? path : ".", dn ? dn : 1);
    dir[dn ? dn : 1] = '\0';
    char *real = realpath(dir, NULL);
    free(dir);
    if (!real)
        return NULL;
    const char *base = slash ? slash + 1 : path;
    size_t rn = strlen(real), bn = strlen(base);
    char *out = malloc(rn + bn + 2);
    if (out) {
        memcpy(out, real, rn);
        out[rn] = '/';
        memcpy(out + rn + 1, base, bn + 1);
    }
    free(real);
    return out;
}

static bool fail(enum gfx_slot_error *where, enum gfx_slot_error w,
                 struct us_diag *diag, const char *fmt, const char *arg)
{
    *where = w;
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, fmt, arg);
    return false;
}

bool gfx_scene_load_slot(struct gfx_scene **out, const char *scene,
                         const char *slot, const char *prog, size_t max_bytes,
                         enum gfx_slot_error *where, struct us_diag *diag)
{
    /* by its absolute path: the scene resolves relative names against its
     * own directory */
    char *abs = realpath(prog, NULL);
    if (!abs)
        return fail(where, GFX_SLOT_ERR_PROGRAM, diag,
                    "cannot resolve the path: %s", strerror(errno));
    if (abs[strcspn(abs, " \t\r\n#")]) {
        free(abs);
        return fail(where, GFX_SLOT_ERR_PROGRAM, diag, "the absolute path "
                    "has a blank or '#', which a scene cannot name%s", "");
    }
    char *text = NULL;
    size_t len;
    if (!gfx_read_file(scene, max_bytes, &text, &len, diag)) {
        free(abs);
        /* the message without the "PATH: " it starts with: the caller
         * puts the path in front */
        size_t n = strlen(scene);
        if (!strncmp(diag->msg, scene, n) && diag->msg[n] == ':' &&
            diag->msg[n + 1] == ' ')
            memmove(diag->msg, diag->msg + n + 2,
                    strlen(diag->msg + n + 2) + 1);
        *where = GFX_SLOT_ERR_SCENE;
        return false;
    }
    bool found = false;
    size_t sub_len;
    char *sub = substitute(text, len, slot, abs, &found, &sub_len);
    free(text);
    free(abs);
    if (!sub)
        return fail(where, GFX_SLOT_ERR_SCENE, diag, "out of memory%s", "");
    if (!found) {
        free(sub);
        *where = GFX_SLOT_ERR_NO_SLOT;
        diag->line = diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "%s has no program named '%s'",
                 scene, slot);
        return false;
    }
    /* the directory short and absolute, so the scene's own files are
     * found however long the caller's spelling of it */
    char *dir = canonical_dir(scene);
    if (!dir) {
        free(sub);
        return fail(where, GFX_SLOT_ERR_SCENE, diag,
                    "cannot resolve the directory: %s", strerror(errno));
    }
    bool ok = gfx_scene_load(out, dir, sub, sub_len, diag);
    free(dir);
    free(sub);
    *where = GFX_SLOT_ERR_SCENE;
    return ok;
}
