!!ARBfp1.0
# ARGS: --attrib fragment.texcoord[0]=0.25,-1.75,3,-0.5 --param local[1]=2,4,8,16
# Component-wise ALU instructions, swizzles, negation, write masks, _SAT.
PARAM k = program.local[1];
TEMP a, b;
ADD a, fragment.texcoord[0], k;             # 2.25 2.25 11 15.5
MAD a.xy, fragment.texcoord[0].yxzw, k, a;  # -1.25 3.25
SUB b, a, -k.wzyx;                          # 14.75 11.25 15 17.5
MUL_SAT b.w, b, -fragment.texcoord[0];      # 17.5 * 0.5 = 8.75 -> 1
FRC result.depth, fragment.texcoord[0];
MOV result.color, b;
END
