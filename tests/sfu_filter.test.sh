#!/bin/sh
# `sfu check --full` trusts libm's double results away from rounding
# boundaries (sfu/sfu_check.h).  On one full binade per function the
# filtered check must report exactly what MPFR-for-every-input reports.
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# function and binade (bit patterns): rcp [1,2), rsq/sqrt [2,4), lg2 [1,2),
# ex2 [-64,-32), sin/cos [2^20, 2^21) where the reduction matters; and
# the tiny arguments decided analytically: ex2 on -[2^-40, 2^-39), sin on
# [2^-20, 2^-19), cos on -[2^-20, 2^-19); ex2 on [1024, 2048), where libm
# overflows to inf; sin and cos (sfu/sfu_trigref.c's filter) on huge
# arguments, near pi and pi/2, zeros and denormals, FLT_MAX to NaN.
for case in rcp:3f800000:3fffffff rsq:40000000:407fffff \
            sqrt:40000000:407fffff lg2:3f800000:3fffffff \
            ex2:c2000000:c27fffff sin:49800000:49ffffff cos:49800000:49ffffff \
            ex2:ab800000:abffffff sin:35800000:35ffffff cos:b5800000:b5ffffff \
            ex2:44800000:44ffffff \
            sin:7f000000:7f01ffff cos:ff000000:ff01ffff sin:40490000:4049ffff \
            cos:3fc90000:3fc9ffff sin:00000000:0080ffff cos:7f7f0000:7fffffff; do
    f=${case%%:*}
    r=${case#*:}
    # Sanitizer builds: the first 2^16 patterns of each binade (see
    # sfu_check.test.sh); the plain build compares whole binades.
    [ -n "${SANITIZE:-}" ] && r="${r%%:*}:$(printf '%x' $((0x${r%%:*} + 0xffff)))"
    "$U" sfu check --func "$f" --range "$r" --json > "$tmp/filter.json"
    "$U" sfu check --func "$f" --range "$r" --json --no-filter > "$tmp/mpfr.json"
    # Error maxima come from libm's double or from MPFR's 53-bit value:
    # equal to 1e-6 relative; everything else (counts, worst inputs,
    # verdict, the provenance but for its command line) must be identical.
    for v in filter mpfr; do
        sed -e '/^ *"command": /d' \
            -e 's/"mpfr_decided": [0-9]*, //' -e 's/, "seconds": [0-9.]*//' \
            -e 's/"\(max_[a-z_]*\)": [-0-9.e+]*/"\1": N/g' \
            "$tmp/$v.json" > "$tmp/$v.cmp"
        grep -o '"max_[a-z_]*": [-0-9.e+]*' "$tmp/$v.json" |
            sed 's/.*: //' > "$tmp/$v.num"
    done
    if cmp -s "$tmp/filter.cmp" "$tmp/mpfr.cmp" &&
       paste "$tmp/filter.num" "$tmp/mpfr.num" | awk '
           { d = $1 - $2; if (d < 0) d = -d; m = $2 < 0 ? -$2 : $2;
             if (d > 1e-6 * m) bad = 1 }
           END { exit bad }'; then
        echo "sfu_filter: $f on $r: filter agrees with MPFR"
    else
        echo "sfu_filter: $f on $r: filter and MPFR disagree"
        diff "$tmp/filter.json" "$tmp/mpfr.json"
        fail=1
    fi
done
exit $fail
