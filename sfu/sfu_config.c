/*
 * SFU configuration: defaults, "key=value" parsing, datapath pass counts
 * and the LUT layout / bank mapping (the algorithms are in sfu/sfu.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ushader.h"
#include "sfu/sfu.h"

static const char *const func_names[US_SFU_NFUNC] = {
    "rcp", "rsq", "sqrt", "lg2", "ex2", "sin", "cos"
};
static const char *const table_names[US_SFU_NTABLES] = {
    "rcp", "rsq", "sqrt", "lg2", "ex2", "sincos"
};

/* The one place the keys and their defaults are written down. */
static const char help[] =
    "SFU configuration keys: KEY=V in ushader sfu --set, sfu.KEY=V in the\n"
    "--set of run, piglit, compute, bench and config (the sfu. prefix is\n"
    "accepted here too), KEY = V under [sfu] in an INI file:\n"
    "  T.k=N        log2 of the segment count of table T, 1..8; T is rcp,\n"
    "               rsq, sqrt, lg2, ex2 or sincos (sin.k / cos.k alias it).\n"
    "               rsq and sqrt spend one of the k bits on the exponent\n"
    "               parity. Defaults: rcp 7, rsq 8, sqrt 7, lg2 7, ex2 6,\n"
    "               sincos 6.\n"
    "  k=N          the same k for every table\n"
    "  T.degree=D   polynomial degree of table T, 1..3 (default 2)\n"
    "  degree=D     the same degree for every table\n"
    "  w0..w3=B     width in bits, sign included, of coefficient c0..c3:\n"
    "               c0 8..32 (it only meets the adder), c1..c3 8..25 (they\n"
    "               are multiplier operands: 24-bit magnitude + sign).\n"
    "               Defaults: w0=32 w1=24 w2=18 w3=14\n"
    "  banks=B      LUT banks for the bank mapping, 1..64 (default 4)\n";

const char *us_sfu_config_help(void) { return help; }

void us_sfu_config_default(struct us_sfu_config *cfg)
{
    static const uint8_t k[US_SFU_NTABLES] = { 7, 8, 7, 7, 6, 6 };
    memset(cfg, 0, sizeof *cfg);
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        cfg->k[t] = k[t];
        cfg->degree[t] = 2;
    }
    cfg->width[0] = 32;
    cfg->width[1] = 24;
    cfg->width[2] = 18;
    cfg->width[3] = 14;
    cfg->banks = 4;
}

bool us_sfu_config_equal(const struct us_sfu_config *a,
                         const struct us_sfu_config *b)
{
    return !memcmp(a->k, b->k, sizeof a->k) &&
           !memcmp(a->degree, b->degree, sizeof a->degree) &&
           !memcmp(a->width, b->width, sizeof a->width) &&
           a->banks == b->banks;
}

static bool fail(struct us_diag *diag, const char *fmt, const char *s)
{
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, fmt, s);
    return false;
}

static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *v)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long n = strtoul(s, &end, 10);
    if (*end || n < lo || n > hi)
        return false;
    *v = (unsigned)n;
    return true;
}

/* Table named by the `len` characters of `s`, or -1 ("sin", "cos" alias
 * the shared sincos table). */
static int table_lookup(const char *s, size_t len)
{
    for (int t = 0; t < US_SFU_NTABLES; t++)
        if (strlen(table_names[t]) == len && !strncmp(s, table_names[t], len))
            return t;
    if ((len == 3 && !strncmp(s, "sin", 3)) ||
        (len == 3 && !strncmp(s, "cos", 3)))
        return US_SFU_T_SINCOS;
    return -1;
}

