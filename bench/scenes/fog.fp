!!ARBfp1.0
# Texture + fog: a projective lookup (TXP divides s, t by q) modulated by
# the vertex colour; OPTION ARB_fog_exp2 then blends towards the fog colour
# with f = exp(-(density * c)^2) (ARB_fragment_program section 3.11.4.6,
# GL 2.1 section 3.10).  TXB adds a LOD bias of +1 on the detail layer.
OPTION ARB_fog_exp2;
TEMP c, d, uv;
TXP c, fragment.texcoord[0], texture[0], 2D;
MUL uv, fragment.texcoord[0], {0.5, 0.5, 0.0, 0.0};
MOV uv.w, 1.0;
TXB d, uv, texture[1], 2D;
MUL c, c, d;
MUL result.color, c, fragment.color;
END
