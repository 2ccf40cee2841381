/*
 * The vec4 instruction word of the SIMD baselines (simd4, superscalar and
 * both slots of hetero; SPEC section 2): one 128-bit word per vec4
 * instruction, layout in isa/scalar.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/scalar.h"

static unsigned src_pos(unsigned i)
{
    return i == 0 ? POS_VW_SRC0 : i == 1 ? POS_VW_SRC1 : POS_VW_SRC2;
}

static bool is_memory(enum us_op_format f)
{
    return f == US_FMT_LOAD || f == US_FMT_STORE || f == US_FMT_ATOM;
}

static bool is_shared(enum us_opcode op)
{
    return op == US_OP_LDS || op == US_OP_STS || op == US_OP_ATOMS;
}

/* Does source i take the wide form (3-bit selectors, a sign per
 * component)?  Only SRC0 of a register-format instruction. */
static bool wide_src(enum us_op_format f, unsigned i)
{
    return i == 0 && !is_memory(f);
}

/* One register source: FILE | IDX | SWZ | NEG at `pos`. */
static bool put_src(const struct us_src *s, bool wide, unsigned pos,
                    uint32_t w[4])
{
    if (s->file > US_FILE_ADDRESS || s->index >= (1u << SIZE_VW_IDX))
        return false;
    us_bits_set(w, pos, SIZE_VW_FILE, s->file);
    us_bits_set(w, pos + SIZE_VW_FILE, SIZE_VW_IDX, s->index);
    unsigned spos = pos + SIZE_VW_FILE + SIZE_VW_IDX, bits = wide ? 3 : 2;
    for (unsigned c = 0; c < 4; c++) {
        if (s->swz[c] > (wide ? US_SWZ_ONE : US_SWZ_W))
            return false;
        us_bits_set(w, spos + c * bits, bits, s->swz[c]);
    }
    unsigned npos = spos + 4 * bits, neg = s->negate & 0xf;
    if (wide) {
        us_bits_set(w, npos, 4, neg);
    } else {
        if (neg != 0 && neg != 0xf)
            return false;
        us_bits_set(w, npos, 1, neg != 0);
    }
    return true;
}

static bool get_src(const uint32_t w[4], bool wide, unsigned pos,
                    struct us_src *s)
{
    s->file = (uint8_t)us_bits_get(w, pos, SIZE_VW_FILE);
    s->index = (uint16_t)us_bits_get(w, pos + SIZE_VW_FILE, SIZE_VW_IDX);
    unsigned spos = pos + SIZE_VW_FILE + SIZE_VW_IDX, bits = wide ? 3 : 2;
    for (unsigned c = 0; c < 4; c++) {
        s->swz[c] = (uint8_t)us_bits_get(w, spos + c * bits, bits);
        if (s->swz[c] > US_SWZ_ONE)
            return false;
    }
    unsigned npos = spos + 4 * bits;
    s->negate = (uint8_t)(wide ? us_bits_get(w, npos, 4)
                               : us_bits_get(w, npos, 1) * 0xfu);
    return s->file <= US_FILE_ADDRESS;
}

/* The fields only some formats have: texture unit and target, memory
 * access, branch target and condition. */
static bool put_format_fields(const struct us_inst *in, uint32_t w[4])
{
    enum us_op_format f = us_ops[in->op].format;
    if (f == US_FMT_TEX) {
        if (in->tex_unit >= (1u << SIZE_VW_TEXU) ||
            in->tex_target >= US_TEX_TARGET_COUNT)
            return false;
        us_bits_set(w, POS_VW_TEXU, SIZE_VW_TEXU, in->tex_unit);
        us_bits_set(w, POS_VW_TEXT, SIZE_VW_TEXT, in->tex_target);
    } else if (is_memory(f)) {
        bool atom = f == US_FMT_ATOM;
        if (in->tex_unit >= US_MAX_BUFFERS || in->mtype >= US_MT_COUNT ||
            (is_shared(in->op) && in->tex_unit) ||
            in->sub >= (atom ? US_ATOM_COUNT : 1))
            return false;
        us_bits_set(w, POS_VW_BUF, SIZE_VW_BUF, in->tex_unit);
        us_bits_set(w, POS_VW_MTYPE, SIZE_VW_MTYPE, in->mtype);
        us_bits_set(w, POS_VW_AOP, SIZE_VW_AOP, in->sub);
    } else if (f == US_FMT_BRA) {
        if (in->target >= (1u << SIZE_VW_TARGET) || in->sub >= US_COND_COUNT)
            return false;
        us_bits_set(w, POS_VW_TARGET, SIZE_VW_TARGET, in->target);
        us_bits_set(w, POS_VW_COND, SIZE_VW_COND, in->sub);
    } else if (in->word) {   /* 1, 2, 3: 8, 16, 32 bits */
        if (in->word != 8 && in->word != 16 && in->word != 32)
            return false;
        us_bits_set(w, POS_VW_TEXT, SIZE_VW_TEXT,
                    in->word == 8 ? 1 : in->word == 16 ? 2 : 3);
    }
    return true;
}

