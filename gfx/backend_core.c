/* A shader backend running batches on a core model: gfx/backend_core.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "gfx/backend_core.h"

/* Texture lookups and derivatives read the other lanes of a quad, which a
 * core model's lone threads do not see. */
static bool reads_quads(const struct us_program *prog)
{
    for (unsigned i = 0; i < prog->ninsts; i++) {
        const struct us_opinfo *o = &us_ops[prog->insts[i].op];
        if (o->unit == US_UNIT_TEX || (o->flags & US_QUAD))
            return true;
    }
    return false;
}

/* A copy of the buffers (the run's buffers, charged already), or NULL
 * when out of memory. */
static struct us_memory *copy_memory(const struct us_memory *m)
{
    struct us_memory *c = calloc(1, sizeof *c);
    for (unsigned b = 0; c && b < US_MAX_BUFFERS; b++) {
        if (!m->buf[b].data)
            continue;
        c->buf[b].size = m->buf[b].size;
        c->buf[b].data = malloc((size_t)m->buf[b].size + 1);
        if (!c->buf[b].data) {
            for (unsigned k = 0; k < b; k++)
                free(c->buf[k].data);
            free(c);
            return NULL;
        }
        memcpy(c->buf[b].data, m->buf[b].data, m->buf[b].size);
    }
    return c;
}

static void free_memory(struct us_memory *c)
{
    for (unsigned b = 0; c && b < US_MAX_BUFFERS; b++)
        free(c->buf[b].data);
    free(c);
}

static bool budget_overrun(const struct us_thread *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (t[i].overrun)
            return true;
    return false;
}

static void functional(const struct us_program *prog,
                       const struct us_exec_env *env, struct us_thread *t,
                       unsigned n, bool quads)
{
    if (quads)
        for (unsigned i = 0; i + 4 <= n; i += 4)
            us_interpret_quad(prog, env, t + i);
    else
        for (unsigned i = 0; i < n; i++)
            us_interpret(prog, env, &t[i]);
}

static void core_shade(void *ctx, const struct us_program *prog,
                       const struct us_exec_env *env,
                       struct us_thread *threads, unsigned n, bool quads)
{
    struct gfx_core_backend *b = ctx;
    if (n == 0)
        return;
    struct us_thread *work = malloc(n * sizeof *work);
    struct us_stats *st = malloc(sizeof *st);
    /* quads that sample textures or take derivatives are shaded again by
     * the interpreter (below): the model's run of a program that writes memory goes to a
     * copy of the buffers, so that memory is written once */
    bool again = quads && reads_quads(prog);
    struct us_exec_env menv = *env;
    struct us_memory *copy = NULL;
    if (again && env->mem && gfx_writes_memory(prog))
        menv.mem = copy = copy_memory(env->mem);
    bool ok = work && st && (copy || menv.mem == env->mem);
    if (ok) {
        memcpy(work, threads, n * sizeof *work);
        struct us_workload w = { prog, &menv, work, n, NULL, NULL };
        struct us_diag diag;
        ok = us_core_run(b->model, &b->cfg, &w, st, &diag);
        if (!ok && !b->failed)
            b->diag = diag;
    } else if (!b->failed) {
        b->diag = (struct us_diag){ 0 };
        snprintf(b->diag.msg, sizeof b->diag.msg, "%s backend: out of memory",
                 b->model->name);
    }
    if (!ok && work && budget_overrun(work, n)) {
        /* the pipeline reports it, as for the functional backend */
        memcpy(threads, work, n * sizeof *work);
    } else if (!ok) {
        b->failed = true;
        functional(prog, env, threads, n, quads);
    } else {
        struct gfx_core_totals *t = &b->stage[prog->stage];
        t->batches++;
        t->threads += n;
        t->cycles += (uint64_t)us_stats_get(st, "cycles");
        t->useful_ops += (uint64_t)us_stats_get(st, "useful_ops");
        t->energy += us_stats_get(st, "energy");
        t->lut_accesses += (uint64_t)us_stats_get(st, "lut.accesses");
        t->lut_merged += (uint64_t)us_stats_get(st, "lut.merged");
        t->lut_conflicts += (uint64_t)us_stats_get(st, "lut.conflicts");
        t->lut_stall_cycles += (uint64_t)us_stats_get(st, "lut.stall_cycles");
        if (again)
            functional(prog, env, threads, n, quads);
        else
            memcpy(threads, work, n * sizeof *work);
    }
    free_memory(copy);
    free(st);
    free(work);
}

void gfx_core_backend_init(struct gfx_core_backend *b,
                           const struct us_core_model *model,
                           const struct us_config *cfg)
{
    memset(b, 0, sizeof *b);
    b->model = model;
    b->cfg = *cfg;
    b->be.name = model->name;
    b->be.ctx = b;
    b->be.shade = core_shade;
    b->be.max_insts = (uint32_t)cfg->v[US_KNOB_max_instructions];
    b->be.varying_slots = (unsigned)cfg->v[US_KNOB_varying_slots];
}

json_t *gfx_core_backend_json(const struct gfx_core_backend *b)
{
    static const char *const names[2] = { "vertex", "fragment" };
    json_t *o = json_pack("{s:s}", "arch", b->model->name);
    unsigned lanes = (unsigned)b->cfg.v[US_KNOB_alu_lanes];
    for (unsigned s = 0; o && s < 2; s++) {
        const struct gfx_core_totals *t = &b->stage[s];
        double util = t->cycles ? (double)t->useful_ops /
                                  ((double)lanes * (double)t->cycles) : 0.0;
        json_t *st = json_pack(
            "{s:I, s:I, s:I, s:I, s:f, s:f, s:{s:I, s:I, s:I, s:I}}",
            "batches", (json_int_t)t->batches,
            "threads", (json_int_t)t->threads,
            "cycles", (json_int_t)t->cycles,
            "useful_ops", (json_int_t)t->useful_ops,
            "utilization", util, "energy", t->energy,
            "lut", "accesses", (json_int_t)t->lut_accesses,
            "merged", (json_int_t)t->lut_merged,
            "conflicts", (json_int_t)t->lut_conflicts,
            "stall_cycles", (json_int_t)t->lut_stall_cycles);
        if (!st || json_object_set_new(o, names[s], st)) {
            json_decref(o);
            return NULL;
        }
    }
    return o;
}
