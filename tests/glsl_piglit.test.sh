#!/bin/sh
# piglit's GLSL 1.10 and 1.20 execution tests (Debian package `piglit`,
# generated_tests/spec/glsl-1.{10,20}/execution and tests/spec/...: 3063
# shader_test files) through `ushader piglit --arch scalar`: the front step,
# glslang, the SPIR-V translator and the scalar core model with the
# modelled SFU.  Each file costs two glslangValidator and two spirv-opt
# runs, so by default every 4th file of the sorted list runs (766 files,
# about a minute on 2 cores); GLSL_PIGLIT_STRIDE=1 runs them all.  Files
# run GLSL_PIGLIT_JOBS at a time (default 2), each within
# GLSL_PIGLIT_LIMIT seconds (default 30); GLSL_PIGLIT_KEEP=FILE keeps the
# result lines.
#
# Every file that does not pass must be listed in tests/glsl_piglit.xfail
# with its status (FAIL or SKIP) and the reason, as tests/piglit_compute.xfail
# is: a listed file that passes now, or ends with the other status, is a
# problem too, so the list stays current.  SLOW marks a file that passes
# but takes a good part of the time limit on a loaded machine: it may pass
# or time out.  Prints the pass/fail/skip counts and the most frequent
# failure reasons, and fails when the pass rate (passed / (passed +
# failed); skips are requirements the model does not meet, counted apart)
# drops below FLOOR.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
STRIDE=${GLSL_PIGLIT_STRIDE:-4}
JOBS=${GLSL_PIGLIT_JOBS:-2}
LIMIT=${GLSL_PIGLIT_LIMIT:-30}     # seconds per file
# Measured (2026-12-01, c20-glsl: derivatives, samplers in structs, RGBA8
# checkerboards; scalar model, default SFU, 2 cores shared with a load of
# 13): the default sample 738 passed, 14 failed, 14 skipped (98.1%; 732,
# 20, 14 before); all 3063 files 2944 passed, 64 failed, 55 skipped
# (97.9%, 32 minutes).  With 32 varying slots (c21-vary, knob
# varying_slots, which `ushader piglit` raises): the sample 761 passed, 3
# failed, 2 skipped (99.6%), all files 3032 passed, 24 failed, 7 skipped
# (99.2%; 2026-12-01, a load of 10-13, 42 minutes).  The floor sits 2
# points under the rate measured before.
FLOOR=96
ROOT=${PIGLIT_ROOT:-/usr/lib/x86_64-linux-gnu/piglit}
XFAIL=tests/glsl_piglit.xfail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for d in generated_tests/spec/glsl-1.10/execution \
         generated_tests/spec/glsl-1.20/execution \
         tests/spec/glsl-1.10/execution tests/spec/glsl-1.20/execution; do
    [ -d "$ROOT/$d" ] && (cd "$ROOT" && find "$d" -name '*.shader_test')
done | sort > "$tmp/all"
total=$(wc -l < "$tmp/all")
if [ "$total" -eq 0 ]; then
    echo "glsl_piglit: no GLSL execution tests under $ROOT: run 'make deps'" >&2
    exit 1
fi
awk -v s="$STRIDE" 'NR % s == 1 || s == 1' "$tmp/all" > "$tmp/files"
n=$(wc -l < "$tmp/files")

