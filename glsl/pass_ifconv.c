/*
 * If-conversion, on virtual registers: a small IF c; A; [ELSE; B;] ENDIF
 * whose arms are straight-line floating-point ALU code becomes both arms,
 * each writing fresh registers, followed by a select (CMP) per register
 * the code after the IF reads:
 *
 *     SGE c.x, d, 0.5;               SGE c.x, d, 0.5;
 *     IF c.x;                        MUL a, 2, d;
 *     MUL a, 2, d;                   FRC r', a;
 *     FRC r, a;                ->    MUL b, 3, d;
 *     ELSE;                          FRC r'', b;
 *     MUL b, 3, d;                   CMP r, -c.x, r', r'';
 *     FRC r, b;
 *     ENDIF;
 *
 * The other passes then treat the two arms as one block (pass_cse,
 * pass_vectorize: Mesa's TGSI of glmark2's conditionals shaders computes
 * both arms' MUL and FRC as one .xy instruction and selects with UCMP).
 *
 * Why it is exact:
 *  - The condition.  IF takes its arm when the operand is not 0.0 (a NaN
 *    takes it, -0.0 does not: shader/interp.c); CMP picks its second
 *    operand when the first is below 0.0.  The pass converts only an IF
 *    whose operand is a component that a float comparison (SGE SLT SEQ
 *    SNE SGT SLE) wrote, or a MOV, CMP, MIN, MAX or MUL of such ones and
 *    the constants 0.0 and 1.0 (GLSL's && and || on them): it holds
 *    exactly 0.0 or 1.0 (+0.0, no negation on the way), the IF is taken
 *    iff the value is 1.0, iff CMP's -value (-1.0; -0.0 otherwise) is
 *    below 0.0.  A negation on the IF's operand changes neither.  Any
 *    other operand stays an IF (a NaN or -0.0 would need more than one
 *    CMP to reproduce).  Each definition is the one of an SSA value, or
 *    the last write of that component in the straight-line code before
 *    its reader; the arms do not write the condition's register.
 *  - The arms.  Every instruction is a float ALU or SFU operation (no
 *    integer words, texture fetches, derivatives, KIL, memory, address
 *    register writes or flow) writing a TEMP: a pure function of its
 *    operands that cannot trap, so running the arm a lane would not have
 *    run changes nothing but the fresh registers it now writes.  Texture
 *    fetches and derivatives stay under the IF because they read the other
 *    lanes of the 2x2 quad, whose values inside an arm depend on which
 *    lanes run it.
 *  - The renaming.  Each arm writes a fresh register per register it
 *    wrote; its reads of components it wrote earlier read the fresh one,
 *    the others the register as it was at the IF (an operand mixing both
 *    leaves the IF alone).  So each arm computes what it computed, and
 *    the other arm's writes are invisible to it, as before.
 *  - The selects.  Register r written by an arm and read anywhere outside
 *    the arms gets, per group of components, CMP r, -c, then-value,
 *    else-value, where a side that did not write a component gives r
 *    itself (its value at the IF).  CMP writes its choice through the NaN
 *    canonicalisation of every float write, which changes no bits here:
 *    the arms' registers were written by float operations, and a side
 *    that passes r's own value on is allowed only in a program that
 *    writes integer bits nowhere, so every value a register can hold (the
 *    thread's initial zeros included) is already canonical.  A select
 *    writing the condition's register cannot arise (the arms do not write
 *    it).
 *
 * The bound: each arm at most ARM_MAX instructions -- the limit Mesa's GLSL
 * linker passes give nir_opt_peephole_select (8), since both arms now run
 * on every lane -- and no more selects than the flow instructions removed
 * (IF, ELSE, ENDIF), so the static count never grows.  Code with BRA (an
 * OpenCL kernel's unstructured flow) is left alone.  An IF whose arms hold
 * a converted IF converts in turn, the bounds counting what it holds now.
 */
#include <stdlib.h>
#include <string.h>

#include "glsl/passes.h"
#include "isa/micro.h"

enum { ARM_MAX = 8, BOOL_DEPTH = 4 };

