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
#      *.frag *.vert    ushader glsl
#      *.ini            ushader config --config, run --config, bench --config
#      *.list           ushader bench --suite
#    and must exit 1 or 2 with "error:" on stderr, no signal and no
#    sanitizer report.  NAME.err, when present, holds a string that stderr
#    must contain as well.  NAME.ok.fp / NAME.ok.vp are valid programs the
#    fuzzers caught in a round-trip bug: `asm -S` text must assemble and
#    print again to the same bytes, and every target's binary (`asm
#    --target T -o`) must decode (`dis`).
# 2. Every documented limit (sections 2-4 below), just below (accepted)
#    and just above (a clear message): program instructions, TEMPs,
#    parameters, ADDRESS registers, attribute / texcoord / env / local /
#    texture unit indices, identifier length, float literals, relative
#    offsets; scene size, textures, meshes, programs, draws, line length
#    and words, matrix stack, texture and mesh sizes, the scene memory
#    budget; PNG side and file size; OBJ vertex and triangle counts; OBJ,
#    scene and program file sizes; core-model knobs (--set, INI).  Limits
#    are read from the headers, so a deliberate change of a limit moves
#    the test with it.
# 3. Special files (section 5 below): directories and empty files as input.
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
        fi
        for t in scalar scalar-nocompact simd4 vliw vliw5 superscalar hetero; do
            if "$U" asm --target $t -o "$tmp/ok.bin" "$f" 2>"$tmp/err" &&
                "$U" dis --target $t "$tmp/ok.bin" >/dev/null 2>"$tmp/err"; then
                ok
            else
                bad "$f: --target $t binary does not decode"
            fi
        done ;;
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
    *.frag | *.vert)
        clean_error "$f" "$want" "$U" glsl "$f" ;;
    *.ini)
        clean_error "$f" "$want" "$U" config --config "$f"
        clean_error "$f (run)" "$want" "$U" run --arch scalar --config "$f" \
            bench/programs/blur.fp
        clean_error "$f (bench)" "$want" "$U" bench --config "$f" \
            --only blur.fp --threads 4 --arch scalar ;;
    *.list)
        clean_error "$f" "$want" "$U" bench --suite "$f" --threads 4 \
            --arch scalar --no-plots ;;
    *)
        echo "FAIL: $f: unknown kind of reproducer"
        fail=$((fail + 1)) ;;
    esac
done

# ---- 2. Program limits (include/ushader.h, ARB_*_program 1.0) -----------
# The limits are read from the headers, so the test follows a deliberate
# change of a limit and still checks both sides of it and the message.

# hdr_enum FILE NAME: the value of "NAME = EXPR," in FILE (EXPR a number
# or a shell-arithmetic expression such as 1 << 22).
hdr_enum() {
    e=$(sed -n "s/.*\<$2 = \([0-9][0-9 <]*\)[,}].*/\1/p" "$1" | head -n 1)
    [ -n "$e" ] && echo $(($e))
}
H=include/ushader.h
max_insts=$(hdr_enum $H US_MAX_INSTRUCTIONS)
max_temps=$(hdr_enum $H US_MAX_TEMPS)
max_params=$(hdr_enum $H US_MAX_PARAMS)
max_env=$(hdr_enum $H US_MAX_ENV_PARAMS)
max_local=$(hdr_enum $H US_MAX_LOCAL_PARAMS)
max_addr=$(hdr_enum $H US_MAX_ADDRESS)
max_rel=$(hdr_enum $H US_MAX_REL_OFFSET)
max_units=$(hdr_enum $H US_MAX_TEX_UNITS)
max_coords=$(hdr_enum $H US_MAX_TEX_COORDS)
max_lights=$(hdr_enum $H US_MAX_LIGHTS)
max_clip=$(hdr_enum $H US_MAX_CLIP_PLANES)
max_pmat=$(hdr_enum $H US_MAX_PROGRAM_MATRICES)
max_name=$(hdr_enum $H US_MAX_NAME)
for v in max_insts max_temps max_params max_env max_local max_addr max_rel \
         max_units max_coords max_lights max_clip max_pmat max_name; do
    eval "[ -n \"\$$v\" ]" || { echo "FAIL: $v not found in $H"; fail=$((fail + 1)); }
