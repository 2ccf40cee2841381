#!/bin/sh
# The SPIR-V cache (glsl/spv_cache.c), through `ushader glsl` with the tools
# wrapped by scripts on PATH that log each compile (not --version) and run
# the real tool:
#   1. a warm cache gives the same text as a cold one and as --no-cache,
#      and runs no tool;
#   2. a corrupted entry (a changed byte of the module or the header, a
#      truncated file, a file of junk) is detected: the tools run, the text
#      is the same, and the entry written then serves the next run;
#   3. two runs filling one empty cache at once both print the right text
#      and leave one entry and no temporary file;
#   4. a tool whose version changes misses the cache;
#   5. --no-cache and USHADER_NO_CACHE=1 run the tools and write nothing;
#   6. a compile error is not cached: the same message each time, the
#      tools run each time, no entry;
#   7. an OpenCL C kernel (clang-14's runs counted) the same way: cold,
#      warm, --no-cache;
#   8. the tools run with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (glsl/
#      compile.c tool_environ), or with the caller's GLIBC_TUNABLES;
#   9. the tools run with the preload object beside ushader
#      (ushader-huge-bss.so, tools/preload/huge_bss.c) after the caller's
#      LD_PRELOAD, and without it when ushader has none beside it;
#  10. the object advises glslangValidator's static data for huge pages
#      (a VMA with VmFlags "hg" in its /proc/PID/smaps as it waits for its
#      input), which has none without it.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
U="$BUILD/ushader"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
check() {
    what=$1
    shift
    if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}

mkdir "$tmp/bin"
real_glslangValidator=$(command -v glslangValidator)
real_spirv_opt=$(command -v spirv-opt)
wrap() {   # wrap TOOL [VERSION-LINE]
    case $1 in glslang*) real=$real_glslangValidator ;; *) real=$real_spirv_opt ;; esac
    {
        echo '#!/bin/sh'
        [ -n "${2:-}" ] && printf '[ "$1" = --version ] && { echo "%s"; exit 0; }\n' "$2"
        printf '[ "$1" = --version ] || echo "%s ${GLIBC_TUNABLES-unset}" >>"%s"\n' "$1" "$tmp/log"
        printf '[ "$1" = --version ] || echo "%s ${LD_PRELOAD-unset}" >>"%s"\n' "$1" "$tmp/preload"
        printf 'exec %s "$@"\n' "$real"
    } >"$tmp/bin/$1.new"
    chmod +x "$tmp/bin/$1.new"
    mv "$tmp/bin/$1.new" "$tmp/bin/$1"
}
wrap glslangValidator
wrap spirv-opt
export PATH="$tmp/bin:$PATH"
export USHADER_CACHE_DIR="$tmp/cache"
unset USHADER_NO_CACHE
runs() { if [ -f "$tmp/log" ]; then wc -l <"$tmp/log" | tr -d ' '; else echo 0; fi; }
compile() {   # compile OUT [ARGS...]: the tools' runs are in $n
    out=$1
    shift
    rm -f "$tmp/log"
    "$U" glsl "$@" tests/glsl/lit.frag >"$out" 2>&1
    n=$(runs)
}
entries() { ls "$tmp/cache" | grep -c '\.spv$'; }

