/* two_models: assemble a fragment program, run 256 threads of it on two
 * core models, and print their cycles and datapath utilization.  Built
 * against the installed library (`make install`, pkg-config ushader) by
 * tests/install.test.sh:
 *
 *   cc two_models.c $(pkg-config --cflags ushader) \
 *      $(pkg-config --static --libs ushader) -o two_models
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ushader/core.h>
#include <ushader/ushader.h>

/* Diffuse lighting with a normalized normal: a DP3, an RSQ on the SFU,
 * scalar and vector work mixed, as shaders have it. */
static const char program[] =
    "!!ARBfp1.0\n"
    "TEMP n, l;\n"
    "DP3 n.w, fragment.texcoord[0], fragment.texcoord[0];\n"
    "RSQ n.w, n.w;\n"
    "MUL n.xyz, fragment.texcoord[0], n.w;\n"
    "DP3_SAT l.x, n, program.local[0];\n"
    "MUL result.color.xyz, fragment.color, l.x;\n"
    "MOV result.color.w, fragment.color.w;\n"
    "END\n";

enum { THREADS = 256 };

/* Inputs of thread i: deterministic values in [-1, 1). */
static float input(unsigned i, unsigned k)
{
    uint32_t x = i * 2654435761u + k * 40503u + 1u;
    x ^= x >> 15;
    x *= 2246822519u;
    x ^= x >> 13;
    return (float)(x & 0xffff) / 32768.0f - 1.0f;
}

static int run(const char *arch, const struct us_program *prog,
               const us_vec4 *params)
{
    const struct us_core_model *m = us_model_lookup(arch);
    struct us_thread *th = calloc(THREADS, sizeof *th);
    struct us_stats *st = malloc(sizeof *st);
    if (!m || !th || !st) {
        fprintf(stderr, "two_models: %s: no such model or no memory\n", arch);
        free(th);
        free(st);
        return 1;
    }
    for (unsigned i = 0; i < THREADS; i++) {
        us_thread_reset_for(&th[i], prog);
        for (unsigned k = 0; k < 4; k++) {
            th[i].input[US_FIN_TEXCOORD0][k] = input(i, k);
            th[i].input[US_FIN_COLOR0][k] = 0.5f + 0.5f * input(i, k + 4);
        }
    }
    struct us_config cfg;
    us_config_default(&cfg);
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    us_config_env(&cfg, &env);
    struct us_workload w = { .prog = prog, .env = &env, .threads = th,
                             .nthreads = THREADS };
    struct us_diag d = { 0 };
    int rc = 0;
    if (us_core_run(m, &cfg, &w, st, &d))
        printf("%-8s cycles %6.0f  utilization %.3f  color of thread 0 "
               "(%.4f, %.4f, %.4f)\n", arch, us_stats_get(st, "cycles"),
               us_stats_get(st, "utilization"), th[0].output[US_FOUT_COLOR][0],
               th[0].output[US_FOUT_COLOR][1], th[0].output[US_FOUT_COLOR][2]);
    else {
        fprintf(stderr, "two_models: %s: %s\n", arch, d.msg);
        rc = 1;
    }
    free(st);
    free(th);
    return rc;
}

int main(void)
{
    struct us_program prog;
    struct us_diag d = { 0 };
    if (!us_assemble(program, strlen(program), US_STAGE_FRAGMENT, &prog,
                     &d)) {
        fprintf(stderr, "two_models: %u:%u: %s\n", d.line, d.col, d.msg);
        return 1;
    }
    struct us_glstate *gl = malloc(sizeof *gl);
    us_vec4 *params = calloc(prog.nparams + 1, sizeof *params);
    int rc = 1;
    if (gl && params) {
        us_glstate_init(gl);
        us_load_initial_locals(&prog, gl);
        gl->local[US_STAGE_FRAGMENT][0][0] = 0.6f;   /* the light direction */
        gl->local[US_STAGE_FRAGMENT][0][1] = 0.8f;
        us_resolve_params(&prog, gl, params);
        rc = run("scalar", &prog, params) | run("simd4", &prog, params);
    }
    free(params);
    free(gl);
    us_program_free(&prog);
    return rc;
}
