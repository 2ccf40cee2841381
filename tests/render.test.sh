#!/bin/sh
# Golden-image checks of the 3D pipeline: every bench/scenes/*.scn is
# rendered at its own size (128x128) with --exact-math (correctly rounded
# elementary functions, so the hashes do not move when the SFU model is
# retuned) and the FNV-1a 64 hash of its RGBA8 pixels must equal
# tests/golden/NAME.hash.  `tests/render.test.sh --update` (make golden)
# rewrites the hashes.  Also checked: the SFU-math render and PNG output
# work, and bad input gives `ushader: FILE:LINE:COL: error:` messages.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
update=0
[ "${1:-}" = "--update" ] && update=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

for scn in bench/scenes/*.scn; do
    name=$(basename "$scn" .scn)
    if ! h=$("$U" render "$scn" --exact-math --hash 2>"$tmp/err"); then
        bad "$name: render failed: $(cat "$tmp/err")"
        continue
    fi
    if [ $update = 1 ]; then
        echo "$h" > "tests/golden/$name.hash"
        echo "golden: $name $h"
        ok
    elif [ ! -f "tests/golden/$name.hash" ]; then
        bad "$name: no tests/golden/$name.hash (run make golden)"
    elif [ "$h" = "$(cat "tests/golden/$name.hash")" ]; then
        ok
    else
        bad "$name: hash $h, golden $(cat "tests/golden/$name.hash")"
    fi
done
[ $update = 1 ] && { echo "render: $pass hashes written"; exit 0; }

# Default (SFU) math renders, and the PNG on disk decodes to the same
# image size (PNG signature + IHDR width/height bytes).
if "$U" render bench/scenes/phong.scn -o "$tmp/p.png" --size 40x24 2>"$tmp/err" &&
   [ "$(od -An -tx1 -j16 -N8 "$tmp/p.png" | tr -d ' \n')" = "0000002800000018" ]; then
    ok
else
    bad "sfu render to PNG: $(cat "$tmp/err")"
fi
# --stats is JSON with the counters.
if "$U" render bench/scenes/blend.scn --exact-math --stats > "$tmp/s.json" &&
   grep -q '"killed": [1-9]' "$tmp/s.json" && grep -q '"fragments":' "$tmp/s.json"; then
    ok
else
    bad "--stats output"
fi

# Errors: position of the offending word, clear messages, exit status.
expect_err() {  # expected-substring, scene-text
    printf '%s\n' "$2" > "$tmp/e.scn"
    if "$U" render "$tmp/e.scn" -o "$tmp/e.png" 2>"$tmp/err"; then
        bad "accepted: $2"
    elif grep -qF -- "$1" "$tmp/err" && [ ! -e "$tmp/e.png" ]; then
        ok
    else
        bad "want '$1' for '$2', got: $(cat "$tmp/err")"
    fi
}
expect_err "e.scn:2:1: error: unknown directive 'frobnicate'" "size 8 8
frobnicate 1"
expect_err "e.scn:1:9: error: expected a number, not 'x'" "clear 1 x 1 1"
expect_err "e.scn:2:6: error: no mesh named 'nothing'" "size 8 8 # c
draw nothing"
expect_err "e.scn:1:8: error: unknown mesh kind 'blob'" "mesh m blob 1"
expect_err "e.scn:1:8: error: 4097 is out of range 1..4096" "size 4 4097"
expect_err "cannot open" "program p missing.vp"
expect_err "e.scn:1:18: error: /nonexistent.png: cannot open" "texture t 2d png /nonexistent.png"
expect_err "draws nothing" "size 8 8"
expect_err "draw needs a vertex and a fragment program" "mesh m cube 1
draw m"
printf 'garbage' > "$tmp/notpng.png"
expect_err "not a PNG file" "texture t 2d png $tmp/notpng.png"
# Shaders on a core model leave the same image as the interpreter.
want=$("$U" render bench/scenes/phong.scn --size 32x32 --hash 2>&1)
for a in scalar simd4; do
    got=$("$U" render bench/scenes/phong.scn --size 32x32 --hash --arch $a 2>&1)
    [ "$got" = "$want" ] && ok || bad "--arch $a: hash $got, want $want"
done
if "$U" render bench/scenes/phong.scn -o "$tmp/x.png" --arch gpu 2>"$tmp/err"; then
    bad "--arch gpu accepted"
elif grep -q "unknown --arch 'gpu'" "$tmp/err"; then
    ok
else
    bad "--arch message: $(cat "$tmp/err")"
fi

echo "render: $pass passed, $fail failed"
[ $fail -eq 0 ]
