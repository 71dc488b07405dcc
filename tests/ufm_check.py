#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a UFM Cable Validation Tool topology file against cabling.csv.

Written from the formats NVIDIA documents for the tool (user manual
v1.5.0 to v1.8.1, "Topology Files": the topo file in ibdiagnet's (ibdm's)
topology format, and the dot file for Ethernet), not from rackc's writer:

  topo: sections "SYSTEM-TYPE SYSTEM-NAME" (first column), each followed
        by port lines "  PORT -<width>x-<lane Gb/s>G-> REM-TYPE REM-NAME
        REM-PORT" up to a blank line; "#" starts a comment line.  Switch
        ports are P<n>, HCA ports <hca>/P<n> (mlx5_0/P1).  A link between
        two switches may be listed in both sections.
  dot:  graph network { "NODE" [label=... role=...] ...
        "HOST":"PORT" -- "HOST":"PORT" ... }

usage: ufm_check.py topo FILE CABLING.CSV FABRIC RATE
       ufm_check.py dot FILE CABLING.CSV FABRIC
RATE is the expected "-Wx-SG-" token's W and S, as "4x-100G".
Every cable of FABRIC in CABLING.CSV must appear exactly once with both
ends (host name, port); nothing else may appear.  Exit 0 if so, else 1
with the differences.
"""
import csv
import re
import sys

PORT_LINE = re.compile(
    r"^\s+(\S+) -(1x|2x|4x|8x|12x)-(2\.5|5|10|14|25|50|100|200)G-> "
    r"(\S+) (\S+) (\S+)\s*$")
SECTION = re.compile(r"^(\S+) (\S+)\s*$")
SW_PORT = re.compile(r"^P([1-9][0-9]*)$")
HCA_PORT = re.compile(r"^[^/\s]+/P([1-9][0-9]*)$")
EDGE = re.compile(r'^\s*"([^"]+)":"([^"]+)"\s*--\s*"([^"]+)":"([^"]+)"'
                  r'\s*(//.*)?$')
NODE = re.compile(r'^\s*"([^"]+)"\s*\[(.*)\]\s*$')


def host(device):
    """A device's derived host name (su[0].dgx[3] -> su-0-dgx-3)."""
    return re.sub(r"[^A-Za-z0-9]+", "-", device).strip("-")


def faces(label):
    """The two ends' faceplate names from a cable label
    ("ID LOC FACE>LOC FACE")."""
    rest = label.split(" ", 1)[1]
    a, b = rest.split(">", 1)
    return a.split(" ", 1)[1], b.split(" ", 1)[1]


def switch_port_number(face, port):
    """The IB port number of a switch port: cage c port p of a twin-port
    OSFP faceplate ("c/p") is 2(c-1)+p; a port named p[k] is the k+1-th."""
    m = re.fullmatch(r"([0-9]+)/([12])", face)
    if m:
        return 2 * (int(m.group(1)) - 1) + int(m.group(2))
    m = re.fullmatch(r"[A-Za-z_]+\[([0-9]+)\]", port)
    if m:
        return int(m.group(1)) + 1
    return None


def cables(path, fabric, systems=None):
    """FABRIC's cables, and the cables outside fabrics between two of
    @systems (an explicit link to a subnet manager host, say)."""
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["fabric"] == fabric or
                (systems and not r["fabric"] and
                 host(r["a_device"]) in systems and
                 host(r["b_device"]) in systems)]


def topo_systems(path):
    names = set()
    with open(path) as f:
        for line in f:
            m = PORT_LINE.match(line)
            if m:
                names.add(m.group(5))
            elif SECTION.match(line) and not line.startswith("#"):
                names.add(line.split()[1])
    return names


def fail(errs):
    for e in errs[:20]:
        print("ufm_check: " + e)
    if len(errs) > 20:
        print("ufm_check: ... %d more" % (len(errs) - 20))
    sys.exit(1)


