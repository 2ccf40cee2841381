/*
 * Packing, on virtual registers after spirv_width.c has cut every write
 * to the components someone reads: two SSA values computed by the same
 * component-wise operation from the same source registers (or constants),
 * with room for both in one vec4, go into one register -- the later
 * instruction writes free components of the earlier one's register, its
 * operands' selectors following, and its readers read those components --
 * so that pass_vectorize makes them one instruction:
 *
 *     MUL a.x, {2}.x, d.x;           MUL a.x, {2}.x, d.x;
 *     FRC f.x, a.x;            ->    FRC f.x, a.x;
 *     MUL b.x, {3}.x, d.x;           MUL a.y, {3}.x, d.x;
 *     FRC g.x, b.x;                  FRC f.y, a.y;
 *     CMP r.x, -c.x, f.x, g.x;       CMP r.x, -c.x, f.x, f.y;
 *
 * (then MUL a.xy, {2, 3}.xy, d.x; FRC f.xy, a.xy: the two arms of an
 * if-converted IF, pass_ifconv, computed as Mesa's TGSI computes them).
 * Pass_vectorize on TEMPs cannot do this: after allocation the two values
 * may sit in different TEMPs and the constants are parameter slots.
 *
 * A pair qualifies when the later instruction b could join the earlier a
 * (the conditions pass_vectorize checks: straight-line code between them,
 * nothing between writing what b reads or with a side effect, b not
 * reading a's register), each register is written once, every read of
 * a's register reads components a writes, and every read of b's reads
 * components b writes, after b.  Exact: b computes the same operation on
 * the same operands into other components, and its readers read there
 * what they read before.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"

enum { WINDOW = 32 };

struct pk {
    struct spv *s;
    unsigned *ndefs;
    uint8_t *read;     /* per vreg: components some operand reads */
    int *first_read;   /* per vreg: the first instruction reading it */
    bool *target;
};

static unsigned comps_read(const struct us_inst *in, unsigned k)
{
    const struct us_src *x = &in->src[k];
    /* A texture lookup hands its whole coordinate to the sampler. */
    unsigned pos = us_ops[in->op].unit == US_UNIT_TEX
                   ? 0xf : src_positions(in, k, in->dst.mask), m = 0;
    for (unsigned p = 0; p < 4; p++)
        if ((pos >> p & 1) && x->swz[p] < 4)
            m |= 1u << x->swz[p];
    return m;
}

static bool is_const(const struct spv *s, const struct us_src *x)
{
    return x->file == US_FILE_PARAM && !x->rel && x->index >= CONST_BASE &&
           (unsigned)(x->index - CONST_BASE) < s->nconsts;
}

/* A component-wise ALU instruction defining an SSA value once. */
static bool packable(const struct pk *c, const struct us_inst *in)
{
    const struct us_opinfo *o = &us_ops[in->op];
    return o->shape == US_SHAPE_COMP && o->unit == US_UNIT_ALU &&
           (o->format == US_FMT_VEC || o->format == US_FMT_SWZ) &&
           !fixed_operand(in, 0) && pass_writes_temp(in) &&
           in->dst.index < c->s->nvregs && c->s->vreg_ssa[in->dst.index] &&
           c->ndefs[in->dst.index] == 1;
}

/* Operand k of a and b: one register read the same way but for the
 * selectors, or two constants (pass_vectorize merges them). */
static bool same_source(const struct spv *s, const struct us_inst *a,
                        const struct us_src *x, const struct us_src *y)
{
    if (x->rel || y->rel)
        return false;
    if (!(is_const(s, x) && is_const(s, y)) &&
        (x->file != y->file || x->index != y->index))
        return false;
    if (a->op == US_OP_SWZ)
        return true;
    return (x->negate != 0) == (y->negate != 0);
}

static unsigned writes_of(const struct us_inst *in, unsigned reg)
{
    return pass_writes_temp(in) && in->dst.index == reg ? in->dst.mask : 0;
}

/* Whether b may move up from k to i and join a there; `used`: the
 * components of a's register written so far (a's and earlier packs'). */
