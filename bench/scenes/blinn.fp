!!ARBfp1.0
# Per-pixel Blinn-Phong shading: J. F. Blinn, "Models of Light Reflection
# for Computer Synthesized Pictures", SIGGRAPH 1977.  The highlight uses
# the half vector H = normalize(L + V): ks (N.H)^n, with POW.
PARAM lpos = state.light[0].position;
PARAM amb = state.lightprod[0].ambient;
PARAM dif = state.lightprod[0].diffuse;
PARAM spc = state.lightprod[0].specular;
PARAM shin = state.material.shininess;
PARAM scene = state.lightmodel.scenecolor;
TEMP N, L, V, H, t, c;
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
ADD H.xyz, L, V;
DP3 t.x, H, H;
RSQ t.x, t.x;
MUL H.xyz, H, t.x;
DP3 t.y, N, L;
DP3_SAT t.z, N, H;
POW t.z, t.z, shin.x;
CMP t.z, t.y, 0.0, t.z;
MAX t.y, t.y, 0.0;
ADD c, scene, amb;
MAD c, t.y, dif, c;
MAD result.color.xyz, t.z, spc, c;
MOV result.color.w, 1.0;
END
