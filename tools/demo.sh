#!/bin/sh
# `make demo`: assemble every sample program, show its canonical listing's
# size, and run one thread of it on the reference interpreter with sample
# inputs.  Later stages (rendering, benchmarks) append their parts below.
#
# What the demo runs in full: the programs, the scenes, the benchmark
# suite (bench/suite.list) on every model with every study, the Mesa
# TGSI comparison of the glmark2 pairs.  What it runs a subset of, to
# stay under 15 s warm (docs/perf/demo.md), and `make bench` runs whole:
#   - glmark2's and Minetest's shaders on every model without the scalar
#     SP's shared-LUT study and the sensitivity study (--no-lut-study
#     --no-sensitivity: 73 of their 85 variants; the suite's report has
#     both), and no glmark2 lockstep=8 study
#     (bench/glmark2.bench.sh, bench/minetest.bench.sh);
#   - the compute suite without its largest default GeMMs, gemm64,
#     gemm64_cl and gemm32 (nine tenths of its time): the other 26 kernels
#     on every model, preset and study (bench/run.sh: --suite compute --all).
# Every figure printed is computed in the run; the SPIR-V cache
# (glsl/spv_cache.c) and the TGSI cache (bench/tgsi_compare.sh) keep only
# deterministic compiles, keyed by their text and the tools' versions.
set -eu
BUILD=${BUILD:-build}
U="$BUILD/ushader"
OUT=${OUT:-out}
export BUILD U OUT
cd "$(dirname "$0")/.."
# DEMO_TIMES=FILE: each stage's start ("TIME NAME", date +%s.%N) appended
# to FILE, and "TIME end" last (bench/demo_time.bench.sh).
mark() { [ -z "${DEMO_TIMES:-}" ] || echo "$(date +%s.%N) $1" >> "$DEMO_TIMES"; }

