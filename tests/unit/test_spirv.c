/*
 * GLSL through glslang's SPIR-V into the vec4 IR (glsl/): small GLSL 3.30
 * shaders are compiled with glslangValidator and spirv-opt at test time,
 * run on the reference interpreter with exact SFU arithmetic, and compared
 * with values computed here in C.  Every program produced must also
 * survive us_disassemble -> us_assemble unchanged.  Malformed SPIR-V
 * must give an error, never a crash.
 */
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ushader.h"

#include "check_main.h"

extern char **environ;

static const double PI = 3.14159265358979323846;

struct fx {
    struct us_program p;
    struct us_glsl_info info;
    struct us_glstate gl;
    struct us_thread t;
    us_vec4 params[US_MAX_PARAMS];
};

/* Disassemble, reassemble, compare. */
static void check_roundtrip(const struct us_program *p)
{
    char *text = us_disassemble(p);
    ck_assert_ptr_nonnull(text);
    struct us_program q;
    struct us_diag d;
    bool ok = us_assemble(text, strlen(text), US_STAGE_ANY, &q, &d);
    if (!ok)
        fprintf(stderr, "%s\nreassembly: %u:%u: %s\n", text, d.line, d.col,
                d.msg);
    ck_assert(ok);
    if (!us_program_equal(p, &q))
        fprintf(stderr, "round trip differs:\n%s\n", text);
    ck_assert(us_program_equal(p, &q));
    us_program_free(&q);
    free(text);
}

static bool try_compile(struct fx *f, enum us_stage st, const char *src,
                        bool optimize, struct us_diag *d)
{
    memset(f, 0, sizeof *f);
    us_glstate_init(&f->gl);
    struct us_glsl_options o;
    us_glsl_options_init(&o);
    o.optimize = optimize;
    return us_glsl_compile("test.glsl", src, strlen(src), st, &o, &f->p,
                           &f->info, d);
}

static void compile_opt(struct fx *f, enum us_stage st, const char *src,
                        bool optimize)
{
    struct us_diag d;
    bool ok = try_compile(f, st, src, optimize, &d);
    if (!ok)
        fprintf(stderr, "compile: %s\n%s\n", d.msg, src);
    ck_assert(ok);
    check_roundtrip(&f->p);
}

static void compile(struct fx *f, enum us_stage st, const char *src)
{
    compile_opt(f, st, src, true);
}

/* The type a runner writes uniform `name` as (us_glsl_uniform.type). */
static unsigned uniform_type(const struct fx *f, const char *name)
{
    for (unsigned i = 0; i < f->info.nuniforms; i++)
        if (!strcmp(f->info.uniforms[i].name, name))
            return f->info.uniforms[i].type;
    return US_GLSL_FLOAT;
}

static float int_bits(float v, bool is_signed)
{
    uint32_t u = is_signed ? (uint32_t)(int32_t)v : (uint32_t)v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Set a user uniform's slot by name (program.local[] behind the decl), as
 * a runner does: the values of an integer uniform as their bits. */
static void uniform(struct fx *f, const char *name, unsigned slot,
                    float x, float y, float z, float w)
{
    for (unsigned i = 0; i < f->p.ndecls; i++) {
        const struct us_decl *d = &f->p.decls[i];
        if (d->kind != US_DECL_PARAM || strcmp(d->name, name))
            continue;
        ck_assert_uint_lt(slot, d->size);
        const struct us_param *p = &f->p.params[d->base + slot];
        ck_assert_int_eq(p->kind, US_PARAM_LOCAL);
        float *v = f->gl.local[f->p.stage][p->index];
        v[0] = x, v[1] = y, v[2] = z, v[3] = w;
        unsigned t = uniform_type(f, name);
        if (t == US_GLSL_INT || t == US_GLSL_UINT)
            for (int c = 0; c < 4; c++)
                v[c] = int_bits(v[c], t == US_GLSL_INT);
        return;
    }
    /* optimized away: nothing to set */
}

static void sample_echo(void *ctx, unsigned unit, enum us_tex_target target,
                        const float coord[4], float lod_bias, float out[4])
{
    (void)ctx;
    out[0] = coord[0] + 100 * (float)unit;
    out[1] = coord[1] + 1000 * (float)target;
    out[2] = coord[2];
    out[3] = lod_bias;
}

static void run(struct fx *f)
{
    us_resolve_params(&f->p, &f->gl, f->params);
    struct us_exec_env env = { .params = f->params, .math = &us_math_exact,
                               .sample = sample_echo };
    us_interpret(&f->p, &env, &f->t);
}

static void set4(float *v, float x, float y, float z, float w)
{
    v[0] = x, v[1] = y, v[2] = z, v[3] = w;
}

static void input(struct fx *f, unsigned slot, float x, float y, float z,
                  float w)
{
    set4(f->t.input[slot], x, y, z, w);
}

#define NEAR(a, b, tol) \
    ck_assert_msg(fabsf((a) - (b)) <= (tol), "%s = %.9g, want %.9g", #a, \
                  (double)(a), (double)(b))

static const char *const fs_head =
    "#version 330\nin vec4 v;\nout vec4 color;\n";

/* ---- straight-line code ------------------------------------------------ */

START_TEST(arithmetic)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform vec4 a, b;\nuniform float s;\n"
            "out vec4 color;\n"
            "void main() { color = (a * b + a / b - b) * s - (-a); }\n");
    ck_assert(f.p.options & US_OPT_USHADER_EXTENSIONS);
    uniform(&f, "a", 0, 1, 2, 3, 4);
    uniform(&f, "b", 0, 5, -6, 7, 0.5f);
    uniform(&f, "s", 0, 3, 0, 0, 0);
    run(&f);
    const float a[4] = { 1, 2, 3, 4 }, b[4] = { 5, -6, 7, 0.5f };
    for (int c = 0; c < 4; c++)
        NEAR(f.t.output[US_FOUT_COLOR][c],
             (a[c] * b[c] + a[c] / b[c] - b[c]) * 3 + a[c], 1e-5f);
    us_program_free(&f.p);
}
END_TEST

/* Instructions write the components of their SPIR-V result type only:
 * scalars, DP3 and SCL results one, a vec2 two, a vec3 never .w; and
 * values of different widths share registers component by component. */
START_TEST(true_widths)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform vec3 a, b;\nuniform float s;\n"
            "uniform vec2 p;\nin vec4 v;\nout vec4 color;\n"
            "void main() { float d = dot(a, b);\n"
            "  vec3 c = a * inversesqrt(s) + b;\n"
            "  vec2 q = p * d + v.zw;\n  float t = v.x * v.y;\n"
            "  color = vec4(c.x + q.y, c.y * t, c.z, q.x); }\n");
    unsigned scalars = 0;
    /* the per-thread code and the preshader's (dot(a, b): uniforms) */
    for (unsigned i = 0; i < f.p.ninsts + f.p.npre; i++) {
        const struct us_inst *in = i < f.p.ninsts ? &f.p.insts[i]
                                                  : &f.p.pre[i - f.p.ninsts];
        if (in->dst.file != US_FILE_TEMP)
            continue;
        unsigned w = (unsigned)__builtin_popcount(in->dst.mask);
        enum us_shape sh = us_ops[in->op].shape;
        if (sh == US_SHAPE_DOT || sh == US_SHAPE_REPL)
            ck_assert_uint_eq(w, 1);
        ck_assert_uint_le(w, 3);
        scalars += w == 1;
    }
    ck_assert_uint_ge(scalars, 3);      /* dot, inversesqrt, v.x * v.y */
    ck_assert_uint_le(f.p.ntemps, 2);
    uniform(&f, "a", 0, 1, 2, 3, 0);
    uniform(&f, "b", 0, 4, 5, 6, 0);
    uniform(&f, "s", 0, 4, 0, 0, 0);
    uniform(&f, "p", 0, 0.5f, -1, 0, 0);
    input(&f, US_FIN_TEXCOORD0, 2, 3, 7, 8);
    run(&f);
    const float *o = f.t.output[US_FOUT_COLOR];
    NEAR(o[0], 4.5f - 24, 1e-5f);
    NEAR(o[1], 36, 1e-5f);
    NEAR(o[2], 7.5f, 1e-5f);
    NEAR(o[3], 23, 1e-5f);
    us_program_free(&f.p);
}
END_TEST

START_TEST(swizzles)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform vec4 a, b;\nout vec4 color;\n"
            "void main() { vec4 t = a.wzyx + vec4(a.xy, b.zw);\n"
            "  t.yw = b.xx; color = t + vec4(a.z, -b.y, 1.0, a.w); }\n");
    uniform(&f, "a", 0, 1, 2, 3, 4);
    uniform(&f, "b", 0, 5, 6, 7, 8);
    run(&f);
    float *o = f.t.output[US_FOUT_COLOR];
    NEAR(o[0], 4 + 1 + 3, 0);
    NEAR(o[1], 5 - 6, 0);
    NEAR(o[2], 2 + 7 + 1, 0);
    NEAR(o[3], 5 + 4, 0);
    us_program_free(&f.p);
}
END_TEST

START_TEST(matrices)
{
    struct fx f;
    compile(&f, US_STAGE_VERTEX,
            "#version 330\nuniform mat4 m;\nuniform mat3 n;\n"
            "uniform mat2x3 r;\nin vec4 p;\nout vec4 t0, t1, t2, t3;\n"
            "void main() { gl_Position = m * p;\n"
            "  t0 = p * m;\n  t1 = vec4(n * p.xyz, 1.0);\n"
            "  t2 = (m * m)[1] + (m * 2.0)[2];\n"
            "  t3 = vec4(r * p.xy, transpose(m)[3].x); }\n");
    float m[4][4], n[3][3], r[2][3], p[4] = { 1, -2, 3, 0.5f };
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++)
            m[j][i] = (float)(j * 4 + i + 1) * (i == j ? 2.0f : 0.5f);
        uniform(&f, "m", (unsigned)j, m[j][0], m[j][1], m[j][2], m[j][3]);
    }
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 3; i++)
            n[j][i] = (float)(j - i) + 0.25f;
        uniform(&f, "n", (unsigned)j, n[j][0], n[j][1], n[j][2], 0);
    }
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 3; i++)
            r[j][i] = (float)(j * 3 + i) - 1.5f;
        uniform(&f, "r", (unsigned)j, r[j][0], r[j][1], r[j][2], 0);
    }
    input(&f, US_VIN_ATTRIB0, p[0], p[1], p[2], p[3]);
    run(&f);
    for (int i = 0; i < 4; i++) {
        float mv = 0, vm = 0, mm = 0;
        for (int j = 0; j < 4; j++) {
            mv += m[j][i] * p[j];
            vm += p[j] * m[i][j];
            mm += m[j][i] * m[1][j];
        }
        NEAR(f.t.output[US_VOUT_POSITION][i], mv, 1e-3f);
        NEAR(f.t.output[US_VOUT_TEXCOORD0][i], vm, 1e-3f);
        NEAR(f.t.output[US_VOUT_TEXCOORD0 + 2][i], mm + 2 * m[2][i], 1e-2f);
    }
    for (int i = 0; i < 3; i++) {
        float nv = 0, rv = 0;
        for (int j = 0; j < 3; j++)
            nv += n[j][i] * p[j];
        for (int j = 0; j < 2; j++)
            rv += r[j][i] * p[j];
        NEAR(f.t.output[US_VOUT_TEXCOORD0 + 1][i], nv, 1e-4f);
        NEAR(f.t.output[US_VOUT_TEXCOORD0 + 3][i], rv, 1e-4f);
    }
    NEAR(f.t.output[US_VOUT_TEXCOORD0 + 3][3], m[0][3], 0);
    us_program_free(&f.p);
}
END_TEST

START_TEST(integers)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform ivec4 a, b;\nout vec4 color;\n"
            "void main() { ivec4 q = a / b, r = a % b;\n"
            "  color = vec4(q.x, r.y, q.z + r.w, float(-a.w * b.x + 1)); }\n");
    static const int cases[][2] = {
        { 7, 2 }, { -7, 2 }, { 7, -2 }, { -7, -2 }, { 9, 3 }, { 1000001, 7 },
        { 16777215, 3 }, { 0, 5 }, { 48, 16 }, { 99, 99 }, { 5, 9 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int x = cases[i][0], y = cases[i][1];
        uniform(&f, "a", 0, (float)x, (float)x, (float)x, (float)x);
        uniform(&f, "b", 0, (float)y, (float)y, (float)y, (float)y);
        run(&f);
        float *o = f.t.output[US_FOUT_COLOR];
        NEAR(o[0], (float)(x / y), 0);
        if (x >= 0 && y > 0) {   /* % of negatives: undefined in GLSL */
            NEAR(o[1], (float)(x % y), 0);
            NEAR(o[2], (float)(x / y + x % y), 0);
        }
        NEAR(o[3], (float)(-x * y + 1), 0);
    }
    us_program_free(&f.p);
}
END_TEST

/* ---- GLSL.std.450 ------------------------------------------------------ */

struct fn1 {
    const char *expr;        /* of float x (and y) */
    double (*ref)(double x, double y);
    float lo, hi, tol;       /* inputs, absolute tolerance */
    bool rel;                /* tol relative to |ref| */
};

static double r_sin(double x, double y) { (void)y; return sin(x); }
static double r_cos(double x, double y) { (void)y; return cos(x); }
static double r_tan(double x, double y) { (void)y; return tan(x); }
static double r_asin(double x, double y) { (void)y; return asin(x); }
static double r_acos(double x, double y) { (void)y; return acos(x); }
static double r_atan(double x, double y) { (void)y; return atan(x); }
static double r_atan2(double x, double y) { return atan2(x, y); }
static double r_exp(double x, double y) { (void)y; return exp(x); }
static double r_sinh(double x, double y) { (void)y; return sinh(x); }
static double r_cosh(double x, double y) { (void)y; return cosh(x); }
static double r_tanh(double x, double y) { (void)y; return tanh(x); }
static double r_asinh(double x, double y) { (void)y; return asinh(x); }
static double r_acosh(double x, double y) { (void)y; return acosh(fabs(x) + 1); }
static double r_atanh(double x, double y) { (void)y; return atanh(x); }
static double r_exp2(double x, double y) { (void)y; return exp2(x); }
static double r_abs(double x, double y) { (void)y; return fabs(x); }
static double r_sign(double x, double y)
{
    (void)y;
    return x > 0 ? 1 : x < 0 ? -1 : 0;
}
static double r_floor(double x, double y) { (void)y; return floor(x); }
static double r_ceil(double x, double y) { (void)y; return ceil(x); }
static double r_trunc(double x, double y) { (void)y; return trunc(x); }
static double r_round(double x, double y) { (void)y; return floor(x + 0.5); }
static double r_roundeven(double x, double y)
{
    (void)y;
    return nearbyint(x);    /* default rounding: to nearest even */
}
static double r_fract(double x, double y) { (void)y; return x - floor(x); }
static double r_mod(double x, double y) { return x - y * floor(x / y); }
static double r_min(double x, double y) { return x < y ? x : y; }
static double r_max(double x, double y) { return x > y ? x : y; }
static double r_clamp(double x, double y)
{
    (void)y;
    return x < -0.5 ? -0.5 : x > 0.75 ? 0.75 : x;
}
static double r_mix(double x, double y) { return x + (y - x) * 0.25; }
static double r_step(double x, double y) { return y < x ? 0 : 1; }
static double r_smooth(double x, double y)
{
    (void)y;
    double t = (x + 1) / 3;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return t * t * (3 - 2 * t);
}
static double r_radians(double x, double y) { (void)y; return x * PI / 180; }
static double r_degrees(double x, double y) { (void)y; return x * 180 / PI; }
static double r_length(double x, double y) { return sqrt(x * x + y * y); }
static double r_distance(double x, double y)
{
    return sqrt((x - 1) * (x - 1) + (y - 2) * (y - 2) + 9);
}
static double r_normalize(double x, double y)
{
    return y / sqrt(x * x + y * y + 1);
}
static double r_cross(double x, double y) { return x * 2 - y * 3; }
static double r_reflect(double x, double y)
{
    /* I = (x, y, 1), N = (0, 0.6, 0.8): .y of I - 2 dot(N, I) N */
    (void)x;
    double d = 0.6 * y + 0.8;
    return y - 2 * d * 0.6;
}
static double r_refract(double x, double y)
{
    /* I = normalize(x, y, -1), N = (0, 0, 1), eta = 0.5: .x */
    double l = sqrt(x * x + y * y + 1), i[3] = { x / l, y / l, -1 / l };
    double d = i[2], k = 1 - 0.25 * (1 - d * d);
    return k < 0 ? 0 : 0.5 * i[0] - (0.5 * d + sqrt(k)) * 0;
}
static double r_faceforward(double x, double y)
{
    return x * y < 0 ? 2 : -2;   /* N = 2, I = x, Nref = y */
}

