#!/bin/sh
# `make install` into a temporary prefix: the public headers compile on
# their own (no -I into the source tree), pkg-config finds the library,
# and examples/ builds against the installed copy and runs.
set -u
BUILD=${BUILD:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: install: $*"; fail=$((fail + 1)); }

san=${SANITIZE:+-fsanitize=$SANITIZE}
if make -s --no-print-directory install PREFIX="$T/p" SANITIZE="${SANITIZE:-}" \
    >"$T/log" 2>&1; then ok; else bad "make install: $(tail -3 "$T/log")"; fi
for f in bin/ushader bin/ushader-huge-bss.so lib/libushader.a lib/pkgconfig/ushader.pc \
         include/ushader/ushader.h include/ushader/core.h; do
    [ -f "$T/p/$f" ] && ok || bad "$f not installed"
done

# The installed tool names its version and the commit it was built from.
want="ushader $(cat VERSION) ($(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown))"
got=$("$T/p/bin/ushader" --version 2>&1)
[ "$got" = "$want" ] && ok || bad "--version: '$got', want '$want'"

# Each public header on its own, in C11, warnings as errors.
for h in ushader.h core.h; do
    if printf '#include <ushader/%s>\n' "$h" |
        cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$T/p/include" \
           -x c - 2>"$T/err"; then ok; else bad "$h alone: $(head -3 "$T/err")"; fi
done

export PKG_CONFIG_PATH="$T/p/lib/pkgconfig"
v=$(pkg-config --modversion ushader 2>&1)
[ "$v" = "$(cat VERSION)" ] && ok || bad "pkg-config version '$v'"

for src in examples/*.c; do
    name=$(basename "$src" .c)
    # shellcheck disable=SC2046
    if cc -std=c11 -Wall -Wextra -Werror $san "$src" \
        $(pkg-config --cflags ushader) $(pkg-config --static --libs ushader) \
        -o "$T/$name" 2>"$T/err"; then ok; else bad "$src: $(head -3 "$T/err")"; continue; fi
    "$T/$name" >"$T/out" 2>&1 && ok || bad "$name exited non-zero: $(cat "$T/out")"
done
# two_models: one line per model, the same colour (bit-identical models).
[ "$(grep -c 'utilization' "$T/out")" -eq 2 ] && ok || bad "two_models: $(cat "$T/out")"
[ "$(sed 's/.*color/color/' "$T/out" | sort -u | wc -l)" -eq 1 ] && ok ||
    bad "two_models: the models' colours differ"

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
