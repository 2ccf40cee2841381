/* The scalar opcode table, and encoding / decoding of the 96-bit word. */
#include <string.h>

#include "isa/scalar.h"

#define US_OP_NONE (-1)
/* MEM's expr is its atomic operation; the others' is code. */
#define ATOM_OF_VAL(e) 0
#define ATOM_OF_DOT(e) 0
#define ATOM_OF_ARL(e) 0
#define ATOM_OF_LDR(e) 0
#define ATOM_OF_TEX(e) 0
#define ATOM_OF_KIL(e) 0
#define ATOM_OF_NOP(e) 0
#define ATOM_OF_FLOW(e) 0
#define ATOM_OF_INT(e) 0
#define ATOM_OF_BAR(e) 0
#define ATOM_OF_MEM(e) (e)
const struct us_sopinfo us_sops[US_SOP_COUNT] = {
#define SOP(name, nsrc, from, unit, kind, expr) \
    [US_SOP_##name] = { #name, nsrc, US_OP_##from, US_UNIT_##unit, US_SK_##kind, \
                        ATOM_OF_##kind(expr) },
#include "scalar_ops.def"
#undef SOP
};
#undef US_OP_NONE

enum us_sop_access us_sop_access(enum us_sop op)
{
    switch (us_ops[us_sops[op].from].format) {
    case US_FMT_STORE: return US_ACC_STORE;
    case US_FMT_ATOM: return US_ACC_ATOM;
    default: return US_ACC_LOAD;
    }
}

bool us_sop_shared(enum us_sop op)
{
    int from = us_sops[op].from;
    return from == US_OP_LDS || from == US_OP_STS || from == US_OP_ATOMS;
}

/* BFM, a helper of the scalar ISA alone, reads and writes bits. */
bool us_sop_int_src(enum us_sop op)
{
    int from = us_sops[op].from;
    return from < 0 || (us_ops[from].flags & US_I_SRC);
}

bool us_sop_int_dst(enum us_sop op)
{
    int from = us_sops[op].from;
    return from < 0 || (us_ops[from].flags & US_I_DST);
}

enum us_sop us_sop_of(enum us_opcode op, enum us_atom atom)
{
    for (unsigned k = 0; k < US_SOP_COUNT; k++) {
        const struct us_sopinfo *o = &us_sops[k];
        if (o->from == (int)op &&
            (o->kind == US_SK_INT || o->kind == US_SK_MEM ||
             o->kind == US_SK_BAR || o->kind == US_SK_FLOW) &&
            (us_ops[op].format != US_FMT_ATOM || o->atom == atom))
            return (enum us_sop)k;
    }
    return US_SOP_NOP;
}

const float us_imm_rom[US_IMM_REGS] = { 0.0f, 1.0f, 0.0f, 1.0f };

enum us_flow_kind us_sop_flow_kind(enum us_sop op)
{
    const struct us_sopinfo *o = &us_sops[op];
    return o->kind == US_SK_FLOW ? us_op_flow_kind((enum us_opcode)o->from)
                                 : US_FLOW_NONE;
}

unsigned us_sfile_size(unsigned file)
{
    switch (file) {
    case US_FILE_TEMP: return 4 * US_MAX_TEMPS;
    case US_FILE_INPUT: return 4 * US_MAX_INPUTS;
    case US_FILE_OUTPUT: return 4 * US_MAX_OUTPUTS;
    case US_FILE_PARAM: return 4 * US_MAX_PARAMS;
    case US_FILE_ADDRESS: return 4 * US_MAX_ADDRESS;
    case US_FILE_IMM: return US_IMM_REGS;
    case US_FILE_SCRATCH: return US_SCRATCH_REGS;
    default: return 0;
    }
}

static bool opnd_zero(const struct us_sopnd *o)
{
    return !o->file && !o->reg && !o->step && !o->rot && !o->neg && !o->abs;
}

bool us_sopnd_fit(struct us_sopnd *o, const uint8_t *comps, unsigned n,
                  bool allow_rot)
{
    o->reg = (uint16_t)((o->reg & ~3u) | comps[0]);
    o->rot = false;
    o->step = n > 1 ? (uint8_t)((comps[1] - comps[0]) & 3u) : 0;
    bool ok = true;
    for (unsigned k = 0; k < n; k++)
        ok = ok && us_sopnd_reg(o, k) == (o->reg & ~3u) + comps[k];
    if (ok || !allow_rot || comps[0] > 2)
        return ok;
    for (uint8_t step = 1; step <= 2; step++) {
        o->rot = true;
        o->step = step;
        ok = true;
        for (unsigned k = 0; k < n; k++)
            ok = ok && us_sopnd_reg(o, k) == (o->reg & ~3u) + comps[k];
        if (ok)
            return true;
    }
    o->rot = false;
    o->step = 0;
    return false;
}

/* The vec4 register an operand names, and all its repetitions, exist. */
static bool opnd_in_file(const struct us_sopnd *o)
{
    unsigned size = us_sfile_size(o->file);
    return o->step < 4 && size && (o->reg | 3u) < size;  /* sizes are 4k */
}

static bool dst_file_ok(const struct us_sinst *in)
{
    const struct us_sopnd *d = &in->dst;
    if (d->neg || d->abs || d->rot || !opnd_in_file(d))
        return false;
    if (in->op == US_SOP_ARL)
        return d->file == US_FILE_ADDRESS;
    return d->file == US_FILE_TEMP || d->file == US_FILE_OUTPUT ||
           d->file == US_FILE_SCRATCH;
}

static bool src_file_ok(const struct us_sopnd *s)
{
    if (!opnd_in_file(s) || (s->rot && (s->step < 1 || s->step > 2 ||
                                        (s->reg & 3u) > 2)))
        return false;
    switch (s->file) {
    case US_FILE_TEMP: case US_FILE_INPUT: case US_FILE_OUTPUT:
    case US_FILE_PARAM: case US_FILE_IMM: case US_FILE_SCRATCH:
        return true;
    default:
        return false;
    }
}

static bool word_ok(unsigned word)
{
    return word == 32 || word == 16 || word == 8;
}

/* A flow word: TARGET and its sources alone (IF: SRC0; BRA: SRC0 and SRC1
 * unless it always jumps, its condition and word width). */
static bool flow_valid(const struct us_sinst *in, const struct us_sopinfo *o)
{
    bool bra = us_sop_flow_kind((enum us_sop)in->op) == US_FLOW_BRA;
    struct us_sinst bare = { .op = in->op, .count = 1, .target = in->target };
    unsigned nsrc = o->nsrc;
    if (bra) {
        if (!word_ok(in->word) || in->cond >= US_COND_COUNT)
            return false;
        bare.word = in->word;
        bare.cond = in->cond;
        if (in->cond == US_COND_ALWAYS)
            nsrc = 0;
    }
    for (unsigned i = 0; i < nsrc; i++) {
        if (!src_file_ok(&in->src[i]) || in->src[i].step || in->src[i].rot)
            return false;
        bare.src[i] = in->src[i];
    }
    return us_sinst_equal(in, &bare) && in->target < (1u << SIZE_SW_TARGET);
}

/* A memory word: no SAT, no rotation (MTYPE holds the ROT bits), an
 * access type the operation takes, a binding in range (none for shared
 * memory), no destination for stores. */
static bool mem_valid(const struct us_sinst *in, const struct us_sopinfo *o)
{
    enum us_sop op = (enum us_sop)in->op;
    if (in->sat || in->mtype >= US_MT_COUNT || in->buf >= US_MAX_BUFFERS ||
        (us_sop_shared(op) && in->buf) || in->word || in->cond ||
        in->target || in->tex_unit || in->tex_target || in->rel_addr ||
        in->rel_offset || in->rel_size)
        return false;
    if (us_sop_access(op) == US_ACC_ATOM &&
        in->mtype != US_MT_U32 && in->mtype != US_MT_S32)
        return false;
    if (us_sop_access(op) == US_ACC_STORE ? !opnd_zero(&in->dst)
                                          : !dst_file_ok(in))
        return false;
    if (in->count == 1 && in->dst.step)
        return false;
    for (unsigned i = 0; i < 3; i++) {
        if (i >= o->nsrc) {
            if (!opnd_zero(&in->src[i]))
                return false;
        } else if (!src_file_ok(&in->src[i]) || in->src[i].rot ||
                   (in->count == 1 && in->src[i].step)) {
            return false;
        }
    }
    return true;
}

bool us_sinst_valid(const struct us_sinst *in)
{
    if (in->op >= US_SOP_COUNT || in->count < 1 || in->count > 4)
        return false;
    if (in->dst.table || in->src[0].table || in->src[1].table ||
        in->src[2].table)
        return false;   /* the swizzle form: no 96-bit word holds it */
    const struct us_sopinfo *o = &us_sops[in->op];
    if (o->kind == US_SK_NOP || o->kind == US_SK_BAR) {
        struct us_sinst bare = { .op = in->op, .count = 1 };
        return us_sinst_equal(in, &bare);
    }
    if (o->kind == US_SK_FLOW)
        return flow_valid(in, o);
    if (o->kind == US_SK_MEM)
        return mem_valid(in, o);
    if (in->target || in->mtype || in->buf || in->cond)
        return false;
    if (o->kind == US_SK_INT) {   /* a word width; SAT on a float result */
        if (!word_ok(in->word) ||
            (in->sat && us_sop_int_dst((enum us_sop)in->op)))
            return false;
    } else if (in->word) {
        return false;
    }
    if (in->count == 1) {   /* steps mean nothing without repetition */
        if (in->dst.step)
            return false;
        for (int i = 0; i < 3; i++)   /* TEX gathers its coordinate */
            if ((in->src[i].step || in->src[i].rot) &&
                !(o->kind == US_SK_TEX && i == 0))
                return false;
    }
    if (o->kind == US_SK_VAL && o->unit == US_UNIT_SFU)
        for (int i = 0; i < 3; i++)   /* read once, at repetition 0 */
            if (in->src[i].step || in->src[i].rot)
                return false;
    if (o->kind == US_SK_KIL) {
        if (!opnd_zero(&in->dst) || in->sat)
            return false;
    } else if (!dst_file_ok(in)) {
        return false;
    }
    if (o->kind == US_SK_ARL && in->sat)
        return false;
    if (o->kind == US_SK_DOT && in->count > 1 && in->dst.step)
        return false;
    for (unsigned i = 0; i < 3; i++) {
        if (i >= o->nsrc) {
            if (!opnd_zero(&in->src[i]))
                return false;
        } else if (!src_file_ok(&in->src[i])) {
            return false;
        }
    }
    if (o->kind == US_SK_LDR) {
        if (in->src[0].file != US_FILE_PARAM || in->rel_addr >= US_MAX_ADDRESS ||
            in->rel_size < 1 || in->rel_size >= (1u << SIZE_SW_REG) ||
            in->rel_offset < -(1 << (SIZE_SW_REG - 1)) ||
            in->rel_offset >= (1 << (SIZE_SW_REG - 1)))
            return false;
    } else if (in->rel_addr || in->rel_offset || in->rel_size) {
        return false;
    }
    if (o->kind == US_SK_TEX) {
        if (in->tex_unit >= US_MAX_TEX_UNITS ||
            in->tex_target >= US_TEX_TARGET_COUNT)
            return false;
    } else if (in->tex_unit || in->tex_target) {
        return false;
    }
    return true;
}

static bool opnd_equal(const struct us_sopnd *a, const struct us_sopnd *b)
{
    return a->file == b->file && a->reg == b->reg && a->step == b->step &&
           a->rot == b->rot && a->neg == b->neg && a->abs == b->abs;
}

bool us_sinst_equal(const struct us_sinst *a, const struct us_sinst *b)
{
    if (a->op != b->op || a->count != b->count || a->sat != b->sat ||
        a->tex_unit != b->tex_unit || a->tex_target != b->tex_target ||
        a->rel_addr != b->rel_addr || a->rel_offset != b->rel_offset ||
        a->rel_size != b->rel_size || a->target != b->target ||
        a->word != b->word || a->mtype != b->mtype || a->buf != b->buf ||
        a->cond != b->cond || !opnd_equal(&a->dst, &b->dst))
        return false;
    for (int i = 0; i < 3; i++)
        if (!opnd_equal(&a->src[i], &b->src[i]))
            return false;
    return true;
}

/* The WORD field's code: 0 = 32 bits, 1 = 16, 2 = 8. */
static unsigned word_code(unsigned word)
{
    return word == 16 ? 1 : word == 8 ? 2 : 0;
}

us_sword us_sencode(const struct us_sinst *in)
{
    assert(us_sinst_valid(in));
    const struct us_sopinfo *o = &us_sops[in->op];
    us_sword w = us_sw_make(in->op, in->count);
    us_sw_set_sat(&w, in->sat);
    us_sw_set_dfile(&w, in->dst.file);
    us_sw_set_dreg(&w, in->dst.reg);
    us_sw_set_dstep(&w, in->dst.step);
    unsigned rot = 0;
    for (unsigned i = 0; i < 3; i++) {
        rot |= (unsigned)in->src[i].rot << i;
        us_sw_set_sfile(&w, i, in->src[i].file);
        us_sw_set_sreg(&w, i, in->src[i].reg);
        us_sw_set_sstep(&w, i, in->src[i].step);
        us_sw_set_sneg(&w, i, in->src[i].neg);
        us_sw_set_sabs(&w, i, in->src[i].abs);
    }
    us_sw_set_rot(&w, rot);
    if (in->op == US_SOP_LDR) {
        us_sw_set_sreg(&w, 1, in->rel_size);
        us_sw_set_sstep(&w, 1, in->rel_addr);
        us_sw_set_sreg(&w, 2, (unsigned)in->rel_offset & ((1u << SIZE_SW_REG) - 1));
    }
    switch (o->kind) {
    case US_SK_FLOW:   /* SRC2 is zero; BRA's DREG is too */
        us_sw_set_target(&w, in->target);
        if (us_sop_flow_kind((enum us_sop)in->op) == US_FLOW_BRA) {
            us_sw_set_cond(&w, in->cond);
            us_sw_set_word(&w, word_code(in->word));
        }
        break;
    case US_SK_INT:
        us_sw_set_word(&w, word_code(in->word));
        break;
    case US_SK_MEM:    /* no source rotates */
        us_sw_set_mtype(&w, in->mtype);
        us_sw_set_buf(&w, in->buf);
        break;
    default:
        us_sw_set_texu(&w, in->tex_unit);
        us_sw_set_textgt(&w, in->tex_target);
        break;
    }
    return w;
}

static unsigned word_of(unsigned code)
{
    return code == 1 ? 16 : code == 2 ? 8 : code == 0 ? 32 : 0;
}

bool us_sdecode(us_sword w, struct us_sinst *out)
{
    struct us_sinst in;
    memset(&in, 0, sizeof in);
    if (us_sw_get_op(&w) >= US_SOP_COUNT)
        return false;
    in.op = (uint8_t)us_sw_get_op(&w);
    const struct us_sopinfo *o = &us_sops[in.op];
    in.count = (uint8_t)(us_sw_get_cnt(&w) + 1);
    in.sat = us_sw_get_sat(&w);
    in.dst.file = (uint8_t)us_sw_get_dfile(&w);
    in.dst.reg = (uint16_t)us_sw_get_dreg(&w);
    in.dst.step = (uint8_t)us_sw_get_dstep(&w);
    unsigned nsrc = o->kind == US_SK_FLOW ? 2 : 3;   /* TARGET over SRC2 */
    for (unsigned i = 0; i < nsrc; i++) {
        struct us_sopnd *s = &in.src[i];
        s->file = (uint8_t)us_sw_get_sfile(&w, i);
        s->reg = (uint16_t)us_sw_get_sreg(&w, i);
        s->step = (uint8_t)us_sw_get_sstep(&w, i);
        s->neg = us_sw_get_sneg(&w, i);
        s->abs = us_sw_get_sabs(&w, i);
        s->rot = o->kind != US_SK_MEM && ((us_sw_get_rot(&w) >> i) & 1);
    }
    if (in.op == US_SOP_LDR) {
        in.rel_size = in.src[1].reg;
        in.rel_addr = in.src[1].step;
        unsigned off = in.src[2].reg;
        in.rel_offset = (int16_t)(off >= (1u << (SIZE_SW_REG - 1))
                                      ? (int)off - (1 << SIZE_SW_REG) : (int)off);
        memset(&in.src[1], 0, sizeof in.src[1]);
        memset(&in.src[2], 0, sizeof in.src[2]);
    }
    switch (o->kind) {
    case US_SK_FLOW:
        in.target = us_sw_get_target(&w);
        if (us_sop_flow_kind((enum us_sop)in.op) == US_FLOW_BRA) {
            in.cond = (uint8_t)us_sw_get_cond(&w);
            in.word = (uint8_t)word_of(us_sw_get_word(&w));
            in.dst.reg = 0;   /* the DREG bits held COND */
        }
        break;
    case US_SK_INT:
        in.word = (uint8_t)word_of(us_sw_get_word(&w));
        break;
    case US_SK_MEM:
        in.mtype = (uint8_t)us_sw_get_mtype(&w);
        in.buf = (uint8_t)us_sw_get_buf(&w);
        break;
    default:
        in.tex_unit = (uint8_t)us_sw_get_texu(&w);
        in.tex_target = (uint8_t)us_sw_get_textgt(&w);
        break;
    }
    if (!us_sinst_valid(&in))
        return false;
    /* Every bit is some field of the decoded form: a word with bits no
     * encoder sets (a flow word's SRC2, BRA's DFILE, ...) is refused. */
    us_sword back = us_sencode(&in);
    if (memcmp(&back, &w, sizeof w))
        return false;
    *out = in;
    return true;
}
