/* C = A x B, int32, n x n row-major, one work-item per element of C: the
 * e-GPU GeMM's computation (seed 000), here at 16 x 16. */
__kernel void gemm(__global const int *a, __global const int *b,
                   __global int *c, int n)
{
    int row = get_global_id(1), col = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < n; k++)
        acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}
