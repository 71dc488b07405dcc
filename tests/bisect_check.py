#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent bisection figures for the bisection tests (tests/bisect-gen.sh,
tests/bisect-nx.sh), at both levels of doc/language.md §9.11.

A fabric is an undirected networkx graph whose edges carry "capacity" (per
direction); the terminals of a level are vertices of it, every other vertex
a switch.  Nothing here uses rackc's methods:

  truth()  the least cut over every balanced split of the terminals.  With
           no link between two terminals it enumerates the sides of the
           switches instead (at most 2^16): for fixed switch sides each
           terminal costs its links to the other side, independently of the
           others, so the cheapest floor(n/2) (or ceil(n/2)) terminals for
           side A are taken by sorting; otherwise every balanced split of
           the terminals is cut by networkx max-flow.
  cut()    networkx max-flow between two sets of terminals (unbounded
           edges from a super source and to a super sink).

parse_explain() reads `rackc --explain`: per fabric and level, the interval,
the method and the witness halves.  check_level() holds one level to the
truth: the witness is balanced, holds every terminal once, and its max-flow
cut is the upper bound; the truth lies within the bounds, equal to both when
rackc says exact.
"""
import itertools
import re

import networkx as nx


def cut(G, side_a, side_b):
    """the least cut between two sets of vertices of @G, by max-flow"""
    H = nx.DiGraph()
    for a, b, d in G.edges(data=True):
        for u, v in ((a, b), (b, a)):
            if H.has_edge(u, v):
                H[u][v]["capacity"] += d["capacity"]
            else:
                H.add_edge(u, v, capacity=d["capacity"])
    H.add_node("SRC")
    H.add_node("SNK")
    for x in side_a:
        H.add_edge("SRC", x)  # no capacity: unbounded
    for x in side_b:
        H.add_edge(x, "SNK")
    return nx.maximum_flow_value(H, "SRC", "SNK")


def truth(G, terminals):
    """the bisection of @G over @terminals: the least cut over the
    balanced splits (None when it would take too long here)"""
    terms = sorted(terminals)
    tset = set(terms)
    n = len(terms)
    if n < 2:
        return None
    sizes = sorted({n // 2, n - n // 2})
    direct = any(a in tset and b in tset and a != b
                 for a, b in G.edges())
    switches = sorted(x for x in G if x not in tset)
    if not direct and len(switches) <= 16:
        best = None
        for bits in range(1 << len(switches)):
            on_a = {s for i, s in enumerate(switches) if bits >> i & 1}
            base = 0
            cost = {t: [0, 0] for t in terms}  # [on A, on B]
            for a, b, d in G.edges(data=True):
                c = d["capacity"]
                if a == b:
                    continue
                if a in tset or b in tset:
                    t, s = (a, b) if a in tset else (b, a)
                    if s in on_a:
                        cost[t][1] += c
                    else:
                        cost[t][0] += c
                elif (a in on_a) != (b in on_a):
                    base += c
            gain = sorted(cost[t][0] - cost[t][1] for t in terms)
            every_b = sum(cost[t][1] for t in terms)
            for k in sizes:
                v = base + every_b + sum(gain[:k])
                best = v if best is None or v < best else best
        return best
    if n > 16:
        return None
    best = None
    first, rest = terms[0], terms[1:]
    for k in sizes:
        for side in itertools.combinations(rest, k - 1):
            a = {first, *side}
            v = cut(G, a, tset - a)
            best = v if best is None or v < best else best
    return best


def parse_explain(text):
    """{fabric: {"": level, "node ": level}}, a level being a dict of lo,
    hi, exact, method, a, b (the witness halves) or None (n/a)"""
    out = {}
    for block in re.split(r"^fabric ", text, flags=re.M)[1:]:
        name = block.split(":", 1)[0]
        levels = {}
        for pre in ("", "node "):
            p = re.escape(pre)
            m = re.search(r"^  %sbisection: (?:at least (\d+) b/s, at most "
                          r"(\d+)|(\d+)) b/s" % p, block, re.M)
            if not m:
                levels[pre] = None
                continue
            lo = int(m.group(1) or m.group(3))
            hi = int(m.group(2) or m.group(3))
            how = re.search(r"^  %smethod: (.*)$" % p, block, re.M).group(1)
            sides = []
            for s in "AB":
                w = re.search(r"^    %sside %s \((\d+)\):(.*)$" % (p, s),
                              block, re.M)
                names = w.group(2).split()
                if int(w.group(1)) != len(names):
                    raise ValueError("side %s of %s: count %s, %d names" %
                                     (s, name, w.group(1), len(names)))
                sides.append(names)
            levels[pre] = {"lo": lo, "hi": hi, "exact": m.group(3) is not None,
                           "method": how, "a": sides[0], "b": sides[1]}
        out[name] = levels
    return out


def check_level(what, G, terminals, lv, want=None):
    """problems of level @lv (parse_explain) against @G over @terminals;
    @want: the true bisection when known otherwise (None: truth())"""
    bad = []
    terms = set(terminals)
    a, b = set(lv["a"]), set(lv["b"])
    if len(a) + len(b) != len(lv["a"]) + len(lv["b"]) or a & b:
        bad.append("%s: a terminal named twice in the witness" % what)
    if a | b != terms:
        bad.append("%s: witness terminals %s, expected %s" %
                   (what, sorted(a | b), sorted(terms)))
        return bad, None
    if abs(len(a) - len(b)) > 1:
        bad.append("%s: witness not balanced (%d | %d)" %
                   (what, len(a), len(b)))
    w = cut(G, a, b)
    if w != lv["hi"]:
        bad.append("%s: witness cuts %d, upper bound %d" %
                   (what, w, lv["hi"]))
    true = want if want is not None else truth(G, terms)
    if true is not None:
        if not lv["lo"] <= true <= lv["hi"]:
            bad.append("%s: truth %d not within [%d, %d]" %
                       (what, true, lv["lo"], lv["hi"]))
        if lv["exact"] and lv["lo"] != true:
            bad.append("%s: exact %d, truth %d" % (what, lv["lo"], true))
    return bad, true
