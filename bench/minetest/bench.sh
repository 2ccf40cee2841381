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
# Every shader compiled once on JOBS processes first (default: the CPUs),
# output dropped: the loop below then finds each in the SPIR-V cache
# (glsl/spv_cache.c) and keeps the list's order and messages.
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# DEMO_TIMES: the stages' start times (tools/demo.sh)
mark() { [ -z "${DEMO_TIMES:-}" ] || echo "$(date +%s.%N) $1" >> "$DEMO_TIMES"; }
mark minetest-prefetch
[ -n "${USHADER_NO_CACHE:-}" ] ||
    awk '$1 !~ /^#/ && NF { print $1 }' "$G/suite.list" |
    xargs -P "$JOBS" -I @ "$BUILD/ushader" glsl "$G/@" >/dev/null 2>&1 || true
mark minetest-check
: > "$G/suite.ok.list"
: > "$G/ir.sums"
while read -r prog scene slot; do
    case "$prog" in ''|'#'*) continue ;; esac
    if ! ir=$("$BUILD/ushader" glsl "$G/$prog" 2> /dev/null); then
        echo "minetest bench: $prog does not compile; left out"
        continue
    fi
    sum=$(printf '%s\n' "$ir" | cksum)
    same=$(awk -v s="$sum" '$0 ~ "^" s " " { print $NF; exit }' "$G/ir.sums")
    if [ -n "$same" ]; then
        echo "# $prog: the same program as $same" >> "$G/suite.ok.list"
        continue
    fi
    echo "$sum $prog" >> "$G/ir.sums"
    echo "$prog $scene $slot" >> "$G/suite.ok.list"
done < "$G/suite.list"
echo "minetest bench: $(grep -vc '^#' "$G/suite.ok.list") distinct programs of $(grep -vc '^#' "$G/suite.list")"
mark minetest-bench
mkdir -p "$OUT"
"$BUILD/ushader" bench --suite "$G/suite.ok.list" --out "$OUT" "$@" | tail -n 4
