/*
 * The heterogeneous-SP baseline's code (SPEC section 2, the paper's
 * "heterogeneous SP"): a vec4 SIMD datapath and a scalar datapath with the
 * SFU co-issue (4+1).  The compiler pairs vec4 instructions statically:
 * SFU operations (RCP ... POW, EXP LOG LIT SCS) go to the scalar slot,
 * one-component ALU operations to either slot, everything else (wider
 * ALU operations, dot products, TEX, KIL, ARL, memory) to the vector slot,
 * and each flow instruction, BRA, BAR and MEMBAR to the vector slot of a
 * bundle of its own (no instruction moves across it); a BRA's target
 * begins a block, and memory operations keep their order.  A
 * bundle is two vec4 words (2 x 128 bits); an empty slot is a word whose
 * OP field is all ones (no opcode), every other bit zero.
 */
#include <stdlib.h>
#include <string.h>

#include "isa/scalar.h"
#include "isa/micro.h"

void us_sched_item_vec4(const struct us_inst *in, struct us_sched_item *it)
{
    memset(it, 0, sizeof *it);
    for (unsigned i = 0; i < us_ops[in->op].nsrc; i++) {
        const struct us_src *s = &in->src[i];
        for (unsigned c = 0; c < 4; c++)
            if (s->swz[c] <= US_SWZ_W)
                us_sched_add_reg(it, false, s->file, 4u * s->index + s->swz[c]);
        if (s->rel)
            us_sched_add_reg(it, false, US_FILE_ADDRESS, 4u * s->rel_addr);
    }
    unsigned wmask = micro_written_mask(in->op, in->dst.mask);
    for (unsigned c = 0; c < 4; c++)
        if ((wmask >> c) & 1)
            us_sched_add_reg(it, true, in->dst.file, 4u * in->dst.index + c);
    if (us_ops[in->op].unit == US_UNIT_LSU)
        us_sched_add_memory(it);
    it->slots = 1;
    if (us_ops[in->op].unit == US_UNIT_SFU)
        it->slots = 2;
    else if (us_ops[in->op].unit == US_UNIT_ALU && in->op != US_OP_KIL &&
             us_ops[in->op].shape != US_SHAPE_DOT && __builtin_popcount(wmask) == 1)
        it->slots = 3;
}

bool us_hetero_schedule(const struct us_program *prog, struct us_inst **slots,
                        bool **empty, unsigned *nbundles)
{
    *slots = NULL;
    *empty = NULL;
    *nbundles = 0;
    unsigned n = prog->ninsts;
    if (n == 0)
        return true;
    struct us_sched_item *items = malloc(n * sizeof *items);
    unsigned *bundle = malloc(n * sizeof *bundle);
    unsigned *slot = malloc(n * sizeof *slot);
    unsigned *entry = malloc((n + 1) * sizeof *entry);
    uint8_t *cut = malloc(n * sizeof *cut);
    bool ok = items && bundle && slot && entry && cut;
    for (unsigned i = 0; ok && i < n; i++) {
        const struct us_inst *in = &prog->insts[i];
        us_sched_item_vec4(in, &items[i]);
        enum us_unit u = us_ops[in->op].unit;
        cut[i] = u == US_UNIT_BRANCH || u == US_UNIT_BARRIER ? US_SCHED_ALONE
                                                             : US_SCHED_PLAIN;
    }
    for (unsigned i = 0; ok && i < n; i++) {
        unsigned t = prog->insts[i].target;
        if (prog->insts[i].op == US_OP_BRA && t < n && cut[t] == US_SCHED_PLAIN)
            cut[t] = US_SCHED_BEGIN;
    }
    unsigned nb = ok ? us_list_schedule_blocks(items, cut, n, 2, bundle,
                                               slot, entry) : 0;
    ok = ok && nb > 0;
    struct us_inst *s = ok ? calloc(2 * (size_t)nb, sizeof *s) : NULL;
    bool *e = ok ? malloc(2 * (size_t)nb * sizeof *e) : NULL;
    ok = ok && s && e;
    if (ok) {
        for (unsigned i = 0; i < 2 * nb; i++)
            e[i] = true;
        for (unsigned i = 0; i < n; i++) {
            struct us_inst *x = &s[2 * bundle[i] + slot[i]];
            *x = prog->insts[i];
            if (x->op == US_OP_BRA)
                x->target = (uint16_t)(x->target <= n ? entry[x->target] : nb);
            e[2 * bundle[i] + slot[i]] = false;
        }
        *slots = s;
        *empty = e;
        *nbundles = nb;
    } else {
        free(s);
        free(e);
    }
    free(items);
    free(bundle);
    free(slot);
    free(entry);
    free(cut);
    return ok;
}
