/*
 * The reference interpreter: runs the vec4 IR one instruction at a time
 * with the semantics of ARB_vertex_program 1.0 section 2.14.5 and
 * ARB_fragment_program 1.0 sections 3.11.5-3.11.6, arithmetic from the
 * per-lane micro-operations of isa/micro.h.
 *
 * An instruction is first decoded (shader/decode.h: operand locations,
 * swizzle class, written components), once per program for the
 * us_decode entry points and on the fly for the others; then it runs on a
 * group of lanes -- one thread, or a 2x2 quad in lockstep -- in three
 * steps:
 *   1. load every source of every lane (swizzle incl. SWZ's 0 and 1,
 *      per-component negation, relative addressing) -- all reads happen
 *      before any write, so a destination that is also a source
 *      (XPD r0, r0, r1) is safe;
 *   2. compute the result vectors, dispatched once per instruction on the
 *      opcode: COMP component-wise, REPL once from the scalar operand (.x
 *      after the swizzle) and replicated, DOT, MIXED;
 *   3. saturate (_SAT) and write the components micro_written_mask allows,
 *      in the lanes the flow state (shader/flow.c) has active.
 *
 * Relative addressing (2.14.4.2) reads params[index + A.x + offset] when
 * A.x + offset lies in [0, rel_size); outside the array the spec leaves the
 * result undefined and this model reads (0, 0, 0, 0).
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "ushader.h"
#include "shader/decode.h"
#include "isa/micro.h"
#include "shader/interp_ops.h"

/* The lane loops below are written once and instantiated for one lane and
 * for a quad; inlining them is what makes the constants fold. */
#define US_INLINE static inline __attribute__((always_inline))

/* ... and so is unrolling the loops over a quad's lanes. */
#define LANES _Pragma("GCC unroll 4")

enum { QUAD = 4 };

static const float zero4[4] = { 0.0f, 0.0f, 0.0f, 0.0f };

/* Inputs' initial value (0, 0, 0, 1), copied rather than built per thread. */
#define V0001 { 0.0f, 0.0f, 0.0f, 1.0f }
#define V0001x4 V0001, V0001, V0001, V0001
static const us_vec4 input_init[] = { V0001x4, V0001x4, V0001x4, V0001x4,
                                      V0001x4, V0001x4, V0001x4, V0001x4,
                                      V0001x4, V0001x4 };
_Static_assert(sizeof input_init >= sizeof ((struct us_thread *)0)->input,
               "input_init covers every input");

/* A pipeline resets every fragment's record: through the C library's
 * vector memcpy and memset, which take these sizes (0.6-0.7 KB) about 2.5
 * times as fast as the `rep movs`/`rep stos` gcc inlines for a constant
 * size (measured on the 2-core AMD EPYC, docs/perf/soa.md).  The volatile
 * pointers keep gcc from inlining them back; the bytes are the same. */
static void reset_io(struct us_thread *t)
{
    void *(*volatile copy)(void *, const void *, size_t) = memcpy;
    void *(*volatile set)(void *, int, size_t) = memset;
    copy(t->input, input_init, sizeof t->input);
    set(t->output, 0, sizeof t->output);
    memset(t->addr, 0, sizeof t->addr);
    t->killed = false;
    t->helper = false;
    t->overrun = false;
}

void us_thread_reset(struct us_thread *t)
{
    memset(t->temp, 0, sizeof t->temp);
    reset_io(t);
}

void us_thread_reset_for(struct us_thread *t, const struct us_program *prog)
{
    assert(prog->ntemps <= US_MAX_TEMPS);
    memset(t->temp, 0, prog->ntemps * sizeof t->temp[0]);
    reset_io(t);
}

/* ---- Step 1: operands --------------------------------------------------- */

/* The register a decoded source names (before swizzle and negation). */
US_INLINE const float *src_register(const struct us_dsrc *s,
                                    const struct us_exec_env *env,
                                    const struct us_thread *t)
{
    switch (s->kind) {
    case US_DSRC_THREAD:
        return (const float *)((const char *)t + s->off);
    case US_DSRC_PARAM:
        return env->params[s->off];
    case US_DSRC_PARAM_REL: {
        int64_t i = (int64_t)t->addr[s->rel_addr][0] + s->rel_offset;
        if (i < 0 || i >= s->rel_size)
            return zero4;
        return env->params[s->off + i];
    }
    default:
        return zero4;
    }
}

/* VectorLoad (2.14.4.1) extended with SWZ's per-component selectors and
 * signs (2.14.5.26): a negated ZERO is -0.0, as the pseudo-code gives. */
