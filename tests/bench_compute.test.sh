#!/bin/sh
# `ushader bench --suite compute` (suite/compute*.c, docs/COMPUTE_SUITE.md)
# on a subset of the sample that reaches every section: exit 0 and every
# section in report.md; --jobs 1 and --jobs 2 give byte-identical outputs
# but for the command line in their provenance;
# a broken kernel (vadd computing a + b + 1) makes it exit 1 naming vadd
# and the differing word; a bad --kernels or a missing preset is a clear
# error that writes nothing into --out; --suite ./compute is a list file.
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# kgpu_diverge and delineation_cl: divergence; vadd: memory; fir_cl,
# delineation_cl, fft_cl: e-GPU scaling; gemm32_cl: GeMM's launch share.
ONLY=vadd,kgpu_diverge,fft_cl,fir_cl,delineation_cl,gemm32_cl

"$U" bench --suite compute --only $ONLY --jobs 2 --out "$T/j2" \
    >"$T/j2.out" 2>"$T/j2.err"
rc=$?
[ $rc -eq 0 ] && ok || bad "sample subset: exit $rc: $(head -3 "$T/j2.err")"
grep -q '0 failed$' "$T/j2.out" && ok || bad "stdout has no pass/fail counts"
for s in '## a. Utilization' '## b. Cycles' '## c. Stalls by cause' \
    '## d. The SIMT presets' '## e. Divergence' '## f. Memory systems' \
    '## g. e-GPU scaling beside the paper' "### GeMM's scheduling cost" \
    '## h. Area and energy of the datapaths' '### `kgpu_diverge`'; do
    grep -qF "$s" "$T/j2/report.md" && ok || bad "report.md lacks '$s'"
done
# the e-GPU table has a row per study kernel with the paper's figures
for k in fir_cl delineation_cl fft_cl; do
    grep -q "^| \`$k\` | [0-9].* | 3\.[0-9] - 1[0-9]\.[0-9] |" "$T/j2/report.md" &&
        ok || bad "e-GPU table: no row for $k"
done
for f in results.csv results.json utilization.dat divergence.dat egpu.dat; do
    [ -s "$T/j2/$f" ] && ok || bad "no $f"
done

"$U" bench --suite compute --only $ONLY --jobs 1 --out "$T/j1" \
    >"$T/j1.out" 2>/dev/null || bad "--jobs 1 failed"
for f in results.csv results.json report.md utilization.dat divergence.dat \
    egpu.dat; do
    # the provenance's command line (--jobs, --out) is the one difference
    grep -v -e '^ *"command": ' -e '^# command: ' -e '^- command: ' "$T/j1/$f" >"$T/a"
    grep -v -e '^ *"command": ' -e '^# command: ' -e '^- command: ' "$T/j2/$f" >"$T/b"
    cmp -s "$T/a" "$T/b" && ok || bad "$f differs between --jobs 1 and 2"
done
cmp -s "$T/j1.out" "$T/j2.out" && ok || bad "stdout differs between --jobs 1 and 2"
for f in results.csv results.json report.md; do
    [ "$(grep -c -e '"command": "ushader bench --suite compute' \
        -e '^# command: ushader bench --suite compute' \
        -e '^- command: `ushader bench --suite compute' "$T/j1/$f")" -eq 1 ] &&
        grep -q 'bench/compute/vadd' "$T/j1/$f" && ok ||
        bad "$f lacks its provenance (command line, kernel inputs)"
done

# A broken kernel: exit 1 after writing the report, naming vadd and the word.
cp -r bench/compute "$T/k"
sed 's/c\[i\] = a\[i\] + b\[i\];/c[i] = a[i] + b[i] + 1;/' bench/compute/vadd.comp \
    >"$T/k/vadd.comp"
cmp -s bench/compute/vadd.comp "$T/k/vadd.comp" && bad "sed did not break vadd"
"$U" bench --suite compute --kernels "$T/k" --configs configs --only vadd \
    --no-plots --out "$T/broken" >"$T/b.out" 2>"$T/b.err"
rc=$?
[ $rc -eq 1 ] && ok || bad "broken vadd: exit $rc, not 1"
grep -q 'vadd on scalar: binding 2 word 0: expected 0x[0-9a-f]*, got 0x' "$T/b.err" &&
    ok || bad "broken vadd: no 'vadd on scalar: binding 2 word 0' in: $(head -2 "$T/b.err")"
grep -q '^| `vadd` | scalar | binding 2 word 0' "$T/broken/report.md" 2>/dev/null &&
    ok || bad "broken vadd: the report lists no failure"

# Bad --kernels, an empty kernels directory, a missing preset: an error,
# nothing in --out.
"$U" bench --suite compute --kernels "$T/none" --out "$T/o1" 2>"$T/e1"
rc=$?
{ [ $rc -ne 0 ] && grep -q "ushader: $T/none: error: .*No such file" "$T/e1" &&
  [ ! -e "$T/o1" ]; } && ok || bad "bad --kernels: exit $rc: $(cat "$T/e1")"
mkdir "$T/empty"
"$U" bench --suite compute --kernels "$T/empty" --configs configs --only vadd \
    --out "$T/o2" 2>"$T/e2"
rc=$?
{ [ $rc -ne 0 ] && grep -q "ushader: $T/empty/vadd.comp: error:" "$T/e2" &&
  [ ! -e "$T/o2" ]; } && ok || bad "missing kernel: exit $rc: $(cat "$T/e2")"
mkdir "$T/cfg"
cp configs/*.ini "$T/cfg" && rm "$T/cfg/dice.ini"
"$U" bench --suite compute --configs "$T/cfg" --only vadd --out "$T/o3" 2>"$T/e3"
rc=$?
{ [ $rc -ne 0 ] && grep -q "ushader: $T/cfg/dice.ini: error:" "$T/e3" &&
  [ ! -e "$T/o3" ]; } && ok || bad "missing preset: exit $rc: $(cat "$T/e3")"

# Any other --suite value is the shader suite's list file.
case $U in /*) A=$U ;; *) A=$PWD/$U ;; esac
(cd "$T" && "$A" bench --suite ./compute --out o4) 2>"$T/e4"
rc=$?
{ [ $rc -ne 0 ] && grep -q 'compute' "$T/e4" && ! grep -q 'kernels' "$T/e4" &&
  [ ! -e "$T/o4" ]; } && ok || bad "--suite ./compute: exit $rc: $(cat "$T/e4")"

echo "bench_compute: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
