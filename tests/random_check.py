#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random designs against figures computed here, independently of rackc.

    random_check.py gen [fabric:]SEED DIR
                                      write DIR/d.rack and DIR/exp.json
    random_check.py check DIR OUT ERR compare OUT/report.json (and the
                                      other artifacts) and the diagnostics
                                      ERR with DIR/exp.json; one
                                      PASS/FAIL line per seed

Each seed draws one design: a site with feeds (capacity-rated, V x A single
or three phase, derated or not, or unrated), rows of racks with one to three
PDUs or power shelves on random feeds, servers and switches whose
supplies are spread over the rack's PDUs, with PSU redundancy schemes
("N", "N+1", "N+N", "2N", "A+B"), ratings and psu_min_run; liquid loops of
CDUs under N, N+K, N+N redundancy; liquid, hybrid and air-cooled parts with
and without liquid_fraction; rear doors; and `require` assertions on the
figures, some true and some false by one milliwatt.  The figures are
worked out here from the design as written (exact integers and
fractions), following the model of doc/language.md and the checks' header
comments, and compared with report.json (racks, totals, feeds, loops), the
bill of materials (power cords) and the findings of the power, outlet,
cooling and require checks.

"fabric:SEED" draws a fabric design instead (gen_fabric): servers, with
or without NICs that claim their ports, on a generated fat tree of random
shape, and a management star or a hand-wired fabric; every fabric figure
of report.json is recomputed from cabling.csv with networkx, the true
bisection at both levels (doc/language.md §9.11) by brute force
(tests/bisect_check.py) where a level has at most 12 terminals or 12
switches.  "twin:SEED" is the same draw with one-port NICs written as bare
ports or the reverse: the same cables, checked alike.
"""
import json
import re
import os
import random
import sys
from decimal import Decimal
from fractions import Fraction

WATER_CP, WATER_RHO = 4186, 997


def supply_rating(rng):
    """a PDU or feed rating: (attribute text, exact capacity as Fraction mW
    or None)"""
    k = rng.random()
    if k < 0.3:
        cap = rng.randint(2_000_000, 40_000_000)
        return "capacity %dmW" % cap, Fraction(cap)
    if k < 0.9:
        v = rng.choice([208, 230, 240, 380, 400, 415, 480]) * 1000 + \
            rng.choice([0, 0, rng.randint(1, 999)])  # mV
        a = rng.choice([16, 20, 24, 30, 32, 48, 60, 63]) * 1000 + \
            rng.choice([0, 0, rng.randint(1, 999)])  # mA
        ph = rng.choice([1, 3])
        der = rng.choice([None, 800_000, rng.randint(500_000, 1_000_000)])
        txt = "voltage %dmV; current %dmA; phases %d" % (v, a, ph)
        w = Fraction(v * a, 1000)  # mW
        if der is not None:
            txt += "; derate %s%%" % dec(Fraction(der, 10_000))
            w = w * Fraction(der, 1_000_000)
        if ph == 3:
            return txt, ("sqrt3", w)
        return txt, w
    return "", None


def dec(fr):
    """a Fraction with a finite decimal expansion as a decimal string"""
    s = "-" if fr < 0 else ""
    fr = abs(fr)
    ip = fr.numerator // fr.denominator
    rest = fr - ip
    digits = ""
    while rest:
        rest *= 10
        d = rest.numerator // rest.denominator
        digits += str(d)
        rest -= d
    return s + str(ip) + ("." + digits if digits else "")


def floor_mw(cap):
    """(floor in mW, exact?) of a rating from supply_rating"""
    if cap is None:
        return None, True
    if isinstance(cap, tuple):  # w * sqrt(3)
        w = cap[1]
        # floor(w sqrt 3) = floor(sqrt(3 w^2)); w = p/q
        p, q = w.numerator, w.denominator
        import math
        # floor(sqrt(3 p^2 / q^2)) = floor(sqrt(3 p^2) / q)
        x = 3 * p * p
        r = math.isqrt(x)  # floor(sqrt(3)p)
        fl = r // q
        return fl, False  # sqrt(3) x nonzero rational is irrational
    return cap.numerator // cap.denominator, cap.denominator == 1


def scheme(rng, psus, pmax):
    """(attribute text, full, min_run, rating) of a PSU set"""
    txt = []
    rating = None
    full = 1
    k = rng.random()
    if psus >= 2 and k < 0.6:
        form = rng.choice(["N", "N+1", "N+N", "2N", "A+B"])
        if form in ("N+N", "2N") and psus % 2:
            form = "N+1"
        if form == "A+B":
            b = rng.randint(1, psus - 1)
            txt.append('psu_redundancy "%d+%d"' % (psus - b, b))
            full = psus - b
        else:
            txt.append('psu_redundancy "%s"' % form)
            full = {"N": psus, "N+1": psus - 1}.get(form, psus // 2)
        # a rating that carries power_max on `full` supplies
        rating = -(-pmax // full) + rng.choice([0, rng.randint(0, pmax)])
        if rng.random() < 0.7:
            txt.append("psu_rating %dmW" % rating)
        else:
            rating = None
    elif k < 0.8:
        rating = rng.randint(-(-pmax // psus), pmax + 1)
        txt.append("psu_rating %dmW" % rating)
        full = -(-pmax // rating)
    min_run = full
    if rng.random() < 0.3 and full > 1:
        m = rng.randint(1, full)
        txt.append("psu_min_run %d" % m)
        min_run = m
    return txt, full, min_run, rating


def state(dev, s):
    """draw (mW) of a device left with s working supplies"""
    if s <= 0 or s < dev["min_run"]:
        return 0
    if s >= dev["full"]:
        return dev["pmax"]
    if dev["rating"] and s * dev["rating"] < dev["pmax"]:
        return s * dev["rating"]
    return dev["pmax"]


def ceil_div(a, b):
    return -(-a // b)


def gen(seed):
    rng = random.Random(seed)
    # a second stream for what was added later, so that the designs of
    # the first stay as they were
    rng2 = random.Random(seed + 7919)
    parts, site, rows, top, reqs = [], [], [], [], []
    exp = {"seed": seed}
    # feeds
    nf = rng.randint(1, 4)
    feeds = {}
    for i in range(nf):
        txt, cap = supply_rating(rng)
        if txt.startswith("voltage") and rng2.random() < 0.3:
            # a rating and a capacity: the capacity is the usable figure
            c = rng2.randint(2_000_000, 40_000_000)
            txt += "; capacity %dmW" % c
            cap = Fraction(c)
        name = "F%d" % i
        site.append("\tfeed %s { %s }\n" % (name, txt))
        fl, exact = floor_mw(cap)
        feeds["s." + name] = {"cap": fl, "exact": exact}
    feed_names = list(feeds)
    rack_limit = rng.randint(2_000_000, 20_000_000)
    site.append("\tair crah { capacity 10MW; rack_limit %dmW }\n" %
                rack_limit)
    exp["rack_limit"] = rack_limit
    # loops
    loops = {}
    nloops = rng.randint(0, 2)
    cdus = []
    for li in range(nloops):
        name = "L%d" % li
        n = rng.randint(1, 3)
        red = rng.choice([None, "N", "N+1", "N+N", "2N"])
        caps = []
        names = []
        for c in range(n):
            cap = rng.randint(5_000_000, 60_000_000)
            pn = "cdu_%s_%d" % (name, c)
            parts.append("part p%s : cdu { height 2U; capacity %dmW }\n"
                         % (pn, cap))
            caps.append(cap)
            names.append(pn)
            cdus.append(pn)
        spares = {None: 0, "N": 0, "N+1": 1}.get(red, n - n // 2)
        if red == "N+1" and n < 2:
            red, spares = "N", 0
        usable = sum(caps) - sum(sorted(caps, reverse=True)[:spares])
        dt = rng.randint(5_000, 15_000)
        site.append("\tloop %s { cdu %s; coolant water; delta_t %sK%s }\n"
                    % (name, ", ".join(names),
                       dec(Fraction(dt, 1000)),
                       '; redundancy "%s"' % red if red else ""))
        loops["s." + name] = {"cap": usable, "heat": 0, "dt": dt,
                              "racks": set()}
    loop_names = [n[2:] for n in loops]
    # racks
    racks = {}
    devs = []
    supplies = {}
    nrows = rng.randint(1, 2)
    rack_list = []
    cdu_left = list(cdus)
    for ri in range(nrows):
        rrows = []
        for ki in range(rng.randint(1, 3)):
            rname = "s.r%d.k%d" % (ri, ki)
            rack_list.append(rname)
            body = []
            loop = rng.choice(loop_names) if loop_names and \
                rng.random() < 0.6 else None
            door = None
            if loop:
                body.append("loop %s" % loop)
            air = rng.random() < 0.7
            if air:
                body.append("air crah")
            if rng.random() < 0.3:
                door = rng.randint(1_000_000, 30_000_000)
                parts.append("part door_%d_%d : rdhx { capacity %dmW }\n"
                             % (ri, ki, door))
                body.append("rdhx door_%d_%d" % (ri, ki))
            racks[rname] = {"loop": "s." + loop[0:] if loop else None,
                            "door": door, "devices": 0, "power": 0,
                            "heat": 0, "liq": 0, "air_heat": 0,
                            "supplies": [], "air": air}
            if loop:
                racks[rname]["loop"] = "s." + loop
                loops["s." + loop]["racks"].add(rname)
            # supplies
            u = 42
            for pi in range(rng.randint(1, 3)):
                txt, cap = supply_rating(rng)
                if not txt:
                    txt = "capacity %dmW" % rng.randint(3_000_000, 30_000_000)
                    cap = Fraction(int(txt.split()[1][:-2]))
                cls = "power_shelf" if rng.random() < 0.2 else "pdu"
                pn = "sup_%d_%d_%d" % (ri, ki, pi)
                outlets = None
                if cls == "pdu" and rng2.random() < 0.6:
                    outlets = (rng2.randint(0, 4), rng2.randint(0, 4))
                    txt += "; outlets_c13 %d; outlets_c19 %d" % outlets
                parts.append("part %s : %s { %s }\n" % (pn, cls, txt))
                f = rng.choice(feed_names)
                word = "shelf" if cls == "power_shelf" else "pdu"
                at = ""
                if cls == "power_shelf":
                    at = "at %dU; " % u
                    u -= 1
                    parts[-1] = parts[-1].replace("{ ", "{ height 1U; ")
                sname = rname + ".p%d" % pi
                if rng2.random() < 0.3:
                    # declared elsewhere, mounted with `rack`
                    sname = "tp_%d_%d_%d" % (ri, ki, pi)
                    top.append("%s %s : %s { rack %s; %s%s }\n" % (
                        word, sname, pn, rname, at,
                        "feed " + f[2:] if f else ""))
                else:
                    body.append("%s p%d : %s { %s%s }" % (
                        word, pi, pn, at, "feed " + f[2:] if f else ""))
                fl, _ = floor_mw(cap)
                supplies[sname] = {"cap": fl, "feed": f, "rack": rname,
                                   "outlets": outlets}
                racks[rname]["supplies"].append(sname)
                racks[rname]["devices"] += 1
            rrows.append("\t\track k%d : rk { %s }\n" % (ki, "; ".join(body)))
            # devices
            pos = 1
            for di in range(rng.randint(1, 4)):
                pmax = rng.randint(100_000, 6_000_000)
                psus = rng.randint(1, 6)
                pn = "dev_%d_%d_%d" % (ri, ki, di)
                cls = rng.choice(["server", "server", "switch"])
                attrs = ["height 1U", "power_max %dmW" % pmax,
                         "psus %d" % psus]
                heat = pmax
                if rng.random() < 0.3:
                    heat = pmax + rng.randint(1, 1_000_000)
                    attrs.append("heat %dmW" % heat)
                stxt, full, min_run, rating = scheme(rng, psus, pmax)
                attrs += stxt
                own_loop = None
                cool = "air"
                frac = None
                on_loop = loop
                if loop_names and rng.random() < 0.15:
                    own_loop = rng.choice(loop_names)
                    on_loop = own_loop
                if on_loop:
                    cool = rng.choice(["air", "liquid", "hybrid"])
                    if cool != "air":
                        attrs.append("cooling %s" % cool)
                    if rng.random() < 0.4:
                        frac = rng.randint(0, 1_000_000)
                        attrs.append("liquid_fraction %s%%" %
                                     dec(Fraction(frac, 10_000)))
                inlet = rng2.choice([None, "C14", "C14", "C20"])
                if inlet:
                    attrs.append("inlet %s" % inlet)
                parts.append("part %s : %s { %s }\n" %
                             (pn, cls, "; ".join(attrs)))
                # liquid share (the cooling model)
                if not on_loop:
                    liq = 0
                elif frac is not None:
                    liq = heat * frac // 1_000_000
                elif cool in ("liquid", "hybrid"):
                    liq = heat
                else:
                    liq = 0
                air = heat if cool == "hybrid" and frac is None and on_loop \
                    else heat - liq
                if on_loop:
                    loops["s." + on_loop]["heat"] += liq
                    if own_loop:
                        loops["s." + on_loop]["racks"].add(rname)
                # wiring: each supply to a random PDU of the rack
                wires = {}
                plist = racks[rname]["supplies"]
                arrows = []
                for p in range(psus):
                    s = rng.choice(plist)
                    wires[s] = wires.get(s, 0) + 1
                    arrows.append("psu[%d] -> %s" % (p, s.split(".")[-1]))
                rng.shuffle(arrows)
                word = {"server": "node", "switch": "switch"}[cls]
                dname = "d_%d_%d_%d" % (ri, ki, di)
                extra = "; loop %s" % own_loop if own_loop else ""
                top.append("%s %s : %s { rack %s; at %dU; power %s%s }\n" % (
                    word, dname, pn, rname, pos, ", ".join(arrows), extra))
                pos += 1
                devs.append({"name": dname, "rack": rname, "pmax": pmax,
                             "full": full, "min_run": min_run,
                             "rating": rating, "wires": wires,
                             "k": psus, "cls": cls, "inlet": inlet,
                             "order": len(devs)})
                r = racks[rname]
                r["devices"] += 1
                r["power"] += pmax
                r["heat"] += heat
                r["liq"] += liq
                r["air_heat"] += air
            # CDUs in this rack
            while cdu_left and rng.random() < 0.5:
                c = cdu_left.pop(0)
                top.append("cdu %s : p%s { rack %s; at %dU }\n" %
                           (c, c, rname, pos))
                pos += 2
                racks[rname]["devices"] += 1
        rows.append((ri, rrows))
    for c in cdu_left:
        top.append("cdu %s : p%s { }\n" % (c, c))
    # rear doors take air-side heat to the rack's loop
    for rname, r in racks.items():
        if r["door"] and r["loop"]:
            loops[r["loop"]]["heat"] += min(r["air_heat"], r["door"])

    # ---- the power model ----
    def feed_of(s):
        return supplies[s]["feed"]

    load = {s: 0 for s in supplies}
    for d in devs:
        for s, n in d["wires"].items():
            load[s] += ceil_div(d["pmax"] * n, d["k"])
    # scenarios: feed g lost -> load change per supply
    delta = {}  # (supply, g) -> change
    down = set()  # (device, g)
    rack_feeds = {}
    for s, v in supplies.items():
        rack_feeds.setdefault(v["rack"], set()).add(v["feed"])
    for d in devs:
        fs = {feed_of(s) for s in d["wires"]} - {None}
        # a lost feed concerns a device whose rack or itself uses two
        # feeds or more (the documented model)
        if len(rack_feeds[d["rack"]] - {None}) < 2 and len(fs) < 2:
            continue
        for g in sorted(fs):
            s_left = d["k"] - sum(n for s, n in d["wires"].items()
                                  if feed_of(s) == g)
            draw = state(d, s_left)
            if draw == 0:
                down.add((d["name"], g))
            for s, n in d["wires"].items():
                if feed_of(s) == g:
                    continue
                now = ceil_div(draw * n, s_left) if draw else 0
                ch = now - ceil_div(d["pmax"] * n, d["k"])
                delta[(s, g)] = delta.get((s, g), 0) + ch
    # feeds
    fexp = {}
    for f in feed_names:
        on = [s for s in supplies if feed_of(s) == f]
        base = sum(load[s] for s in on)
        # the highest load after the loss of one other feed (which may
        # be below the normal load: devices that go down), the first feed
        # in declaration order that gives it, none when it is the normal
        # load
        best, worst = None, None
        for g in feed_names:
            if g == f:
                continue
            v = base + sum(delta.get((s, g), 0) for s in on)
            if best is None or v > best:
                best, worst = v, g
        if best == base:
            worst = None
        fexp[f] = {"load": base, "lost": best if nf > 1 else None,
                   "supplies": sorted(on),
                   "worst": worst, "cap": feeds[f]["cap"],
                   "exact": feeds[f]["exact"],
                   "racks": sorted({supplies[s]["rack"] for s in on})}
    exp["feeds"] = fexp
    # PDU findings: normal overload, overload after a loss
    pdu_over = sorted(s for s in supplies if load[s] > supplies[s]["cap"])
    # (power-feed-failure skips a supply that power-pdu-capacity failed)
    pdu_loss_over = sorted(
        "%s %s" % (s, g) for (s, g), ch in delta.items()
        if load[s] + ch > supplies[s]["cap"] and s not in pdu_over)
    exp["pdu_over"] = pdu_over
    # outlets (power-outlets) and power cords (bom): C20 inlets on C19
    # outlets, C14 inlets on C13 outlets, then on the C19s the C20s leave
    # (a C20-to-C13 cord: std's power_cord_c20_c13, form C13 far_form C20)
    outlet_err = []
    cords = {"power_cord_c19_c20": 0, "power_cord_c13_c14": 0,
             "power_cord_c20_c13": 0}
    for sname, v in supplies.items():
        n20 = sum(d["wires"].get(sname, 0) for d in devs
                  if d["inlet"] == "C20")
        n14 = sum(d["wires"].get(sname, 0) for d in devs
                  if d["inlet"] == "C14")
        cords["power_cord_c19_c20"] += n20
        if v["outlets"] is None:
            cords["power_cord_c13_c14"] += n14
            continue
        c13, c19 = v["outlets"]
        cords["power_cord_c13_c14"] += min(n14, c13)
        cords["power_cord_c20_c13"] += n14 - min(n14, c13)
        if n20 > c19 or n14 > c13 + (c19 - n20):
            outlet_err.append(sname)
    exp["outlet_err"] = sorted(outlet_err)
    exp["cords"] = {k: v for k, v in cords.items() if v}
    # the catalog has the C20-to-C13 cord, so no supply goes without one
    # and bom.json has no warning of C14 inlets on C19 outlets
    exp["spill"] = 0
    exp["pdu_loss_over"] = pdu_loss_over
    exp["down"] = sorted("%s %s" % x for x in down)
    # racks
    rexp = {}
    for rname, r in racks.items():
        caps = {}
        total = 0
        for s in r["supplies"]:
            total += supplies[s]["cap"]
            f = supplies[s]["feed"]
            if f:
                caps[f] = caps.get(f, 0) + supplies[s]["cap"]
        if len(caps) >= 2:
            total -= max(caps.values())
        cooling = "liquid" if r["loop"] else "rdhx" if r["door"] else \
            "air" if r["air"] else "none"
        air = r["air_heat"] - min(r["air_heat"], r["door"] or 0)
        rexp[rname] = {"power": r["power"], "heat": r["heat"],
                       "air": air if r["air"] else None,
                       "liq": r["liq"], "devices": r["devices"],
                       "cap": total, "cooling": cooling}
    exp["racks"] = rexp
    exp["totals"] = {
        "servers": sum(1 for d in devs if d["cls"] == "server"),
        "switches": sum(1 for d in devs if d["cls"] == "switch"),
        "racks": len(racks),
        "power": sum(r["power"] for r in racks.values()),
        "heat": sum(r["heat"] for r in racks.values())}
    lexp = {}
    for name, l in loops.items():
        num = 60_000_000 * l["heat"]
        den = WATER_RHO * WATER_CP * l["dt"]
        lexp[name] = {"heat": l["heat"], "cap": l["cap"],
                      "flow": ceil_div(num, den),
                      "racks": sorted(l["racks"])}
    exp["loops"] = lexp
    # requirements: true ones and ones false by one milliwatt
    exp["req_false"] = []
    for i, rname in enumerate(rng.sample(rack_list, min(2, len(rack_list)))):
        p = racks[rname]["power"]
        h = racks[rname]["heat"]
        ok = rng.random() < 0.5
        line = "require power(%s) <= %dmW, \"rq%d\"\n" % (
            rname, p if ok else p - 1, i)
        reqs.append(line)
        if not ok:
            exp["req_false"].append("rq%d" % i)
        ok = rng.random() < 0.5
        reqs.append("require heat(%s) >= %dmW, \"rh%d\"\n" % (
            rname, h if ok else h + 1, i))
        if not ok:
            exp["req_false"].append("rh%d" % i)
    mp = max(r["power"] for r in racks.values())
    ok = rng.random() < 0.5
    reqs.append("require max_rack_power() == %dmW, \"rmax\"\n" %
                (mp if ok else mp + 1))
    if not ok:
        exp["req_false"].append("rmax")
    reqs.append("require servers() == %d, \"rsrv\"\n" %
                exp["totals"]["servers"])
    reqs.append("require racks() == %d, \"rrk\"\n" % len(racks))

    text = ["# random design, seed %d (tests/random_check.py)\n" % seed,
            'import "std/linkx"\n',
            "part rk : rack { height 42U }\n"]
    text += parts
    text.append("site s {\n")
    text += site
    for ri, rrows in rows:
        text.append("\trow r%d {\n" % ri)
        text += rrows
        text.append("\t}\n")
    text.append("}\n")
    text += top
    text += reqs
    return "".join(text), exp


def w(mw):
    """report.json's watts (exact decimal) of mW"""
    if mw is None:
        return None
    return Fraction(mw, 1000)


