#!/bin/sh
# `render --jobs 2` against `--jobs 1` (issue 21 item 2): the functional
# renderer splits each draw into vertex batches and bands of screen rows
# on host threads, and the image is the same (checked here by its hash).
#
# Workloads: bench/softpipe/fullscreen.scn (8 full-screen quads of
# phong.fp, softpipe.bench.sh's), bench/scenes/envmap.scn and
# bench/scenes/bunny.scn (70,000 small triangles), each at every size of
# RENDER_JOBS_SIZES (default 512x512, softpipe.bench.sh's, where a render
# takes about 0.1 s and the serial start-up, scene load and export are a
# large share, and 2048x2048, where shading is most of the command).  Each is
# run RUNS times (default 5) as --jobs 1 and --jobs 2 interleaved
# (1 2 1 2 ...); the figures are wall-clock seconds of the whole command
# (scene loading, SFU tables, the RGBA8 image and its hash included: they
# run on one thread), min/median/max, and the speed-up median(jobs 1) /
# median(jobs 2).  "draws" is the same ratio of the renderer's own wall
# time, the draws on their threads (`render --time`: the part --jobs
# splits).  The speed-up needs a second core that is idle: the
# load average before and after is printed with the figures.  With
# /usr/bin/time, the CPU seconds (user + sys) are summed too: "cpu 2/1",
# median(jobs 2) / median(jobs 1), is the work the split adds (about 1.0
# when it costs nothing), a figure the load does not change much (perf's
# task-clock when perf runs: /usr/bin/time counts 10 ms steps).
set -eu
BUILD=${BUILD:-build}
U="$BUILD/ushader"
RUNS=${RUNS:-5}
SIZES=${RENDER_JOBS_SIZES:-512x512 2048x2048}
cd "$(dirname "$0")/.."
[ -x "$U" ] || { echo "render_jobs: skipped: no $U (run make first)"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall SCENE JOBS SIZE: wall seconds of one render to stdout, its CPU seconds
# appended to $tmp/cpu.JOBS, the draws' own wall seconds (render --time)
# to $tmp/draws.JOBS, its hash to $tmp/hash.JOBS.  With perf, the
# wall time is perf's "time elapsed" (from the fork to the exit of the
# render: perf's own start-up, 0.1 s on a loaded machine, left out).
wall() {
    wall_of "$@"
    awk '/^time: render/ { print $4 }' "$tmp/err" >> "$tmp/draws.$2"
}

wall_of() {
    t0=$(date +%s%N)
    if [ "$cpu_by" = perf ]; then
        perf stat -e task-clock -o "$tmp/time" "$U" render "$1" \
            --size "$3" --hash --jobs "$2" --time > "$tmp/hash.$2" 2> "$tmp/err"
        # (perf groups digits with commas: 1,234.56 msec)
        awk '/task-clock/ { gsub(",", "", $1); printf "%.4f\n", $1 / 1000 }' \
            "$tmp/time" >> "$tmp/cpu.$2"
        awk '/time elapsed/ { gsub(",", "", $1); printf "%.4f\n", $1 }' \
            "$tmp/time"
        return
    elif [ "$cpu_by" = gnutime ]; then
        /usr/bin/time -f '%U %S' -o "$tmp/time" "$U" render "$1" \
            --size "$3" --hash --jobs "$2" --time > "$tmp/hash.$2" 2> "$tmp/err"
        awk '{ printf "%.4f\n", $1 + $2 }' "$tmp/time" >> "$tmp/cpu.$2"
    else
        "$U" render "$1" --size "$3" --hash --jobs "$2" --time > "$tmp/hash.$2" 2> "$tmp/err"
        echo 1 >> "$tmp/cpu.$2"
    fi
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }'
}

# stats FILE: "min median max" of the numbers in FILE
stats() {
    sort -n "$1" | awk '{ v[NR] = $1 }
        END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%.3f %.3f %.3f\n", v[1], m, v[NR] }'
}

# CPU seconds: perf's task-clock (to the microsecond) when perf runs,
# else /usr/bin/time (to 10 ms: coarse for the small scenes)
cpu_by=none
if perf stat -e task-clock -o /dev/null true > /dev/null 2>&1; then
    cpu_by=perf
elif [ -x /usr/bin/time ]; then
    cpu_by=gnutime
fi
echo "host: $(nproc) online CPUs; load before: $(uptime | sed 's/.*load average: //')"
echo "CPU time from: $cpu_by"
printf '%-40s %-22s %-22s %8s %8s %8s\n' workload "jobs 1 min/med/max s" \
    "jobs 2 min/med/max s" speed-up "cpu 2/1" draws
for size in $SIZES; do
for scn in bench/softpipe/fullscreen.scn bench/scenes/envmap.scn \
           bench/scenes/bunny.scn; do
    : > "$tmp/t1"
    : > "$tmp/t2"
    : > "$tmp/cpu.1"
    : > "$tmp/cpu.2"
    : > "$tmp/draws.1"
    : > "$tmp/draws.2"
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        wall "$scn" 1 "$size" >> "$tmp/t1"
        wall "$scn" 2 "$size" >> "$tmp/t2"
        cmp -s "$tmp/hash.1" "$tmp/hash.2" ||
            { echo "render_jobs: $scn: --jobs 2 gave another image"; exit 1; }
        r=$((r + 1))
    done
    # shellcheck disable=SC2046  # stats prints three words
    set -- $(stats "$tmp/t1") $(stats "$tmp/t2") $(stats "$tmp/cpu.1") \
        $(stats "$tmp/cpu.2") $(stats "$tmp/draws.1") $(stats "$tmp/draws.2")
    awk -v s="$scn $size" -v a="$1" -v b="$2" -v c="$3" -v d="$4" -v e="$5" \
        -v f="$6" -v c1="$8" -v c2="${11}" -v d1="${14}" -v d2="${17}" 'BEGIN {
        printf "%-40s %6.3f %6.3f %6.3f   %6.3f %6.3f %6.3f   %7.2fx %8.2f %7.2fx\n",
               s, a, b, c, d, e, f, b / e, c2 / c1, d1 / d2 }'
done
done
echo "load after: $(uptime | sed 's/.*load average: //')"
