!!ARBfp1.0
# Post-processing: bloom (glow), after G. James and J. O'Rorke, "Real-Time
# Glow", GPU Gems ch. 21, 2004: a bright pass keeps what exceeds a luminance
# threshold, a five-tap cross blur spreads it, and the glow is added back to
# the scene colour.  texture[0] is the frame, texcoord[0] the pixel.
ATTRIB tc = fragment.texcoord[0];
PARAM luma = { 0.2126, 0.7152, 0.0722, 0.0 };
PARAM d = { 0.015625, 0.0, -0.015625, 0.0 };
PARAM k = { 0.6, 2.5, 0.2, 0.7 };
TEMP c, s, g, p, b;
TEX c, tc, texture[0], 2D;
DP3 b.x, c, luma;
ADD_SAT b.x, b.x, -k.x;
MUL g, c, b.x;
ADD p, tc, d.xyyy;
TEX s, p, texture[0], 2D;
DP3 b.y, s, luma;
ADD_SAT b.y, b.y, -k.x;
MAD g, s, b.y, g;
ADD p, tc, d.zyyy;
TEX s, p, texture[0], 2D;
DP3 b.y, s, luma;
ADD_SAT b.y, b.y, -k.x;
MAD g, s, b.y, g;
ADD p, tc, d.yxyy;
TEX s, p, texture[0], 2D;
DP3 b.y, s, luma;
ADD_SAT b.y, b.y, -k.x;
MAD g, s, b.y, g;
ADD p, tc, d.yzyy;
TEX s, p, texture[0], 2D;
DP3 b.y, s, luma;
ADD_SAT b.y, b.y, -k.x;
MAD g, s, b.y, g;
MUL g, g, k.z;
MUL g, g, k.y;
MAD result.color.rgb, c, k.w, g;
MOV result.color.a, c.a;
END
