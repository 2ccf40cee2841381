#!/bin/sh
# `ushader sweep` (cli/cmd_sweep.c, docs/SWEEP.md): a 2x2 grid of
# lut_banks x lookahead on two programs and the scalar model.  --jobs 1
# and --jobs 2 write the same bytes; each point's rows are what `ushader
# bench` with the point's --set prints; the spec file and --set forms
# agree; zip pairs the lists; SFU keys and SIMT knobs sweep; --emit-jobs
# runs through GNU parallel and --merge writes the local run's files byte
# for byte; a missing point, a point of another build or spec, a bad spec,
# an empty sweep are clear errors that write nothing.  --suite compute:
# mem_latency x simt_warps on simt, the same checks (jobs, bench's rows,
# parallel + merge) and `ushader compare` of its sets.  Slurm:
# tests/sweep_slurm.test.sh.
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
CK=$BUILD/tools/jsonck
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

SPEC="--set lut_banks=1,2 --set lookahead=0,1"
SUB="--only phong.fp,blinn_phong_2 --arch scalar --threads 64"
FILES="results.json results.csv report.md plots.gp sweep_cycles_lut_banks.dat"

# ---- local, --jobs 1 and 2 ----------------------------------------------
$U sweep $SPEC $SUB --jobs 1 --out "$T/j1" > "$T/j1.out" 2> "$T/j1.err"
rc=$?
[ $rc -eq 0 ] && ok || bad "local --jobs 1: exit $rc: $(head -3 "$T/j1.err")"
$U sweep $SPEC $SUB --jobs 2 --out "$T/j2" > "$T/j2.out" 2>/dev/null ||
    bad "local --jobs 2 failed"
for f in $FILES; do
    cmp -s "$T/j1/$f" "$T/j2/$f" && ok || bad "$f differs between --jobs 1 and 2"
done
cmp -s "$T/j1.out" "$T/j2.out" && ok || bad "stdout differs between --jobs 1 and 2"
# the provenance records the sweep, not host-only options
grep -q '"command": "ushader sweep --set lut_banks=1,2 --set lookahead=0,1 --arch scalar --only phong.fp,blinn_phong_2 --threads 64",$' \
    "$T/j1/results.json" && ok || bad "results.json: not the canonical command"
# no progress bar when stderr is not a terminal
! grep -q "$(printf '\r')" "$T/j1.err" && ok || bad "a progress bar on a file"

# --progress draws the bar from the first update, on a file too (the
# default waits a second on a terminal, which a fast host may never reach)
$U sweep --set lut_banks=1,2 --arch scalar --only phong.fp --threads 64 \
    --no-plots --progress > /dev/null 2> "$T/bar.err" &&
    tr '\r' '\n' < "$T/bar.err" | grep -q '^sweep  *\[#*\] 4/4 ' && ok ||
    bad "--progress: no bar: $(tr '\r' '\n' < "$T/bar.err" | tail -n 3)"
# on a terminal (script(1) gives it one) the bar counts the runs of every
# point
if command -v script > /dev/null; then
    script -qec "$U sweep --set lut_banks=1,2,4,8 --set lookahead=0,1,2,3 --arch scalar --only fp --threads 512 --no-plots --progress > /dev/null" \
        "$T/tty" > /dev/null 2>&1 || bad "the sweep on a terminal failed"
    tr '\r' '\n' < "$T/tty" | grep -q '^sweep  *\[#*\] 448/448 ' && ok ||
        bad "no progress bar on a terminal: $(tr '\r' '\n' < "$T/tty" | tail -n 3)"
else
    bad "script(1) is not installed (Debian: bsdutils), so the bar is untested"
fi
# a run without a bar refuses it
for o in "--set lut_banks=1,2 --emit-jobs $T/e" "--merge $T/j1" \
         "--set lut_banks=1,2 --point 0 --out $T/p"; do
    $U sweep --progress $o > /dev/null 2> "$T/err" &&
        bad "--progress with $o accepted" ||
        grep -q 'ushader: error: sweep: .*progress' "$T/err" && ok ||
        bad "--progress with $o: $(cat "$T/err")"
done

