#!/bin/sh
# `make demo`'s wall time (tools/demo.sh on a built tree) with an empty
# SPIR-V cache (cold) and again with the cache that run filled (warm),
# RUNS pairs (default 1), each with its stages (tools/demo.sh's DEMO_TIMES
# marks) and its glslangValidator and spirv-opt runs, counted by wrappers
# on PATH that log each compile and exec the real tool (about 1 ms each).
# The demo writes into a temporary OUT; the cache is a temporary one.
#   BUILD=build [RUNS=3] [JOBS=N] sh bench/demo_time.bench.sh
set -eu
BUILD=${BUILD:-build}
RUNS=${RUNS:-1}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
for t in glslangValidator spirv-opt; do
    real=$(command -v "$t") || { echo "demo_time: no $t; skipped"; exit 0; }
    printf '#!/bin/sh\n[ "$1" = --version ] || echo %s >>"%s/tools.log"\nexec %s "$@"\n' \
        "$t" "$tmp" "$real" >"$tmp/bin/$t"
    chmod +x "$tmp/bin/$t"
done
# one NAME: one demo run; "NAME SECONDS COMPILES" appended to runs.txt,
# the stage marks in NAME.times
one() {
    : >"$tmp/tools.log"
    t0=$(date +%s.%N)
    if ! PATH="$tmp/bin:$PATH" USHADER_CACHE_DIR="$tmp/cache" \
            DEMO_TIMES="$tmp/$1.times" OUT="$tmp/out" BUILD=$BUILD \
            sh tools/demo.sh >"$tmp/$1.log" 2>&1; then
        echo "demo_time: the demo failed ($1); its last lines:"
        tail -n 5 "$tmp/$1.log"
        exit 1
    fi
    t1=$(date +%s.%N)
    g=$(grep -c glslang "$tmp/tools.log" || true)
    s=$(grep -c spirv "$tmp/tools.log" || true)
    echo "$1 $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $g $s" >>"$tmp/runs.txt"
}
: >"$tmp/runs.txt"
i=1
while [ "$i" -le "$RUNS" ]; do
    rm -rf "$tmp/cache"
    one "cold$i"
    one "warm$i"
    i=$((i + 1))
done
echo "make demo (tools/demo.sh), wall seconds; compiles = glslangValidator + spirv-opt runs"
awk '{ printf "  %-6s %7.2f s  %4d + %4d compiles\n", $1, $2, $3, $4 }' "$tmp/runs.txt"
awk '$1 ~ /^cold/ { c[++nc] = $2 } $1 ~ /^warm/ { w[++nw] = $2 }
     function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
         if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
         return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
     END { mc = med(c, nc); mw = med(w, nw)
           printf "  median: cold %.2f s, warm %.2f s (cold/warm %.2fx); goal 15 s\n", mc, mw, mc / mw }' \
    "$tmp/runs.txt"
echo "stages of the last pair (seconds, cold / warm):"
# each mark's time to the next mark
stages() { awk 'NR > 1 { printf "%s %.2f\n", name, $1 - t } { t = $1; name = $2 }' "$1"; }
stages "$tmp/cold$RUNS.times" >"$tmp/c.st"
stages "$tmp/warm$RUNS.times" >"$tmp/w.st"
paste "$tmp/c.st" "$tmp/w.st" | awk '{ printf "  %-20s %7.2f %7.2f\n", $1, $2, $4 }'
