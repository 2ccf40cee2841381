/*
 * The batched structure-of-arrays executor (shader/interp_soa.h).
 *
 * us_soa_plan maps every register the program names (a TEMP, INPUT or
 * OUTPUT: a byte offset in struct us_thread, decode.h) to a slot of four
 * rows, and each source component to the row it reads (a register's
 * component after the swizzle, the rows of SWZ's 0 and 1, or a uniform's
 * own rows, filled once per run).  A run loads, for a chunk of lanes, the
 * components the program reads before writing them, executes the program
 * one instruction over all lanes (the loops of interp_soa_body.h), and
 * stores back the components it writes and the killed flags: the threads
 * end as the reference leaves them.
 *
 * Why straight-line code only: with flow control a lockstep group's
 * sequencer issues an instruction for lanes that another grouping would
 * not reach (a quad whose lanes all skip an IF samples no texture inside
 * it on the reference), and deeper groups diverge deeper (US_FLOW_DEPTH),
 * so a batch's group could change results; without it every lane runs
 * every instruction and lanes only meet in their own quad (derivatives,
 * sample_quad), which a batch keeps whole.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "shader/interp_soa.h"
#include "shader/interp_ops.h"

#define US_INLINE static inline __attribute__((always_inline))

/* The lane loops run over the whole chunk, a constant trip count the
 * vectoriser's -O2 cost model (very cheap: no epilogue, no alias checks)
 * accepts; rows never overlap.  Lanes past a short chunk's end compute on
 * what their rows hold and are never stored back. */
#define SOA_LOOP _Pragma("GCC ivdep")

/* Rows after the registers' 4 * nslots. */
enum {
    SOA_ZERO,             /* SWZ's ZERO selector                        */
    SOA_ONE,              /* SWZ's ONE selector                         */
    SOA_TMP,              /* 3 sources x 4 components: negated          */
    SOA_RES = SOA_TMP + 12,   /* the result's 4 components              */
    SOA_EXTRA = SOA_RES + 4,
};

struct soa_src {
    bool uniform;         /* a parameter or no register: the same in every
                             lane, loaded as interp.c load_src does into
                             rows of its own (row[0..3]) once per run     */
    uint8_t neg;          /* bit c: negate component c (not uniforms)    */
    uint32_t row[4];      /* per component: the row it reads             */
};

struct soa_inst {
    const struct us_dinst *d;
    struct soa_src src[3];
    uint32_t dst;         /* the destination slot's first row            */
    bool direct;          /* a component-wise or dot product result goes
                             straight into the destination's rows (it
                             has some, and no source reads them, but a
                             component-wise one's from the same
                             component)                                 */
    bool comp;            /* a component-wise opcode: its loop negates
                             its sources                                 */
};

struct us_soa {
    unsigned ninsts, nslots;
    struct us_decoded *own;   /* us_soa_open's decoded program, or NULL   */
    enum us_soa_isa isa;      /* us_soa_open's build of the loops         */
    uint64_t given;           /* row form: the inputs the caller writes   */
    struct soa_inst *inst;
    uint32_t *slot_off;   /* byte offset of each slot's register         */
    uint8_t *slot_load;   /* components read before the program writes them */
    uint8_t *slot_store;  /* components the program writes               */
    uint8_t *slot_temp;   /* the slot is a TEMP                           */
    float *rows;          /* (4 * nslots + SOA_EXTRA + 4 * nuniform) rows */
    uint32_t extra;       /* 4 * nslots: where SOA_ZERO lies             */
    uint32_t nuniform;    /* uniform sources, 4 rows each after SOA_EXTRA */
    uint8_t killed[US_SOA_WIDTH];
};

static inline float *soa_row(struct us_soa *p, uint32_t row)
{
    return p->rows + (size_t)row * US_SOA_WIDTH;
}

/* The rows after the registers' (SOA_ZERO ... SOA_RES + 3). */
#define SOA_ROW(p, r) ((p)->extra + (r))

