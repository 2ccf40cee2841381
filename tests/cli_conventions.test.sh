#!/bin/sh
# One command-line convention across subcommands (issue 18 item 5):
# --arch's forms, --config/--set taking effect in render, piglit, compute
# and bench, misplaced/unknown/repeated options exiting 2, every option
# of the C source listed in its --help, asm -S -o, run FILE.bin.
set -u
BUILD=${BUILD:-build}
U="$BUILD/ushader"
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
P=bench/programs/phong.fp
S=bench/scenes/phong.scn
F=tests/shtest/compute_workgroup.shader_test
K=tests/compute/sum.cp

# expect STATUS MESSAGE ARGS...: exit status and a stderr substring
expect() {
    want=$1 msg=$2
    shift 2
    "$U" "$@" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want" ] && grep -qF -- "$msg" "$tmp/err"; then ok
    else bad "$* -> $rc (want $want, '$msg'): $(head -c 300 "$tmp/err")"; fi
}
# accepts ARGS...: exit 0
accepts() {
    if "$U" "$@" > "$tmp/out" 2> "$tmp/err"; then ok
    else bad "$* -> $? : $(head -c 300 "$tmp/err")"; fi
}

# --arch: every command takes one model, a list or all; the interpreter
# is "functional" (in render, piglit and compute; run without --arch).
accepts run "$P" --arch scalar --threads 4
accepts run "$P" --arch scalar,simd4 --threads 4
grep -q '^simd4 ' "$tmp/out" && ! grep -q '^vliw ' "$tmp/out" && ok ||
    bad "run --arch scalar,simd4: not a table of the two"
accepts run "$P" --arch all --threads 4
expect 2 "--arch functional" run "$P" --arch functional
expect 2 "cannot hold functional" run "$P" --arch scalar,functional
expect 2 "names scalar twice" run "$P" --arch scalar,scalar
expect 2 "unknown --arch 'gpu'" run "$P" --arch scalar,gpu
for c in render piglit compute; do
    case $c in
    render) args="$S --hash --size 16x16" ;;
    piglit) args=tests/shtest/glsl_quads.shader_test ;;
    compute) args="$K --groups 1 --buffer 0=,48 --buffer 1=,48 --buffer 2=,4" ;;
    esac
    # shellcheck disable=SC2086
    { accepts $c --arch functional $args; accepts $c --arch simd4 $args
      expect 2 "unknown --arch 'gpu'" $c --arch gpu $args
      expect 2 "cannot hold functional" $c --arch scalar,functional $args
      accepts $c --arch scalar,simd4 $args; accepts $c --arch all $args; }
done
# piglit: every file on each model, a block per model with its count
"$U" piglit --arch simd4,simt --jobs 2 tests/shtest/glsl_quads.shader_test \
    tests/shtest/tex_depth.shader_test > "$tmp/out" 2>&1
[ "$(grep -c '^PASS ' "$tmp/out")" -eq 4 ] && grep -q '^== simd4$' "$tmp/out" &&
    grep -q '^simt: 2 passed, 0 failed, 0 skipped$' "$tmp/out" &&
    tail -n 1 "$tmp/out" | grep -q '^4 passed, 0 failed, 0 skipped$' && ok ||
    bad "piglit --arch simd4,simt: not a block per model: $(cat "$tmp/out")"
expect 2 "records one model's run" piglit --arch all --results "$tmp/r.json" \
    tests/shtest/glsl_quads.shader_test
# a list renders on each model: one image, the functional one; --stats
# has a "cores" object per model
"$U" render "$S" --size 16x16 --arch all -o "$tmp/all.png" 2> "$tmp/err" &&
    "$U" render "$S" --size 16x16 -o "$tmp/f.png" && cmp -s "$tmp/all.png" "$tmp/f.png" &&
    ok || bad "render --arch all: not the functional image: $(cat "$tmp/err")"
n=$("$U" render "$S" --size 16x16 --arch scalar,vliw,simt --stats | grep -c '^ *"arch": "\(scalar\|vliw\|simt\)"')
[ "$n" -eq 3 ] && ok || bad "render --arch scalar,vliw,simt --stats: $n cores, not 3"
# compute: each model from the same buffers, the statistics per model
"$U" compute "$K" --groups 1 --buffer 0=,48 --buffer 1=,48 --buffer 2=,4 --arch simd4,hetero \
    > "$tmp/out" 2>&1 && [ "$(grep -c '^arch: ' "$tmp/out")" -eq 2 ] &&
    grep -q '^arch: simd4' "$tmp/out" && grep -q '^arch: hetero' "$tmp/out" &&
    ok || bad "compute --arch simd4,hetero: not both models' statistics"
