/* FIR filter, Q15: y[i] = sum_k (h[k] * x[i + taps - 1 - k]) >> 15 for
 * i < n (each product shifted, so the int sum cannot overflow), in OpenCL
 * C 1.2 as a Tiny-OpenCL user writes it: TinyBio's FIR stage as e-GPU
 * (seed 000, arXiv 2505.08421) runs it; bench/compute/fir.comp is the GLSL
 * version.  Tiny-OpenCL launches as many work-items as the machine has
 * threads and checks no bounds, so each work-item takes the outputs
 * get_global_id(0), + get_global_size(0), ...: right at any launch shape.
 * x holds n + taps - 1 samples, h the taps (32 in the suite). */
__kernel void fir(__global const int *x, __global const int *h,
                  __global int *y, int n, int taps)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        int acc = 0;
        for (int k = 0; k < taps; k++)
            acc += (h[k] * x[i + taps - 1 - k]) >> 15;
        y[i] = acc;
    }
}