/* A uniform source's value: interp.c load_src on a parameter or on no
 * register (a float opcode: negation is micro_neg). */
static void soa_uniform(const struct us_dsrc *s, const struct us_exec_env *env,
                        float out[4])
{
    const float *reg = s->kind == US_DSRC_PARAM ? env->params[s->off] : NULL;
    const float ext[6] = { reg ? reg[0] : 0.0f, reg ? reg[1] : 0.0f,
                           reg ? reg[2] : 0.0f, reg ? reg[3] : 0.0f,
                           0.0f, 1.0f };
    for (int c = 0; c < 4; c++) {
        float v = ext[s->swz[c]];
        out[c] = (s->negate >> c) & 1 ? micro_neg(v) : v;
    }
}

/* ---- Which programs ----------------------------------------------------- */

/* Opcodes the loops serve. */
static bool soa_op(enum us_opcode op)
{
    switch (op) {
#define X(name, f) case US_OP_##name:
    COMP1_OPS(X) COMP2_OPS(X) COMP3_OPS(X) REPL1_OPS(X) REPL2_OPS(X)
    DOT_OPS(X)
#undef X
    case US_OP_XPD: case US_OP_DST: case US_OP_LIT:
    case US_OP_EXP: case US_OP_LOG: case US_OP_SCS:
    case US_OP_TEX: case US_OP_TXB: case US_OP_TXP:
    case US_OP_DDX: case US_OP_DDX_FINE: case US_OP_DDY: case US_OP_DDY_FINE:
    case US_OP_KIL:
        return true;
    default:
        return false;
    }
}

static bool soa_takes(const struct us_decoded *d)
{
    const struct us_program *prog = d->prog;
    if (prog->flow)
        return false;
    for (unsigned pc = 0; pc < prog->ninsts; pc++) {
        const struct us_dinst *di = &d->inst[pc];
        if (!soa_op(di->op) || (us_ops[di->op].flags & (US_I_SRC | US_I_DST)))
            return false;
        if (di->dst_kind != US_DDST_THREAD && di->dst_kind != US_DDST_NONE &&
            di->dst_kind != US_DDST_KILL)
            return false;
        for (unsigned i = 0; i < di->nsrc; i++)
            if (di->src[i].kind == US_DSRC_PARAM_REL)
                return false;
    }
    return true;
}

/* ---- The plan ------------------------------------------------------------ */

enum { SOA_NREGS = offsetof(struct us_thread, addr) / sizeof(us_vec4),
       SOA_NOSLOT = UINT16_MAX };

static unsigned slot_of(struct us_soa *p, uint16_t *map, uint32_t off)
{
    assert(off % sizeof(us_vec4) == 0 && off / sizeof(us_vec4) < SOA_NREGS);
    uint16_t *s = &map[off / sizeof(us_vec4)];
    if (*s == SOA_NOSLOT) {
        *s = (uint16_t)p->nslots;
        p->slot_off[p->nslots++] = off;
    }
    return *s;
}

/* Where a source's components come from: a register's rows (noting the
 * components read before any write: those are loaded from the threads),
 * SWZ's 0 and 1, or rows of its own for a uniform. */
static void plan_src(struct us_soa *p, uint16_t *map, const struct us_dsrc *s,
                     struct soa_src *o)
{
    o->uniform = s->kind != US_DSRC_THREAD;
    if (o->uniform) {
        o->row[0] = SOA_NOSLOT + SOA_EXTRA + 4 * p->nuniform++;
        return;
    }
    o->neg = s->negate;
    unsigned k = slot_of(p, map, s->off);
    for (int c = 0; c < 4; c++) {
        if (s->swz[c] > US_SWZ_W) {
            o->row[c] = SOA_NOSLOT + (s->swz[c] == US_SWZ_ZERO ? SOA_ZERO
                                                               : SOA_ONE);
            continue;
        }
        o->row[c] = 4 * k + s->swz[c];
        /* read before this instruction writes it: needed from the thread */
        if (!((p->slot_store[k] >> s->swz[c]) & 1))
            p->slot_load[k] |= (uint8_t)(1u << s->swz[c]);
    }
}

