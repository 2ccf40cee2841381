#!/bin/sh
# Exhaustive SFU check: every one of the 2^32 binary32 inputs for each of
# the seven functions (`ushader sfu check --full`), with the wall time and
# the CPU time (on a shared machine wall time says little; CPU time / cores
# is what an idle machine would take).  Goal: all seven in under 10
# minutes on 2 cores.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
start=$(date +%s)
"$BUILD/ushader" sfu check --full "$@"
rc=$?
end=$(date +%s)
echo "sfu_full: $((end - start)) s wall for all functions over all 2^32 inputs ($(nproc) cores)"
echo "sfu_full: CPU time (user, system) of this script, then of the check:"
times
exit $rc
