/*
 * The GLSL driver: source -> glslangValidator (OpenGL SPIR-V, locations
 * and bindings auto-mapped, debug lines) -> spirv-opt ->
 * us_spirv_translate.  The front step rewrites legacy sources; versions
 * glslang's SPIR-V path lacks are raised (ES 3.00 to 3.10, compute and
 * storage-buffer shaders to 4.30); a source with atomic counters gets a
 * limits file with the model's counter bindings.
 *
 * The tools run through fork and execv with argument vectors (no shell),
 * on files made with mkstemp and removed afterwards; their output is
 * captured through a pipe, and glslang's first ERROR line becomes the
 * diagnostic.  Every message names the caller's path, never a temporary
 * file.  A tool that runs longer than TOOL_SECONDS is killed (spirv-opt
 * can take minutes folding piglit's 2^64-call tests), and one that asks
 * for more than TOOL_MEMORY of address space fails (setrlimit in the
 * child, which posix_spawn cannot do): errors, not a hang or a machine
 * out of memory.  The temporary files and the running tool are registered
 * with glsl/cleanup.h, so an interrupted compile leaves neither behind.
 *
 * us_ocl_compile drives OpenCL C the same way: clang-14 (-target spir,
 * unoptimised IR, line tables), opt-14 -O2, llvm-spirv-14
 * (docs/OPENCL.md); clang's first error becomes the diagnostic.
 *
 * Both look the final module up in the SPIR-V cache first
 * (glsl/spv_cache.h) and store it there after a successful run.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <spirv/unified1/spirv.h>

#include "glsl/cleanup.h"
#include "glsl/passes.h"
#include "glsl/spirv.h"
#include "glsl/spv_cache.h"

/* TOOL_MEMORY: the address-space limit (RLIMIT_AS) of each tool.  The
 * tools need about 30 MiB for a small shader and 0.8 GiB for a 2-million-
 * token expression; without a limit, a 300-byte #define bomb made
 * glslangValidator take 6.5 GB in the 20 s it had. */
enum { MAX_TOOL_OUTPUT = 1 << 16, MAX_SPIRV_BYTES = 1 << 24,
       TOOL_SECONDS = 20, TOOL_MEMORY = 1 << 30 };

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
    opt->preshader = true;
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
                        enum us_stage stage, uint32_t flags,
                        struct us_program *out, struct us_glsl_info *info,
                        struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    if (info) {
        memset(info, 0, sizeof *info);
        info->float_integers = flags & US_SPIRV_FLOAT_INTEGERS;
    }
    struct spv s = { .w = words, .nw = nwords, .stage = stage, .diag = diag,
                     .info = info,
                     .float_ints = flags & US_SPIRV_FLOAT_INTEGERS };
    if (stage == US_STAGE_FRAGMENT)
        s.interp_smooth =
            (flags & US_SPIRV_SMOOTH_COLOR0 ? 1ull << US_FIN_COLOR0 : 0) |
            (flags & US_SPIRV_SMOOTH_COLOR1 ? 1ull << US_FIN_COLOR1 : 0);
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        s.size_local[b] = s.size_param[b] = -1;
    s.params = calloc(US_MAX_PARAMS, sizeof *s.params);
    s.decls = calloc(US_MAX_PARAMS, sizeof *s.decls);
    s.unavailable = calloc(US_MAX_PARAMS, sizeof *s.unavailable);
    s.param_comp = calloc(US_MAX_PARAMS, sizeof *s.param_comp);
    bool ok = s.params && s.decls && s.unavailable && s.param_comp;
    if (!ok)
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
    ok = ok && spv_parse(&s) && translate_function(&s) &&
         bind_initialized_uniforms(&s) && finish_program(&s, out);
    if (ok && !(flags & US_SPIRV_NO_PRESHADER))
        us_passes_program(out);
    ok = ok && us_flow_build(out, &out->flow, diag);
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

/* argv[0] as execvp would find it, into buf; false if it is nowhere on
 * PATH.  Done before fork, so the child only calls execv. */
static bool find_program(const char *name, char *buf, size_t size)
{
    if (strchr(name, '/'))
        return snprintf(buf, size, "%s", name) < (int)size;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;; p++) {
        size_t n = strcspn(p, ":");
        /* An empty PATH entry is the working directory. */
        int k = n ? snprintf(buf, size, "%.*s/%s", (int)n, p, name)
                  : snprintf(buf, size, "%s", name);
        if (k > 0 && (size_t)k < size && access(buf, X_OK) == 0)
            return true;
        p += n;
        if (!*p)
            return false;
    }
}