/* One register an arm writes: its fresh twin and the components written. */
struct rename {
    unsigned reg, fresh;
    uint8_t mask;
    bool twice;        /* some component written twice: not SSA */
};

struct arm {
    struct us_inst code[ARM_MAX];
    unsigned n;
    struct rename r[ARM_MAX];
    unsigned nr;
};

struct ic {
    struct spv *s;
    unsigned *reads;   /* per vreg: operands reading it, program-wide */
    bool int_words;    /* some instruction writes integer bits         */
    unsigned *ndefs;   /* per vreg: instructions writing it            */
    int *def;          /* per vreg: the last of them                   */
};

static bool float_compare(unsigned op)
{
    return op == US_OP_SGE || op == US_OP_SLT || op == US_OP_SEQ ||
           op == US_OP_SNE || op == US_OP_SGT || op == US_OP_SLE;
}

/* Components of its register that operand k of `in` reads. */
static unsigned comps_read(const struct us_inst *in, unsigned k)
{
    const struct us_src *x = &in->src[k];
    unsigned pos = src_positions(in, k, in->dst.mask), m = 0;
    for (unsigned p = 0; p < 4; p++)
        if ((pos >> p & 1) && x->swz[p] < 4)
            m |= 1u << x->swz[p];
    return m;
}

/* An instruction an arm may hold: a float ALU or SFU operation writing a
 * TEMP, reading no TEMP through an address. */
static bool pure_float(const struct us_inst *in)
{
    const struct us_opinfo *o = &us_ops[in->op];
    if ((o->format != US_FMT_VEC && o->format != US_FMT_SCL &&
         o->format != US_FMT_SWZ) ||
        (o->unit != US_UNIT_ALU && o->unit != US_UNIT_SFU) ||
        (o->flags & (US_I_SRC | US_I_DST | US_QUAD)) ||
        in->dst.file != US_FILE_TEMP || has_side_effect(in->op) ||
        micro_written_mask(in->op, in->dst.mask) != in->dst.mask)
        return false;
    for (unsigned k = 0; k < o->nsrc; k++)
        if (in->src[k].file == US_FILE_TEMP && in->src[k].rel)
            return false;
    return true;
}

/* Operand k of `in` at position q: a constant 0.0 or 1.0 of the
 * translation, or (returned in *reg, *comp) a TEMP component. */
static bool bool_operand(const struct spv *s, const struct us_inst *in,
                         unsigned k, unsigned q, unsigned *reg,
                         unsigned *comp, bool *is_const)
{
    const struct us_src *x = &in->src[k];
    unsigned c = x->swz[q];
    *is_const = false;
    if (x->rel || c >= 4 || (x->negate >> q & 1))
        return false;
    if (x->file == US_FILE_PARAM && x->index >= CONST_BASE &&
        (unsigned)(x->index - CONST_BASE) < s->nconsts) {
        float v = s->consts[x->index - CONST_BASE].v[c];
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        *is_const = true;
        return bits == 0 || bits == 0x3f800000u;
    }
    if (x->file != US_FILE_TEMP || x->index >= s->nvregs)
        return false;
    *reg = x->index;
    *comp = c;
    return true;
}

/* Whether component q of register v holds 0.0 or 1.0 at instruction i:
 * its definition -- the last write in the straight-line code before i,
 * or the one definition of an SSA value -- is a float comparison, or a
 * MOV, CMP, MIN, MAX or MUL of such values and the constants 0.0 and 1.0
 * (CMP copies one of its last two operands; the minimum, maximum and
 * product of two of 0.0, 1.0 are one of them), to a small depth. */
