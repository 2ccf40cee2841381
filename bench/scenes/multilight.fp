!!ARBfp1.0
# Three coloured point lights per pixel with GL's distance attenuation
# 1 / (kc + kl d + kq d^2) (GL 2.1 section 2.14.1): DST builds
# (1, d, d^2, 1/d) from d^2 and 1/d, DP3 with the attenuation factors, RCP.
# Lambert diffuse plus a Blinn half-vector highlight from LIT.
PARAM p0 = state.light[0].position;
PARAM p1 = state.light[1].position;
PARAM p2 = state.light[2].position;
PARAM a0 = state.light[0].attenuation;
PARAM a1 = state.light[1].attenuation;
PARAM a2 = state.light[2].attenuation;
PARAM d0 = state.light[0].diffuse;
PARAM d1 = state.light[1].diffuse;
PARAM d2 = state.light[2].diffuse;
PARAM shin = state.material.shininess;
PARAM amb = state.lightmodel.ambient;
TEMP N, V, L, H, t, dd, lit, acc, tmp;
DP3 t.x, fragment.texcoord[0], fragment.texcoord[0];
RSQ t.x, t.x;
MUL N.xyz, fragment.texcoord[0], t.x;
DP3 t.x, fragment.texcoord[1], fragment.texcoord[1];
RSQ t.x, t.x;
MUL V.xyz, -fragment.texcoord[1], t.x;
MUL acc, amb, fragment.color;
MOV t.w, shin.x;
# light 0
SUB L, p0, fragment.texcoord[1];
DP3 dd.x, L, L;
RSQ dd.y, dd.x;
MUL L.xyz, L, dd.y;
DST dd, dd.x, dd.y;
DP3 dd.x, dd, a0;
RCP dd.x, dd.x;
ADD H.xyz, L, V;
DP3 tmp.x, H, H;
RSQ tmp.x, tmp.x;
MUL H.xyz, H, tmp.x;
DP3 t.x, N, L;
DP3 t.y, N, H;
LIT lit, t;
MAD tmp, lit.y, fragment.color, lit.z;
MUL tmp, tmp, d0;
MAD acc, tmp, dd.x, acc;
# light 1
SUB L, p1, fragment.texcoord[1];
DP3 dd.x, L, L;
RSQ dd.y, dd.x;
MUL L.xyz, L, dd.y;
DST dd, dd.x, dd.y;
DP3 dd.x, dd, a1;
RCP dd.x, dd.x;
ADD H.xyz, L, V;
DP3 tmp.x, H, H;
RSQ tmp.x, tmp.x;
MUL H.xyz, H, tmp.x;
DP3 t.x, N, L;
DP3 t.y, N, H;
LIT lit, t;
MAD tmp, lit.y, fragment.color, lit.z;
MUL tmp, tmp, d1;
MAD acc, tmp, dd.x, acc;
# light 2
SUB L, p2, fragment.texcoord[1];
DP3 dd.x, L, L;
RSQ dd.y, dd.x;
MUL L.xyz, L, dd.y;
DST dd, dd.x, dd.y;
DP3 dd.x, dd, a2;
RCP dd.x, dd.x;
ADD H.xyz, L, V;
DP3 tmp.x, H, H;
RSQ tmp.x, tmp.x;
MUL H.xyz, H, tmp.x;
DP3 t.x, N, L;
DP3 t.y, N, H;
LIT lit, t;
MAD tmp, lit.y, fragment.color, lit.z;
MUL tmp, tmp, d2;
MAD acc, tmp, dd.x, acc;
MIN result.color.xyz, acc, 1.0;
MOV result.color.w, 1.0;
END
