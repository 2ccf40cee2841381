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
# Rates are covered fragments per host CPU second (perf's task clock, or
# user + sys from /usr/bin/time; wall-clock when both are missing).
# ushader's time is that of `ushader render --stats` (the image's RGBA8
# form and hash, no PNG: the PNGs compared below are rendered untimed,
# as Mesa's is written after its timed frames) less the same command at
# 8x8 (start-up, SFU tables, assembly), on one host thread (--jobs 1)
# as softpipe and llvmpipe-1 run; softpipe's covers FRAMES frames after
# one untimed frame.  The ratio
# ushader/softpipe > 1 means ushader is faster.  The largest test scene
# (envmap.scn, by fragments) is also timed on ushader alone, for scale.
#
# Steady state ("per frame"): Mesa's frames are timed after an untimed
# one, its buffers touched and its PNG written outside the clock, while a
# render pays once, inside it, for the image's first touch (page
# clearing), its RGBA8 form and hash (together 5-9% of a 512x512 render
# here).  So ushader is also timed per frame: the scene's 8 draws
# repeated USHADER_FRAMES times (default 9) in one render, less the scene
# once, at the same size -- (USHADER_FRAMES - 1) frames' fragments over
# the difference (no depth test or blending: each repetition shades every
# pixel again, as a frame does after Mesa's clear).  Both figures are
# printed with their ratios.
#
# The functional figures are repeated (SOFTPIPE_REPS, default 5)
# interleaved with their peers -- ushader on the reference interpreter
# alone (USHADER_SOA=0, the path before the batched executor), ushader
# with --jobs 2 (wall time, against llvmpipe's two threads), softpipe,
# and llvmpipe with LP_NUM_THREADS=1 (CPU time) and 2 (wall time),
# LLVMPIPE_FRAMES frames (default 40) -- and printed as min/median/max
# with the ratios of the medians and their range over the repetitions
# (docs/perf/soa.md).
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

# seconds CMD...: host seconds of CMD (stdout to $tmp/out): CPU time from
# perf's task clock when perf runs (/usr/bin/time counts 10 ms steps, a
# ninth of a 512x512 render), else from /usr/bin/time, else wall time.
if perf stat -e task-clock -o /dev/null true > /dev/null 2>&1; then
    clock="cpu"
    seconds() {
        perf stat -e task-clock -o "$tmp/time" "$@" > "$tmp/out"
        # (perf groups digits with commas: 1,234.56 msec)
        awk '/task-clock/ { gsub(",", "", $1); printf "%.4f\n", $1 / 1000 }' \
            "$tmp/time"
    }
elif [ -x /usr/bin/time ]; then
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

# rate SCENE ARCH SIZE: covered fragments per second of `ushader render`
# (--stats: the image's hash, no PNG to encode; Mesa's side writes its PNG
# after the timed frames).
rate() {
    base=$(seconds "$U" render "$1" --arch "$2" --size 8x8 --hash)
    full=$(seconds "$U" render "$1" --arch "$2" --size "$3" --stats)
    frags=$(sed -n 's/.*"fragments": \([0-9]*\).*/\1/p' "$tmp/out")
    awk -v f="$frags" -v a="$full" -v b="$base" -v s="$1" -v m="$2" -v sz="$3" 'BEGIN {
        t = a - b; if (t <= 0) t = a
        printf "%-30s %-18s %9s %10d %8.3f %12.0f\n", s, "ushader " m, sz, f, t, f / t
    }' | tee -a "$tmp/rates"
}

# One repetition of every figure, interleaved (the machine may be shared):
# ushader's functional renderer on the SoA executor (new) and on the
# reference alone (old, USHADER_SOA=0), softpipe, llvmpipe on 1 and 2
# threads.  Each rate line goes to $tmp/reps: NAME fragments/s.
lp_frames=${LLVMPIPE_FRAMES:-40}
mesa() {   # mesa NAME DRIVER THREADS FRAMES CLOCK(cpu|wall)
    GALLIUM_DRIVER=$2 LP_NUM_THREADS=$3 "$OB" "$VP" "$FP" $W $H $QUADS "$4" \
        "$tmp/$2.png" > "$tmp/m" 2>"$tmp/merr" ||
        skip "osmesa_bench ($2) failed: $(cat "$tmp/merr")"
    r=$(sed -n 's/^renderer //p' "$tmp/m")
    case "$r" in *"$2"*) ;; *) skip "GALLIUM_DRIVER=$2 gave the '$r' renderer" ;; esac
    awk -v n="$1" -v c="$5" -v clock="$clock" '{ v[$1] = $2 }
        END { t = (c == "cpu" && clock == "cpu") ? v["cpu_s"] : v["wall_s"]
              printf "%s %.0f\n", n, v["fragments_per_frame"] * v["frames"] / t }' \
        "$tmp/m" >> "$tmp/reps"
}
ushader_rate() {   # ushader_rate NAME USHADER_SOA-value JOBS CLOCK(cpu|wall) (as rate: no PNG)
    if [ "$4" = wall ]; then
        base=$(USHADER_SOA=$2 wall_seconds "$U" render "$SCN" --size 8x8 --hash --jobs "$3")
        full=$(USHADER_SOA=$2 wall_seconds "$U" render "$SCN" --size ${W}x$H --stats --jobs "$3")
    else
        base=$(USHADER_SOA=$2 seconds "$U" render "$SCN" --size 8x8 --hash --jobs "$3")
        full=$(USHADER_SOA=$2 seconds "$U" render "$SCN" --size ${W}x$H --stats --jobs "$3")
    fi
    frags=$(sed -n 's/.*"fragments": \([0-9]*\).*/\1/p' "$tmp/out")
    awk -v n="$1" -v f="$frags" -v a="$full" -v b="$base" 'BEGIN {
        t = a - b; if (t <= 0) t = a; printf "%s %.0f\n", n, f / t }' >> "$tmp/reps"
}
# The scene with its draws repeated USHADER_FRAMES times ($tmp/frames.scn;
# its programs' paths made absolute): the draws must be its last lines.
UF=${USHADER_FRAMES:-9}
awk -v dir="$PWD/$(dirname "$SCN")" -v k="$UF" '
    $1 == "draw" { d[++n] = $0; next }
    n && NF && $1 !~ /^#/ { bad = 1 }
    $1 == "program" { $3 = dir "/" $3 }
    { print }
    END { if (bad) exit 1
          for (f = 0; f < k; f++) for (i = 1; i <= n; i++) print d[i] }' \
    "$SCN" > "$tmp/frames.scn" || skip "$SCN: draws are not its last lines"
