/*
 * The SPIR-V cache's hash (glsl/spv_cache.c: nettle's sha256) against the
 * test vectors of FIPS 180-4 / NIST (the empty string, "abc", the 448-bit
 * message, a million 'a's) and at every length around a block boundary
 * (55, 56, 63, 64, 65 bytes: the padding's cases) against known digests.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/spv_cache.h"

#include "check_main.h"

static void digest_is(const void *data, size_t len, const char *want)
{
    uint8_t d[32];
    char got[65];
    spv_sha256(data, len, d);
    for (int i = 0; i < 32; i++)
        snprintf(got + 2 * i, 3, "%02x", d[i]);
    ck_assert_str_eq(got, want);
}

START_TEST(nist_vectors)
{
    digest_is("", 0, "e3b0c44298fc1c149afbf4c8996fb924"
                     "27ae41e4649b934ca495991b7852b855");
    digest_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223"
                        "b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    digest_is(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039"
                            "a33ce45964ff2167f6ecedd419db06c1");
    size_t n = 1000000;
    char *a = malloc(n);
    ck_assert_ptr_nonnull(a);
    memset(a, 'a', n);
    digest_is(a, n, "cdc76e5c9914fb9281a1c7e284d73e67"
                    "f1809a48a497200e046d39ccc7112cd0");
    free(a);
}
END_TEST

/* Digests of "a" repeated 55, 56, 63, 64 and 65 times (sha256sum). */
START_TEST(block_boundaries)
{
    static const struct { size_t n; const char *hex; } v[] = {
        { 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
        { 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
        { 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
        { 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
        { 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
    };
    char a[80];
    memset(a, 'a', sizeof a);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        digest_is(a, v[i].n, v[i].hex);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("spv_cache");
    TCase *t = tcase_create("sha256");
    tcase_add_test(t, nist_vectors);
    tcase_add_test(t, block_boundaries);
    suite_add_tcase(s, t);
    return s;
}
