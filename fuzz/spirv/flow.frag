#version 330
// Seed for fuzz_spirv: branches, a loop with break/continue, a local array
// indexed dynamically, texture lookups, discard.
uniform sampler2D tex;
uniform samplerCube env;
uniform vec4 k[4];
uniform int n;
in vec2 uv;
in vec3 nrm;
layout(location = 0) out vec4 color;
void main()
{
    vec4 a[3] = vec4[3](vec4(0.1), vec4(0.2), vec4(0.3));
    vec4 c = texture(tex, uv) * k[n & 3];
    for (int i = 0; i < 8; i++) {
        if (c.x > 0.9)
            break;
        if (i == 2)
            continue;
        c += a[i % 3] * pow(max(dot(normalize(nrm), vec3(0, 0, 1)), 0.0), 8.0);
    }
    if (c.w < 0.01)
        discard;
    color = mix(c, texture(env, reflect(nrm, vec3(0, 1, 0))), 0.25);
}
