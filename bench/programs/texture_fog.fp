!!ARBfp1.0
# Modulated texture with per-pixel exponential-squared fog, computed in the
# program (GL 2.1 spec section 3.10: f = exp(-(density * c)^2), colour =
# f * Cr + (1 - f) * Cf), using EX2 with the log2(e) change of base.
ATTRIB tc = fragment.texcoord[0];
ATTRIB col = fragment.color;
ATTRIB fogc = fragment.fogcoord;
PARAM fogColor = state.fog.color;
PARAM fogParams = state.fog.params;
PARAM log2e = 1.442695041;
TEMP texel, c, f;

TEX texel, tc, texture[0], 2D;
MUL c, texel, col;
MUL f.x, fogParams.x, fogc.x;
MUL f.x, f.x, f.x;
MUL f.x, f.x, -log2e.x;
EX2_SAT f.x, f.x;
LRP result.color.rgb, f.x, c, fogColor;
MOV result.color.a, c.a;
END
