/*
 * Operands, instructions, constants and SSA values of the translation.
 *
 * Every SSA value is a list of vec4 operands (one per slot: scalars and
 * vectors take one, matrices one per column, arrays and structs their
 * elements in order).  An operand is any us_src: a virtual register, an
 * input, a parameter or a constant, with swizzle and negation, so a
 * shuffle, an extract, a negation or a load of a uniform costs no
 * instruction.  Scalars are replicated to all four components, which is
 * what the SCL-format opcodes and scalar-vector products read; this is
 * only the virtual form: spirv_width.c then cuts every write down to the
 * components that are read (a scalar to one) and regalloc.c packs them.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/spirv.h"

enum { MAX_VREGS = 60000 };

struct us_src src_vreg(unsigned vreg)
{
    return (struct us_src){ .file = US_FILE_TEMP, .index = (uint16_t)vreg,
                            .swz = { 0, 1, 2, 3 } };
}

struct us_src src_comp(struct us_src a, unsigned c)
{
    const uint8_t sel[4] = { (uint8_t)c, (uint8_t)c, (uint8_t)c, (uint8_t)c };
    return src_swz(a, sel);
}

struct us_src src_swz(struct us_src a, const uint8_t sel[4])
{
    struct us_src r = a;
    r.negate = 0;
    for (int k = 0; k < 4; k++) {
        r.swz[k] = a.swz[sel[k] & 3];
        if (a.negate & (1u << (sel[k] & 3)))
            r.negate |= (uint8_t)(1u << k);
    }
    return r;
}

struct us_src src_neg(struct us_src a)
{
    a.negate ^= 0xf;
    return a;
}

struct us_dst dst_vreg(unsigned vreg, unsigned mask)
{
    return (struct us_dst){ .file = US_FILE_TEMP, .mask = (uint8_t)mask,
                            .index = (uint16_t)vreg };
}

bool new_vreg(struct spv *s, bool ssa, unsigned *v)
{
    if (s->nvregs >= MAX_VREGS)
        return spv_fail(s, "shader too large: more than %d values",
                        MAX_VREGS);
    if (s->nvregs == s->cap_vregs) {
        unsigned cap = s->cap_vregs ? 2 * s->cap_vregs : 256;
        uint8_t *p = realloc(s->vreg_ssa, cap);
        if (!p)
            return spv_fail(s, "out of memory");
        s->vreg_ssa = p;
        s->cap_vregs = cap;
    }
    s->vreg_ssa[s->nvregs] = ssa;
    *v = s->nvregs++;
    return true;
}

/* Outside SWZ an operand is negated whole or not at all (ARB_vertex_program
 * 2.14.2.1): a mixed negation mask is made by a SWZ into a register, or
 * for an integer instruction by two MOV.U (integer negation is two's
 * complement, and SWZ is a float move). */
static bool whole_negation(struct spv *s, enum us_opcode op,
                           struct us_src *x)
{
    if (op == US_OP_SWZ || x->negate == 0 || x->negate == 0xf)
        return true;
    unsigned v;
    if (!new_vreg(s, true, &v))
        return false;
    if (us_ops[op].flags & US_I_SRC) {
        struct us_src pos = *x, neg = *x;
        pos.negate = 0;
        neg.negate = 0xf;
        unsigned m = x->negate;
        if (!emit(s, US_OP_MOV_U, dst_vreg(v, 0xf & ~m), pos,
                  (struct us_src){ 0 }, (struct us_src){ 0 }) ||
            !emit(s, US_OP_MOV_U, dst_vreg(v, m), neg, (struct us_src){ 0 },
                  (struct us_src){ 0 }))
            return false;
    } else if (!emit(s, US_OP_SWZ, dst_vreg(v, 0xf), *x, (struct us_src){ 0 },
                     (struct us_src){ 0 })) {
        return false;
    }
    *x = src_vreg(v);
    return true;
}

bool emit(struct spv *s, enum us_opcode op, struct us_dst dst,
          struct us_src a, struct us_src b, struct us_src c)
{
    if (!whole_negation(s, op, &a) || !whole_negation(s, op, &b) ||
        !whole_negation(s, op, &c))
        return false;
    if (s->ninsts >= US_MAX_INSTRUCTIONS)
        return spv_fail(s, "shader too large: more than %d instructions",
                        US_MAX_INSTRUCTIONS);
    if (s->ninsts == s->cap_insts) {
        unsigned cap = s->cap_insts ? 2 * s->cap_insts : 256;
        struct us_inst *p = realloc(s->insts, cap * sizeof *p);
        if (!p)
            return spv_fail(s, "out of memory");
        s->insts = p;
        s->cap_insts = cap;
    }
    struct us_inst *in = &s->insts[s->ninsts++];
    *in = (struct us_inst){ .op = (uint8_t)op, .dst = dst,
                            .src = { a, b, c } };
    /* A0 is known only along straight-line code. */
    if (us_ops[op].format == US_FMT_FLOW || us_ops[op].format == US_FMT_COND)
        s->arl_valid = false;
    if (a.rel || b.rel || c.rel)
        s->uses_addr = true;
    return true;
}

