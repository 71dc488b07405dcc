#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fat trees that ask for oversubscription d:u (tests/fattree-ratio.sh).

fattree_ratio_check.py RACKC TMPDIR TIMEOUT TOP_SRCDIR

Everything checked is counted here from cabling.csv and compared with
figures worked out from the design's numbers alone (doc/language.md,
fat_tree: D = R*d/(d+u) ports down, su_size the largest multiple of d (in
lowest terms) at most D, Uf = ceil(su_size*u/d) uplinks on a full leaf, a
leaf of n endpoints cabling ceil(n*u/d) of them):
  - 16 DGX H100 on QM9700 at 2:1: 8 leaves of 16 endpoints and 8 uplinks,
    3 spines (the least divisor of Uf = 21 from ceil(8*21/64) = 3), 11
    switches, where the non-blocking tree of the same endpoints has 12
    (8 leaves, 4 spines), and report.json says 2:1;
  - a sweep over 1:1, 2:1, 3:1 and 4:1 and 1 to 64 nodes on three
    switch and rail shapes (two, three and four tiers): no tree has more
    switches than the 1:1 tree of the same endpoints; every leaf is
    exactly d:u, or a fabric-ratio warning names the fabric (and only
    then); no leaf is more oversubscribed than asked; report.json's
    oversubscription is the worst leaf's down:up counted from the
    cables; in two tiers each leaf cables min(Uf, ceil(n*u/d)) uplinks.
