/* The compute bench's outputs: the stdout table, results.csv,
 * results.json and report.md (suite/compute.h).  Everything printed is a
 * function of the results only -- no host times or dates -- so runs with
 * any --jobs are byte-identical, and every number in the text is computed
 * from the run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "suite/compute.h"
#include "suite/provenance.h"

/* The per-job statistics the CSV and JSON carry, in order. */
const char *const us_cb_csv_stats[] = {
    "cycles", "utilization", "useful_ops", "issued", "stalls.dependency",
    "stalls.memory", "stalls.barrier", "stalls.sfu", "stalls.fetch", "idle",
    "divergent_branches", "masked_lane_slots", "simt.active_lane_slots",
    "simt.empty_lane_slots", "simt.efficiency", "simt.cores",
    "simt.busy_cycles", "reconv.events",
    "memsys.requests", "memsys.transactions", "memsys.coalescing",
    "memsys.hit_rate", "memsys.bank_conflicts", "memsys.stall_cycles",
    "area", "area_simd4", "energy", "area_delay", "area.int", "area.lsu",
    "area.cache", NULL,
};
enum { NSTATS = sizeof us_cb_csv_stats / sizeof us_cb_csv_stats[0] - 1 };

static const char *const group_names[US_CB_NGROUPS] = {
    "model", "preset", "divergence", "memory", "egpu",
};
static const char *const status_names[] = { "pass", "refused", "failed" };

/* ---- helpers ------------------------------------------------------------- */

/* A number for a cell: "-" for NaN. */
static const char *num(char *buf, size_t size, const char *fmt, double x)
{
    if (isnan(x) || isinf(x))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, fmt, x);
    return buf;
}
#define NUM(fmt, x) num((char[32]){ 0 }, 32, fmt, x)

static double stat_of(const struct us_cbench *b, const char *kernel,
                      const char *variant, const char *name)
{
    return us_cb_stat(b, us_cb_job(b, kernel, variant), name);
}

static double ratio(double a, double c)
{
    return c > 0 ? a / c : NAN;
}

/* Geometric mean over the kernels both passed of stat(v) / stat(ref). */
static double geo_ratio(const struct us_cbench *b, const char *v,
                        const char *ref, const char *name)
{
    double lg = 0;
    unsigned n = 0;
    for (unsigned k = 0; k < b->nkern; k++) {
        double x = stat_of(b, b->kern[k].id, v, name),
               y = stat_of(b, b->kern[k].id, ref, name);
        if (x > 0 && y > 0) {
            lg += log(x / y);
            n++;
        }
    }
    return n ? exp(lg / n) : NAN;
}

static bool has_group(const struct us_cbench *b, enum us_cb_group g)
{
    for (unsigned j = 0; j < b->njobs; j++)
        if (b->vars[b->jobs[j].v].group == g)
            return true;
    return false;
}

/* Does kernel k have a job in group g? */
static bool kernel_in(const struct us_cbench *b, unsigned k,
                      enum us_cb_group g)
{
    for (unsigned j = 0; j < b->njobs; j++)
        if (b->jobs[j].k == k && b->vars[b->jobs[j].v].group == g)
            return true;
    return false;
}

/* A cell: the value, or why there is none ("refused", "FAILED"). */
static const char *cell(const struct us_cbench *b, int job, const char *name,
                        const char *fmt, double scale, char *buf, size_t n)
{
    if (job < 0)
        return "";
    if (b->jobs[job].status == US_CB_REFUSED)
        return "refused";
    if (b->jobs[job].status == US_CB_FAILED)
        return "FAILED";
    return num(buf, n, fmt, us_cb_stat(b, job, name) * scale);
}

/* ---- stdout table -------------------------------------------------------- */

void us_cb_table(FILE *f, const struct us_cbench *b)
{
    fprintf(f, "%-20s", "kernel (cycles/util)");
    for (unsigned v = 0; v < b->nvars; v++)
        if (b->vars[v].group == US_CB_MODEL && b->vars[v].model)
            fprintf(f, " %14s", b->vars[v].name);
    fputc('\n', f);
    for (unsigned k = 0; k < b->nkern; k++) {
        if (!kernel_in(b, k, US_CB_MODEL))
            continue;
        fprintf(f, "%-20s", b->kern[k].id);
        for (unsigned v = 0; v < b->nvars; v++) {
            if (b->vars[v].group != US_CB_MODEL || !b->vars[v].model)
                continue;
            int j = us_cb_job(b, b->kern[k].id, b->vars[v].name);
            char c[40];
            if (j >= 0 && b->jobs[j].status == US_CB_PASS)
                snprintf(c, sizeof c, "%.0f/%.0f%%",
                         us_cb_stat(b, j, "cycles"),
                         us_cb_stat(b, j, "utilization") * 100);
            else
                snprintf(c, sizeof c, "%s", j < 0 ? "" :
                         status_names[b->jobs[j].status]);
            fprintf(f, " %14s", c);
        }
        fputc('\n', f);
    }
    fprintf(f, "compute bench: %u kernels, %u jobs: %u passed, %u refused, "
            "%u failed\n", b->nkern, b->njobs, b->pass, b->refused,
            b->failed);
}

