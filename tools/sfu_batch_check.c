/*
 * sfu_batch_check: us_sfu_eval_batch_isa (sfu/sfu_batch.c) against
 * us_sfu_eval on every STEP-th binary32 bit pattern -- STEP 1: all 2^32
 * -- on each build of the batch the CPU has (baseline, AVX2, AVX-512),
 * for the given functions and SFU configuration.
 *
 *   sfu_batch_check [-s STEP] [-t] FUNC[,FUNC...] [KEY=V ...]
 *
 * FUNC: rcp rsq sqrt lg2 ex2 sin cos; KEY=V: ushader sfu --help's keys
 * (degree=3, rsq.k=6, ...).  The patterns go in chunks of 65536 - (i mod
 * 37) so that the batches end at every position of a vector.  -t takes
 * them in the transposed order (pattern j 2^16 + c at position c 2^16 +
 * j): neighbouring lanes then lie far apart, as in random data, and
 * AVX-512's lookups take their blend tree; in the default order of
 * consecutive patterns they mostly take the one-block shortcut.  Prints
 * one line per function with the differences per build (the first 5 of
 * each shown) and exits 1 when there is one.  All 2^32 patterns of one
 * function: about 2 minutes on one core of the project's Zen 4 VM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"

enum { N = 65536 };

static int usage(void)
{
    fprintf(stderr, "usage: sfu_batch_check [-s STEP] [-t] FUNC[,FUNC...] "
                    "[KEY=V ...]\n");
    return 2;
}

/* Every STEP-th pattern of function f; the number of differences. */
static unsigned long long check(const struct us_sfu *sfu, enum us_sfu_func f,
                                unsigned long long step, int transposed)
{
    static float x[N], ref[N], out[N];
    static const char *const isa_name[] = { "best", "base", "avx2", "avx512" };
    unsigned long long diffs[4] = { 0 }, count = 0, u = 0;
    unsigned chunk = 0;
    while (u < 1ull << 32) {
        unsigned n = 0, len = N - chunk++ % 37;
        for (; n < len && u < 1ull << 32; u += step) {
            uint32_t v = (uint32_t)u;
            x[n++] = float_of(transposed ? v << 16 | v >> 16 : v);
        }
        for (unsigned i = 0; i < n; i++)
            ref[i] = us_sfu_eval(sfu, f, x[i]);
        for (int isa = US_SFU_ISA_BASE; isa <= US_SFU_ISA_AVX512; isa++) {
            if (!us_sfu_eval_batch_isa(sfu, (enum us_sfu_isa)isa, f, x, out, n))
                continue;
            for (unsigned i = 0; i < n; i++)
                if (bits_of(out[i]) != bits_of(ref[i]) && diffs[isa]++ < 5)
                    printf("%s %s x 0x%08x: batch 0x%08x, us_sfu_eval 0x%08x\n",
                           us_sfu_func_name(f), isa_name[isa], bits_of(x[i]),
                           bits_of(out[i]), bits_of(ref[i]));
        }
        count += n;
    }
    printf("%s: %llu inputs (step %llu, %s order); differences: base %llu, "
           "avx2 %llu, avx512 %llu\n", us_sfu_func_name(f), count, step,
           transposed ? "transposed" : "sequential", diffs[1], diffs[2],
           diffs[3]);
    fflush(stdout);
    return diffs[1] + diffs[2] + diffs[3];
}

int main(int argc, char **argv)
{
    unsigned long long step = 1;
    int transposed = 0, a = 1;
    for (; a < argc && argv[a][0] == '-'; a++) {
        if (!strcmp(argv[a], "-t")) {
            transposed = 1;
        } else if (!strcmp(argv[a], "-s") && a + 1 < argc) {
            char *end;
            step = strtoull(argv[++a], &end, 10);
            if (*end || step == 0)
                return usage();
        } else {
            return usage();
        }
    }
    if (a >= argc)
        return usage();
    const char *funcs = argv[a++];
    struct us_sfu_config cfg;
    struct us_sfu sfu;
    struct us_diag diag;
    us_sfu_config_default(&cfg);
    for (; a < argc; a++)
        if (!us_sfu_config_set(&cfg, argv[a], &diag)) {
            fprintf(stderr, "sfu_batch_check: %s\n", diag.msg);
            return 2;
        }
    if (!us_sfu_init(&sfu, &cfg, &diag)) {
        fprintf(stderr, "sfu_batch_check: %s\n", diag.msg);
        return 1;
    }
    unsigned long long bad = 0;
    for (const char *p = funcs; *p;) {
        size_t len = strcspn(p, ",");
        char name[16];
        enum us_sfu_func f;
        if (len >= sizeof name)
            return usage();
        memcpy(name, p, len);
        name[len] = '\0';
        if (!us_sfu_func_lookup(name, &f)) {
            fprintf(stderr, "sfu_batch_check: unknown function '%s'\n", name);
            return 2;
        }
        bad += check(&sfu, f, step, transposed);
        p += len + (p[len] == ',');
    }
    us_sfu_free(&sfu);
    return bad ? 1 : 0;
}
