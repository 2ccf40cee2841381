/* Internal to sfu/exact*.c and their tests: the MPFR half of the correctly
 * rounded elementary functions. */
#ifndef US_SFU_EXACT_H
#define US_SFU_EXACT_H

enum us_exact_fn { US_EXACT_RSQ, US_EXACT_EX2, US_EXACT_LG2, US_EXACT_SIN,
                   US_EXACT_COS, US_EXACT_POW };

/*
 * fn(x) (or pow(x, y)) correctly rounded to binary32, round to nearest
 * even, subnormal results included, computed by MPFR in the binary32
 * exponent range.  MPFR's own exponent range is restored before returning.
 * Finite, in-domain inputs only (the callers handle special values):
 * MPFR's rec_sqrt(-0) = +inf differs from IEEE 754's rSqrt(-0) = -inf.
 */
float us_exact_mpfr(enum us_exact_fn fn, float x, float y);

#endif
