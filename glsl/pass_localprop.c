/*
 * Local copy propagation, on virtual registers: within straight-line code
 * (between flow instructions and branch targets), an operand reading
 * components a copy (MOV, MOV.U) wrote reads the copy's source instead,
 * its swizzle and negation composed, while neither the copy's components
 * nor the source's have been written since.
 *
 * pass_copyprop does this program-wide but only for "stable" registers
 * (SSA values, or one definition before every read); a GLSL variable
 * assigned twice is neither (terrain.vert's vNormal: `vNormal =
 * normalize(...)`, read by cross(), then assigned again), so its copies
 * into the fresh values glslang makes for each read stay.  Here the
 * values are followed instruction by instruction instead, which needs no
 * stability: between the copy and the reader nothing wrote either side.
 *
 * Exact: the reader computes the same operation on the same bits.  As in
 * pass_copyprop, where a float MOV would canonicalise a NaN that an
 * integer reader sees, or an integer copy negates, the operand is left
 * alone; a texture lookup's whole coordinate must come from one source.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"

/* What component q of a vreg holds: component `comp` of (file, index),
 * negated when neg, copied by op; op 0: nothing known. */
struct held {
    uint8_t op, file, comp, neg;
    uint16_t index;
};

struct lp {
    struct spv *s;
    struct held *h;    /* 4 per vreg: what the copy writing it read */
    struct held *root; /* 4 per vreg: followed through copies of copies */
    uint8_t *demanded; /* per vreg: the components anyone reads */
};

static void forget_all(struct lp *c)
{
    memset(c->h, 0, 4 * c->s->nvregs * sizeof *c->h);
    memset(c->root, 0, 4 * c->s->nvregs * sizeof *c->root);
}

static void forget_in(struct held *h, unsigned n, unsigned v, unsigned mask)
{
    for (unsigned q = 0; q < 4; q++)
        if (mask >> q & 1)
            h[4 * v + q].op = 0;
    for (unsigned i = 0; i < n; i++) {
        struct held *e = &h[i];
        if (e->op && e->file == US_FILE_TEMP && e->index == v &&
            (mask >> e->comp & 1))
            e->op = 0;
    }
}

/* Register v's components `mask` are written: what they held goes, and so
 * does every copy of them. */
static void forget(struct lp *c, unsigned v, unsigned mask)
{
    forget_in(c->h, 4 * c->s->nvregs, v, mask);
    forget_in(c->root, 4 * c->s->nvregs, v, mask);
}

/* As pass_copyprop's: whether `in` may read a copy's source in place of a
 * copy made by op with the given negation. */
static bool takes(const struct us_inst *in, unsigned op, unsigned neg)
{
    unsigned f = us_ops[in->op].flags;
    if (op == US_OP_MOV)   /* canonicalises NaN; negation flips a sign */
        return !(f & (US_I_SRC | US_I_DST));
    return !neg;
}

/* The positions of operand k that `in` reads for a live result. */
static unsigned positions(const struct lp *c, const struct us_inst *in,
                          unsigned k)
{
    if (us_ops[in->op].unit == US_UNIT_TEX)
        return 0xf;   /* the whole coordinate goes to the sampler */
    unsigned mask = in->dst.mask;
    if (pass_writes_temp(in) && in->dst.index < c->s->nvregs &&
        !has_side_effect(in->op))
        mask &= c->demanded[in->dst.index];
    return mask ? src_positions(in, k, mask) : 0;
}