# 1. cold, warm, uncached
compile "$tmp/cold"
check "cold: the tools ran $n times, want 2" [ "$n" -eq 2 ]
check "cold: one entry" [ "$(entries)" -eq 1 ]
compile "$tmp/warm"
check "warm: the tools ran $n times, want 0" [ "$n" -eq 0 ]
check "warm text = cold text" cmp -s "$tmp/cold" "$tmp/warm"
compile "$tmp/nocache" --no-cache
check "--no-cache: the tools ran $n times, want 2" [ "$n" -eq 2 ]
check "--no-cache text = cold text" cmp -s "$tmp/cold" "$tmp/nocache"
check "cold text is a program" grep -q '^!!' "$tmp/cold"
entry=$(ls "$tmp/cache"/*.spv)
cp "$entry" "$tmp/entry.good"

# 2. corruption: a byte of the module, the header, a truncation, junk
size=$(wc -c <"$entry")
for how in payload header truncate junk; do
    case $how in
    payload) printf 'X' | dd of="$entry" bs=1 seek=$((size - 9)) conv=notrunc 2>/dev/null ;;
    header)  printf 'X' | dd of="$entry" bs=1 seek=3 conv=notrunc 2>/dev/null ;;
    truncate) head -c $((size - 4)) "$tmp/entry.good" >"$entry" ;;
    junk)    head -c "$size" /dev/urandom >"$entry" ;;
    esac
    cmp -s "$entry" "$tmp/entry.good" && { echo "FAIL: $how: not corrupted"; fail=$((fail + 1)); }
    compile "$tmp/again"
    check "$how: the tools ran $n times, want 2" [ "$n" -eq 2 ]
    check "$how: the same text" cmp -s "$tmp/cold" "$tmp/again"
    # (not the same bytes: the module names glslang's temporary file)
    compile "$tmp/again2"
    check "$how: the entry is whole again: the tools ran $n times, want 0" [ "$n" -eq 0 ]
    check "$how: the same text from the new entry" cmp -s "$tmp/cold" "$tmp/again2"
done

# 3. two runs at once into an empty cache
rm -rf "$tmp/cache"
"$U" glsl tests/glsl/lit.frag >"$tmp/p1" 2>&1 &
p1=$!
"$U" glsl tests/glsl/lit.frag >"$tmp/p2" 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
check "concurrent: exit $r1 $r2" [ "$r1" -eq 0 ] && [ "$r2" -eq 0 ]
check "concurrent: first text" cmp -s "$tmp/cold" "$tmp/p1"
check "concurrent: second text" cmp -s "$tmp/cold" "$tmp/p2"
check "concurrent: one entry" [ "$(entries)" -eq 1 ]
check "concurrent: no temporary file" [ -z "$(ls -A "$tmp/cache" | grep '^\.tmp')" ]

# 4. a new version of spirv-opt (the wrapper rewritten to say so)
compile "$tmp/warm2"
check "before the upgrade: the tools ran $n times, want 0" [ "$n" -eq 0 ]
wrap spirv-opt "SPIRV-Tools v2099.9 (a test's stand-in)"
compile "$tmp/upgraded"
check "new version: the tools ran $n times, want 2" [ "$n" -eq 2 ]
check "new version: the same text" cmp -s "$tmp/cold" "$tmp/upgraded"
check "new version: a second entry" [ "$(entries)" -eq 2 ]
compile "$tmp/upgraded2"
check "new version, warm: the tools ran $n times, want 0" [ "$n" -eq 0 ]

# 5. disabled: nothing read or written
rm -rf "$tmp/cache"
compile "$tmp/off" --no-cache
check "--no-cache, cold: the tools ran $n times, want 2" [ "$n" -eq 2 ]
check "--no-cache writes no entry" [ ! -d "$tmp/cache" ] || [ "$(entries)" -eq 0 ]
rm -f "$tmp/log"
USHADER_NO_CACHE=1 "$U" glsl tests/glsl/lit.frag >"$tmp/off2" 2>&1
n=$(runs)
check "USHADER_NO_CACHE=1: the tools ran $n times, want 2" [ "$n" -eq 2 ]
check "USHADER_NO_CACHE=1: the same text" cmp -s "$tmp/cold" "$tmp/off2"
check "USHADER_NO_CACHE=1 writes no entry" [ ! -d "$tmp/cache" ] || [ "$(entries)" -eq 0 ]

# 6. an error is not cached
printf '#version 330\nout vec4 c;\nvoid main() { c = undefined_name; }\n' >"$tmp/bad.frag"
for i in 1 2; do
    rm -f "$tmp/log"
    "$U" glsl "$tmp/bad.frag" >/dev/null 2>"$tmp/err$i"
    rc=$?
    n=$(runs)
    check "error, run $i: exit $rc, want 1" [ "$rc" -eq 1 ]
    check "error, run $i: glslang ran $n times, want 1" [ "$n" -eq 1 ]
done
check "error: the same message twice" cmp -s "$tmp/err1" "$tmp/err2"
check "error: a message" grep -q "^ushader: $tmp/bad.frag:3: error: " "$tmp/err1"
check "error: no entry" [ "$(entries)" -eq 0 ]

# 7. OpenCL C: the same cache for clang-14, opt-14 and llvm-spirv-14
if command -v clang-14 >/dev/null 2>&1; then
    real_clang=$(command -v clang-14)
    printf '#!/bin/sh\n[ "$1" = --version ] || echo clang >>"%s"\nexec %s "$@"\n' \
        "$tmp/log" "$real_clang" >"$tmp/bin/clang-14"
    chmod +x "$tmp/bin/clang-14"
    rm -rf "$tmp/cache"
    for how in cold warm --no-cache; do
        rm -f "$tmp/log"
        flag=
        [ "$how" = --no-cache ] && flag=--no-cache
        "$U" glsl $flag bench/compute/fir.cl >"$tmp/cl-$how" 2>&1
        n=$(runs)
        want=1
        [ "$how" = warm ] && want=0
        check "OpenCL C, $how: clang ran $n times, want $want" [ "$n" -eq "$want" ]
    done
    check "OpenCL C: warm text = cold text" cmp -s "$tmp/cl-cold" "$tmp/cl-warm"
    check "OpenCL C: --no-cache text = cold text" cmp -s "$tmp/cl-cold" "$tmp/cl---no-cache"
    check "OpenCL C: a program" grep -q '^!!USHADERcp' "$tmp/cl-cold"
else
    echo "note: no clang-14; the OpenCL C case skipped"
fi

# 8. the tools' environment
for t in unset glibc.malloc.check=0; do
    rm -f "$tmp/log"
    if [ $t = unset ]; then
        env -u GLIBC_TUNABLES "$U" glsl --no-cache tests/glsl/lit.frag >/dev/null 2>&1
        t=glibc.malloc.hugetlb=1
    else
        GLIBC_TUNABLES=$t "$U" glsl --no-cache tests/glsl/lit.frag >/dev/null 2>&1
    fi
    check "GLIBC_TUNABLES=$t: the tools saw $(sort -u "$tmp/log" | tr '\n' ' ')" \
        [ "$(sort -u "$tmp/log" | tr '\n' ' ')" = "glslangValidator $t spirv-opt $t " ]
done

# 9. the preload object, found beside the running ushader
obj=$(cd "$BUILD" && pwd -P)/ushader-huge-bss.so
check "$obj is built" [ -f "$obj" ]
saw() {   # saw EXPECTED COMMAND...: the tools' LD_PRELOAD, each run
    want=$1
    shift
    rm -f "$tmp/preload"
    "$@" glsl --no-cache tests/glsl/lit.frag >/dev/null 2>&1
    got=$(sort -u "$tmp/preload" | tr '\n' ' ')
    check "LD_PRELOAD: the tools saw '$got', not '$want'" \
        [ "$got" = "glslangValidator $want spirv-opt $want " ]
}
saw "$obj" env -u LD_PRELOAD "$U"
# (a sanitizer build of ushader is dynamically linked, and ASan refuses
# to start after a preloaded object unless told not to check)
saw "$BUILD/ushader-huge-bss.so:$obj" env LD_PRELOAD="$BUILD/ushader-huge-bss.so" \
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$U"
mkdir "$tmp/alone"
cp "$U" "$tmp/alone/ushader"
saw unset env -u LD_PRELOAD "$tmp/alone/ushader"

# 10. its effect on glslangValidator: the VMAs advised for huge pages of
# the real tool, started on a FIFO and read once it sleeps on its input
probe() {   # probe [VAR=VALUE...]
    rm -f "$tmp/fifo"
    mkfifo "$tmp/fifo"
    env -u GLIBC_TUNABLES -u LD_PRELOAD "$@" "$real_glslangValidator" \
        --stdin -S frag <"$tmp/fifo" >/dev/null 2>&1 &
    pid=$!
    exec 3>"$tmp/fifo"
    exe=$(readlink -f "$real_glslangValidator") i=0
    while [ $i -lt 1000 ]; do
        [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ] &&
            [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$pid/stat" 2>/dev/null)" = S ] &&
            break
        sleep 0.01
        i=$((i + 1))
    done
    grep -c '^VmFlags:.* hg' "/proc/$pid/smaps"
    exec 3>&-
    wait "$pid"
}
if [ -d /sys/kernel/mm/transparent_hugepage ]; then
    n=$(probe)
    check "glslangValidator alone: $n VMAs advised for huge pages, not 0" [ "$n" = 0 ]
    n=$(probe LD_PRELOAD="$obj")
    check "glslangValidator with the object: $n VMAs advised for huge pages, not 1" [ "$n" = 1 ]
else
    echo "note: the kernel has no transparent huge pages; check 10 skipped"
fi

echo "spv_cache: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
