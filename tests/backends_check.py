#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The back ends' files on random designs, read back independently of
rackc's code.

    backends_check.py gen [fabric:|plant:]SEED DIR
                                  write DIR/d.rack and DIR/exp.json
    backends_check.py check DIR OUT
                                  one PASS/FAIL line per seed

"fabric:SEED" is tests/random_check.py's fabric design (a generated fat
tree of random shape, planes, NICs of one or two ports or none, a
management star or a hand-wired fabric).  "plant:SEED" (gen_plant) draws
a placed design: rows of racks at random positions with random tray
heights, pitch and slack, GPU servers at random heights and U positions,
a fat tree of catalog cables whose switches are placed by the generator
(place_leaves, place_spines), hand-wired links of other cable families,
an out-of-band star.

What is checked, each from the files and the design as drawn, never from
rackc's own figures:

  ibnet      every ib/*.net parsed as ibsim reads it: node records, port
             lines, GUIDs; each link written at both ends alike; GUIDs
             unique; port numbers within the node's count; a switch's
             port k is the k-th InfiniBand port of its part, an HCA's the
             k-th port its NIC lists (1 for a port no NIC claims); the
             links of all files are exactly the InfiniBand cables of
             cabling.csv, port for port, and each file is one connected
             subnet (switches and NICs joined by cables; a server joins
             nothing); rates per lane from the slower port.
  slurm      topology.conf's host lists expanded here (a Slurm host-list
             expander of our own); every compute node under exactly one
             leaf switch; leaves that share a node are one Slurm switch
             holding exactly the nodes cabled to them; a spine (core)
             lists exactly the Slurm switches of the leaves (spines) it
             is cabled to; topology.yaml says the same.
  cabling    every port in at most one cable; cable IDs and labels
             unique; lengths from the route model (layout.c): vertical
             runs from each device's middle to its rack top and tray,
             Manhattan distance between the racks, the site's slack; the
             stock length is the shortest of the part's that holds it,
             with that length's part number.
  bom        one line per cable part number and length, as many as
             cabling.csv has; transceivers per cage; devices per part;
             extended price = quantity x unit price.
  elevations every device's U range inside its rack, none overlapping,
             each where the design (or the placement rule) puts it.
"""
import csv
import json
import os
import random
import re
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random_check  # noqa: E402  (the fabric designs)


# ---- hostlists (Slurm) ----

def expand_hostlist(expr):
    """Slurm's host list: comma-separated items outside brackets, each a
    prefix, an optional bracket of ranges (a or a-b, zero padding kept
    from the first number's width) and a suffix"""
    items, depth, cur = [], 0, ""
    for ch in expr:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced ] in %r" % expr)
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    if depth:
        raise ValueError("unbalanced [ in %r" % expr)
    items.append(cur)
    out = []
    for it in items:
        if not it:
            raise ValueError("empty item in %r" % expr)
        m = re.fullmatch(r"([^\[\]]*)\[([^\[\]]*)\]([^\[\]]*)", it)
        if not m:
            if "[" in it or "]" in it:
                raise ValueError("bad item %r" % it)
            out.append(it)
            continue
        pre, body, suf = m.groups()
        for r in body.split(","):
            a, _, b = r.partition("-")
            if not re.fullmatch(r"[0-9]+", a) or \
                    (b and not re.fullmatch(r"[0-9]+", b)):
                raise ValueError("bad range %r in %r" % (r, expr))
            width = len(a) if len(a) > 1 and a[0] == "0" else 0
            if b and width and len(b) != width:
                raise ValueError("padding differs in %r" % r)
            lo, hi = int(a), int(b) if b else int(a)
            if hi < lo:
                raise ValueError("descending range %r" % r)
            for v in range(lo, hi + 1):
                out.append("%s%0*d%s" % (pre, width, v, suf))
    return out


def host_of(name):
    """the host name rackc derives from a full name (be_common.h: every
    byte outside [A-Za-z0-9-] a '-', runs of '-' one, none at the ends)"""
    s = re.sub(r"[^A-Za-z0-9-]", "-", name)
    s = re.sub(r"-+", "-", s).strip("-")
    return s


# ---- reading the outputs ----

def read_csv(path):
    with open(path, newline="") as fp:
        return list(csv.DictReader(fp))


NET_HDR = re.compile(r'^(Switch|Hca|Ca)\s+(\d+)\s+"([^"]+)"\s*'
                     r'(?:#\s*"([^"]*)")?(.*)$')
NET_PORT = re.compile(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]\s*(?:#\s*(.*))?$')
NET_GUID = re.compile(r'^(switchguid|caguid)=(0x[0-9a-fA-F]+)$')
NET_NAME = re.compile(r'^# \[(\d+)\] (\S+)$')


def parse_net(path, bad):
    """{node id: {type, nports, guid, desc, ports {k: (peer, pk, note)},
    names {k: rackc port name}}} of an ibsim net file"""
    nodes = {}
    me = None
    guid = None
    names = {}
    with open(path) as fp:
        for ln, line in enumerate(fp, 1):
            line = line.rstrip("\n")
            if not line.strip():
                me = None
                continue
            m = NET_NAME.match(line)
            if m:
                k = int(m.group(1))
                if k in names:
                    bad.append("%s:%d: port %d named twice" % (path, ln, k))
                names[k] = m.group(2)
                continue
            if line.startswith("#"):
                continue
            m = NET_GUID.match(line)
            if m:
                guid = int(m.group(2), 16)
                continue
            m = NET_HDR.match(line)
            if m:
                typ, n, nid, desc = m.group(1), int(m.group(2)), \
                    m.group(3), m.group(4)
                if nid in nodes:
                    bad.append("%s:%d: node %s twice" % (path, ln, nid))
                if guid is None:
                    bad.append("%s:%d: node %s without a GUID" %
                               (path, ln, nid))
                if desc is not None and len(desc.encode()) > 64:
                    bad.append("%s:%d: description over 64 bytes" %
                               (path, ln))
                me = nodes[nid] = {"type": typ, "nports": n, "guid": guid,
                                   "desc": desc, "ports": {},
                                   "names": names,
                                   "sw_port0": "port 0" in m.group(5)}
                guid, names = None, {}
                continue
            m = NET_PORT.match(line)
            if m and me is not None:
                k = int(m.group(1))
                if k in me["ports"]:
                    bad.append("%s:%d: port %d twice" % (path, ln, k))
                me["ports"][k] = (m.group(2), int(m.group(3)),
                                  m.group(4) or "")
                continue
            bad.append("%s:%d: unparsed line %r" % (path, ln, line))
    return nodes


# ---- ibnet ----

IB_LANE = [(2.5, "SDR"), (5, "DDR"), (10, "QDR"), (14, "FDR"),
           (25, "EDR"), (50, "HDR")]


def lane_name(gbps):
    """4x rate name of a link at @gbps per direction (NDR and faster are
    written as HDR: ibsim 0.10 parses nothing faster)"""
    per = Fraction(gbps) / 4
    name = "SDR"
    for r, n in IB_LANE:
        if per >= Fraction(r).limit_denominator(10):
            name = n
    return "4x" + name


def check_ibnet(info, rows, odir, bad):
    """info: {device: {"part": part}}, parts: {part: {"ib": [port names
    in order], "speed": {port: Gb/s}, "nics": [[ports of nic 0], ...],
    "nic_names": [...], "switch": bool}}"""
    import networkx as nx
    parts, devs = info["parts"], info["devices"]

    def part_of(dev):
        return parts[devs[dev]]

    def is_ib(dev, port):
        return port in part_of(dev)["ib"]

    def ibnode(dev, port):
        """(node id, IB port number) of a rackc port"""
        p = part_of(dev)
        if p["switch"]:
            return dev, p["ib"].index(port) + 1
        for name, ports in zip(p["nic_names"], p["nics"]):
            if port in ports:
                return "%s/%s" % (dev, name), ports.index(port) + 1
        return "%s/%s" % (dev, port), 1

    want = {}
    g = nx.MultiGraph()
    for r in rows:
        a, b = (r["a_device"], r["a_port"]), (r["b_device"], r["b_port"])
        if not (is_ib(*a) and is_ib(*b)):
            if is_ib(*a) or is_ib(*b):
                bad.append("ibnet: cable %s joins an ib port to another "
                           "protocol's" % r["cable_id"])
            continue
        na, nb = ibnode(*a), ibnode(*b)
        for x in (na, nb):
            if x in want:
                bad.append("ibnet: IB port %s:%d in two cables" % x)
        want[na] = (nb, a, b)
        want[nb] = (na, b, a)
        g.add_edge(na[0], nb[0])
    idir = os.path.join(odir, "ib")
    files = sorted(os.listdir(idir)) if os.path.isdir(idir) else []
    if not want:
        if files:
            bad.append("ibnet: files %s without an InfiniBand cable" % files)
        return
    seen_guid = {}
    got = {}
    comps = []
    for f in files:
        nodes = parse_net(os.path.join(idir, f), bad)
        comp = set()
        for nid, n in nodes.items():
            comp.add(nid)
            # GUIDs: node GUIDs unique over every file (each is its own
            # subnet, but one host's files share a fabric manager's view)
            # and HCA port GUIDs (base + port) too
            keys = [n["guid"]] if n["type"] == "Switch" else \
                [n["guid"] + k for k in range(0, n["nports"] + 1)]
            for k in keys:
                if k in seen_guid:
                    bad.append("ibnet: GUID %#x of %s also %s" %
                               (k, nid, seen_guid[k]))
                seen_guid[k] = nid
            dev = nid.split("/")[0]
            if dev not in devs:
                bad.append("ibnet %s: node %s is no device" % (f, nid))
                continue
            p = part_of(dev)
            want_n = len(p["ib"]) if p["switch"] else None
            if n["type"] == "Switch":
                if not p["switch"]:
                    bad.append("ibnet %s: %s is no switch" % (f, nid))
                if n["nports"] != want_n:
                    bad.append("ibnet %s: switch %s has %d ports, its part "
                               "%d InfiniBand ports" %
                               (f, nid, n["nports"], want_n))
                if n["desc"] != host_of(dev)[:64]:
                    bad.append("ibnet %s: switch %s described %r" %
                               (f, nid, n["desc"]))
            else:
                sub = nid.split("/", 1)[1]
                if sub in p["nic_names"]:
                    want_n = len(p["nics"][p["nic_names"].index(sub)])
                else:
                    want_n = 1
                if n["nports"] != want_n:
                    bad.append("ibnet %s: HCA %s has %d ports, expected %d"
                               % (f, nid, n["nports"], want_n))
                if not (n["desc"] or "").startswith(host_of(dev) + " "):
                    bad.append("ibnet %s: HCA %s described %r" %
                               (f, nid, n["desc"]))
            for k, (peer, pk, note) in n["ports"].items():
                if not 1 <= k <= n["nports"]:
                    bad.append("ibnet %s: %s port %d of %d" %
                               (f, nid, k, n["nports"]))
                w = want.get((nid, k))
                if w is None:
                    bad.append("ibnet %s: %s[%d] -> %s[%d] is no cable" %
                               (f, nid, k, peer, pk))
                    continue
                if w[0] != (peer, pk):
                    bad.append("ibnet %s: %s[%d] -> %s[%d], the cable "
                               "goes to %s[%d]" % (f, nid, k, peer, pk,
                                                   *w[0]))
                name = "%s.%s" % w[1]
                if n["names"].get(k) != name:
                    bad.append("ibnet %s: %s port %d named %r, it is %s" %
                               (f, nid, k, n["names"].get(k), name))
                sa = parts[devs[w[1][0]]]["speed"][w[1][1]]
                sb = parts[devs[w[2][0]]]["speed"][w[2][1]]
                rate = lane_name(min(sa, sb))
                if not re.search(r"\b%s\b" % rate, note):
                    bad.append("ibnet %s: %s[%d] rate %r, expected %s" %
                               (f, nid, k, note, rate))
                got[(nid, k)] = (peer, pk)
        comps.append((f, comp))
    missing = sorted(set(want) - set(got))
    if missing:
        bad.append("ibnet: %d cabled IB ports missing, first %s[%d]" %
                   (len(missing), *missing[0]))
    # one file per connected subnet
    want_comps = sorted(sorted(c) for c in nx.connected_components(g))
    got_comps = sorted(sorted(c) for _, c in comps)
    if want_comps != got_comps:
        bad.append("ibnet: files %s are not the %d connected subnets" %
                   ([f for f, _ in comps], len(want_comps)))


# ---- slurm ----

LEVEL = {"leaf": 0, "spine": 1, "core": 2, "top": 3}


def parse_topology_conf(path, bad):
    """[(fabric, name, 'Nodes'|'Switches', [names])] in file order"""
    out, fab = [], None
    with open(path) as fp:
        for line in fp:
            line = line.strip()
            m = re.match(r"# fabric (\S+)$", line)
            if m:
                fab = m.group(1)
                continue
            if not line or line.startswith("#"):
                continue
            m = re.fullmatch(r"SwitchName=(\S+) (Nodes|Switches)=(\S+)",
                             line)
            if not m:
                bad.append("slurm: line %r" % line)
                continue
            try:
                lst = expand_hostlist(m.group(3))
            except ValueError as e:
                bad.append("slurm: %s" % e)
                continue
            if len(set(lst)) != len(lst):
                bad.append("slurm: %s lists a name twice" % m.group(1))
            out.append((fab, m.group(1), m.group(2), lst))
    return out


def expected_tree(rows, fab, nodes):
    """the Slurm switches of fabric @fab from its cables: {name: (kind,
    set of names)}, by the rule of backends/slurm.c's header, worked out
    here: leaves joined by a shared node are one switch; upper switches
    with the same children are one"""
    import networkx as nx

    def level(dev):
        m = re.fullmatch(re.escape(fab) + r"\.(leaf|spine|core|top)"
                         r"\[(\d+)\]", dev)
        return (LEVEL[m.group(1)], int(m.group(2))) if m else None

    kids = {}
    for r in rows:
        if r["fabric"] != fab:
            continue
        a, b = r["a_device"], r["b_device"]
        la, lb = level(a), level(b)
        for x, lx in ((a, la), (b, lb)):
            if lx is not None:
                kids.setdefault(x, set())
        if la is not None and lb is not None:
            if la[0] > lb[0]:
                kids[a].add(b)
            elif lb[0] > la[0]:
                kids[b].add(a)
        elif la is not None and la[0] == 0 and b in nodes:
            kids[a].add(b)
        elif lb is not None and lb[0] == 0 and a in nodes:
            kids[b].add(a)
    out = {}
    group = {}
    order = sorted(kids, key=level)
    # leaves
    g = nx.Graph()
    for s in order:
        if level(s)[0] == 0:
            g.add_node(s)
            for n in kids[s]:
                g.add_edge(s, ("N", n))
    for comp in nx.connected_components(g):
        leaves = sorted((x for x in comp if not isinstance(x, tuple)),
                        key=level)
        hosts = {host_of(x[1]) for x in comp if isinstance(x, tuple)}
        if not hosts:
            continue
        name = host_of(leaves[0])
        out[name] = ("Nodes", hosts)
        for x in leaves:
            group[x] = name
    for lv in (1, 2, 3):
        first = {}
        for s in order:
            if level(s)[0] != lv:
                continue
            ks = frozenset(group[k] for k in kids[s] if k in group)
            if not ks:
                continue
            if ks not in first:
                first[ks] = host_of(s)
                out[first[ks]] = ("Switches", set(ks))
            group[s] = first[ks]
    return out


def check_slurm(info, rows, odir, bad):
    path = os.path.join(odir, "slurm", "topology.conf")
    fabs = info["tree_fabrics"]
    nodes = set(info["slurm_nodes"])
    if not os.path.exists(path):
        if any(expected_tree(rows, f, nodes) for f in fabs):
            bad.append("slurm: no topology.conf")
        return
    ents = parse_topology_conf(path, bad)
    for fab in fabs:
        want = expected_tree(rows, fab, nodes)
        mine = [e for e in ents if e[0] == fab]
        got = {}
        for _, name, kind, lst in mine:
            if name in got:
                bad.append("slurm %s: switch %s twice" % (fab, name))
            got[name] = (kind, set(lst))
        if got != want:
            diff = sorted(set(got) ^ set(want)) or \
                sorted(k for k in got if got[k] != want.get(k))
            bad.append("slurm %s: tree differs from the cables at %s "
                       "(%d switches written, %d expected)" %
                       (fab, diff[:3], len(got), len(want)))
        # every node cabled to a leaf is under exactly one Slurm switch
        under = {}
        for name, (kind, lst) in got.items():
            if kind == "Nodes":
                for h in lst:
                    under.setdefault(h, []).append(name)
                    if h not in {host_of(n) for n in nodes}:
                        bad.append("slurm %s: %s is no compute node" %
                                   (fab, h))
        for h, sws in under.items():
            if len(sws) > 1:
                bad.append("slurm %s: node %s under %s" % (fab, h, sws))
        for name, (kind, lst) in got.items():
            if kind == "Switches":
                for c in lst:
                    if c not in got:
                        bad.append("slurm %s: %s lists unknown switch %s"
                                   % (fab, name, c))
    unknown = {e[0] for e in ents} - set(fabs)
    if unknown:
        bad.append("slurm: trees of %s, expected only %s" %
                   (sorted(unknown), fabs))
    # topology.yaml: the same tree
    ypath = os.path.join(odir, "slurm", "topology.yaml")
    if os.path.exists(ypath):
        import yaml
        y = yaml.safe_load(open(ypath))
        tree = [t for t in y if t.get("topology") == "tree"]
        conf = {(e[1], e[2], tuple(sorted(e[3]))) for e in ents}
        yset = set()
        for t in tree:
            for s in t["tree"]["switches"]:
                kind = "Nodes" if "nodes" in s else "Switches"
                lst = expand_hostlist(s.get("nodes") or s.get("children"))
                yset.add((s["switch"], kind, tuple(sorted(lst))))
        if yset != conf:
            bad.append("slurm: topology.yaml's tree is not topology.conf's")


# ---- cabling: generic ----

def check_cabling_generic(rows, bad):
    ports, ids, labels = {}, set(), {}
    for r in rows:
        for end in ("a", "b"):
            k = (r[end + "_device"], r[end + "_port"])
            if k in ports:
                bad.append("cabling: port %s.%s in cables %s and %s" %
                           (k[0], k[1], ports[k], r["cable_id"]))
            ports[k] = r["cable_id"]
        if r["cable_id"] in ids:
            bad.append("cabling: cable ID %s twice" % r["cable_id"])
        ids.add(r["cable_id"])
        if r["label"] in labels:
            bad.append("cabling: label %r twice" % r["label"])
        labels[r["label"]] = r["cable_id"]
        if not r["label"].startswith(r["cable_id"]):
            bad.append("cabling: label %r lacks its ID" % r["label"])


# ---- the fabric designs' part knowledge ----

def fabric_info(exp):
    """parts and devices of a random_check.py fabric design"""
    R = None
    nports = exp["nports"]
    parts = {
        "srv": {"switch": False,
                "ib": ["ib[%d]" % i for i in range(nports)],
                "speed": {"ib[%d]" % i: exp["speeds"]["srv"]["ib"]
                          for i in range(nports)},
                "nics": [], "nic_names": []},
        "mg": {"switch": True, "ib": [], "speed": {}, "nics": [],
               "nic_names": []},
    }
    parts["srv"]["speed"]["bmc"] = 1
    if exp["nic"] == "single":
        parts["srv"]["nics"] = [["ib[%d]" % i] for i in range(nports)]
    elif exp["nic"] == "dual":
        parts["srv"]["nics"] = [["ib[%d]" % (2 * i), "ib[%d]" % (2 * i + 1)]
                                for i in range(nports // 2)]
    parts["srv"]["nic_names"] = ["cx[%d]" % i
                                 for i in range(len(parts["srv"]["nics"]))]
    R = exp["R"]
    parts["swr"] = {"switch": True,
                    "ib": ["p[%d]" % i for i in range(1, R + 1)],
                    "speed": {"p[%d]" % i: exp["speeds"]["swr"]["p"]
                              for i in range(1, R + 1)},
                    "nics": [], "nic_names": []}
    parts["swr"]["speed"]["mgmt"] = 1
    for p in ["e[%d]" % i for i in range(1, 9)]:
        parts["mg"]["speed"][p] = 1
    for p in ("up[1]", "up[2]"):
        parts["mg"]["speed"][p] = 100
    return parts


class Devices(dict):
    """device -> part name for a fabric design, by name"""

    def __missing__(self, dev):
        if dev.startswith("n["):
            return "srv"
        if dev.startswith("h[") or dev.startswith("oob."):
            return "mg"
        if dev.startswith("compute."):
            return "swr"
        raise KeyError(dev)

    def __contains__(self, dev):
        try:
            self[dev]
            return True
        except KeyError:
            return False


def gen_fabric(seed):
    text, exp = random_check.gen_fabric(seed)
    m = re.search(r"port p\[1\.\.(\d+)\]", text)
    exp["R"] = int(m.group(1))
    return text, exp


def check_fabric_design(exp, odir):
    bad = []
    rows = read_csv(os.path.join(odir, "cabling.csv"))
    info = {"parts": fabric_info(exp), "devices": Devices(),
            "tree_fabrics": ["compute"],
            "slurm_nodes": ["n[%d]" % i for i in range(exp["nodes"])]}
    check_cabling_generic(rows, bad)
    check_ibnet(info, rows, odir, bad)
    check_slurm(info, rows, odir, bad)
    return bad


def main():
    if sys.argv[1] == "gen":
        kind, seed = sys.argv[2].split(":")
        text, exp = {"fabric": gen_fabric}[kind](int(seed))
        exp["gen"] = kind
        os.makedirs(sys.argv[3], exist_ok=True)
        with open(os.path.join(sys.argv[3], "d.rack"), "w") as fp:
            fp.write(text)
        with open(os.path.join(sys.argv[3], "exp.json"), "w") as fp:
            json.dump(exp, fp)
        return 0
    exp = json.load(open(os.path.join(sys.argv[2], "exp.json")))
    bad = {"fabric": check_fabric_design}[exp["gen"]](exp, sys.argv[3])
    name = "%s seed %d" % (exp["gen"], exp["seed"])
    if bad:
        print("FAIL\t%s\t%s" % (name, "; ".join(bad[:20])))
        return 1
    print("PASS\t%s\tthe back ends' files read back independently" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
