/*
 * Lowering of vec4 IR to scalar SP code (SPEC section 1), with the
 * arithmetic of isa/micro.h decomposed into the operations the scalar
 * datapath performs, so that the scalar executor gives the interpreter's
 * bits:
 *
 *   component-wise   one operation per written component (ABS is MOV with
 *                    the |x| modifier, SWZ a MOV from a register or k0);
 *   LRP              ADD t = 1 + (-a); MUL t = t * c; MAD d = a * b + t;
 *   DP3 DP4 DPH      MUL acc = a.x*b.x, MADs acc = a.i*b.i + acc (x, y, z
 *                    (, w) in order; compaction makes this one DOT), DPH
 *                    ADD acc = acc + b.w; then MOVs to the other written
 *                    components;
 *   RCP ... POW      one SFU operation on the .x operands, then MOVs
 *                    (compaction folds them into the SFU operation, which
 *                    computes once and writes at every repetition);
 *   XPD              MUL t = a.i2 * b.j2; MAD d = a.i1 * b.j1 + (-t);
 *   DST LIT EXP LOG SCS   a formula per component (LIT .z is the SFU
 *                    operation LITZ = micro_lit_z, its .y LITC);
 *   ARL; TEX TXB TXP (one texture operation per written component, the
 *   coordinate gathered in SCRATCH if no progression reaches it); KIL
 *   (one test per distinct component);
 *   integer          one INT operation per written component at the
 *                    program's word width (BFI: BFM packs op0.x and op0.y
 *                    into SCRATCH first, isa/scalar.h);
 *   LOAD ... ATOMS   one MEM operation per component, in the order x y z
 *                    w whatever compacts better (two components at one
 *                    address see the interpreter's order);
 *   BAR MEMBAR       one word; BRA a flow word whose target is the scalar
 *                    pc where its target's lowering starts.
 *
 * Relative PARAM reads become LDRs into SCRATCH (or straight into a MOV's
 * destination).  Every vec4 instruction reads all its sources before it
 * writes (2.14.4): the lowering picks an order of the written components
 * in which no operation reads a register component an earlier operation
 * of the same instruction has overwritten, preferring the order that
 * compacts into the fewest instructions; if no order is safe the results
 * go to SCRATCH and MOVs copy them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"
#include "isa/micro.h"

/* SCRATCH vec4 registers and their roles within one vec4 instruction. */
enum {
    SCR_RES = 0,     /* results, when no in-place order is safe; DOT acc */
    SCR_REL = 1,     /* 1..3: relative sources 0..2                      */
    SCR_TMP = 4,     /* per-component partial results (LRP, XPD)         */
    SCR_COORD = 6,   /* gathered texture coordinate                      */
};

enum { SEQ_MAX = 64 };

/* One candidate lowering of a vec4 instruction. */
struct seq {
    struct us_sinst op[SEQ_MAX];
    uint8_t orig[SEQ_MAX];  /* bit i: source i reads the vec4 program's value */
    unsigned n;
};

struct build {
    const struct us_inst *in;
    const uint8_t *order;    /* written components (KIL: test items)     */
    unsigned norder;
    bool to_scratch;
    struct seq *s;
    unsigned word;           /* the program's integer word: 32, 16, 8    */
};

static struct us_sopnd opnd(unsigned file, unsigned reg)
{
    struct us_sopnd o = { .file = (uint8_t)file, .reg = (uint16_t)reg };
    return o;
}

static struct us_sopnd scratch(unsigned vec, unsigned comp)
{
    return opnd(US_FILE_SCRATCH, 4 * vec + comp);
}

static struct us_sopnd imm(unsigned which)
{
    return opnd(US_FILE_IMM, which);
}

/* Source i of the vec4 instruction at result component c: swizzle,
 * negation, SWZ's 0 and 1, and relative reads redirected to SCRATCH. */
static struct us_sopnd vsrc(const struct us_inst *in, unsigned i, unsigned c,
                            bool *orig)
{
    const struct us_src *s = &in->src[i];
    struct us_sopnd o;
    *orig = false;
    if (s->swz[c] == US_SWZ_ZERO)
        o = imm(US_IMM_ZERO);
    else if (s->swz[c] == US_SWZ_ONE)
        o = imm(US_IMM_ONE);
    else if (s->rel)
        o = scratch(SCR_REL + i, s->swz[c]);
    else {
        o = opnd(s->file, 4u * s->index + s->swz[c]);
        *orig = true;
    }
    o.neg = (s->negate >> c) & 1;
    return o;
}

