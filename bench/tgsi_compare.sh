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
# Mesa's log is cached (the TGSI cache): DIR/tgsi-KEY.log, in the SPIR-V
# cache's directory (glsl/spv_cache.c: $USHADER_CACHE_DIR, else
# $XDG_CACHE_HOME/ushader, else ~/.cache/ushader; USHADER_NO_CACHE
# disables it), KEY the SHA-256 of the shader_test's text and of Mesa's
# identity: the Debian versions of piglit and Mesa's packages, the path,
# inode, size and times of shader_runner and of Mesa's libraries, the
# Mesa, piglit and loader variables of the environment and the command
# line.  Softpipe's compile is deterministic (the same text gives the
# same TGSI), so a hit is the log that Mesa would print.  An entry's
# first line is the SHA-256 of the rest: a damaged entry is a miss, and
# Mesa runs.  Entries are written to a temporary file and renamed, so
# concurrent runs are safe; a run whose log has no TGSI is not cached.
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

# the pairs asked for, or every pair of the index
pairs=$*
[ -n "$pairs" ] || pairs=$(awk '$1 !~ /^#/ && NF { print $1 }' "$GEN/index.txt")
files=""
for p in $pairs; do
    [ -f "$GEN/$p.vert" ] && [ -f "$GEN/$p.frag" ] || {
        echo "tgsi-compare: no pair $p in $GEN/index.txt" >&2; exit 1; }
    files="$files $GEN/$p.vert $GEN/$p.frag"
