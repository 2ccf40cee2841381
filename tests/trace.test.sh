#!/bin/sh
# --trace FILE (docs/TRACE.md): the pipeline events of run --arch MODEL
# and compute --arch MODEL as Chrome trace-event JSON.  On one scalar SP
# the events of tests/trace/chain.fp (three dependent MADs, then an
# independent ADD) are its hand-computed schedule at two ALU latencies;
# on every model the file is valid with the documented fields, its stall
# events are the stalls.* counts and its retirements the threads; the
# window and the event bound hold; tracing changes no output and no
# statistic; bad options exit 2, an unwritable file or a failed run exit
# 1 and leave no file (an old one as it was).  tests/trace/check.py reads
# the files.
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
CK=$BUILD/tools/jsonck
PY="python3 tests/trace/check.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# check WHAT ARGS...: check.py ARGS must pass
check() {
    what=$1
    shift
    if out=$($PY "$@" 2>&1); then ok; else bad "$what: $out"; fi
}

CHAIN=tests/trace/chain.fp
ONE="--threads 1 --set alu_lanes=1 --set threads_per_proc=1 --set fetch_width=1"

# 1. the hand-computed schedule (check.py schedule has the derivation)
for L in 4 7; do
    if "$U" run $CHAIN --arch scalar $ONE --set alu_latency=$L \
        --trace "$T/chain$L.json" --json > "$T/chain$L.st" 2> "$T/err"; then
        check "chain.fp, alu_latency $L: valid" valid "$T/chain$L.json"
        check "chain.fp, alu_latency $L: schedule" schedule "$T/chain$L.json" $L
        check "chain.fp, alu_latency $L: counts" counts "$T/chain$L.json" "$T/chain$L.st"
    else
        bad "run chain.fp --trace: $(cat "$T/err")"
    fi
done

# 2. every model, run and compute: valid, the counts, nothing changed
P=bench/programs/blinn_phong_2lights.fp
awk 'BEGIN { for (i = 0; i < 192; i++) printf "%c%c%c%c", i, 0, 0, 0 }' \
    > "$T/in.bin" 2>/dev/null
[ "$(wc -c < "$T/in.bin")" -eq 768 ] ||
    python3 -c "import struct,sys; sys.stdout.buffer.write(struct.pack('<192I', *range(192)))" > "$T/in.bin"
KERNEL="tests/compute/reduce.cp --groups 3 --buffer 0=$T/in.bin --buffer 1=,12 --set threads_per_proc=32 --set simt_warps=8"
for m in scalar simd4 vliw superscalar hetero simt; do
    "$U" run $P --arch $m --threads 16 --json > "$T/$m.plain" 2> "$T/err" ||
        bad "run --arch $m: $(cat "$T/err")"
    if "$U" run $P --arch $m --threads 16 --json --trace "$T/$m.json" \
        --trace-window 0:1000000 > "$T/$m.st" 2> "$T/err"; then
        check "run --arch $m: valid" valid "$T/$m.json"
        check "run --arch $m: counts" counts "$T/$m.json" "$T/$m.st"
        "$CK" strip provenance "$T/$m.plain" > "$T/a" &&
            "$CK" strip provenance "$T/$m.st" > "$T/b" && cmp -s "$T/a" "$T/b" &&
            ok || bad "run --arch $m: --json differs with --trace"
    else
        bad "run --arch $m --trace: $(cat "$T/err")"
    fi
    "$U" compute $KERNEL --arch $m --json --out 1="$T/$m.r0" > "$T/c$m.plain" \
        2> "$T/err" || bad "compute --arch $m: $(cat "$T/err")"
    if "$U" compute $KERNEL --arch $m --json --out 1="$T/$m.r1" \
        --trace "$T/c$m.json" --trace-window 0:1000000 > "$T/c$m.st" 2> "$T/err"; then
        check "compute --arch $m: valid" valid "$T/c$m.json"
        check "compute --arch $m: counts" counts "$T/c$m.json" "$T/c$m.st"
        "$CK" strip provenance "$T/c$m.plain" > "$T/a" &&
            "$CK" strip provenance "$T/c$m.st" > "$T/b" && cmp -s "$T/a" "$T/b" &&
            cmp -s "$T/$m.r0" "$T/$m.r1" && ok ||
            bad "compute --arch $m: --json or the buffer differs with --trace"
    else
        bad "compute --arch $m --trace: $(cat "$T/err")"
    fi
done
# the reduction's sums (0+..+63, 64+..+127, 128+..+191), with the trace
[ "$(od -An -v -t u4 "$T/simt.r1" | tr -s ' ' | sed 's/^ //')" = "2016 6112 10208" ] &&
    ok || bad "compute reduce.cp with --trace: $(od -An -t u4 "$T/simt.r1")"
# the default window: the first 10000 cycles (the run is longer)
"$U" run $CHAIN --arch scalar --threads 1000 --set alu_lanes=1 \
    --set threads_per_proc=1 --trace "$T/default.json" \
    > /dev/null 2>&1 &&
    python3 -c "
import json, sys
o = json.load(open('$T/default.json'))['otherData']
sys.exit(not (o['window'] == {'from': 0, 'to': 10000} and o['cycles'] > 10000
              and o['events_outside_window'] > 0))" && ok ||
    bad "the default window is not 0:10000"

