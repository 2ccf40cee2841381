// Derivatives (tests/glsl_derivs.test.sh): an edge-detect from fwidth of
// the lit colour, and the texture coordinates' coarse and fine slopes.
varying vec2 uv;
varying vec4 shade;
uniform sampler2D tex;
void main()
{
    vec4 c = shade * texture2D(tex, uv);
    float edge = fwidth(c.g) * 4.0;
    vec2 slope = abs(vec2(dFdx(uv.x), dFdy(uv.y))) * 16.0;
    gl_FragColor = vec4(c.r + edge, slope, 1.0);
}
