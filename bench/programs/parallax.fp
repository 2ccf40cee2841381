!!ARBfp1.0
# Parallax mapping with offset limiting (T. Kaneko et al., "Detailed shape
# representation with parallax mapping", ICAT 2001; T. Welsh, "Parallax
# mapping with offset limiting", Infiscape 2004): the texture coordinate is
# shifted along the tangent-space view vector by (height * scale + bias),
# the height being the luminance of the brick texture (texture[1]); the
# shifted coordinate then reads the normal map (texture[0]) and the colour.
# Inputs: texcoord[0] the surface coordinate, texcoord[1] and texcoord[2]
# the tangent-space light and view vectors (bump.vp).
ATTRIB tc = fragment.texcoord[0];
ATTRIB Lt = fragment.texcoord[1];
ATTRIB Vt = fragment.texcoord[2];
PARAM sb = { 0.04, -0.02, 0.0, 0.0 };
PARAM luma = { 0.299, 0.587, 0.114, 0.0 };
PARAM two = { 2.0, 2.0, 2.0, 0.0 };
PARAM one = { 1.0, 1.0, 1.0, 0.0 };
TEMP V, L, H, n, h, uv, base, t;
DP3 t.w, Vt, Vt;
RSQ t.w, t.w;
MUL V.xyz, Vt, t.w;
TEX h, tc, texture[1], 2D;
DP3 h.x, h, luma;
MAD h.x, h.x, sb.x, sb.y;
MAD uv.xy, V, h.x, tc;
MOV uv.zw, tc;
TEX n, uv, texture[0], 2D;
MAD n.xyz, n, two, -one;
DP3 t.w, n, n;
RSQ t.w, t.w;
MUL n.xyz, n, t.w;
DP3 t.w, Lt, Lt;
RSQ t.w, t.w;
MUL L.xyz, Lt, t.w;
ADD H.xyz, L, V;
DP3 t.w, H, H;
RSQ t.w, t.w;
MUL H.xyz, H, t.w;
TEX base, uv, texture[1], 2D;
DP3_SAT t.x, n, L;
DP3_SAT t.y, n, H;
POW t.y, t.y, {24.0}.x;
MAD t.x, t.x, 0.8, 0.2;
MUL base.xyz, base, t.x;
MAD result.color.xyz, t.y, 0.4, base;
MOV result.color.w, 1.0;
END
