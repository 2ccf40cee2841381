/*
 * The accuracy check (method: sfu/sfu_check.h).  Inputs are cut into
 * chunks that worker threads take in turn; each chunk keeps its own
 * statistics and the chunks are merged in input order, so the output does
 * not depend on the thread count or timing (ties go to the first input).
 */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ushader.h"
#include "sfu/sfu.h"
#include "sfu/sfu_check.h"
#include "sfu/sfu_lane.h"
#include "sfu/sfu_trigref.h"
#include "shader/host_thread.h"

enum { CHUNK = 1 << 16 };

#define PI_BITS 0x40490fdbu       /* binary32 pi (just above pi) */

struct range {
    uint32_t first;
    uint64_t count;   /* inputs */
    uint32_t stride;
};

/* The stated primary-domain sets (see us_sfu_domain_desc). */
static unsigned domain_ranges(enum us_sfu_func f, struct range *r)
{
    switch (f) {
    case US_SFU_RCP:
        r[0] = (struct range){ 0x3f800000u, 1u << 23, 1 };
        return 1;
    case US_SFU_RSQ:
    case US_SFU_SQRT:
        r[0] = (struct range){ 0x3f800000u, 1u << 24, 1 };
        return 1;
    case US_SFU_LG2:
        r[0] = (struct range){ 0x3f000000u, (1u << 24) + 1, 1 };
        r[1] = (struct range){ 0x3e800000u, 1u << 20, 8 };
        r[2] = (struct range){ 0x40000008u, (1u << 20) - 1, 8 };
        r[3] = (struct range){ 0x00800000u, (0x7f800000u - 0x00800000u) / 4096, 4096 };
        return 4;
    case US_SFU_EX2:
        r[0] = (struct range){ 0x3f800000u, 1u << 23, 1 };
        r[1] = (struct range){ 0xbf800000u, 1u << 23, 1 };
        r[2] = (struct range){ 0x30800000u, (0x43000000u - 0x30800000u) / 256, 256 };
        r[3] = (struct range){ 0xb0800000u, (0x43000000u - 0x30800000u) / 256, 256 };
        return 4;
    default:
        r[0] = (struct range){ 0x3f000000u, PI_BITS - 0x3f000000u + 1, 1 };
        r[1] = (struct range){ 0xbf000000u, (PI_BITS - 0x3f000000u) / 16 + 1, 16 };
        r[2] = (struct range){ 0x00800000u, (0x3f000000u - 0x00800000u) / 2048, 2048 };
        r[3] = (struct range){ 0x80800000u, (0x3f000000u - 0x00800000u) / 2048, 2048 };
        return 4;
    }
}

const char *us_sfu_domain_desc(enum us_sfu_func f)
{
    switch (f) {
    case US_SFU_RCP: return "all of [1,2)";
    case US_SFU_RSQ:
    case US_SFU_SQRT: return "all of [1,4)";
    case US_SFU_LG2:
        return "all of [0.5,2], every 8th of [0.25,0.5) and (2,4), "
               "every 4096th positive normal";
    case US_SFU_EX2:
        return "all of [1,2) and [-2,-1), every 256th pattern of 2^-30 <= |x| < 128";
    default:
        return "all of [0.5,pi], every 16th of [-pi,-0.5], "
               "every 2048th of 2^-126 <= |x| < 0.5";
    }
}

static unsigned set_ranges(const struct us_sfu_check_opts *o, struct range *r)
{
    unsigned n;
    if (o->set == US_SFU_SET_RANGE) {
        r[0] = (struct range){ (uint32_t)o->first, o->count, 1 };
        n = 1;
    } else {
        n = domain_ranges(o->func, r);
    }
    unsigned step = o->step ? o->step : 1;
    for (unsigned i = 0; i < n; i++) {
        r[i].count = (r[i].count + step - 1) / step;
        r[i].stride *= step;
    }
    return n;
}

uint64_t us_sfu_set_size(const struct us_sfu_check_opts *o)
{
    struct range r[4];
    unsigned n = set_ranges(o, r);
    uint64_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += r[i].count;
    return total;
}

bool us_sfu_abs_domain(enum us_sfu_func f, uint32_t x)
{
    uint32_t a = x & 0x7fffffffu;
    switch (f) {
    case US_SFU_LG2: return x >= 0x3f000000u && x <= 0x40000000u;
    case US_SFU_SIN:
    case US_SFU_COS: return a <= PI_BITS;
    default: return false;
    }
}

