#version 430
// rodinia_gaussian: forward elimination of an 8x8 system A x = b in
// binary32, Rodinia's gaussian as DICE (seed 004, arXiv 2605.05496) runs it:
// jiayi-wang98/dice-test-gpu-rodinia cuda/gaussian/gaussian.cu, kernels Fan1
// (the multipliers m of column t) and Fan2 (row updates of A and b).  The
// host's loop over t is here a loop in one workgroup of 8 threads (a row
// each) with a barrier after each kernel; Fan1's division is the translator's a * RCP(d), and
// a - m * p is a MUL then an ADD.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer A { float a[]; };
layout(std430, binding = 1) buffer B { float b[]; };
layout(std430, binding = 2) buffer M { float m[]; };
const uint N = 8u;
void main()
{
    uint x = gl_LocalInvocationID.x;
    for (uint t = 0u; t < N - 1u; t++) {
        // Fan1: one thread per row below t.
        if (x < N - 1u - t)
            m[N * (x + t + 1u) + t] = a[N * (x + t + 1u) + t] / a[N * t + t];
        barrier();
        // Fan2: one thread per row below t, Fan2's threads of that row
        // (its columns from t on) as a loop.
        if (x < N - 1u - t) {
            uint r = N * (x + 1u + t);
            float mul = m[r + t];
            for (uint y = 0u; y < N - t; y++) {
                float p = mul * a[N * t + (y + t)];
                a[r + (y + t)] = a[r + (y + t)] - p;
            }
            float q = mul * b[t];
            b[x + 1u + t] = b[x + 1u + t] - q;
        }
        barrier();
    }
}