static const struct fn1 fns[] = {
    { "sin(x)", r_sin, -10, 10, 2e-6f, false },
    { "cos(x)", r_cos, -10, 10, 2e-6f, false },
    { "tan(x)", r_tan, -1.2f, 1.2f, 4e-6f, true },
    { "asin(x)", r_asin, -1, 1, 2e-6f, false },
    { "acos(x)", r_acos, -1, 1, 2e-6f, false },
    { "atan(x)", r_atan, -50, 50, 2e-6f, false },
    { "atan(x, y)", r_atan2, -3, 3, 4e-6f, false },
    { "pow(abs(x) + 0.1, y)", NULL, -4, 4, 0, false },
    { "exp(x)", r_exp, -8, 8, 2e-6f, true },
    { "sinh(x)", r_sinh, -8, 8, 4e-6f, true },
    { "cosh(x)", r_cosh, -8, 8, 2e-6f, true },
    { "tanh(x)", r_tanh, -12, 12, 2e-6f, false },
    { "asinh(x)", r_asinh, -50, 50, 2e-6f, false },
    { "acosh(abs(x) + 1.0)", r_acosh, -50, 50, 2e-6f, false },
    { "atanh(x)", r_atanh, -0.9f, 0.9f, 2e-6f, false },
    { "exp2(x)", r_exp2, -20, 20, 1e-6f, true },
    { "log(abs(x) + 0.01)", NULL, -100, 100, 0, false },
    { "log2(abs(x) + 0.01)", NULL, -100, 100, 0, false },
    { "sqrt(abs(x))", NULL, -100, 100, 0, false },
    { "inversesqrt(abs(x) + 0.01)", NULL, -100, 100, 0, false },
    { "abs(x)", r_abs, -5, 5, 0, false },
    { "sign(x)", r_sign, -2, 2, 0, false },
    { "floor(x)", r_floor, -5, 5, 0, false },
    { "ceil(x)", r_ceil, -5, 5, 0, false },
    { "trunc(x)", r_trunc, -5, 5, 0, false },
    { "round(x)", r_round, -5, 5, 0, false },
    { "roundEven(x)", r_roundeven, -5, 5, 0, false },
    { "fract(x)", r_fract, -5, 5, 1e-6f, false },
    { "mod(x, y)", r_mod, -7, 7, 2e-5f, false },
    { "min(x, y)", r_min, -5, 5, 0, false },
    { "max(x, y)", r_max, -5, 5, 0, false },
    { "clamp(x, -0.5, 0.75)", r_clamp, -2, 2, 0, false },
    { "mix(x, y, 0.25)", r_mix, -5, 5, 1e-6f, false },
    { "step(x, y)", r_step, -2, 2, 0, false },
    { "smoothstep(-1.0, 2.0, x)", r_smooth, -2, 3, 1e-6f, false },
    { "radians(x)", r_radians, -400, 400, 1e-6f, true },
    { "degrees(x)", r_degrees, -7, 7, 1e-6f, true },
    { "length(vec2(x, y))", r_length, -5, 5, 1e-6f, true },
    { "distance(vec3(x, y, 1.0), vec3(1.0, 2.0, -2.0))", r_distance, -5, 5,
      1e-6f, true },
    { "normalize(vec3(x, y, 1.0)).y", r_normalize, -5, 5, 1e-6f, false },
    { "cross(vec3(x, y, 1.0), vec3(3.0, 2.0, 0.0)).z", r_cross, -5, 5, 1e-6f,
      true },
    { "reflect(vec3(x, y, 1.0), vec3(0.0, 0.6, 0.8)).y", r_reflect, -5, 5,
      1e-5f, false },
    { "refract(normalize(vec3(x, y, -1.0)), vec3(0.0, 0.0, 1.0), 0.5).x",
      r_refract, -3, 3, 1e-5f, false },
    { "faceforward(2.0, x, y)", r_faceforward, -3, 3, 0, false },
};

/* The exact-SFU references for the functions that are one SFU op (or an
 * SFU op and a multiply): correctly rounded, so compare with libm in ulps
 * of float at the result. */
static double ref_sfu(const char *expr, float x, float y)
{
    if (!strncmp(expr, "pow", 3))
        return pow(fabsf(x) + 0.1f, y);
    if (!strncmp(expr, "log2", 4))
        return log2(fabsf(x) + 0.01f);
    if (!strncmp(expr, "log", 3))
        return log(fabsf(x) + 0.01f);
    if (!strncmp(expr, "sqrt", 4))
        return sqrt(fabsf(x));
    return 1 / sqrt(fabsf(x) + 0.01f);
}

START_TEST(std450)
{
    const struct fn1 *fn = &fns[_i];
    char src[512];
    snprintf(src, sizeof src,
             "%sfloat f(float x, float y) { return %s; }\n"
             "void main() { color = vec4(f(v.x, v.y), f(v.z, v.w), 0, 1); }\n",
             fs_head, fn->expr);
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT, src);
    enum { N = 97 };
    double worst = 0;
    for (int i = 0; i < N; i++) {
        float x = fn->lo + (fn->hi - fn->lo) * (float)i / (N - 1);
        float y = fn->hi - (fn->hi - fn->lo) * (float)((i * 37) % N) / (N - 1);
        if (fn->ref == r_step)
            y = x + (float)((i % 3) - 1);   /* equal, below and above */
        input(&f, US_FIN_TEXCOORD0, x, y, y, x);
        run(&f);
        for (int c = 0; c < 2; c++) {
            float a = c ? y : x, b = c ? x : y;
            float got = f.t.output[US_FOUT_COLOR][c];
            double want = fn->ref ? fn->ref(a, b) : ref_sfu(fn->expr, a, b);
            double tol = fn->tol;
            if (!fn->ref)   /* one or two correctly rounded ops: 2 ulp */
                tol = want == 0 ? 0 : 2 * ldexp(1, ilogb(want) - 23);
            else if (fn->rel)
                tol *= fabs(want) > 1 ? fabs(want) : 1;
            if (isnan(want) && isnan(got))
                continue;   /* mod(x, 0) */
            double err = fabs(got - want);
            if (err > worst)
                worst = err;
            ck_assert_msg(err <= tol, "%s at (%g, %g): %.9g, want %.9g",
                          fn->expr, (double)a, (double)b, (double)got, want);
        }
    }
    us_program_free(&f.p);
}
END_TEST

/* ---- arrays ---------------------------------------------------------- */

static const char *const uniform_array_src =
    "#version 330\nuniform vec4 u[6];\nuniform float w[3];\nuniform int k;\n"
    "%s vec4 v;\nout vec4 %s;\n"
    "void main() { int j = int(v.x); %s = u[j] + u[k + 1] * w[k]; }\n";

static void uniform_array(enum us_stage st)
{
    char src[512];
    bool vs = st == US_STAGE_VERTEX;
    snprintf(src, sizeof src, uniform_array_src, "in", vs ? "c" : "color",
             vs ? "gl_Position" : "color");
    struct fx f;
    compile(&f, st, src);
    for (unsigned i = 0; i < 6; i++)
        uniform(&f, "u", i, (float)i, 10.0f * (float)i, -1, 0.5f);
    for (unsigned i = 0; i < 3; i++)
        uniform(&f, "w", i, 2.0f + (float)i, 0, 0, 0);
    for (int j = 0; j < 6; j++)
        for (int k = 0; k < 3; k++) {
            uniform(&f, "k", 0, (float)k, 0, 0, 0);
            input(&f, vs ? US_VIN_ATTRIB0 : US_FIN_TEXCOORD0, (float)j, 0, 0,
                  0);
            run(&f);
            float *o = f.t.output[vs ? US_VOUT_POSITION : US_FOUT_COLOR];
            float wk = 2.0f + (float)k;
            NEAR(o[0], (float)j + (float)(k + 1) * wk, 0);
            NEAR(o[1], 10.0f * (float)j + 10.0f * (float)(k + 1) * wk, 0);
            NEAR(o[3], 0.5f + 0.5f * wk, 0);
        }
    us_program_free(&f.p);
}

START_TEST(uniform_array_vs)
{
    uniform_array(US_STAGE_VERTEX);
}
END_TEST

START_TEST(uniform_array_fs)
{
    uniform_array(US_STAGE_FRAGMENT);
}
END_TEST

START_TEST(local_array)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "void main() { float a[5]; vec3 b[3];\n"
             "  for (int i = 0; i < 5; i++) a[i] = float(i * i);\n"
             "  for (int i = 0; i < 3; i++) b[i] = vec3(i, 2 * i, 3 * i);\n"
             "  int r = int(v.x), s = int(v.y);\n"
             "  a[r] = -1.0; b[s].y = 7.0;\n"
             "  color = vec4(a[s], a[r + 1 > 4 ? 4 : r + 1], b[r % 3].y, "
             "b[s].z); }\n");
    compile_opt(&f, US_STAGE_FRAGMENT, src, _i == 1);
    for (int r = 0; r < 4; r++)
        for (int s = 0; s < 3; s++) {
            float a[5] = { 0, 1, 4, 9, 16 }, b[3][3];
            for (int i = 0; i < 3; i++)
                b[i][0] = (float)i, b[i][1] = 2.0f * (float)i,
                b[i][2] = 3.0f * (float)i;
            a[r] = -1;
            b[s][1] = 7;
            input(&f, US_FIN_TEXCOORD0, (float)r, (float)s, 0, 0);
            run(&f);
            float *o = f.t.output[US_FOUT_COLOR];
            NEAR(o[0], a[s], 0);
            NEAR(o[1], a[r + 1 > 4 ? 4 : r + 1], 0);
            NEAR(o[2], b[r % 3][1], 0);
            NEAR(o[3], b[s][2], 0);
        }
    us_program_free(&f.p);
}
END_TEST

/* Elements of 3 slots: the dynamic index selects every third slot. */
START_TEST(local_struct_array)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "struct T { vec4 a; float b; vec2 c; };\n"
             "void main() { T t[3];\n"
             "  for (int i = 0; i < 3; i++) { t[i].a = vec4(i);\n"
             "    t[i].b = float(i * 10); t[i].c = vec2(i, -i); }\n"
             "  int r = int(v.x); t[r].b = 99.0;\n"
             "  color = vec4(t[int(v.y)].b, t[r].c.y, t[2 - r].a.x, 0.0);"
             " }\n");
    compile_opt(&f, US_STAGE_FRAGMENT, src, _i == 1);
    for (int r = 0; r < 3; r++)
        for (int y = 0; y < 3; y++) {
            input(&f, US_FIN_TEXCOORD0, (float)r, (float)y, 0, 0);
            run(&f);
            float *o = f.t.output[US_FOUT_COLOR];
            NEAR(o[0], y == r ? 99.0f : 10.0f * (float)y, 0);
            NEAR(o[1], -(float)r, 0);
            NEAR(o[2], (float)(2 - r), 0);
        }
    us_program_free(&f.p);
}
END_TEST

/* ---- control flow ------------------------------------------------------ */

static bool has_op(const struct us_program *p, enum us_opcode op)
{
    for (unsigned i = 0; i < p->ninsts; i++)
        if (p->insts[i].op == op)
            return true;
    return false;
}

/* A constant array larger than 64 slots indexed at run time (piglit's
 * fs-vec4-const-array-indirect-access-128-elements failed with an empty
 * message). */
START_TEST(large_const_array)
{
    struct fx f;
    char src[8192];
    int n = snprintf(src, sizeof src, "%s%s", fs_head,
                     "const vec4 k[100] = vec4[](");
    for (int i = 0; i < 100; i++)
        n += snprintf(src + n, sizeof src - (size_t)n, "%svec4(%d.0, 1.0, "
                      "0.0, 1.0)", i ? ", " : "", i * 3);
    snprintf(src + n, sizeof src - (size_t)n,
             ");\nvoid main() { color = k[int(v.x)]; }\n");
    compile(&f, US_STAGE_FRAGMENT, src);
    for (int i = 0; i < 100; i += 33) {
        input(&f, US_FIN_TEXCOORD0, (float)i, 0, 0, 0);
        run(&f);
        NEAR(f.t.output[US_FOUT_COLOR][0], 3.0f * (float)i, 0);
    }
    us_program_free(&f.p);
}
END_TEST

/* A float output read back (post-increment) stored into one component of
 * another output: the scalar is read from the component that holds it
 * (piglit's glsl-vs-post-increment-01 read an unwritten one). */
START_TEST(scalar_into_component)
{
    struct fx f;
    compile(&f, US_STAGE_VERTEX,
            "#version 330\n#extension GL_ARB_separate_shader_objects : "
            "enable\nin vec4 p;\nlayout(location=0) out float g;\n"
            "layout(location=1) out vec4 color;\n"
            "void main() { gl_Position = p; g = p.x; color.y = g++;\n"
            "  color.xzw = vec3(0.0); }\n");
    input(&f, US_VIN_ATTRIB0, 2, 5, 7, 9);
    run(&f);
    NEAR(f.t.output[US_VOUT_TEXCOORD0][0], 3, 0);
    NEAR(f.t.output[US_VOUT_TEXCOORD0 + 1][1], 2, 0);
    us_program_free(&f.p);
}
END_TEST

/* A dynamic index into a uniform array in a fragment shader is ARL and a
 * relative read (OPTION USHADER_extensions), not a select chain; the
 * text form reassembles (compile checks the round trip). */
START_TEST(fragment_uniform_index)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "uniform vec4 u[6];\nuniform mat2 m[3];\n"
             "void main() { int i = int(v.x);\n"
             "  color = u[i] + vec4(0.0, 0.0, m[i][1]); }\n");
    compile(&f, US_STAGE_FRAGMENT, src);
    ck_assert(has_op(&f.p, US_OP_ARL));
    ck_assert_uint_eq(f.p.naddrs, 1);
    for (unsigned k = 0; k < 6; k++)
        uniform(&f, "u", k, (float)k, 10.0f * (float)k, 0, 1);
    for (unsigned k = 0; k < 6; k++)
        uniform(&f, "m", k, 100.0f * (float)k, 0, 0, 0);
    for (int i = 0; i < 3; i++) {
        input(&f, US_FIN_TEXCOORD0, (float)i, 0, 0, 0);
        run(&f);
        float *o = f.t.output[US_FOUT_COLOR];
        NEAR(o[0], (float)i, 0);
        NEAR(o[1], 10.0f * (float)i, 0);
        NEAR(o[2], 100.0f * (float)(2 * i + 1), 0);
    }
    us_program_free(&f.p);
}
END_TEST

START_TEST(if_else)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "uniform float t;\n"
             "void main() { vec4 c = v;\n"
             "  if (v.x > t) { c.x = sin(v.y); if (v.z < 0.0) c.y = 3.0; }\n"
             "  else { c.x = cos(v.y); c.z = 5.0; }\n"
             "  color = c; }\n");
    compile_opt(&f, US_STAGE_FRAGMENT, src, _i == 1);
    /* pass_ifconv computes both arms and selects (CMP) */
    ck_assert(has_op(&f.p, US_OP_IF) || has_op(&f.p, US_OP_CMP));
    uniform(&f, "t", 0, 0.5f, 0, 0, 0);
    for (int i = 0; i < 8; i++) {
        float x = (i & 1) ? 1 : 0, y = 0.3f * (float)i, z = (i & 2) ? -1 : 1;
        input(&f, US_FIN_TEXCOORD0, x, y, z, 9);
        run(&f);
        float *o = f.t.output[US_FOUT_COLOR];
        if (x > 0.5f) {
            NEAR(o[0], sinf(y), 1e-6f);
            NEAR(o[1], z < 0 ? 3 : y, 0);
            NEAR(o[2], z, 0);
        } else {
            NEAR(o[0], cosf(y), 1e-6f);
            NEAR(o[1], y, 0);
            NEAR(o[2], 5, 0);
        }
        NEAR(o[3], 9, 0);
    }
    us_program_free(&f.p);
}
END_TEST

