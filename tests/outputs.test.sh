#!/bin/sh
# Where output goes and what an interrupted run leaves (issue 14):
#   1. -o OUT that is not a plain regular file, for each writer (render -o,
#      asm -o, glsl -o, sfu sweep --csv): a character device (a private
#      /dev/null made with mknod) and a FIFO with a reader are written
#      through and stay what they were; a symbolic link is followed (its
#      target written, the link kept); a directory, a block device and a
#      socket are refused and stay; names of 245, 246 and 255 bytes work.
#      OUT equal to an input file (the same inode under any name) is
#      refused and the input kept.
#   2. SIGINT / SIGTERM / SIGHUP during a write or while glslangValidator
#      or spirv-opt runs: exit status 128 + N, no OUT.tmpXXXXXX next to
#      OUT, no ushader-* file in a private TMPDIR, the tool gone.  The
#      write is held at rename(2) by a preloaded shim (built here), the
#      tools by stand-ins on PATH that sleep, and once the real
#      glslangValidator on the #define bomb.
#   3. Every subcommand of cli/commands.def with standard output on
#      /dev/full: exit 1 and "writing standard output: No space left on
#      device".
#   4. A 300-byte #define bomb fails on the tools' memory limit with a
#      message naming the user's file; peak RSS (GNU time: the largest of
#      ushader and the tools it waited for) under 1 GiB.  No message of the
#      GLSL driver names a temporary file.
#   5. JSON output (stats --json, render --stats) stays valid for a file
#      name with a newline, a tab, a quote, a backslash and a byte that is
#      not UTF-8 (python3 -m json.tool), and keeps the name.
# The mknod cases need root; without it they are reported as skipped.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
case $BUILD in
/*) U="$BUILD/ushader" ;;
*) U="$ROOT/$BUILD/ushader" ;;
esac
tmp=$(mktemp -d)
bgpids=""
cleanup() {
    for p in $bgpids; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
umask 022

pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() {
    echo "FAIL: $*"
    [ -s "$tmp/err" ] && sed -n 1,5p "$tmp/err"
    fail=$((fail + 1))
}
skipped() { echo "skip: $*"; skip=$((skip + 1)); }
# check WHAT CMD...: passes when CMD succeeds.
check() {
    ck_what=$1
    shift
    if "$@"; then ok; else bad "$ck_what"; fi
}
not() { ! "$@"; }
# Temporary files: OUT.tmpXXXXXX (cli/io.c), ushader-* (glsl/compile.c).
leftovers() { ls -A "$1" | grep -c -e '\.tmp' -e '^ushader-'; }
is_empty() { [ -z "$(ls -A "$1")" ]; }

SCN="$ROOT/bench/scenes/phong.scn"
FP="$ROOT/bench/programs/blur.fp"
printf '#version 330\nout vec4 c;\nuniform vec4 u;\nvoid main() { c = u * 2.0; }\n' \
    >"$tmp/ok.frag"

# `writer NAME OUT`: one writer with output OUT; it execs ushader, so a
# signal sent to the job reaches ushader itself.
# (UW: the program to run, ushader unless said; the rename shim below
# needs the one linked against the shared C library)
cat >"$tmp/writer.sh" <<EOF
U=\${UW:-$U}
case \$1 in
render) exec "\$U" render --exact-math --size 16x16 -o "\$2" "$SCN" ;;
asm) exec "\$U" asm -o "\$2" "$FP" ;;
glsl) exec "\$U" glsl -o "\$2" "$tmp/ok.frag" ;;
sfu) exec "\$U" sfu sweep --func rcp --k 6 --degree 2 --step 65536 \
         --jobs 1 --csv "\$2" >/dev/null ;;
esac
EOF
writer() { sh "$tmp/writer.sh" "$@"; }
WRITERS="render asm glsl sfu"
for w in $WRITERS; do
    writer $w "$tmp/ref.$w" 2>"$tmp/err" || bad "$w: reference output"
done

# ---- 1. special files as OUT ------------------------------------------------
is_root=false
[ "$(id -u)" = 0 ] && is_root=true
for w in $WRITERS; do
    d="$tmp/o-$w"
    mkdir "$d"

    # A private character device (the system's /dev/null is not touched).
    if $is_root && mknod "$d/null" c 1 3 2>/dev/null; then
        writer $w "$d/null" 2>"$tmp/err"
        rc=$?
        check "$w: -o char device: exit $rc" [ "$rc" -eq 0 ]
        check "$w: -o char device: no longer a character device" [ -c "$d/null" ]
        ln -s null "$d/null-link"
        writer $w "$d/null-link" 2>"$tmp/err"
        rc=$?
        check "$w: -o link to a char device: exit $rc" [ "$rc" -eq 0 ]
        check "$w: -o link to a char device: link replaced" [ -L "$d/null-link" ]
        check "$w: -o link to a char device: device replaced" [ -c "$d/null" ]
        # A block device is refused, and stays.
        mknod "$d/blk" b 7 200
        writer $w "$d/blk" 2>"$tmp/err"
        rc=$?
        check "$w: -o block device: exit $rc, want 1" [ "$rc" -eq 1 ]
        check "$w: -o block device: message" \
            grep -q "error: cannot write: is a block device" "$tmp/err"
        check "$w: -o block device: replaced" [ -b "$d/blk" ]
    else
        skipped "$w: character and block device cases need root (mknod)"
    fi

    # A FIFO with a reader gets the bytes and stays a FIFO.
    mkfifo "$d/fifo"
    timeout 20 cat "$d/fifo" >"$d/fifo.out" &
    reader=$!
    bgpids="$bgpids $reader"
    writer $w "$d/fifo" 2>"$tmp/err"
    rc=$?
    # Replaced, the FIFO would keep its reader waiting: end it.
    [ -p "$d/fifo" ] || kill "$reader" 2>/dev/null
    wait "$reader"
    check "$w: -o FIFO: exit $rc" [ "$rc" -eq 0 ]
    check "$w: -o FIFO: no longer a FIFO" [ -p "$d/fifo" ]
    check "$w: -o FIFO: the reader did not get the output" \
        cmp -s "$d/fifo.out" "$tmp/ref.$w"

    # Symbolic links: the target is written, the link stays.  A dangling
    # one, a chain, a relative one from another directory.
    ln -s target "$d/link"
    writer $w "$d/link" 2>"$tmp/err"
    rc=$?
    check "$w: -o dangling link: exit $rc" [ "$rc" -eq 0 ]
    check "$w: -o dangling link: link replaced" [ -L "$d/link" ]
    check "$w: -o dangling link: target not written" cmp -s "$d/target" "$tmp/ref.$w"
    ln -s link "$d/link2"
    mkdir "$d/sub"
    ln -s ../target "$d/sub/rel"
    for l in link2 sub/rel; do
        printf old >"$d/target"
        writer $w "$d/$l" 2>"$tmp/err"
        rc=$?
        check "$w: -o link $l: exit $rc" [ "$rc" -eq 0 ]
        check "$w: -o link $l: link replaced" [ -L "$d/$l" ]
        check "$w: -o link $l: target not written" cmp -s "$d/target" "$tmp/ref.$w"
    done

    # A directory and a socket are refused and stay.
    mkdir "$d/dir"
    writer $w "$d/dir" 2>"$tmp/err"
    rc=$?
    check "$w: -o directory: exit $rc, want 1" [ "$rc" -eq 1 ]
    check "$w: -o directory: message" \
        grep -q "error: cannot write: is a directory" "$tmp/err"
    check "$w: -o directory: changed" is_empty "$d/dir"
    if python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
        "$d/sock" 2>/dev/null; then
        writer $w "$d/sock" 2>"$tmp/err"
        rc=$?
        check "$w: -o socket: exit $rc, want 1" [ "$rc" -eq 1 ]
        check "$w: -o socket: message" \
            grep -q "error: cannot write: is a socket" "$tmp/err"
        check "$w: -o socket: replaced" [ -S "$d/sock" ]
    else
        skipped "$w: no python3 to make a socket"
    fi

    # Long names: NAME.tmpXXXXXX would pass NAME_MAX from 246 bytes on.
    for n in 245 246 255; do
        name=$(printf "%${n}s" "" | tr ' ' n)
        writer $w "$d/$name" 2>"$tmp/err"
        rc=$?
        check "$w: -o a $n-byte name: exit $rc" [ "$rc" -eq 0 ]
        check "$w: -o a $n-byte name: output" cmp -s "$d/$name" "$tmp/ref.$w"
    done
    check "$w: temporary files left: $(ls -A "$d" | grep '\.tmp')" \
        [ "$(leftovers "$d")" -eq 0 ]
done

# /dev/stdout on a pipe and on a regular file, through a private link of
# the same kind: run as root, a binary with the old behaviour replaced the
# system's /dev/stdout by a PNG.
ln -s /proc/self/fd/1 "$tmp/stdout"
"$U" render --exact-math --size 16x16 -o "$tmp/stdout" "$SCN" 2>"$tmp/err" |
    cat >"$tmp/viapipe"
check "render -o STDOUT-LINK into a pipe" cmp -s "$tmp/viapipe" "$tmp/ref.render"
"$U" render --exact-math --size 16x16 -o "$tmp/stdout" "$SCN" \
    >"$tmp/viafile" 2>"$tmp/err"
check "render -o STDOUT-LINK into a file" cmp -s "$tmp/viafile" "$tmp/ref.render"
check "render -o STDOUT-LINK: link replaced" [ -L "$tmp/stdout" ]

# OUT is an input: refused, the input unchanged, whatever the name.
d="$tmp/same"
mkdir "$d"
cp "$FP" "$d/p.fp"
cp "$SCN" "$d/s.scn"
cp "$tmp/ok.frag" "$d/x.frag"
ln "$d/p.fp" "$d/hard.fp"
ln -s p.fp "$d/sym.fp"
# same_refused WHAT INPUT CMD...
same_refused() {
    what=$1 input=$2
    shift 2
    cp "$input" "$tmp/before"
    "$@" >/dev/null 2>"$tmp/err" </dev/null
    rc=$?
    check "$what: exit $rc, want 1" [ "$rc" -eq 1 ]
    check "$what: message" grep -q "error: is also the input" "$tmp/err"
    check "$what: the input changed" cmp -s "$input" "$tmp/before"
}
same_refused "asm -o p.fp p.fp" "$d/p.fp" "$U" asm -o "$d/p.fp" "$d/p.fp"
same_refused "asm -o HARDLINK p.fp" "$d/p.fp" "$U" asm -o "$d/hard.fp" "$d/p.fp"
same_refused "asm -o SYMLINK p.fp" "$d/p.fp" "$U" asm -o "$d/sym.fp" "$d/p.fp"
same_refused "asm -o p.fp - <p.fp" "$d/p.fp" \
    sh -c '"$1" asm -o "$2" - <"$2"' sh "$U" "$d/p.fp"
same_refused "render -o s.scn s.scn" "$d/s.scn" "$U" render -o "$d/s.scn" "$d/s.scn"
same_refused "glsl -o x.frag x.frag" "$d/x.frag" "$U" glsl -o "$d/x.frag" "$d/x.frag"
cp "$ROOT/configs/default.ini" "$d/results.csv"
same_refused "bench --config DIR/results.csv --out DIR" "$d/results.csv" \
    "$U" bench --only blur --threads 8 --arch scalar --no-plots \
    --config "$d/results.csv" --out "$d"
same_refused "sweep --config DIR/results.csv --out DIR" "$d/results.csv" \
    "$U" sweep --set lut_banks=1,2 --only blur --threads 8 --arch scalar \
    --no-plots --config "$d/results.csv" --out "$d"
"$U" asm -o "$d/p.bin" "$d/p.fp" 2>"$tmp/err"
check "asm -o another file: exit $?" [ $? -eq 0 ]

# ---- 2. signals ---------------------------------------------------------------
# A shim whose rename(2) announces itself and waits: the write is then
# held with its temporary file complete until the signal comes.
cat >"$tmp/stall.c" <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
int rename(const char *from, const char *to)
{
    (void)from;
    (void)to;
    const char *mark = getenv("STALL_MARK");
    if (mark)
        close(open(mark, O_CREAT | O_WRONLY, 0644));
    for (;;)
        pause();
}
EOF
have_shim=false
if ${CC:-cc} -shared -fPIC -o "$tmp/stall.so" "$tmp/stall.c" 2>"$tmp/err"; then
    have_shim=true
else
    bad "cannot build the rename shim"
fi
# The sanitizer runtime wants to come first; the shim does not care.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
# A background job of a script starts with SIGINT ignored, and under
# nohup SIGHUP is (ushader leaves an ignored signal ignored); env puts
# the defaults back.
reset_int=""
env --default-signal=INT,TERM,HUP true 2>/dev/null &&
    reset_int="--default-signal=INT,TERM,HUP"

# wait_for FILE: up to 20 s.
wait_for() {
    i=0
    while [ ! -e "$1" ] && [ $i -lt 200 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -e "$1" ]
}
alive() { kill -0 "$1" 2>/dev/null; }

# interrupt SIG N WHAT DIR CMD...: start CMD, wait for $mark, send SIG;
# want exit status 128 + N and no temporary file in DIR.
interrupt() {
    sig=$1 num=$2 what=$3 dir=$4
    shift 4
    if [ "$sig" = INT ] && [ -z "$reset_int" ]; then
        bad "$what: no env --default-signal, so the SIGINT case cannot run"
        return
    fi
    rm -f "$mark"
    env $reset_int "$@" >/dev/null 2>"$tmp/err" &
    pid=$!
    bgpids="$bgpids $pid"
    if ! wait_for "$mark"; then
        bad "$what: never reached the point to interrupt"
        kill -9 "$pid" 2>/dev/null
        wait "$pid"
        return
    fi
    kill -s "$sig" "$pid"
    # a process the signal does not end is killed 20 s later: exit 137,
    # a failure rather than a hang (the watchdog's sleep, orphaned, holds
    # no output open)
    ( sleep 20; kill -9 "$pid" 2>/dev/null ) >/dev/null 2>&1 &
    dog=$!
    wait "$pid" 2>/dev/null
    rc=$?
    kill "$dog" 2>/dev/null
    check "$what: SIG$sig: exit $rc, want $((128 + num))" \
        [ "$rc" -eq $((128 + num)) ]
    check "$what: SIG$sig: left $(ls -A "$dir" | grep -e '\.tmp' -e '^ushader-' | head -3)" \
        [ "$(leftovers "$dir")" -eq 0 ]
}

mark="$tmp/mark"
if $have_shim; then
    for w in $WRITERS; do
        d="$tmp/sig-$w"
        mkdir "$d"
        for s in "INT 2" "TERM 15" "HUP 1"; do
            set -- $s
            interrupt $1 $2 "$w -o, held at rename" "$d" \
                LD_PRELOAD="$tmp/stall.so" STALL_MARK="$mark" \
                UW="$U-shared" sh "$tmp/writer.sh" $w "$d/out"
            check "$w: SIG$1 at rename: an output appeared" [ ! -e "$d/out" ]
        done
    done
fi

# Stand-ins for the tools: record their pid, then sleep (exec: the same
# process).  The other tool is the real one.
mkdir "$tmp/bin" "$tmp/tmpdir"
for t in glslangValidator spirv-opt; do
    printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 300\n' "$mark" >"$tmp/bin/$t"
    chmod +x "$tmp/bin/$t"
done
for t in glslangValidator spirv-opt; do
    mkdir "$tmp/only-$t"
    cp "$tmp/bin/$t" "$tmp/only-$t/"
    for s in "INT 2" "TERM 15"; do
        set -- $s
        interrupt $1 $2 "glsl while $t runs" "$tmp/tmpdir" \
            PATH="$tmp/only-$t:$PATH" TMPDIR="$tmp/tmpdir" \
            "$U" glsl "$tmp/ok.frag"
        tool=$(cat "$mark" 2>/dev/null)
        if [ -n "$tool" ] && alive "$tool"; then
            bad "glsl, SIG$1 while $t runs: $t (pid $tool) still runs"
            kill -9 "$tool"
        else
            ok
        fi
    done
done

# The real glslangValidator, busy on a #define bomb: each macro is ten of
# the one before, H is 2 * 10^7 tokens (300 bytes of source).
BOMB="$tmp/define-bomb.frag"
{
    printf '#version 330\n#define A +1+1+1+1+1+1+1+1+1+1\n'
    prev=A
    for m in B C D E F G H; do
        printf '#define %s %s %s %s %s %s %s %s %s %s %s\n' $m \
            $prev $prev $prev $prev $prev $prev $prev $prev $prev $prev
        prev=$m
    done
    printf 'out vec4 c;\nvoid main() { c = vec4(0 H); }\n'
} >"$BOMB"
TMPDIR="$tmp/tmpdir" "$U" glsl "$BOMB" >/dev/null 2>"$tmp/err" &
pid=$!
bgpids="$bgpids $pid"
i=0 child=""
while [ -z "$child" ] && [ $i -lt 200 ]; do
    child=$(ps -o pid= --ppid "$pid" 2>/dev/null | tr -d ' ')
    [ -n "$child" ] || sleep 0.05
    i=$((i + 1))
done
if [ -z "$child" ]; then
    bad "glsl bomb: glslangValidator never started"
else
    bgpids="$bgpids $child"
    sleep 0.3   # it has written nothing yet: the bomb takes seconds
    kill -TERM "$pid"
    wait "$pid" 2>/dev/null
    rc=$?
    check "glsl bomb, SIGTERM: exit $rc, want 143" [ "$rc" -eq 143 ]
    check "glsl bomb, SIGTERM: left $(ls -A "$tmp/tmpdir" | head -3)" \
        [ "$(leftovers "$tmp/tmpdir")" -eq 0 ]
    if alive "$child"; then
        bad "glsl bomb, SIGTERM: glslangValidator (pid $child) still runs"
        kill -9 "$child"
    else
        ok
    fi
fi

# ---- 3. standard output on /dev/full ------------------------------------------
"$U" asm -o "$tmp/p.bin" "$FP" 2>"$tmp/err" || bad "asm -o for dis"
writer render "$tmp/a.png" 2>"$tmp/err" || bad "render for imgdiff"
printf '\0\0\200\77\0\0\0\100' >"$tmp/two.f32"
"$U" run --arch scalar,simd4 --json "$FP" >"$tmp/r.json" 2>"$tmp/err" || bad "run --json for compare"
# full_cases CMD: command lines (one per line) that write to stdout.
full_cases() {
    case $1 in
    asm) echo "asm -S $FP"; echo "asm --target scalar -S $FP" ;;
    run) echo "run $FP"; echo "run --arch scalar $FP"; echo "run --arch all $FP" ;;
    render) echo "render --hash $SCN"; echo "render --stats --size 16x16 $SCN" ;;
    sfu) echo "sfu layout"
         echo "sfu check --func rcp --range 3f800000:3f800100 --jobs 1"
         echo "sfu sweep --func rcp --k 6 --degree 2 --step 65536 --jobs 1"
         echo "sfu eval --func rcp <$tmp/two.f32" ;;
    dis) echo "dis $tmp/p.bin" ;;
    stats) echo "stats $FP"; echo "stats --json $FP" ;;
    glsl) echo "glsl $tmp/ok.frag" ;;
    piglit) echo "piglit $ROOT/tests/shtest/tex_depth.shader_test" ;;
    config) echo "config --list"; echo "config" ;;
    bench) echo "bench --only blur --threads 8 --arch scalar" ;;
    compare) echo "compare $tmp/r.json $tmp/r.json"
             echo "compare --json $tmp/r.json $tmp/r.json" ;;
    sweep) echo "sweep --set lut_banks=1,2 --only blur --threads 8 --arch scalar" ;;
    compute) echo "compute $ROOT/tests/compute/sum.cp --groups 2"
             echo "compute --json $ROOT/tests/compute/sum.cp --groups 2" ;;
    imgdiff) echo "imgdiff $tmp/a.png $tmp/a.png"
             echo "imgdiff --json $tmp/a.png $tmp/a.png" ;;
    esac
}
for c in $(sed -n 's/^CMD(\([a-z0-9_]*\),.*/\1/p' cli/commands.def); do
    cases=$(full_cases "$c")
    if [ -z "$cases" ]; then
        bad "no /dev/full case for command '$c' (add one to full_cases)"
        continue
    fi
    (echo "$cases"; echo "$c --help") | while read -r line; do
        if ! sh -c "\"$U\" $line" >/dev/null 2>"$tmp/err"; then
            echo "FAIL: ushader $line: fails with stdout on /dev/null"
            continue
        fi
        sh -c "\"$U\" $line" >/dev/full 2>"$tmp/err"
        rc=$?
        if [ "$rc" -ne 1 ]; then
            echo "FAIL: ushader $line >/dev/full: exit $rc, want 1"
        elif ! grep -q "^ushader: error: writing standard output: No space left on device$" "$tmp/err"; then
            echo "FAIL: ushader $line >/dev/full: message"
            sed -n 1,3p "$tmp/err"
        else
            echo "PASS"
        fi
    done
