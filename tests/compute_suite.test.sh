#!/bin/sh
# The compute suite (bench/compute/, docs/COMPUTE_SUITE.md): every kernel of
# `kref list` on the reference interpreter, on every --arch and on the SIMT
# presets, each output compared byte for byte with its C reference by
# `kref check`.  A preset that cannot hold the kernel's workgroup ("must fit
# one core") or whose reconvergence policy refuses the kernel's flow
# (reconv=sync / none; under sync also a barrier after divergence) counts
# as refused, with its reason in the summary;
# any other failure, or a mismatch, fails the test.  Each OpenCL C kernel
# (.cl) also runs at 12 launch shapes (1-D: local 1, 2, 8, 32 x groups 1,
# 2, 3) on the interpreter and on e-GPU 16T and must leave the reference's
# bytes at every one; two broken copies (a fixed stride instead of
# get_global_size, a stride of get_local_size) must fail that check.
# COMPUTE_SUITE=all adds the bench-only sizes (kref list --all).
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
K=$BUILD/tools/kref
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

[ -x "$K" ] || { echo "compute_suite: $K missing (make)"; exit 1; }
list=$("$K" list $([ "${COMPUTE_SUITE:-}" = all ] && echo --all)) || exit 1

pass=0 fail=0 refused=0
refusals=""
MODELS="functional scalar simd4 vliw superscalar hetero simt"
PRESETS="kgpu fpga tinygpu egpu-4t egpu-8t egpu-16t dice"

# run ID SRC LABEL ARGS...: one launch and its check.
run() {
    id=$1 src=$2 label=$3
    shift 3
    rm -rf "$T/out" && mkdir "$T/out"
    cfg="" prev=""
    for a in "$@"; do
        [ "$prev" = --config ] && cfg=$a
        prev=$a
    done
    if ! "$U" compute "$src" $args "$@" >"$T/log" 2>&1; then
        # Under reconv=sync lanes rejoin only at a SYNC, which GLSL code has
        # none of, so a barrier after divergent code finds lanes masked off.
        if grep -q -e 'must fit one core' -e 'reconv=sync' -e 'reconv=none' \
            "$T/log" ||
            { grep -q 'masked off by flow control' "$T/log" &&
              [ -n "$cfg" ] && grep -q '^reconv *= *sync' "$cfg"; }; then
            refused=$((refused + 1))
            refusals="$refusals
  refused: $id on $label: $(sed 's/^ushader: [^ ]*: error: //' "$T/log" | head -1)"
            return
        fi
        echo "FAIL: $id on $label: $(head -3 "$T/log")"
        fail=$((fail + 1))
        return
    fi
    if "$K" check "$id" "$T/in" "$T/out" >"$T/chk" 2>&1; then
        pass=$((pass + 1))
    else
        echo "FAIL: $id on $label: $(cat "$T/chk")"
        fail=$((fail + 1))
    fi
}

# shapes ID PROG MODE...: PROG at every launch shape on each MODE (a
# quoted "--arch A [--config C]"); each launch that fails or leaves other
# bytes than the reference's is counted in $shape_bad and logged.
shapes() {
    sid=$1 prog=$2
    shift 2
    shape_bad=0 shape_runs=0
    # the reference's launch without its shape (an option is given once)
    sargs=$(printf '%s\n' "$args" | sed -e 's/--groups [^ ]*//' -e 's/--local [^ ]*//')
    for mode in "$@"; do
        for l in 1 2 8 32; do
            for g in 1 2 3; do
                shape_runs=$((shape_runs + 1))
                rm -rf "$T/out" && mkdir "$T/out"
                if ! "$U" compute "$prog" $sargs $mode --local "$l" --groups "$g" \
                    >"$T/log" 2>&1; then
                    shape_bad=$((shape_bad + 1))
                    echo "$sid ($mode) local $l groups $g: $(head -1 "$T/log")" >>"$T/shapes"
                elif ! "$K" check "$sid" "$T/in" "$T/out" >"$T/chk" 2>&1; then
                    shape_bad=$((shape_bad + 1))
                    echo "$sid ($mode) local $l groups $g: $(cat "$T/chk")" >>"$T/shapes"
                fi
            done
        done
    done
}
SHAPE_MODES="--arch functional|--arch simt --config configs/egpu-16t.ini"
shape_ok=0 shape_fail=0