struct us_soa *us_soa_plan(const struct us_decoded *d)
{
    if (!soa_takes(d))
        return NULL;
    unsigned n = d->prog->ninsts;
    struct us_soa *p = calloc(1, sizeof *p);
    uint16_t *map = malloc(SOA_NREGS * sizeof *map);
    if (!p || !map)
        goto fail;
    p->ninsts = n;
    p->inst = calloc(n ? n : 1, sizeof *p->inst);
    p->slot_off = calloc(SOA_NREGS, sizeof *p->slot_off);
    p->slot_load = calloc(SOA_NREGS, 1);
    p->slot_store = calloc(SOA_NREGS, 1);
    p->slot_temp = calloc(SOA_NREGS, 1);
    if (!p->inst || !p->slot_off || !p->slot_load || !p->slot_store ||
        !p->slot_temp)
        goto fail;
    memset(map, 0xff, SOA_NREGS * sizeof *map);
    for (unsigned pc = 0; pc < n; pc++) {
        const struct us_dinst *di = &d->inst[pc];
        struct soa_inst *si = &p->inst[pc];
        si->d = di;
        for (unsigned i = 0; i < di->nsrc; i++)
            plan_src(p, map, &di->src[i], &si->src[i]);
        if (di->dst_kind == US_DDST_THREAD) {
            unsigned k = slot_of(p, map, di->dst_off);
            si->dst = 4 * k;
            p->slot_store[k] |= di->mask;
        }
    }
    for (unsigned k = 0; k < p->nslots; k++)
        p->slot_temp[k] = p->slot_off[k] < offsetof(struct us_thread, input);
    /* the rows of SWZ's 0 and 1 follow the registers' */
    p->extra = 4 * p->nslots;
    for (unsigned pc = 0; pc < n; pc++)
        for (unsigned i = 0; i < 3; i++) {
            struct soa_src *s = &p->inst[pc].src[i];
            if (s->uniform)
                for (unsigned c = 1; c < 4; c++)
                    s->row[c] = s->row[0] + c;
            for (int c = 0; c < 4; c++)
                if (s->row[c] >= SOA_NOSLOT)
                    s->row[c] = SOA_ROW(p, s->row[c] - SOA_NOSLOT);
        }
    for (unsigned pc = 0; pc < n; pc++) {
        struct soa_inst *si = &p->inst[pc];
        const struct us_dinst *di = &d->inst[pc];
        switch ((enum us_opcode)di->op) {
#define X(name, f) case US_OP_##name:
        COMP1_OPS(X) COMP2_OPS(X) COMP3_OPS(X)
#undef X
            si->comp = true;
            break;
        default:
            si->comp = false;
            break;
        }
        /* the loops write a lane after reading it (and no other lane):
         * a component-wise opcode's destination rows may be its sources'
         * through the same component, a dot product's not at all */
        si->direct = di->dst_kind == US_DDST_THREAD && di->mask;
        for (unsigned i = 0; i < di->nsrc; i++)
            for (unsigned c = 0; c < 4; c++) {
                uint32_t row = si->src[i].row[c];
                if (row >= si->dst && row < si->dst + 4 &&
                    (!si->comp || row != si->dst + c))
                    si->direct = false;
            }
    }
    size_t bytes = (size_t)(p->extra + SOA_EXTRA + 4 * p->nuniform) *
                   US_SOA_WIDTH * sizeof(float);
    p->rows = aligned_alloc(64, bytes);
    if (!p->rows)
        goto fail;
    memset(p->rows, 0, bytes);
    for (unsigned l = 0; l < US_SOA_WIDTH; l++) {
        soa_row(p, SOA_ROW(p, SOA_ZERO))[l] = 0.0f;
        soa_row(p, SOA_ROW(p, SOA_ONE))[l] = 1.0f;
    }
    free(map);
    return p;
fail:
    free(map);
    us_soa_free(p);
    return NULL;
}

