/* `ushader sweep --suite compute` (cli/sweep.h, docs/SWEEP.md): a point is
 * the compute bench (suite/compute.h) on the models of --arch, each at the
 * base configuration plus the point's knobs, every buffer checked against
 * the kernel's C reference.  Of the bench's variants a point keeps one per
 * timed model (US_CB_MODEL): the presets load INI files and the
 * divergence, memory-system and e-GPU studies set the very knobs a
 * researcher sweeps (simt_warp_size, reconv, mem_system, simt_warps), so
 * the point's values would be overridden or mixed with theirs; the
 * interpreter has no timing.  A point's rows are bench-compute's jobs
 * ("kernel", "variant", "status", "stats", ...) with the model, so
 * `ushader compare` reads them as it reads `bench --suite compute`. */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/sweep.h"
#include "suite/compute.h"
#include "suite/provenance.h"

static const char *const status_names[] = { "pass", "refused", "failed" };

static bool kept(const struct us_cb_variant *v, const char *archs)
{
    return v->group == US_CB_MODEL && v->model &&
           us_bench_arch_selected(archs, v->model->name);
}

/* The point's configuration of model m: the base, then its knobs. */
static bool point_config(const struct sw_ctx *c, unsigned k,
                         const struct us_core_model *m, struct us_config *cfg,
                         struct us_diag *d)
{
    char sets[SW_MAX_AXES][SW_MAX_SET];
    struct us_bench_opts o;
    sw_point_opts(c, k, sets, &o);
    *cfg = c->base;
    for (unsigned i = 0; i < o.nsets; i++)
        if (!us_config_set(cfg, o.sets[i], d))
            return false;
    return us_core_check(m, cfg, d);
}

bool sw_compute_check(const struct sw_ctx *c)
{
    const char *archs = c->s->arch && strcmp(c->s->arch, "all") ? c->s->arch
                                                                : NULL;
    for (unsigned k = 0; k < c->s->npoints; k++)
        for (unsigned m = 0; us_models[m]; m++) {
            if (!us_bench_arch_selected(archs, us_models[m]->name))
                continue;
            struct us_diag d = { 0 };
            struct us_config cfg;
            if (!point_config(c, k, us_models[m], &cfg, &d)) {
                char label[512];
                sw_point_label(c->s, k, label, sizeof label);
                cli_error(NULL, 0, 0, "sweep: point %u%s: %s: %s", k, label,
                          us_models[m]->name, d.msg);
                return false;
            }
        }
    return true;
}

/* Keep the model variants of --arch and their jobs (in the bench's order:
 * variant-major, so the kept jobs stay in order). */
static void keep_models(struct us_cbench *b, const char *archs)
{
    unsigned map[US_CB_MAX_VARIANTS], nv = 0, nj = 0;
    for (unsigned v = 0; v < b->nvars; v++) {
        map[v] = kept(&b->vars[v], archs) ? nv : US_CB_MAX_VARIANTS;
        if (map[v] != US_CB_MAX_VARIANTS)
            b->vars[nv++] = b->vars[v];
    }
    for (unsigned j = 0; j < b->njobs; j++)
        if (map[b->jobs[j].v] != US_CB_MAX_VARIANTS) {
            b->jobs[nj] = b->jobs[j];
            b->jobs[nj++].v = map[b->jobs[j].v];
        }
    b->nvars = nv;
    b->njobs = nj;
}

static bool load(const struct sw_ctx *c, struct us_cbench **cb,
                 const char *archs)
{
    struct us_cbench *b = calloc(1, sizeof *b);
    if (!b) {
        cli_error(NULL, 0, 0, "out of memory");
        return false;
    }
    const struct us_cb_opts o = { .kernels = "bench/compute",
                                  .only = c->s->only };
    struct us_diag d = { 0 };
    if (!us_cb_load(b, &o, &d)) {
        if (b->err_file[0])
            cli_error(b->err_file, d.line, d.col, "%s", d.msg);
        else
            cli_error(NULL, 0, 0, "sweep: %s", d.msg);
        us_cb_free(b);
        free(b);
        return false;
    }
    keep_models(b, archs);
    *cb = b;
    return true;
}

void sw_compute_free(struct us_cbench **cb)
{
    if (*cb)
        us_cb_free(*cb);
    free(*cb);
    *cb = NULL;
}

/* The provenance: the canonical command, the base configuration, exact
 * math (the compute bench's), the spec, --config and every kernel. */
