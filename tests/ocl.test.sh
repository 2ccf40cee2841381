#!/bin/sh
# OpenCL C kernels (docs/OPENCL.md) through clang-14, opt-14 and
# llvm-spirv-14: each kernel of tests/ocl runs on the interpreter, every
# core model and SIMT presets, and must leave what the C reference
# tests/ocl/ref.c computes; `ushader glsl K.cl` prints BRA flow; errors
# name the user's file and the OpenCL line and leave no temporary file.
set -u
BUILD=${BUILD:-build}
U="$(pwd)/$BUILD/ushader"
T="$(pwd)/tests/ocl"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

for tool in clang-14 opt-14 llvm-spirv-14; do
    command -v $tool > /dev/null ||
        { echo "ocl: $tool is missing (make deps)"; exit 1; }
done
cc -O1 -Wall -Wextra -Werror -o "$tmp/ref" "$T/ref.c" ||
    { echo "ocl: cannot build the C reference"; exit 1; }

# run NAME ARCH [CONFIG] -- ARGS...: the kernel's output buffer vs want.bin
run() {
    k=$1 arch=$2 cfg=$3
    shift 3
    set -- "$@" --arch "$arch"
    [ -n "$cfg" ] && set -- "$@" --config "configs/$cfg.ini"
    if "$U" compute "$T/$k.cl" "$@" --out "$outb=$tmp/$k.got" \
        > "$tmp/out" 2> "$tmp/err" && cmp -s "$tmp/$k.got" "$tmp/$k/want.bin"
    then ok
    else bad "$k on $arch${cfg:+ ($cfg)}: $(head -c 300 "$tmp/err")"
    fi
    rm -f "$tmp/$k.got"
}

for k in vadd gemm branchy reduce narrow; do
    mkdir -p "$tmp/$k"
    "$tmp/ref" $k "$tmp/$k" || bad "ref $k"
done
for arch in functional scalar simd4 vliw superscalar hetero simt; do
    outb=2 run vadd $arch "" --groups 8 --local 8 \
        --buffer 0="$tmp/vadd/in0.bin" --buffer 1="$tmp/vadd/in1.bin" \
        --buffer 2=,256
    outb=2 run gemm $arch "" --groups 4,8 --local 4,2 \
        --buffer 0="$tmp/gemm/in0.bin" --buffer 1="$tmp/gemm/in1.bin" \
        --buffer 2=,1024 --param 'local[3]=16i'
    outb=1 run branchy $arch "" --groups 8 --local 8 \
        --buffer 0="$tmp/branchy/in0.bin" --buffer 1=,512
    outb=1 run reduce $arch "" --groups 8 --local 8 \
        --buffer 0="$tmp/reduce/in0.bin" --buffer 1=,32
    outb=1 run narrow $arch "" --groups 8 --local 8 \
        --buffer 0="$tmp/narrow/in0.bin" --buffer 1=,128 \
        --out 0="$tmp/narrow0.got"
    cmp -s "$tmp/narrow0.got" "$tmp/narrow/want0.bin" && ok ||
        bad "narrow on $arch: buffer 0"
    rm -f "$tmp/narrow0.got"
done
for cfg in egpu-8t dice kgpu; do
    outb=1 run branchy simt $cfg --groups 8 --local 8 \
        --buffer 0="$tmp/branchy/in0.bin" --buffer 1=,512
    outb=2 run gemm simt $cfg --groups 8,4 --local 2,4 \
        --buffer 0="$tmp/gemm/in0.bin" --buffer 1="$tmp/gemm/in1.bin" \
        --buffer 2=,1024 --param 'local[3]=16i'
done

# The IR: unstructured flow is BRA, never the structured reconstruction;
# __local memory is shared memory; barrier() a BAR.
"$U" glsl "$T/branchy.cl" > "$tmp/b.txt" 2> "$tmp/err" &&
    grep -q '^BRA\.EQ\.U ' "$tmp/b.txt" && grep -q '^BRA\.NE\.U ' "$tmp/b.txt" &&
    ! grep -qE '^(IF|BGNLOOP)' "$tmp/b.txt" && ok ||
    bad "glsl branchy.cl: $(cat "$tmp/err")"
"$U" glsl "$T/reduce.cl" > "$tmp/r.txt" 2> "$tmp/err" &&
    grep -q '^SHARED_MEMORY 256;' "$tmp/r.txt" && grep -q '^BAR;' "$tmp/r.txt" &&
    grep -q '^STS\.U32 ' "$tmp/r.txt" && ok || bad "glsl reduce.cl: $(cat "$tmp/err")"

# Two scalar arguments: distinct PARAMs (arg1, arg2: clang keeps no value
# names), so the printed program assembles again and runs as the source.
printf '__kernel void two(__global int *a, int x, int y)\n{\n    a[get_global_id(0)] = x * 3 + y;\n}\n' > "$tmp/two.cl"
if "$U" glsl "$tmp/two.cl" -o "$tmp/two.cp" 2> "$tmp/err" &&
    "$U" compute "$tmp/two.cp" --groups 1 --local 2 --buffer 0=,8 \
        --param 'local[1]=5i' --param 'local[2]=-2i' --out 0="$tmp/two.bin" \
        > /dev/null 2>> "$tmp/err" &&
    [ "$(od -An -td4 "$tmp/two.bin" | tr -s ' ')" = " 13 13" ]
then ok
else bad "two scalar arguments through ushader glsl -o: $(head -c 300 "$tmp/err")"
fi

# Errors: clang's with the user's file name and position; unsupported
# SPIR-V with the OpenCL source line; nothing left in TMPDIR.
mkdir "$tmp/td" "$tmp/src"
printf '__kernel void k(__global int *a)\n{\n    a[0] = b;\n}\n' > "$tmp/src/syn.cl"
printf '__kernel void k(__global int *a)\n{\n    int i = get_global_id(0);\n    a[i] = mul_hi(a[i], 77777);\n}\n' > "$tmp/src/mh.cl"
printf '__kernel void k(__global int *a, __local int *t)\n{\n    t[0] = 1;\n    a[0] = t[0];\n}\n' > "$tmp/src/la.cl"
cd "$tmp/src"
expect() {   # FILE MESSAGE
    if TMPDIR="$tmp/td" "$U" glsl "$1" > "$tmp/o" 2> "$tmp/e"; then
        bad "$1: accepted"
    elif [ "$(cat "$tmp/e")" = "$2" ] && [ ! -s "$tmp/o" ]; then ok
    else bad "$1: got '$(cat "$tmp/e")', want '$2'"
    fi
}
expect syn.cl "ushader: syn.cl:3:12: error: use of undeclared identifier 'b'"
expect mh.cl "ushader: mh.cl:4: error: unsupported OpenCL.std instruction s_mul_hi (OpenCL C: a[i] = mul_hi(a[i], 77777);)"
expect la.cl "ushader: la.cl: error: kernel argument 1: only __global pointers are supported"
if "$U" glsl --stage vertex "$T/vadd.cl" > /dev/null 2> "$tmp/e"; then
    bad "a kernel as a vertex shader: accepted"
else
    grep -q 'error: an OpenCL C kernel is a compute program' "$tmp/e" && ok ||
        bad "--stage vertex: $(cat "$tmp/e")"
fi
[ -z "$(ls -A "$tmp/td")" ] && ok || bad "temporary files left: $(ls "$tmp/td")"
cd - > /dev/null

echo "ocl: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
