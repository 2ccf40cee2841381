/*
 * Random programs with integers, memory, barriers and BRA for property
 * tests (docs/COMPUTE.md): compute programs, and vertex and fragment
 * programs under OPTION USHADER_extensions, each with a launch, buffers
 * and registers (struct us_rcase), and the comparison of an executor's
 * registers and memory with the reference interpreter's (struct us_rrun).
 *
 * Every executor must give the same bits, so a program must not depend on
 * the order its threads run in (docs/COMPUTE.md, "Order of execution").
 * The generator makes it so by construction:
 *
 *  - An address is built right before its access in a TEMP that random
 *    instructions never write (RC_ADDR), from the thread's base (derived
 *    from invocation.globalid, or from a thread-index input), so a thread
 *    touches only its own region of the private buffer; constants or
 *    masked data (AND, MOD, MIN) pick the bytes inside it, components of
 *    one access may overlap (they run x first), and MOV.U of a constant
 *    puts components out of bounds: past the end, far away, or straddling
 *    the end (an access that is not wholly inside touches nothing).
 *  - The read-only buffer is read at any address; the unbound one is
 *    accessed with any register as the address.
 *  - Counters take atomics whose results are unused (the destination is
 *    overwritten right after) and whose operations commute: each counter
 *    has one operation, ADD, MIN.S, MIN.U, MAX.S, MAX.U, AND, OR or XOR.
 *    Atomics whose results are used (EXCH and CSWAP too) go to the
 *    thread's own bytes.
 *  - Shared memory has two areas of a slot per thread and two counter
 *    areas.  Between two BARs (phase k) a thread writes only its own slot
 *    of area k mod 2 and the counters of counter area k mod 2, and reads
 *    those or anything in the other areas.  BARs stand in control flow that
 *    is uniform over the whole launch (conditions and trip counts from
 *    constants: a model may run several workgroups in one lockstep group),
 *    and every uniform IF, ELSE and loop body holds an even number of them
 *    (one is added where needed), so each instruction's phase is known
 *    when it is generated.  After a BRA to the end (lanes leave early) no
 *    BAR follows.
 *  - Loops count in a TEMP of their own per loop depth: 0-4 trips,
 *    lane-divergent (masked data) or uniform (constants); structured
 *    loops BRK on the count, BRA loops branch back on it.  BRK, CONT and
 *    BRAs out of a BRA loop only leave divergent loops, and every BRA
 *    stays in its structured block.  No thread runs more than
 *    US_RCASE_BUDGET instructions.
 *
 * The programs are what the assembler makes of their disassembly
 * (us_program_equal): TEMPs, A0 and the relatively read PARAM array are
 * declared, in-place literals are numbered in text order and shared when
 * equal, float literals are finite and integer ones only feed integer
 * sources.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"
#include "isa/micro_mem.h"
#include "shader/core.h"

enum {
    RC_DATA = 6,             /* TEMPs 0..5: what random instructions write  */
    RC_BASE = RC_DATA,       /* x private base, y own shared slot, z index  */
    RC_ADDR,                 /* the address of the next access              */
    RC_LOOP,                 /* loop counter at loop depth d: RC_LOOP + d   */
    RC_LOOPS = 3,
    RC_TEMPS = RC_LOOP + RC_LOOPS,
    RC_ARRAY = 8,            /* PARAM arr[8] at slots 0..7                  */
    RC_DEPTH = 4,            /* statement nesting                           */
    RC_MAX_INSTS = 900,      /* then only closing instructions (< 1000)     */
    RC_SLOT = 16,            /* shared bytes of a thread in one area        */
    RC_KINDS = 8,            /* counter operations                          */
    RC_SCTRS = 2,            /* shared counters per kind and area           */
    RC_GCTRS = 4,            /* global counters per kind                    */
    RC_END = 0,              /* the label of the program's end              */
};

/* Each counter's one operation (ADD AND OR XOR: either sign). */
static const struct { uint8_t op, mtype; } kinds[RC_KINDS] = {
    { US_ATOM_ADD, US_MT_U32 }, { US_ATOM_MIN, US_MT_S32 },
    { US_ATOM_MIN, US_MT_U32 }, { US_ATOM_MAX, US_MT_S32 },
    { US_ATOM_MAX, US_MT_U32 }, { US_ATOM_AND, US_MT_U32 },
    { US_ATOM_OR, US_MT_U32 }, { US_ATOM_XOR, US_MT_U32 },
};

/* Where an access goes. */
enum space { SP_PRIV, SP_RO, SP_NONE, SP_GCTR, SP_SOWN, SP_SREAD, SP_SCTR };

struct cg {
    struct us_rng *r;
    struct us_program *p;
    const struct us_rlayout *L;
    unsigned word, group;       /* word bits; threads of a workgroup      */
    unsigned cap, pcap;         /* instructions, parameters allocated     */
    uint32_t *labels;           /* label -> instruction, UINT32_MAX unset */
    unsigned nlabels, lcap;
    unsigned budget;            /* random statements left                 */
    unsigned phase;             /* BARs so far, mod 2                     */
    bool no_bar;                /* lanes may have left: no BAR from here  */
    bool arl, oom;
    uint8_t inputs[4];          /* inputs random sources read             */
    uint8_t tex_target[US_MAX_TEX_UNITS];   /* one target per unit        */
    uint8_t int_ops[US_OP_COUNT], float_ops[US_OP_COUNT];
    unsigned nint, nfloat;
    struct us_inst sink;        /* written instead when memory runs out   */
};

/* Where a statement stands. */
struct ctx {
    unsigned depth, loops;
    bool uniform;               /* the whole launch runs it together      */
    bool brk;                   /* BRK, CONT may leave the innermost loop */
    int exit;                   /* label a BRA may leave a BRA loop by    */
};

