/*
 * What the two forms of `ushader run` share: the parsed command line, the
 * --param/--attrib settings, the configuration and the run's math,
 * textures and captured inputs.  cli/cmd_run.c parses and runs one thread
 * on the interpreter; cli/run_arch.c runs N threads on core models.
 */
#ifndef CLI_RUN_H
#define CLI_RUN_H

#include "cli/run_inputs.h"
#include "cli/trace.h"

enum { MAX_SETTINGS = 256 };

/* One --param or --attrib, kept as text until the program's stage is
 * known. */
struct setting {
    const char *arg;   /* the whole NAME=VALUES argument */
    size_t name_len;
    float value[4];
};

enum { MAX_SETS = 64, MAX_PRESETS = 16, MAX_TEXTURES = US_MAX_TEX_UNITS };

/* Threads of one --arch run given by --inputs lines (kept in memory), and
 * by --threads: threads stream through each model's window of records
 * (cli/run_arch.c), the run keeps only each thread's reference outputs
 * (16 bytes per output written, + 1), within the memory budget
 * (GFX_MEM_BUDGET_MIB). */
enum { MAX_THREADS = 65536, MAX_RUN_THREADS = 1 << 24 };

struct run_args {
    int argc;                      /* the command line, for provenance */
    char **argv;
    const char *file;
    bool json, exact;
    const char *arch, *config, *inputs, *inputs_from, *slot;
    struct cli_arch models;        /* --arch, parsed                  */
    bool time;
    struct run_texture textures[MAX_TEXTURES];
    unsigned ntextures;
    const char *sets[MAX_SETS];
    unsigned nsets;
    const char *presets[MAX_PRESETS];  /* --preset: simt rows */
    unsigned npresets;
    long threads;                  /* 0: not given */
    struct cli_trace_args trace;   /* --trace: one model's events  */
    struct setting params[MAX_SETTINGS], attribs[MAX_SETTINGS];
    unsigned nparams, nattribs;
};

/* Threads of a run without --threads or --inputs. */
enum { DEFAULT_THREADS = 64 };

/* Parse a NAME=x,y,z,w argument of option `opt` onto list[*count]. */
US_MUST_CHECK bool run_add_setting(const char *opt, const char *arg,
                                   struct setting *list, unsigned *count);
/* --param NAME: program.env[N] / program.local[N] of the stage, in gl. */
US_MUST_CHECK bool run_apply_param(const struct setting *s,
                                   enum us_stage stage, struct us_glstate *gl);
/* An input binding's slot (short forms as the ARB grammars take them);
 * fragment.texcoord[n] for n < varying_slots (the knob; 0: 8). */
US_MUST_CHECK bool run_resolve_input(const struct setting *s,
                                     enum us_stage stage,
                                     unsigned varying_slots, unsigned *slot);
/* %.9g (exact for binary32); infinities and NaN as inf, -inf, nan. */
void run_print_number(float v);

struct json_t;
/* A JSON document for a run: "schema_version" and "provenance" (the
 * command line, the math, `cfg`, the files it read); NULL when out of
 * memory. */
struct json_t *run_json_doc(const struct run_args *a,
                            const struct us_config *cfg);
/* One thread's outputs as a JSON object: binding name -> [x, y, z, w],
 * "killed" for a fragment program; a component that is not a finite
 * number is null there and named in "nonfinite": {"BINDING[C]": "inf" |
 * "-inf" | "nan"} (docs/METRICS.md). */
struct json_t *run_json_thread(const struct us_program *prog,
                               const struct us_thread *t, uint64_t written);
/* Print a document and free it: false (with an error) when out of
 * memory. */
US_MUST_CHECK bool run_json_print(struct json_t *doc);

/* The defaults, then the INI file `path` over them. */
US_MUST_CHECK bool run_load_config(const char *path, struct us_config *cfg);
/* --config, then --set: 0 or the exit status. */
int run_config(const struct run_args *a, struct us_config *cfg);
/* The math, the scene's inputs (a window of `want` threads) and the
 * textures, --texture's over the scene's; false after an error. */
US_MUST_CHECK bool run_setup(const struct run_args *a,
                             const struct us_config *cfg,
                             const struct us_program *prog, unsigned want,
                             struct gfx_budget *mem, struct run_env *e);

/* N threads on the core models of --arch (cli/run_arch.c): the exit
 * status. */
int run_arch(const struct run_args *a);

#endif
