/* ushader glsl [--stage vertex|fragment|compute] [--no-opt]
 *              [--no-preshader] [--no-cache] [-o OUT] FILE
 *
 * Compile a GLSL shader (legacy GLSL ES 1.00 / 1.10 / 1.20 through the
 * front step, docs/GLSL.md) and print its vec4 IR as ARB-style text
 * (a compute shader as a !!USHADERcp1.0 program).
 * Also the loader the other commands use for program files of either
 * language (cli_load_program). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "isa/scalar.h"
#include "shader/core.h"

static const char usage[] =
    "usage: ushader glsl [--stage vertex|fragment|compute] [--no-opt] "
    "[--no-preshader] [--no-cache] [--set varying_slots=N] [-o OUT] FILE\n"
    "  Compile a GLSL shader to the vec4 IR and print it as ARB-style text\n"
    "  with a closing comment giving its temporary registers.  Sources\n"
    "  of GLSL 1.20 or earlier go through the front step first\n"
    "  (docs/GLSL.md).\n"
    "  --stage S  vertex, fragment or compute (default: from the\n"
    "             extension: .vert/.vs vertex, .frag/.fs fragment,\n"
    "             .comp compute; .cl an OpenCL C kernel, docs/OPENCL.md)\n"
    "  --no-opt   skip spirv-opt\n"
    "  --no-preshader  keep the work on uniforms alone in the per-thread\n"
    "             code (default: a PRESHADER block computes it once per\n"
    "             draw, glsl/pass_hoist.c)\n"
    "  --no-cache run the tools even when the SPIR-V cache has the source\n"
    "             ($USHADER_NO_CACHE does it for every command; the cache:\n"
    "             $USHADER_CACHE_DIR, else $XDG_CACHE_HOME/ushader, else\n"
    "             ~/.cache/ushader; docs/GLSL.md)\n"
    "  --set varying_slots=N  vec4 varyings the shader may use, 8..32\n"
    "             (default 8, GLES 2.0's minimum; ushader config --list)\n"
    "  -o OUT     write the text to OUT instead of stdout\n";

/* A binary from `asm -o` (its magic, isa/scalar.h) holds a target's
 * words, which no command runs: say so rather than report a syntax error
 * at its first byte. */
static bool is_binary(const char *path, const uint8_t *data, size_t len)
{
    if (len < 4 || data[0] != 'U' || data[1] != 'S' || data[2] != 'H' ||
        data[3] != 'B')
        return false;
    struct us_binary bin;
    struct us_diag d;
    if (us_binary_parse(data, len, &bin, &d)) {
        cli_error(path, 0, 0, "a ushader binary (ushader asm -o; target %s, "
                  "%u words), not a program's text: give the ARB or GLSL "
                  "source it was assembled from (ushader dis FILE prints "
                  "its words)", us_target_name(bin.target), bin.nwords);
        us_binary_free(&bin);
    } else {
        cli_error(path, 0, 0, "starts with the magic of a ushader binary "
                  "(ushader asm -o) but is not one (%s); commands that run "
                  "a program take its ARB or GLSL text", d.msg);
    }
    return true;
}

static bool load(const char *path, int stage,
                 const struct us_glsl_options *opt, struct us_program *prog)
{
    char *text;
    size_t len;
    if (!cli_read_file(path, &text, &len))
        return false;
    struct us_diag d = { 0 };
    if (is_binary(path, (const uint8_t *)text, len)) {
        free(text);
        return false;
    }
    bool ok = us_program_from_text(path, text, len, stage, opt, prog, &d);
    if (ok && !us_check_varying_slots(prog, opt ? opt->varying_slots : 0,
                                      &d)) {
        us_program_free(prog);
        ok = false;
    }
    if (!ok)
        cli_error(path, d.line, d.col, "%s", d.msg);
    free(text);
    return ok;
}

bool cli_load_program(const char *path, int stage, struct us_program *prog)
{
    return load(path, stage, NULL, prog);
}

bool cli_load_program_slots(const char *path, int stage,
                            unsigned varying_slots, struct us_program *prog)
{
    struct us_glsl_options opt;
    us_glsl_options_init(&opt);
    opt.varying_slots = varying_slots;
    return load(path, stage, &opt, prog);
}

int cmd_glsl(int argc, char **argv)
{
    const char *file = NULL, *out = NULL;
    int stage = US_STAGE_ANY;
    struct us_glsl_options opt;
    us_glsl_options_init(&opt);
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--stage", true, false, NULL },
        { "--no-opt", false, false, NULL },
        { "--no-preshader", false, false, NULL }, { "-o", true, false, NULL },
        { "--no-cache", false, false, NULL },
        { "--set", true, true, NULL }, { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("glsl", argc, argv, 1, options))
        return 2;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--stage") && i + 1 < argc) {
            const char *s = argv[++i];
            if (!strcmp(s, "vertex")) {
                stage = US_STAGE_VERTEX;
            } else if (!strcmp(s, "fragment")) {
                stage = US_STAGE_FRAGMENT;
            } else if (!strcmp(s, "compute")) {
                stage = US_STAGE_COMPUTE;
            } else {
                cli_error(NULL, 0, 0, "glsl: --stage takes vertex, fragment "
                          "or compute, not '%s'", s);
                return 2;
            }
        } else if (!strcmp(a, "--no-opt")) {
            opt.optimize = false;
        } else if (!strcmp(a, "--no-preshader")) {
            opt.preshader = false;
        } else if (!strcmp(a, "--no-cache")) {
            opt.no_cache = true;
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            /* the one knob a compile reads */
            struct us_config cfg;
            struct us_diag d = { 0 };
            us_config_default(&cfg);
            const char *kv = argv[++i];
            if (strncmp(kv, "varying_slots=", 14)) {
                cli_error(NULL, 0, 0, "glsl: --set takes varying_slots=N, "
                          "the one knob a compile reads, not '%s'", kv);
                return 2;
            }
            if (!us_config_set(&cfg, kv, &d)) {
                cli_error(NULL, 0, 0, "glsl: --set %s: %s", kv, d.msg);
                return 2;
            }
            opt.varying_slots = (unsigned)cfg.v[US_KNOB_varying_slots];
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_error(NULL, 0, 0, "glsl: unknown option or missing value '%s'",
                      a);
            fputs(usage, stderr);
            return 2;
        } else if (file) {
            cli_error(NULL, 0, 0, "glsl: one FILE at a time");
            return 2;
        } else {
            file = a;
        }
    }
    if (!file) {
        fputs(usage, stderr);
        return 2;
    }
    if (!cli_check_output(out, &file, 1))
        return 1;
    struct us_program prog;
    if (!load(file, stage, &opt, &prog))
        return 1;
    char *text = us_disassemble(&prog);
    int rc = 0;
    if (!text) {
        cli_error(file, 0, 0, "out of memory");
        rc = 1;
    } else {
        size_t n = strlen(text);
        char tail[64];
        int k = snprintf(tail, sizeof tail, "# %u temporaries\n", prog.ntemps);
        char *all = malloc(n + (size_t)k + 1);
        if (!all) {
            cli_error(file, 0, 0, "out of memory");
            rc = 1;
        } else {
            memcpy(all, text, n);
            memcpy(all + n, tail, (size_t)k + 1);
            if (out)
                rc = cli_write_file(out, all, n + (size_t)k) ? 0 : 1;
            else
                fputs(all, stdout);
            free(all);
        }
        free(text);
    }
    us_program_free(&prog);
    return rc;
}
