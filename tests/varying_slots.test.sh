#!/bin/sh
# Knob varying_slots (docs/GLSL.md, the link table): 8 vec4 varyings by
# default (GLES 2.0's minimum GL_MAX_VARYING_VECTORS), up to 32 (Mesa
# llvmpipe's).  A 13-slot shader fails at the default with the error that
# names the knob and compiles with the knob raised; an ARB program of
# result.texcoord[12] runs only with it raised; `ushader piglit` raises it
# to 32 by default (piglit's 13-slot matrix-array tests pass, and skip or
# fail at --set varying_slots=8), and piglit's GLSL 1.30 interpolation
# tests (flat, noperspective, smooth "other" varyings, which the link
# table then puts in slot 31) pass against the values Mesa passes with.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
case $U in /*) UABS=$U ;; *) UABS=$(pwd)/$U ;; esac
ROOT=${PIGLIT_ROOT:-/usr/lib/x86_64-linux-gnu/piglit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
checks=0
problem() { echo "FAIL: $*"; bad=$((bad + 1)); }
check() { checks=$((checks + 1)); }

# ---- the knob ------------------------------------------------------------
check
"$U" config --list | grep -q '^varying_slots  *8\.\.32  *default 8 ' ||
    problem "config --list: $("$U" config --list | grep varying_slots)"
check
"$U" piglit --help | grep -q 'varying_slots' ||
    problem "piglit --help does not say it raises varying_slots"

# ---- GLSL: 13 slots (piglit's vs-varying-array-mat4 interface) -----------
cat > "$tmp/m.vert" <<'GLSL'
varying mat4 m[3];
varying vec4 color;
void main()
{
    gl_Position = gl_Vertex;
    m[0] = mat4(1.0); m[1] = mat4(2.0); m[2] = mat4(3.0);
    color = vec4(0.5);
}
GLSL
check
if "$U" glsl "$tmp/m.vert" > "$tmp/out" 2> "$tmp/err"; then
    problem "13 slots compiled at the default"
else
    grep -q "^ushader: $tmp/m.vert:1:14: error: varying 'm' does not fit: .*8 vec4 varying slots (knob varying_slots)" "$tmp/err" ||
        problem "default: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && problem "output on failure"
fi
check
if "$U" glsl --set varying_slots=13 "$tmp/m.vert" > "$tmp/out" 2> "$tmp/err"; then
    # alone, in name order from the top: color 12, m 0..11
    grep -q '^MOV result\.texcoord\[12\]' "$tmp/out" &&
        grep -q 'result\.texcoord\[0\]' "$tmp/out" ||
        problem "13 slots: $(cat "$tmp/out")"
else
    problem "varying_slots=13: $(cat "$tmp/err")"
fi
# alone, a shader takes the lowest top that holds its varyings (at least
# 8), whatever the knob allows
check
"$U" glsl --set varying_slots=32 "$tmp/m.vert" 2> "$tmp/err" |
    grep -q '^MOV result\.texcoord\[12\]' || problem "varying_slots=32: $(cat "$tmp/err")"
for bad_set in varying_slots=33 varying_slots=7 alu_lanes=4; do
    check
    "$U" glsl --set "$bad_set" "$tmp/m.vert" > /dev/null 2> "$tmp/err"
    [ $? -eq 2 ] || problem "--set $bad_set is not a usage error"
done

# ---- a scene: 13 slots draw with the knob raised, as 1 slot draws ------
cat > "$tmp/m.frag" <<'GLSL'
varying mat4 m[3];
varying vec4 color;
void main() { gl_FragColor = color * (m[2][3].w / 3.0) * (m[0][1].y); }
GLSL
cat > "$tmp/m13.vert" <<'GLSL'
varying mat4 m[3];
varying vec4 color;
void main()
{
    gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;
    m[0] = mat4(1.0); m[1] = mat4(2.0); m[2] = mat4(3.0);
    color = vec4(gl_Vertex.xyz * 0.5 + 0.5, 1.0);
}
GLSL
cat > "$tmp/c1.frag" <<'GLSL'
varying vec4 color;
void main() { gl_FragColor = color; }
GLSL
cat > "$tmp/c1.vert" <<'GLSL'
varying vec4 color;
void main()
{
    gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;
    color = vec4(gl_Vertex.xyz * 0.5 + 0.5, 1.0);
}
GLSL
for s in m13:m c1:c1; do
    cat > "$tmp/${s%%:*}.scn" <<SCN
size 32 32
clear 0 0 0 1
camera eye 1.5 1.2 3 at 0 0 0 up 0 1 0 fov 50 near 0.5 far 50
program v ${s%%:*}.vert
program f ${s#*:}.frag
mesh c cube 1
vp v
fp f
draw c
SCN
done
check
if "$U" render "$tmp/m13.scn" --hash > /dev/null 2> "$tmp/err"; then
    problem "13 slots drew at the default"
else
    grep -q "draw 1 .*the vertex program writes result.texcoord\[12\]: 13 vec4 varying slots, more than varying_slots=8" "$tmp/err" ||
        problem "render default: $(cat "$tmp/err")"
fi
check
h13=$("$U" render "$tmp/m13.scn" --hash --set varying_slots=13 --arch all 2> "$tmp/err") ||
    problem "render varying_slots=13: $(cat "$tmp/err")"
h1=$("$U" render "$tmp/c1.scn" --hash 2> "$tmp/err") || problem "render c1: $(cat "$tmp/err")"
[ -n "$h1" ] && [ "$h13" = "$h1" ] || problem "13-slot image $h13, 1-slot image $h1"

# ---- ARB: result.texcoord[12] under OPTION USHADER_extensions ------------
cat > "$tmp/t12.vp" <<'ARB'
!!ARBvp1.0
OPTION USHADER_extensions;
MOV result.position, vertex.position;
MOV result.texcoord[12], vertex.color;
END
ARB
check
if "$U" run "$tmp/t12.vp" > /dev/null 2> "$tmp/err"; then
    problem "texcoord[12] ran at the default"
else
    grep -q "the vertex program writes result.texcoord\[12\]: 13 vec4 varying slots, more than varying_slots=8" "$tmp/err" ||
        problem "run default: $(cat "$tmp/err")"
fi
check
"$U" run "$tmp/t12.vp" --set varying_slots=13 > "$tmp/out" 2> "$tmp/err" &&
    grep -q 'result.texcoord\[12\]' "$tmp/out" ||
    problem "run varying_slots=13: $(cat "$tmp/err")"
check
"$U" run "$tmp/t12.vp" --arch scalar --set varying_slots=13 > /dev/null 2> "$tmp/err" ||
    problem "run --arch scalar varying_slots=13: $(cat "$tmp/err")"
check
sed '/OPTION/d' "$tmp/t12.vp" > "$tmp/plain.vp"
"$U" asm "$tmp/plain.vp" > /dev/null 2> "$tmp/err" &&
    problem "texcoord[12] without OPTION USHADER_extensions assembled"
grep -q 'out of range (0..7)' "$tmp/err" || problem "asm: $(cat "$tmp/err")"
check
"$U" asm "$tmp/t12.vp" > /dev/null 2> "$tmp/err" ||
    problem "asm of texcoord[12]: $(cat "$tmp/err")"
# the canonical text (the disassembler's) assembles to the same program
check
if "$U" asm -S "$tmp/t12.vp" > "$tmp/canon.vp" 2> "$tmp/err"; then
    grep -q 'result\.texcoord\[12\]' "$tmp/canon.vp" ||
        problem "asm -S: $(cat "$tmp/canon.vp")"
    "$U" asm -S "$tmp/canon.vp" > "$tmp/canon2.vp" 2> "$tmp/err" &&
        cmp -s "$tmp/canon.vp" "$tmp/canon2.vp" ||
        problem "round trip: $(cat "$tmp/err" "$tmp/canon2.vp")"
else
    problem "asm -S: $(cat "$tmp/err")"
fi
check
"$U" asm -S --target scalar "$tmp/t12.vp" > "$tmp/sc.txt" 2> "$tmp/err" ||
    problem "asm -S --target scalar: $(cat "$tmp/err")"

# ---- piglit -----------------------------------------------------------------
if [ -d "$ROOT/generated_tests" ]; then
    vi=generated_tests/spec/glsl-1.10/execution/variable-indexing
    for f in $vi/fs-varying-array-mat4-col-rd.shader_test \
             $vi/vs-varying-array-mat3-col-row-wr.shader_test; do
        check
        (cd "$ROOT" && "$UABS" piglit --arch scalar "$f") > "$tmp/p" 2>&1 ||
            problem "piglit $f: $(cat "$tmp/p")"
        grep -q "^PASS $f" "$tmp/p" || problem "not PASS: $(cat "$tmp/p")"
    done
    check
    (cd "$ROOT" && "$UABS" piglit --set varying_slots=8 \
        $vi/fs-varying-array-mat4-col-rd.shader_test) > "$tmp/p" 2>&1
    grep -q '^SKIP .*requires GL_MAX_VARYING_COMPONENTS >= 52; the model has 32' "$tmp/p" ||
        problem "varying_slots=8 does not skip: $(cat "$tmp/p")"
    check
    (cd "$ROOT" && "$UABS" piglit --set varying_slots=8 \
        $vi/vs-varying-array-mat3-col-row-wr.shader_test) > "$tmp/p" 2>&1
    grep -q "^FAIL .*varying 'dst_matrix' does not fit: .*(knob varying_slots)" "$tmp/p" ||
        problem "varying_slots=8 does not fail: $(cat "$tmp/p")"
    # flat, noperspective and smooth varyings (slot 31 at 32 slots)
    ip=generated_tests/spec/glsl-1.30/execution/interpolation
    for q in flat-other-flat-fixed noperspective-other-flat-fixed \
             smooth-other-flat-vertex; do
        check
        (cd "$ROOT" && "$UABS" piglit "$ip/interpolation-$q.shader_test") > "$tmp/p" 2>&1
        grep -q '^PASS ' "$tmp/p" || problem "$q: $(cat "$tmp/p")"
    done
else
    echo "varying_slots: piglit not installed ($ROOT), its part skipped"
fi

if [ "$bad" -ne 0 ]; then
    echo "varying_slots: $bad of $checks checks failed"
    exit 1
fi
echo "varying_slots: $checks checks passed"
