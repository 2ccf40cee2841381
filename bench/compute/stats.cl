/* Statistics of an n-sample window (64 in the suite): mean, median, RMS
 * (integers), in OpenCL C 1.2 as a Tiny-OpenCL user writes it: TinyBio's
 * statistics stage in e-GPU (seed 000, arXiv 2505.08421);
 * bench/compute/stats.comp is the GLSL version, with the same results.
 * The median is order independent: the work-items rank the samples (count
 * of smaller ones, ties broken by index, no branch) and store each at its
 * rank in sorted; after the barrier work-item 0 sums and reads the middle
 * two.  RMS = isqrt(sum x^2 / n), a bit-by-bit integer square root.
 * Launch one 1-D workgroup (groups = 1) of any size: the work-items
 * stride over the samples by get_local_size(0); a barrier orders only a
 * workgroup, so any other workgroup leaves at once. */
__kernel void stats(__global const int *x, __global int *sorted,
                    __global int *r, int n)
{
    if (get_group_id(0) != 0)
        return;
    int t = get_local_id(0);
    for (int i = t; i < n; i += get_local_size(0)) {
        int v = x[i], rank = 0;
        for (int j = 0; j < n; j++) {
            int w = x[j];
            rank += (w < v) + (w == v) * (j < i);
        }
        sorted[rank] = v;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (t == 0) {
        int sum = 0;
        uint sq = 0, root = 0;
        for (int j = 0; j < n; j++) {
            sum += x[j];
            sq += (uint)(x[j] * x[j]);
        }
        uint ms = sq / (uint)n;
        for (uint b = 1u << 15; b != 0; b >>= 1) {
            uint c = root | b;
            root = c * c <= ms ? c : root;
        }
        r[0] = sum / n;
        r[1] = (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        r[2] = (int)root;
    }
}
