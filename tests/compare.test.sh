#!/bin/sh
# ushader compare (issue 19 item 1): two real bench configurations on a
# small subset (lut_banks=1 against the default), compare's figures
# against both results.json recomputed here in Python (every row's values,
# changes and percentages, the geometric means per variant and over all,
# the helped/hurt counts, at a threshold too), the text and Markdown forms
# against the JSON, the configuration differences at the top of each, rows
# in one set only, identical inputs (all unchanged), the compute suite, a
# sweep's shape and run --arch documents, the refusal on different programs and --force,
# and the errors (exit 1 on a file, 2 on a usage error, nothing on stdout).
set -u
BUILD=${BUILD:-build}
U=$BUILD/ushader
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# run NAME ARGS...: ushader ARGS > $T/NAME.out 2> $T/NAME.err; $? in rc
run() {
    name=$1
    shift
    "$U" "$@" > "$T/$name.out" 2> "$T/$name.err"
    rc=$?
    # a sanitizer build's report (BUILD=build/san) fails the test too
    ! grep -q -e 'Sanitizer' -e 'runtime error' "$T/$name.err" ||
        bad "$name: $(grep -m 3 -e Sanitizer -e 'runtime error' "$T/$name.err")"
}

SUB="--only phong --arch scalar,simd4 --jobs 2 --threads 64 --no-plots"
run benchA bench $SUB --out "$T/A"
[ $rc -eq 0 ] && ok || bad "bench A exited $rc: $(head -n 3 "$T/benchA.err")"
run benchB bench $SUB --set lut_banks=1 --out "$T/B"
[ $rc -eq 0 ] && ok || bad "bench B exited $rc: $(head -n 3 "$T/benchB.err")"
# fewer models in C: rows only in A, the same programs
run benchC bench --only phong --arch scalar --jobs 2 --threads 64 --json
[ $rc -eq 0 ] && cp "$T/benchC.out" "$T/C.json" && ok ||
    bad "bench C exited $rc"

# The output directories stand for their results.json.
run cj compare "$T/A" "$T/B" --json
[ $rc -eq 0 ] && ok || bad "compare --json exited $rc: $(cat "$T/cj.err")"
run ct compare "$T/A/results.json" "$T/B/results.json"
[ $rc -eq 0 ] && ok || bad "compare (text) exited $rc: $(cat "$T/ct.err")"
run cm compare "$T/A" "$T/B/" --markdown
[ $rc -eq 0 ] && ok || bad "compare --markdown exited $rc: $(cat "$T/cm.err")"
run ct5 compare "$T/A" "$T/B" --threshold 5 --json
[ $rc -eq 0 ] && ok || bad "compare --threshold 5 exited $rc"
run cac compare "$T/A" "$T/C.json" --json
[ $rc -eq 0 ] && ok || bad "compare A C exited $rc: $(cat "$T/cac.err")"

# Everything recomputed from the two results.json (python3).
cat > "$T/check.py" <<'EOF'
import json, math, sys

def rows(path):
    d = json.load(open(path))
    model = {v["name"]: v["model"] for v in d["variants"]}
    out = {}
    for r in d["runs"]:
        if "stats" not in r:
            continue
        s = r["stats"]
        out[(r["program"], r["variant"])] = {
            "model": model[r["variant"]],
            "cycles": s["cycles"], "utilization": s["utilization"],
            "instructions": s["issued"], "area": s["area"]["total"],
            "energy": s["energy"]}
    return out

HIGHER = {"utilization"}
METRICS = ["cycles", "utilization", "instructions", "area", "energy"]

def verdict(m, a, b, thr):
    if a == b or abs(b - a) <= thr / 100 * abs(a):
        return "unchanged"
    return "helped" if (b < a) != (m in HIGHER) else "hurt"

def close(x, y, rel=1e-8):
    return abs(x - y) <= rel * max(1.0, abs(x), abs(y))

problems = []
def expect(cond, what):
    if not cond:
        problems.append(what)

