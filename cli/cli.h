/* Shared pieces of the ushader command-line tool. */
#ifndef CLI_H
#define CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "ushader.h"

#define CMD(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef CMD

enum { CLI_MAX_INPUT = 16 << 20 };  /* largest text file the tool reads */

/* "ushader: FILE:LINE:COL: error: MSG" (position parts omitted when 0). */
void cli_error(const char *file, unsigned line, unsigned col,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Read a whole file (at most CLI_MAX_INPUT bytes) into a NUL-terminated
 * malloc'd buffer; reports its own errors.  "-" reads stdin. */
US_MUST_CHECK bool cli_read_file(const char *path, char **text, size_t *len);

/* Write `len` bytes to `path` through a temporary file and rename(2), so a
 * failure never leaves a partial file; reports its own errors. */
US_MUST_CHECK bool cli_write_file(const char *path, const void *data,
                                  size_t len);

/* Assemble a file, reporting errors as file:line:col. */
US_MUST_CHECK bool cli_assemble_file(const char *path, int stage,
                                     struct us_program *prog);

/* An ARB program or a GLSL shader (cli/cmd_glsl.c; us_program_from_text),
 * reporting errors as file:line:col. */
US_MUST_CHECK bool cli_load_program(const char *path, int stage,
                                    struct us_program *prog);

#endif