static unsigned rnd(struct cg *g, unsigned n)
{
    return us_rng_below(g->r, n);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* ---- Instructions, literals, labels ------------------------------------- */

static struct us_inst *emit(struct cg *g, enum us_opcode op)
{
    struct us_program *p = g->p;
    if (p->ninsts == g->cap) {
        unsigned cap = g->cap ? 2 * g->cap : 128;
        struct us_inst *n = realloc(p->insts, cap * sizeof *n);
        if (!n) {
            g->oom = true;
            memset(&g->sink, 0, sizeof g->sink);
            return &g->sink;
        }
        p->insts = n;
        g->cap = cap;
    }
    struct us_inst *in = &p->insts[p->ninsts++];
    memset(in, 0, sizeof *in);
    in->op = (uint8_t)op;
    in->line = p->ninsts + 1;
    return in;
}

static unsigned new_param(struct cg *g, const uint32_t v[4])
{
    struct us_program *p = g->p;
    if (p->nparams == g->pcap) {
        unsigned cap = g->pcap ? 2 * g->pcap : 64;
        struct us_param *n = realloc(p->params, cap * sizeof *n);
        if (!n) {
            g->oom = true;
            return 0;
        }
        p->params = n;
        g->pcap = cap;
    }
    struct us_param *q = &p->params[p->nparams];
    memset(q, 0, sizeof *q);
    q->kind = US_PARAM_CONST;
    q->decl = -1;
    memcpy(q->value, v, sizeof q->value);
    return p->nparams++;
}

static struct us_src reg(unsigned file, unsigned index)
{
    struct us_src s = { .file = (uint8_t)file, .index = (uint16_t)index,
                        .swz = { 0, 1, 2, 3 } };
    return s;
}

static struct us_src comp(struct us_src s, unsigned c)
{
    memset(s.swz, (int)c, sizeof s.swz);
    return s;
}

static struct us_src lit(struct cg *g, uint32_t x, uint32_t y, uint32_t z,
                         uint32_t w)
{
    uint32_t v[4] = { x, y, z, w };
    return reg(US_FILE_PARAM, new_param(g, v));
}

static struct us_src lit1(struct cg *g, uint32_t x)
{
    return lit(g, x, x, x, x);
}

static unsigned new_label(struct cg *g)
{
    if (g->nlabels == g->lcap) {
        unsigned cap = g->lcap ? 2 * g->lcap : 64;
        uint32_t *n = realloc(g->labels, cap * sizeof *n);
        if (!n) {
            g->oom = true;
            return RC_END;
        }
        g->labels = n;
        g->lcap = cap;
    }
    g->labels[g->nlabels] = UINT32_MAX;
    return g->nlabels++;
}

static void place(struct cg *g, unsigned label)
{
    if (label != RC_END && label < g->nlabels)
        g->labels[label] = g->p->ninsts;
}

/* dst.mask = op(a[, b]) on TEMP `dst`. */
static struct us_inst *op1(struct cg *g, enum us_opcode op, unsigned dst,
                           unsigned mask, struct us_src a)
{
    struct us_inst *in = emit(g, op);
    in->dst = (struct us_dst){ .file = US_FILE_TEMP, .mask = (uint8_t)mask,
                               .index = (uint16_t)dst };
    in->src[0] = a;
    return in;
}

static void op2(struct cg *g, enum us_opcode op, unsigned dst, unsigned mask,
                struct us_src a, struct us_src b)
{
    op1(g, op, dst, mask, a)->src[1] = b;
}

/* ---- Random operands ------------------------------------------------------ */

/* An integer operand that finds corner cases: 0, +-1, the word's INT_MIN
 * and INT_MAX, all ones (in the word and in 32 bits), shift counts around
 * the word width and beyond 32, float bit patterns, anything. */
static uint32_t int_corner(struct cg *g)
{
    unsigned w = g->word;
    uint32_t m = micro_wmask(w);
    static const uint32_t floats[] = { 0x3f800000u, 0x7f800000u, 0x7fc00000u,
                                       0xff800000u, 0x00000001u, 0x80000000u };
    switch (rnd(g, 14)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return m;
    case 3: return 0xffffffffu;
    case 4: return 1u << (w - 1);
    case 5: return m >> 1;
    case 6: return 0x80000000u;
    case 7: return w - 1 + rnd(g, 3);
    case 8: return 32 + rnd(g, 40);
    case 9: return rnd(g, 8);
    case 10: return 0u - (1 + rnd(g, 4));
    case 11: return floats[rnd(g, sizeof floats / sizeof floats[0])];
    default: return (uint32_t)us_rng_next(g->r) >> rnd(g, 32);
    }
}

/* A float literal the text can spell: finite (-0 and subnormals too). */
static float finite_float(struct cg *g)
{
    float f = us_random_float(g->r);
    return isfinite(f) ? f : (float)((int)rnd(g, 7) - 3);
}

static struct us_src rand_lit(struct cg *g, bool ints)
{
    uint32_t v[4];
    bool same = rnd(g, 2);
    for (unsigned c = 0; c < 4; c++)
        v[c] = c && same ? v[0] : ints ? int_corner(g) : fbits(finite_float(g));
    return lit(g, v[0], v[1], v[2], v[3]);
}

static void rand_swz(struct cg *g, uint8_t swz[4], bool scalar)
{
    unsigned k = rnd(g, 10);
    for (unsigned c = 0; c < 4; c++)
        swz[c] = (uint8_t)c;
    if (k < 4 && !scalar)
        return;
    if (k < 6 || scalar) {
        memset(swz, (int)rnd(g, 4), 4);
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        swz[c] = (uint8_t)rnd(g, 4);
}

static unsigned rand_input(struct cg *g)
{
    if (g->p->stage == US_STAGE_COMPUTE)
        return rnd(g, US_CIN_COUNT);
    return g->inputs[rnd(g, 4)];
}

/* A source for a random instruction `in` (NULL: none yet): its own
 * destination, data, the reserved TEMPs (read only), inputs, the
 * relative array, literals (integers when `ints`). */
static struct us_src rand_src(struct cg *g, const struct us_inst *in,
                              bool ints, bool scalar)
{
    struct us_src s;
    unsigned k = rnd(g, 20);
    if (k < 5 && in && in->dst.file == US_FILE_TEMP)
        s = reg(US_FILE_TEMP, in->dst.index);
    else if (k < 10)
        s = reg(US_FILE_TEMP, rnd(g, RC_DATA));
    else if (k < 11)
        s = reg(US_FILE_TEMP, RC_BASE + rnd(g, RC_TEMPS - RC_BASE));
    else if (k < 14)
        s = reg(US_FILE_INPUT, rand_input(g));
    else if (k < 15 && g->arl) {
        s = reg(US_FILE_PARAM, 0);
        s.rel = true;
        s.rel_offset = (int16_t)((int)rnd(g, 12) - 2);
        s.rel_size = RC_ARRAY;
    } else
        s = rand_lit(g, ints);
    rand_swz(g, s.swz, scalar);
    if (rnd(g, 4) == 0)
        s.negate = 0xf;
    return s;
}

/* ---- Random instructions ---------------------------------------------------- */

static void rand_dst(struct cg *g, struct us_inst *in)
{
    enum us_stage st = g->p->stage;
    if (st != US_STAGE_COMPUTE && rnd(g, 6) == 0) {
        in->dst.file = US_FILE_OUTPUT;
        in->dst.index = (uint16_t)rnd(g, st == US_STAGE_VERTEX
                                             ? US_RAND_VOUT_VARYINGS
                                             : US_FOUT_COUNT);
    } else {
        in->dst.file = US_FILE_TEMP;
        in->dst.index = (uint16_t)rnd(g, RC_DATA);
    }
    in->dst.mask = rnd(g, 3) == 0 ? 0xf : (uint8_t)(1 + rnd(g, 15));
}

/* The datapath opcodes: integer (any I_SRC / I_DST one) and float ones. */
static void collect_ops(struct cg *g)
{
    g->nint = g->nfloat = 0;
    for (unsigned op = 0; op < US_OP_COUNT; op++) {
        const struct us_opinfo *o = &us_ops[op];
        bool data = o->unit == US_UNIT_ALU || o->unit == US_UNIT_SFU ||
                    o->unit == US_UNIT_TEX;
        /* derivatives (US_QUAD) differ between a lone thread and a quad
         * by design, which the cases' lockstep runs would report */
        if (!data || o->format == US_FMT_KIL || o->format == US_FMT_ARL ||
            (o->flags & US_QUAD))
            continue;
        if (o->flags & (US_I_SRC | US_I_DST))
            g->int_ops[g->nint++] = (uint8_t)op;
        else
            g->float_ops[g->nfloat++] = (uint8_t)op;
    }
}

static void rand_op(struct cg *g)
{
    bool ints = rnd(g, 100) < 60;
    unsigned op = ints ? g->int_ops[rnd(g, g->nint)]
                       : g->float_ops[rnd(g, g->nfloat)];
    const struct us_opinfo *o = &us_ops[op];
    struct us_inst *in = emit(g, op);
    rand_dst(g, in);
    in->sat = !(o->flags & US_I_DST) && g->p->stage != US_STAGE_VERTEX &&
              rnd(g, 5) == 0;
    if (o->format == US_FMT_TEX) {
        in->tex_unit = (uint8_t)rnd(g, US_MAX_TEX_UNITS);
        in->tex_target = g->tex_target[in->tex_unit];
    }
    bool isrc = o->flags & US_I_SRC;
    for (unsigned i = 0; i < o->nsrc; i++)
        in->src[i] = rand_src(g, in, isrc, o->format == US_FMT_SCL);
    if (op == US_OP_SWZ) {
        struct us_src *s = &in->src[0];
        for (unsigned c = 0; c < 4; c++)
            if (rnd(g, 4) == 0)
                s->swz[c] = (uint8_t)(US_SWZ_ZERO + rnd(g, 2));
        s->negate = rnd(g, 2) ? (uint8_t)rnd(g, 16) : 0;
    }
    /* division by zero, shifts past the word, odd bit fields: more often */
    if (isrc && o->nsrc >= 2 && rnd(g, 4) == 0)
        in->src[rnd(g, 2)] = rand_lit(g, true);
    /* an integer instruction's own word width (.W8 .W16 .W32) */
    static const uint8_t widths[3] = { 8, 16, 32 };
    if ((o->flags & (US_I_SRC | US_I_DST)) && rnd(g, 6) == 0)
        in->word = widths[rnd(g, 3)];
}

/* ---- Addresses ------------------------------------------------------------- */

static unsigned access_size(enum us_mtype t)
{
    return micro_msize(t);
}

static struct us_src addr_reg(void)
{
    return reg(US_FILE_TEMP, RC_ADDR);
}

/* A = data reduced to 0..room (AND with a power of two - 1, MOD, MIN). */
static void addr_masked(struct cg *g, unsigned room)
{
    struct us_src d = rand_src(g, NULL, true, false);
    unsigned k = rnd(g, 3), m = 1;
    while (2 * m - 1 <= room)
        m *= 2;
    if (k == 0)
        op2(g, US_OP_AND_U, RC_ADDR, 0xf, d, lit1(g, m - 1));
    else if (k == 1)
        op2(g, US_OP_MOD_U, RC_ADDR, 0xf, d, lit1(g, room + 1));
    else
        op2(g, US_OP_MIN_U, RC_ADDR, 0xf, d, lit1(g, room));
}

/* A.c = base + add + off[c], off[c] in 0..room: the same, neighbours
 * (overlapping when wider than a byte), or anything; or masked data. */
static void addr_in(struct cg *g, struct us_src base, uint32_t add,
                    unsigned room)
{
    if (rnd(g, 3) == 0) {
        addr_masked(g, room);
        op2(g, US_OP_ADD_U, RC_ADDR, 0xf, addr_reg(), base);
        if (add)
            op2(g, US_OP_ADD_U, RC_ADDR, 0xf, addr_reg(), lit1(g, add));
        return;
    }
    uint32_t off[4];
    unsigned k = rnd(g, 3), o0 = rnd(g, room + 1);
    for (unsigned c = 0; c < 4; c++) {
        unsigned o = k == 0 ? o0 : k == 1 ? o0 + c : rnd(g, room + 1);
        off[c] = add + (o > room ? room : o);
    }
    op2(g, US_OP_ADD_U, RC_ADDR, 0xf, base,
        lit(g, off[0], off[1], off[2], off[3]));
}

/* Some components of A out of bounds of a `size`-byte space for an access
 * of n bytes: past the end, far away, or straddling the end. */
static void addr_oob(struct cg *g, uint32_t size, unsigned n)
{
    if (rnd(g, 4))
        return;
    uint32_t v[4];
    for (unsigned c = 0; c < 4; c++)
        switch (rnd(g, 5)) {
        case 0: v[c] = size + rnd(g, 64); break;
        case 1: v[c] = 0xffffffffu - rnd(g, 4); break;
        case 2: v[c] = 0x80000000u + rnd(g, 16); break;
        case 3: v[c] = n > 1 ? size - 1 - rnd(g, n - 1) : size; break;
        default: v[c] = size; break;
        }
    unsigned mask = 1 + rnd(g, 15);
    op1(g, US_OP_MOV_U, RC_ADDR, mask, lit(g, v[0], v[1], v[2], v[3]));
}

static unsigned log2u(unsigned x)
{
    unsigned k = 0;
    while ((1u << k) < x)
        k++;
    return k;
}

/* A = ((data & (count - 1)) << log2(stride)) + add: one of `count`
 * strided places (count, stride powers of two). */
static void addr_pick(struct cg *g, unsigned count, unsigned stride,
                      uint32_t add)
{
    op2(g, US_OP_AND_U, RC_ADDR, 0xf, rand_src(g, NULL, true, false),
        lit1(g, count - 1));
    if (stride > 1)
        op2(g, US_OP_SHL_U, RC_ADDR, 0xf, addr_reg(), lit1(g, log2u(stride)));
    op2(g, US_OP_ADD_U, RC_ADDR, 0xf, addr_reg(), lit1(g, add));
}

/* Build the address of an n-byte access to `space` (counter kind `kind`)
 * and return the operand that reads it. */
static struct us_src address(struct cg *g, enum space space, unsigned kind,
                             unsigned n)
{
    const struct us_rlayout *L = g->L;
    struct us_src base = comp(reg(US_FILE_TEMP, RC_BASE), 0);
    unsigned other = g->phase ^ 1;
    switch (space) {
    case SP_PRIV:
        addr_in(g, base, 0, L->region - n);
        addr_oob(g, L->priv_size, n);
        break;
    case SP_RO:
        if (rnd(g, 2))
            return rand_src(g, NULL, true, false);   /* anywhere */
        addr_masked(g, L->ro_size);
        break;
    case SP_NONE:
        return rand_src(g, NULL, true, false);
    case SP_GCTR:
        addr_pick(g, RC_GCTRS, 4, 4 * RC_GCTRS * kind);
        break;
    case SP_SOWN:
        addr_in(g, comp(reg(US_FILE_TEMP, RC_BASE), 1), L->area[g->phase],
                L->slot - n);
        addr_oob(g, g->p->shared_bytes, n);
        break;
    case SP_SREAD:
        if (rnd(g, 3))   /* any thread's slot of the other area */
            addr_pick(g, g->group, L->slot,
                      L->area[other] + rnd(g, L->slot - n + 1));
        else             /* the other area's counters */
            addr_pick(g, RC_KINDS * RC_SCTRS, 4,
                      L->ctr_area[other] + rnd(g, 4 - n + 1));
        addr_oob(g, g->p->shared_bytes, n);
        break;
    case SP_SCTR:
        addr_pick(g, RC_SCTRS, 4, L->ctr_area[g->phase] + 4 * RC_SCTRS * kind);
        break;
    }
    struct us_src a = addr_reg();
    rand_swz(g, a.swz, false);
    return a;
}

/* ---- Memory ------------------------------------------------------------------ */

static unsigned binding(const struct cg *g, enum space space)
{
    switch (space) {
    case SP_PRIV: return g->L->priv;
    case SP_RO: return g->L->ro;
    case SP_NONE: return g->L->none;
    case SP_GCTR: return g->L->ctr;
    default: return 0;   /* shared memory */
    }
}

/* One LOAD / STORE / ATOM (or shared form) to `space`. */
static void access(struct cg *g, enum us_opcode op, enum space space)
{
    enum us_op_format f = us_ops[op].format;
    bool counter = space == SP_GCTR || space == SP_SCTR;
    unsigned kind = rnd(g, RC_KINDS), aop = 0, mt;
    if (f == US_FMT_ATOM && counter) {
        aop = kinds[kind].op;
        mt = kinds[kind].mtype;
        if (aop != US_ATOM_MIN && aop != US_ATOM_MAX && rnd(g, 2))
            mt = US_MT_S32;   /* the sign does not matter to these */
    } else if (f == US_FMT_ATOM) {
        aop = rnd(g, US_ATOM_COUNT);
        mt = rnd(g, 2) ? US_MT_U32 : US_MT_S32;
    } else {
        mt = rnd(g, US_MT_COUNT);
    }
    struct us_src a = address(g, space, kind, f == US_FMT_ATOM ? 4
                                                : access_size(mt));
    struct us_src value = rand_src(g, NULL, true, false), compare = { 0 };
    if (aop == US_ATOM_CSWAP)
        compare = rand_src(g, NULL, true, false);
    struct us_inst *in = emit(g, op);
    in->mtype = (uint8_t)mt;
    in->sub = (uint8_t)aop;
    in->tex_unit = (uint8_t)binding(g, space);
    in->src[0] = a;
    if (f == US_FMT_STORE) {
        in->dst.file = US_FILE_NULL;
        in->dst.mask = (uint8_t)(1 + rnd(g, 15));
        in->src[1] = value;
        return;
    }
    in->dst.file = US_FILE_TEMP;
    in->dst.index = (uint16_t)rnd(g, RC_DATA);
    in->dst.mask = (uint8_t)(1 + rnd(g, 15));
    if (f == US_FMT_ATOM) {
        in->src[1] = value;
        in->src[2] = compare;
    }
    if (!counter || f != US_FMT_ATOM)
        return;
    /* the old value depends on the order of the threads: overwrite it */
    struct us_dst d = in->dst;
    struct us_src s;
    do
        s = rand_src(g, NULL, true, false);
    while (s.file == US_FILE_TEMP && s.index == d.index);
    op1(g, US_OP_MOV_U, d.index, d.mask, s);
}

static void mem_stmt(struct cg *g)
{
    static const struct { uint8_t op, space; } forms[] = {
        { US_OP_LOAD, SP_PRIV }, { US_OP_LOAD, SP_RO }, { US_OP_STORE, SP_PRIV },
        { US_OP_ATOM, SP_PRIV }, { US_OP_ATOM, SP_GCTR }, { US_OP_LOAD, SP_NONE },
        { US_OP_STORE, SP_NONE }, { US_OP_ATOM, SP_NONE },
        /* compute programs only: */
        { US_OP_LDS, SP_SOWN }, { US_OP_LDS, SP_SREAD }, { US_OP_STS, SP_SOWN },
        { US_OP_ATOMS, SP_SOWN }, { US_OP_ATOMS, SP_SCTR },
    };
    unsigned n = g->p->stage == US_STAGE_COMPUTE ? 13 : 8;
    unsigned k = rnd(g, n);
    access(g, forms[k].op, forms[k].space);
}

/* ---- Control flow ------------------------------------------------------------ */

static void stmts(struct cg *g, const struct ctx *cx);

static struct ctx inner(const struct ctx *cx)
{
    struct ctx c = *cx;
    c.depth++;
    return c;
}

/* An even number of BARs in a uniform body: add one if it had an odd
 * number, so the phase after it is the phase before. */
static void fix_phase(struct cg *g, unsigned phase)
{
    if (g->phase != phase) {
        emit(g, US_OP_BAR);
        g->phase = phase;
    }
}

/* Write the own slot, BAR, read a neighbour's: what barriers are for. */
static void bar_stmt(struct cg *g)
{
    if (rnd(g, 2))
        access(g, US_OP_STS, SP_SOWN);
    emit(g, US_OP_BAR);
    g->phase ^= 1;
    if (rnd(g, 2))
        access(g, US_OP_LDS, SP_SREAD);
}

/* BRA to `label`: on a condition of launch-uniform constants, of data
 * (lane-divergent), or (1 in 8) always. */
static void bra(struct cg *g, bool uniform, unsigned label)
{
    struct us_src a = uniform ? comp(lit1(g, int_corner(g)), 0)
                              : rand_src(g, NULL, true, true);
    struct us_src b = uniform || rnd(g, 2) ? comp(lit1(g, int_corner(g)), 0)
                                           : rand_src(g, NULL, true, true);
    struct us_inst *in = emit(g, US_OP_BRA);
    in->target = (uint16_t)label;
    if (rnd(g, 8) == 0)
        return;
    in->sub = (uint8_t)(1 + rnd(g, US_COND_COUNT - 1));
    in->src[0] = a;
    in->src[1] = b;
}

static void if_stmt(struct cg *g, const struct ctx *cx)
{
    bool uni = cx->uniform && rnd(g, 2) == 0;
    struct us_src cond = uni ? comp(lit1(g, fbits(rnd(g, 2) ? 0.0f : 1.0f)), 0)
                             : rand_src(g, NULL, false, true);
    emit(g, US_OP_IF)->src[0] = cond;
    struct ctx c = inner(cx);
    c.uniform = uni;
    c.exit = -1;
    unsigned phase = g->phase;
    stmts(g, &c);
    if (uni)
        fix_phase(g, phase);
    if (rnd(g, 2)) {
        emit(g, US_OP_ELSE);
        stmts(g, &c);
        if (uni)
            fix_phase(g, phase);
    }
    emit(g, US_OP_ENDIF);
}

/* A structured loop of 0-4 trips:
 *     MOV cnt.x, 0;  MOV cnt.y, n  (or AND.U + I2F.U of data: 0-3)
 *     BGNLOOP; ADD cnt.x, cnt.x, 1; SGT cnt.z, cnt.x, cnt.y;
 *     IF cnt.z; BRK; ENDIF; body; ENDLOOP */
static void sloop(struct cg *g, const struct ctx *cx)
{
    bool uni = cx->uniform && rnd(g, 2);
    unsigned lp = RC_LOOP + cx->loops;
    struct us_src cnt = reg(US_FILE_TEMP, lp);
    op1(g, US_OP_MOV, lp, 1, lit1(g, fbits(0.0f)));
    if (uni) {
        op1(g, US_OP_MOV, lp, 2, lit1(g, fbits((float)rnd(g, 5))));
    } else {
        op2(g, US_OP_AND_U, lp, 2, rand_src(g, NULL, true, true), lit1(g, 3));
        op1(g, US_OP_I2F_U, lp, 2, comp(cnt, 1));
    }
    emit(g, US_OP_BGNLOOP);
    op2(g, US_OP_ADD, lp, 1, comp(cnt, 0), lit1(g, fbits(1.0f)));
    op2(g, US_OP_SGT, lp, 4, comp(cnt, 0), comp(cnt, 1));
    emit(g, US_OP_IF)->src[0] = comp(cnt, 2);
    emit(g, US_OP_BRK);
    emit(g, US_OP_ENDIF);
    struct ctx c = inner(cx);
    c.loops++;
    c.uniform = uni;
    c.brk = !uni;
    c.exit = -1;
    unsigned phase = g->phase;
    stmts(g, &c);
    if (uni)
        fix_phase(g, phase);
    emit(g, US_OP_ENDLOOP);
}

/* BRA around a body (and an else body). */
static void bra_if(struct cg *g, const struct ctx *cx)
{
    bool uni = cx->uniform && rnd(g, 2) == 0;
    unsigned skip = new_label(g);
    bra(g, uni, skip);
    struct ctx c = inner(cx);
    c.uniform = uni;
    c.brk = false;
    unsigned phase = g->phase;
    stmts(g, &c);
    if (uni)
        fix_phase(g, phase);
    if (rnd(g, 2)) {
        unsigned end = new_label(g);
        emit(g, US_OP_BRA)->target = (uint16_t)end;
        place(g, skip);
        stmts(g, &c);
        if (uni)
            fix_phase(g, phase);
        place(g, end);
    } else {
        place(g, skip);
    }
}

/* A loop of branches, 0-4 trips (do-while: at least one):
 *     MOV.U cnt.x, 0;  MOV.U cnt.y, n  (or AND.U of data: 0-3)
 *     [BRA test;]  top: body; ADD.U cnt.x, cnt.x, 1;
 *     [test:] BRA.LT.U top, cnt.x, cnt.y;  exit:
 * A divergent one may be left by BRAs to exit. */
static void bra_loop(struct cg *g, const struct ctx *cx)
{
    bool uni = cx->uniform && rnd(g, 2);
    unsigned lp = RC_LOOP + cx->loops;
    struct us_src cnt = reg(US_FILE_TEMP, lp);
    op1(g, US_OP_MOV_U, lp, 1, lit1(g, 0));
    if (uni)
        op1(g, US_OP_MOV_U, lp, 2, lit1(g, rnd(g, 5)));
    else
        op2(g, US_OP_AND_U, lp, 2, rand_src(g, NULL, true, true), lit1(g, 3));
    unsigned top = new_label(g), exit = new_label(g), test = RC_END;
    bool pre = rnd(g, 2);
    if (pre) {
        test = new_label(g);
        emit(g, US_OP_BRA)->target = (uint16_t)test;
    }
    place(g, top);
    struct ctx c = inner(cx);
    c.loops++;
    c.uniform = uni;
    c.brk = false;
    c.exit = uni ? -1 : (int)exit;
    unsigned phase = g->phase;
    stmts(g, &c);
    if (uni)
        fix_phase(g, phase);
    op2(g, US_OP_ADD_U, lp, 1, comp(cnt, 0), lit1(g, 1));
    if (pre)
        place(g, test);
    unsigned form = rnd(g, 3);
    struct us_inst *in = emit(g, US_OP_BRA);
    in->target = (uint16_t)top;
    in->sub = form == 0 ? US_COND_LT_U : form == 1 ? US_COND_GT_U : US_COND_LT_S;
    in->src[0] = comp(cnt, form == 1 ? 1 : 0);
    in->src[1] = comp(cnt, form == 1 ? 0 : 1);
    place(g, exit);
}

static void stmt(struct cg *g, const struct ctx *cx)
{
    bool cp = g->p->stage == US_STAGE_COMPUTE;
    unsigned pick = rnd(g, 100);
    if (cx->depth >= RC_DEPTH && pick >= 70)
        pick = rnd(g, 70);
    if (pick < 38) {
        rand_op(g);
        g->budget--;
    } else if (pick < 58) {
        mem_stmt(g);
        g->budget--;
    } else if (pick < 60) {
        emit(g, rnd(g, 2) ? US_OP_MEMBAR : US_OP_SYNC);
    } else if (pick < 65 && cp && cx->uniform && !g->no_bar) {
        bar_stmt(g);
    } else if (pick < 67 && g->arl) {
        struct us_inst *in;
        struct us_src s = rnd(g, 4) ? comp(lit1(g, fbits((float)rnd(g, 8) +
                                                         0.5f)), 0)
                                    : rand_src(g, NULL, false, true);
        in = emit(g, US_OP_ARL);
        in->dst = (struct us_dst){ .file = US_FILE_ADDRESS, .mask = 1 };
        in->src[0] = s;
    } else if (pick < 70 && g->p->stage == US_STAGE_FRAGMENT) {
        struct us_src s = rand_src(g, NULL, false, false);
        emit(g, US_OP_KIL)->src[0] = s;
    } else if (pick < 70) {
        rand_op(g);
    } else if (pick < 76) {
        if_stmt(g, cx);
    } else if (pick < 80 && cx->loops < RC_LOOPS) {
        sloop(g, cx);
    } else if (pick < 87) {
        bra_if(g, cx);
    } else if (pick < 92 && cx->loops < RC_LOOPS) {
        bra_loop(g, cx);
    } else if (pick < 95 && cx->brk) {
        struct us_src s = rand_src(g, NULL, false, true);
        emit(g, US_OP_IF)->src[0] = s;
        emit(g, rnd(g, 2) ? US_OP_BRK : US_OP_CONT);
        emit(g, US_OP_ENDIF);
    } else if (pick < 97 && cx->exit >= 0) {
        bra(g, false, (unsigned)cx->exit);
    } else if (pick < 98 && cx->depth == 0) {
        bra(g, false, RC_END);   /* some lanes end here */
        g->no_bar = true;
    } else {
        rand_op(g);
    }
}

static void stmts(struct cg *g, const struct ctx *cx)
{
    unsigned n = 1 + rnd(g, 4);
    for (unsigned k = 0; k < n && g->budget && !g->oom &&
                         g->p->ninsts < RC_MAX_INSTS; k++)
        stmt(g, cx);
}

/* ---- The program ------------------------------------------------------------- */

/* Thread index, bases and first data. */
static void prologue(struct cg *g)
{
    const struct us_rlayout *L = g->L;
    struct us_src b = reg(US_FILE_TEMP, RC_BASE);
    if (g->p->stage == US_STAGE_COMPUTE) {
        /* index = globalid.x + W * (globalid.y + H * globalid.z),
         * W, H the launch's width and height in work-items */
        struct us_src gid = reg(US_FILE_INPUT, US_CIN_GLOBALID);
        struct us_src cnt = reg(US_FILE_INPUT, US_CIN_GROUPCOUNT);
        struct us_src size = reg(US_FILE_INPUT, US_CIN_GROUPSIZE);
        op2(g, US_OP_MUL_U, RC_BASE, 8, comp(cnt, 0), comp(size, 0));
        op2(g, US_OP_MUL_U, RC_BASE, 4, comp(cnt, 1), comp(size, 1));
        op2(g, US_OP_MUL_U, RC_BASE, 4, comp(b, 2), comp(gid, 2));
        op2(g, US_OP_ADD_U, RC_BASE, 4, comp(b, 2), comp(gid, 1));
        op2(g, US_OP_MUL_U, RC_BASE, 4, comp(b, 2), comp(b, 3));
        op2(g, US_OP_ADD_U, RC_BASE, 4, comp(b, 2), comp(gid, 0));
        op2(g, US_OP_SHL_U, RC_BASE, 2,
            comp(reg(US_FILE_INPUT, US_CIN_LOCALINDEX), 0),
            lit1(g, log2u(L->slot)));
    } else {
        op1(g, US_OP_MOV_U, RC_BASE, 4, comp(reg(US_FILE_INPUT, L->id_input), 0));
    }
    op2(g, US_OP_SHL_U, RC_BASE, 1, comp(b, 2), lit1(g, log2u(L->region)));
    /* data that differs between threads: the read-only buffer at the
     * index, the index as a float */
    op2(g, US_OP_SHL_U, RC_ADDR, 0xf, comp(b, 2), lit1(g, 2));
    op2(g, US_OP_ADD_U, RC_ADDR, 0xf, reg(US_FILE_TEMP, RC_ADDR),
        lit(g, 0, 1, 2, 3));
    struct us_inst *in = op1(g, US_OP_LOAD, 1, 0xf, reg(US_FILE_TEMP, RC_ADDR));
    in->mtype = US_MT_U32;
    in->tex_unit = L->ro;
    op1(g, US_OP_I2F_U, 0, 0xf, comp(b, 2));
}

/* The sources of `in` in the order the text spells them. */
static unsigned text_order(const struct us_inst *in, unsigned order[3])
{
    const struct us_opinfo *o = &us_ops[in->op];
    if (o->format == US_FMT_BRA && in->sub == US_COND_ALWAYS)
        return 0;
    if (o->format == US_FMT_ATOM) {
        order[0] = 0;
        order[1] = in->sub == US_ATOM_CSWAP ? 2 : 1;
        order[2] = 1;
        return in->sub == US_ATOM_CSWAP ? 3 : 2;
    }
    for (unsigned i = 0; i < o->nsrc; i++)
        order[i] = i;
    return o->nsrc;
}

/* In-place literals renumbered as the assembler numbers them: in text
 * order of first use, equal ones sharing a slot; the relative array
 * (slots 0..narr-1) first. */
static bool canon_params(struct us_program *p, unsigned narr)
{
    struct us_param *np = malloc((p->nparams + 1) * sizeof *np);
    uint32_t *map = malloc((p->nparams + 1) * sizeof *map);
    if (!np || !map) {
        free(np);
        free(map);
        return false;
    }
    memcpy(np, p->params, narr * sizeof *np);
    for (unsigned i = 0; i < p->nparams; i++)
        map[i] = i < narr ? i : UINT32_MAX;
    unsigned n = narr;
    for (unsigned i = 0; i < p->ninsts; i++) {
        unsigned order[3], k = text_order(&p->insts[i], order);
        for (unsigned j = 0; j < k; j++) {
            struct us_src *s = &p->insts[i].src[order[j]];
            if (s->file != US_FILE_PARAM || s->rel)
                continue;
            unsigned old = s->index;
            for (unsigned q = narr; q < n && map[old] == UINT32_MAX; q++)
                if (!memcmp(np[q].value, p->params[old].value,
                            sizeof np[q].value))
                    map[old] = q;
            if (map[old] == UINT32_MAX) {
                np[n] = p->params[old];
                map[old] = n++;
            }
            s->index = (uint16_t)map[old];
        }
    }
    free(p->params);
    free(map);
    p->params = np;
    p->nparams = n;
    return true;
}

static bool add_decl(struct us_program *p, const char *name,
                     enum us_decl_kind kind, unsigned base, unsigned size)
{
    struct us_decl *d = realloc(p->decls, (p->ndecls + 1) * sizeof *d);
    if (!d)
        return false;
    p->decls = d;
    d = &d[p->ndecls++];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->kind = (uint8_t)kind;
    d->base = (uint16_t)base;
    d->size = (uint16_t)size;
    d->array = kind == US_DECL_PARAM;
    return true;
}

/* Labels to targets, literals numbered, declarations, the bits the
 * assembler derives, the flow links. */
static bool finish(struct cg *g)
{
    struct us_program *p = g->p;
    for (unsigned i = 0; i < p->ninsts; i++) {
        struct us_inst *in = &p->insts[i];
        if (in->op == US_OP_BRA)
            in->target = (uint16_t)(in->target == RC_END ? p->ninsts
                                                         : g->labels[in->target]);
        if (in->dst.file == US_FILE_OUTPUT)
            p->outputs_written |= 1ull << in->dst.index;
        enum us_op_format f = us_ops[in->op].format;
        if ((f == US_FMT_LOAD || f == US_FMT_STORE || f == US_FMT_ATOM) &&
            in->op != US_OP_LDS && in->op != US_OP_STS && in->op != US_OP_ATOMS)
            p->buffers_used |= 1u << in->tex_unit;
        unsigned order[3], k = text_order(in, order);
        for (unsigned j = 0; j < k; j++)
            if (in->src[order[j]].file == US_FILE_INPUT)
                p->inputs_read |= 1ull << in->src[order[j]].index;
    }
    /* source instructions of several IR ones ("|" groups): never after
     * flow control or a barrier, never at a BRA target */
    uint8_t *target = calloc(p->ninsts + 1, 1);
    if (!target)
        return false;
    for (unsigned i = 0; i < p->ninsts; i++)
        if (p->insts[i].op == US_OP_BRA)
            target[p->insts[i].target] = 1;
    for (unsigned i = 1; i < p->ninsts; i++) {
        enum us_unit u = us_ops[p->insts[i - 1].op].unit;
        p->insts[i].joined = u != US_UNIT_BRANCH && u != US_UNIT_BARRIER &&
                             !target[i] && rnd(g, 5) == 0;
    }
    free(target);
    if (!canon_params(p, g->arl ? RC_ARRAY : 0))
        return false;
    bool ok = true;
    for (unsigned i = 0; i < RC_TEMPS && ok; i++) {
        char name[8];
        snprintf(name, sizeof name, "R%u", i);
        ok = add_decl(p, name, US_DECL_TEMP, i, 1);
    }
    p->ntemps = RC_TEMPS;
    if (g->arl && ok) {
        ok = add_decl(p, "A0", US_DECL_ADDRESS, 0, 1) &&
             add_decl(p, "arr", US_DECL_PARAM, 0, RC_ARRAY);
        for (unsigned i = 0; i < RC_ARRAY; i++)
            p->params[i].decl = (int16_t)(p->ndecls - 1);
        p->naddrs = 1;
    }
    struct us_diag d;
    return ok && us_flow_build(p, &p->flow, &d);
}

static bool gen_program(struct us_rng *r, const struct us_rlayout *L,
                        enum us_stage stage, unsigned word, unsigned group,
                        unsigned size, struct us_program *p)
{
    struct cg g = { .r = r, .p = p, .L = L, .word = word, .group = group,
                    .budget = size ? size : 1 };
    collect_ops(&g);
    g.arl = rnd(&g, 3) == 0;
    for (unsigned u = 0; u < US_MAX_TEX_UNITS; u++)
        g.tex_target[u] = (uint8_t)rnd(&g, US_TEX_RECT + 1);
    if (stage != US_STAGE_COMPUTE) {
        /* vertex: generic attributes only (a program may not bind one and
         * the conventional attribute it aliases) */
        bool vp = stage == US_STAGE_VERTEX;
        unsigned nin = vp ? US_VIN_POSITION : US_RAND_FIN_COUNT;
        g.inputs[0] = L->id_input;
        for (unsigned i = 1; i < 4; i++) {
            unsigned k = rnd(&g, nin);
            g.inputs[i] = (uint8_t)(vp ? k : us_rand_fin(k));
        }
    }
    if (g.arl)   /* the relatively read array: slots 0..7 */
        for (unsigned i = 0; i < RC_ARRAY; i++) {
            uint32_t v[4];
            for (unsigned c = 0; c < 4; c++)
                v[c] = fbits(finite_float(&g));
            new_param(&g, v);
        }
    new_label(&g);   /* RC_END */
    prologue(&g);
    struct ctx top = { .uniform = true, .exit = -1 };
    while (g.budget && !g.oom && p->ninsts < RC_MAX_INSTS)
        stmt(&g, &top);
    bool ok = !g.oom && finish(&g);
    free(g.labels);
    return ok;
}

/* ---- Cases ----------------------------------------------------------------- */

static void random_bytes(struct us_rng *r, struct us_buffer *b, uint32_t size)
{
    b->size = size;
    b->data = malloc(size ? size : 1);
    if (b->data)
        for (uint32_t i = 0; i < size; i++)
            b->data[i] = (uint8_t)us_rng_next(r);
}

/* Powers of two x y z with product 2^lg. */
static void split(struct us_rng *r, unsigned lg, unsigned out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (unsigned i = 0; i < lg; i++)
        out[us_rng_below(r, 3)] *= 2;
}

static void lane_sample(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4], float lod_bias, float out[4])
{
    (void)ctx;
    for (unsigned c = 0; c < 4; c++)
        out[c] = coord[(c + target) & 3] * (float)(unit + 2) + lod_bias +
                 (float)c * 0.25f;
}

static void lane_sample_quad(void *ctx, unsigned unit,
                             enum us_tex_target target,
                             const float coord[4][4], const float lod_bias[4],
                             float out[4][4])
{
    for (unsigned q = 0; q < 4; q++)
        lane_sample(ctx, unit, target, coord[q], lod_bias[q], out[q]);
}

void us_rcase_free(struct us_rcase *c)
{
    us_program_free(&c->prog);
    free(c->init);
    free(c->params);
    for (unsigned i = 0; i < US_MAX_BUFFERS; i++)
        free(c->mem.buf[i].data);
    memset(c, 0, sizeof *c);
}

bool us_random_case(struct us_rng *r, enum us_stage stage, unsigned size,
                    struct us_rcase *c)
{
    memset(c, 0, sizeof *c);
    struct us_program *p = &c->prog;
    struct us_rlayout *L = &c->layout;
    unsigned k = us_rng_below(r, 10);
    unsigned word = k < 6 ? 32 : k < 8 ? 16 : 8;
    unsigned group = 1, gs[3] = { 1, 1, 1 };
    c->groups[0] = c->groups[1] = c->groups[2] = 1;
    if (stage == US_STAGE_COMPUTE) {
        /* addresses are integer results: with 8-bit words every offset
         * must stay below 256, so small groups and launches */
        unsigned lg = us_rng_below(r, word == 8 ? 3 : 5);
        group = 1u << lg;
        split(r, lg, gs);
        unsigned most = US_RCASE_MAX_THREADS / group;
        c->groups[0] = 1 + us_rng_below(r, most);
        c->groups[1] = 1 + us_rng_below(r, most / c->groups[0]);
        c->groups[2] = 1 + us_rng_below(r, most / (c->groups[0] * c->groups[1]));
        c->nthreads = group * c->groups[0] * c->groups[1] * c->groups[2];
    } else {
        c->nthreads = 4 * (1 + us_rng_below(r, 2));
    }
    for (unsigned i = 0; i < 4; i++) {   /* four distinct bindings */
        uint8_t b;
        bool taken;
        do {
            b = (uint8_t)us_rng_below(r, US_MAX_BUFFERS);
            taken = (i > 0 && b == L->priv) || (i > 1 && b == L->ro) ||
                    (i > 2 && b == L->ctr);
        } while (taken);
        *(i == 0 ? &L->priv : i == 1 ? &L->ro : i == 2 ? &L->ctr : &L->none) = b;
    }
    L->region = word == 8 || us_rng_below(r, 2) ? 16 : 32;
    L->priv_size = c->nthreads * L->region;
    L->ro_size = 64 + us_rng_below(r, 64);
    L->ctr_size = 4 * RC_KINDS * RC_GCTRS;
    L->slot = RC_SLOT;
    L->area[0] = 0;
    L->area[1] = group * RC_SLOT;
    L->ctr_area[0] = 2 * group * RC_SLOT;
    L->ctr_area[1] = L->ctr_area[0] + 4 * RC_KINDS * RC_SCTRS;
    unsigned id_k = us_rng_below(r, stage == US_STAGE_VERTEX
                                        ? US_VIN_POSITION : US_RAND_FIN_COUNT);
    L->id_input = (uint8_t)(stage == US_STAGE_VERTEX ? id_k
                                                     : us_rand_fin(id_k));

    p->stage = stage;
    p->options = US_OPT_USHADER_EXTENSIONS |
                 (word == 16 ? US_OPT_WORD16 : word == 8 ? US_OPT_WORD8 : 0);
    p->word_bits = (uint8_t)(word == 32 ? 0 : word);
    if (stage == US_STAGE_COMPUTE) {
        for (unsigned d = 0; d < 3; d++)
            p->group_size[d] = (uint16_t)gs[d];
        p->shared_bytes = L->ctr_area[1] + 4 * RC_KINDS * RC_SCTRS +
                          us_rng_below(r, 8);
    }
    bool ok = gen_program(r, L, stage, word, group, size, p);

    c->init = ok ? calloc(c->nthreads, sizeof *c->init) : NULL;
    c->params = ok ? calloc(p->nparams + 1, sizeof *c->params) : NULL;
    ok = ok && c->init && c->params;
    if (ok) {
        for (unsigned i = 0; i < p->nparams; i++)
            memcpy(c->params[i], p->params[i].value, sizeof c->params[i]);
        random_bytes(r, &c->mem.buf[L->priv], L->priv_size);
        random_bytes(r, &c->mem.buf[L->ro], L->ro_size);
        random_bytes(r, &c->mem.buf[L->ctr], L->ctr_size);
        for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
            ok = ok && (b == L->none || !c->mem.buf[b].size ||
                        c->mem.buf[b].data);
    }
    for (unsigned i = 0; ok && i < c->nthreads; i++) {
        struct us_thread *t = &c->init[i];
        if (stage == US_STAGE_COMPUTE) {
            us_compute_thread(p, c->groups, i, t);
        } else {
            us_random_thread(r, t);
            uint32_t id = i;
            memcpy(&t->input[L->id_input][0], &id, sizeof id);
        }
    }
    if (!ok)
        us_rcase_free(c);
    return ok;
}

/* ---- Runs --------------------------------------------------------------------- */

void us_rrun_free(struct us_rrun *run)
{
    free(run->threads);
    for (unsigned i = 0; i < US_MAX_BUFFERS; i++)
        free(run->mem.buf[i].data);
    memset(run, 0, sizeof *run);
}

bool us_rrun_init(const struct us_rcase *c, struct us_rrun *run)
{
    memset(run, 0, sizeof *run);
    run->threads = malloc(c->nthreads * sizeof *run->threads);
    bool ok = run->threads != NULL;
    if (ok)
        memcpy(run->threads, c->init, c->nthreads * sizeof *run->threads);
    for (unsigned i = 0; i < US_MAX_BUFFERS && ok; i++) {
        const struct us_buffer *b = &c->mem.buf[i];
        if (!b->data)
            continue;
        run->mem.buf[i].size = b->size;
        run->mem.buf[i].data = malloc(b->size ? b->size : 1);
        ok = run->mem.buf[i].data != NULL;
        if (ok)
            memcpy(run->mem.buf[i].data, b->data, b->size);
    }
    run->env = (struct us_exec_env){ .params = (const us_vec4 *)c->params,
                                     .math = &us_math_exact,
                                     .sample = lane_sample,
                                     .sample_quad = lane_sample_quad,
                                     .max_insts = US_RCASE_BUDGET,
                                     .mem = &run->mem };
    if (!ok)
        us_rrun_free(run);
    return ok;
}

void us_rrun_workload(const struct us_rcase *c, struct us_rrun *run,
                      struct us_workload *w)
{
    *w = (struct us_workload){ &c->prog, &run->env, run->threads,
                               c->nthreads, NULL, NULL };
}

bool us_rrun_reference(const struct us_rcase *c, struct us_rrun *run,
                       struct us_diag *diag)
{
    if (c->prog.stage == US_STAGE_COMPUTE)
        return us_compute_interpret(&c->prog, &run->env, c->groups,
                                    run->threads, diag);
    for (unsigned i = 0; i < c->nthreads; i++) {
        us_interpret(&c->prog, &run->env, &run->threads[i]);
        if (run->threads[i].overrun)
            return us_budget_error(&run->env, i, diag);
    }
    return true;
}

__attribute__((format(printf, 3, 4)))
static bool differ(char *why, size_t size, const char *fmt, ...)
{
    if (size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, size, fmt, ap);
        va_end(ap);
    }
    return false;
}

