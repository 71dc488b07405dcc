#!/bin/sh
# SPDX-License-Identifier: MIT
#
# report.json's "feeds" and "loops" sections against figures computed here
# independently, and against the checks.  Generated designs (four seeds):
#
#   - two to four feeds, rated by V x A (x sqrt(3)) x derate or by
#     `capacity`; racks of two PDUs on two different feeds, each server's
#     two supplies split between them (no redundancy scheme, so a server
#     runs on either supply alone).  Python's decimal module rates the
#     feeds; the loads follow from the sharing rule: ceil(P/2) on each
#     feed normally, all of P on the survivor when the other feed is lost;
#   - two or three liquid loops with CDUs of random capacity and max_flow
#     (some without max_flow) and redundancy N, N+1, N+N or 2N, and
#     liquid-cooled servers (all heat to liquid, or a liquid_fraction);
#     heat, usable capacity (less the largest CDUs redundancy lets fail)
#     and flow = ceil(6e7 x P[mW] / (rho x c_p x delta_T[mK])) mL/min of
#     water;
#   - rear doors of random capacity on some racks (drawn from a second
#     random stream, so the rest of each design is as it was): a door
#     takes min(the rack's air-side heat, its capacity), which goes to the
#     rack's loop;
#
# then each feed's load_w, load_after_loss_w, worst_loss, capacity_w,
# headroom_w, headroom_after_loss_w and racks, and each loop's heat_w,
# capacity_w, headroom_w, flow_ml_per_min, max_flow_ml_per_min and
# flow_headroom_ml_per_min, must be the figures computed here; and a
# power-feed-capacity error names exactly the feeds with a negative
# headroom, a cooling-cdu-capacity or cooling-flow error exactly the loops
# with a negative capacity or flow headroom.  report.html's feeds and loops
# tables (read with lxml through tests/html_loads.py) must show the same
# figures computed here, each labelled exact, or a bound where a capacity
# was rounded down or a flow rounded up.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip loads "python3 not installed"
	finish
fi

cat >"$tmp/gen.py" <<'EOF'
import json
import random
import sys
from decimal import Decimal, getcontext

getcontext().prec = 60
SQRT3 = Decimal(3).sqrt()
WATER_CP, WATER_RHO = 4186, 997  # J/(kg K), g/L


def feed_decl(rng, name):
    if rng.random() < 0.3:
        cap = rng.randint(1_000_000, 60_000_000)  # mW
        return "feed %s { capacity %dmW }" % (name, cap), cap, True
    v = rng.randint(200_000, 480_000)  # mV
    a = rng.randint(10_000, 120_000)  # mA
    ph = rng.choice([1, 3])
    der = rng.choice([0, 800_000, rng.randint(500_000, 1_000_000)])
    w = Decimal(v) * Decimal(a) / 1000  # mV x mA = uW -> mW
    if der:
        w = w * der / Decimal(10**6)
    if ph == 3:
        w = w * SQRT3
    body = "voltage %dmV; current %dmA; phases %d" % (v, a, ph)
    if der:
        body += "; derate {:f}%".format(
            (Decimal(der) / Decimal(10**4)).normalize())
    return "feed %s { %s }" % (name, body), int(w), w == int(w)


