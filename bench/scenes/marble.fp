!!ARBfp1.0
# Procedural marble (Perlin, "An Image Synthesizer", SIGGRAPH 1985):
# veins = |sin(k x + turbulence)|, the turbulence from a 3D texture of
# colour noise (a stack of four PNG slices, trilinearly filtered) summed
# over two octaves.  SIN, COS and SCS build the pattern; FRC and ABS fold
# it; LRP mixes two stone colours; LG2 and EX2 apply a gamma of 1/2.2.
PARAM stoneA = { 0.93, 0.9, 0.85, 1.0 };
PARAM stoneB = { 0.25, 0.3, 0.45, 1.0 };
PARAM k = { 3.0, 0.8, 0.4545, 6.2831853 };
TEMP p, n, n2, t, v, c;
MUL p, fragment.texcoord[0], 0.6;
TEX n, p, texture[0], 3D;
MUL p, p, 2.0;
TEX n2, p, texture[0], 3D;
MAD n, n2, 0.5, n;
MAD t.x, fragment.texcoord[0].x, k.x, n.x;
MAD t.x, n.y, k.x, t.x;
SIN v.x, t.x;
ABS v.x, v.x;
POW v.x, v.x, k.z;
# a second, finer vein family from SCS and COS of the y coordinate
MAD t.y, fragment.texcoord[0].y, 5.0, n.z;
SCS t.zw, t.y;
COS t.y, t.w;
MUL t.y, t.y, t.z;
FRC t.y, t.y;
MUL t.y, t.y, 0.25;
ADD v.x, v.x, t.y;
MIN v.x, v.x, 1.0;
LRP c, v.x, stoneA, stoneB;
MUL c, c, fragment.color;
# gamma: c^(1/2.2) = 2^(log2(c) / 2.2)
LG2 t.x, c.x;
LG2 t.y, c.y;
LG2 t.z, c.z;
MUL t, t, k.z;
EX2 c.x, t.x;
EX2 c.y, t.y;
EX2 c.z, t.z;
MOV c.w, 1.0;
MOV result.color, c;
END
