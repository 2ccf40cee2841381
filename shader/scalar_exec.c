/*
 * The scalar SP's functional executor: runs scalar code (isa/scalar.h) for
 * one thread, one repetition at a time, with the micro-operations of
 * isa/micro.h (integers: isa/micro_int.h, memory: isa/micro_mem.h), so its
 * results, and its memory and memory counts, are the interpreter's bits.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"
#include "isa/micro.h"

struct sp {
    const struct us_exec_env *env;
    struct us_thread *t;
    float *scratch;  /* US_SCRATCH_REGS, the thread's */
};

static float *reg_ptr(struct sp *sp, unsigned file, unsigned r)
{
    switch (file) {
    case US_FILE_TEMP: return &sp->t->temp[r >> 2][r & 3];
    case US_FILE_INPUT: return &sp->t->input[r >> 2][r & 3];
    case US_FILE_OUTPUT: return &sp->t->output[r >> 2][r & 3];
    case US_FILE_SCRATCH: return &sp->scratch[r];
    default: return NULL;
    }
}

/* Source modifiers: -|x| (abs first). */
static float modify(const struct us_sopnd *o, float v)
{
    if (o->abs)
        v = micro_abs(v);
    return o->neg ? micro_neg(v) : v;
}

static float read(struct sp *sp, const struct us_sopnd *o, unsigned k)
{
    unsigned r = us_sopnd_reg(o, k);
    float v;
    switch (o->file) {
    case US_FILE_PARAM: v = sp->env->params[r >> 2][r & 3]; break;
    case US_FILE_IMM: v = us_imm_rom[r]; break;
    default: v = *reg_ptr(sp, o->file, r); break;
    }
    return modify(o, v);
}

static void write(struct sp *sp, const struct us_sinst *in, unsigned k,
                  float v, bool sat)
{
    *reg_ptr(sp, in->dst.file, us_sopnd_reg(&in->dst, k)) = sat ? micro_sat(v) : micro_canon(v);
}

/* The INT opcodes' arithmetic, from isa/scalar_ops.def: the switch
 * instantiates the expressions of its own kind (WHEN_K_kind(x) is x when
 * kind is K, else nothing; val_step does the VAL opcodes' alike). */
#define WHEN_INT_VAL(x)
#define WHEN_INT_DOT(x)
#define WHEN_INT_ARL(x)
#define WHEN_INT_LDR(x)
#define WHEN_INT_TEX(x)
#define WHEN_INT_KIL(x)
#define WHEN_INT_NOP(x)
#define WHEN_INT_FLOW(x)
#define WHEN_INT_INT(x) x
#define WHEN_INT_MEM(x)
#define WHEN_INT_BAR(x)

static uint32_t ivalue(enum us_sop op, uint32_t a, uint32_t b, uint32_t c,
                       unsigned w)
{
    (void)a; (void)b; (void)c; (void)w;
    switch (op) {
#define SOP(name, nsrc, from, unit, kind, expr) \
    WHEN_INT_##kind(case US_SOP_##name: return expr;)
#include "scalar_ops.def"
#undef SOP
    default: return 0;
    }
}

/* The four arrays a prepared operand indexes (struct us_sprep): the
 * thread record as floats (its temp, input and output rows, a us_vec4 row
 * being 4 contiguous floats), the SCRATCH file, the parameters, the
 * immediate ROM; any other file has no array (NULL, as reg_ptr's). */
enum { BASE_THREAD, BASE_SCRATCH, BASE_PARAM, BASE_IMM, BASE_NONE };

static unsigned file_array(unsigned file, unsigned *first)
{
    *first = 0;
    switch (file) {
    case US_FILE_TEMP:
        *first = offsetof(struct us_thread, temp) / sizeof(float);
        return BASE_THREAD;
    case US_FILE_INPUT:
        *first = offsetof(struct us_thread, input) / sizeof(float);
        return BASE_THREAD;
    case US_FILE_OUTPUT:
        *first = offsetof(struct us_thread, output) / sizeof(float);
        return BASE_THREAD;
    case US_FILE_SCRATCH: return BASE_SCRATCH;
    case US_FILE_PARAM: return BASE_PARAM;
    case US_FILE_IMM: return BASE_IMM;
    default: return BASE_NONE;
    }
}

