!!ARBfp1.0
# Shadow mapping (L. Williams, "Casting curved shadows on curved surfaces",
# SIGGRAPH 1978) with 2x2 percentage-closer filtering (W. T. Reeves, D. H.
# Salesin and R. L. Cook, "Rendering antialiased shadows with depth maps",
# SIGGRAPH 1987): four projective SHADOW2D compares one texel apart are
# averaged.  Inputs: shadow-map coordinate in texcoord[0], lit colour in the
# primary and ambient in the secondary colour (shadow.vp).
OPTION ARB_fragment_program_shadow;
ATTRIB sc = fragment.texcoord[0];
PARAM d = { 0.001953125, 0.0, -0.001953125, 0.25 };
TEMP c, p, v, s;
MUL p, d.xyyy, sc.w;
ADD p, sc, p;
TXP v, p, texture[0], SHADOW2D;
MUL p, d.zyyy, sc.w;
ADD p, sc, p;
TXP s, p, texture[0], SHADOW2D;
ADD v.x, v.x, s.x;
MUL p, d.yxyy, sc.w;
ADD p, sc, p;
TXP s, p, texture[0], SHADOW2D;
ADD v.x, v.x, s.x;
MUL p, d.yzyy, sc.w;
ADD p, sc, p;
TXP s, p, texture[0], SHADOW2D;
ADD v.x, v.x, s.x;
MUL v.x, v.x, d.w;
MAD c, fragment.color, v.x, fragment.color.secondary;
MOV result.color.xyz, c;
MOV result.color.w, 1.0;
END
