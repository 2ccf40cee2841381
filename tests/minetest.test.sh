#!/bin/sh
# Minetest's shaders (docs/MINETEST.md): instantiate them from Debian's
# minetest-data with tools/minetest_gen, compile both shaders of every pair
# (GLSL 1.20/1.10 -> SPIR-V -> vec4 IR), render its scene
# bench/minetest/NAME.scn at 24x24 on the reference interpreter and on the
# five core models, and require bit-identical images for every pair.  Also:
# the generator resolves the conditional groups (no shadow varyings with the
# default settings) and refuses a bad catalogue.  Skipped (exit 0) without
# minetest-data.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
GEN="$BUILD/tools/minetest_gen"
cd "$(dirname "$0")/.."
DATA=/usr/share/games/minetest/client/shaders

if [ ! -d "$DATA/nodes_shader" ]; then
    echo "minetest: SKIP: minetest-data is not installed ($DATA)"
    exit 0
fi
G=bench/minetest/gen
mkdir -p "$G"
"$GEN" bench/minetest/shaders.txt "$DATA" "$G" > /dev/null || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() {
    echo "minetest: FAIL: $*"
    bad=1
}

# the header as generateShader writes it (desktop GL), the groups resolved
grep -q '^#define FOG_START 0.400000$' "$G/nodes.frag" || fail "nodes.frag: no FOG_START 0.400000"
grep -q '^#define MATERIAL_TYPE 8$' "$G/nodes-water.vert" || fail "nodes-water.vert: MATERIAL_TYPE is not 8"
grep -q '^#define WATER_WAVE_LENGTH 20.0000$' "$G/nodes-water.vert" || fail "nodes-water.vert: no WATER_WAVE_LENGTH"
grep -q 'WATER_WAVE_LENGTH' "$G/nodes.vert" && fail "nodes.vert: waving water's macros without enable_waving_water"
grep -q 'shadow_position' "$G/nodes.vert" && fail "nodes.vert: the shadow varyings were not resolved away"
grep -q 'vec3 uncharted2Tonemap' "$G/nodes-tonemap.frag" || fail "nodes-tonemap.frag: no tone mapping"
grep -q 'vec3 uncharted2Tonemap' "$G/nodes.frag" && fail "nodes.frag: tone mapping without tone_mapping"
[ "$(sed -n 2p "$G/shadow-depth-trans.frag")" = "#define COLORED_SHADOWS 1" ] || fail "shadow-depth-trans.frag: no COLORED_SHADOWS prefix"
# line numbers stay: the file's line N is line N + header lines
n=$(grep -c '' "$DATA/nodes_shader/opengl_fragment.glsl")
h=$(($(grep -c '' "$G/nodes.frag") - n))
[ "$(sed -n "$((h + 1))p" "$G/nodes.frag")" = "uniform sampler2D baseTexture;" ] || fail "nodes.frag: the lines moved"

# a bad catalogue is an error, and no output
printf 'pair x nodes_shader opengl_vertex.glsl opengl_fragment.glsl\nmaterial TILE_MATERIAL_NOPE\ndrawtype NDT_NORMAL\n' > "$tmp/bad.txt"
mkdir "$tmp/out"
if "$GEN" "$tmp/bad.txt" "$DATA" "$tmp/out" 2> "$tmp/err"; then
    fail "an unknown material was accepted"
elif ! grep -q "unknown enumerator TILE_MATERIAL_NOPE" "$tmp/err" || [ -n "$(ls "$tmp/out")" ]; then
    fail "unknown material: $(cat "$tmp/err")"
fi

total=0
pass=0
for name in $(awk '$1 == "pair" { print $2 }' bench/minetest/shaders.txt); do
    total=$((total + 1))
    why=""
    for st in vert frag; do
        if [ -z "$why" ] &&
           ! "$U" glsl "$G/$name.$st" > /dev/null 2> "$tmp/err"; then
            why="$st does not compile: $(head -n 1 "$tmp/err")"
        fi
    done
    if [ -z "$why" ] &&
       ! ref=$("$U" render "bench/minetest/$name.scn" --size 24x24 -o "$tmp/img.png" --hash 2> "$tmp/err"); then
        why="render failed: $(head -n 1 "$tmp/err")"
    fi
    for arch in scalar simd4 vliw superscalar hetero; do
        [ -z "$why" ] || break
        if ! h=$("$U" render "bench/minetest/$name.scn" --size 24x24 -o "$tmp/img.png" --hash \
                 --arch "$arch" 2> "$tmp/err"); then
            why="$arch: $(head -n 1 "$tmp/err")"
        elif [ "$h" != "$ref" ]; then
            why="$arch: image $h differs from the interpreter's $ref"
        fi
    done
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        fail "$name: $why"
    fi
done

echo "minetest: $pass of $total pairs compile and render bit-identically on the interpreter and five models"
[ "$total" -gt 0 ] && [ "$pass" -eq "$total" ] && [ "$bad" -eq 0 ]
