/*
 * Workgroups of a compute launch on a core model (docs/COMPUTE.md): the
 * part every model shares -- the scalar SP model and the vec4 engine call
 * it alike, and neither asks which model it is.
 *
 * A compute program's workload (struct us_workload; G =
 * us_workload_group, its GROUP_SIZE's threads) is nthreads / G workgroups
 * of G consecutive threads (us_compute_thread's order).  What this part
 * keeps, per resident workgroup:
 *
 *   admission   a workgroup starts only when all its threads can be
 *               resident: the model places its G threads in free thread
 *               slots at once (lockstep warps never mixing two
 *               workgroups), workgroups in order of their index.  A
 *               workgroup larger than the model's thread slots can never
 *               start: us_wgs_init refuses it, naming the knob to raise;
 *   shared      prog->shared_bytes of shared memory, zeroed when the
 *               workgroup starts; us_wgs_place points each thread's
 *               `shared` at it (and us_wgs_finish back to NULL);
 *   barriers    docs/COMPUTE.md's rule: a thread's k-th BAR waits until
 *               every thread of its workgroup has executed its k-th BAR or
 *               finished.  `level` counts the barriers released; a thread
 *               that has executed more BARs than that waits.  When the
 *               last thread at `level` executes its BAR or finishes (in
 *               cycle r), the barrier releases: the waiting threads may
 *               issue from cycle r + 1 (a release takes effect at the next
 *               cycle, so no model's result depends on the order in which
 *               it visits its processors within a cycle).  Each thread's
 *               wait, from the cycle it issued its BAR to the release
 *               cycle, is summed in `wait_cycles`.
 *
 * "Finished" is the thread's last issue (its results may still be in
 * flight); a workgroup's entry frees when all its threads have finished.
 * Nothing here depends on time but the release cycle, so the bookkeeping
 * is the same for a thread alone, for scalar SPs and for lanes in
 * lockstep; what lockstep adds (a warp at BAR with live lanes masked off
 * cannot go on) is the model's check, us_wgs_divergent_error its message.
 */
#ifndef US_SHADER_WORKGROUP_H
#define US_SHADER_WORKGROUP_H

#include <stdbool.h>
#include <stdint.h>

#include "shader/core.h"

/* One resident workgroup. */
struct us_wg {
    bool live;                 /* some thread not finished              */
    uint32_t group;            /* its index in the launch               */
    uint32_t first;            /* its first thread (group * G)          */
    unsigned left;             /* threads not finished                  */
    unsigned level;            /* barriers released                     */
    unsigned behind;           /* unfinished threads with `level` BARs  */
    uint64_t release_at;       /* the last release takes effect here    */
    uint32_t *bars;            /* BARs each thread executed (G)         */
    uint64_t *since;           /* cycle each waiting thread issued it   */
    uint8_t *done;             /* finished (G)                          */
    struct us_buffer shared;
};

struct us_wgs {
    unsigned size;             /* G; 0 for a graphics workload          */
    uint32_t ngroups, next;    /* workgroups, the next to admit         */
    unsigned cap;              /* entries: workgroups resident at once  */
    struct us_wg *wg;
    uint32_t *bars_mem;
    uint64_t *since_mem;
    uint8_t *done_mem, *shared_mem;
    uint32_t shared_bytes;
    uint64_t admitted;         /* workgroups started                    */
    uint64_t wait_cycles;      /* thread-cycles waiting at barriers     */
};

/*
 * Set up the workgroups of workload w (nothing for a graphics workload:
 * size 0) for a model of `slots` thread slots.  False with *diag when a
 * workgroup does not fit -- "MODEL: a workgroup of G threads needs G
 * thread slots resident together; the model has WHAT = SLOTS: raise
 * threads_per_proc or alu_lanes" (`what` names the product,
 * "alu_lanes x threads_per_proc = 8 x 4") -- when nthreads is not a
 * multiple of G, or when memory runs out.
 */
US_MUST_CHECK bool us_wgs_init(struct us_wgs *g, const struct us_workload *w,
                               unsigned slots, const char *model,
                               const char *what, struct us_diag *diag);
void us_wgs_free(struct us_wgs *g);

/* Back to no workgroup started. */
void us_wgs_reset(struct us_wgs *g);

/* Does workload w launch workgroups (a compute launch)? */
static inline bool us_wgs_on(const struct us_wgs *g) { return g->size != 0; }

/* Start the next workgroup, if one is left and an entry is free: its
 * shared memory zeroed; returns the entry and sets *first to its first
 * thread (the model then places threads first .. first + G - 1 at once);
 * -1 when none can start. */
int us_wgs_admit(struct us_wgs *g, uint32_t *first);

/* Thread tid of entry e is placed: its `shared` pointer set. */
void us_wgs_place(struct us_wgs *g, int e, struct us_thread *t);

/* Thread tid of entry e executed a BAR in cycle `now`. */
void us_wgs_bar(struct us_wgs *g, int e, uint32_t tid, uint64_t now);

/* Thread tid of entry e has issued its last instruction in cycle `now`
 * (its `shared` pointer is cleared). */
void us_wgs_finish(struct us_wgs *g, int e, uint32_t tid,
                   struct us_thread *t, uint64_t now);

/* Is thread tid of entry e waiting at a barrier in cycle `now`? */
static inline bool us_wgs_waiting(const struct us_wgs *g, int e,
                                  uint32_t tid, uint64_t now)
{
    const struct us_wg *wg = &g->wg[e];
    uint32_t bars = wg->bars[tid - wg->first];
    return bars > wg->level || (bars && now < wg->release_at);
}

/* The error of a lockstep warp at a BAR (vec4 instruction `inst`, whose
 * source line it gives) with `masked` live lanes masked off: "MODEL: a
 * lockstep warp reached BAR with N of its lanes masked off by flow
 * control: a barrier in divergent code would hang a warp without
 * independent thread scheduling (docs/COMPUTE.md)". */
void us_wgs_divergent_error(const char *model, const struct us_program *prog,
                            unsigned inst, unsigned masked,
                            struct us_diag *diag);

#endif