def design(seed, out):
    rng = random.Random(seed)
    doors = random.Random(seed + 1000)  # the rear doors' own stream
    nf = rng.randint(2, 4)
    feeds = ["F%d" % i for i in range(nf)]
    site, parts, devs = [], [], []
    exp = {"feeds": {}, "loops": {}}
    for f in feeds:
        decl, cap, exact = feed_decl(rng, f)
        site.append("\t" + decl + "\n")
        exp["feeds"]["s." + f] = {"capacity": cap, "exact": exact,
                                  "load": 0, "racks": set(),
                                  "pair": {g: 0 for g in feeds if g != f}}
    nl = rng.randint(2, 3)
    loops = ["L%d" % i for i in range(nl)]
    for li, l in enumerate(loops):
        ncdu = rng.randint(1, 3)
        red = rng.choice(["N", "N+1", "N+N", "2N"])
        caps, flows = [], []
        for c in range(ncdu):
            cap = rng.randint(5_000_000, 40_000_000)
            caps.append(cap)
            name = "cdu_%s_%d" % (l, c)
            body = "capacity %dmW" % cap
            if rng.random() < 0.8:
                fl = rng.randint(10_000, 60_000)  # mL/min
                flows.append(fl)
                body += "; max_flow %dmL/min" % fl
            else:
                flows.append(None)
            parts.append("part p_%s : cdu { %s }\n" % (name, body))
            devs.append("cdu %s : p_%s\n" % (name, name))
        spares = {"N": 0, "N+1": 1}.get(red, ncdu - ncdu // 2)
        dt = rng.randint(4_000, 15_000)  # mK
        site.append("\tloop %s { cdu %s; coolant water; delta_t %sK; "
                    "redundancy \"%s\" }\n" % (
                        l, ", ".join("cdu_%s_%d" % (l, c)
                                     for c in range(ncdu)),
                        "{:f}".format((Decimal(dt) / 1000).normalize()), red))

        def usable(v):
            if any(x is None for x in v):
                return None
            return sum(v) - sum(sorted(v, reverse=True)[:spares])
        exp["loops"]["s." + l] = {"heat": 0, "capacity": usable(caps),
                                  "max_flow": usable(flows), "dt": dt,
                                  "racks": set()}
    rows = []
    for r in range(rng.randint(2, 6)):
        f1, f2 = rng.sample(feeds, 2)
        l = rng.choice(loops)
        rack = "s.r.k%d" % r
        rows.append("\t\track k%d : rk { loop %s; pdu pa : bigpdu { feed %s }; "
                    "pdu pb : bigpdu { feed %s } }\n" % (r, l, f1, f2))
        exp["feeds"]["s." + f1]["racks"].add(rack)
        exp["feeds"]["s." + f2]["racks"].add(rack)
        exp["loops"]["s." + l]["racks"].add(rack)
        air = 0
        for n in range(rng.randint(1, 4)):
            p = rng.randint(200_000, 3_000_000)  # mW
            frac = rng.choice([None, rng.randint(1, 1_000_000)])
            part = "srv_%d_%d" % (r, n)
            body = "height 1U; psus 2; power_max %dmW; cooling liquid" % p
            liq = p
            if frac is not None:
                body += "; liquid_fraction {:f}%".format(
                    (Decimal(frac) / Decimal(10**4)).normalize())
                liq = p * frac // 10**6
            parts.append("part %s : server { %s }\n" % (part, body))
            devs.append("node n%d_%d : %s { rack %s; at %dU; "
                        "power psu[0] -> %s.pa, psu[1] -> %s.pb }\n" % (
                            r, n, part, rack, 1 + 2 * n, rack, rack))
            half = -(-p // 2)
            for a, b in ((f1, f2), (f2, f1)):
                e = exp["feeds"]["s." + a]
                e["load"] += half
                e["pair"][b] += p - half  # the survivor takes all of P
            exp["loops"]["s." + l]["heat"] += liq
            air += p - liq
        if doors.random() < 0.6:
            cap = doors.randint(1, 2 * air + 1)
            parts.append("part door%d : rdhx { capacity %dmW }\n" % (r, cap))
            rows[-1] = rows[-1].replace("loop %s;" % l,
                                        "loop %s; rdhx door%d;" % (l, r))
            exp["loops"]["s." + l]["heat"] += min(air, cap)
    with open(out, "w") as fp:
        fp.write("part rk : rack { height 42U }\n")
        fp.write("part bigpdu : pdu { capacity 1000MW }\n")
        fp.writelines(parts)
        fp.write("site s {\n")
        fp.writelines(site)
        fp.write("\trow r {\n")
        fp.writelines(rows)
        fp.write("\t}\n}\n")
        fp.writelines(devs)
    # the loss figures
    for name, e in exp["feeds"].items():
        best, worst = e["load"], None
        for g in sorted(e["pair"], key=lambda x: int(x[1:])):
            if e["load"] + e["pair"][g] > best:
                best, worst = e["load"] + e["pair"][g], "s." + g
        e["lost"], e["worst"] = best, worst
        e["racks"] = sorted(e["racks"], key=lambda x: int(x[5:]))
        del e["pair"]
    for e in exp["loops"].values():
        num = 60_000_000 * e["heat"]
        den = WATER_RHO * WATER_CP * e["dt"]
        e["flow"] = -(-num // den)
        e["flow_exact"] = num % den == 0
        e["racks"] = sorted(e["racks"], key=lambda x: int(x[5:]))
    return exp


def w(mw):
    return None if mw is None else Decimal(mw) / 1000


def check(exp, rep, errs):
    bad = []

    def eq(what, got, want):
        if got != want:
            bad.append("%s: %r, expected %r" % (what, got, want))

    feeds = {f["name"]: f for f in rep["feeds"]}
    eq("feeds", sorted(feeds), sorted(exp["feeds"]))
    for name, e in exp["feeds"].items():
        f = feeds.get(name, {})
        eq(name + " load_w", f.get("load_w"), w(e["load"]))
        eq(name + " load_after_loss_w", f.get("load_after_loss_w"),
           w(e["lost"]))
        eq(name + " worst_loss", f.get("worst_loss"), e["worst"])
        eq(name + " capacity_w", f.get("capacity_w"), w(e["capacity"]))
        eq(name + " capacity_exact", f.get("capacity_exact"), e["exact"])
        eq(name + " headroom_w", f.get("headroom_w"),
           w(e["capacity"] - e["load"]))
        eq(name + " headroom_after_loss_w", f.get("headroom_after_loss_w"),
           w(e["capacity"] - e["lost"]))
        eq(name + " racks", f.get("racks"), e["racks"])
        flagged = any("feed %s carries" % name in m for m in errs)
        eq(name + " power-feed-capacity error", flagged,
           e["capacity"] < e["lost"] or e["capacity"] < e["load"])
    loops = {l["name"]: l for l in rep["loops"]}
    eq("loops", sorted(loops), sorted(exp["loops"]))
    for name, e in exp["loops"].items():
        lp = loops.get(name, {})
        eq(name + " heat_w", lp.get("heat_w"), w(e["heat"]))
        eq(name + " capacity_w", lp.get("capacity_w"), w(e["capacity"]))
        eq(name + " headroom_w", lp.get("headroom_w"),
           w(e["capacity"] - e["heat"]))
        eq(name + " flow_ml_per_min", lp.get("flow_ml_per_min"), e["flow"])
        eq(name + " max_flow_ml_per_min", lp.get("max_flow_ml_per_min"),
           e["max_flow"])
        eq(name + " flow_headroom_ml_per_min",
           lp.get("flow_headroom_ml_per_min"),
           None if e["max_flow"] is None else e["max_flow"] - e["flow"])
        eq(name + " racks", lp.get("racks"), e["racks"])
        cap_err = any("loop %s takes" % name in m and "cdu-capacity" in m
                      for m in errs)
        eq(name + " cooling-cdu-capacity error", cap_err,
           e["capacity"] < e["heat"])
        flow_err = any("loop %s needs" % name in m for m in errs)
        eq(name + " cooling-flow error", flow_err,
           e["max_flow"] is not None and e["max_flow"] < e["flow"])
    return bad


def check_html(exp, page):
    """report.html's figures (html_loads.html_report()) against ours."""
    bad = []

    def eq(what, got, want, basis=None):
        if got is None or not isinstance(got, tuple):
            got = (got, None)
        if got[0] != want or (basis and got[1] != basis):
            bad.append("report.html %s: %r, expected %r (%s)"
                       % (what, got, want, basis))

    feeds = {f["name"]: f for f in page["feeds"]}
    if sorted(feeds) != sorted(exp["feeds"]):
        bad.append("report.html feeds: %r" % sorted(feeds))
    for name, e in exp["feeds"].items():
        f = feeds.get(name, {})
        cb = "exact" if e["exact"] else "lower-bound"
        eq(name + " capacity", f.get("capacity_w"), w(e["capacity"]), cb)
        eq(name + " load", f.get("load_w"), w(e["load"]), "exact")
        eq(name + " headroom", f.get("headroom_w"),
           w(e["capacity"] - e["load"]), cb)
        eq(name + " load after loss", f.get("load_after_loss_w"),
           w(e["lost"]), "exact")
        eq(name + " worst loss", f.get("worst_loss"), e["worst"])
        eq(name + " headroom after loss", f.get("headroom_after_loss_w"),
           w(e["capacity"] - e["lost"]), cb)
        eq(name + " racks", f.get("racks"), len(e["racks"]))
    loops = {l["name"]: l for l in page["loops"]}
    if sorted(loops) != sorted(exp["loops"]):
        bad.append("report.html loops: %r" % sorted(loops))
    for name, e in exp["loops"].items():
        lp = loops.get(name, {})
        known = e["capacity"] is not None
        eq(name + " heat", lp.get("heat_w"), w(e["heat"]), "exact")
        eq(name + " capacity", lp.get("capacity_w"), w(e["capacity"]),
           "exact" if known else "none")
        eq(name + " headroom", lp.get("headroom_w"),
           w(e["capacity"] - e["heat"]) if known else None,
           "exact" if known else "none")
        eq(name + " flow needed", lp.get("flow_ml_per_min"), e["flow"],
           "exact" if e["flow_exact"] else "upper-bound")
        known = e["max_flow"] is not None
        eq(name + " flow available", lp.get("max_flow_ml_per_min"),
           e["max_flow"], "exact" if known else "none")
        eq(name + " flow headroom", lp.get("flow_headroom_ml_per_min"),
           e["max_flow"] - e["flow"] if known else None,
           ("exact" if e["flow_exact"] else "lower-bound") if known
           else "none")
        eq(name + " racks", lp.get("racks"), len(e["racks"]))
    return bad


if sys.argv[1] == "gen":
    exp = design(int(sys.argv[2]), sys.argv[3])
    json.dump(exp, open(sys.argv[4], "w"))
else:
    exp = json.load(open(sys.argv[2]))
    rep = json.load(open(sys.argv[3]), parse_float=Decimal)
    errs = [l for l in open(sys.argv[4]) if ": error: " in l]
    bad = check(exp, rep, errs)
    if len(sys.argv) > 5:  # "html", report.html, where html_loads.py is
        sys.path.insert(0, sys.argv[7])
        import html_loads
        page, problems = html_loads.html_report(sys.argv[6])
        bad += problems + check_html(exp, page)
    print("\n".join(bad))
    sys.exit(1 if bad else 0)
EOF

# a python3 with lxml reads report.html too; without one only report.json
# is checked (and the report.html cases are skipped)
py_with lxml.html

for seed in 1 4 5 6; do
	name="seed $seed: feeds and loops"
	python3 "$tmp/gen.py" gen "$seed" "$tmp/d$seed.rack" "$tmp/d$seed.json"
	if [ -n "$py" ]; then
		set -- html "$tmp/out$seed/report.html" "$top_srcdir/tests"
		name="$name, report.json and report.html"
	else
		set --
		skip "seed $seed: report.html" "no python3 with lxml"
	fi
	if ! rk_run "$tmp/r$seed" --force --max-errors=0 --no-source \
		-O report,html -o "$tmp/out$seed" "$tmp/d$seed.rack"; then
		fail "$name" "$rk_problem"
	elif [ "$rc" -gt 1 ] || [ ! -s "$tmp/out$seed/report.json" ]; then
		fail "$name" "exit $rc, or no report.json"
		show "$tmp/r$seed.err"
	elif "${py:-python3}" "$tmp/gen.py" check "$tmp/d$seed.json" \
		"$tmp/out$seed/report.json" "$tmp/r$seed.err" "$@" \
		>"$tmp/c$seed.out" 2>&1; then
		pass "$name"
	else
		fail "$name"
		show "$tmp/c$seed.out"
	fi
done

finish