/* The child's side of run_tool: between fork and exec, only
 * async-signal-safe calls.  An exec failure's errno goes up `err`. */
static void tool_child(const char *file, char *const argv[],
                       char *const envp[], int out, int in, int err,
                       const struct rlimit *as, const sigset_t *mask)
{
    us_cleanup_forget();
    us_cleanup_restore(mask);
    close(in);
    dup2(out, 1);
    dup2(out, 2);
    if (out > 2)   /* with stdout closed, pipe() may have returned 1 */
        close(out);
    setrlimit(RLIMIT_AS, as);
    execve(file, argv, envp);
    int e = errno;
    ssize_t w = write(err, &e, sizeof e);
    (void)w;
    _exit(127);
}

/* The preload object for the tools (tools/preload/huge_bss.c), beside
 * the running program (build/ushader-huge-bss.so, or where `make
 * install` put both), into buf; false when there is none (the tools then
 * run without it, only slower). */
static bool huge_bss_object(char *buf, size_t size)
{
    static const char name[] = "ushader-huge-bss.so";
    ssize_t n = readlink("/proc/self/exe", buf, size);
    if (n <= 0 || (size_t)n >= size)
        return false;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash || (size_t)(slash + 1 - buf) + sizeof name > size)
        return false;
    memcpy(slash + 1, name, sizeof name);
    return access(buf, R_OK) == 0;
}

/* The tools' environment: ours, plus GLIBC_TUNABLES=glibc.malloc.hugetlb=1
 * where GLIBC_TUNABLES is unset (glibc's malloc then advises its heap for
 * transparent huge pages), and the preload object above appended to
 * LD_PRELOAD (its static data in huge pages).  glslangValidator builds
 * its built-in symbol tables on a fresh heap of megabytes and clears a
 * 7.4 MB array at every start: on the 2-core VM, where a page fault costs
 * 10-18 us, the heap was 5,200 of a run's 8,000 faults (0.15 -> 0.09 s
 * of its CPU) and the array 1,800 of the 2,700 left (54 -> 43 ms;
 * docs/perf/demo.md).  One block, freed whole; NULL when out of memory. */
static char **tool_environ(void)
{
    extern char **environ;
    static char tunable[] = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1";
    static const char key[] = "LD_PRELOAD=";
    char object[4096];
    bool preload = huge_bss_object(object, sizeof object);
    const char *theirs = getenv("LD_PRELOAD");
    if (theirs && !*theirs)
        theirs = NULL;
    size_t n = 0;
    while (environ[n])
        n++;
    size_t text = preload ? sizeof key + (theirs ? strlen(theirs) + 1 : 0) +
                            strlen(object) : 0;
    char **envp = malloc((n + 3) * sizeof *envp + text);
    if (!envp)
        return NULL;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!preload || strncmp(environ[i], key, sizeof key - 1))
            envp[m++] = environ[i];
    if (!getenv("GLIBC_TUNABLES"))
        envp[m++] = tunable;
    if (preload) {
        char *s = (char *)(envp + n + 3);
        snprintf(s, text, "%s%s%s%s", key, theirs ? theirs : "",
                 theirs ? ":" : "", object);
        envp[m++] = s;
    }
    envp[m] = NULL;
    return envp;
}

/* Run argv[0] from PATH under an address-space limit of TOOL_MEMORY (or
 * the caller's lower one); its stdout and stderr into out (NUL-ended).
 * While it runs, a signal that ends the process kills it too
 * (glsl/cleanup.h). */