/* Append one single-repetition operation. */
static struct us_sinst *emit(struct build *b, enum us_sop op,
                             struct us_sopnd dst, uint8_t orig)
{
    struct seq *s = b->s;
    assert(s->n < SEQ_MAX);
    struct us_sinst *x = &s->op[s->n];
    memset(x, 0, sizeof *x);
    x->op = (uint8_t)op;
    x->count = 1;
    x->dst = dst;
    s->orig[s->n++] = orig;
    return x;
}

/* An operation's sources: (vec4 source vi, result component) pairs taken
 * through vsrc, or fixed operands (vi < 0); `toggle` flips the negation,
 * `abs` takes |x|. */
struct arg { int vi; unsigned comp; bool toggle; bool abs; struct us_sopnd fixed; };

static struct arg A(unsigned vi, unsigned comp)
{
    return (struct arg){ .vi = (int)vi, .comp = comp };
}
static struct arg NA(unsigned vi, unsigned comp)   /* negated */
{
    return (struct arg){ .vi = (int)vi, .comp = comp, .toggle = true };
}
static struct arg F(struct us_sopnd o)
{
    return (struct arg){ .vi = -1, .fixed = o };
}

static struct us_sinst *op_args(struct build *b, enum us_sop op,
                                struct us_sopnd dst, bool sat,
                                unsigned nargs, const struct arg *args)
{
    struct us_sopnd src[3];
    uint8_t orig = 0;
    for (unsigned i = 0; i < nargs; i++) {
        if (args[i].vi >= 0) {
            bool o;
            src[i] = vsrc(b->in, (unsigned)args[i].vi, args[i].comp, &o);
            orig |= (uint8_t)(o << i);
        } else {
            src[i] = args[i].fixed;
        }
        if (args[i].toggle)
            src[i].neg = !src[i].neg;
        if (args[i].abs) {   /* |x| ignores the sign: -|x| never wanted */
            src[i].abs = true;
            src[i].neg = false;
        }
    }
    struct us_sinst *x = emit(b, op, dst, orig);
    x->sat = sat && us_sops[op].kind != US_SK_KIL;
    for (unsigned i = 0; i < nargs; i++)
        x->src[i] = src[i];
    return x;
}

#define OP(b, op, dst, sat, ...)                                             \
    op_args(b, op, dst, sat, sizeof((struct arg[]){ __VA_ARGS__ }) /        \
            sizeof(struct arg), (struct arg[]){ __VA_ARGS__ })

/* Where the result for written component c goes. */
static struct us_sopnd dst_of(const struct build *b, unsigned c)
{
    if (b->to_scratch)
        return scratch(SCR_RES, c);
    return opnd(b->in->dst.file, 4u * b->in->dst.index + c);
}

/* After a SCRATCH-routed computation: copy to the real destination
 * (integer results as bits: a float MOV would canonicalise a NaN). */
static void copy_out(struct build *b, unsigned n)
{
    bool bits = us_ops[b->in->op].flags & US_I_DST;
    for (unsigned p = 0; p < n; p++) {
        unsigned c = b->order[p];
        struct us_sopnd d = opnd(b->in->dst.file, 4u * b->in->dst.index + c);
        struct us_sinst *x = emit(b, bits ? US_SOP_MOV_U : US_SOP_MOV, d, 0);
        x->src[0] = scratch(SCR_RES, c);
        x->word = (uint8_t)(bits ? b->word : 0);
    }
}

/* Components of vec4 source i that the instruction reads (result
 * components, before the swizzle). */
static unsigned used_components(const struct us_inst *in, unsigned i)
{
    const struct us_opinfo *o = &us_ops[in->op];
    if (o->format == US_FMT_SCL || o->format == US_FMT_ARL ||
        o->format == US_FMT_COND || o->format == US_FMT_BRA)
        return 1;
    if ((in->op == US_OP_BFE_S || in->op == US_OP_BFE_U ||
         in->op == US_OP_BFI_U) && i == 0)
        return 0x3;   /* op0.x bits, op0.y offset, whatever the mask */
    switch (o->shape) {
    case US_SHAPE_COMP:
        return o->unit == US_UNIT_TEX ? 0xf : micro_written_mask(in->op, in->dst.mask);
    case US_SHAPE_DOT:
        return in->op == US_OP_DP4 || (in->op == US_OP_DPH && i == 1) ? 0xf : 0x7;
    default:
        return 0xf;
    }
}

/* An order of the components in `mask` that is a progression mod 4
 * (every subset of four components has one). */