static void prepare_opnd(const struct us_sopnd *o, unsigned n,
                         uint8_t *base, uint32_t idx[4])
{
    unsigned first;
    *base = (uint8_t)file_array(o->file, &first);
    for (unsigned k = 0; k < 4; k++)
        idx[k] = first + (k < n ? us_sopnd_reg(o, k) : 0);
}

void us_scalar_prepare(const struct us_sinst *in, struct us_sprep *p)
{
    p->kind = us_sops[in->op].kind;
    for (unsigned i = 0; i < 3; i++) {
        prepare_opnd(&in->src[i], in->count, &p->src_base[i], p->src_idx[i]);
        p->src_keep[i] = in->src[i].abs ? 0x7fffffffu : 0xffffffffu;
        p->src_flip[i] = in->src[i].neg ? 0x80000000u : 0u;
    }
    prepare_opnd(&in->dst, in->count, &p->dst_base, p->dst_idx);
    if (p->dst_base == BASE_PARAM || p->dst_base == BASE_IMM)
        p->dst_base = BASE_NONE;   /* constant stores: not written */
}

/* VAL: every repetition's sources read, the value computed (an SFU's once,
 * at repetition 0, and latched) and written, in repetition order as
 * step's read / value / write do, each operand's register array and
 * per-repetition registers resolved beforehand (us_scalar_prepare) and
 * the opcode dispatched once per instruction. */
#define ONCE_ALU 0
#define ONCE_SFU 1
#define ONCE_TEX 0
#define ONCE_ADDR 0
#define ONCE_BRANCH 0
#define ONCE_LSU 0
#define ONCE_BARRIER 0
/* modify() on the bits, without its branches: fabsf clears the sign bit
 * and negation flips it, NaNs included */
static inline float prepared_modify(const struct us_sprep *p, unsigned i,
                                    float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    b = (b & p->src_keep[i]) ^ p->src_flip[i];
    memcpy(&v, &b, sizeof v);
    return v;
}
#define VAL_SRC(i) prepared_modify(p, i, b##i[p->src_idx[i][k]])
#define VAL_LOOP(nsrc, once, expr)                                          \
    for (unsigned k = 0; k < n; k++) {                                      \
        if (k == 0 || !(once)) {                                            \
            float a = 0.0f, b = 0.0f, c = 0.0f;                             \
            if ((nsrc) > 0) a = VAL_SRC(0);                                 \
            if ((nsrc) > 1) b = VAL_SRC(1);                                 \
            if ((nsrc) > 2) c = VAL_SRC(2);                                 \
            (void)a; (void)b; (void)c;                                      \
            v = (expr);                                                     \
        }                                                                   \
        d[p->dst_idx[k]] = sat ? micro_sat(v) : micro_canon(v);             \
    }
#define WHEN_LOOP_VAL(x) x
#define WHEN_LOOP_DOT(x)
#define WHEN_LOOP_ARL(x)
#define WHEN_LOOP_LDR(x)
#define WHEN_LOOP_TEX(x)
#define WHEN_LOOP_KIL(x)
#define WHEN_LOOP_NOP(x)
#define WHEN_LOOP_FLOW(x)
#define WHEN_LOOP_INT(x)
#define WHEN_LOOP_MEM(x)
#define WHEN_LOOP_BAR(x)

static void val_step(float *const arr[], const struct us_sinst *in,
                     const struct us_sprep *p, const struct us_math *m)
{
    unsigned n = in->count;
    bool sat = in->sat;
    const float *b0 = arr[p->src_base[0]], *b1 = arr[p->src_base[1]];
    const float *b2 = arr[p->src_base[2]];
    float *d = arr[p->dst_base];
    float v = 0.0f;
    (void)m; (void)b0; (void)b1; (void)b2;
    switch (in->op) {
#define SOP(name, nsrc, from, unit, kind, expr) \
    WHEN_LOOP_##kind(case US_SOP_##name: VAL_LOOP(nsrc, ONCE_##unit, expr) break;)
#include "scalar_ops.def"
#undef SOP
    default:
        for (unsigned k = 0; k < n; k++)
            d[p->dst_idx[k]] = sat ? micro_sat(0.0f) : micro_canon(0.0f);
        break;
    }
}

/* DOT: the multiply-add accumulates in the destination, repetition by
 * repetition; saturation on the last. */
