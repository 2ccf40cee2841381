/*
 * Per-lane integer micro-operations (docs/COMPUTE.md), included by
 * isa/micro.h: the arithmetic of every instruction isa/ops.def marks I_SRC
 * or I_DST, on raw 32-bit register words.
 *
 * A register component is 32 bits; integer instructions see it as a
 * uint32_t (micro_bits) and write the bits they compute (micro_float), so a
 * float NaN payload passes through MOV.U untouched.  The program's machine
 * word `w` (32, 16 or 8 bits: OPTION USHADER_word16 / word8) bounds every
 * arithmetic result: operands are read as their low w bits, zero-extended
 * (.U) or sign-extended (.S); results are reduced to w bits and stored
 * zero-extended; shift counts are taken modulo w.  With w = 32 every mask
 * below is all ones.
 *
 * Corner cases are defined, never undefined behaviour in C:
 *   - add, subtract, multiply and negate wrap;
 *   - x / 0 = all ones, x mod 0 = x, INT_MIN / -1 = INT_MIN, INT_MIN mod
 *     -1 = 0 (RISC-V unprivileged ISA, M extension, table 7.1);
 *   - shifts by >= w use the count modulo w (RISC-V, D3D11);
 *   - float to integer truncates toward zero, NaN gives 0 and values
 *     beyond the range saturate (D3D10's ftoi / ftou);
 *   - true is all ones (NV_gpu_program4's integer SEQ ... SGE).
 */
#ifndef US_MICRO_INT_H
#define US_MICRO_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ushader.h"

/* ---- Bit views of a register component ------------------------------------ */

static inline uint32_t micro_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float micro_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- The machine word ------------------------------------------------------ */

static inline uint32_t micro_wmask(unsigned w)
{
    return w >= 32 ? 0xffffffffu : (1u << w) - 1u;
}

/* The low w bits, zero-extended (an unsigned operand, or a result). */
static inline uint32_t micro_zx(uint32_t a, unsigned w)
{
    return a & micro_wmask(w);
}

/* The low w bits, sign-extended (a signed operand). */
static inline int64_t micro_sx(uint32_t a, unsigned w)
{
    uint64_t sign = 1ull << (w - 1);
    return (int64_t)((uint64_t)micro_zx(a, w) ^ sign) - (int64_t)sign;
}

/* A result of w bits from any integer (two's complement). */
static inline uint32_t micro_wrap(int64_t v, unsigned w)
{
    return (uint32_t)(uint64_t)v & micro_wmask(w);
}

static inline uint32_t micro_true(unsigned w) { return micro_wmask(w); }

/* ---- Arithmetic -------------------------------------------------------------- */

static inline uint32_t micro_iadd(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(a + b, w);
}

static inline uint32_t micro_isub(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(a - b, w);
}

static inline uint32_t micro_ineg(uint32_t a, unsigned w)
{
    return micro_zx(0u - a, w);
}

static inline uint32_t micro_imul(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(a * b, w);
}

/* The high w bits of the 2w-bit product. */
static inline uint32_t micro_imulhi_u(uint32_t a, uint32_t b, unsigned w)
{
    uint64_t p = (uint64_t)micro_zx(a, w) * micro_zx(b, w);
    return micro_zx((uint32_t)(p >> w), w);
}

static inline uint32_t micro_imulhi_s(uint32_t a, uint32_t b, unsigned w)
{
    uint64_t p = (uint64_t)(micro_sx(a, w) * micro_sx(b, w));
    return micro_zx((uint32_t)(p >> w), w);
}

static inline uint32_t micro_idiv_u(uint32_t a, uint32_t b, unsigned w)
{
    uint32_t x = micro_zx(a, w), y = micro_zx(b, w);
    return y ? x / y : micro_wmask(w);
}

static inline uint32_t micro_imod_u(uint32_t a, uint32_t b, unsigned w)
{
    uint32_t x = micro_zx(a, w), y = micro_zx(b, w);
    return y ? x % y : x;
}

/* In int64 the quotient of INT_MIN / -1 is representable, and wraps to
 * INT_MIN; its remainder is 0. */
static inline uint32_t micro_idiv_s(uint32_t a, uint32_t b, unsigned w)
{
    int64_t x = micro_sx(a, w), y = micro_sx(b, w);
    return y ? micro_wrap(x / y, w) : micro_wmask(w);
}

static inline uint32_t micro_imod_s(uint32_t a, uint32_t b, unsigned w)
{
    int64_t x = micro_sx(a, w), y = micro_sx(b, w);
    return y ? micro_wrap(x % y, w) : micro_zx(a, w);
}

