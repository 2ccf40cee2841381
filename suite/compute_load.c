/* The compute bench's kernels, variants and jobs: suite/compute.h.
 *
 * Each kernel is compiled once (glslang, or clang for OpenCL C, is most of
 * a small launch's time) and its C reference run once; every job then
 * starts from a copy of the inputs.  Every variant starts from the
 * defaults (or a preset's INI file) and sets only the knobs its study
 * names, so the models compare at the same alu_lanes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx/gfx.h"
#include "suite/compute.h"

struct entry { const struct kref *k; const char *id; bool bench_only; };

static const struct entry entries[] = {
#define KREF(id) { &kref_##id, #id, false },
#define KREF_BENCH(id) { &kref_##id, #id, true },
#include "bench/compute/ref/list.def"
#undef KREF
#undef KREF_BENCH
};
enum { NENTRIES = sizeof entries / sizeof entries[0] };

/* The SIMT presets (configs/P.ini), in report order. */
static const char *const presets[] = {
    "kgpu", "fpga", "tinygpu", "egpu-4t", "egpu-8t", "egpu-16t", "dice",
};
/* e-GPU's scaling study: 1T (one lane) and the paper's three systems. */
static const char *const egpu_sizes[] = { "1t", "4t", "8t", "16t" };

static const char *const model_names[] = {
    "functional", "scalar", "simd4", "vliw", "superscalar", "hetero", "simt",
};

/* Studies on a subset: the divergent kernels, the memory set. */
static const char *const divergent_ids[] = {
    "rodinia_bfs", "delineation", "kgpu_diverge", "delineation_cl", NULL,
};
static const char *const memsys_ids[] = {
    "vadd", "gemm64", "fir", "rodinia_bfs", "rodinia_pathfinder",
    "rodinia_backprop", "stats", NULL,
};
static const char *const memsys_names[] = {
    "lsu", "port", "coalesce", "tmcu", "cache",
};

const struct us_cb_paper us_cb_paper[3] = {
    { "fir", 3.6, 15.1 }, { "delineation", 3.1, 13.1 }, { "fft", 3.3, 14.0 },
};

static bool in_list(const char *const *list, const char *id)
{
    for (unsigned i = 0; list[i]; i++)
        if (!strcmp(list[i], id))
            return true;
    return false;
}

static bool matches(const char *only, const char *id)
{
    if (!only)
        return true;
    for (const char *p = only; *p;) {
        size_t n = strcspn(p, ",");
        for (const char *s = id; n && *s; s++)
            if (!strncmp(s, p, n))
                return true;
        p += n + (p[n] == ',');
    }
    return false;
}

unsigned us_cb_select(const char *only, bool all, const char **ids,
                      unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < NENTRIES && n < max; i++)
        if ((all || !entries[i].bench_only) && matches(only, entries[i].id))
            ids[n++] = entries[i].id;
    return n;
}

static const struct entry *entry_of(const char *id)
{
    for (unsigned i = 0; i < NENTRIES; i++)
        if (!strcmp(entries[i].id, id))
            return &entries[i];
    return NULL;
}

static bool fail_file(struct us_cbench *b, const char *path)
{
    snprintf(b->err_file, sizeof b->err_file, "%s", path);
    return false;
}