static unsigned ap_order(unsigned mask, uint8_t *order)
{
    unsigned n = 0, start = 0;
    unsigned cnt = (unsigned)__builtin_popcount(mask);
    if (cnt == 3)
        for (unsigned c = 0; c < 4; c++)
            if (!((mask >> c) & 1))
                start = (c + 1) & 3;
    for (unsigned k = 0; k < 4; k++) {
        unsigned c = (start + k) & 3;
        if ((mask >> c) & 1)
            order[n++] = (uint8_t)c;
    }
    return n;
}

/* LDR the relative sources' components into SCRATCH. */
static void load_relative(struct build *b, bool direct_mov)
{
    const struct us_inst *in = b->in;
    for (unsigned i = 0; i < us_ops[in->op].nsrc; i++) {
        const struct us_src *s = &in->src[i];
        if (!s->rel || (direct_mov && i == 0))
            continue;
        unsigned used = used_components(in, i), need = 0;
        for (unsigned c = 0; c < 4; c++)
            if ((used >> c) & 1 && s->swz[c] <= US_SWZ_W)
                need |= 1u << s->swz[c];
        uint8_t comps[4];
        unsigned n = ap_order(need, comps);
        for (unsigned k = 0; k < n; k++) {
            struct us_sinst *x = emit(b, US_SOP_LDR, scratch(SCR_REL + i, comps[k]), 0);
            x->src[0] = opnd(US_FILE_PARAM, 4u * s->index + comps[k]);
            x->rel_addr = s->rel_addr;
            x->rel_offset = s->rel_offset;
            x->rel_size = s->rel_size;
        }
    }
}

static enum us_sop comp_sop(enum us_opcode op)
{
    switch (op) {
    case US_OP_ABS: case US_OP_MOV: case US_OP_SWZ: return US_SOP_MOV;
    case US_OP_ADD: return US_SOP_ADD;
    case US_OP_SUB: return US_SOP_SUB;
    case US_OP_MUL: return US_SOP_MUL;
    case US_OP_MAD: return US_SOP_MAD;
    case US_OP_MIN: return US_SOP_MIN;
    case US_OP_MAX: return US_SOP_MAX;
    case US_OP_SGE: return US_SOP_SGE;
    case US_OP_SLT: return US_SOP_SLT;
    case US_OP_SEQ: return US_SOP_SEQ;
    case US_OP_SNE: return US_SOP_SNE;
    case US_OP_SGT: return US_SOP_SGT;
    case US_OP_SLE: return US_SOP_SLE;
    case US_OP_SSG: return US_SOP_SSG;
    case US_OP_TRC: return US_SOP_TRC;
    case US_OP_CMP: return US_SOP_CMP;
    case US_OP_FLR: return US_SOP_FLR;
    case US_OP_FRC: return US_SOP_FRC;
    case US_OP_TEX: return US_SOP_TEX;
    case US_OP_TXB: return US_SOP_TXB;
    case US_OP_TXP: return US_SOP_TXP;
    case US_OP_RCP: return US_SOP_RCP;
    case US_OP_RSQ: return US_SOP_RSQ;
    case US_OP_EX2: return US_SOP_EX2;
    case US_OP_LG2: return US_SOP_LG2;
    case US_OP_SIN: return US_SOP_SIN;
    case US_OP_COS: return US_SOP_COS;
    case US_OP_POW: return US_SOP_POW;
    case US_OP_DDX: return US_SOP_DDX;
    case US_OP_DDX_FINE: return US_SOP_DDX_FINE;
    case US_OP_DDY: return US_SOP_DDY;
    case US_OP_DDY_FINE: return US_SOP_DDY_FINE;
    default: return US_SOP_NOP;
    }
}

/* The texture coordinate as one operand gathering components
 * (c0 + j * step) mod 4, j = 0..3, or SCRATCH filled by MOVs. */
static struct us_sopnd tex_coord(struct build *b, uint8_t *orig)
{
    const struct us_inst *in = b->in;
    const struct us_src *s = &in->src[0];
    unsigned neg = s->negate & 0xf;
    bool direct = !s->rel && (neg == 0 || neg == 0xf);
    for (unsigned j = 0; j < 4; j++)
        direct = direct && s->swz[j] <= US_SWZ_W;
    struct us_sopnd o = opnd(s->file, 4u * s->index);
    o.neg = neg != 0;
    if (direct && us_sopnd_fit(&o, s->swz, 4, true)) {
        *orig = true;
        return o;
    }
    *orig = false;
    for (unsigned j = 0; j < 4; j++)
        OP(b, US_SOP_MOV, scratch(SCR_COORD, j), false, A(0, j));
    o = scratch(SCR_COORD, 0);
    o.step = 1;
    return o;
}