static bool known_bool(const struct ic *c, unsigned i, unsigned v,
                       unsigned q, unsigned depth)
{
    const struct spv *s = c->s;
    int d = -1;
    for (unsigned j = i; j-- > 0;) {
        const struct us_inst *in = &s->insts[j];
        if (pass_is_flow(in->op))
            break;
        if (pass_writes_temp(in) && in->dst.index == v &&
            (in->dst.mask >> q & 1)) {
            d = (int)j;
            break;
        }
    }
    if (d < 0 && s->vreg_ssa[v] && c->ndefs[v] == 1 && c->def[v] >= 0 &&
        (unsigned)c->def[v] < i && (s->insts[c->def[v]].dst.mask >> q & 1))
        d = c->def[v];
    if (d < 0)
        return false;
    const struct us_inst *in = &s->insts[d];
    if (float_compare(in->op))
        return true;
    if ((in->op != US_OP_CMP && in->op != US_OP_MIN && in->op != US_OP_MAX &&
         in->op != US_OP_MUL && in->op != US_OP_MOV) || !depth)
        return false;
    for (unsigned k = in->op == US_OP_CMP; k < us_ops[in->op].nsrc; k++) {
        unsigned reg, comp;
        bool cst;
        if (!bool_operand(s, in, k, q, &reg, &comp, &cst))
            return false;
        if (!cst && !known_bool(c, (unsigned)d, reg, comp, depth - 1))
            return false;
    }
    return true;
}

static struct rename *find(struct arm *a, unsigned reg)
{
    for (unsigned k = 0; k < a->nr; k++)
        if (a->r[k].reg == reg)
            return &a->r[k];
    return NULL;
}

/* Copy insts[from .. to) into arm a, renamed; fresh registers numbered
 * from *next.  False when some instruction or operand does not fit. */
static bool rename_arm(const struct ic *c, unsigned from, unsigned to,
                       unsigned cond, struct arm *a, unsigned *next)
{
    memset(a, 0, sizeof *a);
    if (to - from > ARM_MAX)
        return false;
    for (unsigned i = from; i < to; i++) {
        struct us_inst in = c->s->insts[i];
        if (!pure_float(&in) || in.dst.index == cond)
            return false;
        for (unsigned k = 0; k < us_ops[in.op].nsrc; k++) {
            struct us_src *x = &in.src[k];
            if (x->file != US_FILE_TEMP)
                continue;
            const struct rename *r = find(a, x->index);
            unsigned m = comps_read(&in, k);
            if (!r || !(m & r->mask))
                continue;        /* the register as it was at the IF */
            if (m & ~r->mask)
                return false;    /* both: no one register to read */
            x->index = (uint16_t)r->fresh;
        }
        struct rename *r = find(a, in.dst.index);
        if (!r) {
            r = &a->r[a->nr++];
            *r = (struct rename){ .reg = in.dst.index, .fresh = (*next)++ };
        }
        r->twice |= (r->mask & in.dst.mask) != 0;
        r->mask |= in.dst.mask;
        in.dst.index = (uint16_t)r->fresh;
        a->code[a->n++] = in;
    }
    return true;
}

/* Operands in insts[from .. to) reading register v. */
static unsigned reads_in(const struct spv *s, unsigned from, unsigned to,
                         unsigned v)
{
    unsigned n = 0;
    for (unsigned i = from; i < to; i++)
        for (unsigned k = 0; k < us_ops[s->insts[i].op].nsrc; k++)
            n += s->insts[i].src[k].file == US_FILE_TEMP &&
                 s->insts[i].src[k].index == v;
    return n;
}

static struct us_src reg_src(unsigned v)
{
    struct us_src x = { .file = US_FILE_TEMP, .index = (uint16_t)v };
    for (unsigned p = 0; p < 4; p++)
        x.swz[p] = (uint8_t)p;
    return x;
}

/* The selects of register r: one CMP per group of components written by
 * the same arms.  Returns their number (at most 3), or -1 when r must not
 * be selected by a float CMP. */
static int selects(const struct ic *c, unsigned reg, const struct rename *t,
                   const struct rename *e, struct us_src cond,
                   struct us_inst *out)
{
    unsigned tm = t ? t->mask : 0, em = e ? e->mask : 0;
    unsigned groups[3] = { tm & em, tm & ~em, em & ~tm };
    if (c->int_words && (groups[1] || groups[2]))
        return -1;
    int n = 0;
    for (unsigned g = 0; g < 3; g++) {
        if (!groups[g])
            continue;
        struct us_inst *in = &out[n++];
        memset(in, 0, sizeof *in);
        in->op = US_OP_CMP;
        in->dst = (struct us_dst){ .file = US_FILE_TEMP,
                                   .index = (uint16_t)reg,
                                   .mask = (uint8_t)groups[g] };
        in->src[0] = cond;
        in->src[1] = reg_src(g != 2 ? t->fresh : reg);
        in->src[2] = reg_src(g != 1 ? e->fresh : reg);
    }
    return n;
}

