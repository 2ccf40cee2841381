#version 430
// tinygpu_matmul: C = A x B for 2x2 matrices, one thread per element of C
// (row = i / 2, col = i % 2), A at words 0..3, B at 4..7, C at 8..11 of
// one memory.  Follows upstream tiny-gpu's matmul (seed 001,
// adam-maj/tiny-gpu @02b6c2c test/test_matmul.py;
// bench/seeds/tinygpu/matmul.asm).  tiny-gpu's data are 8 bits: the inputs
// stay below 8, so no element wraps.  The k loop is written out: tiny-gpu's
// own preset (reconv=none, one pc a warp) runs no structured loops.
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Mem { uint mem[]; };   // 12 words
const uint N = 2u;
void main()
{
    uint i = gl_LocalInvocationID.x;
    uint row = i / N, col = i % N;
    uint acc = mem[row * N] * mem[N * N + col];
    acc += mem[row * N + 1u] * mem[N * N + N + col];
    mem[2u * N * N + i] = acc;
}
