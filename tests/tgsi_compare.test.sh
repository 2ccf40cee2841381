#!/bin/sh
# The comparison with Mesa's TGSI (bench/tgsi_compare.sh, tools/tgsi_count,
# suite/tgsi.c) on three glmark2 pairs: ideas-paper (the issue's example),
# loop-constant (a loop with a BRK in the vertex shader, a loop Mesa
# unrolls in the fragment shader) and texture-bilinear (four texture
# fetches).  Mesa's counts are checked against a hand count of the TGSI
# Mesa 22.3.6 (Debian 12) prints for them, and against an awk count of
# the numbered lines of the log's last VERT/FRAG block, whatever the
# version; our counts against the instructions `ushader glsl` prints (the
# per-thread ones, and apart the PRESHADER block's: ideas-paper has one); the
# bench report has its Mesa rows with the TGSI files and none without.
# Mesa runs the pairs in batches (piglit's multi-test mode), each pair's
# TGSI the same as alone, a pair a batch lost run again alone.
# The TGSI cache: a warm run runs no shader_runner and gives the same TGSI
# and table, a damaged entry and a changed key run Mesa, USHADER_NO_CACHE
# writes nothing.
# Skipped (exit 0) without glmark2-data or piglit's shader_runner.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
T="$BUILD/tools/tgsi_count"
RUNNER=${SHADER_RUNNER:-/usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner}
cd "$(dirname "$0")/.."
DATA=/usr/share/glmark2
if [ ! -d "$DATA/shaders" ] || [ ! -x "$RUNNER" ]; then
    echo "tgsi_compare: SKIP: glmark2-data or piglit's shader_runner missing"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "tgsi_compare: FAIL: $*"; fails=$((fails + 1)); }

