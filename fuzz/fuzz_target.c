/*
 * Code generation for every target (`ushader asm --target T [-S] [-o]`,
 * `ushader stats`).  An accepted ARB program encodes for each target or
 * fails with a message; an encoded binary serializes and parses back to
 * the same words and lists as text.  The compacted scalar code must also
 * leave the registers the reference interpreter leaves (SPEC 2: every
 * model produces bit-identical outputs), NaN signs aside as in
 * tests/unit/test_scalar_equiv.c.
 */
#include <math.h>

#include "fuzz/fuzz.h"
#include "isa/scalar.h"

static void check_target(const struct us_program *p, enum us_target t)
{
    struct us_binary b, c;
    struct us_diag d;
    if (!us_encode_target(p, t, &b, &d)) {
        fuzz_check_diag(&d);
        return;
    }
    uint8_t *bytes;
    size_t len;
    if (!us_binary_serialize(&b, &bytes, &len))
        fuzz_fail("us_binary_serialize failed", us_target_name(t));
    if (!us_binary_parse(bytes, len, &c, &d))
        fuzz_fail("serialized binary does not parse", d.msg);
    if (c.nwords != b.nwords || c.word_bits != b.word_bits ||
        memcmp(c.data, b.data, 4ull * b.nwords * us_binary_units(b.word_bits)))
        fuzz_fail("serialize -> parse changed the words", us_target_name(t));
    char *text;
    if (!us_binary_disassemble(&c, &text, &d))
        fuzz_fail("encoded binary does not disassemble", d.msg);
    free(text);
    free(bytes);
    us_binary_free(&c);
    us_binary_free(&b);
}

static bool same_float(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y || (isnan(a) && isnan(b) && (x ^ y) == 0x80000000u);
}

static void check_equivalence(const struct us_program *p)
{
    struct us_scode code;
    struct us_diag d;
    if (!us_lower(p, true, &code, &d)) {
        fuzz_check_diag(&d);
        return;
    }
    struct us_glstate *gl = malloc(sizeof *gl);
    us_vec4 *params = calloc(p->nparams ? p->nparams : 1, sizeof *params);
    struct us_thread *t = malloc(2 * sizeof *t);
    if (!gl || !params || !t)
        fuzz_fail("out of memory", NULL);
    us_glstate_init(gl);
    us_resolve_params(p, gl, params);
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    for (int i = 0; i < 2; i++) {
        us_thread_reset(&t[i]);
        for (unsigned r = 0; r < US_MAX_INPUTS; r++)
            for (unsigned c = 0; c < 4; c++)
                t[i].input[r][c] = (float)(r + 1) * 0.25f - (float)c;
    }
    us_interpret(p, &env, &t[0]);
    if (!us_scalar_exec(code.insts, code.n, &env, &t[1]))
        fuzz_fail("lowered code has inconsistent flow targets", NULL);
    for (unsigned r = 0; r < US_MAX_TEMPS; r++)
        for (unsigned c = 0; c < 4; c++)
            if (!same_float(t[0].temp[r][c], t[1].temp[r][c]))
                fuzz_fail("scalar code and interpreter differ in a TEMP", NULL);
    for (unsigned r = 0; r < US_MAX_OUTPUTS; r++)
        for (unsigned c = 0; c < 4; c++)
            if (!same_float(t[0].output[r][c], t[1].output[r][c]))
                fuzz_fail("scalar code and interpreter differ in an output",
                          NULL);
    if (t[0].killed != t[1].killed ||
        memcmp(t[0].addr, t[1].addr, sizeof t[0].addr))
        fuzz_fail("scalar code and interpreter differ in KIL or A0", NULL);
    free(t);
    free(params);
    free(gl);
    us_scode_free(&code);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct us_program p;
    struct us_diag d;
    if (!us_assemble((const char *)data, size, US_STAGE_ANY, &p, &d))
        return 0;
    for (int t = 0; t < US_TARGET_COUNT; t++)
        check_target(&p, (enum us_target)t);
    struct us_code_stats st;
    if (!us_code_stats(&p, &st, &d))
        fuzz_check_diag(&d);
    check_equivalence(&p);
    us_program_free(&p);
    return 0;
}
