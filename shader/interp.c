/*
 * The reference interpreter: runs the vec4 IR one instruction at a time
 * with the semantics of ARB_vertex_program 1.0 section 2.14.5 and
 * ARB_fragment_program 1.0 sections 3.11.5-3.11.6, arithmetic from the
 * per-lane micro-operations of shader/micro.h.
 *
 * Each instruction goes through the same three steps:
 *   1. load every source (swizzle incl. SWZ's 0 and 1, per-component
 *      negation, relative addressing) -- all reads happen before any write,
 *      so a destination that is also a source (XPD r0, r0, r1) is safe;
 *   2. compute the result vector, dispatched on the opcode table's shape:
 *      COMP through one component-wise wrapper, REPL once from the scalar
 *      operand (.x after the swizzle) and replicated, DOT, MIXED;
 *   3. saturate (_SAT) and write the components micro_written_mask allows.
 *
 * Relative addressing (2.14.4.2) reads params[index + A.x + offset] when
 * A.x + offset lies in [0, rel_size); outside the array the spec leaves the
 * result undefined and this model reads (0, 0, 0, 0).
 */
#include <assert.h>
#include <string.h>

#include "ushader.h"
#include "shader/micro.h"

static const float zero4[4] = { 0.0f, 0.0f, 0.0f, 0.0f };

