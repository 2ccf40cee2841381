!!ARBfp1.0
# Normal mapping: the tangent-space normal from texture unit 0
# (n = 2 c - 1, stored as c = n / 2 + 1/2), Lambert diffuse times the
# albedo of unit 1, plus a Blinn-Phong highlight (POW) - Blinn 1978.
PARAM spc = state.lightprod[0].specular;
PARAM dif = state.lightprod[0].diffuse;
PARAM amb = state.lightmodel.ambient;
PARAM shin = state.material.shininess;
TEMP n, L, V, H, t, albedo, c;
TEX n, fragment.texcoord[0], texture[0], 2D;
MAD n.xyz, n, 2.0, -1.0;
DP3 t.x, n, n;
RSQ t.x, t.x;
MUL n.xyz, n, t.x;
DP3 t.x, fragment.texcoord[1], fragment.texcoord[1];
RSQ t.x, t.x;
MUL L.xyz, fragment.texcoord[1], t.x;
DP3 t.x, fragment.texcoord[2], fragment.texcoord[2];
RSQ t.x, t.x;
MUL V.xyz, fragment.texcoord[2], t.x;
ADD H.xyz, L, V;
DP3 t.x, H, H;
RSQ t.x, t.x;
MUL H.xyz, H, t.x;
TEX albedo, fragment.texcoord[0], texture[1], 2D;
DP3_SAT t.y, n, L;
DP3_SAT t.z, n, H;
POW t.z, t.z, shin.x;
MUL c, albedo, dif;
MUL c, c, t.y;
MAD c, albedo, amb, c;
MAD result.color.xyz, spc, t.z, c;
MOV result.color.w, 1.0;
END
