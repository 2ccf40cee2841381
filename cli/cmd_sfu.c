/*
 * ushader sfu eval|check|sweep|layout — the SFU model (sfu/sfu.h) from
 * the command line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sfu/sfu.h"
#include "sfu/sfu_check.h"

static const char usage[] =
    "usage: ushader sfu eval --func F [--set KEY=VALUE]...\n"
    "       ushader sfu check [--func F|all] [--full] [--json] [--jobs N]\n"
    "                         [--range LO:HI] [--step N] [--no-filter]\n"
    "                         [--set KEY=VALUE]...\n"
    "       ushader sfu sweep [--func F|all] [--k LIST] [--degree LIST]\n"
    "                         [--w0 LIST] [--w1 LIST] [--w2 LIST] [--w3 LIST]\n"
    "                         [--step N] [--csv FILE] [--jobs N]\n"
    "                         [--set KEY=VALUE]...\n"
    "       ushader sfu layout [--set KEY=VALUE]...\n"
    "  F is rcp, rsq, sqrt, lg2, ex2, sin or cos (eval also takes pow).\n"
    "  eval    read little-endian binary32 values on stdin (pow: x,y pairs),\n"
    "          write the SFU's binary32 results on stdout\n"
    "  check   compare with correctly rounded MPFR references: by default\n"
    "          every input of a stated part of the primary domain, MPFR for\n"
    "          each; --full every one of the 2^32 inputs (a double-precision\n"
    "          filter, MPFR near rounding boundaries; --no-filter: MPFR for\n"
    "          all); --range LO:HI the bit patterns LO..HI (hex); --step N\n"
    "          every N-th input of the set (a sample; bench/sfu_full.bench.sh).\n"
    "          Exits 1 when an accuracy bound of the default configuration\n"
    "          fails.\n"
    "  sweep   accuracy and LUT bits against k, degree and coefficient\n"
    "          widths (LIST: comma-separated values; default: k around the\n"
    "          default, degrees 1..3), on every --step-th input of the check\n"
    "          domain (default 256; 1 = all)\n"
    "          (--csv FILE: the table as CSV, written atomically); --set\n"
    "          gives the configuration the sweep varies\n"
    "  layout  LUT entries, bits and passes per function\n"
    "  --set KEY=VALUE  an [sfu] key (the list below; sfu.KEY=VALUE as in\n"
    "          the core models' --set works too)\n"
    "  --jobs N  host threads, 1..256 (results do not depend on N;\n"
    "          default: the online CPUs)\n"
    "  An option of another form (layout --k) is an error.\n";

struct opts {
    struct us_sfu_config cfg;
    int func;              /* -1: all */
    bool pow;
    bool full, json, filter, have_range;
    uint32_t lo, hi;
    unsigned jobs, step;
    const char *csv;
    const char *lists[6];  /* k degree w0 w1 w2 w3 */
    int argc;              /* the command line, for provenance */
    char **argv;
};

