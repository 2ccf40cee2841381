/*
 * Random vec4 programs and register contents for property tests: every
 * model must give the interpreter's bits on them.  Programs are valid IR
 * (what the assembler could produce) but deliberately nasty: destinations
 * that are also sources, arbitrary swizzles and masks, negation, _SAT,
 * SWZ's 0/1, relative addressing inside and outside its array, and special
 * values (+-0, +-inf, NaN, subnormals) in the inputs and constants.
 * us_random_flow_program adds structured flow control around them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

uint64_t us_rng_next(struct us_rng *r)
{
    /* xorshift64* (Vigna); a zero state would stick at zero */
    if (!r->s)
        r->s = 0x9e3779b97f4a7c15ull;
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545f4914f6cdd1dull;
}

unsigned us_rng_below(struct us_rng *r, unsigned n)
{
    return n ? (unsigned)((us_rng_next(r) >> 32) % n) : 0;
}

float us_random_float(struct us_rng *r)
{
    unsigned k = us_rng_below(r, 100);
    if (k < 55)   /* ordinary values around the interesting range */
        return ((float)us_rng_below(r, 1u << 24) / (float)(1u << 24) - 0.5f) * 8.0f;
    if (k < 70)
        return (float)((int)us_rng_below(r, 7) - 3);
    if (k < 74)
        return us_rng_below(r, 2) ? 0.0f : -0.0f;
    if (k < 77)
        return us_rng_below(r, 2) ? INFINITY : -INFINITY;
    if (k < 79)
        return NAN;
    if (k < 82)   /* subnormal */
        return ldexpf((float)(us_rng_below(r, 1000) + 1), -140) *
               (us_rng_below(r, 2) ? 1.0f : -1.0f);
    if (k < 90)   /* large */
        return ldexpf((float)us_rng_below(r, 1u << 20) + 1.0f, (int)us_rng_below(r, 100)) *
               (us_rng_below(r, 2) ? 1.0f : -1.0f);
    /* any bit pattern except NaN payloads other than the default */
    uint32_t bits = (uint32_t)us_rng_next(r);
    float f;
    memcpy(&f, &bits, sizeof f);
    return isnan(f) ? NAN : f;
}

void us_random_thread(struct us_rng *r, struct us_thread *t)
{
    us_thread_reset(t);
    for (unsigned i = 0; i < 8; i++)
        for (unsigned c = 0; c < 4; c++)
            t->temp[i][c] = us_random_float(r);
    for (unsigned i = 0; i < US_RAND_THREAD_INPUTS; i++)
        for (unsigned c = 0; c < 4; c++)
            t->input[i][c] = us_random_float(r);
    memcpy(t->input[US_FIN_FACING], t->input[US_RAND_FIN_COUNT - 1],
           sizeof t->input[0]);
}

enum {
    RP_TEMPS = 6,
    RP_CONSTS = 16,          /* params 0..15                             */
    RP_ARRAY = 4,            /* params 4..11: the relative-read array    */
    RP_ARRAY_SIZE = 8,
    RP_INPUTS = 4,
};

struct gen {
    struct us_rng *r;
    enum us_stage stage;
    struct us_program *p;
    uint8_t inputs[RP_INPUTS];
};

static void random_swizzle(struct gen *g, uint8_t swz[4], bool scalar)
{
    unsigned k = us_rng_below(g->r, 10);
    for (unsigned c = 0; c < 4; c++)
        swz[c] = (uint8_t)c;
    if (k < 4 && !scalar)
        return;
    if (k < 6 || scalar) {
        uint8_t s = (uint8_t)us_rng_below(g->r, 4);
        swz[0] = swz[1] = swz[2] = swz[3] = s;
        return;
    }
    for (unsigned c = 0; c < 4; c++)
        swz[c] = (uint8_t)us_rng_below(g->r, 4);
}