US_INLINE void load_src(const struct us_dsrc *s, const struct us_exec_env *env,
                        const struct us_thread *t, float out[4])
{
    const float *reg = src_register(s, env, t);
    if (s->swz_kind == US_DSWZ_PLAIN) {
        memcpy(out, reg, 4 * sizeof *out);
        return;
    }
    float v[4];
    if (s->swz_kind == US_DSWZ_PERM) {
        for (int c = 0; c < 4; c++)
            v[c] = reg[s->swz[c]];
    } else {
        /* selectors index the register extended with SWZ's 0 and 1 */
        const float ext[6] = { reg[0], reg[1], reg[2], reg[3], 0.0f, 1.0f };
        for (int c = 0; c < 4; c++)
            v[c] = ext[s->swz[c]];
    }
    for (int c = 0; c < 4; c++)
        out[c] = !((s->negate >> c) & 1) ? v[c]
               : s->ineg ? micro_float(micro_ineg(micro_bits(v[c]), 32))
                         : micro_neg(v[c]);
}

/* src[lane][source][component]; r[lane][component]. */
typedef float lane_srcs[3][4];

/* Source i of lanes t[0 .. n): load_src, with the common cases taken
 * apart (decode.h's load classes) so the per-lane work is copies only. */
US_INLINE void load_lanes(const struct us_dsrc *s, unsigned i,
                          const struct us_exec_env *env,
                          const struct us_thread *t, unsigned n,
                          lane_srcs *out)
{
    switch (s->load) {
    case US_DLOAD_THREAD_PLAIN:
        LANES
        for (unsigned q = 0; q < n; q++)
            memcpy(out[q][i], (const char *)&t[q] + s->off, 4 * sizeof(float));
        return;
    case US_DLOAD_THREAD_PERM: {
        unsigned x = s->swz[0], y = s->swz[1], z = s->swz[2], w = s->swz[3];
        LANES
        for (unsigned q = 0; q < n; q++) {
            const float *reg = (const float *)((const char *)&t[q] + s->off);
            out[q][i][0] = reg[x];
            out[q][i][1] = reg[y];
            out[q][i][2] = reg[z];
            out[q][i][3] = reg[w];
        }
        return;
    }
    case US_DLOAD_UNIFORM: {
        float v[4];
        load_src(s, env, t, v);
        LANES
        for (unsigned q = 0; q < n; q++)
            memcpy(out[q][i], v, sizeof v);
        return;
    }
    default:
        LANES
        for (unsigned q = 0; q < n; q++)
            load_src(s, env, &t[q], out[q][i]);
        return;
    }
}

US_INLINE void lanes_comp1(unsigned n, float r[][4], lane_srcs *s,
                           float (*f)(float))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        for (int c = 0; c < 4; c++)
            r[q][c] = f(s[q][0][c]);
}

US_INLINE void lanes_comp2(unsigned n, float r[][4], lane_srcs *s,
                           float (*f)(float, float))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        for (int c = 0; c < 4; c++)
            r[q][c] = f(s[q][0][c], s[q][1][c]);
}

US_INLINE void lanes_comp3(unsigned n, float r[][4], lane_srcs *s,
                           float (*f)(float, float, float))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        for (int c = 0; c < 4; c++)
            r[q][c] = f(s[q][0][c], s[q][1][c], s[q][2][c]);
}

US_INLINE void replicate(float r[4], float v)
{
    r[0] = r[1] = r[2] = r[3] = v;
}

/* Elementary functions cost far more than a branch: active lanes only. */
US_INLINE void lanes_repl1(unsigned n, uint32_t active, float r[][4],
                           lane_srcs *s, const struct us_math *m,
                           float (*f)(const struct us_math *, float))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        if ((active >> q) & 1)
            replicate(r[q], f(m, s[q][0][0]));
}

US_INLINE void lanes_repl2(unsigned n, uint32_t active, float r[][4],
                           lane_srcs *s, const struct us_math *m,
                           float (*f)(const struct us_math *, float, float))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        if ((active >> q) & 1)
            replicate(r[q], f(m, s[q][0][0], s[q][1][0]));
}

US_INLINE void lanes_dot(unsigned n, float r[][4], lane_srcs *s,
                         float (*f)(const float *, const float *))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        replicate(r[q], f(s[q][0], s[q][1]));
}

/* ---- Integer and memory instructions (isa/micro_int.h, micro_mem.h) ---- */

typedef uint32_t lane_bits[4];

