!!ARBfp1.0
# Normal (bump) mapping in tangent space (Blinn 1978 "Simulation of wrinkled
# surfaces"; tangent-space normal maps as in Cohen et al. 1998): the normal
# map in texture[1] is expanded from [0,1] to [-1,1]; the tangent-space light
# and half vectors arrive in texcoord[1] and texcoord[2].
ATTRIB tc = fragment.texcoord[0];
ATTRIB L = fragment.texcoord[1];
ATTRIB H = fragment.texcoord[2];
PARAM diffuse = state.lightprod[0].diffuse;
PARAM specular = state.lightprod[0].specular;
PARAM shininess = state.material.shininess;
TEMP base, n, l, h, t;

TEX base, tc, texture[0], 2D;
TEX n, tc, texture[1], 2D;
MAD n.xyz, n, 2.0, -1.0;
DP3 t.x, n, n;
RSQ t.x, t.x;
MUL n.xyz, n, t.x;
DP3 t.x, L, L;
RSQ t.x, t.x;
MUL l.xyz, L, t.x;
DP3 t.x, H, H;
RSQ t.x, t.x;
MUL h.xyz, H, t.x;
DP3_SAT t.x, n, l;
DP3_SAT t.y, n, h;
POW t.y, t.y, shininess.x;
MUL base.rgb, base, diffuse;
MUL base.rgb, base, t.x;
MAD result.color.rgb, t.y, specular, base;
MOV result.color.a, base.a;
END
