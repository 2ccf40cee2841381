/*
 * `--trace FILE` of run (one model) and compute: the pipeline events of
 * a core model (shader/core.h, struct us_event_sink) written as Chrome's
 * trace-event JSON (docs/TRACE.md), which Perfetto and chrome://tracing
 * open.  The file is streamed through cli_out_open as the model runs
 * (never built in memory) and published only when the run succeeded;
 * only events of cycles in the window [from, to) are written, at most
 * max_events of them, and the file's otherData says what was left out.
 */
#ifndef CLI_TRACE_H
#define CLI_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"

enum { CLI_TRACE_WINDOW = 10000 };            /* default: cycles 0..9999 */
enum { CLI_TRACE_MAX_EVENTS = 500000 };       /* default bound, ~80 MB   */
enum { CLI_TRACE_EVENTS_LIMIT = 100000000 };  /* largest --trace-max-events */

/* What the three options asked for (cli_trace_option fills it). */
struct cli_trace_args {
    const char *path;          /* --trace; NULL: no trace             */
    uint64_t from, to;         /* --trace-window FROM:TO, [from, to)  */
    uint64_t max_events;       /* --trace-max-events                  */
    const char *window_arg, *max_arg;   /* as given, for errors */
};

void cli_trace_args_init(struct cli_trace_args *t);

/* The options' table entries, for a command's cli_opt table. */
#define CLI_TRACE_OPTS                                   \
    { "--trace", true, false, "a FILE" },                \
    { "--trace-window", true, false, "FROM:TO" },        \
    { "--trace-max-events", true, false, "N" }

/* The help lines of the three options. */
#define CLI_TRACE_USAGE \
    "  --trace FILE  the model's pipeline events (every issue, stall and\n" \
    "            retirement of every processor) as Chrome trace-event JSON,\n" \
    "            which Perfetto (ui.perfetto.dev) and chrome://tracing open\n" \
    "            (docs/TRACE.md); written atomically, only if the run succeeds\n" \
    "  --trace-window FROM:TO  the cycles traced, FROM <= cycle < TO\n" \
    "            (default 0:10000, the first 10000 cycles)\n" \
    "  --trace-max-events N  write at most N events (default 500000, about\n" \
    "            80 MB; 1..100000000); the file's otherData says when events\n" \
    "            were dropped (\"truncated\")\n"

/* If `opt` is one of the three options, take its value `v`: true with
 * *rc 0, or *rc 2 after an error ("CMD: --trace-window ..."); false when
 * `opt` is none of them. */
bool cli_trace_option(const char *cmd, const char *opt, const char *v,
                      struct cli_trace_args *t, int *rc);

/* After parsing: 0, or 2 after an error (a window or bound without
 * --trace). */
int cli_trace_check(const char *cmd, const struct cli_trace_args *t);

struct cli_trace;

/* Start the trace file of a run on `model`: NULL after an error (the
 * file cannot be created); *sink then reports to it. */
struct cli_trace *cli_trace_open(const struct cli_trace_args *t,
                                 const char *model,
                                 struct us_event_sink *sink);

struct json_t;

/* "schema_version" and "provenance" (what cli_json_head prints) as a
 * JSON object for cli_trace_close; NULL when out of memory. */
struct json_t *cli_trace_doc(int argc, char **argv, const char *const *inputs,
                             size_t n, const char *math,
                             const struct us_config *cfg);

/* End the trace: with `ok` (the run succeeded) the file is finished --
 * otherData is `doc` (a new reference, taken: schema_version and
 * provenance, run_json_doc or cli_trace_doc) with the trace's own
 * members and the run's `cycles` -- and published, else removed; false
 * after an error (reported) or !ok.  NULL is allowed (no trace: returns
 * ok). */
bool cli_trace_close(struct cli_trace *tr, bool ok, struct json_t *doc,
                     double cycles);

#endif