/* Whether register r, selected after the IF at i (ENDIF at f), is then
 * an SSA value: the IF outside all flow, both arms write the same
 * components once, nothing else writes r, nothing reads it before the
 * selects.  Its one definition then is the CMP (the phi it was is gone),
 * which the passes after may treat as any value built once. */
static bool single_value(const struct ic *c, unsigned i, unsigned f,
                         unsigned reg, const struct rename *t,
                         const struct rename *e)
{
    const struct spv *s = c->s;
    if (!t || !e || t->mask != e->mask || t->twice || e->twice)
        return false;
    unsigned writes = 0, depth = 0;
    for (unsigned j = 0; j <= f; j++) {
        const struct us_inst *in = &s->insts[j];
        enum us_flow_kind k = us_op_flow_kind(in->op);
        if (j < i && (k == US_FLOW_IF || k == US_FLOW_LOOP))
            depth++;
        if (j < i && (k == US_FLOW_ENDIF || k == US_FLOW_ENDLOOP))
            depth--;
        writes += pass_writes_temp(in) && in->dst.index == reg;
    }
    /* every write of r is in the arms, every read after the ENDIF */
    return depth == 0 && writes == c->ndefs[reg] &&
           reads_in(s, 0, f + 1, reg) == 0;
}

static bool grow_vregs(struct spv *s, unsigned n)
{
    if (s->nvregs + n <= s->cap_vregs)
        return true;
    unsigned cap = s->nvregs + n + 64;
    uint8_t *p = realloc(s->vreg_ssa, cap);
    if (!p)
        return false;
    s->vreg_ssa = p;
    s->cap_vregs = cap;
    return true;
}

static void count(struct ic *c)
{
    struct spv *s = c->s;
    memset(c->reads, 0, s->nvregs * sizeof *c->reads);
    c->int_words = false;
    memset(c->ndefs, 0, s->nvregs * sizeof *c->ndefs);
    for (unsigned v = 0; v < s->nvregs; v++)
        c->def[v] = -1;
    for (unsigned i = 0; i < s->ninsts; i++) {
        const struct us_inst *in = &s->insts[i];
        for (unsigned k = 0; k < us_ops[in->op].nsrc; k++)
            if (in->src[k].file == US_FILE_TEMP &&
                in->src[k].index < s->nvregs)
                c->reads[in->src[k].index]++;
        c->int_words |= (us_ops[in->op].flags & US_I_DST) != 0;
        if (!pass_writes_temp(in) || in->dst.index >= s->nvregs)
            continue;
        c->ndefs[in->dst.index]++;
        c->def[in->dst.index] = (int)i;
    }
}

