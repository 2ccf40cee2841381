/*
 * The SPIR-V cache: spirv-opt's module for one source, stored in
 * DIR/KEY.spv, where KEY is the SHA-256 of everything the module depends
 * on -- the exact text given to glslangValidator, the stage and the
 * options (as us_glsl_compile lists them), and each tool's identity (its
 * full path, device, inode, size, modification and change times) and its
 * `--version` output.  A tool replaced or upgraded is a different key, so
 * an entry is never used with other tools.  SHA-256 is nettle's (Debian's
 * nettle-dev; its test vectors are checked in tests/unit/test_spv_cache.c):
 * a collision would hand one source another's program.
 *
 * DIR: $USHADER_CACHE_DIR, else $XDG_CACHE_HOME/ushader, else
 * $HOME/.cache/ushader.  $USHADER_NO_CACHE (non-empty, not "0") or the
 * caller's no_cache (`--no-cache`) disables it.
 *
 * The version of a tool: `--version` would cost one more process per tool
 * and compile, so it is itself cached, in DIR/tool-ID.txt, ID the SHA-256
 * of the identity above; a change to the binary changes its inode or
 * change time, hence the file read.  (A wrapper script whose target
 * changes keeps its identity: `--no-cache` or removing DIR then.)
 *
 * Concurrent runs: every file is written to a temporary file in DIR
 * (mkstemp, registered with glsl/cleanup.h) and renamed over its name, so
 * a reader sees a whole file or none; two writers of one key write the
 * same bytes.  A reader checks the header, the size, the SPIR-V magic
 * number and the SHA-256 of the words, and compiles on any mismatch (and
 * the new entry replaces the bad one).  Errors are not cached: a source
 * that fails always runs the tools, so its message is theirs.
 *
 * Size: one entry is the module plus 48 bytes (1-21 KB for the demo's
 * shaders, under 1 MB for its 150).  Nothing is pruned automatically;
 * the directory may be removed at any time, even during a run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "glsl/cleanup.h"
#include "glsl/spv_cache.h"

enum { SPIRV_MAGIC = 0x07230203, HEADER = 48, MAX_WORDS = 1 << 22,
       VERSION_TEXT = 4096 };
static const char file_magic[8] = "USPVC01\n";

/* ---- SHA-256 (nettle) ------------------------------------------------ */

void spv_sha256(const void *data, size_t len, uint8_t out[32])
{
    struct sha256_ctx s;
    sha256_init(&s);
    sha256_update(&s, len, data);
    sha256_digest(&s, SHA256_DIGEST_SIZE, out);
}

