#!/bin/sh
# GLSL on the command line (docs/GLSL.md): `ushader glsl` prints the IR and
# its temporaries, -o writes the same text, the stage comes from the
# extension or --stage, errors name FILE:LINE[:COL]; `ushader run`, `stats`
# and scenes take GLSL files as they take ARB programs.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
problem() { echo "FAIL: $*"; bad=$((bad + 1)); }

"$U" glsl tests/glsl/lit.vert > "$tmp/v.txt" 2> "$tmp/err" ||
    problem "glsl lit.vert: $(cat "$tmp/err")"
[ "$(head -n 1 "$tmp/v.txt")" = '!!ARBvp1.0' ] || problem "no !!ARBvp1.0 header"
grep -q '^# [0-9]* temporaries$' "$tmp/v.txt" || problem "no temporaries line"
grep -q 'state.matrix' "$tmp/v.txt" || problem "ftransform() reads no matrix state"
"$U" glsl -o "$tmp/v2.txt" tests/glsl/lit.vert && cmp -s "$tmp/v.txt" "$tmp/v2.txt" ||
    problem "-o wrote something else"
"$U" glsl tests/glsl/lit.frag | head -n 1 | grep -qx '!!ARBfp1.0' ||
    problem "lit.frag is not a fragment program"

cp tests/glsl/lit.frag "$tmp/shader.glsl"
"$U" glsl "$tmp/shader.glsl" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q -- '--stage' "$tmp/err" || problem "a .glsl file without --stage: $(cat "$tmp/err")"
"$U" glsl --stage fragment "$tmp/shader.glsl" > /dev/null || problem "--stage fragment"
"$U" glsl --stage pixel "$tmp/shader.glsl" > /dev/null 2>&1
[ $? -eq 2 ] || problem "--stage pixel is not a usage error"
"$U" glsl --no-opt tests/glsl/lit.frag > /dev/null || problem "--no-opt"

printf 'void main() {\n  gl_FragColor = gl_Bogus;\n}\n' > "$tmp/e1.frag"
"$U" glsl "$tmp/e1.frag" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -qx "ushader: $tmp/e1.frag:2:18: error: unknown built-in 'gl_Bogus'.*" "$tmp/err" ||
    problem "front error: $(cat "$tmp/err")"
printf '#version 110\n\nvoid main() {\n  gl_FragColor = vec4(nothing);\n}\n' > "$tmp/e2.frag"
"$U" glsl "$tmp/e2.frag" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -q "^ushader: $tmp/e2.frag:4: error: .*nothing.*undeclared" "$tmp/err" ||
    problem "glslang error: $(cat "$tmp/err")"

"$U" run tests/glsl/lit.frag > "$tmp/run.txt" 2> "$tmp/err" &&
    grep -q '^result.color = ' "$tmp/run.txt" || problem "run lit.frag: $(cat "$tmp/err")"
"$U" stats tests/glsl/lit.vert tests/glsl/lit.frag > "$tmp/stats.txt" 2> "$tmp/err" &&
    grep -q '^total: ' "$tmp/stats.txt" || problem "stats: $(cat "$tmp/err")"
"$U" render tests/glsl/lit.scn -o "$tmp/lit.png" 2> "$tmp/err" && [ -s "$tmp/lit.png" ] ||
    problem "render lit.scn: $(cat "$tmp/err")"

# A scene's GLSL program starts with its initialized uniforms' values
# (`uniform vec4 c = ...;`), as a `uniform` directive would set them.
printf 'uniform vec4 c = vec4(0.0, 0.8, 0.2, 1.0);\nvoid main() { gl_FragColor = c; }\n' > "$tmp/init.frag"
printf 'uniform vec4 c;\nvoid main() { gl_FragColor = c; }\n' > "$tmp/set.frag"
cp tests/glsl/lit.vert "$tmp/lit.vert"
for k in init set; do
    printf 'size 8 8\nprogram v lit.vert\nprogram f %s.frag\nmesh q sphere 1 8 8\nvp v\nfp f\n' "$k" > "$tmp/$k.scn"
    [ $k = set ] && echo 'uniform fragment c 0 0.8 0.2 1' >> "$tmp/$k.scn"
    echo 'draw q' >> "$tmp/$k.scn"
    "$U" render "$tmp/$k.scn" -o "$tmp/$k.png" 2> "$tmp/err" || problem "render $k.scn: $(cat "$tmp/err")"
