#!/bin/sh
# ushader asm --target T (-S listing, -o binary), dis, and stats --json:
# every target's binary decodes back to its listing, and stats reports the
# instruction ratios over piglit's ARB programs.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

cat > "$tmp/p.vp" <<'EOP'
!!ARBvp1.0
PARAM mvp[4] = { state.matrix.mvp };
PARAM c = { 0.5, 2, -1, 4 };
TEMP r0, r1;
ADDRESS a;
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
DP3 r0.xyz, vertex.normal, vertex.normal;
RSQ r0.w, r0.x;
MUL r1.xyz, vertex.normal, r0.w;
XPD r1.xyz, r1, vertex.color;
LIT r0, c;
ARL a.x, c.x;
MAD result.color, mvp[a.x + 1], r1.yzxw, r0;
RCP result.texcoord[0].xyw, c.w;
END
EOP

for t in scalar scalar-nocompact simd4 vliw vliw5 superscalar hetero; do
    if ! "$U" asm --target $t -S "$tmp/p.vp" > "$tmp/$t.S"; then
        echo "FAIL: asm --target $t -S"; fail=1; continue
    fi
    if ! "$U" asm --target $t -o "$tmp/$t.bin" "$tmp/p.vp"; then
        echo "FAIL: asm --target $t -o"; fail=1; continue
    fi
    if ! "$U" dis --target $t "$tmp/$t.bin" > "$tmp/$t.dis"; then
        echo "FAIL: dis --target $t"; fail=1; continue
    fi
    if ! cmp -s "$tmp/$t.S" "$tmp/$t.dis"; then
        echo "FAIL: $t: dis differs from the -S listing"; fail=1
    fi
    # header: 5 words, then nwords * ceil(bits / 32) words
    bits=$(od -An -tu4 -j12 -N4 "$tmp/$t.bin" | tr -d ' ')
    n=$(od -An -tu4 -j16 -N4 "$tmp/$t.bin" | tr -d ' ')
    size=$(wc -c < "$tmp/$t.bin")
    want=$(( 4 * (5 + n * ((bits + 31) / 32)) ))
    lines=$(wc -l < "$tmp/$t.dis")
    if [ "$size" -ne "$want" ] || [ "$lines" -ne "$n" ]; then
        echo "FAIL: $t: $size bytes / $lines lines for $n words of $bits bits"; fail=1
    fi
    echo "scalar_cli: $t: $n words of $bits bits"
done
# a binary of another target is refused
if "$U" dis --target simd4 "$tmp/scalar.bin" >/dev/null 2>&1; then
    echo "FAIL: dis accepted a scalar binary as simd4"; fail=1
fi
# the compacted listing uses repeat counters
grep -q '^DOT\[4\]' "$tmp/scalar.S" || { echo "FAIL: no DOT[4] in the scalar listing"; fail=1; }

DIR=/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders
if [ -d "$DIR" ]; then
    "$U" stats --json "$DIR"/ARBvp1.0/* "$DIR"/ARBfp1.0/* > "$tmp/stats.json" 2>/dev/null
    if ! grep -q '"compacted_per_vec4"' "$tmp/stats.json"; then
        echo "FAIL: stats --json gives no ratios"; fail=1
    else
        sed -n 's/.*"programs": \([0-9]*\).*"total": {"vec4_instructions": \([0-9]*\), "scalar_instructions": \([0-9]*\), "compacted_instructions": \([0-9]*\).*"compacted_per_vec4": \([0-9.]*\).*/scalar_cli: piglit ARB: \1 programs, vec4 \2, scalar \3, compacted \4 (\5 per vec4)/p' "$tmp/stats.json"
    fi
fi
exit $fail
