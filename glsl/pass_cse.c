/*
 * Common subexpressions, on virtual registers: an instruction computing
 * what an earlier one in the same straight-line code already computed --
 * the same operation on the same operands, each an SSA value with one
 * definition, an input or a parameter without a relative address -- goes,
 * and its readers read the earlier result (the same components).  The
 * translation repeats such work where GLSL does (mod's 1/y per call, a
 * normalisation written twice).  Exact: the same operation on the same
 * bits gives the same bits.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"

enum { WINDOW = 256 };

struct cse {
    struct spv *s;
    unsigned *ndefs;
};

static bool stable_src(const struct cse *c, const struct us_src *x)
{
    if (x->rel)
        return false;
    if (x->file == US_FILE_TEMP)
        return x->index < c->s->nvregs && c->s->vreg_ssa[x->index] &&
               c->ndefs[x->index] == 1;
    return x->file == US_FILE_INPUT || x->file == US_FILE_PARAM;
}

/* A pure instruction defining an SSA value once from stable operands. */
static bool candidate(const struct cse *c, const struct us_inst *in)
{
    if (!pass_writes_temp(in) || has_side_effect(in->op) ||
        us_ops[in->op].format == US_FMT_LOAD ||
        us_ops[in->op].format == US_FMT_ATOM ||
        in->dst.index >= c->s->nvregs || !c->s->vreg_ssa[in->dst.index] ||
        c->ndefs[in->dst.index] != 1)
        return false;
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
        if (!stable_src(c, &in->src[k]))
            return false;
    return true;
}

/* One value in every component written (RCP ..., DP3 ...). */
static bool replicated(const struct us_inst *in)
{
    return us_ops[in->op].shape == US_SHAPE_REPL ||
           us_ops[in->op].shape == US_SHAPE_DOT;
}

/* The translation's constant an operand reads, or NULL. */
static const float *const_of(const struct spv *s, const struct us_src *x)
{
    if (x->file != US_FILE_PARAM || x->index < CONST_BASE ||
        (unsigned)(x->index - CONST_BASE) >= s->nconsts)
        return NULL;
    return s->consts[x->index - CONST_BASE].v;
}

/* Operand k of a and b reads the same bits wherever b reads it. */
static bool same_src(const struct spv *s, const struct us_inst *b,
                     unsigned k, const struct us_src *x,
                     const struct us_src *y)
{
    const float *cx = const_of(s, x), *cy = const_of(s, y);
    if (!cx || !cy)
        return x->file == y->file && x->index == y->index &&
               x->negate == y->negate &&
               !memcmp(x->swz, y->swz, sizeof x->swz);
    unsigned pos = src_positions(b, k, b->dst.mask);
    for (unsigned p = 0; p < 4; p++)
        if ((pos >> p & 1) &&
            (((x->negate ^ y->negate) >> p & 1) || x->swz[p] >= 4 ||
             y->swz[p] >= 4 ||
             memcmp(&cx[x->swz[p]], &cy[y->swz[p]], sizeof *cx)))
            return false;
    return true;
}

static bool same_work(const struct spv *s, const struct us_inst *a,
                      const struct us_inst *b)
{
    if (a->op != b->op || a->sat != b->sat || a->word != b->word ||
        a->tex_unit != b->tex_unit || a->tex_target != b->tex_target ||
        a->mtype != b->mtype || a->sub != b->sub || !a->dst.mask ||
        (!replicated(a) && (a->dst.mask & b->dst.mask) != b->dst.mask))
        return false;
    for (unsigned k = 0; k < us_ops[a->op].nsrc; k++)
        if (!same_src(s, b, k, &a->src[k], &b->src[k]))
            return false;
    return true;
}

bool pass_cse(struct spv *s)
{
    struct cse c = { .s = s };
    c.ndefs = calloc(s->nvregs + 1, sizeof *c.ndefs);
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool *target = calloc(s->ninsts + 1, sizeof *target);
    bool changed = false;
    if (!c.ndefs || !dead || !target)
        goto out;
    pass_branch_targets(s, target);
    for (unsigned i = 0; i < s->ninsts; i++)
        if (pass_writes_temp(&s->insts[i]) &&
            s->insts[i].dst.index < s->nvregs)
            c.ndefs[s->insts[i].dst.index]++;
    for (unsigned j = 0; j < s->ninsts; j++) {
        const struct us_inst *b = &s->insts[j];
        if (!candidate(&c, b))
            continue;
        for (unsigned i = j; i-- > 0 && i + WINDOW > j;) {
            const struct us_inst *a = &s->insts[i];
            if (target[i + 1] || pass_is_flow(a->op))
                break;
            if (dead[i] || !candidate(&c, a) || !same_work(s, a, b))
                continue;
            /* Readers of b's value read a's: after b, as it is SSA. */
            unsigned w = b->dst.index, v = a->dst.index;
            uint8_t first = (uint8_t)__builtin_ctz(a->dst.mask);
            bool any = replicated(a);
            for (unsigned k = j + 1; k < s->ninsts; k++)
                for (unsigned q = 0; q < us_ops[s->insts[k].op].nsrc; q++) {
                    struct us_src *x = &s->insts[k].src[q];
                    if (x->file != US_FILE_TEMP || x->index != w)
                        continue;
                    x->index = (uint16_t)v;
                    for (unsigned p = 0; any && p < 4; p++)
                        if (x->swz[p] < 4)
                            x->swz[p] = first;
                }
            dead[j] = true;
            break;
        }
    }
    changed = pass_compact(s, dead);
out:
    free(c.ndefs);
    free(dead);
    free(target);
    return changed;
}
