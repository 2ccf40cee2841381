#!/bin/sh
# One JSON schema (docs/METRICS.md, issue 18): every command that prints
# JSON is run and its output checked with build/tools/jsonck against its
# `schema NAME` block: no undocumented key, no missing one, the documented
# types (numbers are JSON numbers; a non-finite value is null with its
# flag), schema_version 1 and a provenance naming the command and its
# input files with their FNV-1a 64 hashes.  Then the checker itself must
# catch an undocumented, a missing and a mistyped key.
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
CK=$BUILD/tools/jsonck
DOC=docs/METRICS.md
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# json NAME SCHEMA ARGS...: run ushader ARGS > $T/NAME.json, check it
json() {
    name=$1 schema=$2
    shift 2
    if ! "$U" "$@" > "$T/$name.json" 2> "$T/$name.err"; then
        bad "$name: ushader $* exited $?: $(head -n 3 "$T/$name.err")"
        return
    fi
    if "$CK" check "$DOC" "$schema" "$T/$name.json" > "$T/$name.ck" 2>&1; then
        ok
    else
        bad "$name: not schema $schema:"; head -n 10 "$T/$name.ck"
    fi
    if "$CK" paths "$T/$name.json" | grep -qx 'schema_version integer' &&
       grep -q '^ *"schema_version": 1,$' "$T/$name.json" &&
       grep -q '"command": "ushader ' "$T/$name.json"; then ok
    else bad "$name: no schema_version 1 or no provenance command"; fi
}

P=bench/programs/transform.vp
json run run run "$P" --json
printf '!!ARBfp1.0\nRCP result.color.x, fragment.color.x;\nLG2 result.color.y, fragment.color.y;\nMOV result.color.zw, fragment.color;\nEND\n' > "$T/inf.fp"
json run_inf run run "$T/inf.fp" --attrib fragment.color=0,-1,2,3 --json
# the non-finite components: null, and named in "nonfinite"
if tr -d ' \n' < "$T/run_inf.json" |
    grep -q '"result.color":\[null,null,2.0,3.0\],"killed":false,"nonfinite":{"result.color\[0\]":"inf","result.color\[1\]":"nan"}'; then ok
else bad "run --json: inf/nan are not null + nonfinite"; fi
for m in scalar simd4 vliw superscalar hetero simt; do
    json "arch_$m" run-arch run bench/programs/phong.fp --arch "$m" --threads 8 --json
done
# the area breakdown is there (issue 18 item 3)
for k in total fp rf lut imem control sfu int lsu cache partial_sfu_share; do
    "$CK" paths "$T/arch_scalar.json" | grep -q "^area/$k " && ok ||
        bad "run --arch scalar --json: no area.$k"
done
json arch_all run-all run "$P" --arch all --threads 8 --json
[ "$("$CK" paths "$T/arch_all.json" | grep -c '^models/\[\] object')" -ge 1 ] &&
    "$CK" paths "$T/arch_all.json" | grep -q '^outputs/\[\]/result.position array' &&
    ok || bad "run --arch all --json: no models or no outputs"
json bench bench bench --only phong --arch scalar,simd4 --threads 16 --json
json bench_compute bench-compute bench --suite compute --only vadd --jobs 1 --json
json render render render bench/scenes/blend.scn --stats --size 16x16
json render_core render render bench/scenes/blend.scn --stats --size 16x16 --arch scalar
"$CK" paths "$T/render_core.json" | grep -q '^core/fragment/lut/merged integer' &&
    ok || bad "render --stats --arch: no core"
json render_cores render render bench/scenes/blend.scn --stats --size 16x16 --arch scalar,simd4
[ "$("$CK" paths "$T/render_cores.json" | grep -c '^cores/\[\]/fragment/lut/merged integer')" -ge 1 ] &&
    ok || bad "render --stats --arch scalar,simd4: no cores"
json compute compute compute tests/compute/sum.cp --groups 2 --buffer 0=,64 \
    --buffer 1=,64 --buffer 2=,16 --arch scalar --json
json compute_all compute compute tests/compute/sum.cp --groups 2 --buffer 0=,64 \
    --buffer 1=,64 --buffer 2=,16 --arch all --json
[ "$("$CK" paths "$T/compute_all.json" | grep -c '^models/\[\] object')" -ge 1 ] &&
    ok || bad "compute --arch all --json: no models"
json compute_f compute compute tests/compute/sum.cp --groups 2 --buffer 0=,64 \
    --buffer 1=,64 --buffer 2=,16 --json
# a --trace file (Chrome's format: the doc in otherData)
for m in scalar simt; do
    if "$U" run bench/programs/phong.fp --arch $m --threads 8 \
        --trace "$T/trace_$m.json" > /dev/null 2> "$T/trace.err" &&
       "$CK" check "$DOC" trace "$T/trace_$m.json" > "$T/trace.ck" 2>&1 &&
       grep -q '^ *"schema_version": 1,$' "$T/trace_$m.json"; then ok
    else bad "run --arch $m --trace: not schema trace: $(head -n 5 "$T/trace.err" "$T/trace.ck")"; fi
done
json sfu sfu-check sfu check --func rcp --range 3f800000:3f800100 --jobs 1 --json
json stats stats-cmd stats --json "$P" bench/programs/phong.fp
"$U" render bench/scenes/blend.scn --size 16x16 -o "$T/a.png" 2>/dev/null
"$U" render bench/scenes/blend.scn --size 16x16 --exact-math -o "$T/b.png" 2>/dev/null
json imgdiff_same imgdiff imgdiff "$T/a.png" "$T/a.png" --json
grep -q '"psnr_db": null, "psnr_infinite": true' "$T/imgdiff_same.json" &&
    ok || bad "imgdiff --json: equal images are not psnr_db null + psnr_infinite"
