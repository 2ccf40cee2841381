#version 430
// fpga_mac8: two 8-element dot products of 8-bit pixels and weights with a
// 32-bit sum, one element per lane, 2 blocks x 8 lanes (one block per core):
// dot[b] = sum of pixel[8b + i] * weight[8b + i].  Follows the FPGA fork of
// tiny-gpu's MAC unit (seed 002, 123-code/gpu_design @098735a: MACL pushes a
// pixel/weight pair, the sum is 32 bits, software/mac_read32.asm and
// dotprod_kernel.asm; bench/seeds/fpga/mac32.asm).  The lanes' products meet
// in an atomicAdd, which commutes, so no lane waits on another and none
// diverges.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Pixel { uint pixel[]; };    // 16, 0..255
layout(std430, binding = 1) buffer Weight { uint weight[]; };  // 16, 0..255
layout(std430, binding = 2) buffer Dot { uint dot[]; };        // 2
void main()
{
    uint g = gl_GlobalInvocationID.x;
    atomicAdd(dot[gl_WorkGroupID.x], pixel[g] * weight[g]);
}
