#!/bin/sh
# `make bench`: throughput and accuracy benchmarks.  Figures are host
# wall-clock on a shared machine: read ratios between rows of one run.
set -eu
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."

echo "== reference interpreter throughput (exact math), bench/programs"
"$BUILD/tools/bench_interp" bench/programs/*.vp bench/programs/*.fp

echo
echo "== the batched SFU model per build of its loops (tools/bench_sfu_batch.c)"
"$BUILD/tools/bench_sfu_batch"

for b in bench/*.bench.sh; do
    [ -e "$b" ] || continue
    echo
    echo "== $(basename "$b" .bench.sh)"
    BUILD=$BUILD sh "$b"
done

echo
echo "== our vec4 code against Mesa's TGSI on the glmark2 pairs (bench/tgsi_compare.sh)"
BUILD=$BUILD OUT="${OUT:-out}/tgsi" sh bench/tgsi_compare.sh | tail -n 3

echo
echo "== ushader bench: every suite program on every core model (--jobs 2)"
t0=$(date +%s%N)
"$BUILD/ushader" bench --jobs 2 | tail -n 4
t1=$(date +%s%N)
echo "host wall-clock: $(( (t1 - t0) / 1000000 )) ms"

echo
echo "== ushader bench --suite compute --all: the compute suite with the bench-only sizes (--jobs 2)"
t0=$(date +%s%N)
"$BUILD/ushader" bench --suite compute --all --jobs 2 --out "${OUT:-out}/compute-all" | tail -n 1
t1=$(date +%s%N)
echo "host wall-clock: $(( (t1 - t0) / 1000000 )) ms; report: ${OUT:-out}/compute-all/report.md"
