/*
 * True vector widths.  The translation writes every value to all four
 * components of its virtual register (a scalar replicated, a vec3's .w a
 * don't-care); here, before register allocation, each instruction is cut
 * down to the components someone reads, the way compilers for vec4
 * hardware do (per-channel dead-code elimination):
 *
 *   1. Replicated values.  A register whose every definition writes one
 *      value to all four components (RCP/DP3-style results, component-wise
 *      operations on replicated operands: `MUL t, a.x, b.y`) is a scalar:
 *      its readers are rewritten to read its .x alone.
 *   2. Demanded components.  Least fixpoint over the whole program: an
 *      instruction needs the components of its sources that its live
 *      destination components read (component-wise operations position by
 *      position, SCL formats .x, DP3 .xyz, texture coordinates by target),
 *      and a register component is live when some instruction needs it.
 *      Write masks shrink to the live components; an instruction left
 *      with none is dropped.
 *
 * Flow-insensitive per register, so it holds across IF arms and loops
 * (a component read anywhere stays written everywhere).  regalloc.c then
 * places each register's live components in components of the TEMPs.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/spirv.h"

/* Components a texture target reads from the coordinate
 * (ARB_fragment_program 3.11.6, ARB_fragment_program_shadow: the shadow
 * targets add the depth reference in r = .z); TXP divides by and TXB
 * biases by .w. */
static unsigned tex_positions(const struct us_inst *in)
{
    static const uint8_t by_target[US_TEX_TARGET_COUNT] = {
        [US_TEX_1D] = 0x1, [US_TEX_2D] = 0x3, [US_TEX_3D] = 0x7,
        [US_TEX_CUBE] = 0x7, [US_TEX_RECT] = 0x3,
        [US_TEX_SHADOW1D] = 0x5, [US_TEX_SHADOW2D] = 0x7,
        [US_TEX_SHADOWRECT] = 0x7,
    };
    unsigned m = in->tex_target < US_TEX_TARGET_COUNT ?
                 by_target[in->tex_target] : 0xf;
    if (in->op != US_OP_TEX)
        m |= 0x8;
    return m;
}

unsigned src_positions(const struct us_inst *in, unsigned k, unsigned mask)
{
    const struct us_opinfo *o = &us_ops[in->op];
    if (o->format == US_FMT_SCL || o->format == US_FMT_ARL ||
        o->format == US_FMT_COND)
        return 0x1;
    if (o->unit == US_UNIT_TEX)
        return tex_positions(in);
    if (o->format == US_FMT_KIL)
        return 0xf;
    if (o->format == US_FMT_STORE)   /* address and value per component */
        return in->dst.mask & 0xf;
    switch (in->op) {
    case US_OP_DP3: return 0x7;
    case US_OP_DPH: return k == 0 ? 0x7 : 0xf;
    case US_OP_DP4: return 0xf;
    case US_OP_XPD: return 0x7;   /* whatever it writes (2.14.5.27) */
    case US_OP_BFE_S: case US_OP_BFE_U: case US_OP_BFI_U:
        if (k == 0)
            return 0x3;   /* (bits, offset) for every component */
        break;
    default: break;
    }
    return o->shape == US_SHAPE_COMP ? mask & 0xf : 0xf;
}

bool fixed_operand(const struct us_inst *in, unsigned k)
{
    return k == 0 && (in->op == US_OP_BFE_S || in->op == US_OP_BFE_U ||
                      in->op == US_OP_BFI_U);
}

bool has_side_effect(unsigned op)
{
    enum us_op_format f = us_ops[op].format;
    return f == US_FMT_ATOM || f == US_FMT_STORE || f == US_FMT_BAR;
}

bool relocatable_op(unsigned op)
{
    const struct us_opinfo *o = &us_ops[op];
    return o->unit != US_UNIT_TEX &&
           (o->shape == US_SHAPE_COMP || o->shape == US_SHAPE_REPL ||
            o->shape == US_SHAPE_DOT);
}

/* Components of its register that operand `x` reads at `positions`. */
static unsigned comps_read(const struct us_src *x, unsigned positions)
{
    unsigned m = 0;
    for (unsigned p = 0; p < 4; p++)
        if ((positions >> p & 1) && x->swz[p] < 4)
            m |= 1u << x->swz[p];
    return m;
}

static bool writes_temp(const struct us_inst *in)
{
    return in->dst.file == US_FILE_TEMP &&
           us_ops[in->op].format != US_FMT_FLOW &&
           us_ops[in->op].format != US_FMT_COND &&
           us_ops[in->op].format != US_FMT_KIL;
}

