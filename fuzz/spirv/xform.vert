#version 330
// Seed for fuzz_spirv: matrices, a uniform array, a function, outputs.
uniform mat4 mvp;
uniform mat3 nm;
uniform vec4 bones[8];
layout(location = 0) in vec4 pos;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec4 w;
out vec2 uv;
out vec3 nrm;
vec4 skin(vec4 p) { return p + bones[int(w.x) & 7] * w.y; }
void main()
{
    gl_Position = mvp * skin(pos);
    nrm = normalize(nm * normal);
    uv = atan(pos.xy, vec2(1.0)) + vec2(sin(pos.z), cos(pos.z));
}
