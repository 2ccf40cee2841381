#version 430
// fpga_sum07: every thread sums 0..7 in a loop (28) and stores it, 2 blocks
// x 8 threads (one block per core).  Follows the FPGA fork of tiny-gpu
// (seed 002, 123-code/gpu_design): the seed's software/demo.jpp sums 0..7
// on each core and sends 28 over the UART (not in the @098735a snapshot;
// bench/seeds/fpga/sum07.asm is our assembly of it).  Here each thread
// stores its own sum, at word gid.
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Out { uint sum[]; };   // 16 words
void main()
{
    uint s = 0u;
    for (uint i = 0u; i < 8u; i++)
        s += i;
    sum[gl_GlobalInvocationID.x] = s;
}