#define B(q, i, c) micro_bits(s[q][i][c])

US_INLINE void lanes_icomp1(unsigned n, unsigned w, lane_bits *r,
                            lane_srcs *s, uint32_t (*f)(uint32_t, unsigned))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        for (int c = 0; c < 4; c++)
            r[q][c] = f(B(q, 0, c), w);
}

US_INLINE void lanes_icomp2(unsigned n, unsigned w, lane_bits *r,
                            lane_srcs *s,
                            uint32_t (*f)(uint32_t, uint32_t, unsigned))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        for (int c = 0; c < 4; c++)
            r[q][c] = f(B(q, 0, c), B(q, 1, c), w);
}

US_INLINE void lanes_icomp3(unsigned n, unsigned w, lane_bits *r,
                            lane_srcs *s,
                            uint32_t (*f)(uint32_t, uint32_t, uint32_t,
                                          unsigned))
{
    LANES
    for (unsigned q = 0; q < n; q++)
        for (int c = 0; c < 4; c++)
            r[q][c] = f(B(q, 0, c), B(q, 1, c), B(q, 2, c), w);
}

/* BFE and BFI: op0.x is the field's width, op0.y its offset
 * (NV_gpu_program5), for every component. */
US_INLINE void lanes_bitfield(const struct us_dinst *d, unsigned n,
                              lane_bits *r, lane_srcs *s)
{
    unsigned w = d->word;
    LANES
    for (unsigned q = 0; q < n; q++)
        for (int c = 0; c < 4; c++) {
            uint32_t bits = B(q, 0, 0), off = B(q, 0, 1), v = B(q, 1, c);
            r[q][c] = d->op == US_OP_BFE_S ? micro_bfe_s(bits, off, v, w)
                    : d->op == US_OP_BFE_U ? micro_bfe_u(bits, off, v, w)
                    : micro_bfi(bits, off, v, B(q, 2, c), w);
        }
}

/* The memory a lane's access goes to: a binding, or its workgroup's
 * shared memory (NULL: none, every access out of bounds). */
static struct us_buffer *space(const struct us_dinst *d,
                               const struct us_exec_env *env,
                               const struct us_thread *t)
{
    enum us_opcode op = d->op;
    if (op == US_OP_LDS || op == US_OP_STS || op == US_OP_ATOMS)
        return t->shared;
    return env->mem ? &env->mem->buf[d->tex_unit] : NULL;
}

/* LOAD STORE ATOM and their shared-memory forms, lane by lane and, in a
 * lane, component by component from x. */
static void lanes_memory(const struct us_dinst *d,
                         const struct us_exec_env *env, struct us_thread *t,
                         unsigned n, uint32_t active, lane_bits *r,
                         lane_srcs *s)
{
    struct us_mem_counts scratch = { 0 };
    struct us_mem_counts *cnt = env->mem ? &env->mem->counts : &scratch;
    enum us_mtype mt = d->mtype;
    enum us_op_format fmt = us_ops[d->op].format;
    for (unsigned q = 0; q < n; q++) {
        if (!((active >> q) & 1))
            continue;
        struct us_buffer *b = space(d, env, &t[q]);
        /* a fragment quad's helper lane reads but never writes: its
         * stores are dropped, its atomics read (GL 4.5 §15.2.2) */
        bool writes = !t[q].helper;
        unsigned sp = d->op == US_OP_LDS || d->op == US_OP_STS ||
                      d->op == US_OP_ATOMS ? US_MEM_SPACE_SHARED : d->tex_unit;
        enum us_mem_kind kind = fmt == US_FMT_LOAD ? US_MEM_LOAD
                              : fmt == US_FMT_STORE ? US_MEM_STORE
                                                    : US_MEM_ATOMIC;
        for (unsigned m = d->mask; m; m &= m - 1) {
            unsigned c = (unsigned)__builtin_ctz(m);
            uint32_t addr = B(q, 0, c);
            micro_mem_note(env->trace, addr, sp, micro_msize(mt), kind, q);
            if (fmt == US_FMT_LOAD || (fmt == US_FMT_ATOM && !writes))
                r[q][c] = micro_load(b, addr, mt, cnt);
            else if (fmt == US_FMT_STORE && writes)
                micro_store(b, addr, mt, B(q, 1, c), cnt);
            else if (fmt != US_FMT_STORE)
                r[q][c] = micro_atomic(b, addr, d->sub, mt, B(q, 1, c),
                                       B(q, 2, c), cnt);
        }
    }
}