static bool run_tool(char *const argv[], char *out, size_t cap, int *status,
                     struct us_diag *diag)
{
    char file[4096];
    if (!find_program(argv[0], file, sizeof file))
        return fail(diag, 0, "cannot run %s: %s", argv[0], strerror(ENOENT));
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) != 0)
        as.rlim_cur = as.rlim_max = RLIM_INFINITY;
    if (as.rlim_cur == RLIM_INFINITY || as.rlim_cur > TOOL_MEMORY)
        as.rlim_cur = TOOL_MEMORY;
    as.rlim_max = as.rlim_cur;
    char **envp = tool_environ();
    if (!envp)
        return fail(diag, 0, "out of memory%s%s", "", "");
    int fd[2], ep[2];
    if (pipe(fd) != 0) {
        free(envp);
        return fail(diag, 0, "cannot create a pipe: %s%s", strerror(errno),
                    "");
    }
    if (pipe(ep) != 0) {
        free(envp);
        close(fd[0]);
        close(fd[1]);
        return fail(diag, 0, "cannot create a pipe: %s%s", strerror(errno),
                    "");
    }
    /* Close-on-exec, so a tool started by another thread holds no end. */
    for (int i = 0; i < 2; i++) {
        fcntl(fd[i], F_SETFD, FD_CLOEXEC);
        fcntl(ep[i], F_SETFD, FD_CLOEXEC);
    }
    sigset_t mask;
    us_cleanup_block(&mask);
    pid_t pid = fork();
    int fork_errno = errno;
    if (pid == 0)
        tool_child(file, argv, envp, fd[1], fd[0], ep[1], &as, &mask);
    int slot = pid > 0 ? us_cleanup_add_child(pid) : -1;
    us_cleanup_restore(&mask);
    free(envp);
    close(fd[1]);
    close(ep[1]);
    if (pid < 0) {
        close(fd[0]);
        close(ep[0]);
        return fail(diag, 0, "cannot run %s: %s", argv[0],
                    strerror(fork_errno));
    }
    int exec_errno = 0;
    ssize_t got;
    while ((got = read(ep[0], &exec_errno, sizeof exec_errno)) < 0 &&
           errno == EINTR)
        ;
    close(ep[0]);
    if (got != (ssize_t)sizeof exec_errno)
        exec_errno = 0;
    size_t n = 0;
    double deadline = now_seconds() + TOOL_SECONDS;
    bool late = false;
    while (!exec_errno) {
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
    /* Wait without reaping, unregister, then reap: a registered pid is
     * never one the kernel could have given to another process. */
    siginfo_t si;
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
        if (errno != EINTR)
            break;
    us_cleanup_drop(slot);
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR)
            return fail(diag, 0, "waitpid: %s%s", strerror(errno), "");
    if (exec_errno)
        return fail(diag, 0, "cannot run %s: %s", argv[0],
                    strerror(exec_errno));
    if (late) {
        char secs[16];
        snprintf(secs, sizeof secs, "%d", TOOL_SECONDS);
        return fail(diag, 0, "%s took longer than %s s", argv[0], secs);
    }
    return true;
}

/* run_tool for the cache's `--version` runs (spv_cache_runner). */
static bool cache_runner(char *const argv[], char *out, size_t cap,
                         int *status)
{
    struct us_diag diag;
    return run_tool(argv, out, cap, status, &diag);
}

/* A tool killed by a signal: most often the abort of an uncaught
 * std::bad_alloc, an allocation past TOOL_MEMORY. */
static bool tool_died(const char *tool, int status, const char *log,
                      struct us_diag *diag)
{
    char what[160];
    if (strstr(log, "bad_alloc") || strstr(log, "memory"))
        snprintf(what, sizeof what, "ran out of memory (the tools may use "
                 "%d MiB of address space)", TOOL_MEMORY >> 20);
    else
        snprintf(what, sizeof what, "was killed by signal %d (%s)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    return fail(diag, 0, "%s %s", tool, what);
}

/* glslang's first "ERROR: <file>:<line>: <message>" as the diagnostic. */
static bool glslang_error(const char *log, int status, const char *tmp_path,
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
    /* No ERROR line: the first line that is not glslang's echo of the
     * file name it was given. */
    size_t tl = strlen(tmp_path);
    while (!strncmp(log, tmp_path, tl) && (log[tl] == '\n' || !log[tl]))
        log += tl + (log[tl] == '\n');
    size_t len = strcspn(log, "\n");
    diag->line = 0;
    if (len)
        snprintf(diag->msg, sizeof diag->msg,
                 "%.100s: glslangValidator failed: %.*s", path,
                 (int)(len < 120 ? len : 120), log);
    else
        snprintf(diag->msg, sizeof diag->msg, "%.100s: glslangValidator "
                 "exited with status %d and no message", path, status);
    return false;
}

/* The module `tool` wrote into `file`. */
static bool read_spirv(const char *file, const char *tool, uint32_t **words,
                       size_t *nwords, struct us_diag *diag)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return fail(diag, 0, "cannot read %.100s's output: %.60s", tool,
                    strerror(errno));
    uint32_t *w = malloc(MAX_SPIRV_BYTES);
    size_t n = w ? fread(w, 1, MAX_SPIRV_BYTES, f) : 0;
    fclose(f);
    if (!w || n % 4 || n == 0 || n == MAX_SPIRV_BYTES) {
        free(w);
        return fail(diag, 0, "%.100s wrote no SPIR-V module%s", tool, "");
    }
    *words = w;
    *nwords = n / 4;
    return true;
}

static bool mentions(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++)
        if (text[i] == word[0] && !memcmp(text + i, word, n))
            return true;
    return false;
}

