/* ushader piglit [--arch A] [--exact-math] [--config F.ini] [--set KEY=V]...
 *                FILE...
 *
 * Run piglit shader_test files that use ARB programs, GLSL shaders or
 * compute programs (piglit/shtest.h):
 * one line per file (PASS, FAIL with the probe and the values seen, SKIP
 * with the reason), then "N passed, N failed, N skipped".  A file that
 * cannot run (malformed, a program that does not assemble) is reported as
 * `ushader: FILE:LINE:COL: error: ...` and counts as failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "gfx/backend_core.h"
#include "gfx/gfx.h"
#include "piglit/shtest.h"
#include "shader/core.h"

static const char usage[] =
    "usage: ushader piglit [--arch A] [--exact-math] [--config F.ini]\n"
    "                      [--set KEY=V]... [--] FILE...\n"
    "  Run piglit shader_test files with ARB vertex/fragment programs,\n"
    "  GLSL shaders (docs/GLSL.md) or compute shaders (docs/COMPUTE.md)\n"
    "  through the 3D pipeline and compute launches as piglit's\n"
    "  shader_runner does: draws, probes, uniforms, shader storage and\n"
    "  atomic counter buffers.\n"
    "  --arch A      what runs the programs and compute launches:\n"
    "                functional (the reference interpreter, the default) or\n"
    "                one core model: scalar, simd4, vliw, superscalar,\n"
    "                hetero, simt\n"
    "  --exact-math  correctly rounded RCP RSQ EX2 LG2 SIN COS POW instead\n"
    "                of the modelled SFU (the default)\n"
    "  --config F.ini  an INI file ([core] knobs, [sfu] SFU keys), as for\n"
    "                run; --set applies over it\n"
    "  --set KEY=V   a knob of the model's configuration (ushader config\n"
    "                --list; sfu.KEY for the SFU); GL's workgroups of 1024\n"
    "                invocations need threads_per_proc x processors slots;\n"
    "                max_instructions applies to every --arch\n"
    "  --            the end of the options (options go before the files)\n"
    "  Prints PASS, FAIL or SKIP per file and a closing count; exits 1 when\n"
    "  any file failed.\n";

/* A compute launch on the --arch core model (shtest_compute_fn). */
static bool core_compute(void *ctx, const struct us_program *prog,
                         const struct us_exec_env *env,
                         const uint32_t groups[3], struct us_diag *diag)
{
    const struct gfx_core_backend *cb = ctx;
    struct us_stats *st = malloc(sizeof *st);
    if (!st) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    bool ok = us_core_run_compute(cb->model, &cb->cfg, prog, env, groups,
                                  NULL, st, diag);
    free(st);
    return ok;
}

/* One file: 0 passed, 1 failed, 2 skipped. */
static int run_file(const char *path, const struct shtest_env *env)
{
    char *text;
    size_t len;
    if (!cli_read_file(path, &text, &len)) {
        printf("FAIL %s: cannot read the file\n", path);
        return 1;
    }
    struct shtest t;
    struct us_diag diag = { 0 };
    struct shtest_result r;
    int rc;
    if (!shtest_parse(&t, text, len, &diag) ||
        !shtest_run(&t, env, &r, &diag)) {
        cli_error(path, diag.line, diag.col, "%s", diag.msg);
        printf("FAIL %s:%u:%u: error: %s\n", path, diag.line, diag.col,
               diag.msg);
        rc = 1;
    } else if (r.status == SHTEST_PASS) {
        printf("PASS %s (%u probes)\n", path, r.probes);
        rc = 0;
    } else if (r.status == SHTEST_FAIL) {
        printf("FAIL %s:%u: %s", path, r.line, r.msg);
        if (r.failed > 1)
            printf(" (%u of %u probes failed)", r.failed, r.probes);
        putchar('\n');
        rc = 1;
    } else {
        printf("SKIP %s:%u: %s\n", path, r.line, r.msg);
        rc = 2;
    }
    shtest_free(&t);
    free(text);
    return rc;
}