ushader_frames() {   # ushader_frames NAME: per frame, one job, CPU time
    one=$(seconds "$U" render "$SCN" --size ${W}x$H --stats --jobs 1)
    frags=$(sed -n 's/.*"fragments": \([0-9]*\).*/\1/p' "$tmp/out")
    many=$(seconds "$U" render "$tmp/frames.scn" --size ${W}x$H --hash --jobs 1)
    awk -v n="$1" -v f="$frags" -v a="$many" -v b="$one" -v k="$UF" 'BEGIN {
        t = a - b; if (t <= 0) t = a; printf "%s %.0f\n", n, (k - 1) * f / t }' >> "$tmp/reps"
}
# wall_seconds CMD...: wall-clock seconds of CMD (stdout to $tmp/out)
wall_seconds() {
    t0=$(date +%s%N)
    "$@" > "$tmp/out"
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
}
REPS=${SOFTPIPE_REPS:-5}
: > "$tmp/reps"
i=0
while [ $i -lt "$REPS" ]; do
    ushader_rate new "" 1 cpu
    ushader_frames new-frames
    ushader_rate new-2 "" 2 wall
    ushader_rate old 0 1 cpu
    mesa softpipe softpipe 1 "$FRAMES" cpu
    mesa llvmpipe-1 llvmpipe 1 "$lp_frames" cpu
    mesa llvmpipe-2 llvmpipe 2 "$lp_frames" wall
    i=$((i + 1))
done

echo "clock: host $clock seconds (llvmpipe-2: wall); $QUADS full-screen quads of phong.fp at ${W}x$H; $REPS interleaved repetitions"
echo "load: $(uptime)"
printf '%-34s %12s %12s %12s\n' "fragments/s" min median max
# stats NAME: min median max of NAME's rates
stats() {
    awk -v n="$1" '$1 == n { print $2 }' "$tmp/reps" | sort -n | awk '
        { v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                             printf "%.0f %.0f %.0f\n", v[1], m, v[NR] }'
}
for n in new new-frames new-2 old softpipe llvmpipe-1 llvmpipe-2; do
    case $n in
    new) label="ushader functional (SoA)" ;;
    new-frames) label="ushader functional, per frame" ;;
    new-2) label="ushader functional, 2 jobs" ;;
    old) label="ushader functional (reference)" ;;
    *) label="mesa $n" ;;
    esac
    # shellcheck disable=SC2046  # three numbers
    printf '%-34s %12s %12s %12s\n' "$label" $(stats $n)
done
echo
# ratios of the medians, and per repetition (A/B of the same repetition)
awk '{ r[$1, ++k[$1]] = $2 }
    function med(n,   i, j, t, v, c) {
        c = k[n]; for (i = 1; i <= c; i++) v[i] = r[n, i]
        for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++)
            if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2 }
    function ratios(a, b,   i, c, x, lo, hi, s) {
        c = k[a]; lo = 1e30; hi = 0
        for (i = 1; i <= c; i++) { x = r[a, i] / r[b, i]; if (x < lo) lo = x; if (x > hi) hi = x }
        printf "ratio %-22s median %.3f (per repetition min %.3f max %.3f)\n", a "/" b, med(a) / med(b), lo, hi }
    END {
        ratios("new", "softpipe"); ratios("new", "llvmpipe-1"); ratios("new-2", "llvmpipe-2")
        ratios("new-frames", "softpipe"); ratios("new-frames", "llvmpipe-1")
        ratios("old", "softpipe"); ratios("new", "old")
    }' "$tmp/reps"
echo
printf '%-30s %-18s %9s %10s %8s %12s\n' workload shader size fragments seconds fragments/s
rate "$SCN" scalar "${W}x$H"
rate bench/scenes/envmap.scn functional 512x512
rate bench/scenes/envmap.scn scalar 512x512

echo
# the images, untimed
"$U" render "$SCN" --size ${W}x$H -o "$tmp/fullscreen-new.png"
USHADER_SOA=0 "$U" render "$SCN" --size ${W}x$H -o "$tmp/fullscreen-old.png"
echo "same work: ushader (functional, SFU math) vs softpipe image:"
"$U" imgdiff "$tmp/fullscreen-new.png" "$tmp/softpipe.png" | sed 's/^/  /'
echo "ushader's SoA and reference paths, same image:"
"$U" imgdiff "$tmp/fullscreen-new.png" "$tmp/fullscreen-old.png" | sed 's/^/  /'