/* Integer results: the bits, under the write mask. */
US_INLINE void write_bits(const struct us_dinst *d, struct us_thread *t,
                          unsigned n, uint32_t active, lane_bits *r)
{
    char *base = (char *)t + d->dst_off;
    for (unsigned mask = d->mask; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        LANES
        for (unsigned q = 0; q < n; q++)
            if ((active >> q) & 1)
                memcpy(base + q * sizeof *t + c * sizeof(uint32_t),
                       &r[q][c], sizeof(uint32_t));
    }
}

/* Every lane samples, active or not: a quad's inactive lanes still feed
 * the derivatives (which GLSL leaves undefined in non-uniform control
 * flow), and a one-lane sampler sees the same calls as before. */
static void lanes_tex(const struct us_dinst *d, const struct us_exec_env *env,
                      unsigned n, lane_srcs *s, float r[][4])
{
    float coord[QUAD][4], bias[QUAD];
    LANES
    for (unsigned q = 0; q < n; q++)
        us_tex_coord(d->op, s[q][0], coord[q], &bias[q]);
    if (n == QUAD && env->sample_quad) {
        env->sample_quad(env->sample_ctx, d->tex_unit, d->tex_target,
                         (const float (*)[4])coord, bias, r);
        return;
    }
    LANES
    for (unsigned q = 0; q < n; q++) {
        if (env->sample) {
            env->sample(env->sample_ctx, d->tex_unit, d->tex_target,
                        coord[q], bias[q], r[q]);
        } else {
            r[q][0] = r[q][1] = r[q][2] = 0.0f;
            r[q][3] = 1.0f;
        }
    }
}

/* DDX DDY (isa/micro.h): every lane's result from the four lanes' sources,
 * active or not (GLSL leaves derivatives in non-uniform control flow
 * undefined: an inactive lane's registers are what it last wrote). */
US_INLINE void lanes_deriv(enum us_opcode op, unsigned n, lane_srcs *s,
                           float r[][4])
{
    if (n != QUAD) {
        LANES
        for (unsigned q = 0; q < n; q++)
            for (int c = 0; c < 4; c++)
                r[q][c] = micro_deriv_lone(s[q][0][c]);
        return;
    }
    bool fine = op == US_OP_DDX_FINE || op == US_OP_DDY_FINE;
    bool dx = op == US_OP_DDX || op == US_OP_DDX_FINE;
    for (int c = 0; c < 4; c++) {
        const float v[QUAD] = { s[0][0][c], s[1][0][c], s[2][0][c],
                                s[3][0][c] };
        LANES
        for (unsigned q = 0; q < QUAD; q++)
            r[q][c] = dx ? micro_ddx(v, q, fine) : micro_ddy(v, q, fine);
    }
}

/* ---- Step 3: saturate and write under the write mask (2.14.4.3) --------- */

/* Component by component (the mask's bits), lane by lane. */
US_INLINE void write_lanes(const struct us_dinst *d, struct us_thread *t,
                           unsigned n, uint32_t active, float r[][4])
{
    char *base = (char *)t + d->dst_off;
    for (unsigned mask = d->mask; mask; mask &= mask - 1) {
        unsigned c = (unsigned)__builtin_ctz(mask);
        if (d->sat) {
            LANES
            for (unsigned q = 0; q < n; q++)
                if ((active >> q) & 1)
                    ((float *)(base + q * sizeof *t))[c] = micro_sat(r[q][c]);
        } else {
            LANES
            for (unsigned q = 0; q < n; q++)
                if ((active >> q) & 1)
                    ((float *)(base + q * sizeof *t))[c] = micro_canon(r[q][c]);
        }
    }
}

/* ---- One instruction on n lanes ------------------------------------------- */

/* Run `d` on lanes t[0 .. n), writing the `active` ones; the result is the
 * IF condition of each active lane (0 for every other instruction). */
