#!/bin/sh
# ushader compute (docs/COMPUTE.md): kernels run over workgroups with
# buffers from files, results checked against values computed here in
# awk/od (a reference independent of the model), the error cases (bad
# options, a local size over the limit, a budget overrun, an output that
# is an input), and that a failed launch writes no output file.
set -u
BUILD=${BUILD:-build}
U="$(pwd)/$BUILD/ushader"
cd "$(dirname "$0")/compute"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# words FILE: the little-endian uint32 words of FILE, one per line
words() { od -An -v -t u4 -w4 "$1" | tr -d ' '; }

# sum.cp: 3n + 5, the triangular numbers, and a count
printf '\144\000\000\000' > "$tmp/c.bin"     # counter starts at 100
if "$U" compute sum.cp --groups 3 --buffer 0=,48 --buffer 1=,48 \
    --buffer 2="$tmp/c.bin" --out 0="$tmp/a.bin" --out 1="$tmp/b.bin" \
    --out 2="$tmp/c2.bin" > "$tmp/out" 2> "$tmp/err"; then
    want=$(awk 'BEGIN { for (n = 0; n < 12; n++) print 3 * n + 5 }')
    [ "$(words "$tmp/a.bin")" = "$want" ] && ok || bad "sum.cp: buffer 0"
    want=$(awk 'BEGIN { for (n = 0; n < 12; n++) print n * (n + 1) / 2 }')
    [ "$(words "$tmp/b.bin")" = "$want" ] && ok || bad "sum.cp: buffer 1"
    [ "$(words "$tmp/c2.bin")" = 112 ] && ok || bad "sum.cp: the counter"
    grep -q "^memory: 0 loads, 24 stores, 12 atomics, 192 bytes, 0 out of bounds$" \
        "$tmp/out" && ok || bad "sum.cp: memory counts: $(cat "$tmp/out")"
else
    bad "sum.cp: $(cat "$tmp/err")"
fi

# reduce.cp: per-workgroup sums of 0..191 by a tree of barriers
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", i, 0, 0, 0 }' \
    > "$tmp/in.bin" 2>/dev/null
if [ "$(stat -c %s "$tmp/in.bin")" -ne 768 ]; then
    # awk printed multibyte characters: fall back to od-free octal escapes
    i=0; : > "$tmp/in.bin"
    while [ $i -lt 192 ]; do
        printf "$(printf '\\%03o' $i)\000\000\000" >> "$tmp/in.bin"
        i=$((i + 1))
    done
fi
if "$U" compute reduce.cp --groups 3 --buffer 0="$tmp/in.bin" \
    --buffer 1=,12 --out 1="$tmp/r.bin" > "$tmp/out" 2> "$tmp/err"; then
    want=$(awk 'BEGIN { for (g = 0; g < 3; g++) print 64 * 64 * g + 2016 }')
    [ "$(words "$tmp/r.bin")" = "$want" ] && ok ||
        bad "reduce.cp: $(words "$tmp/r.bin" | tr '\n' ' ') want $want"
else
    bad "reduce.cp: $(cat "$tmp/err")"
fi

# every core model: the interpreter's buffers, and its statistics
for m in scalar simd4 vliw superscalar hetero; do
    if "$U" compute reduce.cp --groups 3 --arch $m --set threads_per_proc=32 \
        --set lockstep=4 --buffer 0="$tmp/in.bin" --buffer 1=,12 \
        --out 1="$tmp/r_$m.bin" > "$tmp/out" 2> "$tmp/err" &&
        cmp -s "$tmp/r.bin" "$tmp/r_$m.bin" &&
        grep -q "barrier_instructions  *1344 " "$tmp/out"; then
        ok
    else
        bad "reduce.cp on $m: $(cat "$tmp/err")"
    fi
    if "$U" compute sum.cp --groups 3 --arch $m --buffer 0=,48 --buffer 1=,48 \
        --buffer 2="$tmp/c.bin" --out 1="$tmp/b_$m.bin" \
        --out 2="$tmp/c_$m.bin" > "$tmp/out" 2> "$tmp/err" &&
        cmp -s "$tmp/b.bin" "$tmp/b_$m.bin" && cmp -s "$tmp/c2.bin" "$tmp/c_$m.bin"
    then
        ok
    else
        bad "sum.cp on $m: $(cat "$tmp/err")"
    fi
done
"$U" compute reduce.cp --groups 1 --arch scalar > "$tmp/out" 2> "$tmp/err"
grep -qF "a workgroup of 64 threads needs 64 thread slots resident together; the model has alu_lanes x threads_per_proc = 8 x 4 = 32: raise threads_per_proc or alu_lanes" "$tmp/err" &&
    ok || bad "a workgroup over the slots: $(cat "$tmp/err")"

# --json
"$U" compute sum.cp --groups 2 --json > "$tmp/j" 2>&1 &&
    python3 -m json.tool "$tmp/j" > /dev/null &&
    grep -q '"work_items": 8' "$tmp/j" && grep -q '"oob": 24' "$tmp/j" &&
    ok || bad "--json: $(cat "$tmp/j")"

# expect STATUS MESSAGE ARGS...: the exit status and a stderr line
expect() {
    want_rc=$1 want=$2
    shift 2
    "$U" compute "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want_rc" ] && grep -qF -- "$want" "$tmp/err"; then
        ok
    else
        bad "compute $* -> $rc (want $want_rc): $(cat "$tmp/err") (want: $want)"
    fi
}
expect 2 "compute: --groups wants X[,Y[,Z]] of counts >= 1, not '0'" sum.cp --groups 0
expect 2 "compute: bad binding '32=,4' (B=..., B 0..31)" sum.cp --groups 1 --buffer 32=,4
expect 2 "compute: --local of 2048 invocations (limit 1024)" sum.cp --groups 1 --local 64,32
expect 2 "compute: unknown --arch 'gpu'" sum.cp --groups 1 --arch gpu
expect 2 "compute: unknown option '--bogus'" sum.cp --groups 1 --bogus
expect 1 "4 bytes, more than the buffer's 2" sum.cp --groups 1 --buffer 2="$tmp/c.bin",2
expect 1 "error: expected a compute program (!!USHADERcp1.0), found !!ARBfp1.0" ../budget/nested.fp --groups 1
cat > "$tmp/spin.cp" <<'SPIN'
!!USHADERcp1.0
spin:
BRA spin;
END
SPIN
expect 1 "thread 0 executed more than 5000 instructions" "$tmp/spin.cp" \
    --groups 2 --set max_instructions=5000 --out 0="$tmp/none.bin"
[ -e "$tmp/none.bin" ] && bad "a failed launch wrote its output" || ok
cp "$tmp/c.bin" "$tmp/same.bin"
expect 1 "is also the input file" sum.cp --groups 1 --buffer 2="$tmp/same.bin" \
    --out 2="$tmp/same.bin"
[ "$(words "$tmp/same.bin")" = 100 ] && ok || bad "the input was overwritten"

echo "compute_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
