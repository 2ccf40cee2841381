#version 430
// kgpu_diverge: out[g] = threadIdx for 16 blocks x 8 threads, computed by a
// loop that lane t runs t times (counter t down to 0, acc counting up);
// thread 0 skips the loop, and the lanes reconverge after it.  Follows
// kGPU's diverge (seed 003; neight777/kGPU Testbenches/gpu_testbench.py, the
// active KERNEL, published 128/128 in Testbenches/diverge_results.md; the
// seed's assembly is bench/seeds/kgpu/diverge.asm).
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Mem { uint mem[]; };   // 128 words
void main()
{
    uint counter = gl_LocalInvocationID.x, acc = 0u;
    if (counter != 0u) {
        do {
            counter -= 1u;
            acc += 1u;
        } while (counter != 0u);
    }
    mem[gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x] = acc;
}
