#!/bin/sh
# ushader asm --target simd4 / superscalar / hetero on a compute program
# (docs/COMPUTE.md "Encodings and static schedules"): -S and dis agree,
# the listing spells the memory, barrier and branch instructions with
# their types, operations, bindings and targets, and hetero keeps BAR,
# MEMBAR and every memory instruction in program order.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
checks=0

cat > "$tmp/k.cp" <<'EOP'
!!USHADERcp1.0
OPTION USHADER_word16;
GROUP_SIZE 8 2;
SHARED_MEMORY 128;
TEMP a, b;
LDS.S16 a.xy, invocation.localid;
STS.U8 shared.zw, a, b;
ATOMS.CSWAP.S32 b.x, a, 3, 4;
ATOM.EXCH.U32 b.z, a, 0xdeadbeef, buffer[5];
LOAD.U32 b, a, buffer[31];
STORE.S32 buffer[2].w, a, b;
MEMBAR;
SHR.S a, b, {1, 2, 3, 4};
BAR;
top:
MUL.U.HI a, a, b;
BFI.U a, {3, 4, 0, 0}, a, b;
BRA.LE.S end, a.x, b.w;
BRA.NE.S top, a.y, 65536;
BRA end;
end:
END
EOP

expect() {   # FILE TEXT: the listing has a line with TEXT
    checks=$((checks + 1))
    if ! grep -qF -- "$2" "$1"; then
        echo "FAIL: $1 has no '$2'"; fail=1
    fi
}

for t in simd4 superscalar hetero; do
    if ! "$U" asm --target $t -S "$tmp/k.cp" > "$tmp/$t.S" ||
       ! "$U" asm --target $t -o "$tmp/$t.bin" "$tmp/k.cp" ||
       ! "$U" dis --target $t "$tmp/$t.bin" > "$tmp/$t.dis"; then
        echo "FAIL: $t: asm or dis failed"; fail=1; continue
    fi
    checks=$((checks + 1))
    cmp -s "$tmp/$t.S" "$tmp/$t.dis" || { echo "FAIL: $t: -S and dis differ"; fail=1; }
    expect "$tmp/$t.dis" "LDS.S16 r0.xy, v1.xyzw"
    expect "$tmp/$t.dis" "STS.U8 shared.zw, r0.xyzw, r1.xyzw"
    expect "$tmp/$t.dis" "ATOMS.CSWAP.S32 r1.x, r0.xyzw, c0.xyzw, c1.xyzw"
    expect "$tmp/$t.dis" "ATOM.EXCH.U32 r1.z, r0.xyzw, c2.xyzw, buffer[5]"
    expect "$tmp/$t.dis" "LOAD.U32 r1.xyzw, r0.xyzw, buffer[31]"
    expect "$tmp/$t.dis" "STORE.S32 buffer[2].w, r0.xyzw, r1.xyzw"
    expect "$tmp/$t.dis" "BRA.LE.S @"
    expect "$tmp/$t.dis" "BRA.NE.U @"
done
# simd4: one word per instruction, targets are instruction indices
expect "$tmp/simd4.dis" "BRA.LE.S @14, r0.xxxx, r1.wwww"
expect "$tmp/simd4.dis" "BRA.NE.U @9, r0.yyyy, c5.xxxx"
# hetero: memory, MEMBAR, SHR, BAR in program order, BAR and MEMBAR alone
checks=$((checks + 1))
order=$(grep -o -E 'LDS|STS|ATOMS|ATOM\.|LOAD|STORE|MEMBAR|SHR|BAR ' "$tmp/hetero.dis" | tr -d '\n')
if [ "$order" != "LDSSTSATOMSATOM.LOADSTOREMEMBARSHRBAR " ]; then
    echo "FAIL: hetero order: $order"; fail=1
fi
expect "$tmp/hetero.dis" "{ MEMBAR ; NOP }"
expect "$tmp/hetero.dis" "{ BAR ; NOP }"

if [ $fail -eq 0 ]; then
    echo "compute targets: $checks checks passed"
else
    echo "compute targets: failures"
fi
exit $fail
