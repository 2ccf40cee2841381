#!/bin/sh
# The SFU's accuracy bounds (sfu/sfu.h, SPEC section 5) on the stated part
# of each function's primary domain, every input compared with MPFR:
# rcp rsq sqrt ex2 <= 1 ulp; lg2 <= 2^-22 absolute on [0.5,2] and <= 1 ulp
# elsewhere; sin cos <= 2^-22 absolute; no special-value mismatch.
# `ushader sfu check` exits 1 when a bound fails.  Also: eval agrees with
# the library on a few values, and bad options are rejected.
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Under sanitizers (SANITIZE set by `make check SANITIZE=...`) the point is
# memory safety and undefined behaviour of the same code paths, not
# accuracy, which the plain build checks on every input of each domain;
# there each function runs on 2^16 inputs of its domain (MPFR for every one).
if [ -n "${SANITIZE:-}" ]; then
    for case in rcp:3f800000:3f80ffff rsq:40000000:4000ffff sqrt:40000000:4000ffff \
                lg2:3f800000:3f80ffff ex2:3f000000:3f00ffff sin:40000000:4000ffff \
                cos:40000000:4000ffff; do
        f=${case%%:*}
        "$U" sfu check --func "$f" --range "${case#*:}" --no-filter > "$tmp/out" ||
            { cat "$tmp/out"; echo "sfu_check: $f: an accuracy bound failed"; exit 1; }
        grep -q PASS "$tmp/out" || { echo "sfu_check: $f: no PASS"; exit 1; }
    done
    echo "sfu_check: 7 functions on 2^16 inputs each (sanitizer build)"
elif ! "$U" sfu check > "$tmp/out"; then
    cat "$tmp/out"
    echo "sfu_check: an accuracy bound failed"
    exit 1
else
    grep -E '^[a-z0-9]+:|max|PASS|FAIL' "$tmp/out"
    [ "$(grep -c PASS "$tmp/out")" -eq 7 ] || { echo "sfu_check: expected 7 PASS"; exit 1; }
fi

# eval: 1.0 and 4.0 (little-endian binary32) through rsq give 1.0 and 0.5.
printf '\000\000\200\077\000\000\200\100' | "$U" sfu eval --func rsq > "$tmp/ev"
want=$(printf '\000\000\200\077\000\000\000\077' | od -An -tx1)
got=$(od -An -tx1 < "$tmp/ev")
[ "$got" = "$want" ] || { echo "sfu_check: eval gave $got, want $want"; exit 1; }
# pow(2, 10) = 1024 from one x,y pair.
printf '\000\000\000\100\000\000\040\101' | "$U" sfu eval --func pow > "$tmp/pw"
[ "$(od -An -tx1 < "$tmp/pw")" = "$(printf '\000\000\200\104' | od -An -tx1)" ] ||
    { echo "sfu_check: pow(2, 10) is not 1024"; exit 1; }

for bad in "--func tan" "--set k=0" "--set nokey=1" "--jobs 0" "--range 5:1"; do
    if "$U" sfu check $bad > /dev/null 2>&1; then
        echo "sfu_check: 'sfu check $bad' was accepted"
        exit 1
    fi
done
echo "sfu_check: all bounds hold"
