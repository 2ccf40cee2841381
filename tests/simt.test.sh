#!/bin/sh
# The seeds' SIMT machines on --arch simt with their presets (configs/,
# docs/seeds/): each kernel's published results and cycle counts --
# kGPU's add_const and diverge (seed 003: 128/128, 2099 and 4579 cycles,
# and the closed form 3 + B (83 + 6T) for add_const), the FPGA fork's test
# kernels (seed 002: results, and 89 / 113 / 29 cycles from enable to
# core 0's done on its RTL; divergent_load's 76), upstream tiny-gpu's
# matadd and matmul (178 and 491, adam-maj/tiny-gpu's published counts) --
# and, for every kernel and preset, memory equal to the interpreter's.
set -u
BUILD=${BUILD:-build}
U="$(pwd)/$BUILD/ushader"
cfg="$(pwd)/configs"
cd "$(dirname "$0")/../bench/seeds"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 refused=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run ISA FILE PRESET [options]: the report in $tmp/out, its cycles in $cyc
run() {
    isa=$1 file=$2 preset=$3
    shift 3
    if "$U" compute --isa "$isa" "$file" --arch simt \
        --config "$cfg/$preset.ini" "$@" > "$tmp/out" 2>&1; then
        cyc=$(awk '$1 == "cycles" { print $2 }' "$tmp/out")
    else
        cyc="failed: $(cat "$tmp/out")"
    fi
}

cycles() {   # ISA FILE PRESET WANT [options]
    isa=$1 file=$2 preset=$3 want=$4
    shift 4
    run "$isa" "$file" "$preset" "$@"
    [ "$cyc" = "$want" ] && ok || bad "$file on $preset $*: $cyc cycles, want $want"
}

# ---- kGPU (seed 003) ----------------------------------------------------
cycles kgpu kgpu/add_const.asm kgpu 2099 --print-memory 0,128
# out[g] = 3g + 5 for the 128 threads
want=$(awk 'BEGIN { for (g = 0; g < 128; g++) printf "%s%d", g ? " " : "", 3 * g + 5 }')
got=$(sed -n 's/^mem\[0\.\.127\]: //p' "$tmp/out")
[ "$got" = "$want" ] && ok || bad "add_const: outputs '$got'"
cycles kgpu kgpu/diverge.asm kgpu 4579 --print-memory 0,128
want=$(awk 'BEGIN { for (g = 0; g < 128; g++) printf "%s%d", g ? " " : "", g % 8 }')
got=$(sed -n 's/^mem\[0\.\.127\]: //p' "$tmp/out")
[ "$got" = "$want" ] && ok || bad "diverge: outputs '$got'"
# PDOM issues the same 29 warp instructions per block (reconvergence at
# the store), so the same cycles.
cycles kgpu kgpu/diverge.asm kgpu 4579 --set reconv=pdom
# add_const's closed form, whatever the warp count: no latency hiding
for w in 1 2 4; do
    for b in 1 3 16; do
        for t in 1 5 8; do
            cycles kgpu kgpu/add_const.asm kgpu $((3 + b * (83 + 6 * t))) \
                --blocks $b --threads $t --set simt_warps=$w
        done
    done
done

# ---- The FPGA fork (seed 002) -------------------------------------------
regs() {   # the R values of threads 0..3 of block 0, "a b c d"
    awk -v r="$1" '$1 == "block" && $2 == "0" && $4 + 0 < 4 {
        for (i = 5; i <= NF; i++) if (index($i, r "=") == 1)
            printf "%s%s", n++ ? " " : "", substr($i, length(r) + 2) }' \
        "$tmp/out"
}
cycles fpga fpga/divergence.asm fpga 89 --show-registers R3
[ "$(regs R3)" = "10 10 20 20" ] && ok || bad "divergence: R3 = $(regs R3)"
cycles fpga fpga/divmerge.asm fpga 113 --show-registers R3,R4
[ "$(regs R3)" = "10 10 20 20" ] && ok || bad "divmerge: R3 = $(regs R3)"
[ "$(regs R4)" = "7 7 7 7" ] && ok || bad "divmerge: R4 = $(regs R4)"
cycles fpga fpga/tid_demo.asm fpga 29 --show-registers R1
got=$(awk '$1 == "block" && $2 == "0" { sub("R1=", "", $5); printf "%s%s", n++ ? " " : "", $5 }' "$tmp/out")
[ "$got" = "0 1 2 3 4 5 6 7" ] && ok || bad "tid_demo: R1 = $got"
run fpga fpga/sum07.asm fpga --print-memory 0,1
[ "$(grep -c 'mem\[0\.\.0\]: 28$' "$tmp/out")" = 2 ] && ok ||
    bad "sum07: not 28 on both cores: $(cat "$tmp/out")"
# A kernel with loads: TID; LDR; RET (the fork's software/divergent_load.asm),
# 76 cycles on its RTL (parking, the 6-cycle-per-lane read arbiter).
printf '// .blocks 2\n// .threads 8\nTID R1\nLDR R2, [R1]\nRET\n' > "$tmp/dl.asm"
cycles fpga "$tmp/dl.asm" fpga 76

# ---- Upstream tiny-gpu ----------------------------------------------------
cycles tinygpu tinygpu/matadd.asm tinygpu 178 --print-memory 16,8
[ "$(sed -n 's/^mem\[16\.\.23\]: //p' "$tmp/out")" = "0 2 4 6 8 10 12 14" ] &&
    ok || bad "matadd: $(cat "$tmp/out")"
cycles tinygpu tinygpu/matmul.asm tinygpu 491 --print-memory 8,4
[ "$(sed -n 's/^mem\[8\.\.11\]: //p' "$tmp/out")" = "7 10 15 22" ] &&
    ok || bad "matmul: $(cat "$tmp/out")"

# ---- Every kernel on every preset it fits: the interpreter's memory -------
for k in kgpu/*.asm fpga/*.asm tinygpu/*.asm; do
    isa=${k%%/*}
    "$U" compute --isa "$isa" "$k" --dump-memory "$tmp/ref.hex" > /dev/null 2>&1 ||
        { bad "$k: the interpreter failed"; continue; }
    for p in kgpu fpga tinygpu egpu-4t egpu-8t egpu-16t dice; do
        if "$U" compute --isa "$isa" "$k" --arch simt --config "$cfg/$p.ini" \
            --dump-memory "$tmp/got.hex" > "$tmp/out" 2>&1; then
            cmp -s "$tmp/ref.hex" "$tmp/got.hex" && ok ||
                bad "$k on $p: memory differs from the interpreter"
        elif grep -q "must fit one core\|reconv=sync\|reconv=none" "$tmp/out"; then
            ok   # a machine that cannot run it says why
            refused=$((refused + 1))
        else
            bad "$k on $p: $(cat "$tmp/out")"
        fi
    done
done

echo "simt: $pass passed, $fail failed ($refused kernel-preset pairs refused with the machine's reason)"
[ "$fail" -eq 0 ]
