/*
 * Provenance: what produced an output, so that two outputs that differ
 * show why (issue 18).  Every output carries it: results.json and the
 * `--json` forms as a "provenance" object, results.csv as "# key: value"
 * comment lines before the header, report.md as a last section.
 *
 *   version, commit   `ushader --version` (build/gen/version.h)
 *   command           argv, each word shell-quoted ("ushader bench ...")
 *   math              "sfu" (the modelled SFU) or "exact" (binary32 libm)
 *   config            the base effective configuration, every [core] knob
 *                     and every [sfu] key (us_config_write; the variants'
 *                     differences are in the results)
 *   inputs            every file read: path, bytes, FNV-1a 64 hash (the
 *                     golden-image hash, gfx_hash_rgba8) in hex
 *
 * Host-only settings (--jobs, --out) are part of the command line but
 * never change a result; tests that compare --jobs 1 with --jobs 2 compare
 * the outputs without the provenance (docs/METRICS.md).  No dates, host
 * names or times are recorded, so outputs stay reproducible.
 */
#ifndef US_PROVENANCE_H
#define US_PROVENANCE_H

#include <stdint.h>
#include <stdio.h>

#include "shader/core.h"

struct json_t;

enum { US_PROV_MAX_INPUTS = 512 };

struct us_prov_input {
    char *path;
    long long bytes;      /* -1: unreadable (error says why)  */
    uint64_t hash;
    const char *error;
};

struct us_prov {
    char *command;
    const char *math;                 /* "sfu" or "exact" (NULL: none) */
    const struct us_config *cfg;      /* NULL: no configuration        */
    struct us_prov_input inputs[US_PROV_MAX_INPUTS];
    unsigned ninputs;
};

/* The command line of `ushader CMD ...` (argv[0] is CMD, as commands get
 * it); false when out of memory. */
US_MUST_CHECK bool us_prov_init(struct us_prov *p, int argc,
                                char *const *argv);
/* Record the file `path` (read and hashed now; NULL, "-", options (a
 * leading '-') and paths already recorded are skipped). */
void us_prov_add_file(struct us_prov *p, const char *path);
void us_prov_free(struct us_prov *p);

uint64_t us_fnv1a64(const void *data, size_t n);
/* The same over data that comes in parts: h = US_FNV1A64_SEED, then
 * h = us_fnv1a64_more(h, part, n) for each part in order. */
#define US_FNV1A64_SEED 0xcbf29ce484222325ull
uint64_t us_fnv1a64_more(uint64_t h, const void *data, size_t n);

/* Length of the valid UTF-8 sequence at s, 0 if it is not one (what JSON
 * strings may hold as is; cli_json_string escapes the rest). */
size_t us_utf8_len(const unsigned char *s);

/* A JSON string of `s`, a byte that is not UTF-8 as U+FFFD (file names
 * need not be UTF-8; jansson takes only UTF-8); NULL when out of memory. */
struct json_t *us_json_text(const char *s);

/* The "provenance" object (a new reference), or NULL when out of memory. */
struct json_t *us_prov_json(const struct us_prov *p);
/* `"schema_version": N, "provenance": {...}` with no braces, for writers
 * that print their own object; malloc'd, NULL when out of memory. */
char *us_prov_json_members(const struct us_prov *p);
/* "# key: value" lines. */
void us_prov_csv(FILE *f, const struct us_prov *p);
/* "## Provenance" with the INI configuration in a fenced block. */
void us_prov_markdown(FILE *f, const struct us_prov *p);

#endif
