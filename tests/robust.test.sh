#!/bin/sh
# Robustness (issue 9): bad input gives a clean error, never a crash.
#
# 1. Every file in tests/robust/ (crash and property inputs found by the
#    fuzzers in fuzz/, or written by hand) goes through the command that
#    reads that kind of file:
#      *.fp *.vp *.txt  ushader asm, then ushader asm --target scalar -S
#      *.bin            ushader dis
#      *.scn            ushader render --hash (relative to tests/robust/)
#      *.obj *.png      ushader render --hash of a one-line scene using it
#      *.shader_test    ushader piglit (when that command exists)
#    and must exit 1 or 2 with "error:" on stderr, no signal and no
#    sanitizer report.  NAME.err, when present, holds a string that stderr
#    must contain as well.  NAME.ok.fp / NAME.ok.vp are valid programs the
#    fuzzers caught in a round-trip bug: `asm -S` text must assemble and
#    print again to the same bytes.
# 2. Every documented limit, just below (accepted) and just above (a clear
#    message): program instructions, TEMPs, parameters, ADDRESS registers,
#    attribute / texcoord / env / local / texture unit indices, identifier
#    length, float literals, relative offsets; scene size, textures, meshes,
#    programs, draws, line length and words, matrix stack, texture and mesh
#    sizes; PNG side and file size; OBJ and scene file sizes.
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
    sed -n 1,8p "$tmp/err"
    fail=$((fail + 1))
}

has_cmd() { "$U" "$1" --help >/dev/null 2>&1; }

# clean_error WHAT WANT CMD...: exit 1 or 2, "error:" (and WANT) on
# stderr, no sanitizer report.
clean_error() {
    what=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
        bad "$what: exit $rc, want 1 or 2"
    elif ! grep -q "error:" "$tmp/err"; then
        bad "$what: no 'error:' on stderr"
    elif grep -qE "Sanitizer|runtime error|LeakSanitizer" "$tmp/err"; then
        bad "$what: sanitizer report"
    elif [ -n "$want" ] && ! grep -qF -- "$want" "$tmp/err"; then
        bad "$what: stderr lacks '$want'"
    else
        ok
    fi
}

# accepted WHAT CMD...: exit 0 with no sanitizer report.
accepted() {
    what=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -ne 0 ] || grep -qE "Sanitizer|runtime error" "$tmp/err"; then
        bad "$what: exit $rc, want 0"
    else
        ok
    fi
}

# ---- 1. Reproducers ------------------------------------------------------
for f in tests/robust/*; do
    case $f in *.err) continue ;; esac
    want=""
    [ -f "${f%.*}.err" ] && want=$(cat "${f%.*}.err")
    case $f in
    *.ok.fp | *.ok.vp)
        if "$U" asm -S "$f" >"$tmp/rt1.txt" 2>"$tmp/err" &&
            "$U" asm -S "$tmp/rt1.txt" >"$tmp/rt2.txt" 2>"$tmp/err" &&
            cmp -s "$tmp/rt1.txt" "$tmp/rt2.txt"; then
            ok
        else
            bad "$f: asm -S text does not round-trip"
        fi ;;
    *.fp | *.vp | *.txt)
        clean_error "$f" "$want" "$U" asm "$f"
        clean_error "$f (--target)" "$want" "$U" asm --target scalar -S "$f" ;;
    *.bin)
        clean_error "$f" "$want" "$U" dis "$f" ;;
    *.scn)
        clean_error "$f" "$want" "$U" render --hash "$f" ;;
    *.obj)
        printf 'mesh m obj %s\n' "$ROOT/$f" >"$tmp/obj.scn"
        clean_error "$f" "$want" "$U" render --hash "$tmp/obj.scn" ;;
    *.png)
        printf 'texture t 2d png %s\n' "$ROOT/$f" >"$tmp/png.scn"
        clean_error "$f" "$want" "$U" render --hash "$tmp/png.scn" ;;
    *.shader_test)
        if has_cmd piglit; then
            clean_error "$f" "$want" "$U" piglit "$f"
        fi ;;
    *)
        echo "FAIL: $f: unknown kind of reproducer"
        fail=$((fail + 1)) ;;
    esac
done

# ---- 2. Program limits (include/ushader.h, ARB_*_program 1.0) -----------

# prog FILE STAGE BODY-GENERATOR-ARGS: write an ARB program with python3-free
# shell loops (seq + sed) so the test needs nothing beyond POSIX tools.
lines() {  # lines N FORMAT: FORMAT with %d replaced by 0..N-1, one per line
    seq 0 $(($1 - 1)) | sed "s/.*/$(printf '%s' "$2" | sed 's/[\/&]/\\&/g; s/%d/\&/g')/"
}