a_path, b_path, cmp_path, thr = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
A, B, C = rows(a_path), rows(b_path), json.load(open(cmp_path))
common = [k for k in A if k in B]
expect(len(C["rows"]) == len(common), "rows: %d, expected %d" % (len(C["rows"]), len(common)))
expect(len(C["only_a"]) == len([k for k in A if k not in B]), "only_a count")
expect(len(C["only_b"]) == len([k for k in B if k not in A]), "only_b count")
counts = {m: {"helped": 0, "hurt": 0, "unchanged": 0} for m in METRICS}
for r in C["rows"]:
    k = (r["program"], r["variant"])
    expect(k in A and k in B, "row %s not in both" % (k,))
    if k not in A or k not in B:
        continue
    expect(r["model"] == A[k]["model"], "%s: model" % (k,))
    for m in METRICS:
        a, b = A[k][m], B[k][m]
        f = r[m]
        expect(close(f["a"], a) and close(f["b"], b), "%s %s: a/b" % (k, m))
        expect(close(f["delta"], b - a), "%s %s: delta" % (k, m))
        if a:
            expect(close(f["percent"], 100 * (b - a) / abs(a)), "%s %s: percent" % (k, m))
        v = verdict(m, a, b, thr)
        expect(f["change"] == v, "%s %s: %s, expected %s" % (k, m, f["change"], v))
        counts[m][v] += 1
expect(C["helped_hurt"] == counts, "helped_hurt %s, expected %s" % (C["helped_hurt"], counts))

def geomean(keys, m):
    logs = [math.log(B[k][m] / A[k][m]) for k in keys if A[k][m] > 0 and B[k][m] > 0]
    return (math.exp(sum(logs) / len(logs)) if logs else None), len(logs)

variants = []
for k in common:
    if k[1] not in variants:
        variants.append(k[1])
expect([g["variant"] for g in C["geomean"]] == variants, "geomean variants / order")
for g in C["geomean"]:
    keys = [k for k in common if k[1] == g["variant"]]
    expect(g["rows"] == len(keys), "geomean %s rows" % g["variant"])
    for m in METRICS:
        want, n = geomean(keys, m)
        got = g[m]["ratio"]
        expect(g[m]["rows"] == n and (got is None if want is None else close(got, want)),
               "geomean %s %s: %s, expected %s" % (g["variant"], m, got, want))
for m in METRICS:
    want, n = geomean(common, m)
    expect(close(C["geomean_all"][m]["ratio"], want), "geomean_all %s" % m)
# what the text prints: one line per variant with the 5-digit ratios
if len(sys.argv) > 5:
    text = open(sys.argv[5]).read().splitlines()
    for g in C["geomean"]:
        want = "%s %s %d %s" % (g["variant"], g["model"], g["rows"],
               " ".join("%.5f" % g[m]["ratio"] for m in METRICS))
        expect(any(" ".join(l.split()) == want for l in text), "text lacks: " + want)
    k = common[0]
    want = [k[0], k[1], A[k]["model"], "%d" % A[k]["cycles"], "%d" % B[k]["cycles"]]
    expect(any(l.split()[:5] == want for l in text), "text lacks the row " + " ".join(want))
if problems:
    print("\n".join(problems[:20]))
    sys.exit(1)
print("checked %d rows, %d variants" % (len(C["rows"]), len(C["geomean"])))
EOF
python3 "$T/check.py" "$T/A/results.json" "$T/B/results.json" "$T/cj.out" 0 "$T/ct.out" \
    > "$T/py.out" 2>&1 && ok || bad "lut_banks=1 against the default: $(cat "$T/py.out")"
python3 "$T/check.py" "$T/A/results.json" "$T/B/results.json" "$T/ct5.out" 5 \
    > "$T/py5.out" 2>&1 && ok || bad "--threshold 5: $(cat "$T/py5.out")"
python3 "$T/check.py" "$T/A/results.json" "$T/C.json" "$T/cac.out" 0 \
    > "$T/pyc.out" 2>&1 && ok || bad "A against C: $(cat "$T/pyc.out")"
# the test means something: lut_banks=1 hurts some rows' cycles, and a
# 5% threshold leaves more rows unchanged than exact equality
python3 - "$T/cj.out" "$T/ct5.out" "$T/cac.out" <<'EOF' && ok || bad "lut_banks=1 hurt no row, or the threshold changed nothing, or C left no row only in A"
import json, sys
c0, c5, cc = (json.load(open(p)) for p in sys.argv[1:4])
assert c0["helped_hurt"]["cycles"]["hurt"] > 0
assert c5["helped_hurt"]["cycles"]["unchanged"] > c0["helped_hurt"]["cycles"]["unchanged"]
# simd4 and its sensitivity variants (simd4@KNOB=V, report section h)
assert len(cc["only_a"]) > 0 and all(r["variant"].split("@")[0] == "simd4"
                                     for r in cc["only_a"])