/* ---- results.csv / results.json ----------------------------------------- */

static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
    fputc('"', f);
}

void us_cb_csv(FILE *f, const struct us_cbench *b)
{
    if (b->prov)
        us_prov_csv(f, b->prov);
    fprintf(f, "kernel,variant,group,label,groups,local,status,message");
    for (unsigned s = 0; s < NSTATS; s++)
        fprintf(f, ",%s", us_cb_csv_stats[s]);
    fputc('\n', f);
    for (unsigned j = 0; j < b->njobs; j++) {
        const struct us_cb_job *jb = &b->jobs[j];
        const struct us_cb_variant *v = &b->vars[jb->v];
        fprintf(f, "%s,%s,%s,%s,%ux%ux%u,%ux%ux%u,%s,", b->kern[jb->k].id,
                v->name, group_names[v->group], v->label, jb->groups[0],
                jb->groups[1], jb->groups[2], jb->local[0], jb->local[1],
                jb->local[2], status_names[jb->status]);
        csv_text(f, jb->msg);
        for (unsigned s = 0; s < NSTATS; s++) {
            double x = us_cb_stat(b, (int)j, us_cb_csv_stats[s]);
            if (isnan(x) || isinf(x))
                fputc(',', f);
            else
                fprintf(f, ",%.9g", x);
        }
        fputc('\n', f);
    }
}

static void text_json(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void us_cb_json(FILE *f, const struct us_cbench *b)
{
    char *m = b->prov ? us_prov_json_members(b->prov) : NULL;
    if (m)
        fprintf(f, "{\n%s,\n\"suite\": \"compute\", \"kernels\": [", m);
    else
        fprintf(f, "{\"schema_version\": %d, \"suite\": \"compute\", "
                "\"kernels\": [", US_JSON_SCHEMA_VERSION);
    free(m);
    for (unsigned k = 0; k < b->nkern; k++) {
        fprintf(f, "%s", k ? ", " : "");
        text_json(f, b->kern[k].id);
    }
    fprintf(f, "],\n \"passed\": %u, \"refused\": %u, \"failed\": %u,\n"
            " \"jobs\": [", b->pass, b->refused, b->failed);
    for (unsigned j = 0; j < b->njobs; j++) {
        const struct us_cb_job *jb = &b->jobs[j];
        const struct us_cb_variant *v = &b->vars[jb->v];
        fprintf(f, "%s\n  {\"kernel\": ", j ? "," : "");
        text_json(f, b->kern[jb->k].id);
        fprintf(f, ", \"variant\": ");
        text_json(f, v->name);
        fprintf(f, ", \"group\": \"%s\", \"groups\": [%u, %u, %u], "
                "\"local\": [%u, %u, %u], \"status\": \"%s\"",
                group_names[v->group], jb->groups[0], jb->groups[1],
                jb->groups[2], jb->local[0], jb->local[1], jb->local[2],
                status_names[jb->status]);
        if (jb->msg[0]) {
            fprintf(f, ", \"message\": ");
            text_json(f, jb->msg);
        }
        /* the statistics as run --json has them (us_stats_json) */
        char *st = NULL;
        if (jb->status == US_CB_PASS && jb->st.n) {
            json_t *o = us_stats_json(&jb->st);
            st = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER |
                                   JSON_REAL_PRECISION(10)) : NULL;
            json_decref(o);
        }
        if (st)
            fprintf(f, ", \"stats\": %s", st);
        free(st);
        fprintf(f, "}");
    }
    fprintf(f, "\n ]}\n");
}

/* ---- report.md ----------------------------------------------------------- */

/* The models of section a with timing (not the interpreter). */
static unsigned models(const struct us_cbench *b, const char **names)
{
    unsigned n = 0;
    for (unsigned v = 0; v < b->nvars; v++)
        if (b->vars[v].group == US_CB_MODEL && b->vars[v].model)
            names[n++] = b->vars[v].name;
    return n;
}

