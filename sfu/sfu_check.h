/*
 * Accuracy check of the SFU against correctly rounded binary32 references
 * from MPFR (SPEC section 5).  Used by `ushader sfu check|sweep` and the
 * tests.
 *
 * Every input is first classified:
 *  - accuracy case: the input is normal, in the function's domain, and the
 *    correctly rounded result (MPFR, binary32 exponent range, subnormals
 *    via mpfr_subnormalize) is a normal finite number.  Its error is
 *    measured against the exact value: ulps as LLVM libc's MPFR utils
 *    define them (across a binade boundary, each part in its own binade's
 *    ulp), and absolute error;
 *  - special case: anything else.  The expected result is the documented
 *    policy of sfu/sfu.h: FTZ on input, the IEEE/D3D special values, and
 *    the correctly rounded result flushed to zero when it is below 2^-126;
 *    bit patterns must match (any NaN matches any NaN).
 *
 * References: in the default mode MPFR computes f(x) at 53 bits for every
 * input; the binary32 result is that value rounded, except when it lies
 * exactly on a rounding midpoint, where MPFR recomputes at 24 bits.
 * With `filter` (used by --full) libm's double result replaces MPFR's
 * unless it lies within 2^-45 (relative) of a binary32 value or of a
 * midpoint between two: glibc's exp2, log2 are accurate to about 1
 * double ulp (2^-52) and 1/sqrt(x) to 1.5, so 2^-45 is a margin of >=
 * 2^6 times their error; those cases go to MPFR.  sin and cos use
 * sfu/sfu_trigref.c instead of libm (an integer Payne-Hanek reduction
 * and Taylor polynomials with a proven bound of 2^-49 relative + 2^-99,
 * a margin of 2^7 times that), glibc's being the largest cost of the
 * check (its __branred for |x| >= 2^26.65); their maxima are still
 * measured against libm's value (or MPFR's), computed for the few
 * inputs whose error could reach a maximum, so every figure printed is
 * the same as with libm (only the count MPFR decided differs).  Tiny
 * arguments of ex2, sin and cos, whose results are that close to 1 or to
 * x, are decided analytically instead (sfu/sfu_check.c, ref_tiny), as
 * is ex2 beyond the binary32 range (ref_far).  Where the set pairs every
 * x >= +0 with -x (--full, and steps that divide 2^31), the reference of
 * rcp, sin and cos (odd, odd, even, bit for bit in every step of it) is
 * computed once per pair; the model still runs on every input
 * (sfu/sfu_check.c, check_pair).
 * tests/sfu_filter.test.sh compares the filter with pure MPFR,
 * tests/unit/test_sfu_trigref.c the trig filter with MPFR and with libm.
 */
#ifndef US_SFU_CHECK_H
#define US_SFU_CHECK_H

#include <stdint.h>

#include "ushader.h"

enum us_sfu_check_set {
    US_SFU_SET_DOMAIN,   /* the stated part of the primary domain        */
    US_SFU_SET_RANGE,    /* bit patterns first .. first + count - 1      */
};

struct us_sfu_check_opts {
    const struct us_sfu *sfu;
    enum us_sfu_func func;
    enum us_sfu_check_set set;
    uint64_t first, count;   /* US_SFU_SET_RANGE                          */
    unsigned step;           /* take every step-th input of the set (>= 1) */
    bool filter;             /* double filter, MPFR near boundaries       */
    bool libm_trig;          /* filter sin/cos with libm (the tests)      */
    unsigned jobs;           /* threads (>= 1)                            */
    /* Called from the calling thread about 5 times a second. */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
};

struct us_sfu_stats {
    uint64_t n;                 /* inputs checked                         */
    uint64_t acc;               /* accuracy cases                         */
    uint64_t cr, faithful;      /* ... correctly / faithfully rounded     */
    uint64_t special, special_bad;
    uint64_t mpfr_calls;        /* filter mode: inputs MPFR decided       */
    double max_ulp;             /* over all accuracy cases                */
    uint32_t max_ulp_x, max_ulp_got;
    /* The rest only for lg2, sin and cos, whose anchors are absolute
     * errors (< 0: no case). */
    double max_ulp_out;         /* outside the absolute-error domain      */
    uint32_t max_ulp_out_x;
    double max_abs;             /* inside the absolute-error domain       */
    uint32_t max_abs_x;
    double max_abs_all;         /* over all their accuracy cases          */
    uint32_t max_abs_all_x;
    uint32_t bad_x, bad_got, bad_want;   /* first special mismatch        */
};

/* Where absolute error is the anchor (SPEC 5): lg2 on [0.5, 2], sin and
 * cos on [-pi, pi]; false for the others. */
bool us_sfu_abs_domain(enum us_sfu_func f, uint32_t xbits);

/* Human description of US_SFU_SET_DOMAIN for f, and its input count. */
const char *us_sfu_domain_desc(enum us_sfu_func f);
uint64_t us_sfu_set_size(const struct us_sfu_check_opts *o);

US_MUST_CHECK bool us_sfu_check(const struct us_sfu_check_opts *o,
                                struct us_sfu_stats *st, struct us_diag *diag);

/* The acceptance bounds of the default configuration; false and a reason
 * in `why` when st violates them. */
bool us_sfu_check_verdict(enum us_sfu_func f, const struct us_sfu_stats *st,
                          char *why, size_t len);

/* LLVM libc's ulp error of `got` against the exact value. */
double us_sfu_ulp_error(float got, double exact);

#endif
