#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cable lists for comparing an InfiniBand plan with what ibnetdiscover
finds (ibnetdiscover's topology output), by rackc port name.

    ib_links.py discovered DISCOVERY NETFILE   ibnetdiscover output
    ib_links.py planned NETFILE                the net file's own port lines
    ib_links.py cabling CABLING.csv NETFILE    rackc's cabling plan
    ib_links.py engine NETFILE                 the OpenSM routing engine
                                               the subnet must route with

The first three print one line per cable, "A B" with A < B, where A and B
are rackc port names (device.port), sorted.  The net file written by `rackc -O ibnet`
is read for its node descriptions and the "# [N] device.port" comment lines
before each record, which name the IB ports; the cabling plan is read for
its a_device, a_port, b_device and b_port columns, keeping the cables that
touch a port of this net file.  Exit status 2 on malformed input.
"""

import csv
import re
import sys

HEADER = re.compile(r'^(Switch|Hca|Ca|Rt)\s+(\d+)\s+"([^"]+)"\s*(?:#\s*"([^"]*)")?')
PORT = re.compile(r'^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s+"([^"]+)"\[(\d+)\]'
                  r'(?:\([0-9a-fA-F]+\))?\s*(?:#[^"]*"([^"]*)")?')
NAME = re.compile(r'^# \[(\d+)\] (\S+)$')


def die(msg):
    print("ib_links.py: " + msg, file=sys.stderr)
    sys.exit(2)


def read_net(path):
    """Return (by_id, by_desc, lines): port names per node id and per node
    description, and the net file's (id, port, peer id, peer port) lines."""
    by_id, by_desc, lines = {}, {}, []
    pending, me = {}, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = NAME.match(line)
            if m:
                pending[int(m.group(1))] = m.group(2)
                continue
            m = HEADER.match(line)
            if m:
                me = m.group(3)
                desc = m.group(4) if m.group(4) is not None else me
                if me in by_id:
                    die("%s: node id %s twice" % (path, me))
                if desc in by_desc:
                    die("%s: node description %r twice" % (path, desc))
                by_id[me] = pending
                by_desc[desc] = pending
                pending = {}
                continue
            m = PORT.match(line)
            if m and me is not None:
                lines.append((me, int(m.group(1)), m.group(2),
                              int(m.group(3))))
    return by_id, by_desc, lines


def name_of(table, node, port):
    names = table.get(node)
    if names is None or port not in names:
        return "%s[%d]?" % (node, port)  # shows up in the diff
    return names[port]


def cable(a, b):
    return "%s %s" % (a, b) if a < b else "%s %s" % (b, a)


def discovered(disc, net):
    _, by_desc, _ = read_net(net)
    out, me = set(), None
    with open(disc) as f:
        for line in f:
            line = line.rstrip("\n")
            m = HEADER.match(line)
            if m:
                me = m.group(4) if m.group(4) is not None else m.group(3)
                continue
            m = PORT.match(line)
            if m and me is not None:
                peer = m.group(4)
                if peer is None:
                    die("%s: port line without a peer description: %s"
                        % (disc, line))
                out.add(cable(name_of(by_desc, me, int(m.group(1))),
                              name_of(by_desc, peer, int(m.group(3)))))
    return out


def planned(net):
    by_id, _, lines = read_net(net)
    return {cable(name_of(by_id, a, pa), name_of(by_id, b, pb))
            for a, pa, b, pb in lines}


def cabling(path, net):
    by_id, _, _ = read_net(net)
    ports = {n for names in by_id.values() for n in names.values()}
    out = set()
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        need = ("a_device", "a_port", "b_device", "b_port")
        if rows.fieldnames is None or any(c not in rows.fieldnames
                                          for c in need):
            die("%s: no %s columns" % (path, ", ".join(need)))
        for r in rows:
            a = r["a_device"] + "." + r["a_port"]
            b = r["b_device"] + "." + r["b_port"]
            if a in ports or b in ports:
                out.add(cable(a, b))
    return out


def engine(net):
    """("ftree" or "updn" or "none", why): "ftree" for a uniform fat tree
    as OpenSM's ftree engine validates one (fabric_validate_topology), from
    the net file alone: the leaves are the switches with an HCA, tiers
    counted up from them; no link joins two switches of one tier; a port
    group is a switch's ports to one neighbour switch; in each tier every
    switch has as many upward groups as the others, and (above the leaves)
    as many downward ones, and every group of the tier in one direction
    has the same number of ports.  Else "updn", which routes any subnet
    whose switches are connected; "none" for a single switch."""
    by_id, _, lines = read_net(net)
    kind = {}
    with open(net) as f:
        for line in f:
            m = HEADER.match(line)
            if m:
                kind[m.group(3)] = m.group(1)
    sws = sorted(n for n in by_id if kind.get(n) == "Switch")
    if len(sws) < 2:
        return "none", "%d switch" % len(sws)
    nbr = {s: [] for s in sws}  # per port, the neighbour switch
    leaves = set()
    for a, _, b, _ in lines:
        if kind.get(a) == "Switch" and kind.get(b) == "Switch":
            nbr[a].append(b)
        elif kind.get(a) == "Switch":
            leaves.add(a)
    tier = {s: 0 for s in leaves}
    todo = sorted(leaves)
    while todo:
        nxt = []
        for s in todo:
            for p in nbr[s]:
                if p not in tier:
                    tier[p] = tier[s] + 1
                    nxt.append(p)
        todo = nxt
    if len(tier) != len(sws):
        return "updn", "a switch has no path to an HCA"
    shape = {}
    for s in sws:
        up, down = {}, {}
        for p in nbr[s]:
            if tier[p] == tier[s]:
                return "updn", "a link within tier %d (%s)" % (tier[s], s)
            g = up if tier[p] > tier[s] else down
            g[p] = g.get(p, 0) + 1
        if len(set(up.values())) > 1 or (tier[s] and
                                          len(set(down.values())) > 1):
            return "updn", "port groups of %s differ in size" % s
        sh = (len(up), set(up.values()),
              (len(down), set(down.values())) if tier[s] else None)
        if shape.setdefault(tier[s], sh) != sh:
            return "updn", "switches of tier %d differ (%s)" % (tier[s], s)
    return "ftree", "a uniform tree of %d tiers" % (max(tier.values()) + 1)


def main(argv):
    if len(argv) == 3 and argv[0] == "discovered":
        got = discovered(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "planned":
        got = planned(argv[1])
    elif len(argv) == 3 and argv[0] == "cabling":
        got = cabling(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "engine":
        print("%s: %s" % engine(argv[1]))
        return 0
    else:
        die("usage: discovered DISC NET | planned NET | cabling CSV NET | "
            "engine NET")
    for line in sorted(got):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
