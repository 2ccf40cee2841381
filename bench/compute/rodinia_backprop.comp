#version 430
// rodinia_backprop: backprop's layer forward, the partial sums of a 32-input
// x 8-hidden layer in Q15 fixed point: block by (8 inputs) gives
// partial[by][j] = sum over its inputs i of (w[i][j] * x[i]) >> 15, each
// product shifted (arithmetically) before the sum.  Follows Rodinia's
// bpnn_layerforward_CUDA (cuda/backprop/backprop_cuda_kernel.cu, Rodinia 3.1;
// BPNN-1 in DICE, seed 004, arXiv 2605.05496; jiayi-wang98/
// dice-test-gpu-rodinia benchmarks.lst): the inputs and the 8x8 weight tile
// in shared memory, the products, then a tree reduction over the tile's rows
// with a barrier per step; the host sums the partials and applies the
// squash.  Rodinia's 16x16 block is 8 threads here (one per hidden unit,
// the tile's rows as a loop), 4 workgroups; float there, Q15 here.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Input { int x[]; };        // 32, Q15
layout(std430, binding = 1) buffer Weights { int w[]; };      // 32 x 8, Q15
layout(std430, binding = 2) buffer Partial { int partial[]; }; // 4 x 8
const uint HID = 8u, H = 8u;
shared int inode[8];
shared int wm[8][8];
void main()
{
    uint tx = gl_LocalInvocationID.x, by = gl_WorkGroupID.x;
    inode[tx] = x[by * H + tx];
    barrier();
    for (uint ty = 0u; ty < H; ty++)
        wm[ty][tx] = w[(by * H + ty) * HID + tx];
    barrier();
    for (uint ty = 0u; ty < H; ty++)
        wm[ty][tx] = (wm[ty][tx] * inode[ty]) >> 15;
    barrier();
    for (uint power = 2u; power <= H; power *= 2u) {
        for (uint ty = 0u; ty < H; ty += power)
            wm[ty][tx] += wm[ty + power / 2u][tx];
        barrier();
    }
    partial[by * HID + tx] = wm[0][tx];
}