US_INLINE uint32_t exec(const struct us_dinst *d,
                        const struct us_exec_env *env, struct us_thread *t,
                        unsigned n, uint32_t active)
{
    lane_srcs s[QUAD];
    float r[QUAD][4];
    lane_bits ri[QUAD];
    for (unsigned i = 0; i < d->nsrc; i++)
        load_lanes(&d->src[i], i, env, t, n, s);
    const struct us_math *m = env->math;
    unsigned w = d->word;
    switch ((enum us_opcode)d->op) {
#define X(name, f) case US_OP_##name: lanes_icomp1(n, w, ri, s, f); break;
    ICOMP1_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: lanes_icomp2(n, w, ri, s, f); break;
    ICOMP2_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: lanes_icomp3(n, w, ri, s, f); break;
    ICOMP3_OPS(X)
#undef X
    case US_OP_BFE_S: case US_OP_BFE_U: case US_OP_BFI_U:
        lanes_bitfield(d, n, ri, s);
        break;
    case US_OP_LOAD: case US_OP_LDS: case US_OP_ATOM: case US_OP_ATOMS:
        lanes_memory(d, env, t, n, active, ri, s);
        break;
    case US_OP_STORE: case US_OP_STS:
        lanes_memory(d, env, t, n, active, ri, s);
        return 0;
    case US_OP_BAR: case US_OP_MEMBAR:
        return 0;   /* the runner's business (barriers), or nothing */
    case US_OP_BRA: {
        uint32_t cond = 0;
        LANES
        for (unsigned q = 0; q < n; q++)
            if (((active >> q) & 1) &&
                micro_cond(d->sub, B(q, 0, 0), B(q, 1, 0), w))
                cond |= 1u << q;
        return cond;
    }
#define X(name, f) case US_OP_##name: lanes_comp1(n, r, s, f); break;
    COMP1_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: lanes_comp2(n, r, s, f); break;
    COMP2_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: lanes_comp3(n, r, s, f); break;
    COMP3_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: lanes_repl1(n, active, r, s, m, f); break;
    REPL1_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: lanes_repl2(n, active, r, s, m, f); break;
    REPL2_OPS(X)
#undef X
#define X(name, f) case US_OP_##name: lanes_dot(n, r, s, f); break;
    DOT_OPS(X)
#undef X
    case US_OP_XPD: case US_OP_DST: case US_OP_LIT:
    case US_OP_EXP: case US_OP_LOG: case US_OP_SCS:
        LANES
        for (unsigned q = 0; q < n; q++)
            if ((active >> q) & 1)
                us_mixed_op(d->op, m, s[q], r[q]);
        break;
    case US_OP_TEX: case US_OP_TXB: case US_OP_TXP:
        lanes_tex(d, env, n, s, r);
        break;
    case US_OP_DDX: case US_OP_DDX_FINE: case US_OP_DDY: case US_OP_DDY_FINE:
        lanes_deriv(d->op, n, s, r);
        break;
    case US_OP_ARL:
        LANES
        for (unsigned q = 0; q < n; q++)
            if (((active >> q) & 1) && (d->mask & 1))
                t[q].addr[d->dst_off][0] = micro_arl(s[q][0][0]);
        return 0;
    case US_OP_KIL:
        LANES
        for (unsigned q = 0; q < n; q++)
            if ((active >> q) & 1)
                t[q].killed = t[q].killed || micro_kil(s[q][0]);
        return 0;
    case US_OP_IF: {
        /* taken when the scalar source is not 0.0 */
        uint32_t cond = 0;
        LANES
        for (unsigned q = 0; q < n; q++)
            if (((active >> q) & 1) && s[q][0][0] != 0.0f)
                cond |= 1u << q;
        return cond;
    }
    case US_OP_ELSE: case US_OP_ENDIF: case US_OP_BGNLOOP: case US_OP_SYNC:
    case US_OP_ENDLOOP: case US_OP_BRK: case US_OP_CONT:
        return 0;  /* the sequencer's business (shader/flow.c) */
    case US_OP_COUNT:
        assert(!"not an opcode");
        return 0;
    }
    if (d->dst_kind != US_DDST_THREAD)
        return 0;
    if (us_ops[d->op].flags & US_I_DST) {
        write_bits(d, t, n, active, ri);
    } else if (us_ops[d->op].flags & US_I_SRC) {   /* I2F: a float result */
        LANES
        for (unsigned q = 0; q < n; q++)
            for (int c = 0; c < 4; c++)
                r[q][c] = micro_float(ri[q][c]);
        write_lanes(d, t, n, active, r);
    } else {
        write_lanes(d, t, n, active, r);
    }
    return 0;
}

/* The instances: a quad with every lane active (straight-line code), a
 * quad under flow control, and one lane (a lone thread is active whenever
 * the sequencer issues). */
US_INLINE void exec_quad_all(const struct us_dinst *d,
                            const struct us_exec_env *env, struct us_thread *t)
{
    exec(d, env, t, QUAD, 0xF);
}

static uint32_t exec_quad(const struct us_dinst *d,
                          const struct us_exec_env *env, struct us_thread *t,
                          uint32_t active)
{
    return exec(d, env, t, QUAD, active);
}