# ---- the set's shape -----------------------------------------------------
"$CK" check docs/METRICS.md sweep "$T/j1/results.json" > "$T/ck" 2>&1 &&
    ok || { bad "results.json: not schema sweep"; head "$T/ck"; }
# header: a column per knob, then bench's columns; 4 points x 3 programs
# (phong.fp matches two) x 1 model rows
hdr=$(grep -v '^#' "$T/j1/results.csv" | head -n 1)
case $hdr in point,lut_banks,lookahead,program,stage,variant,model,ok,identical,cycles,*) ok ;;
    *) bad "results.csv header: $hdr" ;; esac
rows=$(grep -v '^#' "$T/j1/results.csv" | tail -n +2 | wc -l)
[ "$rows" -eq 12 ] && ok || bad "results.csv has $rows rows, not 12"
# the points in grid order, the last knob fastest
for k in 0,1,0 1,1,1 2,2,0 3,2,1; do
    [ "$(grep -c "^$k,.*,scalar,scalar,1,1," "$T/j1/results.csv")" -eq 3 ] &&
        ok || bad "results.csv: no 3 identical rows of point $k"
done
# the knobs took effect: one bank and no lookahead costs more cycles
c0=$(grep '^0,1,0,phong.fp,' "$T/j1/results.csv" | cut -d, -f10)
c3=$(grep '^3,2,1,phong.fp,' "$T/j1/results.csv" | cut -d, -f10)
[ -n "$c0" ] && [ -n "$c3" ] && [ "$c0" -gt "$c3" ] && ok ||
    bad "phong.fp: cycles $c0 at 1 bank, lookahead 0; $c3 at 2, 1"

# each point's row is what bench prints at that point
bench_cycles() {  # KNOBS... -> scalar cycles of phong.fp
    args=""
    for kv in "$@"; do args="$args --set $kv"; done
    $U bench $args --only phong.fp --arch scalar --threads 64 --json 2>/dev/null |
        tr -d ' \n' | grep -o '"program":"phong.fp","variant":"scalar",[^}]*"cycles":[0-9]*' |
        grep -o '[0-9]*$'
}
for p in "0 lut_banks=1 lookahead=0" "3 lut_banks=2 lookahead=1"; do
    set -- $p
    k=$1
    shift
    b=$(bench_cycles "$@")
    s=$(grep "^$k,[^,]*,[^,]*,phong.fp," "$T/j1/results.csv" | cut -d, -f10)
    [ -n "$b" ] && [ "$b" = "$s" ] && ok || bad "point $k: sweep $s cycles, bench $b"
done

# plots: gnuplot drew a line per model and value of the other knob
if command -v gnuplot > /dev/null; then
    [ -s "$T/j1/sweep_cycles_lut_banks.png" ] && ok || bad "no plot PNG"
    grep -q "^# scalar lookahead=0$" "$T/j1/sweep_cycles_lut_banks.dat" &&
        grep -q "^# scalar lookahead=1$" "$T/j1/sweep_cycles_lut_banks.dat" &&
        ok || bad "the plot has no line per lookahead"
    grep -qF '](sweep_cycles_lut_banks.png)' "$T/j1/report.md" && ok ||
        bad "report.md does not show the plot"
fi

# ---- the spec file form, zip, SFU keys, SIMT knobs -------------------------
printf '# the same sweep\n[sweep]\nmode = grid\nlut_banks = 1, 2\nlookahead = 0,1\n' > "$T/spec.ini"
$U sweep --spec "$T/spec.ini" $SUB --out "$T/ini" > /dev/null 2>&1 || bad "--spec failed"
"$CK" strip provenance "$T/j1/results.json" > "$T/a"
"$CK" strip provenance "$T/ini/results.json" > "$T/b"
cmp -s "$T/a" "$T/b" && ok || bad "--spec and --set give other results"
$U sweep --zip --set lut_banks=1,2 --set lookahead=0,1 --set alu_lanes=8 $SUB \
    --no-plots --out "$T/zip" > /dev/null 2>&1 || bad "--zip failed"
{ grep -q '^0,1,0,8,phong.fp,' "$T/zip/results.csv" &&
  grep -q '^1,2,1,8,phong.fp,' "$T/zip/results.csv" &&
  ! grep -q '^2,' "$T/zip/results.csv"; } && ok || bad "--zip: not 2 paired points"