asm_ok() { accepted "$1" "$U" asm "$2"; }
asm_err() { clean_error "$1" "$3" "$U" asm "$2"; }

# limit NAME N_OK HEADER FORMAT BODY_BEFORE BODY_AFTER WANT
limit() {
    name=$1 n=$2 head=$3 fmt=$4 pre=$5 post=$6 want=$7
    for k in "$n" $((n + 1)); do
        { printf '%s\n%s' "$head" "$pre"; lines "$k" "$fmt"; printf '%s\nEND\n' "$post"; } \
            >"$tmp/l$k.txt"
    done
    asm_ok "$name $n" "$tmp/l$n.txt"
    asm_err "$name $((n + 1))" "$tmp/l$((n + 1)).txt" "$want"
}

limit "instructions" 4096 '!!ARBfp1.0' 'MOV r.x, fragment.color.x;' \
    'TEMP r;
' '' 'too many instructions (limit 4096)'
limit "TEMPs" 256 '!!ARBfp1.0' 'TEMP t%d;' '' '' \
    'too many TEMP registers (limit 256)'
limit "parameters" 1024 '!!ARBvp1.0' 'PARAM p%d = { %d, 0, 0, 1 };' '' '' \
    'too many program parameters (limit 1024)'
limit "ADDRESS registers" 1 '!!ARBvp1.0' 'ADDRESS a%d;' '' '' \
    'too many ADDRESS registers (limit 1)'

# index BINDING LAST MESSAGE [HEADER]: BINDING with %d at LAST and LAST + 1.
index() {
    head=${4:-'!!ARBvp1.0'}
    for k in "$2" $(($2 + 1)); do
        b=$(printf '%s' "$1" | sed "s/%d/$k/")
        printf '%s\nMOV result.color, %s;\nEND\n' "$head" "$b" >"$tmp/i$k.txt"
    done
    asm_ok "$1 = $2" "$tmp/i$2.txt"
    asm_err "$1 = $(($2 + 1))" "$tmp/i$(($2 + 1)).txt" "$3"
}
index 'vertex.attrib[%d]' 15 "generic vertex attribute index '16' out of range (0..15)"
index 'vertex.texcoord[%d]' 7 "texture coordinate set index '8' out of range (0..7)"
index 'fragment.texcoord[%d]' 7 "texture coordinate set index '8' out of range (0..7)" '!!ARBfp1.0'
index 'program.env[%d]' 255 "program.env index '256' out of range (0..255)"
index 'program.local[%d]' 255 "program.local index '256' out of range (0..255)"
index 'state.light[%d].diffuse' 7 "light index '8' out of range (0..7)"
index 'state.clip[%d].plane' 5 "clip plane index '6' out of range (0..5)"
index 'state.matrix.program[%d].row[0]' 7 "program matrix index '8' out of range (0..7)"
index 'state.matrix.texture[%d].row[0]' 7 "out of range (0..7)"
index 'state.matrix.mvp.row[%d]' 3 "matrix row index '4' out of range (0..3)"
printf '!!ARBvp1.0\nMOV result.color, program.env[99999999999999999999999];\nEND\n' >"$tmp/big.txt"
asm_err "program.env index overflowing 64 bits" "$tmp/big.txt" "out of range (0..255)"

for k in 15 16; do
    printf '!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[%d], 2D;\nEND\n' "$k" >"$tmp/t$k.txt"
done
asm_ok "texture unit 15" "$tmp/t15.txt"
asm_err "texture unit 16" "$tmp/t16.txt" "texture image unit index '16' out of range (0..15)"

name63=$(printf '%063d' 0 | tr 0 a)
printf '!!ARBfp1.0\nTEMP %s;\nEND\n' "$name63" >"$tmp/n63.txt"
printf '!!ARBfp1.0\nTEMP %sa;\nEND\n' "$name63" >"$tmp/n64.txt"
asm_ok "63-character name" "$tmp/n63.txt"
asm_err "64-character name" "$tmp/n64.txt" "name longer than 63 characters"

for v in 3.4e38 3.5e38 1e99999999999999999999; do
    printf '!!ARBfp1.0\nMOV result.color, { %s, 0, 0, 1 };\nEND\n' "$v" >"$tmp/f$v.txt"
