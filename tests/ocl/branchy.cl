/* Collatz steps (a data-dependent loop with an if/else inside: unstructured
 * branches after opt), then abs/max/min/mad24, a short and a char, and a
 * switch. */
__kernel void branchy(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int x = in[i], steps = 0;
    while (x > 1 && steps < 200) {
        if (x & 1)
            x = 3 * x + 1;
        else
            x = x >> 1;
        steps++;
    }
    int r;
    if (x == 1)
        r = steps;
    else
        r = -abs(in[i]) + max(steps, 3);
    r += mad24(i, 3, min(in[i], 7));
    r ^= (short)(in[i] * 4099) + (uchar)in[i];
    switch (in[i]) {
    case 0: out[i] = r; break;
    case 1: out[i] = r + 11; break;
    case -3: out[i] = r * 3; out[i + 64] = i; break;
    default: out[i] = ~r;
    }
}
