/* ushader asm [--stage vertex|fragment] [--target T] [-S] [-o OUT] FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/scalar.h"

static const char usage[] =
    "usage: ushader asm [--stage vertex|fragment] [--target T] [-S] [-o OUT] FILE\n"
    "       ushader asm --isa kgpu|fpga|tinygpu ... (ushader asm --isa X --help)\n"
    "  Assemble an ARB_vertex_program / ARB_fragment_program 1.0 file.\n"
    "  Exits 0 when it is valid, 1 with FILE:LINE:COL: error: ... if not.\n"
    "  --stage S  require a program of that type (!!ARBvp1.0 / !!ARBfp1.0)\n"
    "  -S         the listing: the program as canonical ARB text, or with\n"
    "             --target the target's code (lowered, compacted, scheduled)\n"
    "             as text; on stdout, or with -o written to OUT (no binary)\n"
    "  --target T scalar, scalar-nocompact, simd4, vliw, vliw5, superscalar\n"
    "             or hetero (isa/scalar.h describes each encoding)\n"
    "  -o OUT     without -S, write the target's binary (default target\n"
    "             scalar): header of five little-endian uint32 (magic \"USHB\",\n"
    "             version, target number, word width in bits, word count),\n"
    "             then each word as ceil(width / 32) little-endian uint32;\n"
    "             with -S, the listing.  Written atomically.\n"
    "  --isa      a seed's assembly language (docs/seeds/)\n";

/* The listing on stdout, or into `out` (atomically); 0 or 1. */
static int put_listing(const char *text, const char *out)
{
    if (!out) {
        fputs(text, stdout);
        return 0;
    }
    return cli_write_file(out, text, strlen(text)) ? 0 : 1;
}

/* --target / -o: encode, then the listing (-S) or the binary. */
static int emit_target(const char *file, const struct us_program *prog,
                       int target, bool listing, const char *out)
{
    struct us_binary bin;
    struct us_diag d;
    if (!us_encode_target(prog, (enum us_target)target, &bin, &d)) {
        cli_error(file, d.line, 0, "%s: %s", us_target_name((enum us_target)target), d.msg);
        return 1;
    }
    int rc = 0;
    if (listing) {
        char *text;
        if (us_binary_disassemble(&bin, &text, &d)) {
            rc = put_listing(text, out);
            free(text);
        } else {
            cli_error(file, 0, 0, "%s", d.msg);
            rc = 1;
        }
    }
    if (out && !listing) {
        uint8_t *data;
        size_t len;
        if (!us_binary_serialize(&bin, &data, &len)) {
            cli_error(out, 0, 0, "out of memory");
            rc = 1;
        } else {
            if (!cli_write_file(out, data, len))
                rc = 1;
            free(data);
        }
    }
    us_binary_free(&bin);
    return rc;
}

int cmd_asm(int argc, char **argv)
{
    if (seed_isa_requested(argc, argv))
        return seed_cmd_asm(argc, argv);
    int stage = US_STAGE_ANY;
    bool listing = false;
    const char *file = NULL, *out = NULL;
    int target = -1;
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "-S", false, false, NULL },
        { "--target", true, false, NULL }, { "-o", true, false, NULL },
        { "--stage", true, false, NULL }, { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("asm", argc, argv, 1, options))
        return 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "-S")) {
            listing = true;
        } else if (!strcmp(argv[i], "--target") && i + 1 < argc) {
            target = us_target_lookup(argv[++i]);
            if (target < 0) {
                cli_error(NULL, 0, 0, "--target: unknown target '%s'", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
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
    if (!cli_check_output(out, &file, 1))
        return 1;

    struct us_program prog;
    if (!cli_assemble_file(file, stage, &prog))
        return 1;
    int rc = 0;
    if (target >= 0 || (out && !listing)) {
        rc = emit_target(file, &prog, target >= 0 ? target : US_TARGET_SCALAR,
                         listing, out);
    } else if (listing) {
        char *text = us_disassemble(&prog);
        if (text)
            rc = put_listing(text, out);
        else {
            cli_error(file, 0, 0, "out of memory");
            rc = 1;
        }
        free(text);
    }
    us_program_free(&prog);
    return rc;
}