# One process per file under a time limit: a shader may keep glslang or
# spirv-opt busy pathologically long (piglit's 2^64-calls tests) or run a
# long loop on the cycle model; such a file counts as failed (TIMEOUT).
# It runs in piglit's directory, so the result lines name the files as
# the expected-failure list does.
case $U in /*) UABS=$U ;; *) UABS=$(pwd)/$U ;; esac
cat > "$tmp/one.sh" <<'ONE'
out=$(timeout "$LIMIT" "$UABS" piglit --arch scalar "$1" 2> /dev/null)
[ $? -eq 124 ] && out="FAIL $1: TIMEOUT after $LIMIT s"
printf '%s\n' "$out" | grep '^\(PASS\|FAIL\|SKIP\) '
ONE
export UABS LIMIT
(cd "$ROOT" && xargs -P "$JOBS" -n 1 sh "$tmp/one.sh") < "$tmp/files" \
    > "$tmp/out"
[ -n "${GLSL_PIGLIT_KEEP:-}" ] && cp "$tmp/out" "$GLSL_PIGLIT_KEEP"
pass=$(grep -c '^PASS ' "$tmp/out")
fail=$(grep -c '^FAIL ' "$tmp/out")
skip=$(grep -c '^SKIP ' "$tmp/out")
bad=0
problem() { echo "FAIL: $*"; bad=1; }
if [ $((pass + fail + skip)) -ne "$n" ]; then
    problem "$n files, but $((pass + fail + skip)) results"
fi

# status and file of every result (a timeout as TIMEOUT); the expected ones
sed -E 's/^(PASS|FAIL|SKIP) ([^ :]*): TIMEOUT .*/TIMEOUT \2/;
        s/^(PASS|FAIL|SKIP) ([^ :]*).*/\1 \2/' "$tmp/out" | sort > "$tmp/got"
grep -v '^#' "$XFAIL" | awk 'NF { print $1, $2 }' | sort > "$tmp/want"
awk '$1 != "FAIL" && $1 != "SKIP" && $1 != "SLOW"' "$tmp/want" > "$tmp/badst"
while read -r l; do problem "$XFAIL: bad status in '$l'"; done < "$tmp/badst"
cut -d' ' -f2 "$tmp/want" | sort | uniq -d > "$tmp/dup"
while read -r f; do problem "$XFAIL lists $f twice"; done < "$tmp/dup"
# a file that did not pass must be listed with its status (a SLOW one may
# also time out) ...
sed -E 's/^(SLOW|FAIL) /TIMEOUT /' "$tmp/want" | sort > "$tmp/want_t"
grep -v '^PASS ' "$tmp/got" | comm -23 - "$tmp/want" |
    comm -23 - "$tmp/want_t" > "$tmp/unexpected"
while read -r st f; do
    problem "unexpected $st: $(grep -F " $f" "$tmp/out" | head -n 1)"
done < "$tmp/unexpected"
# ... and a listed file that ran must have ended as listed (a SLOW one
# passes or times out)
cut -d' ' -f2 "$tmp/got" | sort > "$tmp/ran"
awk '{ print $2, $1 }' "$tmp/want" | sort | join - "$tmp/ran" > "$tmp/listed"
while read -r f st; do
    now=$(grep " $f\$" "$tmp/got" | cut -d' ' -f1)
    case "$st:$now" in
    SLOW:PASS|SLOW:TIMEOUT|FAIL:TIMEOUT) ;;
    *) [ "$st" = "$now" ] ||
           problem "$f is listed as $st but ends $now now: update $XFAIL" ;;
    esac
done < "$tmp/listed"

echo "glsl_piglit: most frequent failure reasons (numbers as N):"
sed -n 's/^FAIL [^ ]* //p' "$tmp/out" | sed -E 's/[0-9][0-9.e+-]*/N/g' |
    sort | uniq -c | sort -rn | head -n 12
echo "glsl_piglit: skip reasons:"
sed -n 's/^SKIP [^ ]* //p' "$tmp/out" | sed -E 's/[0-9][0-9.]*/N/g' |
    sort | uniq -c | sort -rn | head -n 5

ran=$((pass + fail))
rate=0
[ $ran -gt 0 ] && rate=$((100 * pass / ran))
echo "glsl_piglit (scalar model, $n of $total files, every ${STRIDE}th):" \
     "$pass passed, $fail failed, $skip skipped; pass rate $rate% (floor $FLOOR%)"
if [ $rate -lt $FLOOR ]; then
    problem "pass rate $rate% is below the floor $FLOOR%"
fi
exit $bad