START_TEST(loops)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "uniform int n;\n"
             "void main() { float s = 0.0, p = 1.0; int i = 0;\n"
             "  for (i = 0; i < n; i++) {\n"
             "    if (i == 2) continue;\n"
             "    if (float(i) > v.x) break;\n"
             "    s += float(i); p *= 2.0;\n"
             "  }\n"
             "  float a = v.y, b = v.z;\n"
             "  for (int k = 0; k < n; k++) { float t = a; a = b; b = t; }\n"
             "  color = vec4(s, p, a, float(i)); }\n");
    compile_opt(&f, US_STAGE_FRAGMENT, src, _i == 1);
    ck_assert(has_op(&f.p, US_OP_BGNLOOP));
    for (int n = 0; n < 8; n++)
        for (int lim = 0; lim < 7; lim += 3) {
            uniform(&f, "n", 0, (float)n, 0, 0, 0);
            input(&f, US_FIN_TEXCOORD0, (float)lim, 5, 6, 0);
            run(&f);
            float s = 0, p = 1;
            int i;
            for (i = 0; i < n; i++) {
                if (i == 2)
                    continue;
                if ((float)i > (float)lim)
                    break;
                s += (float)i;
                p *= 2;
            }
            float *o = f.t.output[US_FOUT_COLOR];
            NEAR(o[0], s, 0);
            NEAR(o[1], p, 0);
            NEAR(o[2], n % 2 ? 6 : 5, 0);   /* swapped n times */
            NEAR(o[3], (float)i, 0);
        }
    us_program_free(&f.p);
}
END_TEST

START_TEST(switch_discard)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "void main() { int k = int(v.x); float r = 0.0;\n"
             "  switch (k) { case 0: r = 10.0; break; case 1: case 2: "
             "r = 20.0; break; default: r = 30.0; }\n"
             "  if (v.y < 0.0) discard;\n"
             "  color = vec4(r); }\n");
    compile(&f, US_STAGE_FRAGMENT, src);
    for (int k = 0; k < 4; k++)
        for (int d = 0; d < 2; d++) {
            memset(&f.t, 0, sizeof f.t);
            input(&f, US_FIN_TEXCOORD0, (float)k, d ? -1.0f : 1.0f, 0, 0);
            run(&f);
            ck_assert(f.t.killed == (d == 1));
            if (!d)
                NEAR(f.t.output[US_FOUT_COLOR][0],
                     k == 0 ? 10.0f : k < 3 ? 20.0f : 30.0f, 0);
        }
    us_program_free(&f.p);
}
END_TEST

START_TEST(nested_loops)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "void main() { float s = 0.0; int i = 0;\n"
             "  do { for (int j = 0; j < 10; j++) {\n"
             "      if (j > i) break;\n"
             "      if (j == 1) continue;\n"
             "      s += float(j) * v.x; }\n"
             "    i++; } while (i < int(v.y));\n"
             "  color = vec4(s, float(i), 0.0, 1.0); }\n");
    compile_opt(&f, US_STAGE_FRAGMENT, src, _i == 1);
    for (int n = 0; n < 6; n++) {
        input(&f, US_FIN_TEXCOORD0, 1.5f, (float)n, 0, 0);
        run(&f);
        float s = 0;
        int i = 0;
        do {
            for (int j = 0; j < 10; j++) {
                if (j > i)
                    break;
                if (j == 1)
                    continue;
                s += (float)j * 1.5f;
            }
            i++;
        } while (i < n);
        NEAR(f.t.output[US_FOUT_COLOR][0], s, 0);
        NEAR(f.t.output[US_FOUT_COLOR][1], (float)i, 0);
    }
    us_program_free(&f.p);
}
END_TEST

START_TEST(logic_select)
{
    struct fx f;
    char src[1024];
    snprintf(src, sizeof src, "%s%s", fs_head,
             "void main() { bvec4 b = greaterThan(v, vec4(0.0));\n"
             "  bool x = b.x && !b.y || b.z == b.w;\n"
             "  vec4 c = mix(vec4(-1.0), v, vec4(b));\n"
             "  vec4 d = x ? c : -c; int k = int(v.w) & 1;\n"
             "  color = vec4(d.x, float(any(b)), float(all(b)), "
             "float(b.x != b.y)) + float(k); }\n");
    compile(&f, US_STAGE_FRAGMENT, src);
    for (int m = 0; m < 16; m++) {
        float v[4];
        bool b[4];
        for (int c = 0; c < 4; c++)
            v[c] = (m >> c) & 1 ? 2.0f + (float)c : -3.0f - (float)c,
            b[c] = v[c] > 0;
        input(&f, US_FIN_TEXCOORD0, v[0], v[1], v[2], v[3]);
        run(&f);
        bool x = (b[0] && !b[1]) || b[2] == b[3];
        float c0 = b[0] ? v[0] : -1;
        float *o = f.t.output[US_FOUT_COLOR];
        float k = (float)((int)v[3] & 1);
        NEAR(o[0], (x ? c0 : -c0) + k, 0);
        NEAR(o[1], (float)(b[0] || b[1] || b[2] || b[3]) + k, 0);
        NEAR(o[2], (float)(b[0] && b[1] && b[2] && b[3]) + k, 0);
        NEAR(o[3], (float)(b[0] != b[1]) + k, 0);
    }
    us_program_free(&f.p);
}
END_TEST

START_TEST(output_readback)
{
    struct fx f;
    compile_opt(&f, US_STAGE_VERTEX,
                "#version 330\nin vec4 p;\nout vec4 c;\nvoid main() {\n"
                "  gl_Position = p; gl_Position.y = gl_Position.y * 2.0;\n"
                "  c = gl_Position; c.x += 1.0;\n"
                "  vec4 w = p; w[int(p.w)] = 9.0; c.zw = w.zw; }\n", _i == 1);
    ck_assert(!(f.p.outputs_written & (1u << US_VOUT_POINTSIZE)));
    input(&f, US_VIN_ATTRIB0, 1, 2, 3, 2);
    run(&f);
    float *o = f.t.output[US_VOUT_POSITION];
    float *c = f.t.output[US_VOUT_TEXCOORD0];
    NEAR(o[0], 1, 0);
    NEAR(o[1], 4, 0);
    NEAR(c[0], 2, 0);
    NEAR(c[1], 4, 0);
    NEAR(c[2], 9, 0);
    NEAR(c[3], 2, 0);
    us_program_free(&f.p);
}
END_TEST

/* Dynamic stores: an output array, a matrix element (column and row). */
START_TEST(dynamic_stores)
{
    struct fx f;
    compile_opt(&f, US_STAGE_VERTEX,
                "#version 330\nin vec4 p;\nout vec4 t[3];\nout vec4 c;\n"
                "void main() { gl_Position = p;\n"
                "  for (int i = 0; i < 3; i++) t[i] = vec4(0.0);\n"
                "  t[int(p.x)] = p;\n"
                "  mat3 m = mat3(0.0); m[int(p.y)][int(p.z)] = 5.0;\n"
                "  c = vec4(m * vec3(1.0, 10.0, 100.0), 0.0); }\n", _i == 1);
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++) {
            int z = (x + y) % 3;
            input(&f, US_VIN_ATTRIB0, (float)x, (float)y, (float)z, 7);
            run(&f);
            for (int i = 0; i < 3; i++)
                NEAR(f.t.output[US_VOUT_TEXCOORD0 + i][3], i == x ? 7 : 0, 0);
            float scale[3] = { 1, 10, 100 };
            for (int r = 0; r < 3; r++)   /* (m * v)[r] = m[col][r] v[col] */
                NEAR(f.t.output[US_VOUT_TEXCOORD0 + 3][r],
                     r == z ? 5 * scale[y] : 0, 0);
        }
    us_program_free(&f.p);
}
END_TEST

/* Load every program.local slot's initial value (us_param.value), as a
 * runner does at link time. */
static void load_initial(struct fx *f)
{
    for (unsigned i = 0; i < f->p.nparams; i++)
        if (f->p.params[i].kind == US_PARAM_LOCAL)
            memcpy(f->gl.local[f->p.stage][f->p.params[i].index],
                   f->p.params[i].value, sizeof f->p.params[i].value);
}

/* `uniform T x = init;`: program.local slots whose initial values are the
 * initializer's; the application may set them; unread ones stay. */
START_TEST(uniform_initializer)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform mat2 m = mat2(1.0, 2.0, 3.0, 4.0);\n"
            "uniform float k[2] = float[2](5.0, -6.0);\nuniform bool b;\n"
            "uniform vec4 unread = vec4(7.0, 8.0, 9.0, 10.0);\n"
            "out vec4 c;\nvoid main() { c = vec4(m[1], k[1], b ? 1.0 : 2.0);"
            " }\n");
    load_initial(&f);
    uniform(&f, "b", 0, 1, 0, 0, 0);
    run(&f);
    float *o = f.t.output[US_FOUT_COLOR];
    NEAR(o[0], 3, 0);
    NEAR(o[1], 4, 0);
    NEAR(o[2], -6, 0);
    NEAR(o[3], 1, 0);
    bool found = false;
    for (unsigned i = 0; i < f.p.ndecls; i++)
        if (!strcmp(f.p.decls[i].name, "unread")) {
            const struct us_param *p = &f.p.params[f.p.decls[i].base];
            ck_assert_int_eq(p->kind, US_PARAM_LOCAL);
            NEAR(p->value[0], 7, 0);
            NEAR(p->value[3], 10, 0);
            found = true;
        }
    ck_assert(found);
    /* set by the API: the initial value is gone */
    uniform(&f, "m", 1, -1, -2, 0, 0);
    uniform(&f, "k", 1, 0.5f, 0.5f, 0.5f, 0.5f);
    run(&f);
    NEAR(o[0], -1, 0);
    NEAR(o[1], -2, 0);
    NEAR(o[2], 0.5f, 0);
    us_program_free(&f.p);
}
END_TEST

START_TEST(struct_uniforms)
{
    const char *src =
        "#version 330\nstruct L { vec4 col; float k; mat2 m; };\n"
        "uniform L l[3];\nin vec4 p;\nout vec4 %s;\n"
        "void main() { int i = int(p.x);\n"
        "  %s = l[i].col * l[i].k + vec4(l[2].m * p.zw, l[i].m[1]); }\n";
    for (int st = 0; st < 2; st++) {
        char text[512];
        snprintf(text, sizeof text, src, st ? "c" : "t",
                 st ? "c" : "gl_Position");
        struct fx f;
        compile(&f, st ? US_STAGE_FRAGMENT : US_STAGE_VERTEX, text);
        /* l: 4 slots per element: col, k, m[0], m[1]; runners find the
         * members by their GLSL names */
        const struct us_glsl_uniform *lk = NULL, *l0 = NULL;
        for (unsigned i = 0; i < f.info.nuniforms; i++) {
            if (!strcmp(f.info.uniforms[i].name, "l[1].k"))
                lk = &f.info.uniforms[i];
            if (!strcmp(f.info.uniforms[i].name, "l"))
                l0 = &f.info.uniforms[i];
        }
        ck_assert(lk && l0);
        ck_assert_uint_eq(l0->slots, 12);
        ck_assert_uint_eq(lk->slots, 1);
        ck_assert_uint_eq(lk->param, l0->param + 5);
        for (unsigned e = 0; e < 3; e++) {
            float b = 10.0f * (float)e;
            uniform(&f, "l", 4 * e, b + 1, b + 2, b + 3, b + 4);
            uniform(&f, "l", 4 * e + 1, (float)e + 0.5f, 0, 0, 0);
            uniform(&f, "l", 4 * e + 2, b, b + 1, 0, 0);
            uniform(&f, "l", 4 * e + 3, b + 2, b + 3, 0, 0);
        }
        for (int i = 0; i < 3; i++) {
            input(&f, st ? US_FIN_TEXCOORD0 : US_VIN_ATTRIB0, (float)i, 0, 1,
                  2);
            run(&f);
            float *o = f.t.output[st ? US_FOUT_COLOR : US_VOUT_POSITION];
            float b = 10.0f * (float)i, k = (float)i + 0.5f;
            NEAR(o[0], (b + 1) * k + (20 * 1 + 22 * 2), 0);
            NEAR(o[1], (b + 2) * k + (21 * 1 + 23 * 2), 0);
            NEAR(o[2], (b + 3) * k + b + 2, 0);
            NEAR(o[3], (b + 4) * k + b + 3, 0);
        }
        us_program_free(&f.p);
    }
}
END_TEST

/* ---- textures, built-ins ---------------------------------------------- */

/* Samplers as struct members, in arrays of them, and passed to functions
 * (GLSL 1.10 4.1.7): a unit each, in slot order, named by their path; the
 * lookup through s.l.t[1] uses that unit with the member's target. */
static int sampler_unit_named(const struct fx *f, const char *name,
                              unsigned target)
{
    for (unsigned k = 0; k < f->info.nsamplers; k++)
        if (!strcmp(f->info.samplers[k].name, name)) {
            ck_assert_uint_eq(f->info.samplers[k].target, target);
            return f->info.samplers[k].unit;
        }
    ck_abort_msg("no sampler %s", name);
    return -1;
}

static bool has_tex(const struct us_program *p, int unit, unsigned target)
{
    for (unsigned i = 0; i < p->ninsts; i++)
        if (p->insts[i].op == US_OP_TEX && p->insts[i].tex_unit == unit &&
            p->insts[i].tex_target == target)
            return true;
    return false;
}

START_TEST(struct_samplers)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nstruct L { float k; sampler2D t[2]; };\n"
            "struct S { vec4 a; samplerCube c; L l; };\n"
            "uniform sampler2D first;\nuniform S s;\n"
            "in vec4 v;\nout vec4 color;\n"
            "vec4 f(S p) { return texture(p.l.t[1], v.xy) * p.l.k; }\n"
            "void main() { color = texture(first, v.xy) +\n"
            "  texture(s.c, v.xyz) * s.a + f(s); }\n");
    ck_assert_uint_eq(f.info.nsamplers, 4);
    int t0 = sampler_unit_named(&f, "s.l.t[0]", US_TEX_2D);
    int t1 = sampler_unit_named(&f, "s.l.t[1]", US_TEX_2D);
    int c = sampler_unit_named(&f, "s.c", US_TEX_CUBE);
    ck_assert_int_eq(t0, c + 1);
    ck_assert_int_eq(t1, c + 2);
    ck_assert(has_tex(&f.p, sampler_unit_named(&f, "first", US_TEX_2D),
                      US_TEX_2D));
    ck_assert(has_tex(&f.p, c, US_TEX_CUBE));
    ck_assert(has_tex(&f.p, t1, US_TEX_2D));
    ck_assert(!has_tex(&f.p, t0, US_TEX_2D));
    us_program_free(&f.p);
}
END_TEST

