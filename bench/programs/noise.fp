!!ARBfp1.0
# Procedural value noise, two octaves, on the eye-space position (K. Perlin,
# "An image synthesizer", SIGGRAPH 1985: lattice values blended with a
# smooth fade 3t^2 - 2t^3).  Lattice values come from the common
# sin-based hash fract(sin(dot(p, (12.9898, 78.233))) * 43758.5453), so the
# program is SFU-heavy (eight SIN per fragment), like procedural texturing
# on GPUs without integer hashing.  Inputs: eye-space position in
# texcoord[1] (eyespace.vp).
ATTRIB P = fragment.texcoord[1];
PARAM k = { 12.9898, 78.233, 43758.5453, 0.0 };
PARAM sc = { 6.0, 6.0, 12.0, 12.0 };
PARAM fade = { 3.0, -2.0, 0.5, 0.25 };
PARAM c0 = { 0.85, 0.7, 0.45, 1.0 };
PARAM c1 = { 0.3, 0.18, 0.1, 1.0 };
TEMP p, i, f, u, h, a, b, n;
MUL p, P.xyxy, sc;
FRC f, p;
SUB i, p, f;
# fade u = f * f * (3 - 2 f), both octaves at once
MAD u, f, fade.y, fade.x;
MUL u, u, f;
MUL u, u, f;
# octave 1: the four corners i, i + (1,0), i + (0,1), i + (1,1)
DP3 h.x, i.xyww, k;
ADD a, i, {1.0, 0.0, 1.0, 0.0};
DP3 h.y, a.xyww, k;
ADD a, i, {0.0, 1.0, 0.0, 1.0};
DP3 h.z, a.xyww, k;
ADD a, i, {1.0, 1.0, 1.0, 1.0};
DP3 h.w, a.xyww, k;
SIN h.x, h.x;
SIN h.y, h.y;
SIN h.z, h.z;
SIN h.w, h.w;
MUL h, h, k.z;
FRC h, h;
LRP a.xy, u.x, h.ywww, h.xzww;
LRP n.x, u.y, a.y, a.x;
# octave 2
DP3 h.x, i.zwww, k;
ADD a, i, {1.0, 0.0, 1.0, 0.0};
DP3 h.y, a.zwww, k;
ADD a, i, {0.0, 1.0, 0.0, 1.0};
DP3 h.z, a.zwww, k;
ADD a, i, {1.0, 1.0, 1.0, 1.0};
DP3 h.w, a.zwww, k;
SIN h.x, h.x;
SIN h.y, h.y;
SIN h.z, h.z;
SIN h.w, h.w;
MUL h, h, k.z;
FRC h, h;
LRP a.xy, u.z, h.ywww, h.xzww;
LRP n.y, u.w, a.y, a.x;
MUL n.y, n.y, fade.z;
ADD n.x, n.x, n.y;
MUL n.x, n.x, 0.6666667;
LRP result.color, n.x, c0, c1;
END
