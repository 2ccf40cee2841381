!!ARBfp1.0
# Modulated texturing (GL 2.1 section 3.13, GL_MODULATE): the texture of
# unit 0 at texcoord[2] scaled by program.local[0], times the colour.
TEMP uv, c;
MUL uv, fragment.texcoord[2], program.local[0];
TEX c, uv, texture[0], 2D;
MUL result.color, c, fragment.color;
END
