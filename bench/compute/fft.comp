// Stockham radix-2 FFT, N = 256, Q15 complex: TinyBio's FFT stage in e-GPU
// (seed 000, arXiv 2505.08421).  Eight stages ping-pong between two halves
// of shared memory with a barrier after each; every butterfly halves its
// outputs (a scaled FFT: the result is X / 256) and each product is shifted
// by 15 on its own, so no int32 overflows.  Twiddles W^k = (cos, -sin) of
// 2 pi k / 256 in Q15, k < 128, in binding 1.  One workgroup of 8 threads,
// each taking 16 of a stage's 128 butterflies.
#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer X { ivec2 x[]; };   // 256 (re, im)
layout(std430, binding = 1) readonly buffer W { ivec2 w[]; };   // 128
layout(std430, binding = 2) writeonly buffer Y { ivec2 y[]; };  // 256

const uint N = 256u, LOG2N = 8u, T = 8u;
shared int re[2u * N], im[2u * N];

void main()
{
    uint t0 = gl_LocalInvocationID.x;
    for (uint i = t0; i < N; i += T) {
        re[i] = x[i].x;
        im[i] = x[i].y;
    }
    barrier();
    for (uint st = 0u; st < LOG2N; st++) {
        uint src = (st & 1u) * N, dst = N - src;
        uint s = 1u << st, m = N >> (st + 1u);
        for (uint t = t0; t < N / 2u; t += T) {
            uint p = t >> st, q = t & (s - 1u);
            int ar = re[src + q + s * p], ai = im[src + q + s * p];
            int br = re[src + q + s * (p + m)], bi = im[src + q + s * (p + m)];
            ivec2 tw = w[p * s];
            int dr = (ar - br) >> 1, di = (ai - bi) >> 1;
            re[dst + q + s * 2u * p] = (ar + br) >> 1;
            im[dst + q + s * 2u * p] = (ai + bi) >> 1;
            re[dst + q + s * (2u * p + 1u)] = ((dr * tw.x) >> 15) - ((di * tw.y) >> 15);
            im[dst + q + s * (2u * p + 1u)] = ((dr * tw.y) >> 15) + ((di * tw.x) >> 15);
        }
        barrier();
    }
    for (uint i = t0; i < N; i += T)   // LOG2N even: the result is in the first half
        y[i] = ivec2(re[i], im[i]);
}
