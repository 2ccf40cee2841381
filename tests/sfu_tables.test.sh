#!/bin/sh
# The committed coefficient tables (sfu/sfu_tables.c) are exactly what
# tools/sfu_gen.c generates now (regenerate with `make sfu-tables`).
set -u
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BUILD/tools/sfu_gen" "$tmp/tables.c" || exit 1
if ! cmp -s sfu/sfu_tables.c "$tmp/tables.c"; then
    diff -u sfu/sfu_tables.c "$tmp/tables.c" | head -20
    echo "sfu_tables: sfu/sfu_tables.c is stale: run 'make sfu-tables'"
    exit 1
fi
echo "sfu_tables: committed tables match a fresh generation"