Prints one "PASS/FAIL<TAB>case<TAB>detail" line per case.
"""
import csv
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from math import gcd

RACKC, TMP, TIMEOUT, TOP = (sys.argv[1], sys.argv[2], int(sys.argv[3]),
                            sys.argv[4])


def out(ok, case, detail=""):
    detail = " ".join(detail.split())[:400] if not ok else ""
    print("%s\t%s\t%s" % ("PASS" if ok else "FAIL", case, detail))
    sys.stdout.flush()


def run(name, text):
    path = os.path.join(TMP, name + ".rack")
    with open(path, "w") as f:
        f.write(text)
    odir = os.path.join(TMP, name + ".out")
    p = subprocess.run([RACKC, "-I", TOP,
                        "-O", "report,cabling", "-o", odir, path],
                       capture_output=True, text=True, timeout=TIMEOUT)
    return p.returncode, p.stderr, odir


def cdiv(a, b):
    return -(-a // b)


def least_divisor_from(n, lo):
    for t in range(max(lo, 1), n + 1):
        if n % t == 0:
            return t
    return n


def tiers_of(name):
    m = re.search(r"\.(leaf|spine|core|top)\[\d+\]$", name)
    return m.group(1) if m else None


def fabric_cables(odir):
    """fabric -> (switches, leaf -> [down, up])"""
    sw = defaultdict(set)
    io = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    with open(os.path.join(odir, "cabling.csv"), newline="") as f:
        for r in csv.DictReader(f):
            fab = r["fabric"]
            a, b = r["a_device"], r["b_device"]
            for x in (a, b):
                if tiers_of(x):
                    sw[fab].add(x)
            for x, y in ((a, b), (b, a)):
                if tiers_of(x) == "leaf":
                    io[fab][x][0 if tiers_of(y) is None else 1] += 1
    return sw, io


def report_of(odir):
    with open(os.path.join(odir, "report.json")) as f:
        return {x["name"]: x for x in json.load(f)["fabrics"]}


def ratio_text(fr):
    return "%d:%d" % (fr.numerator, fr.denominator)


def reported_case():
    # the design: 16 DGX H100 (8 rails) on QM9700 at 2:1, and the
    # same endpoints non-blocking
    text = 'import "std/nvidia"\n'
    for f, ratio in (("two", "2:1"), ("one", "1:1")):
        text += ("group %s { for n in 0..15 { node dgx[n] : dgx_h100 { } } }\n"
                 "fabric %s_f : fat_tree {\n\tendpoints %s.dgx[*].ib[0..7]\n"
                 "\tswitch qm9700\n\toversubscription %s\n}\n"
                 % (f, f, f, ratio))
    text += "require oversubscription(two_f) >= 200%\n"
    text += "require switches(two_f) < switches(one_f)\n"
    rc, err, odir = run("dgx16", text)
    if rc != 0:
        out(False, "dgx16-2:1", "exit %d: %s" % (rc, err[:300]))
        return
    sw, io = fabric_cables(odir)
    rep = report_of(odir)
    R, nodes, rails = 64, 16, 8
    want = {}
    for name, (d, u) in (("two_f", (2, 1)), ("one_f", (1, 1))):
        D = R * d // (d + u)
        su = D - D % (d // gcd(d, u))
        Uf = cdiv(su * u, d)
        L = cdiv(nodes, su) * rails
        up = min(Uf, cdiv(nodes * u, d))
        S = least_divisor_from(Uf, cdiv(L * Uf, R))
        S = min(S, up)            # a lone unit reaches only so many
        want[name] = (L, S, up)
    problems = []
    for name, (L, S, up) in sorted(want.items()):
        leaves = [x for x in sw[name] if tiers_of(x) == "leaf"]
        spines = [x for x in sw[name] if tiers_of(x) == "spine"]
        if (len(leaves), len(spines)) != (L, S):
            problems.append("%s: %d leaves, %d spines; want %d and %d"
                            % (name, len(leaves), len(spines), L, S))
        for leaf, (dn, un) in sorted(io[name].items()):
            if (dn, un) != (nodes, up):
                problems.append("%s: %s %d down %d up; want %d and %d"
                                % (name, leaf, dn, un, nodes, up))
        if rep[name]["switches"] != L + S:
            problems.append("%s: report says %s switches, want %d"
                            % (name, rep[name]["switches"], L + S))
    if want["two_f"][0] + want["two_f"][1] != 11 or \
            want["one_f"][0] + want["one_f"][1] != 12:
        problems.append("closed form: %r" % want)
    if rep["two_f"].get("oversubscription") != "2:1":
        problems.append("report: %s" % rep["two_f"].get("oversubscription"))
    if "warning" in err or "error" in err:
        problems.append("diagnostics: %s" % err[:300])
    out(not problems, "dgx16-2:1", "; ".join(problems[:4]))


SHAPES = (  # switch ports, rails
    (64, 8), (8, 1), (12, 2))
RATIOS = ((1, 1), (2, 1), (3, 1), (4, 1))
NODES = range(1, 65)


def sweep():
    built = {}      # (P, rails, ratio, n) -> switches
    for P, rails in SHAPES:
        for d, u in RATIOS:
            text = ("part srv : server { height 1U; port ib[0..%d] "
                    "{ speed 400Gb/s; protocol ib } }\n"
                    "part sw : switch { height 1U; port p[0..%d] "
                    "{ speed 400Gb/s; protocol ib } }\n" % (rails - 1, P - 1))
            for n in NODES:
                text += ("group g%d { for i in 0..%d { node s[i] : srv { } } }\n"
                         "fabric f%d : fat_tree {\n\tendpoints g%d.s[*].ib[*]\n"
                         "\tswitch sw\n\toversubscription %d:%d\n}\n"
                         % (n, n - 1, n, n, d, u))
            case = "P%d-R%d-%d:%d" % (P, rails, d, u)
            rc, err, odir = run(case, text)
            if rc != 0:
                out(False, case, "exit %d: %s" % (rc, err[:300]))
                continue
            sw, io = fabric_cables(odir)
            rep = report_of(odir)
            warned = set(re.findall(r"fabric '(f\d+)' asks for "
                                    r"oversubscription \d+:\d+, but", err))
            D = P * d // (d + u)
            dd = d // gcd(d, u)
            su = D - D % dd if D >= dd else D
            Uf = min(P - D, cdiv(su * u, d))
            problems = []
            for n in NODES:
                name = "f%d" % n
                built[(P, rails, (d, u), n)] = len(sw[name])
                leaves = io[name]
                ups = [(dn, un) for dn, un in leaves.values() if un]
                exact = all(dn * u == un * d for dn, un in ups)
                if d != u and exact == (name in warned):
                    problems.append("%s: d:u %s, %s" % (
                        name, "met" if exact else "not met",
                        "warned" if exact else "not warned"))
                if d == u and name in warned:
                    problems.append("%s: warned at 1:1" % name)
                if any(dn * u > un * d for dn, un in ups):
                    problems.append("%s: a leaf beyond %d:%d" % (name, d, u))
                if ups:
                    worst = max(Fraction(dn, un) for dn, un in ups)
                    got = rep[name].get("oversubscription")
                    if got != ratio_text(worst):
                        problems.append("%s: report %s, cables %s"
                                        % (name, got, ratio_text(worst)))
                if rep[name]["tiers"] == 2:
                    for leaf, (dn, un) in leaves.items():
                        if un != min(Uf, cdiv(dn * u, d)):
                            problems.append(
                                "%s: %s has %d up for %d down, want %d"
                                % (name, leaf, un, dn,
                                   min(Uf, cdiv(dn * u, d))))
                            break
            out(not problems, case, "; ".join(problems[:4]))
    # never more switches than the non-blocking tree of the same endpoints
    for P, rails in SHAPES:
        for ratio in RATIOS[1:]:
            case = "P%d-R%d-%d:%d-vs-1:1" % ((P, rails) + ratio)
            over = [n for n in NODES
                    if (P, rails, ratio, n) in built and
                    (P, rails, (1, 1), n) in built and
                    built[(P, rails, ratio, n)] >
                    built[(P, rails, (1, 1), n)]]
            missing = [n for n in NODES if (P, rails, ratio, n) not in built]
            out(not over and not missing, case,
                "more switches than 1:1 at %s nodes; missing %s"
                % (over[:8], missing[:8]))


def main():
    reported_case()
    sweep()


main()