START_TEST(textures)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform sampler2D a;\nuniform samplerCube b;\n"
            "uniform sampler2DShadow c;\nin vec4 v;\nout vec4 color;\n"
            "void main() { color = texture(a, v.xy) + textureProj(a, v.xyz)\n"
            "  + texture(b, v.xyz, 2.0) + vec4(texture(c, v.xyz)); }\n");
    ck_assert_uint_eq(f.info.nsamplers, 3);
    ck_assert_str_eq(f.info.samplers[1].name, "b");
    ck_assert_uint_eq(f.info.samplers[2].target, US_TEX_SHADOW2D);
    ck_assert(has_op(&f.p, US_OP_TXP) && has_op(&f.p, US_OP_TXB));
    input(&f, US_FIN_TEXCOORD0, 2, 4, 0.5f, 8);
    run(&f);
    /* echo: x + 100 unit, y + 1000 target, z, lod bias */
    float *o = f.t.output[US_FOUT_COLOR];
    float x = 2 + (2.0f / 0.5f) + (2 + 100) + (2 + 200);
    NEAR(o[0], x, 1e-5f);
    NEAR(o[3], 2.0f + 202.0f, 1e-5f);
    us_program_free(&f.p);

    /* Vertex shaders sample too (level 0); 1D and 3D, projective. */
    compile(&f, US_STAGE_VERTEX,
            "#version 330\nuniform sampler1D a;\nuniform sampler3D b;\n"
            "in vec4 p;\nout vec4 c;\n"
            "void main() { gl_Position = textureLod(b, p.xyz, 0.0);\n"
            "  c = textureProj(a, p.xy); }\n");
    ck_assert_str_eq(f.info.samplers[1].name, "a");
    input(&f, US_VIN_ATTRIB0, 2, 4, 8, 1);
    run(&f);
    NEAR(f.t.output[US_VOUT_POSITION][0], 2, 0);
    NEAR(f.t.output[US_VOUT_POSITION][1], 4 + 1000 * US_TEX_3D, 0);
    NEAR(f.t.output[US_VOUT_POSITION][2], 8, 0);
    NEAR(f.t.output[US_VOUT_TEXCOORD0][0], 0.5f + 100, 0);
    us_program_free(&f.p);
    struct us_diag d;
    ck_assert(!try_compile(&f, US_STAGE_VERTEX,
                           "#version 330\nuniform sampler2DShadow a;\n"
                           "void main() { gl_Position = "
                           "vec4(texture(a, vec3(0.5))); }\n", true, &d));
    ck_assert(strstr(d.msg, "shadow"));

    /* The front step's legacy shadow lookups: vec4() of a lookup with a
     * zero offset is the whole TEX result (the depth mode's vec4);
     * projective with a bias divides by q first and runs TXB. */
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform sampler2DShadow z;\nin vec4 v;\n"
            "out vec4 c;\nvoid main() {\n"
            "  c = vec4(textureOffset(z, v.xyz, ivec2(0))); }\n");
    input(&f, US_FIN_TEXCOORD0, 2, 4, 0.5f, 8);
    run(&f);
    o = f.t.output[US_FOUT_COLOR];
    NEAR(o[0], 2, 0);
    NEAR(o[1], 4 + 1000 * US_TEX_SHADOW2D, 0);
    NEAR(o[2], 0.5f, 0);
    us_program_free(&f.p);
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nuniform sampler2DShadow z;\nin vec4 v;\n"
            "out vec4 c;\nvoid main() {\n"
            "  c = vec4(textureProjOffset(z, v, ivec2(0), 1.5)); }\n");
    ck_assert(has_op(&f.p, US_OP_TXB) && !has_op(&f.p, US_OP_TXP));
    input(&f, US_FIN_TEXCOORD0, 2, 4, 0.5f, 8);
    run(&f);
    NEAR(o[0], 0.25f, 1e-6f);
    NEAR(o[1], 0.5f + 1000 * US_TEX_SHADOW2D, 1e-4f);
    NEAR(o[2], 0.0625f, 1e-6f);
    NEAR(o[3], 1.5f, 0);
    us_program_free(&f.p);
    ck_assert(!try_compile(&f, US_STAGE_FRAGMENT,
                           "#version 330\nuniform sampler2D a;\n"
                           "out vec4 c;\nvoid main() { c = "
                           "textureOffset(a, vec2(0.5), ivec2(1)); }\n",
                           true, &d));
    ck_assert_msg(strstr(d.msg, "offset"), "%s", d.msg);
}
END_TEST

START_TEST(legacy_state)
{
    struct fx f;
    compile(&f, US_STAGE_VERTEX,
            "#version 330\nuniform mat4 us_gl_ModelViewProjectionMatrix;\n"
            "uniform mat3 us_gl_NormalMatrix;\n"
            "struct us_gl_LightSourceParameters { vec4 ambient; vec4 diffuse;"
            " vec4 specular; vec4 position; vec4 halfVector; "
            "vec3 spotDirection; float spotExponent; float spotCutoff; "
            "float spotCosCutoff; float constantAttenuation; "
            "float linearAttenuation; float quadraticAttenuation; };\n"
            "uniform us_gl_LightSourceParameters us_gl_LightSource[8];\n"
            "in vec4 p;\nout vec4 t;\n"
            "void main() { gl_Position = us_gl_ModelViewProjectionMatrix * p;"
            "\n t = vec4(us_gl_NormalMatrix * p.xyz, 0.0) + "
            "us_gl_LightSource[1].diffuse * "
            "us_gl_LightSource[1].linearAttenuation; }\n");
    for (int i = 0; i < 16; i++) {
        f.gl.modelview[i] = (float)((i * 7) % 5) + (i % 5 == 0 ? 3.0f : 0.0f);
        f.gl.projection[i] = (i % 5 == 0) ? 2.0f : (i == 14 ? 1.0f : 0.0f);
    }
    set4(f.gl.light[1].diffuse, 1, 2, 3, 4);
    f.gl.light[1].attenuation[1] = 0.5f;
    const float p[4] = { 1, 2, -1, 1 };
    input(&f, US_VIN_ATTRIB0, p[0], p[1], p[2], p[3]);
    run(&f);
    us_mat4 mvp, inv;
    us_mat4_mul(mvp, f.gl.projection, f.gl.modelview);
    ck_assert(us_mat4_inverse(inv, f.gl.modelview));
    for (int r = 0; r < 4; r++) {
        float want = 0;
        for (int c = 0; c < 4; c++)
            want += mvp[4 * r + c] * p[c];
        NEAR(f.t.output[US_VOUT_POSITION][r], want, 1e-3f);
    }
    for (int r = 0; r < 3; r++) {   /* (MV^-1)^T upper 3x3 times p.xyz */
        float want = 0;
        for (int c = 0; c < 3; c++)
            want += inv[4 * c + r] * p[c];
        NEAR(f.t.output[US_VOUT_TEXCOORD0][r],
             want + 0.5f * (float)(r + 1), 1e-4f);
    }
    us_program_free(&f.p);
}
END_TEST

/* glslang's own BuiltIn variables. */
START_TEST(core_builtins)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nout vec4 c;\nvoid main() {\n"
            "  c = gl_FragCoord * 2.0; gl_FragDepth = gl_FragCoord.x; }\n");
    input(&f, US_FIN_POSITION, 3, 4, 0.5f, 0.25f);
    run(&f);
    NEAR(f.t.output[US_FOUT_COLOR][0], 6, 0);
    NEAR(f.t.output[US_FOUT_COLOR][3], 0.5f, 0);
    NEAR(f.t.output[US_FOUT_DEPTH][2], 3, 0);   /* result.depth.z */
    us_program_free(&f.p);
    compile(&f, US_STAGE_VERTEX,
            "#version 330\nin vec4 p;\nvoid main() {\n"
            "  gl_Position = p.wzyx; gl_PointSize = p.x + 1.0; }\n");
    input(&f, US_VIN_ATTRIB0, 1, 2, 3, 4);
    run(&f);
    NEAR(f.t.output[US_VOUT_POSITION][0], 4, 0);
    NEAR(f.t.output[US_VOUT_POINTSIZE][0], 2, 0);
    us_program_free(&f.p);
    /* gl_FrontFacing is fragment.facing.x: 1.0 front, 0.0 back */
    compile(&f, US_STAGE_FRAGMENT,
            "#version 330\nout vec4 c;\nvoid main() {\n"
            "  c = gl_FrontFacing ? vec4(0.25) : vec4(0.75); }\n");
    ck_assert(f.p.inputs_read & (1ull << US_FIN_FACING));
    input(&f, US_FIN_FACING, 1, 0, 0, 1);
    run(&f);
    NEAR(f.t.output[US_FOUT_COLOR][0], 0.25f, 0);
    input(&f, US_FIN_FACING, 0, 0, 0, 1);
    run(&f);
    NEAR(f.t.output[US_FOUT_COLOR][0], 0.75f, 0);
    us_program_free(&f.p);
}
END_TEST

START_TEST(builtin_table)
{
    const struct us_glsl_builtin *b =
        us_glsl_builtin_lookup("us_gl_ModelViewProjectionMatrix",
                               US_STAGE_VERTEX);
    ck_assert_ptr_nonnull(b);
    struct us_state_ref r;
    ck_assert(us_glsl_state_of(b, NULL, 0, 2, &r));
    ck_assert_int_eq(r.item, US_STATE_MATRIX_ROW);
    ck_assert_int_eq(r.a, US_MATRIX_MVP);
    ck_assert_int_eq(r.c, US_MOD_TRANSPOSE);
    ck_assert_int_eq(r.d, 2);
    b = us_glsl_builtin_lookup("us_gl_Color", US_STAGE_FRAGMENT);
    ck_assert_int_eq(b->slot, US_FIN_COLOR0);
    b = us_glsl_builtin_lookup("us_gl_Color", US_STAGE_VERTEX);
    ck_assert_int_eq(b->slot, US_VIN_COLOR0);
    ck_assert_ptr_null(us_glsl_builtin_lookup("us_gl_FragColor",
                                              US_STAGE_VERTEX));
    b = us_glsl_builtin_lookup("us_gl_FrontLightProduct", US_STAGE_VERTEX);
    const struct us_glsl_member *m =
        us_glsl_member_lookup(b->struct_type, "diffuse");
    ck_assert(us_glsl_state_of(b, m, 3, 0, &r));
    ck_assert_int_eq(r.item, US_STATE_LIGHTPROD);
    ck_assert_int_eq(r.a, 3);
    ck_assert_int_eq(r.b, US_FACE_FRONT);
    ck_assert_int_eq(r.c, US_PROP_DIFFUSE);
    ck_assert(!us_glsl_state_of(b, m, 8, 0, &r));
    char text[512];
    size_t n = us_glsl_struct_text(US_GLSL_S_FOG, text, sizeof text);
    ck_assert_uint_eq(n, strlen(text));
    ck_assert_str_eq(text, "struct us_gl_FogParameters { vec4 color; "
                     "float density; float start; float end; float scale; "
                     "};\n");
    ck_assert_ptr_nonnull(us_glsl_builtin_core(0 /* Position */,
                                               US_STAGE_VERTEX));
    size_t count;
    const struct us_glsl_builtin *all = us_glsl_builtins(&count);
    ck_assert_uint_gt(count, 50);
    for (size_t i = 0; i < count; i++)
        ck_assert_ptr_nonnull(all[i].name);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

START_TEST(glslang_errors)
{
    struct fx f;
    struct us_diag d;
    ck_assert(!try_compile(&f, US_STAGE_FRAGMENT,
                           "#version 330\nout vec4 c;\n"
                           "void main() {\n  c = nope;\n}\n", true, &d));
    ck_assert_uint_eq(d.line, 4);
    ck_assert_msg(strstr(d.msg, "test.glsl:4:") && strstr(d.msg, "nope"),
                  "%s", d.msg);
}
END_TEST

/* A legacy shader goes through the front step's rewrite first. */
START_TEST(legacy_source)
{
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 120\nuniform vec4 c;\nvoid main() {\n"
            "  gl_FragColor = c * gl_Color + gl_TexCoord[1];\n}\n");
    uniform(&f, "c", 0, 1, 2, 3, 4);
    input(&f, US_FIN_COLOR0, 0.5f, 0.25f, 2, 1);
    input(&f, US_FIN_TEXCOORD0 + 1, 10, 20, 30, 40);
    run(&f);
    float *o = f.t.output[US_FOUT_COLOR];
    NEAR(o[0], 10.5f, 0);
    NEAR(o[1], 20.5f, 0);
    NEAR(o[2], 36, 0);
    NEAR(o[3], 44, 0);
    us_program_free(&f.p);
}
END_TEST

static const char *const small_fs =
    "#version 330\nuniform vec4 a[3];\nuniform int k;\n"
    "out vec4 c;\nvoid main() { c = a[k] * 2.0; }\n";

/* Loops, a switch, phis, arrays, struct uniforms, textures. */
static const char *const busy_fs =
    "#version 330\nstruct S { vec4 c; mat2 m; };\nuniform S u[2];\n"
    "uniform sampler2D t;\nuniform int n;\nin vec4 v;\nout vec4 c;\n"
    "void main() { float a[4]; vec4 s = vec4(0.0);\n"
    "  for (int i = 0; i < n; i++) { if (i == 1) continue;\n"
    "    a[i % 4] = float(i); s += u[i % 2].c * a[int(v.x)];\n"
    "    if (s.x > 9.0) break; }\n"
    "  switch (n) { case 0: s.y = 1.0; break; default: s.y = 2.0; }\n"
    "  if (v.w < 0.0) discard;\n"
    "  c = s + texture(t, v.xy) + vec4(u[1].m * v.zw, asin(v.y), 0); }\n";

static void spawn(char *const argv[])
{
    pid_t pid;
    int status;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    ck_assert_int_eq(posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ),
                     0);
    posix_spawn_file_actions_destroy(&fa);
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* glslang's module for a fragment shader, spirv-opt -O'd if `optimize`. */
static uint32_t *module_words_st(const char *src, const char *stage,
                                 bool optimize, size_t *n);

static uint32_t *module_words(const char *src, bool optimize, size_t *n)
{
    return module_words_st(src, "frag", optimize, n);
}

static uint32_t *module_words_st(const char *src, const char *stage,
                                 bool optimize, size_t *n)
{
    char path[] = "/tmp/ushader-test-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *fsrc = fdopen(fd, "w");
    fputs(src, fsrc);
    fclose(fsrc);
    char out[64];
    snprintf(out, sizeof out, "%s.spv", path);
    char *argv[] = { "glslangValidator", "-G", "--aml", "--amb", "-S",
                     (char *)stage, "-o", out, path, NULL };
    spawn(argv);
    if (optimize) {
        char *opt[] = { "spirv-opt", "-O", "--merge-return", out, "-o", out,
                        NULL };
        spawn(opt);
    }
    FILE *fb = fopen(out, "rb");
    ck_assert_ptr_nonnull(fb);
    uint32_t *w = malloc(1 << 16);
    *n = fread(w, 4, (1 << 16) / 4, fb);
    fclose(fb);
    unlink(path);
    unlink(out);
    return w;
}

/* ---- integers as 32-bit words (GLSL 1.30 and later) ------------------- */

/* A program with memory: buffer bindings the test owns, and the launch. */
struct mx {
    struct us_program p;
    struct us_glsl_info info;
    struct us_glstate gl;
    us_vec4 params[US_MAX_PARAMS];
    struct us_memory mem;
    uint8_t *data[US_MAX_BUFFERS];
};

static void mx_compile(struct mx *m, enum us_stage st, const char *src)
{
    memset(m, 0, sizeof *m);
    us_glstate_init(&m->gl);
    struct us_glsl_options o;
    us_glsl_options_init(&o);
    struct us_diag d;
    bool ok = us_glsl_compile("test.glsl", src, strlen(src), st, &o, &m->p,
                              &m->info, &d);
    if (!ok)
        fprintf(stderr, "compile: %s\n%s\n", d.msg, src);
    ck_assert(ok);
    check_roundtrip(&m->p);
}

static void *mx_buffer(struct mx *m, unsigned binding, uint32_t size)
{
    free(m->data[binding]);
    m->data[binding] = calloc(size ? size : 1, 1);
    ck_assert_ptr_nonnull(m->data[binding]);
    m->mem.buf[binding] = (struct us_buffer){ m->data[binding], size };
    return m->data[binding];
}

/* What a runner does before a run: the buffers' sizes into their size
 * parameters (us_glsl_buffer.size_local), then the parameters. */
static struct us_exec_env mx_env(struct mx *m)
{
    for (unsigned i = 0; i < m->info.nbuffers; i++) {
        const struct us_glsl_buffer *b = &m->info.buffers[i];
        if (b->size_local < 0)
            continue;
        uint32_t size = m->mem.buf[b->binding].size;
        float *v = m->gl.local[m->p.stage][b->size_local];
        for (int c = 0; c < 4; c++)
            memcpy(&v[c], &size, sizeof size);
        /* us_resolve_params reads a compute program's program.local
         * from the vertex stage's (shader/glstate.c) */
        if (m->p.stage == US_STAGE_COMPUTE)
            memcpy(m->gl.local[US_STAGE_VERTEX][b->size_local], v,
                   4 * sizeof *v);
    }
    us_resolve_params(&m->p, &m->gl, m->params);
    return (struct us_exec_env){ .params = m->params, .math = &us_math_exact,
                                 .mem = &m->mem };
}

static void mx_launch(struct mx *m, uint32_t gx, uint32_t gy, uint32_t gz)
{
    struct us_exec_env env = mx_env(m);
    const uint32_t groups[3] = { gx, gy, gz };
    struct us_diag d;
    bool ok = us_compute_interpret(&m->p, &env, groups, NULL, &d);
    if (!ok)
        fprintf(stderr, "launch: %s\n", d.msg);
    ck_assert(ok);
}

static void mx_free(struct mx *m)
{
    for (unsigned b = 0; b < US_MAX_BUFFERS; b++)
        free(m->data[b]);
    us_program_free(&m->p);
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, sizeof v);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The model's integer semantics (docs/COMPUTE.md), written again here:
 * GLSL leaves division by zero, INT_MIN / -1 and shifts by 32 or more
 * undefined, the IR defines them. */
typedef uint32_t (*iref)(int32_t a, int32_t b, float f);

static uint32_t r_add(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a + (uint32_t)b; }
static uint32_t r_sub(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a - (uint32_t)b; }
static uint32_t r_mul(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a * (uint32_t)b; }
static uint32_t r_sdiv(int32_t a, int32_t b, float f)
{
    (void)f;
    if (b == 0)
        return ~0u;
    if (a == INT32_MIN && b == -1)
        return (uint32_t)a;
    return (uint32_t)(a / b);
}
static uint32_t r_smod(int32_t a, int32_t b, float f)   /* OpSMod */
{
    (void)f;
    if (b == 0)
        return (uint32_t)a;
    if (b == -1)
        return 0;
    int32_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return (uint32_t)r;
}
static uint32_t r_udiv(int32_t a, int32_t b, float f)
{
    (void)f;
    return b ? (uint32_t)a / (uint32_t)b : ~0u;
}
static uint32_t r_umod(int32_t a, int32_t b, float f)
{
    (void)f;
    return b ? (uint32_t)a % (uint32_t)b : (uint32_t)a;
}
static uint32_t r_neg(int32_t a, int32_t b, float f) { (void)b; (void)f; return 0u - (uint32_t)a; }
static uint32_t r_not(int32_t a, int32_t b, float f) { (void)b; (void)f; return ~(uint32_t)a; }
static uint32_t r_and(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a & (uint32_t)b; }
static uint32_t r_or(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a | (uint32_t)b; }
static uint32_t r_xor(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a ^ (uint32_t)b; }
static uint32_t r_shl(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a << (b & 31); }
static uint32_t r_shr(int32_t a, int32_t b, float f)
{
    (void)f;
    uint32_t n = (uint32_t)b & 31, u = (uint32_t)a >> n;
    return a < 0 && n ? u | ~(~0u >> n) : u;
}
static uint32_t r_ushr(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a >> (b & 31); }
static uint32_t r_lt(int32_t a, int32_t b, float f) { (void)f; return a < b; }
static uint32_t r_le(int32_t a, int32_t b, float f) { (void)f; return a <= b; }
static uint32_t r_eq(int32_t a, int32_t b, float f) { (void)f; return a == b; }
static uint32_t r_ne(int32_t a, int32_t b, float f) { (void)f; return a != b; }
static uint32_t r_gt(int32_t a, int32_t b, float f) { (void)f; return a > b; }
static uint32_t r_ge(int32_t a, int32_t b, float f) { (void)f; return a >= b; }
static uint32_t r_ult(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a < (uint32_t)b; }
static uint32_t r_ule(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a <= (uint32_t)b; }
static uint32_t r_ugt(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a > (uint32_t)b; }
static uint32_t r_uge(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a >= (uint32_t)b; }
static uint32_t i_abs(int32_t a, int32_t b, float f) { (void)b; (void)f; return a < 0 ? 0u - (uint32_t)a : (uint32_t)a; }
static uint32_t i_sign(int32_t a, int32_t b, float f) { (void)b; (void)f; return (uint32_t)(a > 0 ? 1 : a < 0 ? -1 : 0); }
static uint32_t i_min(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)(a < b ? a : b); }
static uint32_t i_max(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)(a > b ? a : b); }
static uint32_t r_umin(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a < (uint32_t)b ? (uint32_t)a : (uint32_t)b; }
static uint32_t r_umax(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a > (uint32_t)b ? (uint32_t)a : (uint32_t)b; }
static uint32_t i_clamp(int32_t a, int32_t b, float f)
{
    (void)f;
    int32_t lo = b < 7 ? b : 7, hi = b > 7 ? b : 7;
    return (uint32_t)(a < lo ? lo : a > hi ? hi : a);
}
static uint32_t r_uclamp(int32_t a, int32_t b, float f)
{
    (void)f;
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    uint32_t lo = y < 7 ? y : 7, hi = y > 7 ? y : 7;
    return x < lo ? lo : x > hi ? hi : x;
}
static uint32_t bfe(uint32_t x, unsigned off, unsigned bits, bool sgn)
{
    if (bits == 0 || off >= 32)
        return 0;
    if (bits > 32 - off)
        bits = 32 - off;
    uint32_t v = bits == 32 ? x : (x >> off) & ((1u << bits) - 1);
    if (sgn && bits < 32 && (v >> (bits - 1) & 1))
        v |= ~((1u << bits) - 1);
    return v;
}
static uint32_t r_bfe_s(int32_t a, int32_t b, float f) { (void)b; (void)f; return bfe((uint32_t)a, 3, 9, true); }
static uint32_t r_bfe_u(int32_t a, int32_t b, float f) { (void)b; (void)f; return bfe((uint32_t)a, 20, 12, false); }
static uint32_t r_bfe_d(int32_t a, int32_t b, float f) { (void)f; return bfe((uint32_t)a, (uint32_t)b & 31, 5, true); }
static uint32_t r_bfi(int32_t a, int32_t b, float f)
{
    (void)f;
    uint32_t m = 0xfffu << 8;
    return ((uint32_t)a & ~m) | (((uint32_t)b << 8) & m);
}
static uint32_t r_rev(int32_t a, int32_t b, float f)
{
    (void)b; (void)f;
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((uint32_t)a >> i & 1) << (31 - i);
    return r;
}
static uint32_t r_cnt(int32_t a, int32_t b, float f) { (void)b; (void)f; return (uint32_t)__builtin_popcount((uint32_t)a); }
static uint32_t r_lsb(int32_t a, int32_t b, float f) { (void)b; (void)f; return a ? (uint32_t)__builtin_ctz((uint32_t)a) : ~0u; }
static uint32_t r_umsb(int32_t a, int32_t b, float f) { (void)b; (void)f; return a ? (uint32_t)(31 - __builtin_clz((uint32_t)a)) : ~0u; }
static uint32_t r_smsb(int32_t a, int32_t b, float f)
{
    (void)b; (void)f;
    uint32_t x = a < 0 ? ~(uint32_t)a : (uint32_t)a;
    return x ? (uint32_t)(31 - __builtin_clz(x)) : ~0u;
}
static uint32_t r_carry(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a + (uint32_t)b < (uint32_t)a; }
static uint32_t r_borrow(int32_t a, int32_t b, float f) { (void)f; return (uint32_t)a < (uint32_t)b; }
static uint32_t r_umulhi(int32_t a, int32_t b, float f)
{
    (void)f;
    return (uint32_t)((uint64_t)(uint32_t)a * (uint32_t)b >> 32);
}
static uint32_t r_imulhi(int32_t a, int32_t b, float f)
{
    (void)f;
    return (uint32_t)((uint64_t)((int64_t)a * b) >> 32);
}
static uint32_t r_i2f(int32_t a, int32_t b, float f) { (void)b; (void)f; return fbits((float)a); }
static uint32_t r_u2f(int32_t a, int32_t b, float f) { (void)b; (void)f; return fbits((float)(uint32_t)a); }
static uint32_t r_f2i(int32_t a, int32_t b, float f)
{
    (void)a; (void)b;
    if (f != f)
        return 0;
    if (f >= 2147483648.0f)
        return 0x7fffffff;
    if (f < -2147483648.0f)
        return 0x80000000u;
    return (uint32_t)(int32_t)f;
}
static uint32_t r_f2u(int32_t a, int32_t b, float f)
{
    (void)a; (void)b;
    if (f != f || f <= 0)
        return 0;
    if (f >= 4294967296.0f)
        return ~0u;
    return (uint32_t)f;
}
static uint32_t r_sel(int32_t a, int32_t b, float f)
{
    (void)f;
    return a < b ? (uint32_t)a - 1u : (uint32_t)b + 7u;
}
static uint32_t r_fsel(int32_t a, int32_t b, float f) { return (uint32_t)(f > 0 ? a : b); }
static uint32_t r_bits(int32_t a, int32_t b, float f) { (void)b; (void)f; return (uint32_t)a; }

