#!/bin/sh
# Issue 21 item 2: `render --jobs N` splits each draw into vertex batches
# and bands of screen rows merged in a fixed order, so the image, the --stats
# document (less its command line) and any error are byte-identical for
# N = 1, 2, 3, 7: scenes with depth, blending and KIL, textures, many
# small triangles, a glmark2 scene, odd sizes (partial tiles, one tile),
# a draw failing in some tiles only and one failing in some vertex
# batches only.  Also: piglit --jobs and compute --jobs give identical
# outputs, --jobs takes 1..256 only, and render --time's line is there.
# Nothing here is timed.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# out TAG ARGS...: render into $tmp/TAG.{png,out,err,rc}, the command
# line and commit left out of the --stats document
out() {
    tag=$1
    shift
    rm -f "$tmp/$tag.png"
    "$U" render "$@" -o "$tmp/$tag.png" --hash --stats > "$tmp/$tag.raw" \
        2> "$tmp/$tag.err"
    echo $? > "$tmp/$tag.rc"
    grep -v -e '^ *"command": ' "$tmp/$tag.raw" > "$tmp/$tag.out"
    [ -e "$tmp/$tag.png" ] || : > "$tmp/$tag.png"
}

# same RC SCENE [ARGS...]: jobs 1 exits RC; 2, 3, 7 give its bytes
same() {
    want=$1
    shift
    out j1 "$@" --jobs 1
    [ "$(cat "$tmp/j1.rc")" = "$want" ] && ok ||
        bad "$* --jobs 1: exit $(cat "$tmp/j1.rc"), not $want: $(head -c 300 "$tmp/j1.err")"
    for j in 2 3 7; do
        out "j$j" "$@" --jobs "$j"
        d=""
        for f in png out err rc; do
            cmp -s "$tmp/j1.$f" "$tmp/j$j.$f" || d="$d $f"
        done
        if [ -z "$d" ]; then ok; else bad "$* --jobs $j: differs from --jobs 1 in$d"; fi
    done
}

for s in blend shadow bunny envmap multilight skinning; do
    same 0 "bench/scenes/$s.scn"
done
same 0 bench/softpipe/fullscreen.scn --size 96x80
same 0 bench/scenes/phong.scn --size 37x29
same 0 bench/scenes/phong.scn --size 1x1
same 0 bench/scenes/fog.scn --exact-math
# the failing draws: exit 1, the same message, no image
same 1 tests/render_jobs/fail2.scn --set max_instructions=5000
grep -q "draw 2 .*fragment program does not finish" "$tmp/j1.err" && ok ||
    bad "fail2.scn: $(cat "$tmp/j1.err")"
[ -s "$tmp/j7.png" ] && bad "fail2.scn: an image was written" || ok
same 1 tests/render_jobs/vfail.scn --set max_instructions=5000
grep -q "draw 2 .*vertex program does not finish" "$tmp/j1.err" && ok ||
    bad "vfail.scn: $(cat "$tmp/j1.err")"
# a core model shades on one thread whatever --jobs says
same 0 bench/scenes/toon.scn --arch scalar --size 32x32

# a glmark2 scene (textures, a .3ds model) when glmark2-data is there
if [ -d /usr/share/glmark2/shaders ]; then
    mkdir -p bench/glmark2/gen
    if "$BUILD/tools/glmark2_gen" bench/glmark2/pairs.txt \
           /usr/share/glmark2/shaders bench/glmark2/gen > /dev/null; then
        same 0 bench/glmark2/jellyfish.scn
        same 0 bench/glmark2/bump-high-poly.scn
        same 0 bench/glmark2/shading-blinn-phong-inf.scn
    else
        bad "glmark2_gen failed"
    fi
else
    echo "render_jobs: glmark2-data missing, its scenes left out"
fi

# piglit: files on --jobs threads, results in order
pj() {
    "$U" piglit --jobs "$1" --results "$tmp/p$1.json" tests/shtest \
        > "$tmp/p$1.out" 2>&1
    grep -v -e '"command": ' "$tmp/p$1.json" > "$tmp/p$1.res"
}
pj 1
pj 3
cmp -s "$tmp/p1.out" "$tmp/p3.out" && cmp -s "$tmp/p1.res" "$tmp/p3.res" && ok ||
    bad "piglit --jobs 3 differs from --jobs 1"