static json_t *prov_json(const struct sw_ctx *c, const struct us_cbench *b)
{
    const char *argv[64];
    unsigned n = sw_spec_argv(c->s, argv, 64);
    struct us_prov *p = calloc(1, sizeof *p);
    if (!p || !us_prov_init(p, (int)n, (char *const *)argv)) {
        free(p);
        return NULL;
    }
    p->math = "exact";
    p->cfg = &c->base;
    us_prov_add_file(p, c->s->spec_file);
    us_prov_add_file(p, c->s->config);
    for (unsigned i = 0; i < b->nkern; i++)
        us_prov_add_file(p, b->kern[i].path);
    json_t *j = sw_round_trip(us_prov_json(p));
    us_prov_free(p);
    free(p);
    return j;
}

json_t *sw_compute_prov(const struct sw_ctx *c)
{
    const char *archs = c->s->arch && strcmp(c->s->arch, "all") ? c->s->arch
                                                                : NULL;
    struct us_cbench *b = NULL;
    if (!load(c, &b, archs))
        return NULL;
    json_t *j = prov_json(c, b);
    sw_compute_free(&b);
    if (!j)
        cli_error(NULL, 0, 0, "out of memory");
    return j;
}

/* A job as `bench --suite compute --json` prints it, with its model. */
static json_t *job_json(const struct us_cbench *b, const struct us_cb_job *jb)
{
    const struct us_cb_variant *v = &b->vars[jb->v];
    json_t *row = json_pack("{s:o, s:s, s:s, s:s, s:[iii], s:[iii], s:s}",
        "kernel", us_json_text(b->kern[jb->k].id), "variant", v->name,
        "model", v->model->name, "group", "model",
        "groups", (int)jb->groups[0], (int)jb->groups[1], (int)jb->groups[2],
        "local", (int)jb->local[0], (int)jb->local[1], (int)jb->local[2],
        "status", status_names[jb->status]);
    if (row && jb->msg[0])
        json_object_set_new(row, "message", us_json_text(jb->msg));
    if (row && jb->status == US_CB_PASS && jb->st.n)
        json_object_set_new(row, "stats", us_stats_json(&jb->st));
    return row;
}

json_t *sw_compute_point(const struct sw_ctx *c, unsigned k, unsigned jobs,
                         struct us_cbench **cb, us_bench_progress_fn progress,
                         void *ctx, json_t **prov, int *rc)
{
    const struct sw_spec *s = c->s;
    const char *archs = s->arch && strcmp(s->arch, "all") ? s->arch : NULL;
    char label[512];
    sw_point_label(s, k, label, sizeof label);
    *rc = 2;
    if (!*cb && !load(c, cb, archs))
        return NULL;
    struct us_cbench *b = *cb;
    for (unsigned v = 0; v < b->nvars; v++) {
        struct us_diag d = { 0 };
        if (!point_config(c, k, b->vars[v].model, &b->vars[v].cfg, &d)) {
            cli_error(NULL, 0, 0, "sweep: point %u%s: %s: %s", k, label,
                      b->vars[v].name, d.msg);
            return NULL;
        }
    }
    *rc = 1;
    struct us_diag d = { 0 };
    if (!us_cb_run(b, jobs, progress, ctx, &d)) {
        cli_error(NULL, 0, 0, "sweep: point %u%s: %s", k, label, d.msg);
        return NULL;
    }
    json_t *knobs = json_object(), *runs = json_array();
    for (unsigned a = 0; knobs && a < s->naxes; a++)
        json_object_set_new(knobs, s->axes[a].key,
                            us_json_text(s->axes[a].vals[sw_point_value(s, k,
                                                                        a)]));
    for (unsigned j = 0; runs && j < b->njobs; j++) {
        const struct us_cb_job *jb = &b->jobs[j];
        if (jb->status == US_CB_FAILED)
            cli_error(b->kern[jb->k].path, 0, 0, "point %u%s: %s on %s: %s",
                      k, label, b->kern[jb->k].id, b->vars[jb->v].name,
                      jb->msg);
        json_array_append_new(runs, job_json(b, jb));
    }
    json_t *pt = sw_round_trip(json_pack("{s:i, s:o, s:i, s:o}", "index",
                                         (int)k, "knobs", knobs, "failures",
                                         (int)b->failed, "runs", runs));
    if (prov && pt && !(*prov = prov_json(c, b))) {
        json_decref(pt);
        pt = NULL;
    }
    if (!pt)
        cli_error(NULL, 0, 0, "out of memory");
    else
        *rc = 0;
    return pt;
}