void us_soa_free(struct us_soa *p)
{
    if (!p)
        return;
    free(p->inst);
    free(p->slot_off);
    free(p->slot_load);
    free(p->slot_store);
    free(p->slot_temp);
    free(p->rows);
    us_decoded_free(p->own);
    free(p);
}

/* ---- The two builds of the loops ---------------------------------------- */

/* Component-wise results: plain (SOA_PLAIN, SOA(write) follows), or
 * straight into the destination, saturated or canonicalized as
 * SOA(write) would (SOA_SAT, SOA_CANON). */
enum { SOA_PLAIN, SOA_CANON, SOA_SAT };
#define SOA_POST(post, x) ((post) == SOA_SAT ? micro_sat(x) \
                           : (post) == SOA_CANON ? micro_canon(x) : (x))


#define SOA(name) soa_base_##name
#include "shader/interp_soa_body.h"
#undef SOA

#if defined(__x86_64__) && defined(__GNUC__)
#define US_SOA_HAVE_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")
#define SOA(name) soa_avx2_##name
#include "shader/interp_soa_body.h"
#undef SOA
#pragma GCC pop_options

/* 16 floats a register: 1.06x the AVX2 build's fullscreen.scn (the
 * loops are loads, one operation and a store) */
#pragma GCC push_options
#pragma GCC target("avx2,avx512f,avx512vl,avx512dq,avx512bw")
#define SOA(name) soa_avx512_##name
#include "shader/interp_soa_body.h"
#undef SOA
#pragma GCC pop_options
#endif

bool us_soa_have(enum us_soa_isa isa)
{
    switch (isa) {
    case US_SOA_AUTO:
    case US_SOA_BASELINE:
        return true;
#ifdef US_SOA_HAVE_AVX2
    case US_SOA_AVX2:
        return __builtin_cpu_supports("avx2");
    case US_SOA_AVX512:
        return __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512vl") &&
               __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512bw");
#endif
    default:
        return false;
    }
}

/* AUTO as the best build the CPU has. */
static enum us_soa_isa soa_isa(enum us_soa_isa isa)
{
    if (isa != US_SOA_AUTO)
        return isa;
    return us_soa_have(US_SOA_AVX512) ? US_SOA_AVX512
         : us_soa_have(US_SOA_AVX2) ? US_SOA_AVX2 : US_SOA_BASELINE;
}

/* Each uniform source's rows, once per run: parameters do not change
 * within a batch. */
static void fill_uniforms(struct us_soa *p, const struct us_exec_env *env)
{
    for (unsigned pc = 0; pc < p->ninsts; pc++) {
        const struct soa_inst *si = &p->inst[pc];
        for (unsigned i = 0; i < si->d->nsrc; i++) {
            if (!si->src[i].uniform)
                continue;
            float v[4];
            soa_uniform(&si->d->src[i], env, v);
            for (unsigned c = 0; c < 4; c++) {
                float *r = soa_row(p, si->src[i].row[c]);
                for (unsigned l = 0; l < US_SOA_WIDTH; l++)
                    r[l] = v[c];
            }
        }
    }
}

void us_soa_run(struct us_soa *p, const struct us_exec_env *env,
                struct us_thread *t, unsigned n, bool quads, bool temps,
                enum us_soa_isa isa)
{
    assert(!quads || n % 4 == 0);
    fill_uniforms(p, env);
    switch (soa_isa(isa)) {
#ifdef US_SOA_HAVE_AVX2
    case US_SOA_AVX512:
        soa_avx512_run(p, env, t, n, quads, temps);
        break;
    case US_SOA_AVX2:
        soa_avx2_run(p, env, t, n, quads, temps);
        break;
#endif
    default:
        soa_base_run(p, env, t, n, quads, temps);
        break;
    }
}

/* ---- The row form --------------------------------------------------------- */

