!!ARBfp1.0
# Post-processing: Reinhard global tone mapping L / (1 + L) applied to
# luminance (Reinhard et al., "Photographic tone reproduction for digital
# images", SIGGRAPH 2002), then gamma 1/2.2 with LG2/EX2.  Rec. 709 luma
# weights (ITU-R BT.709).
ATTRIB tc = fragment.texcoord[0];
PARAM luma = { 0.2126, 0.7152, 0.0722, 0.0 };
PARAM exposure = { 1.5, 0.0, 0.0, 0.0 };  # exposure key
PARAM invGamma = 0.454545468;
TEMP c, t;

TEX c, tc, texture[0], 2D;
MUL c.rgb, c, exposure.x;
DP3 t.x, c, luma;
ADD t.y, t.x, 1.0;
RCP t.y, t.y;
MUL c.rgb, c, t.y;
LG2 t.x, c.r;
LG2 t.y, c.g;
LG2 t.z, c.b;
MUL t.xyz, t, invGamma.x;
EX2 result.color.r, t.x;
EX2 result.color.g, t.y;
EX2 result.color.b, t.z;
MOV result.color.a, c.a;
END
