/*
 * SPIR-V instructions (SPIR-V 1.x specification, 3.32) lowered to vec4
 * IR: arithmetic, conversions, comparisons, composites, memory, texture
 * sampling.  Booleans and integers are floats (0.0/1.0, exact integers up
 * to 2^24); FUnord* compare like FOrd* (the IR has no NaN-aware compare).
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

/* A vector from n scalar elements (each read from its component 0):
 * a swizzle when they share one register, a constant when they are all
 * constants, else one MOV per register with the matching write mask. */
static bool build(struct spv *s, const struct us_src *e, unsigned n,
                  struct us_src *out)
{
    bool one = true, consts = true;
    for (unsigned k = 0; k < n; k++) {
        one &= same_reg(e[k], e[0]);
        consts &= is_const(e[k]);
    }
    if (consts) {
        float v[4];
        for (unsigned k = 0; k < 4; k++)
            v[k] = const_comp(s, e[k < n ? k : n - 1], 0);
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
        if (r.negate != 0 && r.negate != 0xf)
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
            if (!const_scalar(s, const_comp(s, e[k], 0), &r))
                return false;
        }
        done |= mask;
        if (!emit(s, US_OP_MOV, dst_vreg(v, mask), r, NONE, NONE))
            return false;
    }
    *out = src_vreg(v);
    return true;
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
        return build(s, e, n, &r) && result1(s, at, r);
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
        if (!build(s, e, 4, &r))
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
    return build(s, e, n_out, &r) && result1(s, at, r);
}

static bool dynamic_extract(struct spv *s, uint32_t at)
{
    struct us_src *v, *i, cand[4], r;
    uint32_t n, m;
    if (!arg(s, at, 3, &v, &n) || !arg(s, at, 4, &i, &m))
        return false;
    unsigned c = comps_of(s, s->ids[s->w[at + 3]].type);
    for (unsigned k = 0; k < c; k++)
        cand[k] = src_comp(v[0], k);
    return select_chain(s, src_comp(i[0], 0), cand, c, &r) &&
           result1(s, at, r);
}

static bool dynamic_insert(struct spv *s, uint32_t at)
{
    struct us_src *v, *x, *i, r, eq, k;
    uint32_t n;
    if (!arg(s, at, 3, &v, &n) || !arg(s, at, 4, &x, &n) ||
        !arg(s, at, 5, &i, &n))
        return false;
    const float lanes[4] = { 0, 1, 2, 3 };
    /* lane == index ? x : v, all lanes at once. */
    if (!const_src(s, lanes, &k) ||
        !emit_new(s, US_OP_SEQ, k, src_comp(i[0], 0), NONE, &eq) ||
        !emit_new(s, US_OP_CMP, src_neg(eq), src_comp(x[0], 0), v[0], &r))
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

static bool select_op(struct spv *s, uint32_t at)
{
    struct us_src *c, *a, *b, r[64];
    uint32_t nc, n, nb;
    if (!arg(s, at, 3, &c, &nc) || !arg(s, at, 4, &a, &n) ||
        !arg(s, at, 5, &b, &nb) || n != nb || n > 64)
        return spv_fail(s, "SPIR-V: bad OpSelect");
    struct us_src cond = c[0];
    for (uint32_t i = 0; i < n; i++)
        if (!emit_new(s, US_OP_CMP, src_neg(nc == 1 && n > 1 ?
                      src_comp(cond, 0) : cond), a[i], b[i], &r[i]))
            return false;
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
    if (root->sampler_unit < 0)
        return spv_fail(s, "unsupported sampler expression");
    *unit = s->vals[x->val].index;
    *target = root->tex_target;
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
    struct us_src *a, zero, r;
    uint32_t n;
    return arg(s, at, 3, &a, &n) && const_scalar(s, 0, &zero) &&
           emit_new(s, US_OP_SEQ, a[0], zero, NONE, &r) && result1(s, at, r);
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
    switch (op) {
    case SpvOpNop: case SpvOpLine: case SpvOpNoLine: case SpvOpUndef:
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
    case SpvOpFOrdEqual: case SpvOpFUnordEqual: case SpvOpIEqual:
    case SpvOpLogicalEqual:
        return compare(s, at, US_OP_SEQ);
    case SpvOpFOrdNotEqual: case SpvOpFUnordNotEqual: case SpvOpINotEqual:
    case SpvOpLogicalNotEqual:
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
    case SpvOpLogicalOr: return slotwise(s, at, US_OP_MAX, 2);
    case SpvOpLogicalAnd: return slotwise(s, at, US_OP_MUL, 2);
    case SpvOpLogicalNot: return logical_not(s, at);
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
    case SpvOpFunctionCall:
        return spv_fail(s, "function calls must be inlined (compile with "
                        "optimization)");
    default:
        return spv_fail(s, "unsupported SPIR-V instruction (opcode %u)", op);
    }
}
