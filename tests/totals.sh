#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Totals past the 64-bit range never pass for figures.  Designs whose
# power or heat totals do not fit 64 bits (9223372036854775807 mW): two
# racks whose sum does not (the site's totals), one rack whose devices'
# power_max sum does not, one whose heat alone does not (on a liquid loop),
# and one powered from PDUs on two feeds and cooled by a loop with CDUs
# and rear doors.  Each device draws 5000000000000000000 mW, so no figure
# that fits is ever 9223372036854775807 mW: that number, in any unit or
# with separators, in an artifact is a saturated sum printed as a figure
# (unless it says "at least", as the checks' messages do).
# For each design, compiled with --force and every back end:
#   - exit status 1 with a total-overflow error;
#   - no artifact (report.json, report.html, the SVGs, CSVs, ...) holds
#     the saturated number; stderr holds it only as "at least" a figure;
#   - report.json gives each total out of range as null, listed in the
#     object's "out_of_range", and so the capacity section's IT power and
#     the figures made from it; report.html says "out of range";
#   - `rackc diff` of the design against the same with 1 kW devices shows
#     no saturated number either.
# A control design at the limit (9223372036854775807 mW exactly, which
# fits) compiles clean and shows the figure, so the search above can find
# it.
. "$(dirname "$0")/lib.sh"

py_with json
if [ -z "$py" ]; then
	skip totals "python3 not installed"
	finish
fi

big=5000000000000000000mW
gen() { # gen NAME POWER: the designs, each device at POWER
	case $1 in
	site) cat <<END
part r48 : rack { height 48U }
part srv : server { height 1U; power_max $2 }
site s { row r { rack k1 : r48 { } rack k2 : r48 { } } }
node a : srv { rack s.r.k1; at 1U }
node b : srv { rack s.r.k2; at 1U }
END
		;;
	rack) cat <<END
part r48 : rack { height 48U }
part srv : server { height 1U; power_max $2 }
site s { row r { rack k : r48 { } rack e : r48 { } } }
node a : srv { rack s.r.k; at 1U }
node b : srv { rack s.r.k; at 2U }
END
		;;
	heat) cat <<END
part r48 : rack { height 48U }
part srv : server { height 1U; power_max 1kW; heat $2; cooling liquid }
site s { loop w { } row r { rack k : r48 { loop w } } }
node a : srv { rack s.r.k; at 1U }
node b : srv { rack s.r.k; at 2U }
END
		;;
	feeds) cat <<END
part rk : rack { height 42U }
part srv : server { height 2U; psus 2; power_max $2; cooling liquid; liquid_fraction 75% }
part door8 : rdhx { capacity 8kW }
part cdu36 : cdu { height 4U; capacity 36kW; max_flow 60L/min }
part pdu60 : pdu { capacity 60kW }
site s {
	feed A { voltage 415V; current 150A; phases 3 }
	feed B { capacity 90kW }
	air crah { capacity 100kW; rack_limit 3kW }
	loop L { cdu c[0..1]; coolant water; delta_t 10K; redundancy "N+1" }
	row r {
		rack k[1..2] : rk {
			loop L
			air crah
			rdhx door8
			pdu pa : pdu60 { feed A }
			pdu pb : pdu60 { feed B }
		}
		rack m : rk
	}
}
for i in 0..1 {
	cdu c[i] : cdu36 { rack s.r.m; at 1U + 4U * i }
}
for k in 1..2 {
	for n in 0..1 {
		node n[10 * k + n] : srv {
			rack s.r.k[k]
			at 1U + 2U * n
			power psu[0] -> s.r.k[k].pa, psu[1] -> s.r.k[k].pb
		}
	}
}
END
		;;
	esac
}

# the saturated number, any unit: its digits with at most one '.', ',' or
# blank between them
sat='9[., ]?2[., ]?2[., ]?3[., ]?3[., ]?7[., ]?2[., ]?0[., ]?3[., ]?6[., ]?8[., ]?5[., ]?4[., ]?7[., ]?7[., ]?5[., ]?8[., ]?0[., ]?7'

# leaks PATH...: the files under PATH that show the saturated number as a
# figure (the checks' messages, in report.html and the diff too, may say
# "at least" it)
leaks() {
	grep -r -o -E "(at least )?$sat" "$@" /dev/null |
		grep -v ':at least ' | cut -d: -f1 | sort -u | tr '\n' ' '
}

cat >"$tmp/report.py" <<'PYEOF'
import json, sys

rep = json.load(open(sys.argv[1]))
case = sys.argv[2]
bad = []


def null_listed(obj, keys, where):
    for k in keys:
        if obj.get(k) is not None:
            bad.append("%s: %s is %r, not null" % (where, k, obj.get(k)))
        if k not in obj.get("out_of_range", []):
            bad.append("%s: %s not in out_of_range" % (where, k))


null_listed(rep["totals"], ["power_max_w", "heat_w"] if case != "heat"
            else ["heat_w"], "totals")