struct us_soa *us_soa_open(const struct us_program *prog, enum us_soa_isa isa)
{
    struct us_decoded *d = us_decode(prog);
    struct us_soa *p = d ? us_soa_plan(d) : NULL;
    if (!p) {
        us_decoded_free(d);
        return NULL;
    }
    p->own = d;
    p->isa = soa_isa(isa);
    return p;
}

static int slot_find(const struct us_soa *p, uint32_t off)
{
    for (unsigned k = 0; k < p->nslots; k++)
        if (p->slot_off[k] == off)
            return (int)k;
    return -1;
}

float *us_soa_reg_row(struct us_soa *p, uint32_t off, unsigned c)
{
    int k = slot_find(p, off);
    return k < 0 ? NULL : soa_row(p, 4 * (unsigned)k + c);
}

unsigned us_soa_reg_reads(const struct us_soa *p, uint32_t off)
{
    int k = slot_find(p, off);
    return k < 0 ? 0 : p->slot_load[k];
}

unsigned us_soa_reg_writes(const struct us_soa *p, uint32_t off)
{
    int k = slot_find(p, off);
    return k < 0 ? 0 : p->slot_store[k];
}

const float *us_soa_result_row(struct us_soa *p, uint32_t off, unsigned c)
{
    static const float zero[US_SOA_WIDTH];
    unsigned named = us_soa_reg_reads(p, off) | us_soa_reg_writes(p, off);
    return named >> c & 1 ? us_soa_reg_row(p, off, c) : zero;
}

const uint8_t *us_soa_killed(const struct us_soa *p)
{
    return p->killed;
}

/* Whether slot k is an input the caller writes. */
static bool slot_given(const struct us_soa *p, unsigned k)
{
    uint32_t in = (uint32_t)offsetof(struct us_thread, input);
    uint32_t off = p->slot_off[k];
    if (off < in || off >= (uint32_t)offsetof(struct us_thread, output))
        return false;
    return (p->given >> ((off - in) / sizeof(us_vec4))) & 1;
}

/* The components in `mask` of slot k's rows as a fresh thread has them
 * (us_thread_reset: inputs (0, 0, 0, 1), TEMPs and outputs 0). */
static void reset_rows(struct us_soa *p, unsigned k, unsigned mask)
{
    bool input = p->slot_off[k] >= offsetof(struct us_thread, input) &&
                 p->slot_off[k] < offsetof(struct us_thread, output);
    for (; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        float v = input && c == 3 ? 1.0f : 0.0f;
        float *r = soa_row(p, 4 * k + c);
        for (unsigned l = 0; l < US_SOA_WIDTH; l++)
            r[l] = v;
    }
}

void us_soa_rows_begin(struct us_soa *p, const struct us_exec_env *env,
                       uint64_t given)
{
    p->given = given;
    fill_uniforms(p, env);
    for (unsigned k = 0; k < p->nslots; k++)
        if (!slot_given(p, k))
            reset_rows(p, k, p->slot_load[k]);
}

void us_soa_rows_run(struct us_soa *p, const struct us_exec_env *env,
                     unsigned n, bool quads)
{
    assert(n <= US_SOA_WIDTH && (!quads || n % 4 == 0));
    /* a TEMP or output read before the program writes it starts each
     * chunk as reset; inputs are never written (decode.h) */
    for (unsigned k = 0; k < p->nslots; k++)
        if (!slot_given(p, k) && (p->slot_load[k] & p->slot_store[k]))
            reset_rows(p, k, p->slot_load[k] & p->slot_store[k]);
    memset(p->killed, 0, sizeof p->killed);
    switch (p->isa) {
#ifdef US_SOA_HAVE_AVX2
    case US_SOA_AVX512:
        soa_avx512_chunk(p, env, n, quads);
        break;
    case US_SOA_AVX2:
        soa_avx2_chunk(p, env, n, quads);
        break;
#endif
    default:
        soa_base_chunk(p, env, n, quads);
        break;
    }
}