static void dot_step(float *const arr[], const struct us_sinst *in,
                     const struct us_sprep *p)
{
    unsigned n = in->count;
    const float *b0 = arr[p->src_base[0]], *b1 = arr[p->src_base[1]];
    float *d = arr[p->dst_base];
    float last = 0.0f;   /* what repetition k - 1 wrote */
    for (unsigned k = 0; k < n; k++) {
        float a = VAL_SRC(0), b = VAL_SRC(1), v;
        if (k == 0) {
            v = micro_mul(a, b);
        } else {
            /* the accumulator: what repetition k - 1 wrote when it is
             * the same register (nothing writes in between), kept in a
             * register rather than read back */
            float acc = p->dst_idx[k] == p->dst_idx[k - 1] ? last
                                                           : d[p->dst_idx[k]];
            v = micro_mad(a, b, modify(&in->dst, acc));
        }
        bool sat = in->sat && k == n - 1;
        last = sat ? micro_sat(v) : micro_canon(v);
        d[p->dst_idx[k]] = last;
    }
}

/* A source's bits at repetition k: an integer source negates in two's
 * complement (isa/ops.def I_SRC), a float one as the float it is. */
static uint32_t read_bits(struct sp *sp, const struct us_sopnd *o, unsigned k,
                          bool int_src)
{
    if (!int_src)
        return micro_bits(read(sp, o, k));
    struct us_sopnd plain = *o;
    plain.neg = false;
    uint32_t v = micro_bits(read(sp, &plain, k));
    return o->neg ? micro_ineg(v, 32) : v;
}

static void write_bits(struct sp *sp, const struct us_sinst *in, unsigned k,
                       uint32_t v)
{
    memcpy(reg_ptr(sp, in->dst.file, us_sopnd_reg(&in->dst, k)), &v, sizeof v);
}

/* INT: the micro_int.h function per repetition; bits, or I2F's float. */
static void int_step(struct sp *sp, const struct us_sinst *in)
{
    enum us_sop op = (enum us_sop)in->op;
    bool is = us_sop_int_src(op), id = us_sop_int_dst(op);
    unsigned ns = us_sops[op].nsrc;
    for (unsigned k = 0; k < in->count; k++) {
        uint32_t a = 0, b = 0, c = 0;
        if (ns > 0) a = read_bits(sp, &in->src[0], k, is);
        if (ns > 1) b = read_bits(sp, &in->src[1], k, is);
        if (ns > 2) c = read_bits(sp, &in->src[2], k, is);
        uint32_t r = ivalue(op, a, b, c, in->word);
        if (id)
            write_bits(sp, in, k, r);
        else
            write(sp, in, k, micro_float(r), in->sat);
    }
}

/* MEM: one access per repetition, in order (the interpreter's x first). */
static void mem_step(struct sp *sp, const struct us_sinst *in)
{
    enum us_sop op = (enum us_sop)in->op;
    const struct us_exec_env *env = sp->env;
    struct us_mem_counts none = { 0 };
    struct us_mem_counts *cnt = env->mem ? &env->mem->counts : &none;
    struct us_buffer *b = us_sop_shared(op) ? sp->t->shared
                        : env->mem ? &env->mem->buf[in->buf] : NULL;
    enum us_mtype mt = (enum us_mtype)in->mtype;
    /* a fragment quad's helper lane reads but never writes
     * (docs/COMPUTE.md, as the interpreter) */
    bool writes = !sp->t->helper;
    unsigned space = us_sop_shared(op) ? US_MEM_SPACE_SHARED : in->buf;
    enum us_sop_access acc = us_sop_access(op);
    enum us_mem_kind kind = acc == US_ACC_LOAD ? US_MEM_LOAD
                          : acc == US_ACC_STORE ? US_MEM_STORE : US_MEM_ATOMIC;
    for (unsigned k = 0; k < in->count; k++) {
        uint32_t addr = read_bits(sp, &in->src[0], k, true);
        micro_mem_note(env->trace, addr, space, micro_msize(mt), kind, 0);
        switch (us_sop_access(op)) {
        case US_ACC_LOAD:
            write_bits(sp, in, k, micro_load(b, addr, mt, cnt));
            break;
        case US_ACC_STORE:
            if (writes)
                micro_store(b, addr, mt, read_bits(sp, &in->src[1], k, true),
                            cnt);
            break;
        case US_ACC_ATOM: {
            if (!writes) {
                write_bits(sp, in, k, micro_load(b, addr, mt, cnt));
                break;
            }
            uint32_t v = read_bits(sp, &in->src[1], k, true);
            uint32_t cmp = us_sops[op].nsrc > 2
                               ? read_bits(sp, &in->src[2], k, true) : 0;
            write_bits(sp, in, k, micro_atomic(b, addr,
                                               (enum us_atom)us_sops[op].atom,
                                               mt, v, cmp, cnt));
            break;
        }
        }
    }
}