static inline uint32_t micro_imin_u(uint32_t a, uint32_t b, unsigned w)
{
    uint32_t x = micro_zx(a, w), y = micro_zx(b, w);
    return x < y ? x : y;
}

static inline uint32_t micro_imax_u(uint32_t a, uint32_t b, unsigned w)
{
    uint32_t x = micro_zx(a, w), y = micro_zx(b, w);
    return x > y ? x : y;
}

static inline uint32_t micro_imin_s(uint32_t a, uint32_t b, unsigned w)
{
    return micro_sx(a, w) < micro_sx(b, w) ? micro_zx(a, w) : micro_zx(b, w);
}

static inline uint32_t micro_imax_s(uint32_t a, uint32_t b, unsigned w)
{
    return micro_sx(a, w) > micro_sx(b, w) ? micro_zx(a, w) : micro_zx(b, w);
}

/* |INT_MIN| wraps to INT_MIN. */
static inline uint32_t micro_iabs(uint32_t a, unsigned w)
{
    int64_t x = micro_sx(a, w);
    return micro_wrap(x < 0 ? -x : x, w);
}

/* ---- Shifts and bitwise logic ------------------------------------------------ */

static inline uint32_t micro_shl(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(micro_zx(a, w) << (b & (w - 1)), w);
}

static inline uint32_t micro_shr_u(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(a, w) >> (b & (w - 1));
}

/* Arithmetic: the vacated bits copy the sign (written without shifting a
 * negative value, which C leaves to the implementation). */
static inline uint32_t micro_shr_s(uint32_t a, uint32_t b, unsigned w)
{
    unsigned n = b & (w - 1);
    int64_t x = micro_sx(a, w);
    uint64_t u = (uint64_t)x >> n;
    if (x < 0 && n)
        u |= ~(~0ull >> n);
    return micro_wrap((int64_t)u, w);
}

static inline uint32_t micro_and(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(a & b, w);
}

static inline uint32_t micro_or(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(a | b, w);
}

static inline uint32_t micro_xor(uint32_t a, uint32_t b, unsigned w)
{
    return micro_zx(a ^ b, w);
}

static inline uint32_t micro_not(uint32_t a, unsigned w)
{
    return micro_zx(~a, w);
}

/* ---- Comparisons and selection ------------------------------------------------ */

static inline uint32_t micro_iset(bool c, unsigned w)
{
    return c ? micro_true(w) : 0u;
}

static inline uint32_t micro_iseq(uint32_t a, uint32_t b, unsigned w)
{
    return micro_iset(micro_zx(a, w) == micro_zx(b, w), w);
}

static inline uint32_t micro_isne(uint32_t a, uint32_t b, unsigned w)
{
    return micro_iset(micro_zx(a, w) != micro_zx(b, w), w);
}

#define US_MICRO_ICMP(name, op)                                              \
    static inline uint32_t micro_##name##_u(uint32_t a, uint32_t b,          \
                                            unsigned w)                      \
    { return micro_iset(micro_zx(a, w) op micro_zx(b, w), w); }              \
    static inline uint32_t micro_##name##_s(uint32_t a, uint32_t b,          \
                                            unsigned w)                      \
    { return micro_iset(micro_sx(a, w) op micro_sx(b, w), w); }
US_MICRO_ICMP(islt, <)
US_MICRO_ICMP(isle, <=)
US_MICRO_ICMP(isgt, >)
US_MICRO_ICMP(isge, >=)
#undef US_MICRO_ICMP

/* CMP.S: a select on signed integers; the chosen bits are copied. */
static inline uint32_t micro_icmp(uint32_t a, uint32_t b, uint32_t c,
                                  unsigned w)
{
    return micro_sx(a, w) < 0 ? b : c;
}

/* MOV.U: a bit copy (no word reduction: it also moves float bits). */
static inline uint32_t micro_imov(uint32_t a, unsigned w)
{
    (void)w;
    return a;
}

/* ---- Bit fields (GLSL 4.00 section 8.8; NV_gpu_program5 BFE BFI) ------------ */

/* The field [offset, offset + bits) of the word, clipped to it. */
static inline uint32_t micro_field_mask(uint32_t bits, uint32_t offset,
                                        unsigned w, unsigned *off)
{
    if (offset >= w || bits == 0) {
        *off = 0;
        return 0;
    }
    uint32_t n = bits < w - offset ? bits : w - offset;
    *off = offset;
    return (uint32_t)((n >= 32 ? 0xffffffffull : (1ull << n) - 1) << offset);
}

static inline uint32_t micro_bfe_u(uint32_t bits, uint32_t offset,
                                   uint32_t a, unsigned w)
{
    unsigned off;
    uint32_t m = micro_field_mask(bits, offset, w, &off);
    return (micro_zx(a, w) & m) >> off;
}

