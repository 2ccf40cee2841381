#!/bin/sh
# glmark2's shader pairs as benchmark workloads (docs/GLMARK2.md):
# instantiate them from Debian's glmark2-data, keep the shaders that
# compile, and run `ushader bench` on them; the report (OUT/report.md)
# ends with the glmark2 section, whose Mesa rows come from the TGSI
# bench/tgsi_compare.sh has Mesa print first (none without Mesa).  Extra
# arguments go to `ushader bench`.  With --demo first (`make demo`): the
# bench without the shared-LUT and sensitivity studies (--no-lut-study
# --no-sensitivity, which the main suite's report has) and without the
# lockstep=8 study; `make bench` (bench/glmark2.bench.sh) runs them all.
#   BUILD=build OUT=out/glmark2 [JOBS=N] sh bench/glmark2/bench.sh [--demo] [--jobs 2]
set -eu
demo=no
if [ "${1:-}" = --demo ]; then
    demo=yes
    shift
    set -- --no-lut-study --no-sensitivity "$@"
fi
BUILD=${BUILD:-build}
OUT=${OUT:-out/glmark2}
cd "$(dirname "$0")/../.."
DATA=/usr/share/glmark2
if [ ! -d "$DATA/shaders" ]; then
    echo "glmark2 bench: glmark2-data is not installed ($DATA); skipped"
    exit 0
fi
G=bench/glmark2/gen
mkdir -p "$G"
"$BUILD/tools/glmark2_gen" bench/glmark2/pairs.txt "$DATA/shaders" "$G"
# Every shader compiled on JOBS processes (default: the CPUs), its text
# into G/NAME.ir (none when it does not compile); the list below keeps,
# in its order, those that compile.
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
# DEMO_TIMES: the stages' start times (tools/demo.sh)
mark() { [ -z "${DEMO_TIMES:-}" ] || echo "$(date +%s.%N) $1" >> "$DEMO_TIMES"; }
mark glmark2-prefetch
rm -f "$G"/*.ir
awk '$1 !~ /^#/ && NF { print $1 }' "$G/suite.list" |
    xargs -P "$JOBS" -I @ "$BUILD/ushader" glsl -o "$G/@.ir" "$G/@" \
        >/dev/null 2>&1 || true
# the generated list, without the shaders that do not compile (a suite
# with one bad program would not load)
mark glmark2-check
: > "$G/suite.ok.list"
while read -r prog scene slot; do
    case "$prog" in ''|'#'*) continue ;; esac
    if [ -f "$G/$prog.ir" ]; then
        echo "$prog $scene $slot" >> "$G/suite.ok.list"
    else
        echo "glmark2 bench: $prog does not compile; left out"
    fi
done < "$G/suite.list"
# Mesa's TGSI beside the GLSL (G/PAIR.vert.tgsi), for the report's Mesa
# rows, and the per-pair table in TGSI_OUT (bench/tgsi_compare.sh)
mark glmark2-tgsi
BUILD=$BUILD OUT=${TGSI_OUT:-out/tgsi} GEN=$G sh bench/tgsi_compare.sh | tail -n 4
mark glmark2-bench
mkdir -p "$OUT"
"$BUILD/ushader" bench --suite "$G/suite.ok.list" --out "$OUT" "$@" | tail -n 4
[ "$demo" = no ] || exit 0
# divergence: the scalar SP with eight SPs in lockstep (one SIMT warp)
mark glmark2-lockstep8
echo "glmark2 bench: the scalar SP with lockstep=8 (divergence costs)"
"$BUILD/ushader" bench --suite "$G/suite.ok.list" --arch scalar \
    --set lockstep=8 --no-plots --out "$OUT/lockstep8" "$@" | tail -n 1
