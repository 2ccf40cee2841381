!!ARBfp1.0
# ARGS: --exact-math --attrib fragment.texcoord[0]=4,16,3,0.125
# Scalar SFU instructions with exactly representable results.
TEMP r, s;
RCP r.x, fragment.texcoord[0].x;       # 0.25
RSQ r.y, -fragment.texcoord[0].y;      # |x|: 0.25
EX2 r.z, fragment.texcoord[0].z;       # 8
LG2 r.w, fragment.texcoord[0].w;       # -3
POW s.x, fragment.texcoord[0].x, fragment.texcoord[0].z;   # 64
SCS s.yz, fragment.texcoord[0].w;       # y = sin(0.125), z untouched
COS s.w, {0}.x;                        # 1
MOV result.color, r;
MOV result.depth, s;
END