/* Whether operand `x` has one value in all four positions. */
static bool uniform_src(const struct spv *s, const struct us_src *x,
                        const bool *rep)
{
    if (x->negate != 0 && x->negate != 0xf)
        return false;
    bool same = true;
    for (unsigned p = 1; p < 4; p++)
        same = same && x->swz[p] == x->swz[0];
    if (same)
        return true;
    for (unsigned p = 0; p < 4; p++)
        if (x->swz[p] >= 4)
            return false;
    if (x->file == US_FILE_TEMP)
        return rep[x->index];
    if (x->file == US_FILE_PARAM && !x->rel && x->index >= CONST_BASE &&
        x->index - CONST_BASE < (int)s->nconsts) {
        const float *v = s->consts[x->index - CONST_BASE].v;
        for (unsigned p = 1; p < 4; p++)
            if (memcmp(&v[x->swz[p]], &v[x->swz[0]], sizeof *v))
                return false;
        return true;
    }
    return false;
}

static bool replicating_def(const struct spv *s, const struct us_inst *in,
                            const bool *rep)
{
    const struct us_opinfo *o = &us_ops[in->op];
    if (in->dst.mask != 0xf)
        return false;
    if (o->shape == US_SHAPE_REPL || o->shape == US_SHAPE_DOT)
        return true;
    if (o->shape != US_SHAPE_COMP || o->unit == US_UNIT_TEX)
        return false;
    for (unsigned k = 0; k < o->nsrc; k++)
        if (!fixed_operand(in, k) && !uniform_src(s, &in->src[k], rep))
            return false;
    return true;
}

/* Step 1: optimistic fixpoint (a phi of replicated values through a loop
 * is replicated), then every read of a replicated register takes .x. */
static void read_scalars_once(struct spv *s, bool *rep)
{
    for (unsigned v = 0; v < s->nvregs; v++)
        rep[v] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = 0; i < s->ninsts; i++) {
            const struct us_inst *in = &s->insts[i];
            if (writes_temp(in) && rep[in->dst.index] &&
                !replicating_def(s, in, rep)) {
                rep[in->dst.index] = false;
                changed = true;
            }
        }
    }
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
            struct us_src *x = &in->src[k];
            if (x->file != US_FILE_TEMP || !rep[x->index])
                continue;
            for (unsigned p = 0; p < 4; p++)
                if (x->swz[p] < 4)
                    x->swz[p] = US_SWZ_X;
        }
    }
}

/* Step 2: demanded[v] = the components of v some live instruction reads. */
static void demand(const struct spv *s, uint8_t *demanded)
{
    memset(demanded, 0, s->nvregs);
    /* An atomic's old value is written whether or not it is read. */
    for (unsigned i = 0; i < s->ninsts; i++)
        if (has_side_effect(s->insts[i].op) && writes_temp(&s->insts[i]))
            demanded[s->insts[i].dst.index] |= s->insts[i].dst.mask;
    for (bool changed = true; changed;) {
        changed = false;
        for (unsigned i = s->ninsts; i-- > 0;) {
            const struct us_inst *in = &s->insts[i];
            unsigned mask = in->dst.mask;
            if (writes_temp(in)) {
                mask &= demanded[in->dst.index];
                if (!mask)
                    continue;
            }
            for (unsigned k = 0; k < us_ops[in->op].nsrc; k++) {
                const struct us_src *x = &in->src[k];
                if (x->file != US_FILE_TEMP)
                    continue;
                unsigned m = comps_read(x, src_positions(in, k, mask));
                if (m & ~demanded[x->index]) {
                    demanded[x->index] |= (uint8_t)m;
                    changed = true;
                }
            }
        }
    }
}

void spv_demanded(const struct spv *s, uint8_t *demanded)
{
    demand(s, demanded);
}

bool narrow_widths(struct spv *s, uint8_t *demanded)
{
    bool *rep = malloc((s->nvregs + 1) * sizeof *rep);
    if (!rep)
        return spv_fail(s, "out of memory");
    read_scalars_once(s, rep);
    free(rep);
    demand(s, demanded);
    unsigned n = 0;
    for (unsigned i = 0; i < s->ninsts; i++) {
        struct us_inst *in = &s->insts[i];
        if (writes_temp(in)) {
            in->dst.mask &= demanded[in->dst.index];
            if (!in->dst.mask)
                continue;
        }
        s->insts[n++] = *in;
    }
    s->ninsts = n;
    return true;
}
