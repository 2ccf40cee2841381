!!ARBfp1.0
# Stained glass: a RECT texture (ARB_texture_rectangle: unnormalized
# texel coordinates, clamp only) with alpha; KIL discards the clear holes
# (alpha < 0.1), the rest is blended over the scene with SRC_ALPHA,
# ONE_MINUS_SRC_ALPHA.  SWZ forms (s, t, 0, 1) from the texcoord.
PARAM size = { 64.0, 64.0, 0.0, 1.0 };
TEMP uv, c, t;
SWZ uv, fragment.texcoord[2], x, y, 0, 1;
MUL uv, uv, size;
TEX c, uv, texture[0], RECT;
SUB t, c.w, 0.1;
KIL t;
MUL result.color.xyz, c, fragment.color;
MOV result.color.w, c.w;
END