/* Convert the IF at i if it qualifies; true when it did. */
static bool convert(struct ic *c, unsigned i)
{
    struct spv *s = c->s;
    const struct us_src *x = &s->insts[i].src[0];
    if (x->file != US_FILE_TEMP || x->rel || x->swz[0] >= 4 ||
        x->index >= s->nvregs ||
        !known_bool(c, i, x->index, x->swz[0], BOOL_DEPTH))
        return false;
    /* The arms: no flow inside. */
    unsigned e = i + 1, f;
    while (e < s->ninsts && !pass_is_flow(s->insts[e].op))
        e++;
    if (e >= s->ninsts)
        return false;
    if (s->insts[e].op == US_OP_ENDIF) {
        f = e;
    } else if (s->insts[e].op == US_OP_ELSE) {
        f = e + 1;
        while (f < s->ninsts && !pass_is_flow(s->insts[f].op))
            f++;
        if (f >= s->ninsts || s->insts[f].op != US_OP_ENDIF)
            return false;
    } else {
        return false;
    }
    struct arm *t = malloc(2 * sizeof *t), *el = t + 1;
    if (!t)
        return false;
    unsigned next = s->nvregs, cond_reg = x->index;
    bool ok = rename_arm(c, i + 1, e, cond_reg, t, &next) &&
              (f == e ? (memset(el, 0, sizeof *el), true)
                      : rename_arm(c, e + 1, f, cond_reg, el, &next));
    /* CMP's first operand: below 0.0 exactly when the IF is taken. */
    struct us_src cond = *x;
    for (unsigned p = 0; p < 4; p++)
        cond.swz[p] = x->swz[0];
    cond.negate = 0xf;
    struct us_inst sel[3];
    unsigned nsel = 0, nflow = f == e ? 2 : 3, ssa_regs[3], nssa = 0;
    /* Registers written in either arm, read outside both. */
    for (unsigned a = 0; ok && a < 2; a++) {
        const struct arm *arm = a ? el : t, *other = a ? t : el;
        for (unsigned k = 0; ok && k < arm->nr; k++) {
            unsigned reg = arm->r[k].reg;
            const struct rename *tr = a ? NULL : &arm->r[k];
            const struct rename *er = a ? &arm->r[k] : NULL;
            if (a == 0)
                er = find((struct arm *)other, reg);
            else if (find((struct arm *)other, reg))
                continue;        /* done with the then arm's */
            if (reg >= s->nvregs ||
                c->reads[reg] == reads_in(s, i + 1, f, reg))
                continue;        /* read inside the arms only */
            struct us_inst g[3];
            int n = selects(c, reg, tr, er, cond, g);
            ok = n >= 0 && nsel + (unsigned)n <= nflow;
            for (int q = 0; ok && q < n; q++)
                sel[nsel++] = g[q];
            if (ok && nssa < 3 && single_value(c, i, f, reg, tr, er))
                ssa_regs[nssa++] = reg;
        }
    }
    /* operands name registers in 16 bits */
    ok = ok && next <= UINT16_MAX && grow_vregs(s, next - s->nvregs);
    if (ok) {
        for (unsigned a = 0; a < 2; a++) {
            const struct arm *arm = a ? el : t;
            for (unsigned k = 0; k < arm->nr; k++)
                s->vreg_ssa[arm->r[k].fresh] = !arm->r[k].twice;
        }
        for (unsigned k = 0; k < nssa; k++)
            s->vreg_ssa[ssa_regs[k]] = 1;
        s->nvregs = next;
        /* [i, f] becomes the arms and the selects: never longer. */
        unsigned len = t->n + el->n + nsel, tail = s->ninsts - (f + 1);
        memcpy(&s->insts[i], t->code, t->n * sizeof *t->code);
        memcpy(&s->insts[i + t->n], el->code, el->n * sizeof *el->code);
        memcpy(&s->insts[i + t->n + el->n], sel, nsel * sizeof *sel);
        for (unsigned q = 0; q < nsel; q++)
            s->insts[i + t->n + el->n + q].line = s->insts[f].line;
        memmove(&s->insts[i + len], &s->insts[f + 1],
                tail * sizeof *s->insts);
        s->ninsts = i + len + tail;
    }
    free(t);
    return ok;
}

bool pass_ifconv(struct spv *s)
{
    for (unsigned i = 0; i < s->ninsts; i++)
        if (s->insts[i].op == US_OP_BRA)
            return false;
    struct ic c = { .s = s };
    bool changed = false;
    for (bool again = true; again;) {
        again = false;
        c.reads = malloc((s->nvregs + 1) * sizeof *c.reads);
        c.ndefs = malloc((s->nvregs + 1) * sizeof *c.ndefs);
        c.def = malloc((s->nvregs + 1) * sizeof *c.def);
        if (c.reads && c.ndefs && c.def) {
            count(&c);
            for (unsigned i = 0; i < s->ninsts && !again; i++)
                if (s->insts[i].op == US_OP_IF)
                    again = convert(&c, i);
        }
        changed |= again;
        free(c.reads);
        free(c.ndefs);
        free(c.def);
    }
    return changed;
}
