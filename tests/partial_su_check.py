#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two-tier fat trees with a partial scalable unit (tests/partial-su.sh).

partial_su_check.py RACKC TMPDIR TIMEOUT

For switches of P ports (1:1 and 3:1), 1 to 4 rails, several su_size
and 0 to 2 full units before a last unit of every size 1 .. su_size-1,
it writes designs (one fabric per case), compiles them and reads back
cabling.csv and report.json.  What it checks is computed here, from the
design's numbers alone (doc/language.md, fat_tree):
  - leaf l of unit u, rail r is leaf[u*R + r]; its endpoints: su_size in
    a full unit, the remainder in the last;
  - Uf = min(U, ceil(su_size*u/d)), U = P - D, D = P*d/(d+u); a leaf
    of n endpoints cables min(Uf, ceil(n*u/d)) uplinks (never more
    uplink than downlink at 1:1; d:u exactly where n*u/d is whole);
  - at 3:1, a leaf whose n*u/d is not whole is named by a
    fabric-ratio warning, and no other warning is given;
  - S = the least divisor of Uf from ceil(leaves*Uf/P) on;
  - a full leaf sends Uf/S uplinks to every spine, a leaf that cables n
    sends to spine s as many as there are j < n with j mod S = s;
  - no spine has more than P links, no port carries two;
  - at 1:1 the fabric is non-blocking between the servers: the node-level
    bisection (doc/language.md §9.11) = its full bisection.
