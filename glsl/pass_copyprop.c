/*
 * Copy propagation on virtual registers: an operand that reads components
 * of a register written by copies (MOV, MOV.U) reads the copies' source
 * instead, its swizzle and negation composed with theirs.  This is what
 * coalesces the SSA values SPIR-V splits into components and builds back
 * (OpCompositeConstruct of extracts: MOV t.x, a.y; MOV t.y, b.x; ...):
 * a reader whose components all come from one register reads it directly,
 * and pass_dce removes the copies nobody reads any more.  A copy whose
 * components come from several (MOV u.xz, t.xz with t.x a copy of a.x and
 * t.z of b.z) is first split into a copy per source (pass_split_copies),
 * which then read a and b themselves.
 *
 * Exact: the reader computes the same operation on the same bits.  Where
 * a float MOV would canonicalise a NaN that an integer reader or an
 * integer copy sees, or an integer copy negates (two's complement), the
 * operand is left alone.
 *
 * A register is "stable" when each of its components keeps one value
 * wherever it is read: an SSA value (vreg_ssa), or -- code without BRA --
 * a register each of whose components has one definition, outside any
 * flow control, before every read.  Readers of stable copies only are
 * rewritten, to sources that are stable too (or inputs, or parameters
 * without a relative address), so the source holds the same value at the
 * reader as at the copy.
 */
#include <stdlib.h>

#include "glsl/passes.h"

enum { NONE = -1, MULTI = -2 };

struct cp {
    struct spv *s;
    int *def;          /* per vreg component: its one definition        */
    bool *stable;      /* per vreg                                       */
};

static void find_defs(struct cp *c)
{
    struct spv *s = c->s;
    bool bra = false;
    unsigned depth = 0;
    for (unsigned v = 0; v < 4 * s->nvregs; v++)
        c->def[v] = NONE;
    for (unsigned v = 0; v < s->nvregs; v++)
        c->stable[v] = true;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        enum us_flow_kind k = us_op_flow_kind(in->op);
        bra |= in->op == US_OP_BRA;
        if (k == US_FLOW_ENDIF || k == US_FLOW_ENDLOOP)
            depth -= depth > 0;
        if (!pass_writes_temp(in)) {
            if (k == US_FLOW_IF || k == US_FLOW_LOOP)
                depth++;
            continue;
        }
        unsigned v = in->dst.index;
        if (depth && !s->vreg_ssa[v])
            c->stable[v] = false;
        for (unsigned q = 0; q < 4; q++)
            if (in->dst.mask >> q & 1)
                c->def[4 * v + q] = c->def[4 * v + q] == NONE ? (int)i : MULTI;
    }
    /* Outside SSA: every read after the one definition. */
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
            const struct us_src *x = &in->src[k];
            if (x->file != US_FILE_TEMP || s->vreg_ssa[x->index])
                continue;
            unsigned pos = src_positions(in, k, in->dst.mask);
            for (unsigned p = 0; p < 4; p++) {
                if (!(pos >> p & 1) || x->swz[p] >= 4)
                    continue;
                int d = c->def[4 * x->index + x->swz[p]];
                if (d < 0 || (unsigned)d >= i)
                    c->stable[x->index] = false;
            }
        }
    }
    for (unsigned v = 0; v < s->nvregs; v++)
        if (bra && !s->vreg_ssa[v])
            c->stable[v] = false;
}

/* The copy defining component q of stable register v, or NULL. */
static const struct us_inst *copy_of(const struct cp *c, unsigned v,
                                     unsigned q)
{
    if (v >= c->s->nvregs || !c->stable[v] || q >= 4)
        return NULL;
    int d = c->def[4 * v + q];
    if (d < 0)
        return NULL;
    const struct us_inst *m = &c->s->insts[d];
    const struct us_src *y = &m->src[0];
    if ((m->op != US_OP_MOV && m->op != US_OP_MOV_U) || m->sat || m->word ||
        y->rel || y->swz[q] >= 4)
        return NULL;
    if (y->file == US_FILE_TEMP)   /* one value where the copy read it */
        return y->index < c->s->nvregs && c->stable[y->index] &&
               c->def[4 * y->index + y->swz[q]] >= 0 ? m : NULL;
    return y->file == US_FILE_INPUT || y->file == US_FILE_PARAM ? m : NULL;
}

/* Whether the reader `in` may take copy m's source in place of its
 * result. */
static bool reader_takes(const struct us_inst *in, const struct us_inst *m)
{
    unsigned f = us_ops[in->op].flags;
    if (m->op == US_OP_MOV)   /* canonicalises NaN; negation flips a sign */
        return !(f & (US_I_SRC | US_I_DST));
    return m->src[0].negate == 0;
}

/* Rewrite operand k of instruction i when every component it reads comes
 * from copies of one register; true when it did. */
