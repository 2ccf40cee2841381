!!ARBfp1.0
# Multitexturing: a base texture modulated by a light map and a detail
# texture at eight times the frequency, as in light-mapped game engines
# (M. Abrash, "Quake's lighting model: surface caching", 1996; detail
# textures as in GL_EXT_texture_env_combine's modulate-2x), then blended
# with the vertex colour.  Units: texture[0] base, texture[1] light map and
# detail.  Input: texcoord[0] (fog.vp's surface coordinate).
ATTRIB tc = fragment.texcoord[0];
PARAM freq = { 8.0, 8.0, 0.0, 0.0 };
TEMP base, light, detail, p;
TEX base, tc, texture[0], 2D;
MUL p, tc, 0.25;
TEX light, p, texture[1], 2D;
MUL p, tc, freq;
TEX detail, p, texture[1], 2D;
MUL base.rgb, base, light;
ADD detail.rgb, detail, detail;
MUL base.rgb, base, detail;
MUL result.color.rgb, base, fragment.color;
MOV result.color.a, base.a;
END