done
asm_ok "float literal 3.4e38" "$tmp/f3.4e38.txt"
asm_err "float literal 3.5e38" "$tmp/f3.5e38.txt" "floating-point constant does not fit in 32 bits"
asm_err "float literal 1e999..." "$tmp/f1e99999999999999999999.txt" "does not fit in 32 bits"

for o in +63 +64 -64 -65; do
    printf '!!ARBvp1.0\nADDRESS a;\nPARAM p[] = { program.env[0..3] };\nARL a.x, vertex.color.x;\nMOV result.color, p[a.x%s];\nEND\n' "$o" >"$tmp/r$o.txt"
done
asm_ok "relative offset +63" "$tmp/r+63.txt"
asm_err "relative offset +64" "$tmp/r+64.txt" "out of range (0..63)"
asm_ok "relative offset -64" "$tmp/r-64.txt"
asm_err "relative offset -65" "$tmp/r-65.txt" "out of range (0..64)"

# A program file larger than the 16 MiB input limit (cli/cli.h).
{ printf '!!ARBfp1.0\n'; head -c $((16 << 20)) /dev/zero | tr '\0' '#'; } >"$tmp/huge.txt"
asm_err "16 MiB + program" "$tmp/huge.txt" "larger than the 16 MiB limit"

# ---- 3. Scene limits (docs/SCENES.md, gfx/gfx.h) -------------------------
SC="$ROOT/bench/scenes"
draw_tail="mesh m cube 1
program v $SC/sky.vp
program f $SC/sky.fp
vp v
fp f
draw m"
scn() { printf '%s\n' "$2" >"$tmp/$1.scn"; }
scene_ok() { scn s "$2"; accepted "$1" "$U" render --hash --size 8x8 "$tmp/s.scn"; }
scene_err() { scn s "$2"; clean_error "$1" "$3" "$U" render --hash "$tmp/s.scn"; }

scene_ok "size 4096 4096 (rendered at --size 8x8)" "size 4096 4096
$draw_tail"
scene_err "size 4097" "size 4097 1" "4097 is out of range 1..4096"
scene_err "size 0" "size 0 1" "0 is out of range 1..4096"
scene_err "size overflowing unsigned long" "size 99999999999999999999999 1" "expected an integer"
scene_err "number overflowing float" "clear 1e39 0 0 1" "expected a number, not '1e39'"
scene_err "NaN" "clear nan 0 0 1" "expected a number, not 'nan'"
scene_ok "matrix stack depth 8" "$(lines 8 push)
$draw_tail"
scene_err "matrix stack depth 9" "$(lines 9 push)" "matrix stack overflow (depth 8)"
scene_err "pop without push" "pop" "pop without push"
scene_ok "32 textures" "$(lines 32 'texture t%d 2d proc checker 4')
$draw_tail"
scene_err "33 textures" "$(lines 33 'texture t%d 2d proc checker 4')" "more than 32 textures"
scene_ok "32 meshes" "$(lines 31 'mesh c%d cube 1')
$draw_tail"
scene_err "33 meshes" "$(lines 33 'mesh c%d cube 1')" "more than 32 meshes"
scene_err "33 programs" "$(lines 33 "program p%d $SC/sky.fp")" "more than 32 programs"
scene_ok "1024 draws" "$draw_tail
$(lines 1023 'draw m')"
scene_err "1025 draws" "$draw_tail
$(lines 1024 'draw m')" "more than 1024 draws"
scene_ok "48 words" "# $(lines 47 x | tr '\n' ' ')
$draw_tail"
scene_err "49 words" "clear $(lines 48 0 | tr '\n' ' ')" "more than 48 words on a line"
scene_ok "4095-character line" "#$(printf '%04094d' 0)
$draw_tail"
scene_err "4096-character line" "#$(printf '%04095d' 0)" "line longer than 4095 characters"
scene_ok "sphere 1024 x 2 (limit)" "mesh s sphere 1 1024 2
$draw_tail"
scene_err "sphere 1025 slices" "mesh m sphere 1 1025 2" "1025 is out of range 3..1024"
scene_err "teapot 65" "mesh m teapot 65" "65 is out of range 1..64"
scene_ok "2D texture 2048" "texture t 2d proc checker 2048
$draw_tail"
scene_err "2D texture 2049" "texture t 2d proc checker 2049" "2049 is out of range 1..2048"
scene_err "3D texture 257" "texture t 3d proc noise 257" "257 is out of range 1..256"
# The scene memory budget (gfx/scene.c MAX_SCENE_MIB): four spheres of
# 1024 x 1024 are 4 x 269 MB of vertices (about 4 s to build).
scene_err "textures and meshes over 1 GiB" "$(lines 4 'mesh s%d sphere 1 1024 1024')" \
    "textures and meshes need more than 1024 MiB"
