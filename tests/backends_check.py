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
a placed design: rows of racks (42U, 48U) at random floor positions with
random slots, pitch, tray heights and slack; GPU servers of random
height at random U, with host names or without (zero-padded and not,
numbers crossing a width), one or two CPUs, PCIe switches with and
without link figures, GPUs and one- or two-port NICs hung at random, a
storage card; a fat tree of fibre whose switches the generator places
(place_leaves, place_spines, place_cores, per_rack), single or twin
cages, transceivers of two reaches and prices; DAC and AOC links to a
storage switch, forced, of forced length or left to the plan's cheapest
choice; a management star of Cat6 cut to length, placed from the bottom
up or not placed.

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
  nccl       nccl/<part>.xml read with lxml: one <cpu> per CPU (numaid),
             the PCI tree as the part hangs it (bus ids lower-cased,
             classes, link speed and width the lower of the two ends'
             where known, a switch without figures taking the highest
             below it), GPUs numbered in bus order, one <net> per compute
             NIC port numbered in bus order with the NIC's GUID, the
             storage card left out, NVLink rows with NVSwitches only;
             hosts.csv names every node's host.
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


HOSTNAMES = {}  # device -> its `hostname`, where the design gives one


def host_of(name):
    """a device's host name: its `hostname`, else the one rackc derives
    from its full name (be_common.h: every byte outside [A-Za-z0-9-] a
    '-', runs of '-' one, none at the ends)"""
    if name in HOSTNAMES:
        return HOSTNAMES[name]
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


# ---- placed designs ----

U_UM = 44450  # one rack unit, micrometres (EIA-310: 1.75 in)