/* A GLSL 3.30 ... 4.20 shader that is a compute shader, or requires an
 * extension GLSL 4.20 or 4.30 made core (storage buffers, atomic counters,
 * layout(binding)): glslang gives those their functions (atomicAdd on a
 * buffer, layout(binding)) from 4.30 on only, so it is compiled as 4.30,
 * which only adds to the earlier versions. */
static bool needs_430(const char *text, size_t len, enum us_stage stage)
{
    static const char *const exts[] = {
        "GL_ARB_compute_shader", "GL_ARB_shader_storage_buffer_object",
        "GL_ARB_shader_atomic_counters", "GL_ARB_shading_language_420pack",
        "GL_ARB_shader_image_load_store",
    };
    if (stage == US_STAGE_COMPUTE)
        return true;
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++)
        if (mentions(text, len, exts[i]))
            return true;
    return false;
}

/* The GLSL >= 330 text glslang compiles: legacy sources (no #version,
 * 1.10, 1.20, ES 1.00) go through the front step's rewrite (glsl/front.c)
 * here, alone (a program pair links its interface through us_glsl_front
 * first and passes the rewritten text).  *owned is the rewrite, if any. */
static bool source_for_glslang(const char *text, size_t len,
                               enum us_stage stage, unsigned slots,
                               const char **src,
                               size_t *src_len, char **owned,
                               struct us_diag *diag)
{
    *owned = NULL;
    *src = text;
    *src_len = len;
    if (us_glsl_is_legacy(text, len)) {
        if (!us_glsl_front_alone(text, len, stage, slots, owned, src_len,
                                 diag))
            return false;
        *src = *owned;
        return true;
    }
    /* glslang's SPIR-V path takes GLSL ES from 3.10 on; 3.10 is 3.00 plus
     * features (compute, storage buffers, ...), so `#version 300 es`
     * becomes `#version 310 es`.  glslang compiles compute shaders from
     * GLSL 4.30 on, where GL_ARB_compute_shader (required by a 3.30 ... 4.20
     * shader) became core: such a shader says `#version 430`.  Both keep
     * the line's length, so lines and columns stay. */
    size_t at;
    unsigned v = us_glsl_version(text, len, &at);
    const char *now = NULL;
    bool es = at + 6 < len && !memcmp(text + at + 3, " es", 3);
    if (v == 300)
        now = "310";
    else if (!es && v >= 330 && v < 430 && needs_430(text, len, stage))
        now = "430";
    if (now && at + 3 <= len) {
        char *copy = malloc(len + 1);
        if (!copy) {
            memset(diag, 0, sizeof *diag);
            snprintf(diag->msg, sizeof diag->msg, "out of memory");
            return false;
        }
        memcpy(copy, text, len);
        copy[len] = '\0';
        memcpy(copy + at, now, 3);
        *owned = copy;
        *src = copy;
    }
    return true;
}

/* The text of GLSL line `line` as the source given to glslang numbers
 * it (`#line N` makes the next line N; the last line so numbered, as the
 * front step's prologue precedes its `#line 1`), without leading blanks
 * and with the front step's renames undone (us_gl_X is gl_X, us_id_X is
 * X); "..." ends a line cut to fit.  False when no line has that number. */
static bool source_line(const char *text, size_t len, unsigned line,
                        char *buf, size_t size)
{
    unsigned n = 1;
    size_t from = len, to = len;
    for (size_t i = 0; i < len;) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        size_t b = i;
        while (b < e && (text[b] == ' ' || text[b] == '\t'))
            b++;
        if (n == line) {
            from = b;
            to = e;
        }
        unsigned set = 0;
        if (e - b > 6 && !memcmp(text + b, "#line ", 6)) {
            char *end;
            unsigned long v = strtoul(text + b + 6, &end, 10);
            if (end != text + b + 6 && v < 1u << 30)
                set = (unsigned)v;
        }
        n = set ? set : n + 1;
        i = e + 1;
    }
    while (to > from && (text[to - 1] == ' ' || text[to - 1] == '\r'))
        to--;
    size_t k = 0;
    for (size_t j = from; j < to && k + 4 < size;) {
        if (to - j > 6 && !memcmp(text + j, "us_gl_", 6))
            j += 3;
        else if (to - j > 6 && !memcmp(text + j, "us_id_", 6))
            j += 6;
        buf[k++] = text[j++];
        if (k + 4 == size && j < to)
            k += (size_t)snprintf(buf + k, 4, "...");
    }
    buf[k] = '\0';
    return k > 0;
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

/* A temporary file of one compile, registered for removal on a signal
 * (glsl/cleanup.h) from mkstemp to unlink. */
struct temp {
    char name[200];
    int fd, slot;
};

static const char *temp_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

