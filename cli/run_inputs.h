/*
 * What `ushader run` (cli/cmd_run.c) computes with besides the program:
 * the elementary functions (the configured SFU, or us_math_exact with
 * --exact-math), the textures bound to units (--texture UNIT=FILE.png,
 * and a scene's), and inputs captured from a scene (--inputs-from), with
 * the parameters the scene's GL state gave the program.
 *
 * One struct run_env serves the reference interpreter and every model of
 * a run, so their outputs can be compared bit for bit.
 */
#ifndef CLI_RUN_INPUTS_H
#define CLI_RUN_INPUTS_H

#include "cli/cli.h"
#include "gfx/gfx.h"

/* One --texture UNIT=FILE.png[,FILTER], checked when it is parsed. */
struct run_texture {
    unsigned unit;
    char *file;                 /* malloc'd                               */
    enum gfx_filter filter;
};

struct run_env {
    struct us_sfu sfu;
    bool have_sfu;
    struct us_math math;
    struct gfx_texture tex[US_MAX_TEX_UNITS];   /* --texture's            */
    struct gfx_scene *scn;                      /* --inputs-from's        */
    struct gfx_sampler smp;                     /* the units bound        */
    bool textured;                              /* a unit is bound        */
    us_vec4 (*inputs)[US_MAX_INPUTS];           /* the captured window    */
    unsigned ninputs;
    us_vec4 *params;                            /* the scene's, resolved  */
};

/* Parse "UNIT=FILE.png[,FILTER]" (FILTER: nearest, bilinear, mipnearest,
 * trilinear, as in a scene; default bilinear); reports its own errors. */
US_MUST_CHECK bool run_texture_parse(const char *arg, struct run_texture *t);

/* The math of a run: cfg's SFU, or the correctly rounded functions. */
US_MUST_CHECK bool run_env_math(struct run_env *e, const struct us_config *cfg,
                                bool exact);

/* Load the --texture files and bind them (over a scene's units);
 * charged to `mem`; errors name the file. */
US_MUST_CHECK bool run_env_textures(struct run_env *e,
                                    const struct run_texture *t, unsigned n,
                                    struct gfx_budget *mem);

/* Render `scene` with `prog` (loaded from `path`) in place of its program
 * `slot` (NULL: the first of prog's stage), keep `want` of the threads
 * it shades (gfx_capture_window), the parameters and the texture units;
 * errors name the file they are about. */
US_MUST_CHECK bool run_env_capture(struct run_env *e, const char *scene,
                                   const char *slot, const char *path,
                                   const struct us_program *prog,
                                   unsigned want, struct gfx_budget *mem);

/* The run's math and sampler in `env`. */
void run_env_apply(struct run_env *e, struct us_exec_env *env);

void run_env_free(struct run_env *e);

#endif
