/*
 * Core-model configuration (shader/core.h, `--config FILE.ini`, `--set`):
 * any text either loads as an INI file or fails with a message; each line
 * is also tried as one key=value setting.  A loaded configuration must
 * keep every knob within its documented range (shader/knobs.def).
 */
#include "fuzz/fuzz.h"
#include "shader/core.h"

/* INT: lo..hi; BOOL: 0..1; ENUM: an index into "a|b|c". */
static void check_ranges(const struct us_config *cfg)
{
    for (unsigned i = 0; i < US_KNOB_COUNT; i++) {
        const struct us_knob_info *k = &us_knobs[i];
        int lo = k->lo, hi = k->hi;
        if (k->type == US_KNOB_BOOL) {
            lo = 0;
            hi = 1;
        } else if (k->type == US_KNOB_ENUM) {
            lo = 0;
            hi = 0;
            for (const char *c = k->choices; *c; c++)
                hi += *c == '|';
        }
        if (cfg->v[i] < lo || cfg->v[i] > hi)
            fuzz_fail("knob outside its range", k->name);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct us_config cfg;
    struct us_diag d;
    us_config_default(&cfg);
    if (us_config_load(&cfg, text, size, &d))
        check_ranges(&cfg);
    else
        fuzz_check_diag(&d);
    for (char *line = text, *nl; line; line = nl) {
        nl = strchr(line, '\n');
        if (nl)
            *nl++ = '\0';
        us_config_default(&cfg);
        if (us_config_set(&cfg, line, &d))
            check_ranges(&cfg);
        else
            fuzz_check_diag(&d);
    }
    free(text);
    return 0;
}