static void build_comp(struct build *b)
{
    const struct us_inst *in = b->in;
    enum us_sop sop = comp_sop(in->op);
    bool sat = in->sat;
    unsigned nsrc = us_ops[in->op].nsrc;
    bool direct_mov = in->op == US_OP_MOV && in->src[0].rel && !sat;
    load_relative(b, direct_mov);
    if (us_ops[in->op].unit == US_UNIT_TEX) {
        uint8_t orig;
        struct us_sopnd coord = tex_coord(b, &orig);
        for (unsigned p = 0; p < b->norder; p++) {
            struct us_sinst *x = emit(b, sop, dst_of(b, b->order[p]), orig);
            x->sat = sat;
            x->src[0] = coord;
            x->tex_unit = in->tex_unit;
            x->tex_target = in->tex_target;
        }
    } else if (in->op == US_OP_LRP) {
        /* micro_lrp: mad(a, b, mul(add(1, -a), c)) */
        for (unsigned p = 0; p < b->norder; p++) {
            unsigned c = b->order[p];
            OP(b, US_SOP_ADD, scratch(SCR_TMP, c), false, F(imm(US_IMM_ONE)), NA(0, c));
        }
        for (unsigned p = 0; p < b->norder; p++) {
            unsigned c = b->order[p];
            OP(b, US_SOP_MUL, scratch(SCR_TMP, c), false, F(scratch(SCR_TMP, c)), A(2, c));
        }
        for (unsigned p = 0; p < b->norder; p++) {
            unsigned c = b->order[p];
            OP(b, US_SOP_MAD, dst_of(b, c), sat, A(0, c), A(1, c), F(scratch(SCR_TMP, c)));
        }
    } else {
        for (unsigned p = 0; p < b->norder; p++) {
            unsigned c = b->order[p];
            struct arg args[3];
            for (unsigned i = 0; i < nsrc; i++)
                args[i] = A(i, c);
            if (in->op == US_OP_ABS)
                args[0].abs = true;
            if (direct_mov) {
                const struct us_src *s = &in->src[0];
                struct us_sinst *x = emit(b, US_SOP_LDR, dst_of(b, c), 0);
                x->src[0] = opnd(US_FILE_PARAM, 4u * s->index + s->swz[c]);
                x->src[0].neg = (s->negate >> c) & 1;
                x->rel_addr = s->rel_addr;
                x->rel_offset = s->rel_offset;
                x->rel_size = s->rel_size;
            } else {
                op_args(b, sop, dst_of(b, c), sat, nsrc, args);
            }
        }
    }
    if (b->to_scratch)
        copy_out(b, b->norder);
}

/* One result written to the first component in order, copied to the
 * others (REPL and DOT). */
static void replicate(struct build *b, struct us_sopnd first)
{
    unsigned start = b->to_scratch ? 0 : 1;
    for (unsigned p = start; p < b->norder; p++) {
        unsigned c = b->order[p];
        struct us_sinst *x = emit(b, US_SOP_MOV,
                                  opnd(b->in->dst.file, 4u * b->in->dst.index + c), 0);
        x->src[0] = first;
    }
}

static void build_repl(struct build *b)
{
    const struct us_inst *in = b->in;
    load_relative(b, false);
    struct us_sopnd first = b->to_scratch ? scratch(SCR_RES, 0) : dst_of(b, b->order[0]);
    if (in->op == US_OP_POW)
        OP(b, US_SOP_POW, first, in->sat, A(0, 0), A(1, 0));
    else
        OP(b, comp_sop(in->op), first, in->sat, A(0, 0));
    replicate(b, first);
}

static void build_dot(struct build *b)
{
    const struct us_inst *in = b->in;
    load_relative(b, false);
    struct us_sopnd acc = b->to_scratch ? scratch(SCR_RES, 0) : dst_of(b, b->order[0]);
    unsigned n = in->op == US_OP_DP4 ? 4 : 3;
    bool last_sat = in->op != US_OP_DPH;
    OP(b, US_SOP_MUL, acc, false, A(0, 0), A(1, 0));
    for (unsigned j = 1; j < n; j++)
        OP(b, US_SOP_MAD, acc, in->sat && last_sat && j == n - 1, A(0, j), A(1, j), F(acc));
    if (in->op == US_OP_DPH)
        OP(b, US_SOP_ADD, acc, in->sat, F(acc), A(1, 3));
    replicate(b, acc);
}

/* XPD component c: a[i1]*b[j1] - a[i2]*b[j2] (2.14.5.27). */
static const uint8_t xpd_idx[3][4] = { { 1, 2, 2, 1 }, { 2, 0, 0, 2 }, { 0, 1, 1, 0 } };

