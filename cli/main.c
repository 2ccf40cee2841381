/* ushader: dispatch to the subcommands listed in commands.def. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>

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

/* Every command's output is checked once more here: printf into a full
 * disk must not exit 0 in silence.  close(2) can report a delayed write
 * error too; EBADF only means there was no standard output to close. */
int main(int argc, char **argv)
{
    /* Blocks up to 32 MB (glibc's largest threshold) come from the heap
     * and stay there when freed, for the next draw, mesh or thread batch
     * to reuse: by default glibc maps each one afresh and the first touch
     * of every page faults -- 38% of a render of bench/scenes/bunny.scn
     * on a VM, where a fault costs several microseconds. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
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
