/*
 * Variables and pointers: interface variables bound to inputs and outputs
 * (built-in decorations, the legacy us_gl_* table, else Location),
 * uniforms to parameter slots (program.local[] or state.*, one PARAM
 * declaration per variable), samplers to texture units, Function and
 * Private variables (and outputs that are read back) to registers.
 * Access chains reduce to a constant slot offset plus at most one dynamic
 * slot offset; a dynamic read of a uniform is ARL and a relative operand
 * (in fragment programs too: OPTION USHADER_extensions), of registers a
 * compare-and-select chain (SEQ + CMP per candidate, CMP.S for integer
 * words), as hardware without indexed temporaries does it.  Storage
 * buffers, shared variables and atomic counters are memory
 * (spirv_buffer.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glsl/spirv.h"

/* The member of struct `type` that slot *k falls in; *k becomes the slot
 * within that member. */
static const struct smember *perv_member(const struct spv *s, uint32_t type,
                                         uint32_t *k)
{
    const struct sid *t = &s->ids[type];
    for (uint32_t m = 0; m < t->len; m++) {
        uint32_t ms = s->ids[s->w[t->def + 2 + m]].slots;
        if (*k < ms)
            return spv_member(s, type, m);
        *k -= ms;
    }
    return NULL;
}

/* Input/output slot `k` of an interface variable: register index and the
 * first component the value occupies. */
static bool io_slot(struct spv *s, uint32_t var, uint32_t k,
                    unsigned *index, unsigned *comp)
{
    const struct sid *v = &s->ids[var];
    const struct sid *t = &s->ids[s->ids[v->type].elem];
    bool in = s->ids[v->type].storage == SpvStorageClassInput;
    const struct us_glsl_builtin *b = NULL;
    *comp = 0;
    if (t->ty == TY_STRUCT) {
        /* gl_PerVertex: members bound by BuiltIn; slot k is element k of
         * the member it falls in (gl_ClipDistance[]) */
        const struct smember *m = perv_member(s, (uint32_t)(t - s->ids), &k);
        if (m && m->builtin >= 0)
            b = us_glsl_builtin_core(m->builtin, s->stage);
        if (!b)
            return spv_fail(s, "built-in %s.%s is not supported",
                            v->name ? v->name : "block",
                            m && m->name ? m->name : "?");
    } else if (v->builtin >= 0) {
        b = us_glsl_builtin_core(v->builtin, s->stage);
        if (!b)
            return spv_fail(s, "built-in %s (SPIR-V BuiltIn %d) has no "
                            "ushader binding", v->name ? v->name : "?",
                            v->builtin);
    } else if (v->name) {
        b = us_glsl_builtin_lookup(v->name, s->stage);
    }
    if (b) {
        bool b_in = b->bind == US_GLSL_IN || b->bind == US_GLSL_CORE_IN;
        if (b_in != in || b->bind > US_GLSL_CORE_OUT)
            return spv_fail(s, "%s is not an %s in this stage", b->name,
                            in ? "input" : "output");
        if (k >= (b->array ? b->array : 1u))
            return spv_fail(s, "%s has too many elements", b->name);
        if (b->slot == US_VOUT_CLIPDIST0 && b->bind == US_GLSL_CORE_OUT) {
            /* four float distances to a slot */
            *index = US_VOUT_CLIPDIST0 + k / 4;
            *comp = k % 4;
            return true;
        }
        *index = b->slot + k;
        *comp = b->comp;
        return true;
    }
    if (v->location < 0)
        return spv_fail(s, "%s %s has no location", in ? "input" : "output",
                        v->name ? v->name : "?");
    unsigned loc = (unsigned)v->location + k;
    if (s->stage == US_STAGE_VERTEX && in && loc < 16) {
        *index = US_VIN_ATTRIB0 + loc;
        return true;
    }
    if (s->stage == US_STAGE_VERTEX && !in && loc < US_MAX_VARYINGS) {
        *index = US_VOUT_TEXCOORD0 + loc;
        return true;
    }
    if (s->stage == US_STAGE_FRAGMENT && in && loc < US_MAX_VARYINGS) {
        *index = US_FIN_TEXCOORD0 + loc;
        return true;
    }
    if (s->stage == US_STAGE_FRAGMENT && !in && loc == 0) {
        *index = US_FOUT_COLOR;
        return true;
    }
    return spv_fail(s, "%s %s: location %u has no ushader binding",
                    in ? "input" : "output", v->name ? v->name : "?", loc);
}

static bool add_decl(struct spv *s, const char *name, unsigned base,
                     unsigned size, bool array)
{
    if (s->ndecls >= US_MAX_PARAMS)
        return spv_fail(s, "too many uniforms");
    struct us_decl *d = &s->decls[s->ndecls++];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->kind = US_DECL_PARAM;
    d->base = (uint16_t)base;
    d->size = (uint16_t)size;
    d->array = array;
    return true;
}

bool add_local_param(struct spv *s, const char *name, unsigned *param)
{
    if (s->nparams >= US_MAX_PARAMS || s->nlocals >= US_MAX_LOCAL_PARAMS)
        return spv_fail(s, "too many uniform slots");
    struct us_param *p = &s->params[s->nparams];
    memset(p, 0, sizeof *p);
    p->decl = (int16_t)s->ndecls;
    p->kind = US_PARAM_LOCAL;
    p->index = (uint16_t)s->nlocals++;
    *param = s->nparams++;
    return add_decl(s, name, *param, 1, false);
}

