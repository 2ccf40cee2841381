/*
 * SPIR-V instructions (SPIR-V 1.x specification, 3.32) lowered to vec4
 * IR: arithmetic, conversions, comparisons, composites, memory, texture
 * sampling.  Integers are 32-bit words and integer instructions compute
 * them (docs/COMPUTE.md), except in sources the front step rewrote from
 * GLSL 1.20 or earlier, whose integers are floats (exact up to 2^24), as
 * GLSL 1.20 4.1.3 allows.  Booleans are floats, 1.0 and 0.0; a boolean an
 * integer comparison computed also keeps its integer form (all ones, 0),
 * which IF, selects and the logical operations take as they are
 * (docs/GLSL.md "Booleans").  FUnord* compare like FOrd* (the IR has no
 * NaN-aware compare).
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/spirv.h"

#define NONE ((struct us_src){ 0 })

static uint32_t res_id(const struct spv *s, uint32_t at)
{
    return s->w[at + 2];
}

static uint32_t res_type(const struct spv *s, uint32_t at)
{
    return s->w[at + 1];
}

/* Operand k of instruction `at` as a value. */
static bool arg(struct spv *s, uint32_t at, unsigned k, struct us_src **v,
                uint32_t *n)
{
    uint32_t id;
    return spv_id(s, at, k, &id) && value_of(s, id, v, n);
}

static bool result1(struct spv *s, uint32_t at, struct us_src v)
{
    return set_value(s, res_id(s, at), &v, 1);
}

/* Whether a is the same register as b, ignoring swizzle and negation. */
static bool same_reg(struct us_src a, struct us_src b)
{
    return a.file == b.file && a.index == b.index && a.rel == b.rel &&
           a.rel_offset == b.rel_offset && a.rel_size == b.rel_size;
}

static bool is_const(struct us_src a)
{
    return a.file == US_FILE_PARAM && !a.rel && a.index >= CONST_BASE;
}

static float const_comp(const struct spv *s, struct us_src a, unsigned c)
{
    float v = s->consts[a.index - CONST_BASE].v[a.swz[c] & 3];
    return a.negate & (1u << c) ? -v : v;
}