$U sweep --set sfu.rsq.degree=1,3 --set simt_fetch=1,5 --arch simt --only phong.fp \
    --threads 32 --no-plots --out "$T/sim" > /dev/null 2>&1 || bad "SFU/SIMT sweep failed"
s1=$(grep '^0,1,1,phong.fp,' "$T/sim/results.csv" | cut -d, -f10)
s5=$(grep '^1,1,5,phong.fp,' "$T/sim/results.csv" | cut -d, -f10)
b5=$($U bench --set sfu.rsq.degree=1 --set simt_fetch=5 --only phong.fp --arch simt --threads 32 --json |
     tr -d ' \n' | grep -o '"program":"phong.fp","variant":"simt",[^}]*"cycles":[0-9]*' | grep -o '[0-9]*$')
[ -n "$s5" ] && [ "$s5" = "$b5" ] && [ "$s1" -lt "$s5" ] && ok ||
    bad "simt_fetch: sweep $s1/$s5 cycles, bench $b5 at simt_fetch=5"
grep -q '^point,sfu.rsq.degree,simt_fetch,' "$T/sim/results.csv" && ok || bad "no sfu.rsq.degree column"

# ---- --emit-jobs, GNU parallel, --merge ----------------------------------
$U sweep $SPEC $SUB --emit-jobs "$T/jobs" 2> "$T/emit.err" || bad "--emit-jobs: $(cat "$T/emit.err")"
[ "$(wc -l < "$T/jobs/jobs.txt")" -eq 4 ] && [ -x "$T/jobs/jobs/0003.sh" ] &&
    grep -q '^#SBATCH --array=0-3$' "$T/jobs/sweep.sbatch" && ok || bad "the job files"
grep -q -- "--point 2 --jobs 1 --out $T/jobs/points/0002\$" "$T/jobs/jobs/0002.sh" &&
    grep -q '^# commit: ' "$T/jobs/jobs/0002.sh" && ok || bad "job 2 has no command line or provenance"
# a merge before the jobs ran: refused, nothing written
$U sweep --merge "$T/jobs" > /dev/null 2> "$T/m0.err"
rc=$?
[ $rc -ne 0 ] && grep -q '4 of 4 points missing' "$T/m0.err" && [ ! -e "$T/jobs/results.json" ] &&
    ok || bad "merge of an empty dir: exit $rc: $(cat "$T/m0.err")"