bool us_sfu_config_set(struct us_sfu_config *cfg, const char *kv,
                       struct us_diag *diag)
{
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv)
        return fail(diag, "SFU setting '%s' is not key=value", kv);
    size_t klen = (size_t)(eq - kv);
    const char *val = eq + 1;
    char key[32];
    if (klen >= sizeof key)
        return fail(diag, "unknown SFU key in '%s' (ushader sfu --help)", kv);
    memcpy(key, kv, klen);
    key[klen] = '\0';

    unsigned v;
    const char *dot = strchr(key, '.');
    const char *name = dot ? dot + 1 : key;
    int table = -2;   /* -2: every table */
    if (dot) {
        table = table_lookup(key, (size_t)(dot - key));
        if (table < 0)
            return fail(diag, "unknown SFU table in '%s' (rcp, rsq, sqrt, lg2, "
                              "ex2, sincos; ushader sfu --help)", kv);
    }
    if (!strcmp(name, "k") || !strcmp(name, "degree")) {
        bool is_k = name[0] == 'k';
        if (!parse_uint(val, 1, is_k ? US_SFU_MAX_K : US_SFU_MAX_DEGREE, &v))
            return fail(diag, is_k ? "bad SFU segment bits in '%s' (1..8)"
                                   : "bad SFU degree in '%s' (1..3)", kv);
        for (int t = 0; t < US_SFU_NTABLES; t++)
            if (table == -2 || table == t) {
                if (is_k)
                    cfg->k[t] = (uint8_t)v;
                else
                    cfg->degree[t] = (uint8_t)v;
            }
        return true;
    }
    if (dot)
        return fail(diag, "unknown SFU key in '%s' (ushader sfu --help)", kv);
    if (key[0] == 'w' && key[1] >= '0' && key[1] <= '3' && !key[2]) {
        unsigned i = (unsigned)(key[1] - '0');
        if (!parse_uint(val, 8, i == 0 ? 32 : 25, &v))
            return fail(diag, "bad SFU coefficient width in '%s' "
                              "(c0: 8..32, c1..c3: 8..25)", kv);
        cfg->width[i] = (uint8_t)v;
        return true;
    }
    if (!strcmp(key, "banks")) {
        if (!parse_uint(val, 1, 64, &v))
            return fail(diag, "bad SFU bank count in '%s' (1..64)", kv);
        cfg->banks = (uint8_t)v;
        return true;
    }
    return fail(diag, "unknown SFU key in '%s' (ushader sfu --help)", kv);
}

const char *us_sfu_func_name(enum us_sfu_func f) { return func_names[f]; }
const char *us_sfu_table_name(enum us_sfu_table t) { return table_names[t]; }

bool us_sfu_func_lookup(const char *name, enum us_sfu_func *f)
{
    for (unsigned i = 0; i < US_SFU_NFUNC; i++)
        if (!strcmp(name, func_names[i])) {
            *f = (enum us_sfu_func)i;
            return true;
        }
    return false;
}

enum us_sfu_table us_sfu_func_table(enum us_sfu_func f)
{
    static const uint8_t map[US_SFU_NFUNC] = {
        US_SFU_T_RCP, US_SFU_T_RSQ, US_SFU_T_SQRT, US_SFU_T_LG2,
        US_SFU_T_EX2, US_SFU_T_SINCOS, US_SFU_T_SINCOS
    };
    return (enum us_sfu_table)map[f];
}

/* Horner takes one multiply-add per degree; sin/cos first multiply the
 * significand by three 24-bit chunks of 1/(2 pi) (sfu/sfu.h). */
unsigned us_sfu_passes(const struct us_sfu_config *cfg, enum us_sfu_func f)
{
    unsigned d = cfg->degree[us_sfu_func_table(f)];
    return (f == US_SFU_SIN || f == US_SFU_COS) ? US_SFU_TRIG_PASSES + d : d;
}

unsigned us_sfu_pow_passes(const struct us_sfu_config *cfg)
{
    return us_sfu_passes(cfg, US_SFU_LG2) + 1 + us_sfu_passes(cfg, US_SFU_EX2);
}

void us_sfu_lut_layout(const struct us_sfu_config *cfg, enum us_sfu_table t,
                       struct us_sfu_lut *out)
{
    unsigned base = 0;
    for (unsigned i = 0; i < (unsigned)t; i++)
        base += 1u << cfg->k[i];
    out->entries = 1u << cfg->k[t];
    out->entry_bits = 0;
    for (unsigned i = 0; i <= cfg->degree[t]; i++)
        out->entry_bits += cfg->width[i];
    out->base = base;
    out->bits = (uint64_t)out->entries * out->entry_bits;
}

uint64_t us_sfu_lut_total_bits(const struct us_sfu_config *cfg)
{
    uint64_t total = 0;
    for (unsigned t = 0; t < US_SFU_NTABLES; t++) {
        struct us_sfu_lut l;
        us_sfu_lut_layout(cfg, (enum us_sfu_table)t, &l);
        total += l.bits;
    }
    return total;
}

void us_sfu_lut_map(const struct us_sfu_config *cfg, enum us_sfu_table t,
                    unsigned segment, unsigned *bank, unsigned *row)
{
    struct us_sfu_lut l;
    us_sfu_lut_layout(cfg, t, &l);
    unsigned g = l.base + segment;
    unsigned b = cfg->banks ? cfg->banks : 1;
    *bank = g % b;
    *row = g / b;
}
