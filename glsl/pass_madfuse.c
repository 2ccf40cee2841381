/*
 * Multiply-add fusion, on virtual registers: a product read by one sum
 * alone becomes the sum's multiply-add,
 *
 *     MUL t, a, b;  ADD d, t.s, c   ->   MAD d, a.s, b.s, c
 *
 * (SUB d, t, c -> MAD d, a, b, -c; SUB d, c, t -> MAD d, -a, b, c), when t
 * is an SSA value with that one definition and that one reader, the two
 * are in the same straight-line code, and a and b hold the same values at
 * the sum as at the product.  glslang writes `x * 0.5 + 0.5` as OpFMul and
 * OpFAdd; Mesa's TGSI has one MAD for it.
 *
 * Exact: the ISA's MAD is unfused (isa/micro.h: the product is rounded to
 * binary32, then the sum), which is what MUL then ADD compute; nothing
 * between them flushes or clamps (no saturation on the MUL, and a NaN
 * product gives a NaN sum either way, made the default NaN when the sum
 * is written).  -(a*b) is (-a)*b bit for bit (round-to-nearest-even is
 * symmetric), so a negated read of t negates a.  This is not contraction
 * into a fused multiply-add: no rounding is dropped.
 */
#include <stdlib.h>

#include "glsl/passes.h"

struct mf {
    struct spv *s;
    unsigned *uses, *ndefs;
    int *def;          /* per vreg: its defining instruction */
    bool *target;
};

/* Operand x of the product reads the same bits at instruction j as at i
 * (straight-line code between them). */
static bool same_at(const struct spv *s, const struct us_src *x, unsigned i,
                    unsigned j)
{
    if (x->rel)
        return false;
    if (x->file == US_FILE_INPUT || x->file == US_FILE_PARAM)
        return true;
    if (x->file != US_FILE_TEMP)
        return false;
    for (unsigned k = i + 1; k < j; k++)
        if (pass_writes_temp(&s->insts[k]) &&
            s->insts[k].dst.index == x->index)
            return false;
    return true;
}

/* The product's operand y read through the sum's selectors: position p of
 * the result is component sel[p] of the product.  neg: the sum negates
 * the product at the positions it reads.  False when the negation is not
 * all or nothing. */
static bool compose(struct us_src *out, const struct us_src *y,
                    const uint8_t sel[4], unsigned read, unsigned neg)
{
    *out = *y;
    unsigned n = 0;
    for (unsigned p = 0; p < 4; p++) {
        if (!(read >> p & 1))
            continue;
        unsigned q = sel[p];
        out->swz[p] = y->swz[q];
        n |= ((y->negate >> q & 1) ^ (neg >> p & 1)) << p;
    }
    if (n && n != read)
        return false;
    unsigned first = (unsigned)__builtin_ctz(read);
    for (unsigned p = 0; p < 4; p++)
        if (!(read >> p & 1))
            out->swz[p] = out->swz[first];
    out->negate = n ? 0xf : 0;
    return true;
}

/* Fuse the product operand k of sum j reads; the product's index, or -1. */
static int fuse(struct mf *c, unsigned j, unsigned k)
{
    struct spv *s = c->s;
    struct us_inst *in = &s->insts[j];
    const struct us_src *x = &in->src[k];
    if (x->file != US_FILE_TEMP || x->rel || x->index >= s->nvregs ||
        !s->vreg_ssa[x->index] || c->uses[x->index] != 1 ||
        c->ndefs[x->index] != 1 || c->def[x->index] < 0 ||
        (unsigned)c->def[x->index] >= j)
        return -1;
    unsigned i = (unsigned)c->def[x->index];
    const struct us_inst *m = &s->insts[i];
    if (m->op != US_OP_MUL || m->sat || m->dst.index != x->index)
        return -1;
    for (unsigned t = i + 1; t <= j; t++)
        if (c->target[t] || (t < j && pass_is_flow(s->insts[t].op)))
            return -1;
    if (!same_at(s, &m->src[0], i, j) || !same_at(s, &m->src[1], i, j))
        return -1;
    unsigned read = src_positions(in, k, in->dst.mask) & 0xf;
    if (!read)
        return -1;
    uint8_t sel[4];
    for (unsigned p = 0; p < 4; p++) {
        sel[p] = x->swz[p];
        if ((read >> p & 1) && (sel[p] >= 4 || !(m->dst.mask >> sel[p] & 1)))
            return -1;
    }
    /* SUB d, u, v is ADD d, u, -v bit for bit. */
    unsigned neg_other = in->op == US_OP_SUB && k == 0 ? 0xf : 0;
    unsigned neg_prod = in->op == US_OP_SUB && k == 1 ? 0xf : 0;
    struct us_src a, b, other = in->src[1 - k];
    if (!compose(&a, &m->src[0], sel, read, x->negate ^ neg_prod) ||
        !compose(&b, &m->src[1], sel, read, 0))
        return -1;
    other.negate ^= (uint8_t)neg_other;
    in->op = US_OP_MAD;
    in->src[0] = a;
    in->src[1] = b;
    in->src[2] = other;
    return (int)i;
}

bool pass_madfuse(struct spv *s)
{
    struct mf c = { .s = s };
    c.uses = calloc(s->nvregs + 1, sizeof *c.uses);
    c.ndefs = calloc(s->nvregs + 1, sizeof *c.ndefs);
    c.def = malloc((s->nvregs + 1) * sizeof *c.def);
    c.target = calloc(s->ninsts + 1, sizeof *c.target);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool changed = false;
    if (!c.uses || !c.ndefs || !c.def || !c.target || !dead)
        goto out;
    pass_branch_targets(s, c.target);
    for (unsigned v = 0; v < s->nvregs; v++)
        c.def[v] = -1;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (pass_writes_temp(in) && in->dst.index < s->nvregs) {
            c.ndefs[in->dst.index]++;
            c.def[in->dst.index] = (int)i;
        }
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP &&
                in->src[k].index < s->nvregs)
                c.uses[in->src[k].index] += in->src[k].rel ? 2 : 1;
    }
    for (unsigned j = 0; j < s->ninsts; j++) {
        unsigned op = s->insts[j].op;
        if (op != US_OP_ADD && op != US_OP_SUB)
            continue;
        int i = fuse(&c, j, 0);
        if (i < 0)
            i = fuse(&c, j, 1);
        if (i >= 0)
            dead[i] = true;
    }
    changed = pass_compact(s, dead);
out:
    free(c.uses);
    free(c.ndefs);
    free(c.def);
    free(c.target);
    free(dead);
    return changed;
}
