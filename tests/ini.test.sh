#!/bin/sh
# Input means what it says (issue 14): INI files, bench lists and paths,
# bench error positions, lane counts, NUL bytes in GLSL.
#
# 1. INI (shader/config.c): inih reads a line in pieces of INI_MAX_LINE - 1
#    bytes and stops at a NUL, so a longer line or a NUL is refused with
#    FILE:LINE at every INI entry point (config, run, bench); a line of
#    198 bytes, the longest inih reads whole, means what it says; [sfu]
#    values and `--set sfu.KEY` reach the SFU whole.
# 2. bench paths (suite/, cli/cmd_bench.c): a --suite path and list
#    entries longer than 1023 bytes load (same table as the short ones),
#    --only strings longer than 127 bytes are compared whole, an --out
#    directory the system refuses gives its reason and leaves nothing.
# 3. bench errors read "ushader: FILE:LINE[:COL]: error: message".
# 4. Lane counts a model cannot build are refused, naming the model and
#    the counts it takes (bench --set, run --arch), and the bench's second
#    hetero width states the lanes it runs at.
# 5. NUL bytes in GLSL are refused at their line and column (bench too);
#    an ARB program with a NUL in a comment is read to its END.
set -u
BUILD=${BUILD:-build}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
U="$ROOT/$BUILD/ushader"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() {
    echo "FAIL: $*"
    sed -n 1,4p "$tmp/err" 2>/dev/null
    fail=$((fail + 1))
}

# refused WHAT WANT CMD...: exit 1 or 2 and WANT (a fixed string) on
# stderr.
refused() {
    what=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
        bad "$what: exit $rc, want 1 or 2"
    elif ! grep -qF -- "$want" "$tmp/err"; then
        bad "$what: stderr lacks '$want'"
    else
        ok
    fi
}

# accepted WHAT CMD...: exit 0.
accepted() {
    what=$1
    shift
    if "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; then ok
    else bad "$what: exit $?, want 0"; fi
}

# knob NAME: its value in `ushader config` output ($tmp/out).
knob() { sed -n "s/^$1 = //p" "$tmp/out"; }

rep() { printf "%$2s" "" | tr ' ' "$1"; }   # rep CHAR N

# ---- 1. INI ---------------------------------------------------------------
# '; ' + 197 x + 'alu_lanes = 2': inih would read its last 13 bytes as a
# second line and set alu_lanes.
printf '[core]\n; %salu_lanes = 2\n' "$(rep x 197)" > "$tmp/long.ini"
refused "199-byte line" "$tmp/long.ini:2: error: line longer than 198 bytes" \
    "$U" config --config "$tmp/long.ini"
refused "199-byte line (run)" "$tmp/long.ini:2: error: line longer" \
    "$U" run --arch scalar --config "$tmp/long.ini" bench/programs/blur.fp
refused "199-byte line (bench)" "ushader: $tmp/long.ini:2: error: line longer" \
    "$U" bench --config "$tmp/long.ini" --only blur.fp --threads 4 \
    --arch scalar
# 198 bytes: read whole by inih, so the comment stays a comment
printf '[core]\n; %salu_lanes = 2\nlut_banks = 8\n' "$(rep x 183)" \
    > "$tmp/edge.ini"
if "$U" config --config "$tmp/edge.ini" > "$tmp/out" 2> "$tmp/err" &&
    [ "$(knob alu_lanes)" = 8 ] && [ "$(knob lut_banks)" = 8 ]; then ok
else bad "198-byte comment line: alu_lanes $(knob alu_lanes), want 8"; fi
# a 198-byte setting (trailing blanks and the CR of a CRLF end) is one
# setting
printf '[core]\r\nalu_lanes = 16%s\r\nlookahead = 2\r\n' "$(rep ' ' 183)" \
    > "$tmp/set.ini"
if "$U" config --config "$tmp/set.ini" > "$tmp/out" 2> "$tmp/err" &&
    [ "$(knob alu_lanes)" = 16 ] && [ "$(knob lookahead)" = 2 ]; then ok
else bad "198-byte setting line: alu_lanes '$(knob alu_lanes)'"; fi
# the line numbers of later errors are the file's
printf '[core]\n; %s\nbogus = 1\n' "$(rep y 196)" > "$tmp/line.ini"
refused "line number after a long line" "$tmp/line.ini:3: error: unknown knob" \
    "$U" config --config "$tmp/line.ini"
# a NUL: inih would stop there and never see lut_banks
printf '[core]\nalu_lanes = 16\nlut_banks = 8 \000\nlookahead = 99\n' \
    > "$tmp/nul.ini"
refused "NUL in an INI file" "$tmp/nul.ini:3: error: NUL byte in the file" \
    "$U" config --config "$tmp/nul.ini"
refused "NUL in an INI file (bench)" "$tmp/nul.ini:3: error: NUL byte" \
    "$U" bench --config "$tmp/nul.ini" --only blur.fp --threads 4 \
    --arch scalar