if command -v parallel > /dev/null; then
    (cd "$T" && parallel --jobs 2 < "$T/jobs/jobs.txt") > "$T/par.out" 2>&1 ||
        bad "parallel: $(tail -3 "$T/par.out")"
    $U sweep --merge "$T/jobs" > "$T/merge.out" 2> "$T/merge.err" ||
        bad "--merge: $(cat "$T/merge.err")"
    for f in $FILES; do
        cmp -s "$T/j1/$f" "$T/jobs/$f" && ok || bad "merged $f differs from the local run's"
    done
    cmp -s "$T/j1.out" "$T/merge.out" && ok || bad "merge's summary differs"
    # an SFU key reloads the suite in a local run, a job always loads it
    $U sweep --set sfu.rsq.degree=1,3 --set simt_fetch=1,5 --arch simt --only phong.fp \
        --threads 32 --emit-jobs "$T/simj" 2> /dev/null &&
        (cd "$T" && parallel --jobs 2 < "$T/simj/jobs.txt") > /dev/null 2>&1 &&
        $U sweep --merge "$T/simj" --no-plots > /dev/null 2>&1 || bad "SFU/SIMT jobs failed"
    cmp -s "$T/sim/results.csv" "$T/simj/results.csv" &&
        cmp -s "$T/sim/results.json" "$T/simj/results.json" && ok ||
        bad "SFU/SIMT sweep: merged set differs from the local run's"
    # refusals: a missing point, another build's, another spec's
    cp -r "$T/jobs" "$T/m1"
    rm "$T/m1/points/0001/point.json"
    $U sweep --merge "$T/m1" --out "$T/m1out" > /dev/null 2> "$T/m1.err"
    rc=$?
    [ $rc -ne 0 ] && grep -q 'points/0001/point.json' "$T/m1.err" && [ ! -e "$T/m1out" ] &&
        ok || bad "missing point: exit $rc: $(cat "$T/m1.err")"
    cp -r "$T/jobs" "$T/m2"
    sed 's/"commit": "[^"]*"/"commit": "0000000"/' "$T/jobs/points/0002/point.json" > "$T/m2/points/0002/point.json"
    $U sweep --merge "$T/m2" --out "$T/m2out" > /dev/null 2> "$T/m2.err"
    rc=$?
    [ $rc -ne 0 ] && grep -q 'point 2 was produced by ushader .* (commit 0000000)' "$T/m2.err" &&
        [ ! -e "$T/m2out" ] && ok || bad "another build's point: exit $rc: $(cat "$T/m2.err")"
    $U sweep --set lut_banks=1,2 --set lookahead=0,2 $SUB --point 3 --out "$T/other" > /dev/null 2>&1
    cp -r "$T/jobs" "$T/m3"
    cp "$T/other/point.json" "$T/m3/points/0003/point.json"
    $U sweep --merge "$T/m3" --out "$T/m3out" > /dev/null 2> "$T/m3.err"
    rc=$?
    [ $rc -ne 0 ] && grep -q 'point 3 belongs to another sweep spec' "$T/m3.err" &&
        [ ! -e "$T/m3out" ] && ok || bad "another spec's point: exit $rc: $(cat "$T/m3.err")"
    cp -r "$T/jobs" "$T/m4"
    printf '{"schema_version": 1,\n "provenance": [' > "$T/m4/points/0000/point.json"
    $U sweep --merge "$T/m4" --out "$T/m4out" > /dev/null 2> "$T/m4.err"
    rc=$?
    [ $rc -ne 0 ] && grep -q "^ushader: $T/m4/points/0000/point.json:2:.*: error: " "$T/m4.err" &&
        [ ! -e "$T/m4out" ] && ok || bad "a broken point.json: exit $rc: $(cat "$T/m4.err")"
else
    bad "GNU parallel is not installed (Debian: parallel; make deps)"
fi

# ---- --suite compute: memory-system and SIMT knobs on the compute suite ----
CSPEC="--suite compute --only vadd,gemm32 --set mem_latency=10,20,40 --set simt_warps=2,4 --arch simt"
CFILES="results.json results.csv report.md plots.gp sweep_cycles_mem_latency.dat"
$U sweep $CSPEC --jobs 1 --out "$T/c1" > "$T/c1.out" 2> "$T/c1.err"
rc=$?
[ $rc -eq 0 ] && ok || bad "compute sweep --jobs 1: exit $rc: $(head -3 "$T/c1.err")"
$U sweep $CSPEC --jobs 2 --out "$T/c2" > "$T/c2.out" 2> /dev/null ||
    bad "compute sweep --jobs 2 failed"
for f in $CFILES; do
    cmp -s "$T/c1/$f" "$T/c2/$f" && ok || bad "compute $f differs between --jobs 1 and 2"
done
cmp -s "$T/c1.out" "$T/c2.out" && ok || bad "compute stdout differs between --jobs 1 and 2"
"$CK" check docs/METRICS.md sweep-compute "$T/c1/results.json" > "$T/ck" 2>&1 &&
    ok || { bad "compute results.json: not schema sweep-compute"; head "$T/ck"; }
grep -q '"command": "ushader sweep --set mem_latency=10,20,40 --set simt_warps=2,4 --arch simt --only vadd,gemm32 --suite compute",$' \
    "$T/c1/results.json" && grep -q '"math": "exact"' "$T/c1/results.json" &&
    grep -q '"path": "bench/compute/vadd.comp"' "$T/c1/results.json" && ok ||
    bad "compute results.json: not the canonical command, exact math, the kernels"
# a column per knob, the compute bench's statistics; 6 points x 3 kernels (gemm32
# matches gemm32_cl) x simt, every buffer equal to the C reference's
chdr=$(grep -v '^#' "$T/c1/results.csv" | head -n 1)
case $chdr in point,mem_latency,simt_warps,kernel,variant,model,status,cycles,utilization,*simt.efficiency,*) ok ;;
    *) bad "compute results.csv header: $chdr" ;; esac
