#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Growth of a fat tree between two cabling.csv files (tests/growth.sh).

growth_check.py OLD.csv NEW.csv MODE
growth_check.py --adds-only DIFF.json   (rackc diff -f json OLD NEW)
growth_check.py --tiers R[:FINAL_PODS] OLD.csv NEW.csv [FABRIC]   (three and
    four tiers, R-port switches, provisioned for FINAL_PODS pods)
growth_check.py --tiers-double OLD.csv NEW.csv [FABRIC]   (core_growth double)
growth_check.py --docs doc/review.md doc/ci.md PLAIN.json PLAIN.txt FINAL.json
    FINAL.md 4TO5.json 8TO9.json   (the SuperPOD's 1 -> 2 SU diff, without
    and with FINAL_SUS=8, and the re-pulls from 4 to 5 and 8 to 9 SUs, as
    the documentation shows them)
MODE all:   every cable of OLD that is not a leaf-spine cable the spine
            count forces to move is in NEW with the same ID and ends
MODE fabric: only the fat trees' cables to their spines are compared
For every fat tree, the leaf-spine cables that move (the spine end
changes) must number exactly the minimum of src/fabric/fabric.c:
  sum over old leaves l, old spines s of max(0, cnt_a(l,s) - spread_b(l,s))
where cnt_a(l,s) is what leaf l cables to spine s in OLD (spread_a(l,s)
for a full leaf; L_a*U*(1 - S_a/S_b) when every old leaf is full and S_b
divides U, checked too), and each leaf's spread over the spines must be
the round-robin one: its first n of U uplinks for a leaf that cables n
(a leaf with fewer endpoints than U, which leaves the other spine ports
free).  Prints one line per
fabric; exits 1 on the first violation.
--tiers: a fat tree of three or four tiers (src/fabric/fabric_tiers.c) grown:
no leaf-spine cable moves (leaf l: pod l // h, spine (l // h)*U + j, port
l % h, h = R/2).  Above the spines (three tiers: the pods' spines to the
cores; four: the groups' cores to the top switches, the spines of a group
dealt round robin over its h*U cores and never moved), in both designs,
counted from the cables: every unit (pod, group) is wired alike, an upper
switch takes at most m = floor(R/K) cables of each of the K units (K
counted from the leaves: ceil(leaves / h) pods, ceil(pods / h) groups;
the provisioned K when given), and there are exactly the fewest upper
switches that allows, ceil(n / m) for n uplinks a unit.  The cables that
move number exactly the minimum any tree of the new size must move:
  K_a * sum over old upper u of max(0, c_a(u) - m_b)