bool emit_new(struct spv *s, enum us_opcode op, struct us_src a,
              struct us_src b, struct us_src c, struct us_src *out)
{
    unsigned v = 0;
    if (!new_vreg(s, true, &v) || !emit(s, op, dst_vreg(v, 0xf), a, b, c))
        return false;
    *out = src_vreg(v);
    return true;
}

/* Whether components 0..n-1 of `a` all read the same component. */
static bool replicated(struct us_src a, unsigned n)
{
    for (unsigned c = 1; c < n; c++)
        if (a.swz[c] != a.swz[0] ||
            ((a.negate >> c) & 1) != (a.negate & 1))
            return false;
    return true;
}

bool emit_scalar(struct spv *s, enum us_opcode op, unsigned n,
                 struct us_src a, struct us_src b, struct us_src *out)
{
    unsigned v;
    if (!new_vreg(s, true, &v))
        return false;
    /* One issue when every component computes the same value (a scalar
     * replicated: x / s, pow(v, s) of a splat). */
    if (replicated(a, n) && (us_ops[op].nsrc < 2 || replicated(b, n)))
        n = 1;
    for (unsigned c = 0; c < n; c++)
        if (!emit(s, op, dst_vreg(v, n == 1 ? 0xf : 1u << c),
                  src_comp(a, c), src_comp(b, c), (struct us_src){ 0 }))
            return false;
    *out = src_vreg(v);
    return true;
}

bool const_src(struct spv *s, const float v[4], struct us_src *out)
{
    unsigned i;
    for (i = 0; i < s->nconsts; i++)
        if (!memcmp(s->consts[i].v, v, sizeof s->consts[i].v))
            break;
    if (i == s->nconsts) {
        if (s->nconsts >= US_MAX_PARAMS)
            return spv_fail(s, "too many constants");
        if (s->nconsts == s->cap_consts) {
            unsigned cap = s->cap_consts ? 2 * s->cap_consts : 32;
            struct constant *p = realloc(s->consts, cap * sizeof *p);
            if (!p)
                return spv_fail(s, "out of memory");
            s->consts = p;
            s->cap_consts = cap;
        }
        memcpy(s->consts[s->nconsts++].v, v, sizeof s->consts[i].v);
    }
    *out = (struct us_src){ .file = US_FILE_PARAM,
                            .index = (uint16_t)(CONST_BASE + i),
                            .swz = { 0, 1, 2, 3 } };
    return true;
}

bool const_scalar(struct spv *s, float v, struct us_src *out)
{
    const float vv[4] = { v, v, v, v };
    return const_src(s, vv, out);
}

bool alloc_vals(struct spv *s, uint32_t n, uint32_t *at)
{
    if (s->nvals + n > s->cap_vals) {
        uint32_t cap = s->cap_vals ? s->cap_vals : 256;
        while (cap < s->nvals + n)
            cap *= 2;
        struct us_src *p = realloc(s->vals, cap * sizeof *p);
        if (!p)
            return spv_fail(s, "out of memory");
        s->vals = p;
        s->cap_vals = cap;
    }
    *at = s->nvals;
    s->nvals += n;
    return true;
}

bool set_value(struct spv *s, uint32_t id, const struct us_src *v, uint32_t n)
{
    uint32_t at;
    if (!alloc_vals(s, n ? n : 1, &at))
        return false;
    memcpy(&s->vals[at], v, n * sizeof *v);
    s->ids[id].has_val = true;
    s->ids[id].val = at;
    return true;
}

unsigned type_comps(const struct spv *s, uint32_t type)
{
    return s->ids[type].comps;
}

uint32_t scalar_type(const struct spv *s, uint32_t type)
{
    for (unsigned guard = 0; guard < 16 && type && type < s->bound; guard++) {
        const struct sid *t = &s->ids[type];
        if (t->ty != TY_VECTOR && t->ty != TY_MATRIX && t->ty != TY_ARRAY &&
            t->ty != TY_RUNTIME_ARRAY)
            return type;
        type = t->elem;
    }
    return 0;
}

bool int_data(const struct spv *s, uint32_t type)
{
    uint32_t e = scalar_type(s, type);
    return !s->float_ints && e && s->ids[e].ty == TY_INT;
}

uint32_t slot_type(const struct spv *s, uint32_t type, uint32_t k)
{
    for (unsigned guard = 0; guard < 64 && type && type < s->bound;
         guard++) {
        const struct sid *t = &s->ids[type];
        if (t->ty == TY_ARRAY) {
            uint32_t es = s->ids[t->elem].slots;
            k %= es ? es : 1;
            type = t->elem;
        } else if (t->ty == TY_STRUCT) {
            uint32_t m = 0;
            for (; m < t->len; m++) {
                uint32_t mt = s->w[t->def + 2 + m];
                if (k < s->ids[mt].slots) {
                    type = mt;
                    break;
                }
                k -= s->ids[mt].slots;
            }
            if (m == t->len)
                return 0;
        } else if (t->ty == TY_MATRIX) {
            return t->elem;
        } else {
            return type;
        }
    }
    return 0;
}