struct iop {
    const char *glsl;   /* of int a, b, uint ua, ub, float f; int-valued */
    iref ref;
};

static const struct iop iops[] = {
    { "a + b", r_add }, { "a - b", r_sub }, { "a * b", r_mul },
    { "a / b", r_sdiv }, { "a % b", r_smod }, { "int(ua / ub)", r_udiv },
    { "int(ua % ub)", r_umod }, { "-a", r_neg }, { "~a", r_not },
    { "a & b", r_and }, { "a | b", r_or }, { "a ^ b", r_xor },
    { "a << b", r_shl }, { "a >> b", r_shr }, { "int(ua >> ub)", r_ushr },
    { "int(a < b)", r_lt }, { "int(a <= b)", r_le }, { "int(a == b)", r_eq },
    { "int(a != b)", r_ne }, { "int(a > b)", r_gt }, { "int(a >= b)", r_ge },
    { "int(ua < ub)", r_ult }, { "int(ua <= ub)", r_ule },
    { "int(ua > ub)", r_ugt }, { "int(ua >= ub)", r_uge },
    { "abs(a)", i_abs }, { "sign(a)", i_sign }, { "min(a, b)", i_min },
    { "max(a, b)", i_max }, { "int(min(ua, ub))", r_umin },
    { "int(max(ua, ub))", r_umax },
    { "clamp(a, min(b, 7), max(b, 7))", i_clamp },
    { "int(clamp(ua, min(ub, 7u), max(ub, 7u)))", r_uclamp },
    { "bitfieldExtract(a, 3, 9)", r_bfe_s },
    { "int(bitfieldExtract(ua, 20, 12))", r_bfe_u },
    { "bitfieldExtract(a, b & 31, 5)", r_bfe_d },
    { "bitfieldInsert(a, b, 8, 12)", r_bfi },
    { "bitfieldReverse(a)", r_rev }, { "bitCount(a)", r_cnt },
    { "findLSB(a)", r_lsb }, { "findMSB(a)", r_smsb },
    { "findMSB(ua)", r_umsb }, { "int(carry(ua, ub))", r_carry },
    { "int(borrow(ua, ub))", r_borrow },
    { "int(umulhi(ua, ub))", r_umulhi },
    { "imulhi(a, b)", r_imulhi }, { "floatBitsToInt(float(a))", r_i2f },
    { "floatBitsToInt(float(ua))", r_u2f }, { "int(f)", r_f2i },
    { "int(uint(f))", r_f2u }, { "a < b ? a - 1 : b + 7", r_sel },
    { "f > 0.0 ? a : b", r_fsel },
    { "floatBitsToInt(intBitsToFloat(a) * 1.0 + 0.0) * 0 + a", r_bits },
};
enum { NIOPS = sizeof iops / sizeof iops[0] };

static const int32_t corner_ints[] = {
    0, 1, -1, 2, -2, 7, -7, 31, 32, 33, -32, INT32_MAX, INT32_MIN,
    INT32_MIN + 1, 0x55555555, (int32_t)0xaaaaaaaau, 65535, 65536,
    1000001, -1000001, 0x7f800001, (int32_t)0xffc00000u,
};
static const float corner_floats[] = {
    0.0f, -0.0f, 1.5f, -1.5f, 2147483520.0f, 2147483648.0f, -2147483648.0f,
    -2147483904.0f, 4294967040.0f, 4294967296.0f, 1e30f, -1e30f, 0.99f,
    -0.99f, 16777217.0f, 3e9f,
};
enum { NCI = sizeof corner_ints / sizeof *corner_ints,
       NCF = sizeof corner_floats / sizeof *corner_floats };

/* The shader body: r[o + k] = op k, for k < NIOPS. */
static void int_body(char *src, size_t size, const char *head,
                     const char *tail)
{
    size_t n = (size_t)snprintf(src, size, "%s"
        "uint carry(uint x, uint y) { uint c; uaddCarry(x, y, c); "
        "return c; }\n"
        "uint borrow(uint x, uint y) { uint c; usubBorrow(x, y, c); "
        "return c; }\n"
        "uint umulhi(uint x, uint y) { uint h, l; umulExtended(x, y, h, l); "
        "return h; }\n"
        "int imulhi(int x, int y) { int h, l; imulExtended(x, y, h, l); "
        "return h; }\n"
        "const int NOPS = %u;\n"
        "void ops(int a, int b, float f, int o) {\n"
        "  uint ua = uint(a), ub = uint(b);\n", head, (unsigned)NIOPS);
    for (unsigned k = 0; k < NIOPS; k++)
        n += (size_t)snprintf(src + n, size - n, "  r[o + %u] = %s;\n", k,
                              iops[k].glsl);
    snprintf(src + n, size - n, "}\n%s", tail);
}

static void check_int_results(const uint8_t *r, unsigned pair, int32_t a,
                              int32_t b, float f)
{
    for (unsigned k = 0; k < NIOPS; k++) {
        uint32_t got = get32(r + 4 * (pair * NIOPS + k));
        uint32_t want = iops[k].ref(a, b, f);
        ck_assert_msg(got == want, "%s with a = %d, b = %d, f = %.9g: "
                      "0x%08x, want 0x%08x", iops[k].glsl, a, b, (double)f,
                      got, want);
    }
}

/* Every pair of corner values through every integer operation in a
 * compute shader: operands from a std430 array of structs (12-byte
 * stride), its length() bounding the launch, results into another
 * buffer; compared with C bit for bit. */
START_TEST(integer_ops_compute)
{
    static char src[16384];
    int_body(src, sizeof src,
             "#version 430\nlayout(local_size_x = 32) in;\n"
             "struct P { int a, b; float f; };\n"
             "layout(std430, binding = 0) readonly buffer In { P p[]; };\n"
             "layout(std430, binding = 1) writeonly buffer Out "
             "{ int r[]; };\n",
             "void main() { uint i = gl_GlobalInvocationID.x;\n"
             "  if (i < uint(p.length()))\n"
             "    ops(p[i].a, p[i].b, p[i].f, int(i) * NOPS); }\n");
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE, src);
    ck_assert_uint_eq(m.p.stage, US_STAGE_COMPUTE);
    ck_assert_uint_eq(m.p.group_size[0], 32);
    ck_assert_uint_eq(m.p.buffers_used, 3);
    unsigned npairs = NCI * NCI;
    uint8_t *in = mx_buffer(&m, 0, 12 * npairs);
    uint8_t *out = mx_buffer(&m, 1, 4 * NIOPS * npairs);
    for (unsigned i = 0; i < npairs; i++) {
        put32(in + 12 * i, (uint32_t)corner_ints[i / NCI]);
        put32(in + 12 * i + 4, (uint32_t)corner_ints[i % NCI]);
        put32(in + 12 * i + 8, fbits(corner_floats[i % NCF]));
    }
    /* one workgroup more than needed: length() keeps it out */
    mx_launch(&m, (npairs + 31) / 32 + 1, 1, 1);
    for (unsigned i = 0; i < npairs; i++)
        check_int_results(out, i, corner_ints[i / NCI], corner_ints[i % NCI],
                          corner_floats[i % NCF]);
    ck_assert_uint_eq(m.mem.counts.oob, 0);
    mx_free(&m);
}
END_TEST

/* Uniform `name` (a run of program.local slots) gets the words v[0..3]
 * in slot 0, after checking the type a runner would see. */
static void mx_uniform(struct mx *m, const char *name, unsigned type,
                       const uint32_t v[4])
{
    unsigned t = US_GLSL_AGGREGATE + 1;
    for (unsigned i = 0; i < m->info.nuniforms; i++)
        if (!strcmp(m->info.uniforms[i].name, name))
            t = m->info.uniforms[i].type;
    ck_assert_uint_eq(t, type);
    for (unsigned d = 0; d < m->p.ndecls; d++) {
        const struct us_decl *dc = &m->p.decls[d];
        if (dc->kind == US_DECL_PARAM && !strcmp(dc->name, name)) {
            unsigned k = m->p.params[dc->base].index;
            memcpy(m->gl.local[m->p.stage][k], v, 4 * sizeof *v);
            if (m->p.stage == US_STAGE_COMPUTE)   /* as mx_env says */
                memcpy(m->gl.local[US_STAGE_VERTEX][k], v, 4 * sizeof *v);
            return;
        }
    }
    ck_abort_msg("no uniform %s", name);
}

/* The same operations in vertex and fragment shaders, on int uniforms
 * (set as their bits, us_glsl_uniform.type INT), results into a storage
 * buffer. */
