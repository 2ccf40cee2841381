#!/usr/bin/env python3
"""Checks of the HTML pages as a browser rendered them (tests/browser.sh
dumps the DOM and takes a screenshot), for tests/piglit_workflow.test.sh
and tests/report_html.test.sh.

  html_check.py png SHOT.png [R,G,B]...
      a valid PNG (signature, chunk CRCs, IHDR, the image data inflates
      and unfilters) of more than one colour, holding each R,G,B given
  html_check.py summary DOM.html SUMMARY.json
      the page of `ushader piglit summary --html` shows what the same
      summary's --json says: totals, changes, a row per listed test
  html_check.py report DOM.html report.md results.json DIR [--tables-only]
      report.html shows every table of report.md cell for cell, every
      image embedded as the bytes of DIR's plot, nothing fetched, and the
      figures of the cycles tables are results.json's (the shader suite's
      tables; --tables-only for the compute suite's report)

Prints one line per problem and exits 1 if there was any."""
import base64
import html.parser
import json
import re
import struct
import sys
import zlib

problems = []


def bad(msg):
    problems.append(msg)
    print("FAIL: " + msg)


# ---- PNG ---------------------------------------------------------------------

def png_pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if zlib.crc32(kind + body) & 0xffffffff != crc:
            raise ValueError("bad CRC in chunk %r" % kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    if not ihdr:
        raise ValueError("no IHDR")
    w, h, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("not 8-bit RGB/RGBA without interlace: depth %d "
                         "type %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    if len(raw) != h * (stride + 1):
        raise ValueError("image data of %d bytes for %dx%d" % (len(raw), w, h))
    prev = bytearray(stride)
    colours = set()
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
            elif f != 0:
                raise ValueError("filter %d" % f)
        for x in range(0, stride, bpp):
            colours.add(bytes(line[x:x + 3]))
        prev = line
    return w, h, colours


def cmd_png(args):
    path, want = args[0], args[1:]
    try:
        w, h, colours = png_pixels(path)
    except (ValueError, zlib.error, struct.error, OSError) as e:
        bad("%s: not a valid PNG: %s" % (path, e))
        return
    print("png %s: %dx%d, %d colours" % (path, w, h, len(colours)))
    if len(colours) < 2:
        bad("%s: blank (one colour)" % path)
    for rgb in want:
        c = bytes(int(v) for v in rgb.split(","))
        if c not in colours:
            bad("%s: no pixel of colour %s" % (path, rgb))


# ---- The DOM -------------------------------------------------------------------

class Dom(html.parser.HTMLParser):
    """Tables (id, the heading before them, rows of cell texts and
    classes), images' src, and every URL attribute."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.images, self.urls = [], [], []
        self.heading, self.in_heading = "", False
        self.table = self.row = self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            if k in a:
                self.urls.append((tag, a[k]))
        if tag in ("h1", "h2", "h3"):
            self.in_heading, self.heading = True, ""
        elif tag == "table":
            self.table = {"id": a.get("id"), "heading": self.heading,
                          "rows": []}
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = {"text": "", "class": a.get("class", ""),
                         "th": tag == "th"}
        elif tag == "img":
            self.images.append(a.get("src", ""))

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3"):
            self.in_heading = False
        elif tag in ("td", "th") and self.cell is not None:
            self.cell["text"] = " ".join(self.cell["text"].split())
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.table["rows"].append(self.row)
            self.row = None
        elif tag == "table" and self.table is not None:
            self.tables.append(self.table)
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        if self.in_heading:
            self.heading += data


def dom(path):
    d = Dom()
    d.feed(open(path, encoding="utf-8").read())
    return d


def texts(row):
    return [c["text"] for c in row]


def table_by_id(d, tid):
    for t in d.tables:
        if t["id"] == tid:
            return t
    bad("no table id=%s in the page" % tid)
    return {"rows": []}


def no_fetches(d):
    for tag, url in d.urls:
        if not url.startswith("data:") and not url.startswith("#"):
            bad("<%s> refers to %s: the page must fetch nothing" %
                (tag, url[:60]))


# ---- piglit summary ---------------------------------------------------------------

def cmd_summary(args):
    d, s = dom(args[0]), json.load(open(args[1]))
    no_fetches(d)
    names = ["pass", "fail", "skip", "error"]
    rows = table_by_id(d, "totals")["rows"]
    want = [["[%d] %s" % (k + 1, f["file"]), str(f["tests"])] +
            [str(f[n]) for n in names] for k, f in enumerate(s["files"])]
    if [texts(r) for r in rows[1:]] != want:
        bad("totals: the page has %s, the summary %s" %
            ([texts(r) for r in rows[1:]], want))
    if len(s["files"]) > 1:
        kinds = ["fixed", "regressed", "enabled", "disabled", "changed",
                 "new", "removed"]
        rows = table_by_id(d, "changes")["rows"]
        want = [["[%d]" % (c["from"] + 1), "[%d]" % (c["to"] + 1)] +
                [str(c[k]) for k in kinds] for c in s["changes"]]
        if [texts(r) for r in rows[1:]] != want:
            bad("changes: the page has %s, the summary %s" %
                ([texts(r) for r in rows[1:]], want))
    rows = table_by_id(d, "tests")["rows"][1:]
    if len(rows) != len(s["tests"]):
        bad("tests: %d rows on the page, %d tests in the summary" %
            (len(rows), len(s["tests"])))
    for r, t in zip(rows, s["tests"]):
        cells = texts(r)
        res = [x if x is not None else "-" for x in t["results"]]
        if cells[0] != t["path"] or cells[1:1 + len(res)] != res:
            bad("row %s: the summary has %s %s" % (cells, t["path"], res))
        # each result cell is coloured by its class
        for c, x in zip(r[1:1 + len(res)], t["results"]):
            if c["class"] != (x or "absent"):
                bad("row %s: a cell of class '%s' for %s" %
                    (t["path"], c["class"], x))
        if len(res) > 1:
            ch = ", ".join(x for x in t["changes"] if x != "unchanged")
            if cells[1 + len(res)] != ch:
                bad("row %s: changes '%s', the summary '%s'" %
                    (t["path"], cells[1 + len(res)], ch))
    print("summary page: %d totals rows, %d test rows checked" %
          (len(s["files"]), len(rows)))


# ---- the bench report ----------------------------------------------------------------

def md_tables(md):
    """Every Markdown table of report.md: (heading, rows of cell texts)."""
    out, heading, cur = [], "", None

    def split(line):
        line = line.strip()
        if line.startswith("|"):
            line = line[1:]
        if line.endswith("|") and not line.endswith("\\|"):
            line = line[:-1]
        cells = re.split(r"(?<!\\)\|", line)
        return [strip_md(c.strip().replace("\\|", "|")) for c in cells]

    for line in md.split("\n"):
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("|"):
            if cur is None:
                cur = (heading, [])
                out.append(cur)
            if not re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*", line):
                cur[1].append(split(line))
        else:
            cur = None
    return out


def strip_md(s):
    s = re.sub(r"`([^`]*)`", r"\1", s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"\1", s)
    s = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*", r"\1", s)
    return " ".join(s.split())


def num(s):
    return float(s.replace("%", "").replace("x", ""))


def cmd_report(args):
    d = dom(args[0])
    md = open(args[1], encoding="utf-8").read()
    res = json.load(open(args[2]))
    outdir = args[3]
    no_fetches(d)
    mt = md_tables(md)
    if len(mt) != len(d.tables):
        bad("report.md has %d tables, the page %d" % (len(mt), len(d.tables)))
    for (heading, rows), t in zip(mt, d.tables):
        got = [texts(r) for r in t["rows"]]
        if got != rows:
            for a, b in zip(rows, got):
                if a != b:
                    bad("table under '%s': report.md %s, the page %s" %
                        (heading, a, b))
                    break
            else:
                bad("table under '%s': %d rows in report.md, %d on the "
                    "page" % (heading, len(rows), len(got)))
        if t["heading"] != heading:
            bad("a table under '%s' on the page, under '%s' in report.md" %
                (t["heading"], heading))
    # the plots: as many as report.md names, each the PNG file's bytes
    names = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    if len(names) != len(d.images):
        bad("report.md has %d images, the page %d" %
            (len(names), len(d.images)))
    for name, src in zip(names, d.images):
        pre = "data:image/png;base64,"
        if not src.startswith(pre):
            bad("image %s is not embedded as a PNG data URI" % name)
            continue
        if base64.b64decode(src[len(pre):]) != open(
                outdir + "/" + name, "rb").read():
            bad("image %s: the embedded bytes are not %s/%s" %
                (name, outdir, name))
    # figures against results.json: cycles summed per model, and per program
    cyc = {}
    for r in ([] if "--tables-only" in args else res["runs"]):
        if r.get("ok"):
            cyc[(r["program"], r["variant"])] = r["stats"]["cycles"]
    checked = 0
    for t in d.tables:
        rows = [texts(r) for r in t["rows"]]
        if not rows:
            continue
        head = rows[0]
        if t["heading"].startswith("c. Cycles") and head[:2] == ["model",
                                                                 "cycles"]:
            for r in rows[1:]:
                want = sum(v for (p, m), v in cyc.items() if m == r[0])
                if int(num(r[1])) != want:
                    bad("cycles of %s: the page %s, results.json %d" %
                        (r[0], r[1], want))
                checked += 1
        if t["heading"] == "Per-program results":
            for col, name in enumerate(head):
                if not name.startswith("cycles "):
                    continue
                model = name.split(" ", 1)[1]
                for r in rows[1:]:
                    want = cyc.get((r[0], model))
                    if want is None or int(num(r[col])) != want:
                        bad("cycles of %s on %s: the page %s, results.json "
                            "%s" % (r[0], model, r[col], want))
                    checked += 1
    if checked == 0 and "--tables-only" not in args:
        bad("no cycles figure found to check against results.json")
    print("report page: %d tables, %d images, %d cycle figures checked "
          "against results.json" % (len(d.tables), len(d.images), checked))


def main():
    cmds = {"png": cmd_png, "summary": cmd_summary, "report": cmd_report}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        print(__doc__)
        sys.exit(2)
    cmds[sys.argv[1]](sys.argv[2:])
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