/* Operand x of `in` rewritten from the copies h records, into n. */
static bool through(const struct held *h, const struct us_inst *in,
                    const struct us_src *x, unsigned pos, struct us_src *n)
{
    *n = *x;
    const struct held *from = NULL;
    unsigned neg_read = 0, read = 0;
    for (unsigned p = 0; p < 4; p++) {
        if (!(pos >> p & 1) || x->swz[p] >= 4)
            continue;
        const struct held *e = &h[4 * x->index + x->swz[p]];
        if (!e->op || !takes(in, e->op, e->neg) ||
            (from && (e->file != from->file || e->index != from->index)))
            return false;
        from = e;
        n->swz[p] = e->comp;
        unsigned neg = (x->negate >> p & 1) ^ e->neg;
        neg_read |= neg << p;
        read |= 1u << p;
    }
    if (!from)
        return false;
    if (in->op != US_OP_SWZ) {
        /* Outside SWZ a negation is all or nothing. */
        if (neg_read && neg_read != read)
            return false;
        n->negate = neg_read ? 0xf : 0;
    } else {
        n->negate = (uint8_t)((x->negate & ~read) | neg_read);
    }
    /* Positions not read repeat one that is. */
    unsigned first = (unsigned)__builtin_ctz(read);
    for (unsigned p = 0; p < 4; p++)
        if (!(read >> p & 1) && n->swz[p] < 4 && in->op != US_OP_SWZ)
            n->swz[p] = n->swz[first];
    n->file = from->file;
    n->index = from->index;
    return true;
}

static bool propagate(struct lp *c, struct us_inst *in, unsigned k)
{
    struct us_src *x = &in->src[k];
    if (x->file != US_FILE_TEMP || x->rel || x->index >= c->s->nvregs)
        return false;
    unsigned pos = positions(c, in, k);
    struct us_src n;
    if (!through(c->root, in, x, pos, &n) && !through(c->h, in, x, pos, &n))
        return false;
    *x = n;
    return true;
}

/* Copy `in` (already rewritten) tells what its components hold. */
static void remember(struct lp *c, const struct us_inst *in)
{
    const struct us_src *y = &in->src[0];
    if ((in->op != US_OP_MOV && in->op != US_OP_MOV_U) || in->sat ||
        in->word || in->dst.file != US_FILE_TEMP || y->rel ||
        (y->file != US_FILE_TEMP && y->file != US_FILE_INPUT &&
         y->file != US_FILE_PARAM) ||
        (y->file == US_FILE_TEMP && y->index == in->dst.index))
        return;
    for (unsigned q = 0; q < 4; q++) {
        if (!(in->dst.mask >> q & 1) || y->swz[q] >= 4)
            continue;
        struct held e = { .op = in->op, .file = y->file, .comp = y->swz[q],
                          .neg = (uint8_t)(y->negate >> q & 1),
                          .index = y->index };
        c->h[4 * in->dst.index + q] = e;
        /* A copy of a copy (of the same kind, integer ones not negated)
         * holds what the first one copied. */
        const struct held *f = y->file == US_FILE_TEMP &&
                               y->index < c->s->nvregs
                               ? &c->root[4 * y->index + y->swz[q]] : NULL;
        if (f && f->op == e.op && (e.op == US_OP_MOV || !(e.neg | f->neg))) {
            e.file = f->file;
            e.index = f->index;
            e.comp = f->comp;
            e.neg ^= f->neg;
        }
        c->root[4 * in->dst.index + q] = e;
    }
}

bool pass_localprop(struct spv *s)
{
    struct lp c = { .s = s };
    c.h = calloc(4 * s->nvregs + 1, sizeof *c.h);
    c.root = calloc(4 * s->nvregs + 1, sizeof *c.root);
    c.demanded = calloc(s->nvregs + 1, 1);
    bool *target = calloc(s->ninsts + 1, sizeof *target);
    bool changed = false;
    if (!c.h || !c.root || !c.demanded || !target)
        goto out;
    pass_branch_targets(s, target);
    spv_demanded(s, c.demanded);
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        if (target[i] || pass_is_flow(in->op)) {
            forget_all(&c);
            continue;
        }
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            changed |= propagate(&c, in, k);
        if (!pass_writes_temp(in) || in->dst.index >= s->nvregs)
            continue;
        forget(&c, in->dst.index, in->dst.mask);
        remember(&c, in);
    }
out:
    free(c.h);
    free(c.root);
    free(c.demanded);
    free(target);
    return changed;
}
