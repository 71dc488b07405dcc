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
    spares=CAT:PPM:MIN,...
                 the design's spares policies: every part line of category
                 CAT has a spare line of max(MIN, ceil(quantity x PPM /
                 10^6)) of the same part, and no other line has spares
    prices=FILE  the run was given --prices FILE: every line whose part
                 number (or part name, without one) FILE lists has FILE's
                 price, currency and source; every other part line without
                 a catalog price says "price" in missing and is warned about
"""
import csv
import json
import sys
from collections import defaultdict
from decimal import Decimal

out = sys.argv[1]
opts = dict(a.split("=", 1) for a in sys.argv[2:])

COLS = ["kind", "category", "part", "vendor", "model", "part_number", "description",
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
js = json.load(open(out + "/bom.json"), parse_float=Decimal)

lines = [r for r in rows if r["kind"] in ("part", "content", "spare")]
sums = [r for r in rows if r["kind"] in ("subtotal", "total")]
say(len(lines) + len(sums) == len(rows), "every row has a known kind")
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
got = {(r["kind"], r["category"], r["currency"]): Decimal(r["extended_price"])
       for r in sums}
say(got == dict(want), "subtotals per category and totals per currency",
    "got %s, want %s" % (sorted(got.items()), sorted(want.items())))
say(all(r["currency"] for r in lines if r["unit_price"]),
    "every price has its currency")

# assemblies: content lines follow their assembly line, without a price
asm_ok = True
current = None
for r in lines:
    if r["kind"] == "spare":
        continue
    if r["kind"] == "content":
        if current is None or (current["part_number"] or current["part"]) \
                != r["in_assembly"] or r["unit_price"]:
            asm_ok = False
    else:
        current = r
say(asm_ok, "assembly contents follow their assembly, unpriced")
say(all(bool(r["in_assembly"]) == (r["kind"] == "content") for r in lines),
    "in_assembly exactly on content lines")

# what a line lacks is said, and warned about by name
miss_ok = all(("part number" in r["missing"].split("; ")) ==
              (not r["part_number"]) for r in lines if r["kind"] == "part")
say(miss_ok, "missing says 'part number' exactly when there is none")
warned = all(any(w.startswith(r["part"].split("; ")[0] + " (")
                 for w in js["warnings"]) for r in lines if r["missing"])
say(warned, "every incomplete line has a warning naming its part")

# bom.json has the same lines (the CSV neutralises a leading = + - @ with
# a quote, csv.h)


def plain(v):
    return v[1:] if v[:1] == "'" and v[1:2] in ("=", "+", "-", "@") else v


jl = js["lines"]
same = len(jl) == len(lines) and all(
    (j["kind"], j["part"], j["part_number"] or "", j["quantity"],
     j["in_assembly"] or "", j["unit_price"], j["currency"] or "")
    == (r["kind"], r["part"], plain(r["part_number"]), int(r["quantity"]),
        r["in_assembly"], Decimal(r["unit_price"]) if r["unit_price"] else None,
        r["currency"])
    for j, r in zip(jl, lines))
say(same, "bom.json lines = bom.csv lines")

# one part number, one line per length
seen = defaultdict(set)
for r in lines:
    if r["part_number"] and r["kind"] == "part":
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

parts = [r for r in lines if r["kind"] == "part"]
spare = [r for r in lines if r["kind"] == "spare"]
policy = {}
for p in filter(None, opts.get("spares", "").split(",")):
    cat, ppm, mn = p.split(":")
    policy[cat] = (int(ppm), int(mn))
want = []
for r in parts:
    if r["category"] in policy:
        ppm, mn = policy[r["category"]]
        n = max(mn, -(-int(r["quantity"]) * ppm // 10**6))
        if n:
            want.append((r["part"], r["part_number"], r["length_m"], n))
got = [(r["part"], r["part_number"], r["length_m"], int(r["quantity"]))
       for r in spare]
say(sorted(got) == sorted(want), "spare lines follow the policy",
    "got %s, want %s" % (got, want))
say(all(r["in_assembly"] == "" for r in spare), "no spares of contents")

if "prices" in opts:
    with open(opts["prices"], newline="") as f:
        plist = {r["part_number"]: r for r in csv.DictReader(f)}
    ok = True
    bad = []
    for r in parts + spare:
        e = plist.get(r["part_number"] or r["part"])
        if e:
            if (Decimal(r["unit_price"]), r["currency"], r["price_source"]) \
                    != (Decimal(e["unit_price"]), e["currency"], e["source"]):
                bad.append(r["part"])
        elif not r["unit_price"]:
            if "price" not in r["missing"].split("; "):
                bad.append(r["part"])
    say(not bad, "price-list prices applied, unpriced lines say so",
        ", ".join(bad))
    used = sum(1 for r in parts if (r["part_number"] or r["part"]) in plist)
    say(used > 0, "the price list prices some lines", str(used))
    say(all(any(w.startswith(r["part"].split("; ")[0] + " (") and
                w.endswith("no price") for w in js["warnings"])
            for r in parts if not r["unit_price"]),
        "every unpriced line is warned about")