/* Exponent as LLVM's FPBits: subnormals and zero count as -126. */
static int fexp(float v)
{
    uint32_t b = (bits_of(v) >> 23) & 0xff;
    return b == 0 ? -126 : (int)b - 127;
}

/* 2^e for -1022 <= e <= 1023, without a libm call (hot in --full). */
static inline double pow2(int e)
{
    uint64_t b = (uint64_t)(e + 1023) << 52;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* us_sfu_ulp_error, inlined into the hot loop. */
static inline double ulp_error(float got, double exact)
{
    if (isnan(got) || isinf(got))
        return (double)got == exact ? 0 : INFINITY;
    if ((double)got == exact)
        return 0;
    float er = (float)exact;
    int ee = fexp(er), ge = fexp(got);
    if ((got < 0) != (exact < 0) || ee == ge)
        return fabs((double)got - exact) * pow2(23 - ee);
    double ag = fabs((double)got), ax = fabs(exact);
    bool got_small = fabsf(got) < fabsf(er);
    double mn = got_small ? ag : ax, mx = got_small ? ax : ag;
    int mne = got_small ? ge : ee, mxe = got_small ? ee : ge;
    double pivot = pow2(mxe);
    return (pivot - mn) * pow2(23 - mne) + (mx - pivot) * pow2(23 - mxe);
}

double us_sfu_ulp_error(float got, double exact)
{
    return ulp_error(got, exact);
}

/* ---- references -------------------------------------------------------- */

struct worker_mpfr {
    mpfr_t x, y, y24;
};

static int mpfr_f(enum us_sfu_func f, mpfr_t y, const mpfr_t x)
{
    switch (f) {
    case US_SFU_RCP: return mpfr_ui_div(y, 1, x, MPFR_RNDN);
    case US_SFU_RSQ: return mpfr_rec_sqrt(y, x, MPFR_RNDN);
    case US_SFU_SQRT: return mpfr_sqrt(y, x, MPFR_RNDN);
    case US_SFU_LG2: return mpfr_log2(y, x, MPFR_RNDN);
    case US_SFU_EX2: return mpfr_exp2(y, x, MPFR_RNDN);
    case US_SFU_SIN: return mpfr_sin(y, x, MPFR_RNDN);
    default: return mpfr_cos(y, x, MPFR_RNDN);
    }
}

static inline double libm_f(enum us_sfu_func f, float xf)
{
    double x = xf;
    switch (f) {
    case US_SFU_RCP: return 1.0 / x;
    case US_SFU_RSQ: return 1.0 / sqrt(x);
    case US_SFU_SQRT: return sqrt(x);
    case US_SFU_LG2: return log2(x);
    case US_SFU_EX2: return exp2(x);
    case US_SFU_SIN: return sin(x);
    default: return cos(x);
    }
}

/* The reference for one finite, in-domain, normal input. */
struct ref {
    double exact;     /* f(x), within 2^-53 relative (or libm's error) */
    float cr;         /* correctly rounded binary32                   */
    float lo, hi;     /* faithful results (lo == hi when exact)       */
    bool bracketed;   /* lo, hi are set                               */
    bool approx;      /* exact is the trig filter's, not the reference
                         the maxima are measured against (check_one)  */
};

/* The float after r toward +inf (up) or -inf; r finite. */
static inline float step(float r, bool up)
{
    uint32_t b;
    memcpy(&b, &r, sizeof b);
    if ((b & 0x7fffffffu) == 0)
        b = up ? 1u : 0x80000001u;
    else if (((b >> 31) == 0) == up)
        b++;
    else
        b--;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* Floats around y: *lo <= y <= *hi, adjacent (or equal when y is one). */
static inline void bracket(double y, float *lo, float *hi)
{
    float r = (float)y;
    if ((double)r == y) {
        *lo = *hi = r;
    } else if ((double)r < y) {
        *lo = r;
        *hi = isinf(r) ? r : step(r, true);
    } else {
        *hi = r;
        *lo = isinf(r) ? r : step(r, false);
    }
}

static void ref_mpfr(struct worker_mpfr *w, enum us_sfu_func f, float x,
                     struct ref *r)
{
    mpfr_set_flt(w->x, x, MPFR_RNDN);
    int t = mpfr_f(f, w->y, w->x);
    double y = mpfr_get_d(w->y, MPFR_RNDN);     /* exact: y has 53 bits */
    r->exact = y;
    r->bracketed = true;
    bracket(y, &r->lo, &r->hi);
    if (r->lo == r->hi) {
        r->cr = r->lo;
        if (t != 0 && !isinf(y)) {              /* f(x) is beside the float */
            if (t > 0)
                r->lo = step(r->lo, false);
            else
                r->hi = step(r->hi, true);
        }
        return;
    }
    double mid = ((double)r->lo + (double)r->hi) / 2;
    if (y != mid && !isinf(r->hi) && !isinf(r->lo)) {
        r->cr = (float)y;
        return;
    }
    /* y53 on a midpoint (or at the overflow edge): round f(x) itself. */
    int t24 = mpfr_f(f, w->y24, w->x);
    t24 = mpfr_subnormalize(w->y24, t24, MPFR_RNDN);
    r->cr = mpfr_get_flt(w->y24, MPFR_RNDN);
}

/*
 * Tiny arguments, where f(x) lies within the filter's margin of a float
 * (so the general filter would send every one of them to MPFR) but
 * provably on a known side of it and far from any rounding midpoint:
 *   ex2, |x| < 2^-30: 2^x = 1 + x ln2 + O(x^2), |x ln2| < 2^-30.5, well
 *       inside (1 - 2^-25, 1 + 2^-24): rounds to 1, above 1 iff x > 0.
 *   sin, |x| < 2^-12: 0 < x - sin x < x^3/6 < half an ulp of x (also when
 *       x is a power of two): rounds to x, lies toward zero from it.
 *   cos, |x| < 2^-12: 0 < 1 - cos x < x^2/2 < 2^-25: rounds to 1, below.
 * None of these values is a float or a midpoint (x != 0; 2^x and sin x are
 * irrational there), so MPFR has nothing to decide.
 */
__attribute__((always_inline))
static inline bool ref_tiny(enum us_sfu_func f, float x, struct ref *r)
{
    double d = x;
    switch (f) {
    case US_SFU_EX2:
        if (!(fabs(d) < 0x1p-30))
            return false;
        r->exact = 1 + d * 0.693147180559945309417;
        r->cr = 1.0f;
        r->lo = d > 0 ? 1.0f : 1.0f - 0x1p-24f;
        r->hi = d > 0 ? 1.0f + 0x1p-23f : 1.0f;
        break;
    case US_SFU_SIN:
        if (!(fabs(d) < 0x1p-12))
            return false;
        r->exact = d - d * d * d / 6;
        r->cr = x;
        r->lo = d > 0 ? step(x, false) : x;
        r->hi = d > 0 ? x : step(x, true);
        break;
    case US_SFU_COS:
        if (!(fabs(d) < 0x1p-12))
            return false;
        r->exact = 1 - d * d / 2;
        r->cr = 1.0f;
        r->lo = 1.0f - 0x1p-24f;
        r->hi = 1.0f;
        break;
    default:
        return false;
    }
    r->bracketed = true;
    return true;
}

/*
 * ex2 far outside the binary32 range, 47% of the bit patterns: 2^x for
 * x >= 128 rounds to +inf, for x <= -151 (2^x <= 2^-151, below half the
 * least subnormal) to +0 -- what libm's filter decides there too, without
 * its exp2 call (the overflow path with errno).  Both are special cases,
 * whose `exact` is not used.
 */
__attribute__((always_inline))
static inline bool ref_far(enum us_sfu_func f, float x, struct ref *r)
{
    if (f != US_SFU_EX2 || !(x >= 128.0f || x <= -151.0f))
        return false;
    r->exact = x > 0 ? INFINITY : 0;
    r->cr = r->lo = r->hi = (float)r->exact;
    r->bracketed = true;
    return true;
}

/* libm's value when it decides the case safely, else MPFR's (inlined
 * into check_one, where f is a constant). */
__attribute__((always_inline))
static inline bool ref_libm(enum us_sfu_func f, float x, struct ref *r)
{
    double y = libm_f(f, x);
    if (y == 0 || isinf(y)) {
        /* Exact (lg2(1)) or beyond the double range, hence far beyond the
         * float one: ex2 of |x| >= 1024 is +inf or +0 in binary32. */
        r->exact = y;
        r->cr = r->lo = r->hi = (float)y;
        r->bracketed = true;
        return true;
    }
    if (!isfinite(y))
        return false;
    double m = fabs(y) * 0x1p-45;
    float a = (float)(y - m), b = (float)(y + m);
    if (a != b || fabs((double)a - y) <= m)
        return false;                 /* near a midpoint or a float */
    r->exact = y;
    r->cr = r->lo = r->hi = a;    /* lo, hi: set by bracket() if needed */
    r->bracketed = false;
    return true;
}

/*
 * sin and cos through sfu/sfu_trigref.c instead of libm: its bound err
 * (about 2^-49 relative) times 2^7 is the margin, so a case is decided
 * only when every value within 128 err of y rounds to the same float and
 * none is a float; the rest go to MPFR.
 */
static inline bool ref_trig(enum us_sfu_func f, float x, struct ref *r)
{
    double y, err;
    if (!us_sfu_trig_ref(f == US_SFU_COS, x, &y, &err))
        return false;
    double m = err * 128;
    float a = (float)(y - m), b = (float)(y + m);
    if (a != b || fabs((double)a - y) <= m)
        return false;
    r->exact = y;
    r->cr = r->lo = r->hi = a;
    r->bracketed = false;
    return true;
}

/* The reference of the filter before the trig filter (libm, MPFR near
 * boundaries), which the maxima are measured against. */
static void ref_libm_mpfr(struct worker_mpfr *w, enum us_sfu_func f, float x,
                          struct ref *r)
{
    if (!ref_libm(f, x, r))
        ref_mpfr(w, f, x, r);
    r->approx = false;
}

/* ---- special cases --------------------------------------------------- */

enum { NAN_ANY = 0x7fc00000u, PINF = 0x7f800000u, NINF = 0xff800000u,
       FONE = 0x3f800000u };

/* The documented result when the (flushed) input is zero, infinite, NaN
 * or outside the domain; false when the input is an ordinary one. */
static bool policy(enum us_sfu_func f, uint32_t x, uint32_t *want)
{
    uint32_t a = x & 0x7fffffffu, s = x & 0x80000000u;
    bool neg = s != 0;
    if (a > PINF) {
        *want = NAN_ANY;
        return true;
    }
    if (a == 0) {
        switch (f) {
        case US_SFU_RCP: *want = s | PINF; break;
        case US_SFU_RSQ: *want = neg ? NINF : PINF; break;
        case US_SFU_SQRT: *want = s; break;
        case US_SFU_LG2: *want = NINF; break;
        case US_SFU_EX2: case US_SFU_COS: *want = FONE; break;
        default: *want = s; break;
        }
        return true;
    }
    if (a == PINF) {
        switch (f) {
        case US_SFU_RCP: *want = s; break;
        case US_SFU_RSQ: *want = neg ? NAN_ANY : 0; break;
        case US_SFU_SQRT: case US_SFU_LG2: *want = neg ? NAN_ANY : PINF; break;
        case US_SFU_EX2: *want = neg ? 0 : PINF; break;
        default: *want = NAN_ANY; break;
        }
        return true;
    }
    if (neg && (f == US_SFU_RSQ || f == US_SFU_SQRT || f == US_SFU_LG2)) {
        *want = NAN_ANY;
        return true;
    }
    return false;
}

static bool same(uint32_t got, uint32_t want)
{
    if ((want & 0x7fffffffu) > PINF)
        return (got & 0x7fffffffu) > PINF;
    return got == want;
}

/* ---- statistics ------------------------------------------------------ */

static void stats_init(struct us_sfu_stats *s)
{
    memset(s, 0, sizeof *s);
    s->max_ulp = s->max_ulp_out = s->max_abs = s->max_abs_all = -1;
}

static void merge(struct us_sfu_stats *d, const struct us_sfu_stats *s)
{
    d->n += s->n;
    d->acc += s->acc;
    d->cr += s->cr;
    d->faithful += s->faithful;
    if (!d->special_bad && s->special_bad) {
        d->bad_x = s->bad_x;
        d->bad_got = s->bad_got;
        d->bad_want = s->bad_want;
    }
    d->special += s->special;
    d->special_bad += s->special_bad;
    d->mpfr_calls += s->mpfr_calls;
    if (s->max_ulp > d->max_ulp) {
        d->max_ulp = s->max_ulp;
        d->max_ulp_x = s->max_ulp_x;
        d->max_ulp_got = s->max_ulp_got;
    }
    if (s->max_ulp_out > d->max_ulp_out) {
        d->max_ulp_out = s->max_ulp_out;
        d->max_ulp_out_x = s->max_ulp_out_x;
    }
    if (s->max_abs > d->max_abs) {
        d->max_abs = s->max_abs;
        d->max_abs_x = s->max_abs_x;
    }
    if (s->max_abs_all > d->max_abs_all) {
        d->max_abs_all = s->max_abs_all;
        d->max_abs_all_x = s->max_abs_all_x;
    }
}

/*
 * Whether an accuracy case of sin or cos could raise one of s's maxima,
 * judged from the trig filter's `exact`.  It and the reference the
 * maxima use both lie within 2^-49 (libm: ~2^-52) relative of sin x, so
 * they differ by < 2^-48 |exact|: the ulp error of g moves by < 2^-24
 * (its slope in exact is one over exact's ulp, both round to the same
 * float) and the absolute error by < 2^-48 (|exact| <= 1).  The slack
 * below is 2^12 times that; ties stay candidates (a maximum moves only
 * on a strictly larger error, so the first input keeps it).
 */
static inline bool may_raise(enum us_sfu_func f, uint32_t xb,
                             const struct us_sfu_stats *s, float g,
                             double exact)
{
    const double du = 0x1p-12, da = 0x1p-36;
    double ulp = ulp_error(g, exact);
    double abs_err = isfinite(g) ? fabs((double)g - exact) : INFINITY;
    if (ulp + du >= s->max_ulp || abs_err + da >= s->max_abs_all)
        return true;
    return us_sfu_abs_domain(f, xb) ? abs_err + da >= s->max_abs
                                    : ulp + du >= s->max_ulp_out;
}

/* A special case (the policy's input classes): counted and compared
 * here, true; false for an input that needs the reference.  (The counts
 * of inputs and of accuracy cases, n and n - special, are set per chunk
 * by chunk_done.) */
__attribute__((always_inline))
static inline bool check_special(enum us_sfu_func f, uint32_t xb, uint32_t got,
                                 struct us_sfu_stats *s)
{
    uint32_t xf = (xb & 0x7f800000u) ? xb : (xb & 0x80000000u);  /* FTZ */
    uint32_t want;
    if (!policy(f, xf, &want))
        return false;
    s->special++;
    if (!same(got, want) && !s->special_bad++) {
        s->bad_x = xb;
        s->bad_got = got;
        s->bad_want = want;
    }
    return true;
}

/* The reference of an ordinary input; true when MPFR decided it in filter
 * mode (the count mpfr_decided). */
__attribute__((always_inline))
static inline bool reference(const struct us_sfu_check_opts *o,
                             enum us_sfu_func f, struct worker_mpfr *w,
                             float x, struct ref *r)
{
    r->approx = false;
    if (!o->filter) {
        ref_mpfr(w, f, x, r);
        return false;
    }
    if (ref_tiny(f, x, r) || ref_far(f, x, r))
        return false;
    bool trig = (f == US_SFU_SIN || f == US_SFU_COS) && !o->libm_trig;
    bool mpfr = false;
    if (trig ? !ref_trig(f, x, r) : !ref_libm(f, x, r)) {
        ref_mpfr(w, f, x, r);
        mpfr = true;
    }
    r->approx = trig;
    return mpfr;
}

/* The statistics of an ordinary input from the model's result and the
 * reference (r may be replaced by the one the maxima use). */
__attribute__((always_inline))
static inline void judge(enum us_sfu_func f, struct worker_mpfr *w,
                         uint32_t xb, uint32_t got, struct ref *r,
                         struct us_sfu_stats *s)
{
    uint32_t cb = bits_of(r->cr), ca = cb & 0x7fffffffu;
    if (ca < 0x00800000u || ca >= PINF) {
        s->special++;
        uint32_t want = ca < 0x00800000u ? (cb & 0x80000000u) : cb;  /* FTZ */
        if (!same(got, want) && !s->special_bad++) {
            s->bad_x = xb;
            s->bad_got = got;
            s->bad_want = want;
        }
        return;
    }
    float g = float_of(got);
    bool is_cr = got == cb, has_abs = f == US_SFU_LG2 || f == US_SFU_SIN ||
                                      f == US_SFU_COS;
    s->cr += is_cr;
    if (!is_cr && !r->bracketed)
        bracket(r->exact, &r->lo, &r->hi);
    s->faithful += is_cr || g == r->lo || g == r->hi;
    /* A correctly rounded result errs by at most 0.5 ulp: once the
     * maximum is there, it cannot raise it (the hot path of --full). */
    if (is_cr && !has_abs && s->max_ulp >= 0.5)
        return;
    /* The trig filter's value may differ from the one the maxima are
     * measured against (libm's, or MPFR's), so that the printed maxima do
     * not depend on the filter: that one is computed only for the few
     * inputs whose errors could reach a maximum (may_raise). */
    if (r->approx) {
        if (!may_raise(f, xb, s, g, r->exact))
            return;
        ref_libm_mpfr(w, f, float_of(xb), r);
    }
    double ulp = ulp_error(g, r->exact);
    if (ulp > s->max_ulp) {
        s->max_ulp = ulp;
        s->max_ulp_x = xb;
        s->max_ulp_got = got;
    }
    if (!has_abs)
        return;
    double abs_err = isfinite(g) ? fabs((double)g - r->exact) : INFINITY;
    if (abs_err > s->max_abs_all) {
        s->max_abs_all = abs_err;
        s->max_abs_all_x = xb;
    }
    if (us_sfu_abs_domain(f, xb)) {
        if (abs_err > s->max_abs) {
            s->max_abs = abs_err;
            s->max_abs_x = xb;
        }
    } else if (ulp > s->max_ulp_out) {
        s->max_ulp_out = ulp;
        s->max_ulp_out_x = xb;
    }
}

/* f is a constant where run_unit inlines this (one copy per function). */
__attribute__((always_inline))
static inline void check_one(const struct us_sfu_check_opts *o,
                             const struct us_sfu *sfu, enum us_sfu_func f,
                             struct worker_mpfr *w, uint32_t xb,
                             struct us_sfu_stats *s)
{
    uint32_t got = bits_of(eval_const(sfu, f, float_of(xb)));
    if (check_special(f, xb, got, s))
        return;
    struct ref r;
    s->mpfr_calls += reference(o, f, w, float_of(xb), &r);
    judge(f, w, xb, got, &r, s);
}

/*
 * Whether f's reference is odd (rcp, sin) or even (cos) bit for bit in
 * the check's mode: IEEE division, the trig filter (it works on |x|),
 * MPFR and ref_tiny round symmetrically, so the reference of -x (its
 * value, rounding, bracket, filter and MPFR decisions) is the mirror of
 * that of x, and the policy's special classes do not depend on the sign.
 * Not in the MPFR-alone mode (the peer, MPFR for every input) nor with
 * libm's sin/cos (glibc's symmetry is not documented).
 */
static bool mirrored(const struct us_sfu_check_opts *o)
{
    if (!o->filter)
        return false;
    return o->func == US_SFU_RCP ||
           ((o->func == US_SFU_SIN || o->func == US_SFU_COS) && !o->libm_trig);
}

/* The reference of -x from that of x (see mirrored). */
__attribute__((always_inline))
static inline void mirror(enum us_sfu_func f, const struct ref *r,
                          struct ref *m)
{
    *m = *r;
    if (f == US_SFU_COS)
        return;
    m->exact = -r->exact;
    m->cr = -r->cr;
    m->lo = -r->hi;
    m->hi = -r->lo;
}

/* x = xb >= +0 and -x, the reference computed once: the model is run and
 * judged at both, each into its own chunk's statistics. */
__attribute__((always_inline))
static inline void check_pair(const struct us_sfu_check_opts *o,
                              const struct us_sfu *sfu, enum us_sfu_func f,
                              struct worker_mpfr *w, uint32_t xb,
                              struct us_sfu_stats *sp, struct us_sfu_stats *sn)
{
    uint32_t nb = xb | 0x80000000u;
    uint32_t gp = bits_of(eval_const(sfu, f, float_of(xb)));
    uint32_t gn = bits_of(eval_const(sfu, f, float_of(nb)));
    bool pos_special = check_special(f, xb, gp, sp);
    if (check_special(f, nb, gn, sn) || pos_special)
        return;                       /* both or neither (mirrored) */
    struct ref r, rn;
    bool mpfr = reference(o, f, w, float_of(xb), &r);
    sp->mpfr_calls += mpfr;
    sn->mpfr_calls += mpfr;           /* -x: decided by MPFR's mirror */
    mirror(f, &r, &rn);
    judge(f, w, xb, gp, &r, sp);
    judge(f, w, nb, gn, &rn, sn);
}

/* ---- threads ----------------------------------------------------------- */

/* n inputs checked into s: every one is a special or an accuracy case. */
static void chunk_done(struct us_sfu_stats *s, uint64_t n)
{
    s->n = n;
    s->acc = n - s->special;
}

struct job {
    const struct us_sfu_check_opts *o;
    struct range r[4];
    unsigned nr;
    uint64_t total, nchunks;
    /* Chunks c and c + half hold x and -x (mirrored sets: the full range
     * with a power-of-two step); a unit of work is such a pair, else one
     * chunk.  0: no pairs. */
    uint64_t half, units;
    struct us_sfu_stats *chunk;
    atomic_uint_fast64_t next, done;
};

__attribute__((always_inline))
static inline void run_inputs(struct job *j, struct worker_mpfr *w,
                              enum us_sfu_func f, uint64_t i, uint64_t end,
                              struct us_sfu_stats *s)
{
    /* The SFU's tables as a local the loop does not store to, so that
     * their geometry is computed once, not per input. */
    const struct us_sfu sfu = *j->o->sfu;
    unsigned ri = 0;
    uint64_t base = 0;
    while (i >= base + j->r[ri].count) {
        base += j->r[ri].count;
        ri++;
    }
    for (; i < end; i++) {
        while (i >= base + j->r[ri].count) {
            base += j->r[ri].count;
            ri++;
        }
        uint32_t xb = j->r[ri].first + (uint32_t)((i - base) * j->r[ri].stride);
        check_one(j->o, &sfu, f, w, xb, s);
    }
}

/* Chunk c (the positive half: one range from +0) and its mirror. */
__attribute__((always_inline))
static inline void run_pairs(struct job *j, struct worker_mpfr *w,
                             enum us_sfu_func f, uint64_t c)
{
    const struct us_sfu sfu = *j->o->sfu;    /* see run_inputs */
    struct us_sfu_stats sp, sn;       /* the thread's own (see run_unit) */
    stats_init(&sp);
    stats_init(&sn);
    uint32_t stride = j->r[0].stride;
    for (uint64_t i = c * CHUNK, end = i + CHUNK; i < end; i++)
        check_pair(j->o, &sfu, f, w, (uint32_t)(i * stride), &sp, &sn);
    chunk_done(&sp, CHUNK);
    chunk_done(&sn, CHUNK);
    j->chunk[c] = sp;
    j->chunk[c + j->half / CHUNK] = sn;
}

static void run_unit(struct job *j, struct worker_mpfr *w, uint64_t c)
{
    if (j->half) {
        switch (j->o->func) {
        case US_SFU_RCP: run_pairs(j, w, US_SFU_RCP, c); return;
        case US_SFU_SIN: run_pairs(j, w, US_SFU_SIN, c); return;
        default: run_pairs(j, w, US_SFU_COS, c); return;
        }
    }
    /* The chunk's statistics on this thread's stack while it runs: the
     * array's neighbouring chunks are another thread's (no cache line
     * shared with it), and the compiler may keep fields in registers. */
    struct us_sfu_stats s;
    stats_init(&s);
    uint64_t i = c * CHUNK, end = i + CHUNK < j->total ? i + CHUNK : j->total;
    /* A copy of the loop per function, f a constant in each. */
    switch (j->o->func) {
    case US_SFU_RCP: run_inputs(j, w, US_SFU_RCP, i, end, &s); break;
    case US_SFU_RSQ: run_inputs(j, w, US_SFU_RSQ, i, end, &s); break;
    case US_SFU_SQRT: run_inputs(j, w, US_SFU_SQRT, i, end, &s); break;
    case US_SFU_LG2: run_inputs(j, w, US_SFU_LG2, i, end, &s); break;
    case US_SFU_EX2: run_inputs(j, w, US_SFU_EX2, i, end, &s); break;
    case US_SFU_SIN: run_inputs(j, w, US_SFU_SIN, i, end, &s); break;
    default: run_inputs(j, w, US_SFU_COS, i, end, &s); break;
    }
    chunk_done(&s, end - i);
    j->chunk[c] = s;
}

/* Whether the set pairs every x >= +0 with -x at the same place of the
 * other half, in whole chunks: all 2^32 patterns, a step dividing 2^31. */
static uint64_t mirror_half(const struct job *j)
{
    const struct range *r = &j->r[0];
    if (!mirrored(j->o) || j->nr != 1 || r->first != 0 ||
        (uint64_t)r->count * r->stride != 1ull << 32 ||
        (r->stride & (r->stride - 1)) != 0 || (j->total / 2) % CHUNK != 0)
        return 0;
    return j->total / 2;
}

static void *worker(void *arg)
{
    struct job *j = arg;
    /* MPFR's exponent range is per thread: binary32's, restored after. */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
    struct worker_mpfr w;
    mpfr_init2(w.x, 24);
    mpfr_init2(w.y, 53);
    mpfr_init2(w.y24, 24);
    for (;;) {
        uint64_t c = atomic_fetch_add(&j->next, 1);
        if (c >= j->units)
            break;
        run_unit(j, &w, c);
        atomic_fetch_add(&j->done, j->half ? 2 : 1);
    }
    mpfr_clears(w.x, w.y, w.y24, (mpfr_ptr)0);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_free_cache();
    return NULL;
}

bool us_sfu_check(const struct us_sfu_check_opts *o, struct us_sfu_stats *st,
                  struct us_diag *diag)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        goto oom;
    j->o = o;
    j->nr = set_ranges(o, j->r);
    j->total = us_sfu_set_size(o);
    j->nchunks = (j->total + CHUNK - 1) / CHUNK;
    j->half = mirror_half(j);
    j->units = j->half ? j->nchunks / 2 : j->nchunks;
    j->chunk = malloc(sizeof *j->chunk * (j->nchunks ? j->nchunks : 1));
    unsigned n = o->jobs ? o->jobs : 1;
    pthread_t *th = malloc(sizeof *th * n);
    if (!j->chunk || !th) {
        free(th);
        free(j->chunk);
        free(j);
        goto oom;
    }
    atomic_init(&j->next, 0);
    atomic_init(&j->done, 0);
    unsigned started = 0;
    for (; started < n; started++)
        if (us_thread_create(&th[started], worker, j, started + 1) != 0)
            break;
    if (started == 0)
        worker(j);
    while (o->progress && atomic_load(&j->done) < j->nchunks) {
        uint64_t d = atomic_load(&j->done) * CHUNK;
        o->progress(o->progress_ctx, d < j->total ? d : j->total, j->total);
        nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
    }
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    if (o->progress)
        o->progress(o->progress_ctx, j->total, j->total);
    stats_init(st);
    for (uint64_t c = 0; c < j->nchunks; c++)
        merge(st, &j->chunk[c]);
    free(th);
    free(j->chunk);
    free(j);
    return true;
oom:
    diag->line = diag->col = 0;
    snprintf(diag->msg, sizeof diag->msg, "out of memory");
    return false;
}

bool us_sfu_check_verdict(enum us_sfu_func f, const struct us_sfu_stats *s,
                          char *why, size_t len)
{
    const double abs_bound = 0x1p-22;
    why[0] = '\0';
    if (s->special_bad) {
        snprintf(why, len, "%llu special-value mismatches",
                 (unsigned long long)s->special_bad);
        return false;
    }
    switch (f) {
    case US_SFU_LG2:
        if (s->max_abs > abs_bound) {
            snprintf(why, len, "absolute error %.3g > 2^-22 on [0.5,2]",
                     s->max_abs);
            return false;
        }
        if (s->max_ulp_out > 1) {
            snprintf(why, len, "%.3f ulp > 1 outside [0.5,2]", s->max_ulp_out);
            return false;
        }
        return true;
    case US_SFU_SIN:
    case US_SFU_COS:
        if (s->max_abs > abs_bound) {
            snprintf(why, len, "absolute error %.3g > 2^-22 on [-pi,pi]",
                     s->max_abs);
            return false;
        }
        if (s->max_abs_all > abs_bound) {
            snprintf(why, len, "absolute error %.3g > 2^-22 beyond [-pi,pi]",
                     s->max_abs_all);
            return false;
        }
        return true;
    default:
        if (s->max_ulp > 1) {
            snprintf(why, len, "%.3f ulp > 1", s->max_ulp);
            return false;
        }
        return true;
    }
}