/* Walk a uniform's type in slot order, calling the binder per slot with
 * the element of the outermost array, the struct member (name) and the
 * matrix column it holds. */
struct slot_pos { unsigned element, column; const char *member; };

static void slot_positions(const struct spv *s, uint32_t type,
                           struct slot_pos *pos, uint32_t *n, uint32_t cap,
                           struct slot_pos cur, bool top)
{
    const struct sid *t = &s->ids[type];
    switch (t->ty) {
    case TY_ARRAY:
        for (uint32_t e = 0; e < t->len; e++) {
            if (top)
                cur.element = e;
            slot_positions(s, t->elem, pos, n, cap, cur, false);
        }
        return;
    case TY_STRUCT:
        for (uint32_t m = 0; m < t->len; m++) {
            const struct smember *sm = spv_member(s, type, m);
            cur.member = sm ? sm->name : NULL;
            uint32_t mt = s->w[t->def + 2 + m];
            slot_positions(s, mt, pos, n, cap, cur, false);
        }
        return;
    case TY_MATRIX:
        for (uint32_t c = 0; c < t->len && *n < cap; c++) {
            cur.column = c;
            pos[(*n)++] = cur;
        }
        return;
    default:
        if (t->slots && *n < cap)   /* void and function types hold none */
            pos[(*n)++] = cur;
        return;
    }
}

/* List the members of a user uniform for runners (us_glsl_uniform):
 * every variable and struct member by its GLSL path; arrays of structs
 * per element. */
static void list_uniform(struct spv *s, uint32_t type, const char *path,
                         uint32_t param)
{
    struct us_glsl_info *info = s->info;
    const struct sid *t = &s->ids[type];
    if (!info || strlen(path) >= US_MAX_NAME)
        return;
    if (info->nuniforms < US_GLSL_MAX_UNIFORMS) {
        struct us_glsl_uniform *u = &info->uniforms[info->nuniforms];
        snprintf(u->name, sizeof u->name, "%s", path);
        u->param = (uint16_t)param;
        u->slots = (uint16_t)t->slots;
        const struct sid *e = &s->ids[scalar_type(s, type)];
        u->type = e->ty == TY_FLOAT ? US_GLSL_FLOAT
                  : e->ty == TY_BOOL ? US_GLSL_BOOL
                  : e->ty != TY_INT ? US_GLSL_AGGREGATE
                  : s->float_ints ? US_GLSL_FLOAT
                  : e->is_signed ? US_GLSL_INT : US_GLSL_UINT;
    }
    info->nuniforms++;
    char sub[2 * US_MAX_NAME];
    if (t->ty == TY_ARRAY && s->ids[t->elem].ty == TY_STRUCT) {
        for (uint32_t e = 0; e < t->len; e++) {
            snprintf(sub, sizeof sub, "%s[%u]", path, e);
            list_uniform(s, t->elem, sub, param + e * s->ids[t->elem].slots);
        }
    } else if (t->ty == TY_STRUCT) {
        for (uint32_t m = 0; m < t->len; m++) {
            const struct smember *sm = spv_member(s, type, m);
            uint32_t mt = s->w[t->def + 2 + m];
            snprintf(sub, sizeof sub, "%s.%s", path,
                     sm && sm->name ? sm->name : "?");
            list_uniform(s, mt, sub, param);
            param += s->ids[mt].slots;
        }
    }
}

/* Parameter slots of a uniform: program.local[] for a user uniform,
 * state.* for a built-in; one PARAM declaration names the run. */
