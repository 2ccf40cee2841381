#version 450
// Seed for fuzz_spirv: 32-bit integers, a storage buffer of structs with a
// runtime array, atomics, an atomic counter and bit operations in a
// fragment shader.
struct S { vec3 p; int k; uvec2 m; };
layout(std430, binding = 1) buffer B { uint n; S s[4]; float tail[]; };
layout(binding = 0, offset = 4) uniform atomic_uint hits;
uniform ivec2 sel;
in vec4 v;
layout(location = 0) out vec4 color;
void main()
{
    int i = (sel.x ^ sel.y) & 3;
    uint t = atomicAdd(n, uint(i) + 1u);
    s[i].p += v.xyz;
    s[i].m = uvec2(bitfieldExtract(t, 2, 5), findMSB(t)) << 1u;
    uint c = atomicCounterIncrement(hits);
    tail[c % uint(tail.length())] = intBitsToFloat(int(t) >> 2);
    color = vec4(float(s[i].k / (i + 1)), float(c), v.zw);
}
