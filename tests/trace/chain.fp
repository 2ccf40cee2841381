!!ARBfp1.0
# Three dependent MADs, then an independent ADD: the hand-computed
# schedule of tests/trace.test.sh and docs/TRACE.md.
TEMP a, b, c, d;
MAD a.x, fragment.color.x, fragment.color.y, fragment.color.z;
MAD b.x, a.x, fragment.color.y, fragment.color.z;
MAD c.x, b.x, fragment.color.y, fragment.color.z;
ADD d.x, fragment.color.w, fragment.color.y;
MOV result.color.x, c.x;
MOV result.color.y, d.x;
END