static void build_mixed(struct build *b)
{
    const struct us_inst *in = b->in;
    bool sat = in->sat;
    load_relative(b, false);
    if (in->op == US_OP_XPD) {
        for (unsigned p = 0; p < b->norder; p++) {
            unsigned c = b->order[p];
            OP(b, US_SOP_MUL, scratch(SCR_TMP, c), false,
               A(0, xpd_idx[c][2]), A(1, xpd_idx[c][3]));
        }
    }
    struct us_sopnd one = imm(US_IMM_ONE);
    for (unsigned p = 0; p < b->norder; p++) {
        unsigned c = b->order[p];
        struct us_sopnd d = dst_of(b, c);
        switch (in->op) {
        case US_OP_XPD: {
            struct us_sopnd t = scratch(SCR_TMP, c);
            t.neg = true;
            OP(b, US_SOP_MAD, d, sat, A(0, xpd_idx[c][0]), A(1, xpd_idx[c][1]), F(t));
            break;
        }
        case US_OP_DST:
            if (c == 0) OP(b, US_SOP_MOV, d, sat, F(one));
            if (c == 1) OP(b, US_SOP_MUL, d, sat, A(0, 1), A(1, 1));
            if (c == 2) OP(b, US_SOP_MOV, d, sat, A(0, 2));
            if (c == 3) OP(b, US_SOP_MOV, d, sat, A(1, 3));
            break;
        case US_OP_LIT:
            if (c == 0 || c == 3) OP(b, US_SOP_MOV, d, sat, F(one));
            if (c == 1) OP(b, US_SOP_LITC, d, sat, A(0, 0));
            if (c == 2) OP(b, US_SOP_LITZ, d, sat, A(0, 0), A(0, 1), A(0, 3));
            break;
        case US_OP_EXP:
            if (c == 0) OP(b, US_SOP_EXPX, d, sat, A(0, 0));
            if (c == 1) OP(b, US_SOP_FRC, d, sat, A(0, 0));   /* micro_exp_y */
            if (c == 2) OP(b, US_SOP_EX2, d, sat, A(0, 0));   /* micro_exp_z */
            if (c == 3) OP(b, US_SOP_MOV, d, sat, F(one));
            break;
        case US_OP_LOG: {
            if (c == 0) OP(b, US_SOP_LOGX, d, sat, A(0, 0));
            if (c == 1) OP(b, US_SOP_LOGY, d, sat, A(0, 0));
            if (c == 2) {                                     /* micro_log_z */
                struct arg a = A(0, 0);
                a.abs = true;
                op_args(b, US_SOP_LG2, d, sat, 1, &a);
            }
            if (c == 3) OP(b, US_SOP_MOV, d, sat, F(one));
            break;
        }
        case US_OP_SCS:
            OP(b, c == 0 ? US_SOP_COS : US_SOP_SIN, d, sat, A(0, 0));
            break;
        default:
            assert(!"not a MIXED opcode");
        }
    }
    if (b->to_scratch)
        copy_out(b, b->norder);
}

/* KIL's tests: the distinct (component, sign) pairs of its operand. */
static unsigned kil_items(const struct us_inst *in, uint8_t *items)
{
    unsigned n = 0;
    for (unsigned c = 0; c < 4; c++) {
        bool dup = false;
        for (unsigned k = 0; k < n; k++) {
            unsigned o = items[k];
            dup |= in->src[0].swz[o] == in->src[0].swz[c] &&
                   ((in->src[0].negate >> o) & 1) == ((in->src[0].negate >> c) & 1);
        }
        if (!dup)
            items[n++] = (uint8_t)c;
    }
    return n;
}

/* The flow word of a vec4 flow instruction (its target is set when the
 * whole code is linked); IF tests its source's first component. */
static void build_flow(struct build *b)
{
    const struct us_inst *in = b->in;
    enum us_sop op = us_sop_of((enum us_opcode)in->op, US_ATOM_ADD);
    assert(op != US_SOP_NOP);
    if (in->op == US_OP_BRA) {   /* the target is remapped by us_lower */
        struct us_sinst *x;
        if (in->sub == US_COND_ALWAYS) {
            x = emit(b, op, opnd(0, 0), 0);
        } else {
            load_relative(b, false);
            x = OP(b, op, opnd(0, 0), false, A(0, 0), A(1, 0));
        }
        x->target = in->target;
        x->cond = in->sub;
        x->word = (uint8_t)b->word;
    } else if (us_ops[in->op].nsrc) {
        load_relative(b, false);
        OP(b, op, opnd(0, 0), false, A(0, 0));
    } else {
        emit(b, op, opnd(0, 0), 0);
    }
}

