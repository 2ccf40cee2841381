/* File input, atomic output, standard output's errors and JSON strings
 * for the command-line tool. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gfx/gfx.h"
#include "suite/provenance.h"
#include "glsl/cleanup.h"
#include "suite/provenance.h"

static void verror(FILE *f, const char *file, unsigned line, unsigned col,
                   const char *fmt, va_list ap)
{
    fputs("ushader: ", f);
    if (file) {
        fprintf(f, "%s:", file);
        if (line)
            fprintf(f, "%u:", line);
        if (line && col)
            fprintf(f, "%u:", col);
        fputc(' ', f);
    }
    fputs("error: ", f);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
}

void cli_error(const char *file, unsigned line, unsigned col,
               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(stderr, file, line, col, fmt, ap);
    va_end(ap);
}

void cli_error_to(FILE *f, const char *file, unsigned line, unsigned col,
                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(f, file, line, col, fmt, ap);
    va_end(ap);
}

bool cli_read_file(const char *path, char **text, size_t *len)
{
    bool is_stdin = !strcmp(path, "-");
    FILE *f = stdin;
    if (!is_stdin) {
        /* regular files only: a FIFO would block, a directory cannot be
         * read (gfx_open_regular) */
        struct us_diag d;
        size_t size;
        int fd = gfx_open_regular(path, &size, &d);
        if (fd < 0) {
            cli_error(path, 0, 0, "%s", d.msg);
            return false;
        }
        if (size > CLI_MAX_INPUT) {
            close(fd);
            cli_error(path, 0, 0, "file is larger than the %d MiB limit",
                      CLI_MAX_INPUT >> 20);
            return false;
        }
        if (!(f = fdopen(fd, "rb"))) {
            cli_error(path, 0, 0, "cannot open: %s", strerror(errno));
            close(fd);
            return false;
        }
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    bool ok = buf != NULL;
    while (ok) {
        if (n == cap) {
            if (cap >= CLI_MAX_INPUT) {
                cli_error(path, 0, 0, "file is larger than the %d MiB limit",
                          CLI_MAX_INPUT >> 20);
                ok = false;
                break;
            }
            cap *= 2;
            char *p = realloc(buf, cap + 1);
            if (!p) {
                ok = false;
                break;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                cli_error(path, 0, 0, "read error: %s", strerror(errno));
                ok = false;
            }
            break;
        }
    }
    if (!is_stdin)
        fclose(f);
    if (!ok) {
        if (!buf)
            cli_error(path, 0, 0, "out of memory");
        free(buf);
        return false;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return true;
}

bool cli_load_config(const char *path, struct us_config *cfg)
{
    char *text;
    size_t len;
    struct us_diag diag;
    if (!cli_read_file(path, &text, &len))
        return false;
    bool ok = us_config_load(cfg, text, len, &diag);
    free(text);
    if (!ok)
        cli_error(path, diag.line, 0, "%s", diag.msg);
    return ok;
}

/* ---- Output files ------------------------------------------------------ */

static bool write_fd(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        len -= (size_t)k;
    }
    return true;
}

/* A character device (/dev/null, a terminal) or a FIFO is written
 * through, as a shell redirection would; so is a regular file reached
 * through a link that does not name it (/dev/stdout on a file). */
static bool write_through(const char *path, const void *data, size_t len,
                          bool truncate)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | (truncate ? O_TRUNC : 0));
    if (fd < 0) {
        cli_error(path, 0, 0, "cannot open: %s", strerror(errno));
        return false;
    }
    bool ok = write_fd(fd, data, len);
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok)
        cli_error(path, 0, 0, "cannot write: %s", strerror(e));
    return ok;
}

/* The name a chain of symbolic links ends at (the path itself when it is
 * not a link; possibly a name that does not exist yet), malloc'd. */
