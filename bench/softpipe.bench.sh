#!/bin/sh
# Fragment-shading throughput of ushader against Mesa's softpipe driver
# (a reference software rasterizer that interprets shaders, as ushader's
# functional mode does) on the same ARB programs and geometry, measured
# side by side in one run.
#
# Workload: bench/softpipe/fullscreen.scn, 8 full-screen quads at 512x512
# shaded by bench/scenes/phong.fp (per-pixel Phong: 3 RSQ, POW, 21
# instructions) after bench/softpipe/fullscreen.vp; the scene file says
# why the two sides are equivalent.  bench/softpipe/osmesa_bench.c draws
# it on an OSMesa context with GALLIUM_DRIVER=softpipe (Debian
# libosmesa6-dev; `make deps` installs it); the script builds it with gcc
# into $BUILD/softpipe/.  Both images are compared with `ushader imgdiff`
# as a check that the work is the same.
#
# Rates are covered fragments per host CPU second (user + sys; wall-clock
# when /usr/bin/time is missing).  ushader's time is that of `ushader
# render` less the same command at 8x8 (start-up, SFU tables, assembly);
# softpipe's covers FRAMES frames after one untimed frame.  The ratio
# ushader/softpipe > 1 means ushader is faster.  The largest test scene
# (envmap.scn, by fragments) is also timed on ushader alone, for scale.
#
# Without gcc, pkg-config or the OSMesa/libpng development files the
# script prints "skipped: REASON" and exits 0: it is a benchmark, not a
# test.
set -eu
BUILD=${BUILD:-build}
U="$BUILD/ushader"
FRAMES=${SOFTPIPE_FRAMES:-2}
cd "$(dirname "$0")/.."
SCN=bench/softpipe/fullscreen.scn
VP=bench/softpipe/fullscreen.vp
FP=bench/scenes/phong.fp
W=512 H=512 QUADS=8   # as in $SCN

skip() { echo "softpipe: skipped: $*"; exit 0; }
command -v gcc >/dev/null 2>&1 || skip "no gcc"
command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
pkg-config --exists osmesa gl libpng ||
    skip "OSMesa, GL or libpng development files missing (apt-get install libosmesa6-dev libpng-dev)"
[ -x "$U" ] || skip "no $U (run make first)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$BUILD/softpipe"
OB="$BUILD/softpipe/osmesa_bench"
# shellcheck disable=SC2046  # pkg-config output is word lists
gcc -std=c11 -O2 -Wall -Wextra -Werror bench/softpipe/osmesa_bench.c \
    $(pkg-config --cflags osmesa gl libpng) -o "$OB" \
    $(pkg-config --libs osmesa gl libpng) 2>"$tmp/cc" ||
    skip "osmesa_bench does not build: $(head -n 3 "$tmp/cc")"

# seconds CMD...: host seconds of CMD (stdout to $tmp/out).
if [ -x /usr/bin/time ]; then
    clock="cpu"
    seconds() {
        /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" > "$tmp/out"
        awk '{ printf "%.4f\n", $1 + $2 }' "$tmp/time"
    }
else
    clock="wall"
    seconds() {
        t0=$(date +%s%N)
        "$@" > "$tmp/out"
        t1=$(date +%s%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
    }
fi

# rate SCENE ARCH SIZE: covered fragments per second of `ushader render`.
rate() {
    base=$(seconds "$U" render "$1" --arch "$2" --size 8x8 --hash)
    full=$(seconds "$U" render "$1" --arch "$2" --size "$3" --stats -o "$tmp/$(basename "$1" .scn)-$2.png")
    frags=$(sed -n 's/.*"fragments": \([0-9]*\).*/\1/p' "$tmp/out")
    awk -v f="$frags" -v a="$full" -v b="$base" -v s="$1" -v m="$2" -v sz="$3" 'BEGIN {
        t = a - b; if (t <= 0) t = a
        printf "%-30s %-18s %9s %10d %8.3f %12.0f\n", s, "ushader " m, sz, f, t, f / t
    }' | tee -a "$tmp/rates"
}

echo "clock: host $clock seconds; $QUADS full-screen quads of phong.fp at ${W}x$H"
printf '%-30s %-18s %9s %10s %8s %12s\n' workload shader size fragments seconds fragments/s
rate "$SCN" functional "${W}x$H"
rate "$SCN" scalar "${W}x$H"

GALLIUM_DRIVER=softpipe "$OB" "$VP" "$FP" $W $H $QUADS "$FRAMES" "$tmp/softpipe.png" \
    > "$tmp/sp" 2>"$tmp/sperr" || skip "osmesa_bench failed: $(cat "$tmp/sperr")"
renderer=$(sed -n 's/^renderer //p' "$tmp/sp")
[ "$renderer" = softpipe ] ||
    skip "GALLIUM_DRIVER=softpipe gave the '$renderer' renderer"
awk -v s="$SCN" -v clock="$clock" '
    { v[$1] = $2 }
    END {
        t = (clock == "cpu") ? v["cpu_s"] : v["wall_s"]
        f = v["fragments_per_frame"] * v["frames"]
        printf "%-30s %-18s %9s %10d %8.3f %12.0f\n", s, "mesa softpipe", "512x512", f, t, f / t
    }' "$tmp/sp" | tee -a "$tmp/rates"
rate bench/scenes/envmap.scn functional 512x512
rate bench/scenes/envmap.scn scalar 512x512

echo
echo "same work: ushader (functional, SFU math) vs softpipe image:"
"$U" imgdiff "$tmp/fullscreen-functional.png" "$tmp/softpipe.png" | sed 's/^/  /'
echo
awk -v s="$SCN" '$1 == s { r[$3] = $NF }
    END {
        printf "ratio ushader/softpipe, fragments/s: functional %.3f, scalar %.3f\n",
               r["functional"] / r["softpipe"], r["scalar"] / r["softpipe"]
    }' "$tmp/rates"
