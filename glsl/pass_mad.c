/*
 * Multiply-adds, on virtual registers: a product read once, by an ADD or
 * SUB in the same straight-line code, becomes that instruction's MAD:
 *
 *     MUL t.xyz, a, b;               MAD r.xyz, a, b, c;
 *     ADD r.xyz, t, c;         ->
 *
 *     MUL t.x, a, b;                 MAD r.x, -a, b, c;
 *     SUB r.x, c, t.x;         ->
 *
 * Exact, and not a contraction: the model's MAD rounds the product to
 * binary32 before the sum (isa/micro.h, micro_mad: round(round(a*b) + c),
 * every executor and the scalar lowering alike), which is what the MUL
 * then the ADD compute; a NaN product gives a NaN sum either way, and the
 * write canonicalises it.  A negated product is the product of a negated
 * factor (round to nearest is symmetric), SUB x, y is ADD x, -y
 * (micro_sub), and an ADD's operands commute (IEEE addition is
 * commutative).  The MUL's operands must hold the same values at the ADD:
 * nothing between writes their registers (or the address register of a
 * relative one); the MUL has no _SAT (the ADD's carries over).
 */
#include <stdlib.h>

#include "glsl/passes.h"

struct md {
    struct spv *s;
    unsigned *reads, *ndefs;
    int *def;
    bool *target;
};

static unsigned comps_read(const struct us_inst *in, unsigned k)
{
    const struct us_src *x = &in->src[k];
    unsigned pos = src_positions(in, k, in->dst.mask), m = 0;
    for (unsigned p = 0; p < 4; p++)
        if ((pos >> p & 1) && x->swz[p] < 4)
            m |= 1u << x->swz[p];
    return m;
}

/* Whether the MUL at i reads the same values at j. */
static bool operands_hold(const struct md *c, unsigned i, unsigned j)
{
    const struct spv *s = c->s;
    const struct us_inst *m = &s->insts[i];
    for (unsigned k = i + 1; k <= j; k++) {
        const struct us_inst *in = &s->insts[k];
        if (c->target[k] || (k < j && pass_is_flow(in->op)))
            return false;
        if (k == j)
            break;
        for (unsigned q = 0; q < 2; q++) {
            const struct us_src *x = &m->src[q];
            if (x->rel && in->dst.file == US_FILE_ADDRESS)
                return false;
            if (x->file == US_FILE_TEMP && pass_writes_temp(in) &&
                in->dst.index == x->index)
                return false;
        }
    }
    return true;
}

/* Operand k of the ADD/SUB at j reads the product t of a MUL only it
 * reads: fold; true when it did (the MUL is then marked dead). */
static bool fold(struct md *c, unsigned j, unsigned k, bool *dead)
{
    struct spv *s = c->s;
    struct us_inst *a = &s->insts[j];
    const struct us_src *x = &a->src[k];
    if (x->file != US_FILE_TEMP || x->rel || x->index >= s->nvregs ||
        !s->vreg_ssa[x->index] || c->ndefs[x->index] != 1 ||
        c->reads[x->index] != 1 || c->def[x->index] < 0 ||
        (unsigned)c->def[x->index] >= j)
        return false;
    unsigned i = (unsigned)c->def[x->index];
    const struct us_inst *m = &s->insts[i];
    if (m->op != US_OP_MUL || m->sat || m->word ||
        (comps_read(a, k) & ~m->dst.mask) || !operands_hold(c, i, j))
        return false;
    /* r = t + y, or for SUB r = y - t (k == 1) / t - y (k == 0). */
    bool neg_t = (x->negate != 0) != (a->op == US_OP_SUB && k == 1);
    struct us_src y = a->src[1 - k];
    if (a->op == US_OP_SUB && k == 0)
        y.negate = y.negate ? 0 : 0xf;
    struct us_src f0 = m->src[0], f1 = m->src[1];
    for (unsigned p = 0; p < 4; p++) {
        f0.swz[p] = m->src[0].swz[x->swz[p] & 3];
        f1.swz[p] = m->src[1].swz[x->swz[p] & 3];
    }
    if (neg_t)
        f0.negate = f0.negate ? 0 : 0xf;
    a->op = US_OP_MAD;
    a->src[0] = f0;
    a->src[1] = f1;
    a->src[2] = y;
    dead[i] = true;
    return true;
}

bool pass_mad(struct spv *s)
{
    struct md c = { .s = s };
    c.reads = calloc(s->nvregs + 1, sizeof *c.reads);
    c.ndefs = calloc(s->nvregs + 1, sizeof *c.ndefs);
    c.def = malloc((s->nvregs + 1) * sizeof *c.def);
    c.target = calloc(s->ninsts + 1, sizeof *c.target);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool changed = false;
    if (!c.reads || !c.ndefs || !c.def || !c.target || !dead)
        goto out;
    pass_branch_targets(s, c.target);
    for (unsigned v = 0; v < s->nvregs; v++)
        c.def[v] = -1;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP &&
                in->src[k].index < s->nvregs)
                c.reads[in->src[k].index] += in->src[k].rel ? 2 : 1;
        if (pass_writes_temp(in) && in->dst.index < s->nvregs) {
            c.ndefs[in->dst.index]++;
            c.def[in->dst.index] = (int)i;
        }
    }
    for (unsigned j = 0; j < s->ninsts; j++) {
        unsigned op = s->insts[j].op;
        if (op != US_OP_ADD && op != US_OP_SUB)
            continue;
        if (fold(&c, j, 0, dead) || fold(&c, j, 1, dead))
            changed = true;
    }
    if (changed)
        pass_compact(s, dead);
out:
    free(c.reads);
    free(c.ndefs);
    free(c.def);
    free(c.target);
    free(dead);
    return changed;
}
