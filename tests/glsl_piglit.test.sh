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
# Prints the pass/fail/skip counts and the most frequent failure reasons,
# and fails when the pass rate (passed / (passed + failed); skips are
# requirements the model does not meet, counted apart) drops below FLOOR.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
STRIDE=${GLSL_PIGLIT_STRIDE:-4}
JOBS=${GLSL_PIGLIT_JOBS:-2}
LIMIT=${GLSL_PIGLIT_LIMIT:-30}     # seconds per file
# Measured (2026-11-30, scalar model, default SFU): the default sample
# 727 passed, 18 failed, 21 skipped (97.6%); all 3063 files 2908 passed,
# 72 failed, 83 skipped (97.6%, 7 minutes).  The floor sits 2 points
# under the sample's rate.
FLOOR=95
ROOT=${PIGLIT_ROOT:-/usr/lib/x86_64-linux-gnu/piglit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for d in generated_tests/spec/glsl-1.10/execution \
         generated_tests/spec/glsl-1.20/execution \
         tests/spec/glsl-1.10/execution tests/spec/glsl-1.20/execution; do
    [ -d "$ROOT/$d" ] && find "$ROOT/$d" -name '*.shader_test'
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
cat > "$tmp/one.sh" <<'ONE'
out=$(timeout "$LIMIT" "$U" piglit --arch scalar "$1" 2> /dev/null)
[ $? -eq 124 ] && out="FAIL $1: TIMEOUT after $LIMIT s"
printf '%s\n' "$out" | grep '^\(PASS\|FAIL\|SKIP\) '
ONE
export U LIMIT
xargs -P "$JOBS" -n 1 sh "$tmp/one.sh" < "$tmp/files" > "$tmp/out"
[ -n "${GLSL_PIGLIT_KEEP:-}" ] && cp "$tmp/out" "$GLSL_PIGLIT_KEEP"
pass=$(grep -c '^PASS ' "$tmp/out")
fail=$(grep -c '^FAIL ' "$tmp/out")
skip=$(grep -c '^SKIP ' "$tmp/out")
bad=0
if [ $((pass + fail + skip)) -ne "$n" ]; then
    echo "FAIL: $n files, but $((pass + fail + skip)) results"
    bad=1
fi

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
    echo "FAIL: pass rate $rate% is below the floor $FLOOR%"
    bad=1
fi
exit $bad
