/*
 * The GLSL driver: source -> glslangValidator (OpenGL SPIR-V, locations
 * and bindings auto-mapped) -> spirv-opt -> us_spirv_translate.
 *
 * The tools run through posix_spawnp with argument vectors (no shell),
 * on files made with mkstemp and removed afterwards; their output is
 * captured through a pipe, and glslang's first ERROR line becomes the
 * diagnostic, with the temporary file's name replaced by the caller's.
 * A tool that runs longer than TOOL_SECONDS is killed (spirv-opt can take
 * minutes folding piglit's 2^64-call tests): an error, not a hang.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include "glsl/spirv.h"

extern char **environ;

enum { MAX_TOOL_OUTPUT = 1 << 16, MAX_SPIRV_BYTES = 1 << 24,
       TOOL_SECONDS = 20 };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void us_glsl_options_init(struct us_glsl_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->optimize = true;
}

static bool fail(struct us_diag *diag, unsigned line, const char *fmt,
                 const char *a, const char *b)
{
    diag->line = line;
    diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, fmt, a, b);
    return false;
}

bool us_spirv_translate(const uint32_t *words, size_t nwords,
                        enum us_stage stage, struct us_program *out,
                        struct us_glsl_info *info, struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    if (info)
        memset(info, 0, sizeof *info);
    struct spv s = { .w = words, .nw = nwords, .stage = stage, .diag = diag,
                     .info = info };
    s.params = calloc(US_MAX_PARAMS, sizeof *s.params);
    s.decls = calloc(US_MAX_PARAMS, sizeof *s.decls);
    s.unavailable = calloc(US_MAX_PARAMS, sizeof *s.unavailable);
    s.param_comp = calloc(US_MAX_PARAMS, sizeof *s.param_comp);
    bool ok = s.params && s.decls && s.unavailable && s.param_comp;
    if (!ok)
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
    ok = ok && spv_parse(&s) && translate_function(&s) &&
         bind_initialized_uniforms(&s) && finish_program(&s, out) &&
         us_flow_build(out, &out->flow, diag);
    /* Every failure names its reason; a path that forgot to is a bug,
     * but the user still gets a line that says where it happened. */
    if (!ok && !diag->msg[0])
        snprintf(diag->msg, sizeof diag->msg,
                 "SPIR-V translation failed (no reason given)");
    free(s.ids);
    free(s.members);
    free(s.blocks);
    free(s.insts);
    free(s.vals);
    free(s.vreg_ssa);
    free(s.consts);
    free(s.params);
    free(s.decls);
    free(s.unavailable);
    free(s.param_comp);
    if (!ok)
        us_program_free(out);
    return ok;
}

/* ---- Running the tools ---------------------------------------------- */

/* Run argv[0] from PATH; its stdout and stderr into out (NUL-ended). */
static bool run_tool(char *const argv[], char *out, size_t cap, int *status,
                     struct us_diag *diag)
{
    int fd[2];
    if (pipe(fd) != 0)
        return fail(diag, 0, "cannot create a pipe: %s%s", strerror(errno),
                    "");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (err != 0) {
        close(fd[0]);
        return fail(diag, 0, "cannot run %s: %s", argv[0], strerror(err));
    }
    size_t n = 0;
    double deadline = now_seconds() + TOOL_SECONDS;
    bool late = false;
    for (;;) {
        char tmp[4096];
        struct pollfd pfd = { fd[0], POLLIN, 0 };
        double left = deadline - now_seconds();
        int r = left > 0 ? poll(&pfd, 1, (int)(left * 1000) + 1) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            late = true;
            kill(pid, SIGKILL);
            break;
        }
        ssize_t k = read(fd[0], tmp, sizeof tmp);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        size_t take = (size_t)k < cap - 1 - n ? (size_t)k : cap - 1 - n;
        memcpy(out + n, tmp, take);
        n += take;
    }
    out[n] = 0;
    close(fd[0]);
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            return fail(diag, 0, "waitpid: %s%s", strerror(errno), "");
    if (late) {
        char secs[16];
        snprintf(secs, sizeof secs, "%d", TOOL_SECONDS);
        return fail(diag, 0, "%s took longer than %s s", argv[0], secs);
    }
    return true;
}