def um_text(um):
    """a length in micrometres as source text"""
    return "%dmm" % (um // 1000) if um % 1000 == 0 else "%dum" % um


PCIE = {1: "2.5 GT/s PCIe", 2: "5.0 GT/s PCIe", 3: "8.0 GT/s PCIe",
        4: "16.0 GT/s PCIe", 5: "32.0 GT/s PCIe", 6: "64.0 GT/s PCIe"}


def gen_gpu_server(rng, exp, hs, P, twin):
    """the server part: CPUs, PCIe switches with and without bus ids and
    link figures, GPUs and NICs (one- or two-port, on the compute ports;
    a storage card that NCCL must not see) hung on them at random"""
    out = []
    gg, gw = rng.choice([4, 5]), rng.choice([8, 16])
    out.append("part gpux : gpu { sm 90; nvlinks 18; pcie_gen %d; "
               "pcie_width %d }\n" % (gg, gw))
    out.append('part cpux : cpu { vendor "Intel"; arch "x86_64"; '
               "cpu_family 6; cpu_model 143 }\n")
    nics = {}
    for k in ("nic1", "nic2", "nics"):
        nics[k] = (rng.choice([3, 4, 5]), rng.choice([8, 16]))
        out.append("part %s : nic { pcie_gen %d; pcie_width %d }\n" %
                   ((k,) + nics[k]))
    buses = rng.sample(range(1, 255), 40)
    body = ["height %dU" % hs, "price 100000USD",
            "port ib[0..%d] { speed 400Gb/s; protocol ib; form OSFP%s }"
            % (P - 1, "; cage twin" if twin else ""),
            "port st[0..1] { speed 100Gb/s; protocol eth; form QSFP28; "
            "role storage }",
            "port bmc { form RJ45; speed 1Gb/s; protocol eth; role oob }"]
    nv = rng.random() < 0.5
    if nv:
        body.append("nvswitches 4")
    C = rng.choice([1, 2])
    numas = rng.sample(range(0, 8), C) if rng.random() < 0.5 else None
    cpus = []
    for c in range(C):
        body.append("cpu cpu[%d] : cpux { %s}" % (
            c, "numa %d " % numas[c] if numas else ""))
        cpus.append({"name": "cpu[%d]" % c,
                     "numa": numas[c] if numas else c})
    comps = {}  # name -> {kind, up, bus, gen, width}

    def bus_txt(b):
        t = "0000:%02x:00.0" % b
        return t.upper() if rng.random() < 0.3 else t
    S = rng.randint(0, 4)
    for j in range(S):
        up = "cpu[%d]" % rng.randrange(C)
        b = buses.pop()
        a = ["cpu %s" % up, 'bus "%s"' % bus_txt(b)]
        gen = wid = None
        if rng.random() < 0.6:
            gen, wid = rng.choice([4, 5]), rng.choice([8, 16])
            a += ["pcie_gen %d" % gen, "pcie_width %d" % wid]
        body.append("pcie_switch pex[%d] { %s }" % (j, "; ".join(a)))
        comps["pex[%d]" % j] = {"kind": "switch", "up": up, "bus": b,
                                "gen": gen, "width": wid}

    def parent():
        if S and rng.random() < 0.7:
            return "pex[%d]" % rng.randrange(S)
        return "cpu[%d]" % rng.randrange(C)

    def hang(p):
        return ("pcie %s" % p) if p.startswith("pex") else ("cpu %s" % p)
    G = rng.randint(1, 8)
    order = list(range(G))
    rng.shuffle(order)  # declared out of bus order
    for g in order:
        p, b = parent(), buses.pop()
        body.append('gpu gpu[%d] : gpux { %s; bus "%s" }' %
                    (g, hang(p), bus_txt(b)))
        comps["gpu[%d]" % g] = {"kind": "gpu", "up": p, "bus": b,
                                "gen": gg, "width": gw}
    dual = P >= 2 and rng.random() < 0.5
    ni = 0
    groups = [[i, i + 1] for i in range(0, P, 2)] if dual else \
        [[i] for i in range(P)]
    for grp in groups:
        p, b = parent(), buses.pop()
        part = "nic2" if dual else "nic1"
        body.append('nic cx[%d] : %s { %s; ports %s; devname "mlx5_%d"; '
                    'bus "%s" }' % (ni, part, hang(p), ", ".join(
                        "ib[%d]" % i for i in grp), ni, bus_txt(b)))
        comps["cx[%d]" % ni] = {"kind": "nic", "up": p, "bus": b,
                                "gen": nics[part][0],
                                "width": nics[part][1],
                                "ports": ["ib[%d]" % i for i in grp],
                                "devname": "mlx5_%d" % ni}
        ni += 1
    p, b = parent(), buses.pop()
    body.append('nic sx : nics { %s; ports st[0], st[1]; devname "mlx5_%d";'
                ' bus "%s" }' % (hang(p), ni, bus_txt(b)))
    comps["sx"] = {"kind": "storage", "up": p, "bus": b}
    out.append("part gsrv : server {\n\t%s\n}\n" % "\n\t".join(body))
    exp["gpu_server"] = {"cpus": cpus, "comps": comps, "nv": nv,
                         "nics": [["cx[%d]" % i, g] for i, g in
                                  enumerate(groups)]}
    return out


def gen_plant(seed):
    """Racks at random floor positions, GPU servers at random U, a fat
    tree of fibre whose switches the generator places, hand-wired copper
    and AOC links to a storage switch, and a management star."""
    rng = random.Random(seed)
    exp = {"seed": seed, "racks": {}, "devices": {}, "parts": {},
           "links": [], "fabric_cable": "fib"}
    out = ["# random placed design, seed %d (tests/backends_check.py)\n"
           % seed]
    out.append("part rk42 : rack { height 42U; price 1500USD }\n")
    out.append("part rk48 : rack { height 48U; price 1800USD }\n")
    # transceivers: a cheap short one and a dearer long one
    ra = rng.choice([30, 50])
    pa_, pb_ = rng.randint(300, 700), rng.randint(800, 1500)
    # twin-port cages (modules counted per cage) or single ones
    twin = rng.random() < 0.4
    exp["twin"] = twin
    cage = "cage twin; " if twin else ""
    out.append('part xcv_a : transceiver { part_number "XA-%d"; media mmf; '
               'form OSFP; %sspeed 400Gb/s; reach %dm; price %dUSD }\n'
               % (seed, cage, ra, pa_))
    out.append('part xcv_b : transceiver { part_number "XB-%d"; media mmf; '
               'form OSFP; %sspeed 400Gb/s; reach 500m; price %dUSD }\n'
               % (seed, cage, pb_))
    exp["xcvr"] = [["xcv_a", ra * 10**6, pa_ * 100],
                   ["xcv_b", 500 * 10**6, pb_ * 100]]
    # cables: fibre and AOC sold in stock lengths, DAC short, Cat6 cut
    def stock(lo, hi, k):
        v = sorted(rng.sample(range(lo, hi + 1), k))
        return [x * 500_000 for x in v]  # half metres

    fib = stock(2, 120, rng.randint(3, 8))
    if rng.random() < 0.7:
        fib.append(200 * 10**6)  # a long one: everything fits
    aoc = stock(2, 60, rng.randint(2, 5)) + [100 * 10**6]
    dac = stock(1, 6, rng.randint(1, 4))

    def lens(v):
        return "[%s]" % ", ".join(um_text(x) for x in v)

    def pns(name, v):
        return "[%s]" % ", ".join('"%s-%d"' % (name.upper(), x // 100_000)
                                  for x in v)
    cprice = {"fib": rng.randint(20, 90), "aoc": rng.randint(200, 600),
              "dac": rng.randint(50, 150)}
    out.append("part fib : cable { media mmf; form MPO; reach 300m; "
               "lengths %s; part_numbers %s; price %dUSD }\n"
               % (lens(fib), pns("fib", fib), cprice["fib"]))
    out.append("part aoc : cable { media aoc; form QSFP28; reach 100m; "
               "lengths %s; part_numbers %s; price %dUSD }\n"
               % (lens(aoc), pns("aoc", aoc), cprice["aoc"]))
    out.append("part dac : cable { media dac; form QSFP28; reach %s; "
               "lengths %s; part_numbers %s; price %dUSD }\n"
               % (um_text(dac[-1]), lens(dac), pns("dac", dac),
                  cprice["dac"]))
    out.append('part cat : cable { part_number "CAT6-X"; media cat6; '
               "form RJ45 }\n")
    exp["cables"] = {"fib": fib, "aoc": aoc, "dac": dac, "cat": None}
    exp["cable_price"] = {k: v * 100 for k, v in cprice.items()}
    # parts
    P = rng.choice([1, 2, 2, 4])
    hs = rng.choice([1, 2, 3, 4, 5, 8])
    R = rng.choice([4, 8, 16])
    hsw = rng.choice([1, 1, 2])
    out += gen_gpu_server(rng, exp, hs, P, twin)
    out.append("part swx : switch { height %dU; price 20000USD; "
               "port p[1..%d] { speed 400Gb/s; protocol ib; form OSFP%s }; "
               "port mgmt { form RJ45; speed 1Gb/s; protocol eth; "
               "role mgmt } }\n" % (hsw, R, "; cage twin" if twin else ""))
    out.append("part sts : switch { height 1U; price 9000USD; "
               "port q[1..32] { speed 100Gb/s; protocol eth; form QSFP28 } "
               "}\n")
    out.append("part mgx : switch { height 1U; price 2000USD; "
               "port e[1..24] { form RJ45; speed 1Gb/s; protocol eth } }\n")
    exp["parts"] = {"gsrv": {"h": hs, "price": 10**7},
                    "swx": {"h": hsw, "price": 2 * 10**6},
                    "sts": {"h": 1, "price": 9 * 10**5},
                    "mgx": {"h": 1, "price": 2 * 10**5},
                    "rk42": {"price": 150000}, "rk48": {"price": 180000}}
    exp["P"], exp["R"] = P, R
    # the floor
    slack = rng.choice([None, rng.randint(0, 3000) * 1000])
    tray = rng.choice([None, rng.randint(200, 1500) * 1000])
    site = []
    if slack is not None:
        site.append("\tslack %s\n" % um_text(slack))
    if tray is not None:
        site.append("\ttray_height %s\n" % um_text(tray))
    exp["slack"] = 1_000_000 if slack is None else slack
    racks = []
    for ri in range(rng.randint(1, 3)):
        x = rng.randint(0, 400) * 50_000
        y = rng.randint(0, 200) * 50_000 if ri else rng.choice(
            [0, rng.randint(0, 200) * 50_000])
        pitch = rng.choice([None, 600_000, 750_000, 800_000, 1_200_000])
        rt = rng.choice([None, None, rng.randint(300, 900) * 1000])
        body = ["\t\tx %s\n" % um_text(x), "\t\ty %s\n" % um_text(y)]
        if pitch:
            body.append("\t\tpitch %s\n" % um_text(pitch))
        if rt is not None:
            body.append("\t\ttray_height %s\n" % um_text(rt))
        n = rng.randint(1, 4)
        explicit = rng.random() < 0.5
        slots = sorted(rng.sample(range(1, 12), n)) if explicit else \
            list(range(1, n + 1))
        if explicit:
            rng.shuffle(slots)
        for ki in range(n):
            part = rng.choice(["rk42", "rk48"])
            name = "s.r%d.k%d" % (ri, ki)
            body.append("\t\track k%d : %s { %s}\n" % (
                ki, part, "slot %d " % slots[ki] if explicit else ""))
            exp["racks"][name] = {
                "units": 42 if part == "rk42" else 48, "part": part,
                "x": x + (slots[ki] - 1) * (pitch or 600_000), "y": y,
                "slot": slots[ki],
                "tray": rt if rt is not None else
                (tray if tray is not None else 600_000),
                "used": []}
            racks.append(name)
        site.append("\trow r%d {\n%s\t}\n" % (ri, "".join(body)))
    out.append("site s {\n%s}\n" % "".join(site))

    def free_at(rack, h, top_down=True):
        """the U ranges of @h units free in @rack, highest first"""
        r = exp["racks"][rack]
        used = set()
        for a, b in r["used"]:
            used.update(range(a, b + 1))
        cands = [u for u in range(1, r["units"] - h + 2)
                 if not used & set(range(u, u + h))]
        return sorted(cands, reverse=top_down)

    def mount(dev, part, rack, at):
        h = exp["parts"][part]["h"]
        exp["racks"][rack]["used"].append((at, at + h - 1))
        exp["devices"][dev] = {"part": part, "rack": rack, "at": at}

    # servers at random places
    N = rng.randint(2, 2 * R)
    nodes = []
    # host names: derived, or given with and without zero padding, with
    # numbers that cross a width (gpu95 .. gpu127, gpu095 .. gpu127)
    hfmt = rng.choice([None, None, "gpu%d", "gpu%02d", "gpu%03d",
                       "r1-gpu%d", "g%d-x"])
    hbase = rng.choice([0, 1, 7, 95, 990])
    exp["hostnames"] = {}
    for i in range(N):
        rack = rng.choice(racks)
        c = free_at(rack, hs)
        if not c:
            continue
        at = rng.choice(c)
        mount("n[%d]" % i, "gsrv", rack, at)
        host = ""
        if hfmt:
            exp["hostnames"]["n[%d]" % i] = hfmt % (i + hbase)
            host = '; hostname "%s"' % (hfmt % (i + hbase))
        out.append("node n[%d] : gsrv { rack %s; at %dU%s }\n" %
                   (i, rack, at, host))
        nodes.append(i)
    # the storage switch and its hand-wired links
    srack = rng.choice(racks)
    c = free_at(srack, 1)
    if c:
        at = rng.choice(c)
        mount("st0", "sts", srack, at)
        out.append("switch st0 : sts { rack %s; at %dU }\n" % (srack, at))
        q = 1
        for i in nodes:
            if q > 32 or rng.random() < 0.3:
                continue
            same = exp["devices"]["n[%d]" % i]["rack"] == srack
            cab = rng.choice(["dac", "aoc"] if same else ["aoc"])
            body = ["cable %s" % cab]
            if rng.random() < 0.3:
                cab, body = "cheapest", []  # the plan's choice
            forced = None
            if rng.random() < 0.2:
                forced = rng.randint(1, 60) * 250_000
                if cab == "dac":
                    forced = min(forced, dac[-1])
                body.append("length %s" % um_text(forced))
            out.append("link n[%d].st[0] -- st0.q[%d]%s\n" %
                       (i, q, " { %s }" % "; ".join(body) if body else ""))
            exp["links"].append(["n[%d]" % i, "st[0]", "st0", "q[%d]" % q,
                                 cab, forced])
            q += 1
    # the fat tree; its switches placed by the generator's rule
    # (a few racks, or all of them, so that most designs have room)
    lr = rng.sample(racks, rng.choice([rng.randint(1, len(racks)),
                                       len(racks)]))
    sr = rng.sample(racks, rng.choice([rng.randint(1, len(racks)),
                                       len(racks)]))
    attrs = ["endpoints %s" % ", ".join("n[%d].ib[*]" % i for i in nodes),
             "switch swx", "cable fib",
             "place_leaves %s" % ", ".join(lr),
             "place_spines %s" % ", ".join(sr),
             "place_cores %s" % ", ".join(sr)]
    if rng.random() < 0.3:
        attrs.append("uplinks all")
    if rng.random() < 0.3:
        exp["per_rack"] = rng.randint(3, 14)
        attrs.append("per_rack %d" % exp["per_rack"])
    out.append("fabric compute : fat_tree {\n\t%s\n}\n" %
               "\n\t".join(attrs))
    exp["place"] = {"leaf": lr, "spine": sr, "core": sr}
    # the management star: placed from the bottom up, or not placed
    mr = rng.sample(racks, rng.randint(1, len(racks)))
    sattrs = ["endpoints n[*].bmc, compute.leaf[*].mgmt", "switch mgx",
              "cable cat"]
    if rng.random() < 0.7:
        sattrs.append("place_leaves %s" % ", ".join(mr))
        exp["place"]["star"] = mr
    out.append("fabric oob : star {\n\t%s\n}\n" % "\n\t".join(sattrs))
    exp["nodes"] = ["n[%d]" % i for i in nodes]
    return "".join(out), exp


def place_switches(exp, rows):
    """(rack, at) of every generated switch by the documented rule: in
    order (a fat tree tier by tier, leaves first, each by index; then the
    star), the first listed rack with room, the highest free units (a
    star's: the lowest); None when unplaced"""
    names = set()
    for r in rows:
        for d in (r["a_device"], r["b_device"]):
            if re.fullmatch(r"(compute\.(leaf|spine|core|top)|oob\.sw)\[\d+\]",
                            d):
                names.add(d)
    tiers = {"leaf": 0, "spine": 1, "core": 2, "top": 3, "sw": 4}

    def key(d):
        m = re.fullmatch(r"\w+\.(\w+)\[(\d+)\]", d)
        return tiers[m.group(1)], int(m.group(2))
    racks = {k: [tuple(x) for x in v["used"]]
             for k, v in exp["racks"].items()}
    placed = {}
    for d in sorted(names, key=key):
        tier = d.split(".")[1].split("[")[0]
        # top switches go where the cores do (place_cores)
        lst = exp["place"].get({"sw": "star", "top": "core"}.get(tier, tier))
        part = "mgx" if tier == "sw" else "swx"
        h = exp["parts"][part]["h"]
        placed[d] = None
        # per_rack N (the fat tree's): racks holding fewer than N devices
        cap = exp.get("per_rack") if tier != "sw" else None
        for rk in lst or []:
            if cap is not None and len(racks[rk]) >= cap:
                continue
            units = exp["racks"][rk]["units"]
            used = set()
            for a, b in racks[rk]:
                used.update(range(a, b + 1))
            c = [u for u in range(1, units - h + 2)
                 if not used & set(range(u, u + h))]
            if c:
                at = min(c) if tier == "sw" else max(c)
                racks[rk].append((at, at + h - 1))
                placed[d] = (rk, at)
                break
    return placed


def um_of(txt):
    """metres as written in cabling.csv -> micrometres (exact)"""
    v = Fraction(txt) * 10**6
    if v.denominator != 1:
        raise ValueError("length %s is not whole micrometres" % txt)
    return int(v)


def check_plant(exp, odir):
    bad = []
    HOSTNAMES.update(exp["hostnames"])
    rows = read_csv(os.path.join(odir, "cabling.csv"))
    check_cabling_generic(rows, bad)
    devs = {k: dict(v) for k, v in exp["devices"].items()}
    placed = place_switches(exp, rows)
    for d, p in placed.items():
        part = "mgx" if d.startswith("oob.") else "swx"
        devs[d] = {"part": part, "rack": p[0] if p else None,
                   "at": p[1] if p else None}
    racks = exp["racks"]
    order = {}
    for name in racks:  # s.rI.kJ: row code I, the number its name ends in
        m = re.fullmatch(r"s\.r(\d+)\.k(\d+)", name)
        order[name] = int(m.group(1))

    def top(d):
        """micrometres from the device's middle to its rack top"""
        r = racks[d["rack"]]
        h = exp["parts"][d["part"]]["h"]
        return (r["units"] - (d["at"] - 1)) * U_UM - h * U_UM // 2

    def length_of(da, db, flen):
        """the link's length: forced, else the route (layout.c)"""
        if flen is not None:
            return flen
        if da["rack"] is None or db["rack"] is None:
            return None
        if da["rack"] == db["rack"]:
            return abs(top(da) - top(db)) + exp["slack"]
        ra, rb = racks[da["rack"]], racks[db["rack"]]
        return top(da) + ra["tray"] + top(db) + rb["tray"] + \
            abs(ra["x"] - rb["x"]) + abs(ra["y"] - rb["y"]) + exp["slack"]

    forced = {(a, ap, b, bp): (cab, ln)
              for a, ap, b, bp, cab, ln in exp["links"]}
    want_cables = {}
    mods = set()
    for r in rows:
        a, b = r["a_device"], r["b_device"]
        da, db = devs.get(a), devs.get(b)
        cid = r["cable_id"]
        if da is None or db is None:
            bad.append("cabling %s: unknown device %s or %s" % (cid, a, b))
            continue
        # the ends' places
        for end, d in (("a", da), ("b", db)):
            want = ("", "") if d["rack"] is None else \
                (d["rack"], str(d["at"]))
            got = (r[end + "_rack"], r[end + "_u"])
            if got != want:
                bad.append("cabling %s: %s end at %s, expected %s" %
                           (cid, end, got, want))
        key = (a, r["a_port"], b, r["b_port"])
        cab, flen = forced.get(key, (None, None))
        if cab is None:
            cab = "cat" if r["fabric"] == "oob" else "fib"
        if cab == "cheapest":
            # of the catalog's cables that fit a QSFP28 100G port pair
            # (DAC and AOC; fibre needs modules no part provides; Cat6 is
            # RJ45): the DAC, cheaper, where it reaches, else the AOC
            cab = "dac" if length_of(da, db, flen) <= \
                exp["cables"]["dac"][-1] else "aoc"
        if r["part"] != cab:
            bad.append("cabling %s: part %r, expected %r" %
                       (cid, r["part"], cab))
        length = length_of(da, db, flen)
        got = um_of(r["computed_length_m"]) if r["computed_length_m"] \
            else None
        if got != length:
            bad.append("cabling %s (%s.%s -- %s.%s): computed length %s um,"
                       " expected %s" % (cid, a, r["a_port"], b,
                                         r["b_port"], got, length))
        stocks = exp["cables"][cab]
        if length is None:
            stock = None
        elif stocks is None:
            stock = length  # cut to length
        else:
            fit = [x for x in stocks if x >= length]
            stock = min(fit) if fit else None
        got = um_of(r["length_m"]) if r["length_m"] else None
        if got != stock:
            bad.append("cabling %s: stock length %s um, expected %s "
                       "(computed %s)" % (cid, got, stock, length))
        if stocks is not None and stock is not None:
            pn = "%s-%d" % (cab.upper(), stock // 100_000)
        elif stocks is None:
            pn = "CAT6-X"
        else:
            pn = ""
        if r["part_number"] != pn:
            bad.append("cabling %s: part number %r, expected %r" %
                       (cid, r["part_number"], pn))
        k = (cab, pn, stock if stocks is not None else None)
        want_cables[k] = want_cables.get(k, 0) + 1
        # transceivers: fibre on OSFP ports, the cheapest that reaches
        for end in ("a", "b"):
            want = ""
            if cab == "fib" and length is not None:
                fits = [x for x in exp["xcvr"] if x[1] >= length]
                want = min(fits, key=lambda x: (x[2], x[1], x[0]))[0]
            elif cab == "fib":
                want = min(exp["xcvr"], key=lambda x: (x[2], x[1]))[0]
            if r[end + "_transceiver"] != want:
                bad.append("cabling %s: %s transceiver %r, expected %r" %
                           (cid, end, r[end + "_transceiver"], want))
            if want:
                # one module per cage and part: ib[i] and p[k] ranges
                # start at 0 and 1, cages pair (0,1), (2,3) / (1,2), ...
                dev, port = r[end + "_device"], r[end + "_port"]
                i = int(re.search(r"\[(\d+)\]", port).group(1))
                cg = (i if port.startswith("ib") else i - 1) // 2 \
                    if exp["twin"] else i
                mods.add((dev, port.split("[")[0], cg, want))
        # the label: "{id} {a.rack}U{a.u} {a.port}>{b.rack}U{b.u} {b.port}"
        def place(d):
            if d["rack"] is None:
                return "U"
            rk = d["rack"]
            return "%d.%dU%d" % (order[rk], racks[rk]["slot"], d["at"])
        lab = "%s %s %s>%s %s" % (cid, place(da), r["a_port"], place(db),
                                  r["b_port"])
        if r["label"] != lab:
            bad.append("cabling %s: label %r, expected %r" %
                       (cid, r["label"], lab))
    check_nccl(exp, odir, bad)
    # the InfiniBand subnets and the Slurm tree of the placed design
    parts = {"gsrv": {"switch": False, "ib": ["ib[%d]" % i
                                             for i in range(exp["P"])],
                      "speed": {"ib[%d]" % i: 400 for i in range(exp["P"])},
                      "nics": [], "nic_names": []},
             "swx": {"switch": True, "ib": ["p[%d]" % i for i in
                                            range(1, exp["R"] + 1)],
                     "speed": {"p[%d]" % i: 400 for i in
                               range(1, exp["R"] + 1)},
                     "nics": [], "nic_names": []}}
    for name, grp in exp["gpu_server"]["nics"]:
        parts["gsrv"]["nic_names"].append(name)
        parts["gsrv"]["nics"].append(["ib[%d]" % i for i in grp])
    for p in ("sts", "mgx"):
        parts[p] = {"switch": True, "ib": [], "speed": {}, "nics": [],
                    "nic_names": []}
    info = {"parts": parts,
            "devices": {d: v["part"] for d, v in devs.items()},
            "tree_fabrics": ["compute"], "slurm_nodes": exp["nodes"]}
    check_ibnet(info, rows, odir, bad)
    check_slurm(info, rows, odir, bad)
    # the bill of materials
    bom = read_csv(os.path.join(odir, "bom.csv"))
    got = {}
    for ln in bom:
        if ln["kind"] != "part":
            continue
        k = (ln["part"], ln["part_number"], ln["length_m"])
        if k in got:
            bad.append("bom: line %s twice" % (k,))
        got[k] = ln
        q = int(ln["quantity"])
        if ln["unit_price"]:
            unit = Fraction(ln["unit_price"])
            if Fraction(ln["extended_price"]) != unit * q:
                bad.append("bom %s: extended %s, %d x %s" %
                           (k, ln["extended_price"], q, unit))
    # subtotals per category and the total: sums of extended prices
    sums, total = {}, Fraction(0)
    for ln in bom:
        if ln["kind"] == "part" and ln["extended_price"]:
            v = Fraction(ln["extended_price"])
            sums[ln["category"]] = sums.get(ln["category"], 0) + v
            total += v
    for ln in bom:
        if ln["kind"] == "subtotal" and \
                Fraction(ln["extended_price"]) != sums.get(ln["category"]):
            bad.append("bom: %s subtotal %s, the lines sum to %s" %
                       (ln["category"], ln["extended_price"],
                        sums.get(ln["category"])))
        if ln["kind"] == "total" and Fraction(ln["extended_price"]) != total:
            bad.append("bom: total %s, the lines sum to %s" %
                       (ln["extended_price"], total))
    want = {}
    for (cab, pn, stock), n in want_cables.items():
        lm = "" if stock is None else str(Fraction(stock, 10**6)
                                          .limit_denominator(10**6))
        lm = lm if "/" not in lm else str(float(Fraction(stock, 10**6)))
        want[(cab, pn, lm)] = (n, exp["cable_price"].get(cab))
    want_mods = {}
    for m in mods:
        want_mods[m[3]] = want_mods.get(m[3], 0) + 1
    for name, n in want_mods.items():
        x = [v for v in exp["xcvr"] if v[0] == name][0]
        pn = ("XA-%d" if name == "xcv_a" else "XB-%d") % exp["seed"]
        want[(name, pn, "")] = (n, x[2])
    cnt = {}
    for d in devs.values():
        cnt[d["part"]] = cnt.get(d["part"], 0) + 1
    for rk in racks.values():
        cnt[rk["part"]] = cnt.get(rk["part"], 0) + 1
    for p, n in cnt.items():
        want[(p, "", "")] = (n, exp["parts"][p]["price"])
    gotq = {k: (int(v["quantity"]),
                int(Fraction(v["unit_price"]) * 100) if v["unit_price"]
                else None) for k, v in got.items()}
    for k in sorted(set(want) | set(gotq)):
        g, w = gotq.get(k), want.get(k)
        if g != w:
            bad.append("bom %s: (quantity, unit cents) %s, expected %s" %
                       (k, g, w))
    # elevations: every device's U range inside its rack, none overlapping,
    # each where the design or the placement rule puts it
    ev = read_elevations(odir, bad)
    want_el = {}
    for name, d in devs.items():
        if d["rack"] is not None:
            h = exp["parts"][d["part"]]["h"]
            want_el[name] = (d["rack"], d["at"], d["at"] + h - 1)
    for rk, devlist in ev.items():
        units = racks[rk]["units"] if rk in racks else None
        spans = sorted(devlist, key=lambda x: x[1])
        for name, lo, hi in spans:
            if units is None or lo < 1 or hi > units:
                bad.append("elevations: %s at U%d-%d outside %s (%sU)" %
                           (name, lo, hi, rk, units))
        for x, y in zip(spans, spans[1:]):
            if y[1] <= x[2]:
                bad.append("elevations: %s and %s overlap in %s" %
                           (x[0], y[0], rk))
    got_el = {name: (rk, lo, hi) for rk, dl in ev.items()
              for name, lo, hi in dl}
    if got_el != want_el:
        diff = sorted(k for k in set(got_el) | set(want_el)
                      if got_el.get(k) != want_el.get(k))
        bad.append("elevations: %d devices elsewhere than expected, first "
                   "%s at %s, expected %s" % (len(diff), diff[0],
                                              got_el.get(diff[0]),
                                              want_el.get(diff[0])))
    return bad


def read_elevations(odir, bad):
    """{rack: [(device, lowest U, highest U)]} from the front views of
    elevations/*.svg: a rack is a bold title and the light rectangle
    under "front"; a device a <g> of a rect and a title inside it"""
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    out = {}
    edir = os.path.join(odir, "elevations")
    for f in sorted(os.listdir(edir)):
        root = ET.parse(os.path.join(edir, f)).getroot()
        rack = None
        front = None  # (x, y0, units)
        for el in root:
            if el.tag == ns + "text" and el.get("font-weight") == "bold":
                rack = (el.text or "").strip()
                out.setdefault(rack, [])
                front = None
            elif el.tag == ns + "rect" and el.get("fill") == "#f4f4f4" \
                    and rack and front is None:
                h = Fraction(el.get("height"))
                front = (el.get("x"), Fraction(el.get("y")), h / 12)
            elif el.tag == ns + "g" and front is not None:
                r = el.find(ns + "rect")
                t = el.find(ns + "title")
                if r is None or t is None or r.get("x") != front[0]:
                    continue
                name = t.text.split(" (")[0]
                y, h = Fraction(r.get("y")), Fraction(r.get("height"))
                units = front[2]
                top_u = units - (y - front[1]) / 12  # highest U + 1 - 1
                lo = top_u - h / 12 + 1
                if lo.denominator != 1 or top_u.denominator != 1:
                    bad.append("elevations: %s not on whole units" % name)
                    continue
                out[rack].append((name, int(lo), int(top_u)))
    return out


def check_nccl(exp, odir, bad):
    """nccl/gsrv.xml read with lxml against the server part as drawn"""
    from lxml import etree
    srv = exp["gpu_server"]
    comps = srv["comps"]
    path = os.path.join(odir, "nccl", "gsrv.xml")
    if not os.path.exists(path):
        bad.append("nccl: no gsrv.xml")
        return
    root = etree.parse(path).getroot()
    if root.tag != "system" or root.get("version") != "1":
        bad.append("nccl: root %s version %s" % (root.tag,
                                                  root.get("version")))

    def busid(b):
        return "0000:%02x:00.0" % b
    # what is written: GPUs, compute NICs, and switches holding one
    dev_kinds = ("gpu", "nic")
    below = {}
    for name, c in comps.items():
        if c["kind"] in dev_kinds and c["up"].startswith("pex"):
            below.setdefault(c["up"], []).append(name)
    gpus = sorted((c["bus"], n) for n, c in comps.items()
                  if c["kind"] == "gpu")
    gpu_dev = {n: i for i, (_, n) in enumerate(gpus)}
    nic_order = sorted((c["bus"], n) for n, c in comps.items()
                       if c["kind"] == "nic")
    net_dev, k = {}, 0
    for _, n in nic_order:
        for pi, port in enumerate(comps[n]["ports"]):
            net_dev[(n, pi + 1)] = k
            k += 1

    def link(name):
        c = comps[name]
        if c["kind"] == "switch":
            if c["gen"] is not None:
                return c["gen"], c["width"]
            kids = below.get(name, [])
            return (max(comps[x]["gen"] for x in kids),
                    max(comps[x]["width"] for x in kids))
        up = c["up"]
        if up.startswith("pex"):
            sg, sw = link(up)
            return min(c["gen"], sg), min(c["width"], sw)
        return c["gen"], c["width"]

    def expect(name):
        """(busid, class, speed, width, payload, children)"""
        c = comps[name]
        g, w = link(name)
        cls = {"switch": "0x060400", "gpu": "0x030200",
               "nic": "0x020700"}[c["kind"]]
        kids = frozenset(expect(x) for x in below.get(name, [])) \
            if c["kind"] == "switch" else frozenset()
        if c["kind"] == "gpu":
            pay = ("gpu", gpu_dev[name], srv["nv"])
        elif c["kind"] == "nic":
            pay = ("nic", tuple((c["devname"], net_dev[(name, pi + 1)],
                                 pi + 1) for pi in
                                range(len(c["ports"]))))
        else:
            pay = None
        return (busid(c["bus"]), cls, PCIE[g], str(w), pay, kids)

    def seen(pci):
        """the same tuple read from a <pci> element"""
        pay = None
        g = pci.find("gpu")
        n = pci.find("nic")
        if g is not None:
            nvl = g.findall("nvlink")
            nv_ok = (len(nvl) == 1 and nvl[0].get("count") == "18" and
                     nvl[0].get("target") == "fffffff:ff:ff.0")
            # gdr is the host's fact: NCCL detects it unless the file
            # claims it (graph/xml.cc ncclTopoGetXmlFromGpu)
            if g.get("dev") != g.get("rank") or g.get("sm") != "90" or \
                    "gdr" in g.attrib:
                bad.append("nccl: gpu %s: %s" % (pci.get("busid"),
                                                 dict(g.attrib)))
            pay = ("gpu", int(g.get("dev")), nv_ok if nvl else False)
        elif n is not None:
            nets = n.findall("net")
            # name, dev, speed and port; what only the host knows (GUID,
            # connections, latency, GPUDirect, CollNet) is left to the
            # plugin, which NCCL would otherwise overrule
            # (graph/topo.cc ncclTopoPopulateNics)
            for x in nets:
                if x.get("speed") != "400000" or \
                        set(x.attrib) != {"name", "dev", "speed", "port"}:
                    bad.append("nccl: net %s: %s" % (x.get("name"),
                                                     dict(x.attrib)))
            pay = ("nic", tuple((x.get("name"), int(x.get("dev")),
                                 int(x.get("port"))) for x in nets))
        kids = frozenset(seen(x) for x in pci.findall("pci"))
        return (pci.get("busid"), pci.get("class"), pci.get("link_speed"),
                pci.get("link_width"), pay, kids)

    want = {}
    for c in srv["cpus"]:
        tops = [n for n, x in comps.items() if x["up"] == c["name"] and
                (x["kind"] in dev_kinds or
                 (x["kind"] == "switch" and below.get(n)))]
        want[str(c["numa"])] = frozenset(expect(n) for n in tops)
    got = {}
    for cpu in root.findall("cpu"):
        a = dict(cpu.attrib)
        if (a.get("arch"), a.get("vendor"), a.get("familyid"),
                a.get("modelid")) != ("x86_64", "GenuineIntel", "6", "143"):
            bad.append("nccl: cpu %s" % a)
        got[a.get("numaid")] = frozenset(seen(x) for x in cpu.findall("pci"))
    if got != want:
        diff = sorted(k for k in set(got) | set(want)
                      if got.get(k) != want.get(k))
        bad.append("nccl: the PCI tree under cpu numaid %s differs from "
                   "the part: %s, expected %s" % (
                       diff[0], sorted(got.get(diff[0], []))[:2],
                       sorted(want.get(diff[0], []))[:2]))
    hosts = read_csv(os.path.join(odir, "nccl", "hosts.csv"))
    want_h = sorted((host_of(n), "gsrv.xml") for n in exp["nodes"])
    if sorted((h["host"], h["file"]) for h in hosts) != want_h:
        bad.append("nccl: hosts.csv is not every node's host")


def main():
    if sys.argv[1] == "gen":
        kind, seed = sys.argv[2].split(":")
        text, exp = {"fabric": gen_fabric,
                     "plant": gen_plant}[kind](int(seed))
        exp["gen"] = kind
        os.makedirs(sys.argv[3], exist_ok=True)
        with open(os.path.join(sys.argv[3], "d.rack"), "w") as fp:
            fp.write(text)
        with open(os.path.join(sys.argv[3], "exp.json"), "w") as fp:
            json.dump(exp, fp)
        return 0
    exp = json.load(open(os.path.join(sys.argv[2], "exp.json")))
    bad = {"fabric": check_fabric_design,
           "plant": check_plant}[exp["gen"]](exp, sys.argv[3])
    name = "%s seed %d" % (exp["gen"], exp["seed"])
    if bad:
        print("FAIL\t%s\t%s" % (name, "; ".join(bad[:20])))
        return 1
    print("PASS\t%s\tthe back ends' files read back independently" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
