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
"""
import csv
import re
import sys

LIMIT = 40


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
            want = (f"{k // 2 + 1}/{k % 2 + 1}" if m.group(1) == "p"
                    else f"OSFP{k // 2 + 1}P{k % 2 + 1}")
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

    for w, n, dt in out:
        print(f"{w}\t{n}\t{dt}")


main()
