#!/bin/sh
# Minetest's shaders as benchmark workloads (docs/MINETEST.md):
# instantiate them from Debian's minetest-data, and run `ushader bench` on
# the shaders that compile, each distinct program once (several pairs
# differ only in macros that change no code: the nodes fragment shader is
# the same program for every material type, so a program whose compiled
# IR equals an earlier one is left out of the list).  The report is
# OUT/report.md.  Extra arguments go to `ushader bench`.
#   BUILD=build OUT=out/minetest sh bench/minetest/bench.sh [--jobs 2]
set -eu
BUILD=${BUILD:-build}
OUT=${OUT:-out/minetest}
cd "$(dirname "$0")/../.."
DATA=/usr/share/games/minetest/client/shaders
if [ ! -d "$DATA/nodes_shader" ]; then
    echo "minetest bench: minetest-data is not installed ($DATA); skipped"
    exit 0
fi
G=bench/minetest/gen
mkdir -p "$G"
"$BUILD/tools/minetest_gen" bench/minetest/shaders.txt "$DATA" "$G"
# Every shader compiled on JOBS processes (default: the CPUs), its text
# into G/NAME.ir (none when it does not compile).
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# DEMO_TIMES: the stages' start times (tools/demo.sh)
mark() { [ -z "${DEMO_TIMES:-}" ] || echo "$(date +%s.%N) $1" >> "$DEMO_TIMES"; }
mark minetest-prefetch
rm -f "$G"/*.ir
awk '$1 !~ /^#/ && NF { print $1 }' "$G/suite.list" |
    xargs -P "$JOBS" -I @ "$BUILD/ushader" glsl -o "$G/@.ir" "$G/@" \
        >/dev/null 2>&1 || true
# The list, in its order, of the shaders that compile, each distinct
# program once: G/ir.sums has the checksum and size of each text
# (cksum), and a program whose text has an earlier one's is a comment.
mark minetest-check
: > "$G/suite.ok.list"
(cd "$G" && for f in *.ir; do [ ! -f "$f" ] || echo "$f"; done |
    xargs -r cksum) > "$G/ir.sums"
awk -v ok="$G/suite.ok.list" '
    FNR == NR { sum[$3] = $1 " " $2; next }
    $1 ~ /^#/ || !NF { next }
    !(($1 ".ir") in sum) { print "minetest bench: " $1 " does not compile; left out"; next }
    { s = sum[$1 ".ir"] }
    s in first { print "# " $1 ": the same program as " first[s] > ok; next }
    { first[s] = $1; print $1, $2, $3 > ok }' "$G/ir.sums" "$G/suite.list"
echo "minetest bench: $(grep -vc '^#' "$G/suite.ok.list") distinct programs of $(grep -vc '^#' "$G/suite.list")"
mark minetest-bench
mkdir -p "$OUT"
"$BUILD/ushader" bench --suite "$G/suite.ok.list" --out "$OUT" "$@" | tail -n 4