done

# lines N FORMAT: FORMAT with every %d replaced by 0..N-1, one per line.
lines() {
    seq 0 $(($1 - 1)) | sed "s/.*/$(printf '%s' "$2" | sed 's/[\/&]/\\&/g; s/%d/\&/g')/"
}

asm_ok() { accepted "$1" "$U" asm "$2"; }
asm_err() { clean_error "$1" "$3" "$U" asm "$2"; }

# limit NAME N_OK HEADER FORMAT BODY_BEFORE WANT: N_OK lines of FORMAT
# assemble, N_OK + 1 give WANT.
limit() {
    name=$1 n=$2 head=$3 fmt=$4 pre=$5 want=$6
    for k in "$n" $((n + 1)); do
        { printf '%s\n%s' "$head" "$pre"; lines "$k" "$fmt"; printf 'END\n'; } \
            >"$tmp/l$k.txt"
    done
    asm_ok "$name $n" "$tmp/l$n.txt"
    asm_err "$name $((n + 1))" "$tmp/l$((n + 1)).txt" "$want"
}

limit "instructions" "$max_insts" '!!ARBfp1.0' 'MOV r.x, fragment.color.x;' \
    'TEMP r;
' "too many instructions (limit $max_insts)"
limit "TEMPs" "$max_temps" '!!ARBfp1.0' 'TEMP t%d;' '' \
    "too many TEMP registers (limit $max_temps)"
limit "parameters" "$max_params" '!!ARBvp1.0' 'PARAM p%d = { %d, 0, 0, 1 };' '' \
    "too many program parameters (limit $max_params)"
limit "ADDRESS registers" "$max_addr" '!!ARBvp1.0' 'ADDRESS a%d;' '' \
    "too many ADDRESS registers (limit $max_addr)"

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
index 'vertex.texcoord[%d]' $((max_coords - 1)) \
    "texture coordinate set index '$max_coords' out of range (0..$((max_coords - 1)))"
index 'fragment.texcoord[%d]' $((max_coords - 1)) \
    "texture coordinate set index '$max_coords' out of range (0..$((max_coords - 1)))" '!!ARBfp1.0'
index 'program.env[%d]' $((max_env - 1)) \
    "program.env index '$max_env' out of range (0..$((max_env - 1)))"
index 'program.local[%d]' $((max_local - 1)) \
    "program.local index '$max_local' out of range (0..$((max_local - 1)))"
index 'state.light[%d].diffuse' $((max_lights - 1)) \
    "light index '$max_lights' out of range (0..$((max_lights - 1)))"
index 'state.clip[%d].plane' $((max_clip - 1)) \
    "clip plane index '$max_clip' out of range (0..$((max_clip - 1)))"
index 'state.matrix.program[%d].row[0]' $((max_pmat - 1)) \
    "program matrix index '$max_pmat' out of range (0..$((max_pmat - 1)))"
index 'state.matrix.texture[%d].row[0]' $((max_coords - 1)) "out of range (0..$((max_coords - 1)))"
index 'state.matrix.mvp.row[%d]' 3 "matrix row index '4' out of range (0..3)"
printf '!!ARBvp1.0\nMOV result.color, program.env[99999999999999999999999];\nEND\n' >"$tmp/big.txt"
asm_err "program.env index overflowing 64 bits" "$tmp/big.txt" "out of range (0..$((max_env - 1)))"

last=$((max_units - 1))
for k in $last $max_units; do
    printf '!!ARBfp1.0\nTEX result.color, fragment.texcoord[0], texture[%d], 2D;\nEND\n' "$k" >"$tmp/t$k.txt"
done
asm_ok "texture unit $last" "$tmp/t$last.txt"
asm_err "texture unit $max_units" "$tmp/t$max_units.txt" \
    "texture image unit index '$max_units' out of range (0..$last)"