/* The field sign-extended from its own top bit. */
static inline uint32_t micro_bfe_s(uint32_t bits, uint32_t offset,
                                   uint32_t a, unsigned w)
{
    unsigned off;
    uint32_t m = micro_field_mask(bits, offset, w, &off);
    if (!m)
        return 0;
    uint32_t v = (micro_zx(a, w) & m) >> off;
    unsigned n = (unsigned)__builtin_popcount(m);
    return micro_wrap(micro_sx(v, n), w);
}

static inline uint32_t micro_bfi(uint32_t bits, uint32_t offset,
                                 uint32_t insert, uint32_t base, unsigned w)
{
    unsigned off;
    uint32_t m = micro_field_mask(bits, offset, w, &off);
    return micro_zx((base & ~m) | ((insert << off) & m), w);
}

static inline uint32_t micro_bfr(uint32_t a, unsigned w)
{
    uint32_t r = 0, x = micro_zx(a, w);
    for (unsigned i = 0; i < w; i++)
        r |= ((x >> i) & 1u) << (w - 1 - i);
    return r;
}

static inline uint32_t micro_btc(uint32_t a, unsigned w)
{
    return (uint32_t)__builtin_popcount(micro_zx(a, w));
}

/* findLSB: -1 (all ones) for 0. */
static inline uint32_t micro_btfl(uint32_t a, unsigned w)
{
    uint32_t x = micro_zx(a, w);
    return x ? (uint32_t)__builtin_ctz(x) : micro_true(w);
}

static inline uint32_t micro_btfm_u(uint32_t a, unsigned w)
{
    uint32_t x = micro_zx(a, w);
    return x ? (uint32_t)(31 - __builtin_clz(x)) : micro_true(w);
}

/* findMSB of a signed value: of a negative one, the highest 0 bit. */
static inline uint32_t micro_btfm_s(uint32_t a, unsigned w)
{
    uint32_t x = micro_zx(a, w);
    return micro_btfm_u(micro_sx(a, w) < 0 ? micro_zx(~x, w) : x, w);
}

/* ---- Conversions ---------------------------------------------------------------- */

/* int64 to binary32 rounds to nearest even (FLT_ROUNDS 1, as every float
 * operation here assumes). */
static inline uint32_t micro_i2f_s(uint32_t a, unsigned w)
{
    return micro_bits((float)micro_sx(a, w));
}

static inline uint32_t micro_i2f_u(uint32_t a, unsigned w)
{
    return micro_bits((float)micro_zx(a, w));
}

static inline uint32_t micro_trunc_s(uint32_t f, unsigned w)
{
    float x = micro_float(f);
    double lim = (double)(1ull << (w - 1));
    if (x != x)
        return 0;
    if ((double)x >= lim)
        return micro_zx((uint32_t)((1ull << (w - 1)) - 1), w);
    if ((double)x < -lim)
        return micro_wrap(-(int64_t)(1ull << (w - 1)), w);
    return micro_wrap((int64_t)x, w);
}

static inline uint32_t micro_trunc_u(uint32_t f, unsigned w)
{
    float x = micro_float(f);
    if (x != x || x <= 0.0f)
        return 0;
    if ((double)x >= (double)(1ull << w))
        return micro_wmask(w);
    return micro_zx((uint32_t)(uint64_t)x, w);
}

/* ---- Branch conditions (BRA.C.T) ------------------------------------------------- */

static inline bool micro_cond(enum us_cond c, uint32_t a, uint32_t b,
                              unsigned w)
{
    switch (c) {
    case US_COND_ALWAYS: return true;
    case US_COND_EQ: return micro_zx(a, w) == micro_zx(b, w);
    case US_COND_NE: return micro_zx(a, w) != micro_zx(b, w);
    case US_COND_LT_S: return micro_sx(a, w) < micro_sx(b, w);
    case US_COND_LE_S: return micro_sx(a, w) <= micro_sx(b, w);
    case US_COND_GT_S: return micro_sx(a, w) > micro_sx(b, w);
    case US_COND_GE_S: return micro_sx(a, w) >= micro_sx(b, w);
    case US_COND_LT_U: return micro_zx(a, w) < micro_zx(b, w);
    case US_COND_LE_U: return micro_zx(a, w) <= micro_zx(b, w);
    case US_COND_GT_U: return micro_zx(a, w) > micro_zx(b, w);
    case US_COND_GE_U: return micro_zx(a, w) >= micro_zx(b, w);
    case US_COND_COUNT: break;
    }
    return false;
}

#endif
