/* The list of core models, in report order (shader/core.h).  Kept apart
 * from core.c so a program that names one model links only that one. */
#include <string.h>

#include "shader/core.h"

const struct us_core_model *const us_models[] = {
    &us_model_scalar, &us_model_simd4, &us_model_vliw,
    &us_model_superscalar, &us_model_hetero, &us_model_simt, NULL,
};

const struct us_core_model *us_model_lookup(const char *name)
{
    for (unsigned i = 0; us_models[i]; i++)
        if (!strcmp(us_models[i]->name, name))
            return us_models[i];
    return NULL;
}