/* A table of one statistic: a row per kernel of group g, a column per
 * variant of g (a header `head` first). */
static void grid(FILE *f, const struct us_cbench *b, enum us_cb_group g,
                 const char *name, const char *fmt, double scale,
                 bool timed_only)
{
    fprintf(f, "| kernel |");
    for (unsigned v = 0; v < b->nvars; v++)
        if (b->vars[v].group == g && (!timed_only || b->vars[v].model))
            fprintf(f, " %s |", b->vars[v].label);
    fprintf(f, "\n|---|");
    for (unsigned v = 0; v < b->nvars; v++)
        if (b->vars[v].group == g && (!timed_only || b->vars[v].model))
            fprintf(f, "---|");
    fputc('\n', f);
    for (unsigned k = 0; k < b->nkern; k++) {
        if (!kernel_in(b, k, g))
            continue;
        fprintf(f, "| `%s` |", b->kern[k].id);
        for (unsigned v = 0; v < b->nvars; v++) {
            if (b->vars[v].group != g || (timed_only && !b->vars[v].model))
                continue;
            char buf[32];
            fprintf(f, " %s |", cell(b, us_cb_job(b, b->kern[k].id,
                                                  b->vars[v].name),
                                     name, fmt, scale, buf, sizeof buf));
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

static void section_summary(FILE *f, const struct us_cbench *b)
{
    fprintf(f, "# The compute suite on every model\n\n"
            "`ushader bench --suite compute`: %u kernels of "
            "`bench/compute/ref/list.def`, %u jobs (kernel x variant), every "
            "buffer compared byte for byte with the kernel's C reference: "
            "**%u passed, %u refused, %u failed**.  A refusal is the "
            "model's own error for a kernel the machine cannot run (a "
            "workgroup larger than a core; `reconv=none` on structured "
            "flow; `reconv=sync`, which rejoins lanes only at a SYNC, which "
            "GLSL code has none of); anything else that stops a run, and "
            "any differing word, is a failure.\n\n", b->nkern, b->njobs,
            b->pass, b->refused, b->failed);
    if (b->failed) {
        fprintf(f, "## Failures\n\n| kernel | variant | what |\n|---|---|---|\n");
        for (unsigned j = 0; j < b->njobs; j++)
            if (b->jobs[j].status == US_CB_FAILED)
                fprintf(f, "| `%s` | %s | %s |\n", b->kern[b->jobs[j].k].id,
                        b->vars[b->jobs[j].v].name, b->jobs[j].msg);
        fputc('\n', f);
    }
    if (b->refused) {
        fprintf(f, "## Refusals\n\n| kernel | variant | reason |\n"
                "|---|---|---|\n");
        for (unsigned j = 0; j < b->njobs; j++)
            if (b->jobs[j].status == US_CB_REFUSED)
                fprintf(f, "| `%s` | %s | %s |\n", b->kern[b->jobs[j].k].id,
                        b->vars[b->jobs[j].v].name, b->jobs[j].msg);
        fputc('\n', f);
    }
}

static void section_models(FILE *f, const struct us_cbench *b, bool plots)
{
    const char *m[US_CB_MAX_VARIANTS];
    unsigned nm = models(b, m);
    if (!nm)
        return;
    fprintf(f, "## a. Utilization\n\nEvery model at its defaults, "
            "`alu_lanes = %d` for all (the scalar SPs: one thread an SP; "
            "simd4, vliw, superscalar: lanes / 4 processors; hetero; simt: "
            "warps of `simt_warp_size`); utilization = useful_ops / "
            "(alu_lanes x cycles).  The reference interpreter "
            "(`functional`) is the correctness baseline and has no "
            "timing.\n\n| model | mean utilization | kernels | cycles vs "
            "scalar (geometric mean) |\n|---|---|---|---|\n",
            us_knobs[US_KNOB_alu_lanes].def);
    for (unsigned i = 0; i < nm; i++) {
        unsigned n;
        double u = us_cb_mean(b, m[i], "utilization", &n);
        fprintf(f, "| %s | %s%% | %u | %s |\n", m[i], NUM("%.1f", u * 100), n,
                NUM("%.2f", geo_ratio(b, m[i], "scalar", "cycles")));
    }
    fprintf(f, "\nPer kernel (%%):\n\n");
    grid(f, b, US_CB_MODEL, "utilization", "%.1f", 100, true);
    if (plots)
        fprintf(f, "![utilization per model](utilization.png)\n\n");
    fprintf(f, "## b. Cycles\n\n");
    grid(f, b, US_CB_MODEL, "cycles", "%.0f", 1, true);

    static const char *const causes[] = {
        "stalls.dependency", "stalls.memory", "stalls.barrier",
        "stalls.sfu", "stalls.fetch", "idle",
    };
    fprintf(f, "## c. Stalls by cause\n\nProcessor-cycles (a SIMT model: "
            "warp-slot cycles) waiting for a source register, a load's or "
            "atomic's result, a barrier, the SFU, instruction fetch, and "
            "with no thread left (`idle`); the mean over the kernels each "
            "model passed:\n\n| model | dependency | memory | barrier | sfu | "
            "fetch | idle |\n|---|---|---|---|---|---|---|\n");
    for (unsigned i = 0; i < nm; i++) {
        fprintf(f, "| %s |", m[i]);
        for (unsigned c = 0; c < 6; c++)
            fprintf(f, " %s |", NUM("%.0f", us_cb_mean(b, m[i], causes[c],
                                                      NULL)));
        fputc('\n', f);
    }
    int simt = -1;
    for (unsigned i = 0; i < nm; i++)
        if (!strcmp(m[i], "simt"))
            simt = (int)i;
    if (simt >= 0) {
        double busy = 0;
        unsigned n = 0;
        for (unsigned k = 0; k < b->nkern; k++) {
            int j = us_cb_job(b, b->kern[k].id, "simt");
            double x = ratio(us_cb_stat(b, j, "simt.busy_cycles"),
                             us_cb_stat(b, j, "simt.cores") *
                             us_cb_stat(b, j, "cycles"));
            if (!isnan(x)) {
                busy += x;
                n++;
            }
        }
        fprintf(f, "\n`simt` at its defaults is an unpipelined FSM: an "
                "instruction holds its core through every state and its "
                "memory span, so that time is `simt.busy_cycles` (%s%% of "
                "core-cycles, mean over %u kernels), not a stall; a stall "
                "is counted only when the FSM is free and no warp is "
                "ready.\n", NUM("%.1f", n ? busy / n * 100 : NAN), n);
    }
    fprintf(f, "\nPer kernel:\n\n| kernel | model | dependency | memory | "
            "barrier | sfu | fetch | idle |\n|---|---|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < b->nkern; k++)
        for (unsigned i = 0; i < nm; i++) {
            int j = us_cb_job(b, b->kern[k].id, m[i]);
            if (j < 0)
                continue;
            fprintf(f, "| `%s` | %s |", b->kern[k].id, m[i]);
            for (unsigned c = 0; c < 6; c++) {
                char buf[32];
                fprintf(f, " %s |", cell(b, j, causes[c], "%.0f", 1, buf,
                                         sizeof buf));
            }
            fputc('\n', f);
        }
    fputc('\n', f);
}

static void section_presets(FILE *f, const struct us_cbench *b)
{
    if (!has_group(b, US_CB_PRESET))
        return;
    fprintf(f, "## d. The SIMT presets\n\n`--arch simt` with "
            "`configs/P.ini` (docs/seeds/): cycles (`refused`: the "
            "machine cannot run it, the reason above).\n\n");
    grid(f, b, US_CB_PRESET, "cycles", "%.0f", 1, false);
    fprintf(f, "| preset | mean utilization | kernels passed |\n|---|---|---|\n");
    for (unsigned v = 0; v < b->nvars; v++) {
        if (b->vars[v].group != US_CB_PRESET)
            continue;
        unsigned n;
        double u = us_cb_mean(b, b->vars[v].name, "utilization", &n);
        fprintf(f, "| %s | %s%% | %u |\n", b->vars[v].label,
                NUM("%.1f", u * 100), n);
    }
    fputc('\n', f);
}

static void section_divergence(FILE *f, const struct us_cbench *b, bool plots)
{
    if (!has_group(b, US_CB_DIVERGE))
        return;
    fprintf(f, "## e. Divergence\n\nThe divergent kernels at 32 ALU lanes "
            "for every machine (`alu_lanes = 32`): per-thread scalar SPs "
            "against `--arch simt` warps of 4, 8, 16 and 32 lanes (32 / w "
            "cores, the other knobs at their defaults: an FSM core whose "
            "datapath takes the whole warp a cycle) under `reconv=pdom` "
            "(immediate post-dominator stack), `reconv=minpc` (the lowest pc "
            "issues), and two machines with DICE's one-lane datapath "
            "(`simt_exec_width = 1`): `serial` (pdom, every lane of the "
            "warp sequenced, masked ones as bubbles) and `dice` (pdom with "
            "`simt_dispatch = active`: selective dispatch, only the active "
            "lanes).\n\n"
            "Issued lane-slots are k x warp width per warp instruction "
            "(k: the instruction's components).  They split into *active* "
            "(`simt.active_lane_slots`), *masked* (`masked_lane_slots`: "
            "lanes holding a thread that flow control masked off) and "
            "*empty* (`simt.empty_lane_slots`: lanes no thread holds; the "
            "GLSL kernels have workgroups of 8, so a warp of 16 or 32 runs "
            "half or a quarter full whatever the flow, and the model does "
            "not count those lanes as masked).  The GLSL kernels index "
            "their data by the invocation ID and fix their workgroup size, "
            "so they keep it and their empty share is reported "
            "separately; an OpenCL C kernel (`_cl`, grid-stride) is "
            "launched with a workgroup a warp (local = warp size, the same "
            "work-items), so its warps are full.  **SIMT "
            "efficiency** = active / issued; **divergence cost** = masked / "
            "issued, the issued lane-slots lost to masking (a "
            "divergence-free run of the same kernel does not exist, so "
            "this stands in for cycles of the policy over cycles without "
            "divergence); cycles are shown beside it and relative to the "
            "scalar SPs.\n\n");
    for (unsigned k = 0; k < b->nkern; k++) {
        if (!kernel_in(b, k, US_CB_DIVERGE))
            continue;
        const char *id = b->kern[k].id;
        double base = stat_of(b, id, "div/scalar", "cycles");
        fprintf(f, "### `%s`\n\nScalar SPs: %s cycles.\n\n| policy | warp | "
                "cycles | vs scalar | SIMT efficiency | divergence cost | "
                "empty share | divergent branches | reconv.events |\n"
                "|---|---|---|---|---|---|---|---|---|\n", id,
                NUM("%.0f", base));
        for (unsigned v = 0; v < b->nvars; v++) {
            const struct us_cb_variant *var = &b->vars[v];
            if (var->group != US_CB_DIVERGE || !var->warp)
                continue;
            int j = us_cb_job(b, id, var->name);
            if (j < 0)
                continue;
            if (b->jobs[j].status != US_CB_PASS) {
                fprintf(f, "| %s | %u | %s | | | | | | |\n", var->label,
                        var->warp, status_names[b->jobs[j].status]);
                continue;
            }
            double cyc = us_cb_stat(b, j, "cycles"),
                   act = us_cb_stat(b, j, "simt.active_lane_slots"),
                   msk = us_cb_stat(b, j, "masked_lane_slots"),
                   emp = us_cb_stat(b, j, "simt.empty_lane_slots"),
                   iss = act + msk + emp;
            fprintf(f, "| %s | %u | %.0f | %s | %s%% | %s%% | %s%% | %.0f | "
                    "%.0f |\n", var->label, var->warp, cyc,
                    NUM("%.2f", ratio(cyc, base)),
                    NUM("%.1f", ratio(act, iss) * 100),
                    NUM("%.1f", ratio(msk, iss) * 100),
                    NUM("%.1f", ratio(emp, iss) * 100),
                    us_cb_stat(b, j, "divergent_branches"),
                    us_cb_stat(b, j, "reconv.events"));
        }
        fputc('\n', f);
    }
    if (plots)
        fprintf(f, "![divergence cost per policy and warp size]"
                "(divergence.png)\n\n");
}

static void section_memory(FILE *f, const struct us_cbench *b)
{
    if (!has_group(b, US_CB_MEMSYS))
        return;
    static const char *const keys[] = {
        "cycles", "memsys.transactions", "memsys.coalescing",
        "memsys.hit_rate", "memsys.bank_conflicts", "memsys.stall_cycles",
    };
    static const char *const heads[] = {
        "cycles", "transactions", "coalescing", "hit rate", "bank conflicts",
        "stall cycles",
    };
    fprintf(f, "## f. Memory systems\n\n`--arch simt` at its defaults "
            "(`alu_lanes = %d`, warps of %d) with each `mem_system` at the "
            "defaults of its knobs (docs/MEMORY.md): cycles, "
            "`memsys.transactions`, `memsys.coalescing` (requests per "
            "transaction), `memsys.hit_rate` and `memsys.bank_conflicts` "
            "(cache only), `memsys.stall_cycles`.\n\n| kernel | memory "
            "system |", us_knobs[US_KNOB_alu_lanes].def,
            us_knobs[US_KNOB_simt_warp_size].def);
    for (unsigned i = 0; i < 6; i++)
        fprintf(f, " %s |", heads[i]);
    fprintf(f, "\n|---|---|---|---|---|---|---|---|\n");
    for (unsigned k = 0; k < b->nkern; k++) {
        if (!kernel_in(b, k, US_CB_MEMSYS))
            continue;
        for (unsigned v = 0; v < b->nvars; v++) {
            if (b->vars[v].group != US_CB_MEMSYS)
                continue;
            int j = us_cb_job(b, b->kern[k].id, b->vars[v].name);
            fprintf(f, "| `%s` | %s |", b->kern[k].id, b->vars[v].label);
            for (unsigned i = 0; i < 6; i++) {
                char buf[32];
                bool cache_only = i == 3 || i == 4;
                fprintf(f, " %s |", cache_only && strcmp(b->vars[v].label,
                                                        "cache") ? "" :
                        cell(b, j, keys[i], i == 2 || i == 3 ? "%.2f" :
                             "%.0f", 1, buf, sizeof buf));
            }
            fputc('\n', f);
        }
    }
    fputc('\n', f);
}

/* cycles of kernel id on egpu/<size>, NaN when it did not pass */
static double egpu_cycles(const struct us_cbench *b, const char *id,
                          const char *size)
{
    char v[32];
    snprintf(v, sizeof v, "egpu/%s", size);
    return stat_of(b, id, v, "cycles");
}

static double egpu_launch(const struct us_cbench *b)
{
    for (unsigned v = 0; v < b->nvars; v++)
        if (b->vars[v].group == US_CB_EGPU)
            return b->vars[v].cfg.v[US_KNOB_simt_launch];
    return 0;
}

/* The kernel the e-GPU study ran for `base`: its job's kernel on 1T. */
static const char *egpu_id(const struct us_cbench *b, const char *base)
{
    for (unsigned j = 0; j < b->njobs; j++) {
        const char *id = b->kern[b->jobs[j].k].id;
        if (!strcmp(b->vars[b->jobs[j].v].name, "egpu/1t") &&
            !strncmp(id, base, strlen(base)))
            return id;
    }
    return NULL;
}

static void section_egpu(FILE *f, const struct us_cbench *b, bool plots)
{
    if (!has_group(b, US_CB_EGPU))
        return;
    static const char *const sizes[] = { "1t", "4t", "8t", "16t" };
    double L = egpu_launch(b);
    fprintf(f, "## g. e-GPU scaling beside the paper\n\n"
            "`configs/egpu-1t.ini` (one CU, one lane, one warp) and the "
            "paper's 4T, 8T, 16T systems (2 CUs x 4 warps x 2, 4, 8 "
            "threads), launched as Tiny-OpenCL does: work-items = CUs x "
            "warps x threads, a workgroup of one CU's warp slots "
            "(`simt_warps x simt_warp_size`) per CU; a kernel with a "
            "barrier (FFT) runs as one workgroup on one CU, since a "
            "workgroup's barrier is within a CU; 1T: local 1.  An OpenCL C "
            "kernel (`_cl`) runs grid-stride at that shape; a GLSL kernel "
            "keeps its work-items (local = one CU's slots, groups = "
            "work-items / local) and a GLSL kernel of one fixed workgroup "
            "keeps its own launch.  Speedups include the launch cost "
            "(`simt_launch = %.0f` cycles, Tiny-OpenCL's scheduler) and "
            "exclude it (cycles - %.0f).\n\n"
            "| kernel | 1T cycles | 4T | 8T | 16T | speedup 4T / 8T / 16T "
            "(with launch) | without launch | 16T / 4T (with / without) | "
            "paper 4T - 16T "
            "(over the host) | paper 16T / 4T |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n", L, L);
    double s16[3] = { NAN, NAN, NAN };
    const char *ids[3] = { NULL, NULL, NULL };
    for (unsigned i = 0; i < 3; i++) {
        const struct us_cb_paper *p = &us_cb_paper[i];
        const char *id = ids[i] = egpu_id(b, p->kernel);
        if (!id)
            continue;
        double c[4];
        for (unsigned s = 0; s < 4; s++)
            c[s] = egpu_cycles(b, id, sizes[s]);
        s16[i] = ratio(c[0] - L, c[3] - L);
        fprintf(f, "| `%s` | %s | %s | %s | %s | %s / %s / %s | %s / %s / %s "
                "| %s / %s | %.1f - %.1f | %.2f |\n", id, NUM("%.0f", c[0]),
                NUM("%.0f", c[1]), NUM("%.0f", c[2]), NUM("%.0f", c[3]),
                NUM("%.2f", ratio(c[0], c[1])), NUM("%.2f", ratio(c[0], c[2])),
                NUM("%.2f", ratio(c[0], c[3])),
                NUM("%.2f", ratio(c[0] - L, c[1] - L)),
                NUM("%.2f", ratio(c[0] - L, c[2] - L)),
                NUM("%.2f", s16[i]), NUM("%.2f", ratio(c[1], c[3])),
                NUM("%.2f", ratio(c[1] - L, c[3] - L)),
                p->lo, p->hi, p->hi / p->lo);
    }
    fputc('\n', f);

    /* the differences, computed */
    fprintf(f, "Why ours differ:\n\n"
            "* **The baseline** is a one-lane e-GPU (1T), not the paper's "
            "X-HEEP host CPU (ushader has no host model), so our speedups "
            "measure lanes, warps and the cache, not a GPU against a "
            "CPU; the paper's 16T / 4T ratio is the comparable figure.\n");
    for (unsigned i = 0; i < 3; i++) {
        if (!ids[i])
            continue;
        double c1 = egpu_cycles(b, ids[i], "1t"),
               c16 = egpu_cycles(b, ids[i], "16t");
        fprintf(f, "* **Launch share** on `%s`: %.0f cycles of launch are "
                "%s%% of 1T's time and %s%% of 16T's, so with the launch "
                "16T is %s x 1T and without it %s x.\n", ids[i], L,
                NUM("%.1f", ratio(L, c1) * 100),
                NUM("%.1f", ratio(L, c16) * 100), NUM("%.2f", ratio(c1, c16)),
                NUM("%.2f", s16[i]));
    }
    const char *fft = ids[2];
    if (fft) {
        int j = us_cb_job(b, fft, "egpu/16t");
        fprintf(f, "* **FFT on one CU**: its barrier per stage is within a "
                "workgroup, and a workgroup is within a CU, so 16T runs it on "
                "one of its 2 CUs (%ux%ux%u workgroups of %u): at most half the "
                "lanes, and utilization %s%% on 16T.\n",
                j >= 0 ? b->jobs[j].groups[0] : 0,
                j >= 0 ? b->jobs[j].groups[1] : 0,
                j >= 0 ? b->jobs[j].groups[2] : 0,
                j < 0 ? 0 : b->jobs[j].local[0] ? b->jobs[j].local[0]
                                 : b->kern[b->jobs[j].k].prog.group_size[0],
                NUM("%.1f", us_cb_stat(b, j, "utilization") * 100));
    }
    const char *del = ids[1];
    if (del) {
        int j = us_cb_job(b, del, "egpu/16t");
        double act = us_cb_stat(b, j, "simt.active_lane_slots"),
               msk = us_cb_stat(b, j, "masked_lane_slots"),
               emp = us_cb_stat(b, j, "simt.empty_lane_slots");
        fprintf(f, "* **What limits delineation**: on 16T its SIMT "
                "efficiency is %s%% (masked %s%%: its search stops at the "
                "first disproof, so lanes part; empty %s%%), with %s "
                "divergent branches and %s reconvergences.\n",
                NUM("%.1f", ratio(act, act + msk + emp) * 100),
                NUM("%.1f", ratio(msk, act + msk + emp) * 100),
                NUM("%.1f", ratio(emp, act + msk + emp) * 100),
                NUM("%.0f", us_cb_stat(b, j, "divergent_branches")),
                NUM("%.0f", us_cb_stat(b, j, "reconv.events")));
    }
    /* ordering: slowest and fastest 16T speedup, ours and the paper's */
    int lo = -1, hi = -1;
    for (int i = 0; i < 3; i++) {
        if (isnan(s16[i]))
            continue;
        if (lo < 0 || s16[i] < s16[lo])
            lo = i;
        if (hi < 0 || s16[i] > s16[hi])
            hi = i;
    }
    if (lo >= 0)
        fprintf(f, "* **Order**: the paper has delineation slowest and FIR "
                "fastest; here, without the launch, %s is slowest (%.2f x) "
                "and %s fastest (%.2f x).\n", us_cb_paper[lo].kernel,
                s16[lo], us_cb_paper[hi].kernel, s16[hi]);
    fputc('\n', f);
    if (plots)
        fprintf(f, "![e-GPU scaling, ours and the paper's](egpu.png)\n\n");

    /* GeMM's launch share on 16T */
    fprintf(f, "### GeMM's scheduling cost on 16T\n\nThe paper: Tiny-OpenCL's "
            "fixed scheduling cost (about 25 us, %.0f cycles at 300 MHz) is "
            "about 15%% of GeMM's time at 32x32 and under 1%% at 256x256 "
            "(its time also holds the host's transfers, about 20%%, which "
            "ushader does not model).  Ours: `simt_launch` / cycles on "
            "`egpu-16t` (128 and 256 with `--all` only).\n\n| kernel | "
            "cycles | launch share | paper |\n|---|---|---|---|\n", L);
    static const char *const gemm[] = { "gemm32", "gemm64", "gemm128",
                                        "gemm256" };
    static const char *const paper[] = { "~15%", "", "", "<1%" };
    double c32 = NAN, cfirst = NAN, clast = NAN;
    const char *first = "", *last = "";
    for (unsigned i = 0; i < 4; i++)
        for (unsigned k = 0; k < b->nkern; k++) {
            const char *id = b->kern[k].id;
            if (strncmp(id, gemm[i], strlen(gemm[i])) ||
                (id[strlen(gemm[i])] && id[strlen(gemm[i])] != '_'))
                continue;
            int j = us_cb_job(b, id, "egpu/16t");
            if (j < 0)
                continue;
            double c = us_cb_stat(b, j, "cycles");
            fprintf(f, "| `%s` | %s | %s%% | %s |\n", id, NUM("%.0f", c),
                    NUM("%.2f", ratio(L, c) * 100), paper[i]);
            if (i == 0)
                c32 = c;
            if (isnan(cfirst)) {
                cfirst = c;
                first = id;
            }
            clast = c;
            last = id;
        }
    if (!isnan(c32))
        fprintf(f, "\nThe paper's ~15%% at 32x32 puts its whole run near %.0f "
                "cycles (launch / 0.15), of which about 20%% are the host's "
                "transfers; our 32x32 run, without transfers, takes %s cycles, "
                "so our share is %s%%.  It falls with the work (N^3 "
                "multiply-adds): from %s%% on `%s` to %s%% on `%s`.\n\n",
                L / 0.15, NUM("%.0f", c32), NUM("%.1f", ratio(L, c32) * 100),
                NUM("%.2f", ratio(L, cfirst) * 100), first,
                NUM("%.2f", ratio(L, clast) * 100), last);
    else
        fputc('\n', f);
}

static void section_area(FILE *f, const struct us_cbench *b)
{
    const char *m[US_CB_MAX_VARIANTS];
    unsigned nm = models(b, m);
    if (!nm)
        return;
    fprintf(f, "## h. Area and energy of the datapaths\n\n`shader/area.def` "
            "(45 nm, um^2; energy in pJ), means over the kernels each model "
            "passed; area x delay = area x cycles, and relative to the "
            "scalar SPs as the geometric mean of per-kernel ratios.  "
            "`area.int`, `area.lsu`, `area.cache` (integer ALUs, load/store "
            "units, cache SRAM) are `-` where the model does not report "
            "them.\n\n| model | area | area vs simd4 | area.int | area.lsu | "
            "area.cache | energy | area x delay | area x delay vs scalar |\n"
            "|---|---|---|---|---|---|---|---|---|\n");
    for (unsigned i = 0; i < nm; i++)
        fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", m[i],
                NUM("%.0f", us_cb_mean(b, m[i], "area", NULL)),
                NUM("%.2f", us_cb_mean(b, m[i], "area_simd4", NULL)),
                NUM("%.0f", us_cb_mean(b, m[i], "area.int", NULL)),
                NUM("%.0f", us_cb_mean(b, m[i], "area.lsu", NULL)),
                NUM("%.0f", us_cb_mean(b, m[i], "area.cache", NULL)),
                NUM("%.0f", us_cb_mean(b, m[i], "energy", NULL)),
                NUM("%.3g", us_cb_mean(b, m[i], "area_delay", NULL)),
                NUM("%.2f", geo_ratio(b, m[i], "scalar", "area_delay")));
    fputc('\n', f);
}

void us_cb_report(FILE *f, const struct us_cbench *b, bool plots,
                  const char *note)
{
    section_summary(f, b);
    if (!plots && note)
        fprintf(f, "Plots: %s\n\n", note);
    section_models(f, b, plots);
    section_presets(f, b);
    section_divergence(f, b, plots);
    section_memory(f, b);
    section_egpu(f, b, plots);
    section_area(f, b);
    if (b->prov) {
        fputc('\n', f);
        us_prov_markdown(f, b->prov);
    }
}
