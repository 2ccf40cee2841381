/*
 * The SPIR-V cache (glsl/spv_cache.c): the module spirv-opt wrote for a
 * source, kept under a content address so that a source compiled once is
 * not given to glslangValidator and spirv-opt again, by this process or
 * another one.
 */
#ifndef GLSL_SPV_CACHE_H
#define GLSL_SPV_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Runs argv (argv[0] a full path) as us_glsl_compile runs its tools: its
 * stdout and stderr into out (NUL-ended, at most cap - 1 bytes) and its
 * wait status into *status; false when it could not be run. */
typedef bool (*spv_cache_runner)(char *const argv[], char *out, size_t cap,
                                 int *status);

/* One compile's cache slot: `on` is false when the cache is disabled or
 * anything it needs (the directory, a tool's version) is missing; the
 * compile then goes to the tools as without a cache. */
struct spv_cache {
    bool on;
    char dir[2048];
    char key[65];   /* SHA-256, hexadecimal */
};

/* One part of the key (the source, the stage, an option). */
struct spv_cache_part {
    const void *data;
    size_t len;
};

/* Fill c for the compile of `parts` with the tools at the full paths
 * tools[0 .. ntools-1].  `disabled`: the caller's --no-cache. */
void spv_cache_begin(struct spv_cache *c, bool disabled,
                     const char *const *tools, size_t ntools,
                     const struct spv_cache_part *parts, size_t nparts,
                     spv_cache_runner run);

/* The cached module (malloc'd) or false: absent, or any corruption. */
bool spv_cache_get(const struct spv_cache *c, uint32_t **words,
                   size_t *nwords);

/* Store a module; failures (a full disk, a read-only directory) only mean
 * the next compile runs the tools again. */
void spv_cache_put(const struct spv_cache *c, const uint32_t *words,
                   size_t nwords);

/* SHA-256 of data into out (32 bytes); exposed for the unit test's vectors. */
void spv_sha256(const void *data, size_t len, uint8_t out[32]);

#endif