done >"$tmp/full.log"
n=$(grep -c '^PASS' "$tmp/full.log")
pass=$((pass + n))
n=$(grep -c '^FAIL' "$tmp/full.log")
fail=$((fail + n))
grep -v '^PASS' "$tmp/full.log"
"$U" --help >/dev/full 2>"$tmp/err"
check "ushader --help >/dev/full: exit $?" [ $? -eq 1 ]
"$U" stats "$FP" >&- 2>"$tmp/err"
check "stats >&-: exit $?, want 1" [ $? -eq 1 ]
"$U" asm "$FP" >&- 2>"$tmp/err"
check "asm (no output) >&-: exit $?, want 0" [ $? -eq 0 ]

# ---- 4. the #define bomb and the GLSL driver's messages ------------------------
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%e %M' -o "$tmp/time" env TMPDIR="$tmp/tmpdir" \
        "$U" glsl "$BOMB" >/dev/null 2>"$tmp/err"
    rc=$?
    read -r secs kb <<EOF
$(tail -n 1 "$tmp/time")
EOF
    echo "note: define bomb: exit $rc in $secs s, peak RSS $kb kB"
    check "define bomb: exit $rc, want 1" [ "$rc" -eq 1 ]
    check "define bomb: message" grep -q \
        "^ushader: $BOMB: error: glslangValidator ran out of memory" "$tmp/err"
    check "define bomb: peak RSS $kb kB, want under 1 GiB" [ "$kb" -lt 1048576 ]
    check "define bomb: left $(ls -A "$tmp/tmpdir" | head -3)" is_empty "$tmp/tmpdir"