# compute: several --arch models' launches at once, reported in order
head -c 1280 /dev/urandom > "$tmp/in.bin"
cj() {   # cj TAG ARGS...: compute into $tmp/c.TAG.{out,err,rc,bin}
    tag=$1
    shift
    rm -f "$tmp/c.$tag.bin"
    "$U" compute "$@" --out 1="$tmp/c.$tag.bin" > "$tmp/c.$tag.raw" \
        2> "$tmp/c.$tag.err"
    echo $? > "$tmp/c.$tag.rc"
    grep -v -e '"command": ' "$tmp/c.$tag.raw" > "$tmp/c.$tag.out"
    [ -e "$tmp/c.$tag.bin" ] || : > "$tmp/c.$tag.bin"
}
csame() {   # csame RC ARGS...
    want=$1
    shift
    cj 1 "$@" --jobs 1
    [ "$(cat "$tmp/c.1.rc")" = "$want" ] && ok ||
        bad "compute $* --jobs 1: exit $(cat "$tmp/c.1.rc"), not $want"
    for j in 2 3 7; do
        cj "$j" "$@" --jobs "$j"
        d=""
        for f in out err rc bin; do
            cmp -s "$tmp/c.1.$f" "$tmp/c.$j.$f" || d="$d $f"
        done
        if [ -z "$d" ]; then ok; else bad "compute $* --jobs $j: differs from --jobs 1 in$d"; fi
    done
}
R="tests/compute/reduce.cp --groups 5 --buffer 0=$tmp/in.bin --buffer 1=,20"
# shellcheck disable=SC2086  # $R is a word list
csame 0 $R --arch all --set threads_per_proc=32 --set simt_warps=8 --json
[ "$(cat "$tmp/c.1.rc")" = 0 ] && [ -s "$tmp/c.1.bin" ] && ok || bad "reduce.cp on all models failed"
# shellcheck disable=SC2086
csame 0 $R --arch scalar,simd4,simt --set threads_per_proc=32 --set simt_warps=8
# shellcheck disable=SC2086
csame 0 $R --arch functional
# a model that cannot hold the workgroup: the first error in model order
# shellcheck disable=SC2086
csame 1 $R --arch all --set simt_warps=8
grep -q "scalar: a workgroup of 64 threads" "$tmp/c.1.err" && ok ||
    bad "reduce.cp's refusal: $(cat "$tmp/c.1.err")"
csame 0 tests/compute/sum.cp --groups 3 --buffer 0=,48 --buffer 1=,48 \
    --buffer 2=,4 --arch all

# --jobs takes 1..256 host threads
for v in 0 257 -1 x 2x; do
    "$U" render bench/scenes/phong.scn --hash --jobs "$v" > /dev/null 2> "$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "--jobs wants 1..256" "$tmp/err" && ok ||
        bad "render --jobs $v -> $rc: $(cat "$tmp/err")"
done
"$U" compute tests/compute/sum.cp --groups 1 --jobs 0 > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q -- "--jobs wants 1..256" "$tmp/err" && ok ||
    bad "compute --jobs 0: $(cat "$tmp/err")"

# --time: one line on stderr a render (each --arch model's), the draws'
# wall and CPU seconds and the fragments; stdout (the hash) unchanged
"$U" render bench/scenes/phong.scn --size 64x48 --hash > "$tmp/t0.out"
"$U" render bench/scenes/phong.scn --size 64x48 --hash --time --jobs 2 \
    > "$tmp/t1.out" 2> "$tmp/t1.err"
frags=$("$U" render bench/scenes/phong.scn --size 64x48 --stats |
        sed -n 's/^ *"fragments": \([0-9]*\),*$/\1/p')
cmp -s "$tmp/t0.out" "$tmp/t1.out" && ok || bad "render --time changed stdout"
grep -Eq "^time: render functional +[0-9]+\.[0-9]{6} s wall [0-9]+\.[0-9]{6} s CPU $frags fragments\$" \
    "$tmp/t1.err" && [ "$(wc -l < "$tmp/t1.err")" -eq 1 ] && ok ||
    bad "render --time: '$(cat "$tmp/t1.err")' ($frags fragments)"
"$U" render bench/scenes/phong.scn --size 16x16 --hash --time \
    --arch scalar,simt > /dev/null 2> "$tmp/t2.err"
[ "$(grep -c "^time: render " "$tmp/t2.err")" -eq 2 ] &&
    grep -q "^time: render simt " "$tmp/t2.err" && ok ||
    bad "render --time --arch scalar,simt: $(cat "$tmp/t2.err")"

echo "render_jobs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
