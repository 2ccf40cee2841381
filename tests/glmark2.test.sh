#!/bin/sh
# glmark2's shader pairs (docs/GLMARK2.md): instantiate them from Debian's
# glmark2-data with tools/glmark2_gen, compile both shaders of every pair
# (GLSL ES -> SPIR-V -> vec4 IR), render its scene bench/glmark2/NAME.scn
# on the reference interpreter and on the five core models, and require
# bit-identical images.  At least 90% of the pairs must pass; the rest are
# listed with the reason.  Skipped (exit 0) without glmark2-data.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
GEN="$BUILD/tools/glmark2_gen"
cd "$(dirname "$0")/.."
DATA=/usr/share/glmark2

if [ ! -d "$DATA/shaders" ]; then
    echo "glmark2: SKIP: glmark2-data is not installed ($DATA)"
    exit 0
fi
mkdir -p bench/glmark2/gen
"$GEN" bench/glmark2/pairs.txt "$DATA/shaders" bench/glmark2/gen || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=0
pass=0
: > "$tmp/fails"
# pairs in catalogue order: "pair NAME VERT FRAG"
for name in $(awk '$1 == "pair" { print $2 }' bench/glmark2/pairs.txt); do
    total=$((total + 1))
    why=""
    for st in vert frag; do
        if [ -z "$why" ] &&
           ! "$U" glsl "bench/glmark2/gen/$name.$st" > /dev/null 2> "$tmp/err"; then
            why="$st does not compile: $(head -n 1 "$tmp/err")"
        fi
    done
    if [ -z "$why" ] &&
       ! ref=$("$U" render "bench/glmark2/$name.scn" -o "$tmp/img.png" --hash 2> "$tmp/err"); then
        why="render failed: $(head -n 1 "$tmp/err")"
    fi
    for arch in scalar simd4 vliw superscalar hetero; do
        [ -z "$why" ] || break
        if ! h=$("$U" render "bench/glmark2/$name.scn" -o "$tmp/img.png" --hash \
                 --arch "$arch" 2> "$tmp/err"); then
            why="$arch: $(head -n 1 "$tmp/err")"
        elif [ "$h" != "$ref" ]; then
            why="$arch: image $h differs from the interpreter's $ref"
        fi
    done
    if [ -z "$why" ]; then
        pass=$((pass + 1))
    else
        echo "  $name: $why" >> "$tmp/fails"
    fi
done

echo "glmark2: $pass of $total pairs compile and render bit-identically on the interpreter and five models"
if [ -s "$tmp/fails" ]; then
    echo "glmark2: not passing:"
    cat "$tmp/fails"
fi
# at least 90% of the pairs
[ "$total" -gt 0 ] && [ $((pass * 10)) -ge $((total * 9)) ]
