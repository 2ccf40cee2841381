#!/bin/sh
# GLSL derivatives (docs/GLSL.md "Derivatives"): dFdx dFdy fwidth and their
# Fine / Coarse forms become DDX DDY (coarse) or DDX.FINE DDY.FINE, fwidth
# |DDX| + |DDY|; a vertex shader cannot take them; a scene that takes them
# renders bit-identically on every model (the quads that read derivatives
# are shaded on the interpreter, gfx/backend_core.c) with the pinned
# image; piglit's derivative tests pass on the scalar model.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
ROOT=${PIGLIT_ROOT:-/usr/lib/x86_64-linux-gnu/piglit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
problem() { echo "FAIL: $*"; bad=$((bad + 1)); }

cat > "$tmp/d.frag" <<'GLSL'
#version 450
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 c;
void main()
{
    c = vec4(dFdx(v.x), dFdyFine(v.y), fwidth(v.z), dFdxCoarse(v.w));
}
GLSL
if "$U" glsl "$tmp/d.frag" > "$tmp/d.txt" 2> "$tmp/err"; then
    # each derivative reads its component (the passes may merge the two
    # coarse DDXs and the two ABSs into one vec4 instruction each)
    for want in 'DDX [^,]*, fragment\.texcoord\[0\]\.[xyzw]*x' \
                'DDY\.FINE [^,]*, fragment\.texcoord\[0\]\.[xyzw]*y' \
                'DDX [^,]*, fragment\.texcoord\[0\]\.[xyzw]*z' \
                'DDY [^,]*, fragment\.texcoord\[0\]\.[xyzw]*z' \
                'DDX [^,]*, fragment\.texcoord\[0\]\.[xyzw]*w'; do
        grep -q "^$want" "$tmp/d.txt" || problem "no '$want' in: $(cat "$tmp/d.txt")"
    done
    grep -q '^ABS ' "$tmp/d.txt" && grep -q '^ADD ' "$tmp/d.txt" ||
        problem "fwidth is not |DDX| + |DDY|: $(cat "$tmp/d.txt")"
else
    problem "glsl d.frag: $(cat "$tmp/err")"
fi
printf '#version 450\nlayout(location = 0) in vec4 v;\nvoid main() {\n  gl_Position = vec4(dFdx(v.x));\n}\n' > "$tmp/d.vert"
"$U" glsl "$tmp/d.vert" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^ushader: $tmp/d.vert:4: error: " "$tmp/err" ||
    problem "dFdx in a vertex shader: $(cat "$tmp/err")"

# Every model gives the interpreter's image (render --arch all checks it);
# the hash pins the derivatives' values (measured on c20-glsl).
h=$("$U" render tests/glsl/derivs.scn --arch all --hash 2> "$tmp/err") ||
    problem "render derivs.scn --arch all: $(cat "$tmp/err")"
[ "$h" = e8e0dec2585fc1ec ] || problem "derivs.scn hash $h, want e8e0dec2585fc1ec"

n=0
for f in "$ROOT"/tests/spec/glsl-1.10/execution/derivatives/*.shader_test; do
    [ -f "$f" ] || { problem "no piglit derivative tests under $ROOT: run 'make deps'"; break; }
    "$U" piglit --arch scalar "$f" > "$tmp/out" 2>&1
    grep -q '^PASS ' "$tmp/out" || problem "$(grep '^\(FAIL\|SKIP\) ' "$tmp/out" || cat "$tmp/out")"
    n=$((n + 1))
done
echo "glsl_derivs: $n piglit derivative tests, $bad problems"
exit $((bad > 0))
