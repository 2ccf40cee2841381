!!ARBfp1.0
# fuzz_asm: like late-output-decl.ok.vp, for an ATTRIB printed after
# PARAM p (slot 2) while an earlier instruction reads its binding.
MOV result.color, {1, 2, 3, 4};
MUL result.color, fragment.color, {2, 2, 2, 2};
PARAM p = {5, 6, 7, 8};
ATTRIB c = fragment.color;
ADD result.color, c, p;
END