static void reset_io(struct us_thread *t)
{
    memset(t->input, 0, sizeof t->input);
    for (unsigned i = 0; i < US_MAX_INPUTS; i++)
        t->input[i][3] = 1.0f;
    memset(t->output, 0, sizeof t->output);
    memset(t->addr, 0, sizeof t->addr);
    t->killed = false;
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

/* The register a source operand names (before swizzle and negation). */
static const float *src_register(const struct us_src *s,
                                 const struct us_exec_env *env,
                                 const struct us_thread *t)
{
    switch (s->file) {
    case US_FILE_TEMP:
        assert(s->index < US_MAX_TEMPS);
        return t->temp[s->index];
    case US_FILE_INPUT:
        assert(s->index < US_MAX_INPUTS);
        return t->input[s->index];
    case US_FILE_OUTPUT:
        assert(s->index < US_MAX_OUTPUTS);
        return t->output[s->index];
    case US_FILE_PARAM:
        if (s->rel) {
            assert(s->rel_addr < US_MAX_ADDRESS);
            int64_t i = (int64_t)t->addr[s->rel_addr][0] + s->rel_offset;
            if (i < 0 || i >= s->rel_size)
                return zero4;
            return env->params[s->index + i];
        }
        return env->params[s->index];
    default:
        return zero4;
    }
}

/* VectorLoad (2.14.4.1) extended with SWZ's per-component selectors and
 * signs (2.14.5.26): a negated ZERO is -0.0, as the pseudo-code gives. */
static void load_src(const struct us_src *s, const struct us_exec_env *env,
                     const struct us_thread *t, float out[4])
{
    const float *reg = src_register(s, env, t);
    static const uint8_t identity[4] = { US_SWZ_X, US_SWZ_Y, US_SWZ_Z,
                                         US_SWZ_W };
    if (!s->negate && !memcmp(s->swz, identity, sizeof identity)) {
        memcpy(out, reg, 4 * sizeof *out);  /* the common case, made fast */
        return;
    }
    /* selectors index the register extended with SWZ's 0 and 1 */
    const float ext[6] = { reg[0], reg[1], reg[2], reg[3], 0.0f, 1.0f };
    for (int c = 0; c < 4; c++) {
        assert(s->swz[c] <= US_SWZ_ONE);
        float v = ext[s->swz[c]];
        out[c] = (s->negate >> c) & 1 ? micro_neg(v) : v;
    }
}

static void load_sources(const struct us_inst *in,
                         const struct us_exec_env *env,
                         const struct us_thread *t, float src[3][4])
{
    unsigned n = us_ops[in->op].nsrc;
    for (unsigned i = 0; i < 3; i++) {
        if (i < n)
            load_src(&in->src[i], env, t, src[i]);
        else
            memcpy(src[i], zero4, sizeof zero4);
    }
}

/* COMP: one component. */
static float comp_op(enum us_opcode op, float a, float b, float c)
{
    switch (op) {
    case US_OP_ABS: return micro_abs(a);
    case US_OP_ADD: return micro_add(a, b);
    case US_OP_CMP: return micro_cmp(a, b, c);
    case US_OP_FLR: return micro_flr(a);
    case US_OP_FRC: return micro_frc(a);
    case US_OP_LRP: return micro_lrp(a, b, c);
    case US_OP_MAD: return micro_mad(a, b, c);
    case US_OP_MAX: return micro_max(a, b);
    case US_OP_MIN: return micro_min(a, b);
    case US_OP_MUL: return micro_mul(a, b);
    case US_OP_SGE: return micro_sge(a, b);
    case US_OP_SLT: return micro_slt(a, b);
    case US_OP_SUB: return micro_sub(a, b);
    case US_OP_MOV:
    case US_OP_SWZ: /* the extended swizzle was applied by load_src */
        return micro_mov(a);
    default:
        assert(!"not a component-wise ALU opcode");
        return a;
    }
}

/* REPL: one scalar result from the scalar operands. */
static float repl_op(enum us_opcode op, const struct us_math *m, float a,
                     float b)
{
    switch (op) {
    case US_OP_COS: return micro_cos(m, a);
    case US_OP_EX2: return micro_ex2(m, a);
    case US_OP_LG2: return micro_lg2(m, a);
    case US_OP_POW: return micro_pow(m, a, b);
    case US_OP_RCP: return micro_rcp(m, a);
    case US_OP_RSQ: return micro_rsq(m, a);
    case US_OP_SIN: return micro_sin(m, a);
    default:
        assert(!"not a replicated-scalar opcode");
        return a;
    }
}

static float dot_op(enum us_opcode op, const float a[4], const float b[4])
{
    switch (op) {
    case US_OP_DP3: return micro_dp3(a, b);
    case US_OP_DP4: return micro_dp4(a, b);
    case US_OP_DPH: return micro_dph(a, b);
    default:
        assert(!"not a dot-product opcode");
        return 0.0f;
    }
}

/* MIXED: each component its own formula (ARL is handled by the caller).
 * Components micro_written_mask excludes are left as 0 and never written. */
static void mixed_op(enum us_opcode op, const struct us_math *m,
                     float src[3][4], float r[4])
{
    const float *a = src[0], *b = src[1];
    switch (op) {
    case US_OP_XPD: /* 2.14.5.27 */
        r[0] = micro_xpd(a[1], b[2], a[2], b[1]);
        r[1] = micro_xpd(a[2], b[0], a[0], b[2]);
        r[2] = micro_xpd(a[0], b[1], a[1], b[0]);
        r[3] = 0.0f;
        break;
    case US_OP_DST: /* 2.14.5.7 */
        r[0] = 1.0f;
        r[1] = micro_mul(a[1], b[1]);
        r[2] = a[2];
        r[3] = b[3];
        break;
    case US_OP_LIT: /* 2.14.5.13 */
        r[0] = 1.0f;
        r[1] = micro_lit_clamp0(a[0]);
        r[2] = micro_lit_z(m, a[0], a[1], a[3]);
        r[3] = 1.0f;
        break;
    case US_OP_EXP: /* 2.14.5.9 */
        r[0] = micro_exp_x(a[0]);
        r[1] = micro_exp_y(a[0]);
        r[2] = micro_exp_z(m, a[0]);
        r[3] = 1.0f;
        break;
    case US_OP_LOG: /* 2.14.5.14 */
        r[0] = micro_log_x(a[0]);
        r[1] = micro_log_y(a[0]);
        r[2] = micro_log_z(m, a[0]);
        r[3] = 1.0f;
        break;
    case US_OP_SCS: /* 3.11.5.23 */
        r[0] = micro_cos(m, a[0]);
        r[1] = micro_sin(m, a[0]);
        r[2] = r[3] = 0.0f;
        break;
    default:
        assert(!"not a mixed opcode");
        memcpy(r, zero4, sizeof zero4);
        break;
    }
}

/* Step 2 for every unit but TEX. */
static void compute(const struct us_inst *in, const struct us_math *m,
                    float src[3][4], float r[4])
{
    enum us_opcode op = in->op;
    switch (us_ops[op].shape) {
    case US_SHAPE_COMP:
        for (int c = 0; c < 4; c++)
            r[c] = comp_op(op, src[0][c], src[1][c], src[2][c]);
        break;
    case US_SHAPE_REPL: {
        float s = repl_op(op, m, src[0][0], src[1][0]);
        r[0] = r[1] = r[2] = r[3] = s;
        break;
    }
    case US_SHAPE_DOT: {
        float s = dot_op(op, src[0], src[1]);
        r[0] = r[1] = r[2] = r[3] = s;
        break;
    }
    case US_SHAPE_MIXED:
        mixed_op(op, m, src, r);
        break;
    default:
        memcpy(r, zero4, sizeof zero4);
        break;
    }
}

/* TEX / TXB / TXP (3.11.6.1-3): the coordinates and LOD bias handed to the
 * sampler. */
static void tex_coord(const struct us_inst *in, const float src[4],
                      float coord[4], float *lod_bias)
{
    memcpy(coord, src, 4 * sizeof(float));
    *lod_bias = 0.0f;
    if (in->op == US_OP_TXP) {
        for (int c = 0; c < 3; c++)
            coord[c] = micro_txp_div(src[c], src[3]);
    } else if (in->op == US_OP_TXB) {
        *lod_bias = src[3];
    }
}

static void tex_single(const struct us_inst *in, const struct us_exec_env *env,
                       const float src[4], float r[4])
{
    float coord[4], bias;
    tex_coord(in, src, coord, &bias);
    if (env->sample) {
        env->sample(env->sample_ctx, in->tex_unit, in->tex_target, coord,
                    bias, r);
    } else {
        r[0] = r[1] = r[2] = 0.0f;
        r[3] = 1.0f;
    }
}

/* Step 3: saturate and write under the write mask (2.14.4.3). */
static void write_result(const struct us_inst *in, struct us_thread *t,
                         const float src0[4], float r[4])
{
    unsigned mask = micro_written_mask(in->op, in->dst.mask);
    if (in->op == US_OP_ARL) {
        assert(in->dst.index < US_MAX_ADDRESS);
        if (mask & 1)
            t->addr[in->dst.index][0] = micro_arl(src0[0]);
        return;
    }
    if (in->op == US_OP_KIL) {
        t->killed = t->killed || micro_kil(src0);
        return;
    }
    float *dst;
    switch (in->dst.file) {
    case US_FILE_TEMP:
        assert(in->dst.index < US_MAX_TEMPS);
        dst = t->temp[in->dst.index];
        break;
    case US_FILE_OUTPUT:
        assert(in->dst.index < US_MAX_OUTPUTS);
        dst = t->output[in->dst.index];
        break;
    default:
        return;
    }
    for (int c = 0; c < 4; c++)
        if ((mask >> c) & 1)
            dst[c] = in->sat ? micro_sat(r[c]) : micro_canon(r[c]);
}

static bool is_alu(const struct us_inst *in)
{
    return us_ops[in->op].unit != US_UNIT_TEX && in->op != US_OP_ARL &&
           in->op != US_OP_KIL;
}

void us_interpret_inst(const struct us_program *prog,
                       const struct us_exec_env *env, struct us_thread *t,
                       unsigned pc)
{
    const struct us_inst *in = &prog->insts[pc];
    float src[3][4], r[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    load_sources(in, env, t, src);
    if (us_ops[in->op].unit == US_UNIT_TEX)
        tex_single(in, env, src[0], r);
    else if (is_alu(in))
        compute(in, env->math, src, r);
    write_result(in, t, src[0], r);
}

void us_interpret(const struct us_program *prog, const struct us_exec_env *env,
                  struct us_thread *t)
{
    for (unsigned i = 0; i < prog->ninsts; i++)
        us_interpret_inst(prog, env, t, i);
}

void us_interpret_quad(const struct us_program *prog,
                       const struct us_exec_env *env, struct us_thread t[4])
{
    for (unsigned i = 0; i < prog->ninsts; i++) {
        const struct us_inst *in = &prog->insts[i];
        float src[4][3][4], r[4][4];
        memset(r, 0, sizeof r);
        for (int q = 0; q < 4; q++)
            load_sources(in, env, &t[q], src[q]);
        if (us_ops[in->op].unit == US_UNIT_TEX && env->sample_quad) {
            float coord[4][4], bias[4];
            for (int q = 0; q < 4; q++)
                tex_coord(in, src[q][0], coord[q], &bias[q]);
            env->sample_quad(env->sample_ctx, in->tex_unit, in->tex_target,
                             (const float (*)[4])coord, bias, r);
        } else {
            for (int q = 0; q < 4; q++) {
                if (us_ops[in->op].unit == US_UNIT_TEX)
                    tex_single(in, env, src[q][0], r[q]);
                else if (is_alu(in))
                    compute(in, env->math, src[q], r[q]);
            }
        }
        for (int q = 0; q < 4; q++)
            write_result(in, &t[q], src[q][0], r[q]);
    }
}