bool us_vencode(const struct us_inst *in, uint32_t w[4])
{
    memset(w, 0, 4 * sizeof w[0]);
    if (in->op >= US_OP_COUNT || in->dst.file > US_FILE_ADDRESS ||
        in->dst.index >= (1u << SIZE_VW_DIDX) || in->dst.mask > 0xf)
        return false;
    const struct us_opinfo *info = &us_ops[in->op];
    enum us_op_format f = info->format;
    if (in->sat && ((info->flags & US_I_DST) || info->shape == US_SHAPE_NONE))
        return false;
    /* An integer instruction's own width goes in the texture target
     * field; a source-instruction group ("|", a front end's for the SIMT
     * model's timing) is no part of a vec4 machine's code: not encoded. */
    if (in->word && !(info->flags & (US_I_SRC | US_I_DST) &&
                      info->unit == US_UNIT_ALU))
        return false;
    if ((f == US_FMT_BRA || f == US_FMT_BAR) &&
        (in->dst.file || in->dst.index || in->dst.mask))
        return false;   /* no destination: BRA's target has its bits */
    us_bits_set(w, POS_VW_OP, SIZE_VW_OP, in->op);
    us_bits_set(w, POS_VW_SAT, SIZE_VW_SAT, in->sat);
    us_bits_set(w, POS_VW_DFILE, SIZE_VW_FILE, in->dst.file);
    us_bits_set(w, POS_VW_DIDX, SIZE_VW_DIDX, in->dst.index);
    us_bits_set(w, POS_VW_DMASK, SIZE_VW_MASK, in->dst.mask);
    if (!put_format_fields(in, w))
        return false;
    unsigned relsrc = 0;
    for (unsigned i = 0; i < info->nsrc; i++) {
        const struct us_src *s = &in->src[i];
        if (!put_src(s, wide_src(f, i), src_pos(i), w))
            return false;
        if (s->rel) {
            const int half = 1 << (SIZE_VW_RELOFF - 1);
            if (relsrc || s->rel_addr != 0 || s->rel_offset < -half ||
                s->rel_offset >= half || s->rel_size >= (1u << SIZE_VW_RELSIZE))
                return false;
            relsrc = i + 1;
            us_bits_set(w, POS_VW_RELOFF, SIZE_VW_RELOFF,
                        (unsigned)s->rel_offset & ((1u << SIZE_VW_RELOFF) - 1));
            us_bits_set(w, POS_VW_RELSIZE, SIZE_VW_RELSIZE, s->rel_size);
        }
    }
    us_bits_set(w, POS_VW_RELSRC, SIZE_VW_RELSRC, relsrc);
    return true;
}

/* The format fields of a decoded word; false when bits that the format
 * leaves zero are not. */
