!!ARBfp1.0
# Per-pixel Phong shading: B. T. Phong, "Illumination for Computer
# Generated Pictures", CACM 18(6), 1975.  I = ambient + kd (N.L)
# + ks (R.V)^n with the reflection R = 2 (N.L) N - L, evaluated per
# fragment from the interpolated (renormalized) eye-space normal.
PARAM lpos = state.light[0].position;
PARAM amb = state.lightprod[0].ambient;
PARAM dif = state.lightprod[0].diffuse;
PARAM spc = state.lightprod[0].specular;
PARAM shin = state.material.shininess;
PARAM scene = state.lightmodel.scenecolor;
TEMP N, L, V, R, t, c;
DP3 t.x, fragment.texcoord[0], fragment.texcoord[0];
RSQ t.x, t.x;
MUL N.xyz, fragment.texcoord[0], t.x;
SUB L.xyz, lpos, fragment.texcoord[1];
DP3 t.x, L, L;
RSQ t.x, t.x;
MUL L.xyz, L, t.x;
DP3 t.x, fragment.texcoord[1], fragment.texcoord[1];
RSQ t.x, t.x;
MUL V.xyz, -fragment.texcoord[1], t.x;
DP3 t.y, N, L;
MUL R.xyz, N, t.y;
MAD R.xyz, R, 2.0, -L;
DP3_SAT t.z, R, V;
POW t.z, t.z, shin.x;
# no highlight on the unlit side: CMP picks 0 where N.L < 0
CMP t.z, t.y, 0.0, t.z;
MAX t.y, t.y, 0.0;
ADD c, scene, amb;
MAD c, t.y, dif, c;
MAD result.color.xyz, t.z, spc, c;
MOV result.color.w, 1.0;
END
