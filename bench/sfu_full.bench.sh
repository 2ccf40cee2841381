#!/bin/sh
# Exhaustive SFU check: every one of the 2^32 binary32 inputs for each of
# the seven functions (`ushader sfu check --full`: the double filter, MPFR
# near rounding boundaries), with its wall time and CPU time (user + sys;
# on a shared machine wall time says little, CPU time / cores is what an
# idle machine would take).  Goal: all seven in under 5 minutes on 2 cores.
#
# Then its peer, MPFR alone (--no-filter: MPFR decides every input), in
# the same run.  Over all 2^32 inputs it would take hours, so both are
# timed on the same sample of the whole range, every SFU_SAMPLE_STEP-th
# bit pattern (default 4099: about 1 M inputs per function, every region
# of the range in proportion), one thread, SFU_BENCH_REPS times
# interleaved (filter, MPFR, filter, ...), min/median/max of CPU time; the
# ratio MPFR alone / filter is taken from the medians, and MPFR alone's
# full time is estimated as its sample time x the step.
# SFU_BENCH_FULL=0 skips the full check (the sample only).
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
STEP=${SFU_SAMPLE_STEP:-4099}
REPS=${SFU_BENCH_REPS:-5}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
echo "sfu_full: load before: $(uptime)"

# wall user+sys of the command, into $tmp/t; its stdout to $tmp/out.
timed() {
    /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" > "$tmp/out"
}
cpu_of() { awk '{ printf "%.2f", $2 + $3 }' "$tmp/t"; }

if [ "${SFU_BENCH_FULL:-1}" != 0 ]; then
    timed "$U" sfu check --full "$@" || rc=1
    cat "$tmp/out"
    full_wall=$(awk '{ print $1 }' "$tmp/t")
    full_cpu=$(cpu_of)
    echo "sfu_full: $full_wall s wall, $full_cpu s CPU (user+sys) for all seven functions over all 2^32 inputs ($(nproc) cores; goal: < 300 s wall on 2)"
fi

: > "$tmp/filter"
: > "$tmp/mpfr"
i=0
while [ "$i" -lt "$REPS" ]; do
    timed "$U" sfu check --full --step "$STEP" --jobs 1 || rc=1
    cpu_of >> "$tmp/filter"; echo >> "$tmp/filter"
    timed "$U" sfu check --full --step "$STEP" --jobs 1 --no-filter || rc=1
    cpu_of >> "$tmp/mpfr"; echo >> "$tmp/mpfr"
    i=$((i + 1))
done
# min median max of a file of numbers
mmm() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%s %s %s", v[1], v[int((NR + 1) / 2)], v[NR] }'; }
set -- $(mmm "$tmp/filter")
fmin=$1 fmed=$2 fmax=$3
set -- $(mmm "$tmp/mpfr")
mmin=$1 mmed=$2 mmax=$3
echo "sfu_full: sample (every $STEP-th pattern, 7 functions, 1 thread, $REPS interleaved runs), CPU s min/median/max:"
echo "sfu_full:   filter      $fmin / $fmed / $fmax"
echo "sfu_full:   MPFR alone  $mmin / $mmed / $mmax"
awk -v f="$fmed" -v m="$mmed" -v s="$STEP" 'BEGIN {
    printf "sfu_full: ratio MPFR alone / filter (CPU, medians): %.1fx; MPFR alone over all 2^32 inputs: about %.0f CPU s (sample x %d)\n", m / f, m * s, s }'
if [ -n "${full_cpu:-}" ]; then
    awk -v c="$full_cpu" -v m="$mmed" -v s="$STEP" 'BEGIN {
        printf "sfu_full: full check %.0f CPU s against MPFR alone about %.0f CPU s: %.1fx\n", c, m * s, m * s / c }'
fi
echo "sfu_full: load after: $(uptime)"
exit $rc