def check_topo(path, rows, rate):
    errs = []
    links = {}  # frozenset of ends -> times listed
    swtype = {}
    sect = None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                sect = None
                continue
            m = PORT_LINE.match(line)
            if m:
                if sect is None:
                    errs.append("%d: port line outside a section" % n)
                    continue
                lp, w, s, rt, rn, rp = m.groups()
                if "%s-%sG" % (w, s) != rate:
                    errs.append("%d: rate %s-%sG, planned %s" %
                                (n, w, s, rate))
                for t, p in ((sect[0], lp), (rt, rp)):
                    if not (SW_PORT.match(p) if t != "HCA"
                            else HCA_PORT.match(p)):
                        errs.append("%d: bad port name %s" % (n, p))
                key = frozenset([(sect[1], lp), (rn, rp)])
                links[key] = links.get(key, 0) + 1
                swtype[rn] = rt
                continue
            m = SECTION.match(line)
            if m and sect is None:
                sect = m.groups()
                swtype[sect[1]] = sect[0]
                continue
            errs.append("%d: not in the topo grammar: %r" % (n, line))
    hca_of = {}  # (model side, face) -> HCA port name seen
    want = set()
    for r in rows:
        fa, fb = faces(r["label"])
        ends = []
        for dev, port, face in ((r["a_device"], r["a_port"], fa),
                                (r["b_device"], r["b_port"], fb)):
            h = host(dev)
            if swtype.get(h, "HCA") != "HCA":
                num = switch_port_number(face, port)
                ends.append((h, "P%d" % num if num else "?"))
            else:
                ends.append((h, None, face))
        # an HCA end: find the topo link at the switch end, then check the
        # HCA port name is the one every other host uses for this face
        key = None
        sw = [e for e in ends if len(e) == 2]
        hc = [e for e in ends if len(e) == 3]
        if len(sw) == 2:
            key = frozenset(sw)
        elif len(sw) == 1:
            cand = [k for k in links if sw[0] in k and
                    any(e[0] == hc[0][0] for e in k if e != sw[0])]
            if len(cand) != 1:
                errs.append("cable %s: %d links at %s %s towards %s" %
                            (r["cable_id"], len(cand), sw[0][0], sw[0][1],
                             hc[0][0]))
                continue
            key = cand[0]
            other = [e for e in key if e != sw[0]][0]
            prev = hca_of.setdefault(hc[0][2], other[1])
            if prev != other[1]:
                errs.append("cable %s: %s %s is %s, other hosts' is %s" %
                            (r["cable_id"], hc[0][0], hc[0][2], other[1],
                             prev))
        else:
            errs.append("cable %s: no switch end" % r["cable_id"])
            continue
        if key in want:
            errs.append("cable %s: two cables on one link" % r["cable_id"])
        want.add(key)
        times = 2 if len(sw) == 2 else 1
        if links.get(key, 0) != times:
            errs.append("cable %s (%s): listed %d times, want %d" %
                        (r["cable_id"], " -- ".join(
                            "%s %s" % e for e in sorted(key)),
                         links.get(key, 0), times))
    for k in links:
        if k not in want:
            errs.append("unplanned link %s" %
                        " -- ".join("%s %s" % e for e in sorted(k)))
    used = {}
    for k in links:
        for e in k:
            used[e] = used.get(e, 0) + 1
    errs += ["port %s %s carries %d links" % (e[0], e[1], c)
             for e, c in used.items() if c > 1]
    return errs


def check_dot(path, rows):
    errs = []
    edges = {}
    nodes = set()
    text = open(path).read().splitlines()
    body = [l for l in text if not l.lstrip().startswith("//")]
    if not body or not re.match(r"^\s*graph network \{\s*$", body[0]) \
            or body[-1].strip() != "}":
        errs.append("not a graph network { ... }")
    for n, line in enumerate(body[1:-1], 2):
        m = EDGE.match(line)
        if m:
            a, pa, b, pb = m.group(1, 2, 3, 4)
            k = frozenset([(a, pa), (b, pb)])
            edges[k] = edges.get(k, 0) + 1
            continue
        m = NODE.match(line)
        if m:
            if 'label="%s"' % m.group(1) not in m.group(2):
                errs.append("node %s without its label" % m.group(1))
            nodes.add(m.group(1))
            continue
        errs.append("%d: not in the dot grammar: %r" % (n, line))
    want = set()
    for r in rows:
        fa, fb = faces(r["label"])
        k = frozenset([(host(r["a_device"]), fa), (host(r["b_device"]), fb)])
        want.add(k)
        if edges.get(k, 0) != 1:
            errs.append("cable %s: listed %d times" %
                        (r["cable_id"], edges.get(k, 0)))
    errs += ["unplanned edge %s" % sorted(k) for k in edges if k not in want]
    hosts = {e[0] for k in edges for e in k}
    errs += ["node %s has no edge" % h for h in nodes - hosts]
    return errs


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    kind, path, cab, fabric = sys.argv[1:5]
    rows = cables(cab, fabric,
                  topo_systems(path) if kind == "topo" else None)
    if not rows:
        fail(["no cable of fabric %s in %s" % (fabric, cab)])
    errs = (check_topo(path, rows, sys.argv[5]) if kind == "topo"
            else check_dot(path, rows))
    if errs:
        fail(errs)
    print("ufm_check: %d cables, each once with both ends" % len(rows))


main()
