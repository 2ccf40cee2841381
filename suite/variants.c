/* The (model, configuration) pairs of a bench run: suite/suite.h.
 *
 * Every variant starts from the base configuration (defaults, INI file,
 * --set) and overrides only the knobs it studies, so the comparison is at
 * the same total ALU lanes (knob alu_lanes, SPEC section 2); a model that
 * cannot build that many (us_core_check) is refused.  The one exception
 * is the second hetero width, whose processors have another lane count. */
#include <stdio.h>
#include <string.h>

#include "suite/suite.h"

/* suite.h */
bool us_bench_arch_selected(const char *archs, const char *name)
{
    if (!archs)
        return true;
    size_t len = strlen(name);
    for (const char *p = archs; *p;) {
        size_t n = strcspn(p, ",");
        if (n == len && !strncmp(p, name, n))
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

/* Append a variant: `sets` is a NULL-terminated list of key=value. */
static bool add(struct us_bench *b, const char *name, const char *model,
                enum us_bench_group group, const char *const *sets,
                struct us_diag *diag)
{
    if (b->nvars == US_BENCH_MAX_VARIANTS) {
        snprintf(diag->msg, sizeof diag->msg, "too many variants");
        return false;
    }
    struct us_bench_variant *v = &b->vars[b->nvars];
    memset(v, 0, sizeof *v);
    snprintf(v->name, sizeof v->name, "%s", name);
    v->model = us_model_lookup(model);
    v->group = group;
    v->cfg = b->base;
    if (!v->model) {
        snprintf(diag->msg, sizeof diag->msg, "no core model '%s'", model);
        return false;
    }
    for (unsigned i = 0; sets && sets[i]; i++)
        if (!us_config_set(&v->cfg, sets[i], diag))
            return false;
    /* a lane count the model cannot build is refused here, before any
     * job runs */
    if (!us_core_check(v->model, &v->cfg, diag))
        return false;
    b->nvars++;
    return true;
}

/* The LUT study (paper: shared LUT with bank partition, multi-fetch and
 * about 3 cycles of lookahead performs like private LUTs). */
static bool lut_sweep(struct us_bench *b, struct us_diag *diag)
{
    static const char *const priv[] = { "lut=private", NULL };
    if (!add(b, "scalar-lut-private", "scalar", US_BG_LUT, priv, diag))
        return false;
    b->vars[b->nvars - 1].banks = 0;
    static const unsigned banks[] = { 1, 2, 4, 8 };
    for (unsigned bi = 0; bi < 4; bi++)
        for (int mf = 1; mf >= 0; mf--)
            for (int la = 0; la <= 3; la++) {
                char name[48], s0[32], s1[32], s2[32];
                snprintf(name, sizeof name, "scalar-lut-b%u-mf%d-la%d",
                         banks[bi], mf, la);
                snprintf(s0, sizeof s0, "lut_banks=%u", banks[bi]);
                snprintf(s1, sizeof s1, "multifetch=%d", mf);
                snprintf(s2, sizeof s2, "lookahead=%d", la);
                const char *const sets[] = { "lut=shared", s0, s1, s2, NULL };
                if (!add(b, name, "scalar", US_BG_LUT, sets, diag))
                    return false;
                struct us_bench_variant *v = &b->vars[b->nvars - 1];
                v->banks = (int)banks[bi];
                v->multifetch = mf;
                v->lookahead = la;
            }
    return true;
}

bool us_bench_variants(struct us_bench *b, const char *archs,
                       struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    b->nvars = 0;
    for (const char *p = archs; p && *p;) {
        size_t n = strcspn(p, ",");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(n < 31 ? n : 31), p);
        if (!us_model_lookup(name)) {
            snprintf(diag->msg, sizeof diag->msg,
                     "unknown --arch '%s' (scalar, simd4, vliw, superscalar, "
                     "hetero)", name);
            return false;
        }
        p += n + (p[n] == ',');
    }
    for (unsigned m = 0; us_models[m]; m++)
        if (us_bench_arch_selected(archs, us_models[m]->name) &&
            !add(b, us_models[m]->name, us_models[m]->name, US_BG_ARCH, NULL,
                 diag))
            return false;
    static const char *const vliw5[] = { "vliw_tslot=1", NULL };
    static const char *const nocomp[] = { "compaction=0", NULL };
    static const char *const swz[] = { "compaction_form=swizzle", NULL };
    static const char *const chain[] = { "compaction_form=chain", NULL };
    static const char *const full[] = { "sfu=full", NULL };
    if (us_bench_arch_selected(archs, "vliw") &&
        !add(b, "vliw-4+1", "vliw", US_BG_ARCH_EXTRA, vliw5, diag))
        return false;
    if (us_bench_arch_selected(archs, "hetero")) {
        /* the other width than the default, so both designs appear; its
         * processors have another lane count, so it runs at the most
         * lanes of that count not above alu_lanes (at least one
         * processor), which the report states */
        bool four = b->base.v[US_KNOB_hetero_vec_width] == 4;
        unsigned per = four ? 4 : 5,
                 base = (unsigned)b->base.v[US_KNOB_alu_lanes],
                 lanes = base >= per ? base - base % per : per;
        char set_lanes[32];
        snprintf(set_lanes, sizeof set_lanes, "alu_lanes=%u", lanes);
        const char *const sets[] = { four ? "hetero_vec_width=3"
                                          : "hetero_vec_width=4",
                                     set_lanes, NULL };
        if (!add(b, four ? "hetero-3+1" : "hetero-4+1", "hetero",
                 US_BG_ARCH_EXTRA, sets, diag))
            return false;
    }
    if (us_bench_arch_selected(archs, "scalar") &&
        (!add(b, "scalar-nocompact", "scalar", US_BG_COMPACTION, nocomp,
              diag) ||
         !add(b, "scalar-swizzle", "scalar", US_BG_COMPACTION, swz, diag) ||
         !add(b, "scalar-chain", "scalar", US_BG_COMPACTION, chain, diag) ||
         !add(b, "scalar-sfu-full", "scalar", US_BG_SFU, full, diag) ||
         (!b->no_lut_study && !lut_sweep(b, diag))))
        return false;
    if (b->nvars == 0) {
        snprintf(diag->msg, sizeof diag->msg, "no model selected");
        return false;
    }
    return true;
}

/* suite.h: values around the defaults (threads_per_proc 4, alu_latency
 * 4, tex_latency 20): no latency hiding to twice as much, a forwarding
 * datapath to a deep pipeline, a texture cache hit to a miss to memory. */
const struct us_bench_sens us_bench_sens[US_BENCH_SENS_KNOBS] = {
    { US_KNOB_threads_per_proc, { 1, 2, 8 } },
    { US_KNOB_alu_latency, { 1, 2, 8 } },
    { US_KNOB_tex_latency, { 5, 100, 0 } },
};

/* The scalar SP and the four baselines of SPEC section 2: the models
 * the sensitivity tables compare (not the seeds' SIMT warps). */
static bool sens_model(const char *name)
{
    static const char *const m[] = { "scalar", "simd4", "vliw",
                                     "superscalar", "hetero" };
    for (unsigned i = 0; i < sizeof m / sizeof m[0]; i++)
        if (!strcmp(m[i], name))
            return true;
    return false;
}

static void sens_name(char *buf, size_t size, const char *model,
                      unsigned k, int value)
{
    snprintf(buf, size, "%s@%s=%d", model, us_knobs[us_bench_sens[k].knob].name,
             value);
}

int us_bench_sens_var(const struct us_bench *b, const char *model,
                      unsigned k, int value)
{
    if (b->base.v[us_bench_sens[k].knob] == value)
        return us_bench_var(b, model);
    char name[48];
    sens_name(name, sizeof name, model, k, value);
    return us_bench_var(b, name);
}

bool us_bench_sens_variants(struct us_bench *b, struct us_diag *diag)
{
    memset(diag, 0, sizeof *diag);
    unsigned nmodels = b->nvars;
    for (unsigned k = 0; k < US_BENCH_SENS_KNOBS; k++)
        for (unsigned i = 0; i < US_BENCH_SENS_VALUES; i++) {
            int value = us_bench_sens[k].values[i];
            if (value == 0 || value == b->base.v[us_bench_sens[k].knob])
                continue;
            for (unsigned m = 0; m < nmodels; m++) {
                if (b->vars[m].group != US_BG_ARCH || !sens_model(b->vars[m].name))
                    continue;
                char name[48], set[64];
                sens_name(name, sizeof name, b->vars[m].name, k, value);
                snprintf(set, sizeof set, "%s=%d",
                         us_knobs[us_bench_sens[k].knob].name, value);
                const char *const sets[] = { set, NULL };
                if (!add(b, name, b->vars[m].name, US_BG_SENS, sets, diag))
                    return false;
                b->vars[b->nvars - 1].value = value;
            }
        }
    return true;
}
