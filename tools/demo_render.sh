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
# The scenes on JOBS processes at once (default: the CPUs), then listed in
# order; a render that fails stops the demo (xargs exits non-zero).
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
for scn in bench/scenes/*.scn; do echo "$scn"; done |
    xargs -P "$JOBS" -I @ sh -c \
    'n=$(basename "$2" .scn); "$1" render "$2" -o "$3/$n.png" --size 512x512 --stats > "$3/$n.json"' \
    sh "$U" @ "$OUT"
for scn in bench/scenes/*.scn; do
    name=$(basename "$scn" .scn)
    frags=$(sed -n 's/.*"fragments": \([0-9]*\).*/\1/p' "$OUT/$name.json")
    echo "  $OUT/$name.png  ($frags fragments; counts in $OUT/$name.json)"
done
