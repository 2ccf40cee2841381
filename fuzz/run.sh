#!/bin/sh
# Run the libFuzzer harnesses (`make fuzz`): fuzz/run.sh SECONDS [NAME...]
# NAME is a harness without the fuzz_ prefix (asm target decode binary
# scene obj png shader_test config sfu spirv glsl_front suite_list);
# default every $FUZZ_BUILD/fuzz_*.
# FUZZ_JOBS harnesses run at a time (default 2, the machine's two cores);
# FUZZ_RUNS=N also stops each after N executions (whichever limit comes
# first).  Per harness: the corpus grows in $FUZZ_BUILD/corpus/NAME,
# crashes go to $FUZZ_BUILD/artifacts/NAME-*, the log to
# $FUZZ_BUILD/NAME.log, and one summary line (seconds, executions, cov, ft)
# is printed.  Exit status 1 if any harness found something.
#
# Seeds are copied into $FUZZ_BUILD/seeds/NAME at run time from the
# repository (bench/programs, bench/scenes, tests/, configs/) and from
# Debian's piglit and glmark2-data; nothing is ever copied into the
# repository.  `ushader asm -o` binaries for the decoders are made with
# $USHADER (default build/ushader) when it exists, glmark2's shaders and
# bench list with $GLMARK2_GEN (default build/tools/glmark2_gen).
set -u
cd "$(dirname "$0")/.."
FUZZ_BUILD=${FUZZ_BUILD:-build/fuzz}
USHADER=${USHADER:-build/ushader}
GLMARK2_GEN=${GLMARK2_GEN:-build/tools/glmark2_gen}
JOBS=${FUZZ_JOBS:-2}
RUNS=${FUZZ_RUNS:--1}
secs=${1:-60}
[ $# -gt 0 ] && shift
PIGLIT=/usr/lib/x86_64-linux-gnu/piglit/tests
GLMARK=/usr/share/glmark2

if [ $# -eq 0 ]; then
    set --
    for b in "$FUZZ_BUILD"/fuzz_*; do
        case $b in *.d) continue ;; esac
        [ -x "$b" ] && set -- "$@" "${b##*/fuzz_}"
    done
fi

seeds="$FUZZ_BUILD/seeds"
mkdir -p "$seeds" "$FUZZ_BUILD/artifacts"

# seed NAME FILE...: copy existing files into the seed directory of NAME.
seed() {
    d="$seeds/$1"
    shift
    mkdir -p "$d"
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "$d/$(echo "$f" | tr / _)"
    done
    return 0
}

programs() {
    set -- bench/programs/*.[fv]p bench/scenes/*.[fv]p tests/run/*.[fv]p
    for f in "$@"; do [ -f "$f" ] && echo "$f"; done
    if [ -d "$PIGLIT/asmparsertest/shaders" ]; then
        find "$PIGLIT/asmparsertest/shaders" -name '*.txt' | sort | head -400
    fi
}

# glmark2's shader pairs and their bench list, instantiated into DIR.
glmark2_gen() {
    [ -x "$GLMARK2_GEN" ] && [ -d "$GLMARK/shaders" ] && mkdir -p "$1" &&
        "$GLMARK2_GEN" bench/glmark2/pairs.txt "$GLMARK/shaders" "$1" \
            >/dev/null 2>&1
}

# glsl_front seeds: a mode byte (fuzz/fuzz_glsl_front.c), then the text.
glsl_seeds() {
    d="$seeds/glsl_front"
    mkdir -p "$d"
    n=0
    for f in tests/glsl/*.vert tests/glsl/*.frag bench/programs/*.vert \
             bench/programs/*.frag "$seeds/glmark2-glsl"/*.vert \
             "$seeds/glmark2-glsl"/*.frag; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        case $f in *.vert) b='\000' ;; *) b='\001' ;; esac
        { printf "$b"; cat "$f"; } > "$d/$n"
    done
    # glmark2's pairs and piglit's GLSL 1.10 / 1.20 tests: a pair through
    # one link table
    g="$seeds/glmark2-glsl"
    if [ -f "$g/index.txt" ]; then
        while read -r pair _; do
            vs="$g/$pair.vert" fs="$g/$pair.frag"
            [ -f "$vs" ] && [ -f "$fs" ] || continue
            { printf '\002'; cat "$vs"; printf '\n%%%%\n'; cat "$fs"; } \
                > "$d/g-$pair"
        done < "$g/index.txt"
    fi
    find "$PIGLIT/spec/glsl-1.10" "$PIGLIT/spec/glsl-1.20" \
        -name '*.shader_test' 2>/dev/null | sort | head -300 |
    while read -r f; do
        n=$((n + 1))
        { printf '\002'
          awk '/^\[vertex shader\]/ { s = 1; next }
               /^\[fragment shader\]/ { if (s) printf "\n%%%%\n"; s = 2; next }
               /^\[/ { s = 0 } s' "$f"; } > "$d/p$n"
    done
}

make_seeds() {
    case $1 in
    asm | target)
        # shellcheck disable=SC2046
        seed "$1" $(programs) ;;
    decode | binary)
        if [ -x "$USHADER" ]; then
            mkdir -p "$seeds/$1"
            n=0
            for f in bench/programs/*.[fv]p bench/scenes/*.[fv]p; do
                for t in scalar scalar-nocompact simd4 vliw vliw5 hetero; do
                    n=$((n + 1))
                    "$USHADER" asm --target "$t" -o "$seeds/$1/$n.bin" "$f" \
                        >/dev/null 2>&1 || rm -f "$seeds/$1/$n.bin"
                done
            done
        fi
        seed "$1" /dev/null ;;
    scene)
        seed scene bench/scenes/*.scn ;;
    obj)
        # shellcheck disable=SC2046
        seed obj $(find bench tests -name '*.obj' 2>/dev/null) \
            "$GLMARK/models/bunny.obj" ;;
    png)
        # shellcheck disable=SC2046
        seed png bench/scenes/tex/*.png $(find tests -name '*.png' 2>/dev/null) \
            $(find "$GLMARK/textures" -name '*.png' -size -20k 2>/dev/null) ;;
    config)
        seed config configs/*.ini ;;
    glsl_front)
        glmark2_gen "$seeds/glmark2-glsl"
        glsl_seeds
        rm -rf "$seeds/glmark2-glsl" ;;
    suite_list)
        glmark2_gen "$seeds/glmark2-list"
        seed suite_list bench/suite.list "$seeds/glmark2-list/suite.list"
        rm -rf "$seeds/glmark2-list" ;;
    spirv)
        # modules compiled from fuzz/spirv/*, a stage byte first
        mkdir -p "$seeds/spirv"
        n=0
        for f in fuzz/spirv/*.vert fuzz/spirv/*.frag; do
            [ -f "$f" ] || continue
            n=$((n + 1))
            case $f in *.vert) st=vert b='\001' ;; *) st=frag b='\000' ;; esac
            if glslangValidator -G --aml --amb -S "$st" -o "$seeds/spirv/$n.spv" \
                    "$f" >/dev/null 2>&1; then
                { printf "$b"; cat "$seeds/spirv/$n.spv"; } > "$seeds/spirv/$n"
            fi
            rm -f "$seeds/spirv/$n.spv"
        done ;;
    shader_test)
        # shellcheck disable=SC2046
        seed shader_test $(find "$PIGLIT/spec" -name '*.shader_test' \
            -path '*arb_*program*' 2>/dev/null | sort | head -200) ;;
    *)
        seed "$1" /dev/null ;;
    esac
}

# Limits per harness: input size, and a per-input time.
max_len() {
    case $1 in
    png) echo 65536 ;;
    obj) echo 16384 ;;
    decode | binary) echo 4096 ;;
    sfu) echo 256 ;;
    *) echo 8192 ;;
    esac
}

run_one() {
    name=$1
    bin="$FUZZ_BUILD/fuzz_$name"
    log="$FUZZ_BUILD/$name.log"
    rm -rf "$seeds/$name"
    make_seeds "$name"
    mkdir -p "$FUZZ_BUILD/corpus/$name"
    start=$(date +%s)
    # stdin from /dev/null: nothing a harness reads may block.
    "$bin" -max_total_time="$secs" -runs="$RUNS" -timeout=25 -rss_limit_mb=2560 \
        -max_len="$(max_len "$name")" -print_final_stats=1 \
        -artifact_prefix="$FUZZ_BUILD/artifacts/$name-" \
        "$FUZZ_BUILD/corpus/$name" "$seeds/$name" </dev/null >"$log" 2>&1
    rc=$?
    took=$(($(date +%s) - start))
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\).*/\1/p')
    if [ $rc -eq 0 ]; then verdict=ok; else verdict="FOUND (exit $rc, see $log)"; fi
    echo "fuzz_$name: ${took}s, ${execs:-?} executions, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}: $verdict"
    [ $rc -eq 0 ]
}

status=0
running=0
pids=""
for name in "$@"; do
    if [ ! -x "$FUZZ_BUILD/fuzz_$name" ]; then
        echo "fuzz_$name: no such harness in $FUZZ_BUILD" >&2
        status=1
        continue
    fi
    run_one "$name" &
    pids="$pids $!"
    running=$((running + 1))
    if [ $running -ge "$JOBS" ]; then
        for p in $pids; do wait "$p" || status=1; done
        pids=""
        running=0
    fi
done
for p in $pids; do wait "$p" || status=1; done
exit $status
