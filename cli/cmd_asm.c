/* ushader asm [--stage vertex|fragment] [-S] FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char usage[] =
    "usage: ushader asm [--stage vertex|fragment] [-S] FILE\n"
    "  Assemble an ARB_vertex_program / ARB_fragment_program 1.0 file.\n"
    "  Exits 0 when it is valid, 1 with FILE:LINE:COL: error: ... if not.\n"
    "  --stage S  require a program of that type (!!ARBvp1.0 / !!ARBfp1.0)\n"
    "  -S         print the program as canonical ARB text\n";

int cmd_asm(int argc, char **argv)
{
    int stage = US_STAGE_ANY;
    bool listing = false;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-S")) {
            listing = true;
        } else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
            const char *s = argv[++i];
            if (!strcmp(s, "vertex"))
                stage = US_STAGE_VERTEX;
            else if (!strcmp(s, "fragment"))
                stage = US_STAGE_FRAGMENT;
            else {
                cli_error(NULL, 0, 0, "--stage wants vertex or fragment, not '%s'", s);
                return 2;
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error(NULL, 0, 0, "asm: unknown option '%s'", argv[i]);
            fputs(usage, stderr);
            return 2;
        } else if (file) {
            cli_error(NULL, 0, 0, "asm: one FILE at a time");
            return 2;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fputs(usage, stderr);
        return 2;
    }

    struct us_program prog;
    if (!cli_assemble_file(file, stage, &prog))
        return 1;
    int rc = 0;
    if (listing) {
        char *text = us_disassemble(&prog);
        if (text)
            fputs(text, stdout);
        else {
            cli_error(file, 0, 0, "out of memory");
            rc = 1;
        }
        free(text);
    }
    us_program_free(&prog);
    return rc;
}
