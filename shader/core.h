/*
 * The core models: one timing interface (create / reset / step / stats /
 * destroy, STYLE.md item 5), the configuration every model reads, and the
 * statistics registry every model reports through (STYLE.md item 7).
 *
 * A model runs one workload -- one program over N threads whose inputs are
 * set -- cycle by cycle.  When an instruction issues, the model executes it
 * through the shared functional core (the reference interpreter's
 * per-instruction entry for vec4 models, the scalar executor's for the
 * scalar SP), so every model leaves bit-identical registers; models differ
 * only in when things happen.  Unit classes come from the opcode tables
 * (us_ops[].unit, us_sops[].unit); each model keeps only a small resource
 * and latency table keyed by class, never an opcode switch.
 */
#ifndef US_SHADER_CORE_H
#define US_SHADER_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ushader.h"

/* ---- Configuration (knobs.def) ----------------------------------------- */

enum us_knob {
#define KNOB(name, type, def, lo, hi, choices, doc) US_KNOB_##name,
#include "knobs.def"   /* beside this header, in the repository and installed */
#undef KNOB
    US_KNOB_COUNT
};

enum us_knob_type { US_KNOB_INT, US_KNOB_BOOL, US_KNOB_ENUM };

struct us_knob_info {
    const char *name;
    enum us_knob_type type;
    int def, lo, hi;
    const char *choices;  /* ENUM: "a|b|c" */
    const char *doc;
};

extern const struct us_knob_info us_knobs[US_KNOB_COUNT];

/* A complete configuration: every knob's value (ENUMs as the choice's
 * index) and the SFU's own configuration. */
struct us_config {
    int v[US_KNOB_COUNT];
    struct us_sfu_config sfu;
};

void us_config_default(struct us_config *cfg);

/* "key=value": a knob, or "sfu.KEY=value" for the SFU configuration. */
US_MUST_CHECK bool us_config_set(struct us_config *cfg, const char *kv,
                                 struct us_diag *diag);

/* What a configuration sets in the environment programs run in (the
 * instruction budget): every runner applies it to its us_exec_env, for the
 * interpreter and the models alike. */
void us_config_env(const struct us_config *cfg, struct us_exec_env *env);

/* An INI file of `len` bytes, NUL-terminated at text[len] ([core] knobs,
 * [sfu] SFU keys), parsed with inih; errors carry the line.  A NUL byte
 * before text[len], or a line longer than inih reads whole (198 bytes), is
 * an error. */
US_MUST_CHECK bool us_config_load(struct us_config *cfg, const char *text,
                                  size_t len, struct us_diag *diag);

/* The configuration as an INI file us_config_load reads back to the same
 * configuration: every knob under [core] (ENUMs by name), every SFU key
 * under [sfu] (per table: T.k, T.degree; then w0..w3, banks). */
void us_config_write(FILE *f, const struct us_config *cfg);

/* A knob's value as the INI file writes it (an ENUM's choice by name). */
void us_knob_format(const struct us_knob_info *k, int v, char *buf,
                    size_t size);

/* ---- Statistics registry ------------------------------------------------ */

enum { US_MAX_STATS = 96 };

/* A statistic is a counter (a value the model counted) or a formula over
 * other statistics ("useful_ops / (alu_lanes * cycles)"), evaluated when
 * read.  Dotted names ("stalls.dependency", "lut.merged") print as nested
 * JSON objects. */
struct us_stat {
    const char *name;
    const char *desc;
    const char *formula;  /* NULL for counters */
    double value;         /* counters */
};

struct us_stats {
    const char *arch;
    struct us_stat s[US_MAX_STATS];
    unsigned n;
};

void us_stats_init(struct us_stats *st, const char *arch);
void us_stats_counter(struct us_stats *st, const char *name,
                      const char *desc, double value);
void us_stats_formula(struct us_stats *st, const char *name,
                      const char *desc, const char *formula);

/* A statistic's value (formulas evaluated; a division by zero gives 0);
 * NaN when there is no such name. */
double us_stats_get(const struct us_stats *st, const char *name);

/* The one reporter: a text table, or JSON (us_stats_json). */
void us_stats_print(FILE *f, const struct us_stats *st, bool json);