EOF
"$U" compare "$T/A" "$T/C.json" | grep -q "^rows only in A: 36 (phong.fp simd4, " &&
    ok || bad "text: rows only in A not listed"

# The configuration keys that differ, at the top of every form.
python3 - "$T/cj.out" <<'EOF' && ok || bad "--json: config_differences is not just lut_banks 4 -> 1"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config_differences"] == [{"key": "core.lut_banks", "a": "4", "b": "1"}], d["config_differences"]
assert list(d)[:3] == ["schema_version", "provenance", "config_differences"]
assert d["program_differences"] == [] and d["forced"] is False
EOF
sed -n 3,5p "$T/ct.out" | grep -qx '  core.lut_banks: 4 -> 1' && ok ||
    bad "text: the configuration difference is not at the top: $(head -n 5 "$T/ct.out")"
sed -n 3,8p "$T/cm.out" | grep -qx '  - `core.lut_banks`: 4 -> 1' && ok ||
    bad "markdown: the configuration difference is not at the top: $(head -n 8 "$T/cm.out")"
# Markdown: a table row per row of the JSON, with its separator line
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rows"]))' "$T/cj.out")
[ "$(grep -c '^| phong.fp |' "$T/cm.out")" = "$(grep -c '^phong.fp ' "$T/ct.out")" ] &&
    [ "$(grep -c '^| [a-z_0-9/]*\.[fv]p |' "$T/cm.out")" -eq "$n" ] &&
    grep -q '^|---|---|---|---:|' "$T/cm.out" && ok ||
    bad "markdown: not one table row per row ($n)"

# Identical inputs: all unchanged, ratios 1, configuration the same.
run same compare "$T/A" "$T/A" --json
python3 - "$T/same.out" <<'EOF' && ok || bad "A against A is not all unchanged"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config_differences"] == [] and d["rows"]
for m, c in d["helped_hurt"].items():
    assert c["helped"] == 0 and c["hurt"] == 0 and c["unchanged"] == len(d["rows"]), (m, c)
for g in d["geomean"] + [d["geomean_all"]]:
    for m in d["metrics"]:
        assert g[m]["ratio"] == 1, (g, m)
EOF
run samet compare "$T/A" "$T/A"
grep -qx 'configuration: the same in A and B' "$T/samet.out" && ok ||
    bad "text: identical inputs do not say the configuration is the same"

