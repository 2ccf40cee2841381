/*
 * Reconvergence policies of the SIMT model (knob reconv; docs/SIMT.md).
 *
 * Every lane of a warp runs its own thread with its own sequencer (a
 * one-lane us_flow_state), so a thread computes the same registers
 * whatever the policy: a policy decides only WHICH lanes issue together,
 * always lanes at one pc.  The model asks `pick` for the lanes to issue,
 * runs the instruction on them, moves their pcs, and tells the policy
 * with `issued`.  Parts (shader/reconv_*.c) are listed in
 * us_reconv_parts[], in the knob's order; the model never asks which one
 * it has.
 */
#ifndef US_SHADER_RECONV_H
#define US_SHADER_RECONV_H

#include <stdbool.h>
#include <stdint.h>

#include "ushader.h"

enum { US_RECONV_STACK = 64 };

/* A warp as a policy sees it: lanes 0 .. nlanes-1, pc[i] the next
 * instruction of lane i (n, the code's length, once it has finished). */
struct us_simt_warp {
    unsigned nlanes;
    uint32_t live;              /* lanes whose thread has not finished   */
    unsigned pc[US_FLOW_MAX_LANES];
};

/* What a policy reads about the code. */
struct us_reconv_code {
    unsigned n;                 /* instructions; pc n is the end          */
    const uint32_t *ipdom;      /* us_flow_ipdoms                         */
    const uint32_t *next;       /* the pc after the issue group at pc     */
    const uint8_t *sync;        /* the issue group at pc holds a SYNC     */
    unsigned depth;             /* knob reconv_depth                      */
};

/* A policy's statistics (docs/METRICS.md "reconv.*"). */
struct us_reconv_stats {
    uint64_t divergent;         /* issues after which the lanes' pcs part */
    uint64_t reconverged;       /* parted lanes issuing together again    */
    uint64_t stack_max;         /* deepest stack (entries above the base) */
    uint64_t serialised;        /* sync: lanes left apart (nested
                                   divergence), issued lowest pc first     */
};

/* A policy's state: one per warp. */
struct us_reconv {
    uint32_t active;            /* sync: the lanes running               */
    uint32_t base;              /* sync: the lanes an empty stack's SYNC
                                   restores                              */
    unsigned depth;
    struct { uint32_t mask, rpc; } stack[US_RECONV_STACK];
};

struct us_reconv_part {
    const char *name;           /* the knob's choice */
    /* NULL, or false with *diag for code the policy cannot run. */
    US_MUST_CHECK bool (*check)(const struct us_program *prog,
                                struct us_diag *diag);
    /* A warp starts with its live lanes all at pc 0. */
    void (*start)(struct us_reconv *r, const struct us_simt_warp *w);
    /* The lanes to issue next (all at one pc, stored in *pc); 0 once
     * every lane has finished. */
    uint32_t (*pick)(struct us_reconv *r, const struct us_simt_warp *w,
                     const struct us_reconv_code *code, unsigned *pc);
    /* Lanes `issued` issued the group at `pc`; w holds their new pcs (and
     * `live` without the lanes that finished), which a policy may move (none).
     * False with *diag when the machine could not go on (a stack
     * overflow, lanes the hardware would drop). */
    US_MUST_CHECK bool (*issued)(struct us_reconv *r, struct us_simt_warp *w,
                                 const struct us_reconv_code *code,
                                 uint32_t issued, unsigned pc,
                                 struct us_reconv_stats *st,
                                 struct us_diag *diag);
};

extern const struct us_reconv_part us_reconv_pdom, us_reconv_minpc,
    us_reconv_sync, us_reconv_none;

/* The part the configuration's reconv knob names. */
const struct us_reconv_part *us_reconv_part(int choice);

/* Helpers the parts share (shader/reconv.c). */

/* The lowest pc among lanes `mask`, and the lanes at it. */
uint32_t us_reconv_lowest(const struct us_simt_warp *w, uint32_t mask,
                          unsigned *pc);
/* Do lanes `mask` sit at more than one pc? */
bool us_reconv_parted(const struct us_simt_warp *w, uint32_t mask);
void us_reconv_push(struct us_reconv *r, uint32_t mask, uint32_t rpc,
                    struct us_reconv_stats *st);
bool us_reconv_overflow(const struct us_reconv_code *code, unsigned pc,
                        struct us_diag *diag);

#endif
