// Vector add, c[i] = a[i] + b[i] (int32, wrapping): the compute suite's
// smallest kernel, as kGPU's add_const and tiny-gpu's matadd (seeds 003, 001)
// add per thread.  1024 elements, workgroups of 8.
#version 430
layout(local_size_x = 8) in;
layout(std430, binding = 0) readonly buffer A { int a[]; };
layout(std430, binding = 1) readonly buffer B { int b[]; };
layout(std430, binding = 2) writeonly buffer C { int c[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    c[i] = a[i] + b[i];
}