# [sfu] values reach the SFU whole: 0...0300 is 300, not 30
printf '[sfu]\nw0 = %s300\n' "$(rep 0 154)" > "$tmp/sfu.ini"
refused "[sfu] long value" "$tmp/sfu.ini:2: error: bad SFU coefficient width" \
    "$U" config --config "$tmp/sfu.ini"
printf '[sfu]\nw0 = %s30\n' "$(rep 0 154)" > "$tmp/sfu_ok.ini"
accepted "[sfu] long value in range" "$U" config --config "$tmp/sfu_ok.ini"
refused "--set sfu.w0 long value" "bad SFU coefficient width" \
    "$U" config --set "sfu.w0=$(rep 0 154)300"

# ---- 2. bench paths -------------------------------------------------------
pad=$(printf './%.0s' $(seq 1 530))        # 1060 bytes of "./"
ONLY="--only blur.fp --threads 16 --arch scalar,simd4"
if "$U" bench $ONLY > "$tmp/short.txt" 2> "$tmp/err"; then ok
else bad "bench on the short path: exit $?"; fi
# --suite of 1076 bytes: PROGRAM and SCENE joined to it exceed 1023
if "$U" bench --suite "${pad}bench/suite.list" $ONLY > "$tmp/long.txt" \
        2> "$tmp/err" && cmp -s "$tmp/short.txt" "$tmp/long.txt"; then ok
else bad "bench --suite with a ${#pad}+16-byte path"; fi
# list entries of more than 1023 bytes
printf '%s\n' "$ROOT/${pad}bench/programs/blur.fp $ROOT/${pad}bench/scenes/fog.scn ff" \
    > "$tmp/long.list"
if "$U" bench --suite "$tmp/long.list" --threads 16 --arch scalar,simd4 \
        > "$tmp/entries.txt" 2> "$tmp/err" &&
    grep -e '^mean (' -e ' programs x ' "$tmp/short.txt" > "$tmp/a" &&
    grep -e '^mean (' -e ' programs x ' "$tmp/entries.txt" > "$tmp/b" &&
    cmp -s "$tmp/a" "$tmp/b"; then ok
else bad "bench list with entries longer than 1023 bytes"; fi
# --only is compared whole: 127 bytes of the name and then others match
# nothing
name=$(printf '%s' "$ROOT/${pad}bench/programs/blur.fp" | cut -c1-127)
refused "--only longer than 127 bytes" "no program selected" \
    "$U" bench --suite "$tmp/long.list" --only "${name}ZZZ" --threads 16 \
    --arch scalar
# an --out the system refuses: its reason, and no directory left
deep=$(printf 'dddddddddd/%.0s' $(seq 1 400))
refused "--out longer than PATH_MAX" "cannot create the directory: File name too long" \
    "$U" bench --only blur.fp --threads 4 --arch scalar --no-plots \
    --out "$tmp/$deep"
if [ ! -e "$tmp/dddddddddd" ]; then ok
else bad "--out longer than PATH_MAX left directories"; fi
# a real --out path of more than 1023 bytes
nest=$(printf 'eeeeeeeeee/%.0s' $(seq 1 100))
if "$U" bench --only blur.fp --threads 4 --arch scalar --no-plots \
        --out "$tmp/$nest" > "$tmp/out" 2> "$tmp/err" &&
    [ -s "$tmp/$nest/report.md" ] && [ -s "$tmp/$nest/results.csv" ]; then ok
else bad "bench --out with a 1100-byte directory"; fi

# ---- 3. bench error positions ---------------------------------------------
printf '# a list\nprograms/blur.fp scenes/fog.scn\n' > "$tmp/two.list"
refused "bench list syntax" "ushader: $tmp/two.list:2: error: expected PROGRAM SCENE SLOT" \
    "$U" bench --suite "$tmp/two.list"
printf '%s\n' "$ROOT/bench/programs/blur.fp $ROOT/bench/scenes/fog.scn nosuch" \
    > "$tmp/slot.list"
refused "bench list slot" "ushader: $tmp/slot.list:1: error: $ROOT/bench/scenes/fog.scn has no program named 'nosuch'" \
    "$U" bench --suite "$tmp/slot.list"
printf '!!ARBfp1.0\nMOV result.color, fragment.colour;\nEND\n' > "$tmp/bad.fp"
printf '%s\n' "bad.fp $ROOT/bench/scenes/fog.scn ff" > "$tmp/prog.list"
refused "bench program error" "ushader: $tmp/bad.fp:2:28: error: invalid fragment attribute" \
    "$U" bench --suite "$tmp/prog.list"
refused "bench missing list" "ushader: $tmp/none.list: error: cannot open" \
    "$U" bench --suite "$tmp/none.list"
printf '[core]\nlookahead = 99\n' > "$tmp/range.ini"
refused "bench INI error" "ushader: $tmp/range.ini:2: error: lookahead" \
    "$U" bench --config "$tmp/range.ini"
mkdir -p "$tmp/sc"
sed 's/^mesh ball sphere 0.6 32 16/mesh ball sphere x 32 16/' \
    bench/scenes/fog.scn > "$tmp/sc/fog.scn"
