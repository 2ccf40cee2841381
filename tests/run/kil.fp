!!ARBfp1.0
# ARGS: --attrib fragment.texcoord[0]=1,2,-0.5 --attrib fragment.color=0.5,0.25
# KIL marks the fragment; the program still runs to the end.
KIL fragment.texcoord[0];
CMP result.color, fragment.texcoord[0].zzzz, fragment.color, -fragment.color;
END