static bool temp_make(struct temp *t, const char *what, struct us_diag *diag)
{
    int n = snprintf(t->name, sizeof t->name, "%s/ushader-%s-XXXXXX",
                     temp_dir(), what);
    if (n < 0 || (size_t)n >= sizeof t->name) {
        t->name[0] = '\0';
        return fail(diag, 0, "TMPDIR is too long: %.160s%s", temp_dir(), "");
    }
    t->fd = us_cleanup_mkstemp(t->name, &t->slot);
    if (t->fd < 0)
        return fail(diag, 0, "cannot create a temporary file in %.150s: "
                    "%.60s", temp_dir(), strerror(errno));
    return true;
}

/* Each file goes as soon as it has been read; idempotent. */
static void temp_remove(struct temp *t)
{
    if (t->fd < 0)
        return;
    close(t->fd);
    unlink(t->name);
    us_cleanup_drop(t->slot);
    t->fd = -1;
}

/* Every message names the user's file: "PATH: ..." or "PATH:LINE: ...",
 * with any temporary file's name (glslang and spirv-opt print theirs)
 * replaced by PATH. */
static void user_message(struct us_diag *diag, const char *path,
                         const struct temp *t, int nt)
{
    char buf[sizeof diag->msg];
    size_t n = 0, plen = strlen(path);
    for (const char *p = diag->msg; *p && n + 1 < sizeof buf;) {
        int hit = -1;
        for (int i = 0; i < nt && hit < 0; i++)
            if (t[i].name[0] && !strncmp(p, t[i].name, strlen(t[i].name)))
                hit = i;
        if (hit < 0) {
            buf[n++] = *p++;
            continue;
        }
        size_t take = plen < sizeof buf - 1 - n ? plen : sizeof buf - 1 - n;
        memcpy(buf + n, path, take);
        n += take;
        p += strlen(t[hit].name);
    }
    buf[n] = '\0';
    if (!strncmp(buf, path, plen) && buf[plen] == ':')
        snprintf(diag->msg, sizeof diag->msg, "%s", buf);
    else if (diag->line)
        snprintf(diag->msg, sizeof diag->msg, "%.100s:%u: %.140s", path,
                 diag->line, buf);
    else
        snprintf(diag->msg, sizeof diag->msg, "%.100s: %.150s", path, buf);
}

/* ---- Resource limits for glslang ------------------------------------- */

/* glslang's default limits allow one atomic counter binding and no
 * counters in vertex shaders; the model takes 16 bindings in every stage
 * (buffer[16 + B], docs/GLSL.md).  A source with counters gets a limits
 * file: glslangValidator -c's defaults with these lines changed (a file
 * argument ending in .conf is one). */
static const struct { const char *key; unsigned value; } counter_limits[] = {
    { "MaxVertexAtomicCounters", 64 }, { "MaxFragmentAtomicCounters", 64 },
    { "MaxComputeAtomicCounters", 64 }, { "MaxCombinedAtomicCounters", 192 },
    { "MaxAtomicCounterBindings", 16 },
    { "MaxVertexAtomicCounterBuffers", 16 },
    { "MaxFragmentAtomicCounterBuffers", 16 },
    { "MaxComputeAtomicCounterBuffers", 16 },
    { "MaxCombinedAtomicCounterBuffers", 16 },
};