longest=$(printf "%0$((max_name - 1))d" 0 | tr 0 a)
printf '!!ARBfp1.0\nTEMP %s;\nEND\n' "$longest" >"$tmp/n_ok.txt"
printf '!!ARBfp1.0\nTEMP %sa;\nEND\n' "$longest" >"$tmp/n_long.txt"
asm_ok "$((max_name - 1))-character name" "$tmp/n_ok.txt"
asm_err "$max_name-character name" "$tmp/n_long.txt" "name longer than $((max_name - 1)) characters"

for v in 3.4e38 3.5e38 1e99999999999999999999; do
    printf '!!ARBfp1.0\nMOV result.color, { %s, 0, 0, 1 };\nEND\n' "$v" >"$tmp/f$v.txt"
done
asm_ok "float literal 3.4e38" "$tmp/f3.4e38.txt"
asm_err "float literal 3.5e38" "$tmp/f3.5e38.txt" "floating-point constant does not fit in 32 bits"
asm_err "float literal 1e999..." "$tmp/f1e99999999999999999999.txt" "does not fit in 32 bits"

for o in "+ $max_rel" "+ $((max_rel + 1))" "- $max_rel" "- $((max_rel + 1))"; do
    printf '!!ARBvp1.0\nADDRESS a;\nPARAM p[] = { program.env[0..3] };\nARL a.x, vertex.color.x;\nMOV result.color, p[a.x %s];\nEND\n' "$o" >"$tmp/r$(echo "$o" | tr -d ' ').txt"
done
asm_ok "relative offset +$max_rel" "$tmp/r+$max_rel.txt"
asm_err "relative offset +$((max_rel + 1))" "$tmp/r+$((max_rel + 1)).txt" "out of range (0..$max_rel)"
asm_ok "relative offset -$max_rel" "$tmp/r-$max_rel.txt"
asm_err "relative offset -$((max_rel + 1))" "$tmp/r-$((max_rel + 1)).txt" "out of range (0..$max_rel)"

# A program file larger than the 16 MiB input limit (cli/cli.h).
{ printf '!!ARBfp1.0\n'; head -c $((16 << 20)) /dev/zero | tr '\0' '#'; } >"$tmp/huge.txt"
asm_err "16 MiB + program" "$tmp/huge.txt" "larger than the 16 MiB limit"

# ---- 3. Scene limits (docs/SCENES.md, gfx/gfx.h, gfx/scene.c) ----------
G=gfx/gfx.h
S=gfx/scene.c
max_vp=$(hdr_enum $G GFX_MAX_VIEWPORT)
max_tex=$(hdr_enum $G GFX_MAX_TEX_SIZE)
max_3d=$(hdr_enum $G GFX_MAX_TEX_3D)
max_stex=$(hdr_enum $G GFX_MAX_SCENE_TEXTURES)
max_smesh=$(hdr_enum $G GFX_MAX_SCENE_MESHES)
max_sprog=$(hdr_enum $G GFX_MAX_SCENE_PROGRAMS)
max_tokens=$(hdr_enum $S MAX_TOKENS)
max_draws=$(hdr_enum $S MAX_DRAWS)
max_stack=$(hdr_enum $S MAX_STACK)
max_mib=$(hdr_enum $G GFX_MEM_BUDGET_MIB)
for v in max_vp max_tex max_3d max_stex max_smesh max_sprog max_tokens \
         max_draws max_stack max_mib; do
    eval "[ -n \"\$$v\" ]" || { echo "FAIL: $v not found in $G / $S"; fail=$((fail + 1)); }
done

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

scene_ok "size $max_vp $max_vp (rendered at --size 8x8)" "size $max_vp $max_vp
$draw_tail"
scene_err "size $((max_vp + 1))" "size $((max_vp + 1)) 1" \
    "$((max_vp + 1)) is out of range 1..$max_vp"
scene_err "size 0" "size 0 1" "0 is out of range 1..$max_vp"
scene_err "size overflowing unsigned long" "size 99999999999999999999999 1" "expected an integer"
scene_err "number overflowing float" "clear 1e39 0 0 1" "expected a number, not '1e39'"
scene_err "NaN" "clear nan 0 0 1" "expected a number, not 'nan'"
scene_ok "matrix stack depth $max_stack" "$(lines "$max_stack" push)
$draw_tail"
scene_err "matrix stack depth $((max_stack + 1))" "$(lines $((max_stack + 1)) push)" \
    "matrix stack overflow (depth $max_stack)"