/* glslang's first "ERROR: <file>:<line>: <message>" as the diagnostic. */
static bool glslang_error(const char *log, const char *tmp_path,
                          const char *path, struct us_diag *diag)
{
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        if (strncmp(p, "ERROR: ", 7)) {
            p = nl ? nl + 1 : NULL;
            continue;
        }
        /* "<file or string number>:<line>: <message>" */
        const char *q = p + 7;
        size_t tl = strlen(tmp_path);
        const char *after = !strncmp(q, tmp_path, tl)
                            ? q + tl : q + strspn(q, "0123456789");
        unsigned line = 0;
        if (*after == ':' && after[1] >= '0' && after[1] <= '9') {
            char *end;
            line = (unsigned)strtoul(after + 1, &end, 10);
            if (*end == ':') {
                q = end + 1;
                while (*q == ' ')
                    q++;
            }
        }
        size_t len = strcspn(q, "\n");
        while (len && (q[len - 1] == ' ' || q[len - 1] == '\r'))
            len--;
        char msg[200];
        snprintf(msg, sizeof msg, "%.*s", (int)(len < 199 ? len : 199), q);
        diag->line = line;
        diag->col = 0;
        snprintf(diag->msg, sizeof diag->msg, "%.100s:%u: %.140s", path, line,
                 msg);
        return false;
    }
    size_t len = strcspn(log, "\n");
    diag->line = 0;
    snprintf(diag->msg, sizeof diag->msg,
             "%.100s: glslangValidator failed: %.*s", path,
             (int)(len < 120 ? len : 120), log);
    return false;
}

static bool read_spirv(const char *file, uint32_t **words, size_t *nwords,
                       struct us_diag *diag)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return fail(diag, 0, "cannot read %.160s: %.60s", file,
                    strerror(errno));
    uint32_t *w = malloc(MAX_SPIRV_BYTES);
    size_t n = w ? fread(w, 1, MAX_SPIRV_BYTES, f) : 0;
    fclose(f);
    if (!w || n % 4 || n == 0 || n == MAX_SPIRV_BYTES) {
        free(w);
        return fail(diag, 0, "%.200s: not a SPIR-V binary%s", file, "");
    }
    *words = w;
    *nwords = n / 4;
    return true;
}

/* The GLSL >= 330 text glslang compiles: legacy sources (no #version,
 * 1.10, 1.20, ES 1.00) go through the front step's rewrite (glsl/front.c)
 * here, alone (a program pair links its interface through us_glsl_front
 * first and passes the rewritten text).  *owned is the rewrite, if any. */
static bool source_for_glslang(const char *text, size_t len,
                               enum us_stage stage, const char **src,
                               size_t *src_len, char **owned,
                               struct us_diag *diag)
{
    *owned = NULL;
    *src = text;
    *src_len = len;
    if (!us_glsl_is_legacy(text, len))
        return true;
    if (!us_glsl_front(text, len, stage, NULL, owned, src_len, diag))
        return false;
    *src = *owned;
    return true;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

static bool make_temp(char *buf, size_t size, const char *what,
                      struct us_diag *diag, int *fd)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, size, "%s/ushader-%s-XXXXXX", dir && *dir ? dir : "/tmp",
             what);
    *fd = mkstemp(buf);
    if (*fd < 0)
        return fail(diag, 0, "cannot create a temporary file %.160s: %.60s",
                    buf, strerror(errno));
    return true;
}

/* Whether the module declares a uniform with an initializer (an
 * OpVariable of storage class UniformConstant with a fourth operand). */
static bool has_initialized_uniform(const uint32_t *w, size_t n)
{
    for (size_t at = 5; at < n;) {
        unsigned wc = w[at] >> 16;
        if (wc == 0 || at + wc > n)
            return false;
        if ((w[at] & 0xffff) == SpvOpVariable && wc >= 5 &&
            w[at + 3] == SpvStorageClassUniformConstant)
            return true;
        at += wc;
    }
    return false;
}