power = rep["capacity"]["power"]
if case != "heat":
    null_listed(power, ["it_w", "it_energy_per_year_wh"], "capacity.power")
elif power["it_w"] is None or "out_of_range" in power:
    bad.append("capacity.power: the IT power is in range, yet %r" % power)
for r in rep["racks"]:
    keys = r.get("out_of_range", [])
    for k in keys:
        if r.get(k) is not None:
            bad.append("rack %s: %s listed but %r" % (r["name"], k, r[k]))
    for k in ("power_max_w", "heat_w", "heat_liquid_w"):
        if r.get(k) is None and k not in keys:
            bad.append("rack %s: %s null, not listed" % (r["name"], k))
over = {r["name"] for r in rep["racks"] if r.get("out_of_range")}
want = {"rack": {"s.r.k"}, "heat": {"s.r.k"},
        "feeds": {"s.r.k[1]", "s.r.k[2]"}}.get(case, set())
if over != want:
    bad.append("racks out of range: %s, expected %s"
               % (sorted(over), sorted(want)))
if case == "feeds":
    for f in rep["feeds"]:
        null_listed(f, ["load_w", "headroom_w", "load_after_loss_w",
                        "headroom_after_loss_w"], "feed " + f["name"])
if case in ("feeds", "heat"):
    for lp in rep["loops"]:
        null_listed(lp, ["heat_w"], "loop " + lp["name"])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PYEOF

for c in site rack heat feeds; do
	gen $c $big >"$tmp/$c.rack"
	gen $c 1kW >"$tmp/$c-small.rack"
	if ! rk_run "$tmp/$c" --force --max-errors=0 -o "$tmp/o-$c" \
		"$tmp/$c.rack"; then
		fail "totals/$c" "$rk_problem"
		show "$tmp/$c.err"
		continue
	fi
	why=
	if [ "$rc" -ne 1 ]; then
		why="exit status $rc, expected 1"
	elif ! grep -q 'error: .*\[total-overflow\]' "$tmp/$c.err"; then
		why="no total-overflow error"
	elif [ -n "$(leaks "$tmp/$c.err")" ]; then
		why="stderr shows the saturated number as a figure"
	else
		leak=$(leaks "$tmp/o-$c")
		if [ -n "$leak" ]; then
			why="saturated number in $leak"
		elif ! "$py" "$tmp/report.py" "$tmp/o-$c/report.json" $c \
			>"$tmp/$c.py" 2>&1; then
			why="report.json: $(head -3 "$tmp/$c.py" | tr '\n' ';')"
		elif ! grep -q 'out of range' "$tmp/o-$c/report.html"; then
			why="report.html does not say out of range"
		fi
	fi
	if [ -n "$why" ]; then
		fail "totals/$c" "$why"
		show "$tmp/$c.err" 20
		continue
	fi
	# the diff's power section reads report.json: no figure either way
	if ! rk_run "$tmp/d-$c" diff "$tmp/$c-small.rack" "$tmp/$c.rack"; then
		fail "totals/$c-diff" "$rk_problem"
	elif [ "$rc" -ne 1 ]; then
		fail "totals/$c-diff" "exit status $rc, expected 1"
		show "$tmp/d-$c.err"
	elif tr -s ' \n' '  ' <"$tmp/d-$c.out" >"$tmp/d-$c.joined" &&
		[ -n "$(leaks "$tmp/d-$c.joined")" ]; then
		# (text lines wrap at 160 columns: joined, "at least" stays
		# beside its figure)
		fail "totals/$c-diff" "saturated number in the diff"
		grep -E "$sat" "$tmp/d-$c.out" | head -5
	else
		pass "totals/$c" "and its diff"
	fi
done

# the control: a total of exactly 9223372036854775807 mW is a figure
cat >"$tmp/limit.rack" <<'END'
part r48 : rack { height 48U }
part srv : server { height 1U; power_max 4611686018427387904mW }
part srv2 : server { height 1U; power_max 4611686018427387903mW }
site s { row r { rack k : r48 { } } }
node a : srv { rack s.r.k; at 1U }
node b : srv2 { rack s.r.k; at 2U }
END
if ! rk_run "$tmp/limit" -O report,html -o "$tmp/o-limit" "$tmp/limit.rack"
then
	fail "totals/limit" "$rk_problem"
elif [ "$rc" -ne 0 ]; then
	fail "totals/limit" "exit status $rc, expected 0"
	show "$tmp/limit.err"
elif ! grep -q '"power_max_w": 9223372036854775.807, "heat_w": 9223372036854775.807}' \
	"$tmp/o-limit/report.json"; then
	fail "totals/limit" "report.json lacks the site total at the limit"
elif ! grep -q -E "$sat" "$tmp/o-limit/report.html" ||
	grep -q 'out of range' "$tmp/o-limit/report.html"; then
	fail "totals/limit" "report.html lacks the figure at the limit"
else
	pass "totals/limit" "the figure at the limit is shown"
fi
finish
