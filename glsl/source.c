/*
 * One entry for program files of either language, so every command,
 * scene and benchmark list that takes an ARB program takes GLSL too
 * (and OpenCL C kernels, `.cl`, docs/OPENCL.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

bool us_is_arb_text(const char *text, size_t len)
{
    /* ARB_vertex_program 2.14.1: the program string begins with !!ARB;
     * a compute program with !!USHADER (docs/COMPUTE.md) */
    return (len >= 5 && !memcmp(text, "!!ARB", 5)) ||
           (len >= 9 && !memcmp(text, "!!USHADER", 9));
}

bool us_glsl_check_nul(const char *text, size_t len, struct us_diag *diag)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return true;
    memset(diag, 0, sizeof *diag);
    diag->line = 1;
    diag->col = 1;
    for (const char *p = text; p < nul; p++) {
        diag->col = *p == '\n' ? 1 : diag->col + 1;
        diag->line += *p == '\n';
    }
    snprintf(diag->msg, sizeof diag->msg, "NUL byte in the source");
    return false;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

int us_glsl_stage_of_path(const char *path)
{
    if (!path)
        return US_STAGE_ANY;
    if (ends_with(path, ".vert") || ends_with(path, ".vs"))
        return US_STAGE_VERTEX;
    if (ends_with(path, ".frag") || ends_with(path, ".fs"))
        return US_STAGE_FRAGMENT;
    if (ends_with(path, ".comp") || ends_with(path, ".cl"))
        return US_STAGE_COMPUTE;
    return US_STAGE_ANY;
}

/* us_glsl_compile's messages start with "PATH:LINE: "; the line is in
 * diag->line already, so callers that print positions get it once. */
static void strip_location(const char *path, struct us_diag *diag)
{
    size_t n = strlen(path);
    const char *m = diag->msg;
    if (strncmp(m, path, n) || m[n] != ':')
        return;
    const char *p = m + n + 1;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == ':')
        p++;
    while (*p == ' ')
        p++;
    memmove(diag->msg, p, strlen(p) + 1);
}

bool us_program_from_text(const char *path, const char *text, size_t len,
                          int stage, const struct us_glsl_options *opt,
                          struct us_program *out, struct us_diag *diag)
{
    if (us_is_arb_text(text, len))
        return us_assemble(text, len, stage, out, diag);
    memset(out, 0, sizeof *out);
    if (!us_glsl_check_nul(text, len, diag))
        return false;
    if (path && ends_with(path, ".cl")) {
        /* OpenCL C: a kernel, so compute (docs/OPENCL.md) */
        if (stage != US_STAGE_ANY && stage != US_STAGE_COMPUTE) {
            memset(diag, 0, sizeof *diag);
            snprintf(diag->msg, sizeof diag->msg, "an OpenCL C kernel is a "
                     "compute program");
            return false;
        }
        bool ok = us_ocl_compile_opt(path, text, len, opt, out, NULL, diag);
        if (!ok)
            strip_location(path, diag);
        return ok;
    }
    if (stage == US_STAGE_ANY)
        stage = us_glsl_stage_of_path(path);
    if (stage == US_STAGE_ANY) {
        memset(diag, 0, sizeof *diag);
        snprintf(diag->msg, sizeof diag->msg, "a GLSL shader needs a stage: "
                 "name the file .vert, .frag or .comp, or give it "
                 "(--stage)");
        return false;
    }
    struct us_glsl_options defaults;
    if (!opt) {
        us_glsl_options_init(&defaults);
        opt = &defaults;
    }
    if (!path)
        path = "shader";
    char *rew = NULL;
    size_t rlen;
    if (us_glsl_is_legacy(text, len)) {
        if (!us_glsl_front_alone(text, len, (enum us_stage)stage,
                                 opt->varying_slots, &rew, &rlen, diag))
            return false;
        text = rew;
        len = rlen;
    }
    bool ok = us_glsl_compile(path, text, len, (enum us_stage)stage, opt,
                              out, NULL, diag);
    free(rew);
    if (!ok)
        strip_location(path, diag);
    return ok;
}
