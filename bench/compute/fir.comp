// FIR filter, 32 taps, Q15: y[i] = sum_k (h[k] * x[i + 31 - k]) >> 15 (each
// product shifted, so the int32 sum cannot overflow): TinyBio's FIR stage as
// e-GPU (seed 000, arXiv 2505.08421) runs it.  256 outputs, workgroups of 8.
#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer X { int x[]; };   // 256 + 31
layout(std430, binding = 1) readonly buffer H { int h[]; };   // 32 taps
layout(std430, binding = 2) writeonly buffer Y { int y[]; };  // 256

void main()
{
    uint i = gl_GlobalInvocationID.x;
    int acc = 0;
    for (uint k = 0u; k < 32u; k++)
        acc += (h[k] * x[i + 31u - k]) >> 15;
    y[i] = acc;
}
