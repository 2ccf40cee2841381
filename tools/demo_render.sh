#!/bin/sh
# Render every scene of bench/scenes/ at 512x512 into out/ (gitignored) with
# the default (SFU) arithmetic and print where the images are.  Called by
# `make demo`; BUILD selects the build directory, OUT the output directory.
set -eu
BUILD=${BUILD:-build}
OUT=${OUT:-out}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
echo "== ushader demo: rendering bench/scenes/*.scn at 512x512"
for scn in bench/scenes/*.scn; do
    name=$(basename "$scn" .scn)
    "$U" render "$scn" -o "$OUT/$name.png" --size 512x512 --stats > "$OUT/$name.json"
    frags=$(sed -n 's/.*"fragments": \([0-9]*\).*/\1/p' "$OUT/$name.json")
    echo "  $OUT/$name.png  ($frags fragments; counts in $OUT/$name.json)"
done
