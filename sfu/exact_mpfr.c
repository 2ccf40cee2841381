/* The MPFR half of us_math_exact: binary32 emulation as MPFR's manual
 * describes it (section "Exception Related Functions"): precision 24,
 * exponent range [-148, 128] (MPFR's significands are in [1/2, 1), so the
 * smallest subnormal 2^-149 has exponent -148 and FLT_MAX < 2^128), then
 * mpfr_check_range and mpfr_subnormalize. */
#include <mpfr.h>

#include "ushader.h"
#include "sfu/exact.h"

float us_exact_mpfr(enum us_exact_fn fn, float x, float y)
{
    mpfr_t a, b, r;
    mpfr_inits2(24, a, b, r, (mpfr_ptr)0);
    /* Exact: every binary32 fits 24 bits and MPFR's default range. */
    mpfr_set_flt(a, x, MPFR_RNDN);
    mpfr_set_flt(b, y, MPFR_RNDN);

    /* MPFR keeps the range per thread (Debian builds it with TLS, checked
     * by tests/unit/test_exact.c); a, b and r lie inside the new one. */
    mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
    int inex;
    switch (fn) {
    case US_EXACT_RSQ: inex = mpfr_rec_sqrt(r, a, MPFR_RNDN); break;
    case US_EXACT_EX2: inex = mpfr_exp2(r, a, MPFR_RNDN); break;
    case US_EXACT_LG2: inex = mpfr_log2(r, a, MPFR_RNDN); break;
    case US_EXACT_SIN: inex = mpfr_sin(r, a, MPFR_RNDN); break;
    case US_EXACT_COS: inex = mpfr_cos(r, a, MPFR_RNDN); break;
    default: inex = mpfr_pow(r, a, b, MPFR_RNDN); break;
    }
    inex = mpfr_check_range(r, inex, MPFR_RNDN);
    mpfr_subnormalize(r, inex, MPFR_RNDN);
    float res = mpfr_get_flt(r, MPFR_RNDN);
    mpfr_set_emin(old_emin);
    mpfr_set_emax(old_emax);
    mpfr_clears(a, b, r, (mpfr_ptr)0);
    return res;
}

/* ushader.h: MPFR keeps its caches of constants (pi for sin and cos) per
 * thread; a thread that ends without freeing them leaks them. */
void us_math_thread_end(void)
{
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
}
