/* Stockham radix-2 FFT, N = 256, Q15 complex, in OpenCL C 1.2 as a
 * Tiny-OpenCL user writes it: TinyBio's FFT stage in e-GPU (seed 000,
 * arXiv 2505.08421); bench/compute/fft.comp is the GLSL version, with the
 * same results.  Eight stages ping-pong between two halves of __local
 * memory with a barrier after each; every butterfly halves its outputs (a
 * scaled FFT: the result is X / 256) and each product is shifted by 15 on
 * its own, so no int overflows.  x and y hold (re, im) pairs; w the
 * twiddles W^k = (cos, -sin) of 2 pi k / N in Q15, k < N / 2.  N is fixed
 * here, as the __local arrays' size is.  Launch one 1-D workgroup (groups
 * = 1) of any size: the work-items stride over the samples and each
 * stage's N / 2 butterflies by get_local_size(0); a barrier orders only a
 * workgroup, so any other workgroup leaves at once. */
#define N 256
#define LOG2N 8

__kernel void fft(__global const int *x, __global const int *w,
                  __global int *y)
{
    __local int re[2 * N], im[2 * N];
    if (get_group_id(0) != 0)
        return;
    int t0 = get_local_id(0), nt = get_local_size(0);
    for (int i = t0; i < N; i += nt) {
        re[i] = x[2 * i];
        im[i] = x[2 * i + 1];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int st = 0; st < LOG2N; st++) {
        int src = (st & 1) * N, dst = N - src;
        int s = 1 << st, m = N >> (st + 1);
        for (int t = t0; t < N / 2; t += nt) {
            int p = t >> st, q = t & (s - 1);
            int ar = re[src + q + s * p], ai = im[src + q + s * p];
            int br = re[src + q + s * (p + m)], bi = im[src + q + s * (p + m)];
            int wr = w[2 * p * s], wi = w[2 * p * s + 1];
            int dr = (ar - br) >> 1, di = (ai - bi) >> 1;
            re[dst + q + s * 2 * p] = (ar + br) >> 1;
            im[dst + q + s * 2 * p] = (ai + bi) >> 1;
            re[dst + q + s * (2 * p + 1)] = ((dr * wr) >> 15) - ((di * wi) >> 15);
            im[dst + q + s * (2 * p + 1)] = ((dr * wi) >> 15) + ((di * wr) >> 15);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = t0; i < N; i += nt) {   /* LOG2N even: the result is in the first half */
        y[2 * i] = re[i];
        y[2 * i + 1] = im[i];
    }
}
