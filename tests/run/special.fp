!!ARBfp1.0
# ARGS: --json --attrib fragment.texcoord[0]=0,-1,-0,1e30
# IEEE special values: RCP 0 = inf, LG2 -1 = NaN, RCP -0 = -inf, 1e30^2 = inf.
TEMP r;
RCP r.x, fragment.texcoord[0].x;
LG2 r.y, fragment.texcoord[0].y;
RCP r.z, fragment.texcoord[0].z;
MUL r.w, fragment.texcoord[0].w, fragment.texcoord[0].w;
MOV result.color, r;
END