Filling the last unit node by node only adds cables.  Then edge cases:
a rail some nodes lack (an empty leaf, no links, warned;
`tiers 2` honoured), nearly empty leaves, and port sets of differing
names and speeds (a switch's port of another speed is never used; a
fabric `speed` picks the switch ports; no port at the rate is an error;
slower endpoints get uplinks for their bandwidth).
Prints one "PASS/FAIL<TAB>case<TAB>detail" line per case.
"""
import csv
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

RACKC, TMP, TIMEOUT = sys.argv[1], sys.argv[2], int(sys.argv[3])


def out(ok, case, detail=""):
    detail = " ".join(detail.split())[:400] if not ok else ""
    print("%s\t%s\t%s" % ("PASS" if ok else "FAIL", case, detail))
    sys.stdout.flush()


def run(name, text, args=("-O", "report,cabling")):
    path = os.path.join(TMP, name + ".rack")
    with open(path, "w") as f:
        f.write(text)
    odir = os.path.join(TMP, name + ".out")
    p = subprocess.run([RACKC, *args, "-o", odir, path],
                       capture_output=True, text=True, timeout=TIMEOUT)
    return p.returncode, p.stderr, odir


def idx(name, tier):
    m = re.search(r"\.%s\[(\d+)\]$" % tier, name)
    return int(m.group(1)) if m else None


def links(odir):
    """fabric -> list of (a_dev, a_port, b_dev, b_port)"""
    by = defaultdict(list)
    with open(os.path.join(odir, "cabling.csv"), newline="") as f:
        for r in csv.DictReader(f):
            by[r["fabric"]].append((r["a_device"], r["a_port"],
                                    r["b_device"], r["b_port"]))
    return by


def uplinks_per_leaf(ls):
    """leaf index -> leaf-spine links, either end first"""
    up = Counter()
    for a, _, b, _ in ls:
        for x, y in ((a, b), (b, a)):
            if idx(x, "leaf") is not None and idx(y, "spine") is not None:
                up[idx(x, "leaf")] += 1
    return up


def least_divisor_from(n, lo):
    for t in range(max(lo, 1), n + 1):
        if n % t == 0:
            return t
    return None


PARTS = """part srv{R} : server {{ height 1U; port ib[0..{R1}] {{ speed 400Gb/s; protocol ib }} }}
"""
SWITCH = """part sw{P} : switch {{ height 1U; port p[0..{P1}] {{ speed 400Gb/s; protocol ib }}; port mgmt {{ role mgmt }} }}
"""


def sweep():
    cases = 0
    shapes = []
    for P in (8, 12, 16, 64):
        for ratio in ((1, 1), (3, 1)):
            D = P * ratio[0] // (ratio[0] + ratio[1])
            U = P - D
            for R in (1, 2, 4):
                for su in sorted({2, 3, D // 2 + 1, D - 1, D}):
                    if su < 2 or su > D:
                        continue
                    shapes.append((P, ratio, D, U, R, su))
    for (P, ratio, D, U, R, su) in shapes:
        text = PARTS.format(R=R, R1=R - 1) + SWITCH.format(P=P, P1=P - 1)
        fabs = {}
        for k in (0, 1, 2):
            if (k + 1) * R > P:
                continue
            for m in range(1, su):
                name = "f%d_%d" % (k, m)
                n = k * su + m
                text += "group g%d_%d { for n in 0..%d { node s[n] : srv%d {} } }\n" % (
                    k, m, n - 1, R)
                text += ("fabric %s : fat_tree {\n\tendpoints g%d_%d.s[*].ib[0..%d]\n"
                         "\tswitch sw%d\n\tsu_size %d\n\toversubscription %d:%d\n}\n"
                         % (name, k, m, R - 1, P, su, ratio[0], ratio[1]))
                fabs[name] = (k, m)
        case = "P%d-%d:%d-R%d-su%d" % (P, ratio[0], ratio[1], R, su)
        rc, err, odir = run(case, text)
        other = [ln for ln in err.splitlines() if "warning:" in ln and
                 "nearly empty" not in ln and "[fabric-ratio]" not in ln]
        if rc != 0 or other:
            out(False, case, "exit %d: %s" % (rc, err.strip()[:300]))
            continue
        report = {f["name"]: f for f in
                  json.load(open(os.path.join(odir, "report.json")))["fabrics"]}
        by = links(odir)
        problems = []
        d, u = ratio

        def cdiv(a, b):
            return -(-a // b)
        Uf = min(U, cdiv(su * u, d))
        for name, (k, m) in sorted(fabs.items()):
            cases += 1
            nsu = k + 1
            L = nsu * R
            # one leaf: one tier, no spines; spines that would carry no
            # link (fewer uplinks on every leaf than spines) are not built
            S = least_divisor_from(Uf, -(-L * Uf // P)) if L > 1 else 0
            S = min(S, Uf if k else min(Uf, cdiv(m * u, d)))
            down = Counter()
            up = defaultdict(Counter)       # leaf -> spine -> count
            used = Counter()                 # (device, port) -> uses
            for a, ap, b, bp in by[name]:
                used[(a, ap)] += 1
                used[(b, bp)] += 1
                if idx(b, "leaf") is not None and idx(a, "leaf") is None \
                        and idx(a, "spine") is None:
                    down[idx(b, "leaf")] += 1
                elif idx(a, "leaf") is not None and idx(b, "spine") is not None:
                    up[idx(a, "leaf")][idx(b, "spine")] += 1
                elif idx(b, "leaf") is not None and idx(a, "spine") is not None:
                    up[idx(b, "leaf")][idx(a, "spine")] += 1
                else:
                    problems.append("%s: unexpected link %s.%s -- %s.%s"
                                    % (name, a, ap, b, bp))
            if any(v != 1 for v in used.values()):
                problems.append("%s: a port carries two links" % name)
            spines = {s for c in up.values() for s in c}
            if len(spines) != S or (spines and max(spines) != S - 1):
                problems.append("%s: spines %s, want %d" % (name,
                                                            sorted(spines), S))
            load = Counter()
            for leaf in range(L):
                n = su if leaf // R < k else m
                want_up = min(Uf, cdiv(n * u, d)) if S else 0
                if down[leaf] != n:
                    problems.append("%s: leaf %d has %d endpoints, want %d"
                                    % (name, leaf, down[leaf], n))
                got = sum(up[leaf].values())
                if got != want_up or got > down[leaf]:
                    problems.append("%s: leaf %d has %d uplinks for %d "
                                    "endpoints, want %d" % (name, leaf, got,
                                                            n, want_up))
                for s in range(S):
                    want = sum(1 for j in range(want_up) if j % S == s)
                    if up[leaf][s] != want:
                        problems.append("%s: leaf %d has %d uplinks on spine "
                                        "%d, want %d" % (name, leaf,
                                                         up[leaf][s], s, want))
                    load[s] += up[leaf][s]
            if load and max(load.values()) > P:
                problems.append("%s: a spine has %d links of %d ports"
                                % (name, max(load.values()), P))
            f = report[name]
            if f["tiers"] != (2 if S else 1) or f["switches"] != L + S:
                problems.append("%s: %s tiers, %s switches, want %d and %d"
                                % (name, f["tiers"], f["switches"],
                                   2 if S else 1, L + S))
            if ratio == (1, 1) and f["nodes"] >= 2 and \
                    f["node_bisection_bps"] != f["node_full_bisection_bps"]:
                problems.append("%s: node bisection %s of %s (%s): blocking"
                                % (name, f["node_bisection_bps"],
                                   f["node_full_bisection_bps"],
                                   f["node_bisection_method"]))
            # d:u not met exactly (a leaf's n*u/d not whole): warned at
            # the fabric's oversubscription, naming a leaf that differs
            inexact = S and any((su if lf // R < k else m) * u % d
                                for lf in range(L))
            said = "fabric '%s' asks for oversubscription" % name in err
            if bool(inexact) != said:
                problems.append("%s: d:u %s, %s" % (
                    name, "not met" if inexact else "met",
                    "not said" if inexact else "said wrongly"))
            # a leaf is nearly empty with a quarter or less of the fullest's
            nearly = m * 4 <= (su if k else m)
            said = any("leaf %s.leaf[" % name in ln and "nearly empty" in ln
                       for ln in err.splitlines())
            if nearly != said:
                problems.append("%s: nearly empty (%d of %d) %s"
                                % (name, m, su if k else m,
                                   "not said" if nearly else "said wrongly"))
        out(not problems, case, "; ".join(problems[:3]))
    return cases


def edge_cases():
    base = PARTS.format(R=2, R1=1) + SWITCH.format(P=8, P1=7)
    # a rail some nodes lack: its leaves in their unit have no endpoints
    text = base + """part one : server { height 1U; port ib[0] { speed 400Gb/s; protocol ib } }