/* LDR: PARAM[base + A.x + offset] when inside the array, else 0 (as the
 * interpreter's relative read). */
static float load_relative(struct sp *sp, const struct us_sinst *in, unsigned k)
{
    unsigned base = us_sopnd_reg(&in->src[0], k);
    int64_t i = (int64_t)sp->t->addr[in->rel_addr][0] + in->rel_offset;
    float v = 0.0f;
    if (i >= 0 && i < in->rel_size)
        v = sp->env->params[(base >> 2) + i][base & 3];
    return modify(&in->src[0], v);
}

/* TEX TXB TXP (ARB_fragment_program 3.11.6): the coordinate as the
 * interpreter hands it to the sampler. */
static void texture(struct sp *sp, const struct us_sinst *in, float r[4])
{
    float src[4], coord[4], bias = 0.0f;
    for (unsigned j = 0; j < 4; j++)
        src[j] = read(sp, &in->src[0], j);
    memcpy(coord, src, sizeof coord);
    if (in->op == US_SOP_TXP) {
        for (int c = 0; c < 3; c++)
            coord[c] = micro_txp_div(src[c], src[3]);
    } else if (in->op == US_SOP_TXB) {
        bias = src[3];
    }
    if (sp->env->sample) {
        sp->env->sample(sp->env->sample_ctx, in->tex_unit, in->tex_target,
                        coord, bias, r);
    } else {
        r[0] = r[1] = r[2] = 0.0f;
        r[3] = 1.0f;
    }
}

static void step(struct sp *sp, const struct us_sinst *in)
{
    unsigned n = in->count;
    switch (us_sops[in->op].kind) {
    case US_SK_VAL:
    case US_SK_DOT:    /* us_scalar_step_prepared's */
        break;
    case US_SK_ARL:
        for (unsigned k = 0; k < n; k++) {
            unsigned r = us_sopnd_reg(&in->dst, k);
            sp->t->addr[r >> 2][r & 3] = micro_arl(read(sp, &in->src[0], k));
        }
        break;
    case US_SK_LDR:
        for (unsigned k = 0; k < n; k++)
            write(sp, in, k, load_relative(sp, in, k), in->sat);
        break;
    case US_SK_TEX: {
        float texel[4];
        texture(sp, in, texel);
        for (unsigned k = 0; k < n; k++)
            write(sp, in, k, texel[us_sopnd_reg(&in->dst, k) & 3], in->sat);
        break;
    }
    case US_SK_KIL:
        for (unsigned k = 0; k < n; k++) {
            float v = read(sp, &in->src[0], k);
            const float v4[4] = { v, v, v, v };
            sp->t->killed = sp->t->killed || micro_kil(v4);
        }
        break;
    case US_SK_INT:
        int_step(sp, in);
        break;
    case US_SK_MEM:
        mem_step(sp, in);
        break;
    case US_SK_NOP:
    case US_SK_BAR:    /* the models' business (barriers), or nothing */
    case US_SK_FLOW:   /* the sequencer's business (us_scalar_issue) */
        break;
    }
}

void us_scalar_step_prepared(const struct us_sinst *in,
                             const struct us_sprep *p,
                             const struct us_exec_env *env,
                             struct us_thread *t,
                             float scratch[US_SCRATCH_REGS])
{
    if (p->kind == US_SK_VAL || p->kind == US_SK_DOT) {
        float *const arr[] = { (float *)t, scratch, (float *)env->params,
                               (float *)us_imm_rom, NULL };
        if (p->kind == US_SK_VAL)
            val_step(arr, in, p, env->math);
        else
            dot_step(arr, in, p);
        return;
    }
    struct sp sp = { .env = env, .t = t, .scratch = scratch };
    step(&sp, in);
}

