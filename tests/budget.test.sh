#!/bin/sh
# Hardening (issue 14): the memory budget, a linear OBJ loader, paths of
# any length, special files and denormal literals.
#
# A. One memory budget per run (GFX_MEM_BUDGET_MIB, gfx/gfx.h): `run
#    --inputs` keeps the 65536-thread cap of --threads; piglit textures
#    and framebuffers, scene textures, meshes and framebuffers are charged
#    before they are allocated.  The clear error is asserted, and with
#    /usr/bin/time (package `time`) the peak RSS stays below the budget
#    plus 64 MiB (before the fix the three reproducers peaked at 1.4 GB,
#    1.38 GB and 1.2 GB).
# B. The OBJ loader's (v, vt, vn) deduplication is linear: a file crafted
#    against the multiplicative hash it used before (every corner in one
#    probe sequence) loads within 5x + 1 s of a normal file of the same
#    size and shape, both timed in this run.
# C. Paths are never truncated: programs named through more than 1023
#    bytes, scenes in directories deeper than 1024 bytes, and messages that
#    keep the reason when the path is long.
# D. FIFOs and other non-regular files are refused (never block),
#    directories say "is a directory", denormal scene literals are
#    accepted.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
U="$ROOT/$BUILD/ushader"
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    echo "FAIL: $*"
    sed -n 1,6p "$tmp/err"
    fail=$((fail + 1))
}

# Peak RSS with /usr/bin/time, except under sanitizers (shadow memory and
# ASan's quarantine of freed blocks are not the program's).
TIME=/usr/bin/time
[ -x "$TIME" ] || { TIME=""; echo "note: no /usr/bin/time, peak RSS not checked"; }
case "${SANITIZE:-}:$BUILD" in
?*:* | *:*san*) TIME=""; echo "note: sanitizer build, peak RSS not checked" ;;
esac

budget=$(sed -n 's/.*GFX_MEM_BUDGET_MIB = \([0-9]*\).*/\1/p' gfx/gfx.h)
[ -n "$budget" ] || { echo "FAIL: GFX_MEM_BUDGET_MIB not found in gfx/gfx.h"; budget=1024; fail=$((fail + 1)); }
max_kb=$(( (budget + 64) * 1024 ))

# run_cmd CMD...: run with stdin closed, a time limit of $limit seconds (a
# blocked read fails instead of hanging the suite) and, when possible, the
# peak RSS in $tmp/rss; sets rc.
limit=60
run_cmd() {
    rm -f "$tmp/rss"
    if [ -n "$TIME" ]; then
        "$TIME" -f %M -o "$tmp/rss" timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    else
        timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    fi
    rc=$?
}

# rss_ok WHAT: the last run peaked below the budget + 64 MiB.
rss_ok() {
    [ -n "$TIME" ] || return 0
    kb=$(tail -n 1 "$tmp/rss" 2>/dev/null)
    case $kb in
    '' | *[!0-9]*) bad "$1: no peak RSS measured" ; return 1 ;;
    esac
    if [ "$kb" -gt "$max_kb" ]; then
        bad "$1: peak RSS $kb KB, over the budget's $max_kb KB"
        return 1
    fi
    echo "  $1: peak RSS $kb KB"
}

# clean_error WHAT WANT CMD...: exit 1 or 2, "error:" and WANT on stderr,
# no sanitizer report.
clean_error() {
    what=$1 want=$2
    shift 2
    run_cmd "$@"
    if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
        bad "$what: exit $rc, want 1 or 2"
    elif ! grep -q "error:" "$tmp/err"; then
        bad "$what: no 'error:' on stderr"
    elif grep -qE "Sanitizer|runtime error" "$tmp/err"; then
        bad "$what: sanitizer report"
    elif [ -n "$want" ] && ! grep -qF -- "$want" "$tmp/err"; then
        bad "$what: stderr lacks '$want'"
    else
        return 0
    fi
    return 1
}
error_rss() {
    what=$1
    clean_error "$@" && rss_ok "$what" && ok
}
error_ok() { clean_error "$@" && ok; }

