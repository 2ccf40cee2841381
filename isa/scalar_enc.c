/* The scalar opcode table, and encoding / decoding of the 96-bit word. */
#include <string.h>

#include "isa/scalar.h"

#define US_OP_NONE (-1)
const struct us_sopinfo us_sops[US_SOP_COUNT] = {
#define SOP(name, nsrc, from, unit, kind, expr) \
    [US_SOP_##name] = { #name, nsrc, US_OP_##from, US_UNIT_##unit, US_SK_##kind },
#include "scalar_ops.def"
#undef SOP
};
#undef US_OP_NONE

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

bool us_sinst_valid(const struct us_sinst *in)
{
    if (in->op >= US_SOP_COUNT || in->count < 1 || in->count > 4)
        return false;
    const struct us_sopinfo *o = &us_sops[in->op];
    if (o->kind == US_SK_NOP) {
        struct us_sinst nop = { .op = US_SOP_NOP, .count = 1 };
        return us_sinst_equal(in, &nop);
    }
    if (o->kind == US_SK_FLOW) {   /* TARGET and, for IF, SRC0 alone */
        struct us_sinst bare = { .op = in->op, .count = 1,
                                 .target = in->target };
        if (o->nsrc)
            bare.src[0] = in->src[0];
        return us_sinst_equal(in, &bare) &&
               in->target < (1u << SIZE_SW_TARGET) &&
               (!o->nsrc || (src_file_ok(&in->src[0]) && !in->src[0].step &&
                             !in->src[0].rot));
    }
    if (in->target)
        return false;
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
        !opnd_equal(&a->dst, &b->dst))
        return false;
    for (int i = 0; i < 3; i++)
        if (!opnd_equal(&a->src[i], &b->src[i]))
            return false;
    return true;
}

us_sword us_sencode(const struct us_sinst *in)
{
    assert(us_sinst_valid(in));
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
    if (us_sops[in->op].kind == US_SK_FLOW)   /* SRC1 and SRC2 are zero */
        us_sw_set_target(&w, in->target);
    us_sw_set_texu(&w, in->tex_unit);
    us_sw_set_textgt(&w, in->tex_target);
    return w;
}

bool us_sdecode(us_sword w, struct us_sinst *out)
{
    struct us_sinst in;
    memset(&in, 0, sizeof in);
    if (us_sw_get_rsvd(&w) || us_sw_get_op(&w) >= US_SOP_COUNT)
        return false;
    in.op = (uint8_t)us_sw_get_op(&w);
    in.count = (uint8_t)(us_sw_get_cnt(&w) + 1);
    in.sat = us_sw_get_sat(&w);
    in.dst.file = (uint8_t)us_sw_get_dfile(&w);
    in.dst.reg = (uint16_t)us_sw_get_dreg(&w);
    in.dst.step = (uint8_t)us_sw_get_dstep(&w);
    for (unsigned i = 0; i < 3; i++) {
        struct us_sopnd *s = &in.src[i];
        s->file = (uint8_t)us_sw_get_sfile(&w, i);
        s->reg = (uint16_t)us_sw_get_sreg(&w, i);
        s->step = (uint8_t)us_sw_get_sstep(&w, i);
        s->neg = us_sw_get_sneg(&w, i);
        s->abs = us_sw_get_sabs(&w, i);
        s->rot = (us_sw_get_rot(&w) >> i) & 1;
    }
    if (in.op == US_SOP_LDR) {
        if (in.src[1].file || in.src[1].neg || in.src[1].abs || in.src[1].rot ||
            in.src[2].file || in.src[2].step || in.src[2].neg || in.src[2].abs ||
            in.src[2].rot)
            return false;
        in.rel_size = in.src[1].reg;
        in.rel_addr = in.src[1].step;
        unsigned off = in.src[2].reg;
        in.rel_offset = (int16_t)(off >= (1u << (SIZE_SW_REG - 1))
                                      ? (int)off - (1 << SIZE_SW_REG) : (int)off);
        memset(&in.src[1], 0, sizeof in.src[1]);
        memset(&in.src[2], 0, sizeof in.src[2]);
    }
    if (us_sops[in.op].kind == US_SK_FLOW) {
        if (us_sw_get_tpad(&w) || (us_sw_get_rot(&w) & 6u))
            return false;
        in.target = us_sw_get_target(&w);
        memset(&in.src[1], 0, sizeof in.src[1]);
        memset(&in.src[2], 0, sizeof in.src[2]);
    }
    in.tex_unit = (uint8_t)us_sw_get_texu(&w);
    in.tex_target = (uint8_t)us_sw_get_textgt(&w);
    if (!us_sinst_valid(&in))
        return false;
    *out = in;
    return true;
}
