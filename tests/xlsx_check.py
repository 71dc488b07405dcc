# SPDX-License-Identifier: MIT
"""bom.xlsx read back with openpyxl and compared with the CSV artifacts.

    python3 xlsx_check.py OUTDIR

OUTDIR holds what `rackc -O bom,cabling,xlsx` wrote.  Prints one line per
case, "PASS<TAB>name<TAB>detail" or "FAIL<TAB>name<TAB>detail":

  - the sheets are BOM, spares, cables, pull list and racks;
  - BOM = the rows of bom.csv that are not spares, spares = the spare
    rows, cell by cell (numbers compared as exact decimals: quantities as
    integers, lengths to the micrometre, prices to the cent);
  - cables = cabling.csv and pull list = cabling/pull.csv, every column of
    the sheet against the CSV column of the same name, row by row;
  - racks: the devices per part equal the BOM's part and content lines of
    device categories, per part (the racks sheet lists placed devices);
  - every sheet, read from its XML part: the header row frozen, an
    autofilter over exactly the table (header to last row, first to last
    column), every column at least as wide as its header and its widest
    text cell (or 60 characters), and the number formats: lengths "0.00",
    prices "#,##0.00", quantities and U positions "0" (the cell values stay
    exact: the comparisons above).
"""
import csv
import re
import sys
import zipfile
from collections import Counter
from decimal import Decimal

import openpyxl

out = sys.argv[1]


def say(ok, name, detail=""):
    print("PASS" if ok else "FAIL", name, detail, sep="\t")


def norm(v, col):
    """a cell as the CSV writes it, for comparison"""
    if v is None:
        return ""
    if isinstance(v, (int, float)):
        d = Decimal(repr(v))
        if col in ("unit_price", "extended_price"):
            return d.quantize(Decimal("0.01"))
        if col.endswith("length_m"):
            return d.quantize(Decimal("0.000001")).normalize()
        return d.normalize()
    return v


def csv_norm(v, col):
    if v == "":
        return ""
    if col in ("unit_price", "extended_price"):
        return Decimal(v)
    if col.endswith("length_m") or col in ("quantity", "u", "a_u", "b_u",
                                           "far_u"):
        return Decimal(v).normalize()
    # the CSV neutralises a leading = + - @ with a quote (csv.h)
    if v[:1] == "'" and v[1:2] in ("=", "+", "-", "@"):
        return v[1:]
    return v


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def sheet(wb, name):
    rows = list(wb[name].iter_rows(values_only=True))
    head = list(rows[0])
    return head, [dict(zip(head, r)) for r in rows[1:]]


def compare(name, head, srows, crows):
    bad = []
    if len(srows) != len(crows):
        say(False, name, "%d rows, CSV has %d" % (len(srows), len(crows)))
        return
    for i, (s, c) in enumerate(zip(srows, crows)):
        for col in head:
            if col not in c:
                bad.append("%s: no CSV column" % col)
                continue
            a, b = norm(s[col], col), csv_norm(c[col], col)
            if a != b:
                bad.append("row %d %s: %r != %r" % (i + 2, col, a, b))
    say(not bad, name + " = CSV", "; ".join(bad[:5]))


wb = openpyxl.load_workbook(out + "/bom.xlsx", read_only=True)
say(wb.sheetnames == ["BOM", "spares", "cables", "pull list", "racks"],
    "sheets", ", ".join(wb.sheetnames))

bom = read_csv(out + "/bom.csv")
h, rows = sheet(wb, "BOM")
compare("BOM", h, rows, [r for r in bom if r["kind"] != "spare"])
h, rows = sheet(wb, "spares")
compare("spares", h, rows, [r for r in bom if r["kind"] == "spare"])
h, rows = sheet(wb, "cables")
compare("cables", h, rows, read_csv(out + "/cabling.csv"))
h, rows = sheet(wb, "pull list")
compare("pull list", h, rows, read_csv(out + "/cabling/pull.csv"))

h, rows = sheet(wb, "racks")
DEVICES = ("server", "switch", "pdu", "power_shelf", "cdu", "device")
got = Counter(r["part"] for r in rows)
want = Counter()
for r in bom:
    if r["kind"] in ("part", "content") and r["category"] in DEVICES:
        for p in r["part"].split("; "):
            want[p] += 0
        if "; " not in r["part"]:
            want[r["part"]] += int(r["quantity"])
multi = [r["part"] for r in bom if "; " in r["part"] and
         r["category"] in DEVICES]
if multi:
    # lines naming several parts: their devices together
    for m in multi:
        ps = m.split("; ")
        q = sum(int(r["quantity"]) for r in bom if r["part"] == m and
                r["kind"] in ("part", "content"))
        got[m] = sum(got.pop(p, 0) for p in ps)
        want[m] = q
        for p in ps:
            want.pop(p, None)
