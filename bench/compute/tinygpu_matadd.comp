#version 430
// tinygpu_matadd: C[i] = A[i] + B[i] for 8 elements, 2 blocks of 4 threads,
// A at words 0..7, B at 8..15, C at 16..23 of one memory.  Follows upstream
// tiny-gpu's matadd (seed 001, adam-maj/tiny-gpu @02b6c2c
// test/test_matadd.py; bench/seeds/tinygpu/matadd.asm).  tiny-gpu's data
// are 8 bits: the inputs stay below 128, so no sum wraps.
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Mem { uint mem[]; };   // 24 words
void main()
{
    uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    mem[16u + i] = mem[i] + mem[8u + i];
}
