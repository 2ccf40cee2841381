/* The shared coefficient LUT per cycle: see shader/lut.h. */
#include <stdlib.h>
#include <string.h>

#include "shader/lut.h"

bool us_lut_init(struct us_lut *l, const struct us_config *cfg,
                 unsigned requesters)
{
    memset(l, 0, sizeof *l);
    l->shared = cfg->v[US_KNOB_lut] == 0;
    l->multifetch = cfg->v[US_KNOB_multifetch] != 0;
    l->block = cfg->v[US_KNOB_lut_map] == 1;
    l->banks = l->shared ? (unsigned)cfg->v[US_KNOB_lut_banks] : 1;
    l->lookahead = (unsigned)cfg->v[US_KNOB_lookahead];
    l->sfu = cfg->sfu;
    l->sfu.banks = (uint8_t)l->banks;
    unsigned entries = 0;
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        struct us_sfu_lut lay;
        us_sfu_lut_layout(&l->sfu, (enum us_sfu_table)t, &lay);
        l->base[t] = lay.base;
        entries += lay.entries;
    }
    l->rows_per_bank = (entries + l->banks - 1) / l->banks;
    for (unsigned b = 0; b < l->banks; b++) {
        l->bank[b].list = calloc(2 * (requesters ? requesters : 1),
                                 sizeof *l->bank[b].list);
        if (!l->bank[b].list) {
            us_lut_free(l);
            return false;
        }
    }
    return true;
}

void us_lut_reset(struct us_lut *l)
{
    for (unsigned b = 0; b < l->banks; b++) {
        l->bank[b].free_at = 0;
        l->bank[b].cycle = 0;
        l->bank[b].nlist = 0;
    }
    l->accesses = l->merged = l->conflicts = l->stall_cycles = 0;
}

void us_lut_free(struct us_lut *l)
{
    for (unsigned b = 0; b < US_LUT_MAX_BANKS; b++) {
        free(l->bank[b].list);
        l->bank[b].list = NULL;
    }
}

unsigned us_lut_bank_of(const struct us_lut *l, enum us_sfu_table t,
                        unsigned segment)
{
    unsigned bank, row;
    if (!l->block) {
        us_sfu_lut_map(&l->sfu, t, segment, &bank, &row);
        return bank;
    }
    return (l->base[t] + segment) / l->rows_per_bank;
}

unsigned us_lut_request(struct us_lut *l, uint64_t now, enum us_sfu_table t,
                        unsigned segment, unsigned slack)
{
    if (!l->shared) {
        l->accesses++;  /* a private LUT: the SP's own port, always free */
        return 0;
    }
    unsigned entry = l->base[t] + segment;
    struct us_lut_bank *b = &l->bank[us_lut_bank_of(l, t, segment)];
    if (b->cycle != now) {
        b->cycle = now;
        b->nlist = 0;
    }
    uint64_t served = 0;
    bool found = false;
    if (l->multifetch)
        for (unsigned i = 0; i < b->nlist && !found; i++)
            if (b->list[i].entry == entry) {
                served = b->list[i].served;
                found = true;
            }
    if (found) {
        l->merged++;  /* answered by the read already queued */
    } else {
        served = b->free_at > now ? b->free_at : now;
        b->free_at = served + 1;
        l->accesses++;
        b->list[b->nlist].entry = entry;
        b->list[b->nlist].served = served;
        b->nlist++;
    }
    if (served > now)
        l->conflicts++;
    uint64_t need = now + l->lookahead + slack;
    unsigned stall = served > need ? (unsigned)(served - need) : 0;
    l->stall_cycles += stall;
    return stall;
}
