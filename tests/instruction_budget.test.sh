#!/bin/sh
# Issue 14 item 4: work is bounded per thread, not per loop visit.  Two
# nested endless loops (ARB and GLSL) stop at the instruction budget (knob
# max_instructions) on the interpreter and on every model, as a clear
# error naming the program; `render` writes no image; the piglit runner
# counts a failure and goes on.  `timeout` only guards against a hang (the
# old per-visit cap ran these for hours); nothing here is timed.
set -u
BUILD=${BUILD:-build}
U="$(pwd)/$BUILD/ushader"
cd "$(dirname "$0")/budget"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
msg="instructions (the budget, knob max_instructions)"

# expect STATUS MESSAGE-SUBSTRING COMMAND...
expect() {
    want_rc=$1 want_msg=$2
    shift 2
    timeout 600 "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want_rc" ] && grep -qF -- "$want_msg" "$tmp/err" "$tmp/out"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $* -> exit $rc (want $want_rc), output:"
        cat "$tmp/out" "$tmp/err"
        echo "(wanted: $want_msg)"
        fail=$((fail + 1))
    fi
}

expect 1 "nested.fp: error: thread 0 executed more than 16777216 $msg" \
    "$U" run nested.fp
expect 1 "nested.fp: error: thread 0 executed more than 5000 $msg" \
    "$U" run nested.fp --arch all --threads 8 --set max_instructions=5000
for m in scalar simd4 vliw superscalar hetero; do
    expect 1 "executed more than 100000 $msg" \
        "$U" run nested.fp --arch $m --set max_instructions=100000 \
        --set lockstep=4
done
if command -v glslangValidator > /dev/null; then
    expect 1 "nested.frag: error: thread 0 executed more than 16777216 $msg" \
        "$U" run nested.frag
    expect 1 "executed more than 20000 $msg" \
        "$U" run nested.frag --arch all --threads 4 \
        --set max_instructions=20000
else
    echo "FAIL: glslangValidator missing (make deps installs glslang-tools)"
    fail=$((fail + 1))
fi

# render: the draw fails, no image is written
expect 1 "error: draw 1 (programs 'ev' and 'inf'): the fragment program does not finish: a thread executed more than 16777216 $msg" \
    "$U" render nested.scn -o "$tmp/x.png"
if [ -e "$tmp/x.png" ]; then
    echo "FAIL: render wrote an image of a failed draw"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi

# piglit: a counted failure with the reason, exit 1
expect 1 "FAIL" "$U" piglit nested.shader_test
if grep -qF "$msg" "$tmp/out" "$tmp/err"; then
    pass=$((pass + 1))
else
    echo "FAIL: piglit did not say why the test failed"
    cat "$tmp/out" "$tmp/err"
    fail=$((fail + 1))
fi

echo "instruction_budget: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