static void hex(const uint8_t d[32], char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* A part of the key, length first, so that no two lists of parts hash
 * the same bytes. */
static void sha_part(struct sha256_ctx *s, const void *data, size_t len)
{
    uint8_t n[8];
    for (int i = 0; i < 8; i++)
        n[i] = (uint8_t)((uint64_t)len >> (8 * i));
    sha256_update(s, sizeof n, n);
    sha256_update(s, len, data);
}

/* ---- Files ------------------------------------------------------------ */

static bool cache_dir(char *buf, size_t size)
{
    const char *d = getenv("USHADER_CACHE_DIR"), *x = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (d && *d)
        n = snprintf(buf, size, "%s", d);
    else if (x && *x == '/')   /* the XDG spec ignores a relative one */
        n = snprintf(buf, size, "%s/ushader", x);
    else if (home && *home)
        n = snprintf(buf, size, "%s/.cache/ushader", home);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

/* mkdir -p, private to the user. */
static bool make_dirs(const char *dir)
{
    char p[2048];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1;; s++) {
        bool end = !*s;
        if (*s == '/' || end) {
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                return false;
            if (end)
                break;
            *s = '/';
        }
    }
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The whole of `path` (at most `cap` bytes; more is a failure). */
static bool read_file(const char *path, void *buf, size_t cap, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t n = 0;
    ssize_t k = 0;
    while (n < cap && ((k = read(fd, (char *)buf + n, cap - n)) > 0 ||
                       (k < 0 && errno == EINTR)))
        n += k > 0 ? (size_t)k : 0;
    /* one more read tells a file of exactly cap bytes from a longer one */
    char extra;
    bool longer = n == cap && read(fd, &extra, 1) > 0;
    close(fd);
    *len = n;
    return k >= 0 && !longer;
}

/* Write two pieces to DIR/NAME through a temporary file and rename. */
static bool write_file(const char *dir, const char *name, const void *a,
                       size_t alen, const void *b, size_t blen)
{
    char tmp[2200], final[2200];
    int n = snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", dir);
    int m = snprintf(final, sizeof final, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof tmp || m < 0 ||
        (size_t)m >= sizeof final)
        return false;
    int slot;
    int fd = us_cleanup_mkstemp(tmp, &slot);
    if (fd < 0)
        return false;
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        const char *p = i ? b : a;
        size_t left = i ? blen : alen;
        while (left && ok) {
            ssize_t k = write(fd, p, left);
            if (k < 0 && errno == EINTR)
                continue;
            ok = k > 0;
            if (ok) {
                p += k;
                left -= (size_t)k;
            }
        }
    }
    ok = close(fd) == 0 && ok;
    /* mkstemp's 0600 is the user's, like the directory */
    ok = ok && rename(tmp, final) == 0;
    if (!ok)
        unlink(tmp);
    us_cleanup_drop(slot);
    return ok;
}

/* ---- Tool versions ------------------------------------------------------ */

/* The identity and version of the tool at `path` into the key. */
static bool tool_part(struct sha256_ctx *key, const char *dir, const char *path,
                      spv_cache_runner run)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    char id[2400];
    int n = snprintf(id, sizeof id, "%s %ju %ju %jd %jd.%09ld %jd.%09ld",
                     path, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino,
                     (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec,
                     st.st_mtim.tv_nsec, (intmax_t)st.st_ctim.tv_sec,
                     st.st_ctim.tv_nsec);
    if (n < 0 || (size_t)n >= sizeof id)
        return false;
    uint8_t d[32];
    char h[65], name[80], file[2200];
    spv_sha256(id, (size_t)n, d);
    hex(d, h);
    snprintf(name, sizeof name, "tool-%s.txt", h);
    snprintf(file, sizeof file, "%s/%s", dir, name);
    char *text = malloc(VERSION_TEXT + 1);
    size_t len = 0;
    if (!text)
        return false;
    /* The file holds the identity's line, then the version output. */
    bool ok = read_file(file, text, VERSION_TEXT, &len) &&
              len > (size_t)n && !memcmp(text, id, (size_t)n) &&
              text[n] == '\n';
    if (!ok) {
        char *argv[] = { (char *)path, "--version", NULL };
        int status = 0;
        char *out = malloc(VERSION_TEXT);
        ok = out && run(argv, out, VERSION_TEXT - (size_t)n - 1, &status) &&
             WIFEXITED(status) && WEXITSTATUS(status) == 0 && out[0];
        if (ok) {
            len = (size_t)snprintf(text, VERSION_TEXT + 1, "%s\n%s", id, out);
            write_file(dir, name, text, len, "", 0);
        }
        free(out);
    }
    if (ok)
        sha_part(key, text, len);
    free(text);
    return ok;
}

/* ---- The interface -------------------------------------------------- */

void spv_cache_begin(struct spv_cache *c, bool disabled,
                     const char *const *tools, size_t ntools,
                     const struct spv_cache_part *parts, size_t nparts,
                     spv_cache_runner run)
{
    memset(c, 0, sizeof *c);
    const char *env = getenv("USHADER_NO_CACHE");
    if (disabled || (env && *env && strcmp(env, "0")))
        return;
    if (!cache_dir(c->dir, sizeof c->dir) || !make_dirs(c->dir))
        return;
    struct sha256_ctx key;
    sha256_init(&key);
    sha_part(&key, file_magic, sizeof file_magic);
    for (size_t i = 0; i < ntools; i++)
        if (!tool_part(&key, c->dir, tools[i], run))
            return;
    for (size_t i = 0; i < nparts; i++)
        sha_part(&key, parts[i].data, parts[i].len);
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(&key, sizeof d, d);
    hex(d, c->key);
    c->on = true;
}

/* The file header: magic, the word count (little-endian 64-bit), the
 * SHA-256 of the words as stored. */
static void header(uint8_t h[HEADER], const uint32_t *words, size_t nwords)
{
    memcpy(h, file_magic, 8);
    for (int i = 0; i < 8; i++)
        h[8 + i] = (uint8_t)((uint64_t)nwords >> (8 * i));
    spv_sha256(words, nwords * 4, h + 16);
}

bool spv_cache_get(const struct spv_cache *c, uint32_t **words,
                   size_t *nwords)
{
    if (!c->on)
        return false;
    char file[2200];
    snprintf(file, sizeof file, "%s/%s.spv", c->dir, c->key);
    struct stat st;
    if (stat(file, &st) != 0 || st.st_size < HEADER + 20 ||
        (st.st_size - HEADER) % 4 || st.st_size > HEADER + 4LL * MAX_WORDS)
        return false;
    size_t cap = (size_t)st.st_size, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return false;
    /* the size again: a file replaced since the stat is read whole */
    bool ok = read_file(file, buf, cap, &len) && len == cap;
    size_t n = (len - HEADER) / 4;
    uint32_t *w = ok ? malloc(n * 4) : NULL;
    if (w) {
        memcpy(w, buf + HEADER, n * 4);
        uint8_t h[HEADER];
        header(h, w, n);
        ok = !memcmp(h, buf, HEADER) && w[0] == SPIRV_MAGIC;
    }
    free(buf);
    if (!ok || !w) {
        free(w);
        return false;
    }
    *words = w;
    *nwords = n;
    return true;
}

void spv_cache_put(const struct spv_cache *c, const uint32_t *words,
                   size_t nwords)
{
    if (!c->on || nwords < 5 || nwords > MAX_WORDS || words[0] != SPIRV_MAGIC)
        return;
    uint8_t h[HEADER];
    header(h, words, nwords);
    char name[80];
    snprintf(name, sizeof name, "%s.spv", c->key);
    write_file(c->dir, name, h, HEADER, words, nwords * 4);
}
