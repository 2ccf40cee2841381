#!/bin/sh
# `ushader bench` (suite/): on a small subset of the suite, the results and
# the report do not depend on --jobs (1 vs 2 host threads give identical
# files but for the command line their provenance records), every run's outputs equal the reference interpreter's (exit 0),
# the report has every section (a-h), the plots exist when gnuplot does,
# --no-lut-study leaves out the 33 shared-LUT variants and nothing else
# (--no-sensitivity likewise the sensitivity study's),
# and bad options are usage errors (exit 2).
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

ONLY=transform.vp,scenes/eyespace.vp,noise.fp,blur.fp,scenes/phong.fp
if "$U" bench --only "$ONLY" --threads 32 --jobs 1 --out "$tmp/j1" \
        > "$tmp/j1.txt" 2> "$tmp/j1.err"; then ok
else bad "bench --jobs 1 exited $?"; head -n 5 "$tmp/j1.err"; fi
if "$U" bench --only "$ONLY" --threads 32 --jobs 2 --out "$tmp/j2" \
        --no-plots > "$tmp/j2.txt" 2> "$tmp/j2.err"; then ok
else bad "bench --jobs 2 exited $?"; head -n 5 "$tmp/j2.err"; fi

# The provenance records the command line (so --jobs and --out); every
# other line, the rest of the provenance included, is the same.
nocmd() { grep -v -e '^ *"command": ' -e '^# command: ' -e '^- command: ' "$1"; }
for f in results.csv results.json; do
    nocmd "$tmp/j1/$f" > "$tmp/a"; nocmd "$tmp/j2/$f" > "$tmp/b"
    if cmp -s "$tmp/a" "$tmp/b"; then ok
    else bad "$f differs between --jobs 1 and --jobs 2"; fi
    if grep -q -e "command.*--jobs 1 --out $tmp/j1" "$tmp/j1/$f" &&
       grep -q -e "command.*--jobs 2 --out $tmp/j2" "$tmp/j2/$f" &&
       [ "$(wc -l < "$tmp/a")" -eq "$(($(wc -l < "$tmp/j1/$f") - 1))" ]; then ok
    else bad "$f does not record its command line once"; fi
done
if cmp -s "$tmp/j1.txt" "$tmp/j2.txt"; then ok
else bad "the table differs between --jobs 1 and --jobs 2"; fi
# The reports differ only in the plot links (j2 ran with --no-plots).
nocmd "$tmp/j1/report.md" | grep -v -e '^!\[' -e '^\*Plots:' -e '^$' > "$tmp/r1"
nocmd "$tmp/j2/report.md" | grep -v -e '^!\[' -e '^\*Plots:' -e '^$' > "$tmp/r2"
if cmp -s "$tmp/r1" "$tmp/r2"; then ok
else bad "report.md differs between --jobs 1 and --jobs 2"; fi

for s in '## a. Vector width' '## b. Datapath utilization' \
         '## c. Cycles and throughput' '## d. Instruction memory' \
         '## e. SFU and shared LUT' '## f. Area, energy and area x delay' \
         '## g. Paper vs measured' '## h. Sensitivity' \
         '## Programs and their inputs'; do
    if grep -qF "$s" "$tmp/j1/report.md"; then ok
    else bad "report.md lacks '$s'"; fi
done
if [ "$(grep -c '^| ' "$tmp/j1/report.md")" -gt 40 ]; then ok
else bad "report.md has too few table rows"; fi
rows=$(($(wc -l < "$tmp/j1/results.csv") - 1))
runs=$(grep -c '^5 programs x [0-9]* variants' "$tmp/j1.txt")
if [ "$rows" -gt 5 ] && [ "$runs" -eq 1 ]; then ok
else bad "results.csv has $rows rows"; fi
if command -v gnuplot > /dev/null; then
    for p in width utilization programs imem lut area_energy sensitivity; do
        if [ -s "$tmp/j1/$p.png" ] && grep -qF "($p.png)" "$tmp/j1/report.md"
        then ok; else bad "no $p.png"; fi
    done
fi
if ! ls "$tmp/j1" | grep -q 'tmp'; then ok
else bad "temporary files left in the output directory"; fi

# --no-lut-study: the scalar SP without its 33 shared-LUT variants (46
# variants -> 13), the report says so, and the rows it keeps are the same;
# --no-sensitivity likewise without the 8 scalar@KNOB=V variants (-> 38).
for v in lut nolut nosens; do
    "$U" bench --only blur.fp --threads 16 --arch scalar --no-plots \
        $([ $v = nolut ] && echo --no-lut-study) \
        $([ $v = nosens ] && echo --no-sensitivity) --out "$tmp/$v" \
        > "$tmp/$v.txt" 2> "$tmp/$v.err" || bad "bench ($v) exited $?"
done
if grep -q 'x 46 variants' "$tmp/lut.txt" && grep -q 'x 13 variants' "$tmp/nolut.txt" &&
   grep -q 'x 38 variants' "$tmp/nosens.txt"
then ok; else bad "--no-lut-study/--no-sensitivity: $(tail -n 1 "$tmp/lut.txt") / $(tail -n 1 "$tmp/nolut.txt") / $(tail -n 1 "$tmp/nosens.txt")"; fi
if grep -q 'knob tables were left out of this run' "$tmp/nosens/report.md" &&
   ! grep -q 'knob tables were left out' "$tmp/lut/report.md"; then ok
else bad "--no-sensitivity: the report does not say the tables were left out"; fi
grep -v -e '^#' -e ',scalar@' "$tmp/lut/results.csv" > "$tmp/a"
grep -v '^#' "$tmp/nosens/results.csv" > "$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then ok
else bad "--no-sensitivity changed the rows it keeps"; fi
if grep -q 'shared-LUT study was left out of this run' "$tmp/nolut/report.md" &&
   ! grep -q 'shared-LUT study was left out' "$tmp/lut/report.md"; then ok
else bad "--no-lut-study: the report does not say the study was left out"; fi
grep -v -e '^#' -e ',scalar-lut-' "$tmp/lut/results.csv" > "$tmp/a"
grep -v '^#' "$tmp/nolut/results.csv" > "$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then ok
else bad "--no-lut-study changed the rows it keeps"; fi

"$U" bench --arch nosuch --only blur.fp > /dev/null 2>&1
if [ $? -eq 2 ]; then ok; else bad "--arch nosuch is not a usage error"; fi
"$U" bench --jobs 0 > /dev/null 2>&1
if [ $? -eq 2 ]; then ok; else bad "--jobs 0 is not a usage error"; fi
"$U" bench --only no-such-program > /dev/null 2>&1
if [ $? -eq 2 ]; then ok; else bad "an empty selection is not an error"; fi

# no bar on a file by default; --progress draws the capture and run bars
! grep -q "$(printf '\r')" "$tmp/j1.err" && ok || bad "a progress bar on a file"
"$U" bench --only scenes/phong.fp --arch scalar --threads 32 --no-lut-study \
    --no-sensitivity --progress > /dev/null 2> "$tmp/bar.err" &&
    tr '\r' '\n' < "$tmp/bar.err" | grep -q '^capture  *\[#*\] 1/1 ' &&
    tr '\r' '\n' < "$tmp/bar.err" | grep -q '^run  *\[#*\] \([0-9]*\)/\1 ' &&
    ok || bad "--progress: $(tr '\r' '\n' < "$tmp/bar.err" | tail -n 3)"

echo "bench: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
