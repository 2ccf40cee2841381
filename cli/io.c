/* File input and atomic output for the command-line tool. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "gfx/gfx.h"

void cli_error(const char *file, unsigned line, unsigned col,
               const char *fmt, ...)
{
    fputs("ushader: ", stderr);
    if (file) {
        fprintf(stderr, "%s:", file);
        if (line)
            fprintf(stderr, "%u:", line);
        if (line && col)
            fprintf(stderr, "%u:", col);
        fputc(' ', stderr);
    }
    fputs("error: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
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

bool cli_write_file(const char *path, const void *data, size_t len)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        cli_error(path, 0, 0, "out of memory");
        return false;
    }
    snprintf(tmp, plen + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cli_error(path, 0, 0, "cannot create: %s", strerror(errno));
        free(tmp);
        return false;
    }
    /* mkstemp makes the file 0600; give it the mode open(2) would. */
    mode_t mask = umask(0);
    umask(mask);
    FILE *f = fchmod(fd, 0666 & ~mask) == 0 ? fdopen(fd, "wb") : NULL;
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f)
        ok = (fclose(f) == 0) && ok;
    else
        close(fd);
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        cli_error(path, 0, 0, "cannot write: %s", strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return ok;
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