/* The limits file `conf` (named after the reserved temporary `base`). */
static bool limits_file(const char *glslang, struct temp *base,
                        struct temp *conf, char *log, struct us_diag *diag)
{
    char *argv[] = { (char *)glslang, "-c", NULL };
    int status = 0;
    if (!run_tool(argv, log, MAX_TOOL_OUTPUT, &status, diag))
        return false;
    if (WIFSIGNALED(status) || WEXITSTATUS(status) != 0)
        return fail(diag, 0, "%s -c failed%s", glslang, "");
    if (!temp_make(base, "lim", diag))
        return false;
    int k = snprintf(conf->name, sizeof conf->name, "%s.conf", base->name);
    if (k < 0 || (size_t)k >= sizeof conf->name) {
        conf->name[0] = '\0';
        return fail(diag, 0, "TMPDIR is too long: %.160s%s", temp_dir(), "");
    }
    sigset_t mask;
    us_cleanup_block(&mask);
    conf->fd = open(conf->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                    0600);
    int e = errno;
    conf->slot = conf->fd >= 0 ? us_cleanup_add_file(conf->name) : -1;
    us_cleanup_restore(&mask);
    if (conf->fd < 0) {
        conf->name[0] = '\0';
        return fail(diag, 0, "cannot create a temporary file in %.150s: "
                    "%.60s", temp_dir(), strerror(e));
    }
    bool ok = true;
    for (const char *p = log; *p && ok;) {
        size_t n = strcspn(p, "\n"), key = strcspn(p, " \n");
        char line[96];
        int m = -1;
        for (size_t i = 0; i < sizeof counter_limits / sizeof *counter_limits;
             i++)
            if (key == strlen(counter_limits[i].key) &&
                !memcmp(p, counter_limits[i].key, key))
                m = snprintf(line, sizeof line, "%s %u\n",
                             counter_limits[i].key, counter_limits[i].value);
        ok = m > 0 ? write_all(conf->fd, line, (size_t)m)
                   : write_all(conf->fd, p, n) && write_all(conf->fd, "\n", 1);
        p += n + (p[n] == '\n');
    }
    return ok || fail(diag, 0, "cannot write a temporary file in %.150s: "
                      "%.60s", temp_dir(), strerror(errno));
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
    if (!source_for_glslang(text, len, stage, opt->varying_slots, &text,
                            &len, &rewritten, diag)) {
        char msg[sizeof diag->msg];
        snprintf(msg, sizeof msg, "%s", diag->msg);
        snprintf(diag->msg, sizeof diag->msg, "%.100s:%u: %.140s", path,
                 diag->line, msg);
        return false;
    }
    const char *glslang = opt->glslang ? opt->glslang : "glslangValidator";
    const char *spirv_opt = opt->spirv_opt ? opt->spirv_opt : "spirv-opt";
    enum { NTEMPS = 5 };
    struct temp t[NTEMPS];
    for (int i = 0; i < NTEMPS; i++)
        t[i] = (struct temp){ .fd = -1 };
    struct temp *src = &t[0], *spv = &t[1], *opt_spv = &t[2];
    struct temp *lim = &t[3], *conf = &t[4];
    static const char *const stage_names[US_STAGE_COUNT] = {
        "vert", "frag", "comp"
    };
    if ((unsigned)stage >= US_STAGE_COUNT) {
        free(rewritten);
        return fail(diag, 0, "%s: invalid stage%s", path, "");
    }
    /* The key: the tools, the text glslang is given, the stage and the
     * spirv-opt options (the translation's options act after the cache). */
    char tool_paths[2][4096];
    const char *const tools[2] = { tool_paths[0], tool_paths[1] };
    struct spv_cache cache = { .on = false };
    if (find_program(glslang, tool_paths[0], sizeof tool_paths[0]) &&
        find_program(spirv_opt, tool_paths[1], sizeof tool_paths[1])) {
        const char *mode = opt->optimize ? "-O" : "--inline";
        const struct spv_cache_part parts[] = {
            { stage_names[stage], strlen(stage_names[stage]) },
            { mode, strlen(mode) }, { text, len },
        };
        spv_cache_begin(&cache, opt->no_cache, tools, 2, parts, 3,
                        cache_runner);
    }
    uint32_t *words = NULL;
    size_t nwords = 0;
    bool hit = spv_cache_get(&cache, &words, &nwords);
    bool ok = hit || (temp_make(src, "src", diag) &&
                      temp_make(spv, "spv", diag) &&
                      temp_make(opt_spv, "opt", diag));
    if (ok && !hit && !write_all(src->fd, text, len))
        ok = fail(diag, 0, "cannot write a temporary file in %.160s: %.60s",
                  temp_dir(), strerror(errno));
    char *log = ok && !hit ? malloc(MAX_TOOL_OUTPUT) : NULL;
    if (ok && !hit && !log)
        ok = fail(diag, 0, "out of memory%s%s", "", "");
    bool counters = ok && !hit && mentions(text, len, "atomic_uint");
    if (counters)
        ok = limits_file(glslang, lim, conf, log, diag);
    int status = 0;
    if (ok && !hit) {
        /* -g: OpLine, so a translation error names the GLSL line (the
         * code is the same as without it) */
        char *argv[] = {
            (char *)glslang, "-G", "-g", "--aml", "--amb", "-S",
            (char *)stage_names[stage], "-o", spv->name,
            counters ? conf->name : src->name, src->name, NULL
        };
        if (!counters)
            argv[10] = NULL;
        ok = run_tool(argv, log, MAX_TOOL_OUTPUT, &status, diag);
        temp_remove(conf);
        temp_remove(lim);
        if (ok && WIFSIGNALED(status))
            ok = tool_died(glslang, status, log, diag);
        else if (ok && WEXITSTATUS(status) != 0)
            ok = glslang_error(log, WEXITSTATUS(status), src->name, path,
                               diag);
        temp_remove(src);
    }
    /* An initialized uniform holds its value even where the stage does not
     * read it: the other stage's declaration of the same name does
     * (GLSL 1.20 4.3.5), so spirv-opt must keep it. */
    bool keep_uniforms = false;
    if (ok && !hit) {
        uint32_t *w0 = NULL;
        size_t n0 = 0;
        ok = read_spirv(spv->name, glslang, &w0, &n0, diag);
        keep_uniforms = ok && has_initialized_uniform(w0, n0);
        free(w0);
    }
    if (ok && !hit) {
        /* -O inlines, turns variables into SSA and folds; without it the
         * calls still have to go: the translator takes one function. */
        char *argv_o[] = {
            (char *)spirv_opt, "-O", "--merge-return", "--skip-validation",
            spv->name, "-o", opt_spv->name,
            keep_uniforms ? "--preserve-bindings" : NULL, NULL };
        char *argv_i[] = {
            (char *)spirv_opt, "--inline-entry-points-exhaustive",
            "--eliminate-dead-functions", "--merge-return",
            "--skip-validation", spv->name, "-o", opt_spv->name,
            keep_uniforms ? "--preserve-bindings" : NULL, NULL };
        ok = run_tool(opt->optimize ? argv_o : argv_i, log, MAX_TOOL_OUTPUT,
                      &status, diag);
        temp_remove(spv);
        if (ok && WIFSIGNALED(status))
            ok = tool_died(spirv_opt, status, log, diag);
        else if (ok && WEXITSTATUS(status) != 0) {
            log[strcspn(log, "\n")] = '\0';   /* its first line */
            ok = fail(diag, 0, "spirv-opt failed: %.200s%s", log, "");
        }
    }
    if (ok && !hit) {
        ok = read_spirv(opt_spv->name, spirv_opt, &words, &nwords, diag);
        if (ok)
            spv_cache_put(&cache, words, nwords);
    }
    for (int i = 0; i < NTEMPS; i++)
        temp_remove(&t[i]);
    if (ok) {
        uint32_t flags = (us_glsl_float_integers(text, len)
                          ? US_SPIRV_FLOAT_INTEGERS : 0) |
                         us_glsl_smooth_colors(text, len) |
                         (opt->preshader ? 0 : US_SPIRV_NO_PRESHADER);
        ok = us_spirv_translate(words, nwords, stage, flags, out, info, diag);
        if (ok && !us_check_varying_slots(out, opt->varying_slots, diag)) {
            us_program_free(out);
            ok = false;
        }
        char line[64];
        size_t n = strlen(diag->msg);
        if (!ok && diag->line &&
            source_line(text, len, diag->line, line, sizeof line) &&
            n + 12 < sizeof diag->msg)
            snprintf(diag->msg + n, sizeof diag->msg - n, " (GLSL: %s)",
                     line);
    }
    if (!ok)
        user_message(diag, path, t, NTEMPS);
    free(words);
    free(log);
    free(rewritten);
    return ok;
}