rows=$(grep -v '^#' "$T/c1/results.csv" | tail -n +2 | wc -l)
passed=$(grep -c '^[0-5],[0-9]*,[24],[a-z0-9_]*,simt,simt,pass,' "$T/c1/results.csv")
[ "$rows" -eq 18 ] && [ "$passed" -eq 18 ] && ok ||
    bad "compute results.csv: $rows rows, $passed passed, not 18"
col() {  # NAME -> results.csv column number of statistic NAME
    grep -v '^#' "$T/c1/results.csv" | head -n 1 | tr ',' '\n' | grep -nx "$1" | cut -d: -f1
}
cval() {  # POINT KERNEL NAME -> its value
    grep "^$1,[^,]*,[^,]*,$2,simt," "$T/c1/results.csv" | cut -d, -f"$(col "$3")"
}
# mem_latency costs cycles; simt_warps took effect (more warp slots: more
# register file area)
c10=$(cval 0 vadd cycles) c40=$(cval 4 vadd cycles)
[ -n "$c10" ] && [ -n "$c40" ] && [ "$c10" -lt "$c40" ] && ok ||
    bad "vadd: $c10 cycles at mem_latency 10, $c40 at 40"
a2=$(cval 0 gemm32 area) a4=$(cval 1 gemm32 area)
[ -n "$a2" ] && [ -n "$a4" ] && [ "$a2" != "$a4" ] && ok ||
    bad "gemm32: area $a2 at simt_warps 2, $a4 at 4: the knob did nothing"
# point 2 is the defaults (mem_latency 20, 2 warps): bench --suite compute's job
$U bench --suite compute --only vadd,gemm32 --json 2> /dev/null | tr -d ' ' |
    grep '^{"kernel":"[a-z0-9_]*","variant":"simt","group":"model"' > "$T/bc"
for kern in vadd gemm32 gemm32_cl; do
    b=$(grep "^{\"kernel\":\"$kern\"" "$T/bc" | grep -o '"cycles":[0-9]*,' | tr -dc 0-9)
    bl=$(grep "^{\"kernel\":\"$kern\"" "$T/bc" | grep -o '"issued":[0-9]*,' | tr -dc 0-9)
    [ -n "$b" ] && [ "$b" = "$(cval 2 $kern cycles)" ] &&
        [ -n "$bl" ] && [ "$bl" = "$(cval 2 $kern issued)" ] && ok ||
        bad "$kern: sweep point 2 $(cval 2 $kern cycles) cycles, bench $b"
done
[ -s "$T/c1/sweep_cycles_mem_latency.dat" ] &&
    grep -q '^# simt simt_warps=4$' "$T/c1/sweep_cycles_mem_latency.dat" &&
    grep -q 'bench --suite compute --only vadd,gemm32' "$T/c1/report.md" && ok ||
    bad "compute sweep: no plot data per simt_warps or report"
# ushader compare reads the set: against itself, and two configurations
$U compare "$T/c1" "$T/c1" > "$T/cmp0" 2>&1 &&
    grep -q '^cycles  *0  *0  *18$' "$T/cmp0" && ok || bad "compare of the set with itself: $(tail -3 "$T/cmp0")"
printf '[core]\nsimt_warps = 4\n' > "$T/w4.ini"
$U sweep --suite compute --only vadd,gemm32 --set mem_latency=10,40 --arch simt --no-plots --out "$T/cw2" > /dev/null 2>&1 &&
$U sweep --suite compute --only vadd,gemm32 --set mem_latency=10,40 --arch simt --config "$T/w4.ini" \
    --no-plots --out "$T/cw4" > /dev/null 2>&1 || bad "compute sweeps for compare failed"
$U compare "$T/cw2" "$T/cw4" > "$T/cmp1" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q '^  core.simt_warps: 2 -> 4$' "$T/cmp1" &&
    grep -q '^vadd  *simt \[mem_latency=40\]  *simt ' "$T/cmp1" &&
    grep -q '^rows only in A: 0$' "$T/cmp1" && grep -q '^area  *0  *6  *0$' "$T/cmp1" &&
    ok || bad "compare of two compute sweeps: exit $rc: $(head -5 "$T/cmp1")"
