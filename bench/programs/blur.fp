!!ARBfp1.0
# Post-processing: 3x3 Gaussian blur with binomial weights 1 2 1 / 4 in each
# direction (the binomial approximation of the Gaussian, P. J. Burt and
# E. H. Adelson, "The Laplacian pyramid as a compact image code", IEEE
# Trans. Communications 1983), nine taps around texcoord[0] in texture[0];
# the texel size is 1/128.
ATTRIB tc = fragment.texcoord[0];
PARAM dx = { 0.0078125, 0.0, 0.0, 0.0 };
PARAM dy = { 0.0, 0.0078125, 0.0, 0.0 };
PARAM w = { 0.25, 0.125, 0.0625, 0.0 };
TEMP c, s, p, q;
TEX c, tc, texture[0], 2D;
MUL c, c, w.x;
ADD p, tc, dx;
TEX s, p, texture[0], 2D;
MAD c, s, w.y, c;
SUB p, tc, dx;
TEX s, p, texture[0], 2D;
MAD c, s, w.y, c;
ADD p, tc, dy;
TEX s, p, texture[0], 2D;
MAD c, s, w.y, c;
SUB p, tc, dy;
TEX s, p, texture[0], 2D;
MAD c, s, w.y, c;
ADD q, tc, dx;
ADD p, q, dy;
TEX s, p, texture[0], 2D;
MAD c, s, w.z, c;
SUB p, q, dy;
TEX s, p, texture[0], 2D;
MAD c, s, w.z, c;
SUB q, tc, dx;
ADD p, q, dy;
TEX s, p, texture[0], 2D;
MAD c, s, w.z, c;
SUB p, q, dy;
TEX s, p, texture[0], 2D;
MAD result.color, s, w.z, c;
END
