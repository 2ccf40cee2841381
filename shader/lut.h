/*
 * The shared coefficient LUT per cycle (SPEC 1, "table loader" of the
 * seed): banks with one read port each; requests for the same entry in the
 * same cycle merged into one read (multi-fetch); distinct entries of one
 * bank served one per cycle in FIFO order.  A request issued at cycle c
 * needs its data at c + lookahead, so a request served at cycle s stalls
 * its SP for max(0, s - (c + lookahead)) cycles.  lut=private: every SP
 * has its own LUT, so nothing waits.
 */
#ifndef US_SHADER_LUT_H
#define US_SHADER_LUT_H

#include <stdbool.h>
#include <stdint.h>

#include "shader/core.h"

enum { US_LUT_MAX_BANKS = 64 };

/* One bank: the cycle its port is next free, and the entries it reads in
 * the current request cycle (for merging). */
struct us_lut_bank {
    uint64_t free_at;
    uint64_t cycle;            /* request cycle the list below belongs to */
    unsigned nlist;
    struct { unsigned entry; uint64_t served; } *list;
};

struct us_lut {
    bool shared, multifetch, block;
    unsigned banks, lookahead, rows_per_bank;
    struct us_sfu_config sfu;  /* banks = the LUT's banks */
    unsigned base[US_SFU_NTABLES];  /* each table's first entry (layout) */
    struct us_lut_bank bank[US_LUT_MAX_BANKS];
    /* counters */
    uint64_t accesses, merged, conflicts, stall_cycles;
};

/* `requesters`: SPs that can ask in one cycle. */
US_MUST_CHECK bool us_lut_init(struct us_lut *l, const struct us_config *cfg,
                               unsigned requesters);
void us_lut_reset(struct us_lut *l);
void us_lut_free(struct us_lut *l);

/* Bank of an entry under the configured mapping (interleave: the SFU
 * model's us_sfu_lut_map; block: contiguous runs of rows_per_bank). */
unsigned us_lut_bank_of(const struct us_lut *l, enum us_sfu_table t,
                        unsigned segment);

/* A request for entry (t, segment) issued at cycle `now` (requests come in
 * non-decreasing `now`, at most two per requester per cycle) whose data is
 * needed `slack` cycles after the lookahead (POW's second lookup, needed
 * after the LG2 passes); returns the requester's stall cycles. */
unsigned us_lut_request(struct us_lut *l, uint64_t now, enum us_sfu_table t,
                        unsigned segment, unsigned slack);

#endif