static bool parse_args(int argc, char **argv, struct opts *o)
{
    us_sfu_config_default(&o->cfg);
    o->func = -1;
    o->filter = true;
    o->jobs = cli_default_jobs();
    static const char *const list_opts[6] = {
        "--k", "--degree", "--w0", "--w1", "--w2", "--w3"
    };
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool used = false;
        for (int l = 0; l < 6; l++)
            if (!strcmp(a, list_opts[l]) && v) {
                o->lists[l] = v;
                used = true;
            }
        if (used) {
            i++;
        } else if (!strcmp(a, "--func") && v) {
            enum us_sfu_func f;
            i++;
            if (!strcmp(v, "all")) {
                o->func = -1;
            } else if (!strcmp(v, "pow")) {
                o->pow = true;
            } else if (us_sfu_func_lookup(v, &f)) {
                o->func = (int)f;
            } else {
                cli_error(NULL, 0, 0, "sfu: unknown function '%s'", v);
                return false;
            }
        } else if (!strcmp(a, "--set") && v) {
            struct us_diag d;
            i++;
            /* sfu.KEY=V as in the core models' --set, or KEY=V */
            if (!us_sfu_config_set(&o->cfg, strncmp(v, "sfu.", 4) ? v : v + 4,
                                   &d)) {
                cli_error(NULL, 0, 0, "sfu: %s", d.msg);
                return false;
            }
        } else if (!strcmp(a, "--jobs") && v) {
            i++;
            if (!cli_parse_jobs("sfu", v, &o->jobs))
                return false;
        } else if (!strcmp(a, "--step") && v) {
            char *end;
            unsigned long n = strtoul(v, &end, 10);
            i++;
            if (*end || n < 1 || n > (1ul << 24)) {
                cli_error(NULL, 0, 0, "sfu: bad --step '%s'", v);
                return false;
            }
            o->step = (unsigned)n;
        } else if (!strcmp(a, "--range") && v) {
            char *end;
            i++;
            unsigned long lo = strtoul(v, &end, 16), hi = 0;
            bool ok = *end == ':';
            if (ok)
                hi = strtoul(end + 1, &end, 16);
            if (!ok || *end || lo > hi || hi > 0xffffffffu) {
                cli_error(NULL, 0, 0, "sfu: bad --range '%s' (LO:HI in hex)", v);
                return false;
            }
            o->have_range = true;
            o->lo = (uint32_t)lo;
            o->hi = (uint32_t)hi;
        } else if (!strcmp(a, "--csv") && v) {
            o->csv = v;
            i++;
        } else if (!strcmp(a, "--full")) {
            o->full = true;
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else if (!strcmp(a, "--no-filter")) {
            o->filter = false;
        } else {
            cli_error(NULL, 0, 0, "sfu: unknown or incomplete option '%s'", a);
            fputs(usage, stderr);
            return false;
        }
    }
    return true;
}

static bool make_sfu(const struct us_sfu_config *cfg, struct us_sfu *sfu)
{
    struct us_diag d;
    if (!us_sfu_init(sfu, cfg, &d)) {
        cli_error(NULL, 0, 0, "sfu: %s", d.msg);
        return false;
    }
    return true;
}

/* ---- eval ------------------------------------------------------------ */

static int do_eval(struct opts *o)
{
    if (o->func < 0 && !o->pow) {
        cli_error(NULL, 0, 0, "sfu eval: --func F is required");
        return 2;
    }
    struct us_sfu sfu;
    if (!make_sfu(&o->cfg, &sfu))
        return 1;
    enum { N = 4096 };
    unsigned char in[N * 8], out[N * 4];
    size_t per = o->pow ? 8 : 4, have = 0;
    int rc = 0;
    for (;;) {
        size_t got = fread(in + have, 1, sizeof in - have, stdin);
        have += got;
        size_t n = have / per;
        for (size_t i = 0; i < n; i++) {
            uint32_t u[2] = { 0, 0 };
            for (unsigned w = 0; w < per / 4; w++)
                for (unsigned b = 0; b < 4; b++)
                    u[w] |= (uint32_t)in[i * per + w * 4 + b] << (8 * b);
            float x, y, r;
            memcpy(&x, &u[0], 4);
            memcpy(&y, &u[1], 4);
            r = o->pow ? us_sfu_pow(&sfu, x, y)
                       : us_sfu_eval(&sfu, (enum us_sfu_func)o->func, x);
            uint32_t ru;
            memcpy(&ru, &r, 4);
            for (unsigned b = 0; b < 4; b++)
                out[i * 4 + b] = (unsigned char)(ru >> (8 * b));
        }
        if (fwrite(out, 4, n, stdout) != n || ferror(stdout)) {
            if (!cli_flush_stdout())
                rc = 1;
            break;
        }
        memmove(in, in + n * per, have - n * per);
        have -= n * per;
        if (got == 0) {
            if (ferror(stdin)) {
                cli_error("<stdin>", 0, 0, "read error");
                rc = 1;
            } else if (have) {
                cli_error("<stdin>", 0, 0, "%zu trailing bytes ignored", have);
                rc = 1;
            }
            break;
        }
    }
    if (!cli_flush_stdout())
        rc = 1;
    us_sfu_free(&sfu);
    return rc;
}