mark programs
echo "== ushader demo: sample ARB programs (bench/programs/)"
for f in bench/programs/*.vp bench/programs/*.fp; do
    n=$("$U" asm -S "$f" | grep -cE '^[A-Z][A-Z0-9]{2}(_SAT)? ')
    echo
    echo "-- $f: $n instructions; one thread on the reference interpreter:"
    case "$f" in
    *.vp) "$U" run "$f" --attrib vertex.position=0.5,-0.25,0.75,1 \
             --attrib vertex.normal=0,0.6,0.8 --attrib vertex.color=1,0.5,0.25,1 \
             --attrib vertex.attrib[6]=0,1 --attrib vertex.attrib[7]=0.75,0.25 \
             --param 'env[0]=1,0,0,0.1' --param 'env[1]=0,1,0,0.2' --param 'env[2]=0,0,1,0.3' \
             --param 'env[3]=0,-1,0,0' --param 'env[4]=1,0,0,0' --param 'env[5]=0,0,1,0' ;;
    *.fp) "$U" run "$f" --attrib fragment.texcoord[0]=0.3,0.5,0.8,1 \
             --attrib fragment.texcoord[1]=0.2,-0.1,-3,1 --attrib fragment.texcoord[2]=0,0.7,0.7,1 \
             --attrib fragment.color=0.9,0.8,0.7,1 --attrib fragment.fogcoord=2.5 \
             --param 'local[0]=1.5,0,0,0' ;;
    esac
done

echo
mark scenes
BUILD=$BUILD sh tools/demo_render.sh

# Three parts run in the background beside the suite's bench, which
# leaves a core idle in its serial parts (loading, reports, plots): the
# compute suite, glmark2's shaders and Minetest's.  Each part's output is
# kept in files and printed in its place; its stage marks go to its own
# DEMO_TIMES file (DEMO_TIMES-PART), so each stage ends at the next mark
# of its own part.
LOG=$(mktemp -d)
export LOG
pid_compute="" pid_glmark2="" pid_minetest=""
trap 'for p in $pid_compute $pid_glmark2 $pid_minetest; do kill "$p" 2>/dev/null; done
      rm -rf "$LOG"' EXIT
trap 'exit 130' HUP INT TERM
# part NAME [NICE]: run the shell script on standard input as part NAME,
# in the background (its mark() and DEMO_TIMES-NAME first), at niceness
# NICE (default 0)
part() {
    { echo 'mark() { [ -z "${DEMO_TIMES:-}" ] || echo "$(date +%s.%N) $1" >> "$DEMO_TIMES"; }'
      cat; } > "$LOG/$1.sh"
    DEMO_TIMES=${DEMO_TIMES:+$DEMO_TIMES-$1} nice -n "${2:-0}" \
        sh -eu "$LOG/$1.sh" > "$LOG/$1.out" 2> "$LOG/$1.err" &
    eval "pid_$1=$!"
}
# show NAME: wait for part NAME, print its output, fail as it did
show() {
    status=0
    eval "wait \"\$pid_$1\"" || status=$?
    eval "pid_$1="
    cat "$LOG/$1.out"
    cat "$LOG/$1.err" >&2
    [ "$status" -eq 0 ] || exit "$status"
}

# The compute suite (docs/COMPUTE_SUITE.md): every kernel on every model,
# the SIMT presets and the divergence, memory and e-GPU studies, each
# output checked against its C reference, in process.  Its GLSL and
# OpenCL C kernels are compiled on JOBS processes first, into the SPIR-V
# cache (glsl/spv_cache.c) the suite's loading then reads.  The subset:
# every kernel but gemm64, gemm64_cl and gemm32 (gemm32_cl stays: GeMM
# and the e-GPU launch share).
kernels=$(sed -n 's/^KREF(\([a-z0-9_]*\))$/\1/p' bench/compute/ref/list.def |
    grep -v -x -e gemm64 -e gemm64_cl -e gemm32 | paste -s -d, -)
KERNELS=$kernels
export KERNELS
part compute 10 <<'PART'
mark compute
[ -n "${USHADER_NO_CACHE:-}" ] ||
    ls bench/compute/*.comp bench/compute/*.cl |
    xargs -P "${JOBS:-$(nproc 2>/dev/null || echo 2)}" -n 1 "$U" glsl \
        >/dev/null 2>&1 || true
echo
echo "== ushader demo: the compute suite on every model, but gemm64 and the GLSL gemm32 (bench/compute/; whole: make bench)"
"$U" bench --suite compute --only "$KERNELS" --jobs 2 --out "$OUT/compute" \
    > "$LOG/compute.bench"
tail -n 1 "$LOG/compute.bench"
echo "  report: $OUT/compute/report.md (utilization, stalls, presets, divergence, memory, e-GPU scaling, area)"
mark end
PART

# glmark2's shader pairs (docs/GLMARK2.md, bench/glmark2/) and Minetest's
# shaders (docs/MINETEST.md, bench/minetest/) as workloads: two parts, as
# each has serial stages (the TGSI comparison's shell, the checks) that
# leave a core to the other.
part glmark2 <<'PART'
mark glmark2
echo
echo "== ushader demo: glmark2's shader pairs on every core model (bench/glmark2/; the LUT and lockstep studies: make bench)"
o=$OUT
OUT="$o/glmark2" TGSI_OUT="$o/tgsi" sh bench/glmark2/bench.sh --demo --jobs 2
echo "  report: $OUT/glmark2/report.md (its last section: glmark2 shader pairs)"
mark end
PART
part minetest 5 <<'PART'
mark minetest
echo
echo "== ushader demo: Minetest's shaders on every core model (bench/minetest/; the LUT study: make bench)"
OUT="$OUT/minetest" sh bench/minetest/bench.sh --no-lut-study --no-sensitivity --jobs 2
echo "  report: $OUT/minetest/report.md"
mark end
PART

# The main job (SPEC 3): every benchmark program on every core model, and
# the architecture-comparison report with its plots (suite/, bench/).
echo
mark bench
echo "== ushader demo: benchmark suite on every core model (bench/suite.list)"
"$U" bench --jobs 2 --out "$OUT/bench"
echo "  report: $OUT/bench/report.md (tables, plots, results.csv, results.json)"

mark glmark2-wait
show glmark2
mark minetest-wait
show minetest
mark compute-wait
show compute
mark end
