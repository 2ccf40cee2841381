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

bool us_vencode(const struct us_inst *in, uint32_t w[4])
{
    memset(w, 0, 4 * sizeof w[0]);
    if (in->op >= US_OP_COUNT || in->dst.file > US_FILE_ADDRESS ||
        in->dst.index >= (1u << SIZE_VW_DIDX) || in->dst.mask > 0xf)
        return false;
    us_bits_set(w, POS_VW_OP, SIZE_VW_OP, in->op);
    us_bits_set(w, POS_VW_SAT, SIZE_VW_SAT, in->sat);
    us_bits_set(w, POS_VW_DFILE, SIZE_VW_FILE, in->dst.file);
    us_bits_set(w, POS_VW_DIDX, SIZE_VW_DIDX, in->dst.index);
    us_bits_set(w, POS_VW_DMASK, SIZE_VW_MASK, in->dst.mask);
    if (us_ops[in->op].format == US_FMT_TEX) {
        if (in->tex_unit >= (1u << SIZE_VW_TEXU) ||
            in->tex_target >= US_TEX_TARGET_COUNT)
            return false;
        us_bits_set(w, POS_VW_TEXU, SIZE_VW_TEXU, in->tex_unit);
        us_bits_set(w, POS_VW_TEXT, SIZE_VW_TEXT, in->tex_target);
    }
    unsigned relsrc = 0;
    for (unsigned i = 0; i < us_ops[in->op].nsrc; i++) {
        const struct us_src *s = &in->src[i];
        unsigned pos = src_pos(i);
        if (s->file > US_FILE_ADDRESS || s->index >= (1u << SIZE_VW_IDX))
            return false;
        us_bits_set(w, pos, SIZE_VW_FILE, s->file);
        us_bits_set(w, pos + SIZE_VW_FILE, SIZE_VW_IDX, s->index);
        unsigned spos = pos + SIZE_VW_FILE + SIZE_VW_IDX;
        for (unsigned c = 0; c < 4; c++) {
            if (s->swz[c] > US_SWZ_ONE || (i > 0 && s->swz[c] > US_SWZ_W))
                return false;
            unsigned bits = i == 0 ? 3 : 2;
            us_bits_set(w, spos + c * bits, bits, s->swz[c]);
        }
        unsigned npos = spos + (i == 0 ? 12 : 8);
        if (i == 0) {
            us_bits_set(w, npos, 4, s->negate & 0xf);
        } else {
            if ((s->negate & 0xf) != 0 && (s->negate & 0xf) != 0xf)
                return false;
            us_bits_set(w, npos, 1, s->negate != 0);
        }
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

bool us_vdecode(const uint32_t w[4], struct us_inst *out)
{
    struct us_inst in;
    memset(&in, 0, sizeof in);
    _Static_assert(POS_VW_END == US_VW_BITS, "no spare bits to check");
    in.op = (uint8_t)us_bits_get(w, POS_VW_OP, SIZE_VW_OP);
    if (in.op >= US_OP_COUNT)
        return false;
    in.sat = us_bits_get(w, POS_VW_SAT, SIZE_VW_SAT);
    in.dst.file = (uint8_t)us_bits_get(w, POS_VW_DFILE, SIZE_VW_FILE);
    in.dst.index = (uint16_t)us_bits_get(w, POS_VW_DIDX, SIZE_VW_DIDX);
    in.dst.mask = (uint8_t)us_bits_get(w, POS_VW_DMASK, SIZE_VW_MASK);
    in.tex_unit = (uint8_t)us_bits_get(w, POS_VW_TEXU, SIZE_VW_TEXU);
    in.tex_target = (uint8_t)us_bits_get(w, POS_VW_TEXT, SIZE_VW_TEXT);
    if (in.dst.file > US_FILE_ADDRESS || in.tex_target >= US_TEX_TARGET_COUNT ||
        (us_ops[in.op].format != US_FMT_TEX && (in.tex_unit || in.tex_target)))
        return false;
    unsigned nsrc = us_ops[in.op].nsrc;
    unsigned relsrc = us_bits_get(w, POS_VW_RELSRC, SIZE_VW_RELSRC);
    if (relsrc > nsrc)
        return false;
    for (unsigned i = 0; i < 3; i++) {
        struct us_src *s = &in.src[i];
        unsigned pos = src_pos(i);
        unsigned size = i == 0 ? SIZE_VW_SRC0 : SIZE_VW_SRCN;
        if (i >= nsrc) {
            if (us_bits_get(w, pos, size))
                return false;
            continue;
        }
        s->file = (uint8_t)us_bits_get(w, pos, SIZE_VW_FILE);
        s->index = (uint16_t)us_bits_get(w, pos + SIZE_VW_FILE, SIZE_VW_IDX);
        unsigned spos = pos + SIZE_VW_FILE + SIZE_VW_IDX, bits = i == 0 ? 3 : 2;
        for (unsigned c = 0; c < 4; c++) {
            s->swz[c] = (uint8_t)us_bits_get(w, spos + c * bits, bits);
            if (s->swz[c] > US_SWZ_ONE)
                return false;
        }
        unsigned npos = spos + 4 * bits;
        s->negate = (uint8_t)(i == 0 ? us_bits_get(w, npos, 4)
                                     : us_bits_get(w, npos, 1) * 0xfu);
        if (s->file > US_FILE_ADDRESS)
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

int us_inst_format(const struct us_inst *in, char *buf, size_t size)
{
    static const char *const targets[US_TEX_TARGET_COUNT] = {
        "1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT",
    };
    struct out o = { buf, size, 0 };
    if (size)
        buf[0] = '\0';
    const struct us_opinfo *info = &us_ops[in->op];
    put(&o, "%s%s", info->name, in->sat ? "_SAT" : "");
    const char *sep = " ";
    if (in->op != US_OP_KIL) {
        put(&o, " %c%u.", file_letter[in->dst.file & 7], in->dst.index);
        for (unsigned c = 0; c < 4; c++)
            if ((in->dst.mask >> c) & 1)
                put(&o, "%c", "xyzw"[c]);
        sep = ", ";
    }
    for (unsigned i = 0; i < info->nsrc; i++) {
        const struct us_src *s = &in->src[i];
        put(&o, "%s%s", sep, (s->negate & 0xf) == 0xf ? "-" : "");
        sep = ", ";
        if (s->rel)
            put(&o, "c[%u + a%u.x%+d, %u].", s->index, s->rel_addr,
                s->rel_offset, s->rel_size);
        else
            put(&o, "%c%u.", file_letter[s->file & 7], s->index);
        for (unsigned c = 0; c < 4; c++) {
            bool neg = (s->negate & 0xf) != 0xf && ((s->negate >> c) & 1);
            put(&o, "%s%c", neg ? "-" : "", "xyzw01"[s->swz[c] % 6]);
        }
    }
    if (info->format == US_FMT_TEX)
        put(&o, ", texture[%u], %s", in->tex_unit, targets[in->tex_target % US_TEX_TARGET_COUNT]);
    return (int)o.len;
}
