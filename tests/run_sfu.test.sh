#!/bin/sh
# `ushader run` computes with the configured SFU (issue 18 item 4): the
# default SFU, --exact-math and a non-default [sfu] give different bits
# for inputs where the SFU is not correctly rounded; the SFU keys are
# spelt sfu.KEY in --set and KEY under [sfu]; --arch all stays
# bit-identical across the models with a non-default SFU.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
problem() { echo "FAIL: $*"; fail=$((fail + 1)); }

# RCP, RSQ, EX2 of x, y, z.  The inputs are ones the default SFU rounds
# the other way from MPFR (found by comparing the two on 4096 random
# inputs; `ushader sfu check` counts such inputs per function).
cat > "$tmp/sfu.vp" <<'EOF'
!!ARBvp1.0
ATTRIB a = vertex.attrib[1];
TEMP r;
RCP r.x, a.x;
RSQ r.y, a.y;
EX2 r.z, a.z;
MOV r.w, a.w;
MOV result.color, r;
MOV result.position, a;
END
EOF
IN='vertex.attrib[1]=-0.505435467,0.0679633617,0.294368267'
SMALL='--set sfu.rcp.k=5 --set sfu.rsq.k=6 --set sfu.ex2.k=4'

color() {   # ARGS... -> the colour line of a one-thread run
    "$U" run "$tmp/sfu.vp" --attrib "$IN" "$@" 2> "$tmp/err" |
        grep '^result.color'
}
sfu=$(color) || problem "run with the default SFU: $(cat "$tmp/err")"
exact=$(color --exact-math) || problem "run --exact-math: $(cat "$tmp/err")"
# shellcheck disable=SC2086
small=$(color $SMALL) || problem "run $SMALL: $(cat "$tmp/err")"

# us_math_exact: MPFR's correctly rounded binary32 results
want='result.color.front.primary = (-1.9784919, 3.83585835, 1.2263478, 1)'
[ "$exact" = "$want" ] && ok || problem "--exact-math gives '$exact', not '$want'"

# every one of x, y, z differs between the three
differ_all() {  # A B WHAT
    a=$(echo "$1" | sed 's/.*(//; s/)//') b=$(echo "$2" | sed 's/.*(//; s/)//')
    same=0
    for c in 1 2 3; do
        [ "$(echo "$a" | cut -d, -f$c)" = "$(echo "$b" | cut -d, -f$c)" ] &&
            same=$((same + 1))
    done
    [ -n "$a" ] && [ "$same" -eq 0 ] && ok ||
        problem "$3: '$1' and '$2' share $same of RCP, RSQ, EX2"
}
differ_all "$sfu" "$exact" "default SFU vs --exact-math"
differ_all "$small" "$sfu" "--set sfu.*.k vs the default SFU"
differ_all "$small" "$exact" "--set sfu.*.k vs --exact-math"

# the same keys under [sfu] in an INI file give the same bits
printf '[sfu]\nrcp.k = 5\nrsq.k = 6\nex2.k = 4\n' > "$tmp/small.ini"
ini=$(color --config "$tmp/small.ini")
[ "$ini" = "$small" ] && ok || problem "[sfu] gives '$ini', --set '$small'"

# --arch: the models compute with the SFU too (their outputs must equal
# the reference interpreter's, which uses the same math), N threads
arch_outputs() {  # ARGS... -> the JSON outputs of 256 threads on scalar
    "$U" run "$tmp/sfu.vp" --arch scalar --threads 256 --json "$@" \
        2> "$tmp/err" | sed -n '/"outputs"/,$p'
}
arch_outputs > "$tmp/a_sfu" && arch_outputs --exact-math > "$tmp/a_exact" &&
    # shellcheck disable=SC2086
    arch_outputs $SMALL > "$tmp/a_small" ||
    problem "run --arch scalar: $(cat "$tmp/err")"
[ -s "$tmp/a_sfu" ] && ! cmp -s "$tmp/a_sfu" "$tmp/a_exact" && ok ||
    problem "--arch scalar: the default SFU and --exact-math give the same outputs"
[ -s "$tmp/a_small" ] && ! cmp -s "$tmp/a_sfu" "$tmp/a_small" && ok ||
    problem "--arch scalar: --set sfu.*.k does not change the outputs"