START_TEST(integer_ops_stages)
{
    static char src[16384];
    enum us_stage st = _i ? US_STAGE_FRAGMENT : US_STAGE_VERTEX;
    int_body(src, sizeof src,
             "#version 430\nuniform int ua_, ub_;\nuniform float uf;\n"
             "layout(std430, binding = 3) buffer Out { int r[]; };\n",
             _i ? "out vec4 c;\nvoid main() { ops(ua_, ub_, uf, 0); "
                  "c = vec4(1.0); }\n"
                : "void main() { ops(ua_, ub_, uf, 0); "
                  "gl_Position = vec4(0.0); }\n");
    struct mx m;
    mx_compile(&m, st, src);
    ck_assert_uint_eq(m.info.nbuffers, 1);
    ck_assert_uint_eq(m.info.buffers[0].binding, 3);
    ck_assert_int_eq(m.info.buffers[0].kind, US_GLSL_SSBO);
    ck_assert_str_eq(m.info.buffers[0].name, "Out");
    ck_assert(!m.info.float_integers);
    uint8_t *out = mx_buffer(&m, 3, 4 * NIOPS);
    struct us_thread *t = malloc(sizeof *t);
    ck_assert_ptr_nonnull(t);
    for (unsigned i = 0; i < NCI * NCI; i += 5) {
        int32_t a = corner_ints[i / NCI], b = corner_ints[i % NCI];
        float f = corner_floats[i % NCF];
        const uint32_t va[4] = { (uint32_t)a, (uint32_t)a, (uint32_t)a,
                                 (uint32_t)a };
        const uint32_t vb[4] = { (uint32_t)b, (uint32_t)b, (uint32_t)b,
                                 (uint32_t)b };
        const uint32_t vf[4] = { fbits(f), fbits(f), fbits(f), fbits(f) };
        mx_uniform(&m, "ua_", US_GLSL_INT, va);
        mx_uniform(&m, "ub_", US_GLSL_INT, vb);
        mx_uniform(&m, "uf", US_GLSL_FLOAT, vf);
        memset(out, 0xee, 4 * NIOPS);
        struct us_exec_env env = mx_env(&m);
        us_thread_reset(t);
        us_interpret(&m.p, &env, t);
        ck_assert(!t->overrun);
        check_int_results(out, 0, a, b, f);
    }
    free(t);
    mx_free(&m);
}
END_TEST

/* A float that is a NaN pattern moves through registers and memory as
 * it is: bit casts, selects, loop-carried values, register arrays with
 * dynamic indices and integer copies never quiet it. */
START_TEST(nan_patterns)
{
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE,
               "#version 430\nlayout(local_size_x = 4) in;\n"
               "layout(std430, binding = 0) buffer B { int i[4]; float f[4]; "
               "ivec4 v; int w[4]; int u[4]; int n; };\n"
               "void main() { uint k = gl_LocalInvocationIndex;\n"
               "  int x = i[k];\n"
               "  f[k] = intBitsToFloat(x);\n"
               "  int y = k == 0u ? x : i[3u - k];\n"
               "  v[k] = y;\n"
               "  for (int j = 0; j < n; j++) x = (x << 1) | (x >> 31 & 1);\n"
               "  w[k] = x;\n"
               "  int a[4] = int[4](0, 0, 0, 0);\n"
               "  a[k] = i[k]; a[(k + 1u) & 3u] = i[(k + 2u) & 3u];\n"
               "  u[k] = a[k ^ 1u] ^ a[k];\n"
               "}\n");
    uint8_t *b = mx_buffer(&m, 0, 100);
    const uint32_t pat[4] = { 0x7f800001u, 0xffffffffu, 0x7fc00123u,
                              0xff812345u };
    for (int k = 0; k < 4; k++)
        put32(b + 4 * k, pat[k]);
    put32(b + 96, 32);   /* 32 rotations: the pattern again */
    mx_launch(&m, 1, 1, 1);
    for (int k = 0; k < 4; k++) {
        ck_assert_uint_eq(get32(b + 16 + 4 * k), pat[k]);
        ck_assert_uint_eq(get32(b + 32 + 4 * k), pat[k ? 3 - k : 0]);
        ck_assert_uint_eq(get32(b + 48 + 4 * k), pat[k]);
        /* a[k] = pat[k], a[k+1] = pat[k+2]; k ^ 1 is k + 1 for even k */
        uint32_t other = k % 2 == 0 ? pat[(k + 2) & 3] : 0;
        ck_assert_uint_eq(get32(b + 64 + 4 * k), pat[k] ^ other);
    }
    mx_free(&m);
}
END_TEST

/* ---- compute shaders and memory -------------------------------------- */

/* Shared memory, barriers and atomics: each workgroup of 64 loads a tile
 * into shared memory, reverses it across a barrier, reduces it in a tree
 * of barriers, and counts with shared and buffer atomics (the ticket
 * counter's old values are a permutation whatever the order). */
START_TEST(compute_shared)
{
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE,
        "#version 430\n"
        "layout(local_size_x = 16, local_size_y = 4) in;\n"
        "layout(std430, binding = 0) buffer Data { uint v[]; };\n"
        "layout(std430, binding = 1) buffer Res { uint count; int lo;\n"
        "  int hi; uint bits; uint first[4]; uint sums[4]; uint red[4];\n"
        "  uint tickets[256]; uint rev[256]; };\n"
        "shared uint tile[64];\n"
        "shared uint total;\n"
        "void main() {\n"
        "  uint l = gl_LocalInvocationIndex, g = gl_WorkGroupID.x;\n"
        "  uint i = g * 64u + l;\n"
        "  tile[l] = v[i];\n"
        "  if (l == 0u) total = 0u;\n"
        "  barrier();\n"
        "  uint r = tile[63u - l];\n"
        "  atomicAdd(total, r);\n"
        "  atomicMin(lo, int(r) - 100);\n"
        "  atomicMax(hi, int(r));\n"
        "  atomicXor(bits, 1u << (l & 31u));\n"
        "  atomicCompSwap(first[g], 0u, l + 1u);\n"
        "  tickets[i] = atomicAdd(count, 1u);\n"
        "  rev[i] = r;\n"
        "  barrier();\n"
        "  for (uint s = 32u; s > 0u; s >>= 1) {\n"
        "    if (l < s) tile[l] += tile[l + s];\n"
        "    barrier();\n"
        "  }\n"
        "  if (l == 0u) { red[g] = tile[0]; sums[g] = total; }\n"
        "}\n");
    ck_assert_uint_eq(m.p.group_size[0], 16);
    ck_assert_uint_eq(m.p.group_size[1], 4);
    ck_assert_uint_eq(m.p.group_size[2], 1);
    ck_assert_uint_ge(m.p.shared_bytes, 64 * 4 + 4);
    ck_assert_uint_le(m.p.shared_bytes, 64 * 4 + 16);
    unsigned bars = 0;
    for (unsigned i = 0; i < m.p.ninsts; i++)
        bars += m.p.insts[i].op == US_OP_BAR;
    ck_assert_uint_eq(bars, 3);
    uint8_t *v = mx_buffer(&m, 0, 4 * 256);
    uint8_t *r = mx_buffer(&m, 1, 4 * (4 + 12 + 512));
    uint32_t want_sum[4] = { 0 };
    for (unsigned i = 0; i < 256; i++) {
        put32(v + 4 * i, 7 * i + 3);
        want_sum[i / 64] += 7 * i + 3;
    }
    put32(r + 4, 1000000);   /* lo */
    mx_launch(&m, 4, 1, 1);
    ck_assert_uint_eq(get32(r), 256);
    ck_assert_int_eq((int32_t)get32(r + 4), 3 - 100);
    ck_assert_uint_eq(get32(r + 8), 7 * 255 + 3);
    ck_assert_uint_eq(get32(r + 12), 0);   /* each bit flipped 8 times */
    bool seen[256] = { false };
    for (unsigned g = 0; g < 4; g++) {
        ck_assert_uint_eq(get32(r + 16 + 4 * g), 1);   /* l = 0 came first */
        ck_assert_uint_eq(get32(r + 32 + 4 * g), want_sum[g]);
        ck_assert_uint_eq(get32(r + 48 + 4 * g), want_sum[g]);
    }
    for (unsigned i = 0; i < 256; i++) {
        uint32_t t = get32(r + 64 + 4 * i);
        ck_assert_uint_lt(t, 256);
        ck_assert(!seen[t]);
        seen[t] = true;
        unsigned g = i / 64, l = i % 64;
        ck_assert_uint_eq(get32(r + 64 + 1024 + 4 * i),
                          7 * (64 * g + 63 - l) + 3);
    }
    ck_assert_uint_eq(m.mem.counts.oob, 0);
    mx_free(&m);
}
END_TEST

/* A barrier where only some invocations of a lockstep group arrive is
 * the model's documented error; here every invocation passes both, so
 * the built-ins come out as GLSL defines them. */
START_TEST(compute_builtins)
{
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE,
        "#version 430\n"
        "layout(local_size_x = 2, local_size_y = 3, local_size_z = 2) in;\n"
        "layout(std430, binding = 5) buffer O { uvec4 o[]; };\n"
        "void main() {\n"
        "  uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;\n"
        "  uvec3 g = gl_GlobalInvocationID;\n"
        "  uint i = (g.z * n.y + g.y) * n.x + g.x;\n"
        "  o[4u * i] = uvec4(gl_GlobalInvocationID, gl_LocalInvocationIndex);\n"
        "  o[4u * i + 1u] = uvec4(gl_LocalInvocationID, 7u);\n"
        "  o[4u * i + 2u] = uvec4(gl_WorkGroupID, 8u);\n"
        "  o[4u * i + 3u] = uvec4(gl_NumWorkGroups, gl_WorkGroupSize.z);\n"
        "}\n");
    const uint32_t groups[3] = { 3, 2, 2 };
    unsigned nx = 6, ny = 6, nz = 4, items = nx * ny * nz;
    uint8_t *o = mx_buffer(&m, 5, 64 * items);
    mx_launch(&m, groups[0], groups[1], groups[2]);
    for (unsigned z = 0; z < nz; z++)
        for (unsigned y = 0; y < ny; y++)
            for (unsigned x = 0; x < nx; x++) {
                const uint8_t *p = o + 64 * ((z * ny + y) * nx + x);
                unsigned lx = x % 2, ly = y % 3, lz = z % 2;
                const uint32_t want[16] = {
                    x, y, z, (lz * 3 + ly) * 2 + lx, lx, ly, lz, 7,
                    x / 2, y / 3, z / 2, 8, 3, 2, 2, 2,
                };
                for (int k = 0; k < 16; k++)
                    ck_assert_msg(get32(p + 4 * k) == want[k],
                                  "(%u %u %u) word %d: %u, want %u", x, y, z,
                                  k, get32(p + 4 * k), want[k]);
            }
    mx_free(&m);
}
END_TEST

/* std430 and std140 offsets, vec3 alignment, arrays of structs, matrices
 * column- and row-major: a shader copies buffer 0 (filled here at the
 * offsets the layout rules give) member by member into buffer 1 of the
 * same layout, with a dynamic index, whole structs and matrices, and
 * writes a few values of its own; both are compared byte for byte. */
START_TEST(buffer_layouts)
{
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE,
        "#version 430\nlayout(local_size_x = 2) in;\n"
        "struct S { vec3 a; float b; vec2 c; int d[3]; };\n"
        "layout(std430, binding = 0) buffer A { float x; vec3 y; S s[2];\n"
        "  mat3 m; layout(row_major) mat2x3 rm; vec4 tail[]; } a;\n"
        "layout(std430, binding = 1) buffer B { float x; vec3 y; S s[2];\n"
        "  mat3 m; layout(row_major) mat2x3 rm; vec4 tail[]; } b;\n"
        "layout(std140, binding = 2) buffer C { float f[3]; vec3 v;\n"
        "  mat2 q; int n; };\n"
        "void main() {\n"
        "  uint k = gl_LocalInvocationIndex;\n"
        "  b.s[k] = a.s[k];\n"
        "  if (k == 0u) {\n"
        "    b.x = a.x; b.y = a.y; b.m = a.m; b.rm = a.rm;\n"
        "    b.tail[int(a.x)] = a.tail[0] + vec4(a.rm[1][2]);\n"
        "    f[1] = a.y.z; f[2] = a.m[2][1]; v = a.s[1].a;\n"
        "    q = mat2(a.rm[0][0], a.rm[0][1], a.rm[1][0], a.rm[1][1]);\n"
        "    n = a.tail.length();\n"
        "  }\n"
        "}\n");
    /* std430: x 0, y 16, s 32 (stride 48: a 0, b 12, c 16, d 24..36),
     * m 128 (columns 16 apart), rm 176 (rows of 2 floats, 8 apart),
     * tail 208 */
    enum { TAIL = 208, SIZE = TAIL + 3 * 16 };
    uint8_t *a = mx_buffer(&m, 0, SIZE);
    uint8_t *b = mx_buffer(&m, 1, SIZE);
    uint8_t *c = mx_buffer(&m, 2, 128);
    for (unsigned i = 0; i < SIZE / 4; i++)
        put32(a + 4 * i, fbits((float)i + 0.25f));
    put32(a, fbits(2.0f));   /* x: the tail index */
    for (unsigned e = 0; e < 2; e++)
        for (unsigned j = 0; j < 3; j++)
            put32(a + 32 + 48 * e + 24 + 4 * j, 100 * e + j);   /* ints */
    memset(b, 0xcd, SIZE);
    mx_launch(&m, 1, 1, 1);
    /* every member byte copied; the padding left as it was */
    static const struct { unsigned at, n; } members[] = {
        { 0, 4 }, { 16, 12 }, { 32, 12 }, { 44, 4 }, { 48, 8 }, { 56, 12 },
        { 80, 12 }, { 92, 4 }, { 96, 8 }, { 104, 12 }, { 128, 12 },
        { 144, 12 }, { 160, 12 }, { 176, 24 },
    };
    uint8_t want[SIZE];
    memset(want, 0xcd, SIZE);
    for (size_t i = 0; i < sizeof members / sizeof *members; i++)
        memcpy(want + members[i].at, a + members[i].at, members[i].n);
    /* b.tail[2] = a.tail[0] + rm[1][2] (column 1, row 2: 176 + 2 * 8 + 4) */
    float rm12 = bitsf(get32(a + 176 + 16 + 4));
    for (unsigned c4 = 0; c4 < 4; c4++)
        put32(want + TAIL + 32 + 4 * c4,
              fbits(bitsf(get32(a + TAIL + 4 * c4)) + rm12));
    for (unsigned i = 0; i < SIZE; i++)
        ck_assert_msg(b[i] == want[i], "byte %u: 0x%02x, want 0x%02x", i,
                      b[i], want[i]);
    /* std140: f[i] 16 apart, v 48, q 64 (columns 16 apart), n 96 */
    ck_assert_uint_eq(get32(c + 16), get32(a + 16 + 8));
    ck_assert_uint_eq(get32(c + 32), get32(a + 128 + 32 + 4));
    for (unsigned j = 0; j < 3; j++)
        ck_assert_uint_eq(get32(c + 48 + 4 * j), get32(a + 80 + 4 * j));
    ck_assert_uint_eq(get32(c + 64), get32(a + 176));      /* rm[0][0] */
    ck_assert_uint_eq(get32(c + 68), get32(a + 176 + 8));  /* rm[0][1] */
    ck_assert_uint_eq(get32(c + 80), get32(a + 180));      /* rm[1][0] */
    ck_assert_uint_eq(get32(c + 84), get32(a + 188));      /* rm[1][1] */
    ck_assert_uint_eq(get32(c + 96), 3);   /* (256 - 208) / 16 */
    ck_assert_uint_eq(m.info.nbuffers, 3);
    for (unsigned i = 0; i < 3; i++) {
        const struct us_glsl_buffer *bi = &m.info.buffers[i];
        if (bi->binding == 0)
            ck_assert_int_ge(bi->size_local, 0);
        if (bi->binding == 2)
            ck_assert_uint_eq(bi->size, 112);
        if (bi->binding != 0)
            ck_assert_uint_eq(bi->size, bi->binding == 1 ? 208 : 112);
    }
    mx_free(&m);
}
END_TEST

/* Atomic counters in a fragment and a vertex shader: binding B is
 * buffer[16 + B], the counter at its offset. */
