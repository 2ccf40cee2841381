/* Whole-file reads for the scene loader (programs, OBJ, PNG).  Only
 * regular files: the file is opened without blocking (a FIFO without a
 * writer would block open(2) for ever) and refused unless fstat says it is
 * a regular file; then it reads as usual. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gfx/gfx.h"

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "is a directory"
         : S_ISFIFO(m) ? "not a regular file (a FIFO)"
         : S_ISSOCK(m) ? "not a regular file (a socket)"
         : S_ISCHR(m) ? "not a regular file (a character device)"
         : S_ISBLK(m) ? "not a regular file (a block device)"
                      : "not a regular file";
}

int gfx_open_regular(const char *path, size_t *size, struct us_diag *diag)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        gfx_fail(diag, 0, 0, "cannot open: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    int flags;
    if (fstat(fd, &st) != 0) {
        gfx_fail(diag, 0, 0, "cannot stat: %s", strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        gfx_fail(diag, 0, 0, "%s", kind_of(st.st_mode));
    } else if ((flags = fcntl(fd, F_GETFL)) < 0 ||
               fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        gfx_fail(diag, 0, 0, "cannot read: %s", strerror(errno));
    } else {
        *size = st.st_size > 0 ? (size_t)st.st_size : 0;
        return fd;
    }
    close(fd);
    return -1;
}

bool gfx_read_file_charged(const char *path, size_t max,
                           struct gfx_budget *budget, char **data,
                           size_t *len, struct us_diag *diag)
{
    size_t fsize;
    int fd = gfx_open_regular(path, &fsize, diag);
    if (fd < 0)
        return gfx_fail_path(diag, path, "%s", diag->msg);
    if (fsize > max) {
        close(fd);
        return gfx_fail_path(diag, path, "larger than the %zu MiB limit",
                             max >> 20);
    }
    /* buf: `size` bytes, allocated and charged, holding n < size bytes
     * (room for the NUL).  The first size is fstat's and two bytes, so a
     * file that did not change is read to its end without growing it; one
     * that grew meanwhile grows the buffer, each step charged first. */
    size_t size = 0, n = 0;
    char *buf = NULL;
    bool ok = true;
    while (ok) {
        if (n + 1 == size || !buf) {
            size_t want = buf ? 2 * size : fsize + 2;
            if (want > max + 2)
                want = max + 2;
            if (!gfx_budget_take(budget, want - size, 1, "reading it", diag)) {
                ok = gfx_fail_path(diag, path, "%s", diag->msg);
                break;
            }
            char *p = gfx_huge_realloc(buf, n, want);
            if (!p) {
                gfx_budget_give(budget, want - size);
                ok = gfx_fail_path(diag, path, "out of memory");
                break;
            }
            buf = p;
            size = want;
        }
        ssize_t got = read(fd, buf + n, size - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            ok = gfx_fail_path(diag, path, "read error: %s", strerror(errno));
        else if (got == 0)
            break;
        else if ((n += (size_t)got) > max)
            ok = gfx_fail_path(diag, path, "larger than the %zu MiB limit",
                               max >> 20);
    }
    close(fd);
    if (!ok) {
        free(buf);
        gfx_budget_give(budget, size);
        return false;
    }
    /* keep n + 1 bytes, charged */
    gfx_budget_give(budget, size - (n + 1));
    char *p = realloc(buf, n + 1);
    if (p)
        buf = p;
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return true;
}

bool gfx_read_file(const char *path, size_t max, char **data, size_t *len,
                   struct us_diag *diag)
{
    return gfx_read_file_charged(path, max, NULL, data, len, diag);
}
