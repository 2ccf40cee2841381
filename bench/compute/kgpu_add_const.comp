#version 430
// kgpu_add_const: out[g] = in[g] + 5 for the 128 work-items of 16 blocks x
// 8 threads, with in[g] = 3g at word 256 + g and out[g] at word g of one
// memory, as kGPU's testbench lays them out.  Follows kGPU's add_const
// (seed 003; neight777/kGPU Testbenches/gpu_testbench.py, published 128/128
// in Testbenches/add_const_results.md; the seed's assembly is
// bench/seeds/kgpu/add_const.asm).
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Mem { int mem[]; };   // 384 words
void main()
{
    uint g = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    mem[g] = mem[256u + g] + 5;
}