/* ---- OpenCL C --------------------------------------------------------- */

/* clang's first "FILE:LINE:COL: error: message" (the temporary file's
 * name, which user_message replaces) as the diagnostic. */
static bool clang_error(const char *log, const char *tmp_path,
                        struct us_diag *diag)
{
    size_t tl = strlen(tmp_path);
    for (const char *p = log; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        const char *e = strstr(p, ": error: ");
        if (e && (size_t)(e - p) < n) {
            unsigned line = 0, col = 0;
            if (!strncmp(p, tmp_path, tl) && p[tl] == ':')
                sscanf(p + tl + 1, "%u:%u", &line, &col);
            int m = (int)(n - (size_t)(e + 9 - p));
            diag->line = line;
            diag->col = col;
            snprintf(diag->msg, sizeof diag->msg, "%.*s", m, e + 9);
            return false;
        }
        p = nl ? nl + 1 : NULL;
    }
    char first[200];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(log, "\n"), log);
    return fail(diag, 0, "clang-14 failed: %s%s", first, "");
}

/* One tool of the OpenCL chain; its first output line on failure. */
static bool ocl_step(char *const argv[], char *log, struct us_diag *diag)
{
    int status = 0;
    if (!run_tool(argv, log, MAX_TOOL_OUTPUT, &status, diag))
        return false;
    if (WIFSIGNALED(status))
        return tool_died(argv[0], status, log, diag);
    if (WEXITSTATUS(status) != 0) {
        log[strcspn(log, "\n")] = '\0';
        return fail(diag, 0, "%s failed: %.200s", argv[0], log);
    }
    return true;
}

