!!ARBfp1.0
# fuzz_target: hetero marked an empty slot with bit 127, which is also
# SRC2's NEG bit, so this CMP did not decode (isa/scalar_target.c).
CMP result.color, fragment.texcoord[0], fragment.color, -fragment.color;
END