scene_err "pop without push" "pop" "pop without push"
scene_ok "$max_stex textures" "$(lines "$max_stex" 'texture t%d 2d proc checker 4')
$draw_tail"
scene_err "$((max_stex + 1)) textures" "$(lines $((max_stex + 1)) 'texture t%d 2d proc checker 4')" \
    "more than $max_stex textures"
scene_ok "$max_smesh meshes" "$(lines $((max_smesh - 1)) 'mesh c%d cube 1')
$draw_tail"
scene_err "$((max_smesh + 1)) meshes" "$(lines $((max_smesh + 1)) 'mesh c%d cube 1')" \
    "more than $max_smesh meshes"
scene_err "$((max_sprog + 1)) programs" "$(lines $((max_sprog + 1)) "program p%d $SC/sky.fp")" \
    "more than $max_sprog programs"
scene_ok "$max_draws draws" "$draw_tail
$(lines $((max_draws - 1)) 'draw m')"
scene_err "$((max_draws + 1)) draws" "$draw_tail
$(lines "$max_draws" 'draw m')" "more than $max_draws draws"
scene_ok "$max_tokens words" "# $(lines $((max_tokens - 1)) x | tr '\n' ' ')
$draw_tail"
scene_err "$((max_tokens + 1)) words" "clear $(lines "$max_tokens" 0 | tr '\n' ' ')" \
    "more than $max_tokens words on a line"
scene_ok "4095-character line" "#$(printf '%04094d' 0)
$draw_tail"
scene_err "4096-character line" "#$(printf '%04095d' 0)" "line longer than 4095 characters"
scene_ok "sphere 1024 x 2 (limit)" "mesh s sphere 1 1024 2
$draw_tail"
scene_err "sphere 1025 slices" "mesh m sphere 1 1025 2" "1025 is out of range 3..1024"
scene_err "teapot 65" "mesh m teapot 65" "65 is out of range 1..64"
scene_ok "2D texture $max_tex" "texture t 2d proc checker $max_tex
$draw_tail"
scene_err "2D texture $((max_tex + 1))" "texture t 2d proc checker $((max_tex + 1))" \
    "$((max_tex + 1)) is out of range 1..$max_tex"
scene_err "3D texture $((max_3d + 1))" "texture t 3d proc noise $((max_3d + 1))" \
    "$((max_3d + 1)) is out of range 1..$max_3d"
# The memory budget (GFX_MEM_BUDGET_MIB): spheres of 1024 x 1024 are
# 109 MB each (1025^2 vertices of 5 attributes, 2 x 1024^2 triangles).
n=$(( (max_mib * 1048576) / 109215824 + 1 ))
scene_err "textures and meshes over $max_mib MiB" "$(lines "$n" 'mesh s%d sphere 1 1024 1024')" \
    "MiB left of the $max_mib MiB memory budget"
scene_err "light $max_lights" "light $max_lights position 0 0 0 1" \
    "$max_lights is out of range 0..$((max_lights - 1))"
scene_err "texture unit $max_units" "bind $max_units none" \
    "$max_units is out of range 0..$((max_units - 1))"
scene_err "env $max_env" "env vertex $max_env 0 0 0 0" \
    "$max_env is out of range 0..$((max_env - 1))"
scene_err "local $max_local" "local fragment $max_local 0 0 0 0" \
    "$max_local is out of range 0..$((max_local - 1))"
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

# File sizes (sparse files: nothing is written to disk): the CLI's 16 MiB
# input limit (cli/cli.h) for scenes, the loaders' 64 MiB per PNG
# (GFX_MAX_PNG_BYTES) and 256 MiB per OBJ (gfx/scene.c).
truncate -s $(((16 << 20) + 1)) "$tmp/big.scn"
clean_error "scene file over 16 MiB" "larger than the 16 MiB limit" "$U" render --hash "$tmp/big.scn"
truncate -s $(((64 << 20) + 1)) "$tmp/big.png"
scene_err "PNG file over 64 MiB" "texture t 2d png $tmp/big.png" "larger than the 64 MiB limit"
truncate -s $(((256 << 20) + 1)) "$tmp/big.obj"
scene_err "OBJ file over 256 MiB" "mesh m obj $tmp/big.obj" "larger than the 256 MiB limit"
rm -f "$tmp/big.scn" "$tmp/big.png" "$tmp/big.obj"