if command -v parallel > /dev/null; then
    $U sweep $CSPEC --emit-jobs "$T/cjobs" 2> "$T/cemit.err" || bad "compute --emit-jobs: $(cat "$T/cemit.err")"
    [ "$(wc -l < "$T/cjobs/jobs.txt")" -eq 6 ] && ok || bad "compute jobs.txt: not 6 jobs"
    (cd "$T" && parallel --jobs 2 < "$T/cjobs/jobs.txt") > "$T/cpar.out" 2>&1 ||
        bad "compute parallel: $(tail -3 "$T/cpar.out")"
    "$CK" check docs/METRICS.md sweep-compute-point "$T/cjobs/points/0003/point.json" > "$T/ck" 2>&1 &&
        ok || { bad "compute point.json: not schema sweep-compute-point"; head "$T/ck"; }
    $U sweep --merge "$T/cjobs" > "$T/cmerge.out" 2> "$T/cmerge.err" ||
        bad "compute --merge: $(cat "$T/cmerge.err")"
    for f in $CFILES; do
        cmp -s "$T/c1/$f" "$T/cjobs/$f" && ok || bad "compute: merged $f differs from the local run's"
    done
    cmp -s "$T/c1.out" "$T/cmerge.out" && ok || bad "compute: merge's summary differs"
else
    bad "GNU parallel is not installed (Debian: parallel; make deps)"
fi

# ---- errors: exit 2, the usual format, nothing written --------------------
err() {  # WANT ARGS...: exit 2, "ushader: ...error: ...WANT", no $T/e
    want=$1
    shift
    $U sweep "$@" --out "$T/e" > /dev/null 2> "$T/e.err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "^ushader: .*error: " "$T/e.err" &&
        grep -q "$want" "$T/e.err" && [ ! -e "$T/e" ] &&
        ok || bad "sweep $*: exit $rc: $(cat "$T/e.err")"
}
err "unknown knob 'foo'" --set foo=1,2
err "lut_banks: 0 out of range" --set lut_banks=0,1
err "an empty value" --set lut_banks=1,,2
err "lists 1 twice" --set lut_banks=1,1
err "empty sweep: lut_banks has no value" --set lut_banks=
err "empty sweep: no knob" --only phong.fp
err "an SFU key is sfu.rcp.k" --set rcp.k=5
err "zip: lookahead has 3 values" --zip --set lut_banks=1,2 --set lookahead=0,1,2
err "point 0 (alu_lanes=3): simd4" --set alu_lanes=3,4 --arch simd4
err "not a statistic" --set lut_banks=1,2 --plot nope
err "not a swept knob" --set lut_banks=1,2 --plot cycles:lookahead
err "unknown option '--bogus'" --set lut_banks=1,2 --bogus
err "unknown --arch 'nope'" --set lut_banks=1,2 --arch nope
err "longer than 190 bytes" --set "lut_banks=$(printf '%0200d' 1)"
err "threads is the shader suite's" --suite compute --set mem_latency=1,2 --threads 64
err "names no kernel of the compute suite" --suite compute --set mem_latency=1,2 --only nope
err "point 0 (alu_lanes=3): simd4" --suite compute --set alu_lanes=3,4 --arch simd4
err "mem_latency: 0 out of range" --suite compute --set mem_latency=0,1
printf '[sweep]\nlut_banks = 1,2\nlookahead = 0, x\n' > "$T/bad.ini"
err "bad.ini:3:1: error: lookahead: bad number 'x'" --spec "$T/bad.ini"
printf 'lut_banks = 1,2\n' > "$T/bad2.ini"
err "bad2.ini:1:1: error: an entry before \[sweep\]" --spec "$T/bad2.ini"
printf '[core]\nlut_banks = 1\n' > "$T/bad3.ini"
err "unknown section \[core\]" --spec "$T/bad3.ini"
$U sweep --merge "$T/jobs" --set lut_banks=1 > /dev/null 2> "$T/e.err"
[ $? -eq 2 ] && grep -q 'give it only --out' "$T/e.err" && ok || bad "--merge with --set"
$U sweep --merge "$T/nothere" > /dev/null 2> "$T/e.err"
[ $? -ne 0 ] && grep -q 'nothere/sweep.json' "$T/e.err" && ok || bad "--merge of no dir: $(cat "$T/e.err")"

echo "sweep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
