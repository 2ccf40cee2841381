!!ARBfp1.0
# Sky box colour: the cube map in the interpolated direction.
TEX result.color, fragment.texcoord[0], texture[0], CUBE;
END
