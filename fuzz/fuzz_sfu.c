/*
 * SFU model on arbitrary binary32 inputs (`ushader sfu eval` reads them
 * from stdin): every function, POW on pairs and the LUT segment lookup,
 * with the default configuration's committed tables.  UBSan watches the
 * range reductions (float -> integer conversions, shifts) on NaN, infinity,
 * denormal and huge arguments; the segment must lie inside its table.
 */
#include "fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The default configuration uses the committed tables: cheap to set up
     * per input, and no state outlives the call. */
    struct us_sfu_config cfg;
    struct us_sfu sfu;
    struct us_diag d;
    us_sfu_config_default(&cfg);
    if (!us_sfu_init(&sfu, &cfg, &d))
        fuzz_fail("us_sfu_init", d.msg);
    size_t n = size / 4;
    for (size_t i = 0; i < n; i++) {
        float x;
        memcpy(&x, data + 4 * i, 4);
        for (int f = 0; f < US_SFU_NFUNC; f++) {
            (void)us_sfu_eval(&sfu, (enum us_sfu_func)f, x);
            enum us_sfu_table t;
            unsigned seg;
            if (us_sfu_segment(&sfu, (enum us_sfu_func)f, x, &t, &seg) &&
                (t >= US_SFU_NTABLES || seg >= (1u << sfu.cfg.k[t])))
                fuzz_fail("SFU segment outside its table",
                          us_sfu_func_name((enum us_sfu_func)f));
        }
        if (i + 1 < n) {
            float y;
            memcpy(&y, data + 4 * (i + 1), 4);
            (void)us_sfu_pow(&sfu, x, y);
        }
    }
    us_sfu_free(&sfu);
    return 0;
}
