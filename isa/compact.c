/*
 * Instruction compaction (SPEC section 1): a run of consecutive scalar
 * operations becomes one instruction with a repeat counter when, for
 * every operand, repetition k's register is 4n + (c0 + k * step) mod 4 (or
 * mod 3 for a rotating source).  Repetitions execute in order, exactly as
 * the separate instructions did, so merging never changes results and
 * needs no dependence analysis.  Two patterns merge although their
 * operations differ:
 *   MUL d, a, b; MAD d, a', b', d; ...   -> DOT (accumulates in place)
 *   SFU d0, ...; MOV d1, d0; ...          -> the SFU operation, repeated:
 *                                            it computes once and every
 *                                            repetition writes the result.
 * Otherwise a repetition may not read what an earlier one writes: the
 * repeat counter is for independent components, which the SP issues back
 * to back; a dependent chain (MUL r.x, r.x, r.x twice) stays separate
 * instructions, so the SP can run another thread while it waits.
 *
 * Integer operations merge like float ones (same word width); memory
 * operations merge into one word whose repetitions are the components'
 * accesses in order (same access type and binding, addresses stepping
 * without rotation: isa/scalar.h says why that is honest for the LSU).
 * Barriers and flow words never merge, and no merge swallows a word a BRA
 * jumps to: the target must stay the first repetition of a word.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

static bool same_reg(const struct us_sopnd *a, const struct us_sopnd *b)
{
    return a->file == b->file && a->reg == b->reg && !b->neg && !b->abs &&
           !b->rot;
}

/* Operand `which` (-1: destination) of ops[0..n) as one operand: with
 * offsets (rotating when allow_rot), or with a component table. */
static bool fit(const struct us_sinst *ops, unsigned n, int which,
                bool allow_rot, bool table, struct us_sopnd *out)
{
    const struct us_sopnd *o0 = which < 0 ? &ops[0].dst : &ops[0].src[which];
    uint8_t comps[4];
    for (unsigned k = 0; k < n; k++) {
        const struct us_sopnd *o = which < 0 ? &ops[k].dst : &ops[k].src[which];
        if (o->file != o0->file || o->neg != o0->neg || o->abs != o0->abs ||
            (o->reg >> 2) != (o0->reg >> 2))
            return false;
        comps[k] = o->reg & 3u;
    }
    *out = *o0;
    if (!table || n == 1)
        return us_sopnd_fit(out, comps, n, allow_rot);
    out->reg &= (uint16_t)~3u;
    out->step = 0;
    out->rot = false;
    out->table = true;
    out->swz = 0;
    for (unsigned k = 0; k < n; k++)
        out->swz |= (uint8_t)(comps[k] << 2 * k);
    return true;
}

static bool combine_dot(const struct us_sinst *ops, unsigned n, bool table,
                        struct us_sinst *out)
{
    for (unsigned k = 1; k < n; k++) {
        const struct us_sinst *x = &ops[k];
        if (x->op != US_SOP_MAD || ops[k - 1].sat ||
            !same_reg(&ops[0].dst, &x->src[2]) ||
            x->dst.file != ops[0].dst.file || x->dst.reg != ops[0].dst.reg)
            return false;
    }
    struct us_sinst m = ops[0];
    m.op = US_SOP_DOT;
    m.count = (uint8_t)n;
    m.sat = ops[n - 1].sat;
    return fit(ops, n, 0, true, table, &m.src[0]) &&
           fit(ops, n, 1, true, table, &m.src[1]) && (*out = m, true);
}

static bool combine_replicate(const struct us_sinst *ops, unsigned n,
                              bool table, struct us_sinst *out)
{
    for (unsigned k = 1; k < n; k++)
        if (ops[k].op != US_SOP_MOV || ops[k].sat ||
            !same_reg(&ops[0].dst, &ops[k].src[0]))
            return false;
    struct us_sinst m = ops[0];
    m.count = (uint8_t)n;
    return fit(ops, n, -1, false, table, &m.dst) && (*out = m, true);
}

/* Does some ops[k] read a register that an earlier ops[j] writes? */
static bool dependent(const struct us_sinst *ops, unsigned n)
{
    for (unsigned k = 1; k < n; k++)
        for (unsigned i = 0; i < us_sops[ops[k].op].nsrc; i++)
            for (unsigned j = 0; j < k; j++)
                if (ops[k].src[i].file == ops[j].dst.file &&
                    ops[k].src[i].reg == ops[j].dst.reg)
                    return true;
    return false;
}