START_TEST(atomic_counters)
{
    enum us_stage st = _i ? US_STAGE_VERTEX : US_STAGE_FRAGMENT;
    char src[1024];
    snprintf(src, sizeof src,
        "#version 450\n"
        "layout(binding = 2, offset = 4) uniform atomic_uint c0;\n"
        "layout(binding = 0) uniform atomic_uint c1[3];\n"
        "%s\n"
        "void main() {\n"
        "  uint a = atomicCounterIncrement(c0);\n"
        "  uint b = atomicCounterDecrement(c1[1]);\n"
        "  uint d = atomicCounter(c1[2]);\n"
        "  %s = vec4(a, b, d, 1.0);\n"
        "}\n", _i ? "" : "out vec4 color;", _i ? "gl_Position" : "color");
    struct mx m;
    mx_compile(&m, st, src);
    ck_assert_uint_eq(m.p.buffers_used, (1u << 18) | (1u << 16));
    ck_assert_uint_eq(m.info.nbuffers, 2);
    for (unsigned i = 0; i < 2; i++) {
        const struct us_glsl_buffer *b = &m.info.buffers[i];
        ck_assert_int_eq(b->kind, US_GLSL_COUNTERS);
        ck_assert_uint_eq(b->size, b->binding == 18 ? 8 : 12);
        ck_assert_int_eq(b->size_local, -1);
    }
    uint8_t *b2 = mx_buffer(&m, 18, 8);
    uint8_t *b0 = mx_buffer(&m, 16, 12);
    put32(b2 + 4, 41);
    put32(b0 + 4, 10);
    put32(b0 + 8, 77);
    struct us_thread *t = malloc(sizeof *t);
    ck_assert_ptr_nonnull(t);
    for (unsigned k = 0; k < 3; k++) {
        struct us_exec_env env = mx_env(&m);
        us_thread_reset(t);
        us_interpret(&m.p, &env, t);
        const float *o = t->output[_i ? US_VOUT_POSITION : US_FOUT_COLOR];
        ck_assert_float_eq(o[0], (float)(41 + k));   /* the old value */
        ck_assert_float_eq(o[1], (float)(10 - k - 1));   /* the new one */
        ck_assert_float_eq(o[2], 77.0f);
    }
    ck_assert_uint_eq(get32(b2 + 4), 44);
    ck_assert_uint_eq(get32(b0 + 4), 7);
    ck_assert_uint_eq(get32(b0), 0);
    free(t);
    mx_free(&m);
}
END_TEST

/* 8- and 16-bit storage (GL_EXT_shader_16bit_storage, 8bit_storage):
 * LOAD.S16 / U8 extend, STORE.U16 / U8 keep the low bytes. */
START_TEST(small_storage)
{
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE,
        "#version 450\n"
        "#extension GL_EXT_shader_16bit_storage : require\n"
        "#extension GL_EXT_shader_8bit_storage : require\n"
        "layout(local_size_x = 4) in;\n"
        "layout(std430, binding = 0) buffer B { int16_t h[8]; uint8_t u[8];\n"
        "  int8_t s[4]; uint16_t w[4]; int r[]; };\n"
        "void main() {\n"
        "  uint i = gl_LocalInvocationID.x;\n"
        "  r[i] = int(h[i]) + int(u[i]) * 1000 + int(s[i]) * 100000;\n"
        "  r[i + 4u] = int(w[i]);\n"
        "  h[i + 4u] = int16_t(r[i]);\n"
        "  u[i + 4u] = uint8_t(r[i] + 1);\n"
        "}\n");
    uint8_t *b = mx_buffer(&m, 0, 68);   /* r[] at 36, 8 of them */
    const int16_t h[4] = { -1, 32767, -32768, 5 };
    const uint8_t u[4] = { 255, 0, 128, 7 };
    const int8_t sb[4] = { -128, 127, -1, 0 };
    const uint16_t w[4] = { 65535, 0x8000, 1, 0 };
    for (int i = 0; i < 4; i++) {
        memcpy(b + 2 * i, &h[i], 2);
        b[16 + i] = u[i];
        memcpy(b + 24 + i, &sb[i], 1);
        memcpy(b + 28 + 2 * i, &w[i], 2);
    }
    mx_launch(&m, 1, 1, 1);
    for (int i = 0; i < 4; i++) {
        int32_t r = h[i] + u[i] * 1000 + sb[i] * 100000;
        ck_assert_int_eq((int32_t)get32(b + 36 + 4 * i), r);
        ck_assert_int_eq((int32_t)get32(b + 52 + 4 * i), w[i]);
        int16_t h2;
        memcpy(&h2, b + 8 + 2 * i, 2);
        ck_assert_int_eq(h2, (int16_t)r);
        ck_assert_uint_eq(b[20 + i], (uint8_t)(r + 1));
    }
    ck_assert_uint_eq(m.mem.counts.oob, 0);
    unsigned narrow = 0;
    for (unsigned i = 0; i < m.p.ninsts; i++)
        narrow += m.p.insts[i].mtype != US_MT_U32 &&
                  (m.p.insts[i].op == US_OP_LOAD ||
                   m.p.insts[i].op == US_OP_STORE);
    ck_assert_uint_eq(narrow, 6);
    mx_free(&m);
}
END_TEST

/* GLSL ES 3.10 compute, GLSL ES 3.00 fragment (compiled as 3.10), and
 * desktop GLSL ES sources' integers as words. */
START_TEST(es_versions)
{
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE,
        "#version 310 es\nlayout(local_size_x = 4) in;\n"
        "layout(std430, binding = 0) buffer B { highp int v[]; };\n"
        "void main() { v[gl_LocalInvocationIndex] = "
        "int(gl_LocalInvocationIndex) * -3 >> 1; }\n");
    uint8_t *b = mx_buffer(&m, 0, 16);
    mx_launch(&m, 1, 1, 1);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq((int32_t)get32(b + 4 * i), (i * -3) >> 1);
    mx_free(&m);
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT,
            "#version 300 es\nprecision mediump float;\n"
            "uniform ivec2 k;\nin vec4 v;\nout vec4 color;\n"
            "void main() { color = vec4(float(k.x ^ k.y), v.yzw); }\n");
    ck_assert(!f.info.float_integers);
    uniform(&f, "k", 0, 6, 3, 0, 0);
    input(&f, US_FIN_TEXCOORD0, 0, 1, 2, 3);
    run(&f);
    NEAR(f.t.output[US_FOUT_COLOR][0], 5.0f, 0);
    NEAR(f.t.output[US_FOUT_COLOR][3], 3.0f, 0);
    us_program_free(&f.p);
    /* 3.30 with the storage buffer extension (piglit's way): 4.30 */
    mx_compile(&m, US_STAGE_FRAGMENT,
        "#version 330\n"
        "#extension GL_ARB_shader_storage_buffer_object: require\n"
        "layout(binding = 2) buffer B { vec4 c; uint n; };\n"
        "out vec4 o;\nvoid main() { o = c * float(atomicAdd(n, 2u)); }\n");
    b = mx_buffer(&m, 2, 20);
    put32(b, fbits(1.5f));
    put32(b + 16, 3);
    struct us_exec_env env = mx_env(&m);
    us_thread_reset(&f.t);
    us_interpret(&m.p, &env, &f.t);
    NEAR(f.t.output[US_FOUT_COLOR][0], 4.5f, 0);
    ck_assert_uint_eq(get32(b + 16), 5);
    mx_free(&m);
    /* and a 3.30 compute shader with GL_ARB_compute_shader */
    mx_compile(&m, US_STAGE_COMPUTE,
        "#version 330\n#extension GL_ARB_compute_shader: require\n"
        "#extension GL_ARB_shader_storage_buffer_object: require\n"
        "layout(local_size_x = 3) in;\n"
        "layout(std430, binding = 0) buffer B { uint v[]; };\n"
        "void main() { v[gl_LocalInvocationIndex] = 7u; }\n");
    ck_assert_uint_eq(m.p.group_size[0], 3);
    mx_free(&m);
}
END_TEST

/* Unsupported SPIR-V names its instruction and the GLSL line, never a
 * bare opcode number; so do other translation errors. */
