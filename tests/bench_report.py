#!/usr/bin/env python3
"""Checks a bench report.md against its results.json and configuration
(tests/bench_report.test.sh): python3 bench_report.py REPORT JSON LANES
HETERO_WIDTH.  Prints one line per problem; exit 1 if there is any."""
import json
import math
import re
import sys

ARCHS = ["scalar", "simd4", "vliw", "superscalar", "hetero"]


def fail(msg):
    PROBLEMS.append(msg)


def expect(cond, msg):
    if not cond:
        fail(msg)


def section(text, head):
    """The text of section `head` ('## a.'), up to the next '## '."""
    i = text.find("\n" + head)
    if i < 0:
        return ""
    j = text.find("\n## ", i + 1)
    return text[i:j if j >= 0 else len(text)]


def table_rows(sec):
    return [ln for ln in sec.splitlines()
            if ln.startswith("| ") and not ln.startswith("|---")]


def cells(row):
    # split on '|' not escaped as '\|'
    parts = re.split(r"(?<!\\)\|", row)
    return [p.strip() for p in parts[1:-1]]


def figure(text):
    """First figure of a cell as a ratio: 37.3% -> 0.373, +88% -> 1.88,
    3.3x -> 3.3.  Returns (value, kind) or None."""
    m = re.search(r"([+-]?)(\d+(?:\.\d+)?)(%|x)", text)
    if not m:
        return None
    sign, v, unit = m.group(1), float(m.group(2)), m.group(3)
    if unit == "x":
        return v
    if sign:
        return 1 + (v if sign == "+" else -v) / 100
    return v / 100


def check_prose(text):
    # as words, not inside a name ("shading-blinn-phong-inf.vert")
    for word in ("nan", "inf"):
        expect(not re.search(r"(?<![-\w])%s(?![-\w.])" % word, text, re.I),
               "'%s' in the report" % word)
    for ln in text.splitlines():
        if not ln.startswith("|") and "n/a" in ln:
            fail("'n/a' in prose: " + ln[:80])


def check_verdicts(text):
    sec = section(text, "## g.")
    m = re.search(r"within (\d+)% of 1", sec)
    expect(m is not None, "section g does not state its tolerance")
    tol = float(m.group(1)) / 100 if m else 0.05
    rows = table_rows(sec)[1:]
    expect(len(rows) > 0, "section g has no claim")
    for row in rows:
        c = cells(row)
        if len(c) != 4:
            fail("section g row with %d cells: %s" % (len(c), row[:60]))
            continue
        what, paper, measured, why = c
        word = why.split(":")[0].split(" ")[0]
        if paper == "yes":
            g = re.findall(r"vertex ([+-]\d+\.\d)%, fragment ([+-]\d+\.\d)%",
                           measured)
            agrees = bool(g) and float(g[0][1]) > float(g[0][0])
        elif figure(measured) is None:
            fail("%s: no measured figure: %s" % (what, measured))
            continue
        elif re.match(r"^\d+(\.\d+)?-\d+(\.\d+)?x$", paper):
            lo, hi = [float(x) for x in paper[:-1].split("-")]
            agrees = lo <= figure(measured) <= hi
        else:
            agrees = abs(figure(measured) / figure(paper) - 1) <= tol
        expect(word == ("Agrees" if agrees else "Differs"),
               "verdict '%s' for %s: paper %s, measured %s" %
               (word, what, paper, measured))


def mean(xs):
    xs = [x for x in xs if x is not None and not math.isnan(x)]
    return sum(xs) / len(xs) if xs else None