/* One instruction for ops[0..n) in the offsets form (table false) or
 * with component tables. */
static bool combine(const struct us_sinst *ops, unsigned n, bool table,
                    bool chain, struct us_sinst *out)
{
    if (n < 1 || n > 4)
        return false;
    for (unsigned k = 0; k < n; k++)
        if (ops[k].count != 1 ||
            (n > 1 && (us_sops[ops[k].op].kind == US_SK_FLOW ||
                       us_sops[ops[k].op].kind == US_SK_BAR)))
            return false;   /* a flow word ends a basic block: no merge */
    if (n == 1) {
        *out = ops[0];
        return true;
    }
    const struct us_sopinfo *info = &us_sops[ops[0].op];
    if (ops[0].op == US_SOP_MUL && ops[1].op == US_SOP_MAD)
        return combine_dot(ops, n, table, out);
    if (info->kind == US_SK_VAL && info->unit == US_UNIT_SFU)
        return combine_replicate(ops, n, table, out);
    if (info->kind == US_SK_NOP || info->kind == US_SK_DOT ||
        (!chain && dependent(ops, n)))
        return false;
    for (unsigned k = 1; k < n; k++) {
        const struct us_sinst *a = &ops[0], *b = &ops[k];
        if (b->op != a->op || b->sat != a->sat || a->tex_unit != b->tex_unit ||
            a->tex_target != b->tex_target || a->rel_addr != b->rel_addr ||
            a->rel_offset != b->rel_offset || a->rel_size != b->rel_size ||
            a->word != b->word || a->mtype != b->mtype || a->buf != b->buf)
            return false;
        if (info->kind == US_SK_TEX &&   /* one coordinate for all */
            memcmp(&a->src[0], &b->src[0], sizeof a->src[0]))
            return false;
    }
    struct us_sinst m = ops[0];
    m.count = (uint8_t)n;
    bool mem = info->kind == US_SK_MEM;
    bool no_dst = info->kind == US_SK_KIL ||
                  (mem && us_sop_access((enum us_sop)ops[0].op) == US_ACC_STORE);
    if (!no_dst && !fit(ops, n, -1, false, table, &m.dst))
        return false;
    if (info->kind != US_SK_TEX)   /* memory sources never rotate */
        for (unsigned i = 0; i < info->nsrc; i++)
            if (!fit(ops, n, (int)i, !mem, table, &m.src[i]))
                return false;
    *out = m;
    return true;
}

bool us_sinst_combine(const struct us_sinst *ops, unsigned n,
                      struct us_sinst *out)
{
    return combine(ops, n, false, false, out);
}

static bool is_bra(const struct us_sinst *in)
{
    return us_sop_flow_kind((enum us_sop)in->op) == US_FLOW_BRA;
}

/* May instruction a move past b, or b past a (ALU or integer operations
 * of one repetition each)?  Not when one writes what the other reads or
 * writes. */
static bool independent(const struct us_sinst *a, const struct us_sinst *b)
{
    const struct us_sinst *x[2] = { a, b };
    for (unsigned w = 0; w < 2; w++) {
        const struct us_sinst *wr = x[w], *o = x[!w];
        unsigned reg = us_sopnd_reg(&wr->dst, 0);
        if (o->dst.file == wr->dst.file && us_sopnd_reg(&o->dst, 0) == reg)
            return false;
        for (unsigned i = 0; i < us_sops[o->op].nsrc; i++)
            if (o->src[i].file == wr->dst.file &&
                us_sopnd_reg(&o->src[i], 0) == reg)
                return false;
    }
    return true;
}

static bool movable(const struct us_sinst *in)
{
    enum us_sop_kind k = (enum us_sop_kind)us_sops[in->op].kind;
    return in->count == 1 && (k == US_SK_VAL || k == US_SK_INT);
}

/* The chain form's word starting at insts[i]: members[0] = i, then later
 * unused instructions up to US_COMPACT_WINDOW ahead that combine and may
 * move up to it.  Returns the members (at most 4) and the word. */
