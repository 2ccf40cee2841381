#!/bin/sh
# Disassembler round trip: for every program `ushader asm` accepts among
# piglit's assembler tests (Debian package `piglit`) and bench/programs,
# `ushader asm -S` prints text that assembles again and prints again to the
# very same bytes (a text fixpoint: print(asm(print(asm(f)))) ==
# print(asm(f))).  Files the assembler rejects are not counted.
set -u
BUILD=${BUILD:-build}
DIR=/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders
cd "$(dirname "$0")/.."
if [ ! -x "$BUILD/ushader" ]; then
    echo "roundtrip: $BUILD/ushader missing: run make" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=0 ok=0 failed=0
check() {  # check FILE STAGE
    "$BUILD/ushader" asm --stage "$2" "$1" >/dev/null 2>&1 || return 0
    files=$((files + 1))
    if ! "$BUILD/ushader" asm --stage "$2" -S "$1" >"$tmp/a.txt" 2>"$tmp/err"; then
        echo "FAIL: $1: asm -S: $(head -n 1 "$tmp/err")"
    elif ! "$BUILD/ushader" asm --stage "$2" -S "$tmp/a.txt" >"$tmp/b.txt" 2>"$tmp/err"; then
        echo "FAIL: $1: printed text does not assemble: $(head -n 1 "$tmp/err")"
        sed 's/^/    /' "$tmp/a.txt"
    elif ! cmp -s "$tmp/a.txt" "$tmp/b.txt"; then
        echo "FAIL: $1: printing is not a fixpoint:"
        diff "$tmp/a.txt" "$tmp/b.txt" | sed 's/^/    /'
    else
        ok=$((ok + 1))
        return 0
    fi
    failed=$((failed + 1))
}

if [ -d "$DIR" ]; then
    for f in "$DIR"/ARBvp1.0/*; do check "$f" vertex; done
    for f in "$DIR"/ARBfp1.0/*; do check "$f" fragment; done
else
    echo "roundtrip: $DIR missing (run 'make deps'); piglit files skipped" >&2
fi
for f in bench/programs/*.vp; do [ -f "$f" ] && check "$f" vertex; done
for f in bench/programs/*.fp; do [ -f "$f" ] && check "$f" fragment; done

echo "roundtrip: $files files, $ok ok, $failed failed"
[ "$failed" -eq 0 ] && [ "$files" -gt 0 ]
