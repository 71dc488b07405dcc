#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Growth of a fat tree between two cabling.csv files (tests/growth.sh).

growth_check.py OLD.csv NEW.csv MODE
growth_check.py --adds-only DIFF.json   (rackc diff -f json OLD NEW)
MODE all:   every cable of OLD that is not a leaf-spine cable the spine
            count forces to move is in NEW with the same ID and ends
MODE fabric: only the fat trees' cables to their spines are compared
For every fat tree, the leaf-spine cables that move (the spine end
changes) must number exactly the minimum of src/fabric.c:
  sum over old leaves l, old spines s of max(0, cnt_a(l,s) - spread_b(l,s))
where cnt_a(l,s) is what leaf l cables to spine s in OLD (spread_a(l,s)
for a full leaf; L_a*U*(1 - S_a/S_b) when every old leaf is full and S_b
divides U, checked too), and each leaf's spread over the spines must be
the round-robin one: its first n of U uplinks for a leaf that cables n
(a leaf with fewer endpoints than U, which leaves the other spine ports
free).  Prints one line per
fabric; exits 1 on the first violation.
--adds-only: a growth within the provisioned size only adds: every
device of the diff is added (none moved, changed or removed) and every
cable of its work order is to add (none to re-pull, relabel or remove).
"""
import json
import csv
import re
import sys
from collections import Counter, defaultdict


def load(path):
    rows = list(csv.DictReader(open(path, newline="")))
    cables = {}
    for r in rows:
        a = (r["a_device"], r["a_port"])
        b = (r["b_device"], r["b_port"])
        cables[(r["fabric"],) + tuple(sorted([a, b]))] = r["cable_id"]
    return rows, cables


def idx(name, tier):
    m = re.search(r"\.%s\[(\d+)\]$" % tier, name)
    return int(m.group(1)) if m else None


def uplinks(rows):
    """fabric -> {(leaf, port): (spine, port)}"""
    up = defaultdict(dict)
    for r in rows:
        a = (r["a_device"], r["a_port"])
        b = (r["b_device"], r["b_port"])
        if idx(a[0], "spine") is not None and idx(b[0], "leaf") is not None:
            a, b = b, a
        if idx(a[0], "leaf") is not None and idx(b[0], "spine") is not None:
            up[r["fabric"]][a] = b
    return up


def spread(l, s, U, S, n=None):
    return sum(1 for j in range(U if n is None else n)
               if (l * U + j) % S == s)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def adds_only(path):
    d = json.load(open(path))
    dev = Counter(r["change"] for r in d["devices"])
    work = Counter(r["action"] for r in d["cabling"])
    for r in d["devices"]:
        if r["change"] != "added":
            fail("device %s %s (%s %s -> %s %s)" % (
                r["device"], r["change"], r["rack_before"], r["u_before"],
                r["rack_after"], r["u_after"]))
    for r in d["cabling"]:
        if r["action"] != "add":
            fail("cable %s: %s %s (%s)" % (r["cable_id"], r["action"],
                                           r["cable"], r["detail"]))
    print("ok: only additions: %d devices, %d work-order rows (a cable "
          "per rack it ends in)" % (dev["added"], work["add"]))


def main():
    if sys.argv[1] == "--adds-only":
        adds_only(sys.argv[2])
        return
    old_rows, old = load(sys.argv[1])
    new_rows, new = load(sys.argv[2])
    mode = sys.argv[3]
    up_a, up_b = uplinks(old_rows), uplinks(new_rows)
    moved_keys = set()
    for fab in sorted(up_a):
        A, B = up_a[fab], up_b[fab]
        La = len({k[0] for k in A})
        n_a = Counter(idx(k[0], "leaf") for k in A)
        n_b = Counter(idx(k[0], "leaf") for k in B)
        U = max(list(n_a.values()) + list(n_b.values()))
        Sa = len({v[0] for v in A.values()})
        Sb = len({v[0] for v in B.values()})
        for tag, X, S, n in (("old", A, Sa, n_a), ("new", B, Sb, n_b)):
            cnt = Counter((idx(k[0], "leaf"), idx(v[0], "spine"))
                          for k, v in X.items())
            for l in n:
                for s in range(S):
                    want = spread(l, s, U, S, n[l])
                    if cnt[(l, s)] != want:
                        fail("%s %s: leaf %d has %d uplinks on spine %d, "
                             "round robin gives %d" % (fab, tag, l, cnt[(l, s)],
                                                       s, want))
        moved = [k for k in A if B.get(k) != A[k]]
        for k in moved:
            moved_keys.add((fab,) + tuple(sorted([k, A[k]])))
        minimum = sum(max(0, spread(l, s, U, Sa, n_a[l]) - spread(l, s, U, Sb))
                      for l in n_a for s in range(Sa))
        if (U % Sb == 0 and all(v == U for v in n_a.values())
                and minimum * Sb != La * U * (Sb - Sa)):
            fail("%s: the minimum %d is not L*U*(1-Sa/Sb)" % (fab, minimum))
        print("%s: %d leaves x %d uplinks, spines %d -> %d: %d moved, "
              "minimum %d" % (fab, La, U, Sa, Sb, len(moved), minimum))
        if len(moved) != minimum:
            fail("%s: %d leaf-spine cables moved, the minimum is %d"
                 % (fab, len(moved), minimum))
    for key, cid in old.items():
        if key in moved_keys:
            continue
        if mode == "fabric" and (key[0] not in up_a or not any(
                idx(e[0], "spine") is not None for e in key[1:])):
            continue
        if key not in new:
            fail("cable %s %s is gone" % (cid, key))
        if new[key] != cid:
            fail("cable %s %s is %s now" % (cid, key, new[key]))
    print("ok: %d cables kept their ID and ends" % (len(old) - len(moved_keys)))


main()
