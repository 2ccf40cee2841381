#!/bin/sh
# Golden tests of `ushader run`: every tests/run/*.vp and *.fp is run with
# the arguments on its "# ARGS:" line and its output compared with
# tests/run/NAME.expected; then error cases check exit status and message.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/run"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
for f in *.vp *.fp; do
    name=${f%.*}
    args=$(sed -n 's/^# ARGS: //p' "$f")
    # ARGS holds only option words without shell metacharacters.
    # shellcheck disable=SC2086
    # --json: without the provenance (its commit changes with every build)
    if "../../$U" run "$f" $args > "$tmp/raw" 2> "$tmp/err" &&
        case " $args " in
        *" --json "*) "../../$BUILD/tools/jsonck" strip provenance "$tmp/raw" ;;
        *) cat "$tmp/raw" ;;
        esac > "$tmp/out" && cmp -s "$tmp/out" "$name.expected"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $f"
        diff "$name.expected" "$tmp/out" | head -n 20
        cat "$tmp/err"
        fail=$((fail + 1))
    fi
done

# expect STATUS MESSAGE-SUBSTRING ARGS...
expect() {
    want_rc=$1 want_msg=$2
    shift 2
    "../../$U" run "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want_rc" ] && grep -qF -- "$want_msg" "$tmp/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL: run $* -> exit $rc (want $want_rc), stderr:"
        cat "$tmp/err"
        echo "(wanted a message containing: $want_msg)"
        fail=$((fail + 1))
    fi
}

printf '!!ARBfp1.0\nMOV result.color, bogus;\nEND\n' > "$tmp/bad.fp"
expect 2 "unknown option '--frobnicate'" kil.fp --frobnicate
expect 2 "usage: ushader run" 
expect 2 "one PROG at a time" kil.fp sfu.fp
expect 2 "--attrib needs NAME=x,y,z,w" kil.fp --attrib
expect 2 "unknown input binding" kil.fp --attrib fragment.bogus=1
expect 2 "not an input of a fragment program" kil.fp --attrib vertex.position=1
expect 2 "index out of range (0..7)" kil.fp --attrib 'fragment.texcoord[8]=1'
expect 2 "index out of range (0..15)" lighting.vp --attrib 'vertex.attrib[16]=1'
expect 2 "bad number 'x'" kil.fp --attrib 'fragment.color=1,x'
expect 2 "bad number ''" kil.fp --attrib 'fragment.color=1,'
expect 2 "more than 4 values" kil.fp --attrib 'fragment.color=1,2,3,4,5'
expect 2 "wants NAME=x,y,z,w" kil.fp --attrib fragment.color
expect 2 "index out of range (0..255)" kil.fp --param 'env[256]=1'
expect 2 "want env[N] or local[N]" kil.fp --param 'global[0]=1'
expect 1 "cannot open" "$tmp/missing.fp"
expect 1 "bad.fp:2:" "$tmp/bad.fp"

# --help goes to stdout and succeeds
if "../../$U" run --help | grep -q '^usage: ushader run'; then
    pass=$((pass + 1))
else
    echo "FAIL: run --help"
    fail=$((fail + 1))
fi

echo "run_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
