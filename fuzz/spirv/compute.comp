#version 430
// Seed for fuzz_spirv (stage byte 2): shared memory, barriers, atomics,
// a tree reduction and the invocation built-ins.
layout(local_size_x = 8, local_size_y = 4) in;
layout(std430, binding = 0) buffer D { uint v[]; };
layout(std430, binding = 2) buffer R { int lo; uint sum[]; };
shared uint tile[32];
void main()
{
    uint l = gl_LocalInvocationIndex;
    tile[l] = v[gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * 64u];
    barrier();
    for (uint s = 16u; s > 0u; s >>= 1) {
        if (l < s)
            tile[l] += tile[l + s];
        memoryBarrierShared();
        barrier();
    }
    atomicMin(lo, int(tile[l]) - 7);
    if (l == 0u)
        sum[gl_WorkGroupID.x] = atomicExchange(tile[0], 0u) * gl_NumWorkGroups.x;
}