/* Integer operations, component by component at the program's word
 * width.  BFE reads op0.x (bits) and op0.y (offset) at every component;
 * BFI packs them with BFM first (isa/scalar.h). */
static void build_int(struct build *b)
{
    const struct us_inst *in = b->in;
    enum us_sop sop = us_sop_of((enum us_opcode)in->op, US_ATOM_ADD);
    unsigned nsrc = us_ops[in->op].nsrc;
    load_relative(b, false);
    if (in->op == US_OP_BFI_U) {
        struct us_sinst *x = OP(b, US_SOP_BFM, scratch(SCR_TMP, 0), false,
                                A(0, 0), A(0, 1));
        x->word = (uint8_t)b->word;
    }
    for (unsigned p = 0; p < b->norder; p++) {
        unsigned c = b->order[p];
        struct arg args[3];
        for (unsigned i = 0; i < nsrc; i++)
            args[i] = A(i, c);
        unsigned n = nsrc;
        if (in->op == US_OP_BFE_S || in->op == US_OP_BFE_U) {
            args[0] = A(0, 0);
            args[1] = A(0, 1);
            args[2] = A(1, c);
            n = 3;
        } else if (in->op == US_OP_BFI_U) {
            args[0] = F(scratch(SCR_TMP, 0));
            args[1] = A(1, c);
            args[2] = A(2, c);
        }
        struct us_sinst *x = op_args(b, sop, dst_of(b, c), in->sat, n, args);
        x->word = (uint8_t)b->word;
    }
    if (b->to_scratch)
        copy_out(b, b->norder);
}

/* LOAD STORE ATOM and the shared-memory forms: one access per component,
 * in b->order (x first: lower_inst keeps it). */
static void build_mem(struct build *b)
{
    const struct us_inst *in = b->in;
    enum us_sop sop = us_sop_of((enum us_opcode)in->op, in->sub);
    bool store = us_ops[in->op].format == US_FMT_STORE;
    unsigned nsrc = us_sops[sop].nsrc;
    load_relative(b, false);
    for (unsigned p = 0; p < b->norder; p++) {
        unsigned c = b->order[p];
        struct arg args[3];
        for (unsigned i = 0; i < nsrc; i++)
            args[i] = A(i, c);
        struct us_sinst *x = op_args(b, sop, store ? opnd(0, 0) : dst_of(b, c),
                                     false, nsrc, args);
        x->mtype = in->mtype;
        x->buf = us_sop_shared(sop) ? 0 : in->tex_unit;
    }
    if (b->to_scratch && !store)
        copy_out(b, b->norder);
}

static void build(struct build *b)
{
    const struct us_inst *in = b->in;
    b->s->n = 0;
    if (us_ops[in->op].unit == US_UNIT_BRANCH) {
        build_flow(b);
        return;
    }
    if (us_ops[in->op].unit == US_UNIT_BARRIER) {
        emit(b, us_sop_of((enum us_opcode)in->op, US_ATOM_ADD), opnd(0, 0), 0);
        return;
    }
    if (us_ops[in->op].unit == US_UNIT_LSU) {
        build_mem(b);
        return;
    }
    if (us_ops[in->op].flags & (US_I_SRC | US_I_DST)) {
        build_int(b);
        return;
    }
    if (in->op == US_OP_KIL) {
        load_relative(b, false);
        for (unsigned p = 0; p < b->norder; p++)
            OP(b, US_SOP_KIL, opnd(0, 0), false, A(0, b->order[p]));
        return;
    }
    if (in->op == US_OP_ARL) {
        load_relative(b, false);
        OP(b, US_SOP_ARL, opnd(US_FILE_ADDRESS, 4u * in->dst.index), false, A(0, 0));
        return;
    }
    switch (us_ops[in->op].shape) {
    case US_SHAPE_COMP: build_comp(b); break;
    case US_SHAPE_REPL: build_repl(b); break;
    case US_SHAPE_DOT: build_dot(b); break;
    default: build_mixed(b); break;
    }
}

/* Does any operation read, as the program's value, a register component
 * an earlier operation of the sequence has overwritten? */
static bool safe(const struct seq *s)
{
    uint16_t written[SEQ_MAX];
    uint8_t wfile[SEQ_MAX];
    unsigned nw = 0;
    for (unsigned k = 0; k < s->n; k++) {
        const struct us_sinst *x = &s->op[k];
        for (unsigned i = 0; i < us_sops[x->op].nsrc; i++) {
            if (!((s->orig[k] >> i) & 1))
                continue;
            unsigned reads = us_sops[x->op].kind == US_SK_TEX ? 4 : 1;
            for (unsigned j = 0; j < reads; j++) {
                unsigned r = us_sopnd_reg(&x->src[i], j);
                for (unsigned w = 0; w < nw; w++)
                    if (wfile[w] == x->src[i].file && written[w] == r)
                        return false;
            }
        }
        if (x->dst.file == US_FILE_TEMP || x->dst.file == US_FILE_OUTPUT) {
            wfile[nw] = x->dst.file;
            written[nw++] = x->dst.reg;
        }
    }
    return true;
}

