#!/bin/sh
# The seeds' front ends (docs/seeds/): every kernel in bench/seeds/ assembles
# to the published words (SIMT-NOTES 1.2/1.3: the fork's software/*.hex,
# kGPU's gpu_testbench.py enc(), tiny-gpu's test_*.py), asm -> dis -> asm
# gives the same words, and each kernel's results are the published ones on
# the functional interpreter and on --arch scalar (expected values computed
# here in awk); then the error cases.
set -u
BUILD=${BUILD:-build}
U="$(pwd)/$BUILD/ushader"
cd "$(dirname "$0")/../bench/seeds"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# words ISA FILE: the kernel's words on one line, lower case
words() { "$U" asm --isa "$1" "$2" | tr 'A-F\n' 'a-f ' | sed 's/ $//'; }

check_hex() {   # ISA FILE "published words"
    got=$(words "$1" "$2")
    [ "$got" = "$3" ] && ok || bad "$2: words '$got', published '$3'"
    # round trip through the disassembler
    "$U" asm --isa "$1" -o "$tmp/k.hex" "$2" &&
        "$U" dis --isa "$1" "$tmp/k.hex" > "$tmp/k.asm" &&
        [ "$(words "$1" "$tmp/k.asm")" = "$3" ] && ok ||
        bad "$2: asm -> dis -> asm differs"
    # the .hex runs as the text does: its words equal the published ones
    [ "$(tr 'A-F\n' 'a-f ' < "$tmp/k.hex" | sed 's/ $//')" = "$3" ] && ok ||
        bad "$2: -o wrote other words"
}

check_hex kgpu kgpu/add_const.asm \
    "20200005 20e00100 0fdf1800 047d2000 04873000 18a60000 04a11000 14440000 1c000000"
check_hex kgpu kgpu/diverge.asm \
    "07a00800 20400001 20c00000 24200007 08220800 04c23000 28200004 0fdf1800 047d2000 14c40000 1c000000"
check_hex fpga fpga/divergence.asm "2240 2402 3042 8806 2614 f000 260a f001"
check_hex fpga fpga/divmerge.asm "2240 2402 3042 8808 2614 f001 2807 f000 260a f001"
check_hex fpga fpga/tid_demo.asm "2240 f000"
check_hex fpga fpga/mac32.asm \
    "2014 221e 6040 6040 6040 6040 6040 6040 6040 6040 7800 7a01 7c02 7e03 243f 2604 b083 b084 b085 b086 b087 f000"
check_hex fpga fpga/dotprod.asm "2202 2403 aa42 2204 2405 ac42 1746 f000"
check_hex tinygpu tinygpu/matadd.asm \
    "50de 300f 9100 9208 9310 3410 7440 3520 7550 3645 3730 8076 f000"
check_hex tinygpu tinygpu/matmul.asm \
    "50de 300f 9101 9202 9300 9404 9508 6602 5762 4707 9800 9900 5a62 3aa9 3aa3 7aa0 5b92 3bb7 3bb4 7bb0 5cab 388c 3991 2092 180c 3950 8098 f000"

# run ISA FILE ARCH ARGS...: the printed lines of one run
run() { isa=$1 file=$2 arch=$3; shift 3; "$U" compute --isa "$isa" "$file" --arch "$arch" "$@"; }
mem() { grep "^$1" | sed 's/^[^:]*: //'; }

for arch in functional scalar; do
    # kGPU add_const: out[g] = 3g + 5 for all 128 work-items
    want=$(awk 'BEGIN { for (g = 0; g < 128; g++) printf "%s%d", g ? " " : "", 3 * g + 5 }')
    got=$(run kgpu kgpu/add_const.asm $arch --print-memory 0,128 | mem "mem\[0..127\]")
    [ "$got" = "$want" ] && ok || bad "add_const on $arch: $got"
    # diverge: out[g] = g % 8
    want=$(awk 'BEGIN { for (g = 0; g < 128; g++) printf "%s%d", g ? " " : "", g % 8 }')
    got=$(run kgpu kgpu/diverge.asm $arch --print-memory 0,128 | mem "mem\[0..127\]")
    [ "$got" = "$want" ] && ok || bad "diverge on $arch: $got"
    # the same from the .hex with the launch given as options
    "$U" asm --isa kgpu -o "$tmp/d.hex" kgpu/diverge.asm
    got=$(run kgpu "$tmp/d.hex" $arch --blocks 16 --threads 8 --print-memory 0,128 |
          mem "mem\[0..127\]")
    [ "$got" = "$want" ] && ok || bad "diverge.hex on $arch: $got"

    # the fork: registers of every thread (2 blocks x 8)
    regs() { run fpga "fpga/$1.asm" $arch --show-registers "$2" | grep '^block' |
             sed 's/^block \([0-9]*\) thread \([0-9]*\): /\1.\2 /' | tr '\n' ';'; }
    want=$(awk 'BEGIN { for (b = 0; b < 2; b++) for (t = 0; t < 8; t++)
                printf "%d.%d R3=%d;", b, t, t < 2 ? 10 : 20 }')
    [ "$(regs divergence R3)" = "$want" ] && ok || bad "divergence on $arch: $(regs divergence R3)"
    want=$(awk 'BEGIN { for (b = 0; b < 2; b++) for (t = 0; t < 8; t++)
                printf "%d.%d R3=%d R4=7;", b, t, t < 2 ? 10 : 20 }')
    [ "$(regs divmerge R3,R4)" = "$want" ] && ok || bad "divmerge on $arch: $(regs divmerge R3,R4)"
    want=$(awk 'BEGIN { for (b = 0; b < 2; b++) for (t = 0; t < 8; t++)
                printf "%d.%d R1=%d;", b, t, t }')
    [ "$(regs tid_demo R1)" = "$want" ] && ok || bad "tid_demo on $arch: $(regs tid_demo R1)"
    want=$(awk 'BEGIN { for (b = 0; b < 2; b++) for (t = 0; t < 8; t++)
                printf "%d.%d R4=192 R5=18 R6=0 R7=0;", b, t }')
    [ "$(regs mac32 R4,R5,R6,R7)" = "$want" ] && ok || bad "mac32 on $arch: $(regs mac32 R4,R5,R6,R7)"
    want=$(awk 'BEGIN { for (b = 0; b < 2; b++) for (t = 0; t < 8; t++)
                printf "%d.%d R3=26;", b, t }')
    [ "$(regs dotprod R3)" = "$want" ] && ok || bad "dotprod on $arch: $(regs dotprod R3)"
    want=$(awk 'BEGIN { for (b = 0; b < 2; b++) for (t = 0; t < 8; t++)
                printf "%d.%d R3=28;", b, t }')
    [ "$(regs sum07 R3)" = "$want" ] && ok || bad "sum07 on $arch: $(regs sum07 R3)"
    # each core's own memory holds its 28
    got=$(run fpga fpga/sum07.asm $arch --print-memory 0,1 | grep '^core' | tr '\n' ';')
    [ "$got" = "core 0 mem[0..0]: 28;core 1 mem[0..0]: 28;" ] && ok || bad "sum07 memory on $arch: $got"

    # tiny-gpu
    got=$(run tinygpu tinygpu/matadd.asm $arch --print-memory 16,8 | mem "mem\[16..23\]")
    [ "$got" = "0 2 4 6 8 10 12 14" ] && ok || bad "matadd on $arch: $got"
    got=$(run tinygpu tinygpu/matmul.asm $arch --print-memory 8,4 | mem "mem\[8..11\]")
    [ "$got" = "7 10 15 22" ] && ok || bad "matmul on $arch: $got"
