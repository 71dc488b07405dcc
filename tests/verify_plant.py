#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plant cabling faults in an InfiniBand net file (ibsim's format, as
`rackc -O ibnet` writes it) and say which findings `rackc verify` must
report for them.

    verify_plant.py plant NET CABLING.csv SEED OUT.net EXPECTED
    verify_plant.py found VERIFY.json
    verify_plant.py found-ends VERIFY.json

`plant` draws, with a generator seeded by SEED, the faults a technician
makes: two cables swapped (their far ends crossed), one unplugged, one
moved to another port of the same switch (a free one, or, in a full
switch, the port an unplugged cable left), one added between two free
ports (not between the unplugged cable's two devices, which would be that
cable moved at both ends), and one link degraded to a lower rate; it writes the faulty net file
(each link at both ends) and the findings, one a line, sorted:

    swapped ID1 ID2          (IDs sorted)
    missing ID
    wrong-port ID
    wrong-rate ID
    unplanned DEV PORT -- DEV PORT   (ends sorted)

The cable IDs come from cabling.csv by the two ports' rackc names (the
"# [N] device.port" comments of the net file); a port no cable plugs into
is named as rackc verify names a port the plan lacks ("IB port N of
'DESC'").  The faults are drawn so that each has one reading: no two touch
the same port or link, a moved or added end never lands on a device the
planned cable's other end is on, and so on; the two swapped cables join the same kinds of node (both a
host to a switch, or both two switches).  `found` prints the same lines
from `rackc verify --format=json` output; `found-ends` names each cable
by its two ends ("DEV PORT -- DEV PORT", design port names, sorted) instead
of its ID, for expectations written by hand.
"""

import csv
import json
import random
import re
import sys

HEADER = re.compile(r'^(Switch|Hca|Ca)\s+(\d+)\s+"([^"]+)"\s*(?:#\s*"([^"]*)")?')
PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]\s*(?:#.*?(\d+x[A-Z0-9]+))?\s*$')
NAME = re.compile(r'^# \[(\d+)\] (\S+)$')


def read_net(path):
    nodes, names, links, rate = [], {}, {}, {}
    pending, me = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = NAME.match(line)
        if m:
            pending[int(m.group(1))] = m.group(2)
            continue
        m = HEADER.match(line)
        if m:
            me = m.group(3)
            nodes.append((m.group(1), int(m.group(2)), me,
                          m.group(4) if m.group(4) is not None else me))
            for p, n in pending.items():
                names[(me, p)] = n
            pending = {}
            continue
        m = PORT.match(line)
        if m and me:
            a, b = (me, int(m.group(1))), (m.group(2), int(m.group(3)))
            links[a] = b
            rate[a] = m.group(4) or "4xSDR"
    return nodes, names, links, rate


def dev_of(node):
    return node.split("/")[0]


def main_plant(net, plan, seed, out, expected):
    rng = random.Random(int(seed))
    nodes, names, links, rate = read_net(net)
    kinds = {n[2]: n for n in nodes}
    desc = {n[2]: n[3] for n in nodes}
    cable = {}
    with open(plan, newline="") as f:
        for r in csv.DictReader(f):
            a = r["a_device"] + "." + r["a_port"]
            b = r["b_device"] + "." + r["b_port"]
            cable[frozenset((a, b))] = r["cable_id"]

    def cid(a, b):
        return cable[frozenset((names[a], names[b]))]

    def pname(e):
        if e in names:
            return "%s %s" % (dev_of(e[0]), names[e][len(dev_of(e[0])) + 1:])
        return "%s IB port %d of '%s'" % (dev_of(e[0]), e[1], desc[e[0]])

    pairs = sorted({tuple(sorted((a, b))) for a, b in links.items()})
    free = sorted((n[2], p) for n in nodes for p in range(1, n[1] + 1)
                  if (n[2], p) not in links)
    used = set()  # ports a fault touched
    faults = []
    new = dict(links)
    newrate = dict(rate)

    def take(cands):
        cands = [c for c in cands if not (set(c) & used)]
        if not cands:
            return None
        c = rng.choice(cands)
        used.update(c)
        return c

    def unlink(a):
        b = new.pop(a)
        del new[b]

    def link(a, b, r):
        new[a], new[b] = b, a
        newrate[a] = newrate[b] = r

    # swapped: two cables, their second ends crossed
    l1 = take(pairs)
    # the other of the same kind (switch to switch, or to a host)
    sort_of = [kinds[e[0]][0] for e in l1]
    l2 = take([p for p in pairs
               if p[0][0] not in (l1[0][0], l1[1][0])
               and p[1][0] not in (l1[0][0], l1[1][0])
               and [kinds[e[0]][0] for e in p] == sort_of])
    (a1, b1), (a2, b2) = l1, l2
    r1 = rate[a1]
    unlink(a1)
    unlink(a2)
    link(a1, b2, r1)
    link(a2, b1, r1)
    faults.append("swapped %s" % " ".join(sorted((cid(a1, b1),
                                                    cid(a2, b2)))))
    # moved: one end to another port of its switch, a free one, else the
    # port of the unplugged cable (drawn on that switch then); unplugged
    moved, l3 = None, None
    for l4 in rng.sample(pairs, len(pairs)):
        if set(l4) & used:
            continue
        for k in (0, 1):
            x, y = l4[k], l4[1 - k]
            if kinds[y[0]][0] != "Switch":
                continue
            spots = [p for p in free if p[0] == y[0] and p not in used]
            if spots:
                moved = (x, y, rng.choice(spots))
                break
            # the unplugged cable's far end must not be on x's device,
            # or the move would read as that cable's wrong port
            outs = [p for p in pairs if not (set(p) & used) and p != l4
                    and any(e[0] == y[0] for e in p)
                    and all(dev_of(e[0]) != dev_of(x[0])
                            for e in p if e[0] != y[0])]
            if outs:
                l3 = rng.choice(outs)
                used.update(l3)
                moved = (x, y, l3[0] if l3[0][0] == y[0] else l3[1])
                break
        if moved:
            break
    if l3 is None:
        l3 = take(pairs)
    unlink(l3[0])
    faults.append("missing %s" % cid(*l3))
    freed = [l3[0], l3[1]]
    if moved:
        x, y, t = moved
        used.update((x, y, t))
        r = rate[x]
        unlink(x)
        link(x, t, r)
        faults.append("wrong-port %s" % cid(x, y))
    # added: between two free ports of different devices
    spare = [p for p in free + freed if p not in used and p not in new]
    added = None
    for _ in range(200):
        if len(spare) < 2:
            break
        u, w = rng.sample(spare, 2)
        if dev_of(u[0]) == dev_of(w[0]):
            continue
        # a freed port's planned far end must not be on the other's device
        if u in links and dev_of(links[u][0]) == dev_of(w[0]):
            continue
        if w in links and dev_of(links[w][0]) == dev_of(u[0]):
            continue
        if u in links and w in links and links[u] == w:
            continue
        # nor join the unplugged cable's two devices: that reads as the
        # cable moved at both ends
        if {dev_of(u[0]), dev_of(w[0])} == {dev_of(e[0]) for e in l3}:
            continue
        added = (u, w)
        break
    if added:
        u, w = added
        used.update(added)
        link(u, w, "4xHDR" if "HDR" in rate.get(u, "4xHDR") else
             next(iter(rate.values())))
        faults.append("unplanned %s" % " -- ".join(sorted((pname(u),
                                                           pname(w)))))
    # degraded: a cable up at a lower speed
    l5 = take([p for p in pairs if p[0] in new and new[p[0]] == p[1]])
    if l5:
        m = re.match(r"(\d+)x(\w+)", rate[l5[0]])
        ladder = ["SDR", "DDR", "QDR", "FDR", "EDR", "HDR"]
        if m and m.group(2) in ladder and ladder.index(m.group(2)) > 0:
            low = "%sx%s" % (m.group(1), ladder[ladder.index(m.group(2)) - 1])
            newrate[l5[0]] = newrate[l5[1]] = low
            faults.append("wrong-rate %s" % cid(*l5))
    with open(out, "w") as f:
        for kind, n, me, d in nodes:
            f.write('%s\t%d "%s"\t# "%s"%s\n' % (
                kind, n, me, d, " enhanced port 0" if kind == "Switch"
                else ""))
            for p in range(1, n + 1):
                if (me, p) in new:
                    b = new[(me, p)]
                    f.write('[%d]\t"%s"[%d]\t# lid 0 %s\n'
                            % (p, b[0], b[1], newrate[(me, p)]))
            f.write("\n")
    with open(expected, "w") as f:
        for line in sorted(faults):
            f.write(line + "\n")


def end_name(e):
    return "%s %s" % (e["device"], e["port"])


def main_found(path, ends=False):
    out = []
    for fd in json.load(open(path))["findings"]:
        k = fd["kind"]
        if k == "unplanned":
            o = fd["found"][0]
            out.append("unplanned %s" % " -- ".join(
                sorted((end_name(o["a"]), end_name(o["b"])))))
        elif k == "unknown-device":
            out.append("unknown-device %s" % fd["name"])
        elif ends:
            out.append("%s %s" % (k, "; ".join(sorted(
                " -- ".join(sorted((end_name(c["a"]), end_name(c["b"]))))
                for c in fd["cables"]))))
        else:
            out.append("%s %s" % (k, " ".join(sorted(c["id"] for c in
                                                    fd["cables"]))))
    for line in sorted(out):
        print(line)


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "plant":
        main_plant(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "found":
        main_found(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "found-ends":
        main_found(sys.argv[2], True)
    else:
        sys.exit("usage: verify_plant.py plant NET CABLING SEED OUT EXPECTED"
                 " | found VERIFY.json")