/* Instructions after us_compact's greedy merging. */
static unsigned compacted_cost(const struct seq *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->n; n++) {
        unsigned m = s->n - i < 4 ? s->n - i : 4;
        struct us_sinst merged;
        while (!us_sinst_combine(s->op + i, m, &merged))
            m--;
        i += m;
    }
    return n;
}

/* Next permutation in lexicographic order; false after the last. */
static bool next_perm(uint8_t *a, unsigned n)
{
    if (n < 2)
        return false;
    int i = (int)n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = (int)n - 1;
    while (a[j] <= a[i])
        j--;
    uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    for (unsigned l = (unsigned)i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l]; a[l] = a[r]; a[r] = t;
    }
    return true;
}

struct lower {
    struct us_scode *out;
    struct us_diag *diag;
    struct seq cand, best;
    unsigned word;           /* the program's integer word: 32, 16, 8    */
};

static bool append(struct lower *L, const struct seq *s)
{
    struct us_scode *c = L->out;
    if (c->n + s->n > c->cap) {
        unsigned cap = c->cap ? c->cap : 64;
        while (cap < c->n + s->n)
            cap *= 2;
        struct us_sinst *p = realloc(c->insts, cap * sizeof *p);
        if (!p) {
            snprintf(L->diag->msg, sizeof L->diag->msg, "out of memory");
            return false;
        }
        c->insts = p;
        c->cap = cap;
    }
    memcpy(c->insts + c->n, s->op, s->n * sizeof s->op[0]);
    c->n += s->n;
    return true;
}

static bool representable(const struct us_inst *in, struct us_diag *diag)
{
    for (unsigned i = 0; i < us_ops[in->op].nsrc; i++) {
        const struct us_src *s = &in->src[i];
        if (s->rel && (s->rel_size < 1 || s->rel_size >= (1u << SIZE_SW_REG) ||
                       s->rel_offset < -(1 << (SIZE_SW_REG - 1)) ||
                       s->rel_offset >= (1 << (SIZE_SW_REG - 1)) ||
                       s->file != US_FILE_PARAM)) {
            snprintf(diag->msg, sizeof diag->msg,
                     "relative offset %d or array size %u beyond the LDR fields",
                     s->rel_offset, s->rel_size);
            return false;
        }
    }
    return true;
}

static bool lower_inst(struct lower *L, const struct us_inst *in)
{
    if (!representable(in, L->diag))
        return false;
    uint8_t items[4];
    unsigned n;
    enum us_unit unit = us_ops[in->op].unit;
    unsigned word = in->word ? in->word : L->word;   /* .W8 .W16 .W32 */
    if (unit == US_UNIT_BRANCH || unit == US_UNIT_BARRIER) {
        struct build b = { in, NULL, 0, false, &L->best, word };
        build(&b);
        return append(L, &L->best);
    }
    if (us_ops[in->op].format == US_FMT_STORE) {   /* the stored mask */
        n = 0;
        for (unsigned c = 0; c < 4; c++)
            if ((in->dst.mask >> c) & 1)
                items[n++] = (uint8_t)c;
    } else if (in->op == US_OP_KIL) {
        n = kil_items(in, items);
    } else if (in->op == US_OP_ARL) {
        n = micro_written_mask(in->op, in->dst.mask) ? 1 : 0;
        items[0] = 0;
    } else {
        unsigned wmask = micro_written_mask(in->op, in->dst.mask);
        n = 0;
        for (unsigned c = 0; c < 4; c++)
            if ((wmask >> c) & 1)
                items[n++] = (uint8_t)c;
    }
    if (n == 0)
        return true;   /* nothing written (XPD .w, SCS .zw) */
    /* Memory accesses keep the order x y z w: two components at one
     * address must see the interpreter's order. */
    bool in_order = unit == US_UNIT_LSU;
    unsigned best_cost = ~0u;
    for (int scr = 0; scr < 2 && best_cost == ~0u; scr++) {
        uint8_t order[4];
        memcpy(order, items, n);
        do {
            struct build b = { in, order, n, scr != 0, &L->cand, word };
            build(&b);
            if (!safe(&L->cand))
                continue;
            unsigned cost = compacted_cost(&L->cand);
            if (cost < best_cost) {
                best_cost = cost;
                L->best = L->cand;
            }
        } while (!in_order && next_perm(order, n));
    }
    assert(best_cost != ~0u);   /* the SCRATCH route is always safe */
    return append(L, &L->best);
}