def check_against_json(text, res, ran):
    progs = {p["name"]: p for p in res["programs"]}
    stats = {}
    for r in res["runs"]:
        if r.get("ok"):
            stats[(r["program"], r["variant"])] = r["stats"]
    alu = [n for n in progs
           if any(stats.get((n, v), {}).get("useful_ops", 0) > 0
                  for v in ran)]
    noalu = [n for n in progs if n not in alu]
    # section b: the 'all' utilization of every model that ran
    sec = section(text, "## b.")
    head = cells(table_rows(sec)[0]) if table_rows(sec) else []
    col = head.index("all") if "all" in head else None
    expect(col is not None, "section b has no 'all' column")
    util = {}
    for row in table_rows(sec)[1:]:
        c = cells(row)
        want = mean([stats[(n, c[0])]["utilization"] for n in alu
                     if (n, c[0]) in stats])
        got = float(c[col].rstrip("%")) / 100
        util[c[0]] = want
        expect(want is not None and abs(got - want) < 0.0006,
               "section b: %s all %.4f, results.json %s" % (c[0], got, want))
    for n in noalu:
        expect(("left out: " + n) in sec or ("left out: " in sec and n in sec),
               "section b does not say it leaves out " + n)
    if "scalar" in util and "simd4" in util:
        g = re.search(r"Scalar SP over simd4: ([+-]\d+\.\d)%", sec)
        want = 100 * (util["scalar"] / util["simd4"] - 1)
        expect(g is not None and abs(float(g.group(1)) - want) < 0.06,
               "section b: scalar over simd4 %s, results.json %.2f" %
               (g.group(1) if g else None, want))
    # section a: the four-component share, texture fetches left out
    sec = section(text, "## a.")
    shares = []
    for n in alu:
        w = progs[n]["width"]   # shares of widths "1".."4" (docs/METRICS.md)
        if sum(w.values()):
            shares.append(w["4"] / sum(w.values()))
    want = mean(shares)
    g = re.search(r"Measured: (\d+\.\d)%", sec)
    expect(g is not None and want is not None and
           abs(float(g.group(1)) / 100 - want) < 0.0006,
           "section a: four-component share %s, results.json %s" %
           (g.group(1) if g else None, want))


