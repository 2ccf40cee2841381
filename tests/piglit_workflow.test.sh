#!/bin/sh
# piglit as a workflow (issue 19 item 5): `ushader piglit` on directories
# (recursively, sorted; links to directories not followed, other files
# left out), --jobs N with the same stdout, stderr and --results for any N
# (on piglit's compute tests from the Debian package and tests/shtest/),
# the results file against its schema (docs/METRICS.md piglit-results)
# and the result lines; `ushader piglit summary` on two runs of a tree
# made to have one test of each change (fixed, regressed, enabled,
# disabled, changed, new, removed): the text, --json (schema
# piglit-summary) and --html DIR, whose index.html is loaded in headless
# chromium (tests/browser.sh): the rendered DOM must show the totals,
# changes and a row per changed test as --json has them
# (tests/html_check.py), and the screenshot must be a valid PNG of more
# than one colour with the pass and fail colours in it.  If chromium does
# not start, the test says why and fails.  Then the usage errors.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
CK=$BUILD/tools/jsonck
cd "$(dirname "$0")/.."
. tests/browser.sh
ROOT=${PIGLIT_ROOT:-/usr/lib/x86_64-linux-gnu/piglit}
T=$(mktemp -d)
trap 'browser_reap "$T"; rm -rf "$T"' EXIT
case $U in /*) UABS=$U ;; *) UABS=$(pwd)/$U ;; esac
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# without the provenance's command line (it records --jobs)
nocmd() { grep -v '^  "command": ' "$1"; }

# ---- directories --------------------------------------------------------------
S=tests/shtest
mkdir -p "$T/walk/b/deep" "$T/walk/a"
cp $S/ff_fixed_function.shader_test "$T/walk/b/deep/z.shader_test"
cp $S/tex_depth.shader_test "$T/walk/b/y.shader_test"
cp $S/skip_glsl.shader_test "$T/walk/a/x.shader_test"
cp $S/expect_fail.shader_test "$T/walk/a-b.shader_test"
cp $S/ff_fixed_function.shader_test "$T/walk/notes.txt"
ln -s ../b "$T/walk/a/loop"           # a link to a directory: not followed
ln -s ../../tex_depth.shader_test "$T/walk/a/link.shader_test" 2> /dev/null
cp $S/tex_depth.shader_test "$T/tex_depth.shader_test"
"$U" piglit --jobs 2 "$T/walk" > "$T/walk.out" 2> "$T/walk.err"
rc=$?
sed -E 's/^(PASS|FAIL|SKIP) ([^ :]*).*/\2/' "$T/walk.out" | sed '$d' > "$T/walk.got"
W=$T/walk
printf '%s\n' "$W/a-b.shader_test" "$W/a/link.shader_test" "$W/a/x.shader_test" \
    "$W/b/deep/z.shader_test" "$W/b/y.shader_test" > "$T/walk.want"
if [ $rc -eq 1 ] && cmp -s "$T/walk.got" "$T/walk.want" &&
   [ "$(tail -n 1 "$T/walk.out")" = "3 passed, 1 failed, 1 skipped" ]; then ok