static bool get_format_fields(const uint32_t w[4], struct us_inst *in)
{
    enum us_op_format f = us_ops[in->op].format;
    const struct us_opinfo *info = &us_ops[in->op];
    if (f == US_FMT_BRA || f == US_FMT_BAR) {
        in->target = (uint16_t)us_bits_get(w, POS_VW_TARGET, SIZE_VW_TARGET);
        in->sub = (uint8_t)us_bits_get(w, POS_VW_COND, SIZE_VW_COND);
        if (in->sat || in->sub >= US_COND_COUNT ||
            us_bits_get(w, POS_VW_CPAD, SIZE_VW_CPAD))
            return false;
        return f == US_FMT_BRA || (!in->target && !in->sub);
    }
    in->dst.file = (uint8_t)us_bits_get(w, POS_VW_DFILE, SIZE_VW_FILE);
    in->dst.index = (uint16_t)us_bits_get(w, POS_VW_DIDX, SIZE_VW_DIDX);
    in->dst.mask = (uint8_t)us_bits_get(w, POS_VW_DMASK, SIZE_VW_MASK);
    if (in->dst.file > US_FILE_ADDRESS ||
        (in->sat && ((info->flags & US_I_DST) || info->shape == US_SHAPE_NONE)))
        return false;
    if (is_memory(f)) {
        in->tex_unit = (uint8_t)us_bits_get(w, POS_VW_BUF, SIZE_VW_BUF);
        in->mtype = (uint8_t)us_bits_get(w, POS_VW_MTYPE, SIZE_VW_MTYPE);
        in->sub = (uint8_t)us_bits_get(w, POS_VW_AOP, SIZE_VW_AOP);
        return in->mtype < US_MT_COUNT &&
               in->sub < (f == US_FMT_ATOM ? US_ATOM_COUNT : 1) &&
               !(is_shared(in->op) && in->tex_unit) &&
               !us_bits_get(w, POS_VW_MPAD, SIZE_VW_MPAD) &&
               !us_bits_get(w, POS_VW_APAD, SIZE_VW_APAD);
    }
    in->tex_unit = (uint8_t)us_bits_get(w, POS_VW_TEXU, SIZE_VW_TEXU);
    in->tex_target = (uint8_t)us_bits_get(w, POS_VW_TEXT, SIZE_VW_TEXT);
    if (f != US_FMT_TEX && (info->flags & (US_I_SRC | US_I_DST)) &&
        info->unit == US_UNIT_ALU && !in->tex_unit && in->tex_target &&
        in->tex_target <= 3) {   /* the instruction's own word width */
        static const uint8_t widths[4] = { 0, 8, 16, 32 };
        in->word = widths[in->tex_target];
        in->tex_target = 0;
        return true;
    }
    return in->tex_target < US_TEX_TARGET_COUNT &&
           (f == US_FMT_TEX || (!in->tex_unit && !in->tex_target));
}

bool us_vdecode(const uint32_t w[4], struct us_inst *out)
{
    struct us_inst in;
    memset(&in, 0, sizeof in);
    _Static_assert(POS_VW_END == US_VW_BITS, "no spare bits to check");
    in.op = (uint8_t)us_bits_get(w, POS_VW_OP, SIZE_VW_OP);
    if (in.op >= US_OP_COUNT)
        return false;
    in.sat = us_bits_get(w, POS_VW_SAT, SIZE_VW_SAT);
    if (!get_format_fields(w, &in))
        return false;
    enum us_op_format f = us_ops[in.op].format;
    unsigned nsrc = us_ops[in.op].nsrc;
    unsigned relsrc = us_bits_get(w, POS_VW_RELSRC, SIZE_VW_RELSRC);
    if (relsrc > nsrc)
        return false;
    for (unsigned i = 0; i < 3; i++) {
        struct us_src *s = &in.src[i];
        unsigned pos = src_pos(i);
        bool wide = wide_src(f, i);
        if (i >= nsrc) {
            if (us_bits_get(w, pos, i == 0 ? SIZE_VW_SRC0 : SIZE_VW_SRCN))
                return false;
            continue;
        }
        if (!get_src(w, wide, pos, s))
            return false;
        if (relsrc == i + 1) {
            unsigned off = us_bits_get(w, POS_VW_RELOFF, SIZE_VW_RELOFF);
            s->rel = true;
            const int half = 1 << (SIZE_VW_RELOFF - 1);
            s->rel_offset = (int16_t)((int)off >= half ? (int)off - 2 * half
                                                       : (int)off);
            s->rel_size = (uint16_t)us_bits_get(w, POS_VW_RELSIZE, SIZE_VW_RELSIZE);
        }
    }
    if (!relsrc && us_bits_get(w, POS_VW_RELOFF, SIZE_VW_RELOFF + SIZE_VW_RELSIZE))
        return false;
    *out = in;
    return true;
}

struct out { char *buf; size_t size, len; };

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = o->len < o->size ? o->size - o->len : 0;
    int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