# --arch all with a non-default SFU: bit-identical on every model
# shellcheck disable=SC2086
if "$U" run "$tmp/sfu.vp" --arch all --threads 256 $SMALL > "$tmp/all" \
        2> "$tmp/err" && grep -q '^outputs: identical on every model' "$tmp/all"; then
    ok
else
    problem "--arch all with $SMALL: $(cat "$tmp/err")"
fi
# a preset without [sfu] takes the run's; one with another [sfu] is refused
# shellcheck disable=SC2086
"$U" run "$tmp/sfu.vp" --arch simt --preset configs/kgpu.ini $SMALL \
    > /dev/null 2> "$tmp/err" && ok ||
    problem "--preset configs/kgpu.ini with $SMALL: $(cat "$tmp/err")"
"$U" run "$tmp/sfu.vp" --arch simt --preset "$tmp/small.ini" \
    > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "small.ini: error: its \[sfu\] differs" "$tmp/err" &&
    ok || problem "a preset with another [sfu] is not refused: $(cat "$tmp/err")"

# the spellings: sfu.KEY in --set; a bare SFU key names the right one; an
# unknown SFU key or table is an error (exit 2) in every form
refused() {  # MESSAGE ARGS...
    msg=$1
    shift
    "$U" "$@" > /dev/null 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -qF -- "$msg" "$tmp/err" && ok ||
        problem "ushader $* -> exit $rc, stderr: $(cat "$tmp/err") (want: $msg)"
}
refused "unknown knob 'rcp.k' (an SFU key is sfu.rcp.k" run "$tmp/sfu.vp" --set rcp.k=5
refused "an SFU key is sfu.rcp.k" run "$tmp/sfu.vp" --arch all --set rcp.k=9
refused "unknown SFU key in 'bogus=1'" run "$tmp/sfu.vp" --set sfu.bogus=1
refused "unknown SFU key in 'rcp.bogus=1'" run "$tmp/sfu.vp" --arch scalar --set sfu.rcp.bogus=1
refused "unknown SFU table in 'tan.k=5'" run "$tmp/sfu.vp" --set sfu.tan.k=5
refused "bad SFU segment bits in 'rcp.k=9'" run "$tmp/sfu.vp" --set sfu.rcp.k=9
refused "unknown SFU key in 'bogus=1'" config --set sfu.bogus=1
printf '[sfu]\nbogus = 1\n' > "$tmp/bad.ini"
"$U" run "$tmp/sfu.vp" --config "$tmp/bad.ini" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "bad.ini:2: error: unknown SFU key" "$tmp/err" && ok ||
    problem "an unknown key under [sfu]: $(cat "$tmp/err")"
# ushader sfu takes sfu.KEY as well as KEY
a=$("$U" sfu layout --set rcp.k=5) && b=$("$U" sfu layout --set sfu.rcp.k=5) &&
    [ "$a" = "$b" ] && [ "$a" != "$("$U" sfu layout)" ] && ok ||
    problem "sfu layout --set sfu.rcp.k=5 differs from --set rcp.k=5"

# compute: correctly rounded by default (the compute suite's references
# are exact); --sfu-math computes with the configured SFU, on every --arch
cat > "$tmp/rcp.cp" <<'EOF'
!!USHADERcp1.0
GROUP_SIZE 1;
TEMP a, v;
MOV.U a, 0;
LOAD.U32 v.x, a.x, buffer[0];
RCP v.x, v.x;
STORE.U32 buffer[0].x, a.x, v;
END
EOF
printf '\070\144\001\277' > "$tmp/x.bin"   # -0.505435467 (0xbf016438)
word() {  # ARGS... -> buffer 0's word after the launch, in hex
    "$U" compute "$tmp/rcp.cp" --groups 1 --buffer "0=$tmp/x.bin" \
        --out "0=$tmp/o.bin" "$@" > /dev/null 2> "$tmp/err" &&
        od -An -tx4 "$tmp/o.bin" | tr -d ' '
}
got="$(word) $(word --sfu-math) $(word --sfu-math --arch scalar)"
got="$got $(word --sfu-math --set sfu.rcp.k=5)"
[ "$got" = "bffd3f39 bffd3f3a bffd3f3a bffd3f45" ] && ok ||
    problem "compute RCP(-0.505435467): exact, --sfu-math (functional, scalar), sfu.rcp.k=5 give '$got' $(cat "$tmp/err")"

echo "run_sfu: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
