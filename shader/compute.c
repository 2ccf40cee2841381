/*
 * Compute launches on the reference interpreter (docs/COMPUTE.md): the
 * work-items' identity and the order of execution that defines a
 * kernel's results.
 *
 * Workgroups run one after the other in linear order (x fastest).  In a
 * workgroup, each thread in local-index order runs until it has executed
 * its next BAR or finished; when every thread has, the barrier releases
 * and the next round starts.  A thread's k-th BAR therefore waits for
 * every other thread's k-th BAR or end, the rule every model follows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "shader/decode.h"

static bool fail(struct us_diag *d, const char *msg)
{
    d->line = d->col = 0;
    snprintf(d->msg, sizeof d->msg, "%s", msg);
    return false;
}

static uint32_t group_threads(const struct us_program *prog)
{
    uint32_t n = 1;
    for (int d = 0; d < 3; d++)
        n *= prog->group_size[d] ? prog->group_size[d] : 1;
    return n;
}

uint64_t us_compute_items(const struct us_program *prog,
                          const uint32_t groups[3], uint64_t limit,
                          struct us_diag *diag)
{
    uint64_t n = group_threads(prog);
    for (int d = 0; d < 3; d++) {
        if (!groups[d]) {
            fail(diag, "a launch needs at least one workgroup in each "
                 "dimension");
            return 0;
        }
        n *= groups[d];
        if (n > limit) {
            diag->line = diag->col = 0;
            snprintf(diag->msg, sizeof diag->msg, "the launch has more than "
                     "%llu work-items", (unsigned long long)limit);
            return 0;
        }
    }
    return n;
}

static void set_u32(us_vec4 reg, uint32_t x, uint32_t y, uint32_t z)
{
    uint32_t v[4] = { x, y, z, 0 };
    memcpy(reg, v, sizeof v);
}

void us_compute_thread(const struct us_program *prog, const uint32_t groups[3],
                       uint64_t item, struct us_thread *t)
{
    uint32_t size[3], local[3], group[3];
    for (int d = 0; d < 3; d++)
        size[d] = prog->group_size[d] ? prog->group_size[d] : 1;
    uint32_t n = size[0] * size[1] * size[2];
    uint64_t g = item / n;
    uint32_t l = (uint32_t)(item % n);
    local[0] = l % size[0];
    local[1] = l / size[0] % size[1];
    local[2] = l / (size[0] * size[1]);
    group[0] = (uint32_t)(g % groups[0]);
    group[1] = (uint32_t)(g / groups[0] % groups[1]);
    group[2] = (uint32_t)(g / ((uint64_t)groups[0] * groups[1]));
    us_thread_reset(t);
    set_u32(t->input[US_CIN_GLOBALID], group[0] * size[0] + local[0],
            group[1] * size[1] + local[1], group[2] * size[2] + local[2]);
    set_u32(t->input[US_CIN_LOCALID], local[0], local[1], local[2]);
    set_u32(t->input[US_CIN_GROUPID], group[0], group[1], group[2]);
    set_u32(t->input[US_CIN_GROUPCOUNT], groups[0], groups[1], groups[2]);
    set_u32(t->input[US_CIN_GROUPSIZE], size[0], size[1], size[2]);
    set_u32(t->input[US_CIN_LOCALINDEX], l, 0, 0);
}

bool us_compute_interpret(const struct us_program *prog,
                          const struct us_exec_env *env,
                          const uint32_t groups[3], struct us_thread *threads,
                          struct us_diag *diag)
{
    uint64_t items = us_compute_items(prog, groups, UINT64_MAX, diag);
    if (!items)
        return false;
    uint32_t n = group_threads(prog);
    struct us_decoded *dec = us_decode(prog);
    struct us_thread *t = malloc(n * sizeof *t);
    struct us_flow_state *fs = malloc(n * sizeof *fs);
    uint8_t *waiting = malloc(n);
    struct us_buffer shared = { calloc(prog->shared_bytes + 1, 1),
                                prog->shared_bytes };
    bool ok = dec && t && fs && waiting && shared.data;
    if (!ok)
        fail(diag, "out of memory");
    for (uint64_t base = 0; ok && base < items; base += n) {
        memset(shared.data, 0, prog->shared_bytes);
        for (uint32_t i = 0; i < n; i++) {
            us_compute_thread(prog, groups, base + i, &t[i]);
            t[i].shared = &shared;
            us_flow_start(&fs[i], 1, env->max_insts);
        }
        for (bool round = true; round && ok;) {
            round = false;
            for (uint32_t i = 0; i < n && ok; i++) {
                waiting[i] = us_interpret_until_barrier(dec, env, &t[i],
                                                        &fs[i]);
                round |= waiting[i];
                if (t[i].overrun)
                    ok = us_budget_error(env, (unsigned)(base + i), diag);
            }
        }
        if (ok && threads)
            for (uint32_t i = 0; i < n; i++) {
                threads[base + i] = t[i];
                threads[base + i].shared = NULL;
            }
    }
    us_decoded_free(dec);
    free(t);
    free(fs);
    free(waiting);
    free(shared.data);
    return ok;
}