(c_a(u): a unit's cables on u in OLD; every old unit must take all but
m_b of them off u), which is at least K_a * max(0, n - C_a * m_b)
whatever OLD is (the C_a old switches keep at most m_b of each unit's
n); every other cable (of FABRIC, when given) keeps its ID and ends.
--tiers-double: the same growth with `core_growth double`: every lower
switch spreads its h uplinks as spread(x, u, h, N) = #{j < h: (x*h + j)
mod N = u} over the N upper switches of its domain (three tiers: x = the
spine's place in its pod, all cores; four tiers, spines to cores: x = the
spine's place in its group, the group's CG cores; cores to tops: x = the
core's place in its group, all tops), in both designs, and the cables
that move number exactly
  sum over old lower l, old upper u of max(0, spread_a(x, u) - spread_b(x, u))
(the minimum for those spreads).
--adds-only: a growth within the provisioned size only adds: every
device of the diff is added (none moved, changed or removed) and every
cable of its work order is to add (none to re-pull, relabel or remove).
--summary DIFF.json: the diff's summary counts each device change (added,
removed, moved, changed) as its rows do.
--moves DIFF.json OLD.csv NEW.csv [MOVED [REMOVED]]: an unprovisioned
growth moves only what it must (doc/language.md, the placement notes): the
devices the diff moves are exactly MOVED and those it removes exactly
REMOVED (names such as dgx[31..126] or ufm, comma-separated; none when
left out or empty), none is changed, and the cables it re-pulls or removes
are exactly the fat trees' leaf-spine cables the spine counts force (their
number the minimum above) and the cables on a moved device; so no
out-of-band cable is re-pulled unless its device moved.
--fixed-ends OLD.csv NEW.csv: a growth keeps every DGX and the UFM in its
rack and U (the devices are matched by name) and every cable that is not
between two switches of a fat tree (the DGX's and UFM's fabric cables and
every out-of-band cable) whose two devices are in NEW keeps its ID and
ends: what the fabrics' endpoint orders make stable, at any size and
across a change of tiers (the cables between switches are the other
modes' business).
--placed DIFF.json OLD.csv NEW.csv TIERS: an unprovisioned growth keeps
every switch where it is (doc/language.md, the placement notes), measured
twice: the diff moves no device (none changed), and every generated
switch named in both cabling files (FABRIC.TIER[i]) stands in the same
rack at the same U in both; TIERS (comma-separated FABRIC.TIER, e.g.
compute.core) must each have a switch in both, so that the check cannot
pass on an empty comparison.  No cable is re-pulled for its route (a
rack or U of an end changed), replaced for its length (a stock length
crossed) or relabelled: racks keep their floor positions and labels.
--planes=FABRIC:N (with any mode): FABRIC is a fat tree of N planes;
each plane becomes a fabric of its own, FABRIC/p, found from the cables
(the switches its switch-switch cables join, its plane from its leaves'
endpoint ports: port [r] is rail r, on plane r mod N), its switches
renamed FABRIC/p.TIER[i] by rank of index in the plane, the cable IDs
left as they are; every plane's switch of a rank must keep its name
across the growth, and the mode's checks then hold per plane: growth
moves in each plane what a one-plane tree of its size moves.
--plane-tree PLANES.csv ONE.csv FABRIC (with --planes): every plane of
FABRIC is ONE.csv's one-plane tree (the same cables between the same
switches and ports, an endpoint port [r] standing for the plane's rail
r // N), and switch i of a tier of plane p is named TIER[i*N + p].
--kept-at OLD.csv NEW.csv TIERS: every switch of TIERS (FABRIC.TIER,
comma-separated) named in both stands in the same rack at the same U
(the other switches are not compared).
--racks-used IR.rack CABLING.csv ROW: every rack the design declares in
row ROW (its -O ir output) holds a device some cable ends on, and a
rack's slots are all distinct: the racks are sized for the switches
built, none empty (the SuperPOD's network row at its exact counts).
"""
import json
import csv
import re
import sys
from collections import Counter, defaultdict


# --planes=FABRIC:N: FABRIC is a fat tree of N planes (set by main)
PLANES = {}
SW_RE = re.compile(r"^(.*)\.(leaf|spine|core|top)\[(\d+)\]$")


def plane_split(rows, path):
    """The rows of every fabric of --planes, each plane made a fabric of
    its own, FABRIC/p, its switches named as a tree of one plane would
    name them: FABRIC/p.TIER[i], i the switch's rank by index among its
    plane's switches of the tier.  A switch's plane is found from the
    cables, whatever its name says: the switches a plane's switch-switch
    cables join are one plane, and its leaves' endpoint ports (rail
    ib[r]: plane r mod N) say which.  The cable IDs stay as they are, so
    a switch renamed across growth changes the IDs of its cables; and a
    plane's switch of a given rank must keep its name (PLANE_NAMES)."""
    out = []
    for fab, n in PLANES.items():
        up = {}

        def find(x):
            while up.setdefault(x, x) != x:
                up[x] = up[up[x]]
                x = up[x]
            return x
        mine = [r for r in rows if r["fabric"] == fab]
        plane = {}
        for r in mine:
            a, b = r["a_device"], r["b_device"]
            sa, sb = SW_RE.match(a), SW_RE.match(b)
            if sa and sb:
                up[find(a)] = find(b)
            elif sa or sb:
                sw, port = (a, r["b_port"]) if sa else (b, r["a_port"])
                plane[sw] = port_no(port) % n
        comp = {}
        for sw, p in plane.items():
            if comp.setdefault(find(sw), p) != p:
                fail("%s: %s joins planes %d and %d" % (fab, sw, p,
                                                        comp[find(sw)]))
        rank = {}
        by = defaultdict(list)
        for sw in up:
            if find(sw) not in comp:
                fail("%s: %s reaches no endpoint" % (fab, sw))
            m = SW_RE.match(sw)
            by[(comp[find(sw)], m.group(2))].append((int(m.group(3)), sw))
        for (p, tier), sws in by.items():
            for i, (_, sw) in enumerate(sorted(sws)):
                rank[sw] = "%s/%d.%s[%d]" % (fab, p, tier, i)
                PLANE_NAMES.setdefault(path, {})[rank[sw]] = sw
        for r in mine:
            r = dict(r)
            for s in "ab":
                r[s + "_device"] = rank.get(r[s + "_device"],
                                            r[s + "_device"])
            sw = SW_RE.match(r["a_device"]) or SW_RE.match(r["b_device"])
            r["fabric"] = sw.group(1) if sw else r["fabric"]
            out.append(r)
    return out + [r for r in rows if r["fabric"] not in PLANES]


# per cabling file: a plane's switch (FABRIC/p.TIER[i]) -> its name
PLANE_NAMES = {}


def plane_names_kept(old_path, new_path):
    """every switch of a plane (its rank in its plane and tier) has the
    same name in both designs"""
    a, b = PLANE_NAMES.get(old_path, {}), PLANE_NAMES.get(new_path, {})
    for k in sorted(a):
        if k in b and a[k] != b[k]:
            fail("%s is %s, and %s after growth" % (k, a[k], b[k]))
    if PLANES:
        print("ok: %d switches of the planes kept their names" %
              len(set(a) & set(b)))


def plane_tree(planes_path, one_path, fab):
    """every plane of FAB (--planes=FAB:N) in PLANES.csv is the tree
    ONE.csv's FAB is (a one-plane design over as many rails as a plane
    has): the same cables between the same switches and ports, rail r's
    endpoint port ib[r] standing for the plane's rail r // N"""
    n = PLANES[fab]
    rows, _ = load(planes_path)
    one = list(csv.DictReader(open(one_path, newline="")))

    def ends(r, name):
        e = []
        for s in "ab":
            dev, port = r[s + "_device"], r[s + "_port"]
            m = SW_RE.match(dev)
            if m:
                dev = "%s[%s]" % (m.group(2), m.group(3))
            elif name != fab:
                port = re.sub(r"\[(\d+)\]$",
                              lambda x: "[%d]" % (int(x.group(1)) // n),
                              port)
            e.append((dev, port))
        return tuple(sorted(e))
    want = Counter(ends(r, fab) for r in one if r["fabric"] == fab)
    for p in range(n):
        got = Counter(ends(r, "%s/%d" % (fab, p)) for r in rows
                      if r["fabric"] == "%s/%d" % (fab, p))
        if got != want:
            extra = sorted((got - want).elements())[:2]
            lack = sorted((want - got).elements())[:2]
            fail("plane %d of %s: %d cables, the one-plane tree %d; only "
                 "in the plane %s, only in the tree %s" % (
                     p, fab, sum(got.values()), sum(want.values()), extra,
                     lack))
    # the names: the i-th switch of a tier of plane p is TIER[i*N + p]
    for k, sw in PLANE_NAMES[planes_path].items():
        m, w = SW_RE.match(k), SW_RE.match(sw)
        p = int(m.group(1).rpartition("/")[2])
        if int(w.group(3)) != int(m.group(3)) * n + p:
            fail("%s is %s, not %s[%d]" % (k, sw, m.group(2),
                                           int(m.group(3)) * n + p))
    print("ok: each of the %d planes of %s is the one-plane tree, %d "
          "cables; switch i of plane p is named [i*%d + p]" % (
              n, fab, sum(want.values()), n))


def load(path):
    rows = list(csv.DictReader(open(path, newline="")))
    if PLANES:
        rows = plane_split(rows, path)
    cables = {}
    for r in rows:
        a = (r["a_device"], r["a_port"])
        b = (r["b_device"], r["b_port"])
        cables[(r["fabric"],) + tuple(sorted([a, b]))] = r["cable_id"]
    return rows, cables


def idx(name, tier):
    m = re.search(r"\.%s\[(\d+)\]$" % tier, name)
    return int(m.group(1)) if m else None


def uplinks(rows):
    """fabric -> {(leaf, port): (spine, port)}"""
    up = defaultdict(dict)
    for r in rows:
        a = (r["a_device"], r["a_port"])
        b = (r["b_device"], r["b_port"])
        if idx(a[0], "spine") is not None and idx(b[0], "leaf") is not None:
            a, b = b, a
        if idx(a[0], "leaf") is not None and idx(b[0], "spine") is not None:
            up[r["fabric"]][a] = b
    return up


def spread(l, s, U, S, n=None):
    return sum(1 for j in range(U if n is None else n)
               if (l * U + j) % S == s)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def adds_only(path):
    d = json.load(open(path))
    dev = Counter(r["change"] for r in d["devices"])
    work = Counter(r["action"] for r in d["cabling"])
    for r in d["devices"]:
        if r["change"] != "added":
            fail("device %s %s (%s %s -> %s %s)" % (
                r["device"], r["change"], r["rack_before"], r["u_before"],
                r["rack_after"], r["u_after"]))
    for r in d["cabling"]:
        if r["action"] != "add":
            fail("cable %s: %s %s (%s)" % (r["cable_id"], r["action"],
                                           r["cable"], r["detail"]))
    print("ok: only additions: %d devices, %d work-order rows (a cable "
          "per rack it ends in)" % (dev["added"], work["add"]))


def sp_n(x, u, h, n):
    return sum(1 for j in range(h) if (x * h + j) % n == u)


def tier_links(rows, lo, hi):
    """fabric -> {(lower, port): (upper, port)} between two tiers"""
    out = defaultdict(dict)
    for r in rows:
        a = (r["a_device"], r["a_port"])
        b = (r["b_device"], r["b_port"])
        if idx(a[0], hi) is not None and idx(b[0], lo) is not None:
            a, b = b, a
        if idx(a[0], lo) is not None and idx(b[0], hi) is not None:
            out[r["fabric"]][a] = b
    return out


def port_no(p):
    m = re.search(r"\[(\d+)\]$", p)
    return int(m.group(1)) if m else None


def pod_rule(fab, tag, X, U, h, two):
    """The leaf-spine cables X of a three- or four-tier tree: leaf l in pod
    l // h reaches each of its pod's U spines (l // h)*U .. + U-1 once, on
    port l % h; with TWO (the leaf-spine cables of the largest two-tier
    tree of the design, which grew from it), a leaf of the first pod keeps
    instead every cable it had there (the spine and port the two-tier
    growth gave it), and only its other uplinks follow the rule."""
    per = Counter()
    for (leaf, port), (sw, p) in X.items():
        l = idx(leaf, "leaf")
        s = idx(sw, "spine")
        per[(l, s)] += 1
        if s // U != l // h:
            fail("%s %s: %s in pod %d goes to %s" % (fab, tag, leaf, l // h,
                                                     sw))
        if two is not None and l < h and (leaf, port) in two:
            if two[(leaf, port)] != (sw, p):
                fail("%s %s: %s %s goes to %s %s, not to %s %s as in the "
                     "largest two-tier tree" % (
                         fab, tag, leaf, port, sw, p,
                         two[(leaf, port)][0], two[(leaf, port)][1]))
        elif port_no(p) != l % h:
            fail("%s %s: %s %s goes to %s %s, not port %d" % (
                fab, tag, leaf, port, sw, p, l % h))
    leaves = Counter(l for l, _ in per)
    if max(per.values()) != 1 or set(leaves.values()) != {U}:
        fail("%s %s: a leaf does not reach each of its pod's %d spines "
             "once" % (fab, tag, U))


def up_ranks(links):
    """{(lower, port): rank}: a lower switch's uplinks numbered in the
    order of their ports (its uplink i is on its i-th port up)"""
    by = defaultdict(list)
    for (sw, port) in links:
        by[sw].append(port)
    rank = {}
    for sw, ports in by.items():
        for i, p in enumerate(sorted(ports, key=port_no)):
            rank[(sw, p)] = i
    return rank


def filled(tag, fab, links, lo, hi, units, per, h, R, final):
    """One filled level of a design (three tiers: the pods' spines to the
    cores; four: the groups' cores to the tops), counted from its cables:
    every unit is wired alike (uplink j of its x-th lower switch on the
    same upper switch in every unit), an upper switch takes at most
    floor(R/units) cables of a unit, and there are the fewest upper
    switches that allows, ceil(per*h / floor(R/units)) (counted here from
    R, h, per and the units, not taken from the design).  Returns the
    upper switch of every entry (x, j) of the pattern: {(x, j): u}.  A
    tree provisioned for `final` units is sized for them."""
    m = R // max(units, final)
    want = -(-(per * h) // m)
    pat = {}
    rank = up_ranks(links)
    for (sw, port), (up, _) in links.items():
        l = idx(sw, lo)
        key = (l % per, rank[(sw, port)])
        u = idx(up, hi)
        if pat.setdefault(key, u) != u:
            fail("%s %s: %s[%d] uplink %s on %s[%d], not on %s[%d] as in "
                 "its first unit" % (fab, tag, lo, l, port, hi, u, hi,
                                     pat[key]))
    if len(links) != units * per * h or len(pat) != per * h:
        fail("%s %s: %d %s-%s cables for %d units of %d x %d uplinks" % (
            fab, tag, len(links), lo, hi, units, per, h))
    n = len({v[0] for v in links.values()})
    c = Counter(pat.values())
    if n != want or len(c) != want:
        fail("%s %s: %d %s switches over %d units of %d uplinks; the tight "
             "count ceil(%d / floor(%d / %d)) is %d" % (
                 fab, tag, n, hi, units, per * h, per * h, R,
                 max(units, final), want))
    if max(c.values()) > m:
        fail("%s %s: a %s takes %d cables of a unit, more than floor(%d/%d)"
             % (fab, tag, hi, max(c.values()), R, units))
    return pat, c, want, m


def load_pair(old_path, new_path, only):
    """both designs' rows and cables (of fabric ONLY, when given)"""
    old_rows, old = load(old_path)
    new_rows, new = load(new_path)
    plane_names_kept(old_path, new_path)
    if only:
        old_rows = [r for r in old_rows if of(r["fabric"], only)]
        new_rows = [r for r in new_rows if of(r["fabric"], only)]
        old = {k: v for k, v in old.items() if of(k[0], only)}
        new = {k: v for k, v in new.items() if of(k[0], only)}
    return old_rows, old, new_rows, new


def of(fab, only):
    """whether FAB is fabric ONLY or one of its planes (--planes)"""
    return fab == only or fab.startswith(only + "/")


def two_tier(path, only):
    """fabric -> the leaf-spine cables of a two-tier design (--two)"""
    if path is None:
        return defaultdict(lambda: None)
    rows, _ = load(path)
    if only:
        rows = [r for r in rows if of(r["fabric"], only)]
    return tier_links(rows, "leaf", "spine")


def tiers(old_path, new_path, only, R, final, two_path):
    """three and four tiers grown (see the module's text)"""
    old_rows, old, new_rows, new = load_pair(old_path, new_path, only)
    h = R // 2
    moved_keys = set()
    ls_a, ls_b = tier_links(old_rows, "leaf", "spine"), \
        tier_links(new_rows, "leaf", "spine")
    two = two_tier(two_path, only)
    for fab in sorted(ls_a):
        A, B = ls_a[fab], ls_b[fab]
        U = len(A) // len({k[0] for k in A})
        for tag, X in (("old", A), ("new", B)):
            pod_rule(fab, tag, X, U, h, two[fab])
        lsm = [k for k in A if B.get(k) != A[k]]
        if lsm:
            fail("%s: %d leaf-spine cables moved, e.g. %s %s -> %s" % (
                fab, len(lsm), lsm[0], A[lsm[0]], B.get(lsm[0])))
        sc = (tier_links(old_rows, "spine", "core")[fab],
              tier_links(new_rows, "spine", "core")[fab])
        ct = (tier_links(old_rows, "core", "top")[fab],
              tier_links(new_rows, "core", "top")[fab])
        four = bool(ct[1])
        # pods from the leaves (h to a pod, the last built as if full)
        pods = [-(-len({idx(k[0], "leaf") for k in X}) // h)
                for X in (A, B)]
        if four:
            # a group's spines to its h*U cores: the round robin, fixed
            CG = h * U
            for tag, X in zip(("old", "new"), sc):
                cnt = Counter((idx(k[0], "spine"), idx(v[0], "core"))
                              for k, v in X.items())
                for (l, u), c in cnt.items():
                    g, x = l // (h * U), l % (h * U)
                    if u // CG != g or c != sp_n(x, u % CG, h, CG):
                        fail("%s %s: spine[%d] of group %d has %d uplinks "
                             "on core[%d]" % (fab, tag, l, g, c, u))
            moved = [k for k in sc[0] if sc[1].get(k) != sc[0][k]]
            if moved:
                fail("%s: %d spine-core cables moved" % (fab, len(moved)))
            print("%s: spine-core, %d groups of %d cores, none moved" % (
                fab, -(-pods[1] // h), CG))
            levels = [(ct, "core", "top", [-(-p // h) for p in pods], CG,
                       -(-final // h))]
        else:
            levels = [(sc, "spine", "core", pods, U, final)]
        for (la, lb), lo, hi, units, per, fin in levels:
            _, ca, Ca, _ = filled("old", fab, la, lo, hi, units[0], per, h,
                                  R, fin)
            _, cb, Cb, mb = filled("new", fab, lb, lo, hi, units[1], per,
                                   h, R, fin)
            # any tree of units[1] units takes off every old upper switch
            # all but mb of each old unit's cables
            minimum = units[0] * sum(max(0, c - mb) for c in ca.values())
            closed = units[0] * max(0, per * h - Ca * mb)
            moved = [k for k in la if lb.get(k) != la[k]]
            for k in moved:
                moved_keys.add((fab,) + tuple(sorted([k, la[k]])))
            print("%s: %s-%s, %d -> %d units of %d x %d uplinks, %d -> %d "
                  "%s switches: %d moved, minimum %d (at least %d whatever "
                  "the old tree)" % (fab, lo, hi, units[0], units[1], per, h,
                                     Ca, Cb, hi, len(moved), minimum,
                                     closed))
            if len(moved) != minimum or minimum < closed:
                fail("%s: %d %s-%s cables moved, the minimum is %d" % (
                    fab, len(moved), lo, hi, minimum))
    kept(old, new, moved_keys, lambda key: True)


def tiers_double(old_path, new_path, only, two_path):
    """three and four tiers with `core_growth double` (round robin)"""
    old_rows, old, new_rows, new = load_pair(old_path, new_path, only)
    two = two_tier(two_path, only)
    moved_keys = set()
    ls_a, ls_b = tier_links(old_rows, "leaf", "spine"), \
        tier_links(new_rows, "leaf", "spine")
    for fab in sorted(ls_a):
        A, B = ls_a[fab], ls_b[fab]
        U = len(A) // len({k[0] for k in A})
        sc_a = tier_links(old_rows, "spine", "core")[fab]
        sc_b = tier_links(new_rows, "spine", "core")[fab]
        ct_a = tier_links(old_rows, "core", "top")[fab]
        ct_b = tier_links(new_rows, "core", "top")[fab]
        h = len(sc_b) // len({k[0] for k in sc_b})
        for tag, X in (("old", A), ("new", B)):
            pod_rule(fab, tag, X, U, h, two[fab])
        lsm = [k for k in A if B.get(k) != A[k]]
        if lsm:
            fail("%s: %d leaf-spine cables moved, e.g. %s %s -> %s" % (
                fab, len(lsm), lsm[0], A[lsm[0]], B.get(lsm[0])))
        four = bool(ct_b)

        def cores_per_group(sc):
            """a group's cores (four tiers): the cores over the groups"""
            pods = len({idx(k[0], "spine") // U for k in sc})
            return len({v[0] for v in sc.values()}) // -(-pods // h)
        CGa, CGb = cores_per_group(sc_a), cores_per_group(sc_b)
        levels = [(sc_a, sc_b, "spine", "core")]
        if four:
            levels.append((ct_a, ct_b, "core", "top"))
        for la, lb, lo, hi in levels:
            def x_of(l, CG):
                if lo == "spine":
                    return l % (h * U) if four else l % U
                return l % CG

            def up_of(u, CG):
                return u % CG if four and lo == "spine" else u

            def n_of(links, CG):
                if four and lo == "spine":
                    return CG
                return len({v[0] for v in links.values()})
            na, nb = n_of(la, CGa), n_of(lb, CGb)
            for tag, X, n, CG in (("old", la, na, CGa), ("new", lb, nb, CGb)):
                cnt = Counter((idx(k[0], lo), idx(v[0], hi))
                              for k, v in X.items())
                for (l, u), c in cnt.items():
                    if four and lo == "spine" and \
                            u // CG != l // (h * U):
                        fail("%s %s: %s[%d] of group %d on %s[%d]" % (
                            fab, tag, lo, l, l // (h * U), hi, u))
                    want = sp_n(x_of(l, CG), up_of(u, CG), h, n)
                    if c != want:
                        fail("%s %s: %s[%d] has %d uplinks on %s[%d], the "
                             "spread gives %d" % (fab, tag, lo, l, c, hi, u,
                                                  want))
            cnt_a = Counter((idx(k[0], lo), idx(v[0], hi))
                            for k, v in la.items())
            minimum = sum(max(0, c - sp_n(x_of(l, CGb), up_of(u, CGb), h,
                                          nb))
                          for (l, u), c in cnt_a.items())
            moved = [k for k in la if lb.get(k) != la[k]]
            for k in moved:
                moved_keys.add((fab,) + tuple(sorted([k, la[k]])))
            print("%s: %s-%s, %d lower switches x %d uplinks, %d -> %d "
                  "upper per domain: %d moved, minimum %d" % (
                      fab, lo, hi, len({k[0] for k in la}), h, na, nb,
                      len(moved), minimum))
            if len(moved) != minimum:
                fail("%s: %d %s-%s cables moved, the minimum is %d" % (
                    fab, len(moved), lo, hi, minimum))
    kept(old, new, moved_keys, lambda key: True)


def tier_change(old_path, new_path, only, R, diff_path):
    """a two-tier tree grown into three or four tiers (see the module's
    text): the leaf-spine cables that move are exactly the minimum for
    the pod grouping in leaf order, counted from OLD's cables and R"""
    old_rows, old, new_rows, new = load_pair(old_path, new_path, only)
    h = R // 2
    moved_keys = set()
    ls_a = tier_links(old_rows, "leaf", "spine")
    ls_b = tier_links(new_rows, "leaf", "spine")
    sc_a = tier_links(old_rows, "spine", "core")
    sc_b = tier_links(new_rows, "spine", "core")
    for fab in sorted(ls_a):
        A, B = ls_a[fab], ls_b[fab]
        if sc_a[fab] or not sc_b[fab]:
            fail("%s: not two tiers grown into more (%d and %d spine-core "
                 "cables)" % (fab, len(sc_a[fab]), len(sc_b[fab])))
        # per old spine s and pod p (leaves l // h): the cables of p's
        # leaves on s, and the leaves of p with a cable on s
        cab, lvs = defaultdict(Counter), defaultdict(Counter)
        per = Counter((idx(k[0], "leaf"), v[0]) for k, v in A.items())
        for (l, sw), c in per.items():
            cab[sw][l // h] += c
            lvs[sw][l // h] += 1
        total = len(A)
        # a spine of the new tree serves one pod and takes one cable of
        # each of its leaves: spine s keeps at most max_p lvs[s][p]
        minimum = total - sum(max(c.values()) for c in lvs.values())
        # the same with cables for leaves (a bound over any tree whose
        # spines each serve one pod, however many cables a leaf sends)
        by_cables = total - sum(max(c.values()) for c in cab.values())
        # over every grouping into pods of at most h leaves
        any_pods = total - sum(min(h, sum(c.values()))
                               for c in lvs.values())
        moved = [k for k in A if B.get(k) != A[k]]
        for k in moved:
            moved_keys.add((fab,) + tuple(sorted([k, A[k]])))
        print("%s: %d leaves x %d spines, %d leaf-spine cables -> pods of "
              "%d leaves: %d moved, minimum %d for pods in leaf order (%d "
              "counting cables, %d over every grouping)" % (
                  fab, len({k[0] for k in A}), len(lvs), total, h,
                  len(moved), minimum, by_cables, any_pods))
        if not by_cables <= minimum or not any_pods <= minimum:
            fail("%s: the bounds are not ordered" % fab)
        if len(moved) != minimum:
            fail("%s: %d leaf-spine cables moved, the minimum is %d" % (
                fab, len(moved), minimum))
        if diff_path:
            # rackc diff's work order re-pulls or removes exactly those
            by_id = {cid: key for key, cid in old.items()}
            work = {by_id.get(r["cable_id"])
                    for r in json.load(open(diff_path))["cabling"]
                    if r["action"] in ("re-pull", "remove")}
            ls = {k for k in work if k and k[0] == fab and
                  {idx(e[0], "leaf") is None for e in k[1:]} == {True, False}
                  and any(idx(e[0], "spine") is not None for e in k[1:])}
            if ls != {k for k in moved_keys if k[0] == fab}:
                fail("%s: rackc diff re-pulls or removes %d leaf-spine "
                     "cables, %d moved" % (fab, len(ls), len(moved)))
            print("%s: rackc diff re-pulls or removes the same %d" % (
                fab, len(ls)))
    # the rest keep their ID and ends (those on a device NEW lacks go:
    # the SuperPOD's UFM at 5 SUs)
    there = {r[s + "_device"] for r in new_rows for s in "ab"}
    kept(old, new, moved_keys,
         lambda key: key[1][0] in there and key[2][0] in there)


def kept(old, new, moved_keys, compared):
    """every compared cable of OLD not moved is in NEW, same ID and ends"""
    for key, cid in old.items():
        if key in moved_keys or not compared(key):
            continue
        if key not in new:
            fail("cable %s %s is gone" % (cid, key))
        if new[key] != cid:
            fail("cable %s %s is %s now" % (cid, key, new[key]))
    print("ok: %d cables kept their ID and ends" % (len(old) - len(moved_keys)))


def names(spec):
    """dgx[31..126],ufm -> the set of device names"""
    out = set()
    for part in filter(None, spec.split(",")):
        m = re.match(r"(.*)\[(\d+)\.\.(\d+)\]$", part)
        if m:
            out |= {"%s[%d]" % (m.group(1), i)
                    for i in range(int(m.group(2)), int(m.group(3)) + 1)}
        else:
            out.add(part)
    return out


def summary(d):
    """the summary counts each device change by its rows ("removed" is
    not "moved"); returns the counts"""
    summ = {r["what"]: int(r["count"]) for r in d["summary"]}
    got = {}
    for ch in ("added", "removed", "moved", "changed"):
        rows = sum(1 for r in d["devices"] if ch in r["change"].split(", "))
        if summ.get("devices " + ch, 0) != rows:
            fail("summary: devices %s %s, the rows %d" % (
                ch, summ.get("devices " + ch, 0), rows))
        got[ch] = rows
    return got


def moves(diff_path, old_path, new_path, spec, spec_gone):
    d = json.load(open(diff_path))
    old_rows, old = load(old_path)
    new_rows, _ = load(new_path)
    want = names(spec)
    want_gone = names(spec_gone)
    moved, gone = set(), set()
    for r in d["devices"]:
        if r["change"] == "moved":
            moved.add(r["device"])
        elif r["change"] == "removed":
            gone.add(r["device"])
        elif r["change"] != "added":
            fail("device %s %s" % (r["device"], r["change"]))
    summary(d)
    if moved != want:
        extra, lack = sorted(moved - want), sorted(want - moved)
        fail("%d devices moved, expected %d: %s%s" % (
            len(moved), len(want),
            "unexpected " + " ".join(extra[:5]) if extra else "",
            " not moved " + " ".join(lack[:5]) if lack else ""))
    if gone != want_gone:
        fail("devices removed: %s, expected %s" % (
            " ".join(sorted(gone)[:8]) or "none",
            " ".join(sorted(want_gone)[:8]) or "none"))
    # the leaf-spine cables the spine counts force (the minimum)
    up_a, up_b = uplinks(old_rows), uplinks(new_rows)
    forced = set()
    total_min = 0
    for fab in sorted(up_a):
        A, B = up_a[fab], up_b[fab]
        n_a = Counter(idx(k[0], "leaf") for k in A)
        n_b = Counter(idx(k[0], "leaf") for k in B)
        U = max(list(n_a.values()) + list(n_b.values()))
        Sa = len({v[0] for v in A.values()})
        Sb = len({v[0] for v in B.values()})
        total_min += sum(max(0, spread(l, s, U, Sa, n_a[l]) -
                             spread(l, s, U, Sb))
                         for l in n_a for s in range(Sa))
        forced |= {(fab,) + tuple(sorted([k, A[k]]))
                   for k in A if B.get(k) != A[k]}
    by_id = {cid: key for key, cid in old.items()}
    pulled = Counter()
    seen = set()
    for r in d["cabling"]:
        if r["action"] not in ("re-pull", "remove"):
            continue
        key = by_id.get(r["cable_id"])
        if key is None:
            fail("cable %s of the work order is not in OLD" % r["cable_id"])
        if key in seen:
            continue
        seen.add(key)
        ends = {key[1][0], key[2][0]}
        if ends & moved:
            why = "on a moved device"
        elif ends & gone:
            why = "on a removed device"
        elif key in forced and r["action"] == "re-pull":
            why = "forced"
        else:
            fail("cable %s %s: %s, neither forced nor on a moved or "
                 "removed device (%s)" % (r["cable_id"], key, r["action"],
                                          r["detail"]))
        pulled[(key[0], r["action"], why)] += 1
    lacking = forced - seen
    if lacking:
        fail("%d forced leaf-spine moves not in the work order, e.g. %s" %
             (len(lacking), sorted(lacking)[0]))
    if len(forced) != total_min:
        fail("%d leaf-spine cables moved, the minimum is %d" %
             (len(forced), total_min))
    print("ok: %d devices moved and %d removed as expected; re-pulled or "
          "removed: %s; leaf-spine moves %d = the minimum" % (
              len(moved), len(gone), ", ".join("%s %s (%s) %d" % (k + (v,))
                                    for k, v in sorted(pulled.items()))
              or "none",
              total_min))


def fixed_ends(old_path, new_path):
    """every cable of OLD but those between two switches of a fat tree
    (leaf, spine, core, top), whose two devices are in NEW, is in NEW with
    the same ID and ends, and every hand-placed device (a name without a
    fabric's prefix: DGX, UFM) in both is in the same rack and U"""
    old_rows, old = load(old_path)
    new_rows, new = load(new_path)
    tree = re.compile(r"\w+\.(leaf|spine|core|top)\[\d+\]$")
    place = {}
    for r in new_rows:
        for s in "ab":
            place[r[s + "_device"]] = (r[s + "_rack"], r[s + "_u"])
    n = kept_n = 0
    for r in old_rows:
        for s in "ab":
            dev = r[s + "_device"]
            if "." in dev or dev not in place:
                continue
            if place[dev] != (r[s + "_rack"], r[s + "_u"]):
                fail("%s moved: %s U%s -> %s U%s" % (
                    dev, r[s + "_rack"], r[s + "_u"], place[dev][0],
                    place[dev][1]))
        ends = (r["a_device"], r["b_device"])
        if all(tree.match(e) for e in ends) and r["fabric"] != "oob":
            continue
        if not all(e in place for e in ends):
            continue
        n += 1
        key = (r["fabric"],) + tuple(sorted([(r["a_device"], r["a_port"]),
                                             (r["b_device"], r["b_port"])]))
        if new.get(key) != r["cable_id"]:
            fail("cable %s %s: %s" % (
                r["cable_id"], key, "re-pulled or removed" if key not in new
                else "its ID is " + new[key] + " now"))
        kept_n += 1
    per = Counter(r["fabric"] for r in old_rows
                  if not (all(tree.match(e) for e in (r["a_device"],
                                                      r["b_device"]))
                          and r["fabric"] != "oob"))
    print("ok: no DGX or UFM moved; %d of %d cables with an end on a DGX, "
          "the UFM or the out-of-band star kept their ID and ends (%s; the "
          "rest end on a removed device)" % (
              kept_n, sum(per.values()),
              ", ".join("%s %d" % kv for kv in sorted(per.items()))))
    return n


def placed_at(path):
    """generated switch -> (rack, U), from a cabling file's ends"""
    at = {}
    for r in csv.DictReader(open(path, newline="")):
        for s in "ab":
            dev = r[s + "_device"]
            if re.match(r"\w+\.\w+\[\d+\]$", dev):
                at[dev] = (r[s + "_rack"], r[s + "_u"])
    return at


def placed(diff_path, old_path, new_path, tiers):
    d = json.load(open(diff_path))
    for r in d["devices"]:
        if r["change"] != "added":
            fail("device %s %s (%s U%s -> %s U%s)" % (
                r["device"], r["change"], r["rack_before"], r["u_before"],
                r["rack_after"], r["u_after"]))
    summary(d)
    a, b = placed_at(old_path), placed_at(new_path)
    kept_n = Counter()
    for dev in sorted(set(a) & set(b)):
        if a[dev] != b[dev]:
            fail("%s stands in %s U%s, was in %s U%s" % (
                dev, b[dev][0], b[dev][1], a[dev][0], a[dev][1]))
        kept_n[re.sub(r"\[\d+\]$", "", dev)] += 1
    for t in filter(None, tiers.split(",")):
        if not kept_n[t]:
            fail("no %s switch in both designs" % t)
    work = Counter()
    for r in d["cabling"]:
        if r["action"] in ("replace", "relabel") or (
                r["action"] == "re-pull" and
                r["detail"].startswith("route changed")):
            fail("cable %s (%s): %s, %s" % (r["cable_id"], r["cable"],
                                            r["action"], r["detail"]))
        work[r["action"]] += 1
    print("ok: no device moved; switches kept in place: %s; work order: "
          "%s (none re-pulled for its route, replaced or relabelled)" % (
              ", ".join("%s %d" % kv for kv in sorted(kept_n.items())),
              ", ".join("%s %d" % kv for kv in sorted(work.items()))))


def kept_at(old_path, new_path, tiers):
    """every switch of TIERS (FABRIC.TIER, comma-separated) named in both
    cabling files stands in the same rack at the same U; each tier has
    one in both (what the other tiers do is not compared)"""
    a, b = placed_at(old_path), placed_at(new_path)
    want = set(filter(None, tiers.split(",")))
    n = Counter()
    for dev in sorted(set(a) & set(b)):
        t = re.sub(r"\[\d+\]$", "", dev)
        if t not in want:
            continue
        if a[dev] != b[dev]:
            fail("%s stands in %s U%s, was in %s U%s" % (
                dev, b[dev][0], b[dev][1], a[dev][0], a[dev][1]))
        n[t] += 1
    for t in want:
        if not n[t]:
            fail("no %s switch in both designs" % t)
    print("ok: kept in place: %s" % ", ".join(
        "%s %d" % kv for kv in sorted(n.items())))


def racks_used(ir_path, csv_path, row):
    text = open(ir_path).read()
    m = re.search(r"\n\trow %s \{\n(.*?)\n\t\}\n" % re.escape(row), text,
                  re.S)
    if not m:
        fail("no row %s in %s" % (row, ir_path))
    racks = re.findall(r"\n\t\track (\S+) : \S+ \{\n\t\t\tslot (\d+)",
                       "\n" + m.group(1))
    if not racks:
        fail("row %s declares no rack" % row)
    slots = Counter(sl for _, sl in racks)
    dup = sorted(sl for sl, n in slots.items() if n > 1)
    if dup:
        fail("row %s: slot %s taken twice" % (row, dup[0]))
    site = re.search(r"\nsite (\S+) \{", text).group(1)
    used = set()
    for r in csv.DictReader(open(csv_path, newline="")):
        used |= {r["a_rack"], r["b_rack"]}
    empty = [n for n, _ in racks if "%s.%s.%s" % (site, row, n) not in used]
    if empty:
        fail("row %s: %d of %d racks hold nothing cabled: %s" % (
            row, len(empty), len(racks), " ".join(empty[:6])))
    print("ok: the %d racks of row %s all hold cabled devices, slots %s" % (
        len(racks), row, " ".join(sorted({n.split("[")[0] + "@" + sl
                                          for n, sl in racks if
                                          n.endswith("[0]") or "[" not in n},
                                         key=lambda x: int(x.split("@")[1])))))


DOC_CMD = ("rackc diff --old-define SUS=1 --new-define SUS=2 %s"
           "examples/dgx-h100-superpod.rack examples/dgx-h100-superpod.rack")


def cut_block(text, after, what):
    """the lines of the first fenced block, or run of table lines, after
    the line holding AFTER"""
    lines = text.split("\n")
    at = [i for i, l in enumerate(lines) if after in l]
    if not at:
        fail("%s: no line holding %r" % (what, after))
    out = []
    for l in lines[at[0] + 1:]:
        if l.startswith("```"):
            if out:
                break
            out.append(l)
        elif out and out[0].startswith("```"):
            out.append(l)
        elif l.startswith("|"):
            out.append(l)
        elif out:
            break
    return [l for l in out if not l.startswith("```")]


def repulls(path):
    """a `rackc diff -f json` file: the diff, its summary counts and its
    re-pulled cables by fabric (the first name of the cable's first end:
    a fabric, or the endpoint of a hand-placed device)"""
    d = json.load(open(path))
    summ = {r["what"]: int(r["count"]) for r in d["summary"]}
    fab = Counter()
    seen = set()
    for r in d["cabling"]:
        if r["action"] == "re-pull" and r["cable_id"] not in seen:
            seen.add(r["cable_id"])
            fab[r["cable"].split(".")[0]] += 1
    return d, summ, fab


FABRIC_FIG = r"\b(compute|storage|in-band) (\d[\d,]*)\b"


def prose(rd, start, end, path):
    """doc/review.md's sentence from START to END states the re-pulls of the
    diff PATH: by fabric, the hand-placed devices' ("the UFM's two"), the
    total ("N cables to re-pull in all") and "none to remove"; returns
    the figures read"""
    i = rd.find(start)
    j = rd.find(end, i)
    if i < 0 or j < 0:
        fail("doc/review.md: no sentence from %r to %r" % (start, end))
    seg = " ".join(rd[i:j + len(end)].split())
    _, summ, fab = repulls(path)
    n = 0
    for name, k in re.findall(FABRIC_FIG, seg):
        if int(k.replace(",", "")) != fab[name.replace("-", "")]:
            fail("doc/review.md %r: %s %s re-pulled, rackc diff %d" % (
                start, name, k, fab[name.replace("-", "")]))
        n += 1
    if "UFM's two" in seg:
        other = sum(v for f, v in fab.items()
                    if f not in ("compute", "storage", "inband", "oob"))
        if other != 2:
            fail("doc/review.md %r: the UFM's two re-pulled, rackc diff %d" % (
                start, other))
        n += 1
    m = re.search(r"(\d[\d,]*) cables to re-pull in all", seg)
    if m:
        if int(m.group(1).replace(",", "")) != summ.get("cables to re-pull",
                                                       0):
            fail("doc/review.md %r: %s re-pulled, rackc diff %d" % (
                start, m.group(1), summ.get("cables to re-pull", 0)))
        n += 1
    if "none to remove" in seg:
        if summ.get("cables to remove", 0):
            fail("doc/review.md %r: none to remove, rackc diff %d" % (
                start, summ["cables to remove"]))
        n += 1
    if not n:
        fail("doc/review.md %r: no figures read" % start)
    return n


def docs(readme, ci_md, plain_json, plain_txt, final_json, final_md,
         d45_json, d89_json):
    """the SuperPOD's 1 -> 2 SU diff as doc/review.md ("Growth") and
    doc/ci.md show it is what `rackc diff` prints: the commands, every
    figure of doc/review.md's table (the first number of each cell, the
    per-fabric re-pulls and the compute spines added), the lines of its
    work-order excerpt, and doc/ci.md's summary table"""
    rd = open(readme).read()
    ci = " ".join(open(ci_md).read().split())
    for cmd in (DOC_CMD % "", DOC_CMD % "-D FINAL_SUS=8 "):
        if cmd not in rd:
            fail("doc/review.md: no command %r" % cmd)
    if "-f markdown " + DOC_CMD[len("rackc diff "):] % "-D FINAL_SUS=8 " \
            not in ci:
        fail("doc/ci.md: no command for the FINAL_SUS=8 comment")
    sides = []
    for path in (plain_json, final_json):
        d, summ, fab = repulls(path)
        spines = sum(1 for r in d["devices"] if r["change"] == "added"
                     and r["device"].startswith("compute.spine["))
        sides.append((summ, fab, spines))
    rows = cut_block(rd, "| | spines sized for SUS | `FINAL_SUS=8` |",
                     "doc/review.md table")
    n = 0
    for row in rows[1:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) != 3 or cells[0].startswith("---"):
            continue
        what = re.sub(r" \(.*\)$", "", cells[0])
        for cell, (summ, fab, spines) in zip(cells[1:], sides):
            m = re.match(r"(\d[\d,]*)", cell)
            if not m:
                fail("doc/review.md table: %r has no figure" % cell)
            if int(m.group(1).replace(",", "")) != summ.get(what, 0):
                fail("doc/review.md table: %s %s, rackc diff %d" % (
                    what, m.group(1), summ.get(what, 0)))
            n += 1
            for name, k in re.findall(FABRIC_FIG, cell):
                got = fab[name.replace("-", "")]
                if int(k.replace(",", "")) != got:
                    fail("doc/review.md table: %s %s %s, rackc diff %d" % (
                        what, name, k, got))
                n += 1
            m = re.search(r"(\d+) compute spines", cell)
            if m:
                if int(m.group(1)) != spines:
                    fail("doc/review.md table: %s compute spines added, rackc "
                         "diff %d" % (m.group(1), spines))
                n += 1
    if n < 12:
        fail("doc/review.md table: %d figures read, want at least 12" % n)
    txt = set(open(plain_txt).read().split("\n"))
    ex = cut_block(rd, "An excerpt of the first work order", "doc/review.md excerpt")
    for l in ex:
        if l not in txt:
            fail("doc/review.md excerpt: %r is not in rackc diff's output" % l)
    md = open(final_md).read().split("\n")
    table = cut_block(open(ci_md).read(), "the comment opens with",
                      "doc/ci.md table")
    got = cut_block("\n".join(md), "### Summary", "rackc diff -f markdown")
    if table != got:
        fail("doc/ci.md table %r, rackc diff -f markdown %r" % (table, got))
    n += prose(rd, "From 4 to 5 SUs the cables re-pulled", "UFM's two",
               d45_json)
    n += prose(rd, "`rackc diff` counts", "none to remove", d89_json)
    print("ok: doc/review.md's %d figures and %d excerpt lines and doc/ci.md's "
          "%d summary rows are what rackc diff prints" % (
              n, len(ex), len(table) - 2))


def main():
    two_path = None
    for a in list(sys.argv):
        if a.startswith("--two="):
            two_path = a[len("--two="):]
            sys.argv.remove(a)
        if a.startswith("--planes="):
            fab, _, n = a[len("--planes="):].rpartition(":")
            PLANES[fab] = int(n)
            sys.argv.remove(a)
    if sys.argv[1] == "--kept-at":
        kept_at(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    if sys.argv[1] == "--plane-tree":
        plane_tree(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    if sys.argv[1] == "--docs":
        docs(*sys.argv[2:10])
        return
    if sys.argv[1] == "--fixed-ends":
        fixed_ends(sys.argv[2], sys.argv[3])
        return
    if sys.argv[1] == "--racks-used":
        racks_used(sys.argv[2], sys.argv[3], sys.argv[4])
        return
    if sys.argv[1] == "--placed":
        placed(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
        return
    if sys.argv[1] == "--summary":
        got = summary(json.load(open(sys.argv[2])))
        print("ok: the summary counts the devices' rows: %s" % ", ".join(
            "%s %d" % kv for kv in sorted(got.items())))
        return
    if sys.argv[1] == "--moves":
        moves(sys.argv[2], sys.argv[3], sys.argv[4],
              sys.argv[5] if len(sys.argv) > 5 else "",
              sys.argv[6] if len(sys.argv) > 6 else "")
        return
    if sys.argv[1] == "--adds-only":
        adds_only(sys.argv[2])
        return
    if sys.argv[1] == "--tiers-double":
        tiers_double(sys.argv[2], sys.argv[3], sys.argv[4]
                     if len(sys.argv) > 4 else None, two_path)
        return
    if sys.argv[1] == "--tier-change":
        diff_path = None
        for a in list(sys.argv):
            if a.startswith("--diff="):
                diff_path = a[len("--diff="):]
                sys.argv.remove(a)
        tier_change(sys.argv[3], sys.argv[4], sys.argv[5]
                    if len(sys.argv) > 5 else None, int(sys.argv[2]),
                    diff_path)
        return
    if sys.argv[1] == "--tiers":
        R, _, final = sys.argv[2].partition(":")
        tiers(sys.argv[3], sys.argv[4], sys.argv[5] if len(sys.argv) > 5
              else None, int(R), int(final or 0), two_path)
        return
    old_rows, old = load(sys.argv[1])
    new_rows, new = load(sys.argv[2])
    plane_names_kept(sys.argv[1], sys.argv[2])
    mode = sys.argv[3]
    up_a, up_b = uplinks(old_rows), uplinks(new_rows)
    moved_keys = set()
    for fab in sorted(up_a):
        A, B = up_a[fab], up_b[fab]
        La = len({k[0] for k in A})
        n_a = Counter(idx(k[0], "leaf") for k in A)
        n_b = Counter(idx(k[0], "leaf") for k in B)
        U = max(list(n_a.values()) + list(n_b.values()))
        Sa = len({v[0] for v in A.values()})
        Sb = len({v[0] for v in B.values()})
        for tag, X, S, n in (("old", A, Sa, n_a), ("new", B, Sb, n_b)):
            cnt = Counter((idx(k[0], "leaf"), idx(v[0], "spine"))
                          for k, v in X.items())
            for l in n:
                for s in range(S):
                    want = spread(l, s, U, S, n[l])
                    if cnt[(l, s)] != want:
                        fail("%s %s: leaf %d has %d uplinks on spine %d, "
                             "round robin gives %d" % (fab, tag, l, cnt[(l, s)],
                                                       s, want))
        moved = [k for k in A if B.get(k) != A[k]]
        for k in moved:
            moved_keys.add((fab,) + tuple(sorted([k, A[k]])))
        minimum = sum(max(0, spread(l, s, U, Sa, n_a[l]) - spread(l, s, U, Sb))
                      for l in n_a for s in range(Sa))
        if (U % Sb == 0 and all(v == U for v in n_a.values())
                and minimum * Sb != La * U * (Sb - Sa)):
            fail("%s: the minimum %d is not L*U*(1-Sa/Sb)" % (fab, minimum))
        print("%s: %d leaves x %d uplinks, spines %d -> %d: %d moved, "
              "minimum %d" % (fab, La, U, Sa, Sb, len(moved), minimum))
        if len(moved) != minimum:
            fail("%s: %d leaf-spine cables moved, the minimum is %d"
                 % (fab, len(moved), minimum))
    kept(old, new, moved_keys, lambda key: mode != "fabric" or (
        key[0] in up_a and any(idx(e[0], "spine") is not None
                               for e in key[1:])))


main()
