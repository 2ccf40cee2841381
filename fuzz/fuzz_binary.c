/*
 * Binary files of `ushader asm -o` / `ushader dis` (us_binary_parse).  A
 * file either is rejected with a message or parses, and then serializes
 * back to the same bytes; its text listing either succeeds or fails with a
 * message (words no encoder produces), never crashes.
 */
#include "fuzz/fuzz.h"
#include "isa/scalar.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct us_binary b;
    struct us_diag d;
    if (!us_binary_parse(data, size, &b, &d)) {
        fuzz_check_diag(&d);
        return 0;
    }
    uint8_t *out;
    size_t len;
    if (!us_binary_serialize(&b, &out, &len))
        fuzz_fail("us_binary_serialize failed", NULL);
    if (len != size || memcmp(out, data, size))
        fuzz_fail("parse -> serialize differs", NULL);
    free(out);
    char *text;
    if (us_binary_disassemble(&b, &text, &d))
        free(text);
    else
        fuzz_check_diag(&d);
    us_binary_free(&b);
    return 0;
}
