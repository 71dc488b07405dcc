#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Does RCCL find its MI300X model in a topology file?

    rccl_match.py MODEL.json FILE.xml

Loads FILE.xml (an NCCL_TOPO_FILE in RCCL's flavour) the way RCCL's
topology code does with no live host to fill it from, computes the
GPU-to-GPU and GPU-to-NIC path types by RCCL's own rules, builds the
summary RCCL compares against its built-in models and checks that it
matches MODEL.json, the facts of one model of RCCL's src/graph/
rome_models.cc (tests/rccl/rome_model_81.json: the 8 x MI300X model, with
the RCCL commit it was read at).  The rules, from RCCL at that commit:

  graph/topo.cc ncclTopoAddCpu, ncclTopoAddPci, ncclTopoAddNic,
  ncclTopoAddXGMI, ncclTopoConnectCpus:
    a <cpu> is a CPU node (id = numaid); a <pci> holding a <gpu> is a GPU
    node, one holding a <nic> a NIC node (bus id with the function cleared)
    with one NET node per <net> (by dev), any other <pci> a PCI node whose
    sub-<pci> elements are read in turn (the class is matched by prefix
    against 0x060400, 0x068000, 0x068001, 0x03, 0x02, 0x120000; anything
    else is a PCI node); a <pci> with neither <gpu> nor <nic> and a GPU or
    NIC class is dropped.  Each node gets a PCI link to its parent, whose
    bandwidth is link_width x link_speed / 80 (both read strictly: a
    missing one fails the load); CPUs are linked to each other (SYS), a
    NIC to its NETs (NET), a GPU to the GPU of each <xgmi> target (NVL,
    count links).
  graph/paths.cc ncclTopoSetPaths:
    breadth-first from every GPU and NET; a path's type is the highest of
    its links' types, where a link between two PCI nodes counts as PXB, a
    PCI link to or from a CPU as PHB, a SYS link as SYS, a NET link as LOC
    and any other PCI link as PIX; GPUs are never intermediate steps
    (except one NVLink hop to a GPU); shorter paths win, then wider ones.
    PXN is off in RCCL by default (NCCL_PXN_DISABLE=1), and GPUDirect RDMA
    is taken as available (a fact of the host's drivers, which the model's
    PXB entries assume too).
  graph/rome_models.cc parseRomeSystem, checkAlltoallWidth, parseA2a8P,
  permuteNetIds:
    GPUs in dev order, NETs in dev order; a GPU's or NET's NUMA node is the
    CPU the fewest hops away; the pattern is, per CPU in NUMA order, its
    GPU and NET counts; connMatrix counts the NVL links between GPUs;
    nLinks is the most NVL peers of a GPU; gdrLevel[net][gpu] is the path
    type.  parseA2a8P (tried first for 8 all-to-all GPUs on 2 CPUs) needs
    equal counts, pattern and all-to-all width, a GPU mapping that keeps
    each NUMA node's GPUs there and maps connMatrix onto the model's, and
    a NET mapping that keeps NUMA nodes and maps gdrLevel exactly.

Prints the derived matrices and PASS/FAIL lines; exits 1 on a mismatch.
"""

import itertools
import json
import sys
import xml.etree.ElementTree as ET

# node types (RCCL graph/topo.h)
GPU, PCI, NVS, CPU, NIC, NET = 0, 1, 2, 3, 4, 5
# link and path types (RCCL graph/topo.h)
LOC, NVL, PIX, PXB, PXN, PHB, SYS, NETP, DIS = 0, 1, 3, 4, 5, 6, 7, 8, 9
LINK_PCI, LINK_SYS, LINK_NET = 3, 7, 8
PATH_NAME = {LOC: "LOC", NVL: "NVL", 2: "NVB", PIX: "PIX", PXB: "PXB",
             PXN: "PXN", PHB: "PHB", SYS: "SYS", NETP: "NET", DIS: "DIS"}
PATH_OF = {v: k for k, v in PATH_NAME.items()}
# graph/topo.cc kvDictPciClass, matched by prefix in order
PCI_CLASS = [("0x060400", PCI), ("0x068000", NVS), ("0x068001", CPU),
             ("0x03", GPU), ("0x02", NIC), ("0x120000", GPU)]
# graph/topo.cc kvDictPciGen: 100 Mb/s per lane, 60 when unknown
PCI_GEN = {"2.5 GT/s": 15, "5 GT/s": 30, "8 GT/s": 60, "16 GT/s": 120,
           "32 GT/s": 240, "2.5 GT/s PCIe": 15, "5.0 GT/s PCIe": 30,
           "8.0 GT/s PCIe": 60, "16.0 GT/s PCIe": 120,
           "32.0 GT/s PCIe": 240, "64.0 GT/s PCIe": 480}
AMD_BW = 16.0  # graph/topo.h: inter-socket bandwidth of AMD CPUs


class LoadError(Exception):
    pass


class Node:
    def __init__(self, kind, nid):
        self.kind, self.id = kind, nid
        self.links = []  # (type, bw, node)
        self.dev = None
        self.paths = {}  # base node -> [count, bw, type]


def bus_int(s):
    """RCCL misc/utils.cc busIdToInt64: the hex digits, ':' and '.' left
    out."""
    return int("".join(c for c in s if c not in ":."), 16)


def pci_type(cls):
    for prefix, kind in PCI_CLASS:
        if cls.startswith(prefix):
            return kind
    return PCI


def req(el, attr):
    v = el.get(attr)
    if v is None:
        raise LoadError("Attribute %s of node %s not found" % (attr, el.tag))
    return v


class System:
    def __init__(self):
        self.nodes = []

    def add(self, kind, nid):
        n = Node(kind, nid)
        self.nodes.append(n)
        return n

    def of(self, kind):
        return [n for n in self.nodes if n.kind == kind]

    def find(self, kind, nid):
        for n in self.nodes:
            if n.kind == kind and n.id == nid:
                return n
        return None


def connect(a, b, ltype, bw):
    a.links.append((ltype, bw, b))


def add_pci(sysm, el, parent):
    kind = pci_type(req(el, "class"))
    bus = bus_int(req(el, "busid"))
    node = None
    gpu = el.find("gpu")
    if gpu is not None:
        if gpu.get("rank") is None:
            return
        node = sysm.add(GPU, bus)
        node.dev = int(req(gpu, "dev"))
        node.xml = gpu
    nic = el.find("nic")
    if nic is not None:
        nid = bus & ~0xf
        existing = sysm.find(NIC, nid)
        nicnode = existing or sysm.add(NIC, nid)
        if existing is None:
            node = nicnode
        for net in nic.findall("net"):
            if net.get("dev") is None:
                continue
            n = sysm.add(NET, int(net.get("dev")))
            n.dev = int(net.get("dev"))
            n.bus = nid
            speed = int(net.get("speed", "0") or 0)
            bw = (speed if speed > 0 else 10000) / 8000.0
            connect(nicnode, n, LINK_NET, bw)
            connect(n, nicnode, LINK_NET, bw)
    elif kind == PCI and gpu is None:
        node = sysm.add(PCI, bus)
        for sub in el:
            if sub.tag == "pci":
                add_pci(sysm, sub, node)
    if node is not None:
        width = int(req(el, "link_width"))
        speed = PCI_GEN.get(req(el, "link_speed"), 60)
        if width == 0:
            width = 16
        connect(node, parent, LINK_PCI, width * speed / 80.0)
        connect(parent, node, LINK_PCI, width * speed / 80.0)


def load(path):
    root = ET.parse(path).getroot()
    sysm = System()
    for cpu in root.findall("cpu"):
        c = sysm.add(CPU, int(req(cpu, "numaid")))
        for sub in cpu:
            if sub.tag == "pci":
                add_pci(sysm, sub, c)
    for g in sysm.of(GPU):
        for x in g.xml.findall("xgmi"):
            count = int(req(x, "count"))
            if pci_type(req(x, "tclass")) != GPU:
                continue
            remote = sysm.find(GPU, bus_int(req(x, "target")))
            if remote is not None:
                connect(g, remote, NVL, float(count))
    cpus = sysm.of(CPU)
    for a in cpus:
        for b in cpus:
            if a is not b:
                connect(a, b, LINK_SYS, AMD_BW)
    return sysm


def set_paths(base):
    """graph/paths.cc ncclTopoSetPaths from @base."""
    base.paths[base] = [0, 1e9, LOC]
    level = [base]
    while level:
        nxt = []
        for node in level:
            path = node.paths[base]
            for ltype, lbw, rem in node.links:
                if base not in rem.paths:
                    rem.paths[base] = [0, 0.0, DIS]
                rpath = rem.paths[base]
                bw = min(path[1], lbw)
                if (node is not base and node.kind == GPU and
                        (ltype != NVL or rem.kind != GPU or path[0] > 1)):
                    continue
                if ((rpath[1] == 0 or rpath[0] > path[0]) and
                        rpath[1] < bw):
                    t = LOC if ltype == LINK_NET else ltype
                    if node.kind == PCI and rem.kind == PCI:
                        t = PXB
                    if ltype == LINK_PCI and CPU in (node.kind, rem.kind):
                        t = PHB
                    rem.paths[base] = [path[0] + 1, bw, max(path[2], t)]
                    if rem.kind != GPU and rem not in nxt:
                        nxt.append(rem)
        level = nxt


def path(node, base):
    return node.paths.get(base, [0, 0.0, DIS])


def summarise(sysm):
    """graph/rome_models.cc parseRomeSystem."""
    gpus = sorted(sysm.of(GPU), key=lambda n: n.dev)
    nets = sorted(sysm.of(NET), key=lambda n: n.dev)
    cpus = sysm.of(CPU)
    for n in cpus + gpus + nets:
        set_paths(n)

    def numa(node):
        m = 0
        for k in range(1, len(cpus)):
            if path(node, cpus[k])[0] < path(node, cpus[m])[0]:
                m = k
        return cpus[m].id

    t = {"nGpus": len(gpus), "nCpus": len(cpus), "nNics": len(nets)}
    t["gpuIds"] = [g.id for g in gpus]
    t["nicIds"] = [n.bus for n in nets]
    t["gpuNuma"] = [numa(g) for g in gpus]
    t["nicNuma"] = [numa(n) for n in nets]
    conn, nlinks = [], 0
    for g in gpus:
        row, count = [], 0
        for k in range(len(gpus)):
            links = [bw for lt, bw, r in g.links
                     if r.kind == GPU and r.dev == k and lt == NVL]
            row.append(int(links[0]) if links else 0)
            count += 1 if links else 0
        conn.append(row)
        nlinks = max(nlinks, count)
    t["connMatrix"], t["nLinks"] = conn, nlinks
    pattern = ""
    for c in sorted(cpus, key=lambda c: c.id):
        pattern += "%d%d" % (t["gpuNuma"].count(c.id), t["nicNuma"].count(c.id))
    t["pattern"] = pattern
    t["gdrLevel"] = [[path(g, n)[2] for g in gpus] for n in nets]
    t["gpuPaths"] = [[path(g, h)[2] for h in gpus] for g in gpus]
    return t


def alltoall_width(conn):
    """graph/rome_models.cc checkAlltoallWidth."""
    width = 0
    for i, row in enumerate(conn):
        for j, v in enumerate(row):
            if i == j:
                continue
            if v == 0 or (width and v != width):
                return 0
            width = width or v
    return width


def net_mapping(ref, topo, g8):
    """A NET mapping as graph/rome_models.cc permuteNetIds accepts it
    (NUMA kept, gdrLevel equal but where the file's path is PXN), found by
    backtracking instead of by trying every permutation."""
    n = ref["nNics"]

    def fits(i, k):
        if ref["nicNuma"][i] != topo["nicNuma"][k]:
            return False
        for j in range(ref["nGpus"]):
            lvl = topo["gdrLevel"][k][g8[j]]
            if lvl != PXN and PATH_OF[ref["gdrLevel"][i][j]] != lvl:
                return False
        return True

    def place(i, used, out):
        if i == n:
            return list(out)
        for k in range(n):
            if k not in used and fits(i, k):
                got = place(i + 1, used | {k}, out + [k])
                if got:
                    return got
        return None

    return place(0, frozenset(), [])


def match_a2a8p(ref, topo):
    """graph/rome_models.cc parseA2a8P against one model: (mapping, why)."""
    if topo["nGpus"] != 8 or topo["nCpus"] != 2:
        return None, "not 8 GPUs on 2 CPUs"
    width = alltoall_width(topo["connMatrix"])
    if not width:
        return None, "GPUs not connected all to all with equal width"
    for k in ("nCpus", "nGpus", "nNics", "nLinks", "pattern"):
        if ref[k] != topo[k]:
            return None, "%s %r, the model has %r" % (k, topo[k], ref[k])
    if width != alltoall_width(ref["connMatrix"]):
        return None, "all-to-all width differs from the model's"
    perms = []
    for j in range(topo["nCpus"]):
        if ref["gpuNuma"].count(j) != 4:
            return None, "model has not 4 GPUs on NUMA node %d" % j
        mine = [k for k in range(8) if topo["gpuNuma"][k] == j]
        perms.append(list(itertools.permutations(mine)))
        if len(perms[-1]) != 24:
            return None, "%d GPUs on NUMA node %d, not 4" % (len(mine), j)
    why = "no GPU mapping carries the xGMI matrix onto the model's"
    for a, b in itertools.product(*perms):
        g8 = list(a) + list(b)
        if any(ref["connMatrix"][k][m] != topo["connMatrix"][g8[k]][g8[m]]
               for k in range(8) for m in range(8)):
            continue
        if topo["nNics"] <= 1:
            return (g8, []), None
        nets = net_mapping(ref, topo, g8)
        if nets:
            return (g8, nets), None
        why = "no NET mapping carries the GPU-to-NIC path types onto the model's"
    return None, why


def show(title, rows, cols):
    print("%s:" % title)
    print("       " + " ".join("%4s" % c for c in cols))
    for name, row in rows:
        print("%6s " % name + " ".join("%4s" % PATH_NAME[v] for v in row))


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1])
        return 2
    with open(argv[0]) as f:
        ref = json.load(f)
    results = []
    try:
        topo = summarise(load(argv[1]))
    except (LoadError, ET.ParseError, ValueError) as e:
        print("FAIL\tload\t%s" % e)
        return 1
    show("GPU to GPU path types (rows: GPU dev)",
         [("gpu%d" % i, r) for i, r in enumerate(topo["gpuPaths"])],
         ["g%d" % i for i in range(topo["nGpus"])])
    show("NIC to GPU path types, gdrLevel (rows: NET dev)",
         [("net%d" % i, r) for i, r in enumerate(topo["gdrLevel"])],
         ["g%d" % i for i in range(topo["nGpus"])])
    print("pattern %s, nLinks %d, nNics %d" % (topo["pattern"],
                                             topo["nLinks"], topo["nNics"]))
    # GPU to GPU: every peer the model joins by xGMI is one NVL hop away
    bad = [(i, j) for i in range(topo["nGpus"]) for j in range(topo["nGpus"])
           if i != j and i < len(ref["connMatrix"]) and
           j < len(ref["connMatrix"]) and ref["connMatrix"][i][j] and
           topo["gpuPaths"][i][j] != NVL]
    results.append(("gpu-gpu", not bad and topo["nGpus"] == ref["nGpus"],
                    "GPU pairs not joined by xGMI: %r" % bad[:4] if bad else
                    "%d GPUs" % topo["nGpus"]))
    # GPU to NIC, as the model lists them (the diagonal: each GPU's NIC)
    own = [PATH_NAME[topo["gdrLevel"][i][i]]
           for i in range(min(topo["nNics"], topo["nGpus"]))]
    want = [ref["gdrLevel"][i][i] for i in range(ref["nNics"])]
    results.append(("gpu-own-nic", own == want,
                    "file %s, model %s" % (" ".join(own) or "no NICs",
                                           " ".join(want))))
    got, why = match_a2a8p(ref, topo)
    results.append(("model-match", got is not None,
                    "GPU mapping %s, NET mapping %s" % got if got else why))
    ok = True
    for name, passed, detail in results:
        print("%s\t%s\t%s" % ("PASS" if passed else "FAIL", name, detail))
        ok = ok and passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
