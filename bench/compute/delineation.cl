/* Delineation: peak and trough detection on an n-sample signal (512 and
 * 4096 in the suite), in OpenCL C 1.2 as a Tiny-OpenCL user writes it:
 * TinyBio's delineation stage in e-GPU (seed 000, arXiv 2505.08421);
 * bench/compute/delineation.comp is the GLSL version.  Sample i (w <= i <
 * n - w) is a peak (flag 1) when it exceeds the threshold and every other
 * sample within w of it is smaller, a trough (flag -1) the mirror image;
 * the search stops at the first neighbour that disproves it, so the
 * work-items diverge.  count[0], count[1]: peaks and troughs, by
 * atomic_inc (commutative, old values unused).  Tiny-OpenCL launches as
 * many work-items as the machine has threads and checks no bounds, so each
 * work-item takes the samples get_global_id(0), + get_global_size(0), ...:
 * right at any 1-D launch shape. */
__kernel void delineation(__global const int *x, __global int *flag,
                          __global uint *count, int n, int w, int threshold)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        int f = 0;
        if (i >= w && i < n - w) {
            int v = x[i];
            if (v > threshold || v < -threshold) {
                bool peak = v > 0;
                f = peak ? 1 : -1;
                for (int j = i - w; j <= i + w; j++)
                    if (j != i && (peak ? x[j] >= v : x[j] <= v)) {
                        f = 0;
                        break;
                    }
            }
        }
        flag[i] = f;
        if (f == 1)
            atomic_inc(&count[0]);
        else if (f == -1)
            atomic_inc(&count[1]);
    }
}