static void random_src(struct gen *g, struct us_src *s, const struct us_inst *in,
                       bool scalar)
{
    memset(s, 0, sizeof *s);
    unsigned k = us_rng_below(g->r, 10);
    if (k < 3 && in->dst.file == US_FILE_TEMP) {        /* alias the dst */
        s->file = US_FILE_TEMP;
        s->index = in->dst.index;
    } else if (k < 6) {
        s->file = US_FILE_TEMP;
        s->index = (uint16_t)us_rng_below(g->r, RP_TEMPS);
    } else if (k < 8) {
        s->file = US_FILE_INPUT;
        s->index = g->inputs[us_rng_below(g->r, RP_INPUTS)];
        g->p->inputs_read |= 1ull << s->index;
    } else {
        s->file = US_FILE_PARAM;
        s->index = (uint16_t)us_rng_below(g->r, RP_CONSTS);
        if (g->stage == US_STAGE_VERTEX && us_rng_below(g->r, 3) == 0) {
            s->rel = true;
            s->index = RP_ARRAY;
            s->rel_offset = (int16_t)((int)us_rng_below(g->r, 12) - 2);
            s->rel_size = RP_ARRAY_SIZE;
        }
    }
    random_swizzle(g, s->swz, scalar);
    s->negate = us_rng_below(g->r, 3) == 0 ? 0xf : 0;
    if (in->op == US_OP_SWZ) {
        for (unsigned c = 0; c < 4; c++)
            if (us_rng_below(g->r, 4) == 0)
                s->swz[c] = (uint8_t)(US_SWZ_ZERO + us_rng_below(g->r, 2));
        s->negate = (uint8_t)us_rng_below(g->r, 16);
        if (us_rng_below(g->r, 2))
            s->negate = 0;
    }
}

static void random_inst(struct gen *g, struct us_inst *in)
{
    memset(in, 0, sizeof *in);
    unsigned stage_bit = g->stage == US_STAGE_VERTEX ? US_VP : US_FP;
    do
        in->op = (uint8_t)us_rng_below(g->r, US_OP_COUNT);
    while (!(us_ops[in->op].stages & stage_bit) ||
           us_ops[in->op].unit == US_UNIT_BRANCH ||
           (us_ops[in->op].flags & US_QUAD));   /* lone threads: 0 */
    const struct us_opinfo *o = &us_ops[in->op];
    in->line = (uint32_t)(g->p->ninsts + 2);
    if (in->op == US_OP_KIL) {
        in->dst.file = US_FILE_NULL;
    } else if (in->op == US_OP_ARL) {
        in->dst.file = US_FILE_ADDRESS;
        in->dst.mask = 1;
    } else {
        if (us_rng_below(g->r, 6) == 0) {
            unsigned nout = g->stage == US_STAGE_VERTEX ? US_RAND_VOUT_VARYINGS
                                                    : US_FOUT_COUNT;
            in->dst.file = US_FILE_OUTPUT;
            in->dst.index = (uint16_t)us_rng_below(g->r, nout);
            g->p->outputs_written |= 1ull << in->dst.index;
        } else {
            in->dst.file = US_FILE_TEMP;
            in->dst.index = (uint16_t)us_rng_below(g->r, RP_TEMPS);
        }
        unsigned k = us_rng_below(g->r, 3);
        in->dst.mask = k == 0 ? 0xf : (uint8_t)(1 + us_rng_below(g->r, 15));
        in->sat = us_rng_below(g->r, g->stage == US_STAGE_FRAGMENT ? 4 : 10) == 0;
    }
    if (o->format == US_FMT_TEX) {
        in->tex_unit = (uint8_t)us_rng_below(g->r, 4);
        in->tex_target = (uint8_t)us_rng_below(g->r, US_TEX_TARGET_COUNT);
    }
    bool scalar = o->format == US_FMT_SCL || o->format == US_FMT_ARL;
    for (unsigned i = 0; i < o->nsrc; i++)
        random_src(g, &in->src[i], in, scalar);
    /* ARL mostly from small integers so relative reads hit the array */
    if (in->op == US_OP_ARL && us_rng_below(g->r, 4)) {
        in->src[0].file = US_FILE_PARAM;
        in->src[0].index = 0;
        in->src[0].rel = false;
    }
}

