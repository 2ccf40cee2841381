#!/bin/sh
# A/B identity of the core models against another build (run after every
# change to the models' timing code): `run --arch all --json` of every
# bench program at 1000 and 3000 threads under the default configuration
# and each knob variant below, and `bench --suite compute --json` (every
# model and SIMT preset on the compute kernels), must be byte-identical
# between $BUILD/ushader and $BASE but for the provenance's commit and
# command lines.  Usage: BASE=path/to/old/ushader sh bench/core_identity.sh
# Optional: THREADS="1000 3000", VARIANTS (quoted --set lists, "-" = none),
# COMPUTE=0 skips the compute suite.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
BASE=${BASE:?set BASE to the binary to compare with}
THREADS=${THREADS:-"1000 3000"}
VARIANTS=${VARIANTS:-"- lockstep=4 sched=oldest sfu=pool compaction=0 fetch_width=2"}
COMPUTE=${COMPUTE:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

strip() { grep -v -e '^ *"commit":' -e '^ *"command":'; }
pass=0 fail=0
# same WHAT ARGS...: `ushader ARGS` on both builds, outputs compared
same() {
    what=$1
    shift
    "$U" "$@" 2>&1 | strip >"$tmp/a"
    "$BASE" "$@" 2>&1 | strip >"$tmp/b"
    if cmp -s "$tmp/a" "$tmp/b"; then
        pass=$((pass + 1))
    else
        echo "DIFF: $what"
        diff "$tmp/a" "$tmp/b" | head -n 6
        fail=$((fail + 1))
    fi
}
for p in bench/programs/*.vp bench/programs/*.fp; do
    for n in $THREADS; do
        for v in $VARIANTS; do
            set --
            [ "$v" = - ] || set -- --set "$v"
            same "$p threads $n $v" run "$p" --arch all --threads "$n" --json "$@"
        done
    done
done
if [ "$COMPUTE" != 0 ]; then
    same "bench --suite compute" bench --suite compute --json --jobs 2
fi
echo "core_identity: $pass identical, $fail different"
[ "$fail" -eq 0 ]
