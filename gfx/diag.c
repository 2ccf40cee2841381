/* Diagnostics for the graphics code. */
#include <stdarg.h>
#include <stdio.h>

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
