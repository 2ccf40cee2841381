/* Per-workgroup sums by a tree in __local memory with a barrier per
 * level (the reduction of the e-GPU statistics stage). */
__kernel void reduce(__global const int *in, __global int *out)
{
    __local int tmp[64];
    int l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = tmp[0] + (int)get_num_groups(0) * 1000 +
                               (int)get_global_size(0) * 100000;
}