static bool joinable(const struct pk *c, unsigned i, unsigned k,
                     unsigned used)
{
    const struct spv *s = c->s;
    const struct us_inst *a = &s->insts[i], *b = &s->insts[k];
    if (a->op != b->op || a->sat != b->sat || a->word != b->word ||
        a->dst.index == b->dst.index ||
        __builtin_popcount(used) + __builtin_popcount(b->dst.mask) > 4)
        return false;
    for (unsigned q = 0; q < us_ops[a->op].nsrc; q++) {
        const struct us_src *x = &a->src[q], *y = &b->src[q];
        if (!same_source(s, a, x, y) ||
            (is_const(s, x) && is_const(s, y) && x->index != y->index &&
             s->nconsts >= US_MAX_PARAMS / 2))
            return false;
        if (b->src[q].file == US_FILE_TEMP &&
            b->src[q].index == a->dst.index)
            return false;
    }
    for (unsigned j = i + 1; j <= k; j++) {
        const struct us_inst *in = &s->insts[j];
        if (c->target[j] || pass_is_flow(in->op) ||
            us_ops[in->op].format == US_FMT_KIL)
            return false;
        if (j == k)
            break;
        if (has_side_effect(in->op) || in->dst.file == US_FILE_ADDRESS)
            return false;
        for (unsigned q = 0; q < us_ops[b->op].nsrc; q++)
            if (b->src[q].file == US_FILE_TEMP &&
                (writes_of(in, b->src[q].index) & comps_read(b, q)))
                return false;
    }
    /* a's register: read only where a writes; b's: only where b writes,
     * and after it. */
    unsigned va = a->dst.index, vb = b->dst.index;
    return !(c->read[va] & ~used) && !(c->read[vb] & ~b->dst.mask) &&
           (c->first_read[vb] < 0 || (unsigned)c->first_read[vb] > k);
}

/* Move b's result into free components of a's register; returns them. */
static unsigned pack(struct pk *c, unsigned i, unsigned k, unsigned used)
{
    struct spv *s = c->s;
    struct us_inst *a = &s->insts[i], *b = &s->insts[k];
    unsigned va = a->dst.index, vb = b->dst.index;
    uint8_t to[4] = { 0, 1, 2, 3 };
    unsigned free_comps = ~used & 0xf, mask = 0;
    for (unsigned q = 0; q < 4; q++) {
        if (!(b->dst.mask >> q & 1))
            continue;
        unsigned p = (unsigned)__builtin_ctz(free_comps);
        free_comps &= ~(1u << p);
        to[q] = (uint8_t)p;
        mask |= 1u << p;
    }
    struct us_inst old = *b;
    for (unsigned n = 0; n < us_ops[b->op].nsrc; n++)
        for (unsigned q = 0; q < 4; q++) {
            if (!(old.dst.mask >> q & 1))
                continue;
            b->src[n].swz[to[q]] = old.src[n].swz[q];
            b->src[n].negate = (uint8_t)((b->src[n].negate & ~(1u << to[q])) |
                                         ((old.src[n].negate >> q & 1)
                                          << to[q]));
        }
    b->dst.index = (uint16_t)va;
    b->dst.mask = (uint8_t)mask;
    c->read[va] |= (uint8_t)mask;
    c->ndefs[va]++;
    c->ndefs[vb] = 0;
    for (unsigned j = k + 1; j < s->ninsts; j++)
        for (unsigned n = 0; n < us_ops[s->insts[j].op].nsrc; n++) {
            struct us_src *x = &s->insts[j].src[n];
            if (x->file != US_FILE_TEMP || x->index != vb)
                continue;
            x->index = (uint16_t)va;
            for (unsigned p = 0; p < 4; p++)
                if (x->swz[p] < 4)
                    x->swz[p] = to[x->swz[p]];
        }
    return mask;
}

bool pass_pack(struct spv *s)
{
    struct pk c = { .s = s };
    c.ndefs = calloc(s->nvregs + 1, sizeof *c.ndefs);
    c.read = calloc(s->nvregs + 1, sizeof *c.read);
    c.first_read = malloc((s->nvregs + 1) * sizeof *c.first_read);
    c.target = calloc(s->ninsts + 1, sizeof *c.target);
    bool changed = false;
    if (!c.ndefs || !c.read || !c.first_read || !c.target)
        goto out;
    pass_branch_targets(s, c.target);
    for (unsigned v = 0; v < s->nvregs; v++)
        c.first_read[v] = -1;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        if (pass_writes_temp(in) && in->dst.index < s->nvregs)
            c.ndefs[in->dst.index]++;
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
            const struct us_src *x = &in->src[k];
            if (x->file != US_FILE_TEMP || x->index >= s->nvregs)
                continue;
            c.read[x->index] |= (uint8_t)(x->rel ? 0xf : comps_read(in, k));
            if (c.first_read[x->index] < 0)
                c.first_read[x->index] = (int)i;
        }
    }
    for (unsigned i = 0; i < s->ninsts; i++) {
        if (!packable(&c, &s->insts[i]))
            continue;
        unsigned used = s->insts[i].dst.mask;
        for (unsigned k = i + 1; k < s->ninsts && k <= i + WINDOW; k++) {
            if (c.target[k] || pass_is_flow(s->insts[k].op) || used == 0xf)
                break;
            if (!packable(&c, &s->insts[k]) || !joinable(&c, i, k, used))
                continue;
            used |= pack(&c, i, k, used);
            changed = true;
        }
    }
out:
    free(c.ndefs);
    free(c.read);
    free(c.first_read);
    free(c.target);
    return changed;
}
