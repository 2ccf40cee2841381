!!ARBfp1.0
# Per-pixel Blinn-Phong shading (J. F. Blinn, "Models of light reflection
# for computer synthesized pictures", SIGGRAPH 1977) with four point lights:
# diffuse N.L and specular (N.H)^n with H = normalize(L + V), each light
# attenuated by 1 / (k0 + k1 d + k2 d^2) as in GL 2.1 section 2.14.1.
# Inputs: eye-space normal in texcoord[0], eye-space position in texcoord[1].
ATTRIB Nin = fragment.texcoord[0];
ATTRIB P = fragment.texcoord[1];
PARAM lp[4] = { state.light[0].position, state.light[1].position,
                state.light[2].position, state.light[3].position };
PARAM att[4] = { state.light[0].attenuation, state.light[1].attenuation,
                 state.light[2].attenuation, state.light[3].attenuation };
PARAM dif[4] = { state.light[0].diffuse, state.light[1].diffuse,
                 state.light[2].diffuse, state.light[3].diffuse };
PARAM kd = state.material.diffuse;
PARAM ks = state.material.specular;
PARAM amb = state.lightmodel.ambient;
PARAM shin = 32.0;
TEMP N, V, L, H, d, lit, acc, spec, t;
DP3 t.w, Nin, Nin;
RSQ t.w, t.w;
MUL N.xyz, Nin, t.w;
DP3 t.w, P, P;
RSQ t.w, t.w;
MUL V.xyz, -P, t.w;
MOV acc, amb;
MOV spec, 0.0;
MOV lit.w, shin.x;
# light 0
SUB L, lp[0], P;
DP3 d.w, L, L;
RSQ t.x, d.w;
MUL L.xyz, L, t.x;
DST d, d.w, t.x;
DP3 t.y, d, att[0];
RCP t.y, t.y;
ADD H.xyz, L, V;
DP3 t.w, H, H;
RSQ t.w, t.w;
MUL H.xyz, H, t.w;
DP3_SAT lit.x, N, L;
DP3_SAT lit.y, N, H;
POW lit.z, lit.y, shin.x;
MUL lit.xz, lit, t.y;
MAD acc, lit.x, dif[0], acc;
MAD spec, lit.z, dif[0], spec;
# light 1
SUB L, lp[1], P;
DP3 d.w, L, L;
RSQ t.x, d.w;
MUL L.xyz, L, t.x;
DST d, d.w, t.x;
DP3 t.y, d, att[1];
RCP t.y, t.y;
ADD H.xyz, L, V;
DP3 t.w, H, H;
RSQ t.w, t.w;
MUL H.xyz, H, t.w;
DP3_SAT lit.x, N, L;
DP3_SAT lit.y, N, H;
POW lit.z, lit.y, shin.x;
MUL lit.xz, lit, t.y;
MAD acc, lit.x, dif[1], acc;
MAD spec, lit.z, dif[1], spec;
# light 2
SUB L, lp[2], P;
DP3 d.w, L, L;
RSQ t.x, d.w;
MUL L.xyz, L, t.x;
DST d, d.w, t.x;
DP3 t.y, d, att[2];
RCP t.y, t.y;
ADD H.xyz, L, V;
DP3 t.w, H, H;
RSQ t.w, t.w;
MUL H.xyz, H, t.w;
DP3_SAT lit.x, N, L;
DP3_SAT lit.y, N, H;
POW lit.z, lit.y, shin.x;
MUL lit.xz, lit, t.y;
MAD acc, lit.x, dif[2], acc;
MAD spec, lit.z, dif[2], spec;
# light 3
SUB L, lp[3], P;
DP3 d.w, L, L;
RSQ t.x, d.w;
MUL L.xyz, L, t.x;
DST d, d.w, t.x;
DP3 t.y, d, att[3];
RCP t.y, t.y;
ADD H.xyz, L, V;
DP3 t.w, H, H;
RSQ t.w, t.w;
MUL H.xyz, H, t.w;
DP3_SAT lit.x, N, L;
DP3_SAT lit.y, N, H;
POW lit.z, lit.y, shin.x;
MUL lit.xz, lit, t.y;
MAD acc, lit.x, dif[3], acc;
MAD spec, lit.z, dif[3], spec;
MUL acc.xyz, acc, kd;
MAD result.color.xyz, spec, ks, acc;
MOV result.color.w, kd.w;
END