# accepted WHAT CMD...: exit 0, no sanitizer report.
accepted() {
    what=$1
    shift
    run_cmd "$@"
    if [ "$rc" -ne 0 ] || grep -qE "Sanitizer|runtime error" "$tmp/err"; then
        bad "$what: exit $rc, want 0"
    else
        ok
    fi
}

SC="$ROOT/bench/scenes"
draw_tail="mesh m cube 1
program v $SC/sky.vp
program f $SC/sky.fp
vp v
fp f
draw m"
scn() { printf '%s\n' "$2" >"$tmp/$1.scn"; }

# ---- A. The memory budget ---------------------------------------------
P=tests/run/arith.fp
yes 'fragment.texcoord[0]=0.5,1,2,3' | head -n 100000 >"$tmp/in100k.txt"
error_rss "run --inputs of 100000 lines" "100000 input lines, more than the 65536" \
    "$U" run "$P" --arch scalar --inputs "$tmp/in100k.txt"
head -n 65537 "$tmp/in100k.txt" >"$tmp/in65537.txt"
error_ok "run --inputs of 65537 lines" "more than the 65536 threads" \
    "$U" run "$P" --arch scalar --inputs "$tmp/in65537.txt"
accepted "run --inputs of 100000 lines with --threads 8" \
    "$U" run "$P" --arch scalar --threads 8 --inputs "$tmp/in100k.txt"
grep -q "(4 more threads)" "$tmp/out" && ok || bad "--threads 8 --inputs: want 8 threads"

if "$U" piglit --help >/dev/null 2>&1; then
    error_rss "piglit: 4096 x 4096 window and 16 textures of 2048 x 2048" "memory budget" \
        "$U" piglit tests/robust/piglit-texture-budget.shader_test
    grep -q "piglit-texture-budget.shader_test:.*texture" "$tmp/err" ||
        bad "piglit budget error does not point at a texture command"
    # A texture made again on the same unit replaces the old one: its
    # memory is given back, so 24 of them fit.
    { printf '[require]\nGL >= 1.3\nARB_fragment_program\n\n[fragment program]\n'
      printf '!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[0], 2D;\nEND\n\n[test]\n'
      i=0; while [ $i -lt 24 ]; do printf 'texture rgbw 0 (2048, 2048)\n'; i=$((i + 1)); done
      printf 'draw rect tex -1 -1 2 2 0 0 1 1\nprobe rgba 0 0 1 0 0 1\n'; } >"$tmp/reuse.shader_test"
    accepted "piglit: 24 textures made on one unit" "$U" piglit "$tmp/reuse.shader_test"
fi

error_rss "scene: four 2048 sky cube maps" "memory budget" \
    "$U" render --hash tests/robust/scene-cube-budget.scn
grep -q "scene-cube-budget.scn:5:" "$tmp/err" ||
    bad "cube budget error not at the third cube map (line 5)"
# The framebuffer counts too: two cube maps fit, their render at 4096 x 4096
# does not.
scn fb "texture c0 cube proc sky 2048
texture c1 cube proc sky 2048
$draw_tail"
error_rss "scene: 768 MiB of textures rendered at 4096 x 4096" "memory budget" \
    "$U" render --hash --size 4096x4096 "$tmp/fb.scn"
accepted "scene: 768 MiB of textures rendered at 16 x 16" \
    "$U" render --hash --size 16x16 "$tmp/fb.scn"
# Mipmaps are part of a texture's declaration: 13 trilinear 2048 textures
# are 1109 MiB with their mipmaps, 13 nearest ones 832 MiB.
lines13() { i=0; while [ $i -lt 13 ]; do printf "$1\n" $i; i=$((i + 1)); done; }
scn mip "$(lines13 'texture t%d 2d proc checker 2048 filter trilinear')
$draw_tail"
error_rss "scene: 13 trilinear 2048 textures" "memory budget" \
    "$U" render --hash --size 8x8 "$tmp/mip.scn"
scn nomip "$(lines13 'texture t%d 2d proc checker 2048 filter nearest')
$draw_tail"
accepted "scene: 13 nearest 2048 textures" "$U" render --hash --size 8x8 "$tmp/nomip.scn"

