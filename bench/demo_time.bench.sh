#!/bin/sh
# `make demo`'s time (tools/demo.sh on a built tree) with an empty cache
# (cold: the SPIR-V and TGSI caches, glsl/spv_cache.c and
# bench/tgsi_compare.sh) and with the cache an earlier run filled (warm):
# COLD cold and WARM warm runs interleaved (c w c w w ...; defaults 1 and
# 1), each with its wall time, its CPU time (user + sys of the demo and
# every process it waited for, /usr/bin/time), the load average before it
# (`uptime`), its stages (tools/demo.sh's DEMO_TIMES marks) and its
# glslangValidator, spirv-opt and shader_runner runs, counted by wrappers
# on PATH that log each run and exec the real tool (about 1 ms each).
# The demo writes into a temporary OUT; the cache is a temporary one.
#   BUILD=build [COLD=2] [WARM=5] sh bench/demo_time.bench.sh
set -eu
BUILD=${BUILD:-build}
COLD=${COLD:-${RUNS:-1}}
WARM=${WARM:-${RUNS:-1}}
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
RUNNER=/usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner
printf '#!/bin/sh\necho shader_runner >>"%s/tools.log"\nexec %s "$@"\n' \
    "$tmp" "$RUNNER" >"$tmp/bin/shader_runner"
chmod +x "$tmp/bin/shader_runner"
[ -x "$RUNNER" ] || rm "$tmp/bin/shader_runner"
# one NAME: one demo run; "NAME WALL CPU LOAD GLSLANG SPIRV-OPT MESA"
# appended to runs.txt, the stage marks in NAME.times
one() {
    : >"$tmp/tools.log"
    load=$(uptime | sed 's/.*load average: \([0-9.]*\).*/\1/')
    t0=$(date +%s.%N)
    if ! PATH="$tmp/bin:$PATH" USHADER_CACHE_DIR="$tmp/cache" \
            SHADER_RUNNER="$tmp/bin/shader_runner" \
            DEMO_TIMES="$tmp/$1.times" OUT="$tmp/out" BUILD=$BUILD \
            /usr/bin/time -f '%U %S' -o "$tmp/cpu" \
            sh tools/demo.sh >"$tmp/$1.log" 2>&1; then
        echo "demo_time: the demo failed ($1); its last lines:"
        tail -n 5 "$tmp/$1.log"
        exit 1
    fi
    t1=$(date +%s.%N)
    g=$(grep -c glslang "$tmp/tools.log" || true)
    s=$(grep -c spirv "$tmp/tools.log" || true)
    m=$(grep -c shader_runner "$tmp/tools.log" || true)
    cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$tmp/cpu")
    echo "$1 $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $cpu $load $g $s $m" >>"$tmp/runs.txt"
}
: >"$tmp/runs.txt"
i=1 nw=0
while [ "$i" -le "$COLD" ] || [ "$nw" -lt "$WARM" ]; do
    if [ "$i" -le "$COLD" ]; then
        rm -rf "$tmp/cache"
        one "cold$i"
    fi
    if [ "$nw" -lt "$WARM" ]; then
        nw=$((nw + 1))
        one "warm$nw"
    fi
    i=$((i + 1))
done
echo "make demo (tools/demo.sh): wall and CPU (user+sys) seconds, the 1-minute load"
echo "before the run; compiles = glslangValidator + spirv-opt + Mesa shader_runner runs"
awk '{ printf "  %-6s %7.2f s wall %7.2f s CPU  load %5.2f  %4d + %4d + %3d compiles\n",
       $1, $2, $3, $4, $5, $6, $7 }' "$tmp/runs.txt"
awk 'function sort(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
         if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
     function med(a, n) { return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
     function row(what, a, n) { sort(a, n)
         printf "  %-10s min %7.2f  median %7.2f  max %7.2f  (%d runs)\n", what, a[1], med(a, n), a[n], n }
     $1 ~ /^cold/ { cw[++nc] = $2; cc[nc] = $3 } $1 ~ /^warm/ { ww[++nw] = $2; wc[nw] = $3 }
     END { row("cold wall", cw, nc); row("cold CPU", cc, nc)
           row("warm wall", ww, nw); row("warm CPU", wc, nw)
           printf "  median warm / cold: %.2fx wall, %.2fx CPU\n", med(ww, nw) / med(cw, nc), med(wc, nw) / med(cc, nc)
           printf "  goal: warm wall under 15 s on an idle machine (median above: %.2f s)\n", med(ww, nw) }' \
    "$tmp/runs.txt"
echo "stages of the last runs (wall seconds, cold / warm):"
# each mark's time to the next mark of its part: the demo's own marks,
# then those of its background parts (tools/demo.sh: DEMO_TIMES-PART)
stages() {
    for f in "$1" "$1-glmark2" "$1-minetest" "$1-compute"; do
        [ ! -f "$f" ] ||
            awk 'NR > 1 { printf "%s %.2f\n", name, $1 - t } { t = $1; name = $2 }' "$f"
    done
}
stages "$tmp/cold$COLD.times" >"$tmp/c.st"
stages "$tmp/warm$WARM.times" >"$tmp/w.st"
paste "$tmp/c.st" "$tmp/w.st" | awk '{ printf "  %-20s %7.2f %7.2f\n", $1, $2, $4 }'
