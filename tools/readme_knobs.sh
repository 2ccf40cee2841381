#!/bin/sh
# The README's table of core-model knobs, from `ushader config --list`
# (whose source is shader/knobs.def): `tools/readme_knobs.sh` rewrites it
# in place, `tools/readme_knobs.sh --check` fails when it is out of date
# (tests/readme.test.sh).
set -eu
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
table() {
    echo '| knob | range | default | meaning |'
    echo '|---|---|---|---|'
    "$BUILD/ushader" config --list | awk '{
        doc = $0
        sub(/^[^ ]+ +[^ ]+ +default +[^ ]+ +/, "", doc)
        range = $2; gsub(/\|/, "\\|", range)
        gsub(/\|/, "\\|", doc)
        printf "| `%s` | %s | %s | %s |\n", $1, range, $4, doc
    }'
}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.new"' EXIT
table > "$tmp"
# the table is the block of lines from its header to the first blank line
awk -v t="$tmp" '
    /^\| knob \| range \| default \| meaning \|$/ {
        while ((getline line < t) > 0) print line
        skip = 1; next
    }
    skip && /^\|/ { next }
    { skip = 0; print }' README.md > "$tmp.new"
if [ "${1:-}" = --check ]; then
    cmp -s README.md "$tmp.new" || {
        echo "README.md's knob table is out of date: run tools/readme_knobs.sh"
        diff README.md "$tmp.new" | head -20
        exit 1
    }
else
    cp "$tmp.new" README.md
fi