expect 2 "--arch functional" bench --arch functional --only phong
expect 2 "unknown --arch 'gpu'" bench --arch scalar,gpu --only phong

# --config / --set take effect
h0=$("$U" render "$S" --hash --size 32x32)
h1=$("$U" render "$S" --hash --size 32x32 --set sfu.rsq.k=3)
printf '[sfu]\nrsq.k = 3\n' > "$tmp/rsq.ini"
h2=$("$U" render "$S" --hash --size 32x32 --config "$tmp/rsq.ini")
[ -n "$h0" ] && [ "$h0" != "$h1" ] && [ "$h1" = "$h2" ] && ok ||
    bad "render: --set/--config sfu.rsq.k=3 did not change the hash ($h0 $h1 $h2)"
h3=$("$U" render "$S" --hash --size 32x32 --arch simd4)
h4=$("$U" render "$S" --hash --size 32x32 --arch simd4 --set sfu.rsq.k=3)
[ "$h3" = "$h0" ] && [ "$h4" = "$h1" ] && ok ||
    bad "render --arch simd4: the SFU of --set is not the one used"
expect 2 "unknown" render "$S" --hash --set no_such_knob=1
"$U" piglit --arch scalar "$F" > "$tmp/out" 2>&1 && bad "piglit: $F passes at the default slots" || ok
printf '[core]\nalu_lanes = 16\nthreads_per_proc = 64\n' > "$tmp/wg.ini"
"$U" piglit --arch scalar --config "$tmp/wg.ini" "$F" > "$tmp/out" 2>&1 &&
    ok || bad "piglit --config: $(cat "$tmp/out")"
"$U" piglit --arch scalar --set alu_lanes=16 --set threads_per_proc=64 "$F" \
    > "$tmp/out" 2>&1 && ok || bad "piglit --set: $(cat "$tmp/out")"
expect 2 "options go before the files" piglit "$F" --config "$tmp/wg.ini"
ca=$("$U" compute "$K" --groups 3 --arch scalar --buffer 0=,48 --buffer 1=,48 --buffer 2=,4 --json | grep -o '"cycles": [0-9]*')
cb=$("$U" compute "$K" --groups 3 --arch scalar --buffer 0=,48 --buffer 1=,48 --buffer 2=,4 --json --set alu_lanes=16 | grep -o '"cycles": [0-9]*')
[ -n "$ca" ] && [ "$ca" != "$cb" ] && ok || bad "compute --set alu_lanes=16: cycles $ca / $cb"
b8=$("$U" bench --only phong --arch scalar --threads 32 --json | grep -o '"cycles": [0-9]*' | head -1)
b16=$("$U" bench --only phong --arch scalar --threads 32 --json --set alu_lanes=16 | grep -o '"cycles": [0-9]*' | head -1)
[ -n "$b8" ] && [ "$b8" != "$b16" ] && ok || bad "bench --set alu_lanes=16: cycles $b8 / $b16"
# The provenance's command line is the one line that may differ.
j1=$("$U" bench --only phong --arch scalar,simd4 --threads 32 --json --jobs 1 | grep -v '^ *"command": ' | md5sum)
j2=$("$U" bench --only phong --arch scalar,simd4 --threads 32 --json --jobs 3 | grep -v '^ *"command": ' | md5sum)
[ "$j1" = "$j2" ] && ok || bad "bench: results depend on --jobs"
expect 2 "--jobs wants 1..256" bench --jobs 0
expect 2 "--jobs wants 1..256" sfu check --jobs x
expect 2 "--jobs wants 1..256" bench --suite compute --jobs 999

# misplaced, unknown, repeated options
expect 2 "--k is an option of sfu sweep, not of layout" sfu layout --k 5 --csv "$tmp/x.csv" --json
[ ! -e "$tmp/x.csv" ] && ok || bad "sfu layout wrote the CSV"
expect 2 "--json is an option of sfu check" sfu sweep --json
expect 2 "--csv given twice" sfu sweep --csv "$tmp/a" --csv "$tmp/b"
expect 2 "--inputs applies to the --arch form" run "$P" --inputs /dev/null
expect 2 "--time applies to the --arch form" run "$P" --time
expect 2 "--json given twice" run "$P" --json --json
expect 2 "--hash given twice" render "$S" --hash --hash
expect 2 "--arch given twice" bench --arch scalar --arch simd4
expect 2 "-o needs a value" asm "$P" -o
expect 2 "-S given twice" asm -S -S "$P"
expect 2 "--list prints every knob" config --list --set alu_lanes=16
expect 2 "--target given twice" dis --target scalar --target simd4 x.bin
expect 2 "--json given twice" stats --json --json "$P"
expect 2 "--arch given twice" compute --isa kgpu x --arch simd4 --arch simd4
expect 2 "takes one model here, not all" compute --isa kgpu x --arch all
expect 2 "unknown option '--bogus'" compute "$K" --groups 1 --bogus
expect 2 "unknown option '--set'" bench --suite compute --set alu_lanes=16
expect 2 "--force given twice" compare a.json b.json --force --force