int cmd_piglit(int argc, char **argv)
{
    const char *arch = "functional";
    bool exact = false;
    int first = 0;
    struct us_config cfg;
    us_config_default(&cfg);
    static const struct cli_opt options[] = {
        { "--help", false, false, NULL }, { "--arch", true, false, NULL },
        { "--config", true, false, NULL }, { "--set", true, true, NULL },
        { "--exact-math", false, false, NULL }, { NULL, false, false, NULL },
    };
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        }
    if (!cli_check_options("piglit", argc, argv, 1, options))
        return 2;
    const char *config = cli_option_value(argc, argv, 1, options, "--config");
    if (config && !cli_load_config(config, &cfg))
        return 2;
    struct cli_arch models = { .functional = true };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        struct us_diag d = { 0 };
        if (!strcmp(a, "--arch") && i + 1 < argc) {
            arch = argv[++i];
            if (!cli_parse_arch("piglit", arch, CLI_ARCH_ONE, NULL, &models))
                return 2;
        } else if (!strcmp(a, "--config") && i + 1 < argc) {
            i++;
        } else if (!strcmp(a, "--set") && i + 1 < argc) {
            if (!us_config_set(&cfg, argv[++i], &d)) {
                cli_error(NULL, 0, 0, "piglit: --set %s: %s", argv[i], d.msg);
                return 2;
            }
        } else if (!strcmp(a, "--exact-math")) {
            exact = true;
        } else if (!strcmp(a, "--")) {
            first = i + 1;
            break;
        } else if (a[0] == '-' && a[1]) {
            cli_error(NULL, 0, 0, "piglit: unknown option or missing value '%s'", a);
            fputs(usage, stderr);
            return 2;
        } else {
            first = i;
            break;
        }
    }
    if (!first || first >= argc) {
        fputs(usage, stderr);
        return 2;
    }
    for (int i = first; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] && strcmp(argv[i], "--")) {
            cli_error(NULL, 0, 0, "piglit: options go before the files ('%s')",
                      argv[i]);
            return 2;
        }
    const struct us_core_model *model = models.one;

    struct us_math math = us_math_exact;
    struct us_sfu sfu;
    bool have_sfu = false;
    if (!exact) {
        struct us_diag diag = { 0 };
        if (!us_sfu_init(&sfu, &cfg.sfu, &diag)) {
            cli_error(NULL, 0, 0, "piglit: SFU model: %s", diag.msg);
            return 1;
        }
        us_sfu_math(&sfu, &math);
        have_sfu = true;
    }
    /* the instruction budget of the configuration, for every --arch */
    struct gfx_shader_backend functional = gfx_backend_functional;
    functional.max_insts = (uint32_t)cfg.v[US_KNOB_max_instructions];
    struct shtest_env env = { .math = &math, .backend = &functional };
    struct gfx_core_backend *cb = NULL;
    struct us_diag cd = { 0 };
    if (model && !us_core_check(model, &cfg, &cd)) {
        cli_error(NULL, 0, 0, "piglit: --arch %s: %s", arch, cd.msg);
        if (have_sfu)
            us_sfu_free(&sfu);
        return 2;
    }
    if (model) {
        if (!(cb = malloc(sizeof *cb))) {
            cli_error(NULL, 0, 0, "piglit: out of memory");
            if (have_sfu)
                us_sfu_free(&sfu);
            return 1;
        }
        gfx_core_backend_init(cb, model, &cfg);
        env.backend = &cb->be;
        env.compute = core_compute;
        env.compute_ctx = cb;
    }
    unsigned count[3] = { 0, 0, 0 };
    for (int i = first; i < argc; i++)
        count[run_file(argv[i], &env)]++;
    int rc = count[1] ? 1 : 0;
    if (cb && cb->failed) {
        cli_error(NULL, 0, 0, "piglit: %s: %s", arch, cb->diag.msg);
        rc = 1;
    }
    printf("%u passed, %u failed, %u skipped\n", count[0], count[1], count[2]);
    free(cb);
    if (have_sfu)
        us_sfu_free(&sfu);
    return rc;
}