done
# OUT/tests/PAIR.shader_test, every pair's in one awk: its two stages'
# GLSL, each read as GLSL 1.30
# shellcheck disable=SC2086  # the file names are words
awk -v dir="$OUT/tests" '
    function end_test() { if (out != "") { printf "\n[test]\n" > out; close(out) } }
    FNR == 1 && FILENAME ~ /\.vert$/ {
        end_test()
        name = FILENAME; sub(/.*\//, "", name); sub(/\.vert$/, "", name)
        out = dir "/" name ".shader_test"
        printf "[require]\nGLSL >= 1.30\n\n[vertex shader]\n" > out }
    FNR == 1 && FILENAME ~ /\.frag$/ { printf "\n[fragment shader]\n" > out }
    { if ($0 ~ /^#version 100[[:space:]]*$/) print "#version 130" > out; else print > out }
    END { end_test() }' $files
# ---- The TGSI cache (the header) ----
cache=""
case "${USHADER_NO_CACHE:-}" in
''|0)
    # the XDG spec ignores a relative XDG_CACHE_HOME
    case "${USHADER_CACHE_DIR:-}:${XDG_CACHE_HOME:-}" in
    ?*:*) cache=$USHADER_CACHE_DIR ;;
    :/*) cache=$XDG_CACHE_HOME/ushader ;;
    *) [ -z "${HOME:-}" ] || cache=$HOME/.cache/ushader ;;
    esac ;;
esac
# private to the user, as glsl/spv_cache.c makes it
if [ -n "$cache" ] && ! (umask 077 && mkdir -p "$cache") 2>/dev/null; then
    cache=""
fi
MESA_ENV="GALLIUM_DRIVER=softpipe SOFTPIPE_DEBUG=fs,vs PIGLIT_PLATFORM=surfaceless_egl"
ARGS="-auto -fbo"
if [ -n "$cache" ]; then
    lib=/usr/lib/x86_64-linux-gnu
    mesa_id=$({
        echo "ushader TGSI cache 1"
        echo "$MESA_ENV $ARGS"
        dpkg-query -W -f='${Package} ${Version}\n' piglit libgl1-mesa-dri \
            libegl-mesa0 libglapi-mesa libgbm1 2>/dev/null || true
        for f in "$RUNNER" "$lib/dri/swrast_dri.so" "$lib/libEGL_mesa.so.0" \
                 "$lib/libglapi.so.0" "$lib/libgbm.so.1"; do
            [ ! -e "$f" ] || stat -L -c "$(readlink -f "$f") %d %i %s %Y %Z" "$f"
        done
        # (TGSI_OUT is bench/glmark2/bench.sh's, not Mesa's)
        env | grep -E '^(MESA|GALLIUM|SOFTPIPE|LP|GALLIVM|NIR|ST|TGSI|DRAW|GLSL|LIBGL|EGL|PIGLIT|LD)_' |
            grep -v '^TGSI_OUT=' | sort
    })
fi
# The cache's entries are read and written by tools/tgsi_count
# (cache-get, cache-put), from Mesa's identity in OUT/mesa.id
hits="" misses=$pairs
if [ -n "$cache" ]; then
    printf '%s\n' "$mesa_id" > "$OUT/mesa.id"
    # shellcheck disable=SC2086  # the pair names are words
    misses=$("$BUILD/tools/tgsi_count" cache-get "$cache" "$OUT/mesa.id" \
             "$OUT/tests" "$OUT/logs" $pairs | tr '\n' ' ') || misses=$pairs
    for p in $pairs; do
        case " $misses " in *" $p "*) ;; *) hits="$hits $p" ;; esac
    done
fi
# Mesa, for the pairs not in the cache.  shader_runner runs the
# shader_tests it is given one after the other in one process (piglit's
# multi-test mode), writing "PIGLIT TEST: I - NAME" to standard error
# before the I-th: Mesa's start (about 0.3 s of CPU and 19,000 page
# faults in a process, 0.02 s a test after it) is paid once a batch, not
# once a pair.  The misses go in JOBS batches (default: the CPUs) run at
# once, of at most TGSI_BATCH pairs; a batch's standard error
# (OUT/logs/batch-FIRST.err) is cut at the marks into OUT/logs/PAIR.log:
# the pair's TGSI is the last VERT and FRAG blocks of its part, the same
# as alone (the blit shaders Mesa prints first come once, before the
# first mark).  A pair left with no TGSI (a batch that died or timed out
# before it) runs again alone, its log the run's whole output, as a lone
# test prints no mark.
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
TGSI_BATCH=${TGSI_BATCH:-1000}
# batch PAIR...: one shader_runner process for the pairs
batch() {
    tests="" first=$1
    for p; do tests="$tests $OUT/tests/$p.shader_test"; rm -f "$OUT/logs/$p.log"; done
    if [ $# -eq 1 ]; then
        env $MESA_ENV timeout 60 "$RUNNER" $tests $ARGS > "$OUT/logs/$1.log" 2>&1
        return 0
    fi
    env $MESA_ENV timeout $((60 + 5 * $#)) "$RUNNER" $tests $ARGS \
        > "$OUT/logs/batch-$first.out" 2> "$OUT/logs/batch-$first.err"
    awk -v dir="$OUT/logs" -v names="$*" '
        BEGIN { n = split(names, name, " ") }
        /^PIGLIT TEST: [0-9]+ - / {
            if (f) close(f)
            i = $3 + 0; f = (i >= 1 && i <= n && $5 == name[i]) ? dir "/" name[i] ".log" : ""
            next }
        f { print > f }' "$OUT/logs/batch-$first.err"
}
# split PAIR...: their logs into GEN/PAIR.vert.tgsi and .frag.tgsi
# (tools/tgsi_count split); prints the pairs split, the others' reasons
# into OUT/logs/split.err
split() {
    "$BUILD/tools/tgsi_count" split "$OUT/logs" "$GEN" "$@" \
        2>"$OUT/logs/split.err" | tr '\n' ' '
}
if [ -n "$misses" ]; then
    set -- $misses
    per=$((($# + JOBS - 1) / JOBS))
    [ "$per" -le "$TGSI_BATCH" ] || per=$TGSI_BATCH
    running=0
    while [ $# -gt 0 ]; do
        group="" k=0
        while [ $# -gt 0 ] && [ $k -lt "$per" ]; do group="$group $1"; shift; k=$((k + 1)); done
        batch $group &
        running=$((running + 1))
        [ "$running" -lt "$JOBS" ] || { wait; running=0; }
    done
    wait
    # shellcheck disable=SC2086
    got=$(split $misses)
    for p in $misses; do
        case " $got " in *" $p "*) ;; *) batch "$p" ;; esac
    done
fi
# shellcheck disable=SC2086
got=$(split $pairs)
nrun=0 nmissing=0 ncached=0 store=""
for p in $pairs; do
    case " $got " in
    *" $p "*)
        nrun=$((nrun + 1))
        case " $hits " in
        *" $p "*) ncached=$((ncached + 1)) ;;
        *) store="$store $p" ;;
        esac ;;
    *) nmissing=$((nmissing + 1)) ;;
    esac
done
sed 's/^tgsi_count: /tgsi-compare: /' "$OUT/logs/split.err"
# shellcheck disable=SC2086
[ -z "$cache" ] || [ -z "$store" ] ||
    "$BUILD/tools/tgsi_count" cache-put "$cache" "$OUT/mesa.id" "$OUT/tests" \
        "$OUT/logs" $store
echo "tgsi-compare: Mesa's TGSI for $nrun pairs ($nmissing without; $ncached from the TGSI cache${cache:+ $cache})"
"$BUILD/tools/tgsi_count" table "$GEN" "$OUT" $pairs