/* The statistics as a JSON object (a new reference; NULL when out of
 * memory): "arch", then each statistic in order of registration, a dotted
 * name nested ("lut.merged" -> "lut": {"merged": ...}); a name that is
 * also a prefix ("area", "area.fp") keeps its own value as "total"
 * ("area": {"total": ..., "fp": ...}).  Integral values are JSON integers,
 * others reals; an undefined value (NaN, inf) is null. */
struct json_t;
struct json_t *us_stats_json(const struct us_stats *st);

/* The JSON schema of every JSON output (docs/METRICS.md), and how every
 * writer dumps it (json_dumps): members in insertion order, reals with 10
 * significant digits (a binary32 widened to double round-trips; ratios as
 * the CSV has them). */
enum { US_JSON_SCHEMA_VERSION = 1 };
#define US_JSON_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | \
                       JSON_REAL_PRECISION(10))

/* ---- The workload and the timing interface ------------------------------ */

/* A graphics workload is nthreads independent threads.  A compute
 * program's workload is a launch: nthreads / us_workload_group threads
 * workgroups of that many consecutive threads (its GROUP_SIZE), their
 * inputs set with us_compute_thread; env->mem holds the buffers (and
 * counts what the run does to them), and the model gives each workgroup
 * its shared memory and keeps the barrier rule (shader/workgroup.h). */
struct us_event_sink;

struct us_workload_stream;

struct us_workload {
    const struct us_program *prog;
    const struct us_exec_env *env;  /* parameters, us_math, sampler, memory */
    struct us_thread *threads;      /* inputs set; the model writes results */
    unsigned nthreads;
    const struct us_event_sink *events;  /* NULL: no pipeline events */
    /* NULL: threads[] holds all nthreads threads.  Else a graphics workload
     * streamed through the model: threads[] is a window of stream->window
     * records (a power of two), thread tid in threads[tid & (window - 1)]
     * (us_workload_thread); stream->start fills a thread's record when a
     * model takes it (us_workload_start) and stream->retire sees its
     * results when it retires (us_workload_retire).  Only the threads in
     * flight (and the window around them) exist at once. */
    const struct us_workload_stream *stream;
};

struct us_workload_stream {
    unsigned window;
    void (*start)(void *ctx, unsigned tid, struct us_thread *t);
    void (*retire)(void *ctx, unsigned tid, const struct us_thread *t);
    void *ctx;
};

/* Thread tid's record. */
static inline struct us_thread *us_workload_thread(const struct us_workload *w,
                                                   unsigned tid)
{
    return w->stream ? &w->threads[tid & (w->stream->window - 1)]
                     : &w->threads[tid];
}

/* A model takes thread tid (graphics): its record, inputs set. */
static inline struct us_thread *us_workload_start(const struct us_workload *w,
                                                  unsigned tid)
{
    struct us_thread *t = us_workload_thread(w, tid);
    if (w->stream)
        w->stream->start(w->stream->ctx, tid, t);
    return t;
}

/* Thread tid has retired: its record is final. */
static inline void us_workload_retire(const struct us_workload *w,
                                      unsigned tid)
{
    if (w->stream)
        w->stream->retire(w->stream->ctx, tid, us_workload_thread(w, tid));
}

/* ---- Pipeline events (`--trace`, docs/TRACE.md) -------------------------- */

/*
 * What a model reports, cycle by cycle, to a workload's event sink: every
 * issue (an instruction, word, bundle or warp group on one thread slot,
 * with the cycle its last result is usable), every cycle a processor with
 * threads issues nothing (with the stall cause it counts in stalls.*), and
 * every thread's retirement.  A model checks w->events before building an
 * event, so a run without a sink pays one test per issue; the events never
 * change what the model does.
 */
enum us_event_kind { US_EVENT_ISSUE, US_EVENT_STALL, US_EVENT_RETIRE };

