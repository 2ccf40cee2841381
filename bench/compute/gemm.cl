/* GeMM, C = A x B over n x n row-major int matrices, in OpenCL C 1.2 as a
 * Tiny-OpenCL user writes it: e-GPU's (seed 000, arXiv 2505.08421) GeMM
 * benchmark at 32x32 .. 256x256 (kref IDs gemm32_cl .. gemm256_cl);
 * bench/compute/gemm.comp is the GLSL version.  Tiny-OpenCL launches as
 * many work-items as the machine has threads (CUs x warps x threads) and
 * checks no bounds, so the work-items stride over C's rows and columns by
 * the global size in each dimension: right at any launch shape, one
 * element a work-item when the launch covers C.  The sums stay below 2^31
 * for the suite's inputs (|a|, |b| <= 1000, n <= 256). */
__kernel void gemm(__global const int *a, __global const int *b,
                   __global int *c, int n)
{
    for (int row = get_global_id(1); row < n; row += get_global_size(1))
        for (int col = get_global_id(0); col < n; col += get_global_size(0)) {
            int acc = 0;
            for (int k = 0; k < n; k++)
                acc += a[row * n + k] * b[k * n + col];
            c[row * n + col] = acc;
        }
}