else bad "piglit DIR (exit $rc) ran $(tr '\n' ' ' < "$T/walk.got"), wanted $(tr '\n' ' ' < "$T/walk.want")"; fi
# a directory is the same as its files listed in byte order
"$U" piglit --jobs 1 $S > "$T/dir.out" 2> "$T/dir.err"
# shellcheck disable=SC2046
"$U" piglit --jobs 1 $(ls $S/*.shader_test | LC_ALL=C sort) > "$T/files.out" 2> "$T/files.err"
cmp -s "$T/dir.out" "$T/files.out" && cmp -s "$T/dir.err" "$T/files.err" && ok ||
    bad "piglit $S differs from its files in sorted order"

# ---- --jobs: the same output for any N ----------------------------------------------
D1=tests/spec/arb_compute_shader/execution
D2=tests/spec/arb_fragment_program
if [ -d "$ROOT/$D1" ] && [ -d "$ROOT/$D2" ]; then
    for j in 1 3; do
        start=$(date +%s%N)
        (cd "$ROOT" && "$UABS" piglit --arch scalar --set lut_banks=2 \
            --jobs $j --results "$T/j$j.json" $D1 $D2) \
            > "$T/j$j.out" 2> "$T/j$j.err"
        rc=$?
        echo "$rc $((($(date +%s%N) - start) / 1000000))" > "$T/j$j.rc"
    done
    n=$(grep -c '^\(PASS\|FAIL\|SKIP\) ' "$T/j1.out")
    echo "piglit_workflow: $D1 and $D2: $n files: $(tail -n 1 "$T/j1.out");" \
         "--jobs 1 $(cut -d' ' -f2 "$T/j1.rc") ms, --jobs 3 $(cut -d' ' -f2 "$T/j3.rc") ms"
    [ "$n" -ge 40 ] && ok || bad "only $n piglit files under $D1 $D2"
    cmp -s "$T/j1.out" "$T/j3.out" && cmp -s "$T/j1.err" "$T/j3.err" &&
        [ "$(cut -d' ' -f1 "$T/j1.rc")" = "$(cut -d' ' -f1 "$T/j3.rc")" ] && ok ||
        bad "--jobs 1 and --jobs 3 print differently: $(diff "$T/j1.out" "$T/j3.out" | head -n 4)"
    nocmd "$T/j1.json" > "$T/j1.nc"; nocmd "$T/j3.json" > "$T/j3.nc"
    cmp -s "$T/j1.nc" "$T/j3.nc" && ok || bad "--jobs 1 and 3 write different results: $(diff "$T/j1.nc" "$T/j3.nc" | head -n 4)"
    [ "$(grep -c '"command": ' "$T/j1.json")" -eq 1 ] && ok || bad "results: not one command line"
    J=$T/j1.json
    if "$CK" check docs/METRICS.md piglit-results "$J" > "$T/ck" 2>&1; then ok
    else bad "results: not schema piglit-results: $(head -n 5 "$T/ck")"; fi
    # one entry per result line, with the line's result, in the same order
    python3 - "$J" "$T/j1.out" "$ROOT" > "$T/py" 2>&1 <<'EOF' && ok || bad "results vs result lines: $(head -n 5 "$T/py")"
import json, sys, os
res = json.load(open(sys.argv[1]))
lines = [l for l in open(sys.argv[2]) if l[:5] in ("PASS ", "FAIL ", "SKIP ")]
tests = res["tests"]
assert len(tests) == len(lines), (len(tests), len(lines))
for t, l in zip(tests, lines):
    word, rest = l.split(" ", 1)
    assert rest.startswith(t["path"]), (t["path"], l)
    want = {"PASS": "pass", "SKIP": "skip"}.get(word)
    if word == "FAIL":
        want = "error" if ": error: " in l else "fail"
    assert t["result"] == want, (t, l)
    if want != "pass":
        assert t["message"] and t["message"] in l, (t, l)
    assert t["bytes"] == os.path.getsize(os.path.join(sys.argv[3], t["path"]))
tot = res["totals"]
assert tot["files"] == len(tests)
for k in ("pass", "fail", "skip", "error"):
    assert tot[k] == sum(t["result"] == k for t in tests), k
assert res["provenance"]["math"] == "sfu" and res["arch"] == "scalar"
assert res["provenance"]["config"]["core"]["lut_banks"] == 2
print("ok")
EOF
else
    bad "piglit's $ROOT/$D1 or $D2 is missing: run 'make deps'"
fi

# ---- summary: one change of each kind --------------------------------------------------
R=$T/tree
mkdir -p "$R/a" "$R/b"
put() { cp "$S/$2.shader_test" "$R/$1.shader_test"; }
put a/fixed expect_fail;        put a/regressed ff_fixed_function
put b/enabled skip_extension;   put b/disabled tex_depth
put b/changed expect_fail;      put removed ff_fixed_function
put same txb_miptree;           put same_error bad_nul
"$U" piglit --results "$T/A.json" "$R" > "$T/A.out" 2>&1
[ $? -eq 1 ] && ok || bad "run A: exit $?"
put a/fixed ff_fixed_function;  put a/regressed expect_fail
put b/enabled tex_depth;        put b/disabled skip_glsl
put b/changed bad_command;      rm "$R/removed.shader_test"
put new ff_fixed_function
"$U" piglit --results "$T/B.json" "$R" > "$T/B.out" 2>&1
"$U" piglit summary "$T/A.json" "$T/B.json" > "$T/sum.txt" 2> "$T/sum.err"
rc=$?
cat > "$T/sum.want" <<EOF
piglit summary of 2 results files
[1] $T/A.json: 8 tests: 4 pass, 2 fail, 1 skip, 1 error
[2] $T/B.json: 8 tests: 4 pass, 1 fail, 1 skip, 2 error
[1] -> [2]: 1 fixed, 1 regressed, 1 enabled, 1 disabled, 1 changed, 1 new, 1 removed
[1]    [2]    test (changes)
fail   pass   $R/a/fixed.shader_test (fixed)
pass   fail   $R/a/regressed.shader_test (regressed)
fail   error  $R/b/changed.shader_test (changed)
pass   skip   $R/b/disabled.shader_test (disabled)
skip   pass   $R/b/enabled.shader_test (enabled)
-      pass   $R/new.shader_test (new)
pass   -      $R/removed.shader_test (removed)
EOF
[ $rc -eq 0 ] && cmp -s "$T/sum.txt" "$T/sum.want" && ok ||
    bad "summary (exit $rc): $(diff "$T/sum.want" "$T/sum.txt" | head -n 8) $(head -n 2 "$T/sum.err")"
"$U" piglit summary "$T/A.json" "$T/B.json" --all > "$T/all.txt"
[ "$(grep -c '\.shader_test' "$T/all.txt")" -eq 9 ] && ok || bad "summary --all does not list 9 tests"
"$U" piglit summary "$T/A.json" "$T/A.json" > "$T/same.txt"
grep -qx 'no test changed' "$T/same.txt" && ok || bad "a file against itself: $(tail -n 1 "$T/same.txt")"
"$U" piglit summary "$T/A.json" "$T/B.json" --json > "$T/sum.json" &&
    "$CK" check docs/METRICS.md piglit-summary "$T/sum.json" > "$T/ck" 2>&1 && ok ||
    bad "summary --json: not schema piglit-summary: $(head -n 5 "$T/ck")"
python3 - "$T/sum.json" > "$T/py" 2>&1 <<'EOF' && ok || bad "summary --json: $(head -n 3 "$T/py")"
import json, sys
s = json.load(open(sys.argv[1]))
c = s["changes"][0]
assert [c[k] for k in ("fixed", "regressed", "enabled", "disabled", "changed",
                       "new", "removed")] == [1] * 7, c
assert len(s["tests"]) == 7
t = {x["path"].rsplit("/", 1)[1]: x for x in s["tests"]}
assert t["new.shader_test"]["results"] == [None, "pass"]
assert t["changed.shader_test"]["messages"][1].startswith("unknown command")
assert s["files"][1]["error"] == 2
EOF
"$U" piglit summary "$T/A.json" "$T/B.json" --html "$T/html/x" > /dev/null 2>&1 &&
    [ -s "$T/html/x/index.html" ] && ok || bad "summary --html DIR wrote no DIR/index.html"
# self-contained: no link, script or URL to fetch
grep -qi '<link\|<script\|src=\|url(\|http' "$T/html/x/index.html" &&
    bad "index.html refers to something outside it" || ok

# ---- the page in a real browser ------------------------------------------------------------
if browser_init "$T"; then
    if browser_dom "$T/html/x/index.html" "$T/dom.html"; then
        python3 tests/html_check.py summary "$T/dom.html" "$T/sum.json" && ok ||
            bad "the rendered summary page does not show the summary"
    else
        bad "chromium --dump-dom: $BROWSER_WHY"
    fi
    if browser_shot "$T/html/x/index.html" "$T/shot.png"; then
        # the pass and fail cells' colours (#8d8, #e77)
        python3 tests/html_check.py png "$T/shot.png" 136,221,136 238,119,119 &&
            ok || bad "the screenshot of the summary page"
    else
        bad "chromium --screenshot: $BROWSER_WHY"
    fi
else
    bad "no browser: $BROWSER_WHY"
fi
pgrep -f -- "--user-data-dir=$T" > /dev/null && bad "chromium processes left running" || ok

# ---- errors --------------------------------------------------------------------------------
mkdir "$T/empty"
"$U" piglit "$T/empty" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "empty: error: no .shader_test file" "$T/err" && ok ||
    bad "an empty directory: $(cat "$T/err")"
"$U" piglit --jobs 0 "$R" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q -- "--jobs wants 1..256" "$T/err" && ok || bad "--jobs 0: $(cat "$T/err")"
cp "$R/same.shader_test" "$T/keep"
"$U" piglit --results "$R/same.shader_test" "$R" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "is also the input" "$T/err" && cmp -s "$R/same.shader_test" "$T/keep" && ok ||
    bad "--results over a test file: $(cat "$T/err")"
"$U" piglit --results "$T/nodir/r.json" "$R" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && [ ! -e "$T/nodir" ] && grep -q "r.json" "$T/err" && ok ||
    bad "--results in a missing directory: $(cat "$T/err")"
printf '{"a": [1,\n  2,, 3]}\n' > "$T/broken.json"
"$U" piglit summary "$T/broken.json" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "broken.json:2:[0-9]*: error: not JSON" "$T/err" && ok ||
    bad "summary of broken JSON: $(cat "$T/err")"
"$U" run bench/programs/transform.vp --json > "$T/img.json" 2> /dev/null
"$U" piglit summary "$T/img.json" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "not a results file" "$T/err" && ok || bad "summary of another JSON: $(cat "$T/err")"
"$U" piglit summary > /dev/null 2>&1
[ $? -eq 2 ] && ok || bad "summary without files is not a usage error"
"$U" piglit summary --bogus "$T/A.json" > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q "unknown option '--bogus'" "$T/err" && ok || bad "summary --bogus: $(cat "$T/err")"
"$U" piglit summary "$T/A.json" --html > /dev/null 2> "$T/err"
[ $? -eq 2 ] && grep -q -- "--html needs a DIR" "$T/err" && ok || bad "summary --html without DIR: $(cat "$T/err")"
"$U" piglit summary "$T/A.json" --html "$T/A.json/sub" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && grep -q "cannot create the directory" "$T/err" && ok ||
    bad "summary --html under a file: $(cat "$T/err")"
"$U" piglit --help | grep -q -- "--results F" && "$U" piglit summary --help | grep -q -- "--html DIR" && ok ||
    bad "--help does not list --results / --html"

echo "piglit_workflow: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
