/*
 * Vectorisation, on TEMPs after allocation: component-wise ALU
 * instructions of one operation writing different components of one
 * register from the same source registers become one instruction, each
 * component keeping its own selectors:
 *
 *     MUL R0.x, R1.y, c.x;            MUL R0.xyz, R1.yxz, c.xxy;
 *     MUL R0.y, R1.x, c.x;     ->
 *     MUL R0.z, R1.z, c.y;
 *
 * The later instruction moves up to the earlier one in straight-line
 * code, past instructions that neither write what it reads nor touch what
 * it writes, and it must not read what the earlier one writes.  Exact:
 * each component is the same operation on the same operands, and an
 * instruction reads all its sources before it writes.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"

enum { WINDOW = 32 };

static bool vectorizable(const struct us_inst *in)
{
    const struct us_opinfo *o = &us_ops[in->op];
    if (in->dst.file != US_FILE_TEMP && in->dst.file != US_FILE_OUTPUT)
        return false;
    if (o->shape == US_SHAPE_COMP)
        return o->unit == US_UNIT_ALU && !fixed_operand(in, 0) &&
               (o->format == US_FMT_VEC || o->format == US_FMT_SWZ);
    /* One value replicated: RCP RSQ ... (SCL), DP3 DP4 DPH. */
    return (o->shape == US_SHAPE_REPL && o->format == US_FMT_SCL) ||
           o->shape == US_SHAPE_DOT;
}

/* A constant of the translation (before allocation). */
static const float *const_of(const struct spv *s, const struct us_src *x)
{
    if (x->file != US_FILE_PARAM || x->rel || x->index < CONST_BASE ||
        (unsigned)(x->index - CONST_BASE) >= s->nconsts)
        return NULL;
    return s->consts[x->index - CONST_BASE].v;
}

/* Whether operand k of a and b reads the same value at the positions
 * `pos` (a replicated or dot-product result: the same operation). */
static bool same_value(const struct spv *s, const struct us_src *a,
                       const struct us_src *b, unsigned pos)
{
    const float *ca = const_of(s, a), *cb = const_of(s, b);
    if ((ca != NULL) != (cb != NULL))
        return false;
    if (!ca && (a->file != b->file || a->index != b->index ||
                a->rel != b->rel))
        return false;
    if (!ca && a->rel && (a->rel_addr != b->rel_addr ||
                          a->rel_offset != b->rel_offset ||
                          a->rel_size != b->rel_size))
        return false;
    for (unsigned p = 0; p < 4; p++) {
        if (!(pos >> p & 1))
            continue;
        if ((a->negate ^ b->negate) >> p & 1)
            return false;
        if (a->swz[p] >= 4 || b->swz[p] >= 4)
            return false;
        if (ca ? memcmp(&ca[a->swz[p]], &cb[b->swz[p]], sizeof *ca)
               : a->swz[p] != b->swz[p])
            return false;
    }
    return true;
}

/* The same register, read the same way but for the selectors; two
 * constants of the translation merge into one. */
static bool same_source(const struct spv *s, const struct us_inst *in,
                        const struct us_src *a, const struct us_src *b)
{
    bool consts = const_of(s, a) && const_of(s, b) &&
                  s->nconsts < US_MAX_PARAMS / 2;
    if (!consts &&
        (a->file != b->file || a->index != b->index || a->rel != b->rel))
        return false;
    if (!consts && a->rel && (a->rel_addr != b->rel_addr ||
                              a->rel_offset != b->rel_offset ||
                              a->rel_size != b->rel_size))
        return false;
    if (in->op == US_OP_SWZ)
        return true;   /* per-component negation */
    return (a->negate != 0) == (b->negate != 0);
}

/* Components of TEMP `reg` that instruction `in` reads. */
static unsigned reads_of(const struct us_inst *in, unsigned file,
                         unsigned reg)
{
    unsigned m = 0;
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
        const struct us_src *x = &in->src[k];
        if (x->file != file || (x->rel ? 0 : x->index != reg))
            continue;
        if (x->rel)
            return 0xf;
        unsigned pos = src_positions(in, k, in->dst.mask);
        for (unsigned p = 0; p < 4; p++)
            if ((pos >> p & 1) && x->swz[p] < 4)
                m |= 1u << x->swz[p];
    }
    return m;
}

static unsigned writes_of(const struct us_inst *in, unsigned file,
                          unsigned reg)
{
    if (file == US_FILE_TEMP && !pass_writes_temp(in))
        return 0;
    return in->dst.file == file && in->dst.index == reg ? in->dst.mask : 0;
}

static bool uses_addr(const struct us_inst *in)
{
    for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
        if (in->src[k].rel)
            return true;
    return false;
}