static unsigned chain_word(const struct us_scode *c, unsigned i,
                           const uint8_t *used, const uint8_t *label,
                           unsigned *members, struct us_sinst *word)
{
    struct us_sinst ops[4];
    unsigned n = 1;
    members[0] = i;
    ops[0] = c->insts[i];
    *word = c->insts[i];
    bool gap = false;   /* an instruction stays between the members */
    for (unsigned j = i + 1; j < c->n && j <= i + US_COMPACT_WINDOW && n < 4;
         j++) {
        if (used[j])
            continue;
        if (label && label[j])
            break;
        const struct us_sinst *in = &c->insts[j];
        bool crosses = gap;
        for (unsigned k = i + 1; crosses && k < j; k++) {
            bool member = false;
            for (unsigned m = 0; m < n; m++)
                member |= members[m] == k;
            if (!used[k] && !member && !independent(&c->insts[k], in))
                crosses = false;
        }
        ops[n] = *in;
        struct us_sinst merged;
        if ((!gap || (crosses && movable(in) && movable(&ops[0]))) &&
            combine(ops, n + 1, false, true, &merged)) {
            members[n++] = j;
            *word = merged;
            continue;
        }
        if (!movable(in))
            break;   /* nothing moves across it */
        gap = true;
    }
    return n;
}

bool us_compact_form(struct us_scode *c, enum us_compaction form)
{
    if (form == US_COMPACT_NONE)
        return true;
    bool table = form == US_COMPACT_SWIZZLE, ahead = form == US_COMPACT_CHAIN;
    /* BRA targets, and where each old word lands (newpc[n]: the end) */
    bool bra = false;
    for (unsigned i = 0; i < c->n; i++)
        bra |= is_bra(&c->insts[i]);
    uint8_t *target = bra ? calloc(c->n + 1, 1) : NULL;
    uint32_t *newpc = bra ? malloc((c->n + 1) * sizeof *newpc) : NULL;
    uint8_t *used = ahead ? calloc(c->n + 1, 1) : NULL;
    struct us_sinst *out_insts = ahead ? malloc((c->n + 1) * sizeof *out_insts)
                                       : c->insts;
    bool labels = target && newpc;
    if ((bra && !labels) || (ahead && (!used || !out_insts))) {
        free(target);
        free(newpc);
        free(used);
        if (ahead)
            free(out_insts);
        return false;
    }
    for (unsigned i = 0; labels && i < c->n; i++)
        if (is_bra(&c->insts[i]) && c->insts[i].target <= c->n)
            target[c->insts[i].target] = 1;
    unsigned out = 0, n = c->n;
    for (unsigned i = 0; i < n;) {
        struct us_sinst merged;
        unsigned m;
        if (ahead) {
            unsigned members[4];
            m = chain_word(c, i, used, labels ? target : NULL, members,
                           &merged);
            for (unsigned k = 0; k < m; k++)
                used[members[k]] = 1;
        } else {
            m = n - i < 4 ? n - i : 4;
            for (unsigned k = 1; k < m; k++)
                if (labels && target[i + k])
                    m = k;   /* a label starts a word */
            while (!combine(c->insts + i, m, table, false, &merged))
                m--;   /* m == 1 always combines */
        }
        if (c->vbegin)
            c->vbegin[out] = c->vbegin[i];
        if (labels)
            newpc[i] = out;
        out_insts[out++] = merged;
        if (!ahead) {
            i += m;
            continue;
        }
        while (i < n && used[i])
            i++;
    }
    if (c->vbegin)
        c->vbegin[out] = c->vbegin[n];
    if (ahead) {
        free(c->insts);
        c->insts = out_insts;
        free(used);
    }
    c->n = out;
    if (labels) {
        newpc[n] = out;
        for (unsigned i = 0; i < out; i++)
            if (is_bra(&c->insts[i]))
                c->insts[i].target = newpc[c->insts[i].target];
    }
    free(target);
    free(newpc);
    struct us_diag d;   /* same nesting, fewer words: only memory can fail */
    return !c->flow || us_scode_link(c, &d);
}

bool us_compact(struct us_scode *c)
{
    return us_compact_form(c, US_COMPACT_OFFSETS);
}

const char *us_compaction_name(enum us_compaction form)
{
    static const char *const names[US_COMPACT_COUNT] = {
        "none", "offsets", "swizzle", "chain",
    };
    return form < US_COMPACT_COUNT ? names[form] : "?";
}

unsigned us_compaction_word_bits(enum us_compaction form)
{
    return form == US_COMPACT_SWIZZLE ? US_SW_SWIZZLE_BITS : US_SW_BITS;
}

void us_scode_free(struct us_scode *c)
{
    free(c->insts);
    free(c->vbegin);
    us_flow_free(c->flow);
    memset(c, 0, sizeof *c);
}