static bool bind_uniform(struct spv *s, uint32_t var)
{
    struct sid *v = &s->ids[var];
    uint32_t type = s->ids[v->type].elem;
    uint32_t n = s->ids[type].slots;
    if (n == 0 || s->nparams + n > US_MAX_PARAMS)
        return spv_fail(s, "too many uniform slots");
    const char *name = v->name && v->name[0] ? v->name : NULL;
    if (!name && s->ids[type].ty == TY_STRUCT && s->ids[type].name)
        name = s->ids[type].name;   /* a uniform block's type name */
    char fallback[32];
    if (!name) {
        snprintf(fallback, sizeof fallback, "u%u", var);
        name = fallback;
    }
    const struct us_glsl_builtin *b = us_glsl_builtin_lookup(name, s->stage);
    if (b && b->bind < US_GLSL_MATRIX)
        return spv_fail(s, "%s is not a uniform", name);
    struct slot_pos *pos = calloc(n, sizeof *pos);
    if (!pos)
        return spv_fail(s, "out of memory");
    uint32_t got = 0;
    slot_positions(s, type, pos, &got, n, (struct slot_pos){ 0 }, true);
    unsigned base = s->nparams;
    bool ok = true;
    /* `uniform T x = init;` (GLSL 1.20 4.3.5): the initializer's values
     * are the program.local slots' initial values (us_param.value), which
     * the application may replace like any uniform's. */
    const struct us_src *init = NULL;
    uint32_t ninit = 0;
    if (spv_wc(s, v->def) >= 5) {
        uint32_t id;
        struct us_src *iv = NULL;
        ok = spv_id(s, v->def, 4, &id) && value_of(s, id, &iv, &ninit);
        init = iv;
        if (ok && ninit != n)
            ok = spv_fail(s, "uniform %s: bad initializer", name);
        for (uint32_t i = 0; ok && i < n; i++)
            if (init[i].file != US_FILE_PARAM || init[i].rel ||
                init[i].index < CONST_BASE ||
                init[i].index - CONST_BASE >= (int)s->nconsts)
                ok = spv_fail(s, "uniform %s: initializer is not constant",
                              name);
    }
    for (uint32_t i = 0; i < n && ok; i++) {
        struct us_param *p = &s->params[s->nparams++];
        memset(p, 0, sizeof *p);
        p->decl = (int16_t)s->ndecls;
        if (init && !b) {
            const struct constant *c = &s->consts[init[i].index - CONST_BASE];
            for (int k = 0; k < 4; k++)
                p->value[k] = init[i].negate & (1u << k)
                              ? -c->v[init[i].swz[k] & 3]
                              : c->v[init[i].swz[k] & 3];
        }
        if (!b) {
            if (s->nlocals >= US_MAX_LOCAL_PARAMS)
                ok = spv_fail(s, "too many uniform slots");
            p->kind = US_PARAM_LOCAL;
            p->index = (uint16_t)s->nlocals++;
            continue;
        }
        const struct us_glsl_member *m = NULL;
        if (b->bind == US_GLSL_STRUCT && pos[i].member)
            m = us_glsl_member_lookup(b->struct_type, pos[i].member);
        p->kind = US_PARAM_STATE;
        s->param_comp[s->nparams - 1] = m ? m->comp : 0;
        if (!us_glsl_state_of(b, m, pos[i].element, pos[i].column,
                              &p->state)) {
            /* A member no ARB state holds (spotCutoff): reading it is an
             * error, declaring it is not; the slot holds 0. */
            p->kind = US_PARAM_CONST;
            s->unavailable[s->nparams - 1] = true;
        }
    }
    free(pos);
    if (!ok)
        return false;
    v->var_base = (int32_t)base;
    if (!b)
        list_uniform(s, type, name, base);
    bool array = n > 1 || s->ids[type].ty == TY_ARRAY;
    return add_decl(s, name, base, n, array);
}

/* The texture target of sampled image type `type` (a sampler called
 * `name`), in *target. */
bool sampler_target(struct spv *s, uint32_t type, const char *name,
                    uint8_t *target)
{
    const struct sid *img = &s->ids[s->ids[type].elem];
    uint32_t dim = s->w[img->def + 3], depth = s->w[img->def + 4];
    uint32_t arrayed = s->w[img->def + 5];
    static const int8_t targets[][2] = {
        [SpvDim1D] = { US_TEX_1D, US_TEX_SHADOW1D },
        [SpvDim2D] = { US_TEX_2D, US_TEX_SHADOW2D },
        [SpvDim3D] = { US_TEX_3D, -1 },
        [SpvDimCube] = { US_TEX_CUBE, -1 },
        [SpvDimRect] = { US_TEX_RECT, US_TEX_SHADOWRECT },
    };
    if (dim > SpvDimRect || arrayed || targets[dim][depth == 1] < 0 ||
        (dim != SpvDim1D && dim != SpvDim2D && dim != SpvDimRect &&
         depth == 1))
        return spv_fail(s, "sampler %s: unsupported texture type", name);
    *target = (uint8_t)targets[dim][depth == 1];
    if (depth == 1 && s->stage == US_STAGE_VERTEX)
        /* The shadow targets come with ARB_fragment_program_shadow, an
         * option of fragment programs only. */
        return spv_fail(s, "sampler %s: shadow samplers are not supported "
                        "in vertex shaders", name);
    if (depth == 1)
        s->options |= US_OPT_FRAGMENT_SHADOW;
    return true;
}

/* The next n texture units for sampler (array) `name` of target `target`,
 * listed in the info as name or name[i]. */
static bool take_units(struct spv *s, const char *name, unsigned n,
                       uint8_t target)
{
    if (s->nunits + n > US_MAX_TEX_UNITS)
        return spv_fail(s, "too many samplers (%u units)", US_MAX_TEX_UNITS);
    for (unsigned i = 0; i < n; i++) {
        if (s->info) {
            struct us_glsl_sampler *sm = &s->info->samplers[s->nunits];
            snprintf(sm->name, sizeof sm->name, n > 1 ? "%s[%u]" : "%s",
                     name, i);
            sm->unit = (uint8_t)s->nunits;
            sm->target = target;
            s->info->nsamplers = s->nunits + 1;
        }
        s->nunits++;
    }
    return true;
}

static bool bind_sampler(struct spv *s, uint32_t var)
{
    struct sid *v = &s->ids[var];
    uint32_t type = s->ids[v->type].elem;
    unsigned n = 1;
    if (s->ids[type].ty == TY_ARRAY) {
        n = s->ids[type].len;
        type = s->ids[type].elem;
    }
    const char *name = v->name ? v->name : "?";
    if (s->ids[type].ty != TY_SAMPLED_IMAGE)
        return spv_fail(s, "unsupported opaque uniform %s", name);
    if (!sampler_target(s, type, name, &v->tex_target))
        return false;
    v->sampler_unit = (int32_t)s->nunits;
    return take_units(s, name, n, v->tex_target);
}

