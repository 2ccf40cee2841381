#!/bin/sh
# `ushader bench --out DIR` writes report.html beside report.md (issue 19
# item 5): one self-contained page (inline CSS, no script, every plot a
# data: URI, nothing to fetch), loaded in headless chromium
# (tests/browser.sh).  The rendered DOM must hold every table of
# report.md cell for cell under the same heading, every plot as the bytes
# of the PNG gnuplot wrote, and the cycles of section c and of the
# per-program table must be results.json's (tests/html_check.py); the
# screenshot must be a valid PNG of more than one colour.  Also with
# --no-plots (no images, no missing-image notes), for the compute suite
# (its tables), and --jobs 1 and 2 give the same page but for the command
# line.  If chromium does not start, the test says why and fails.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.."
. tests/browser.sh
T=$(mktemp -d)
trap 'browser_reap "$T"; rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# bench NAME ARGS...: ushader bench ARGS --out $T/NAME
bench() {
    name=$1
    shift
    if "$U" bench "$@" --out "$T/$name" > "$T/$name.out" 2> "$T/$name.err" &&
       [ -s "$T/$name/report.html" ]; then ok
    else bad "bench $* wrote no report.html: $(grep -v plots.gp "$T/$name.err" | head -n 3)"; fi
}
# selfcontained FILE: nothing outside the page
selfcontained() {
    if sed 's/src="data:image\/png;base64,[A-Za-z0-9+\/=]*"//g' "$1" |
       grep -qi '<link\|<script\|<iframe\|src=\|url(\|@import'; then
        bad "$1 refers to something outside it"
    else ok; fi
}

bench shader --only phong,blur,transform --threads 16 --jobs 2
bench shader1 --only phong,blur,transform --threads 16 --jobs 1
bench noplots --only phong,blur,transform --threads 16 --jobs 2 --no-plots
bench compute --suite compute --only vadd --jobs 2 --no-plots
for d in shader noplots compute; do selfcontained "$T/$d/report.html"; done
[ "$(grep -c '<img ' "$T/shader/report.html")" -ge 5 ] && ok ||
    bad "report.html has $(grep -c '<img ' "$T/shader/report.html") plots"
grep -q '<img \|is missing' "$T/noplots/report.html" &&
    bad "--no-plots: report.html has images or missing-image notes" || ok
# (the provenance's command line is the one difference)
grep -v '^<li>command: ' "$T/shader/report.html" > "$T/a"
grep -v '^<li>command: ' "$T/shader1/report.html" > "$T/b"
[ "$(grep -c '^<li>command: <code>ushader bench ' "$T/shader/report.html")" -eq 1 ] &&
    cmp -s "$T/a" "$T/b" && ok || bad "--jobs 1 and 2 give different pages: $(diff "$T/a" "$T/b" | head -n 4)"

if browser_init "$T"; then
    for d in shader noplots compute; do
        o=
        [ $d = compute ] && o=--tables-only
        if browser_dom "$T/$d/report.html" "$T/$d.dom"; then
            python3 tests/html_check.py report "$T/$d.dom" "$T/$d/report.md" \
                "$T/$d/results.json" "$T/$d" $o && ok ||
                bad "$d: the rendered report.html does not show report.md"
        else
            bad "chromium --dump-dom on $d/report.html: $BROWSER_WHY"
        fi
    done
    if browser_shot "$T/shader/report.html" "$T/shot.png"; then
        python3 tests/html_check.py png "$T/shot.png" && ok ||
            bad "the screenshot of report.html"
    else
        bad "chromium --screenshot: $BROWSER_WHY"
    fi
else
    bad "no browser: $BROWSER_WHY"
fi
pgrep -f -- "--user-data-dir=$T" > /dev/null && bad "chromium processes left running" || ok

echo "report_html: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
