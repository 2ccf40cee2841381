/* A helper function (which clang -O0 would mark noinline, leaving a call)
 * and 8- and 16-bit buffers: b = (short)(a * 300) + sq(a), a += 200. */
static int sq(int x)
{
    return x * x;
}

__kernel void narrow(__global uchar *a, __global short *b)
{
    int i = get_global_id(0);
    b[i] = (short)(a[i] * 300) + sq(a[i]);
    a[i] = a[i] + 200;
}