# 3. the window: exactly the full trace's events of FROM <= ts < TO
"$U" run $P --arch scalar --threads 16 --trace "$T/w.json" \
    --trace-window 100:160 > /dev/null 2> "$T/err" || bad "window: $(cat "$T/err")"
check "--trace-window 100:160" window "$T/scalar.json" "$T/w.json" 100 160
check "--trace-window 100:160: valid" valid "$T/w.json"

# 4. the event bound: at most N, the rest dropped, said in otherData
"$U" run $P --arch vliw --threads 16 --trace "$T/cap.json" \
    --trace-max-events 25 > /dev/null 2> "$T/err" || bad "cap: $(cat "$T/err")"
check "--trace-max-events 25" truncated "$T/cap.json" 25
check "--trace-max-events 25: valid" valid "$T/cap.json"

# 5. the otherData schema (docs/METRICS.md "schema trace")
"$CK" check docs/METRICS.md trace "$T/scalar.json" > "$T/ck" 2>&1 && ok ||
    bad "trace file against schema trace: $(head -n 5 "$T/ck")"

# 6. errors
# usage2 WHAT ARGS...: exit 2 with "ushader: error: ..." and no file
usage2() {
    what=$1
    shift
    rm -f "$T/no.json"
    "$U" "$@" > /dev/null 2> "$T/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "^ushader: error: " "$T/err" &&
       [ ! -e "$T/no.json" ]; then ok
    else bad "$what: exit $rc: $(cat "$T/err")"; fi
}
for w in 5:5 10:2 x 5 :5 5: -1:3 1:2:3 "" 1:99999999999999999999999; do
    usage2 "--trace-window '$w'" run $CHAIN --arch scalar --trace "$T/no.json" \
        --trace-window "$w"
done
for n in 0 -1 x 100000001 ""; do
    usage2 "--trace-max-events '$n'" run $CHAIN --arch scalar \
        --trace "$T/no.json" --trace-max-events "$n"
done
usage2 "--trace-window without --trace" run $CHAIN --arch scalar --trace-window 0:5
usage2 "--trace-max-events without --trace" compute $KERNEL --arch scalar --trace-max-events 5
usage2 "--trace without --arch" run $CHAIN --trace "$T/no.json"
usage2 "--trace on the interpreter" compute $KERNEL --trace "$T/no.json"
usage2 "compute --trace with two models" compute $KERNEL --arch scalar,simt --trace "$T/no.json"
usage2 "--trace with two models" run $CHAIN --arch scalar,simd4 --trace "$T/no.json"
usage2 "--trace with all" run $CHAIN --arch all --trace "$T/no.json"
usage2 "--trace with --preset" run $CHAIN --arch simt --preset configs/kgpu.ini --trace "$T/no.json"
usage2 "--trace without a file" run $CHAIN --arch scalar --trace
grep -q "trace" "$T/err" && ok || bad "--trace without FILE: $(cat "$T/err")"
# exit1 WHAT FILE ARGS...: exit 1 with an error naming the problem
exit1() {
    what=$1
    shift
    "$U" "$@" > /dev/null 2> "$T/err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "^ushader: .*error: " "$T/err"; then ok
    else bad "$what: exit $rc: $(cat "$T/err")"; fi
}
exit1 "an unwritable directory" run $CHAIN --arch scalar --trace "$T/none/t.json"
[ ! -e "$T/none" ] && ok || bad "unwritable: something was created"
mkdir "$T/dir"
exit1 "a directory" run $CHAIN --arch scalar --trace "$T/dir"
exit1 "the program itself" run "$T/p.fp" --arch scalar --trace "$T/p.fp" 2>/dev/null
cp $CHAIN "$T/p.fp"
exit1 "the program itself" run "$T/p.fp" --arch scalar --trace "$T/p.fp"
cmp -s $CHAIN "$T/p.fp" && ok || bad "--trace PROG replaced the program"
# a failed run (a workgroup that fits no model's slots) leaves no file,
# and an old file as it was, without a temporary file beside it
"$U" compute tests/compute/reduce.cp --groups 1 --buffer 0="$T/in.bin" \
    --arch scalar --trace "$T/fail.json" > /dev/null 2> "$T/err"
[ $? -eq 1 ] && [ ! -e "$T/fail.json" ] && ok ||
    bad "a failed launch: $(cat "$T/err"); $(ls "$T")"
echo old > "$T/old.json"
"$U" compute tests/compute/reduce.cp --groups 1 --buffer 0="$T/in.bin" \
    --arch simd4 --trace "$T/old.json" > /dev/null 2>&1
[ "$(cat "$T/old.json")" = old ] && [ -z "$(ls "$T" | grep tmp)" ] && ok ||
    bad "a failed launch replaced the old trace or left a temporary file"
# a device is written through
"$U" run $CHAIN --arch scalar --trace /dev/null > /dev/null 2> "$T/err" && ok ||
    bad "--trace /dev/null: $(cat "$T/err")"
# --help names the options and the default window
for c in run compute; do
    "$U" $c --help > "$T/help"
    grep -q -- "--trace FILE" "$T/help" && grep -q -- "--trace-window FROM:TO" "$T/help" &&
        grep -q "default 0:10000" "$T/help" && grep -q -- "--trace-max-events" "$T/help" &&
        ok || bad "$c --help does not describe --trace"
done

echo "trace: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