/* Whether type holds a sampler (a member, an array element). */
static bool holds_sampler(const struct spv *s, uint32_t type)
{
    const struct sid *t = &s->ids[type];
    if (t->ty == TY_SAMPLED_IMAGE)
        return true;
    if (t->ty == TY_ARRAY)
        return holds_sampler(s, t->elem);
    if (t->ty == TY_STRUCT)
        for (uint32_t m = 0; m < t->len; m++)
            if (holds_sampler(s, s->w[t->def + 2 + m]))
                return true;
    return false;
}

/* The samplers of a uniform struct (GLSL 1.10 4.1.7 allows them as
 * members): one texture unit each, in slot order, named by their path
 * ("s.tex", "l[1].tex[0]") as the runner sets them. */
static bool struct_samplers(struct spv *s, uint32_t type, const char *path)
{
    const struct sid *t = &s->ids[type];
    char sub[2 * US_MAX_NAME];
    if (t->ty == TY_SAMPLED_IMAGE) {
        uint8_t target;
        return sampler_target(s, type, path, &target) &&
               take_units(s, path, 1, target);
    }
    if (t->ty == TY_ARRAY && holds_sampler(s, t->elem)) {
        for (uint32_t e = 0; e < t->len; e++) {
            snprintf(sub, sizeof sub, "%s[%u]", path, e);
            if (!struct_samplers(s, t->elem, sub))
                return false;
        }
    } else if (t->ty == TY_STRUCT) {
        for (uint32_t m = 0; m < t->len; m++) {
            const struct smember *sm = spv_member(s, type, m);
            snprintf(sub, sizeof sub, "%s.%s", path,
                     sm && sm->name ? sm->name : "?");
            if (!struct_samplers(s, s->w[t->def + 2 + m], sub))
                return false;
        }
    }
    return true;
}

/* The samplers of `type` that start before slot `off`: the unit of the
 * sampler at `off` is the struct's first plus this (struct_samplers'
 * order). */
static unsigned samplers_before(const struct spv *s, uint32_t type,
                                uint32_t off)
{
    const struct sid *t = &s->ids[type];
    unsigned n = 0;
    if (off == 0)
        return 0;
    if (t->ty == TY_SAMPLED_IMAGE)
        return 1;
    if (t->ty == TY_ARRAY) {
        uint32_t es = s->ids[t->elem].slots;
        for (uint32_t e = 0; e < t->len && e * es < off; e++)
            n += samplers_before(s, t->elem, off - e * es);
    } else if (t->ty == TY_STRUCT) {
        uint32_t at = 0;
        for (uint32_t m = 0; m < t->len && at < off; m++) {
            uint32_t mt = s->w[t->def + 2 + m];
            n += samplers_before(s, mt, off - at);
            at += s->ids[mt].slots;
        }
    }
    return n;
}

/* Access chains, and OpenCL's pointer arithmetic (the first index steps
 * over whole pointees). */
static bool is_chain(unsigned op)
{
    return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ||
           op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
}

/* Bind a variable on its first use. */
static bool bind_var(struct spv *s, uint32_t var)
{
    struct sid *v = &s->ids[var];
    if (v->var_base >= 0 || v->sampler_unit >= 0)
        return true;
    uint32_t sc = s->ids[v->type].storage, type = s->ids[v->type].elem;
    uint32_t n = s->ids[type].slots;
    if (s->ids[v->type].ty == TY_POINTER && is_memory_var(s, var))
        return v->space || bind_memory(s, var);
    if (s->ids[v->type].ty != TY_POINTER ||
        (n == 0 && s->ids[type].ty != TY_SAMPLER))
        return spv_fail(s, "SPIR-V: variable %u has a bad type", var);
    switch (sc) {
    case SpvStorageClassUniformConstant: case SpvStorageClassUniform: {
        uint32_t t = type;
        while (s->ids[t].ty == TY_ARRAY)
            t = s->ids[t].elem;
        if (s->ids[t].ty >= TY_IMAGE)
            return bind_sampler(s, var);
        if (!bind_uniform(s, var))
            return false;
        if (!holds_sampler(s, type))
            return true;
        v->struct_units = (int32_t)s->nunits;
        return struct_samplers(s, type, v->name ? v->name : "?");
    }
    case SpvStorageClassInput:
        v->var_base = 0;
        return true;
    case SpvStorageClassOutput:
        if (!v->var_loaded) {
            v->var_base = 0;
            return true;
        }
        /* read back, so shadowed in registers */
        /* fall through */
    case SpvStorageClassFunction: case SpvStorageClassPrivate:
        for (uint32_t i = 0; i < n; i++) {
            unsigned r = 0;
            if (!new_vreg(s, false, &r))
                return false;
            if (i == 0)
                v->var_base = (int32_t)r;
        }
        return true;
    default:
        return spv_fail(s, "variable %s: unsupported storage class %u",
                        v->name ? v->name : "?", sc);
    }
}