for n in 0..3 { node a[n] : srv2 {} }
for n in 0..3 { node b[n] : one {} }
fabric e : fat_tree {
	endpoints a[*].ib[0..1], b[*].ib[0]
	switch sw8
	tiers 2
}
"""
    rc, err, odir = run("empty-leaf", text)
    by = links(odir) if rc == 0 else {}
    rep = {f["name"]: f for f in json.load(
        open(os.path.join(odir, "report.json")))["fabrics"]} if rc == 0 else {}
    leaf3 = [l for l in by.get("e", []) if "e.leaf[3]" in (l[0], l[2])]
    ok = (rc == 0 and not leaf3 and
          "leaf e.leaf[3] of fabric 'e' has no endpoints: a switch with no "
          "links [fabric-leaf-empty]" in err and rep["e"]["tiers"] == 2 and
          "fabric-tiers" not in err)
    out(ok, "empty-leaf", "exit %d, %d links on leaf[3], tiers %s: %s"
        % (rc, len(leaf3), rep.get("e", {}).get("tiers"), err[:300]))

    # an 800G switch with 2 x 400G breakout ports and an SFP28 port with no
    # speed (as std's sn5600_2x400g): the SFP28 port is never used, and the
    # leaf has 8 ports down, 8 up (16 ports at the fabric's rate)
    text = base + """part brk : switch { height 2U; port p[0..15] { speed 400Gb/s; protocol ib }; port sfp { form SFP28; protocol ib } }
for n in 0..7 { node c[n] : srv2 {} }
fabric b : fat_tree { endpoints c[*].ib[0..1]; switch brk }
"""
    rc, err, odir = run("sfp-port", text)
    ls = links(odir).get("b", []) if rc == 0 else []
    sfp = [l for l in ls if "sfp" in (l[1], l[3])]
    ups = sum(uplinks_per_leaf(ls).values())
    # 2 leaves of 8 nodes, 8 uplinks each over ceil(16/16) = 1 spine
    out(rc == 0 and not sfp and ups == 16 and not err,
        "sfp-port-unused", "exit %d, %d sfp links, %d uplinks: %s"
        % (rc, len(sfp), ups, err[:300]))

    # a switch with ports of two speeds: the fabric's rate picks them
    text = base + """part two : switch { height 1U; port fast[0..7] { speed 800Gb/s; protocol ib }; port p[0..7] { speed 400Gb/s; protocol ib } }
