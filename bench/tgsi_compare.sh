#!/bin/sh
# Our vec4 code against Mesa's TGSI on the glmark2 pairs (issue 20,
# docs/GLMARK2.md "Against Mesa's TGSI"; `make tgsi-compare`, and
# `make bench` through bench/glmark2/bench.sh).
#
# For each pair of GEN/index.txt (the shaders tools/glmark2_gen
# instantiates) the script writes a piglit shader_test holding the pair's
# GLSL, with `#version 100` read as `#version 130` (Mesa's desktop GLSL
# has no ES 1.00 shader that reads gl_Vertex and the other built-ins the
# pairs are bound to; 1.30 keeps the precision qualifiers, attribute,
# varying and texture2D), and runs Mesa's softpipe through piglit's
# shader_runner with SOFTPIPE_DEBUG=fs,vs, which prints the TGSI of every
# shader softpipe creates.  Mesa creates them when the program links, so
# the test needs no draw (with one, the same TGSI is printed once: no
# variant is compiled at draw time) and no uniform values.  The pair's
# shaders are the last VERT and FRAG blocks (shader_runner prints its
# blit shaders first): build/tools/tgsi_count split writes them to
# GEN/PAIR.vert.tgsi and GEN/PAIR.frag.tgsi, beside the GLSL, where the
# bench's loader finds them (the report's Mesa rows).  They are removed
# first, so a run without Mesa leaves none behind.  tgsi_count table then
# compiles each shader as the bench does and writes OUT/table.md and
# OUT/table.csv; the shader_tests and Mesa's logs stay in OUT/tests/ and
# OUT/logs/.
#
#   BUILD=build OUT=out/tgsi GEN=bench/glmark2/gen [JOBS=N] sh bench/tgsi_compare.sh [PAIR...]
#
# Without glmark2-data or shader_runner the script says "skipped" and
# exits 0 (a benchmark, not a test).
set -eu
BUILD=${BUILD:-build}
OUT=${OUT:-out/tgsi}
GEN=${GEN:-bench/glmark2/gen}
RUNNER=${SHADER_RUNNER:-/usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner}
cd "$(dirname "$0")/.."
DATA=/usr/share/glmark2
skip() { echo "tgsi-compare: skipped: $*"; exit 0; }
# no TGSI from an earlier run survives this one
[ ! -d "$GEN" ] || rm -f "$GEN"/*.tgsi
[ -d "$DATA/shaders" ] || skip "glmark2-data is not installed ($DATA)"
[ -x "$RUNNER" ] || skip "no piglit shader_runner ($RUNNER)"
[ -x "$BUILD/tools/tgsi_count" ] || skip "no $BUILD/tools/tgsi_count (run make first)"

mkdir -p "$GEN" "$OUT/tests" "$OUT/logs"
"$BUILD/tools/glmark2_gen" bench/glmark2/pairs.txt "$DATA/shaders" "$GEN" >/dev/null

# stage FILE: the GLSL of one stage, read as GLSL 1.30
stage() { sed 's/^#version 100[[:space:]]*$/#version 130/' "$1"; }

# the pairs asked for, or every pair of the index
pairs=$*
[ -n "$pairs" ] || pairs=$(awk '$1 !~ /^#/ && NF { print $1 }' "$GEN/index.txt")
for p in $pairs; do
    [ -f "$GEN/$p.vert" ] && [ -f "$GEN/$p.frag" ] || {
        echo "tgsi-compare: no pair $p in $GEN/index.txt" >&2; exit 1; }
    t="$OUT/tests/$p.shader_test"
    {
        printf '[require]\nGLSL >= 1.30\n\n[vertex shader]\n'
        stage "$GEN/$p.vert"
        printf '\n[fragment shader]\n'
        stage "$GEN/$p.frag"
        printf '\n[test]\n'
    } > "$t"
done
# Mesa on JOBS processes at once (default: the CPUs): each run writes its
# own log, which the loop below reads in the pairs' order.
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
printf '%s\n' $pairs | xargs -P "$JOBS" -I @ env GALLIUM_DRIVER=softpipe \
    SOFTPIPE_DEBUG=fs,vs PIGLIT_PLATFORM=surfaceless_egl sh -c \
    'timeout 60 "$1" "$2/tests/$3.shader_test" -auto -fbo > "$2/logs/$3.log" 2>&1; exit 0' \
    sh "$RUNNER" "$OUT" @
nrun=0 nmissing=0
for p in $pairs; do
    log="$OUT/logs/$p.log"
    if "$BUILD/tools/tgsi_count" split "$log" "$GEN/$p.vert.tgsi" \
            "$GEN/$p.frag.tgsi" 2>"$OUT/logs/$p.err"; then
        nrun=$((nrun + 1))
    else
        echo "tgsi-compare: $p: $(cat "$OUT/logs/$p.err") (log: $log)"
        nmissing=$((nmissing + 1))
    fi
done
echo "tgsi-compare: Mesa's TGSI for $nrun pairs ($nmissing without)"
"$BUILD/tools/tgsi_count" table "$GEN" "$OUT" $pairs