# ---- B. A linear OBJ loader -------------------------------------------
# The generator writes D corners (D / 3 faces) over D positions and H
# texture coordinates, H the table size the old loader chose (the power of
# two >= 2 D + 2).  "adversarial" pairs position v with the texture
# coordinate t that sends (v, t) to slot 0 of the old hash
#   h = v * 2654435761 ^ t * 40503 ^ n * 97 (n = -1 without normals),
# so every corner is distinct and probes past all the previous ones;
# "normal" pairs v with t = v.  Both files have the same lines.
CC=${CC:-cc}
cat >"$tmp/gen.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int adv = !strcmp(argv[1], "adversarial");
    uint32_t d = (uint32_t)atol(argv[2]) / 3 * 3, h = 1;
    while (h < 2 * d + 2)
        h *= 2;
    uint32_t binv = 40503u;            /* inverse of 40503 mod 2^32 */
    for (int i = 0; i < 5; i++)
        binv *= 2u - 40503u * binv;
    uint32_t c = (uint32_t)-1 * 97u;
    for (uint32_t v = 0; v < d; v++)
        printf("v %u 0 0\n", v % 7);
    for (uint32_t t = 0; t < h; t++)
        printf("vt %u\n", t % 5);
    for (uint32_t v = 0; v < d; v++) {
        uint32_t t = adv ? ((c ^ v * 2654435761u) * binv) & (h - 1) : v;
        printf("%s%u/%u%s", v % 3 ? " " : "f ", v + 1, t + 1,
               v % 3 == 2 ? "\n" : "");
    }
    return 0;
}
EOF
now() { date +%s.%N; }
if "$CC" -O2 -o "$tmp/gen" "$tmp/gen.c" 2>"$tmp/err"; then
    D=90000
    for kind in normal adversarial; do
        "$tmp/gen" $kind $D >"$tmp/$kind.obj"
        printf 'mesh o obj %s\n%s\ndraw o\n' "$tmp/$kind.obj" "$draw_tail" >"$tmp/$kind.scn"
    done
    sz_n=$(wc -c <"$tmp/normal.obj") sz_a=$(wc -c <"$tmp/adversarial.obj")
    t0=$(now)
    accepted "normal OBJ ($sz_n bytes)" "$U" render --hash --size 8x8 "$tmp/normal.scn"
    t1=$(now)
    accepted "adversarial OBJ ($sz_a bytes)" "$U" render --hash --size 8x8 "$tmp/adversarial.scn"
    t2=$(now)
    tn=$(echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }')
    ta=$(echo "$t1 $t2" | awk '{ printf "%.3f", $2 - $1 }')
    echo "  OBJ load + render: normal $tn s, adversarial $ta s"
    if echo "$tn $ta" | awk '{ exit !($2 < 5 * $1 + 1) }'; then ok
    else bad "adversarial OBJ took $ta s, normal $tn s (want < 5x + 1 s)"; fi
else
    bad "cannot compile the OBJ generator with $CC"
fi