def check_config(text, res, ran, lanes, hw):
    classes = {p["stage"] for p in res["programs"]}
    expect("every model at %d scalar ALU lanes" % lanes in text,
           "no 'every model at %d scalar ALU lanes'" % lanes)
    sec_f = section(text, "## f.")
    luts = -(-lanes // 8)
    if "scalar" in ran:
        expect("the scalar machine has %d SPs" % lanes in sec_f,
               "section f: not 'the scalar machine has %d SPs'" % lanes)
        expect(("%d LUT%s" % (luts, "" if luts == 1 else "s")) in sec_f,
               "section f: not %d LUTs" % luts)
        sec_e = section(text, "## e.")
        expect("(%d LUT%s for the %d SPs)" %
               (luts, "" if luts == 1 else "s", lanes) in sec_e,
               "section e: not %d LUTs for %d SPs" % (luts, lanes))
    if "simd4" in ran:
        expect("simd4 has %d vec4 units" % (lanes // 4) in sec_f,
               "section f: not 'simd4 has %d vec4 units'" % (lanes // 4))
    if "hetero" in ran:
        expect("hetero has %d processors of a vec%d" %
               (lanes // (hw + 1), hw) in sec_f,
               "section f: not 'hetero has %d processors of a vec%d'" %
               (lanes // (hw + 1), hw))
        row = [r for r in table_rows(section(text, "## g."))
               if r.startswith("| utilization, scalar vs hetero |")]
        if "scalar" in ran:
            expect(row and ("(hetero_vec_width=%d) pairs a vec%d datapath" %
                            (hw, hw)) in row[0] and
                   ("it has %d processors of %d lanes" %
                    (lanes // (hw + 1), hw + 1)) in row[0],
                   "section g: the hetero row does not state width %d" % hw)
            two = "takes two issues of the vec3 datapath" in row[0] if row \
                else False
            expect(two == (hw == 3), "section g: hetero issue rule for "
                   "width %d" % hw)
    if "vliw" in ran:
        m = re.search(r"vliw assumes .*?\((\d+) full SFUs against simd4's "
                      r"(\d+)\): its area is (\d+\.\d+)x simd4's", sec_f)
        row = [cells(r) for r in table_rows(sec_f) if r.startswith("| vliw |")]
        expect(m is not None and int(m.group(1)) == lanes and
               int(m.group(2)) == lanes // 4 and row and
               row[0][1] == m.group(3),
               "section f: the vliw SFU assumption is missing or wrong")
    else:
        expect("vliw assumes" not in text, "vliw's SFUs described, not run")
    for a in ARCHS:
        if a in ran:
            continue
        expect(not re.search(r"^\| %s \|" % a, text, re.M),
               "a table row for %s, which did not run" % a)
        expect("%s has " % a not in text and
               "Scalar SP over %s" % a not in text and
               "; %s: " % a not in text,
               "a sentence about %s, which did not run" % a)
        for r in table_rows(section(text, "## g.")):
            if a == "hetero" and "hetero" in cells(r)[0]:
                fail("section g row about hetero, which did not run")
            if a == "simd4" and "SIMD" in cells(r)[0] and \
                    "at most" not in cells(r)[0]:
                fail("section g row about simd4, which did not run")
    for cls in ("vertex", "fragment"):
        if cls in classes:
            continue
        for head in ("## a.", "## b.", "## d."):
            sec = section(text, head)
            expect(not re.search(r"^\| %s \|" % cls, sec, re.M) and
                   ("| %s |" % cls) not in (table_rows(sec) or [""])[0],
                   "%s: a %s row or column without %s programs" %
                   (head, cls, cls))
        expect("%s programs have" % cls not in text and
               "%s programs carry" % cls not in text and
               "our %s programs" % cls not in text,
               "a sentence about %s programs, which this run has none of" %
               cls)


def leading_comment(path):
    """The program's leading comment, its lines joined by one space."""
    lines = open(path).read().splitlines()
    arb = lines and lines[0].startswith("!!")
    mark = "#" if arb else "//"
    words = []
    for ln in lines[1:] if arb else lines:
        if not ln.startswith(mark):
            break
        body = ln[len(mark):].strip()
        if not body:
            if words:
                break
            continue
        words.append(body)
    return " ".join(words)


def check_descriptions(text, res):
    """Each description is the start of the program's leading comment, cut
    only at a sentence's end (a '.'), or the whole comment."""
    sec = section(text, "## Programs")
    for row in table_rows(sec)[1:]:
        c = cells(row)
        desc = c[-1].replace("\\|", "|")
        for path in ("bench/programs/" + c[0], "bench/" + c[0]):
            try:
                full = leading_comment(path)
                break
            except OSError:
                full = None
        if full is None:
            continue
        expect(full.startswith(desc) and
               (desc == full or desc.endswith(".")),
               "%s: description is not the comment's whole first "
               "sentence: %s" % (c[0], desc))
        expect(desc.count("(") == desc.count(")"),
               "%s: description cut inside parentheses" % c[0])


PARTS = ["fp", "rf", "sfu", "lut", "imem", "control", "int", "lsu", "cache"]


def check_power(text, res, ran):
    """Section f's power decomposition against results.json: per-op
    energy by component (parts summing to the total), power = energy /
    time, and the stated cause agreeing with the ratios."""
    i = text.find("### Power against hetero, decomposed")
    both = "scalar" in ran and "hetero" in ran
    expect((i >= 0) == both, "power decomposition %s" %
           ("without scalar and hetero" if i >= 0 else "missing"))
    if i < 0 or not both:
        return
    sec = text[i:text.find("\n## ", i)]
    runs = {}
    for r in res["runs"]:
        if r.get("ok"):
            runs.setdefault(r["variant"], {})[r["program"]] = r["stats"]
    per_op = {}
    for v in ("scalar", "hetero"):
        st = runs[v].values()
        ops = sum(s["useful_ops"] for s in st)
        per_op[v] = {k: sum(s["energy_parts"][k] for s in st) / ops
                     for k in PARTS}
        total = sum(s["energy"] for s in st) / ops
        expect(abs(sum(per_op[v].values()) - total) < 1e-6 * total,
               "%s: energy_parts do not sum to energy" % v)
        per_op[v]["total"] = total
    # rows in PARTS order, the parts both models leave at 0 left out
    keys = [k for k in PARTS if per_op["scalar"][k] or per_op["hetero"][k]]
    keys.append("total")
    rows = [cells(r) for r in table_rows(sec)[1:]]
    expect(len(rows) == len(keys), "power table: %d rows, want %d" %
           (len(rows), len(keys)))
    for k, c in zip(keys, rows):
        for col, v in ((1, "scalar"), (2, "hetero")):
            got = float(c[col].strip("*"))
            expect(abs(got - per_op[v][k]) < 0.0006,
                   "power table: %s %s %s, results.json %.4f" %
                   (v, k, got, per_op[v][k]))

    def geo(key):
        logs = [math.log(runs["scalar"][p][key] / runs["hetero"][p][key])
                for p in runs["scalar"] if p in runs["hetero"] and
                runs["scalar"][p][key] > 0 and runs["hetero"][p][key] > 0]
        return math.exp(sum(logs) / len(logs))
    m = re.search(r"energy (\d+\.\d+), time \(cycles\) (\d+\.\d+), "
                  r"power = energy / time (\d+\.\d+)", sec)
    expect(m is not None, "power sentence missing")
    if not m:
        return
    e, t, p = (float(x) for x in m.groups())
    want = (geo("energy"), geo("cycles"))
    expect(abs(e - want[0]) < 0.0006 and abs(t - want[1]) < 0.0006 and
           abs(p - want[0] / want[1]) < 0.0006,
           "power ratios %s %s %s, results.json %.4f %.4f" %
           (e, t, p, want[0], want[1]))
    if p > 1 and e <= 1:
        expect("from the time alone" in sec, "power: the cause is the time")
    if p < 1 and e >= 1:
        expect("from the time alone" in sec, "power: the cause is the time")


def fit_line(xs, ys):
    n = len(xs)
    sx, sy = sum(xs), sum(ys)
    dxx = sum(x * x for x in xs) - sx * sx / n
    dyy = sum(y * y for y in ys) - sy * sy / n
    dxy = sum(x * y for x, y in zip(xs, ys)) - sx * sy / n
    slope = dxy / dxx
    icept = (sy - slope * sx) / n
    return slope, icept, (dxy * dxy / (dxx * dyy) if dyy > 0 else 1)


def check_sens(text, res, ran):
    """Section h against results.json: the per-program fits of the gain
    against the four-component share, and the knob tables' gains."""
    sec = section(text, "## h.")
    expect(bool(sec) == ("scalar" in ran), "section h %s" %
           ("present without scalar" if sec else "missing"))
    if not sec:
        return
    progs = {p["name"]: p for p in res["programs"]}
    util = {}
    for r in res["runs"]:
        if r.get("ok"):
            util[(r["program"], r["variant"])] = r["stats"]["utilization"]
    alu = [n for n in progs if any(util.get((n, v), 0) > 0 for v in ran)]
    rows = {cells(r)[0]: cells(r) for r in table_rows(sec.split("**Knobs**")[0])[1:]}
    for base in [a for a in ARCHS[1:] if a in ran]:
        xs, ys = [], []
        for n in alu:
            w = progs[n]["width"]
            if sum(w.values()) and (n, base) in util and util[(n, base)] > 0:
                xs.append(w["4"] / sum(w.values()))
                ys.append(util[(n, "scalar")] / util[(n, base)] - 1)
        expect(base in rows, "section h: no fit row for " + base)
        if base not in rows or len(xs) < 3 or len(set(xs)) < 2:
            continue
        slope, icept, r2 = fit_line(xs, ys)
        c = rows[base]
        got = [float(c[i].rstrip("%")) for i in (2, 3, 5)]
        want = [10 * slope, icept * 100, (icept + slope * 0.373) * 100]
        expect(int(c[1]) == len(xs) and
               all(abs(g - w) < 0.06 for g, w in zip(got, want)) and
               abs(float(c[4]) - r2) < 0.006,
               "section h: %s fit %s, results.json n=%d %s r2=%.3f" %
               (base, c[1:6], len(xs), ["%.2f" % x for x in want], r2))
    # the knob tables: gain over each baseline = ratio of the means
    for m in re.finditer(r"\*\*(\w+)\*\* \(", sec):
        knob = m.group(1)
        tab = sec[m.end():].split("\n\n", 2)[1]
        lines = table_rows(tab)
        if not lines:
            continue
        head = cells(lines[0])
        for row in lines[1:]:
            c = cells(row)
            value = c[0].split()[0]
            sv = "scalar" if "(base)" in c[0] else "scalar@%s=%s" % (knob, value)
            su = mean([util[(n, sv)] for n in alu if (n, sv) in util])
            expect(su is not None and abs(float(c[1].rstrip("%")) / 100 - su) < 0.0006,
                   "section h: %s=%s scalar utilization %s, results.json %s" %
                   (knob, value, c[1], su))
            for i, h in enumerate(head[2:], 2):
                base = h.replace("gain over ", "")
                bv = base if "(base)" in c[0] else "%s@%s=%s" % (base, knob, value)
                bu = mean([util[(n, bv)] for n in alu if (n, bv) in util])
                want = 100 * (su / bu - 1) if su and bu else None
                expect(want is not None and abs(float(c[i].rstrip("%")) - want) < 0.06,
                       "section h: %s=%s gain over %s %s, results.json %s" %
                       (knob, value, base, c[i], want))


def check_variants(text, res):
    """Section d's compaction-variant table against results.json."""
    sec = section(text, "## d.")
    i = sec.find("**Compaction variants**")
    expect(i >= 0, "section d: no compaction-variant table")
    if i < 0:
        return
    rows = table_rows(sec[i:].split("\n\n")[1])
    head = cells(rows[0])
    cls = {"vertex": "vertex", "fragment": "fragment", "all": None}
    for row in rows[1:]:
        c = cells(row)
        progs = [p for p in res["programs"] if p["vec4_instructions"] and
                 (cls[c[0]] is None or p["stage"] == cls[c[0]])]
        for col, h in enumerate(head[1:], 1):
            form, what = h.split(" ", 1)
            if what == "/ vec4":
                want = mean([p["compaction"][form]["instructions"] /
                             p["vec4_instructions"] for p in progs])
            else:
                want = mean([p["compaction"][form]["bits"] / p["bits"]["simd4"]
                             for p in progs if p["bits"]["simd4"]])
            got = float(c[col].rstrip("x"))
            expect(abs(got - want) < 0.0006,
                   "section d: %s %s %s, results.json %.4f" %
                   (c[0], h, got, want))


def main():
    report, results, lanes, hw = sys.argv[1:5]
    text = open(report).read()
    res = json.load(open(results))
    ran = [v["name"] for v in res["variants"] if v["name"] in ARCHS]
    check_prose(text)
    check_verdicts(text)
    check_against_json(text, res, ran)
    check_config(text, res, ran, int(lanes), int(hw))
    check_power(text, res, ran)
    check_sens(text, res, ran)
    check_variants(text, res)
    check_descriptions(text, res)
    for p in PROBLEMS:
        print(p)
    return 1 if PROBLEMS else 0


PROBLEMS = []
if __name__ == "__main__":
    sys.exit(main())