bool bind_initialized_uniforms(struct spv *s)
{
    for (uint32_t id = 1; id < s->bound; id++) {
        const struct sid *v = &s->ids[id];
        if (v->op == SpvOpVariable && v->def && spv_wc(s, v->def) >= 5 &&
            s->ids[v->type].storage == SpvStorageClassUniformConstant &&
            !bind_var(s, id))
            return false;
    }
    return true;
}

static bool in_regs(const struct spv *s, const struct sid *v)
{
    uint32_t sc = s->ids[v->type].storage;
    return sc == SpvStorageClassFunction || sc == SpvStorageClassPrivate ||
           (sc == SpvStorageClassOutput && v->var_loaded);
}

bool access_chain(struct spv *s, uint32_t at)
{
    uint32_t id = s->w[at + 2], base;
    if (!spv_id(s, at, 3, &base))
        return false;
    struct sid *p = &s->ids[id], *b = &s->ids[base];
    if (b->op != SpvOpVariable && !is_chain(b->op) && !b->space)
        return spv_fail(s, "SPIR-V: access chain base %u is not a pointer",
                        base);
    if (b->op == SpvOpVariable && !bind_var(s, base))
        return false;
    if (s->ids[b->op == SpvOpVariable ? base : b->root].space)
        return memory_chain(s, at, p);
    p->root = b->op == SpvOpVariable ? base : b->root;
    p->off = b->op == SpvOpVariable ? 0 : b->off;
    p->comp = b->op == SpvOpVariable ? NO_COMP : b->comp;
    p->dyn = b->op == SpvOpVariable ? false : b->dyn;
    p->dyn_src = b->dyn_src;
    p->dyn_stride = b->dyn_stride;
    p->dyn_c = b->op == SpvOpVariable ? false : b->dyn_c;
    p->oob = b->op == SpvOpVariable ? false : b->oob;
    p->dyn_comp = b->dyn_comp;
    uint32_t t = s->ids[b->type].elem;
    for (unsigned k = 4; k < spv_wc(s, at); k++) {
        uint32_t ix;
        if (!spv_id(s, at, k, &ix))
            return false;
        const struct sid *ty = &s->ids[t];
        bool is_const = s->ids[ix].op == SpvOpConstant;
        int64_t c = 0;
        if (is_const && !spv_const_int(s, ix, &c))
            return false;
        if (p->comp != NO_COMP || p->dyn_c)
            return spv_fail(s, "SPIR-V: access chain indexes a scalar");
        switch (ty->ty) {
        case TY_STRUCT: {
            if (!is_const || c < 0 || c >= ty->len)
                return spv_fail(s, "SPIR-V: bad struct index");
            for (int64_t m = 0; m < c; m++)
                p->off += s->ids[s->w[ty->def + 2 + m]].slots;
            t = s->w[ty->def + 2 + c];
            continue;
        }
        case TY_VECTOR:
            if (!is_const) {
                p->dyn_c = true;
                if (!float_index(s, ix, &p->dyn_comp))
                    return false;
            } else if (c < 0 || c >= ty->comps) {
                p->oob = true;   /* undefined (GLSL 1.20 5.5): reads 0 */
            } else {
                p->comp = (uint8_t)c;
            }
            t = ty->elem;
            continue;
        case TY_ARRAY: case TY_MATRIX: {
            uint32_t es = s->ids[ty->elem].slots;
            if (ty->ty == TY_MATRIX)
                es = 1;
            if (is_const) {
                if (c < 0 || c >= ty->len)
                    p->oob = true;   /* undefined (GLSL 1.20 5.7) */
                else
                    p->off += (uint32_t)c * es;
            } else {
                /* One dynamic level keeps its index (element = index,
                 * slot = index * stride); a second one folds both into a
                 * slot offset: prev * stride + index * es. */
                struct us_src idx, k;
                if (!float_index(s, ix, &idx))
                    return false;
                if (p->dyn) {
                    struct us_src prev = p->dyn_src;
                    if (p->dyn_stride != 1 &&
                        (!const_scalar(s, (float)p->dyn_stride, &k) ||
                         !emit_new(s, US_OP_MUL, prev, k, (struct us_src){ 0 },
                                   &prev)))
                        return false;
                    if (!const_scalar(s, (float)es, &k) ||
                        !emit_new(s, US_OP_MAD, idx, k, prev, &idx))
                        return false;
                    es = 1;
                }
                p->dyn = true;
                p->dyn_src = idx;
                p->dyn_stride = es;
            }
            t = ty->elem;
            continue;
        }
        default:
            return spv_fail(s, "SPIR-V: bad access chain");
        }
    }
    return true;
}

bool select_chain(struct spv *s, struct us_src idx, const struct us_src *cand,
                  unsigned n, bool ints, struct us_src *out)
{
    struct us_src r = cand[0];
    for (unsigned j = 1; j < n; j++) {
        struct us_src k, eq;
        if (!const_scalar(s, (float)j, &k) ||
            !emit_new(s, US_OP_SEQ, idx, k, (struct us_src){ 0 }, &eq) ||
            !emit_new(s, ints ? US_OP_CMP_S : US_OP_CMP,
                      src_neg(src_comp(eq, 0)), cand[j], r, &r))
            return false;
    }
    *out = r;
    return true;
}