# ---- C. Paths of any length -------------------------------------------
# pad_to N DIR: DIR, then "./" components and a "/" to N - 9 bytes
# ("phong.fp" and its slash follow).
pad_to() {
    p=$2
    while [ ${#p} -lt $(($1 - 11)) ]; do p="$p/."; done
    while [ ${#p} -lt $(($1 - 9)) ]; do p="$p/"; done
    printf '%s' "$p"
}
PD="$tmp/pp"
mkdir -p "$PD/x"
cp bench/programs/phong.fp "$PD/"
long=$(pad_to 1023 "$PD")/phong.fp
[ ${#long} -eq 1023 ] || bad "pad_to made ${#long} bytes, want 1023"
scn lp "program p ${long}ZZZZ
$draw_tail"
error_ok "program through a 1027-byte path that does not exist" "No such file or directory" \
    "$U" render --hash --size 8x8 "$tmp/lp.scn"
grep -q "error: \.\.\..*phong\.fpZZZZ: cannot open: No such file or directory$" "$tmp/err" ||
    bad "long path message: want '...TAIL: cannot open: reason'"
long=$(pad_to 1500 "$PD")/phong.fp
scn lp "program p $long
$draw_tail"
accepted "program through a ${#long}-byte path of ./ components" \
    "$U" render --hash --size 8x8 "$tmp/lp.scn"
xp="$PD"
while [ ${#xp} -lt 1300 ]; do xp="$xp/x/.."; done
scn lp "program p $xp/phong.fp
$draw_tail"
accepted "program through a ${#xp}-byte path of x/../ components" \
    "$U" render --hash --size 8x8 "$tmp/lp.scn"

# A scene in a directory nested deeper than 1024 bytes names its files
# relative to that directory.
seg=$(printf '%0200d' 0)
deep="$tmp/$seg/$seg/$seg/$seg/$seg/$seg"
mkdir -p "$deep"
cp "$SC/sky.vp" "$SC/sky.fp" "$deep/"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$deep/tri.obj"
printf 'mesh m obj tri.obj\nprogram v sky.vp\nprogram f sky.fp\nvp v\nfp f\ndraw m\n' >"$deep/s.scn"
accepted "scene in a ${#deep}-byte directory with relative names" \
    "$U" render --hash --size 8x8 "$deep/s.scn"
# Errors inside a file with a long name keep the whole reason.
printf 'v 0 0 0\nv 1 0 zz\n' >"$deep/bad.obj"
printf 'mesh m obj bad.obj\n' >"$deep/bad.scn"
error_ok "OBJ error in a deep directory" "bad.obj:2:7: expected a number" \
    "$U" render --hash "$deep/bad.scn"
grep -q "expected a number$" "$tmp/err" || bad "deep OBJ message cut before its end"
printf 'texture t 2d png bad.png\n' >"$deep/png.scn"
printf 'not a png' >"$deep/bad.png"
error_ok "PNG error in a deep directory" "bad.png: not a PNG file" \
    "$U" render --hash "$deep/png.scn"
printf 'program p missing.vp\n' >"$deep/miss.scn"
error_ok "missing program in a deep directory" "missing.vp: cannot open: No such file or directory" \
    "$U" render --hash "$deep/miss.scn"

# ---- D. Special files and denormals -----------------------------------
limit=10
if mkfifo "$tmp/fifo" 2>/dev/null; then
    for d in "program p $tmp/fifo" "mesh m obj $tmp/fifo" "mesh m 3ds $tmp/fifo" \
             "texture t 2d png $tmp/fifo"; do
        scn ff "$d"
        error_ok "scene: $d" "not a regular file" "$U" render --hash "$tmp/ff.scn"
    done
    error_ok "asm of a FIFO" "not a regular file" "$U" asm "$tmp/fifo"
    error_ok "render of a FIFO scene" "not a regular file" "$U" render --hash "$tmp/fifo"
    error_ok "run --inputs FIFO" "not a regular file" \
        "$U" run "$P" --arch scalar --inputs "$tmp/fifo"
else
    bad "cannot make a FIFO"
fi
error_ok "asm of /dev/null" "not a regular file" "$U" asm /dev/null
printf '!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n' | {
    "$U" asm - >"$tmp/out" 2>"$tmp/err" && ok || bad "asm - (stdin) refused"; }
for d in "program p $tmp" "mesh m obj $tmp" "texture t 2d png $tmp"; do
    scn dd "$d"
    error_ok "scene: $d (a directory)" "$tmp: is a directory" "$U" render --hash "$tmp/dd.scn"
done
error_ok "asm of a directory" "$tmp: error: is a directory" "$U" asm "$tmp"
error_ok "render of a directory" "is a directory" "$U" render --hash "$tmp"

for v in 1e-38 -1e-40 1.4e-45 1e-50 0e-99999; do
    scn dn "clear $v 0 0 1
$draw_tail"
    accepted "scene literal $v (denormal or underflow)" "$U" render --hash --size 8x8 "$tmp/dn.scn"
done
for v in 1e39 -3.5e38 inf; do
    scn dn "clear $v 0 0 1"
    error_ok "scene literal $v (overflow)" "expected a number, not '$v'" \
        "$U" render --hash "$tmp/dn.scn"
done

echo "budget: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
