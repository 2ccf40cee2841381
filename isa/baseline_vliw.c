/*
 * The VLIW baseline's code (SPEC section 2): the scalar operations of one
 * thread, statically packed by the list scheduler into bundles of 4 scalar
 * slots, or 4 + 1 with a transcendental slot as in AMD TeraScale.  Each
 * slot holds a scalar word (isa/scalar.h) with one repetition; empty slots
 * are NOPs, so a bundle is nslots x 96 bits.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"

void us_sched_item_scalar(const struct us_sinst *in, struct us_sched_item *it)
{
    memset(it, 0, sizeof *it);
    const struct us_sopinfo *o = &us_sops[in->op];
    for (unsigned k = 0; k < in->count; k++) {
        for (unsigned i = 0; i < o->nsrc; i++) {
            unsigned reads = o->kind == US_SK_TEX ? 4 : 1;
            for (unsigned j = 0; j < reads; j++)
                us_sched_add_reg(it, false, in->src[i].file,
                    us_sopnd_reg(&in->src[i], o->kind == US_SK_TEX ? j : k));
        }
        if (o->kind == US_SK_LDR)
            us_sched_add_reg(it, false, US_FILE_ADDRESS, 4u * in->rel_addr);
        if (o->kind == US_SK_DOT)
            us_sched_add_reg(it, false, in->dst.file, us_sopnd_reg(&in->dst, k));
        if (o->kind != US_SK_KIL && o->kind != US_SK_NOP)
            us_sched_add_reg(it, true, in->dst.file, us_sopnd_reg(&in->dst, k));
    }
    if (o->unit == US_UNIT_LSU)
        us_sched_add_memory(it);
    it->slots = 0xff;
}

static bool is_flow(const struct us_sinst *in)
{
    return us_sops[in->op].kind == US_SK_FLOW ||
           us_sop_flow_kind((enum us_sop)in->op) != US_FLOW_NONE;
}

/* Blocks of scalar code: flow words and barriers alone, BRA targets
 * begin blocks. */
static void scalar_cuts(const struct us_scode *code, uint8_t *cut)
{
    for (unsigned i = 0; i < code->n; i++)
        cut[i] = is_flow(&code->insts[i]) ||
                 us_sops[code->insts[i].op].unit == US_UNIT_BARRIER
                     ? US_SCHED_ALONE : US_SCHED_PLAIN;
    for (unsigned i = 0; i < code->n; i++) {
        unsigned t = code->insts[i].target;
        if (us_sop_flow_kind((enum us_sop)code->insts[i].op) == US_FLOW_BRA &&
            t < code->n && cut[t] == US_SCHED_PLAIN)
            cut[t] = US_SCHED_BEGIN;
    }
}

bool us_vliw_schedule(const struct us_scode *code, unsigned nslots, bool tslot,
                      struct us_sinst **slots, uint32_t **origin,
                      unsigned *nbundles)
{
    *slots = NULL;
    if (origin)
        *origin = NULL;
    *nbundles = 0;
    if (code->n == 0)
        return true;
    struct us_sched_item *items = malloc(code->n * sizeof *items);
    unsigned *bundle = malloc(code->n * sizeof *bundle);
    unsigned *slot = malloc(code->n * sizeof *slot);
    unsigned *entry = malloc((code->n + 1) * sizeof *entry);
    uint8_t *cut = malloc(code->n * sizeof *cut);
    bool ok = items && bundle && slot && entry && cut;
    unsigned all = (1u << nslots) - 1, t = 1u << (nslots - 1);
    for (unsigned i = 0; ok && i < code->n; i++) {
        us_sched_item_scalar(&code->insts[i], &items[i]);
        if (tslot)
            items[i].slots = (uint8_t)(us_sops[code->insts[i].op].unit == US_UNIT_SFU
                                           ? t : all);
        else
            items[i].slots = (uint8_t)all;
    }
    if (ok)
        scalar_cuts(code, cut);
    unsigned nb = ok ? us_list_schedule_blocks(items, cut, code->n, nslots,
                                               bundle, slot, entry) : 0;
    ok = ok && nb > 0;
    struct us_sinst *s = ok ? calloc((size_t)nb * nslots, sizeof *s) : NULL;
    uint32_t *org = ok && origin ? malloc((size_t)nb * nslots * sizeof *org)
                                 : NULL;
    ok = ok && s && (org || !origin);
    if (ok) {
        for (unsigned i = 0; i < (size_t)nb * nslots; i++) {
            s[i].op = US_SOP_NOP;
            s[i].count = 1;
            if (org)
                org[i] = UINT32_MAX;
        }
        for (unsigned i = 0; i < code->n; i++) {
            struct us_sinst *x = &s[bundle[i] * nslots + slot[i]];
            *x = code->insts[i];
            /* flow words are alone: bundle = pc; a BRA goes to the first
             * bundle of its target's block */
            if (us_sop_flow_kind((enum us_sop)x->op) == US_FLOW_BRA)
                x->target = x->target <= code->n ? entry[x->target] : nb;
            else if (is_flow(x))
                x->target = bundle[x->target];
            if (org)
                org[bundle[i] * nslots + slot[i]] = i;
        }
        *slots = s;
        if (origin)
            *origin = org;
        *nbundles = nb;
    } else {
        free(s);
        free(org);
    }
    free(items);
    free(bundle);
    free(slot);
    free(entry);
    free(cut);
    return ok;
}
