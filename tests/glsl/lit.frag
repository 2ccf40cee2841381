precision mediump float;
varying vec2 uv;
varying vec4 shade;
uniform sampler2D tex;
void main()
{
    gl_FragColor = shade * texture2D(tex, uv);
}