json imgdiff imgdiff imgdiff "$T/a.png" "$T/b.png" --json
# compare: two bench results (lut_banks differs), its provenance both files
cp "$T/bench.json" "$T/cmpA.json"
"$U" bench --only phong --arch scalar,simd4 --threads 16 --set lut_banks=1 \
    --json > "$T/cmpB.json" 2>/dev/null
json compare compare compare "$T/cmpA.json" "$T/cmpB.json" --json
for f in cmpA cmpB; do
    tr -d ' \n' < "$T/compare.json" | grep -q "\"path\":\"$T/$f.json\",\"bytes\":[0-9]*,\"fnv1a64\":\"[0-9a-f]\{16\}\"" &&
        ok || bad "compare --json: the provenance lacks $f.json with its hash"
done
"$U" piglit --jobs 1 --results "$T/piglit.json" tests/shtest > /dev/null 2>&1
if "$CK" check "$DOC" piglit-results "$T/piglit.json" > "$T/piglit.ck" 2>&1 &&
   grep -q '"command": "ushader piglit ' "$T/piglit.json"; then ok
else bad "piglit --results: not schema piglit-results:"; head -n 10 "$T/piglit.ck"; fi
json piglit_summary piglit-summary piglit summary "$T/piglit.json" "$T/piglit.json" --all --json
# sweep: results.json, a job's point.json and the job directory's sweep.json
"$U" sweep --set lut_banks=1,2 --only phong.fp --arch scalar --threads 16 \
    --no-plots --out "$T/sw" > /dev/null 2>&1 || bad "sweep failed"
"$U" sweep --set lut_banks=1,2 --only phong.fp --arch scalar --threads 16 \
    --emit-jobs "$T/swj" 2> /dev/null || bad "sweep --emit-jobs failed"
"$U" sweep --set lut_banks=1,2 --only phong.fp --arch scalar --threads 16 \
    --point 1 --out "$T/swp" > /dev/null 2>&1 || bad "sweep --point failed"
# a compute sweep's: bench-compute's rows
"$U" sweep --suite compute --set mem_latency=10,20 --only vadd --arch simt \
    --no-plots --out "$T/swc" > /dev/null 2>&1 || bad "compute sweep failed"
"$U" sweep --suite compute --set mem_latency=10,20 --only vadd --arch simt \
    --point 1 --out "$T/swcp" > /dev/null 2>&1 || bad "compute sweep --point failed"
for f in sweep:sw/results.json sweep-jobs:swj/sweep.json sweep-point:swp/point.json \
         sweep-compute:swc/results.json sweep-compute-point:swcp/point.json; do
    "$CK" check "$DOC" "${f%%:*}" "$T/${f#*:}" > "$T/sw.ck" 2>&1 && ok ||
        { bad "${f#*:}: not schema ${f%%:*}:"; head -n 10 "$T/sw.ck"; }
    grep -q '^ "schema_version": 1,$' "$T/${f#*:}" &&
        grep -q '"command": "ushader sweep ' "$T/${f#*:}" && ok ||
        bad "${f#*:}: no schema_version 1 or no provenance command"
done

# provenance: the program with its size and hash
bytes=$(wc -c < "$P" | tr -d ' ')
if tr -d ' \n' < "$T/run.json" | grep -q "\"path\":\"$P\",\"bytes\":$bytes,\"fnv1a64\":\"[0-9a-f]\{16\}\""; then ok
else bad "run --json: the provenance lacks $P with its size and hash"; fi
# a different [sfu] key shows in the provenance of otherwise equal runs
"$U" run "$P" --json --set sfu.rcp.k=5 > "$T/k5.json" 2>/dev/null
if tr -d ' \n' < "$T/k5.json" | grep -q '"rcp.k":5' &&
   tr -d ' \n' < "$T/run.json" | grep -q '"rcp.k":7'; then ok
else bad "provenance: --set sfu.rcp.k=5 does not show in config.sfu"; fi

# render --stats: every file the scene reads (programs, textures) with its
# hash, and the configuration --set gave
"$U" render bench/scenes/blend.scn --stats --size 16x16 --arch scalar \
    --set alu_lanes=16 > "$T/rs.json" 2>/dev/null
for f in bench/scenes/blend.scn bench/scenes/tex/glass.png bench/scenes/glass.fp \
         bench/scenes/eyespace.vp; do
    b=$(wc -c < "$f" | tr -d ' ')
    if tr -d ' \n' < "$T/rs.json" | grep -q "\"path\":\"$f\",\"bytes\":$b,\"fnv1a64\""; then ok
    else bad "render --stats: the provenance lacks $f with its size and hash"; fi
done
tr -d ' \n' < "$T/rs.json" | grep -q '"alu_lanes":16' && ok ||
    bad "render --stats: the provenance's configuration lacks --set alu_lanes=16"

# the checker catches what it must
printf '{"schema_version": 1, "bogus": 1}\n' > "$T/u.json"
"$CK" check "$DOC" imgdiff "$T/u.json" > "$T/u.ck" 2>&1
[ $? -eq 1 ] && grep -q 'bogus: undocumented' "$T/u.ck" &&
    grep -q 'width: missing' "$T/u.ck" && grep -q 'provenance: missing' "$T/u.ck" &&
    ok || bad "jsonck: undocumented/missing keys not reported: $(cat "$T/u.ck")"
sed 's/"width": 16/"width": "16"/' "$T/imgdiff.json" > "$T/t.json"
"$CK" check "$DOC" imgdiff "$T/t.json" > "$T/t.ck" 2>&1
[ $? -eq 1 ] && grep -q 'width: a string' "$T/t.ck" && ok ||
    bad "jsonck: a string for a number is not reported: $(cat "$T/t.ck")"

echo "json_schema: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
