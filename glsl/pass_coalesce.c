/*
 * Copy coalescing, on virtual registers: MOV t.M, a (a plain copy) where a
 * is an SSA value with one defining instruction D, read by this copy
 * alone, and D comes before it in the same straight-line code: D writes
 * t's components M itself and the copy goes.  This is what removes the
 * moves into variables and phi registers (the value computed, then copied
 * into the loop's or the IF's register) and into composites built from
 * fresh values.
 *
 * A component-wise D writes the components the copy reads into the ones it
 * writes, its operands' selectors following (MUL a.xy, b, c; MOV t.zw,
 * a.xxyy... becomes MUL t.zw, b.xxxy, c.xxxy with the copy's order, and
 * MAX a.x, b, c; MOV t.xyz, a.xxxx becomes MAX t.xyz, b.xxxx, c.xxxx); a
 * replicated or dot-product result goes to any components; other
 * instructions (texture lookups, XPD LIT ...) only when the components
 * stay.  Nothing between D and the copy may read or write t's components
 * M.  Exact: the same operation, written to another place.
 */
#include <stdlib.h>

#include "glsl/passes.h"

struct co {
    struct spv *s;
    unsigned *uses, *ndefs;
    int *def;          /* per vreg: its last defining instruction */
    bool *target;
    const bool *dead;  /* copies coalesced already */
};

/* Which component of D's result the copy puts in each of its components
 * (from[c]; NO_COMP where it writes none); false when the copy cannot be
 * undone into D.  A component-wise D may compute one of its components
 * in several (MOV t.xyz, a.xxxx: D's operands take .xxx). */
static bool mapping(const struct us_inst *d, const struct us_inst *m,
                    uint8_t from[4])
{
    const struct us_opinfo *o = &us_ops[d->op];
    bool any = o->shape == US_SHAPE_REPL || o->shape == US_SHAPE_DOT;
    bool moves = o->shape == US_SHAPE_COMP && o->unit != US_UNIT_TEX &&
                 !fixed_operand(d, 0);
    for (unsigned c = 0; c < 4; c++)
        from[c] = NO_COMP;
    for (unsigned c = 0; c < 4; c++) {
        if (!(m->dst.mask >> c & 1))
            continue;
        unsigned q = m->src[0].swz[c];
        if (q >= 4 || !(d->dst.mask >> q & 1))
            return false;
        if (any)
            continue;
        if (!moves && q != c)
            return false;
        from[c] = (uint8_t)q;
    }
    return true;
}

/* Whether j reads or writes components `mask` of m's destination. */
static bool touches(const struct us_inst *j, const struct us_dst *t)
{
    if (j->dst.file == t->file && j->dst.index == t->index &&
        (j->dst.mask & t->mask) &&
        (t->file != US_FILE_TEMP || pass_writes_temp(j)))
        return true;
    for (unsigned k = 0; k < us_ops[j->op].nsrc; k++) {
        const struct us_src *x = &j->src[k];
        if (x->file != t->file || (!x->rel && x->index != t->index))
            continue;
        if (x->rel)
            return true;
        unsigned pos = src_positions(j, k, j->dst.mask);
        for (unsigned p = 0; p < 4; p++)
            if ((pos >> p & 1) && x->swz[p] < 4 && (t->mask >> x->swz[p] & 1))
                return true;
    }
    return false;
}

static bool coalesce(struct co *c, unsigned i)
{
    struct spv *s = c->s;
    struct us_inst *m = &s->insts[i];
    const struct us_src *a = &m->src[0];
    if ((m->op != US_OP_MOV && m->op != US_OP_MOV_U) || m->sat || m->word ||
        a->file != US_FILE_TEMP || a->rel || a->negate ||
        a->index >= s->nvregs || !s->vreg_ssa[a->index] ||
        c->uses[a->index] != 1 || c->ndefs[a->index] != 1 ||
        c->def[a->index] < 0 || (unsigned)c->def[a->index] >= i ||
        (m->dst.file != US_FILE_TEMP && m->dst.file != US_FILE_OUTPUT))
        return false;
    unsigned di = (unsigned)c->def[a->index];
    struct us_inst *d = &s->insts[di];
    /* a copy of a copy: the first one's gone into its own definition */
    if (c->dead[di] || has_side_effect(d->op) || d->dst.index != a->index ||
        (m->op == US_OP_MOV && (us_ops[d->op].flags & US_I_DST)))
        return false;
    for (unsigned j = di + 1; j <= i; j++)
        if (c->target[j] || (j < i && (pass_is_flow(s->insts[j].op) ||
                                       touches(&s->insts[j], &m->dst))))
            return false;
    uint8_t from[4];
    if (!mapping(d, m, from))
        return false;
    const struct us_opinfo *o = &us_ops[d->op];
    if (o->shape == US_SHAPE_COMP) {
        struct us_inst old = *d;
        for (unsigned k = 0; k < o->nsrc; k++) {
            struct us_src *y = &d->src[k];
            const struct us_src *x = &old.src[k];
            for (unsigned c = 0; c < 4; c++) {
                unsigned q = from[c];
                if (q == NO_COMP)
                    continue;
                y->swz[c] = x->swz[q];
                y->negate = (uint8_t)((y->negate & ~(1u << c)) |
                                      ((x->negate >> q & 1) << c));
            }
        }
    }
    d->dst = m->dst;
    if (m->dst.file == US_FILE_TEMP && m->dst.index < s->nvregs)
        c->def[m->dst.index] = (int)di;   /* a copy of the copy may follow */
    return true;
}

bool pass_coalesce(struct spv *s)
{
    struct co c = { .s = s };
    c.uses = calloc(s->nvregs + 1, sizeof *c.uses);
    c.ndefs = calloc(s->nvregs + 1, sizeof *c.ndefs);
    c.def = malloc((s->nvregs + 1) * sizeof *c.def);
    c.target = calloc(s->ninsts + 1, sizeof *c.target);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool changed = false;
    if (!c.uses || !c.ndefs || !c.def || !c.target || !dead)
        goto out;
    pass_branch_targets(s, c.target);
    c.dead = dead;
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
    for (unsigned i = 0; i < s->ninsts; i++)
        if (coalesce(&c, i))
            dead[i] = true;
    changed = pass_compact(s, dead);
out:
    free(c.uses);
    free(c.ndefs);
    free(c.def);
    free(c.target);
    free(dead);
    return changed;
}
