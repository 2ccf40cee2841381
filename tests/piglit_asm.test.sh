#!/bin/sh
# piglit's assembler tests (Debian package `piglit`): every ARBvp1.0 / ARBfp1.0
# file whose "# REQUIRE" lines name nothing beyond GL_ARB_fragment_program_shadow
# must be accepted if and only if it has no "# FAIL" line, with LF and with
# CRLF line endings, with --stage taken from its directory.
set -u
BUILD=${BUILD:-build}
DIR=/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders
if [ ! -d "$DIR" ]; then
    echo "piglit_asm: $DIR missing: run 'make deps'" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total=0 agree=0 disagree=0 excluded=0
for stage in vertex fragment; do
    if [ $stage = vertex ]; then sub=ARBvp1.0; else sub=ARBfp1.0; fi
    for f in "$DIR"/$sub/*; do
        if grep '^# REQUIRE' "$f" | grep -v 'GL_ARB_fragment_program_shadow' | grep -q .; then
            excluded=$((excluded + 1))
            continue
        fi
        grep -q '^# FAIL' "$f" && want=1 || want=0
        tr -d '\r' < "$f" > "$tmp/lf"
        sed 's/$/\r/' "$tmp/lf" > "$tmp/crlf"
        for ending in lf crlf; do
            total=$((total + 1))
            "$BUILD/ushader" asm --stage $stage "$tmp/$ending" >/dev/null 2>"$tmp/err"
            rc=$?
            if [ $rc -gt 1 ]; then
                echo "CRASH ($rc): $sub/$(basename "$f") [$ending]"; cat "$tmp/err"
                disagree=$((disagree + 1))
            elif [ $rc -eq $want ]; then
                agree=$((agree + 1))
            else
                if [ $want = 1 ]; then what="accepted an invalid program"
                else what="rejected a valid program: $(head -n 1 "$tmp/err")"; fi
                echo "DISAGREE: $sub/$(basename "$f") [$ending]: $what"
                disagree=$((disagree + 1))
            fi
        done
    done
done
echo "piglit_asm: $total runs over $((total / 2)) files ($excluded files excluded by # REQUIRE): $agree agree, $disagree disagree"
[ "$disagree" -eq 0 ]