done

# --dump-memory: the whole data memory, one hex word per line
run tinygpu tinygpu/matmul.asm functional --dump-memory "$tmp/mem.hex" > /dev/null &&
    [ "$(wc -l < "$tmp/mem.hex")" -eq 256 ] &&
    [ "$(sed -n 9,12p "$tmp/mem.hex" | tr '\n' ' ')" = "07 0A 0F 16 " ] && ok ||
    bad "matmul --dump-memory"
run fpga fpga/sum07.asm functional --dump-memory "$tmp/fork.hex" > /dev/null &&
    [ "$(wc -l < "$tmp/fork.hex")" -eq 16384 ] &&
    [ "$(sed -n '1p;8193p' "$tmp/fork.hex" | tr '\n' ' ')" = "1C 1C " ] && ok ||
    bad "sum07 --dump-memory"

# errors: file:line:col, exit status, no output written
expect() {   # STATUS "message" CMD...
    st=$1 msg=$2
    shift 2
    "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -ne "$st" ] || ! grep -qF -- "$msg" "$tmp/err"; then
        bad "$* -> exit $rc, $(cat "$tmp/err") (want $st, $msg)"
    else
        ok
    fi
}
printf 'MOV R1, #5\nFROB R1, R2\n' > "$tmp/e1.asm"
expect 1 "ushader: $tmp/e1.asm:2:1: error: unknown kGPU instruction 'FROB'" \
    "$U" asm --isa kgpu "$tmp/e1.asm"
printf '  ADD R1, R9, R2\n' > "$tmp/e2.asm"
expect 1 "e2.asm:1:11: error: register R9 out of range (R0..R7)" \
    "$U" asm --isa fpga "$tmp/e2.asm"
printf 'CONST R1, #300\n' > "$tmp/e3.asm"
expect 1 "e3.asm:1:11: error: immediate 300 out of range (0..255)" \
    "$U" asm --isa tinygpu "$tmp/e3.asm"
expect 2 "unknown --isa 'arm' (kgpu, fpga, tinygpu)" \
    "$U" asm --isa arm kgpu/add_const.asm
expect 1 "kgpu: missing .blocks (a directive or --blocks)" \
    "$U" compute --isa kgpu "$tmp/d.hex"
printf 'RET\n' > "$tmp/ret.asm"
expect 1 "tinygpu: missing .threads" "$U" compute --isa tinygpu "$tmp/ret.asm"
printf '// .blocks 3\n// .threads 8\nRET\n' > "$tmp/b3.asm"
expect 1 "b3.asm:1: error: fpga: .blocks 3" "$U" compute --isa fpga "$tmp/b3.asm"
printf '1234\nxyz\n' > "$tmp/bad.hex"
expect 1 "bad.hex:2:1: error: expected one 16-bit word in hex" \
    "$U" dis --isa fpga "$tmp/bad.hex"
# a failed assembly writes nothing and keeps an existing output
echo keep > "$tmp/keep.hex"
expect 1 "unknown kGPU instruction" "$U" asm --isa kgpu -o "$tmp/keep.hex" "$tmp/e1.asm"
[ "$(cat "$tmp/keep.hex")" = keep ] && ok || bad "a failed asm clobbered its output"
expect 1 "is also the input file" "$U" asm --isa kgpu -o kgpu/add_const.asm kgpu/add_const.asm
[ "$(head -c 12 kgpu/add_const.asm)" = "; add_const " ] && ok || bad "the input was overwritten"

echo "seeds: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
