/*
 * a / b rounded to nearest from y = RN(1/b) with a multiplication and two
 * fused multiply-adds, the same bits as the division: q = RN(a y) is
 * within an ulp of a/b, the remainder r = a - q b is exact with an FMA,
 * and RN(q + r y) is RN(a/b) (P. Markstein, "Computation of elementary
 * functions on the IBM RISC System/6000 processor", IBM J. Res. Dev.
 * 34(1), 1990; N. Brisebarre, J.-M. Muller, S. K. Raina, "Accelerating
 * correctly rounded floating-point division when the divisor is known in
 * advance", IEEE Trans. Computers 53(8), 2004) -- provided nothing
 * overflows or underflows: a, b and a/b finite, b not 0, and every one
 * of them 0 or of magnitude in [2^-900, 2^900] is enough.  When y serves
 * several numerators (a triangle's area, a fragment's weight sum), the
 * division is paid once.  The rasterizer's FMA builds use it
 * (gfx/fragment.c); tests/unit/test_gfx.c checks it against the
 * division on numbers built to land near rounding boundaries.
 */
#ifndef GFX_DIVIDE_H
#define GFX_DIVIDE_H

static inline double gfx_div_by_recip(double a, double b, double y)
{
    double q = a * y;
    double r = __builtin_fma(-q, b, a);
    return __builtin_fma(r, y, q);
}

#endif
