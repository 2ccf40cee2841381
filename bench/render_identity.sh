#!/bin/sh
# A/B identity of the renderer against another build (run after every
# change to the pipeline, the SoA executor or the SFU's batch): every
# scene under bench/ and tests/ rendered with `--stats` (the counts and
# the RGBA8 image's hash) at each size of SIZES and each --jobs of JOBS
# must give the same bytes from $BUILD/ushader and $BASE but for the
# provenance's commit and command lines (an error must be the same
# error).  Usage: BASE=path/to/old/ushader sh bench/render_identity.sh
# Optional: SIZES (default "133x77 512x384"), JOBS (default "1 3"),
# ARCH (default functional; a core model renders on one thread, so
# JOBS=1 then), EXTRA (more render options, e.g. --exact-math).
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
BASE=${BASE:?set BASE to the binary to compare with}
SIZES=${SIZES:-"133x77 512x384"}
JOBS=${JOBS:-"1 3"}
ARCH=${ARCH:-functional}
EXTRA=${EXTRA:-}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the glmark2 and Minetest scenes' shaders, generated from Debian's data
# as their benches do (without the data, those scenes are the same error)
G2=/usr/share/glmark2/shaders MT=/usr/share/games/minetest/client/shaders
if [ -d "$G2" ]; then
    mkdir -p bench/glmark2/gen
    "$BUILD/tools/glmark2_gen" bench/glmark2/pairs.txt "$G2" \
        bench/glmark2/gen >/dev/null
fi
if [ -d "$MT/nodes_shader" ]; then
    mkdir -p bench/minetest/gen
    "$BUILD/tools/minetest_gen" bench/minetest/shaders.txt "$MT" \
        bench/minetest/gen >/dev/null
fi

strip() { grep -v -e '^ *"commit":' -e '^ *"command":'; }
pass=0 fail=0
for s in $(find bench tests -name '*.scn' | sort); do
    for size in $SIZES; do
        for j in $JOBS; do
            # shellcheck disable=SC2086  # EXTRA is a word list
            set -- render "$s" --stats --size "$size" --jobs "$j" \
                --arch "$ARCH" $EXTRA
            "$U" "$@" 2>&1 | strip >"$tmp/a"
            "$BASE" "$@" 2>&1 | strip >"$tmp/b"
            if cmp -s "$tmp/a" "$tmp/b"; then
                pass=$((pass + 1))
            else
                echo "DIFF: $s $size --jobs $j"
                diff "$tmp/a" "$tmp/b" | head -n 6
                fail=$((fail + 1))
            fi
        done
    done
done
echo "render_identity: $pass identical, $fail different"
[ "$fail" -eq 0 ]