bool us_rrun_same(const struct us_rcase *c, const struct us_rrun *want,
                  const struct us_rrun *got, char *why, size_t size)
{
    for (unsigned i = 0; i < c->nthreads; i++) {
        const struct us_thread *a = &want->threads[i], *b = &got->threads[i];
        for (unsigned r = 0; r < US_MAX_TEMPS; r++)
            if (memcmp(a->temp[r], b->temp[r], sizeof a->temp[r]))
                return differ(why, size, "thread %u: TEMP %u differs", i, r);
        for (unsigned r = 0; r < US_MAX_OUTPUTS; r++)
            if (memcmp(a->output[r], b->output[r], sizeof a->output[r]))
                return differ(why, size, "thread %u: output %u differs", i, r);
        if (memcmp(a->addr, b->addr, sizeof a->addr))
            return differ(why, size, "thread %u: address register differs", i);
        if (a->killed != b->killed || a->overrun != b->overrun)
            return differ(why, size, "thread %u: killed or overrun differs", i);
    }
    for (unsigned k = 0; k < US_MAX_BUFFERS; k++) {
        const struct us_buffer *a = &want->mem.buf[k], *b = &got->mem.buf[k];
        if (a->size != b->size)
            return differ(why, size, "buffer %u: %u bytes, not %u", k,
                          b->size, a->size);
        for (uint32_t i = 0; i < a->size; i++)
            if (a->data[i] != b->data[i])
                return differ(why, size, "buffer %u differs at byte %u", k, i);
    }
    const struct us_mem_counts *x = &want->mem.counts, *y = &got->mem.counts;
    if (x->loads != y->loads || x->stores != y->stores ||
        x->atomics != y->atomics || x->bytes != y->bytes || x->oob != y->oob)
        return differ(why, size, "memory counts differ: %llu %llu %llu %llu "
                      "%llu loads, stores, atomics, bytes, out of bounds, not "
                      "%llu %llu %llu %llu %llu",
                      (unsigned long long)y->loads, (unsigned long long)y->stores,
                      (unsigned long long)y->atomics, (unsigned long long)y->bytes,
                      (unsigned long long)y->oob, (unsigned long long)x->loads,
                      (unsigned long long)x->stores, (unsigned long long)x->atomics,
                      (unsigned long long)x->bytes, (unsigned long long)x->oob);
    return true;
}