static const char file_letter[8] = { '?', 'r', 'v', 'o', 'c', 'a', 'k', 's' };

static void put_vsrc(struct out *o, const struct us_src *s)
{
    put(o, "%s", (s->negate & 0xf) == 0xf ? "-" : "");
    if (s->rel)
        put(o, "c[%u + a%u.x%+d, %u].", s->index, s->rel_addr,
            s->rel_offset, s->rel_size);
    else
        put(o, "%c%u.", file_letter[s->file & 7], s->index);
    for (unsigned c = 0; c < 4; c++) {
        bool neg = (s->negate & 0xf) != 0xf && ((s->negate >> c) & 1);
        put(o, "%s%c", neg ? "-" : "", "xyzw01"[s->swz[c] % 6]);
    }
}

static void put_mask(struct out *o, unsigned mask)
{
    for (unsigned c = 0; c < 4; c++)
        if ((mask >> c) & 1)
            put(o, "%c", "xyzw"[c]);
}

/* Memory, barrier and branch instructions, in the assembler's operand
 * order (CSWAP: compare before value). */
static void put_compute(struct out *o, const struct us_inst *in)
{
    const struct us_opinfo *info = &us_ops[in->op];
    const char *mt = us_mtype_names[in->mtype % US_MT_COUNT];
    bool shared = is_shared(in->op);
    switch (info->format) {
    case US_FMT_LOAD:
    case US_FMT_ATOM:
        if (info->format == US_FMT_ATOM)
            put(o, ".%s", us_atom_names[in->sub % US_ATOM_COUNT]);
        put(o, ".%s %c%u.", mt, file_letter[in->dst.file & 7], in->dst.index);
        put_mask(o, in->dst.mask);
        put(o, ", ");
        put_vsrc(o, &in->src[0]);
        if (info->format == US_FMT_ATOM) {
            if (in->sub == US_ATOM_CSWAP) {
                put(o, ", ");
                put_vsrc(o, &in->src[2]);
            }
            put(o, ", ");
            put_vsrc(o, &in->src[1]);
        }
        if (!shared)
            put(o, ", buffer[%u]", in->tex_unit);
        break;
    case US_FMT_STORE:
        if (shared)
            put(o, ".%s shared.", mt);
        else
            put(o, ".%s buffer[%u].", mt, in->tex_unit);
        put_mask(o, in->dst.mask);
        put(o, ", ");
        put_vsrc(o, &in->src[0]);
        put(o, ", ");
        put_vsrc(o, &in->src[1]);
        break;
    case US_FMT_BRA: {
        const char *cond = us_cond_names[in->sub % US_COND_COUNT];
        put(o, "%s%s @%u", *cond ? "." : "", cond, in->target);
        if (in->sub != US_COND_ALWAYS) {
            put(o, ", ");
            put_vsrc(o, &in->src[0]);
            put(o, ", ");
            put_vsrc(o, &in->src[1]);
        }
        break;
    }
    default:   /* BAR MEMBAR */
        break;
    }
}

int us_inst_format(const struct us_inst *in, char *buf, size_t size)
{
    static const char *const targets[US_TEX_TARGET_COUNT] = {
        "1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT",
    };
    struct out o = { buf, size, 0 };
    if (size)
        buf[0] = '\0';
    const struct us_opinfo *info = &us_ops[in->op % US_OP_COUNT];
    put(&o, "%s", info->name);
    if (in->word)
        put(&o, ".W%u", in->word);
    put(&o, "%s", in->sat ? "_SAT" : "");
    if (info->format >= US_FMT_LOAD) {
        put_compute(&o, in);
        return (int)o.len;
    }
    const char *sep = " ";
    if (in->op != US_OP_KIL) {
        put(&o, " %c%u.", file_letter[in->dst.file & 7], in->dst.index);
        put_mask(&o, in->dst.mask);
        sep = ", ";
    }
    for (unsigned i = 0; i < info->nsrc; i++) {
        put(&o, "%s", sep);
        sep = ", ";
        put_vsrc(&o, &in->src[i]);
    }
    if (info->format == US_FMT_TEX)
        put(&o, ", texture[%u], %s", in->tex_unit, targets[in->tex_target % US_TEX_TARGET_COUNT]);
    return (int)o.len;
}
