#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of report.json's per-cluster capacity figures (tests/capacity.sh).

Every expected figure is computed here from the GPU parts' catalog figures
as std/nvidia.rack writes them (parsed below, units converted here) and
from the design's sizes, with exact fractions; nothing is taken from
rackc's output but the figures under test.

  capacity_check.py mixed REPORT STD DESIGN
      the per-cluster figures of examples/mixed-hall.rack
  capacity_check.py bounds REPORT STD DESIGN CLUSTER_H100 CLUSTER_GB200
      every NVLink domain's true (bandwidth-only) AllReduce time is at
      least the lower bound printed for its cluster and domain class; the
      H100 domains are in cluster CLUSTER_H100, the NVL72 ones in
      CLUSTER_GB200
  capacity_check.py units REPORT HTML STD
      one unit per dimension: JSON rates in bits per second (the GPU
      parts' hbm_bw, quoted in bytes per second, times 8), and every rate
      of report.html's capacity section spelled in bits per second, equal
      to report.json's
  capacity_check.py cables REPORT CABLING CABLES BACKPLANE
      totals.cables is CABLES and equals the cables of cabling.csv (by
      cable ID); totals.backplane_links is BACKPLANE
Prints PASS/FAIL lines (tests/lib.sh, py_results).
"""
import csv
import json
import re
import sys
from fractions import Fraction as F
from math import gcd

# Sizes of the systems (catalog facts, not rackc output): a DGX H100 holds
# 8 H100 SXM5 and 8 ConnectX-7 compute ports (N1); a GB200 NVL72 rack 72
# B200 in 18 trays of 4, each tray 4 ConnectX-7 compute ports (N3); every
# compute port 400 Gb/s (N1, N3).
DGX_GPUS = 8
NVL72_GPUS = 72
PORT_BPS = 400 * 10**9
S = 1 << 30  # the default message size, 1 GiB
PRECS = ("fp64", "tf32", "bf16", "fp8", "fp4")

SCALE = {"": 1, "k": 10**3, "M": 10**6, "G": 10**9, "T": 10**12,
         "P": 10**15}


def results():
    out = []

    def check(name, ok, detail=""):
        out.append("%s\t%s\t%s" % ("PASS" if ok else "FAIL", name,
                                   detail.replace("\t", " ")))
    return out, check


def quantity(text):
    """a catalog quantity: bytes, bits per second or FLOP/s (exact)"""
    m = re.fullmatch(r"([0-9.]+)\s*([kMGTP]?)(B/s|b/s|B|FLOP/s)", text)
    if not m:
        raise ValueError("unknown quantity " + text)
    v = F(m.group(1)) * SCALE[m.group(2)]
    return v * 8 if m.group(3) == "B/s" else v


def std_parts(path):
    """{part: {attribute: value text}} of the top-level parts of a file"""
    parts, cur = {}, None
    for line in open(path):
        line = line.split("#")[0].rstrip()
        m = re.match(r"part (\w+) : (\w+) \{", line)
        if m:
            cur = parts.setdefault(m.group(1), {"_base": m.group(2)})
            continue
        if line == "}":
            cur = None
            continue
        m = re.match(r"\t(\w+) (.+)$", line)
        if cur is not None and m:
            cur.setdefault(m.group(1), m.group(2).strip())
    return parts


def gpu_figures(parts, name):
    """the figures capacity reads of a GPU part, exact, in base units"""
    p = parts[name]
    f = {k: (quantity(p["flops_" + k]) if "flops_" + k in p else None)
         for k in PRECS}
    return {"flops": f, "hbm": quantity(p["hbm"]),
            "hbm_bw": quantity(p["hbm_bw"]),
            "nvlink": quantity(p["nvlink_bw"])}


def design_lets(path):
    lets = {}
    for line in open(path):
        m = re.match(r"let (\w+) = (\d+)\b", line)
        if m:
            lets[m.group(1)] = int(m.group(2))
    return lets


def floor(x):
    return x.numerator // x.denominator


def ring(p, b):
    """the ring AllReduce's bandwidth time, exact ns"""
    return F(2 * (p - 1) * 8 * S * 10**9, p * b) if p > 1 else F(0)


def tree(p, b):
    return F(2 * 8 * S * 10**9, b) if p > 1 else F(0)


def ratio(a, b):
    g = gcd(int(a), int(b))
    return "%d:%d" % (a // g, b // g)


def expect_cluster(g, gpus, dom_gpus, ports_per_dev, gpus_per_dev):
    """the figures of a cluster of @gpus GPUs of figures @g, in domains of
    @dom_gpus, on one non-blocking fabric with @ports_per_dev ports of
    PORT_BPS per device of @gpus_per_dev GPUs"""
    out_bps = F(ports_per_dev * PORT_BPS, gpus_per_dev)
    devices = gpus // gpus_per_dev
    # a balanced cut of a non-blocking tree: half the devices' injection
    cut = (devices // 2) * ports_per_dev * PORT_BPS
    inj = F((gpus - 1) * 8 * S * 10**9, gpus * out_bps)
    a2a = max(inj, F((gpus // 2) * (gpus - gpus // 2) * 8 * S * 10**9,
                     gpus * cut))
    hbm = gpus * g["hbm"]
    return {
        "gpus": gpus,
        "flops": {k: (gpus * v if v is not None else None)
                  for k, v in g["flops"].items()},
        "hbm": hbm, "hbm_bps": gpus * g["hbm_bw"],
        "domains": [(dom_gpus, gpus // dom_gpus, g["nvlink"],
                     dom_gpus * g["hbm"])],
        "ratio": ratio(g["nvlink"], out_bps),
        "dom_ring": floor(ring(dom_gpus, g["nvlink"])),
        "dom_tree": floor(tree(dom_gpus, g["nvlink"])),
        "out": out_bps, "out_gpus": gpus,
        "net_ring": floor(ring(gpus, out_bps)),
        "net_tree": floor(tree(gpus, out_bps)),
        "alltoall": floor(a2a),
        "train": hbm // 16, "infer": hbm // 2,
        "infer_dom": dom_gpus * g["hbm"] // 2,
    }


def got_cluster(x):
    d = x["nvlink_domains"]
    co = x["collectives"]
    return {
        "gpus": x["gpus"],
        "flops": x["flops_dense"],
        "hbm": x["hbm_bytes"], "hbm_bps": x["hbm_bps"],
        "domains": [(y["gpus"], y["count"], y["nvlink_bps_per_gpu"],
                     y["hbm_bytes"]) for y in d],
        "ratio": d[0]["nvlink_to_scaleout"] if d else None,
        "dom_ring": d[0]["allreduce_ring_ns"] if d else None,
        "dom_tree": d[0]["allreduce_tree_ns"] if d else None,
        "out": x["scaleout_bps_per_gpu"], "out_gpus": x["scaleout_gpus"],
        "net_ring": co["fabric_allreduce_ring_ns"],
        "net_tree": co["fabric_allreduce_tree_ns"],
        "alltoall": co["alltoall_ns"],
        "train": x["model_params"]["training_max"],
        "infer": x["model_params"]["inference_max"],
        "infer_dom": x["model_params"]["inference_max_per_domain"],
    }


def cmd_mixed(report, std, design):
    out, check = results()
    c = json.load(open(report))["capacity"]
    parts = std_parts(std)
    lets = design_lets(design)
    h100 = gpu_figures(parts, "h100_sxm")
    b200 = gpu_figures(parts, "b200_nvl72")
    want = {
        "h100_ib": expect_cluster(h100, lets["NODES"] * DGX_GPUS, DGX_GPUS,
                                  8, DGX_GPUS),
        "gb200_ib": expect_cluster(b200, lets["NVL72_RACKS"] * NVL72_GPUS,
                                   NVL72_GPUS, 4, 4),
    }
    clusters = {x["name"]: x for x in c.get("clusters", [])}
    check("mixed-hall/two-clusters", sorted(clusters) == sorted(want),
          "got %s" % sorted(clusters))
    for name, w in want.items():
        if name not in clusters:
            check("mixed-hall/" + name, False, "no such cluster")
            continue
        g = got_cluster(clusters[name])
        bad = {k: (g[k], w[k]) for k in w if g[k] != w[k]}
        check("mixed-hall/" + name, not bad, str(bad) if bad else "")
    # the design-wide totals add up; nothing else is design-wide
    tot = sum(w["hbm"] for w in want.values())
    stale = [k for k in ("model_params", "collectives", "nvlink_domain_gpus")
             if k in c]
    check("mixed-hall/totals", c["gpus"] == sum(
        w["gpus"] for w in want.values()) and c["hbm_bytes_total"] == tot
        and not stale, "HBM total %s, want %s; design-wide keys that do "
        "not add up: %s" % (c["hbm_bytes_total"], tot, stale))
    return out


def cmd_bounds(report, std, design, cl_h100, cl_gb200):
    out, check = results()
    c = json.load(open(report))["capacity"]
    parts = std_parts(std)
    lets = design_lets(design)
    h100 = gpu_figures(parts, "h100_sxm")
    b200 = gpu_figures(parts, "b200_nvl72")
    # every NVLink domain of the design: its cluster, GPUs, rate, count
    domains = [(cl_h100, DGX_GPUS, h100["nvlink"], lets["NODES"]),
               (cl_gb200, NVL72_GPUS, b200["nvlink"], lets["NVL72_RACKS"])]
    if "clusters" not in c:
        # a report without clusters: its one NVLink bound claims to
        # bound every domain
        co = c["collectives"]
        clusters = {name: {"nvlink_domains": [{
            "gpus": p, "count": n, "basis": co["nvlink_basis"],
            "allreduce_ring_ns": co["nvlink_allreduce_ring_ns"],
            "allreduce_tree_ns": co["nvlink_allreduce_tree_ns"]}]}
            for name, p, _, n in domains}
    else:
        clusters = {x["name"]: x for x in c["clusters"]}
    ok = True
    for name, p, b, n in domains:
        x = clusters.get(name)
        cls = [y for y in (x["nvlink_domains"] if x else [])
               if y["gpus"] == p]
        what = "bounds/%s/%d-GPU domains" % (name, p)
        if sum(y["count"] for y in cls) != n:
            check(what, False, "%d domains in its classes, want %d" %
                  (sum(y["count"] for y in cls), n))
            ok = False
            continue
        bad = ["%s %d ns above the domain's time %.2f ns" % (key, y[key], t)
               for y in cls if y["basis"] == "lower bound"
               for key, t in (("allreduce_ring_ns", ring(p, b)),
                              ("allreduce_tree_ns", tree(p, b)))
               if y[key] > t]
        check(what, not bad, "; ".join(bad))
        ok = ok and not bad
    n = sum(y["count"] for x in clusters.values()
            for y in x["nvlink_domains"])
    want = sum(d[3] for d in domains)
    check("bounds/every-domain-in-one-class", n == want,
          "%d domains in classes, %d in the design" % (n, want))
    return out


RATE = re.compile(r"([0-9][0-9.,]*) ?([kMGTP]?)([bB])/s")


def cmd_units(report, html, std):
    out, check = results()
    r = json.load(open(report))
    c = r["capacity"]
    parts = std_parts(std)
    # JSON: every rate an integer in bits per second
    bad = []

    def walk(o, path):
        if isinstance(o, dict):
            for k, v in o.items():
                if k.endswith("_bps") and not (v is None or (
                        isinstance(v, int) and not isinstance(v, bool))):
                    bad.append(path + k)
                walk(v, path + k + ".")
        elif isinstance(o, list):
            for v in o:
                walk(v, path)
    walk(c, "capacity.")
    for m in c["gpu_models"]:
        want = gpu_figures(parts, m["part"])["hbm_bw"]
        if m["hbm_bps"] != want:
            bad.append("%s hbm_bps %s, want %s" % (m["part"], m["hbm_bps"],
                                                   want))
    check("units/json-bits-per-second", not bad, "; ".join(bad))
    # HTML: the capacity section spells every rate in bits per second,
    # and the HBM bandwidths equal report.json's
    text = open(html).read()
    sec = text[text.index('<section id="capacity">'):]
    sec = sec[:sec.index("</section>")]
    spell = sorted({m.group(2) + m.group(3) + "/s"
                    for m in RATE.finditer(sec)})
    check("units/html-one-spelling",
          spell and all(u.endswith("b/s") for u in spell),
          "rates spelled %s" % spell)

    def row(label):
        return re.findall(r'<th scope="row">%s</th><td class="n">([^<]*)'
                          % re.escape(label), sec)

    def bps(v):
        m = RATE.fullmatch(v.strip())
        if not m:
            return None
        n = F(m.group(1).replace(",", "")) * SCALE[m.group(2)]
        return n * 8 if m.group(3) == "B" else n
    got = [bps(v) for v in row("HBM bandwidth, total") + row("HBM bandwidth")]
    want = [c["hbm_bps_total"]] + [x["hbm_bps"]
                                   for x in c.get("clusters", [])]
    check("units/html-equals-json", got == want,
          "HTML %s, JSON %s" % (got, want))
    return out


def cmd_cables(report, cabling, cables, backplane):
    out, check = results()
    t = json.load(open(report))["totals"]
    ids = {row["cable_id"] for row in csv.DictReader(open(cabling))}
    check("cables/count", t["cables"] == int(cables),
          "%s, want %s" % (t["cables"], cables))
    check("cables/as-cabling-csv", t["cables"] == len(ids),
          "%s, cabling.csv %d" % (t["cables"], len(ids)))
    check("cables/backplane-apart", t.get("backplane_links") == int(
        backplane), "%s, want %s" % (t.get("backplane_links"), backplane))
    return out


def balanced_cuts(links, nodes, weights=None):
    """{split: least cut} for every balanced split of @nodes (a frozenset
    of the side holding floor(n/2), and its complement), every other
    vertex of @links (u, v, bps) on whichever side cuts least"""
    import itertools
    verts = sorted({x for u, v, _ in links for x in (u, v)} - set(nodes))
    out = {}
    for a in itertools.combinations(sorted(nodes), len(nodes) // 2):
        side = {x: 0 for x in nodes}
        side.update({x: 1 for x in a})
        best = None
        for bits in range(1 << len(verts)):
            for i, x in enumerate(verts):
                side[x] = bits >> i & 1
            c = sum(r for u, v, r in links if side[u] != side[v])
            best = c if best is None or c < best else best
        out[frozenset(a)] = best
    return out


def cmd_alltoall(report, cabling, spec):
    out, check = results()
    spec = json.loads(spec)
    gpus = spec["gpus"]

    def speed(port):
        """the speed of a port, by its name without the index"""
        return spec["port_bps"][re.sub(r"\[.*", "", port)]

    rows = list(csv.DictReader(open(cabling, newline="")))
    links = {}
    for r in rows:
        rate = min(speed(r["a_port"]), speed(r["b_port"]))
        links.setdefault(r["fabric"], []).append(
            (r["a_device"], r["b_device"], rate))
    nodes = sorted(gpus)
    fab = links[spec["fabric"]]
    cuts = balanced_cuts(fab, nodes)
    least = min(cuts.values())
    # the GPUs of each side of every least split
    halves = {tuple(sorted((sum(gpus[x] for x in a),
                            sum(gpus[x] for x in nodes if x not in a))))
              for a, c in cuts.items() if c == least}
    n = sum(gpus.values())
    inj = sum(r for u, v, r in fab for x in (u, v) if x in gpus)
    b = inj // n
    x = least + spec["other_bps"]
    # every least split must give one figure: the test pins it
    check("alltoall/one-product", len({g[0] * g[1] for g in halves}) == 1,
          "GPU halves of the least splits: %s" % sorted(halves))
    ga, gb = sorted(halves)[0]
    want_inj = F((n - 1) * 8 * S * 10**9, n * b)
    want_cut = F(ga * gb * 8 * S * 10**9, n * x)
    c = json.load(open(report))["capacity"]["clusters"]
    co = c[0]["collectives"] if len(c) == 1 else {}
    check("alltoall/cluster", len(c) == 1 and c[0]["scaleout_fabric"] ==
          spec["fabric"], "clusters %s" % [y["name"] for y in c])
    check("alltoall/cut", co.get("alltoall_cut_bps") == x,
          "%s, want %d (least cut %d + other fabrics %d)" %
          (co.get("alltoall_cut_bps"), x, least, spec["other_bps"]))
    check("alltoall/split", sorted(co.get("alltoall_cut_gpus") or []) ==
          [ga, gb], "%s, want %s" % (co.get("alltoall_cut_gpus"),
                                     [ga, gb]))
    check("alltoall/time", co.get("alltoall_ns") ==
          floor(max(want_inj, want_cut)),
          "%s, want max(%d, %d)" % (co.get("alltoall_ns"),
                                    floor(want_inj), floor(want_cut)))
    # sound: the cut it goes through is at least the least cut of every
    # such split in the graph of every joining fabric together, so no
    # route around the scale-out fabric beats the bound
    if spec["other"]:
        every = [e for f in [spec["fabric"]] + spec["other"]
                 for e in links[f]]
        joint = balanced_cuts(every, nodes)
        worst = max(joint[a] for a, c in cuts.items() if c == least)
        check("alltoall/sound", x >= worst,
              "cut %d, least joint cut of a least split %d" % (x, worst))
    return out


def main():
    cmds = {"mixed": cmd_mixed, "bounds": cmd_bounds, "units": cmd_units,
            "cables": cmd_cables, "alltoall": cmd_alltoall}
    out = cmds[sys.argv[1]](*sys.argv[2:])
    print("\n".join(out))


if __name__ == "__main__":
    main()
