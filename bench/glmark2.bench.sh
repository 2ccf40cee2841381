#!/bin/sh
# `make bench`: glmark2's shader pairs on every core model with every
# study (bench/glmark2/bench.sh without --demo: the shared-LUT variants
# and the lockstep=8 run that `make demo` leaves out); the reports are
# out/glmark2/report.md and out/glmark2/lockstep8/report.md.
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s%N)
o=${OUT:-out}
BUILD=${BUILD:-build} OUT="$o/glmark2" TGSI_OUT="$o/tgsi" sh bench/glmark2/bench.sh --jobs 2
t1=$(date +%s%N)
echo "host wall-clock: $(( (t1 - t0) / 1000000 )) ms; report: $o/glmark2/report.md"
