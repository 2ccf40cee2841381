// SVM decision over 16-feature vectors, integers: TinyBio's classification
// stage in e-GPU (seed 000, arXiv 2505.08421).  One thread per vector:
//   linear: w . x + b
//   RBF:    (sum_s alpha_s K(x, sv_s)) >> 8 + b_rbf, K = 2^-(|x - sv_s|^2 /
//           2^20) in Q15 by a piecewise-linear 2^-u (exact at integer u).
// Model in binding 1: w[16], b, b_rbf, alpha[8] (Q8), sv[8][16].
// 32 vectors, workgroups of 8.
#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer X { int x[]; };    // 32 x 16
layout(std430, binding = 1) readonly buffer M { int m[]; };    // 154 words
layout(std430, binding = 2) writeonly buffer D { int d[]; };   // 32 x 2

const uint F = 16u, S = 8u, B = 16u, BRBF = 17u, ALPHA = 18u, SV = 26u;

void main()
{
    uint v = gl_GlobalInvocationID.x;
    int lin = m[B];
    for (uint f = 0u; f < F; f++)
        lin += m[f] * x[v * F + f];
    int rbf = 0;
    for (uint s = 0u; s < S; s++) {
        int d2 = 0;
        for (uint f = 0u; f < F; f++) {
            int e = x[v * F + f] - m[SV + s * F + f];
            d2 += e * e;
        }
        int u = d2 >> 12;                 // the exponent in Q8
        int ip = u >> 8, fr = u & 255;
        int k = ip >= 15 ? 0 : 32768 >> ip;
        k -= ((k - (k >> 1)) * fr) >> 8;
        rbf += m[ALPHA + s] * k;
    }
    d[2u * v] = lin;
    d[2u * v + 1u] = (rbf >> 8) + m[BRBF];
}
