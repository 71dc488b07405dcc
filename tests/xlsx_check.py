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
    device categories, per part (the racks sheet lists placed devices).
"""
import csv
import sys
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