scene_err "light 8" "light 8 position 0 0 0 1" "8 is out of range 0..7"
scene_err "texture unit 16" "bind 16 none" "16 is out of range 0..15"
scene_err "env 256" "env vertex 256 0 0 0 0" "256 is out of range 0..255"
scene_err "local 256" "local fragment 256 0 0 0 0" "256 is out of range 0..255"
scene_err "missing program file" "program p $tmp/none.vp" "cannot open"
scene_err "scene without draws" "clear 0 0 0 1" "draws nothing"

# ---- 4. PNG and OBJ limits (gfx/png.c, gfx/obj.c) ------------------------
# The test images come from the model itself: `render -o` writes PNGs.
for w in 2048 2049; do
    printf 'size %d 1\n%s\n' "$w" "$draw_tail" >"$tmp/img.scn"
    "$U" render --exact-math -o "$tmp/w$w.png" "$tmp/img.scn" 2>/dev/null || true
done
if [ -f "$tmp/w2048.png" ]; then
    printf 'texture t 2d png %s\n%s\n' "$tmp/w2048.png" "$draw_tail" >"$tmp/s.scn"
    accepted "PNG 2048 x 1" "$U" render --hash --size 8x8 "$tmp/s.scn"
    printf 'texture t 3d png %s\n' "$tmp/w2048.png" >"$tmp/s.scn"
    clean_error "3D slice 2048 wide (limit 256)" "" "$U" render --hash "$tmp/s.scn"
    head -c 100 "$tmp/w2048.png" >"$tmp/trunc.png"
    printf 'texture t 2d png %s\n' "$tmp/trunc.png" >"$tmp/s.scn"
    clean_error "truncated PNG" "" "$U" render --hash "$tmp/s.scn"
else
    bad "render -o of a 2048 x 1 image failed"
fi
printf 'size 4096 1\n%s\n' "$draw_tail" >"$tmp/img.scn"
if "$U" render --exact-math -o "$tmp/w4096.png" "$tmp/img.scn" 2>/dev/null; then
    printf 'texture t 2d png %s\n' "$tmp/w4096.png" >"$tmp/s.scn"
    clean_error "PNG 4096 x 1 (limit 2048)" "" "$U" render --hash "$tmp/s.scn"
else
    bad "render -o of a 4096 x 1 image failed"
fi
printf 'not a png' >"$tmp/junk.png"
printf 'texture t 2d png %s\n' "$tmp/junk.png" >"$tmp/s.scn"
clean_error "not a PNG" "" "$U" render --hash "$tmp/s.scn"

printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$tmp/ok.obj"
printf 'mesh m obj %s\n' "$tmp/ok.obj" >"$tmp/s.scn"
printf '%s\n' "$draw_tail" | sed 's/^mesh m cube 1$//' >>"$tmp/s.scn"
accepted "OBJ triangle" "$U" render --hash --size 8x8 "$tmp/s.scn"
for bad_obj in 'f 1 2 4' 'f 0 1 2' 'f -4 1 2' 'f 1 2' 'v 1e39 0 0' \
               'f 99999999999999999999 1 2' 'vt nan'; do
    printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\n%s\n' "$bad_obj" >"$tmp/bad.obj"
    printf 'mesh m obj %s\n' "$tmp/bad.obj" >"$tmp/s.scn"
    clean_error "OBJ '$bad_obj'" "" "$U" render --hash "$tmp/s.scn"
done

# ---- 5. Special files: directories and empty input ---------------------
clean_error "asm of a directory" "Is a directory" "$U" asm "$tmp"
clean_error "asm of an empty file" "must begin with" "$U" asm /dev/null
clean_error "dis of an empty file" "bad magic" "$U" dis /dev/null
clean_error "render of a directory" "Is a directory" "$U" render --hash "$tmp"
clean_error "empty scene" "draws nothing" "$U" render --hash /dev/null
scene_err "program file is a directory" "program p $tmp" "read error"
scene_err "empty OBJ" "mesh m obj /dev/null" "no faces"
scene_err "empty PNG" "texture t 2d png /dev/null" "not a PNG file"
if has_cmd piglit; then
    clean_error "piglit of an empty file" "error:" "$U" piglit /dev/null
fi

echo "robust: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
