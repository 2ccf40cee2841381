/*
 * Names for messages: SPIR-V opcodes (glsl/spirv_opnames.def) and the
 * GLSL.std.450 and OpenCL.std extended instructions, so an error says
 * "OpDPdx", "GLSL.std.450 PackHalf2x16" or "OpenCL.std s_mul_hi", never a
 * bare number.
 */
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/OpenCL.std.h>

#include <stdio.h>

#include "glsl/spirv.h"

struct name { unsigned value; const char *text; };

static const struct name opnames[] = {
#define N(x) { SpvOp##x, "Op" #x },
#include "glsl/spirv_opnames.def"
#undef N
};

static const struct name std450_names[] = {
#define E(x) { GLSLstd450##x, #x },
    E(Round) E(RoundEven) E(Trunc) E(FAbs) E(SAbs) E(FSign) E(SSign) E(Floor)
    E(Ceil) E(Fract) E(Radians) E(Degrees) E(Sin) E(Cos) E(Tan) E(Asin)
    E(Acos) E(Atan) E(Sinh) E(Cosh) E(Tanh) E(Asinh) E(Acosh) E(Atanh)
    E(Atan2) E(Pow) E(Exp) E(Log) E(Exp2) E(Log2) E(Sqrt) E(InverseSqrt)
    E(Determinant) E(MatrixInverse) E(Modf) E(ModfStruct) E(FMin) E(UMin)
    E(SMin) E(FMax) E(UMax) E(SMax) E(FClamp) E(UClamp) E(SClamp) E(FMix)
    E(IMix) E(Step) E(SmoothStep) E(Fma) E(Frexp) E(FrexpStruct) E(Ldexp)
    E(PackSnorm4x8) E(PackUnorm4x8) E(PackSnorm2x16) E(PackUnorm2x16)
    E(PackHalf2x16) E(PackDouble2x32) E(UnpackSnorm2x16) E(UnpackUnorm2x16)
    E(UnpackHalf2x16) E(UnpackSnorm4x8) E(UnpackUnorm4x8) E(UnpackDouble2x32)
    E(Length) E(Distance) E(Cross) E(Normalize) E(FaceForward) E(Reflect)
    E(Refract) E(FindILsb) E(FindSMsb) E(FindUMsb) E(InterpolateAtCentroid)
    E(InterpolateAtSample) E(InterpolateAtOffset) E(NMin) E(NMax) E(NClamp)
#undef E
};

/* OpenCL.std, all of it (spirv-headers' names), lower case as the
 * specification writes them: s_abs, u_max, mad24 ... */
static const struct name ocl_names[] = {
#define C(x) { OpenCLstd_##x, #x },
    C(Acos) C(Acosh) C(Acospi) C(Asin) C(Asinh) C(Asinpi) 
    C(Atan) C(Atan2) C(Atanh) C(Atanpi) C(Atan2pi) C(Cbrt) 
    C(Ceil) C(Copysign) C(Cos) C(Cosh) C(Cospi) C(Erfc) 
    C(Erf) C(Exp) C(Exp2) C(Exp10) C(Expm1) C(Fabs) 
    C(Fdim) C(Floor) C(Fma) C(Fmax) C(Fmin) C(Fmod) 
    C(Fract) C(Frexp) C(Hypot) C(Ilogb) C(Ldexp) C(Lgamma) 
    C(Lgamma_r) C(Log) C(Log2) C(Log10) C(Log1p) C(Logb) 
    C(Mad) C(Maxmag) C(Minmag) C(Modf) C(Nan) C(Nextafter) 
    C(Pow) C(Pown) C(Powr) C(Remainder) C(Remquo) C(Rint) 
    C(Rootn) C(Round) C(Rsqrt) C(Sin) C(Sincos) C(Sinh) 
    C(Sinpi) C(Sqrt) C(Tan) C(Tanh) C(Tanpi) C(Tgamma) 
    C(Trunc) C(Half_cos) C(Half_divide) C(Half_exp) C(Half_exp2) C(Half_exp10) 
    C(Half_log) C(Half_log2) C(Half_log10) C(Half_powr) C(Half_recip) C(Half_rsqrt) 
    C(Half_sin) C(Half_sqrt) C(Half_tan) C(Native_cos) C(Native_divide) C(Native_exp) 
    C(Native_exp2) C(Native_exp10) C(Native_log) C(Native_log2) C(Native_log10) C(Native_powr) 
    C(Native_recip) C(Native_rsqrt) C(Native_sin) C(Native_sqrt) C(Native_tan) C(SAbs) 
    C(SAbs_diff) C(SAdd_sat) C(UAdd_sat) C(SHadd) C(UHadd) C(SRhadd) 
    C(URhadd) C(SClamp) C(UClamp) C(Clz) C(Ctz) C(SMad_hi) 
    C(UMad_sat) C(SMad_sat) C(SMax) C(UMax) C(SMin) C(UMin) 
    C(SMul_hi) C(Rotate) C(SSub_sat) C(USub_sat) C(U_Upsample) C(S_Upsample) 
    C(Popcount) C(SMad24) C(UMad24) C(SMul24) C(UMul24) C(UAbs) 
    C(UAbs_diff) C(UMul_hi) C(UMad_hi) C(FClamp) C(Degrees) C(FMax_common) 
    C(FMin_common) C(Mix) C(Radians) C(Step) C(Smoothstep) C(Sign) 
    C(Cross) C(Distance) C(Length) C(Normalize) C(Fast_distance) C(Fast_length) 
    C(Fast_normalize) C(Bitselect) C(Select) C(Vloadn) C(Vstoren) C(Vload_half) 
    C(Vload_halfn) C(Vstore_half) C(Vstore_half_r) C(Vstore_halfn) C(Vstore_halfn_r) C(Vloada_halfn) 
    C(Vstorea_halfn) C(Vstorea_halfn_r) C(Shuffle) C(Shuffle2) C(Printf) C(Prefetch)
#undef C
};

static const char *lookup(const struct name *t, size_t n, unsigned v)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].value == v)
            return t[i].text;
    return NULL;
}

const char *spv_op_name(unsigned op, char *buf, size_t size)
{
    const char *n = lookup(opnames, sizeof opnames / sizeof *opnames, op);
    if (n)
        return n;
    snprintf(buf, size, "with opcode %u (not in this SPIR-V version)", op);
    return buf;
}

const char *spv_std450_name(unsigned fn, char *buf, size_t size)
{
    const char *n = lookup(std450_names,
                           sizeof std450_names / sizeof *std450_names, fn);
    if (n)
        return n;
    snprintf(buf, size, "number %u", fn);
    return buf;
}

const char *spv_ocl_name(unsigned fn, char *buf, size_t size)
{
    const char *n = lookup(ocl_names, sizeof ocl_names / sizeof *ocl_names,
                           fn);
    if (n) {
        /* SMul_hi -> s_mul_hi, UAbs -> u_abs, Mad24 -> mad24 */
        size_t k = 0;
        if ((n[0] == 'S' || n[0] == 'U') && n[1] >= 'A' && n[1] <= 'Z' &&
            size > 3) {
            buf[k++] = (char)(n[0] - 'A' + 'a');
            buf[k++] = '_';
            n++;
        }
        for (; *n && k + 1 < size; n++)
            buf[k++] = (char)(*n >= 'A' && *n <= 'Z' ? *n - 'A' + 'a' : *n);
        buf[k] = '\0';
        return buf;
    }
    snprintf(buf, size, "number %u", fn);
    return buf;
}
