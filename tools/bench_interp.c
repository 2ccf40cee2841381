/*
 * bench_interp: reference-interpreter throughput on ARB programs.
 *
 *   bench_interp [-n THREADS] FILE...
 *
 * Runs THREADS threads of each program with deterministic inputs (a fixed
 * xorshift sequence in [-2, 2]) and prints threads and vec4 instructions per
 * host second.  Times are wall-clock on a shared machine: compare rows of the
 * same run, not figures across runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ushader.h"

static uint32_t xorshift(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static bool load(const char *path, struct us_program *prog)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return false;
    }
    static const size_t cap = 1 << 20;
    char *text = malloc(cap);
    size_t len = text ? fread(text, 1, cap, f) : 0;
    fclose(f);
    struct us_diag d;
    bool ok = text && us_assemble(text, len, US_STAGE_ANY, prog, &d);
    if (text && !ok)
        fprintf(stderr, "%s:%u:%u: error: %s\n", path, d.line, d.col, d.msg);
    free(text);
    return ok;
}

int main(int argc, char **argv)
{
    unsigned threads = 200000;
    int first = 1;
    if (argc > 2 && !strcmp(argv[1], "-n")) {
        threads = (unsigned)strtoul(argv[2], NULL, 10);
        first = 3;
    }
    struct us_glstate *gl = malloc(sizeof *gl);
    struct us_thread *t = malloc(sizeof *t);
    us_vec4 *params = malloc(US_MAX_PARAMS * sizeof *params);
    if (!gl || !t || !params)
        return 1;
    us_glstate_init(gl);

    printf("%-34s %6s %14s %16s\n", "program", "insts", "threads/s",
           "vec4 insts/s");
    int rc = 0;
    for (int a = first; a < argc; a++) {
        struct us_program prog;
        if (!load(argv[a], &prog)) {
            rc = 1;
            continue;
        }
        us_resolve_params(&prog, gl, params);
        struct us_exec_env env = { .params = params, .math = &us_math_exact };
        uint32_t seed = 0x9e3779b9u;
        float sink = 0.0f;
        double t0 = now();
        for (unsigned i = 0; i < threads; i++) {
            us_thread_reset(t);
            for (unsigned s = 0; s < US_MAX_INPUTS; s++)
                if (prog.inputs_read >> s & 1)
                    for (int c = 0; c < 4; c++)
                        t->input[s][c] =
                            (float)(xorshift(&seed) >> 8) * 0x1p-22f - 2.0f;
            us_interpret(&prog, &env, t);
            sink += t->output[0][0];
        }
        double dt = now() - t0;
        const char *name = strrchr(argv[a], '/');
        printf("%-34s %6u %14.0f %16.0f\n", name ? name + 1 : argv[a],
               prog.ninsts, threads / dt, (double)threads * prog.ninsts / dt);
        if (sink == 12345.0f)  /* keeps the work observable */
            putchar(' ');
        us_program_free(&prog);
    }
    free(gl);
    free(t);
    free(params);
    return rc;
}