bool us_glsl_compile(const char *path_for_messages, const char *text,
                     size_t len, enum us_stage stage,
                     const struct us_glsl_options *opt,
                     struct us_program *out, struct us_glsl_info *info,
                     struct us_diag *diag)
{
    struct us_glsl_options defaults;
    if (!opt) {
        us_glsl_options_init(&defaults);
        opt = &defaults;
    }
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    const char *path = path_for_messages ? path_for_messages : "<source>";
    char *rewritten;
    if (!source_for_glslang(text, len, stage, &text, &len, &rewritten, diag)) {
        char msg[sizeof diag->msg];
        snprintf(msg, sizeof msg, "%s", diag->msg);
        snprintf(diag->msg, sizeof diag->msg, "%.100s:%u: %.140s", path,
                 diag->line, msg);
        return false;
    }
    char src[200], spv[200], opt_spv[200];
    int fs = -1, fo = -1, fp = -1;
    bool ok = make_temp(src, sizeof src, "src", diag, &fs);
    ok = ok && make_temp(spv, sizeof spv, "spv", diag, &fo);
    ok = ok && make_temp(opt_spv, sizeof opt_spv, "opt", diag, &fp);
    if (ok && !write_all(fs, text, len))
        ok = fail(diag, 0, "cannot write %.160s: %.60s", src, strerror(errno));
    char *log = ok ? malloc(MAX_TOOL_OUTPUT) : NULL;
    if (ok && !log)
        ok = fail(diag, 0, "out of memory%s%s", "", "");
    int status = 0;
    if (ok) {
        char *argv[] = {
            (char *)(opt->glslang ? opt->glslang : "glslangValidator"),
            "-G", "--aml", "--amb", "-S",
            stage == US_STAGE_VERTEX ? "vert" : "frag", "-o", spv, src, NULL
        };
        ok = run_tool(argv, log, MAX_TOOL_OUTPUT, &status, diag);
        if (ok && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
            ok = glslang_error(log, src, path, diag);
        unlink(src);   /* each file goes as soon as it has been read */
    }
    const char *binary = spv;
    /* An initialized uniform holds its value even where the stage does not
     * read it: the other stage's declaration of the same name does
     * (GLSL 1.20 4.3.5), so spirv-opt must keep it. */
    bool keep_uniforms = false;
    if (ok) {
        uint32_t *w0 = NULL;
        size_t n0 = 0;
        ok = read_spirv(spv, &w0, &n0, diag);
        keep_uniforms = ok && has_initialized_uniform(w0, n0);
        free(w0);
    }
    if (ok) {
        /* -O inlines, turns variables into SSA and folds; without it the
         * calls still have to go: the translator takes one function. */
        char *argv_o[] = {
            (char *)(opt->spirv_opt ? opt->spirv_opt : "spirv-opt"),
            "-O", "--merge-return", "--skip-validation", spv, "-o", opt_spv,
            keep_uniforms ? "--preserve-bindings" : NULL, NULL };
        char *argv_i[] = {
            (char *)(opt->spirv_opt ? opt->spirv_opt : "spirv-opt"),
            "--inline-entry-points-exhaustive", "--eliminate-dead-functions",
            "--merge-return", "--skip-validation", spv, "-o", opt_spv,
            keep_uniforms ? "--preserve-bindings" : NULL, NULL };
        ok = run_tool(opt->optimize ? argv_o : argv_i, log, MAX_TOOL_OUTPUT,
                      &status, diag);
        unlink(spv);
        if (ok && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
            ok = fail(diag, 0, "spirv-opt failed: %.200s%s", log, "");
        binary = opt_spv;
    }
    uint32_t *words = NULL;
    size_t nwords = 0;
    ok = ok && read_spirv(binary, &words, &nwords, diag);
    if (fp >= 0)
        unlink(binary);
    if (ok) {
        ok = us_spirv_translate(words, nwords, stage, out, info, diag);
        if (!ok) {
            char msg[sizeof diag->msg];
            snprintf(msg, sizeof msg, "%s", diag->msg);
            snprintf(diag->msg, sizeof diag->msg, "%.100s: %.150s", path, msg);
        }
    }
    free(words);
    free(log);
    free(rewritten);
    for (int i = 0; i < 3; i++) {
        int fd = i == 0 ? fs : i == 1 ? fo : fp;
        const char *name = i == 0 ? src : i == 1 ? spv : opt_spv;
        if (fd >= 0) {
            close(fd);
            unlink(name);
        }
    }
    return ok;
}