void us_scalar_step(const struct us_sinst *in, const struct us_exec_env *env,
                    struct us_thread *t, float scratch[US_SCRATCH_REGS])
{
    struct us_sprep p;
    us_scalar_prepare(in, &p);
    us_scalar_step_prepared(in, &p, env, t, scratch);
}

bool us_scalar_cond(const struct us_sinst *in, const struct us_exec_env *env,
                    const struct us_thread *t,
                    const float scratch[US_SCRATCH_REGS])
{
    enum us_flow_kind k = us_sop_flow_kind((enum us_sop)in->op);
    if (k != US_FLOW_IF && k != US_FLOW_BRA)
        return false;
    /* read() writes through nothing: the casts only share its code */
    struct sp sp = { .env = env, .t = (struct us_thread *)t,
                     .scratch = (float *)scratch };
    if (k == US_FLOW_BRA)
        return in->cond == US_COND_ALWAYS ||
               micro_cond((enum us_cond)in->cond,
                          read_bits(&sp, &in->src[0], 0, true),
                          read_bits(&sp, &in->src[1], 0, true), in->word);
    return read(&sp, &in->src[0], 0) != 0.0f;
}

void us_scalar_issue(const struct us_sinst *code, const struct us_flow *f,
                     const struct us_exec_env *env, struct us_thread *t,
                     float scratch[US_SCRATCH_REGS],
                     struct us_flow_state *fs)
{
    const struct us_sinst *in = &code[fs->pc];
    us_scalar_step(in, env, t, scratch);
    us_flow_advance(fs, f, us_scalar_cond(in, env, t, scratch));
}

/* The links a sequencer reads from the words: the partner of each flow
 * word is its TARGET, checked against the nesting. */
static bool links_from_targets(const struct us_sinst *code, unsigned n,
                               struct us_flow *f)
{
    f->n = n;
    f->kind = malloc(n);
    f->partner = malloc(n * sizeof *f->partner);
    uint8_t *always = malloc(n);
    bool bra = false, ok = f->kind && f->partner && always;
    for (unsigned i = 0; ok && i < n; i++) {
        f->kind[i] = (uint8_t)us_sop_flow_kind((enum us_sop)code[i].op);
        f->partner[i] = code[i].target;   /* a BRA's; the others' are found */
        always[i] = code[i].cond == US_COND_ALWAYS;
        bra |= f->kind[i] == US_FLOW_BRA;
    }
    struct us_diag d;
    ok = ok && us_flow_link(f->kind, f->partner, n, NULL, &d);
    for (unsigned i = 0; ok && i < n; i++)
        if (f->kind[i] != US_FLOW_NONE && f->partner[i] != code[i].target)
            ok = false;
    ok = ok && (!bra || us_flow_branches(f, always, NULL, &d));
    free(always);
    return ok;
}

bool us_scalar_exec(const struct us_sinst *code, unsigned n,
                    const struct us_exec_env *env, struct us_thread *t)
{
    float scratch[US_SCRATCH_REGS] = { 0 };
    bool flow = false;
    for (unsigned i = 0; i < n && !flow; i++)
        flow = us_sops[code[i].op].kind == US_SK_FLOW;
    struct us_flow links = { 0 };
    bool ok = !flow || links_from_targets(code, n, &links);
    if (ok) {
        struct us_flow_state fs;
        us_flow_start(&fs, 1, env->max_insts);
        while (!us_flow_done(&fs, n))
            us_scalar_issue(code, flow ? &links : NULL, env, t, scratch, &fs);
        t->overrun = fs.stopped & 1;
    }
    free(links.kind);
    free(links.partner);
    free(links.rpc);
    free(links.always);
    return ok;
}

bool us_scalar_run(const us_sword *words, unsigned n,
                   const struct us_exec_env *env, struct us_thread *t)
{
    struct us_sinst *code = malloc((n ? n : 1) * sizeof *code);
    bool ok = code != NULL;
    for (unsigned i = 0; i < n && ok; i++)
        ok = us_sdecode(words[i], &code[i]);
    ok = ok && us_scalar_exec(code, n, env, t);
    free(code);
    return ok;
}
