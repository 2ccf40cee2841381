// Diffuse lighting per vertex, GLSL 1.10
varying vec4 shade;
varying vec2 uv;
void main()
{
    vec3 n = normalize(gl_NormalMatrix * gl_Normal);
    vec3 l = normalize(gl_LightSource[0].position.xyz);
    shade = gl_FrontMaterial.diffuse * max(dot(n, l), 0.0);
    uv = gl_MultiTexCoord0.xy;
    gl_Position = ftransform();
}