bool us_random_program(struct us_rng *r, enum us_stage stage, unsigned ninsts,
                       struct us_program *out)
{
    memset(out, 0, sizeof *out);
    out->stage = stage;
    out->insts = calloc(ninsts ? ninsts : 1, sizeof *out->insts);
    out->params = calloc(RP_CONSTS, sizeof *out->params);
    if (!out->insts || !out->params) {
        us_program_free(out);
        return false;
    }
    out->nparams = RP_CONSTS;
    out->ntemps = RP_TEMPS;
    out->naddrs = stage == US_STAGE_VERTEX;
    for (unsigned i = 0; i < RP_CONSTS; i++) {
        struct us_param *p = &out->params[i];
        p->kind = US_PARAM_CONST;
        p->decl = -1;
        for (unsigned c = 0; c < 4; c++)
            p->value[c] = i == 0 ? (float)((int)c * 2 - 3) + 0.5f : us_random_float(r);
    }
    struct gen g = { r, stage, out, { 0 } };
    bool vp = stage == US_STAGE_VERTEX;
    unsigned nin = vp ? US_VIN_COUNT : US_RAND_FIN_COUNT;
    for (unsigned i = 0; i < RP_INPUTS; i++) {
        unsigned k = us_rng_below(r, nin);
        g.inputs[i] = (uint8_t)(vp ? k : us_rand_fin(k));
    }
    for (unsigned i = 0; i < ninsts; i++) {
        random_inst(&g, &out->insts[i]);
        out->ninsts++;
    }
    return true;
}

/* ---- Programs with flow control ---------------------------------------- */

/*
 * Loops are bounded by construction: loop d (nesting depth d) counts in
 * TEMP RP_TEMPS + 2d, which no random instruction writes (their
 * destinations are TEMPs below RP_TEMPS), and starts its body with
 *
 *     ADD   cnt.x, cnt.x, lim.x      counter += 1
 *     SGE   brk.x, cnt.x, lim.y      brk = counter >= bound (0..4)
 *     IF    brk.x;  BRK;  ENDIF
 *
 * (cnt reset by a MOV from lim.z = 0 before BGNLOOP; lim a parameter slot
 * of its own), so CONT and BRK under random conditions anywhere after it
 * cannot make it run forever.  IF conditions are random sources (per
 * thread random inputs and temporaries: lanes diverge).
 */
enum { RF_DEPTH = 3, RF_LOOP_TEMPS = 2 * RF_DEPTH, RF_MAX_LOOPS = 16 };

struct fgen {
    struct gen g;
    unsigned cap, budget, loops;
};

static struct us_inst *fnew(struct fgen *f)
{
    assert(f->g.p->ninsts < f->cap);
    struct us_inst *in = &f->g.p->insts[f->g.p->ninsts++];
    memset(in, 0, sizeof *in);
    in->line = f->g.p->ninsts + 1;
    for (unsigned i = 0; i < 3; i++)
        for (unsigned c = 0; c < 4; c++)
            in->src[i].swz[c] = (uint8_t)c;
    return in;
}

static void fflow(struct fgen *f, enum us_opcode op)
{
    fnew(f)->op = (uint8_t)op;
}

/* IF on a random scalar source. */
static void fif(struct fgen *f)
{
    struct us_inst *in = fnew(f);
    in->op = US_OP_IF;
    random_src(&f->g, &in->src[0], in, true);
}

static struct us_src reg_src(unsigned file, unsigned index, unsigned comp)
{
    struct us_src s = { .file = (uint8_t)file, .index = (uint16_t)index };
    for (unsigned c = 0; c < 4; c++)
        s.swz[c] = (uint8_t)comp;
    return s;
}

static void fop(struct fgen *f, enum us_opcode op, unsigned dst,
                struct us_src a, struct us_src b)
{
    struct us_inst *in = fnew(f);
    in->op = (uint8_t)op;
    in->dst = (struct us_dst){ .file = US_FILE_TEMP, .mask = 1,
                               .index = (uint16_t)dst };
    in->src[0] = a;
    in->src[1] = b;
}

static void fbody(struct fgen *f, unsigned depth, bool in_loop);

