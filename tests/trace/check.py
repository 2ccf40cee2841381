#!/usr/bin/env python3
"""Checks of `--trace FILE` (docs/TRACE.md) for tests/trace.test.sh.

  check.py valid TRACE                 Chrome trace-event JSON with the
                                       fields docs/TRACE.md promises
  check.py schedule TRACE L            chain.fp's hand-computed schedule on
                                       one scalar SP with alu_latency L
  check.py counts TRACE STATS.json     stall events by reason = stalls.*,
                                       retirements = threads, issues >= issued
  check.py window FULL PART FROM TO    PART = FULL's events of FROM <= ts < TO
  check.py truncated TRACE MAX         at most MAX events, the rest counted
Exit 1 with a message on the first difference.
"""
import json
import sys


def fail(msg):
    print("check.py: " + msg)
    sys.exit(1)


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: not JSON: %s" % (path, e))
    if not isinstance(d, dict) or not isinstance(d.get("traceEvents"), list):
        fail("%s: no traceEvents array" % path)
    return d


def events(d):
    """The events other than metadata and the truncation marker."""
    return [e for e in d["traceEvents"]
            if e["ph"] != "M" and e.get("cat") != "trace"]


def valid(path):
    d = load(path)
    if d.get("displayTimeUnit") not in ("ms", "ns"):
        fail("displayTimeUnit %r" % d.get("displayTimeUnit"))
    o = d.get("otherData")
    if not isinstance(o, dict):
        fail("no otherData object")
    for k in ("schema_version", "provenance", "model", "time_unit", "window",
              "cycles", "events", "events_outside_window", "max_events",
              "dropped_events", "truncated"):
        if k not in o:
            fail("otherData has no %s" % k)
    if o["schema_version"] != 1 or o["time_unit"] != "cycle":
        fail("otherData: schema_version %r time_unit %r"
             % (o["schema_version"], o["time_unit"]))
    if not o["provenance"]["command"].startswith("ushader "):
        fail("provenance command %r" % o["provenance"]["command"])
    named = set()
    for e in d["traceEvents"]:
        for k, t in (("name", str), ("ph", str), ("pid", int), ("tid", int),
                     ("ts", int)):
            if not isinstance(e.get(k), t):
                fail("event without %s: %r" % (k, e))
        if e["ph"] == "M":
            if e["name"] not in ("process_name", "process_sort_index",
                                 "thread_name", "thread_sort_index"):
                fail("metadata %r" % e)
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
        elif e["ph"] == "X":
            a = e["args"]
            if e["cat"] != "issue" or not isinstance(e.get("dur"), int) or \
               e["dur"] < 1 or a["retire"] != e["ts"] + e["dur"] or \
               a["slot"] + 1 != e["tid"] or a["lanes"] < 1:
                fail("issue event %r" % e)
        elif e["ph"] == "i":
            if e.get("s") not in ("t", "g"):
                fail("instant event without scope: %r" % e)
            if e["cat"] == "stall" and (e["tid"] != 0 or
                                        e["args"]["reason"] != e["name"]):
                fail("stall event %r" % e)
            elif e["cat"] == "retire" and e["args"]["slot"] + 1 != e["tid"]:
                fail("retire event %r" % e)
            elif e["cat"] not in ("stall", "retire", "trace"):
                fail("instant event %r" % e)
        else:
            fail("phase %r" % e)
        if e["ph"] != "M" and e.get("cat") != "trace":
            w = o["window"]
            if not w["from"] <= e["ts"] < w["to"]:
                fail("event outside the window %r: %r" % (w, e))
            if (e["pid"], e["tid"]) not in named:
                fail("event on an unnamed track: %r" % e)
    n = len(events(d))
    if n != o["events"]:
        fail("%d events, otherData says %d" % (n, o["events"]))
    if o["truncated"] != (o["dropped_events"] > 0):
        fail("truncated %r with %d dropped" % (o["truncated"],
                                              o["dropped_events"]))


