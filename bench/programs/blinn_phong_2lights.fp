!!ARBfp1.0
# Per-pixel Blinn-Phong shading with two point lights (Blinn 1977: specular
# term (N.H)^n with the half vector H = normalize(L + V)).  Inputs: eye-space
# normal in texcoord[0], eye-space position in texcoord[1].
ATTRIB N = fragment.texcoord[0];
ATTRIB P = fragment.texcoord[1];
PARAM light0 = state.light[0].position;
PARAM light1 = state.light[1].position;
PARAM diff0 = state.lightprod[0].diffuse;
PARAM diff1 = state.lightprod[1].diffuse;
PARAM spec0 = state.lightprod[0].specular;
PARAM spec1 = state.lightprod[1].specular;
PARAM scene = state.lightmodel.scenecolor;
PARAM shininess = state.material.shininess;
TEMP n, v, l, h, t, col;

DP3 t.x, N, N;
RSQ t.x, t.x;
MUL n.xyz, N, t.x;
DP3 t.x, P, P;
RSQ t.x, t.x;
MUL v.xyz, -P, t.x;
MOV col, scene;

# Light 0
SUB l.xyz, light0, P;
DP3 t.x, l, l;
RSQ t.x, t.x;
MUL l.xyz, l, t.x;
ADD h.xyz, l, v;
DP3 t.x, h, h;
RSQ t.x, t.x;
MUL h.xyz, h, t.x;
DP3_SAT t.x, n, l;
DP3_SAT t.y, n, h;
POW t.y, t.y, shininess.x;
MAD col.xyz, t.x, diff0, col;
MAD col.xyz, t.y, spec0, col;

# Light 1
SUB l.xyz, light1, P;
DP3 t.x, l, l;
RSQ t.x, t.x;
MUL l.xyz, l, t.x;
ADD h.xyz, l, v;
DP3 t.x, h, h;
RSQ t.x, t.x;
MUL h.xyz, h, t.x;
DP3_SAT t.x, n, l;
DP3_SAT t.y, n, h;
POW t.y, t.y, shininess.x;
MAD col.xyz, t.x, diff1, col;
MAD col.xyz, t.y, spec1, col;

MOV_SAT result.color, col;
END
