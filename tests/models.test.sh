#!/bin/sh
# Every core model produces the reference interpreter's bits (SPEC 2): each
# bench program and each piglit asmparsertest ARB program that assembles
# runs 8 threads with deterministic inputs on all five models
# (`ushader run --arch all`, which compares every model's outputs with the
# interpreter's and exits 1 on a difference); the run must also be
# deterministic (two runs print the same table).
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
DIR=/usr/lib/x86_64-linux-gnu/piglit/tests/asmparsertest/shaders
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
check() {
    f=$1
    if "$U" run "$f" --arch all --threads 8 > "$tmp/a" 2> "$tmp/err" &&
        "$U" run "$f" --arch all --threads 8 > "$tmp/b" 2>> "$tmp/err" &&
        cmp -s "$tmp/a" "$tmp/b"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $f"
        head -n 5 "$tmp/err"
        fail=$((fail + 1))
    fi
}

for f in bench/programs/*.vp bench/programs/*.fp bench/scenes/*.vp \
         bench/scenes/*.fp tests/run/*.vp tests/run/*.fp; do
    check "$f"
done
if [ -d "$DIR" ]; then
    for f in "$DIR"/ARBvp1.0/*.txt "$DIR"/ARBfp1.0/*.txt; do
        # Only programs the assembler accepts (the rest are reject cases).
        "$U" asm "$f" > /dev/null 2>&1 || continue
        check "$f"
    done
else
    echo "models: piglit not installed; bench programs only"
fi
# Flow control (OPTION USHADER_extensions): a loop whose trip count and
# an IF whose side depend on each thread's inputs, on all five models and
# on scalar SPs in lockstep, where the lanes diverge.
cat > "$tmp/flow.fp" <<'EOF'
!!ARBfp1.0
OPTION USHADER_extensions;
TEMP i, k, acc;
MOV i.x, 0;
MOV acc, 0;
BGNLOOP;
  SGE k.x, i.x, fragment.texcoord[0].x;
  IF k.x; BRK; ENDIF;
  MAD acc, fragment.color, fragment.texcoord[0], acc;
  ADD i.x, i.x, 0.125;
ENDLOOP;
SLT k.y, acc.y, 0;
IF k.y;
  RCP acc.x, acc.y;
ELSE;
  MUL acc.x, acc.x, acc.y;
ENDIF;
MOV result.color, acc;
END
EOF
check "$tmp/flow.fp"
if "$U" run "$tmp/flow.fp" --arch scalar --threads 16 --set lockstep=8 \
        --json > "$tmp/j" 2> "$tmp/err" &&
    grep -q '"divergent_branches": [1-9]' "$tmp/j" &&
    grep -q '"masked_lane_slots": [1-9]' "$tmp/j"; then
    pass=$((pass + 1))
else
    echo "FAIL: lockstep run of a divergent loop reports no divergence"
    head -n 5 "$tmp/err"
    fail=$((fail + 1))
fi
echo "models: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
