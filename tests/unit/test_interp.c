/*
 * The reference interpreter and the micro-operations: per-opcode semantics
 * (ARB_vertex_program 2.14.5, ARB_fragment_program 3.11.5-3.11.6) with
 * special values, the generic operand path (swizzle, SWZ selectors,
 * negation, write mask, saturation, relative addressing), XPD aliasing,
 * KIL, the texture instructions and the 2x2 quad entry point.  Programs are
 * built as IR directly, so the tests depend on nothing but the interpreter.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ushader.h"
#include "isa/micro.h"

#include "check_main.h"

/* ---- Building IR by hand ---------------------------------------------- */

static struct us_src reg(enum us_file file, unsigned index)
{
    struct us_src s = { .file = (uint8_t)file, .index = (uint16_t)index,
                        .swz = { US_SWZ_X, US_SWZ_Y, US_SWZ_Z, US_SWZ_W } };
    return s;
}

/* Selectors from "xyzw01", as SWZ writes them. */
static struct us_src swz(struct us_src s, const char *sel)
{
    static const char names[] = "xyzw01";
    for (int c = 0; c < 4; c++)
        s.swz[c] = (uint8_t)(strchr(names, sel[c]) - names);
    return s;
}

static struct us_src neg(struct us_src s, unsigned mask)
{
    s.negate = (uint8_t)mask;
    return s;
}

static struct us_src P(unsigned i) { return reg(US_FILE_PARAM, i); }
static struct us_src T(unsigned i) { return reg(US_FILE_TEMP, i); }

static struct us_inst inst(enum us_opcode op, enum us_file file,
                           unsigned index, unsigned mask, struct us_src a,
                           struct us_src b, struct us_src c)
{
    struct us_inst in = { .op = (uint8_t)op,
                          .dst = { (uint8_t)file, (uint8_t)mask,
                                   (uint16_t)index },
                          .src = { a, b, c } };
    return in;
}

static void run(struct us_inst *insts, unsigned n, const us_vec4 *params,
                struct us_thread *t)
{
    struct us_program prog = { .stage = US_STAGE_FRAGMENT, .insts = insts,
                               .ninsts = n };
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    us_interpret(&prog, &env, t);
}

/* OP temp[0], param[0], param[1], param[2] on a fresh thread; temp[0]
 * starts as (7, 7, 7, 7) so unwritten components show. */
