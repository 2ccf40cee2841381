/*
 * SPIR-V modules into the vec4 IR (us_spirv_translate).  The first byte
 * picks the stage (bits 0-1: 0 fragment, 1 vertex, 2 compute, 3 fragment)
 * and the integers (bit 2: US_SPIRV_FLOAT_INTEGERS); the rest are the
 * module's words.  A module is either
 * rejected with a message or translated into a program that the
 * disassembler prints and the assembler reads back equal, never a crash.
 */
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const enum us_stage stages[4] = {
        US_STAGE_FRAGMENT, US_STAGE_VERTEX, US_STAGE_COMPUTE,
        US_STAGE_FRAGMENT
    };
    enum us_stage stage = stages[data[0] & 3];
    uint32_t flags = data[0] & 4 ? US_SPIRV_FLOAT_INTEGERS : 0;
    size_t n = (size - 1) / 4;
    uint32_t *words = malloc(n ? n * 4 : 4);
    if (!words)
        fuzz_fail("out of memory", NULL);
    memcpy(words, data + 1, n * 4);
    struct us_program p, q;
    struct us_diag d;
    if (!us_spirv_translate(words, n, stage, flags, &p, NULL, &d)) {
        fuzz_check_diag(&d);
        free(words);
        return 0;
    }
    free(words);
    char *text = us_disassemble(&p);
    if (!text)
        fuzz_fail("out of memory", NULL);
    if (!us_assemble(text, strlen(text), (int)stage, &q, &d))
        fuzz_fail("the translated program does not reassemble", d.msg);
    if (!us_program_equal(&p, &q))
        fuzz_fail("the translated program reassembles differently", NULL);
    free(text);
    us_program_free(&p);
    us_program_free(&q);
    return 0;
}