G="$tmp/glmark2/gen"   # a path with glmark2/ in it: the report's programs
PAIRS="ideas-paper loop-constant texture-bilinear"
# shader_runner through a wrapper that logs each shader_test it is given
# (a line a test, in "$tmp/runs") and each process (in "$tmp/procs"),
# then runs "$tmp/target" (shader_runner); a cache of our own
cat > "$tmp/runner" <<EOF
#!/bin/sh
echo run >> "$tmp/procs"
for a; do case \$a in *.shader_test) echo "\$a" >> "$tmp/runs" ;; esac; done
exec "$tmp/target" "\$@"
EOF
printf '#!/bin/sh\nexec "%s" "$@"\n' "$RUNNER" > "$tmp/target"
chmod +x "$tmp/runner" "$tmp/target"
export USHADER_CACHE_DIR="$tmp/cache"
unset USHADER_NO_CACHE
runs() { if [ -f "$tmp/runs" ]; then wc -l < "$tmp/runs" | tr -d ' '; else echo 0; fi; }
compare() {   # compare OUT: runs Mesa's side on $PAIRS into OUT; $n tests run
    rm -f "$tmp/runs" "$tmp/procs"
    # shellcheck disable=SC2086  # the pair names are words
    SHADER_RUNNER="$tmp/runner" BUILD=$BUILD GEN=$G OUT="$1" \
        sh bench/tgsi_compare.sh $PAIRS > "$1.run" 2>&1 ||
        fail "tgsi_compare.sh: $(tail -n 3 "$1.run")"
    n=$(runs)
    cat "$G"/*.tgsi > "$1.tgsi"
}
JOBS=2 compare "$tmp/out"
cp "$tmp/out.run" "$tmp/run"
[ "$n" -eq 3 ] || fail "cold TGSI cache: shader_runner ran $n tests, want 3"
# the three in two batches (JOBS=2, whatever the CPUs): two processes
[ "$(wc -l < "$tmp/procs")" -eq 2 ] ||
    fail "cold TGSI cache: $(wc -l < "$tmp/procs") shader_runner processes, want 2"

# A batch's pairs get the TGSI each gets alone (TGSI_BATCH=1: a process
# a pair), and a pair a batch left without TGSI runs again alone: a
# shader_runner that, given three tests, runs the first two (as one that
# died before the third).
USHADER_NO_CACHE=1 TGSI_BATCH=1 compare "$tmp/alone"
[ "$n" -eq 3 ] && [ "$(wc -l < "$tmp/procs")" -eq 3 ] ||
    fail "TGSI_BATCH=1: $n tests in $(wc -l < "$tmp/procs") processes, want 3 in 3"
cmp -s "$tmp/out.tgsi" "$tmp/alone.tgsi" || fail "TGSI_BATCH=1: other TGSI than in batches"
cat > "$tmp/target" <<EOF
#!/bin/sh
[ \$# -ne 5 ] || set -- "\$1" "\$2" "\$4" "\$5"
exec "$RUNNER" "\$@"
EOF
USHADER_NO_CACHE=1 JOBS=1 compare "$tmp/died"
[ "$n" -eq 4 ] || fail "a batch that died before its third test: $n tests run, want 3 + 1"
cmp -s "$tmp/out.tgsi" "$tmp/died.tgsi" || fail "a batch that died before its third test: other TGSI"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$RUNNER" > "$tmp/target"
[ "$(ls "$tmp/cache" | grep -c '^tgsi-.*\.log$')" -eq 3 ] ||
    fail "cold TGSI cache: not 3 entries: $(ls "$tmp/cache")"

# The TGSI cache (bench/tgsi_compare.sh): a warm run runs no Mesa and
# gives the same TGSI and table; a damaged entry is a miss and is
# rewritten; a Mesa variable of the environment is another key;
# USHADER_NO_CACHE=1 runs Mesa and writes nothing.
compare "$tmp/warm"
[ "$n" -eq 0 ] || fail "warm TGSI cache: shader_runner ran $n times"
grep -q "3 from the TGSI cache" "$tmp/warm.run" || fail "warm: $(grep 'TGSI for' "$tmp/warm.run")"
cmp -s "$tmp/out.tgsi" "$tmp/warm.tgsi" || fail "warm TGSI cache: other TGSI"
cmp -s "$tmp/out/table.csv" "$tmp/warm/table.csv" || fail "warm TGSI cache: another table"
# bench/glmark2/bench.sh's TGSI_OUT is not one of Mesa's variables
TGSI_OUT="$tmp/elsewhere" compare "$tmp/tout"
[ "$n" -eq 0 ] || fail "TGSI_OUT changed the TGSI cache's key: shader_runner ran $n times"
e=$(ls "$tmp/cache"/tgsi-*.log | head -n 1)
sed -i '5s/./#/' "$e"
compare "$tmp/bad"
[ "$n" -eq 1 ] || fail "damaged TGSI entry: shader_runner ran $n times, want 1"
cmp -s "$tmp/out.tgsi" "$tmp/bad.tgsi" || fail "damaged TGSI entry: other TGSI"
compare "$tmp/bad2"
[ "$n" -eq 0 ] || fail "rewritten TGSI entry: shader_runner ran $n times"
MESA_USHADER_TEST_KEY=1 compare "$tmp/env"
[ "$n" -eq 3 ] || fail "a Mesa variable: shader_runner ran $n times, want 3"
before=$(ls "$tmp/cache" | wc -l)
USHADER_NO_CACHE=1 compare "$tmp/nocache"
[ "$n" -eq 3 ] || fail "USHADER_NO_CACHE=1: shader_runner ran $n times, want 3"
[ "$(ls "$tmp/cache" | wc -l)" -eq "$before" ] || fail "USHADER_NO_CACHE=1 wrote an entry"
cmp -s "$tmp/out.tgsi" "$tmp/nocache.tgsi" || fail "USHADER_NO_CACHE=1: other TGSI"
[ -z "$(ls -A "$tmp/cache" | grep '^\.tmp')" ] || fail "a temporary file left in the cache"

# Hand counts of Mesa 22.3.6's TGSI: instructions (END left out) and
# widths 1/2/3/4 (texture fetches and flow left out).  ideas-paper.vert:
# 0-7 the two matrix products, 4 wide; 8 ADD .xyz, 9 DP3, 11 MUL .xyz,
# 12 DP3: 3; 25 MOV .xy: 2; the other fourteen one.  loop-constant.vert:
# BGNLOOP, UIF, BRK, ENDIF, ENDLOOP are flow; the matrix product 14-17
# four wide; the other nine .x.  loop-constant.frag: the five trips
# unrolled, all .x but 13 FRC .xyz.  texture-bilinear.frag: four TEX;
# MUL, FRC, MOV, MOV, ADD .xy; ADD, three LRP and MUL four wide.
mesa_version=$(dpkg-query -W -f='${Version}' libgl1-mesa-dri 2>/dev/null || echo none)
case "$mesa_version" in
22.3.6-*) hand=yes ;;
*) hand=no; echo "tgsi_compare: Mesa $mesa_version, not 22.3.6: hand counts not checked" ;;
esac
while read -r file n w loops; do
    got=$("$T" count "$G/$file.tgsi" 2>&1) || { fail "$file: $got"; continue; }
    want="$G/$file.tgsi instructions=$n w1=${w%%/*}"
    rest=${w#*/}; want="$want w2=${rest%%/*}"
    rest=${rest#*/}; want="$want w3=${rest%%/*} w4=${rest#*/}"
    case "$got" in
    "$want "*" loops=$loops") ;;
    *) [ "$hand" = no ] || fail "$file: $got, hand count: $want" ;;
    esac
done <<EOF
ideas-paper.vert 27 14/1/4/8 0
ideas-paper.frag 1 0/0/0/1 0
loop-constant.vert 18 9/0/0/4 1
loop-constant.frag 15 14/0/1/0 0
texture-bilinear.frag 14 0/5/0/5 0
EOF