else
    bad "no /usr/bin/time (Debian: time) to measure the define bomb"
fi

# Stand-ins that fail and print the temporary file's name, the way the
# real tools do; the message must name the user's file only.
# glsl_msg WHAT SCRIPT TOOL
glsl_msg() {
    what=$1
    rm -rf "$tmp/fake"
    mkdir "$tmp/fake"
    printf '#!/bin/sh\n%s\n' "$2" >"$tmp/fake/$3"
    chmod +x "$tmp/fake/$3"
    PATH="$tmp/fake:$PATH" TMPDIR="$tmp/tmpdir" "$U" glsl "$tmp/ok.frag" \
        >/dev/null 2>"$tmp/err"
    rc=$?
    check "glsl, $what: exit $rc, want 1" [ "$rc" -eq 1 ]
    check "glsl, $what: message does not name $tmp/ok.frag" \
        grep -q "^ushader: $tmp/ok.frag[:0-9]*: error: " "$tmp/err"
    check "glsl, $what: message names a temporary file" \
        not grep -q -e "ushader-src" -e "ushader-spv" -e "ushader-opt" "$tmp/err"
    check "glsl, $what: left $(ls -A "$tmp/tmpdir" | head -3)" is_empty "$tmp/tmpdir"
}
# glslangValidator ARGS: -G --aml --amb -S frag -o SPV SRC
glsl_msg "glslang echoes its input and fails" 'echo "$8"; echo "cannot parse $8"; exit 2' glslangValidator
glsl_msg "glslang names its input in an ERROR" 'echo "$8"; echo "ERROR: 0:3: $8 is bad"; exit 2' glslangValidator
glsl_msg "glslang writes no module" 'exit 0' glslangValidator
glsl_msg "glslang is killed" 'kill -SEGV $$' glslangValidator
# spirv-opt ARGS: -O --merge-return --skip-validation SPV -o OUT
glsl_msg "spirv-opt names its input" 'echo "error: $4: invalid module" >&2; exit 1' spirv-opt
glsl_msg "spirv-opt writes no module" 'exit 0' spirv-opt