n=0
while read -r id src; do
    n=$((n + 1))
    rm -rf "$T/in"
    args=$("$K" init "$id" "$T/in" "$T/out") || { fail=$((fail + 1)); continue; }
    # Compile the GLSL once (glslang is most of a small launch's time); a
    # kernel using .length() runs from its source, which binds the size.
    # OpenCL C likewise (clang, opt and llvm-spirv); it has no length().
    orig=$src
    case $src in
    *.comp | *.cl)
        if ! grep -q 'length()' "$src"; then
            "$U" glsl "$src" -o "$T/k.cp" || { fail=$((fail + 1)); continue; }
            src=$T/k.cp
        fi ;;
    esac
    for m in $MODELS; do
        run "$id" "$src" "$m" --arch "$m"
    done
    for p in $PRESETS; do
        run "$id" "$src" "simt/$p" --arch simt --config "configs/$p.ini"
    done
    case $orig in
    *.cl)
        IFS='|'
        set -- $SHAPE_MODES
        unset IFS
        : >"$T/shapes"
        shapes "$id" "$src" "$@"
        shape_ok=$((shape_ok + shape_runs - shape_bad))
        if [ "$shape_bad" -ne 0 ]; then
            echo "FAIL: $id: $shape_bad of $shape_runs launch shapes:"
            sed 's/^/  /' "$T/shapes"
            shape_fail=$((shape_fail + shape_bad))
            fail=$((fail + 1))
        fi ;;
    esac
done <<EOF_LIST
$list
EOF_LIST

# The check itself must see a difference: corrupt one word of the last
# kernel's output (from the interpreter) and expect kref check to fail.
last=$(printf '%s\n' "$list" | tail -1)
id=${last%% *} src=${last#* }
rm -rf "$T/in" "$T/out"
args=$("$K" init "$id" "$T/in" "$T/out")
"$U" compute "$src" $args >/dev/null 2>&1
f=$(ls "$T/out"/*.bin | tail -1)
printf '\125\125\125\125' | dd of="$f" bs=1 seek=0 conv=notrunc 2>/dev/null
if "$K" check "$id" "$T/in" "$T/out" >/dev/null 2>&1; then
    echo "FAIL: kref check accepted a corrupted output of $id"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

# The shape check must see a kernel written for one launch: fir.cl with its
# stride fixed at the default launch's 256 work-items, delineation.cl
# striding by the workgroup (its counts then grow with the groups).
broken() {   # ID SOURCE SED-EXPRESSION
    rm -rf "$T/in" "$T/out"
    args=$("$K" init "$1" "$T/in" "$T/out") || { fail=$((fail + 1)); return; }
    sed "$3" "$2" >"$T/broken.cl"
    if cmp -s "$2" "$T/broken.cl"; then
        echo "FAIL: the broken copy of $2 is not broken"
        fail=$((fail + 1))
        return
    fi
    : >"$T/shapes"
    shapes "$1" "$T/broken.cl" "--arch functional"
    if [ "$shape_bad" -eq 0 ]; then
        echo "FAIL: the shape check accepted $2 with '$3'"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}
if printf '%s\n' "$list" | grep -q '^fir_cl '; then
    broken fir_cl bench/compute/fir.cl 's/i += get_global_size(0)/i += 256/'
    broken delineation_cl bench/compute/delineation.cl \
        's/get_global_size(0)/get_local_size(0)/'
fi

[ -n "$refusals" ] && echo "compute_suite: refusals (with their reasons):$refusals"
echo "compute_suite: $n kernels, $pass passed, $refused refused, $fail failed;" \
    "OpenCL launch shapes: $shape_ok passed, $shape_fail failed"
[ "$fail" -eq 0 ]