/* ---- check ----------------------------------------------------------- */

struct bar {
    const char *name;
    time_t start;
};

static void progress(void *ctx, uint64_t done, uint64_t total)
{
    struct bar *b = ctx;
    int width = 40, fill = total ? (int)(width * done / total) : width;
    fprintf(stderr, "\r%-5s [%.*s%*s] %5.1f%% %lds", b->name, fill,
            "########################################", width - fill, "",
            total ? 100.0 * (double)done / (double)total : 100.0,
            (long)(time(NULL) - b->start));
    if (done == total)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

static float fl(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 100.0;
}

static void print_text(enum us_sfu_func f, const struct us_sfu_stats *s,
                       bool ok, const char *why, double secs)
{
    printf("%s: %llu inputs, %llu accuracy cases, %llu special (%llu mismatches)\n",
           us_sfu_func_name(f), (unsigned long long)s->n,
           (unsigned long long)s->acc, (unsigned long long)s->special,
           (unsigned long long)s->special_bad);
    if (s->acc) {
        printf("  max ulp error %.4f at x = %a (0x%08x)\n", s->max_ulp,
               (double)fl(s->max_ulp_x), s->max_ulp_x);
        if (s->max_abs >= 0)
            printf("  max abs error %.4g = 2^%.2f on the anchor domain, at x = %a\n",
                   s->max_abs, s->max_abs > 0 ? log2(s->max_abs) : -INFINITY,
                   (double)fl(s->max_abs_x));
        if (s->max_ulp_out >= 0 && s->max_abs >= 0)
            printf("  max ulp error outside it %.4f at x = %a\n", s->max_ulp_out,
                   (double)fl(s->max_ulp_out_x));
        if (f == US_SFU_SIN || f == US_SFU_COS)
            printf("  max abs error over all checked inputs 2^%.2f at x = %a\n",
                   s->max_abs_all > 0 ? log2(s->max_abs_all) : -INFINITY,
                   (double)fl(s->max_abs_all_x));
        printf("  correctly rounded %.4f%%, faithful %.4f%%\n",
               pct(s->cr, s->acc), pct(s->faithful, s->acc));
    }
    if (s->special_bad)
        printf("  first special mismatch: x = 0x%08x gave 0x%08x, want 0x%08x\n",
               s->bad_x, s->bad_got, s->bad_want);
    if (s->mpfr_calls)
        printf("  MPFR decided %llu inputs near rounding boundaries\n",
               (unsigned long long)s->mpfr_calls);
    printf("  %s%s%s (%.1f s)\n", ok ? "PASS" : "FAIL: ", why,
           ok ? "" : "", secs);
}

/* A JSON number, or null for a metric that does not apply (< 0). */
static void jnum(const char *key, double v, const char *sep)
{
    if (v < 0)
        printf("\"%s\": null%s", key, sep);
    else if (isinf(v))   /* JSON has no infinity: null and a flag */
        printf("\"%s\": null, \"%s_infinite\": true%s", key, key, sep);
    else
        printf("\"%s\": %.9g%s", key, v, sep);
}

static void print_json(enum us_sfu_func f, const struct us_sfu_stats *s,
                       bool ok, const char *why, double secs, bool last)
{
    printf("    {\"func\": \"%s\", \"inputs\": %llu, \"accuracy_cases\": %llu, "
           "\"special\": %llu, \"special_mismatches\": %llu,\n     ",
           us_sfu_func_name(f), (unsigned long long)s->n,
           (unsigned long long)s->acc, (unsigned long long)s->special,
           (unsigned long long)s->special_bad);
    jnum("max_ulp", s->max_ulp, ", ");
    printf("\"max_ulp_x\": \"0x%08x\", ", s->max_ulp_x);
    jnum("max_abs", s->max_abs, ", ");
    printf("\"max_abs_x\": \"0x%08x\", ", s->max_abs_x);
    jnum("max_ulp_outside_abs_domain", s->max_ulp_out, ", ");
    jnum("max_abs_all", s->max_abs_all, ",\n     ");
    printf("\"correctly_rounded\": %.6f, \"faithful\": %.6f, "
           "\"mpfr_decided\": %llu, \"pass\": %s, \"why\": \"%s\", "
           "\"seconds\": %.2f}%s\n",
           pct(s->cr, s->acc) / 100, pct(s->faithful, s->acc) / 100,
           (unsigned long long)s->mpfr_calls, ok ? "true" : "false", why,
           secs, last ? "" : ",");
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int do_check(struct opts *o)
{
    struct us_sfu sfu;
    if (!make_sfu(&o->cfg, &sfu))
        return 1;
    bool tty = isatty(2);
    int rc = 0;
    int f0 = o->func < 0 ? 0 : o->func, f1 = o->func < 0 ? US_SFU_NFUNC : o->func + 1;
    if (o->json) {
        struct us_config cfg;   /* the defaults with this SFU */
        us_config_default(&cfg);
        cfg.sfu = o->cfg;
        printf("{\n");
        cli_json_head(o->argc, o->argv, NULL, 0, "sfu", &cfg);
        printf("  \"lut_bits\": %llu,\n  \"functions\": [\n",
               (unsigned long long)us_sfu_lut_total_bits(&o->cfg));
    }
    else if (o->step > 1 && (o->full || o->have_range))
        printf("SFU check: LUT %llu bits; every %u-th of %s\n",
               (unsigned long long)us_sfu_lut_total_bits(&o->cfg), o->step,
               o->full ? "the 2^32 inputs" : "the bit-pattern range");
    else
        printf("SFU check: LUT %llu bits; %s\n",
               (unsigned long long)us_sfu_lut_total_bits(&o->cfg),
               o->full ? "all 2^32 inputs" : o->have_range ? "bit-pattern range"
                                                          : "primary domains");
    for (int f = f0; f < f1; f++) {
        struct us_sfu_check_opts co = {
            .sfu = &sfu, .func = (enum us_sfu_func)f,
            .step = o->step ? o->step : 1,
            .jobs = o->jobs,
        };
        if (o->full || o->have_range) {
            co.set = US_SFU_SET_RANGE;
            co.first = o->have_range ? o->lo : 0;
            co.count = o->have_range ? (uint64_t)o->hi - o->lo + 1 : 1ull << 32;
            co.filter = o->filter;
        }
        struct bar b = { us_sfu_func_name((enum us_sfu_func)f), time(NULL) };
        if (tty) {
            co.progress = progress;
            co.progress_ctx = &b;
        }
        struct us_sfu_stats st;
        struct us_diag d;
        double t0 = now();
        if (!us_sfu_check(&co, &st, &d)) {
            cli_error(NULL, 0, 0, "sfu check: %s", d.msg);
            rc = 1;
            break;
        }
        double secs = now() - t0;
        char why[160];
        bool ok = us_sfu_check_verdict((enum us_sfu_func)f, &st, why, sizeof why);
        if (!ok)
            rc = 1;
        if (o->json)
            print_json((enum us_sfu_func)f, &st, ok, why, secs, f + 1 == f1);
        else
            print_text((enum us_sfu_func)f, &st, ok, why, secs);
        fflush(stdout);
    }
    if (o->json)
        printf("  ]\n}\n");
    us_sfu_free(&sfu);
    return rc;
}

/* ---- sweep ----------------------------------------------------------- */

/* Comma-separated unsigned values in [lo, hi]; false on a bad list. */
static bool parse_list(const char *s, unsigned lo, unsigned hi,
                       unsigned *v, unsigned *n)
{
    *n = 0;
    while (*s) {
        char *end;
        unsigned long x = strtoul(s, &end, 10);
        if (end == s || x < lo || x > hi || *n == 16)
            return false;
        v[(*n)++] = (unsigned)x;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return false;
    }
    return *n > 0;
}

struct text {
    char *buf;
    size_t len, cap;
};

static bool tappend(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool tappend(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap + (size_t)n + 1) * 2;
        char *p = realloc(t->buf, cap);
        if (!p)
            return false;
        t->buf = p;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
    return true;
}

static int do_sweep(struct opts *o)
{
    static const struct { unsigned lo, hi; } lim[6] = {
        { 1, US_SFU_MAX_K }, { 1, 3 }, { 8, 32 }, { 8, 25 }, { 8, 25 }, { 8, 25 }
    };
    unsigned vals[6][16], nv[6];
    for (int l = 0; l < 6; l++) {
        if (!o->lists[l])
            continue;
        if (!parse_list(o->lists[l], lim[l].lo, lim[l].hi, vals[l], &nv[l])) {
            cli_error(NULL, 0, 0, "sfu sweep: bad list '%s'", o->lists[l]);
            return 2;
        }
    }
    struct us_sfu base;
    if (!make_sfu(&o->cfg, &base))
        return 1;
    struct text csv = { 0 };
    bool ok = tappend(&csv, "func,k,degree,w0,w1,w2,w3,segments,entry_bits,"
                            "table_bits,passes,inputs,max_ulp,max_abs,"
                            "correctly_rounded,faithful,meets_bound\n");
    printf("%-5s %2s %3s %11s %5s %6s %7s %4s %9s %10s %7s %7s %s\n",
           "func", "k", "deg", "widths", "segs", "bits/e", "bits", "pass",
           "max ulp", "max abs", "CR%", "faith%", "bound");
    int f0 = o->func < 0 ? 0 : o->func, f1 = o->func < 0 ? US_SFU_NFUNC : o->func + 1;
    int rc = 0;
    for (int f = f0; f < f1 && ok; f++) {
        enum us_sfu_table t = us_sfu_func_table((enum us_sfu_func)f);
        unsigned kv[16], nk = 0, dv[3] = { 1, 2, 3 }, nd = 3;
        if (o->lists[0]) {
            memcpy(kv, vals[0], sizeof kv);
            nk = nv[0];
        } else {
            for (int k = o->cfg.k[t] - 2; k <= o->cfg.k[t] + 1; k++)
                if (k >= 1 && k <= US_SFU_MAX_K)
                    kv[nk++] = (unsigned)k;
        }
        if (o->lists[1]) {
            nd = nv[1] < 3 ? nv[1] : 3;
            for (unsigned i = 0; i < nd; i++)
                dv[i] = vals[1][i];
        }
        unsigned wn[4], wi[4];
        for (int w = 0; w < 4; w++) {
            wn[w] = o->lists[2 + w] ? nv[2 + w] : 1;
            wi[w] = 0;
        }
        for (unsigned ki = 0; ki < nk && ok; ki++)
        for (unsigned di = 0; di < nd && ok; di++)
        for (wi[0] = 0; wi[0] < wn[0] && ok; wi[0]++)
        for (wi[1] = 0; wi[1] < wn[1] && ok; wi[1]++)
        for (wi[2] = 0; wi[2] < wn[2] && ok; wi[2]++)
        for (wi[3] = 0; wi[3] < wn[3] && ok; wi[3]++) {
            struct us_sfu_config cfg = o->cfg;
            cfg.k[t] = (uint8_t)kv[ki];
            cfg.degree[t] = (uint8_t)dv[di];
            for (int w = 0; w < 4; w++)
                if (o->lists[2 + w])
                    cfg.width[w] = (uint8_t)vals[2 + w][wi[w]];
            struct us_sfu sfu = base;
            sfu.owned = NULL;
            sfu.cfg = cfg;
            int32_t *coef = malloc(sizeof *coef << cfg.k[t] << 2);
            struct us_diag d;
            double gerr;
            if (!coef) {
                cli_error(NULL, 0, 0, "out of memory");
                rc = 1;
                break;
            }
            char wtxt[24];
            snprintf(wtxt, sizeof wtxt, "%u", cfg.width[0]);
            for (unsigned i = 1; i <= cfg.degree[t]; i++)
                snprintf(wtxt + strlen(wtxt), sizeof wtxt - strlen(wtxt), "/%u",
                         cfg.width[i]);
            struct us_sfu_lut lut;
            us_sfu_lut_layout(&cfg, t, &lut);
            unsigned passes = us_sfu_passes(&cfg, (enum us_sfu_func)f);
            if (!us_sfu_generate(&cfg, t, coef, &sfu.tab[t], &gerr, &d)) {
                printf("%-5s %2u %3u %11s  (%s)\n", us_sfu_func_name(f),
                       cfg.k[t], cfg.degree[t], wtxt, d.msg);
                free(coef);
                continue;
            }
            struct us_sfu_check_opts co = {
                .sfu = &sfu, .func = (enum us_sfu_func)f,
                .set = US_SFU_SET_DOMAIN, .step = o->step ? o->step : 256,
                .jobs = o->jobs,
            };
            struct us_sfu_stats st;
            if (!us_sfu_check(&co, &st, &d)) {
                cli_error(NULL, 0, 0, "sfu sweep: %s", d.msg);
                free(coef);
                rc = 1;
                break;
            }
            free(coef);
            char why[160];
            bool meets = us_sfu_check_verdict((enum us_sfu_func)f, &st, why,
                                              sizeof why);
            /* The metrics the bounds use: absolute error where SPEC 5
             * anchors it (lg2 on [0.5,2], sin, cos), ulps elsewhere. */
            bool has_abs = st.max_abs >= 0;
            double mulp = has_abs ? st.max_ulp_out : st.max_ulp;
            double mabs = has_abs ? st.max_abs : -1;
            char ulptxt[24] = "-", abstxt[24] = "-";
            if (mulp >= 0)
                snprintf(ulptxt, sizeof ulptxt, "%.3f", mulp);
            if (mabs >= 0)
                snprintf(abstxt, sizeof abstxt, "2^%.2f", log2(mabs));
            printf("%-5s %2u %3u %11s %5u %6u %7llu %4u %9s %10s %7.3f %7.3f %s\n",
                   us_sfu_func_name(f), cfg.k[t], cfg.degree[t], wtxt,
                   lut.entries, lut.entry_bits, (unsigned long long)lut.bits,
                   passes, ulptxt, abstxt, pct(st.cr, st.acc),
                   pct(st.faithful, st.acc), meets ? "yes" : "no");
            fflush(stdout);
            ok = tappend(&csv, "%s,%u,%u,%u,%u,%u,%u,%u,%u,%llu,%u,%llu,%.6f,"
                               "%.6g,%.6f,%.6f,%d\n",
                         us_sfu_func_name(f), cfg.k[t], cfg.degree[t],
                         cfg.width[0], cfg.width[1], cfg.width[2], cfg.width[3],
                         lut.entries, lut.entry_bits,
                         (unsigned long long)lut.bits, passes,
                         (unsigned long long)st.n, mulp, mabs,
                         pct(st.cr, st.acc) / 100, pct(st.faithful, st.acc) / 100,
                         meets);
        }
    }
    if (!ok) {
        cli_error(NULL, 0, 0, "out of memory");
        rc = 1;
    } else if (o->csv && rc == 0 && !cli_write_file(o->csv, csv.buf, csv.len)) {
        rc = 1;
    }
    free(csv.buf);
    us_sfu_free(&base);
    return rc;
}

/* ---- layout ---------------------------------------------------------- */

static int do_layout(struct opts *o)
{
    printf("%-7s %4s %6s %5s %8s %6s  %s\n", "table", "k", "degree", "bits",
           "total", "base", "bank of segments 0..7");
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        struct us_sfu_lut l;
        us_sfu_lut_layout(&o->cfg, (enum us_sfu_table)t, &l);
        printf("%-7s %4u %6u %5u %8llu %6u ", us_sfu_table_name(t),
               o->cfg.k[t], o->cfg.degree[t], l.entry_bits,
               (unsigned long long)l.bits, l.base);
        for (unsigned s = 0; s < 8 && s < l.entries; s++) {
            unsigned bank, row;
            us_sfu_lut_map(&o->cfg, (enum us_sfu_table)t, s, &bank, &row);
            printf(" %u", bank);
        }
        printf("\n");
    }
    printf("total LUT bits: %llu (%u banks)\npasses:",
           (unsigned long long)us_sfu_lut_total_bits(&o->cfg), o->cfg.banks);
    for (unsigned f = 0; f < US_SFU_NFUNC; f++)
        printf(" %s %u", us_sfu_func_name(f), us_sfu_passes(&o->cfg, f));
    printf(" pow %u\n", us_sfu_pow_passes(&o->cfg));
    return 0;
}

/* Each form's options: one of another form is an error, not ignored. */
#define OPT_SET { "--set", true, true, NULL }
#define OPT_HELP { "--help", false, false, NULL }
#define OPT_END { NULL, false, false, NULL }
static const struct cli_opt eval_opts[] = {
    OPT_HELP, { "--func", true, false, NULL }, OPT_SET, OPT_END,
};
static const struct cli_opt check_opts[] = {
    OPT_HELP, { "--func", true, false, NULL },
    { "--full", false, false, NULL },
    { "--json", false, false, NULL }, { "--jobs", true, false, NULL },
    { "--range", true, false, NULL }, { "--step", true, false, NULL },
    { "--no-filter", false, false, NULL },
    OPT_SET,
    OPT_END,
};
static const struct cli_opt sweep_opts[] = {
    OPT_HELP, { "--func", true, false, NULL }, { "--k", true, false, NULL },
    { "--degree", true, false, NULL }, { "--w0", true, false, NULL },
    { "--w1", true, false, NULL }, { "--w2", true, false, NULL },
    { "--w3", true, false, NULL }, { "--step", true, false, NULL },
    { "--csv", true, false, NULL },
    { "--jobs", true, false, NULL },
    OPT_SET,
    OPT_END,
};
static const struct cli_opt layout_opts[] = { OPT_HELP, OPT_SET, OPT_END };

static const struct {
    const char *name;
    const struct cli_opt *opts;
    int (*fn)(struct opts *o);
} forms[] = {
    { "eval", eval_opts, do_eval }, { "check", check_opts, do_check },
    { "sweep", sweep_opts, do_sweep }, { "layout", layout_opts, do_layout },
};
enum { NFORMS = sizeof forms / sizeof forms[0] };

static bool has_opt(const struct cli_opt *opts, const char *name)
{
    for (; opts->name; opts++)
        if (!strcmp(opts->name, name))
            return true;
    return false;
}

/* "sfu layout: --k is an option of sweep, not of layout" before the
 * generic check; false after an error. */
static bool check_form(unsigned f, int argc, char **argv)
{
    const struct cli_opt *own = forms[f].opts;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (has_opt(own, a)) {
            for (const struct cli_opt *o = own; o->name; o++)
                if (!strcmp(o->name, a) && o->value)
                    i++;
            continue;
        }
        for (unsigned g = 0; g < NFORMS; g++)
            if (has_opt(forms[g].opts, a)) {
                cli_error(NULL, 0, 0, "sfu %s: %s is an option of sfu %s, "
                          "not of %s", forms[f].name, a, forms[g].name,
                          forms[f].name);
                return false;
            }
    }
    char cmd[16];
    snprintf(cmd, sizeof cmd, "sfu %s", forms[f].name);
    return cli_check_options(cmd, argc, argv, 2, own);
}

int cmd_sfu(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        if (argc >= 2)
            fputs(us_sfu_config_help(), stdout);
        return argc < 2 ? 2 : 0;
    }
    unsigned f = 0;
    while (f < NFORMS && strcmp(argv[1], forms[f].name))
        f++;
    if (f == NFORMS) {
        cli_error(NULL, 0, 0, "sfu: unknown subcommand '%s' (eval, check, "
                  "sweep, layout)", argv[1]);
        fputs(usage, stderr);
        return 2;
    }
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            fputs(us_sfu_config_help(), stdout);
            return 0;
        }
    if (!check_form(f, argc, argv))
        return 2;
    struct opts o;
    memset(&o, 0, sizeof o);
    o.argc = argc;
    o.argv = argv;
    if (!parse_args(argc, argv, &o))
        return 2;
    return forms[f].fn(&o);
}