static void floop(struct fgen *f, unsigned depth)
{
    struct us_program *p = f->g.p;
    unsigned lim = RP_CONSTS + f->loops++;
    struct us_param *par = &p->params[lim];
    par->kind = US_PARAM_CONST;
    par->decl = -1;
    par->value[0] = 1.0f;
    par->value[1] = (float)us_rng_below(f->g.r, 5);
    par->value[2] = 0.0f;
    par->value[3] = 0.0f;
    p->nparams = lim + 1;
    unsigned cnt = RP_TEMPS + 2 * depth, brk = cnt + 1;
    fop(f, US_OP_MOV, cnt, reg_src(US_FILE_PARAM, lim, 2), reg_src(0, 0, 0));
    fflow(f, US_OP_BGNLOOP);
    fop(f, US_OP_ADD, cnt, reg_src(US_FILE_TEMP, cnt, 0),
        reg_src(US_FILE_PARAM, lim, 0));
    fop(f, US_OP_SGE, brk, reg_src(US_FILE_TEMP, cnt, 0),
        reg_src(US_FILE_PARAM, lim, 1));
    struct us_inst *in = fnew(f);
    in->op = US_OP_IF;
    in->src[0] = reg_src(US_FILE_TEMP, brk, 0);
    fflow(f, US_OP_BRK);
    fflow(f, US_OP_ENDIF);
    fbody(f, depth + 1, true);
    fflow(f, US_OP_ENDLOOP);
}

/* A random run of statements: instructions, IF[/ELSE]/ENDIF, loops, and
 * inside loops BRK / CONT under a random IF. */
static void fbody(struct fgen *f, unsigned depth, bool in_loop)
{
    unsigned n = 1 + us_rng_below(f->g.r, 4);
    for (unsigned k = 0; k < n && f->budget; k++) {
        /* room for the longest statement: a loop's fixed part and a body */
        if (f->g.p->ninsts + 16 + 10 * (RF_DEPTH - depth) >= f->cap)
            return;
        unsigned pick = us_rng_below(f->g.r, 10);
        if (pick < 5 || depth >= RF_DEPTH) {
            random_inst(&f->g, fnew(f));
            f->budget--;
        } else if (pick < 8) {
            fif(f);
            fbody(f, depth + 1, in_loop);
            if (us_rng_below(f->g.r, 2)) {
                fflow(f, US_OP_ELSE);
                fbody(f, depth + 1, in_loop);
            }
            fflow(f, US_OP_ENDIF);
        } else if (pick < 9 && f->loops < RF_MAX_LOOPS) {
            floop(f, depth);
        } else if (in_loop) {
            fif(f);
            fflow(f, us_rng_below(f->g.r, 2) ? US_OP_BRK : US_OP_CONT);
            fflow(f, US_OP_ENDIF);
        }
    }
}

bool us_random_flow_program(struct us_rng *r, enum us_stage stage,
                            unsigned ninsts, struct us_program *out)
{
    memset(out, 0, sizeof *out);
    out->stage = stage;
    out->options = US_OPT_USHADER_EXTENSIONS;
    unsigned cap = 8 * ninsts + 64 + 16 * RF_DEPTH;
    out->insts = calloc(cap, sizeof *out->insts);
    out->params = calloc(RP_CONSTS + RF_MAX_LOOPS, sizeof *out->params);
    if (!out->insts || !out->params) {
        us_program_free(out);
        return false;
    }
    out->nparams = RP_CONSTS;
    out->ntemps = RP_TEMPS + RF_LOOP_TEMPS;
    out->naddrs = stage == US_STAGE_VERTEX;
    for (unsigned i = 0; i < RP_CONSTS; i++) {
        struct us_param *p = &out->params[i];
        p->kind = US_PARAM_CONST;
        p->decl = -1;
        for (unsigned c = 0; c < 4; c++)
            p->value[c] = i == 0 ? (float)((int)c * 2 - 3) + 0.5f : us_random_float(r);
    }
    struct fgen f = { { r, stage, out, { 0 } }, cap, ninsts ? ninsts : 1, 0 };
    bool vp = stage == US_STAGE_VERTEX;
    unsigned nin = vp ? US_VIN_COUNT : US_RAND_FIN_COUNT;
    for (unsigned i = 0; i < RP_INPUTS; i++) {
        unsigned k = us_rng_below(r, nin);
        f.g.inputs[i] = (uint8_t)(vp ? k : us_rand_fin(k));
    }
    while (f.budget && out->ninsts + 64 < cap)
        fbody(&f, 0, false);
    struct us_diag d;
    if (!us_flow_build(out, &out->flow, &d)) {
        us_program_free(out);
        return false;
    }
    return true;
}
