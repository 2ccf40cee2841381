/* Whole-file reads for the scene loader (programs, OBJ, PNG). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"

bool gfx_read_file(const char *path, size_t max, char **data, size_t *len,
                   struct us_diag *diag)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return gfx_fail(diag, 0, 0, "%s: cannot open: %s", path,
                        strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (;;) {
        if (n == cap) {
            if (cap >= max) {
                ok = gfx_fail(diag, 0, 0, "%s: larger than the %zu MiB limit",
                              path, max >> 20);
                break;
            }
            cap = cap ? 2 * cap : 65536;
            if (cap > max)
                cap = max;
            char *p = realloc(buf, cap + 1);
            if (!p) {
                ok = gfx_fail(diag, 0, 0, "%s: out of memory", path);
                break;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                ok = gfx_fail(diag, 0, 0, "%s: read error", path);
            break;
        }
    }
    fclose(f);
    if (!ok) {
        free(buf);
        return false;
    }
    if (!buf && !(buf = malloc(1)))
        return gfx_fail(diag, 0, 0, "%s: out of memory", path);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return true;
}