def num(x):
    return None if x is None else Fraction(str(x))


UNITS = {"mW": 1, "W": 1000, "kW": 10**6, "MW": 10**9, "GW": 10**12}


def power_mw(txt):
    """'13.763511kW' -> 13763511"""
    m = re.match(r"(-?[0-9.]+)([mkMG]?W)$", txt)
    return Fraction(m.group(1)) * UNITS[m.group(2)]


def svg_racks(odir):
    """per rack of the elevations: (heat to liquid or 0, air headroom or
    None), from the figure lines under each rack's name"""
    import xml.etree.ElementTree as ET
    out = {}
    edir = os.path.join(odir, "elevations")
    for f in sorted(os.listdir(edir)):
        texts = ["".join(t.itertext()) for t in
                 ET.parse(os.path.join(edir, f)).iter(
                     "{http://www.w3.org/2000/svg}text")]
        for i, t in enumerate(texts):
            m = re.match(r"(s\.r[0-9]+\.k[0-9]+) ", t)
            if not m:
                continue
            liq, head = 0, None
            for line in texts[i + 1:i + 4]:
                x = re.search(r"\(liquid ([^)]*)\)", line)
                if x:
                    liq = power_mw(x.group(1))
                x = re.search(r"(headroom|OVER by) ([^,]*)$", line)
                if x and "limit" in line:
                    head = power_mw(x.group(2))
                    if x.group(1) == "OVER by":
                        head = -head
            out[m.group(1)] = (liq, head)
    return out


