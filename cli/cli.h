/* Shared pieces of the ushader command-line tool. */
#ifndef CLI_H
#define CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#include "ushader.h"
#include "shader/core.h"

#define CMD(name, fn, summary) int fn(int argc, char **argv);
#include "commands.def"
#undef CMD

enum { CLI_MAX_INPUT = 16 << 20 };  /* largest text file the tool reads */

/* "ushader: FILE:LINE:COL: error: MSG" (position parts omitted when 0). */
void cli_error(const char *file, unsigned line, unsigned col,
               const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same message into `f` (a worker's buffer, printed in order later). */
void cli_error_to(FILE *f, const char *file, unsigned line, unsigned col,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* mkdir -p; false with errno.  The whole path is tried first, so one the
 * system refuses (too long) leaves no parent directories behind. */
US_MUST_CHECK bool cli_make_dirs(const char *path);

/* Read a whole file (at most CLI_MAX_INPUT bytes) into a NUL-terminated
 * malloc'd buffer; reports its own errors.  "-" reads stdin. */
US_MUST_CHECK bool cli_read_file(const char *path, char **text, size_t *len);

/* Load the INI file `path` over *cfg (us_config_load); reports its own
 * errors, at the file's line. */
US_MUST_CHECK bool cli_load_config(const char *path, struct us_config *cfg);

/* Write `len` bytes to `path`; reports its own errors.  A regular file
 * (or a new one) is written through a temporary file in its directory and
 * rename(2), so a failure never leaves a partial file; a symbolic link is
 * followed, and its target replaced, never the link.  A character device
 * (/dev/null, /dev/stdout on a terminal) or a FIFO is opened and written
 * directly; anything else (a directory, a block device, a socket) is
 * refused.  An interrupting SIGINT/SIGTERM/SIGHUP removes the temporary
 * file (glsl/cleanup.h). */
US_MUST_CHECK bool cli_write_file(const char *path, const void *data,
                                  size_t len);

/* An output written as a stream, for output too large to build in
 * memory first (a trace): cli_out_open chooses as cli_write_file does --
 * a regular or new file goes to a temporary file beside it, a device or
 * FIFO is written through -- and gives `f`; cli_out_close(o, true)
 * flushes and renames the temporary file over `path`, so a failure (or
 * cli_out_close(o, false), a run that failed) leaves no partial file and
 * the old one as it was.  Both report their own errors; close returns
 * true only when kept and written. */
struct cli_out {
    FILE *f;
    const char *shown;         /* the path as given, for errors          */
    char *target, *tmp;        /* NULL: written through                  */
    int slot;                  /* the temporary file's cleanup entry     */
};
US_MUST_CHECK bool cli_out_open(struct cli_out *o, const char *path);
bool cli_out_close(struct cli_out *o, bool keep);

/* False, with an error, when the output `out` is one of the regular files
 * `inputs` (the same device and inode, whatever the names; "-" is standard
 * input; NULL entries are skipped), so `asm -o p.fp p.fp` cannot replace
 * its own source.  Commands call it before doing their work. */
US_MUST_CHECK bool cli_check_output(const char *out,
                                    const char *const *inputs, size_t n);

/* Flush standard output; on a write error, now or in an earlier implicit
 * flush, print "ushader: error: writing standard output: REASON" and
 * return false.  main() calls it after every command; commands with long
 * output call it where they can stop early. */
US_MUST_CHECK bool cli_flush_stdout(void);

/* `s` as a JSON string: quotes, backslashes and control characters
 * escaped, a byte that is not UTF-8 as U+FFFD. */
void cli_json_string(FILE *f, const char *s);

/* The first members of a command's JSON object (docs/METRICS.md), on
 * stdout after its "{": "schema_version" and "provenance" (the command
 * line argv[0..argc), the files `inputs` (NULL entries skipped), the math
 * and the configuration when not NULL), each followed by ",\n". */
void cli_json_head(int argc, char **argv, const char *const *inputs,
                   size_t n, const char *math, const struct us_config *cfg);

/* Assemble a file, reporting errors as file:line:col. */
US_MUST_CHECK bool cli_assemble_file(const char *path, int stage,
                                     struct us_program *prog);

/* An ARB program or a GLSL shader (cli/cmd_glsl.c; us_program_from_text),
 * reporting errors as file:line:col. */
US_MUST_CHECK bool cli_load_program(const char *path, int stage,
                                    struct us_program *prog);
/* The same with `varying_slots` vec4 varyings (knob varying_slots; 0: 8):
 * a program that needs more is an error. */
US_MUST_CHECK bool cli_load_program_slots(const char *path, int stage,
                                          unsigned varying_slots,
                                          struct us_program *prog);

/* The --isa forms of asm, dis and compute (cli/seed_isa.c): the seeds'
 * own assembly languages (docs/seeds/). */
bool seed_isa_requested(int argc, char **argv);
int seed_cmd_asm(int argc, char **argv);
int seed_cmd_dis(int argc, char **argv);
int seed_cmd_compute(int argc, char **argv);
/* `ushader bench`'s output directory (cli/cmd_bench.c), shared by the
 * shader suite and the compute suite (cli/cmd_bench_compute.c): the
 * writers of results.csv, results.json and report.md, and gnuplot's files
 * (plots.gp writes NAME.tmp for each of plot_names, published by rename). */
struct us_bench_file;
struct cli_bench_out {
    const void *ctx;
    void (*csv)(FILE *f, const void *ctx);
    void (*json)(FILE *f, const void *ctx);
    void (*report)(FILE *f, const void *ctx, bool plots, const char *note);
    bool (*plot_files)(const void *ctx, const char *terminal,
                       struct us_bench_file **files, unsigned *nfiles);
    const char *const *plot_names;
};

/* Write the outputs into `dir` (created), none replacing one of `inputs`
 * (NULL entries skipped); each file atomically.  Reports its own errors. */
US_MUST_CHECK bool cli_bench_write(const char *dir, const char *const inputs[2],
                                   const struct cli_bench_out *o,
                                   bool want_plots);

/* A progress bar on stderr for long phases: on a terminal once a second
 * has passed (a short run stays quiet); with `always` (--progress) from
 * the first update, on a terminal or not. */
struct cli_progress {
    bool tty, always, shown;
    struct timespec start, last;
};
void cli_bench_progress(void *ctx, const char *phase, unsigned done,
                        unsigned total);

/* `ushader bench --suite compute` (cli/cmd_bench_compute.c). */
int cmd_bench_compute(int argc, char **argv);
/* ---- Command-line conventions (cli/options.c) ---------------------------
 * One option table per command (or per sub-form): every argument that
 * starts with '-' (other than "-", standard input) must be in it; an
 * option without `repeat` may be given once; one with `value` takes the
 * next argument whatever it is.  "--" ends the options.  False after
 * "ushader: error: CMD: ..." (the caller exits 2). */
struct cli_opt {
    const char *name;
    bool value, repeat;
    const char *what;     /* "OPT needs WHAT"; NULL: "a value" */
};
US_MUST_CHECK bool cli_check_options(const char *cmd, int argc, char **argv,
                                     int first, const struct cli_opt *opts);
/* The last value of option `name` (in `opts`, with a value), or NULL:
 * --config, read before the --set options that apply over it. */
const char *cli_option_value(int argc, char **argv, int first,
                             const struct cli_opt *opts, const char *name);

/* --arch: "functional" (the reference interpreter, where the command has
 * one: no_functional is NULL; else the reason it has none), one core
 * model, or with CLI_ARCH_MANY a comma list or "all". */
#define CLI_FUNCTIONAL "functional"
enum { CLI_ARCH_ONE = 0, CLI_ARCH_MANY = 1 };
struct cli_arch {
    bool functional, all;
    unsigned mask;                       /* bit m: us_models[m]        */
    unsigned count;                      /* models in mask             */
    const struct us_core_model *one;     /* when count is 1            */
};
US_MUST_CHECK bool cli_parse_arch(const char *cmd, const char *spec,
                                  unsigned flags, const char *no_functional,
                                  struct cli_arch *arch);

/* --jobs N: host threads, 1..CLI_MAX_JOBS, the same in every command;
 * the default is the number of online CPUs.  Results never depend on it. */
enum { CLI_MAX_JOBS = 256 };
unsigned cli_default_jobs(void);
US_MUST_CHECK bool cli_parse_jobs(const char *cmd, const char *v,
                                  unsigned *jobs);
#endif