bool slot_int(const struct spv *s, uint32_t type, uint32_t k)
{
    uint32_t t = slot_type(s, type, k);
    return t && int_data(s, t);
}

enum us_opcode move_op(const struct spv *s, uint32_t type)
{
    return int_data(s, type) ? US_OP_MOV_U : US_OP_MOV;
}

/* A scalar constant's register word: the bits of a float or (32-bit
 * words) an integer, or (float_ints) the integer as a float. */
static float scalar_bits(const struct spv *s, uint32_t id)
{
    const struct sid *c = &s->ids[id];
    uint32_t bits = spv_wc(s, c->def) > 3 ? s->w[c->def + 3] : 0;
    const struct sid *t = &s->ids[c->type];
    float f;
    if (t->ty == TY_FLOAT || !s->float_ints) {
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    return t->is_signed ? (float)(int32_t)bits : (float)bits;
}

bool const_int(struct spv *s, uint32_t v, struct us_src *out)
{
    float f;
    memcpy(&f, &v, sizeof f);
    return const_scalar(s, f, out);
}

bool const_ints(struct spv *s, const uint32_t v[4], struct us_src *out)
{
    float f[4];
    memcpy(f, v, sizeof f);
    return const_src(s, f, out);
}

/* Operands of a constant (2.4's constant instructions), built on demand:
 * scalars and vectors are parameter slots; composites list their parts. */
static bool const_value(struct spv *s, uint32_t id)
{
    struct sid *c = &s->ids[id];
    const struct sid *t = &s->ids[c->type];
    float v[4] = { 0, 0, 0, 0 };
    struct us_src one;
    switch (c->op) {
    case SpvOpConstantTrue: case SpvOpSpecConstantTrue:
        v[0] = 1;
        /* fall through */
    case SpvOpConstantFalse: case SpvOpSpecConstantFalse:
        return const_scalar(s, v[0], &one) && set_value(s, id, &one, 1);
    case SpvOpConstant: case SpvOpSpecConstant:
        if (t->ty != TY_FLOAT && t->ty != TY_INT)
            return spv_fail(s, "SPIR-V: bad constant %u", id);
        return const_scalar(s, scalar_bits(s, id), &one) &&
               set_value(s, id, &one, 1);
    case SpvOpConstantNull: case SpvOpUndef: {
        uint32_t n = t->slots ? t->slots : 1, at;
        if (!const_scalar(s, 0, &one) || !alloc_vals(s, n, &at))
            return false;
        for (uint32_t i = 0; i < n; i++)
            s->vals[at + i] = one;
        c->has_val = true;
        c->val = at;
        return true;
    }
    case SpvOpConstantComposite: case SpvOpSpecConstantComposite: {
        unsigned wc = spv_wc(s, c->def);
        if (t->ty == TY_VECTOR) {
            if (wc != 3u + t->comps)
                return spv_fail(s, "SPIR-V: bad vector constant %u", id);
            for (unsigned k = 0; k < t->comps; k++) {
                uint32_t e;
                if (!spv_id(s, c->def, 3 + k, &e))
                    return false;
                if (s->ids[e].op == SpvOpConstantTrue)
                    v[k] = 1;
                else if (s->ids[e].op == SpvOpConstant)
                    v[k] = scalar_bits(s, e);
                else if (s->ids[e].op != SpvOpConstantFalse &&
                         s->ids[e].op != SpvOpConstantNull)
                    return spv_fail(s, "SPIR-V: bad vector constant %u", id);
            }
            return const_src(s, v, &one) && set_value(s, id, &one, 1);
        }
        uint32_t at;
        if (!alloc_vals(s, t->slots, &at))
            return false;
        uint32_t n = 0;
        for (unsigned k = 3; k < wc; k++) {
            uint32_t e, en;
            struct us_src *ev;
            if (!spv_id(s, c->def, k, &e) || !value_of(s, e, &ev, &en))
                return false;
            if (n + en > t->slots)
                return spv_fail(s, "SPIR-V: bad composite constant %u", id);
            memcpy(&s->vals[at + n], ev, en * sizeof *ev);
            n += en;
        }
        if (n != t->slots)   /* every slot gets an operand */
            return spv_fail(s, "SPIR-V: bad composite constant %u", id);
        c->has_val = true;
        c->val = at;
        return true;
    }
    default:
        return spv_fail(s, "SPIR-V: id %u used before its definition", id);
    }
}

bool value_of(struct spv *s, uint32_t id, struct us_src **v, uint32_t *n)
{
    if (id == 0 || id >= s->bound || !s->ids[id].def)
        return spv_fail(s, "SPIR-V: undefined id %u", id);
    struct sid *x = &s->ids[id];
    if (!x->has_val && !const_value(s, id))
        return false;
    *v = &s->vals[x->val];
    *n = x->type ? s->ids[x->type].slots : 1;
    if (*n == 0)
        *n = 1;
    return true;
}