# every option the parser of a command knows is in its --help: the
# option strings ("--NAME") of its source files against the text (--help
# itself aside), and the short options -o and -S
helpcheck() {
    name=$1
    shift
    "$U" $name --help > "$tmp/help" 2>&1 || { bad "$name --help failed"; return; }
    missing=
    for o in $(cat "$@" | grep -o '"--[a-z][a-z0-9-]*"' | tr -d '"' | grep -vx -e --help |
             sort -u); do
        grep -qe "$o\b" "$tmp/help" || missing="$missing $o"
    done
    [ -z "$missing" ] && ok || bad "$name --help does not list:$missing"
}
helpcheck run cli/cmd_run.c cli/run_arch.c
helpcheck render cli/cmd_render.c
helpcheck piglit cli/cmd_piglit.c
helpcheck "piglit summary" cli/cmd_piglit_summary.c
helpcheck compute cli/cmd_compute.c
helpcheck bench cli/cmd_bench.c
helpcheck "bench --suite compute" cli/cmd_bench_compute.c
helpcheck sweep cli/cmd_sweep.c cli/sweep_jobs.c
helpcheck sfu cli/cmd_sfu.c
helpcheck asm cli/cmd_asm.c
helpcheck stats cli/cmd_stats.c
helpcheck dis cli/cmd_dis.c
helpcheck glsl cli/cmd_glsl.c
helpcheck imgdiff cli/cmd_imgdiff.c
helpcheck compare cli/cmd_compare.c
helpcheck config cli/cmd_config.c
# the --isa forms: cli/seed_isa.c's options against the three texts
{ "$U" asm --isa kgpu --help; "$U" dis --isa kgpu --help
  "$U" compute --isa kgpu --help; } > "$tmp/help" 2>&1
missing=
for o in $(grep -o '"--[a-z][a-z0-9-]*"' cli/seed_isa.c | tr -d '"' | grep -vx -e --help | sort -u); do
    grep -qe "$o\b" "$tmp/help" || missing="$missing $o"
done
[ -z "$missing" ] && ok || bad "the --isa forms' --help do not list:$missing"
"$U" asm --help | grep -q -e '^  -S ' && "$U" asm --help | grep -q -e '^  -o ' &&
    "$U" render --help | grep -q -e '^  -o ' && ok || bad "asm/render --help: -o, -S"
"$U" run --help | grep -q 'AxD/s4 .*area x delay' && ok || bad "run --help: the table's columns"
"$U" stats --help | grep -q '(+D)' && ok || bad "stats --help: the (+N) column"

# asm -S -o F: the listing to F, nothing on stdout, no binary
"$U" asm -S -o "$tmp/l.txt" "$P" > "$tmp/out" || bad "asm -S -o"
[ ! -s "$tmp/out" ] && head -1 "$tmp/l.txt" | grep -q '^!!ARB' && ok ||
    bad "asm -S -o: not the listing in the file"
"$U" asm -S --target simd4 "$P" > "$tmp/want"
"$U" asm -S --target simd4 -o "$tmp/t.txt" "$P" > "$tmp/out" &&
    [ ! -s "$tmp/out" ] && cmp -s "$tmp/want" "$tmp/t.txt" && ok ||
    bad "asm -S --target simd4 -o: not the target listing"
"$U" asm -o "$tmp/p.bin" "$P" && [ "$(head -c 4 "$tmp/p.bin")" = USHB ] && ok ||
    bad "asm -o: no binary"

# run x.bin: the binary recognised
expect 1 "a ushader binary (ushader asm -o; target scalar" run "$tmp/p.bin"
expect 1 "a ushader binary" run "$tmp/p.bin" --arch scalar
printf 'USHBjunk' > "$tmp/j.bin"
expect 1 "magic of a ushader binary" run "$tmp/j.bin"

echo "cli_conventions: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