bool float_index(struct spv *s, uint32_t id, struct us_src *out)
{
    struct us_src *v;
    uint32_t n;
    if (!value_of(s, id, &v, &n))
        return false;
    *out = src_comp(v[0], 0);
    uint32_t e = scalar_type(s, s->ids[id].type);
    if (!int_data(s, s->ids[id].type))
        return true;
    return emit_new(s, s->ids[e].is_signed ? US_OP_I2F_S : US_OP_I2F_U, *out,
                    (struct us_src){ 0 }, (struct us_src){ 0 }, out);
}

/* Pointer of a load/store: the variable or access chain record. */
static bool pointer(struct spv *s, uint32_t ptr, struct sid **p,
                    struct sid **var)
{
    struct sid *x = &s->ids[ptr];
    if (x->op == SpvOpVariable) {
        if (!bind_var(s, ptr))
            return false;
        x->root = ptr;
        x->off = 0;
        x->comp = NO_COMP;
        x->dyn = false;
        x->dyn_c = false;
        x->oob = false;
    } else if (!is_chain(x->op) && !x->space) {
        return spv_fail(s, "SPIR-V: %u is not a pointer", ptr);
    }
    *p = x;
    *var = &s->ids[x->root];
    return true;
}

/* Operand for slot `slot` of a variable (no dynamic part). */
static bool var_slot(struct spv *s, struct sid *v, uint32_t slot,
                     struct us_src *out)
{
    uint32_t sc = s->ids[v->type].storage;
    if (in_regs(s, v)) {
        *out = src_vreg((unsigned)v->var_base + slot);
        return true;
    }
    if (sc == SpvStorageClassInput) {
        unsigned index, comp;
        if (!io_slot(s, (uint32_t)(v - s->ids), slot, &index, &comp))
            return false;
        if (s->stage == US_STAGE_FRAGMENT && index < 64) {
            s->interp_flat |= (uint64_t)v->flat << index;
            s->interp_linear |= (uint64_t)v->noperspective << index;
        }
        *out = (struct us_src){ .file = US_FILE_INPUT,
                                .index = (uint16_t)index,
                                .swz = { 0, 1, 2, 3 } };
        if (comp)
            *out = src_comp(*out, comp);
        return true;
    }
    if (sc == SpvStorageClassUniformConstant || sc == SpvStorageClassUniform) {
        unsigned p = (unsigned)v->var_base + slot;
        if (s->unavailable[p])
            return spv_fail(s, "%s: this member has no ARB state binding",
                            v->name ? v->name : "?");
        *out = (struct us_src){ .file = US_FILE_PARAM, .index = (uint16_t)p,
                                .swz = { 0, 1, 2, 3 } };
        if (s->param_comp[p])
            *out = src_comp(*out, s->param_comp[p]);
        return true;
    }
    return spv_fail(s, "cannot read output %s", v->name ? v->name : "?");
}

/* OpenCL's get_global_size: workgroups times their size, per dimension
 * (there is no invocation.* input for it). */
static bool global_size(struct spv *s, uint32_t result)
{
    struct us_src n = { .file = US_FILE_INPUT, .index = US_CIN_GROUPCOUNT,
                        .swz = { 0, 1, 2, 3 } };
    struct us_src z = n, r;
    z.index = US_CIN_GROUPSIZE;
    return emit_new(s, US_OP_MUL_U, n, z, (struct us_src){ 0 }, &r) &&
           set_value(s, result, &r, 1);
}

