#!/bin/sh
# piglit's execution tests for ARB programs (Debian package `piglit`): every
# tests/spec/**/*.shader_test containing "!!ARB" runs through
# `ushader piglit` on the scalar core model with the default SFU math (and
# on the functional interpreter with --exact-math); a file may fail only if
# tests/piglit_exec.xfail lists it (with a reason), and a listed file that
# passes is an error too.  Both runs must give the same results; both
# counts are printed.  Then the hand-written files in
# tests/shtest/: the valid ones pass/skip/fail as named, every bad_*.shader_test
# gives the `ushader: FILE:LINE:COL: error: MSG` its first line announces,
# and CRLF line endings change nothing; --set and the workgroup limit of
# a core model.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
SPEC=${PIGLIT_SPEC:-/usr/lib/x86_64-linux-gnu/piglit/tests/spec}
if [ ! -d "$SPEC" ]; then
    echo "piglit_exec: $SPEC missing: run 'make deps'" >&2
    exit 1
fi
case $U in /*) UABS=$U ;; *) UABS=$(pwd)/$U ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
problem() { echo "FAIL: $*"; bad=$((bad + 1)); }

(cd "$SPEC" && grep -l -r --include='*.shader_test' '!!ARB' . | sed 's|^\./||' | sort) \
    > "$tmp/files"
n=$(wc -l < "$tmp/files")
[ "$n" -gt 0 ] || problem "no ARB shader_test files under $SPEC"
grep -v '^#' tests/piglit_exec.xfail | awk 'NF { print $1 }' | sort > "$tmp/xfail"

for mode in sfu exact; do
    opt="--arch scalar"
    [ $mode = exact ] && opt="--exact-math"
    # shellcheck disable=SC2046  # the paths have no blanks
    (cd "$SPEC" && "$UABS" piglit $opt $(cat "$tmp/files")) \
        > "$tmp/$mode.out" 2> "$tmp/$mode.err"
    rc=$?
    [ $rc -le 1 ] || problem "$mode: ushader piglit exited with $rc: $(head -n 3 "$tmp/$mode.err")"
    tail -n 1 "$tmp/$mode.out" | sed "s/^/piglit_exec ($opt, $n files): /"
    sed -n 's/^FAIL \([^: ]*\).*/\1/p' "$tmp/$mode.out" | sort > "$tmp/$mode.failed"
    comm -23 "$tmp/$mode.failed" "$tmp/xfail" > "$tmp/unexpected"
    while read -r f; do
        problem "$mode: unexpected failure: $(grep "^FAIL $f" "$tmp/$mode.out")"
    done < "$tmp/unexpected"
    comm -13 "$tmp/$mode.failed" "$tmp/xfail" > "$tmp/fixed"
    while read -r f; do
        grep -qx "$f" "$tmp/files" && problem "$mode: $f passes now: remove it from tests/piglit_exec.xfail"
    done < "$tmp/fixed"
    grep '^SKIP' "$tmp/$mode.out" | sed "s/^/piglit_exec ($mode): /"
done
[ "$(grep -c '^' "$tmp/files")" -eq "$(grep -c '^\(PASS\|FAIL\|SKIP\) ' "$tmp/sfu.out")" ] ||
    problem "not one result line per file"

# Hand-written files: expected outcome from the name.
for f in tests/shtest/*.shader_test; do
    name=$(basename "$f" .shader_test)
    case $name in
    bad_*)
        exp=$(head -n 1 "$f" | sed -n 's/^# expect-error //p')
        pos=${exp%% *}
        msg=${exp#* }
        "$U" piglit "$f" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        got=$(cat "$tmp/err")
        case "$got" in
        "ushader: $f:$pos: error: "*"$msg"*) [ $rc -eq 1 ] || problem "$name: exit $rc" ;;
        *) problem "$name: wanted '$f:$pos: error: ...$msg', got '$got' (exit $rc)" ;;
        esac
        ;;
    *)
        case $name in
        skip_*) want=SKIP ;;
        expect_fail*) want=FAIL ;;
        *) want=PASS ;;
        esac
        tr -d '\r' < "$f" | sed 's/$/\r/' > "$tmp/crlf.shader_test"
        for g in "$f" "$tmp/crlf.shader_test"; do
            "$U" piglit "$g" > "$tmp/out" 2> "$tmp/err"
            rc=$?
            line=$(head -n 1 "$tmp/out")
            case "$want:$rc:$line" in
            PASS:0:"PASS $g"*|SKIP:0:"SKIP $g:"*|FAIL:1:"FAIL $g:"*" observed "*) ;;
            *) problem "$name: wanted $want, got exit $rc: $line $(cat "$tmp/err")" ;;
            esac
        done
        ;;
    esac
done
# Usage errors.
"$U" piglit --arch gpu tests/shtest/ff_fixed_function.shader_test 2> "$tmp/err" >/dev/null
[ $? -eq 2 ] && grep -q "unknown --arch 'gpu'" "$tmp/err" || problem "--arch gpu is not refused clearly"
"$U" piglit > /dev/null 2>&1
[ $? -eq 2 ] || problem "no FILE is not a usage error"
"$U" piglit --set bogus=1 tests/shtest/ff_fixed_function.shader_test 2> "$tmp/err" >/dev/null
[ $? -eq 2 ] && grep -q "unknown knob 'bogus'" "$tmp/err" || problem "--set bogus=1 is not refused clearly"
"$U" piglit --arch simd4 --set alu_lanes=6 tests/shtest/ff_fixed_function.shader_test 2> "$tmp/err" >/dev/null
[ $? -eq 2 ] && grep -q "multiple of 4" "$tmp/err" || problem "a simd4 of 6 lanes is not refused up front"
# a workgroup of 1024 on the scalar model: refused by its 32 slots, run on 1024
f=tests/shtest/compute_workgroup.shader_test
"$U" piglit --arch scalar "$f" > "$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "raise threads_per_proc or alu_lanes" "$tmp/out" ||
    problem "--arch scalar: a 1024-item workgroup on 32 slots: $(head -n 1 "$tmp/out")"
"$U" piglit --arch scalar --set threads_per_proc=64 --set alu_lanes=16 "$f" > "$tmp/out" 2>&1 ||
    problem "--arch scalar on 16 x 64 slots: $(head -n 1 "$tmp/out")"

echo "piglit_exec: $bad problems"
[ "$bad" -eq 0 ]
