/* Diagnostics for the graphics code. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gfx/gfx.h"

bool gfx_fail(struct us_diag *diag, unsigned line, unsigned col,
              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag->line = line;
    diag->col = col;
    vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
    va_end(ap);
    return false;
}

const char *gfx_show_path(char buf[GFX_SHOWN_PATH], const char *path,
                          size_t max)
{
    if (max >= GFX_SHOWN_PATH)
        max = GFX_SHOWN_PATH - 1;
    if (max < 8)
        max = 8;
    size_t n = strlen(path);
    if (n <= max)
        return path;
    /* the tail: the file's name is the end of the path */
    const char *tail = path + n - (max - 3);
    while ((*tail & 0xC0) == 0x80)  /* not inside a UTF-8 sequence */
        tail++;
    snprintf(buf, GFX_SHOWN_PATH, "...%s", tail);
    return buf;
}

bool gfx_fail_path(struct us_diag *diag, const char *path, const char *fmt,
                   ...)
{
    char reason[sizeof diag->msg], shown[GFX_SHOWN_PATH];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    size_t room = sizeof diag->msg - 1 - strlen(reason) - 2;  /* ": " */
    return gfx_fail(diag, 0, 0, "%s: %s",
                    gfx_show_path(shown, path,
                                  room < sizeof diag->msg ? room : 0),
                    reason);
}
