/*
 * piglit shader_test parser (piglit/shtest.h, `ushader piglit`).  Any
 * bytes (not NUL-terminated: shtest_parse takes text and length) either
 * fail with a message or parse; a parsed file that the model does not
 * skip is then run on the pipeline with exact math, when its window and
 * command list are small enough to keep each run short.
 */
#include "fuzz/fuzz.h"
#include "piglit/shtest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct shtest t;
    struct us_diag d;
    if (!shtest_parse(&t, (const char *)data, size, &d)) {
        fuzz_check_diag(&d);
        return 0;
    }
    if (!t.skip[0] && t.width * t.height <= 64 * 64 && t.ncmds <= 64) {
        struct shtest_env env = { .math = &us_math_exact,
                                  .backend = &gfx_backend_functional };
        struct shtest_result r;
        if (!shtest_run(&t, &env, &r, &d))
            fuzz_check_diag(&d);
    }
    shtest_free(&t);
    return 0;
}