/* The same for an integer word: negation is two's complement. */
static float const_icomp(const struct spv *s, struct us_src a, unsigned c)
{
    float v = s->consts[a.index - CONST_BASE].v[a.swz[c] & 3];
    if (!(a.negate & (1u << c)))
        return v;
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u = 0u - u;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* A vector from n scalar elements (each read from its component 0):
 * a swizzle when they share one register, a constant when they are all
 * constants, else one MOV per register with the matching write mask
 * (MOV.U for integers, `ints`, which keep a mixed negation in the
 * operand: SWZ is a float move). */
static bool build_k(struct spv *s, const struct us_src *e, unsigned n,
                    bool ints, struct us_src *out)
{
    bool one = true, consts = true;
    for (unsigned k = 0; k < n; k++) {
        one &= same_reg(e[k], e[0]);
        consts &= is_const(e[k]);
    }
    if (consts) {
        float v[4];
        for (unsigned k = 0; k < 4; k++)
            v[k] = ints ? const_icomp(s, e[k < n ? k : n - 1], 0)
                        : const_comp(s, e[k < n ? k : n - 1], 0);
        return const_src(s, v, out);
    }
    if (one) {
        /* A swizzle; mixed signs take a SWZ (emit makes it). */
        struct us_src r = e[0];
        r.negate = 0;
        for (unsigned k = 0; k < 4; k++) {
            const struct us_src *x = &e[k < n ? k : n - 1];
            r.swz[k] = x->swz[0];
            if (x->negate & 1)
                r.negate |= (uint8_t)(1u << k);
        }
        if (r.negate != 0 && r.negate != 0xf && !ints)
            return emit_new(s, US_OP_SWZ, r, NONE, NONE, out);
        *out = r;
        return true;
    }
    unsigned v, done = 0;
    if (!new_vreg(s, true, &v))
        return false;
    for (unsigned k = 0; k < n; k++) {
        if (done & (1u << k))
            continue;
        struct us_src r = e[k];
        unsigned mask = 0;
        for (unsigned j = k; j < n; j++) {
            bool c = is_const(e[k]) ? is_const(e[j]) : same_reg(e[j], e[k]);
            /* one MOV negates all its components or none */
            c = c && (e[j].negate & 1) == (e[k].negate & 1);
            if (!c || (done & (1u << j)))
                continue;
            if (is_const(e[k]) && j != k)
                continue;   /* constants: one slot each, kept simple */
            mask |= 1u << j;
            r.swz[j] = e[j].swz[0];
        }
        r.negate = e[k].negate & 1 ? 0xf : 0;
        if (is_const(e[k])) {
            if (!const_scalar(s, ints ? const_icomp(s, e[k], 0)
                                      : const_comp(s, e[k], 0), &r))
                return false;
        }
        done |= mask;
        if (!emit(s, ints ? US_OP_MOV_U : US_OP_MOV, dst_vreg(v, mask), r,
                  NONE, NONE))
            return false;
    }
    *out = src_vreg(v);
    return true;
}

static bool build(struct spv *s, const struct us_src *e, unsigned n,
                  struct us_src *out)
{
    return build_k(s, e, n, false, out);
}

static unsigned comps_of(const struct spv *s, uint32_t type)
{
    return type_comps(s, type);
}

/* dot(a, b) of n-vectors, replicated. */
static bool dot(struct spv *s, unsigned n, struct us_src a, struct us_src b,
                struct us_src *out)
{
    if (n == 1)
        return emit_new(s, US_OP_MUL, a, b, NONE, out);
    if (n == 2) {
        struct us_src t;
        return emit_new(s, US_OP_MUL, a, b, NONE, &t) &&
               emit_new(s, US_OP_ADD, src_comp(t, 0), src_comp(t, 1), NONE,
                        out);
    }
    return emit_new(s, n == 3 ? US_OP_DP3 : US_OP_DP4, a, b, NONE, out);
}

/* m * v: columns times components, accumulated with MAD. */
static bool mat_vec(struct spv *s, const struct us_src *cols, unsigned ncols,
                    struct us_src v, struct us_src *out)
{
    struct us_src r;
    if (!emit_new(s, US_OP_MUL, cols[0], src_comp(v, 0), NONE, &r))
        return false;
    for (unsigned j = 1; j < ncols; j++)
        if (!emit_new(s, US_OP_MAD, cols[j], src_comp(v, j), r, &r))
            return false;
    *out = r;
    return true;
}

/* Component-wise op over every slot of the operands. */
static bool slotwise(struct spv *s, uint32_t at, enum us_opcode op,
                     unsigned nsrc)
{
    struct us_src *a[3] = { NULL, NULL, NULL };
    uint32_t n = 0, m;
    for (unsigned k = 0; k < nsrc; k++)
        if (!arg(s, at, 3 + k, &a[k], &m) || (k && m != n && m != 1) ||
            (!k && !(n = m)))
            return false;
    struct us_src r[4];
    if (n > 4)
        return spv_fail(s, "SPIR-V: operand too large");
    for (uint32_t i = 0; i < n; i++)
        if (!emit_new(s, op, a[0][i], nsrc > 1 ? a[1][i] : NONE,
                      nsrc > 2 ? a[2][i] : NONE, &r[i]))
            return false;
    return set_value(s, res_id(s, at), r, n);
}

/* OpDPdx ... OpFwidthCoarse: DDX DDY (coarse, as Mesa's softpipe runs
 * GLSL's dFdx dFdy; isa/micro.h) or DDX.FINE DDY.FINE per component, and
 * fwidth = |ddx| + |ddy| (GLSL 4.60 8.14.1). */
static bool derivative(struct spv *s, uint32_t at, unsigned op)
{
    bool fine = op == SpvOpDPdxFine || op == SpvOpDPdyFine ||
                op == SpvOpFwidthFine;
    enum us_opcode ddx = fine ? US_OP_DDX_FINE : US_OP_DDX;
    enum us_opcode ddy = fine ? US_OP_DDY_FINE : US_OP_DDY;
    if (s->stage != US_STAGE_FRAGMENT)
        return spv_fail(s, "derivatives outside a fragment shader");
    if (op == SpvOpDPdx || op == SpvOpDPdxFine || op == SpvOpDPdxCoarse)
        return slotwise(s, at, ddx, 1);
    if (op == SpvOpDPdy || op == SpvOpDPdyFine || op == SpvOpDPdyCoarse)
        return slotwise(s, at, ddy, 1);
    struct us_src *a, r[4];
    uint32_t n;
    if (!arg(s, at, 3, &a, &n))
        return false;
    if (n > 4)
        return spv_fail(s, "SPIR-V: operand too large");
    for (uint32_t i = 0; i < n; i++) {
        struct us_src x, y;
        if (!emit_new(s, ddx, a[i], NONE, NONE, &x) ||
            !emit_new(s, ddy, a[i], NONE, NONE, &y) ||
            !emit_new(s, US_OP_ABS, x, NONE, NONE, &x) ||
            !emit_new(s, US_OP_ABS, y, NONE, NONE, &y) ||
            !emit_new(s, US_OP_ADD, x, y, NONE, &r[i]))
            return false;
    }
    return set_value(s, res_id(s, at), r, n);
}

/* x / y for n components: x * RCP(y) per component. */
static bool fdiv(struct spv *s, unsigned n, struct us_src x, struct us_src y,
                 struct us_src *out)
{
    struct us_src r;
    return emit_scalar(s, US_OP_RCP, n, y, NONE, &r) &&
           emit_new(s, US_OP_MUL, x, r, NONE, out);
}

/*
 * Integer quotient truncated toward zero.  q0 = TRC(a * RCP(b)) can be one
 * off when RCP rounds; the remainder r = a - q0*b tells which way: q0 was
 * one too close to zero when |r| >= |b|, one too far when r and a differ
 * in sign; q = q0 + sign(a*b) * ((|r| >= |b|) - (r*a < 0)).
 */
static bool idiv(struct spv *s, unsigned n, struct us_src a,
                 struct us_src b, struct us_src *q_out, struct us_src *r_out)
{
    struct us_src q, r, ab, babs, rabs, ge, sg, zero;
    if (!fdiv(s, n, a, b, &q) ||
        !emit_new(s, US_OP_TRC, q, NONE, NONE, &q) ||
        !emit_new(s, US_OP_MAD, src_neg(q), b, a, &r) ||
        !emit_new(s, US_OP_ABS, b, NONE, NONE, &babs) ||
        !emit_new(s, US_OP_MUL, r, a, NONE, &ab) ||
        !emit_new(s, US_OP_ABS, r, NONE, NONE, &rabs) ||
        !emit_new(s, US_OP_SGE, rabs, babs, NONE, &ge) ||
        !const_scalar(s, 0, &zero) ||
        !emit_new(s, US_OP_MUL, a, b, NONE, &sg) ||
        !emit_new(s, US_OP_SSG, sg, NONE, NONE, &sg) ||
        /* r against a's sign: q0 one too far from zero */
        !emit_new(s, US_OP_SLT, ab, zero, NONE, &ab) ||
        !emit_new(s, US_OP_MAD, src_neg(ab), sg, q, &q) ||
        /* |r| >= |b|: q0 one too close to zero */
        !emit_new(s, US_OP_MAD, ge, sg, q, &q))
        return false;
    *q_out = q;
    return emit_new(s, US_OP_MAD, src_neg(q), b, a, r_out);
}

static bool compare(struct spv *s, uint32_t at, enum us_opcode op)
{
    return slotwise(s, at, op, 2);
}

static bool any_all(struct spv *s, uint32_t at, bool all)
{
    struct us_src *a, one, r;
    uint32_t n;
    unsigned c = comps_of(s, s->ids[s->w[at + 3]].type);
    if (!arg(s, at, 3, &a, &n) || !const_scalar(s, 1, &one) ||
        !dot(s, c, a[0], one, &r))
        return false;
    struct us_src k;
    if (!const_scalar(s, all ? (float)c : 0.5f, &k) ||
        !emit_new(s, all ? US_OP_SEQ : US_OP_SGT, r, k, NONE, &r))
        return false;
    return result1(s, at, r);
}

static bool composite_construct(struct spv *s, uint32_t at)
{
    uint32_t type = res_type(s, at);
    const struct sid *t = &s->ids[type];
    unsigned wc = spv_wc(s, at);
    if (t->ty == TY_VECTOR) {
        struct us_src e[4];
        unsigned n = 0;
        for (unsigned k = 3; k < wc; k++) {
            struct us_src *v;
            uint32_t m, id;
            if (!spv_id(s, at, k, &id) || !value_of(s, id, &v, &m))
                return false;
            unsigned c = comps_of(s, s->ids[id].type);
            for (unsigned j = 0; j < c; j++) {
                if (n >= 4)
                    return spv_fail(s, "SPIR-V: bad OpCompositeConstruct");
                e[n++] = src_comp(v[0], j);
            }
        }
        if (n != t->comps)
            return spv_fail(s, "SPIR-V: bad OpCompositeConstruct");
        /* vec4(shadow2D(...)) as the front step writes it: GLSL 1.20
         * 8.7's vec4 result, whose components the depth mode sets */
        const struct sid *x = &s->ids[s->w[at + 3]];
        if (n == 4 && wc == 7 && x->legacy_shadow &&
            s->w[at + 4] == s->w[at + 3] && s->w[at + 5] == s->w[at + 3] &&
            s->w[at + 6] == s->w[at + 3])
            return result1(s, at, x->shadow4);
        struct us_src r;
        return build_k(s, e, n, int_data(s, type), &r) && result1(s, at, r);
    }
    uint32_t base, n = 0;
    if (!alloc_vals(s, t->slots, &base))
        return false;
    for (unsigned k = 3; k < wc; k++) {
        struct us_src *v;
        uint32_t m;
        if (!arg(s, at, k, &v, &m))
            return false;
        if (n + m > t->slots)
            return spv_fail(s, "SPIR-V: bad OpCompositeConstruct");
        memcpy(&s->vals[base + n], v, m * sizeof *v);
        n += m;
    }
    if (n != t->slots)
        return spv_fail(s, "SPIR-V: bad OpCompositeConstruct");
    s->ids[res_id(s, at)].has_val = true;
    s->ids[res_id(s, at)].val = base;
    return true;
}

/* Slot range and component that literal indices select in `type`. */
static bool select_path(struct spv *s, uint32_t at, unsigned first,
                        uint32_t type, uint32_t *off, unsigned *comp,
                        uint32_t *out_type)
{
    *off = 0;
    *comp = NO_COMP;
    for (unsigned k = first; k < spv_wc(s, at); k++) {
        const struct sid *t = &s->ids[type];
        uint32_t i = s->w[at + k];
        switch (t->ty) {
        case TY_VECTOR:
            if (i >= t->comps)
                return spv_fail(s, "SPIR-V: component index out of range");
            *comp = i;
            type = t->elem;
            break;
        case TY_MATRIX: case TY_ARRAY:
            if (i >= t->len)
                return spv_fail(s, "SPIR-V: index out of range");
            *off += i * (t->ty == TY_MATRIX ? 1 : s->ids[t->elem].slots);
            type = t->elem;
            break;
        case TY_STRUCT:
            if (i >= t->len)
                return spv_fail(s, "SPIR-V: member index out of range");
            for (uint32_t m = 0; m < i; m++)
                *off += s->ids[s->w[t->def + 2 + m]].slots;
            type = s->w[t->def + 2 + i];
            break;
        default:
            return spv_fail(s, "SPIR-V: index into a scalar");
        }
    }
    *out_type = type;
    return true;
}

static bool composite_extract(struct spv *s, uint32_t at)
{
    struct us_src *v;
    uint32_t n, off, ot, id;
    unsigned comp;
    if (!spv_id(s, at, 3, &id) || !value_of(s, id, &v, &n) ||
        !select_path(s, at, 4, s->ids[id].type, &off, &comp, &ot))
        return false;
    uint32_t m = s->ids[ot].slots ? s->ids[ot].slots : 1;
    if (off + m > n)
        return spv_fail(s, "SPIR-V: extract out of range");
    if (comp != NO_COMP)
        return result1(s, at, src_comp(v[off], comp));
    struct us_src tmp[64];
    if (m > 64)
        return spv_fail(s, "SPIR-V: extracted value too large");
    memcpy(tmp, &v[off], m * sizeof *v);
    return set_value(s, res_id(s, at), tmp, m);
}

static bool composite_insert(struct spv *s, uint32_t at)
{
    struct us_src *obj, *comp_v;
    uint32_t n, m, off, ot, id;
    unsigned comp;
    if (!arg(s, at, 3, &obj, &m) || !spv_id(s, at, 4, &id) ||
        !value_of(s, id, &comp_v, &n) ||
        !select_path(s, at, 5, s->ids[id].type, &off, &comp, &ot))
        return false;
    uint32_t base;
    if (off >= n || !alloc_vals(s, n, &base))
        return spv_fail(s, "SPIR-V: bad OpCompositeInsert");
    /* value_of pointers may move with alloc_vals: re-read. */
    if (!value_of(s, id, &comp_v, &n) || !arg(s, at, 3, &obj, &m))
        return false;
    memcpy(&s->vals[base], comp_v, n * sizeof *comp_v);
    if (comp == NO_COMP) {
        uint32_t k = s->ids[ot].slots;
        if (off + k > n || k > m)
            return spv_fail(s, "SPIR-V: bad OpCompositeInsert");
        memcpy(&s->vals[base + off], obj, k * sizeof *obj);
    } else {
        struct us_src e[4];
        for (unsigned j = 0; j < 4; j++)
            e[j] = j == comp ? src_comp(obj[0], 0)
                             : src_comp(s->vals[base + off], j);
        struct us_src r;
        if (!build_k(s, e, 4, slot_int(s, s->ids[id].type, off), &r))
            return false;
        s->vals[base + off] = r;
    }
    s->ids[res_id(s, at)].has_val = true;
    s->ids[res_id(s, at)].val = base;
    return true;
}

static bool vector_shuffle(struct spv *s, uint32_t at)
{
    struct us_src *a, *b;
    uint32_t n, ida, idb;
    if (!spv_id(s, at, 3, &ida) || !spv_id(s, at, 4, &idb) ||
        !value_of(s, ida, &a, &n) || !value_of(s, idb, &b, &n))
        return false;
    struct us_src va = a[0], vb = b[0], e[4];
    unsigned na = comps_of(s, s->ids[ida].type);
    unsigned nb = comps_of(s, s->ids[idb].type);
    unsigned n_out = spv_wc(s, at) - 5;
    if (n_out < 1 || n_out > 4)
        return spv_fail(s, "SPIR-V: bad OpVectorShuffle");
    for (unsigned k = 0; k < n_out; k++) {
        uint32_t c = s->w[at + 5 + k];
        if (c == 0xffffffffu)
            c = 0;
        if (c >= na + nb)
            return spv_fail(s, "SPIR-V: shuffle component out of range");
        e[k] = c < na ? src_comp(va, c) : src_comp(vb, c - na);
    }
    struct us_src r;
    return build_k(s, e, n_out, int_data(s, res_type(s, at)), &r) &&
           result1(s, at, r);
}

static bool dynamic_extract(struct spv *s, uint32_t at)
{
    struct us_src *v, cand[4], r, idx;
    uint32_t n;
    if (!float_index(s, s->w[at + 4], &idx) || !arg(s, at, 3, &v, &n))
        return false;
    unsigned c = comps_of(s, s->ids[s->w[at + 3]].type);
    for (unsigned k = 0; k < c; k++)
        cand[k] = src_comp(v[0], k);
    return select_chain(s, idx, cand, c, int_data(s, res_type(s, at)), &r) &&
           result1(s, at, r);
}

static bool dynamic_insert(struct spv *s, uint32_t at)
{
    struct us_src *v, *x, r, eq, k, idx;
    uint32_t n;
    if (!float_index(s, s->w[at + 5], &idx) || !arg(s, at, 3, &v, &n) ||
        !arg(s, at, 4, &x, &n))
        return false;
    const float lanes[4] = { 0, 1, 2, 3 };
    /* lane == index ? x : v, all lanes at once (CMP.S for integers:
     * -1.0's bits are negative as well). */
    bool ints = int_data(s, res_type(s, at));
    if (!const_src(s, lanes, &k) ||
        !emit_new(s, US_OP_SEQ, k, idx, NONE, &eq) ||
        !arg(s, at, 3, &v, &n) || !arg(s, at, 4, &x, &n) ||
        !emit_new(s, ints ? US_OP_CMP_S : US_OP_CMP, src_neg(eq),
                  src_comp(x[0], 0), v[0], &r))
        return false;
    return result1(s, at, r);
}

static bool matrix_op(struct spv *s, uint32_t at, unsigned op)
{
    struct us_src *a, *b;
    uint32_t na, nb;
    if (!arg(s, at, 3, &a, &na) || !arg(s, at, 4, &b, &nb))
        return false;
    uint32_t ta = s->ids[s->w[at + 3]].type, tb = s->ids[s->w[at + 4]].type;
    struct us_src r[4], acols[4], bcols[4];
    if (na > 4 || nb > 4)
        return spv_fail(s, "SPIR-V: bad matrix operand");
    memcpy(acols, a, na * sizeof *a);
    memcpy(bcols, b, nb * sizeof *b);
    switch (op) {
    case SpvOpVectorTimesScalar:
        if (!emit_new(s, US_OP_MUL, acols[0], src_comp(bcols[0], 0), NONE,
                      &r[0]))
            return false;
        return result1(s, at, r[0]);
    case SpvOpMatrixTimesScalar:
        for (uint32_t j = 0; j < na; j++)
            if (!emit_new(s, US_OP_MUL, acols[j], src_comp(bcols[0], 0), NONE,
                          &r[j]))
                return false;
        return set_value(s, res_id(s, at), r, na);
    case SpvOpMatrixTimesVector:
        return mat_vec(s, acols, na, bcols[0], &r[0]) && result1(s, at, r[0]);
    case SpvOpVectorTimesMatrix: {
        unsigned c = comps_of(s, ta);
        struct us_src e[4];
        for (uint32_t j = 0; j < nb; j++) {
            if (!dot(s, c, acols[0], bcols[j], &e[j]))
                return false;
        }
        return build(s, e, nb, &r[0]) && result1(s, at, r[0]);
    }
    case SpvOpMatrixTimesMatrix:
        for (uint32_t j = 0; j < nb; j++)
            if (!mat_vec(s, acols, na, bcols[j], &r[j]))
                return false;
        return set_value(s, res_id(s, at), r, nb);
    case SpvOpOuterProduct: {
        unsigned c = comps_of(s, tb);
        for (unsigned j = 0; j < c; j++)
            if (!emit_new(s, US_OP_MUL, acols[0], src_comp(bcols[0], j), NONE,
                          &r[j]))
                return false;
        return set_value(s, res_id(s, at), r, c);
    }
    default:
        return spv_fail(s, "SPIR-V: bad matrix op %u", op);
    }
}

static bool transpose(struct spv *s, uint32_t at)
{
    struct us_src *a, r[4], e[4];
    uint32_t na;
    if (!arg(s, at, 3, &a, &na) || na > 4)
        return false;
    struct us_src cols[4];
    memcpy(cols, a, na * sizeof *a);
    uint32_t rt = res_type(s, at);
    unsigned rcols = s->ids[rt].len, rrows = s->ids[rt].comps;
    for (unsigned j = 0; j < rcols; j++) {
        for (unsigned i = 0; i < rrows; i++)
            e[i] = src_comp(cols[i], j);
        if (!build(s, e, rrows, &r[j]))
            return false;
    }
    return set_value(s, res_id(s, at), r, rcols);
}

/*
 * c ? a : b per slot.  A float boolean selects with CMP on -c (-1.0 or
 * -0.0); integer data takes CMP.S, which copies bits (CMP would quiet a
 * NaN pattern) and sees -1.0 as negative too, under integer negation of
 * 1.0's bits.  A boolean's integer form (all ones) selects with CMP.S as
 * it is; float data then may not carry a float negation into it.
 */
static bool select_op(struct spv *s, uint32_t at)
{
    struct us_src *c, *a, *b, r[64], raw;
    uint32_t nc, n, nb;
    if (!arg(s, at, 3, &c, &nc) || !arg(s, at, 4, &a, &n) ||
        !arg(s, at, 5, &b, &nb) || n != nb || n > 64)
        return spv_fail(s, "SPIR-V: bad OpSelect");
    struct us_src cond = c[0];
    bool has_raw = bool_raw(s, s->w[at + 3], &raw);
    uint32_t type = res_type(s, at);
    for (uint32_t i = 0; i < n; i++) {
        struct us_src x = a[i], y = b[i];
        bool ints = slot_int(s, type, i);
        struct us_src cc = nc == 1 && n > 1 ? src_comp(cond, 0) : cond;
        if (has_raw) {
            cc = nc == 1 && n > 1 ? src_comp(raw, 0) : raw;
            if (!ints && (!plain_float(s, &x) || !plain_float(s, &y)))
                return false;
        } else {
            cc = src_neg(cc);
        }
        if (!emit_new(s, has_raw || ints ? US_OP_CMP_S : US_OP_CMP, cc, x, y,
                      &r[i]))
            return false;
    }
    return set_value(s, res_id(s, at), r, n);
}

/* The sampled image operand: texture unit and target. */
static bool sampler_of(struct spv *s, uint32_t id, unsigned *unit,
                       unsigned *target)
{
    const struct sid *x = &s->ids[id];
    if (x->op != SpvOpLoad || !x->has_val)
        return spv_fail(s, "unsupported sampler expression");
    uint32_t ptr = s->w[x->def + 3];
    const struct sid *root = &s->ids[s->ids[ptr].op == SpvOpVariable
                                      ? ptr : s->ids[ptr].root];
    if (root->sampler_unit < 0 && root->struct_units < 0)
        return spv_fail(s, "unsupported sampler expression");
    *unit = s->vals[x->val].index;
    *target = root->tex_target;
    if (root->sampler_unit >= 0)
        return true;
    /* a struct member: the target from its type */
    uint8_t t;
    if (!sampler_target(s, x->type, "in a struct", &t))
        return false;
    *target = t;
    return true;
}

static unsigned target_dims(unsigned target)
{
    switch (target) {
    case US_TEX_1D: case US_TEX_SHADOW1D: return 1;
    case US_TEX_3D: case US_TEX_CUBE: return 3;
    default: return 2;
    }
}

/* OpImageSample*: TEX, TXB (bias in w), TXP (q in w); shadow compares
 * coord.z (ARB_fragment_program_shadow). */
static bool image_sample(struct spv *s, uint32_t at, unsigned op)
{
    uint32_t si;
    unsigned unit = 0, target = 0;
    struct us_src *cv, *dv = NULL, *bias = NULL;
    uint32_t n;
    if (!spv_id(s, at, 3, &si) || !sampler_of(s, si, &unit, &target) ||
        !arg(s, at, 4, &cv, &n))
        return false;
    struct us_src coord = cv[0];
    unsigned ncoord = comps_of(s, s->ids[s->w[at + 4]].type);
    bool dref = op == SpvOpImageSampleDrefImplicitLod ||
                op == SpvOpImageSampleDrefExplicitLod ||
                op == SpvOpImageSampleProjDrefImplicitLod ||
                op == SpvOpImageSampleProjDrefExplicitLod;
    bool proj = op >= SpvOpImageSampleProjImplicitLod &&
                op <= SpvOpImageSampleProjDrefExplicitLod;
    unsigned k = 5;
    bool legacy = false;
    if (dref && !arg(s, at, k++, &dv, &n))
        return false;
    if (k < spv_wc(s, at)) {
        uint32_t mask = s->w[at + k++];
        if (mask & SpvImageOperandsBiasMask) {
            if (!arg(s, at, k++, &bias, &n))
                return false;
        } else if (mask & SpvImageOperandsLodMask) {
            if (s->stage == US_STAGE_FRAGMENT)
                return spv_fail(s, "explicit level of detail in a fragment "
                                "shader is not supported");
            k++;   /* vertex TEX samples level 0 */
        }
        if (mask & SpvImageOperandsConstOffsetMask) {
            /* A zero offset on a shadow lookup marks the front step's
             * shadow1D/2D[Rect][Proj][Lod] (docs/GLSL.md); other texel
             * offsets are GLSL 1.30 and not modelled. */
            struct us_src *ov;
            bool zero = dref && k < spv_wc(s, at) &&
                        arg(s, at, k++, &ov, &n) && is_const(ov[0]);
            for (unsigned c = 0; zero && c < 4; c++)
                zero = const_comp(s, ov[0], c) == 0.0f;
            if (!zero)
                return spv_fail(s, "texel offsets are not supported");
            legacy = true;
        }
        if (mask & ~(uint32_t)(SpvImageOperandsBiasMask |
                               SpvImageOperandsLodMask |
                               SpvImageOperandsConstOffsetMask))
            return spv_fail(s, "unsupported image operands 0x%x", mask);
    }
    if (dref != (target >= US_TEX_SHADOW1D))
        return spv_fail(s, "shadow sampling needs a shadow sampler");
    unsigned dims = target_dims(target);
    struct us_src e[4];
    /* Components the target does not read repeat the coordinate's x, so
     * a coordinate taken from one register stays a plain swizzle. */
    for (unsigned c = 0; c < 4; c++)
        e[c] = src_comp(coord, c < dims && c < ncoord ? c : 0);
    if (dref)
        e[2] = src_comp(dv[0], 0);
    if (proj)
        e[3] = src_comp(coord, ncoord - 1);
    if (proj && bias) {
        /* TXB has w for the bias, so the projection goes first: s, t and
         * r (or the reference) over q. */
        struct us_src rq;
        if (!emit_new(s, US_OP_RCP, e[3], NONE, NONE, &rq))
            return false;
        for (unsigned c = 0; c < 3; c++)
            if (!emit_new(s, US_OP_MUL, e[c], src_comp(rq, 0), NONE, &e[c]))
                return false;
        for (unsigned c = 0; c < 3; c++)
            e[c] = src_comp(e[c], 0);
        proj = false;
    }
    if (bias)
        e[3] = src_comp(bias[0], 0);
    struct us_src c4, r;
    unsigned used = proj || bias ? 4 : dref ? 3 : dims;
    if (!build(s, e, used, &c4))
        return false;
    unsigned v;
    if (!new_vreg(s, true, &v) ||
        !emit(s, proj ? US_OP_TXP : bias ? US_OP_TXB : US_OP_TEX,
              dst_vreg(v, 0xf), c4, NONE, NONE))
        return false;
    s->insts[s->ninsts - 1].tex_unit = (uint8_t)unit;
    s->insts[s->ninsts - 1].tex_target = (uint8_t)target;
    r = src_vreg(v);
    if (legacy) {
        s->ids[res_id(s, at)].legacy_shadow = true;
        s->ids[res_id(s, at)].shadow4 = r;
    }
    if (dref)
        r = src_comp(r, 0);
    return result1(s, at, r);
}

static bool alias(struct spv *s, uint32_t at, bool negate)
{
    struct us_src *a, r[64];
    uint32_t n;
    if (!arg(s, at, 3, &a, &n) || n > 64)
        return spv_fail(s, "SPIR-V: bad operand");
    for (uint32_t i = 0; i < n; i++)
        r[i] = negate ? src_neg(a[i]) : a[i];
    return set_value(s, res_id(s, at), r, n);
}

static bool binary_fn(struct spv *s, uint32_t at, unsigned op)
{
    struct us_src *a, *b, r, q, rem;
    uint32_t n;
    if (!arg(s, at, 3, &a, &n) || !arg(s, at, 4, &b, &n))
        return false;
    unsigned c = comps_of(s, res_type(s, at));
    struct us_src x = a[0], y = b[0];
    switch (op) {
    case SpvOpFDiv:
        return fdiv(s, c, x, y, &r) && result1(s, at, r);
    case SpvOpFMod:   /* x - y * floor(x / y) */
        return fdiv(s, c, x, y, &q) &&
               emit_new(s, US_OP_FLR, q, NONE, NONE, &q) &&
               emit_new(s, US_OP_MAD, src_neg(y), q, x, &r) &&
               result1(s, at, r);
    case SpvOpFRem:   /* x - y * trunc(x / y) */
        return fdiv(s, c, x, y, &q) &&
               emit_new(s, US_OP_TRC, q, NONE, NONE, &q) &&
               emit_new(s, US_OP_MAD, src_neg(y), q, x, &r) &&
               result1(s, at, r);
    case SpvOpSDiv: case SpvOpUDiv:
        return idiv(s, c, x, y, &q, &rem) && result1(s, at, q);
    case SpvOpSRem: case SpvOpUMod:
        return idiv(s, c, x, y, &q, &rem) && result1(s, at, rem);
    case SpvOpSMod: {
        /* Sign of the divisor: rem + b when rem and b differ in sign. */
        struct us_src p, zero, neg;
        return idiv(s, c, x, y, &q, &rem) &&
               emit_new(s, US_OP_MUL, rem, y, NONE, &p) &&
               const_scalar(s, 0, &zero) &&
               emit_new(s, US_OP_SLT, p, zero, NONE, &neg) &&
               emit_new(s, US_OP_MAD, neg, y, rem, &r) && result1(s, at, r);
    }
    default:
        return spv_fail(s, "SPIR-V: bad binary op %u", op);
    }
}

static bool logical_not(struct spv *s, uint32_t at)
{
    struct us_src *a, zero, r, raw;
    uint32_t n;
    if (bool_raw(s, s->w[at + 3], &raw))
        return emit_new(s, US_OP_NOT_U, raw, NONE, NONE, &r) &&
               set_bool(s, res_id(s, at), r);
    return arg(s, at, 3, &a, &n) && const_scalar(s, 0, &zero) &&
           emit_new(s, US_OP_SEQ, a[0], zero, NONE, &r) && result1(s, at, r);
}

/* &&, ||, ==, != of booleans: on the integer forms when both have one,
 * else on the floats (MUL MAX SEQ SNE of 1.0 and 0.0). */
static bool logical(struct spv *s, uint32_t at, enum us_opcode fop,
                    enum us_opcode iop)
{
    struct us_src ra, rb, r;
    if (bool_raw(s, s->w[at + 3], &ra) && bool_raw(s, s->w[at + 4], &rb))
        return emit_new(s, iop, ra, rb, NONE, &r) &&
               set_bool(s, res_id(s, at), r);
    return slotwise(s, at, fop, 2);
}


/* ---- Integers (32-bit words, docs/COMPUTE.md) ------------------------ */

bool plain_float(struct spv *s, struct us_src *x)
{
    return !x->negate || emit_new(s, US_OP_MOV, *x, NONE, NONE, x);
}

static bool plain_int(struct spv *s, struct us_src *x)
{
    return !x->negate || emit_new(s, US_OP_MOV_U, *x, NONE, NONE, x);
}

bool bool_raw(struct spv *s, uint32_t id, struct us_src *raw)
{
    if (id == 0 || id >= s->bound || !s->ids[id].has_ibool)
        return false;
    *raw = s->ids[id].ibool;
    return true;
}

bool set_bool(struct spv *s, uint32_t id, struct us_src raw)
{
    struct us_src one, f;
    if (!const_int(s, 0x3f800000u, &one) ||   /* 1.0f */
        !emit_new(s, US_OP_AND_U, raw, one, NONE, &f) ||
        !set_value(s, id, &f, 1))
        return false;
    s->ids[id].has_ibool = true;
    s->ids[id].ibool = raw;
    return true;
}

/* An integer comparison: all ones or 0, and the float boolean beside. */
static bool icompare(struct spv *s, uint32_t at, enum us_opcode op)
{
    struct us_src *a, *b, r;
    uint32_t n;
    return arg(s, at, 3, &a, &n) && arg(s, at, 4, &b, &n) &&
           emit_new(s, op, a[0], b[0], NONE, &r) &&
           set_bool(s, res_id(s, at), r);
}

/* OpSMod takes the divisor's sign: MOD.S's remainder r (the dividend's
 * sign) plus b when r != 0 and r, b differ in sign. */
static bool smod(struct spv *s, uint32_t at)
{
    struct us_src *a, *b, r, x, nz, zero, add;
    uint32_t n;
    return arg(s, at, 3, &a, &n) && arg(s, at, 4, &b, &n) &&
           const_int(s, 0, &zero) &&
           emit_new(s, US_OP_MOD_S, a[0], b[0], NONE, &r) &&
           emit_new(s, US_OP_XOR_U, r, b[0], NONE, &x) &&
           emit_new(s, US_OP_SNE_U, r, zero, NONE, &nz) &&
           emit_new(s, US_OP_AND_U, x, nz, NONE, &x) &&
           emit_new(s, US_OP_CMP_S, x, b[0], zero, &add) &&
           emit_new(s, US_OP_ADD_U, r, add, NONE, &r) && result1(s, at, r);
}

/* The width and signedness of an integer (vector) type. */
static void int_kind(const struct spv *s, uint32_t type, unsigned *w,
                     bool *sgn)
{
    const struct sid *e = &s->ids[scalar_type(s, type)];
    *w = e->width ? e->width : 32;
    *sgn = e->is_signed;
}

/* x's low `w` bits, sign- or zero-extended: the form a narrow integer
 * has in a register. */
static bool extend(struct spv *s, struct us_src x, unsigned w, bool sgn,
                   struct us_src *out)
{
    const uint32_t f[4] = { w, 0, w, 0 };
    struct us_src field;
    return const_ints(s, f, &field) &&
           emit_new(s, sgn ? US_OP_BFE_S : US_OP_BFE_U, field, x, NONE, out);
}

/* OpSConvert / OpUConvert between 8-, 16- and 32-bit integers: a value of
 * width w < 32 is held extended by its own signedness, so widening is
 * free when the conversion's extension is the same, narrowing is one BFE. */
static bool int_convert(struct spv *s, uint32_t at, unsigned op)
{
    struct us_src *a, r;
    uint32_t n;
    unsigned w1, w2;
    bool s1, s2, by_sign = op == SpvOpSConvert;
    if (!arg(s, at, 3, &a, &n))
        return false;
    int_kind(s, s->ids[s->w[at + 3]].type, &w1, &s1);
    int_kind(s, res_type(s, at), &w2, &s2);
    r = a[0];
    if (w2 > w1) {
        if (by_sign != s1 && !extend(s, r, w1, by_sign, &r))
            return false;
        if (w2 < 32 && by_sign != s2 && !extend(s, r, w2, s2, &r))
            return false;
    } else if (w2 < w1 && !extend(s, r, w2, s2, &r)) {
        return false;
    }
    return result1(s, at, r);
}

/* OpBitcast reinterprets the bits: no instruction, unless the operand
 * carries a negation of the other kind's meaning. */
static bool bitcast(struct spv *s, uint32_t at)
{
    struct us_src *a, r;
    uint32_t n;
    if (!arg(s, at, 3, &a, &n))
        return false;
    r = a[0];
    bool from_int = int_data(s, s->ids[s->w[at + 3]].type);
    if (!(from_int ? plain_int(s, &r) : plain_float(s, &r)))
        return false;
    return result1(s, at, r);
}

/* bitfieldInsert / bitfieldExtract: BFI.U, BFE.S, BFE.U with the
 * (bits, offset) pair in op0.xy (NV_gpu_program5). */
static bool bitfield(struct spv *s, uint32_t at, unsigned op)
{
    bool ins = op == SpvOpBitFieldInsert;
    struct us_src *base, *x = NULL, *off, *cnt, e[2], f, r;
    uint32_t n;
    unsigned k = ins ? 5 : 4;
    if (!arg(s, at, 3, &base, &n) || (ins && !arg(s, at, 4, &x, &n)) ||
        !arg(s, at, k, &off, &n) || !arg(s, at, k + 1, &cnt, &n))
        return false;
    e[0] = src_comp(cnt[0], 0);
    e[1] = src_comp(off[0], 0);
    struct us_src b0 = base[0], x0 = x ? x[0] : NONE;
    if (!build_k(s, e, 2, true, &f))
        return false;
    if (ins)
        return emit_new(s, US_OP_BFI_U, f, x0, b0, &r) && result1(s, at, r);
    return emit_new(s, op == SpvOpBitFieldSExtract ? US_OP_BFE_S
                                                   : US_OP_BFE_U,
                    f, b0, NONE, &r) && result1(s, at, r);
}

/* uaddCarry, usubBorrow, umulExtended, imulExtended: two-member structs
 * (low word, then carry / borrow / high word). */
static bool extended(struct spv *s, uint32_t at, unsigned op)
{
    struct us_src *a, *b, r[2], one;
    uint32_t n;
    if (!arg(s, at, 3, &a, &n) || !arg(s, at, 4, &b, &n) ||
        !const_int(s, 1, &one))
        return false;
    struct us_src x = a[0], y = b[0];
    bool ok;
    switch (op) {
    case SpvOpIAddCarry:   /* carry: the sum wrapped below a */
        ok = emit_new(s, US_OP_ADD_U, x, y, NONE, &r[0]) &&
             emit_new(s, US_OP_SLT_U, r[0], x, NONE, &r[1]) &&
             emit_new(s, US_OP_AND_U, r[1], one, NONE, &r[1]);
        break;
    case SpvOpISubBorrow:
        ok = emit_new(s, US_OP_SUB_U, x, y, NONE, &r[0]) &&
             emit_new(s, US_OP_SLT_U, x, y, NONE, &r[1]) &&
             emit_new(s, US_OP_AND_U, r[1], one, NONE, &r[1]);
        break;
    default:
        ok = emit_new(s, US_OP_MUL_U, x, y, NONE, &r[0]) &&
             emit_new(s, op == SpvOpUMulExtended ? US_OP_MUL_U_HI
                                                 : US_OP_MUL_S_HI,
                      x, y, NONE, &r[1]);
        break;
    }
    return ok && set_value(s, res_id(s, at), r, 2);
}

/* isnan, isinf on the bits: |x| above or at the infinity pattern. */
static bool float_class(struct spv *s, uint32_t at, bool nan)
{
    struct us_src *a, x, m, inf, r;
    uint32_t n;
    if (!arg(s, at, 3, &a, &n))
        return false;
    x = a[0];
    return plain_float(s, &x) && const_int(s, 0x7fffffffu, &m) &&
           const_int(s, 0x7f800000u, &inf) &&
           emit_new(s, US_OP_AND_U, x, m, NONE, &x) &&
           emit_new(s, nan ? US_OP_SGT_U : US_OP_SEQ_U, x, inf, NONE, &r) &&
           set_bool(s, res_id(s, at), r);
}

/* The instructions integers as 32-bit words change; *done: it was one. */
static bool int_inst(struct spv *s, uint32_t at, unsigned op, bool *done)
{
    *done = true;
    switch (op) {
    case SpvOpIAdd: return slotwise(s, at, US_OP_ADD_U, 2);
    case SpvOpISub: return slotwise(s, at, US_OP_SUB_U, 2);
    case SpvOpIMul: return slotwise(s, at, US_OP_MUL_U, 2);
    case SpvOpSDiv: return slotwise(s, at, US_OP_DIV_S, 2);
    case SpvOpUDiv: return slotwise(s, at, US_OP_DIV_U, 2);
    case SpvOpSRem: return slotwise(s, at, US_OP_MOD_S, 2);
    case SpvOpUMod: return slotwise(s, at, US_OP_MOD_U, 2);
    case SpvOpSMod: return smod(s, at);
    case SpvOpShiftLeftLogical: return slotwise(s, at, US_OP_SHL_U, 2);
    case SpvOpShiftRightLogical: return slotwise(s, at, US_OP_SHR_U, 2);
    case SpvOpShiftRightArithmetic: return slotwise(s, at, US_OP_SHR_S, 2);
    case SpvOpBitwiseAnd: return slotwise(s, at, US_OP_AND_U, 2);
    case SpvOpBitwiseOr: return slotwise(s, at, US_OP_OR_U, 2);
    case SpvOpBitwiseXor: return slotwise(s, at, US_OP_XOR_U, 2);
    case SpvOpNot: return slotwise(s, at, US_OP_NOT_U, 1);
    case SpvOpBitReverse: return slotwise(s, at, US_OP_BFR_U, 1);
    case SpvOpBitCount: return slotwise(s, at, US_OP_BTC_U, 1);
    case SpvOpBitFieldInsert: case SpvOpBitFieldSExtract:
    case SpvOpBitFieldUExtract:
        return bitfield(s, at, op);
    case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended:
    case SpvOpSMulExtended:
        return extended(s, at, op);
    case SpvOpConvertSToF: return slotwise(s, at, US_OP_I2F_S, 1);
    case SpvOpConvertUToF: return slotwise(s, at, US_OP_I2F_U, 1);
    case SpvOpConvertFToS: return slotwise(s, at, US_OP_TRUNC_S, 1);
    case SpvOpConvertFToU: return slotwise(s, at, US_OP_TRUNC_U, 1);
    case SpvOpSConvert: case SpvOpUConvert: return int_convert(s, at, op);
    case SpvOpBitcast:
        if (s->ids[res_type(s, at)].ty == TY_POINTER)
            return pointer_cast(s, at);
        return bitcast(s, at);
    case SpvOpIEqual: return icompare(s, at, US_OP_SEQ_U);
    case SpvOpINotEqual: return icompare(s, at, US_OP_SNE_U);
    case SpvOpSLessThan: return icompare(s, at, US_OP_SLT_S);
    case SpvOpULessThan: return icompare(s, at, US_OP_SLT_U);
    case SpvOpSLessThanEqual: return icompare(s, at, US_OP_SLE_S);
    case SpvOpULessThanEqual: return icompare(s, at, US_OP_SLE_U);
    case SpvOpSGreaterThan: return icompare(s, at, US_OP_SGT_S);
    case SpvOpUGreaterThan: return icompare(s, at, US_OP_SGT_U);
    case SpvOpSGreaterThanEqual: return icompare(s, at, US_OP_SGE_S);
    case SpvOpUGreaterThanEqual: return icompare(s, at, US_OP_SGE_U);
    default:
        *done = false;
        return true;
    }
}

/* Store n operands that live in the value pool (which a store may grow,
 * moving them) through `ptr`. */
static bool store_copy(struct spv *s, uint32_t ptr, const struct us_src *v,
                       uint32_t n)
{
    struct us_src *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        return spv_fail(s, "out of memory");
    memcpy(tmp, v, n * sizeof *v);
    bool ok = store_ptr(s, ptr, tmp, n);
    free(tmp);
    return ok;
}

static bool variable(struct spv *s, uint32_t at)
{
    uint32_t id = res_id(s, at);
    if (spv_wc(s, at) < 5)
        return true;   /* bound on first use */
    struct us_src *v;
    uint32_t n, init;
    if (!spv_id(s, at, 4, &init) || !value_of(s, init, &v, &n))
        return false;
    return store_copy(s, id, v, n);
}

bool translate_inst(struct spv *s, uint32_t at)
{
    unsigned op = spv_op(s, at);
    if (!s->float_ints) {
        bool done, ok = int_inst(s, at, op, &done);
        if (done)
            return ok;
    }
    switch (op) {
    case SpvOpLine:
        if (spv_wc(s, at) >= 3)
            s->line = s->w[at + 2];
        return true;
    case SpvOpNoLine:
        s->line = 0;
        return true;
    case SpvOpNop: case SpvOpUndef:
    case SpvOpSelectionMerge: case SpvOpLoopMerge:
        return true;
    case SpvOpPhi:
        return true;   /* registers the incoming edges write (spirv_flow.c) */
    case SpvOpVariable: return variable(s, at);
    case SpvOpLoad: {
        uint32_t ptr;
        return spv_id(s, at, 3, &ptr) && load_ptr(s, ptr, res_id(s, at));
    }
    case SpvOpStore: {
        uint32_t ptr, val;
        struct us_src *v;
        uint32_t n;
        return spv_id(s, at, 1, &ptr) && spv_id(s, at, 2, &val) &&
               value_of(s, val, &v, &n) && store_copy(s, ptr, v, n);
    }
    case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
    case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
        return access_chain(s, at);
    case SpvOpCopyObject: case SpvOpConvertSToF: case SpvOpConvertUToF:
    case SpvOpBitcast: case SpvOpSConvert: case SpvOpUConvert:
    case SpvOpFConvert:
        if (op == SpvOpBitcast &&
            (s->ids[res_type(s, at)].ty == TY_FLOAT ||
             s->ids[s->ids[s->w[at + 3]].type].ty == TY_FLOAT ||
             s->ids[s->ids[res_type(s, at)].elem].ty == TY_FLOAT))
            return spv_fail(s, "bit casts between floats and integers are "
                            "not supported");
        return alias(s, at, false);
    case SpvOpFNegate: case SpvOpSNegate: return alias(s, at, true);
    case SpvOpConvertFToS: case SpvOpConvertFToU:
        return slotwise(s, at, US_OP_TRC, 1);
    case SpvOpFAdd: case SpvOpIAdd: return slotwise(s, at, US_OP_ADD, 2);
    case SpvOpFSub: case SpvOpISub: return slotwise(s, at, US_OP_SUB, 2);
    case SpvOpFMul: case SpvOpIMul: return slotwise(s, at, US_OP_MUL, 2);
    case SpvOpFDiv: case SpvOpFMod: case SpvOpFRem: case SpvOpSDiv:
    case SpvOpUDiv: case SpvOpSRem: case SpvOpSMod: case SpvOpUMod:
        return binary_fn(s, at, op);
    case SpvOpLogicalEqual:
        return logical(s, at, US_OP_SEQ, US_OP_SEQ_U);
    case SpvOpLogicalNotEqual:
        return logical(s, at, US_OP_SNE, US_OP_SNE_U);
    case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpIEqual:
        return compare(s, at, US_OP_SEQ);
    case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpINotEqual:
        return compare(s, at, US_OP_SNE);
    case SpvOpFOrdLessThan: case SpvOpFUnordLessThan: case SpvOpSLessThan:
    case SpvOpULessThan:
        return compare(s, at, US_OP_SLT);
    case SpvOpFOrdGreaterThan: case SpvOpFUnordGreaterThan:
    case SpvOpSGreaterThan: case SpvOpUGreaterThan:
        return compare(s, at, US_OP_SGT);
    case SpvOpFOrdLessThanEqual: case SpvOpFUnordLessThanEqual:
    case SpvOpSLessThanEqual: case SpvOpULessThanEqual:
        return compare(s, at, US_OP_SLE);
    case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordGreaterThanEqual:
    case SpvOpSGreaterThanEqual: case SpvOpUGreaterThanEqual:
        return compare(s, at, US_OP_SGE);
    case SpvOpLogicalOr: return logical(s, at, US_OP_MAX, US_OP_OR_U);
    case SpvOpLogicalAnd: return logical(s, at, US_OP_MUL, US_OP_AND_U);
    case SpvOpLogicalNot: return logical_not(s, at);
    case SpvOpIsNan: case SpvOpIsInf:
        return float_class(s, at, op == SpvOpIsNan);
    case SpvOpAny: return any_all(s, at, false);
    case SpvOpAll: return any_all(s, at, true);
    case SpvOpSelect: return select_op(s, at);
    case SpvOpDot: {
        struct us_src *a, *b, r;
        uint32_t n;
        unsigned c = comps_of(s, s->ids[s->w[at + 3]].type);
        return arg(s, at, 3, &a, &n) && arg(s, at, 4, &b, &n) &&
               dot(s, c, a[0], b[0], &r) && result1(s, at, r);
    }
    case SpvOpVectorTimesScalar: case SpvOpMatrixTimesScalar:
    case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix:
    case SpvOpMatrixTimesMatrix: case SpvOpOuterProduct:
        return matrix_op(s, at, op);
    case SpvOpTranspose: return transpose(s, at);
    case SpvOpCompositeConstruct: return composite_construct(s, at);
    case SpvOpCompositeExtract: return composite_extract(s, at);
    case SpvOpCompositeInsert: return composite_insert(s, at);
    case SpvOpVectorShuffle: return vector_shuffle(s, at);
    case SpvOpVectorExtractDynamic: return dynamic_extract(s, at);
    case SpvOpVectorInsertDynamic: return dynamic_insert(s, at);
    case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod:
    case SpvOpImageSampleDrefImplicitLod: case SpvOpImageSampleDrefExplicitLod:
    case SpvOpImageSampleProjImplicitLod: case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod:
    case SpvOpImageSampleProjDrefExplicitLod:
        return image_sample(s, at, op);
    case SpvOpExtInst: return translate_ext(s, at);
    case SpvOpDPdx: case SpvOpDPdy: case SpvOpFwidth:
    case SpvOpDPdxFine: case SpvOpDPdyFine: case SpvOpFwidthFine:
    case SpvOpDPdxCoarse: case SpvOpDPdyCoarse: case SpvOpFwidthCoarse:
        return derivative(s, at, op);
    case SpvOpControlBarrier:
        if (s->stage != US_STAGE_COMPUTE)
            return spv_fail(s, "barrier() outside a compute shader");
        return emit(s, US_OP_BAR, (struct us_dst){ 0 }, NONE, NONE, NONE);
    case SpvOpMemoryBarrier:
        return emit(s, US_OP_MEMBAR, (struct us_dst){ 0 }, NONE, NONE, NONE);
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
    case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement:
    case SpvOpAtomicIDecrement: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax:
    case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
    case SpvOpAtomicXor:
        return atomic_op(s, at, op);
    case SpvOpArrayLength: return array_length(s, at);
    case SpvOpFunctionCall:
        return spv_fail(s, "function calls must be inlined (compile with "
                        "optimization)");
    default: {
        char buf[64];
        return spv_fail(s, "unsupported SPIR-V instruction %s",
                        spv_op_name(op, buf, sizeof buf));
    }
    }
}
