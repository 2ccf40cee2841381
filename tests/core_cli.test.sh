#!/bin/sh
# `ushader run --arch` and `ushader config`: options, error messages, the
# stable JSON keys of docs/METRICS.md, --inputs files, determinism.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
P=bench/programs/phong.fp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# expect STATUS MESSAGE-SUBSTRING ARGS...
expect() {
    want_rc=$1 want_msg=$2
    shift 2
    "$U" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want_rc" ] && grep -qF -- "$want_msg" "$tmp/err"; then
        ok
    else
        bad "$* -> exit $rc (want $want_rc): $(cat "$tmp/err")"
    fi
}
expect 2 "unknown --arch 'gpu'" run "$P" --arch gpu
expect 2 "unknown knob 'bogus'" run "$P" --arch scalar --set bogus=1
expect 2 "lut_banks: 0 out of range (1..64)" run "$P" --arch scalar --set lut_banks=0
expect 2 "sfu: want one of partial|full|pool" run "$P" --arch scalar --set sfu=half
expect 2 "--threads wants 1..16777216" run "$P" --arch scalar --threads 0
printf '[core]\nalu_lanes = 8\nlookahead = 99\n' > "$tmp/bad.ini"
expect 2 "bad.ini:3: error: lookahead: 99 out of range" run "$P" --arch scalar --config "$tmp/bad.ini"
printf 'fragment.bogus=1\n' > "$tmp/bad.in"
expect 2 "unknown input binding" run "$P" --arch scalar --inputs "$tmp/bad.in"

# JSON: the documented keys.
"$U" run "$P" --arch scalar --json --threads 16 > "$tmp/j" 2>&1 || bad "json run"
for k in '"arch": "scalar"' '"cycles"' '"threads": 16' '"useful_ops"' \
         '"alu_lanes": 8' '"utilization"' '"stalls": {' '"dependency"' \
         '"lut": {' '"accesses"' '"merged"' '"conflicts"' '"stall_cycles"' \
         '"instr_bits"' '"area"' '"energy"' '"area_delay"' '"outputs": ['; do
    grep -qF -- "$k" "$tmp/j" && ok || bad "json key $k"
done
# --arch all: one row per model, and the same numbers twice.
"$U" run "$P" --arch all --threads 32 > "$tmp/a1" 2>&1 || bad "arch all"
"$U" run "$P" --arch all --threads 32 > "$tmp/a2" 2>&1
cmp -s "$tmp/a1" "$tmp/a2" && ok || bad "arch all is not deterministic"
for m in scalar simd4 vliw superscalar hetero; do
    grep -q "^$m " "$tmp/a1" && ok || bad "no row for $m"
done
# --inputs: line i mod lines feeds thread i.
printf '# two threads\nfragment.color=1,0,0,1 fragment.texcoord[0]=0,0,1,1\n\nfragment.color=0,1,0,1\n' > "$tmp/in"
"$U" run tests/run/arith.fp --arch scalar --inputs "$tmp/in" > "$tmp/o" 2>&1 || bad "inputs run"
grep -q "^thread 1: " "$tmp/o" && ! grep -q "^thread 2: " "$tmp/o" && ok || bad "inputs: two threads"
# Configs load; config --list names every knob of knobs.def.
for c in configs/*.ini; do
    "$U" run "$P" --arch scalar --config "$c" --threads 8 > /dev/null 2>&1 && ok || bad "config $c"
done
"$U" config --list > "$tmp/l" || bad "config --list"
for k in $(sed -n 's/^KNOB(\([a-z_0-9]*\),.*/\1/p' shader/knobs.def); do
    grep -q "^$k " "$tmp/l" && ok || bad "config --list lacks $k"
done
"$U" config --config configs/private_lut.ini --set lut_banks=8 > "$tmp/c" || bad "config print"
grep -q "^lut = private" "$tmp/c" && grep -q "^lut_banks = 8" "$tmp/c" && ok || bad "config print values"
echo "core_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