# The compute suite: a preset's INI changed is a configuration difference.
run ca bench --suite compute --only vadd --jobs 1 --json
cp "$T/ca.out" "$T/ca.json"
mkdir "$T/cfg" && cp configs/*.ini "$T/cfg/" &&
    sed -i 's/^mem_port_cycles = 3$/mem_port_cycles = 6/' "$T/cfg/kgpu.ini"
run cb bench --suite compute --only vadd --jobs 1 --configs "$T/cfg" --json
cp "$T/cb.out" "$T/cb.json"
run cc compare "$T/ca.json" "$T/cb.json" --json
python3 - "$T/cc.out" <<'EOF' && ok || bad "compute suite: $(cat "$T/cc.err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"]["kind"] == "bench-compute"
assert [c["key"] for c in d["config_differences"]] == ["kgpu.ini"], d["config_differences"]
hurt = [r["variant"] for r in d["rows"] if r["cycles"]["change"] != "unchanged"]
assert hurt == ["simt/kgpu"], hurt
EOF

# run --arch all and run --arch M documents; the program from provenance.
P=bench/programs/phong.fp
"$U" run "$P" --arch all --threads 16 --json > "$T/ra.json" 2>/dev/null
"$U" run "$P" --arch all --threads 16 --set alu_latency=6 --json > "$T/rb.json" 2>/dev/null
"$U" run "$P" --arch scalar --threads 16 --json > "$T/r1.json" 2>/dev/null
"$U" run "$P" --arch simd4 --threads 16 --json > "$T/r2.json" 2>/dev/null
run rr compare "$T/ra.json" "$T/rb.json" --json
python3 - "$T/rr.out" "$T/ra.json" "$T/rb.json" <<'EOF' && ok || bad "run --arch all: $(cat "$T/rr.err")"
import json, sys
d, a, b = (json.load(open(p)) for p in sys.argv[1:4])
assert [c["key"] for c in d["config_differences"]] == ["core.alu_latency"]
assert [r["variant"] for r in d["rows"]] == [m["arch"] for m in a["models"]]
for r, ma, mb in zip(d["rows"], a["models"], b["models"]):
    assert r["program"] == "bench/programs/phong.fp"
    assert r["cycles"]["a"] == ma["cycles"] and r["cycles"]["b"] == mb["cycles"]
EOF
run r1 compare "$T/r1.json" "$T/rb.json" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["rows"]) == 1 and len(d["only_b"]) == 5' \
    "$T/r1.out" && ok || bad "run --arch scalar against --arch all: $(cat "$T/r1.err")"

# A sweep's shape (ushader sweep: "points", each with its "knobs" and
# bench rows; a job's point.json: one "point"), built here from A and B:
# the knob values are part of the variant.
python3 - "$T/A/results.json" "$T/B/results.json" "$T" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def point(d, i, banks):
    model = {v["name"]: v["model"] for v in d["variants"]}
    runs = [dict(r, model=model[r["variant"]]) for r in d["runs"]]
    return {"index": i, "knobs": {"lut_banks": banks}, "failures": 0, "runs": runs}
head = {"schema_version": 1, "provenance": a["provenance"]}
json.dump(dict(head, sweep={"threads": 64}, points=[point(a, 0, "4"), point(b, 1, "1")]),
          open(sys.argv[3] + "/sw1.json", "w"))
json.dump(dict(head, sweep={"threads": 64}, points=[point(b, 0, "4"), point(a, 1, "1")]),
          open(sys.argv[3] + "/sw2.json", "w"))
json.dump(dict(head, job="x", point=point(b, 1, "1")), open(sys.argv[3] + "/pt.json", "w"))
EOF
run sw compare "$T/sw1.json" "$T/sw2.json" --json
python3 - "$T/sw.out" "$T/A/results.json" "$T/B/results.json" <<'EOF' && ok || bad "sweep results: $(cat "$T/sw.err")"
import json, sys
d, a, b = (json.load(open(p)) for p in sys.argv[1:4])
ca = {(r["program"], r["variant"]): r["stats"]["cycles"] for r in a["runs"] if "stats" in r}
cb = {(r["program"], r["variant"]): r["stats"]["cycles"] for r in b["runs"] if "stats" in r}
assert d["a"]["kind"] == "sweep" and len(d["rows"]) == 2 * len(ca)
for r in d["rows"]:
    var, knob = r["variant"].split(" [")
    k = (r["program"], var)
    want = (ca[k], cb[k]) if knob == "lut_banks=4]" else (cb[k], ca[k])
    assert (r["cycles"]["a"], r["cycles"]["b"]) == want, (r, want)
assert "scalar [lut_banks=1]" in [g["variant"] for g in d["geomean"]]
EOF
run pt compare "$T/pt.json" "$T/sw1.json" --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["rows"]) == len(d["only_b"]) > 0 and all(r["variant"].endswith(" [lut_banks=1]") for r in d["rows"])' \
    "$T/pt.out" && ok || bad "a sweep point.json against its results: $(cat "$T/pt.err")"

# Different programs: refused (exit 1), compared with --force.
cp "$P" "$T/p.fp"
"$U" run "$T/p.fp" --arch all --threads 16 --json > "$T/pa.json" 2>/dev/null
printf '# a comment changes the file\n' >> "$T/p.fp"
"$U" run "$T/p.fp" --arch all --threads 16 --json > "$T/pb.json" 2>/dev/null
run refuse compare "$T/pa.json" "$T/pb.json"
[ $rc -eq 1 ] && [ ! -s "$T/refuse.out" ] &&
    grep -q "^ushader: error: compare: .* used different programs (provenance inputs: $T/p.fp differs); --force" "$T/refuse.err" &&
    ok || bad "a changed program is not refused (exit $rc): $(cat "$T/refuse.err")"
run forced compare "$T/pa.json" "$T/pb.json" --force --json
python3 - "$T/forced.out" "$T/p.fp" <<'EOF' && ok || bad "--force: $(cat "$T/forced.err")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["forced"] is True and len(d["rows"]) == 6
assert [p["path"] for p in d["program_differences"]] == [sys.argv[2]]
assert d["program_differences"][0]["a"] != d["program_differences"][0]["b"]
EOF
run forcedt compare "$T/pa.json" "$T/pb.json" --force
grep -q '^programs differ (compared anyway, --force):' "$T/forcedt.out" && ok ||
    bad "text --force: the differing programs are not named at the top"
# a different program set (another --only) is refused too
run benchD bench --only toon --arch scalar --jobs 2 --threads 16 --json
cp "$T/benchD.out" "$T/D.json"
run refuse2 compare "$T/C.json" "$T/D.json"
[ $rc -eq 1 ] && grep -q 'used different programs (provenance inputs: bench/programs/phong.fp only in A' "$T/refuse2.err" &&
    ok || bad "another program set is not refused (exit $rc): $(cat "$T/refuse2.err")"
run refuse2f compare "$T/C.json" "$T/D.json" --force
[ $rc -eq 1 ] && grep -q 'have no row (program, variant) in common' "$T/refuse2f.err" &&
    [ ! -s "$T/refuse2f.out" ] && ok ||
    bad "no rows in common is not an error (exit $rc): $(cat "$T/refuse2f.err")"
run nocommon compare "$T/r1.json" "$T/r2.json"
[ $rc -eq 1 ] && grep -q 'no row (program, variant) in common (1 and 1 rows)' "$T/nocommon.err" &&
    ok || bad "run --arch scalar against simd4: $(cat "$T/nocommon.err")"

# Errors: FILE: error, exit 1; usage, exit 2; nothing on stdout.
# err NAME RC PATTERN ARGS...
err() {
    name=$1 want=$2 pat=$3
    shift 3
    run "$name" "$@"
    if [ $rc -eq "$want" ] && [ ! -s "$T/$name.out" ] && grep -q -- "$pat" "$T/$name.err"; then ok
    else bad "$name: exit $rc (want $want), stderr: $(cat "$T/$name.err")"; fi
}
printf '{"schema_version": 1,\n "provenance": {,}}\n' > "$T/bad.json"
printf '{"schema_version": 1, "provenance": {}, "x": 1}\n' > "$T/shape.json"
printf '{"schema_version": 2, "provenance": {}, "runs": []}\n' > "$T/v2.json"
sed 's/"cycles": [0-9]*/"cycles": "many"/' "$T/C.json" > "$T/str.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["runs"].append(d["runs"][0]); json.dump(d, open(sys.argv[2], "w"))' \
    "$T/C.json" "$T/dup.json"
