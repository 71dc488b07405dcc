#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cable labels and the patch schedule of one rackc -O cabling run.

labels_check.py DIR: reads DIR/cabling.csv and DIR/cabling/patch.csv and
prints one line per case, "PASS<TAB>case<TAB>detail" or "FAIL<TAB>...":

  label-length   every label is at most 40 characters (the one-line limit)
  label-ends     every label holds both ends' faceplate names as the patch
                 schedule gives them
  faceplate      every QM9700-style switch port p[k] reads cage/port
                 "(k//2+1)/(k%2+1)", every DGX compute port ib[k]
                 "OSFP(k//2+1)P(k%2+1)", computed here from the index
  patch-both     each cable appears exactly twice in the patch schedule,
                 once under the rack of each end, that end first
  patch-order    the schedule is grouped by rack, port by port (U ascending)
  stock-length   every cable of a part with stock lengths is ordered in the
                 shortest stock length that holds its longest leg (legs of
                 one twin-port cable share its id), with that length's part
                 number, both read here from the catalog source (std/*.rack)
                 and not from rackc; a cable of a part without stock
                 lengths keeps its computed length
  nvl72-u        every GB200 NVL72 compute tray cable end is at the U the
                 rack part places the tray (tray t: U11 + t below the switch
                 trays, U20 + t above them, t >= 8), and the label carries it

labels_check.py DIR [STD]: STD is the catalog directory (default "std").

labels_check.py --nvl72-devices DEVICES.csv: the U of every device of a
GB200 NVL72 rack in a NetBox devices import file (NetBox's `position`
column), against the layout std/nvidia.rack documents, worked out here:

  nvl72-layout   compute tray t at U11 + t (t < 8) or U20 + t, NVLink
                 switch tray s at U19 + s, power shelf k at U7 + k (k < 4)
                 or U34 + k, and no two 1U devices of a rack in one U
"""
import csv
import glob
import re
import sys
from decimal import Decimal

LIMIT = 40


def stock_tables(std):
    """part -> (stock lengths in metres, part numbers or None), parsed from
    the `lengths [...]` and `part_numbers [...]` lines of every part block
    in the catalog source."""
    tab = {}
    for path in sorted(glob.glob(std + "/*.rack")):
        part = None
        for line in open(path, encoding="utf-8"):
            m = re.match(r"part (\w+)\s*:", line)
            if m:
                part = m.group(1)
                continue
            m = re.match(r"\s*lengths \[([^]]*)\]", line)
            if m and part:
                ls = [Decimal(x.strip()[:-1]) for x in m.group(1).split(",")]
                tab[part] = (ls, None)
            m = re.match(r"\s*part_numbers \[([^]]*)\]", line)
            if m and part:
                pns = re.findall(r'"([^"]*)"', m.group(1))
                tab[part] = (tab[part][0], pns)
    return tab


def main():
    d = sys.argv[1]
    cab = list(csv.DictReader(open(d + "/cabling.csv", newline="")))
    patch = list(csv.DictReader(open(d + "/cabling/patch.csv", newline="")))
    out = []

    def case(name, bad, detail):
        out.append(("FAIL" if bad else "PASS", name,
                    bad[0] if bad else detail))

    bad = [f"{r['cable_id']}: {len(r['label'])} chars: {r['label']}"
           for r in cab if len(r["label"]) > LIMIT]
    case("label-length", bad, f"{len(cab)} labels <= {LIMIT}")

    # faceplate names from the index, independently of rackc
    fp = {}
    bad = []
    nchk = 0
    for r in patch:
        for dev, port, face in ((r["device"], r["port"], r["faceplate"]),
                                (r["far_device"], r["far_port"],
                                 r["far_faceplate"])):
            fp[(dev, port)] = face
            m = re.fullmatch(r"(p|ib)\[(\d+)\]", port)
            if not m or face == port:
                continue
            k = int(m.group(2))
            if m.group(1) == "p" and "/" not in face:
                # a switch whose cages are not split (SN5600 at 800G):
                # port p[k] is cage k + 1
                want = f"{k + 1}"
            elif m.group(1) == "p":
                want = f"{k // 2 + 1}/{k % 2 + 1}"
            elif ".tray[" in dev:
                # GB200 compute tray (N18): the ConnectX-7 ports are P3
                # and P4 of the left bay (ib[0], ib[1]) and the right bay
                want = f"{'left' if k < 2 else 'right'} P{3 + k % 2}"
            else:
                want = f"OSFP{k // 2 + 1}P{k % 2 + 1}"
            nchk += 1
            if face != want:
                bad.append(f"{dev}.{port}: {face}, expected {want}")
    case("faceplate", bad, f"{nchk} faceplate names")

    bad = []
    for r in cab:
        a = fp.get((r["a_device"], r["a_port"]))
        b = fp.get((r["b_device"], r["b_port"]))
        if a is None or b is None:
            continue
        lab = r["label"]
        ia = lab.find(" " + a + ">")
        if ia < 0 or not lab.endswith(" " + b):
            bad.append(f"{r['cable_id']}: '{lab}' lacks {a} or {b}")
    case("label-ends", bad, f"{len(cab)} labels")

    seen = {}
    for r in patch:
        seen.setdefault(r["cable_id"], []).append(r)
    bad = []
    for r in cab:
        if not r["a_rack"] or not r["b_rack"]:
            continue
        rows = seen.get(r["cable_id"], [])
        want = sorted([(r["a_rack"], r["a_device"], r["a_port"],
                        r["b_rack"], r["b_device"], r["b_port"]),
                       (r["b_rack"], r["b_device"], r["b_port"],
                        r["a_rack"], r["a_device"], r["a_port"])])
        got = sorted((x["rack"], x["device"], x["port"], x["far_rack"],
                      x["far_device"], x["far_port"]) for x in rows)
        # legs of one twin-port cable share an id: compare as multisets
        if not set(want) <= set(got) or len(got) % 2:
            bad.append(f"{r['cable_id']}: {got} vs {want}")
    ids = {r["cable_id"] for r in cab}
    extra = [k for k in seen if k not in ids]
    if extra:
        bad.append(f"patch ids not in cabling.csv: {extra[:3]}")
    n_ends = sum(1 for r in cab if r["a_rack"]) + \
        sum(1 for r in cab if r["b_rack"])
    if n_ends != len(patch):
        bad.append(f"{len(patch)} patch rows, {n_ends} cable ends")
    case("patch-both", bad, f"{len(patch)} rows, {len(cab)} cables")

    bad = []
    order = []
    for r in patch:
        if not order or order[-1] != r["rack"]:
            if r["rack"] in order:
                bad.append(f"rack {r['rack']} not contiguous")
                break
            order.append(r["rack"])
    prev = None
    for r in patch:
        key = (r["rack"], int(r["u"]) if r["u"] else -1)
        if prev and prev[0] == key[0] and key[1] < prev[1]:
            bad.append(f"{r['rack']}: U {key[1]} after U {prev[1]}")
            break
        prev = key
    case("patch-order", bad, f"{len(order)} racks")

    # stock lengths: the shortest stock length >= the longest leg
    tab = stock_tables(sys.argv[2] if len(sys.argv) > 2 else "std")
    legs = {}
    for r in cab:
        if r["computed_length_m"]:
            legs.setdefault(r["cable_id"], []).append(r)
    bad = []
    nstock = 0
    for cid, rows in legs.items():
        part = rows[0]["part"]
        longest = max(Decimal(r["computed_length_m"]) for r in rows)
        if part not in tab:
            for r in rows:
                if Decimal(r["length_m"]) != Decimal(r["computed_length_m"]):
                    bad.append(f"{cid}: {part} has no stock lengths, "
                               f"{r['length_m']} != {r['computed_length_m']}")
            continue
        ls, pns = tab[part]
        fits = [x for x in ls if x >= longest]
        for r in rows:
            nstock += 1
            if not fits:
                bad.append(f"{cid}: {part}: {longest} m exceeds every stock "
                           f"length, yet ordered {r['length_m']}")
                continue
            want = min(fits)
            if Decimal(r["length_m"]) != want:
                bad.append(f"{cid}: {part}: ordered {r['length_m']} m for "
                           f"{longest} m, expected {want}")
            if pns and r["part_number"] != pns[ls.index(want)]:
                bad.append(f"{cid}: part number {r['part_number']}, "
                           f"expected {pns[ls.index(want)]}")
    case("stock-length", bad, f"{nstock} cable legs of stocked parts")

    # NVL72 compute trays: their U, from the rack part's layout
    bad = []
    nu = 0
    for r in cab:
        for end in ("a", "b"):
            m = re.search(r"\.tray\[(\d+)\]$", r[end + "_device"])
            if not m or "nvl72" not in r[end + "_rack"]:
                continue
            t = int(m.group(1))
            want = 11 + t if t < 8 else 20 + t
            nu += 1
            if r[end + "_u"] != str(want) or f"U{want} " not in \
                    r["label"] + " ":
                bad.append(f"{r['cable_id']}: {r[end + '_device']} at "
                           f"U{r[end + '_u']}, expected U{want}: "
                           f"{r['label']}")
    case("nvl72-u", bad, f"{nu} tray cable ends")

    for w, n, dt in out:
        print(f"{w}\t{n}\t{dt}")


def nvl72_devices(path):
    rows = list(csv.DictReader(open(path, newline="")))
    bad = []
    n = 0
    used = {}
    for r in rows:
        if "nvl72" not in r["rack"]:
            continue
        m = re.search(r"\.(tray|nvsw|ps)\[(\d+)\]$", r["name"])
        if not m:
            continue
        i = int(m.group(2))
        want = {"tray": 11 + i if i < 8 else 20 + i, "nvsw": 19 + i,
                "ps": 7 + i if i < 4 else 34 + i}[m.group(1)]
        n += 1
        if r["position"] != str(want):
            bad.append(f"{r['name']} at U{r['position']}, expected U{want}")
        key = (r["rack"], r["position"])
        if key in used:
            bad.append(f"{r['name']} and {used[key]} both in U{key[1]}")
        used[key] = r["name"]
    racks = len({k[0] for k in used})
    if n != 35 * racks or not racks:
        bad.append(f"{n} NVL72 trays and shelves in {racks} racks, "
                   f"expected 35 per rack")
    print(f"{'FAIL' if bad else 'PASS'}\tnvl72-layout\t"
          f"{bad[0] if bad else f'{n} devices in {racks} racks'}")


if len(sys.argv) == 3 and sys.argv[1] == "--nvl72-devices":
    nvl72_devices(sys.argv[2])
else:
    main()
