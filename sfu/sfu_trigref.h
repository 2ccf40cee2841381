/*
 * sin and cos of a binary32 argument in double precision with a rigorous
 * error bound: the fast filter of `sfu check --full` (sfu/sfu_check.c),
 * which replaces glibc's sin/cos (and its multi-precision argument
 * reduction __branred, the largest part of their cost over all 2^32
 * inputs).  Method and error analysis: sfu/sfu_trigref.c.
 */
#ifndef US_SFU_TRIGREF_H
#define US_SFU_TRIGREF_H

#include <stdbool.h>
#include <stdint.h>

/* frac(|x| / (2 pi)) of the binary32 with magnitude bits `a` (normal,
 * finite, |x| >= 2^-63) as a fixed-point fraction of 128 bits: the true
 * value lies in [F 2^-128, F 2^-128 + 2^-103). */
unsigned __int128 us_sfu_trig_revolutions(uint32_t a);

/*
 * sin(x) (cos = false) or cos(x) for a normal finite binary32 x with
 * |x| >= 2^-12: *y and a bound *err with |*y - f(x)| <= *err (the bound
 * of sfu/sfu_trigref.c, 2^-49 |*y| + 2^-99).  False (nothing set) when the
 * reduced argument is too close to a multiple of pi/2 for the reduction's
 * precision, which no binary32 is (tests/unit/test_sfu_trigref.c).
 */
bool us_sfu_trig_ref(bool cos, float x, double *y, double *err);

#endif
