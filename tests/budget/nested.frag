#version 330
// Two nested loops of 10^8 iterations each (10^16 in all): what GLSL
// code that "would hang hardware" looks like after glslang.
out vec4 color;
uniform float step_size;
void main()
{
    float s = 0.0;
    for (int i = 0; i < 100000000; i++)
        for (int j = 0; j < 100000000; j++)
            s += step_size;
    color = vec4(s);
}
