# SPDX-License-Identifier: MIT
"""Invariants of a bill of materials written by rackc's bom back end.

    python3 bom_check.py OUTDIR [KEY=VALUE...]

reads OUTDIR/bom.csv and OUTDIR/bom.json and prints one line per case,
"PASS<TAB>name<TAB>detail" or "FAIL<TAB>name<TAB>detail".  The sums are
recomputed here with exact decimals from the lines themselves; nothing is
compared with a number written into this file, except what the options
give:

    nvl72=N      the design holds N GB200 NVL72 racks: the BOM lists their
                 rack part on one line of quantity N and, under it, 18 N
                 compute trays, 9 N NVLink switch trays and 8 N power
                 shelves as its contents (N3: rack contents)
"""
import csv
import json
import sys
from collections import defaultdict
from decimal import Decimal

out = sys.argv[1]
opts = dict(a.split("=", 1) for a in sys.argv[2:])

COLS = ["category", "part", "vendor", "model", "part_number", "description",
        "length_m", "quantity", "in_assembly", "unit_price",
        "extended_price", "currency", "price_source", "missing",
        "estimated"]


def say(ok, name, detail=""):
    print("PASS" if ok else "FAIL", name, detail, sep="\t")


with open(out + "/bom.csv", newline="") as f:
    rd = csv.reader(f)
    header = next(rd)
    rows = [dict(zip(header, r)) for r in rd]
say(header == COLS, "bom.csv columns", ",".join(header))
js = json.load(open(out + "/bom.json"))

lines = [r for r in rows if r["category"] not in ("subtotal", "total")]
sums = [r for r in rows if r["category"] in ("subtotal", "total")]
say(all(not r["quantity"] for r in sums), "no quantity summed across lines")
say(rows[len(lines):] == sums, "subtotals and totals come last")

# prices: extended = unit x quantity, exactly; sums per category/currency
bad = [r["part"] for r in lines if r["unit_price"] and
       Decimal(r["extended_price"]) !=
       Decimal(r["unit_price"]) * int(r["quantity"])]
say(not bad, "extended price = unit price x quantity", ", ".join(bad))
want = defaultdict(Decimal)
for r in lines:
    if r["extended_price"]:
        want["subtotal", r["category"], r["currency"]] += \
            Decimal(r["extended_price"])
        want["total", "", r["currency"]] += Decimal(r["extended_price"])
got = {(r["category"], r["part"], r["currency"]): Decimal(r["extended_price"])
       for r in sums}
say(got == dict(want), "subtotals per category and totals per currency",
    "got %s, want %s" % (sorted(got.items()), sorted(want.items())))
say(all(r["currency"] for r in lines if r["unit_price"]),
    "every price has its currency")

# assemblies: content lines follow their assembly line, without a price
asm_ok = True
current = None
for r in lines:
    if r["in_assembly"]:
        if current is None or (current["part_number"] or current["part"]) \
                != r["in_assembly"] or r["unit_price"]:
            asm_ok = False
    else:
        current = r
say(asm_ok, "assembly contents follow their assembly, unpriced")

# what a line lacks is said, and warned about by name
miss_ok = all(("part number" in r["missing"].split("; ")) ==
              (not r["part_number"]) for r in lines if not r["in_assembly"])
say(miss_ok, "missing says 'part number' exactly when there is none")
warned = all(any(w.startswith(r["part"].split("; ")[0] + " (")
                 for w in js["warnings"]) for r in lines if r["missing"])
say(warned, "every incomplete line has a warning naming its part")

# bom.json has the same lines
jl = js["lines"]
same = len(jl) == len(lines) and all(
    (j["part"], j["part_number"] or "", j["quantity"], j["in_assembly"] or "")
    == (r["part"], r["part_number"], int(r["quantity"]), r["in_assembly"])
    for j, r in zip(jl, lines))
say(same, "bom.json lines = bom.csv lines")

# one part number, one line per length
seen = defaultdict(set)
for r in lines:
    if r["part_number"] and not r["in_assembly"]:
        seen[r["part_number"]].add(r["length_m"])
say(all(len(v) == 1 for v in seen.values()),
    "a part number names one stock length")

if "nvl72" in opts:
    n = int(opts["nvl72"])
    racks = [r for r in lines if r["model"] == "GB200 NVL72"]
    say(len(racks) == 1 and int(racks[0]["quantity"]) == n,
        "NVL72 rack listed once, quantity %d" % n,
        "; ".join("%s x %s" % (r["part"], r["quantity"]) for r in racks))
    key = racks[0]["part_number"] or racks[0]["part"] if racks else None
    inside = defaultdict(int)
    outside = []
    for r in lines:
        if r["in_assembly"] == key:
            inside[r["category"]] += int(r["quantity"])
        elif r["model"] in ("DGX GB200 compute tray", "NVLink 5 switch tray") \
                or r["category"] == "power_shelf":
            outside.append(r["part"])
    say(dict(inside) == {"server": 18 * n, "switch": 9 * n,
                         "power_shelf": 8 * n},
        "NVL72 contents: 18 trays, 9 switch trays, 8 shelves per rack",
        str(dict(inside)))
    say(not outside, "no NVL72 tray or shelf bought apart", ", ".join(outside))