static void op3(enum us_opcode op, const float a[4], const float b[4],
                const float c[4], float out[4])
{
    us_vec4 params[3];
    memcpy(params[0], a, sizeof params[0]);
    memcpy(params[1], b ? b : a, sizeof params[1]);
    memcpy(params[2], c ? c : a, sizeof params[2]);
    struct us_thread t;
    us_thread_reset(&t);
    for (int i = 0; i < 4; i++)
        t.temp[0][i] = 7.0f;
    struct us_inst in = inst(op, US_FILE_TEMP, 0, 0xf, P(0), P(1), P(2));
    run(&in, 1, params, &t);
    memcpy(out, t.temp[0], 4 * sizeof(float));
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Bit-exact, except that any NaN matches any NaN. */
static bool same(float a, float b)
{
    return (isnan(a) && isnan(b)) || bits(a) == bits(b);
}

#define ASSERT_VEC(got, x, y, z, w)                                          \
    do {                                                                     \
        const float want_[4] = { x, y, z, w };                               \
        for (int c_ = 0; c_ < 4; c_++)                                       \
            ck_assert_msg(same((got)[c_], want_[c_]),                        \
                          "component %d: got %a, want %a", c_,               \
                          (double)(got)[c_], (double)want_[c_]);             \
    } while (0)

#define V(...) ((const float[4]){ __VA_ARGS__ })

/* ---- Arithmetic rules --------------------------------------------------- */

/* (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rounded first, minus 1 + 2^-22 is 0;
 * a fused multiply-add would give 2^-46. */
START_TEST(mad_is_unfused)
{
    float a = 1.0f + 0x1p-23f, c = -(1.0f + 0x1p-22f), r[4];
    ck_assert_uint_eq(bits(micro_mad(a, a, c)), bits(0.0f));
    op3(US_OP_MAD, V(a, a, a, a), V(a, 1, 1, 1), V(c, 0, 0, 0), r);
    ck_assert_uint_eq(bits(r[0]), bits(0.0f));
}
END_TEST

START_TEST(component_ops)
{
    float r[4];
    op3(US_OP_ADD, V(1, -0.0f, INFINITY, 0x1p-149f),
        V(2, -0.0f, -INFINITY, 0x1p-149f), NULL, r);
    ASSERT_VEC(r, 3, -0.0f, NAN, 0x1p-148f);
    op3(US_OP_SUB, V(1, 0, 5, -0.0f), V(2, 0, 5, 0), NULL, r);
    ASSERT_VEC(r, -1, 0, 0, -0.0f);
    op3(US_OP_MUL, V(-0.0f, 3, INFINITY, 0x1p-100f), V(5, -2, 0, 0x1p-100f),
        NULL, r);
    ASSERT_VEC(r, -0.0f, -6, NAN, 0);
    op3(US_OP_ABS, V(-0.0f, -2, -INFINITY, 3), NULL, NULL, r);
    ASSERT_VEC(r, 0, 2, INFINITY, 3);
    op3(US_OP_MOV, V(1, -0.0f, NAN, 0x1p-149f), NULL, NULL, r);
    ASSERT_VEC(r, 1, -0.0f, NAN, 0x1p-149f);
}
END_TEST

START_TEST(floor_and_fraction)
{
    float r[4];
    op3(US_OP_FLR, V(2.3f, -3.6f, -0.0f, -0x1p-149f), NULL, NULL, r);
    ASSERT_VEC(r, 2, -4, -0.0f, -1);
    op3(US_OP_FRC, V(-1.7f, 2.25f, -0x1p-30f, INFINITY), NULL, NULL, r);
    /* -1.7 - floor(-1.7) = 0.3 (rounded); tiny negatives stay below 1 */
    ASSERT_VEC(r, -1.7f + 2.0f, 0.25f, 0x1.fffffep-1f, NAN);
    op3(US_OP_FRC, V(-3.0f, -0.0f, NAN, 1e30f), NULL, NULL, r);
    ASSERT_VEC(r, 0, 0, NAN, 0);
}
END_TEST

START_TEST(min_max_follow_pseudocode)
{
    float r[4];
    op3(US_OP_MAX, V(NAN, 1, -0.0f, 0), V(1, NAN, 0, -0.0f), NULL, r);
    ASSERT_VEC(r, 1, NAN, 0, -0.0f);
    op3(US_OP_MIN, V(NAN, 1, -0.0f, 0), V(1, NAN, 0, -0.0f), NULL, r);
    ASSERT_VEC(r, NAN, 1, -0.0f, 0);
}
END_TEST

START_TEST(set_and_compare)
{
    float r[4];
    op3(US_OP_SGE, V(1, 1, NAN, -0.0f), V(1, 2, 0, 0), NULL, r);
    ASSERT_VEC(r, 1, 0, 0, 1);
    op3(US_OP_SLT, V(1, 1, NAN, -0.0f), V(1, 2, 0, 0), NULL, r);
    ASSERT_VEC(r, 0, 1, 0, 0);
    op3(US_OP_CMP, V(-1, 0, -0.0f, NAN), V(10, 10, 10, 10),
        V(20, 20, 20, 20), r);
    ASSERT_VEC(r, 10, 20, 20, 20);
}
END_TEST

START_TEST(lrp_formula)
{
    float r[4];
    op3(US_OP_LRP, V(0.25f, 0, 1, 0.5f), V(4, 3, 3, INFINITY),
        V(8, 5, 5, 1), r);
    ASSERT_VEC(r, 7, 5, 3, INFINITY);
    /* a*b + (1-a)*c, each step rounded: a = 0.1 */
    float a = 0.1f, b = 3.0f, c = 7.0f;
    float p = a * b, q = (1.0f - a) * c;
    op3(US_OP_LRP, V(a, a, a, a), V(b, b, b, b), V(c, c, c, c), r);
    ck_assert_uint_eq(bits(r[0]), bits(p + q));
}
END_TEST

/* ((1e8 * 1) + 1) + (-1e8) accumulates left to right: 1e8 + 1 rounds to
 * 1e8, so the sum is 0 (another order would give 1). */
START_TEST(dot_products_accumulate_in_order)
{
    float r[4];
    op3(US_OP_DP3, V(1e8f, 1, -1e8f, 100), V(1, 1, 1, 1), NULL, r);
    ASSERT_VEC(r, 0, 0, 0, 0);
    op3(US_OP_DP4, V(1, 2, 3, 4), V(5, 6, 7, 8), NULL, r);
    ASSERT_VEC(r, 70, 70, 70, 70);
    op3(US_OP_DPH, V(1, 2, 3, 1000), V(5, 6, 7, 8), NULL, r);
    ASSERT_VEC(r, 46, 46, 46, 46);
    op3(US_OP_DP4, V(1e8f, 1, -1e8f, 1), V(1, 1, 1, 1), NULL, r);
    ASSERT_VEC(r, 1, 1, 1, 1);
}
END_TEST

/* ---- Elementary functions ---------------------------------------------- */

START_TEST(reciprocals)
{
    float r[4];
    op3(US_OP_RCP, V(0, 9, 9, 9), NULL, NULL, r);
    ASSERT_VEC(r, INFINITY, INFINITY, INFINITY, INFINITY);
    op3(US_OP_RCP, V(-0.0f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, -INFINITY, -INFINITY, -INFINITY, -INFINITY);
    op3(US_OP_RCP, V(1, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 1, 1, 1, 1);
    op3(US_OP_RCP, V(0x1p-149f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, INFINITY, INFINITY, INFINITY, INFINITY);
    /* RSQ takes |x| (2.14.5.22) */
    op3(US_OP_RSQ, V(-4, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 0.5f, 0.5f, 0.5f, 0.5f);
    op3(US_OP_RSQ, V(-0.0f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, INFINITY, INFINITY, INFINITY, INFINITY);
    op3(US_OP_RSQ, V(-INFINITY, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 0, 0, 0, 0);
}
END_TEST

START_TEST(exp_log_pow)
{
    float r[4];
    op3(US_OP_EX2, V(3, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 8, 8, 8, 8);
    op3(US_OP_EX2, V(-149, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 0x1p-149f, 0x1p-149f, 0x1p-149f, 0x1p-149f);
    op3(US_OP_EX2, V(-INFINITY, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 0, 0, 0, 0);
    op3(US_OP_EX2, V(200, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, INFINITY, INFINITY, INFINITY, INFINITY);
    op3(US_OP_LG2, V(0x1p-149f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, -149, -149, -149, -149);
    /* LG2 does not take |x|: 0 and negatives follow IEEE log2 */
    op3(US_OP_LG2, V(0, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, -INFINITY, -INFINITY, -INFINITY, -INFINITY);
    op3(US_OP_LG2, V(-8, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, NAN, NAN, NAN, NAN);
    op3(US_OP_POW, V(2, 0, 0, 0), V(10, 0, 0, 0), NULL, r);
    ASSERT_VEC(r, 1024, 1024, 1024, 1024);
    op3(US_OP_POW, V(0, 0, 0, 0), V(0, 0, 0, 0), NULL, r);
    ASSERT_VEC(r, 1, 1, 1, 1);
    op3(US_OP_POW, V(-2, 0, 0, 0), V(3, 0, 0, 0), NULL, r);
    ASSERT_VEC(r, -8, -8, -8, -8);
    op3(US_OP_POW, V(0, 0, 0, 0), V(-1, 0, 0, 0), NULL, r);
    ASSERT_VEC(r, INFINITY, INFINITY, INFINITY, INFINITY);
}
END_TEST

START_TEST(trigonometry)
{
    float r[4];
    op3(US_OP_SIN, V(-0.0f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, -0.0f, -0.0f, -0.0f, -0.0f);
    op3(US_OP_COS, V(0, 5, 5, 5), NULL, NULL, r);
    ASSERT_VEC(r, 1, 1, 1, 1);
    op3(US_OP_SIN, V(INFINITY, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, NAN, NAN, NAN, NAN);
    float s = us_math_exact.sin(NULL, 1e6f), c = us_math_exact.cos(NULL, 1e6f);
    op3(US_OP_SCS, V(1e6f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, c, s, 7, 7);  /* .z .w undefined in 3.11.5.23: unwritten */
}
END_TEST

/* REPL operands use the swizzled .x: RCP r0, p.y; POW r0, p.z, q.w. */
START_TEST(scalar_operand_selection)
{
    us_vec4 p[2] = { { 1, 4, 2, 8 }, { 0, 0, 0, 3 } };
    struct us_thread t;
    us_thread_reset(&t);
    struct us_inst in[2] = {
        inst(US_OP_RCP, US_FILE_TEMP, 0, 0xf, swz(P(0), "yyyy"), P(0), P(0)),
        inst(US_OP_POW, US_FILE_TEMP, 1, 0xf, neg(swz(P(0), "zzzz"), 0xf),
             swz(P(1), "wwww"), P(0)),
    };
    run(in, 2, p, &t);
    ASSERT_VEC(t.temp[0], 0.25f, 0.25f, 0.25f, 0.25f);
    ASSERT_VEC(t.temp[1], -8, -8, -8, -8);
}
END_TEST

/* ---- MIXED instructions ------------------------------------------------ */

START_TEST(lit_clamps)
{
    float r[4];
    op3(US_OP_LIT, V(-1, 0.5f, 0, 2), NULL, NULL, r);
    ASSERT_VEC(r, 1, 0, 0, 1);
    op3(US_OP_LIT, V(0.5f, 0.5f, 9, 2), NULL, NULL, r);
    ASSERT_VEC(r, 1, 0.5f, 0.25f, 1);
    op3(US_OP_LIT, V(1, 0, 9, 0), NULL, NULL, r);  /* 0^0 = 1 */
    ASSERT_VEC(r, 1, 1, 1, 1);
    op3(US_OP_LIT, V(1, -3, 9, 2), NULL, NULL, r);  /* y clamped to 0 */
    ASSERT_VEC(r, 1, 1, 0, 1);
    op3(US_OP_LIT, V(-0.0f, 0.5f, 0, 2), NULL, NULL, r);
    ASSERT_VEC(r, 1, -0.0f, 0, 1);
    /* the exponent stays inside (-128, 128): 2^128 would overflow */
    float lim = 0x1.fffffep+6f;
    float up = us_math_exact.pow(NULL, 2.0f, lim);
    float down = us_math_exact.pow(NULL, 0.5f, -lim);
    ck_assert(isfinite(up));
    op3(US_OP_LIT, V(1, 2, 0, 1000), NULL, NULL, r);
    ASSERT_VEC(r, 1, 1, up, 1);
    op3(US_OP_LIT, V(1, 0.5f, 0, -INFINITY), NULL, NULL, r);
    ASSERT_VEC(r, 1, 1, down, 1);
}
END_TEST

START_TEST(dst_exp_log)
{
    float r[4];
    op3(US_OP_DST, V(9, 4, 16, 9), V(9, 0.5f, 9, 0.25f), NULL, r);
    ASSERT_VEC(r, 1, 2, 16, 0.25f);
    op3(US_OP_EXP, V(2.5f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 4, 0.5f, us_math_exact.ex2(NULL, 2.5f), 1);
    op3(US_OP_EXP, V(-1.5f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 0.25f, 0.5f, us_math_exact.ex2(NULL, -1.5f), 1);
    op3(US_OP_EXP, V(-149.5f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 0, 0.5f, us_math_exact.ex2(NULL, -149.5f), 1);
    op3(US_OP_EXP, V(128, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, INFINITY, 0, INFINITY, 1);
    /* LOG takes |x| (2.14.5.14) */
    op3(US_OP_LOG, V(-8, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 3, 1, 3, 1);
    op3(US_OP_LOG, V(6, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, 2, 1.5f, us_math_exact.lg2(NULL, 6), 1);
    op3(US_OP_LOG, V(3 * 0x1p-149f, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, -148, 1.5f, us_math_exact.lg2(NULL, 3 * 0x1p-149f), 1);
    op3(US_OP_LOG, V(0, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, -INFINITY, NAN, -INFINITY, 1);
    op3(US_OP_LOG, V(-INFINITY, 0, 0, 0), NULL, NULL, r);
    ASSERT_VEC(r, INFINITY, NAN, INFINITY, 1);
}
END_TEST

START_TEST(xpd_and_aliasing)
{
    float r[4];
    op3(US_OP_XPD, V(1, 0, 0, 5), V(0, 1, 0, 5), NULL, r);
    ASSERT_VEC(r, 0, 0, 1, 7);  /* .w undefined in 2.14.5.27: unwritten */
    /* XPD r0, r0, r1: every source is read before r0 is written */
    us_vec4 none[1] = { { 0 } };
    struct us_thread t;
    us_thread_reset(&t);
    memcpy(t.temp[0], V(1, 2, 3, 9), sizeof t.temp[0]);
    memcpy(t.temp[1], V(4, 5, 6, 9), sizeof t.temp[1]);
    struct us_inst in = inst(US_OP_XPD, US_FILE_TEMP, 0, 0xf, T(0), T(1), T(0));
    run(&in, 1, none, &t);
    ASSERT_VEC(t.temp[0], -3, 6, -3, 9);
    /* and the other way round, with a swizzled alias */
    memcpy(t.temp[0], V(1, 2, 3, 9), sizeof t.temp[0]);
    in = inst(US_OP_XPD, US_FILE_TEMP, 0, 0x7, T(1), swz(T(0), "xyzw"), T(0));
    run(&in, 1, none, &t);
    ASSERT_VEC(t.temp[0], 3, -6, 3, 9);
}
END_TEST

/* ---- The operand path ---------------------------------------------------- */

START_TEST(swizzle_negate_mask_saturate)
{
    us_vec4 p[1] = { { 1, 2, 3, 4 } };
    struct us_thread t;
    us_thread_reset(&t);
    struct us_inst in[5] = {
        inst(US_OP_MOV, US_FILE_TEMP, 0, 0xf, neg(swz(P(0), "wzyx"), 0x5),
             P(0), P(0)),
        inst(US_OP_SWZ, US_FILE_TEMP, 1, 0xf, neg(swz(P(0), "01yx"), 0x3),
             P(0), P(0)),
        inst(US_OP_MOV, US_FILE_TEMP, 2, 0x5, P(0), P(0), P(0)),
        inst(US_OP_SUB, US_FILE_TEMP, 3, 0xf, swz(P(0), "xxyz"),
             swz(P(0), "yyyy"), P(0)),
        inst(US_OP_MOV, US_FILE_OUTPUT, US_FOUT_COLOR, 0x8, P(0), P(0), P(0)),
    };
    in[3].sat = true;
    run(in, 5, p, &t);
    ASSERT_VEC(t.temp[0], -4, 3, -2, 1);
    ASSERT_VEC(t.temp[1], -0.0f, -1, 2, 1);
    ASSERT_VEC(t.temp[2], 1, 0, 3, 0);
    ASSERT_VEC(t.temp[3], 0, 0, 0, 1);  /* -1 -1 0 1 saturated */
    ASSERT_VEC(t.output[US_FOUT_COLOR], 0, 0, 0, 4);
}
END_TEST

START_TEST(saturate_special_values)
{
    us_vec4 p[1] = { { NAN, -0.0f, INFINITY, 0x1p-149f } };
    struct us_thread t;
    us_thread_reset(&t);
    struct us_inst in = inst(US_OP_MOV, US_FILE_TEMP, 0, 0xf, P(0), P(0), P(0));
    in.sat = true;
    run(&in, 1, p, &t);
    ASSERT_VEC(t.temp[0], 0, 0, 1, 0x1p-149f);  /* NaN -> 0, -0 -> +0 */
}
END_TEST

static struct us_src rel(unsigned base, int offset, unsigned size)
{
    struct us_src s = P(base);
    s.rel = true;
    s.rel_offset = (int16_t)offset;
    s.rel_size = (uint16_t)size;
    return s;
}

/* params[1..4] is the array; params[0] and [5] guard it. */
START_TEST(relative_addressing)
{
    us_vec4 p[7] = { { 9, 9, 9, 9 }, { 10, 0, 0, 0 }, { 11, 0, 0, 0 },
                     { 12, 0, 0, 0 }, { 13, 0, 0, 0 }, { 9, 9, 9, 9 },
                     { 0, 0, 0, 0 } };
    const float a_values[] = { 1.7f, -1.5f, 2.0f, 3.0f, -0.5f, NAN, 1e20f };
    const float want[] = { 12, 0, 13, 0, 10, 11, 0 };
    for (unsigned k = 0; k < sizeof want / sizeof want[0]; k++) {
        p[6][0] = a_values[k];
        struct us_thread t;
        us_thread_reset(&t);
        struct us_inst in[2] = {
            inst(US_OP_ARL, US_FILE_ADDRESS, 0, 0x1, P(6), P(0), P(0)),
            inst(US_OP_MOV, US_FILE_TEMP, 0, 0xf, rel(1, 1, 4), P(0), P(0)),
        };
        run(in, 2, p, &t);
        ck_assert_msg(same(t.temp[0][0], want[k]), "A0 = floor(%g): got %g",
                      (double)a_values[k], (double)t.temp[0][0]);
    }
    ck_assert_int_eq(micro_arl(-1.5f), -2);
    ck_assert_int_eq(micro_arl(-0.0f), 0);
    ck_assert_int_eq(micro_arl(1e20f), INT32_MAX);
    ck_assert_int_eq(micro_arl(-INFINITY), INT32_MIN);
    ck_assert_int_eq(micro_arl(NAN), 0);
}
END_TEST

START_TEST(kil_marks_and_continues)
{
    const float cases[][4] = { { 1, 1, 1, 1 }, { 1, -0.0f, NAN, 0 },
                               { 1, 1, 1, -0x1p-149f }, { -1, 0, 0, 0 } };
    const bool killed[] = { false, false, true, true };
    for (int k = 0; k < 4; k++) {
        us_vec4 p[1];
        memcpy(p[0], cases[k], sizeof p[0]);
        struct us_thread t;
        us_thread_reset(&t);
        struct us_inst in[2] = {
            inst(US_OP_KIL, US_FILE_NULL, 0, 0, P(0), P(0), P(0)),
            inst(US_OP_MOV, US_FILE_OUTPUT, US_FOUT_COLOR, 0xf,
                 swz(P(0), "1111"), P(0), P(0)),
        };
        run(in, 2, p, &t);
        ck_assert_int_eq(t.killed, killed[k]);
        ASSERT_VEC(t.output[US_FOUT_COLOR], 1, 1, 1, 1);
    }
}
END_TEST

START_TEST(thread_reset)
{
    struct us_thread t;
    memset(&t, 0x55, sizeof t);
    us_thread_reset(&t);
    ASSERT_VEC(t.temp[US_MAX_TEMPS - 1], 0, 0, 0, 0);
    ASSERT_VEC(t.input[US_VIN_POSITION], 0, 0, 0, 1);
    ASSERT_VEC(t.output[US_VOUT_TEXCOORD0], 0, 0, 0, 0);
    ck_assert_int_eq(t.addr[0][0], 0);
    ck_assert(!t.killed);
}
END_TEST

/* ---- Texture instructions ------------------------------------------------ */

struct sample_log {
    unsigned calls, unit;
    enum us_tex_target target;
    float coord[4][4], bias[4];
};

static void record(void *ctx, unsigned unit, enum us_tex_target target,
                   const float coord[4], float lod_bias, float out[4])
{
    struct sample_log *log = ctx;
    memcpy(log->coord[0], coord, sizeof log->coord[0]);
    log->bias[0] = lod_bias;
    log->unit = unit;
    log->target = target;
    log->calls++;
    for (int c = 0; c < 4; c++)
        out[c] = coord[c] * 2.0f;
}

static void tex_case(enum us_opcode op, struct sample_log *log, float out[4],
                     bool with_sampler)
{
    us_vec4 p[1] = { { 1, -2, 3, 4 } };
    struct us_thread t;
    us_thread_reset(&t);
    struct us_inst in = inst(op, US_FILE_TEMP, 0, 0xf, P(0), P(0), P(0));
    in.tex_unit = 3;
    in.tex_target = US_TEX_CUBE;
    in.sat = op == US_OP_TXB;
    struct us_program prog = { .stage = US_STAGE_FRAGMENT, .insts = &in,
                               .ninsts = 1 };
    struct us_exec_env env = { .params = p, .math = &us_math_exact,
                               .sample = with_sampler ? record : NULL,
                               .sample_ctx = log };
    memset(log, 0, sizeof *log);
    us_interpret(&prog, &env, &t);
    memcpy(out, t.temp[0], 4 * sizeof(float));
}

START_TEST(texture_instructions)
{
    struct sample_log log;
    float r[4];
    tex_case(US_OP_TEX, &log, r, false);
    ASSERT_VEC(r, 0, 0, 0, 1);
    tex_case(US_OP_TEX, &log, r, true);
    ck_assert_uint_eq(log.calls, 1);
    ck_assert_uint_eq(log.unit, 3);
    ck_assert_int_eq(log.target, US_TEX_CUBE);
    ASSERT_VEC(log.coord[0], 1, -2, 3, 4);
    ck_assert_float_eq(log.bias[0], 0);
    ASSERT_VEC(r, 2, -4, 6, 8);
    tex_case(US_OP_TXP, &log, r, true);
    ASSERT_VEC(log.coord[0], 0.25f, -0.5f, 0.75f, 4);
    ck_assert_float_eq(log.bias[0], 0);
    tex_case(US_OP_TXB, &log, r, true);
    ASSERT_VEC(log.coord[0], 1, -2, 3, 4);
    ck_assert_float_eq(log.bias[0], 4);
    ASSERT_VEC(r, 1, 0, 1, 1);  /* TXB_SAT */
}
END_TEST

static void record_quad(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4][4], const float lod_bias[4],
                        float out[4][4])
{
    struct sample_log *log = ctx;
    memcpy(log->coord, coord, sizeof log->coord);
    memcpy(log->bias, lod_bias, sizeof log->bias);
    log->unit = unit;
    log->target = target;
    log->calls++;
    for (int q = 0; q < 4; q++)
        for (int c = 0; c < 4; c++)
            out[q][c] = coord[q][c] + 100.0f;
}

/* Four threads in lockstep: each computes from its own input, and the
 * texture lookup sees all four coordinates in one call. */
START_TEST(quad_lockstep)
{
    us_vec4 p[1] = { { 0.5f, 0, 0, 0 } };
    struct us_thread t[4];
    for (int q = 0; q < 4; q++) {
        us_thread_reset(&t[q]);
        t[q].input[US_FIN_TEXCOORD0][0] = (float)q;
        t[q].input[US_FIN_TEXCOORD0][3] = 2.0f;
    }
    struct us_inst in[3] = {
        inst(US_OP_MUL, US_FILE_TEMP, 0, 0xf, reg(US_FILE_INPUT, US_FIN_TEXCOORD0),
             swz(P(0), "xxx1"), P(0)),
        inst(US_OP_TXP, US_FILE_TEMP, 1, 0xf, T(0), P(0), P(0)),
        inst(US_OP_KIL, US_FILE_NULL, 0, 0, neg(T(0), 0x1), P(0), P(0)),
    };
    struct us_program prog = { .stage = US_STAGE_FRAGMENT, .insts = in,
                               .ninsts = 3 };
    struct sample_log log = { 0 };
    struct us_exec_env env = { .params = p, .math = &us_math_exact,
                               .sample_quad = record_quad,
                               .sample_ctx = &log };
    us_interpret_quad(&prog, &env, t);
    ck_assert_uint_eq(log.calls, 1);
    for (int q = 0; q < 4; q++) {
        ck_assert_float_eq(log.coord[q][0], (float)q * 0.25f);
        ck_assert_float_eq(t[q].temp[1][0], (float)q * 0.25f + 100.0f);
        ck_assert_int_eq(t[q].killed, q > 0);
    }
    /* without sample_quad, the per-thread sampler; without both, (0,0,0,1) */
    env.sample_quad = NULL;
    env.sample = record;
    log.calls = 0;
    us_interpret_quad(&prog, &env, t);
    ck_assert_uint_eq(log.calls, 4);
    env.sample = NULL;
    us_interpret_quad(&prog, &env, t);
    ASSERT_VEC(t[2].temp[1], 0, 0, 0, 1);
}
END_TEST

/* DDX DDY across a quad (lanes 0 top-left, 1 top-right, 2 bottom-left, 3
 * bottom-right): coarse from the top row and the left column for every
 * lane, fine from the lane's own row and column; a lone thread's are 0. */
START_TEST(quad_derivatives)
{
    /* v = x + 10 y + 100 y x: the row and the column matter */
    static const float x[4] = { 0, 1, 0, 1 }, y[4] = { 1, 1, 0, 0 };
    struct us_thread t[4];
    for (int q = 0; q < 4; q++) {
        us_thread_reset(&t[q]);
        float v = x[q] + 10.0f * y[q] + 100.0f * x[q] * y[q];
        t[q].input[US_FIN_TEXCOORD0][0] = v;
        t[q].input[US_FIN_TEXCOORD0][1] = -v;
        t[q].input[US_FIN_TEXCOORD0][2] = 2.0f * v;
        t[q].input[US_FIN_TEXCOORD0][3] = 7.0f;
    }
    struct us_src in0 = reg(US_FILE_INPUT, US_FIN_TEXCOORD0);
    struct us_inst in[4] = {
        inst(US_OP_DDX, US_FILE_TEMP, 0, 0xf, in0, P(0), P(0)),
        inst(US_OP_DDY, US_FILE_TEMP, 1, 0xf, in0, P(0), P(0)),
        inst(US_OP_DDX_FINE, US_FILE_TEMP, 2, 0xf, in0, P(0), P(0)),
        inst(US_OP_DDY_FINE, US_FILE_TEMP, 3, 0xf, in0, P(0), P(0)),
    };
    us_vec4 p[1] = { { 0, 0, 0, 0 } };
    struct us_program prog = { .stage = US_STAGE_FRAGMENT, .insts = in,
                               .ninsts = 4 };
    struct us_exec_env env = { .params = p, .math = &us_math_exact };
    us_interpret_quad(&prog, &env, t);
    /* top row: x 0 -> 1 at y = 1 adds 101; bottom row adds 1; left column:
     * y 0 -> 1 at x = 0 adds 10; right column adds 110 */
    static const float fdx[4] = { 101, 101, 1, 1 }, fdy[4] = { 10, 110, 10, 110 };
    for (int q = 0; q < 4; q++) {
        ASSERT_VEC(t[q].temp[0], 101, -101, 202, 0);
        ASSERT_VEC(t[q].temp[1], 10, -10, 20, 0);
        ASSERT_VEC(t[q].temp[2], fdx[q], -fdx[q], 2 * fdx[q], 0);
        ASSERT_VEC(t[q].temp[3], fdy[q], -fdy[q], 2 * fdy[q], 0);
    }
    us_interpret(&prog, &env, &t[1]);
    for (int r = 0; r < 4; r++)
        ASSERT_VEC(t[1].temp[r], 0, 0, 0, 0);
}
END_TEST

/* ---- Through the assembler ---------------------------------------------- */

/* Assemble, resolve parameters against OpenGL's initial state (env[0] set
 * to `env0`), run one thread with vertex.position / fragment.texcoord[0] =
 * `in`. */
static void run_text(const char *text, const float env0[4], const float in[4],
                     struct us_thread *t)
{
    struct us_program prog;
    struct us_diag d;
    bool ok = us_assemble(text, strlen(text), US_STAGE_ANY, &prog, &d);
    ck_assert_msg(ok, "%u:%u: %s", d.line, d.col, d.msg);
    struct us_glstate gl;
    us_glstate_init(&gl);
    memcpy(gl.env[prog.stage][0], env0, sizeof gl.env[0][0]);
    us_vec4 params[64];
    ck_assert_uint_le(prog.nparams, 64);
    us_resolve_params(&prog, &gl, params);
    us_thread_reset(t);
    memcpy(t->input[prog.stage == US_STAGE_VERTEX ? US_VIN_POSITION
                                                  : US_FIN_TEXCOORD0],
           in, 4 * sizeof(float));
    struct us_exec_env env = { .params = params, .math = &us_math_exact };
    us_interpret(&prog, &env, t);
    us_program_free(&prog);
}

START_TEST(assembled_vertex_program)
{
    struct us_thread t;
    run_text("!!ARBvp1.0\n"
             "PARAM arr[3] = { {1, 2, 3, 4}, {5, 6, 7, 8}, program.env[0] };\n"
             "ADDRESS a;\n"
             "TEMP r;\n"
             "ARL a.x, vertex.position.y;\n"
             "MOV result.texcoord[0], arr[a.x + 1];\n"
             "MOV result.texcoord[1], arr[a.x - 2];\n"
             "MOV r, vertex.position;\n"
             "XPD r.xyz, r.zxyw, r;\n"
             "MOV result.color, r;\n"
             "SWZ result.texcoord[2], vertex.position, -0, 1, -y, x;\n"
             "DPH result.position, vertex.position, arr[1];\n"
             "END\n",
             V(9, 10, 11, 12), V(1, 1.5f, -2, 1), &t);
    /* a.x = floor(1.5) = 1: arr[2] = env[0]; arr[-1] is out of range */
    ASSERT_VEC(t.output[US_VOUT_TEXCOORD0], 9, 10, 11, 12);
    ASSERT_VEC(t.output[US_VOUT_TEXCOORD0 + 1], 0, 0, 0, 0);
    /* (-2, 1, 1.5) x (1, 1.5, -2) */
    ASSERT_VEC(t.output[US_VOUT_COLOR0], -2 - 2.25f, 1.5f - 4, -3 - 1, 1);
    ASSERT_VEC(t.output[US_VOUT_TEXCOORD0 + 2], -0.0f, 1, -1.5f, 1);
    float dph = 5 + 1.5f * 6 - 2 * 7 + 8;
    ASSERT_VEC(t.output[US_VOUT_POSITION], dph, dph, dph, dph);
}
END_TEST

START_TEST(assembled_fragment_program)
{
    struct us_thread t;
    run_text("!!ARBfp1.0\n"
             "TEMP r;\n"
             "LRP r, fragment.texcoord[0].x, program.env[0], {0, 0, 0, 1};\n"
             "KIL -fragment.texcoord[0].y;\n"
             "MAD_SAT result.color, r, 2, -0.5;\n"
             "TXP result.depth, fragment.texcoord[0], texture[0], 2D;\n"
             "END\n",
             V(0.5f, 1, 0.25f, 2), V(0.25f, 2, 0, 1), &t);
    /* r = 0.25 * env0 + 0.75 * (0,0,0,1) */
    ASSERT_VEC(t.output[US_FOUT_COLOR], 0, 0, 0, 1);
    ck_assert(t.killed);
    ASSERT_VEC(t.output[US_FOUT_DEPTH], 0, 0, 0, 1);  /* no sampler */
}
END_TEST

START_TEST(position_invariance)
{
    struct us_glstate gl;
    us_glstate_init(&gl);
    for (int i = 0; i < 16; i++) {
        gl.modelview[i] = (float)(i % 5 == 0) + 0.5f * (float)(i == 3);
        gl.projection[i] = (float)(i % 5 == 0) * 2.0f;
    }
    float out[4];
    us_position_invariant(&gl, V(1, 2, 3, 1), out);
    /* modelview translates x by 0.5; projection scales by 2 */
    ASSERT_VEC(out, 3, 4, 6, 2);
}
END_TEST

START_TEST(written_masks)
{
    ck_assert_uint_eq(micro_written_mask(US_OP_XPD, 0xf), 0x7);
    ck_assert_uint_eq(micro_written_mask(US_OP_SCS, 0xf), 0x3);
    ck_assert_uint_eq(micro_written_mask(US_OP_KIL, 0xf), 0);
    ck_assert_uint_eq(micro_written_mask(US_OP_MAD, 0xa), 0xa);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("interp");
    TCase *tc = tcase_create("semantics");
    tcase_add_test(tc, mad_is_unfused);
    tcase_add_test(tc, component_ops);
    tcase_add_test(tc, floor_and_fraction);
    tcase_add_test(tc, min_max_follow_pseudocode);
    tcase_add_test(tc, set_and_compare);
    tcase_add_test(tc, lrp_formula);
    tcase_add_test(tc, dot_products_accumulate_in_order);
    tcase_add_test(tc, reciprocals);
    tcase_add_test(tc, exp_log_pow);
    tcase_add_test(tc, trigonometry);
    tcase_add_test(tc, scalar_operand_selection);
    tcase_add_test(tc, lit_clamps);
    tcase_add_test(tc, dst_exp_log);
    tcase_add_test(tc, xpd_and_aliasing);
    tcase_add_test(tc, swizzle_negate_mask_saturate);
    tcase_add_test(tc, saturate_special_values);
    tcase_add_test(tc, relative_addressing);
    tcase_add_test(tc, kil_marks_and_continues);
    tcase_add_test(tc, thread_reset);
    tcase_add_test(tc, texture_instructions);
    tcase_add_test(tc, quad_lockstep);
    tcase_add_test(tc, quad_derivatives);
    tcase_add_test(tc, written_masks);
    tcase_add_test(tc, assembled_vertex_program);
    tcase_add_test(tc, assembled_fragment_program);
    tcase_add_test(tc, position_invariance);
    suite_add_tcase(s, tc);
    return s;
}