done
"$U" imgdiff "$tmp/init.png" "$tmp/set.png" | grep -q 'inf' ||
    problem "initialized uniform in a scene: $("$U" imgdiff "$tmp/init.png" "$tmp/set.png")"

# Compute shaders: .comp or --stage compute, a !!USHADERcp1.0 program.
printf '#version 430\nlayout(local_size_x = 8, local_size_y = 2) in;\nlayout(binding = 1) buffer B { uint v[]; };\nshared uint s[16];\nvoid main() {\n  s[gl_LocalInvocationIndex] = gl_GlobalInvocationID.x;\n  barrier();\n  atomicAdd(v[0], s[15u - gl_LocalInvocationIndex]);\n}\n' > "$tmp/k.comp"
"$U" glsl "$tmp/k.comp" > "$tmp/k.txt" 2> "$tmp/err" || problem "glsl k.comp: $(cat "$tmp/err")"
[ "$(head -n 1 "$tmp/k.txt")" = '!!USHADERcp1.0' ] || problem "k.comp is not a compute program"
grep -qx 'GROUP_SIZE 8 2 1;' "$tmp/k.txt" || problem "no GROUP_SIZE 8 2 1"
grep -qx 'SHARED_MEMORY 64;' "$tmp/k.txt" || problem "no SHARED_MEMORY 64"
for i in 'BAR;' 'ATOM.ADD.U32 ' 'STS.U32 ' 'LDS.U32 '; do
    grep -q "^$i" "$tmp/k.txt" || problem "k.comp has no $i"
done
cp "$tmp/k.comp" "$tmp/k.glsl"
"$U" glsl --stage compute "$tmp/k.glsl" | cmp -s - "$tmp/k.txt" || problem "--stage compute"
"$U" glsl --stage pixel "$tmp/k.glsl" 2>&1 | grep -q 'vertex, fragment or compute' ||
    problem "--stage pixel does not list compute"

# Unsupported SPIR-V names the instruction and the GLSL line.
printf '#version 450\nin vec4 v;\nout vec4 c;\nuniform sampler2D s;\nvoid main() {\n  float x = v.x;\n  c = vec4(textureSize(s, 0), x, x);\n}\n' > "$tmp/d.frag"
"$U" glsl "$tmp/d.frag" > /dev/null 2> "$tmp/err"
[ $? -eq 1 ] && grep -qxF "ushader: $tmp/d.frag:7: error: unsupported SPIR-V instruction OpImage (GLSL: c = vec4(textureSize(s, 0), x, x);)" "$tmp/err" ||
    problem "unsupported instruction: $(cat "$tmp/err")"

# No temporary file stays behind, the limits file of atomic counters
# included.
mkdir "$tmp/t"
printf '#version 450\nlayout(binding = 3) uniform atomic_uint n;\nvoid main() { gl_Position = vec4(atomicCounterIncrement(n)); }\n' > "$tmp/a.vert"
TMPDIR="$tmp/t" "$U" glsl "$tmp/a.vert" > "$tmp/a.txt" 2> "$tmp/err" || problem "counters in a vertex shader: $(cat "$tmp/err")"
grep -q '^ATOM.ADD.U32 .*buffer\[19\];' "$tmp/a.txt" || problem "counter binding 3 is not buffer[19]"
TMPDIR="$tmp/t" "$U" glsl "$tmp/d.frag" > /dev/null 2>&1
[ -z "$(ls -A "$tmp/t")" ] || problem "temporary files left: $(ls -A "$tmp/t")"

echo "glsl_cli: $bad problems"
[ "$bad" -eq 0 ]
