#version 430
// fpga_fc9: a 9-neuron fully connected layer over 8 inputs in integers,
// y[j] = b[j] + sum over i of W[j][i] * x[i] (8-bit signed weights and
// inputs, 32-bit sums), for 2 input vectors (one block each).  Follows the
// FPGA fork of tiny-gpu's FC unit (seed 002, 123-code/gpu_design @098735a:
// FRST / FMAC / FARG / FBEST, 32-bit accumulation; its largest build has 9
// lanes).  3 threads a block, 3 neurons a thread: every lane runs the same
// loops, so none diverges (the fork reconverges only at SYNC), and the
// block fits every model's thread slots.
layout(local_size_x = 3) in;
layout(std430, binding = 0) buffer X { int x[]; };   // 2 x 8
layout(std430, binding = 1) buffer W { int w[]; };   // 9 x 8
layout(std430, binding = 2) buffer B { int bias[]; }; // 9
layout(std430, binding = 3) buffer Y { int y[]; };   // 2 x 9
const uint IN = 8u, OUT = 9u;
void main()
{
    uint v = gl_WorkGroupID.x;
    for (uint k = 0u; k < 3u; k++) {
        uint j = 3u * gl_LocalInvocationID.x + k;
        int acc = bias[j];
        for (uint i = 0u; i < IN; i++)
            acc += w[j * IN + i] * x[v * IN + i];
        y[v * OUT + j] = acc;
    }
}