for n in 0..3 { node c[n] : srv2 {} }
fabric t : fat_tree { endpoints c[*].ib[0..1]; switch two }
"""
    rc, err, odir = run("two-speeds", text)
    ls = links(odir).get("t", []) if rc == 0 else []
    fast = [l for l in ls if l[1].startswith("fast") or l[3].startswith("fast")]
    out(rc == 0 and ls and not fast and not err, "two-speeds",
        "exit %d, %d links on 800G ports: %s" % (rc, len(fast), err[:300]))

    # no switch port at the endpoints' rate: an error that says what to do;
    # with the fabric's `speed` the 100G ports are used
    slow = """part sw100 : switch { height 1U; port p[0..7] { speed 100Gb/s; protocol ib } }
for n in 0..3 { node c[n] : srv2 {} }
fabric s : fat_tree { endpoints c[*].ib[0..1]; switch sw100%s }
"""
    rc, err, _ = run("no-rate", base + slow % "")
    out(rc == 1 and "switch part 'sw100' has no fabric ports at 400Gb/s, the "
        "rate of fat_tree 's'" in err and "[fabric]" in err, "no-port-at-rate",
        "exit %d: %s" % (rc, err[:300]))
    rc, err, odir = run("fabric-speed", base + slow % "; speed 100Gb/s")
    ls = links(odir).get("s", []) if rc == 0 else []
    out(rc == 0 and len(ls) == 16, "fabric-speed",
        "exit %d, %d links: %s" % (rc, len(ls), err[:300]))

    # endpoint ports of another name and speed: warned (rail-ports); the
    # leaves of the 200G rail cable uplinks for their bandwidth, ceil(n/2)
    text = base + """part stor : server { height 1U; port st[0..1] { speed 200Gb/s; protocol ib } }
for n in 0..3 { node c[n] : srv2 {} }
for n in 0..2 { node d[n] : stor {} }
fabric m : fat_tree { endpoints c[*].ib[0..1], d[*].st[0..1]; switch sw8; su_size 4 }
"""
    rc, err, odir = run("mixed-speeds", text)
    ls = links(odir).get("m", []) if rc == 0 else []
    up = uplinks_per_leaf(ls)
    # rails ib[0], ib[1], st[0], st[1]; unit 0: c[0..3], unit 1: d[0..2]
    want = {0: 4, 1: 4, 6: 2, 7: 2}
    ok = (rc == 0 and dict(up) == want and "[fabric-rail-ports]" in err and
          "fabric-leaf-uplinks" not in err)
    out(ok, "mixed-speeds", "exit %d, uplinks %s (want %s): %s"
        % (rc, dict(up), want, err[:300]))


def filling():
    """Filling a unit that is not full only adds cables: every cable of
    the design with m nodes in its last unit is in the one with m + 1,
    with the same ends (the spine ports of uncabled uplinks are held)."""
    for (P, R, su, k) in ((16, 2, 8, 1), (12, 3, 5, 1), (64, 4, 18, 2),
                          (16, 4, 8, 0)):
        prev = None
        for m in range(1, su + 1):
            text = (PARTS.format(R=R, R1=R - 1) + SWITCH.format(P=P, P1=P - 1) +
                    "for n in 0..%d { node s[n] : srv%d {} }\n"
                    "fabric f : fat_tree { endpoints s[*].ib[0..%d]; "
                    "switch sw%d; su_size %d }\n" % (k * su + m - 1, R, R - 1,
                                                     P, su))
            case = "fill-P%d-R%d-su%d-k%d-m%d" % (P, R, su, k, m)
            rc, err, odir = run(case, text, ("-O", "cabling"))
            if rc != 0:
                out(False, case, "exit %d: %s" % (rc, err))
                prev = None
                continue
            cables = {tuple(sorted([(a, ap), (b, bp)]))
                      for a, ap, b, bp in links(odir)["f"]}
            if prev is not None:
                gone = prev - cables
                out(not gone, case, "%d cables of m=%d gone or moved: %s"
                    % (len(gone), m - 1, sorted(gone)[:3]))
            prev = cables


def main():
    n = sweep()
    filling()
    print("INFO\t%d fabrics with a partial unit\tchecked" % n)
    edge_cases()


main()
