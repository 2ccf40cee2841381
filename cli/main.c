/* ushader: dispatch to the subcommands listed in commands.def. */
#define _DEFAULT_SOURCE     /* sbrk, madvise's MADV_HUGEPAGE */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/cli.h"
#include "glsl/cleanup.h"

static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} commands[] = {
#define CMD(name, fn, summary) { #name, fn, summary },
#include "commands.def"
#undef CMD
};

static void usage(FILE *f)
{
    fprintf(f, "usage: ushader COMMAND [ARGS...]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`ushader COMMAND --help` describes one command; "
            "`ushader --version` the version\nand the commit built.\n");
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ushader %s (%s)\n", us_version(), us_commit());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "ushader: error: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

/* Memory touched for the first time costs a page fault a page, and a
 * fault is slow on a VM: 2.4 ms a MB in 4 KiB pages on the machine of
 * docs/PERFORMANCE.md, 0.06 ms in 2 MiB pages.  So blocks up to 32 MB
 * (glibc's largest threshold) come from the heap rather than from a
 * mapping of their own, all threads allocate there, freed memory stays
 * there for the next draw, mesh or batch to reuse, and the heap's first
 * HEAP bytes are advised for transparent huge pages -- what glibc's
 * tunable glibc.malloc.hugetlb=1 does, which only the environment can
 * set.  The advice must precede the first touch of a 2 MiB page, and
 * glibc writes a chunk header where the heap starts and where a block
 * is split off: so the break is moved to a page short of a 2 MiB
 * boundary, the heap grown by one block of HEAP + 2 MiB and freed, and
 * only the HEAP bytes from that boundary advised.  Larger blocks are
 * advised where they are allocated (gfx/hugemem.c). */
static void heap_in_huge_pages(void)
{
    /* (not under ASan or TSan: their allocator replaces glibc's, and its
     * first touch of the 30 MB block cost 88 ms a run) */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    enum { HUGE = 2 << 20, HEAP = 28 << 20, PAGE = 4096 };
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_ARENA_MAX, 1);
    uintptr_t brk0 = (uintptr_t)sbrk(0);
    if (brk0 == (uintptr_t)-1)
        return;
    uintptr_t start = (brk0 + PAGE + HUGE - 1) / HUGE * HUGE;
    if (sbrk((intptr_t)(start - PAGE - brk0)) == (void *)-1)
        return;
    void *grow = malloc(HEAP + HUGE);
    if (grow && (uintptr_t)grow < start && (uintptr_t)sbrk(0) >= start + HEAP)
        (void)madvise((void *)start, HEAP, MADV_HUGEPAGE);
    free(grow);
#endif
}

/* Every command's output is checked once more here: printf into a full
 * disk must not exit 0 in silence.  close(2) can report a delayed write
 * error too; EBADF only means there was no standard output to close. */
int main(int argc, char **argv)
{
    heap_in_huge_pages();
    us_cleanup_install();
    int rc = dispatch(argc, argv);
    if (!cli_flush_stdout() && rc == 0)
        rc = 1;
    if (fclose(stdout) != 0 && errno != EBADF) {
        cli_error(NULL, 0, 0, "writing standard output: %s", strerror(errno));
        if (rc == 0)
            rc = 1;
    }
    return rc;
}