/* A file's text, gfx_read_file's "PATH: " dropped (err_file says it). */
static bool read_text(struct us_cbench *b, const char *path, char **text,
                      size_t *len, struct us_diag *diag)
{
    if (gfx_read_file(path, 16u << 20, text, len, diag))
        return true;
    size_t n = strlen(path);
    if (!strncmp(diag->msg, path, n) && diag->msg[n] == ':' &&
        diag->msg[n + 1] == ' ')
        memmove(diag->msg, diag->msg + n + 2, strlen(diag->msg + n + 2) + 1);
    return fail_file(b, path);
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static bool oom(struct us_diag *diag)
{
    snprintf(diag->msg, sizeof diag->msg, "out of memory");
    return false;
}

/* Its scalar arguments (program.local[i].x = the integer's bits) and the
 * program's own initial locals, resolved once. */
static bool resolve_params(struct us_cb_kernel *ck, struct us_diag *diag)
{
    struct us_glstate *gl = malloc(sizeof *gl);
    ck->params = calloc(ck->prog.nparams + 1, sizeof *ck->params);
    if (!gl || !ck->params) {
        free(gl);
        return oom(diag);
    }
    us_glstate_init(gl);
    us_load_initial_locals(&ck->prog, gl);
    for (unsigned i = 0; i < ck->k->nargs; i++) {
        const struct kref_arg *a = &ck->k->arg[i];
        if (a->index < US_MAX_LOCAL_PARAMS)
            memcpy(&gl->local[ck->prog.stage][a->index][0], &a->value,
                   sizeof a->value);
    }
    us_resolve_params(&ck->prog, gl, ck->params);
    free(gl);
    return true;
}

static bool load_kernel(struct us_cbench *b, struct us_cb_kernel *ck,
                        const char *dir, struct us_diag *diag)
{
    const struct kref *k = ck->k;
    if (!(ck->path = join(dir, k->name)))
        return oom(diag);
    size_t n = strlen(k->name);
    ck->any_shape = n > 3 && !strcmp(k->name + n - 3, ".cl");
    for (unsigned i = 0; i < k->nbufs; i++) {
        size_t bytes = (size_t)k->buf[i].bytes + 1;
        ck->in[i] = calloc(bytes, 1);
        ck->ref[i] = calloc(bytes, 1);
        if (!ck->in[i] || !ck->ref[i])
            return oom(diag);
    }
    k->init(ck->in, 1);
    for (unsigned i = 0; i < k->nbufs; i++)
        memcpy(ck->ref[i], ck->in[i], k->buf[i].bytes);
    k->run(ck->ref);
    char *text;
    size_t len;
    if (!read_text(b, ck->path, &text, &len, diag))
        return false;
    bool ok = us_program_from_text(ck->path, text, len, US_STAGE_COMPUTE,
                                   NULL, &ck->prog, diag);
    free(text);
    if (!ok)
        return fail_file(b, ck->path);
    if (ck->prog.stage != US_STAGE_COMPUTE) {
        snprintf(diag->msg, sizeof diag->msg, "not a compute program");
        return fail_file(b, ck->path);
    }
    return resolve_params(ck, diag);
}

/* ---- Variants ------------------------------------------------------------ */

static struct us_cb_variant *add(struct us_cbench *b, const char *name,
                                 const char *label, enum us_cb_group g,
                                 const char *model)
{
    if (b->nvars == US_CB_MAX_VARIANTS)
        return NULL;
    struct us_cb_variant *v = &b->vars[b->nvars++];
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    snprintf(v->label, sizeof v->label, "%s", label);
    v->group = g;
    v->model = model ? us_model_lookup(model) : NULL;
    us_config_default(&v->cfg);
    return v;
}

/* key=value pairs over v's configuration; a failure is a bug here. */
static bool set(struct us_cb_variant *v, const char *const *kv,
                struct us_diag *diag)
{
    for (unsigned i = 0; kv[i]; i++)
        if (!us_config_set(&v->cfg, kv[i], diag))
            return false;
    return us_core_check(v->model, &v->cfg, diag);
}

static bool load_preset(struct us_cbench *b, struct us_cb_variant *v,
                        const char *dir, const char *name,
                        struct us_diag *diag)
{
    char file[64];
    snprintf(file, sizeof file, "%s.ini", name);
    char *path = join(dir, file), *text;
    size_t len;
    if (!path)
        return oom(diag);
    snprintf(v->ini, sizeof v->ini, "%s", path);
    bool ok = read_text(b, path, &text, &len, diag);
    if (ok) {
        ok = us_config_load(&v->cfg, text, len, diag);
        free(text);
        if (!ok)
            fail_file(b, path);
    }
    ok = ok && us_core_check(v->model, &v->cfg, diag);
    free(path);
    return ok;
}

static bool variants(struct us_cbench *b, const char *configs,
                     struct us_diag *diag)
{
    char name[48], kv[3][48];
    for (unsigned i = 0; i < sizeof model_names / sizeof *model_names; i++) {
        const char *m = model_names[i];
        if (!add(b, m, m, US_CB_MODEL, i ? m : NULL))
            return false;
    }
    for (unsigned i = 0; i < sizeof presets / sizeof *presets; i++) {
        snprintf(name, sizeof name, "simt/%s", presets[i]);
        struct us_cb_variant *v = add(b, name, presets[i], US_CB_PRESET,
                                      "simt");
        if (!load_preset(b, v, configs, presets[i], diag))
            return false;
    }
    /* Divergence at 32 lanes: the per-thread SPs, then each policy at each
     * warp size.  "serial" and "dice" take one lane a cycle (DICE's
     * datapath, simt_exec_width 1); "dice" sequences only the active
     * lanes (selective dispatch), so dice against serial is its gain. */
    struct us_cb_variant *v = add(b, "div/scalar", "scalar SPs",
                                  US_CB_DIVERGE, "scalar");
    if (!set(v, (const char *const[]){ "alu_lanes=32", NULL }, diag))
        return false;
    static const char *const policies[][4] = {
        { "pdom", "reconv=pdom", NULL },
        { "minpc", "reconv=minpc", NULL },
        { "serial", "reconv=pdom", "simt_exec_width=1", NULL },
        { "dice", "reconv=pdom", "simt_exec_width=1", "simt_dispatch=active" },
    };
    for (unsigned p = 0; p < 4; p++)
        for (unsigned w = 4; w <= 32; w *= 2) {
            snprintf(name, sizeof name, "div/%s/w%u", policies[p][0], w);
            v = add(b, name, policies[p][0], US_CB_DIVERGE, "simt");
            v->warp = w;
            snprintf(kv[0], sizeof kv[0], "simt_warp_size=%u", w);
            const char *sets[] = { "alu_lanes=32", kv[0], policies[p][1],
                                   policies[p][2], policies[p][3], NULL };
            if (!set(v, sets, diag))
                return false;
        }
    for (unsigned i = 0; i < sizeof memsys_names / sizeof *memsys_names; i++) {
        snprintf(name, sizeof name, "mem/%s", memsys_names[i]);
        v = add(b, name, memsys_names[i], US_CB_MEMSYS, "simt");
        snprintf(kv[1], sizeof kv[1], "mem_system=%s", memsys_names[i]);
        if (!set(v, (const char *const[]){ kv[1], NULL }, diag))
            return false;
    }
    for (unsigned i = 0; i < sizeof egpu_sizes / sizeof *egpu_sizes; i++) {
        snprintf(name, sizeof name, "egpu/%s", egpu_sizes[i]);
        snprintf(kv[2], sizeof kv[2], "egpu-%s", egpu_sizes[i]);
        v = add(b, name, egpu_sizes[i], US_CB_EGPU, "simt");
        v->tiny_opencl = true;
        if (!load_preset(b, v, configs, kv[2], diag))
            return false;
    }
    return true;
}

/* ---- Jobs ---------------------------------------------------------------- */

static int kernel_index(const struct us_cbench *b, const char *id)
{
    for (unsigned i = 0; i < b->nkern; i++)
        if (!strcmp(b->kern[i].id, id))
            return (int)i;
    return -1;
}

/* The e-GPU study's kernel for `base` (fir, delineation, fft, gemm32...):
 * the OpenCL C version where the list has it (fir_big_cl,
 * delineation_big_cl, fft_cl, gemm32_cl), else the GLSL one. */
static int egpu_kernel(const struct us_cbench *b, const char *base)
{
    char id[48];
    static const char *const suffix[] = { "_big_cl", "_cl", "" };
    for (unsigned s = 0; s < 3; s++) {
        snprintf(id, sizeof id, "%s%s", base, suffix[s]);
        int k = kernel_index(b, id);
        if (k >= 0)
            return k;
    }
    return -1;
}

static bool egpu_job(const struct us_cbench *b, unsigned k,
                     const struct us_cb_variant *v)
{
    for (unsigned i = 0; i < 3; i++)
        if ((int)k == egpu_kernel(b, us_cb_paper[i].kernel))
            return true;
    /* GeMM's launch share on 16T only */
    static const char *const gemm[] = { "gemm32", "gemm64", "gemm128",
                                        "gemm256" };
    for (unsigned i = 0; i < 4; i++)
        if ((int)k == egpu_kernel(b, gemm[i]))
            return !strcmp(v->label, "16t");
    return false;
}

static bool applies(const struct us_cbench *b, unsigned k,
                    const struct us_cb_variant *v)
{
    const char *id = b->kern[k].id;
    /* the scaling study's big sizes (fir_big_cl, delineation_big_cl) run
     * there only: on every model they would be most of the run's time */
    if (strstr(id, "_big") && v->group != US_CB_EGPU)
        return false;
    /* --all's bench-only sizes (gemm128, gemm256) on the models and in the
     * e-GPU study; on the presets too they would double `make bench`
     * (tests/compute_suite.test.sh, COMPUTE_SUITE=all, runs them there) */
    if (b->kern[k].bench_only && v->group == US_CB_PRESET)
        return false;
    switch (v->group) {
    case US_CB_DIVERGE: return in_list(divergent_ids, id);
    case US_CB_MEMSYS:  return in_list(memsys_ids, id);
    case US_CB_EGPU:    return egpu_job(b, k, v);
    default:            return true;
    }
}

void us_cb_launch(const struct us_cb_kernel *k, const struct us_cb_variant *v,
                  uint32_t groups[3], uint32_t local[3])
{
    memcpy(groups, k->k->groups, 3 * sizeof *groups);
    memcpy(local, k->k->local, 3 * sizeof *local);
    const uint16_t *gs = k->prog.group_size;
    uint32_t lx = local[0] ? local[0] : gs[0],
             ly = local[0] ? local[1] : gs[1], lz = local[0] ? local[2] : gs[2];
    uint64_t items = (uint64_t)groups[0] * lx;
    bool linear = groups[1] == 1 && groups[2] == 1 && ly == 1 && lz == 1;
    if (v->group == US_CB_DIVERGE && v->warp && k->any_shape && linear &&
        items % v->warp == 0) {
        /* a grid-stride kernel fills its warps: a workgroup a warp, the
         * same work-items */
        groups[0] = (uint32_t)(items / v->warp);
        local[0] = v->warp;
        local[1] = local[2] = 1;
        return;
    }
    if (!v->tiny_opencl)
        return;
    unsigned warp = (unsigned)v->cfg.v[US_KNOB_simt_warp_size],
             slots = (unsigned)v->cfg.v[US_KNOB_simt_warps] * warp,
             cus = (unsigned)v->cfg.v[US_KNOB_alu_lanes] / warp;
    bool one_group = groups[0] * groups[1] * groups[2] == 1;
    if (k->any_shape) {
        /* Tiny-OpenCL: work-items = CUs x warps x threads; a workgroup's
         * barrier is within a CU, so a kernel of one workgroup takes one */
        groups[0] = one_group ? 1 : cus;
        groups[1] = groups[2] = 1;
        local[0] = slots;
        local[1] = local[2] = 1;
        return;
    }
    /* GLSL indexes its work-items: keep their number, one CU's slots a
     * workgroup, where the index space is one-dimensional and divides */
    if (one_group || !linear || items % slots)
        return;
    groups[0] = (uint32_t)(items / slots);
    local[0] = slots;
    local[1] = local[2] = 1;
}

static bool jobs(struct us_cbench *b, struct us_diag *diag)
{
    unsigned n = 0;
    for (unsigned pass = 0; pass < 2; pass++) {
        for (unsigned v = 0; v < b->nvars; v++)
            for (unsigned k = 0; k < b->nkern; k++) {
                if (!applies(b, k, &b->vars[v]))
                    continue;
                if (pass) {
                    struct us_cb_job *j = &b->jobs[n];
                    j->k = k;
                    j->v = v;
                    us_cb_launch(&b->kern[k], &b->vars[v], j->groups,
                                 j->local);
                }
                n++;
            }
        if (!pass) {
            b->jobs = calloc(n ? n : 1, sizeof *b->jobs);
            if (!b->jobs)
                return oom(diag);
            b->njobs = n;
            n = 0;
        }
    }
    return true;
}

bool us_cb_load(struct us_cbench *b, const struct us_cb_opts *o,
                struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    const char *ids[US_CB_MAX_KERNELS];
    unsigned n = us_cb_select(o->only, o->all, ids, US_CB_MAX_KERNELS);
    if (!n) {
        snprintf(diag->msg, sizeof diag->msg, "--only '%s' names no kernel "
                 "of the compute suite", o->only ? o->only : "");
        return false;
    }
    char *configs = o->configs ? NULL : join(o->kernels, "../../configs");
    if (!o->configs && !configs)
        return oom(diag);
    bool ok = variants(b, o->configs ? o->configs : configs, diag);
    free(configs);
    if (!ok)
        return false;
    for (unsigned i = 0; i < n; i++) {
        struct us_cb_kernel *ck = &b->kern[b->nkern++];
        const struct entry *e = entry_of(ids[i]);
        ck->id = e->id;
        ck->k = e->k;
        ck->bench_only = e->bench_only;
        if (!load_kernel(b, ck, o->kernels, diag))
            return false;
    }
    return jobs(b, diag);
}

void us_cb_free(struct us_cbench *b)
{
    for (unsigned i = 0; i < b->nkern; i++) {
        struct us_cb_kernel *ck = &b->kern[i];
        for (unsigned j = 0; j < US_CB_MAX_BUFS; j++) {
            free(ck->in[j]);
            free(ck->ref[j]);
        }
        free(ck->path);
        free(ck->params);
        us_program_free(&ck->prog);
    }
    free(b->jobs);
    memset(b, 0, sizeof *b);
}
