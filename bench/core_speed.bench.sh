#!/bin/sh
# Simulation speed of the core models: simulated useful ops (SPEC 3) per
# host CPU second, each model on each bench program with 32768 threads
# (`ushader run --arch all --time`: the clock covers the model's run --
# streaming its threads in and checking each retired thread's outputs --
# not assembly, input generation or the reference interpreter's pass).
#
# Targets (issue 21): >= 40 M useful ops/s for the scalar model, >= 30 M
# for every other model, on one host core.  A repetition runs every
# program on every model and sums each model's CPU seconds and ops; REPS
# repetitions (default 5) give min / median / max of each model's total
# M ops/s and its ratio to the target.  With BASE=path/to/old/ushader the
# old binary runs too, interleaved (new, old, new, old ...), and the last
# column is new / old (median over median).  CORE_SPEED_THREADS sets N.
set -eu
BUILD=${BUILD:-build}
U="$BUILD/ushader"
N=${CORE_SPEED_THREADS:-32768}
REPS=${REPS:-5}
BASE=${BASE:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# one repetition of binary $1: "arch cpu_s ops" per model (totals)
rep() {
    for p in bench/programs/*.vp bench/programs/*.fp; do
        "$1" run "$p" --arch all --threads "$N" --time 2>&1 >/dev/null |
            awk '$1 == "time:" { print $2, $3, $5 }'
    done | awk '{ s[$1] += $2; o[$1] += $3 }
                END { for (a in s) printf "%s %.6f %d\n", a, s[a], o[a] }'
}

echo "load before: $(uptime)"
r=1
while [ "$r" -le "$REPS" ]; do
    rep "$U" | sed "s/^/$r /" >>"$tmp/new"
    if [ -n "$BASE" ]; then
        rep "$BASE" | sed "s/^/$r /" >>"$tmp/old"
    fi
    r=$((r + 1))
done
echo "load after:  $(uptime)"

# min / median / max over the repetitions of each model's M ops/s
summary() {
    awk '{ v[$2] = v[$2] " " ($4 / $3 / 1e6) }
         END { for (a in v) print a, v[a] }' "$1" |
    while read -r arch vals; do
        printf '%s %s\n' "$arch" "$(printf '%s\n' $vals | sort -g |
            awk '{ x[NR] = $1 } END {
                m = (NR % 2) ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2
                printf "%.2f %.2f %.2f", x[1], m, x[NR] }')"
    done | sort
}

summary "$tmp/new" >"$tmp/new.sum"
[ -z "$BASE" ] || summary "$tmp/old" >"$tmp/old.sum"
echo
echo "$N threads, $REPS repetitions, every program of bench/programs; M useful ops/s per host CPU second"
printf '%-12s %8s %8s %8s %7s %10s' arch min median max target "med/target"
[ -z "$BASE" ] && echo || printf ' %8s %8s\n' old_med new/old
while read -r arch mn md mx; do
    t=30
    [ "$arch" = scalar ] && t=40
    printf '%-12s %8s %8s %8s %7s %10.3f' "$arch" "$mn" "$md" "$mx" "$t" \
        "$(echo "$md $t" | awk '{ print $1 / $2 }')"
    if [ -n "$BASE" ]; then
        om=$(awk -v a="$arch" '$1 == a { print $3 }' "$tmp/old.sum")
        printf ' %8s %8.3f\n' "$om" "$(echo "$md $om" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
    else
        echo
    fi
done <"$tmp/new.sum"
