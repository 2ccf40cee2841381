/*
 * Constants through variables, on virtual registers: an operand reading
 * components of a register that are, in the same straight-line code, last
 * written by copies of one of the translation's constants reads that
 * constant instead (its selectors composed):
 *
 *     MOV v, {0, 0, 0, 0};           MOV v, {0, 0, 0, 0};
 *     ...                      ->    ...
 *     MOV t, v;                      MOV t, {0, 0, 0, 0};
 *
 * (`gl_FragColor = vec4(0.0); gl_FragColor += ...;`: the variable has two
 * definitions, so pass_copyprop, which needs one, leaves it).  Exact: the
 * copy wrote the constant's bits (a float MOV canonicalises a NaN, so an
 * integer reader keeps reading the register; MOV.U copies bits, and a
 * negated MOV.U stays), and nothing between rewrote them.  Only constants:
 * they cannot change, so the search needs nothing but the last writes.
 */
#include <stdlib.h>

#include "glsl/passes.h"

static bool is_const(const struct spv *s, const struct us_src *x)
{
    return x->file == US_FILE_PARAM && !x->rel && x->index >= CONST_BASE &&
           (unsigned)(x->index - CONST_BASE) < s->nconsts;
}

/* The copy last writing component q of register v before instruction i
 * in straight-line code, or NULL. */
static const struct us_inst *last_copy(const struct spv *s,
                                       const bool *target, unsigned i,
                                       unsigned v, unsigned q)
{
    for (unsigned j = i; j-- > 0;) {
        const struct us_inst *in = &s->insts[j];
        if (pass_is_flow(in->op) || target[j + 1])
            return NULL;
        if (!pass_writes_temp(in) || in->dst.index != v ||
            !(in->dst.mask >> q & 1))
            continue;
        if ((in->op != US_OP_MOV && in->op != US_OP_MOV_U) || in->sat ||
            in->word || !is_const(s, &in->src[0]) || in->src[0].swz[q] >= 4)
            return NULL;
        return in;
    }
    return NULL;
}

static bool propagate(const struct spv *s, const bool *target, unsigned i,
                      unsigned k)
{
    struct us_inst *in = &s->insts[i];
    struct us_src *x = &in->src[k];
    if (x->file != US_FILE_TEMP || x->rel || x->index >= s->nvregs ||
        us_ops[in->op].unit == US_UNIT_TEX)
        return false;
    unsigned pos = src_positions(in, k, in->dst.mask), f = us_ops[in->op].flags;
    struct us_src n = *x;
    int from = -1;
    unsigned neg = 0, read = 0;
    for (unsigned p = 0; p < 4; p++) {
        if (!(pos >> p & 1) || x->swz[p] >= 4)
            continue;
        const struct us_inst *m = last_copy(s, target, i, x->index, x->swz[p]);
        if (!m)
            return false;
        const struct us_src *y = &m->src[0];
        if (m->op == US_OP_MOV ? (f & (US_I_SRC | US_I_DST)) != 0
                               : y->negate != 0)
            return false;
        if (from >= 0 && y->index != from)
            return false;
        from = y->index;
        n.swz[p] = y->swz[x->swz[p]];
        unsigned b = (x->negate >> p & 1) ^ (y->negate >> x->swz[p] & 1);
        neg |= b << p;
        read |= 1u << p;
    }
    if (from < 0)
        return false;
    if (in->op == US_OP_SWZ) {
        n.negate = (uint8_t)((x->negate & ~read) | neg);
    } else {
        if (neg && neg != read)
            return false;   /* outside SWZ a negation is all or nothing */
        n.negate = neg ? 0xf : 0;
        unsigned first = (unsigned)__builtin_ctz(read);
        for (unsigned p = 0; p < 4; p++)
            if (!(read >> p & 1))
                n.swz[p] = n.swz[first];
    }
    n.file = US_FILE_PARAM;
    n.index = (uint16_t)from;
    *x = n;
    return true;
}

bool pass_constprop(struct spv *s)
{
    bool *target = calloc(s->ninsts + 1, sizeof *target);
    if (!target)
        return false;
    pass_branch_targets(s, target);
    bool changed = false;
    for (unsigned i = 0; i < s->ninsts; i++)
        for (unsigned k = 0; k < us_ops[s->insts[i].op].nsrc; k++)
            changed |= propagate(s, target, i, k);
    free(target);
    return changed;
}
