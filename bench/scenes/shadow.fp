!!ARBfp1.0
# Shadow-map compare (ARB_fragment_program_shadow, SHADOW2D target): TXP
# with the light-space (s, t, r, q); the sampler returns 1 where
# r <= depth (GL_LEQUAL), filtered bilinearly over four compares
# (percentage-closer filtering, W. Reeves et al., SIGGRAPH 1987).
# Lit colour times visibility plus the ambient in the secondary colour.
OPTION ARB_fragment_program_shadow;
TEMP vis, c;
TXP vis, fragment.texcoord[0], texture[0], SHADOW2D;
MAD c, fragment.color, vis.x, fragment.color.secondary;
MOV result.color.xyz, c;
MOV result.color.w, 1.0;
END
