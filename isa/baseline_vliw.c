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
    it->slots = 0xff;
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
    bool *barrier = malloc(code->n * sizeof *barrier);
    bool ok = items && bundle && slot && barrier;
    unsigned all = (1u << nslots) - 1, t = 1u << (nslots - 1);
    for (unsigned i = 0; ok && i < code->n; i++) {
        us_sched_item_scalar(&code->insts[i], &items[i]);
        if (tslot)
            items[i].slots = (uint8_t)(us_sops[code->insts[i].op].unit == US_UNIT_SFU
                                           ? t : all);
        else
            items[i].slots = (uint8_t)all;
        barrier[i] = us_sops[code->insts[i].op].kind == US_SK_FLOW;
    }
    unsigned nb = ok ? us_list_schedule_blocks(items, barrier, code->n,
                                               nslots, bundle, slot) : 0;
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
            if (barrier[i])   /* flow words are alone: bundle = pc */
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
    free(barrier);
    return ok;
}
