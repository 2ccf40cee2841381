/* ushader dis [--target T] FILE.bin: decode an instruction-memory image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/scalar.h"

static const char usage[] =
    "usage: ushader dis [--target T] FILE.bin\n"
    "  Decode a binary written by `ushader asm -o` back to text, one line\n"
    "  per instruction-memory word (VLIW and hetero: one bundle per line).\n"
    "  --target T  require the file to hold code for target T\n";

int cmd_dis(int argc, char **argv)
{
    if (seed_isa_requested(argc, argv))
        return seed_cmd_dis(argc, argv);
    const char *file = NULL;
    int target = -1;
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--target", true, false, NULL },
        { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("dis", argc, argv, 1, options))
        return 2;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            target = us_target_lookup(argv[++i]);
            if (target < 0) {
                cli_error(NULL, 0, 0, "--target: unknown target '%s'", argv[i]);
                return 2;
            }
        } else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error(NULL, 0, 0, "dis: unknown option '%s'", argv[i]);
            fputs(usage, stderr);
            return 2;
        } else if (file) {
            cli_error(NULL, 0, 0, "dis: one FILE at a time");
            return 2;
        } else {
            file = argv[i];
        }
    }
    if (!file) {
        fputs(usage, stderr);
        return 2;
    }
    char *data;
    size_t len;
    if (!cli_read_file(file, &data, &len))
        return 1;
    struct us_binary bin;
    struct us_diag d;
    bool ok = us_binary_parse((const uint8_t *)data, len, &bin, &d);
    free(data);
    if (!ok) {
        cli_error(file, 0, 0, "%s", d.msg);
        return 1;
    }
    int rc = 0;
    char *text = NULL;
    if (target >= 0 && (enum us_target)target != bin.target) {
        cli_error(file, 0, 0, "holds %s code, not %s", us_target_name(bin.target),
                  us_target_name((enum us_target)target));
        rc = 1;
    } else if (!us_binary_disassemble(&bin, &text, &d)) {
        cli_error(file, 0, 0, "%s", d.msg);
        rc = 1;
    } else {
        fputs(text, stdout);
    }
    free(text);
    us_binary_free(&bin);
    return rc;
}
