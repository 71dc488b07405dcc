#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Power limits are exact to the milliwatt, and report.json's
# power_capacity_w is the capacity the checks use.  A generated design has
# racks with one supply each (single- and three-phase PDUs with and
# without derating, PDUs and power shelves rated by `capacity`, power
# shelves rated by V x A), of random ratings, each loaded by one server;
# and racks with two or three PDUs on feeds A and B.  The capacities are
# computed here independently, with Python's decimal module (60 digits,
# sqrt(3) by Decimal.sqrt), not with the compiler's integer square root:
#
#   - every load at floor(capacity) in mW: `--check` is silent, exit 0;
#   - every load 1 mW higher: one power-pdu-capacity error per loaded
#     supply, naming it, exit 1;
#   - report.json: each rack's power_capacity_w is the floor in mW of its
#     supplies' total less the largest feed's share (two feeds or more).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip power-exact "python3 not installed"
	finish
fi

cat >"$tmp/gen.py" <<'EOF'
import json
import random
import sys
from decimal import Decimal, getcontext

getcontext().prec = 60
SQRT3 = Decimal(3).sqrt()


def cap_mw(s):
    """floor of the capacity in mW"""
    if "cap" in s:
        return s["cap"]
    w = Decimal(s["v"]) * Decimal(s["a"]) / Decimal(10**3)  # mV mA = uW
    if s["derate"]:
        w = w * Decimal(s["derate"]) / Decimal(10**6)
    if s["phases"] == 3:
        w = w * SQRT3
    return int(w)  # floor: w > 0


def supply(rng):
    s = {"kind": rng.choice(["pdu", "power_shelf"])}
    if rng.random() < 0.25:
        s["cap"] = rng.randint(1, 200_000_000)
    else:
        s["v"] = rng.randint(100_000, 700_000)
        s["a"] = rng.randint(1_000, 400_000)
        s["phases"] = rng.choice([1, 3])
        s["derate"] = rng.choice([0, 1_000_000, 800_000,
                                   rng.randint(500_000, 1_000_000)])
    return s


def decl(s, name):
    if "cap" in s:
        body = "capacity %dmW" % s["cap"]
    else:
        body = "voltage %dmV; current %dmA; phases %d" % (
            s["v"], s["a"], s["phases"])
        if s["derate"]:  # ppm as a percentage: 812345 -> 81.2345%
            pct = (Decimal(s["derate"]) / Decimal(10**4)).normalize()
            body += "; derate {:f}%".format(pct)
    return "part %s : %s { %s }\n" % (name, s["kind"], body)


def design(seed, over, out):
    rng = random.Random(seed)
    parts, racks, nodes, expect = [], [], [], {}
    for i in range(120):
        s = supply(rng)
        parts.append(decl(s, "sup%d" % i))
        cls = "pdu" if s["kind"] == "pdu" else "shelf"
        at = "" if cls == "pdu" else "; at 2U"
        racks.append("\t\track k%d : rk { %s p : sup%d { feed A%s } }\n"
                     % (i, cls, i, at))
        load = cap_mw(s) + (1 if over else 0)
        parts.append("part srv%d : srv { power_max %dmW }\n" % (i, load))
        nodes.append("node n%d : srv%d { rack s.r.k%d; at 1U; "
                     "power psu[0] -> s.r.k%d.p }\n" % (i, i, i, i))
        expect["s.r.k%d" % i] = cap_mw(s)
    for i in range(40):
        share = {"A": 0, "B": 0}
        body = []
        for j in range(rng.randint(2, 3)):
            s = supply(rng)
            s["kind"] = "pdu"
            f = "AB"[j % 2] if j < 2 else rng.choice("AB")
            parts.append(decl(s, "dual%d_%d" % (i, j)))
            body.append("pdu p%d : dual%d_%d { feed %s }" % (j, i, j, f))
            share[f] += cap_mw(s)
        racks.append("\t\track d%d : rk { %s }\n" % (i, "; ".join(body)))
        expect["s.r.d%d" % i] = share["A"] + share["B"] - max(share.values())
    with open(out, "w") as f:
        f.write("part srv : server { height 1U; psus 1 }\n")
        f.write("part rk : rack { height 42U }\n")
        f.writelines(parts)
        # the feeds' ratings are not what this test judges
        waive = ('waive "power-figure-unknown", "no feed rating: the '
                 'supplies are judged"')
        f.write("site s {\n\tfeed A { %s }\n\tfeed B { %s }\n\trow r {\n"
                % (waive, waive))
        f.writelines(racks)
        f.write("\t}\n}\n")
        f.writelines(nodes)
    return expect


def watts(mw):
    return Decimal(mw) / 1000


cmd = sys.argv[1]
if cmd == "gen":
    exp = design(int(sys.argv[2]), sys.argv[3] == "over", sys.argv[4])
    json.dump(exp, open(sys.argv[5], "w"))
elif cmd == "report":
    exp = json.load(open(sys.argv[2]))
    rep = json.load(open(sys.argv[3]), parse_float=Decimal)
    bad = 0
    for r in rep["racks"]:
        got = Decimal(r["power_capacity_w"])
        want = watts(exp[r["name"]])
        if got != want:
            print("%s: power_capacity_w %s, expected %s" % (
                r["name"], got, want))
            bad += 1
    if len(rep["racks"]) != len(exp):
        print("%d racks in report.json, %d expected" % (
            len(rep["racks"]), len(exp)))
        bad += 1
    sys.exit(1 if bad else 0)
EOF

for seed in 1 2 3; do
	python3 "$tmp/gen.py" gen "$seed" limit "$tmp/limit$seed.rack" \
		"$tmp/limit$seed.json"
	python3 "$tmp/gen.py" gen "$seed" over "$tmp/over$seed.rack" \
		"$tmp/over$seed.json"

	name="seed $seed: loads at the limit pass"
	if ! rk_run "$tmp/l$seed" --check "$tmp/limit$seed.rack"; then
		fail "$name" "$rk_problem"
	elif [ "$rc" -ne 0 ] || [ -s "$tmp/l$seed.err" ]; then
		fail "$name" "exit $rc"
		show "$tmp/l$seed.err"
	else
		pass "$name"
	fi

	name="seed $seed: loads 1 mW over fail, one error per supply"
	if ! rk_run "$tmp/o$seed" --check --max-errors=0 --no-source \
		"$tmp/over$seed.rack"; then
		fail "$name" "$rk_problem"
	else
		n=$(grep -c 'at max load, above its .*\[power-pdu-capacity\]$' \
			"$tmp/o$seed.err" || :)
		named=$(sed -n 's/.* s\.r\.k\([0-9]*\)\.p carries .*/\1/p' \
			"$tmp/o$seed.err" | sort -n | uniq | wc -l)
		if [ "$rc" -eq 1 ] && [ "$n" -eq 120 ] && [ "$named" -eq 120 ]; then
			pass "$name"
		else
			fail "$name" "exit $rc, $n errors naming $named supplies"
			show "$tmp/o$seed.err"
		fi
	fi

	name="seed $seed: report.json capacities equal the checks'"
	if ! rk_run "$tmp/r$seed" -O report -o "$tmp/out$seed" \
		"$tmp/limit$seed.rack"; then
		fail "$name" "$rk_problem"
	elif [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc"
		show "$tmp/r$seed.err"
	elif python3 "$tmp/gen.py" report "$tmp/limit$seed.json" \
		"$tmp/out$seed/report.json" >"$tmp/r$seed.diff"; then
		pass "$name"
	else
		fail "$name"
		show "$tmp/r$seed.diff"
	fi
done

finish
