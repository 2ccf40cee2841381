/*
 * Instruction-word decoders (isa/scalar.h).  The input is cut into 96-bit
 * scalar words and 128-bit vec4 words (little-endian 32-bit units).  A word
 * either fails to decode or decodes to a valid instruction that encodes
 * back to the very same word ("decode checks every field and fails on
 * words no encoder produces"), and whose text formats without overflow.
 */
#include "fuzz/fuzz.h"
#include "isa/scalar.h"

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void format_check(int n, const char *buf, size_t size)
{
    if (n < 0 || strlen(buf) >= size)
        fuzz_fail("instruction text failed or overflowed", NULL);
}

static void scalar_word(const uint8_t *p)
{
    us_sword w;
    for (int i = 0; i < 3; i++)
        w.w[i] = get32(p + 4 * i);
    struct us_sinst in;
    if (!us_sdecode(w, &in))
        return;
    if (!us_sinst_valid(&in))
        fuzz_fail("us_sdecode accepted an invalid instruction", NULL);
    us_sword e = us_sencode(&in);
    if (memcmp(&e, &w, sizeof w)) {
        char msg[128];
        snprintf(msg, sizeof msg, "%08x %08x %08x -> %08x %08x %08x",
                 w.w[2], w.w[1], w.w[0], e.w[2], e.w[1], e.w[0]);
        fuzz_fail("scalar word: decode -> encode differs", msg);
    }
    struct us_sinst again;
    if (!us_sdecode(e, &again) || !us_sinst_equal(&in, &again))
        fuzz_fail("scalar word: re-decode differs", NULL);
    char buf[256];
    format_check(us_sinst_format(&in, buf, sizeof buf), buf, sizeof buf);
}

static void vec4_word(const uint8_t *p)
{
    uint32_t w[4], e[4];
    for (int i = 0; i < 4; i++)
        w[i] = get32(p + 4 * i);
    struct us_inst in;
    if (!us_vdecode(w, &in))
        return;
    if (!us_vencode(&in, e))
        fuzz_fail("vec4 word: decoded instruction does not encode", NULL);
    if (memcmp(e, w, sizeof w)) {
        char msg[128];
        snprintf(msg, sizeof msg, "%08x %08x %08x %08x -> %08x %08x %08x %08x",
                 w[3], w[2], w[1], w[0], e[3], e[2], e[1], e[0]);
        fuzz_fail("vec4 word: decode -> encode differs", msg);
    }
    char buf[256];
    format_check(us_inst_format(&in, buf, sizeof buf), buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Seeds are `ushader asm -o` files: skip their header to the words. */
    if (size >= 4 * US_BINARY_HEADER && get32(data) == US_BINARY_MAGIC) {
        data += 4 * US_BINARY_HEADER;
        size -= 4 * US_BINARY_HEADER;
    }
    for (size_t i = 0; i + 12 <= size; i += 12)
        scalar_word(data + i);
    for (size_t i = 0; i + 16 <= size; i += 16)
        vec4_word(data + i);
    return 0;
}
