!!ARBfp1.0
# Cube map reflection mixed over the base colour by the Fresnel weight in
# fragment.color.a (Greene 1986; Schlick 1994): LRP.
TEMP env, c;
TEX env, fragment.texcoord[0], texture[0], CUBE;
LRP c.xyz, fragment.color.w, env, fragment.color;
ADD_SAT result.color.xyz, c, {0.0, 0.0, 0.0, 0.0};
MOV result.color.w, 1.0;
END
