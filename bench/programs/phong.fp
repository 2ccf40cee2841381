!!ARBfp1.0
# Per-pixel Phong shading (Phong 1975: specular term (R.V)^n with the
# reflection vector R = 2(N.L)N - L), one light.  Inputs: eye-space normal in
# texcoord[0], eye-space position in texcoord[1]; light position and colours
# from the GL state.
ATTRIB N = fragment.texcoord[0];
ATTRIB P = fragment.texcoord[1];
PARAM lightPos = state.light[0].position;
PARAM ambient = state.lightprod[0].ambient;
PARAM diffuse = state.lightprod[0].diffuse;
PARAM specular = state.lightprod[0].specular;
PARAM shininess = state.material.shininess;
PARAM two = 2.0;
TEMP n, l, v, r, t, col;

DP3 t.x, N, N;
RSQ t.x, t.x;
MUL n.xyz, N, t.x;

SUB l.xyz, lightPos, P;
DP3 t.x, l, l;
RSQ t.x, t.x;
MUL l.xyz, l, t.x;

DP3 t.x, P, P;
RSQ t.x, t.x;
MUL v.xyz, -P, t.x;

# R = 2 (N.L) N - L
DP3 t.y, n, l;
MUL r.xyz, n, t.y;
MAD r.xyz, r, two, -l;
DP3_SAT t.z, r, v;
POW t.z, t.z, shininess.x;
MAX t.y, t.y, 0.0;

MAD col, t.y, diffuse, ambient;
MAD result.color.xyz, t.z, specular, col;
MOV result.color.w, diffuse.w;
END