def schedule(path, L):
    """chain.fp on one SP, one thread, fetch_width 1, alu_latency L:
    cycle 0 only fetches (the fetch stage: a fetch stall); the MADs issue
    at 1, 1+L, 1+2L, each when the one before is usable; the independent
    ADD issues the cycle after the third MAD, 2+2L; MOV c.x waits for the
    third MAD, 1+3L, MOV d.x follows at 2+3L; a result is usable L cycles
    after issue, and the thread retires when its last one is, 2+4L.  Every
    other cycle the SP waits for a result: a dependency stall."""
    d = load(path)
    want = [("MAD", 1, 1 + L), ("MAD", 1 + L, 1 + 2 * L),
            ("MAD", 1 + 2 * L, 1 + 3 * L), ("ADD", 2 + 2 * L, 2 + 3 * L),
            ("MOV", 1 + 3 * L, 1 + 4 * L), ("MOV", 2 + 3 * L, 2 + 4 * L)]
    ev = events(d)
    got = [(e["name"], e["ts"], e["args"]["retire"]) for e in ev
           if e["ph"] == "X"]
    if got != want:
        fail("issues %r, want %r" % (got, want))
    if [e["args"]["pc"] for e in ev if e["ph"] == "X"] != list(range(6)):
        fail("issue pcs")
    issued = {t for _, t, _ in want}
    end = 2 + 4 * L
    stalls = [(e["ts"], e["name"]) for e in ev if e.get("cat") == "stall"]
    want_stalls = [(0, "fetch")] + [(c, "dependency") for c in range(1, end)
                                    if c not in issued]
    if stalls != want_stalls:
        fail("stalls %r, want %r" % (stalls, want_stalls))
    retires = [(e["ts"], e["args"]["thread"]) for e in ev
               if e.get("cat") == "retire"]
    if retires != [(end, 0)]:
        fail("retirements %r, want [(%d, 0)]" % (retires, end))
    if d["otherData"]["cycles"] != end:
        fail("cycles %r, want %d" % (d["otherData"]["cycles"], end))


def counts(path, stats_path):
    d = load(path)
    with open(stats_path) as f:
        st = json.load(f)
    st = st.get("stats", st)   # compute --json nests them
    ev = events(d)
    if d["otherData"]["events_outside_window"] or \
       d["otherData"]["dropped_events"]:
        fail("the window does not hold the whole run")
    by = {}
    for e in ev:
        if e.get("cat") == "stall":
            by[e["name"]] = by.get(e["name"], 0) + 1
    for reason, n in st["stalls"].items():
        if by.get(reason, 0) != n:
            fail("%d %s stall events, stalls.%s %d"
                 % (by.get(reason, 0), reason, reason, n))
    extra = set(by) - set(st["stalls"])
    if extra:
        fail("stall events of reasons without a statistic: %r" % extra)
    r = sum(1 for e in ev if e.get("cat") == "retire")
    if r != st["threads"]:
        fail("%d retirements, %d threads" % (r, st["threads"]))
    i = sum(1 for e in ev if e["ph"] == "X")
    if i < st["issued"]:
        fail("%d issue events, issued %d" % (i, st["issued"]))
    if d["otherData"]["cycles"] != st["cycles"]:
        fail("otherData cycles %r, stats %r" % (d["otherData"]["cycles"],
                                               st["cycles"]))
    if max(e["ts"] for e in ev) > st["cycles"]:
        fail("an event after the last cycle")


def window(full, part, lo, hi):
    f, p = load(full), load(part)
    want = [e for e in events(f) if lo <= e["ts"] < hi]
    got = events(p)
    if not want:
        fail("no events in the window: a useless test")
    if got != want:
        fail("%d events in the window, want %d" % (len(got), len(want)))
    o = p["otherData"]
    if o["window"] != {"from": lo, "to": hi}:
        fail("otherData window %r" % o["window"])
    if o["events_outside_window"] != len(events(f)) - len(want):
        fail("events_outside_window %d, want %d"
             % (o["events_outside_window"], len(events(f)) - len(want)))


def truncated(path, cap):
    d = load(path)
    o = d["otherData"]
    ev = events(d)
    marks = [e for e in d["traceEvents"] if e.get("cat") == "trace"]
    if len(ev) != cap or o["events"] != cap or not o["truncated"] or \
       o["dropped_events"] < 1 or o["max_events"] != cap or len(marks) != 1:
        fail("truncation: %d events, otherData %r" % (len(ev), o))


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    cmd = argv[1]
    if cmd == "valid":
        valid(argv[2])
    elif cmd == "schedule":
        schedule(argv[2], int(argv[3]))
    elif cmd == "counts":
        counts(argv[2], argv[3])
    elif cmd == "window":
        window(argv[2], argv[3], int(argv[4]), int(argv[5]))
    elif cmd == "truncated":
        truncated(argv[2], int(argv[3]))
    else:
        fail(__doc__)


main(sys.argv)