# Mesh size: GFX_MAX_MESH_VERTS vertex elements and GFX_MAX_MESH_TRIS
# triangles per OBJ, just at the limit (the file then fails for another
# reason: no faces, no draw) and one above.
max_verts=$(hdr_enum $G GFX_MAX_MESH_VERTS)
max_tris=$(hdr_enum $G GFX_MAX_MESH_TRIS)
yes 'v 0 0 0' | head -n "$max_verts" >"$tmp/v.obj"
scene_err "OBJ with $max_verts vertices" "mesh m obj $tmp/v.obj" "no faces"
echo 'v 0 0 0' >>"$tmp/v.obj"
scene_err "OBJ with $((max_verts + 1)) vertices" "mesh m obj $tmp/v.obj" \
    "too many vertex elements for the mesh limit"
{ printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\n'; yes 'f 1 2 3' | head -n "$max_tris"; } >"$tmp/f.obj"
scene_err "OBJ with $max_tris triangles" "mesh m obj $tmp/f.obj" "draws nothing"
echo 'f 1 2 3' >>"$tmp/f.obj"
scene_err "OBJ with $((max_tris + 1)) triangles" "mesh m obj $tmp/f.obj" \
    "too many triangles for the mesh limit"
rm -f "$tmp/v.obj" "$tmp/f.obj"

# Core-model configuration (shader/knobs.def, configs/*.ini): a knob just
# inside and just outside its range, by --set and by INI file, and INI
# syntax errors with their line.
if has_cmd config; then
    clean_error "--set sfu_pool=65" "sfu_pool: 65 out of range (1..64)" \
        "$U" config --set sfu_pool=65
    accepted "--set sfu_pool=64" "$U" config --set sfu_pool=64
    clean_error "--set overflowing int" "bad number" \
        "$U" config --set sfu_pool=99999999999999999999
    printf '[core]\nsfu_pool = 0\n' >"$tmp/c.ini"
    clean_error "INI knob below its range" "c.ini:2: error: sfu_pool: 0 out of range" \
        "$U" config --config "$tmp/c.ini"
    printf '[core]\nsfu_pool = 1\n[sfu]\nrcp.k = 8\n' >"$tmp/c.ini"
    accepted "INI knobs at their limits" "$U" config --config "$tmp/c.ini"
    printf '[sfu]\nrcp.k = 9\n' >"$tmp/c.ini"
    clean_error "INI SFU k above its range" "c.ini:2: error: bad SFU segment bits" \
        "$U" config --config "$tmp/c.ini"
    printf '[core\n' >"$tmp/c.ini"
    clean_error "INI syntax error" "c.ini:1: error: syntax error" \
        "$U" config --config "$tmp/c.ini"
    printf '[bogus]\nx = 1\n' >"$tmp/c.ini"
    clean_error "INI unknown section" "unknown section [bogus]" \
        "$U" config --config "$tmp/c.ini"
fi

# ---- 5. Special files: directories and empty input ---------------------
# Only regular files are read (devices and FIFOs: tests/budget.test.sh).
: >"$tmp/empty"
clean_error "asm of a directory" "is a directory" "$U" asm "$tmp"
clean_error "asm of an empty file" "must begin with" "$U" asm "$tmp/empty"
clean_error "dis of an empty file" "bad magic" "$U" dis "$tmp/empty"
clean_error "render of a directory" "is a directory" "$U" render --hash "$tmp"
clean_error "empty scene" "draws nothing" "$U" render --hash "$tmp/empty"
scene_err "program file is a directory" "program p $tmp" "is a directory"
scene_err "empty OBJ" "mesh m obj $tmp/empty" "no faces"
scene_err "empty PNG" "texture t 2d png $tmp/empty" "not a PNG file"
if has_cmd piglit; then
    clean_error "piglit of an empty file" "error:" "$U" piglit "$tmp/empty"
fi

echo "robust: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