START_TEST(error_lines)
{
    static const struct { const char *src; unsigned line; const char *msg; }
    cases[] = {
        { "#version 450\nlayout(location = 0) in vec4 v;\n"
          "out vec4 c;\nuniform sampler2D s;\nvoid main() {\n  float x = v.x;\n"
          "  c = vec4(textureSize(s, 0), x, x);\n}\n", 7,
          "unsupported SPIR-V instruction OpImage (GLSL: "
          "c = vec4(textureSize(s, 0), x, x);)" },
        { "#version 450\nin vec4 v;\nout vec4 c;\nvoid main() {\n"
          "  c = vec4(determinant(mat2(v)));\n}\n", 5,
          "unsupported GLSL.std.450 instruction Determinant (GLSL: "
          "c = vec4(determinant(mat2(v)));)" },
        { "#version 450\nin vec4 v;\nout vec4 c;\nvoid main() {\n"
          "  c = vec4(determinant(mat2(v))\n   + 1.0);\n}\n", 5,
          "unsupported GLSL.std.450 instruction Determinant" },
        /* the front step's renames undone in the quoted line */
        { "varying float t;\nvoid main() {\n"
          "  gl_FragColor = vec4(inverse(mat2(t)));\n}\n", 3,
          "(GLSL: gl_FragColor = vec4(inverse(mat2(t)));)" },
        { "#version 430\nlayout(local_size_x = 1) in;\n"
          "layout(binding = 17) buffer B { int x; };\n"
          "void main() {\n  x = 1;\n}\n", 5, "binding 17 is out of range" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct fx f;
        struct us_diag d;
        enum us_stage st = strstr(cases[i].src, "local_size")
                           ? US_STAGE_COMPUTE : US_STAGE_FRAGMENT;
        ck_assert(!try_compile(&f, st, cases[i].src, true, &d));
        ck_assert_msg(d.line == cases[i].line, "%s: line %u, want %u", d.msg,
                      d.line, cases[i].line);
        char head[32];
        snprintf(head, sizeof head, "test.glsl:%u: ", cases[i].line);
        ck_assert_msg(!strncmp(d.msg, head, strlen(head)), "%s", d.msg);
        ck_assert_msg(strstr(d.msg, cases[i].msg), "%s", d.msg);
        ck_assert_msg(!strstr(d.msg, "opcode"), "%s", d.msg);
    }
}
END_TEST

/* GLSL 1.30, 1.40 and 1.50 through the front step: in/out globals get
 * locations as attribute/varying do, the fragment output is the colour,
 * 1.30's keywords stay keywords, and integers are words. */
START_TEST(glsl_130)
{
    static const char *const versions[] = { "130", "140", "150 core",
                                            "150 compatibility" };
    for (unsigned v = 0; v < 4; v++) {
        char vs[512], fs[512];
        snprintf(vs, sizeof vs,
                 "#version %s\nin vec4 pos;\nin vec3 col;\nflat out int id;\n"
                 "smooth out vec3 c;\nuniform uint k;\nvoid main() {\n"
                 "  gl_Position = pos; id = int(k >> 1u) ^ 5; c = col;\n}\n",
                 versions[v]);
        snprintf(fs, sizeof fs,
                 "#version %s\nflat in int id;\nin vec3 c;\n"
                 "out vec4 color;\nvoid main() {\n"
                 "  color = vec4(c * float(id & 3), float(id));\n}\n",
                 versions[v]);
        struct us_glsl_link link;
        us_glsl_link_init(&link);
        struct us_diag d;
        char *vr, *fr;
        size_t vn, fn;
        ck_assert_msg(us_glsl_front(vs, strlen(vs), US_STAGE_VERTEX, &link,
                                    &vr, &vn, &d), "%s", d.msg);
        ck_assert_msg(us_glsl_front(fs, strlen(fs), US_STAGE_FRAGMENT, &link,
                                    &fr, &fn, &d), "%s", d.msg);
        ck_assert(!us_glsl_float_integers(vr, vn));
        ck_assert(strstr(vr, "flat out int id"));
        ck_assert(strstr(fr, "layout(location=0) out vec4 color"));
        const struct us_glsl_slot *sid = us_glsl_link_varying(&link, "id");
        ck_assert_ptr_nonnull(sid);
        struct fx f;
        compile(&f, US_STAGE_VERTEX, vr);
        uniform(&f, "k", 0, 13, 0, 0, 0);
        const struct us_glsl_slot *pos = us_glsl_link_attrib(&link, "pos");
        ck_assert_ptr_nonnull(pos);
        input(&f, US_VIN_ATTRIB0 + pos->first, 1, 2, 3, 4);
        run(&f);
        uint32_t id;
        memcpy(&id, &f.t.output[US_VOUT_TEXCOORD0 + sid->first][0], 4);
        ck_assert_uint_eq(id, (13u >> 1) ^ 5u);
        NEAR(f.t.output[US_VOUT_POSITION][3], 4.0f, 0);
        us_program_free(&f.p);
        compile(&f, US_STAGE_FRAGMENT, fr);
        float fid;
        int32_t six = 6;
        memcpy(&fid, &six, 4);
        input(&f, US_FIN_TEXCOORD0 + sid->first, fid, fid, fid, fid);
        input(&f, US_FIN_TEXCOORD0 + us_glsl_link_varying(&link, "c")->first,
              1, 2, 3, 0);
        run(&f);
        NEAR(f.t.output[US_FOUT_COLOR][1], 4.0f, 0);
        NEAR(f.t.output[US_FOUT_COLOR][3], 6.0f, 0);
        us_program_free(&f.p);
        free(vr);
        free(fr);
    }
    /* one colour buffer */
    const char *two = "#version 130\nout vec4 a;\nout vec4 b;\n"
                      "void main() { a = b = vec4(1.0); }\n";
    struct us_diag d;
    char *out;
    size_t n;
    ck_assert(!us_glsl_front(two, strlen(two), US_STAGE_FRAGMENT, NULL, &out,
                             &n, &d));
    ck_assert_uint_eq(d.line, 3);
    ck_assert(strstr(d.msg, "one colour buffer"));
    /* compute shaders start at 4.30 (ES 3.10) */
    const char *cs = "layout(local_size_x = 1) in;\nvoid main() {}\n";
    ck_assert(!us_glsl_front(cs, strlen(cs), US_STAGE_COMPUTE, NULL, &out, &n,
                             &d));
    ck_assert(strstr(d.msg, "#version 430"));
    /* 1.30 7.1: built-in varyings redeclared with a qualifier */
    const char *re = "#version 130\nflat in vec4 gl_Color;\n"
                     "void main() { gl_FragColor = gl_Color; }\n";
    ck_assert_msg(us_glsl_front(re, strlen(re), US_STAGE_FRAGMENT, NULL, &out,
                                &n, &d), "%s", d.msg);
    struct fx f;
    compile(&f, US_STAGE_FRAGMENT, out);
    input(&f, US_FIN_COLOR0, 0.25f, 0.5f, 1, 2);
    run(&f);
    NEAR(f.t.output[US_FOUT_COLOR][3], 2.0f, 0);
    us_program_free(&f.p);
    free(out);
    /* 1.20 keeps float integers, and its interpolation words are names */
    const char *old = "#version 120\nvarying float flat;\n"
                      "void main() { gl_FragColor = vec4(flat); }\n";
    ck_assert(us_glsl_front(old, strlen(old), US_STAGE_FRAGMENT, NULL, &out,
                            &n, &d));
    ck_assert(us_glsl_float_integers(out, n));
    ck_assert(strstr(out, "us_id_flat"));
    free(out);
}
END_TEST

/* packHalf2x16 and unpackHalf2x16 against the compiler's binary16 (every
 * half, every midpoint between neighbouring halves, the specials), and
 * the 8- and 16-bit norm packings on values they represent exactly. */
START_TEST(packing)
{
#ifdef __FLT16_MAX__
    struct mx m;
    mx_compile(&m, US_STAGE_COMPUTE,
        "#version 430\nlayout(local_size_x = 64) in;\n"
        "layout(std430, binding = 0) buffer P { vec2 f[]; };\n"
        "layout(std430, binding = 1) buffer Q { uint packed[]; };\n"
        "layout(std430, binding = 2) buffer U { uint u[]; };\n"
        "layout(std430, binding = 3) buffer V { vec2 unpacked[]; };\n"
        "layout(std430, binding = 4) buffer N { vec4 n[256]; uvec4 pn[256];\n"
        "  vec4 un[256]; };\n"
        "void main() { uint i = gl_GlobalInvocationID.x;\n"
        "  if (i < uint(f.length())) packed[i] = packHalf2x16(f[i]);\n"
        "  if (i < uint(u.length())) unpacked[i] = unpackHalf2x16(u[i]);\n"
        "  if (i < 256u) {\n"
        "    pn[i] = uvec4(packUnorm4x8(n[i]), packSnorm4x8(n[i] * 2.0 - 1.0),\n"
        "                  packUnorm2x16(n[i].xy), packSnorm2x16(n[i].zw));\n"
        "    un[i] = vec4(unpackUnorm4x8(i * 0x01010101u).x,\n"
        "                 unpackSnorm4x8(i << 8).y, unpackUnorm2x16(i << 8).x,\n"
        "                 unpackSnorm2x16(i << 24).y);\n"
        "  } }\n");
    enum { NH = 65536, NF = 2 * NH + 8 };
    float *in = malloc(NF * sizeof *in);
    ck_assert_ptr_nonnull(in);
    unsigned nf = 0;
    for (uint32_t h = 0; h < NH; h++) {
        uint16_t hb = (uint16_t)h, hn = (uint16_t)(h + 1);
        _Float16 a, b;
        memcpy(&a, &hb, 2);
        memcpy(&b, &hn, 2);
        in[nf++] = (float)a;
        /* the midpoint to the next half of the same sign */
        if ((h & 0x7fff) < 0x7bff)
            in[nf++] = ((float)a + (float)b) / 2;
    }
    const float special[] = { 65504.0f, 65519.99f, 65520.0f, 1e10f,
                              5.9604645e-8f * 0.5f, 1e-30f,
                              bitsf(0x7f800000u), bitsf(0xff812345u) };
    for (unsigned i = 0; i < sizeof special / sizeof *special; i++)
        in[nf++] = special[i];
    if (nf & 1)
        in[nf++] = 0.0f;
    uint8_t *fb = mx_buffer(&m, 0, 4 * nf);
    memcpy(fb, in, 4 * nf);
    uint8_t *pb = mx_buffer(&m, 1, 2 * nf);
    uint8_t *ub = mx_buffer(&m, 2, 2 * NH);
    uint8_t *vb = mx_buffer(&m, 3, 4 * NH);
    for (uint32_t i = 0; i < NH / 2; i++)
        put32(ub + 4 * i, (2 * i) | (2 * i + 1) << 16);
    uint8_t *nb = mx_buffer(&m, 4, 3 * 16 * 256);
    for (unsigned i = 0; i < 256; i++) {
        const float v[4] = { (float)i / 255, (float)(255 - i) / 255,
                             (float)(i % 3) / 2, i == 7 ? 1.5f : 0.0f };
        memcpy(nb + 16 * i, v, 16);
    }
    mx_launch(&m, (nf / 2 + 63) / 64, 1, 1);
    for (unsigned i = 0; i < nf; i++) {
        uint16_t got, want;
        memcpy(&got, pb + 2 * i, 2);
        _Float16 h = (_Float16)in[i];
        memcpy(&want, &h, 2);
        if (in[i] != in[i])
            ck_assert_msg((got & 0x7c00) == 0x7c00 && (got & 0x3ff),
                          "pack NaN 0x%08x: 0x%04x", fbits(in[i]), got);
        else
            ck_assert_msg(got == want, "packHalf2x16(%a): 0x%04x, want "
                          "0x%04x", (double)in[i], got, want);
    }
    for (uint32_t h = 0; h < NH; h++) {
        uint16_t hb = (uint16_t)h;
        _Float16 x;
        memcpy(&x, &hb, 2);
        float want = (float)x, got = bitsf(get32(vb + 4 * h));
        if (want != want)
            ck_assert_msg(got != got, "unpack 0x%04x: %a", h, (double)got);
        else
            ck_assert_msg(fbits(got) == fbits(want), "unpackHalf2x16(0x%04x)"
                          ": %a, want %a", h, (double)got, (double)want);
    }
    for (unsigned i = 0; i < 256; i++) {
        const uint8_t *p = nb + 4096 + 16 * i;
        /* (i, 255 - i, 0 / 127 / 255, 0 or 255) as bytes */
        unsigned z = (i % 3) * 255 / 2 + ((i % 3) == 1), w = i == 7 ? 255 : 0;
        ck_assert_uint_eq(get32(p), i | (255 - i) << 8 | z << 16 | w << 24);
        /* snorm of 2v - 1: round(clamp(v', -1, 1) * 127) */
        for (unsigned c = 0; c < 4; c++) {
            float v = bitsf(get32(nb + 16 * i + 4 * c)) * 2.0f - 1.0f;
            float cl = v < -1 ? -1 : v > 1 ? 1 : v;
            int want = (int)floorf(cl * 127.0f + 0.5f);
            ck_assert_int_eq((int8_t)(get32(p + 4) >> (8 * c)), want);
        }
        ck_assert_uint_eq(get32(p + 8) & 0xffff, i * 257);
        const float *q = (const float *)(nb + 8192 + 16 * i);
        NEAR(q[0], (float)i / 255, 6e-8f);
        float sb = (float)(int8_t)i / 127;
        NEAR(q[1], sb < -1 ? -1 : sb, 6e-8f);
        NEAR(q[2], (float)(i << 8) / 65535, 6e-8f);
        float sw = (float)(int16_t)(i << 8) / 32767;
        NEAR(q[3], sw < -1 ? -1 : sw, 6e-8f);
    }
    free(in);
    mx_free(&m);
#endif
}
END_TEST

START_TEST(malformed)
{
    size_t n;
    uint32_t *w = module_words(small_fs, false, &n);
    struct us_program p;
    struct us_diag d;
    ck_assert(us_spirv_translate(w, n, US_STAGE_FRAGMENT, 0, &p, NULL, &d));
    check_roundtrip(&p);
    us_program_free(&p);
    /* wrong stage */
    ck_assert(!us_spirv_translate(w, n, US_STAGE_VERTEX, 0, &p, NULL, &d));
    ck_assert(strstr(d.msg, "entry point"));
    /* every truncation */
    for (size_t k = 0; k < n; k++) {
        ck_assert(!us_spirv_translate(w, k, US_STAGE_FRAGMENT, 0, &p, NULL,
                                      &d));
        ck_assert(d.msg[0]);
    }
    /* corrupt one word at a time: an error or a program, never a crash */
    uint32_t *c = malloc(n * sizeof *c);
    unsigned failed = 0;
    for (size_t k = 0; k < n; k++) {
        static const uint32_t junk[] = { 0, 1, 0xffffffffu, 0x10000, 77 };
        for (size_t j = 0; j < sizeof junk / sizeof junk[0]; j++) {
            memcpy(c, w, n * sizeof *c);
            c[k] = junk[j] == 0x10000 ? w[k] + 0x10000 : junk[j];
            if (us_spirv_translate(c, n, US_STAGE_FRAGMENT, 0, &p, NULL, &d))
                us_program_free(&p);
            else
                failed++, ck_assert(d.msg[0]);
        }
    }
    ck_assert_uint_gt(failed, n);
    /* bad magic, bad bound */
    memcpy(c, w, n * sizeof *c);
    c[0] = 0x12345678;
    ck_assert(!us_spirv_translate(c, n, US_STAGE_FRAGMENT, 0, &p, NULL, &d));
    ck_assert(strstr(d.msg, "magic"));
    memcpy(c, w, n * sizeof *c);
    c[3] = 0xfffffff0u;
    ck_assert(!us_spirv_translate(c, n, US_STAGE_FRAGMENT, 0, &p, NULL, &d));
    free(c);
    free(w);
}
END_TEST

/* Control flow gone wrong: every branch of a module with loops, a switch
 * and selections retargeted to every block (cycles without merges, exits
 * out of several constructs), and every word corrupted.  An error or a
 * program, never a crash or a hang. */
START_TEST(malformed_flow)
{
    size_t n;
    /* unoptimized: function-scope variables; optimized: phis */
    uint32_t *w = module_words(busy_fs, _i == 1, &n);
    struct us_program p;
    struct us_diag d;
    struct us_glsl_info info;
    ck_assert_msg(us_spirv_translate(w, n, US_STAGE_FRAGMENT, 0, &p, &info, &d),
                  "%s", d.msg);
    check_roundtrip(&p);
    us_program_free(&p);
    uint32_t labels[256], nlabels = 0;
    for (size_t at = 5; at < n; at += w[at] >> 16)
        if ((w[at] & 0xffff) == 248 /* OpLabel */ && nlabels < 256)
            labels[nlabels++] = w[at + 1];
    uint32_t *c = malloc(n * sizeof *c);
    unsigned runs = 0, ok = 0;
    for (size_t at = 5; at < n; at += w[at] >> 16) {
        unsigned op = w[at] & 0xffff, wc = w[at] >> 16;
        /* OpBranch 249: target at 1; OpBranchConditional 250: 2, 3 */
        unsigned first = op == 249 ? 1 : op == 250 ? 2 : 0;
        unsigned last = op == 249 ? 1 : op == 250 ? 3 : 0;
        for (unsigned k = first; first && k <= last && k < wc; k++)
            for (uint32_t l = 0; l < nlabels; l++) {
                memcpy(c, w, n * sizeof *c);
                c[at + k] = labels[l];
                runs++;
                if (us_spirv_translate(c, n, US_STAGE_FRAGMENT, 0, &p, NULL,
                                       &d)) {
                    ok++;
                    us_program_free(&p);
                } else {
                    ck_assert(d.msg[0]);
                }
            }
    }
    ck_assert_uint_gt(runs, 50);
    for (size_t k = 5; k < n; k++)
        for (uint32_t j = 0; j < 3; j++) {
            memcpy(c, w, n * sizeof *c);
            c[k] = j == 0 ? w[k] ^ 1 : j == 1 ? w[k] + 0x10000 : 2;
            if (us_spirv_translate(c, n, US_STAGE_FRAGMENT, 0, &p, NULL, &d))
                us_program_free(&p);
        }
    free(c);
    free(w);
}
END_TEST

/* Memory, atomics, barriers and integers gone wrong: every word of a
 * compute and of a fragment module with storage buffers, shared memory,
 * atomics, a counter and length() corrupted.  An error or a program that
 * reassembles, never a crash. */
START_TEST(malformed_memory)
{
    static const char *const src[2] = {
        "#version 430\nlayout(local_size_x = 8, local_size_y = 2) in;\n"
        "struct S { vec3 a; int b[2]; };\n"
        "layout(std430, binding = 1) buffer B { uint n; S s[4]; "
        "float f[]; };\n"
        "shared uint t[16];\n"
        "void main() { uint l = gl_LocalInvocationIndex;\n"
        "  t[l] = gl_GlobalInvocationID.x << 2u;\n  barrier();\n"
        "  s[l & 3u].b[l & 1u] = int(atomicAdd(t[15u - l], n)) >> 1;\n"
        "  f[l % uint(f.length())] = float(s[l & 3u].a.y);\n"
        "  atomicCompSwap(n, 0u, l); memoryBarrier(); }\n",
        "#version 450\n"
        "layout(binding = 0, offset = 4) uniform atomic_uint c;\n"
        "layout(std430, binding = 2) buffer B { ivec4 v[]; };\n"
        "in vec4 p;\nout vec4 o;\n"
        "void main() { int i = int(p.x) & 7;\n"
        "  v[i] = ivec4(p) ^ v[i + 1] >> 2;\n"
        "  o = vec4(atomicCounterIncrement(c), bitCount(v[0].x), p.zw); }\n",
    };
    for (unsigned m = 0; m < 2; m++) {
        enum us_stage st = m ? US_STAGE_FRAGMENT : US_STAGE_COMPUTE;
        size_t n;
        uint32_t *w = module_words_st(src[m], m ? "frag" : "comp", true, &n);
        struct us_program p;
        struct us_diag d;
        ck_assert_msg(us_spirv_translate(w, n, st, 0, &p, NULL, &d), "%s",
                      d.msg);
        check_roundtrip(&p);
        us_program_free(&p);
        uint32_t *c = malloc(n * sizeof *c);
        ck_assert_ptr_nonnull(c);
        unsigned failed = 0, passed = 0;
        for (size_t k = 5; k < n; k++) {
            static const uint32_t junk[] = { 0, 1, 0xffffffffu, 0x10000, 3 };
            for (size_t j = 0; j < sizeof junk / sizeof junk[0]; j++) {
                memcpy(c, w, n * sizeof *c);
                c[k] = junk[j] == 0x10000 ? w[k] + 0x10000 : junk[j];
                if (us_spirv_translate(c, n, st, 0, &p, NULL, &d)) {
                    passed++;
                    check_roundtrip(&p);
                    us_program_free(&p);
                } else {
                    failed++;
                    ck_assert(d.msg[0]);
                }
            }
        }
        ck_assert_uint_gt(failed, n);
        ck_assert_uint_gt(passed, 0);
        free(c);
        free(w);
    }
}
END_TEST

/* Fuzz findings: a composite constant with fewer constituents than its
 * type's slots, and an extended instruction short of operands, are
 * errors (they left operands unset). */
START_TEST(malformed_operands)
{
    size_t n;
    uint32_t *w = module_words(
        "#version 330\nin vec4 v;\nout vec4 c;\n"
        "const vec4 k[3] = vec4[3](vec4(0.1), vec4(0.2), vec4(0.3));\n"
        "void main() { c = k[int(v.x)] + smoothstep(v.x, v.y, v.zwzw); }\n",
        true, &n);
    struct us_program p;
    struct us_diag d;
    ck_assert_msg(us_spirv_translate(w, n, US_STAGE_FRAGMENT, 0, &p, NULL, &d),
                  "%s", d.msg);
    us_program_free(&p);
    uint32_t *c = malloc(n * sizeof *c);
    ck_assert_ptr_nonnull(c);
    unsigned patched = 0;
    for (size_t at = 5; at < n; at += w[at] >> 16) {
        unsigned op = w[at] & 0xffff, wc = w[at] >> 16;
        memcpy(c, w, n * sizeof *c);
        if (op == 28 /* OpTypeArray */) {
            /* its length constant 3 -> 5 */
            bool done = false;
            for (size_t b = 5; b < n && !done; b += w[b] >> 16)
                if ((w[b] & 0xffff) == 43 /* OpConstant */ &&
                    w[b + 2] == w[at + 3]) {
                    c[b + 3] = 5;
                    done = true;
                }
            ck_assert(done);
        } else if (op == 12 /* OpExtInst */ && wc > 6) {
            c[at] = (uint32_t)(wc - 1) << 16 | 12;   /* one operand less */
            c[at + wc - 1] = 1u << 16;                /* OpNop */
        } else {
            continue;
        }
        patched++;
        ck_assert(!us_spirv_translate(c, n, US_STAGE_FRAGMENT, 0, &p, NULL,
                                      &d));
        ck_assert_msg(strstr(d.msg, "bad composite") ||
                      strstr(d.msg, "needs 3 operands"), "%s", d.msg);
    }
    ck_assert_uint_ge(patched, 2);
    free(c);
    free(w);
}
END_TEST

static Suite *make_suite(void)
{
    Suite *s = suite_create("spirv");
    TCase *tc = tcase_create("spirv");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, arithmetic);
    tcase_add_test(tc, true_widths);
    tcase_add_test(tc, swizzles);
    tcase_add_test(tc, matrices);
    tcase_add_test(tc, integers);
    tcase_add_loop_test(tc, std450, 0, (int)(sizeof fns / sizeof fns[0]));
    tcase_add_test(tc, uniform_array_vs);
    tcase_add_test(tc, uniform_array_fs);
    tcase_add_loop_test(tc, local_array, 0, 2);
    tcase_add_loop_test(tc, local_struct_array, 0, 2);
    tcase_add_loop_test(tc, if_else, 0, 2);
    tcase_add_loop_test(tc, loops, 0, 2);
    tcase_add_test(tc, switch_discard);
    tcase_add_loop_test(tc, nested_loops, 0, 2);
    tcase_add_test(tc, logic_select);
    tcase_add_test(tc, fragment_uniform_index);
    tcase_add_test(tc, large_const_array);
    tcase_add_test(tc, scalar_into_component);
    tcase_add_loop_test(tc, output_readback, 0, 2);
    tcase_add_test(tc, struct_uniforms);
    tcase_add_loop_test(tc, dynamic_stores, 0, 2);
    tcase_add_test(tc, uniform_initializer);
    tcase_add_test(tc, textures);
    tcase_add_test(tc, struct_samplers);
    tcase_add_test(tc, legacy_state);
    tcase_add_test(tc, core_builtins);
    tcase_add_test(tc, builtin_table);
    tcase_add_test(tc, glslang_errors);
    tcase_add_test(tc, legacy_source);
    tcase_add_test(tc, integer_ops_compute);
    tcase_add_loop_test(tc, integer_ops_stages, 0, 2);
    tcase_add_test(tc, nan_patterns);
    tcase_add_test(tc, compute_shared);
    tcase_add_test(tc, compute_builtins);
    tcase_add_test(tc, buffer_layouts);
    tcase_add_loop_test(tc, atomic_counters, 0, 2);
    tcase_add_test(tc, small_storage);
    tcase_add_test(tc, es_versions);
    tcase_add_test(tc, packing);
    tcase_add_test(tc, glsl_130);
    tcase_add_test(tc, error_lines);
    tcase_add_test(tc, malformed);
    tcase_add_loop_test(tc, malformed_flow, 0, 2);
    tcase_add_test(tc, malformed_memory);
    tcase_add_test(tc, malformed_operands);
    suite_add_tcase(s, tc);
    return s;
}