bool load_ptr(struct spv *s, uint32_t ptr, uint32_t result)
{
    struct sid *p, *v;
    if (!pointer(s, ptr, &p, &v))
        return false;
    uint32_t type = s->ids[result].type;
    if (p->space)
        return memory_load(s, p, type, result);
    if (v->builtin == SpvBuiltInGlobalSize && p == v &&
        s->ids[v->type].storage == SpvStorageClassInput)
        return global_size(s, result);
    uint32_t n = s->ids[type].slots ? s->ids[type].slots : 1;
    uint32_t vslots = s->ids[s->ids[v->type].elem].slots;
    if (p->off + n > vslots)
        return spv_fail(s, "SPIR-V: load out of range");
    if (p->oob) {
        /* A constant index out of range: undefined, here zeros. */
        uint32_t at;
        struct us_src zero;
        if (!const_scalar(s, 0, &zero) || !alloc_vals(s, n, &at))
            return false;
        for (uint32_t k = 0; k < n; k++)
            s->vals[at + k] = zero;
        s->ids[result].has_val = true;
        s->ids[result].val = at;
        return true;
    }
    if (v->sampler_unit >= 0)
        return set_value(s, result, &(struct us_src){ .index =
                         (uint16_t)(v->sampler_unit + p->off) }, 1);
    if (v->struct_units >= 0 && s->ids[type].ty == TY_SAMPLED_IMAGE) {
        if (p->dyn)
            return spv_fail(s, "a sampler in a struct indexed at run time");
        unsigned unit = (unsigned)v->struct_units +
                        samplers_before(s, s->ids[v->type].elem, p->off);
        return set_value(s, result, &(struct us_src){ .index =
                         (uint16_t)unit }, 1);
    }
    uint32_t at;
    if (!alloc_vals(s, n, &at))
        return false;
    bool uniform = !in_regs(s, v) && s->ids[v->type].storage !=
                   SpvStorageClassInput;
    for (uint32_t k = 0; k < n; k++) {
        struct us_src r;
        enum us_opcode mov = slot_int(s, type, k) ? US_OP_MOV_U : US_OP_MOV;
        if (p->dyn && uniform) {
            /* ARL + relative read (ARB_vertex_program 2.14.1.3), one
             * ARL for all the slots of the load; fragment programs too,
             * under OPTION USHADER_extensions (the unified shader). */
            struct us_dst a = { .file = US_FILE_ADDRESS, .mask = 1 };
            struct us_src idx = src_comp(p->dyn_src, 0), stride;
            if (!s->arl_valid || s->arl_stride != p->dyn_stride ||
                memcmp(&s->arl_src, &idx, sizeof idx)) {
                struct us_src slot = idx;
                if (p->dyn_stride != 1 &&
                    (!const_scalar(s, (float)p->dyn_stride, &stride) ||
                     !emit_new(s, US_OP_MUL, idx, stride,
                               (struct us_src){ 0 }, &slot)))
                    return false;
                if (!emit(s, US_OP_ARL, a, src_comp(slot, 0),
                          (struct us_src){ 0 }, (struct us_src){ 0 }))
                    return false;
                s->arl_valid = true;
                s->arl_src = idx;
                s->arl_stride = p->dyn_stride;
            }
            s->uses_addr = true;
            r = (struct us_src){ .file = US_FILE_PARAM, .rel = true,
                                 .index = (uint16_t)v->var_base,
                                 .rel_offset = (int16_t)(p->off + k),
                                 .rel_size = (uint16_t)vslots,
                                 .swz = { 0, 1, 2, 3 } };
            unsigned pc = s->param_comp[v->var_base + p->off + k];
            if (pc)
                r = src_comp(r, pc);
            /* Read now: the next dynamic load rewrites A0. */
            if (!emit_new(s, mov, r, (struct us_src){ 0 },
                          (struct us_src){ 0 }, &r))
                return false;
        } else if (p->dyn) {
            unsigned nc = 0;
            struct us_src cand[US_MAX_PARAMS];
            for (uint32_t d = 0; p->off + k + d < vslots && nc < US_MAX_PARAMS;
                 d += p->dyn_stride)
                if (!var_slot(s, v, p->off + k + d, &cand[nc++]))
                    return false;
            if (!select_chain(s, src_comp(p->dyn_src, 0), cand, nc,
                              mov == US_OP_MOV_U, &r))
                return false;
        } else {
            if (!var_slot(s, v, p->off + k, &r))
                return false;
            if (in_regs(s, v) &&
                !emit_new(s, mov, r, (struct us_src){ 0 },
                          (struct us_src){ 0 }, &r))
                return false;   /* a snapshot: the variable changes */
        }
        bool scalar = s->ids[type].ty == TY_FLOAT ||
                      s->ids[type].ty == TY_INT || s->ids[type].ty == TY_BOOL;
        if (p->comp != NO_COMP)
            r = src_comp(r, p->comp);
        else if (scalar && !p->dyn_c)
            /* A scalar variable's slot holds it in x: read replicated, as
             * every scalar value is (a register snapshot reads .xyzw). */
            r = src_comp(r, 0);
        if (p->dyn_c) {
            struct us_src cand[4];
            for (unsigned c = 0; c < 4; c++)
                cand[c] = src_comp(r, c);
            if (!select_chain(s, p->dyn_comp, cand, 4, mov == US_OP_MOV_U,
                              &r))
                return false;
        }
        s->vals[at + k] = r;
    }
    s->ids[result].has_val = true;
    s->ids[result].val = at;
    return true;
}

static unsigned slot_mask(const struct spv *s, uint32_t type, uint32_t k)
{
    const struct sid *t = &s->ids[type];
    while (t->ty == TY_ARRAY || t->ty == TY_STRUCT) {
        if (t->ty == TY_ARRAY) {
            uint32_t es = s->ids[t->elem].slots;
            k %= es ? es : 1;
            t = &s->ids[t->elem];
            continue;
        }
        uint32_t m = 0;
        for (; m < t->len; m++) {
            uint32_t ms = s->ids[s->w[t->def + 2 + m]].slots;
            if (k < ms)
                break;
            k -= ms;
        }
        if (m == t->len)
            return 0xf;
        t = &s->ids[s->w[t->def + 2 + m]];
    }
    return (1u << t->comps) - 1;
}