def check(exp, rep, errs, odir=None):
    bad = []

    def eq(what, got, want):
        if got != want:
            bad.append("%s: %r, expected %r" % (what, got, want))

    racks = {r["name"]: r for r in rep["racks"]}
    eq("racks", sorted(racks), sorted(exp["racks"]))
    for name, e in exp["racks"].items():
        r = racks.get(name, {})
        eq(name + " power_max_w", num(r.get("power_max_w")), w(e["power"]))
        eq(name + " heat_w", num(r.get("heat_w")), w(e["heat"]))
        eq(name + " heat_liquid_w", num(r.get("heat_liquid_w")), w(e["liq"]))
        eq(name + " power_capacity_w", num(r.get("power_capacity_w")),
           w(e["cap"]))
        eq(name + " devices", r.get("devices"), e["devices"])
        eq(name + " cooling", r.get("cooling"), e["cooling"])
    got = sorted({m.split("rack ")[1].split()[0] for m in errs
                  if "[cooling-air-limit]" in m})
    eq("cooling-air-limit racks", got, sorted(
        n for n, e in exp["racks"].items()
        if e["air"] is not None and e["air"] > exp["rack_limit"]))
    if odir and os.path.isdir(os.path.join(odir, "elevations")):
        svg = svg_racks(odir)
        for name, e in exp["racks"].items():
            # the pictures print figures for people: rounded as
            # doc/language.md 3.1 says (MW to 10 kW, kW to 100 W, W to
            # 100 mW, half away from zero)
            def human_mw(v):
                if v is None:
                    return None
                m = abs(v)
                step = (10000000 if m >= 10**9 else 100000 if m >= 10**6
                        else 100 if m >= 1000 else 1)
                r = (m + step // 2) // step * step
                return -r if v < 0 else r
            want = (human_mw(e["liq"]), None if e["air"] is None
                    else human_mw(exp["rack_limit"] - e["air"]))
            eq(name + " elevation (liquid, air headroom)",
               svg.get(name), want)
    t = rep["totals"]
    for k in ("servers", "switches", "racks"):
        eq("totals " + k, t.get(k), exp["totals"][k])
    eq("totals power_max_w", num(t.get("power_max_w")),
       w(exp["totals"]["power"]))
    eq("totals heat_w", num(t.get("heat_w")), w(exp["totals"]["heat"]))
    feeds = {f["name"]: f for f in rep["feeds"]}
    eq("feeds", sorted(feeds), sorted(exp["feeds"]))
    for name, e in exp["feeds"].items():
        f = feeds.get(name, {})
        eq(name + " load_w", num(f.get("load_w")), w(e["load"]))
        eq(name + " load_after_loss_w", num(f.get("load_after_loss_w")),
           w(e["lost"]))
        eq(name + " worst_loss", f.get("worst_loss"), e["worst"])
        eq(name + " capacity_w", num(f.get("capacity_w")), w(e["cap"]))
        if e["cap"] is not None:
            eq(name + " capacity_exact", f.get("capacity_exact"), e["exact"])
            eq(name + " headroom_w", num(f.get("headroom_w")),
               w(e["cap"] - e["load"]))
        eq(name + " racks", sorted(f.get("racks", [])), e["racks"])
        eq(name + " supplies", sorted(f.get("supplies", [])), e["supplies"])
        over = e["cap"] is not None and (
            e["load"] > e["cap"] or (e["lost"] or 0) > e["cap"])
        got = any("feed %s carries" % name in m for m in errs)
        eq(name + " power-feed-capacity error", got, over)
    loops = {lp["name"]: lp for lp in rep["loops"]}
    eq("loops", sorted(loops), sorted(exp["loops"]))
    for name, e in exp["loops"].items():
        lp = loops.get(name, {})
        eq(name + " heat_w", num(lp.get("heat_w")), w(e["heat"]))
        eq(name + " capacity_w", num(lp.get("capacity_w")), w(e["cap"]))
        eq(name + " flow_ml_per_min", lp.get("flow_ml_per_min"), e["flow"])
        eq(name + " racks", lp.get("racks"), e["racks"])
        got = any("loop %s takes" % name in m and "cdu-capacity" in m
                  for m in errs)
        eq(name + " cooling-cdu-capacity error", got, e["cap"] < e["heat"])
    # power-pdu-capacity: the supplies loaded past their capacity
    got = sorted({m.split(" carries ")[0].split()[-1] for m in errs
                  if "[power-pdu-capacity]" in m and " carries " in m})
    eq("power-pdu-capacity supplies", got, exp["pdu_over"])
    got = sorted({"%s %s" % (m.split(" carries ")[0].split()[-1],
                             m.split("when feed ")[1].split(" fails")[0])
                  for m in errs if "[power-feed-failure]" in m and
                  "when feed" in m and " carries " in m})
    eq("power-feed-failure overloads", got, exp["pdu_loss_over"])
    got = sorted({"%s %s" % (m.split("device ")[1].split()[0],
                             m.split("when feed ")[1].split(" fails")[0])
                  for m in errs if "[power-feed-failure]" in m and
                  "loses power" in m})
    eq("power-feed-failure devices down", got, exp["down"])
    got = sorted({m.split("requirement failed: ")[1].split(" [")[0]
                  for m in errs if "requirement failed" in m})
    eq("failed requirements", got, sorted(exp["req_false"]))
    got = sorted({m.split("PDU ")[1].split()[0] for m in errs
                  if "[power-outlets]" in m and "PDU " in m})
    eq("power-outlets PDUs", got, exp["outlet_err"])
    if odir and os.path.exists(os.path.join(odir, "bom.json")):
        import csv
        with open(os.path.join(odir, "bom.csv"), newline="") as fp:
            got = {r["part"]: int(r["quantity"])
                   for r in csv.DictReader(fp)
                   if r["kind"] == "part" and r["part"].startswith(
                       "power_cord")}
        eq("bom power cords", got, exp["cords"])
        warns = json.load(open(os.path.join(odir, "bom.json")))["warnings"]
        got = sum(int(re.search(r": ([0-9]+) C14 inlets? on C19", w)
                      .group(1)) for w in warns if "on C19 outlets" in w)
        eq("bom C14 inlets on C19 outlets", got, exp["spill"])
    return bad


# ---- fabrics ----

def gen_fabric(seed, twin=False):
    """A design of servers (ports claimed by NICs or not) on a generated
    fat tree, a hand-wired fabric and a management star; the figures come
    from the cable plan (cabling.csv) in check_fabric().  @twin: the same
    draw with the servers' NICs of one port each written as bare ports, or
    bare ports claimed by a NIC each (the same cables)."""
    rng = random.Random(seed)
    out = ["# random fabric design, seed %d (tests/random_check.py)\n" % seed,
           "part rk : rack { height 48U }\n",
           "part nicp : nic { pcie_gen 5; pcie_width 16 }\n"]
    exp = {"seed": seed, "kind": "fabric", "speeds": {}, "devices": {},
           "fabrics": {}}
    R = rng.choice([4, 6, 8, 12, 16])
    S = rng.choice([100, 200, 400])
    out.append("part swr : switch { height 1U; power_max 500W; "
               "port p[1..%d] { speed %dGb/s; protocol ib }; "
               "port mgmt { form RJ45; speed 1Gb/s; protocol eth; "
               "role mgmt } }\n" % (R, S))
    exp["speeds"]["swr"] = {"p": S, "mgmt": 1}
    nports = rng.choice([1, 2, 2, 4, 4, 8] if R >= 8 else [1, 2])
    # NIC ports faster than the switch's (400G NICs on 200G switch ports):
    # the fabric then gives the rate its links run at
    slow = rng.random() < 0.2
    ps = S * 2 if slow else S
    nic = rng.choice(["none", "single", "dual"])
    if nic == "dual" and nports % 2:
        nic = "single"
    if twin:
        nic = {"none": "single", "single": "none"}.get(nic, nic)
    body = ["height 2U", "power_max 3kW",
            "port ib[0..%d] { speed %dGb/s; protocol ib }" % (nports - 1, ps),
            "port bmc { form RJ45; speed 1Gb/s; protocol eth; role oob }"]
    if nic == "single":
        body.append("for i in 0..%d { nic cx[i] : nicp { ports ib[i] } }"
                    % (nports - 1))
    elif nic == "dual":
        body.append("for i in 0..%d { nic cx[i] : nicp "
                    "{ ports ib[2 * i], ib[2 * i + 1] } }" % (nports // 2 - 1))
    out.append("part srv : server { %s }\n" % "; ".join(body))
    exp["speeds"]["srv"] = {"ib": ps, "bmc": 1}
    exp["nic"] = nic
    exp["twin"] = twin
    nodes = rng.randint(2, 3 * R if R >= 8 else R)
    out.append("site s { row r { rack k[1..6] : rk { } } }\n")
    out.append("for i in 0..%d { node n[i] : srv { } }\n" % (nodes - 1))
    exp["nodes"] = nodes
    exp["nports"] = nports
    # the generated fat tree
    attrs = ["endpoints n[*].ib[*]", "switch swr"]
    if slow:
        attrs.append("speed %dGb/s" % S)
    d, u = 1, 1
    if rng.random() < 0.5:
        d, u = rng.choice([(1, 1), (3, 1), (2, 1), (1, 3), (5, 3)])
        attrs.append("oversubscription %d:%d" % (d, u))
    if rng.random() < 0.3:
        attrs.append("su_size %d" % rng.randint(1, max(1, R * d // (d + u))))
    exp["planes"] = 1
    if nports > 1 and rng.random() < 0.3:
        exp["planes"] = rng.choice([p for p in (2, 4, 8) if nports % p == 0])
        attrs.append("planes %d" % exp["planes"])
    if rng.random() < 0.2:
        attrs.append("uplinks all")
    if rng.random() < 0.2 and R >= 8:
        attrs.append("tiers 3")
    out.append("fabric compute : fat_tree {\n\t%s\n}\n" % "\n\t".join(attrs))
    fabrics = ["compute"]
    # a hand-wired fabric over the servers' BMC ports would clash with the
    # star: hand-wire a second port set only when there is one to spare
    out.append("part mg : switch { height 1U; power_max 100W; "
               "port e[1..8] { form RJ45; speed 1Gb/s; protocol eth }; "
               "port up[1..2] { form QSFP28; speed 100Gb/s; protocol eth; "
               "role uplink } }\n")
    exp["speeds"]["mg"] = {"e": 1, "up": 100}
    if rng.random() < 0.5:
        out.append("fabric oob : star {\n\tendpoints n[*].bmc, "
                   "compute.leaf[*].mgmt\n\tswitch mg\n}\n")
        fabrics.append("oob")
    else:
        # hand-wired: the BMC ports to two or three switches, chained
        k = rng.randint(2, 3)
        out.append("for j in 0..%d { switch h[j] : mg { } }\n" % (k - 1))
        used = {j: 0 for j in range(k)}
        for i in range(nodes):
            j = rng.randrange(k)
            if used[j] == 8:
                j = min(used, key=lambda x: used[x])
                if used[j] == 8:
                    break
            used[j] += 1
            out.append("link n[%d].bmc -- h[%d].e[%d]\n" % (i, j, used[j]))
        for j in range(k - 1):
            out.append("link h[%d].up[1] -- h[%d].up[2]\n" % (j, j + 1))
        out.append("fabric mgmt : fat_tree { endpoints n[*].bmc }\n")
        fabrics.append("mgmt")
    exp["fabric_names"] = fabrics
    # requirements on the compute fabric: checked against the cable plan
    # in check_fabric (their truth is decided there, from the figures
    # computed independently; the thresholds are drawn here)
    exp["req"] = []
    known = {"endpoints": (nodes * nports, ""),
             "injection": (nodes * nports * S, "Gb/s")}
    for i, fn in enumerate(sorted(known)):
        v, unit = known[fn]
        off = rng.choice([0, 0, -1, 1])
        op = rng.choice(["==", "<=", ">="])
        out.append("require %s(compute) %s %d%s, \"rf%d\"\n" %
                   (fn, op, v + off, unit, i))
        exp["req"].append((fn, op, v + off, "rf%d" % i))
    return "".join(out), exp


def rates_of(exp, dev, port, parts):
    """speed (Gb/s) of a port of a device, from its part"""
    stem = port.split("[")[0]
    return exp["speeds"][parts[dev]][stem]


def fabric_figures(exp, rows, name):
    """the report figures of fabric @name from the cable plan rows"""
    import networkx as nx

    def is_ep(dev):
        return dev.startswith("n[") or (name == "oob" and
                                        not dev.startswith("oob."))

    parts = {}
    links = [r for r in rows if r["fabric"] == name]
    for r in links:
        for dev in (r["a_device"], r["b_device"]):
            if is_ep(dev):
                parts[dev] = "srv"
            elif dev.startswith("h[") or dev.startswith("oob."):
                parts[dev] = "mg"
            else:
                parts[dev] = "swr"
    for r in links:
        for dev in (r["a_device"], r["b_device"]):
            if dev.startswith("compute."):
                parts[dev] = "swr"
    g = nx.Graph()
    ep_ports = {}
    sw_ports = set()
    bad = []
    for r in links:
        a, b = (r["a_device"], r["a_port"]), (r["b_device"], r["b_port"])
        rate = min(rates_of(exp, a[0], a[1], parts),
                   rates_of(exp, b[0], b[1], parts)) * 10**9
        for end in (a, b):
            if end in sw_ports or end in ep_ports:
                bad.append("port %s.%s cabled twice" % end)
        for end in (a, b):
            if is_ep(end[0]):
                ep_ports[end] = (rate, (b if end == a else a)[0])
            else:
                sw_ports.add(end)
        u, v = a[0], b[0]
        if g.has_edge(u, v):
            g[u][v]["capacity"] += rate
            g[u][v]["n"] += 1
        else:
            g.add_edge(u, v, capacity=rate, n=1)

    # endpoint-level terminals: the NIC that claims the port, else the
    # port itself (a switch's ports: the switch, which forwards)
    def epdev(dev, port):
        if not dev.startswith("n["):
            return dev
        if exp["nic"] == "none" or not port.startswith("ib["):
            return dev + "." + port
        i = int(port[3:-1])
        return "%s.cx[%d]" % (dev, i if exp["nic"] == "single" else i // 2)

    # node-level terminals: the device
    def nodedev(dev, port):
        return dev

    inj = {}
    for (dev, port), (rate, _) in ep_ports.items():
        k = epdev(dev, port)
        inj[k] = inj.get(k, 0) + rate
    switches = {d for d in g if not is_ep(d)}
    tier = {}
    frontier = {sw for (dev, port), (rate, sw) in ep_ports.items()}
    t = 1
    while frontier:
        for sw in frontier:
            tier[sw] = t
        nxt = set()
        for sw in frontier:
            for v in g[sw]:
                if not is_ep(v) and v not in tier:
                    nxt.add(v)
        frontier = nxt
        t += 1
    ntiers = max(tier.values()) if tier else 0
    tsw = [sum(1 for s in tier.values() if s == k)
           for k in range(1, ntiers + 1)]
    tlinks = [0] * ntiers
    down = [0] * ntiers
    up = [0] * ntiers
    leaf_down, leaf_up = {}, {}
    for r in links:
        a, b = r["a_device"], r["b_device"]
        rate = g[a][b]["capacity"] // g[a][b]["n"]
        ta = 0 if is_ep(a) else tier.get(a)
        tb = 0 if is_ep(b) else tier.get(b)
        if ta is None or tb is None or ta == tb:
            continue
        lo, hi = min(ta, tb), max(ta, tb)
        if hi != lo + 1:
            continue
        tlinks[hi - 1] += 1
        down[hi - 1] += rate
        if lo:
            up[lo - 1] += rate
        if lo == 0:
            sw = b if tb == 1 else a
            leaf_down[sw] = leaf_down.get(sw, 0) + rate
        if lo == 1:
            sw = a if ta == 1 else b
            leaf_up[sw] = leaf_up.get(sw, 0) + rate
    worst = None
    for sw, dn in leaf_down.items():
        u = leaf_up.get(sw, 0)
        if not u:
            continue
        if worst is None or Fraction(dn, u) > Fraction(*worst):
            worst = (dn, u)
    if worst:
        fr = Fraction(*worst)
        over = "%d:%d" % (fr.numerator, fr.denominator)
    else:
        over = None
    fig = {"endpoints": len(ep_ports), "switches": len(switches),
           "links": len(links), "tiers": ntiers,
           "injection_bps": sum(r for r, _ in ep_ports.values()),
           "oversubscription": over, "tier_switches": tsw,
           "tier_links": tlinks,
           "tier_bps": [{"down": down[k], "up": up[k]}
                        for k in range(ntiers)]}
    # each level: its terminals, the full bisection (the floor(n/2) least
    # injections, over the whole fabric: planes are not halved one by
    # one) and the true bisection by brute force for small fabrics
    # (tests/bisect_check.py)
    from bisect_check import truth
    # (is_ep reads @name: the level's naming is @term)
    for pre, term, count in (("", epdev, "endpoint_devices"),
                             ("node_", nodedev, "nodes")):
        h = nx.Graph()
        for u, v, dd in g.edges(data=True):
            if not is_ep(u) and not is_ep(v):
                h.add_edge(u, v, capacity=dd["capacity"])
        linj = {}
        for (dev, port), (rate, sw) in ep_ports.items():
            k = term(dev, port)
            linj[k] = linj.get(k, 0) + rate
            if h.has_edge(k, sw):
                h[k][sw]["capacity"] += rate
            else:
                h.add_edge(k, sw, capacity=rate)
        devs = sorted(linj.values())
        n = len(devs)
        fig[count] = n
        fig[pre + "full_bisection_bps"] = sum(devs[:n // 2]) \
            if n >= 2 else None
        small = n <= 12 or len(h) - n <= 12
        fig[pre + "bisection"] = truth(h, set(linj)) if small else None
    return fig, bad


def read_cabling(odir):
    import csv
    with open(os.path.join(odir, "cabling.csv"), newline="") as fp:
        return list(csv.DictReader(fp))


def check_fabric(exp, rep, errs, odir):
    bad = []

    def eq(what, got, want):
        if got != want:
            bad.append("%s: %r, expected %r" % (what, got, want))

    rows = read_cabling(odir)
    fabs = {f["name"]: f for f in rep["fabrics"]}
    eq("fabrics", sorted(fabs), sorted(exp["fabric_names"]))
    figs = {}
    for name in exp["fabric_names"]:
        fig, problems = fabric_figures(exp, rows, name)
        figs[name] = fig
        bad += ["%s: %s" % (name, p) for p in problems]
        f = fabs.get(name, {})
        for k, v in fig.items():
            if k in ("bisection", "node_bisection"):
                continue
            eq("%s %s" % (name, k), f.get(k), v)
        for pre in ("", "node_"):
            true = fig[pre + "bisection"]
            if true is None or f.get(pre + "bisection_bps") is None:
                continue
            lo, hi = f[pre + "bisection_bps"], f[pre + "bisection_upper_bps"]
            if f.get(pre + "bisection_exact"):
                eq("%s exact %sbisection" % (name, pre), lo, true)
            elif not lo <= true <= hi:
                bad.append("%s %sbisection %d not within [%d, %d]" %
                           (name, pre, true, lo, hi))
            eq("%s %sbisection upper bound >= true" % (name, pre),
               hi >= true, True)
    # the requirements
    c = dict(figs["compute"])
    c["injection"] = c["injection_bps"] // 10**9
    want = []
    for fn, op, v, msg in exp["req"]:
        ok = {"==": c[fn] == v, "<=": c[fn] <= v, ">=": c[fn] >= v}[op]
        if not ok:
            want.append(msg)
    got = sorted({m.split("requirement failed: ")[1].split(" [")[0]
                  for m in errs if "requirement failed" in m})
    eq("failed requirements", got, sorted(want))
    # the bill of materials: one line per part, as many as built
    import csv
    with open(os.path.join(odir, "bom.csv"), newline="") as fp:
        bom = {r["part"]: int(r["quantity"]) for r in csv.DictReader(fp)
               if r["kind"] == "part" and r["category"] in
               ("server", "switch")}
    sw = {}
    for name in exp["fabric_names"]:
        for r in rows:
            if r["fabric"] != name:
                continue
            for dev in (r["a_device"], r["b_device"]):
                if not dev.startswith("n["):
                    sw[dev] = "mg" if dev.startswith("h[") or \
                        dev.startswith("oob.") else "swr"
    want = {"srv": exp["nodes"]}
    for dev, part in sw.items():
        want[part] = want.get(part, 0) + 1
    eq("bom server and switch lines", bom, want)
    return bad


def main():
    if sys.argv[1] == "gen":
        kind, seed = sys.argv[2].split(":") if ":" in sys.argv[2] \
            else ("power", sys.argv[2])
        if kind in ("fabric", "twin"):
            text, exp = gen_fabric(int(seed), kind == "twin")
        else:
            text, exp = gen(int(seed))
        os.makedirs(sys.argv[3], exist_ok=True)
        with open(os.path.join(sys.argv[3], "d.rack"), "w") as fp:
            fp.write(text)
        with open(os.path.join(sys.argv[3], "exp.json"), "w") as fp:
            json.dump(exp, fp)
        return 0
    exp = json.load(open(os.path.join(sys.argv[2], "exp.json")))
    rep = json.load(open(os.path.join(sys.argv[3], "report.json")),
                    parse_float=Decimal)
    errs = [ln.rstrip("\n") for ln in open(sys.argv[4])
            if ": error: " in ln or ": warning: " in ln]
    if exp.get("kind") == "fabric":
        bad = check_fabric(exp, rep, errs, sys.argv[3])
        name = "fabric seed %d%s" % (exp["seed"],
                                     " (twin)" if exp.get("twin") else "")
    else:
        bad = check(exp, rep, errs, sys.argv[3])
        name = "seed %d" % exp["seed"]
    if bad:
        print("FAIL\t%s\t%s" % (name, "; ".join(bad)))
        return 1
    print("PASS\t%s\tthe figures computed independently" % name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
