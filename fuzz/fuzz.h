/*
 * Shared pieces of the libFuzzer harnesses (fuzz/run.sh, `make fuzz`).
 *
 * A harness checks a property and calls fuzz_fail() when it does not hold:
 * that prints the reason and aborts, which libFuzzer reports as a crash and
 * saves the input.  Harnesses only read memory: they never write files.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: property violated: %s%s%s\n", what,
            detail ? ": " : "", detail ? detail : "");
    abort();
}

/* A diagnostic must be a NUL-terminated, non-empty message. */
static inline void fuzz_check_diag(const struct us_diag *d)
{
    if (!memchr(d->msg, '\0', sizeof d->msg) || !d->msg[0])
        fuzz_fail("error without a message", NULL);
}

/* A NUL-terminated copy of the input, for loaders that want text[len] == 0. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (!t)
        fuzz_fail("out of memory", NULL);
    memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

#endif