/* Whether b may join a (a before b). */
static bool joinable(const struct spv *s, const struct us_inst *a,
                     const struct us_inst *b)
{
    if (a->op != b->op || a->sat != b->sat || a->word != b->word ||
        a->dst.file != b->dst.file || a->dst.index != b->dst.index ||
        (a->dst.mask & b->dst.mask) || !vectorizable(b))
        return false;
    bool comp = us_ops[a->op].shape == US_SHAPE_COMP;
    for (unsigned k = 0; k < us_ops[a->op].nsrc; k++)
        if (comp ? !same_source(s, a, &a->src[k], &b->src[k])
                 : !same_value(s, &a->src[k], &b->src[k],
                               src_positions(a, k, a->dst.mask)))
            return false;
    /* b must not read what a writes. */
    return !(reads_of(b, a->dst.file, a->dst.index) & a->dst.mask);
}

/* Whether b may move up past j. */
static bool passes(const struct us_inst *j, const struct us_inst *b)
{
    if (reads_of(j, b->dst.file, b->dst.index) & b->dst.mask)
        return false;
    if (writes_of(j, b->dst.file, b->dst.index) & b->dst.mask)
        return false;
    if (j->dst.file == US_FILE_ADDRESS && uses_addr(b))
        return false;
    if (has_side_effect(j->op))
        return false;
    for (unsigned k = 0; k < us_ops[b->op].nsrc; k++) {
        const struct us_src *x = &b->src[k];
        if (x->file != US_FILE_TEMP)
            continue;
        unsigned pos = src_positions(b, k, b->dst.mask), m = 0;
        for (unsigned p = 0; p < 4; p++)
            if ((pos >> p & 1) && x->swz[p] < 4)
                m |= 1u << x->swz[p];
        if (writes_of(j, US_FILE_TEMP, x->index) & m)
            return false;
    }
    return true;
}

/* A constant holding a's values at its positions and b's at b's. */
static bool merge_consts(struct spv *s, struct us_src *x,
                         unsigned amask, const struct us_src *y,
                         unsigned bmask)
{
    const float *ca = const_of(s, x), *cb = const_of(s, y);
    float v[4] = { 0, 0, 0, 0 };
    for (unsigned p = 0; p < 4; p++) {
        if (amask >> p & 1)
            v[p] = ca[x->swz[p] & 3];
        else if (bmask >> p & 1)
            v[p] = cb[y->swz[p] & 3];
    }
    unsigned i;
    for (i = 0; i < s->nconsts; i++)
        if (!memcmp(s->consts[i].v, v, sizeof v))
            break;
    if (i == s->nconsts) {
        if (s->nconsts == s->cap_consts)
            return false;   /* the constants stay as they are */
        memcpy(s->consts[s->nconsts++].v, v, sizeof v);
    }
    x->index = (uint16_t)(CONST_BASE + i);
    for (unsigned p = 0; p < 4; p++)
        x->swz[p] = (uint8_t)p;
    return true;
}

static bool join(struct spv *s, struct us_inst *a, const struct us_inst *b)
{
    if (us_ops[a->op].shape != US_SHAPE_COMP) {
        a->dst.mask |= b->dst.mask;
        return true;
    }
    struct us_inst m = *a;
    bool merged[3] = { false, false, false };
    for (unsigned k = 0; k < us_ops[a->op].nsrc; k++) {
        merged[k] = const_of(s, &a->src[k]) && const_of(s, &b->src[k]) &&
                    a->src[k].index != b->src[k].index;
        if (merged[k] && !merge_consts(s, &m.src[k], a->dst.mask,
                                       &b->src[k], b->dst.mask))
            return false;
    }
    *a = m;
    for (unsigned k = 0; k < us_ops[a->op].nsrc; k++) {
        if (merged[k])
            continue;
        for (unsigned p = 0; p < 4; p++) {
            if (!(b->dst.mask >> p & 1))
                continue;
            a->src[k].swz[p] = b->src[k].swz[p];
            if (a->op == US_OP_SWZ)
                a->src[k].negate = (uint8_t)((a->src[k].negate & ~(1u << p)) |
                                             (b->src[k].negate & (1u << p)));
        }
    }
    a->dst.mask |= b->dst.mask;
    return true;
}

bool pass_vectorize(struct spv *s)
{
    bool *dead = calloc(s->ninsts + 1, sizeof *dead);
    bool *target = calloc(s->ninsts + 1, sizeof *target);
    bool changed = false;
    if (!dead || !target)
        goto out;
    pass_branch_targets(s, target);
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *a = &s->insts[i];
        if (dead[i] || !vectorizable(a))
            continue;
        for (unsigned k = i + 1; k < s->ninsts && k <= i + WINDOW; k++) {
            const struct us_inst *b = &s->insts[k];
            if (target[k] || pass_is_flow(b->op) ||
                us_ops[b->op].format == US_FMT_KIL)
                break;
            if (dead[k])
                continue;
            bool ok = joinable(s, a, b);
            for (unsigned j = i + 1; ok && j < k; j++)
                ok = dead[j] || passes(&s->insts[j], b);
            if (ok && join(s, a, b))
                dead[k] = true;
            if (a->dst.mask == 0xf)
                break;
        }
    }
    changed = pass_compact(s, dead);
out:
    free(dead);
    free(target);
    return changed;
}