# every stage: the tool's count against an awk count of the log's last
# block, and the table's ours against `ushader glsl`'s instruction lines
for p in $PAIRS; do
    for st in vert frag; do
        k=$([ $st = vert ] && echo VERT || echo FRAG)
        awkn=$(awk -v k="$k" '
            $0 == k { n = 0; inblk = 1; next }
            inblk && /^ *[0-9]+: / { if ($2 != "END") n++; next }
            inblk && !/^(DCL |IMM\[|PROPERTY )/ { inblk = 0; last = n }
            END { if (inblk) last = n; print last + 0 }' "$tmp/out/logs/$p.log")
        tool=$("$T" count "$G/$p.$st.tgsi" | sed 's/.*instructions=\([0-9]*\).*/\1/')
        [ "$awkn" = "$tool" ] && [ "$tool" -gt 0 ] ||
            fail "$p.$st: tgsi_count says $tool, the log's last $k block has $awkn"
        # the per-thread instructions, and apart the preshader's block
        "$U" glsl "$G/$p.$st" > "$tmp/ir"
        ours=$(awk '/^PRESHADER;$/ { b = 1; next } /^ENDPRESHADER;$/ { b = 0; next }
            !b && /;$/ && !/^(TEMP|PARAM|OPTION|ATTRIB|OUTPUT|ADDRESS) / { n++ }
            END { print n + 0 }' "$tmp/ir")
        pre=$(awk '/^PRESHADER;$/ { b = 1; next } /^ENDPRESHADER;$/ { b = 0; next }
            b && /;$/ && !/^(TEMP|PARAM|ATTRIB|OUTPUT|ADDRESS|ALIAS) / { n++ }
            END { print n + 0 }' "$tmp/ir")
        col=$([ $st = vert ] && echo 2 || echo 5)
        mcol=$((col + 1))
        pcol=$([ $st = vert ] && echo 12 || echo 13)
        row=$(grep "^$p," "$tmp/out/table.csv")
        [ "$(echo "$row" | cut -d, -f$col)" = "$ours" ] ||
            fail "$p.$st: table says ours $(echo "$row" | cut -d, -f$col), ushader glsl $ours"
        [ "$(echo "$row" | cut -d, -f$pcol)" = "$pre" ] ||
            fail "$p.$st: table says preshader $(echo "$row" | cut -d, -f$pcol), ushader glsl $pre"
        [ "$(echo "$row" | cut -d, -f$mcol)" = "$tool" ] ||
            fail "$p.$st: table says Mesa $(echo "$row" | cut -d, -f$mcol), tgsi_count $tool"
    done
done
grep -q '^| \*\*total\*\* |' "$tmp/out/table.md" || fail "table.md has no total row"
grep -q '^median,' "$tmp/out/table.csv" || fail "table.csv has no median row"

# the report: Mesa's rows with the TGSI files, none without
abs=$(pwd)
for p in ideas-paper.vert texture-bilinear.frag loop-constant.frag; do
    echo "$p $abs/bench/glmark2/${p%.*}.scn $(echo "${p#*.}" | cut -c1)"
done > "$G/t.list"
mkdir -p bench/glmark2/gen   # the scenes' own programs
"$BUILD/tools/glmark2_gen" bench/glmark2/pairs.txt "$DATA/shaders" bench/glmark2/gen > /dev/null
bench() {
    "$U" bench --suite "$G/t.list" --arch simd4 --threads 16 --jobs 2 \
        --no-plots --out "$tmp/$1" > "$tmp/$1.log" 2>&1 ||
        fail "bench: $(tail -n 2 "$tmp/$1.log")"
}
bench with
r="$tmp/with/report.md"
grep -q "^### Against Mesa's TGSI" "$r" || fail "no Mesa section in the report"
# 27 + 14 + 15 of Mesa's instructions; four-wide: (8/27 + 5/10 + 0) / 3
grep -q '^| all | 3 | [0-9]* | 56 |' "$r" || fail "report: Mesa's instructions are not 56: $(grep '^| all | 3' "$r")"
grep -q "26.5% on Mesa's mix" "$r" || fail "report: Mesa's four-wide share is not 26.5%"
# loop-constant.frag: Mesa unrolls the loop; ours is listed while it keeps it
if "$U" glsl "$G/loop-constant.frag" | grep -q '^BGNLOOP'; then
    grep -q "^- loop-constant.frag: 1 loop in ours, 0 in Mesa's; static [0-9]* against 15; ours executes [0-9.]* per thread" "$r" ||
        fail "report: loop-constant.frag is not listed with its loops"
else
    grep -q "^- loop-constant.frag" "$r" && fail "report: loop-constant.frag listed without a loop"
fi
grep -q 'TGSI mix |' "$r" ||
    fail "report: no utilization on Mesa's mix"
rm -f "$G"/*.tgsi
bench without
grep -q "Mesa's TGSI\|TGSI mix" "$tmp/without/report.md" &&
    fail "the report has Mesa rows without the TGSI files"

echo "tgsi_compare: 3 pairs, Mesa's TGSI and ours counted, $fails failures"
[ "$fails" -eq 0 ]