cp bench/scenes/fog.vp bench/scenes/fog.fp "$tmp/sc/"
printf '%s\n' "$ROOT/bench/programs/blur.fp sc/fog.scn ff" > "$tmp/scn.list"
refused "bench scene error" "ushader: $tmp/sc/fog.scn:15:18: error: expected a number" \
    "$U" bench --suite "$tmp/scn.list" --threads 4 --arch scalar

# ---- 4. lane counts -------------------------------------------------------
refused "bench at 6 lanes" "simd4: alu_lanes=6 cannot be built from processors of 4 lanes; it takes a multiple of 4" \
    "$U" bench --set alu_lanes=6 --only blur.fp --threads 4
for a in simd4 vliw superscalar; do
    refused "run --arch $a at 6 lanes" "$a: alu_lanes=6 cannot be built" \
        "$U" run --arch $a --set alu_lanes=6 bench/programs/blur.fp
done
refused "run --arch hetero at 6 lanes" "hetero 3+1: alu_lanes=6 cannot be built from processors of 4 lanes" \
    "$U" run --arch hetero --set alu_lanes=6 bench/programs/blur.fp
refused "hetero 4+1 at 8 lanes" "hetero 4+1: alu_lanes=8 cannot be built from processors of 5 lanes; it takes a multiple of 5 (5, 10, 15, ...)" \
    "$U" run --arch hetero --set hetero_vec_width=4 bench/programs/blur.fp
refused "run --arch all at 6 lanes" "alu_lanes=6 cannot be built" \
    "$U" run --arch all --set alu_lanes=6 bench/programs/blur.fp
accepted "hetero 4+1 at 10 lanes" "$U" run --arch hetero \
    --set hetero_vec_width=4 --set alu_lanes=10 bench/programs/blur.fp
accepted "scalar at 6 lanes" "$U" run --arch scalar --set alu_lanes=6 \
    bench/programs/blur.fp
accepted "bench scalar at 6 lanes" "$U" bench --set alu_lanes=6 \
    --arch scalar --only blur.fp --threads 4
if "$U" bench --only blur.fp --threads 16 --arch hetero --no-plots \
        --out "$tmp/het" > "$tmp/out" 2> "$tmp/err" &&
    grep -q "^Variant hetero-4+1 at 5 ALU lanes:" "$tmp/het/report.md" &&
    grep -q "every model at 8 scalar ALU lanes" "$tmp/het/report.md"; then ok
else bad "report: hetero-4+1's lanes"; fi

# ---- 5. NUL bytes in programs ----------------------------------------------
printf '#version 330\nout vec4 c;\nvoid main()\n{\n    c = vec4(1.0);\n}\n  \000 c = vec4(0.0);\n' \
    > "$tmp/nul.frag"
refused "NUL in GLSL 3.30" "$tmp/nul.frag:7:3: error: NUL byte in the source" \
    "$U" glsl "$tmp/nul.frag"
printf 'void main()\n{\n    gl_FragColor = vec4(1.0);\n}\n\000}\n' \
    > "$tmp/nul_legacy.frag"
refused "NUL in GLSL 1.10" "$tmp/nul_legacy.frag:5:1: error: NUL byte in the source" \
    "$U" glsl "$tmp/nul_legacy.frag"
printf '%s\n' "nul.frag $ROOT/bench/scenes/fog.scn ff" > "$tmp/nul.list"
refused "NUL in a bench program" "ushader: $tmp/nul.frag:7:3: error: NUL byte" \
    "$U" bench --suite "$tmp/nul.list" --threads 4 --arch scalar
printf '#version 110garbage\nvoid main() { gl_FragColor = vec4(1.0); }\n' \
    > "$tmp/ver.frag"
refused "#version with a suffix" "$tmp/ver.frag:1:1: error: unexpected text after #version 110" \
    "$U" glsl "$tmp/ver.frag"
printf '!!ARBfp1.0\n# a comment \000 with a NUL\nMOV result.color, fragment.color;\nEND\n' \
    > "$tmp/nul.fp"
if "$U" asm -S "$tmp/nul.fp" > "$tmp/out" 2> "$tmp/err" &&
    grep -q '^MOV result.color' "$tmp/out"; then ok
else bad "ARB program with a NUL in a comment is not read to its END"; fi

# ---- 6. `config` writes the whole configuration, [sfu] included -----------
# Its output read back with --config gives the same configuration again.
if "$U" config --config "$ROOT/configs/egpu-4t.ini" --set sfu.rcp.k=5 \
        --set sfu.w2=16 > "$tmp/eff.ini" &&
    grep -q '^\[sfu\]$' "$tmp/eff.ini" && grep -q '^rcp.k = 5$' "$tmp/eff.ini" &&
    grep -q '^w2 = 16$' "$tmp/eff.ini" && grep -q '^simt_launch = 7500$' "$tmp/eff.ini" &&
    "$U" config --config "$tmp/eff.ini" | cmp -s - "$tmp/eff.ini"; then ok
else bad "config: the effective configuration with [sfu] does not read back"; fi

echo "ini: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