unplaced = {p: want[p] - got.get(p, 0) for p in want if want[p] != got.get(p, 0)}
say(all(v > 0 for v in unplaced.values()) and
    all(p in want for p in got),
    "racks: placed devices per part <= BOM quantities",
    "BOM minus racks sheet: %s" % unplaced)
say(all(r["rack"] and r["device"] for r in rows), "racks: rack and device set")


# The sheets' layout, from the workbook's XML parts (ECMA-376 SpreadsheetML).
def col_index(ref):
    n = 0
    for ch in re.match(r"[A-Z]+", ref).group(0):
        n = n * 26 + ord(ch) - 64
    return n


def col_letters(n):
    s = ""
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


z = zipfile.ZipFile(out + "/bom.xlsx")
styles = z.read("xl/styles.xml").decode()
numfmt = {1: "0", 0: "General"}
for m in re.finditer(r'<numFmt numFmtId="(\d+)" formatCode="([^"]*)"', styles):
    numfmt[int(m.group(1))] = m.group(2).replace("&quot;", '"')
xfs = re.search(r"<cellXfs[^>]*>(.*?)</cellXfs>", styles, re.S).group(1)
xf_fmt = [numfmt.get(int(m.group(1)), "?") for m in
          re.finditer(r'<xf numFmtId="(\d+)"', xfs)]
strings = [re.sub(r"<[^>]+>", "", m.group(1)) for m in
           re.finditer(r"<si>(.*?)</si>", z.read("xl/sharedStrings.xml")
                        .decode(), re.S)] \
    if "xl/sharedStrings.xml" in z.namelist() else []
FORMATS = {"length_m": "0.00", "computed_length_m": "0.00",
           "unit_price": "#,##0.00", "extended_price": "#,##0.00",
           "quantity": "0", "u": "0", "a_u": "0", "b_u": "0", "far_u": "0",
           "height_u": "0"}
for i, name in enumerate(wb.sheetnames):
    x = z.read("xl/worksheets/sheet%d.xml" % (i + 1)).decode()
    pane = re.search(r"<pane [^>]*>", x)
    say(pane is not None and 'ySplit="1"' in pane.group(0) and
        'state="frozen"' in pane.group(0) and "xSplit" not in pane.group(0),
        name + ": header row frozen", pane.group(0) if pane else "no pane")
    rows = re.findall(r'<row r="(\d+)"', x)
    ncols = len(sheet(wb, name)[0])
    want = "A1:%s%s" % (col_letters(ncols), rows[-1] if rows else "1")
    af = re.search(r'<autoFilter ref="([^"]*)"', x)
    say(af is not None and af.group(1) == want, name + ": autofilter",
        "%s, want %s" % (af.group(1) if af else "none", want))
    widths = {}
    for m in re.finditer(r'<col min="(\d+)" max="(\d+)" width="([\d.]+)"',
                         x):
        for c in range(int(m.group(1)), int(m.group(2)) + 1):
            widths[c] = float(m.group(3))
    # the widest text per column: shared strings (t="s") and inline ones
    text = {}
    head = {}
    fmt_bad = []
    for m in re.finditer(r'<c r="([A-Z]+)(\d+)"([^>]*?)(?:/>|>(.*?)</c>)',
                         x, re.S):
        c, r, attrs, body = col_index(m.group(1)), int(m.group(2)), \
            m.group(3), m.group(4) or ""
        v = re.search(r"<v>([^<]*)</v>", body)
        t = re.search(r"<t[^>]*>([^<]*)</t>", body)
        s_ = re.search(r' s="(\d+)"', attrs)
        if 't="s"' in attrs and v:
            val = strings[int(v.group(1))]
        elif t:
            val = t.group(1)
        else:
            val = None
        if r == 1:
            head[c] = val
            continue
        if val is not None:
            text[c] = max(text.get(c, 0), len(val))
        elif v and head.get(c) in FORMATS:
            f = xf_fmt[int(s_.group(1))] if s_ else "General"
            if f != FORMATS[head[c]]:
                fmt_bad.append("%s%d (%s): %s" % (m.group(1), r, head[c], f))
    short = ["%s %.1f < %d" % (head.get(c), widths.get(c, 0), need)
             for c in range(1, ncols + 1)
             for need in [min(60, max(len(head.get(c) or ""),
                                      text.get(c, 0)))]
             if widths.get(c, 0) < need]
    say(not short and len(widths) >= ncols, name + ": column widths",
        "; ".join(short[:5]) or "%d of %d set" % (len(widths), ncols))
    say(not fmt_bad, name + ": number formats", "; ".join(fmt_bad[:5]))
