#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cabling work order of `rackc diff`, computed again from the two
sides' cabling.csv and compared with the diff's JSON.

    diff_check.py NAME OLD.csv NEW.csv DIFF.json

The rules, from the documentation (doc/review.md, "Change review", src/diff/diff.c):
cables are matched by ID (a repeated ID is "ID/2", "ID/3" in file order);
a cable on both sides is re-pulled when a rack or U of either end changed,
else kept when only its stock length changed (part, media and
transceivers as they were) and the old stock length is at least the new
computed length (relabelled if its label changed, else listed as kept),
else replaced when its part, transceivers or stock length changed, else
relabelled when its label changed.  A removed cable that shares an end
("device.port") with an added cable of the same fabric is re-pulled to it
instead: removed cables in ID order, each taking the first added cable in
ID order not taken yet.  The rest are added or removed.  Each item is
listed under the rack of each end (a pair: of the old cable's ends and the
new one's), "(not in a rack)" for none, once per rack; rows sorted by
rack, action, cable ID and new cable ID.  ID order compares runs of
digits by their value.

Prints PASS/FAIL lines (tests/lib.sh py_results counts them).
"""
import csv
import json
import re
import sys


def natural(key):
    """A sort key in which runs of digits compare by value (leading zeros
    dropped, then the run's length decides, then its digits); equal keys
    by their bytes."""
    out = bytearray()
    for run in re.findall(rb"[0-9]+|[^0-9]", key.encode()):
        if run[:1].isdigit():
            digits = run.lstrip(b"0") or b"0"
            out += b"0" + bytes([len(digits)]) + digits
        else:
            out += run
    return (bytes(out), key.encode())


def load(path):
    cables, seen = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            cid = row.get("cable_id", "")
            if not cid:
                continue
            seen[cid] = seen.get(cid, 0) + 1
            if seen[cid] > 1:
                cid = "%s/%d" % (cid, seen[cid])
            cables[cid] = row
    return cables


def metres(s):
    """Decimal metres as micrometres (exact)."""
    whole, _, frac = s.partition(".")
    return int(whole) * 1000000 + int((frac + "000000")[:6])


def racks(c):
    return {c["a_rack"] or "(not in a rack)", c["b_rack"] or "(not in a rack)"}


def ends(c):
    return ["%s.%s" % (c["a_device"], c["a_port"]),
            "%s.%s" % (c["b_device"], c["b_port"])]


def work(old, new):
    rows, counts = set(), {}

    def put(action, cid, new_id, where):
        counts[action] = counts.get(action, 0) + 1
        for r in where:
            rows.add((r, action, cid, new_id))

    gone = sorted((k for k in old if k not in new), key=natural)
    born = sorted((k for k in new if k not in old), key=natural)
    for k in old:
        if k not in new:
            continue
        o, n = old[k], new[k]
        if any(o[f] != n[f] for f in ("a_rack", "a_u", "b_rack", "b_u")):
            put("re-pull", k, "", racks(n))
        elif (all(o[f] == n[f] for f in ("part", "a_transceiver",
                                         "b_transceiver", "media")) and
              o["length_m"] != n["length_m"] and
              metres(o["length_m"]) >= metres(n["computed_length_m"])):
            counts["kept"] = counts.get("kept", 0) + 1
            put("relabel" if o["label"] != n["label"] else "keep", k, "",
                racks(n))
        elif any(o[f] != n[f] for f in ("part", "a_transceiver",
                                         "b_transceiver", "length_m")):
            put("replace", k, "", racks(n))
        elif o["label"] != n["label"]:
            put("relabel", k, "", racks(n))
    taken = set()
    for g in gone:
        o = old[g]
        hit = None
        for b in born:
            if b in taken or new[b]["fabric"] != o["fabric"]:
                continue
            if set(ends(o)) & set(ends(new[b])):
                hit = b
                break
        if hit is not None:
            taken.add(hit)
            put("re-pull", g, hit, racks(o) | racks(new[hit]))
        else:
            put("remove", g, "", racks(o))
    for b in born:
        if b not in taken:
            put("add", b, "", racks(new[b]))
    return rows, counts


def main():
    name, old_csv, new_csv, diff_json = sys.argv[1:5]
    old, new = load(old_csv), load(new_csv)
    want, counts = work(old, new)
    with open(diff_json) as f:
        d = json.load(f)
    got = [(r["rack"], r["action"], r["cable_id"], r["new_cable_id"])
           for r in d.get("cabling", [])]
    ok = True

    def check(what, cond, detail=""):
        nonlocal ok
        if not cond:
            ok = False
            print("FAIL\t%s/%s\t%s" % (name, what, detail))

    check("rows", set(got) == want,
          "%d rows, %d expected; missing %s, extra %s" % (
              len(got), len(want), sorted(want - set(got))[:3],
              sorted(set(got) - want)[:3]))
    check("once", len(got) == len(set(got)), "a row twice")
    key = [(r.encode(), a.encode(), c.encode(), n.encode())
           for r, a, c, n in got]
    check("order", key == sorted(key), "rows not in order")
    summary = {r["what"]: int(r["count"]) for r in d.get("summary", [])}
    for action, what in (("add", "cables to add"),
                         ("remove", "cables to remove"),
                         ("re-pull", "cables to re-pull"),
                         ("replace", "cables to replace"),
                         ("relabel", "cables to relabel"),
                         ("kept",
                          "cables kept (the old length still reaches)")):
        check("summary", summary.get(what, 0) == counts.get(action, 0),
              "%s: %d, expected %d" % (what, summary.get(what, 0),
                                       counts.get(action, 0)))
    # per rack and action, the figures a work order is read by
    per = {}
    for r, a, _, _ in want:
        per[(r, a)] = per.get((r, a), 0) + 1
    if ok:
        print("PASS\t%s\t%d rows in %d racks; %s" % (
            name, len(got), len({r for r, _ in per}),
            ", ".join("%s %d" % (a, counts[a]) for a in sorted(counts))))


main()
