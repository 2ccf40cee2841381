#!/bin/sh
# Simulation speed of the core models: simulated useful ops (SPEC 3) per
# host CPU second, each model on each bench program with 32768 threads
# (`ushader run --arch all --time`: the clock covers the model's run only,
# not assembly, input generation or the reference check).  Target for the
# scalar model: >= 20 M useful ops/s on one host core.  The last rows are
# each model's total over the programs.
set -eu
BUILD=${BUILD:-build}
U="$BUILD/ushader"
N=${CORE_SPEED_THREADS:-32768}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

printf '%-26s %-12s %10s %14s %10s\n' program arch cpu_s useful_ops "M ops/s"
for p in bench/programs/*.vp bench/programs/*.fp; do
    "$U" run "$p" --arch all --threads "$N" --time 2>&1 >/dev/null |
        awk -v prog="$(basename "$p")" '$1 == "time:" {
            printf "%-26s %-12s %10.4f %14d %10.2f\n", prog, $2, $3, $5, $8 }' |
        tee -a "$tmp"
done
echo
awk '{ s[$2] += $3; o[$2] += $4 }
     END { for (a in s) printf "total %-20s %10.4f s %14d ops %8.2f M useful ops/s\n",
                                a, s[a], o[a], (s[a] > 0 ? o[a] / s[a] / 1e6 : 0) }' \
    "$tmp" | sort