"$U" run "$P" --json > "$T/func.json" 2>/dev/null
err missing 1 "^ushader: $T/none.json: error: cannot open" compare "$T/none.json" "$T/C.json"
err nodir 1 "^ushader: $T/cfg/results.json: error: cannot open" compare "$T/cfg" "$T/C.json"
err notjson 1 "^ushader: $T/bad.json:2:17: error: not JSON: " compare "$T/C.json" "$T/bad.json"
err shape 1 "^ushader: $T/shape.json: error: not a result set: no \"runs\"" compare "$T/shape.json" "$T/C.json"
err v2 1 "^ushader: $T/v2.json: error: schema_version 2: compare reads schema 1" compare "$T/v2.json" "$T/C.json"
err str 1 "^ushader: $T/str.json: error: runs\[0\].stats: no number 'cycles'" compare "$T/C.json" "$T/str.json"
err dup 1 "^ushader: $T/dup.json: error: two rows of program 'phong.fp', variant 'scalar'" compare "$T/C.json" "$T/dup.json"
err func 1 "^ushader: $T/func.json: error: a run without --arch" compare "$T/func.json" "$T/r1.json"
err usage1 2 "^usage: ushader compare" compare "$T/C.json"
err usage3 2 "more than two result sets" compare "$T/C.json" "$T/C.json" "$T/C.json"
err unknown 2 "^ushader: error: compare: unknown option '--bogus'" compare "$T/C.json" "$T/C.json" --bogus
err thr 2 "^ushader: error: compare: --threshold 'x': a percentage" compare "$T/C.json" "$T/C.json" --threshold x
err thrneg 2 "^ushader: error: compare: --threshold '-1'" compare "$T/C.json" "$T/C.json" --threshold -1
err thrmiss 2 "^ushader: error: compare: --threshold needs a percentage" compare "$T/C.json" "$T/C.json" --threshold
err forms 2 "^ushader: error: compare: --json and --markdown" compare "$T/C.json" "$T/C.json" --json --markdown
run help compare --help
[ $rc -eq 0 ] && for o in --json --markdown --threshold --force; do
    grep -q -- "$o" "$T/help.out" || bad "--help lacks $o"; done && ok

echo "compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