bool store_ptr(struct spv *s, uint32_t ptr, const struct us_src *val,
               uint32_t n)
{
    struct sid *p, *v;
    if (!pointer(s, ptr, &p, &v))
        return false;
    if (p->space)
        return memory_store(s, p, s->ids[s->ids[ptr].type].elem, val, n);
    if (p->oob)
        return true;   /* out of range: undefined, here nothing */
    uint32_t vtype = s->ids[v->type].elem;
    uint32_t vslots = s->ids[vtype].slots;
    uint32_t ptype = s->ids[s->ids[ptr].type].elem;
    if (p->off + n > vslots)
        return spv_fail(s, "SPIR-V: store out of range");
    uint32_t sc = s->ids[v->type].storage;
    for (uint32_t k = 0; k < n; k++) {
        unsigned mask = p->comp != NO_COMP ? 1u << p->comp
                                           : slot_mask(s, ptype, k);
        struct us_src x = val[k];
        bool ints = slot_int(s, ptype, k);
        enum us_opcode mov = ints ? US_OP_MOV_U : US_OP_MOV;
        if (p->comp != NO_COMP)
            x = src_comp(x, 0);   /* a scalar into one component */
        if (in_regs(s, v) && (p->dyn || p->dyn_c)) {
            /* Each candidate register keeps its value unless the index
             * selects it: CMP on (slot == index) [* (lane == component)]. */
            static const float lanes[4] = { 0, 1, 2, 3 };
            struct us_src l, lane_eq = { 0 };
            unsigned wmask = mask;
            if (p->dyn_c) {
                if (!const_src(s, lanes, &l) ||
                    !emit_new(s, US_OP_SEQ, l, p->dyn_comp,
                              (struct us_src){ 0 }, &lane_eq))
                    return false;
                x = src_comp(x, 0);
                wmask = 0xf;
            }
            for (uint32_t d = 0, j = 0; p->off + k + d < vslots;
                 d += p->dyn_stride, j++) {
                struct us_src jc, cond = lane_eq;
                unsigned r = (unsigned)v->var_base + p->off + k + d;
                if (p->dyn &&
                    (!const_scalar(s, (float)j, &jc) ||
                     !emit_new(s, US_OP_SEQ, src_comp(p->dyn_src, 0), jc,
                               (struct us_src){ 0 }, &cond) ||
                     (p->dyn_c &&
                      !emit_new(s, US_OP_MUL, src_comp(cond, 0), lane_eq,
                                (struct us_src){ 0 }, &cond))))
                    return false;
                if (!p->dyn_c)
                    cond = src_comp(cond, 0);
                if (!emit(s, ints ? US_OP_CMP_S : US_OP_CMP, dst_vreg(r, wmask),
                          src_neg(cond), x, src_vreg(r)))
                    return false;
                if (!p->dyn)
                    break;   /* one register: the component varies */
            }
        } else if (in_regs(s, v)) {
            unsigned r = (unsigned)v->var_base + p->off + k;
            if (!emit(s, mov, dst_vreg(r, mask), x,
                      (struct us_src){ 0 }, (struct us_src){ 0 }))
                return false;
        } else if (sc == SpvStorageClassOutput && !p->dyn) {
            unsigned index, comp;
            if (!io_slot(s, p->root, p->off + k, &index, &comp))
                return false;
            if (comp) {
                /* A scalar output in component `comp` (result.depth.z). */
                mask <<= comp;
                x = src_comp(x, 0);
            }
            struct us_dst d = { .file = US_FILE_OUTPUT, .mask = (uint8_t)mask,
                                .index = (uint16_t)index };
            if (!emit(s, mov, d, x, (struct us_src){ 0 },
                      (struct us_src){ 0 }))
                return false;
        } else {
            return spv_fail(s, "cannot store to %s%s",
                            v->name ? v->name : "?",
                            p->dyn ? " with a dynamic index" : "");
        }
    }
    return true;
}

static bool vreg_written(const struct spv *s, unsigned r)
{
    for (unsigned i = 0; i < s->ninsts; i++)
        if (s->insts[i].dst.file == US_FILE_TEMP &&
            s->insts[i].dst.index == r)
            return true;
    return false;
}

bool flush_outputs(struct spv *s)
{
    for (uint32_t id = 1; id < s->bound; id++) {
        struct sid *v = &s->ids[id];
        if (v->op != SpvOpVariable || !v->var_loaded || v->var_base < 0 ||
            s->ids[v->type].storage != SpvStorageClassOutput)
            continue;
        uint32_t type = s->ids[v->type].elem;
        for (uint32_t k = 0; k < s->ids[type].slots; k++) {
            unsigned index, comp, mask = slot_mask(s, type, k);
            if (s->ids[type].ty == TY_STRUCT) {
                /* gl_PerVertex: members without a binding (gl_ClipDistance)
                 * are only an error when written. */
                uint32_t e = k;
                const struct smember *m = perv_member(s, type, &e);
                if (!m || m->builtin < 0 ||
                    !us_glsl_builtin_core(m->builtin, s->stage))
                    continue;
            }
            if (!vreg_written(s, (unsigned)v->var_base + k))
                continue;   /* never stored: the output stays unwritten */
            if (!io_slot(s, id, k, &index, &comp))
                return false;
            struct us_src x = src_vreg((unsigned)v->var_base + k);
            if (comp) {
                mask <<= comp;
                x = src_comp(x, 0);
            }
            struct us_dst d = { .file = US_FILE_OUTPUT, .mask = (uint8_t)mask,
                                .index = (uint16_t)index };
            if (!emit(s, slot_int(s, type, k) ? US_OP_MOV_U : US_OP_MOV, d, x,
                      (struct us_src){ 0 }, (struct us_src){ 0 }))
                return false;
        }
    }
    return true;
}
