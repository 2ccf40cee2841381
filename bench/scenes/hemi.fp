!!ARBfp1.0
# Hemisphere lighting plus a Blinn highlight and a rim term: the ambient
# is interpolated between ground and sky colours by 1/2 + N.up/2
# (LRP; the hemisphere model of Nishita & Nakamae, "Continuous Tone
# Representation of Three-Dimensional Objects Illuminated by Sky Light",
# SIGGRAPH 1986, as popularised for real time by Taylor, "Hemisphere
# Lighting", 2001), highlight via LIT, rim = (1 - N.V)^3 via POW.
PARAM sky = { 0.55, 0.65, 0.85, 1.0 };
PARAM ground = { 0.25, 0.2, 0.15, 1.0 };
PARAM up = { 0.0, 1.0, 0.0, 0.0 };
PARAM lpos = state.light[0].position;
PARAM shin = state.material.shininess;
PARAM base = state.material.diffuse;
TEMP N, L, V, H, t, hemi, lit, c;
DP3 t.x, fragment.texcoord[0], fragment.texcoord[0];
RSQ t.x, t.x;
MUL N.xyz, fragment.texcoord[0], t.x;
DP3 t.x, fragment.texcoord[1], fragment.texcoord[1];
RSQ t.x, t.x;
MUL V.xyz, -fragment.texcoord[1], t.x;
SUB L.xyz, lpos, fragment.texcoord[1];
DP3 t.x, L, L;
RSQ t.x, t.x;
MUL L.xyz, L, t.x;
ADD H.xyz, L, V;
DP3 t.x, H, H;
RSQ t.x, t.x;
MUL H.xyz, H, t.x;
# up is the eye-space up because the camera is level
DP3 t.x, N, up;
MAD t.x, t.x, 0.5, 0.5;
LRP hemi, t.x, sky, ground;
DP3 t.x, N, L;
DP3 t.y, N, H;
MOV t.w, shin.x;
LIT lit, t;
MUL c, hemi, base;
MAD c, lit.y, base, c;
MAD c, lit.z, 0.4, c;
DP3_SAT t.z, N, V;
SUB t.z, 1.0, t.z;
POW t.z, t.z, {3.0}.x;
MAD result.color.xyz, t.z, {0.4, 0.45, 0.6, 0.0}, c;
MOV result.color.w, 1.0;
END