static bool propagate(struct cp *c, unsigned i, unsigned k)
{
    struct us_inst *in = &c->s->insts[i];
    struct us_src *x = &in->src[k];
    if (x->file != US_FILE_TEMP || x->rel)
        return false;
    /* A texture lookup hands its whole coordinate to the sampler. */
    unsigned pos = us_ops[in->op].unit == US_UNIT_TEX
                   ? 0xf : src_positions(in, k, in->dst.mask);
    struct us_src n = *x;
    const struct us_src *from = NULL;
    unsigned neg_read = 0, read = 0;
    for (unsigned p = 0; p < 4; p++) {
        if (!(pos >> p & 1) || x->swz[p] >= 4)
            continue;
        unsigned q = x->swz[p];
        const struct us_inst *m = copy_of(c, x->index, q);
        if (!m || !reader_takes(in, m))
            return false;
        const struct us_src *y = &m->src[0];
        if (from && (y->file != from->file || y->index != from->index))
            return false;
        from = y;
        n.swz[p] = y->swz[q];
        unsigned neg = (x->negate >> p & 1) ^ (y->negate >> q & 1);
        n.negate = (uint8_t)((n.negate & ~(1u << p)) | (neg << p));
        neg_read |= neg << p;
        read |= 1u << p;
    }
    if (!from)
        return false;
    if (in->op != US_OP_SWZ) {
        /* Outside SWZ a negation is all or nothing. */
        if (neg_read && neg_read != read)
            return false;
        n.negate = neg_read ? 0xf : 0;
    }
    /* Positions not read repeat one that is. */
    unsigned first = (unsigned)__builtin_ctz(read);
    for (unsigned p = 0; p < 4; p++)
        if (!(read >> p & 1) && n.swz[p] < 4 && in->op != US_OP_SWZ)
            n.swz[p] = n.swz[first];
    n.file = from->file;
    n.index = from->index;
    *x = n;
    return true;
}

/* Split copy i into one per source its components come from; the
 * pieces written to out, their number returned (1: not split). */
static unsigned split(const struct cp *c, unsigned i, struct us_inst *out)
{
    const struct us_inst *in = &c->s->insts[i];
    const struct us_src *x = &in->src[0];
    out[0] = *in;
    if ((in->op != US_OP_MOV && in->op != US_OP_MOV_U) ||
        x->file != US_FILE_TEMP || x->rel ||
        (in->dst.file == US_FILE_TEMP && in->dst.index == x->index))
        return 1;
    /* A piece per source (file, index, negation), -1: not a copy. */
    int key[4];
    unsigned nkeys = 0, copies = 0;
    int keys[4];
    for (unsigned p = 0; p < 4; p++) {
        key[p] = -2;
        if (!(in->dst.mask >> p & 1) || x->swz[p] >= 4)
            continue;
        const struct us_inst *m = copy_of(c, x->index, x->swz[p]);
        const struct us_src *y = m && reader_takes(in, m) ? &m->src[0] : NULL;
        int k = y ? (int)(y->file << 17 | y->index << 1 |
                          ((y->negate >> x->swz[p] & 1) ^ (x->negate >> p & 1)))
                  : -1;
        copies += y != NULL;
        unsigned j;
        for (j = 0; j < nkeys && keys[j] != k; j++)
            ;
        if (j == nkeys)
            keys[nkeys++] = k;
        key[p] = k;
    }
    if (nkeys < 2 || !copies)
        return 1;
    for (unsigned j = 0; j < nkeys; j++) {
        out[j] = *in;
        out[j].dst.mask = 0;
        for (unsigned p = 0; p < 4; p++)
            if (key[p] == keys[j])
                out[j].dst.mask |= (uint8_t)(1u << p);
    }
    return nkeys;
}

bool pass_split_copies(struct spv *s)
{
    struct cp c = { .s = s };
    c.def = malloc((4 * s->nvregs + 1) * sizeof *c.def);
    c.stable = malloc((s->nvregs + 1) * sizeof *c.stable);
    struct us_inst *out = malloc((4 * s->ninsts + 1) * sizeof *out);
    unsigned *map = malloc((s->ninsts + 1) * sizeof *map);
    bool changed = false;
    if (!c.def || !c.stable || !out || !map)
        goto done;
    find_defs(&c);
    unsigned n = 0;
    for (unsigned i = 0; i < s->ninsts; i++) {
        map[i] = n;
        n += split(&c, i, &out[n]);
    }
    map[s->ninsts] = n;
    if (n == s->ninsts)
        goto done;
    for (unsigned i = 0; i < n; i++)
        if (out[i].op == US_OP_BRA && out[i].target <= s->ninsts)
            out[i].target = (uint16_t)map[out[i].target];
    free(s->insts);
    s->insts = out;
    s->ninsts = s->cap_insts = n;
    out = NULL;
    changed = true;
done:
    free(c.def);
    free(c.stable);
    free(out);
    free(map);
    return changed;
}

bool pass_copyprop(struct spv *s)
{
    struct cp c = { .s = s };
    c.def = malloc((4 * s->nvregs + 1) * sizeof *c.def);
    c.stable = malloc((s->nvregs + 1) * sizeof *c.stable);
    bool changed = false;
    if (c.def && c.stable) {
        find_defs(&c);
        for (unsigned i = 0; i < s->ninsts; i++)
            for (unsigned k = 0; k < us_ops[s->insts[i].op].nsrc; k++)
                changed |= propagate(&c, i, k);
    }
    free(c.def);
    free(c.stable);
    return changed;
}
