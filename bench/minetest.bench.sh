#!/bin/sh
# `make bench`: Minetest's shaders on every core model (bench/minetest/,
# docs/MINETEST.md); the report is out/minetest/report.md.
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s%N)
BUILD=${BUILD:-build} OUT="${OUT:-out}/minetest" sh bench/minetest/bench.sh --jobs 2
t1=$(date +%s%N)
echo "host wall-clock: $(( (t1 - t0) / 1000000 )) ms; report: ${OUT:-out}/minetest/report.md"
