/*
 * bench_sfu_batch: the batched SFU model's speed (us_sfu_eval_batch_isa,
 * sfu/sfu_batch.c) on each build of its loops the CPU has.
 *
 *   bench_sfu_batch [-n REPS]
 *
 * Evaluates 4096 fixed pseudo-random inputs in [0.01, 100) REPS times
 * (default 200) per function and build, and prints the best of five
 * such runs in nanoseconds of process CPU time per evaluation.  Compare
 * the rows of one run: the machine is shared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ushader.h"
#include "sfu/sfu.h"

enum { N = 4096, RUNS = 5 };

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    long reps = 200;
    if (argc == 3 && !strcmp(argv[1], "-n"))
        reps = strtol(argv[2], NULL, 10);
    if (reps <= 0 || (argc != 1 && argc != 3)) {
        fprintf(stderr, "usage: bench_sfu_batch [-n REPS]\n");
        return 2;
    }
    struct us_sfu_config cfg;
    struct us_sfu sfu;
    struct us_diag diag;
    us_sfu_config_default(&cfg);
    if (!us_sfu_init(&sfu, &cfg, &diag)) {
        fprintf(stderr, "bench_sfu_batch: %s\n", diag.msg);
        return 1;
    }
    static float x[N], out[N];
    uint32_t s = 1;
    for (unsigned i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        x[i] = 0.01f + (float)(s >> 8) * (100.0f / 16777216.0f);
    }
    static const struct { enum us_sfu_isa isa; const char *name; } isas[] = {
        { US_SFU_ISA_BASE, "base" }, { US_SFU_ISA_AVX2, "avx2" },
        { US_SFU_ISA_AVX512, "avx512" }, { US_SFU_ISA_BEST, "best" },
    };
    static const struct { enum us_sfu_func f; const char *name; } funcs[] = {
        { US_SFU_RCP, "rcp" }, { US_SFU_RSQ, "rsq" }, { US_SFU_SQRT, "sqrt" },
        { US_SFU_LG2, "lg2" }, { US_SFU_EX2, "ex2" }, { US_SFU_SIN, "sin" },
        { US_SFU_COS, "cos" },
    };
    printf("%-7s", "ns/eval");
    for (size_t j = 0; j < sizeof funcs / sizeof *funcs; j++)
        printf(" %6s", funcs[j].name);
    printf("\n");
    for (size_t i = 0; i < sizeof isas / sizeof *isas; i++) {
        if (!us_sfu_eval_batch_isa(&sfu, isas[i].isa, US_SFU_RCP, x, out, 1))
            continue;                          /* not on this CPU */
        printf("%-7s", isas[i].name);
        for (size_t j = 0; j < sizeof funcs / sizeof *funcs; j++) {
            double best = 0;
            for (int r = 0; r < RUNS; r++) {
                double t0 = cpu_seconds();
                for (long k = 0; k < reps; k++)
                    (void)us_sfu_eval_batch_isa(&sfu, isas[i].isa,
                                                funcs[j].f, x, out, N);
                double t = cpu_seconds() - t0;
                best = r == 0 || t < best ? t : best;
            }
            printf(" %6.2f", 1e9 * best / ((double)reps * N));
        }
        printf("\n");
    }
    return 0;
}
