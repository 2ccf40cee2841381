/*
 * The legacy GLSL built-in table (glsl/builtins.def) and its look-ups: the
 * front step declares what a shader uses from it, the SPIR-V translator
 * binds the declared variables to inputs, outputs and state.* slots.
 */
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "ushader.h"

/* The .def's "no SPIR-V BuiltIn" column. */
enum { SpvBuiltInNONE = -1 };

#define K(kind) US_GLSL_##kind
#define B(name_, stages_, decl_, array_, kind_, spv_, slot_, comp_, item_, \
          a_, b_, c_, d_) \
    { .name = #name_, .stages = (stages_), .decl = (decl_), \
      .array = (array_), .bind = K(kind_), .spv_builtin = SpvBuiltIn##spv_, \
      .slot = (slot_), .comp = (comp_), \
      .struct_type = K(kind_) == US_GLSL_STRUCT ? (item_) : 0, \
      .face = K(kind_) == US_GLSL_STRUCT ? (a_) : 0, \
      .ref = { .item = K(kind_) == US_GLSL_MATRIX ? US_STATE_MATRIX_ROW \
                       : K(kind_) == US_GLSL_STATE ? (item_) : 0, \
               .a = K(kind_) == US_GLSL_MATRIX ? (item_) \
                    : K(kind_) == US_GLSL_STATE ? (a_) : 0, \
               .b = K(kind_) == US_GLSL_STATE ? (b_) : 0, \
               .c = K(kind_) == US_GLSL_MATRIX ? (a_) \
                    : K(kind_) == US_GLSL_STATE ? (c_) : 0, \
               .d = K(kind_) == US_GLSL_STATE ? (d_) : 0 } },
#define VP US_VP
#define FP US_FP
#define CP US_CP
static const struct us_glsl_builtin builtins[] = {
#include "glsl/builtins.def"
};
#undef B

#define B(...)
#define M(st, name_, type_, comp_, item_, a_, b_, c_, d_) \
    { .struct_type = (st), .name = #name_, .type = (type_), \
      .comp = (comp_), .ref = { (item_), (a_), (b_), (c_), (d_) } },
static const struct us_glsl_member members[] = {
#include "glsl/builtins.def"
};
#undef B
#undef M
#undef VP
#undef FP
#undef CP
#undef K

/* GLSL 1.20 7.5's type names with the us_ prefix. */
static const char *const struct_names[US_GLSL_S_COUNT] = {
    [US_GLSL_S_DEPTH_RANGE] = "us_gl_DepthRangeParameters",
    [US_GLSL_S_POINT] = "us_gl_PointParameters",
    [US_GLSL_S_MATERIAL] = "us_gl_MaterialParameters",
    [US_GLSL_S_LIGHT_SOURCE] = "us_gl_LightSourceParameters",
    [US_GLSL_S_LIGHT_MODEL] = "us_gl_LightModelParameters",
    [US_GLSL_S_LIGHT_MODEL_PRODUCTS] = "us_gl_LightModelProducts",
    [US_GLSL_S_LIGHT_PRODUCTS] = "us_gl_LightProducts",
    [US_GLSL_S_FOG] = "us_gl_FogParameters",
};

enum { NBUILTINS = sizeof builtins / sizeof builtins[0],
       NMEMBERS = sizeof members / sizeof members[0] };

static unsigned stage_bit(enum us_stage stage)
{
    return stage == US_STAGE_VERTEX ? US_VP
           : stage == US_STAGE_COMPUTE ? US_CP : US_FP;
}

const struct us_glsl_builtin *us_glsl_builtin_lookup(const char *name,
                                                     enum us_stage stage)
{
    for (size_t i = 0; i < NBUILTINS; i++)
        if ((builtins[i].stages & stage_bit(stage)) &&
            !strcmp(builtins[i].name, name))
            return &builtins[i];
    return NULL;
}

const struct us_glsl_builtin *us_glsl_builtins(size_t *count)
{
    *count = NBUILTINS;
    return builtins;
}

const struct us_glsl_builtin *us_glsl_builtin_core(int spv,
                                                   enum us_stage stage)
{
    for (size_t i = 0; i < NBUILTINS; i++)
        if (spv >= 0 && builtins[i].spv_builtin == spv &&
            (builtins[i].stages & stage_bit(stage)))
            return &builtins[i];
    return NULL;
}

const struct us_glsl_member *us_glsl_member_lookup(unsigned struct_type,
                                                   const char *name)
{
    for (size_t i = 0; i < NMEMBERS; i++)
        if (members[i].struct_type == struct_type &&
            !strcmp(members[i].name, name))
            return &members[i];
    return NULL;
}

const char *us_glsl_struct_name(unsigned struct_type)
{
    return struct_type < US_GLSL_S_COUNT ? struct_names[struct_type] : NULL;
}

size_t us_glsl_struct_text(unsigned struct_type, char *buf, size_t size)
{
    const char *name = us_glsl_struct_name(struct_type);
    size_t n = 0;
    if (!name)
        return 0;
    /* snprintf semantics: keep counting past the end of buf. */
#define PUT(...) do { \
        int k = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, \
                         __VA_ARGS__); \
        n += k > 0 ? (size_t)k : 0; \
    } while (0)
    PUT("struct %s {", name);
    for (size_t i = 0; i < NMEMBERS; i++)
        if (members[i].struct_type == struct_type)
            PUT(" %s %s;", members[i].type, members[i].name);
    PUT(" };\n");
#undef PUT
    return n;
}

static uint8_t fill(uint8_t v, unsigned element, unsigned face)
{
    return v == US_GLSL_ELEM ? (uint8_t)element
           : v == US_GLSL_FACE ? (uint8_t)face : v;
}

bool us_glsl_state_of(const struct us_glsl_builtin *b,
                      const struct us_glsl_member *m, unsigned element,
                      unsigned column, struct us_state_ref *ref)
{
    unsigned limit = b->array ? b->array : 1;
    if (element >= limit)
        return false;
    switch (b->bind) {
    case US_GLSL_MATRIX:
        if (column > 3)
            return false;
        *ref = b->ref;
        ref->b = (uint8_t)element;
        ref->d = (uint8_t)column;
        return true;
    case US_GLSL_STATE:
        *ref = b->ref;
        ref->a = fill(ref->a, element, 0);
        return true;
    case US_GLSL_STRUCT:
        if (!m || m->struct_type != b->struct_type ||
            m->ref.item == US_GLSL_NO_STATE)
            return false;
        *ref = m->ref;
        ref->a = fill(ref->a, element, b->face);
        ref->b = fill(ref->b, element, b->face);
        ref->c = fill(ref->c, element, b->face);
        return true;
    default:
        return false;
    }
}
