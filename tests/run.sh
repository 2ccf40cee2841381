#!/bin/sh
# The test suite behind `make check`.  Each step prints its own results;
# the last line is the total, in the form CI reads: "N passed, N failed".
set -u
BUILD=${BUILD:-build}
export BUILD
cd "$(dirname "$0")/.."
# The tests' own SPIR-V and TGSI cache (glsl/spv_cache.c,
# bench/tgsi_compare.sh), removed at the end: a test never reads or writes
# the user's ~/.cache/ushader.  The tests of the cache set their own.
cache_tmp=$(mktemp -d)
trap 'rm -rf "$cache_tmp"' EXIT
trap 'exit 130' HUP INT TERM
USHADER_CACHE_DIR="$cache_tmp/cache"
export USHADER_CACHE_DIR

passed=0
failed=0
step() {
    name=$1
    shift
    echo "== $name"
    if "$@"; then
        passed=$((passed + 1))
    else
        echo "FAIL: $name"
        failed=$((failed + 1))
    fi
}

for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    step "unit: $(basename "$t")" "$t"
done
for t in tests/*.test.sh; do
    step "$(basename "$t" .test.sh)" sh "$t"
done

echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
