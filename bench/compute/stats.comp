// Statistics of a 64-sample window: mean, median, RMS (integers): TinyBio's
// statistics stage in e-GPU (seed 000, arXiv 2505.08421).  The median is
// order independent: each thread ranks its samples (count of smaller ones,
// ties broken by index) and stores each at its rank in binding 1; after the
// barrier thread 0 reads the middle two.  RMS = isqrt(sum x^2 / 64), a
// bit-by-bit integer square root.  One workgroup of 8 threads.
#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer X { int x[]; };   // 64
layout(std430, binding = 1) buffer S { int sorted[]; };       // 64
layout(std430, binding = 2) writeonly buffer R { int r[]; };  // mean, median, rms

void main()
{
    uint t = gl_LocalInvocationID.x;
    for (uint i = t * 8u; i < t * 8u + 8u; i++) {
        int v = x[i];
        uint rank = 0u;
        for (uint j = 0u; j < 64u; j++) {
            int w = x[j];
            if (w < v || (w == v && j < i))
                rank++;
        }
        sorted[rank] = v;
    }
    memoryBarrierBuffer();
    barrier();
    if (t == 0u) {
        int sum = 0, sq = 0;
        for (uint j = 0u; j < 64u; j++) {
            sum += x[j];
            sq += x[j] * x[j];
        }
        uint ms = uint(sq) / 64u, root = 0u;
        for (uint b = 1u << 15; b != 0u; b >>= 1) {
            uint c = root | b;
            if (c * c <= ms)
                root = c;
        }
        r[0] = sum / 64;
        r[1] = (sorted[31] + sorted[32]) / 2;
        r[2] = int(root);
    }
}
