!!ARBfp1.0
# Toon (cel) shading: the diffuse term N.L indexes a 1D ramp texture of
# three flat bands (A. Lake et al., "Stylized Rendering Techniques for
# Scalable Real-Time 3D Animation", NPAR 2000); the highlight is a hard
# step (SGE) of N.H; a second light is quantized to four levels with FLR;
# fragments whose normal is nearly perpendicular to the view are inked
# black (SLT, CMP) as a silhouette.
PARAM lpos = state.light[0].position;
PARAM l1 = state.light[1].position;
PARAM tint = state.material.diffuse;
TEMP N, L, V, H, t, band, c;
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
DP3_SAT t.x, N, L;
TEX band, t.x, texture[0], 1D;
MUL c, band, tint;
# hard highlight
DP3 t.y, N, H;
SGE t.y, t.y, 0.96;
MAD c, t.y, 0.6, c;
# rim light from light 1 in four steps
DP3_SAT t.z, N, l1;
MUL t.z, t.z, 4.0;
FLR t.z, t.z;
MUL t.z, t.z, 0.06;
ADD c, c, t.z;
# silhouette ink where N.V < 0.25
DP3 t.w, N, V;
SLT t.w, t.w, 0.25;
SUB t.w, 0.0, t.w;
CMP result.color.xyz, t.w, 0.0, c;
MOV result.color.w, 1.0;
END
