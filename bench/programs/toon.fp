!!ARBfp1.0
# Toon (cel) shading: the diffuse term N.L quantized into three bands and a
# dark silhouette where the view direction grazes the surface (Lake et al.,
# "Stylized rendering techniques for scalable real-time 3D animation",
# NPAR 2000).  Inputs: eye-space normal in texcoord[0], position in texcoord[1].
ATTRIB N = fragment.texcoord[0];
ATTRIB P = fragment.texcoord[1];
PARAM lightPos = state.light[0].position;
PARAM base = state.material.diffuse;
PARAM bands = { 3.0, 0.333333343, 0.25, 0.35 };
TEMP n, l, v, t, shade;

DP3 t.x, N, N;
RSQ t.x, t.x;
MUL n.xyz, N, t.x;
SUB l.xyz, lightPos, P;
DP3 t.x, l, l;
RSQ t.x, t.x;
MUL l.xyz, l, t.x;
DP3_SAT t.y, n, l;

# floor(N.L * 3) / 3, lifted so the darkest band is not black.
MUL t.y, t.y, bands.x;
FLR t.y, t.y;
MAD t.y, t.y, bands.y, bands.z;
MUL shade.xyz, base, t.y;

# Silhouette: |N.V| below a threshold paints black.
DP3 t.x, P, P;
RSQ t.x, t.x;
MUL v.xyz, -P, t.x;
DP3 t.z, n, v;
ABS t.z, t.z;
SUB t.w, t.z, bands.w;
CMP result.color.xyz, t.w, 0.0, shade;
MOV result.color.w, 1.0;
END
