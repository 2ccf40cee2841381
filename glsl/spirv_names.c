/*
 * Names for messages: SPIR-V opcodes (glsl/spirv_opnames.def) and the
 * GLSL.std.450 extended instructions, so an error says "OpDPdx" or
 * "GLSL.std.450 PackHalf2x16", never a bare number.
 */
#include <spirv/unified1/GLSL.std.450.h>

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