struct us_event {
    enum us_event_kind kind;
    uint64_t cycle;     /* of the issue, the stall or the retirement       */
    uint64_t done;      /* ISSUE: every result usable (>= cycle + 1)       */
    unsigned proc;      /* processor: an SP, a vec4 processor, a SIMT core */
    unsigned slot;      /* ISSUE, RETIRE: its thread slot (a warp's slot)  */
    unsigned thread;    /* ISSUE, RETIRE: the thread (a warp's first lane) */
    unsigned lanes;     /* ISSUE: threads it ran for (1 without lockstep)  */
    unsigned pc;        /* ISSUE: index into the model's code              */
    const char *name;   /* ISSUE: the mnemonic; STALL: us_stall_names[]    */
};

struct us_event_sink {
    void (*event)(void *ctx, const struct us_event *ev);
    void *ctx;
};

/* Threads of one workgroup: the product of a compute program's
 * GROUP_SIZE; 0 for a vertex or fragment program (no workgroups). */
unsigned us_workload_group(const struct us_workload *w);

struct us_core;  /* a model's private state */

struct us_core_model {
    const char *name;
    /* Prepare the workload (lowering, scheduling); the workload must outlive
     * the core. */
    US_MUST_CHECK struct us_core *(*create)(const struct us_config *cfg,
                                            const struct us_workload *w,
                                            struct us_diag *diag);
    /* Back to cycle 0 with the threads' inputs as given. */
    void (*reset)(struct us_core *core);
    /* Advance one cycle; false once every thread has retired. */
    bool (*step)(struct us_core *core);
    /* Register every statistic of the run so far. */
    void (*stats)(const struct us_core *core, struct us_stats *st);
    void (*destroy)(struct us_core *core);
    /* NULL, or false with diag for a configuration the model cannot build
     * as asked (create refuses it too), so a caller can check before it
     * has a workload. */
    US_MUST_CHECK bool (*check)(const struct us_config *cfg,
                                struct us_diag *diag);
    /* NULL, or, once step has returned false, true with *diag when the run
     * failed rather than finished: no progress was possible (a lockstep
     * warp at a barrier in divergent code, or the guard against a model
     * that would wait for ever). */
    US_MUST_CHECK bool (*failed)(const struct us_core *core,
                                 struct us_diag *diag);
};

extern const struct us_core_model us_model_scalar, us_model_simd4,
    us_model_vliw, us_model_superscalar, us_model_hetero, us_model_simt;

/* All models, in report order; NULL-terminated. */
extern const struct us_core_model *const us_models[];

const struct us_core_model *us_model_lookup(const char *name);

/* m->check, or true when the model has none. */
US_MUST_CHECK bool us_core_check(const struct us_core_model *m,
                                 const struct us_config *cfg,
                                 struct us_diag *diag);

/* Run a workload to completion on one model and collect its statistics.
 * A thread over the instruction budget ends the run: false, and *diag
 * says which (the statistics are those of the run so far); so does a run
 * that fails (us_core_model.failed). */
US_MUST_CHECK bool us_core_run(const struct us_core_model *m,
                               const struct us_config *cfg,
                               const struct us_workload *w,
                               struct us_stats *st, struct us_diag *diag);

/* A compute launch of groups[0] x groups[1] x groups[2] workgroups of a
 * compute program on one model, as us_compute_interpret runs it on the
 * reference interpreter: every work-item's thread set with
 * us_compute_thread, then us_core_run.  `threads` (NULL, or one per
 * work-item) receives the threads' final registers; env->mem is the
 * memory.  For a program whose results do not depend on the order of its
 * threads (docs/COMPUTE.md), memory, its counts and registers are the
 * interpreter's bit for bit. */
US_MUST_CHECK bool us_core_run_compute(const struct us_core_model *m,
                                       const struct us_config *cfg,
                                       const struct us_program *prog,
                                       const struct us_exec_env *env,
                                       const uint32_t groups[3],
                                       struct us_thread *threads,
                                       struct us_stats *st,
                                       struct us_diag *diag);

/* The same, reporting pipeline events to `events` (NULL: none). */
US_MUST_CHECK bool us_core_run_compute_events(
    const struct us_core_model *m, const struct us_config *cfg,
    const struct us_program *prog, const struct us_exec_env *env,
    const uint32_t groups[3], struct us_thread *threads,
    const struct us_event_sink *events, struct us_stats *st,
    struct us_diag *diag);

#endif