# ---- 5. JSON strings -----------------------------------------------------------
name=$(printf 'we"ird\\ na\tme\nx\001\377.fp')
jd="$tmp/json"
mkdir "$jd"
cp "$FP" "$jd/$name"
cp "$SCN" "$jd/$name.scn"
cp "$ROOT/bench/scenes/eyespace.vp" "$ROOT/bench/scenes/phong.fp" "$ROOT/bench/scenes/blinn.fp" "$jd/"
json_ok() { # WHAT FILE
    if python3 -m json.tool "$2" >/dev/null 2>"$tmp/err"; then ok; else
        bad "$1: invalid JSON"; fi
}
if command -v python3 >/dev/null; then
    (cd "$jd" && "$U" stats --json "$name") >"$tmp/stats.json" 2>"$tmp/err"
    json_ok "stats --json" "$tmp/stats.json"
    check "stats --json: the name is not kept" python3 -c '
import json, sys
f = json.load(open(sys.argv[1], encoding="utf-8"))["files"][0]["file"]
want = sys.argv[2].encode("utf-8", "surrogateescape").replace(b"\xff", b"\xef\xbf\xbd")
sys.exit(f.encode("utf-8") != want)' "$tmp/stats.json" "$name"
    (cd "$jd" && "$U" render --stats --size 16x16 "$name.scn") >"$tmp/render.json" \
        2>"$tmp/err"
    json_ok "render --stats" "$tmp/render.json"
    check "render --stats: the name is not kept" python3 -c '
import json, sys
f = json.load(open(sys.argv[1], encoding="utf-8"))["scene"]
want = sys.argv[2].encode("utf-8", "surrogateescape").replace(b"\xff", b"\xef\xbf\xbd")
sys.exit(f.encode("utf-8") != want)' "$tmp/render.json" "$name.scn"
else
    bad "no python3 to check the JSON output"
fi

echo "outputs: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
