/*
 * kref: the compute suite's C references (bench/compute/ref/, kref.h).
 *   kref list [--all]              the sample's kernels (--all: with the
 *                                  bench-only sizes), "ID SOURCE" a line
 *   kref init ID IN_DIR [OUT_DIR]  writes IN_DIR/bB.bin per binding B and
 *                                  prints the `ushader compute` arguments:
 *                                  --groups, --local and --param for the
 *                                  kernels that have them, --buffer B=IN_DIR/bB.bin and
 *                                  --out B=OUT_DIR/bB.bin (OUT_DIR: IN_DIR/out,
 *                                  created)
 *   kref check ID IN_DIR OUT_DIR   recomputes the buffers from IN_DIR with the
 *                                  reference and compares OUT_DIR's byte for
 *                                  byte; exit 1 with the first differing word
 * Exit status: 0 success, 1 a mismatch or an I/O error, 2 a bad command line.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/compute/ref/kref.h"

struct entry { const struct kref *k; const char *id; bool bench_only; };

static const struct entry entries[] = {
#define KREF(id) { &kref_##id, #id, false },
#define KREF_BENCH(id) { &kref_##id, #id, true },
#include "bench/compute/ref/list.def"
#undef KREF
#undef KREF_BENCH
};
enum { NENTRIES = sizeof entries / sizeof entries[0] };

static const struct entry *find(const char *id)
{
    for (unsigned i = 0; i < NENTRIES; i++)
        if (!strcmp(entries[i].id, id))
            return &entries[i];
    fprintf(stderr, "kref: unknown kernel '%s' (kref list --all)\n", id);
    return NULL;
}

/* The kernel's buffers, zeroed; NULL when out of memory. */
static uint8_t **alloc_bufs(const struct kref *k)
{
    uint8_t **b = calloc(8, sizeof *b);
    for (unsigned i = 0; b && i < k->nbufs; i++) {
        b[i] = calloc(1, k->buf[i].bytes ? k->buf[i].bytes : 1);
        if (!b[i]) {
            fputs("kref: out of memory\n", stderr);
            exit(1);
        }
    }
    return b;
}

static void free_bufs(const struct kref *k, uint8_t **b)
{
    for (unsigned i = 0; i < k->nbufs; i++)
        free(b[i]);
    free(b);
}

static void path_of(char *out, size_t n, const char *dir, uint32_t binding)
{
    snprintf(out, n, "%s/b%u.bin", dir, (unsigned)binding);
}

static bool write_file(const char *path, const uint8_t *p, uint32_t n)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(p, 1, n, f) == n;
    if (f && fclose(f))
        ok = false;
    if (!ok)
        fprintf(stderr, "kref: %s: %s\n", path, strerror(errno));
    return ok;
}

/* Reads exactly n bytes: a shorter or longer file is an error. */
static bool read_file(const char *path, uint8_t *p, uint32_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "kref: %s: %s\n", path, strerror(errno));
        return false;
    }
    size_t got = fread(p, 1, n, f);
    bool ok = got == n && fgetc(f) == EOF;
    fclose(f);
    if (!ok)
        fprintf(stderr, "kref: %s: expected %u bytes\n", path, (unsigned)n);
    return ok;
}

static bool make_dir(const char *dir)
{
    if (mkdir(dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "kref: %s: %s\n", dir, strerror(errno));
        return false;
    }
    return true;
}

static int cmd_list(bool all)
{
    for (unsigned i = 0; i < NENTRIES; i++)
        if (all || !entries[i].bench_only)
            printf("%s bench/compute/%s\n", entries[i].id,
                   entries[i].k->name);
    return 0;
}

