// GeMM, C = A x B over N x N int32 matrices (wrapping), one thread per
// element of C: e-GPU's (seed 000, arXiv 2505.08421) GeMM benchmark at
// 32x32 .. 256x256.  N is the first word of binding 0, so one kernel serves
// every size (kref IDs gemm32 .. gemm256); workgroups of 8 x 1.
#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer P { uint n; };
layout(std430, binding = 1) readonly buffer A { int a[]; };
layout(std430, binding = 2) readonly buffer B { int b[]; };
layout(std430, binding = 3) writeonly buffer C { int c[]; };

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    int sum = 0;
    for (uint k = 0u; k < n; k++)
        sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}