static uint32_t exec_one(const struct us_dinst *d,
                         const struct us_exec_env *env, struct us_thread *t)
{
    return exec(d, env, t, 1, 1);
}

/* ---- Programs --------------------------------------------------------- */

/* Instruction pc, decoded: from the pre-decoded program, else into *tmp. */
US_INLINE const struct us_dinst *fetch(const struct us_program *prog,
                                       const struct us_dinst *code,
                                       unsigned pc, struct us_dinst *tmp)
{
    if (code)
        return &code[pc];
    us_decode_inst(&prog->insts[pc], prog->word_bits, tmp);
    return tmp;
}

/* Run the program on one thread or one quad.  Straight-line code (no
 * flow links) needs no sequencer: every instruction on every lane. */
US_INLINE void run(const struct us_program *prog, const struct us_dinst *code,
                   const struct us_exec_env *env, struct us_thread *t,
                   unsigned n)
{
    struct us_dinst tmp;
    if (!prog->flow) {
        for (unsigned pc = 0; pc < prog->ninsts; pc++) {
            const struct us_dinst *d = fetch(prog, code, pc, &tmp);
            if (n == QUAD)
                exec_quad_all(d, env, t);
            else
                exec_one(d, env, t);
        }
        return;
    }
    struct us_flow_state fs;
    us_flow_start(&fs, n == QUAD ? 0xFu : 1u, env->max_insts);
    while (!us_flow_done(&fs, prog->ninsts)) {
        const struct us_dinst *d = fetch(prog, code, fs.pc, &tmp);
        uint32_t cond = n == QUAD ? exec_quad(d, env, t, fs.active)
                                  : exec_one(d, env, t);
        us_flow_advance(&fs, prog->flow, cond);
    }
    for (unsigned q = 0; q < n; q++)
        t[q].overrun = (fs.stopped >> q) & 1;
}

bool us_interpret_inst(const struct us_program *prog,
                       const struct us_exec_env *env, struct us_thread *t,
                       unsigned pc)
{
    struct us_dinst d;
    us_decode_inst(&prog->insts[pc], prog->word_bits, &d);
    return exec_one(&d, env, t) != 0;
}

bool us_interpret_dinst(const struct us_dinst *d,
                        const struct us_exec_env *env, struct us_thread *t)
{
    return exec_one(d, env, t) != 0;
}

bool us_interpret_cond(const struct us_program *prog,
                       const struct us_exec_env *env,
                       const struct us_thread *t, unsigned pc)
{
    struct us_dinst d;
    us_decode_inst(&prog->insts[pc], prog->word_bits, &d);
    float v[4];
    load_src(&d.src[0], env, t, v);
    return v[0] != 0.0f;
}

bool us_budget_error(const struct us_exec_env *env, unsigned thread,
                     struct us_diag *diag)
{
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "thread %u executed more than %u "
             "instructions (the budget, knob max_instructions): the program "
             "does not finish", thread,
             env->max_insts ? env->max_insts : US_MAX_INSTS_DEFAULT);
    return false;
}

void us_interpret(const struct us_program *prog, const struct us_exec_env *env,
                  struct us_thread *t)
{
    run(prog, NULL, env, t, 1);
}

/* The four threads of a quad in lockstep; lanes a branch disabled keep
 * their registers. */
void us_interpret_quad(const struct us_program *prog,
                       const struct us_exec_env *env, struct us_thread t[4])
{
    run(prog, NULL, env, t, QUAD);
}

void us_interpret_decoded(const struct us_decoded *d,
                          const struct us_exec_env *env, struct us_thread *t)
{
    run(d->prog, d->inst, env, t, 1);
}

bool us_interpret_until_barrier(const struct us_decoded *d,
                                const struct us_exec_env *env,
                                struct us_thread *t, struct us_flow_state *fs)
{
    const struct us_program *prog = d->prog;
    while (!us_flow_done(fs, prog->ninsts)) {
        const struct us_dinst *di = &d->inst[fs->pc];
        us_flow_advance(fs, prog->flow, exec_one(di, env, t));
        if (di->op == US_OP_BAR)
            return true;
    }
    t->overrun = fs->stopped & 1;
    return false;
}

void us_interpret_quads(const struct us_decoded *d,
                        const struct us_exec_env *env, struct us_thread *t,
                        unsigned nquads)
{
    for (unsigned i = 0; i < nquads; i++)
        run(d->prog, d->inst, env, t + QUAD * i, QUAD);
}