/* vbegin from the scalar start of each vec4 instruction (struct
 * us_scode): instruction s carries the vec4 instructions starting at s. */
static bool attribute(struct us_scode *c, const uint32_t *start,
                      unsigned ninsts, struct us_diag *diag)
{
    c->vbegin = malloc((c->n + 1) * sizeof *c->vbegin);
    if (!c->vbegin) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    unsigned v = 0;
    for (unsigned s = 0; s < c->n; s++) {
        while (v < ninsts && start[v] < s)
            v++;
        c->vbegin[s] = v;
    }
    c->vbegin[c->n] = ninsts;
    return true;
}

/* The scalar code's own flow links and the flow words' targets. */
static bool link_flow(struct us_scode *c, struct us_diag *diag)
{
    c->flow = calloc(1, sizeof *c->flow);
    if (c->flow) {
        c->flow->kind = malloc(c->n ? c->n : 1);
        c->flow->partner = malloc((c->n ? c->n : 1) * sizeof *c->flow->partner);
    }
    if (!c->flow || !c->flow->kind || !c->flow->partner) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    c->flow->weight = malloc((c->n ? c->n : 1) * sizeof *c->flow->weight);
    if (!c->flow->weight) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    return us_scode_link(c, diag);
}

bool us_scode_link(struct us_scode *c, struct us_diag *diag)
{
    struct us_flow *f = c->flow;
    f->n = c->n;
    bool bra = false;
    for (unsigned i = 0; i < c->n; i++) {
        f->kind[i] = (uint8_t)us_sop_flow_kind((enum us_sop)c->insts[i].op);
        f->weight[i] = c->vbegin ? c->vbegin[i + 1] - c->vbegin[i] : 1;
        if (f->kind[i] == US_FLOW_BRA) {   /* its partner is its target */
            f->partner[i] = c->insts[i].target;
            bra = true;
        }
    }
    if (!us_flow_link(f->kind, f->partner, c->n, NULL, diag))
        return false;
    for (unsigned i = 0; i < c->n; i++)
        if (f->kind[i] != US_FLOW_NONE)
            c->insts[i].target = f->partner[i];
    if (!bra)
        return true;
    /* the reconvergence points, found again after compaction */
    free(f->rpc);
    free(f->always);
    f->rpc = NULL;
    f->always = NULL;
    uint8_t *always = malloc(c->n ? c->n : 1);
    if (!always) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    for (unsigned i = 0; i < c->n; i++)
        always[i] = c->insts[i].cond == US_COND_ALWAYS;
    bool ok = us_flow_branches(f, always, NULL, diag);
    free(always);
    return ok;
}

bool us_lower(const struct us_program *prog, unsigned compact,
              struct us_scode *out, struct us_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(diag, 0, sizeof *diag);
    struct lower *L = malloc(sizeof *L);
    if (!L) {
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    L->out = out;
    L->diag = diag;
    L->word = prog->word_bits ? prog->word_bits : 32;
    /* start[v]: the scalar instruction where vec4 instruction v begins */
    uint32_t *start = malloc((prog->ninsts + 1) * sizeof *start);
    bool ok = start != NULL, flow = false;
    if (!ok)
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
    for (unsigned i = 0; i < prog->ninsts && ok; i++) {
        start[i] = out->n;
        flow |= us_ops[prog->insts[i].op].unit == US_UNIT_BRANCH;
        ok = lower_inst(L, &prog->insts[i]);
        if (!ok)
            diag->line = prog->insts[i].line;
    }
    free(L);
    if (ok) {   /* a BRA jumps to where its target's lowering starts */
        start[prog->ninsts] = out->n;
        for (unsigned i = 0; i < out->n; i++)
            if (us_sop_flow_kind((enum us_sop)out->insts[i].op) == US_FLOW_BRA)
                out->insts[i].target = out->insts[i].target <= prog->ninsts
                                           ? start[out->insts[i].target]
                                           : UINT32_MAX;
        ok = attribute(out, start, prog->ninsts, diag) &&
             (!flow || link_flow(out, diag));
    }
    free(start);
    if (!ok) {
        us_scode_free(out);
        return false;
    }
    if (compact && !us_compact_form(out, (enum us_compaction)compact)) {
        us_scode_free(out);
        snprintf(diag->msg, sizeof diag->msg, "out of memory");
        return false;
    }
    return true;
}