bool us_ocl_compile(const char *path_for_messages, const char *text,
                    size_t len, struct us_program *out,
                    struct us_glsl_info *info, struct us_diag *diag)
{
    return us_ocl_compile_opt(path_for_messages, text, len, NULL, out, info,
                              diag);
}

bool us_ocl_compile_opt(const char *path_for_messages, const char *text,
                        size_t len, const struct us_glsl_options *opt,
                        struct us_program *out, struct us_glsl_info *info,
                        struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    const char *path = path_for_messages ? path_for_messages : "<source>";
    enum { NTEMPS = 4 };
    struct temp t[NTEMPS];
    for (int i = 0; i < NTEMPS; i++)
        t[i] = (struct temp){ .fd = -1 };
    struct temp *src = &t[0], *bc = &t[1], *obc = &t[2], *spv = &t[3];
    /* The SPIR-V cache, keyed by the three tools and the text (the
     * options are fixed). */
    static const char *const names[3] = { "clang-14", "opt-14",
                                          "llvm-spirv-14" };
    char tool_paths[3][4096];
    const char *const tools[3] = { tool_paths[0], tool_paths[1],
                                   tool_paths[2] };
    struct spv_cache cache = { .on = false };
    bool found = true;
    for (int i = 0; i < 3; i++)
        found = found && find_program(names[i], tool_paths[i],
                                      sizeof tool_paths[i]);
    if (found) {
        const struct spv_cache_part parts[] = { { "opencl-c", 8 },
                                                { text, len } };
        spv_cache_begin(&cache, opt && opt->no_cache, tools, 3, parts, 2,
                        cache_runner);
    }
    uint32_t *words = NULL;
    size_t nwords = 0;
    bool hit = spv_cache_get(&cache, &words, &nwords);
    bool ok = hit || (temp_make(src, "cl", diag) && temp_make(bc, "bc", diag) &&
                      temp_make(obc, "obc", diag) && temp_make(spv, "spv", diag));
    if (ok && !hit && !write_all(src->fd, text, len))
        ok = fail(diag, 0, "cannot write a temporary file in %.160s: %.60s",
                  temp_dir(), strerror(errno));
    char *log = ok && !hit ? malloc(MAX_TOOL_OUTPUT) : NULL;
    if (ok && !hit && !log)
        ok = fail(diag, 0, "out of memory%s%s", "", "");
    if (ok && !hit) {
        /* Unoptimised IR is what llvm-spirv takes; clang -O2's output
         * is not (its intrinsics), so opt-14 optimises IR that clang left
         * unoptimised.  Not -O0 -disable-O0-optnone: -O0 also marks every
         * function noinline, and a helper function's call would stay
         * (the translator takes one function); -O1 with the LLVM passes
         * disabled is the same IR without that mark.  Line tables give
         * OpLine; full -g debug info crashes llvm-spirv-14. */
        char *argv[] = { "clang-14", "-x", "cl", "-cl-std=CL1.2",
                         "-target", "spir", "-O1", "-Xclang",
                         "-disable-llvm-passes", "-gline-tables-only",
                         "-emit-llvm", "-c", src->name, "-o", bc->name,
                         NULL };
        int status = 0;
        ok = run_tool(argv, log, MAX_TOOL_OUTPUT, &status, diag);
        if (ok && WIFSIGNALED(status))
            ok = tool_died(argv[0], status, log, diag);
        else if (ok && WEXITSTATUS(status) != 0)
            ok = clang_error(log, src->name, diag);
    }
    if (ok && !hit) {
        char *argv[] = { "opt-14", "-passes=default<O2>", bc->name, "-o",
                         obc->name, NULL };
        ok = ocl_step(argv, log, diag);
    }
    if (ok && !hit) {
        char *argv[] = { "llvm-spirv-14", obc->name, "-o", spv->name, NULL };
        ok = ocl_step(argv, log, diag);
    }
    if (ok && !hit) {
        ok = read_spirv(spv->name, "llvm-spirv-14", &words, &nwords, diag);
        if (ok)
            spv_cache_put(&cache, words, nwords);
    }
    if (ok) {
        ok = us_spirv_translate(words, nwords, US_STAGE_COMPUTE, 0, out, info,
                                diag);
        char line[64];
        size_t n = strlen(diag->msg);
        if (!ok && diag->line &&
            source_line(text, len, diag->line, line, sizeof line) &&
            n + 12 < sizeof diag->msg)
            snprintf(diag->msg + n, sizeof diag->msg - n, " (OpenCL C: %s)",
                     line);
    }
    if (!ok)
        user_message(diag, path, t, NTEMPS);
    for (int i = 0; i < NTEMPS; i++)
        temp_remove(&t[i]);
    free(words);
    free(log);
    return ok;
}