static char *link_target(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur;
        if (hops == 40) {
            errno = ELOOP;
            break;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link);
        if (n < 0)
            break;
        if ((size_t)n == sizeof link) {
            errno = ENAMETOOLONG;
            break;
        }
        link[n] = '\0';
        /* A relative link is relative to the link's directory. */
        const char *slash = strrchr(cur, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dir);
            memcpy(next + dir, link, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    free(cur);
    return NULL;
}

/* A temporary file NAME.tmpXXXXXX beside `path` (not a link), NAME cut so
 * the whole stays within NAME_MAX, with the mode open(2) would give
 * `path`: its descriptor (-1 after an error), *tmp its malloc'd name and
 * *slot its cleanup registration (glsl/cleanup.h). */
static int temp_create(const char *shown, const char *path, char **tmp,
                       int *slot)
{
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    size_t base = strlen(path) - dir;
    enum { SUFFIX = sizeof ".tmpXXXXXX" - 1 };
    if (base > NAME_MAX - SUFFIX)
        base = NAME_MAX - SUFFIX;
    *tmp = malloc(dir + base + SUFFIX + 1);
    if (!*tmp) {
        cli_error(shown, 0, 0, "out of memory");
        return -1;
    }
    memcpy(*tmp, path, dir + base);
    memcpy(*tmp + dir + base, ".tmpXXXXXX", SUFFIX + 1);
    int fd = us_cleanup_mkstemp(*tmp, slot);
    if (fd < 0) {
        cli_error(shown, 0, 0, "cannot create: %s", strerror(errno));
        free(*tmp);
        *tmp = NULL;
        return -1;
    }
    /* mkstemp makes the file 0600; give it the mode open(2) would. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        cli_error(shown, 0, 0, "cannot write: %s", strerror(errno));
        close(fd);
        unlink(*tmp);
        us_cleanup_drop(*slot);
        free(*tmp);
        *tmp = NULL;
        return -1;
    }
    return fd;
}

/* The temporary file written (ok: its descriptor closed, or an error in
 * errno `e`): renamed over `path`, or removed after an error. */
static bool temp_finish(const char *shown, const char *path, char *tmp,
                        int slot, bool ok, int e)
{
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        cli_error(shown, 0, 0, "cannot write: %s", strerror(e));
        unlink(tmp);
    }
    us_cleanup_drop(slot);
    free(tmp);
    return ok;
}

/* Write `path` (not a link) through a temporary file in its directory
 * and rename(2). */
static bool replace_file(const char *shown, const char *path,
                         const void *data, size_t len)
{
    char *tmp;
    int slot;
    int fd = temp_create(shown, path, &tmp, &slot);
    if (fd < 0)
        return false;
    bool ok = write_fd(fd, data, len);
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    return temp_finish(shown, path, tmp, slot, ok, e);
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISBLK(m) ? "a block device"
         : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

bool cli_write_file(const char *path, const void *data, size_t len)
{
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT) {
        cli_error(path, 0, 0, "cannot write: %s", strerror(errno));
        return false;
    }
    if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
        return write_through(path, data, len, false);
    if (exists && !S_ISREG(st.st_mode)) {
        cli_error(path, 0, 0, "cannot write: is %s", file_kind(st.st_mode));
        return false;
    }
    char *target = link_target(path);
    if (!target) {
        cli_error(path, 0, 0, "cannot write: %s", strerror(errno));
        return false;
    }
    /* A link whose text does not lead to the file (/proc/self/fd/N, a
     * file that was deleted) is written through instead. */
    struct stat tst;
    bool ok;
    if (exists && (lstat(target, &tst) != 0 || tst.st_dev != st.st_dev ||
                   tst.st_ino != st.st_ino))
        ok = write_through(path, data, len, true);
    else
        ok = replace_file(path, target, data, len);
    free(target);
    return ok;
}

/* The stream form of cli_write_file: the same choice of how `path` is
 * written, then a FILE the caller writes to. */
bool cli_out_open(struct cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->shown = path;
    o->slot = -1;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (!exists && errno != ENOENT) {
        cli_error(path, 0, 0, "cannot write: %s", strerror(errno));
        return false;
    }
    bool through = exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
    if (exists && !through && !S_ISREG(st.st_mode)) {
        cli_error(path, 0, 0, "cannot write: is %s", file_kind(st.st_mode));
        return false;
    }
    int fd = -1;
    bool truncate = false;
    if (!through) {
        if (!(o->target = link_target(path))) {
            cli_error(path, 0, 0, "cannot write: %s", strerror(errno));
            return false;
        }
        struct stat tst;
        if (exists && (lstat(o->target, &tst) != 0 ||
                       tst.st_dev != st.st_dev || tst.st_ino != st.st_ino)) {
            through = truncate = true;   /* as cli_write_file */
            free(o->target);
            o->target = NULL;
        } else if ((fd = temp_create(path, o->target, &o->tmp,
                                     &o->slot)) < 0) {
            free(o->target);
            o->target = NULL;
            return false;
        }
    }
    if (through &&
        (fd = open(path, O_WRONLY | O_NOCTTY | (truncate ? O_TRUNC : 0))) < 0) {
        cli_error(path, 0, 0, "cannot open: %s", strerror(errno));
        return false;
    }
    if (!(o->f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        if (o->tmp)
            (void)temp_finish(path, o->target, o->tmp, o->slot, false, e);
        else
            cli_error(path, 0, 0, "cannot write: %s", strerror(e));
        free(o->target);
        o->target = o->tmp = NULL;
        return false;
    }
    return true;
}

bool cli_out_close(struct cli_out *o, bool keep)
{
    if (!o->f)
        return false;
    bool ok = !ferror(o->f);
    int e = ok ? 0 : EIO;
    if (fclose(o->f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    o->f = NULL;
    if (o->tmp) {
        if (keep)
            ok = temp_finish(o->shown, o->target, o->tmp, o->slot, ok, e);
        else {   /* the run failed: the old file, if any, stays */
            unlink(o->tmp);
            us_cleanup_drop(o->slot);
            free(o->tmp);
            ok = false;
        }
    } else if (!ok && keep) {
        cli_error(o->shown, 0, 0, "cannot write: %s", strerror(e));
    }
    free(o->target);
    o->target = o->tmp = NULL;
    return ok && keep;
}

bool cli_check_output(const char *out, const char *const *inputs, size_t n)
{
    struct stat so;
    if (!out || stat(out, &so) != 0 || !S_ISREG(so.st_mode))
        return true;
    for (size_t i = 0; i < n; i++) {
        struct stat si;
        if (!inputs[i])
            continue;
        bool is_stdin = !strcmp(inputs[i], "-");
        if ((is_stdin ? fstat(0, &si) : stat(inputs[i], &si)) == 0 &&
            si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
            if (is_stdin)
                cli_error(out, 0, 0, "is also the input (standard input); "
                          "not replacing it");
            else
                cli_error(out, 0, 0, "is also the input file %s; not "
                          "replacing it", inputs[i]);
            return false;
        }
    }
    return true;
}

/* ---- Standard output and JSON --------------------------------------------- */

bool cli_flush_stdout(void)
{
    int before = errno;
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return true;
    /* When an earlier implicit flush failed, this one may have had nothing
     * left to write: the reason is then the errno the caller saw. */
    int e = errno ? errno : before ? before : EIO;
    cli_error(NULL, 0, 0, "writing standard output: %s", strerror(e));
    clearerr(stdout);
    return false;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned c = *p;
        size_t n;
        if (c == '"' || c == '\\') {
            fprintf(f, "\\%c", c);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
        } else if (c < 0x80) {
            fputc((int)c, f);
        } else if ((n = us_utf8_len(p)) > 0) {
            fwrite(p, 1, n, f);
            p += n;
            continue;
        } else {
            fputs("\\ufffd", f);   /* a byte JSON text cannot carry */
        }
        p++;
    }
    fputc('"', f);
}

bool cli_assemble_file(const char *path, int stage, struct us_program *prog)
{
    char *text;
    size_t len;
    if (!cli_read_file(path, &text, &len))
        return false;
    struct us_diag d;
    bool ok = us_assemble(text, len, stage, prog, &d);
    if (!ok)
        cli_error(path, d.line, d.col, "%s", d.msg);
    free(text);
    return ok;
}

void cli_json_head(int argc, char **argv, const char *const *inputs,
                   size_t n, const char *math, const struct us_config *cfg)
{
    struct us_prov *p = calloc(1, sizeof *p);
    char *m = NULL;
    if (p && us_prov_init(p, argc, argv)) {
        p->math = math;
        p->cfg = cfg;
        for (size_t i = 0; i < n; i++)
            us_prov_add_file(p, inputs[i]);
        m = us_prov_json_members(p);
        us_prov_free(p);
    }
    free(p);
    if (m)
        printf("%s,\n", m);
    else   /* out of memory: the version at least */
        printf("\"schema_version\": %d,\n", US_JSON_SCHEMA_VERSION);
    free(m);
}