static int cmd_init(const struct kref *k, const char *in, const char *out)
{
    char outdir[1024], path[1100];
    if (!out) {
        snprintf(outdir, sizeof outdir, "%s/out", in);
        out = outdir;
    }
    if (!make_dir(in) || !make_dir(out))
        return 1;
    uint8_t **b = alloc_bufs(k);
    k->init(b, 1);
    int rc = 0;
    for (unsigned i = 0; i < k->nbufs && !rc; i++) {
        path_of(path, sizeof path, in, k->buf[i].binding);
        rc = !write_file(path, b[i], k->buf[i].bytes);
    }
    free_bufs(k, b);
    if (rc)
        return 1;
    printf("--groups %u,%u,%u", (unsigned)k->groups[0],
           (unsigned)k->groups[1], (unsigned)k->groups[2]);
    if (k->local[0])
        printf(" --local %u,%u,%u", (unsigned)k->local[0],
               (unsigned)k->local[1], (unsigned)k->local[2]);
    for (unsigned i = 0; i < k->nargs; i++)
        printf(" --param local[%u]=%di", (unsigned)k->arg[i].index,
               (int)k->arg[i].value);
    for (unsigned i = 0; i < k->nbufs; i++) {
        path_of(path, sizeof path, in, k->buf[i].binding);
        printf(" --buffer %u=%s", (unsigned)k->buf[i].binding, path);
    }
    for (unsigned i = 0; i < k->nbufs; i++) {
        path_of(path, sizeof path, out, k->buf[i].binding);
        printf(" --out %u=%s", (unsigned)k->buf[i].binding, path);
    }
    putchar('\n');
    return 0;
}

static int cmd_check(const struct entry *e, const char *in, const char *out)
{
    const struct kref *k = e->k;
    char path[1100];
    uint8_t **want = alloc_bufs(k), **got = alloc_bufs(k);
    int rc = 0;
    for (unsigned i = 0; i < k->nbufs && !rc; i++) {
        path_of(path, sizeof path, in, k->buf[i].binding);
        rc = !read_file(path, want[i], k->buf[i].bytes);
        path_of(path, sizeof path, out, k->buf[i].binding);
        rc = rc || !read_file(path, got[i], k->buf[i].bytes);
    }
    if (!rc)
        k->run(want);
    for (unsigned i = 0; i < k->nbufs && !rc; i++) {
        if (!memcmp(want[i], got[i], k->buf[i].bytes))
            continue;
        uint32_t w = 0;
        while (!memcmp(want[i] + 4 * w, got[i] + 4 * w, 4))
            w++;
        /* A buffer's tail of under 4 bytes compares by byte above; the
         * sizes here are whole words. */
        printf("kref: %s: binding %u word %u (byte %u): expected 0x%08x, "
               "got 0x%08x\n", e->id, (unsigned)k->buf[i].binding,
               (unsigned)w, (unsigned)(4 * w), (unsigned)kref_get32(want[i], w),
               (unsigned)kref_get32(got[i], w));
        rc = 1;
    }
    free_bufs(k, want);
    free_bufs(k, got);
    return rc;
}

static int usage(void)
{
    fputs("usage: kref list [--all] | kref init ID IN_DIR [OUT_DIR] | "
          "kref check ID IN_DIR OUT_DIR\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    for (unsigned i = 0; i < NENTRIES; i++)
        for (unsigned j = 0; j < entries[i].k->nbufs; j++)
            if (entries[i].k->buf[j].bytes % 4) {
                fprintf(stderr, "kref: %s: buffer %u is not whole words\n",
                        entries[i].id, j);
                return 1;
            }
    if (argc >= 2 && !strcmp(argv[1], "list") && argc <= 3) {
        if (argc == 3 && strcmp(argv[2], "--all"))
            return usage();
        return cmd_list(argc == 3);
    }
    if (argc >= 4 && !strcmp(argv[1], "init") && argc <= 5) {
        const struct entry *e = find(argv[2]);
        return e ? cmd_init(e->k, argv[3], argc == 5 ? argv[4] : NULL) : 2;
    }
    if (argc == 5 && !strcmp(argv[1], "check")) {
        const struct entry *e = find(argv[2]);
        return e ? cmd_check(e, argv[3], argv[4]) : 2;
    }
    return usage();
}
