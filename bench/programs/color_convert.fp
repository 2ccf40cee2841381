!!ARBfp1.0
# Post-processing colour conversion: RGB to Y'CbCr with the ITU-R BT.601
# matrix (Kr = 0.299, Kb = 0.114), a saturation and sepia adjustment in the
# chroma plane, and back to RGB with the inverse matrix (C. Poynton,
# "Digital Video and HDTV: Algorithms and Interfaces", 2003, ch. 25).
# texture[0] is the frame, texcoord[0] the pixel.
ATTRIB tc = fragment.texcoord[0];
PARAM toY = { 0.299, 0.587, 0.114, 0.0 };
PARAM toCb = { -0.168736, -0.331264, 0.5, 0.0 };
PARAM toCr = { 0.5, -0.418688, -0.081312, 0.0 };
PARAM fromR = { 1.0, 0.0, 1.402, 0.0 };
PARAM fromG = { 1.0, -0.344136, -0.714136, 0.0 };
PARAM fromB = { 1.0, 1.772, 0.0, 0.0 };
PARAM tint = { 0.0, -0.1, 0.08, 0.35 };
TEMP c, ycc;
TEX c, tc, texture[0], 2D;
DP3 ycc.x, c, toY;
DP3 ycc.y, c, toCb;
DP3 ycc.z, c, toCr;
MAD ycc.yz, ycc, tint.w, tint;
DP3_SAT result.color.r, ycc, fromR;
DP3_SAT result.color.g, ycc, fromG;
DP3_SAT result.color.b, ycc, fromB;
MOV result.color.a, c.a;
END
