/* Disassembly of scalar instructions: one line each. */
#include <stdarg.h>
#include <stdio.h>

#include "isa/scalar.h"

static const char file_letter[8] = { '?', 'r', 'v', 'o', 'c', 'a', 'k', 's' };
static const char comp_letter[4] = { 'x', 'y', 'z', 'w' };
static const char *const target_names[US_TEX_TARGET_COUNT] = {
    "1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT",
};

/* snprintf that appends and keeps counting past the end of the buffer. */
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

/* "r3.y" and, when the instruction repeats, the step: "r3.y+1". */
static void put_reg(struct out *o, const struct us_sopnd *r, unsigned count)
{
    put(o, "%c%u.%c", file_letter[r->file & 7], r->reg / 4u,
        comp_letter[r->reg & 3]);
    if (count > 1 || r->step || r->rot)
        put(o, "+%u%s", r->step, r->rot ? "m3" : "");
}

static void put_src(struct out *o, const struct us_sopnd *s, unsigned count)
{
    put(o, "%s%s", s->neg ? "-" : "", s->abs ? "|" : "");
    put_reg(o, s, count);
    put(o, "%s", s->abs ? "|" : "");
}

/* The mnemonic: the table's name with '.' for '_' (ADD_U is "ADD.U",
 * ATOM_CSWAP "ATOM.CSWAP"), then the access type of a memory word, a BRA's
 * condition and a word width other than 32 ("SHR.S.W16"). */
static void put_name(struct out *o, const struct us_sinst *in)
{
    const struct us_sopinfo *info = &us_sops[in->op];
    for (const char *p = info->name; *p; p++)
        put(o, "%c", *p == '_' ? '.' : *p);
    if (info->kind == US_SK_MEM)
        put(o, ".%s", in->mtype < US_MT_COUNT ? us_mtype_names[in->mtype] : "?");
    if (us_sop_flow_kind((enum us_sop)in->op) == US_FLOW_BRA &&
        in->cond != US_COND_ALWAYS)
        put(o, ".%s", in->cond < US_COND_COUNT ? us_cond_names[in->cond] : "?");
    if (in->word && in->word != 32)
        put(o, ".W%u", in->word);
}

int us_sinst_format(const struct us_sinst *in, char *buf, size_t size)
{
    struct out o = { buf, size, 0 };
    if (size)
        buf[0] = '\0';
    const struct us_sopinfo *info = &us_sops[in->op];
    put_name(&o, in);
    put(&o, "%s", in->sat ? "_SAT" : "");
    if (in->count > 1)
        put(&o, "[%u]", in->count);
    if (info->kind == US_SK_NOP || info->kind == US_SK_BAR)
        return (int)o.len;
    if (info->kind == US_SK_FLOW) {   /* "IF r0.x -> 7", "ELSE -> 9" */
        unsigned nsrc = us_sop_flow_kind((enum us_sop)in->op) == US_FLOW_BRA &&
                        in->cond == US_COND_ALWAYS ? 0 : info->nsrc;
        for (unsigned i = 0; i < nsrc; i++) {
            put(&o, i ? ", " : " ");
            put_src(&o, &in->src[i], in->count);
        }
        put(&o, " -> %u", (unsigned)in->target);
        return (int)o.len;
    }
    const char *sep = " ";
    bool store = info->kind == US_SK_MEM &&
                 us_sop_access((enum us_sop)in->op) == US_ACC_STORE;
    if (info->kind != US_SK_KIL && !store) {
        put(&o, " ");
        put_reg(&o, &in->dst, in->count);
        sep = ", ";
    }
    for (unsigned i = 0; i < info->nsrc; i++) {
        put(&o, "%s", sep);
        put_src(&o, &in->src[i], in->count);
        sep = ", ";
    }
    if (info->kind == US_SK_LDR)
        put(&o, " [a%u.x%+d, %u]", in->rel_addr, in->rel_offset, in->rel_size);
    if (info->kind == US_SK_MEM && !us_sop_shared((enum us_sop)in->op))
        put(&o, ", buffer[%u]", in->buf);
    if (info->kind == US_SK_TEX)
        put(&o, ", texture[%u], %s", in->tex_unit,
            in->tex_target < US_TEX_TARGET_COUNT ? target_names[in->tex_target]
                                                 : "?");
    return (int)o.len;
}
