#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Random designs against independent figures (tests/random_check.py): for
# each seed a design of feeds, racks of PDUs and power shelves, servers
# and switches with PSU redundancy schemes spread over them, liquid loops,
# rear doors, air zones and `require` assertions; report.json's racks,
# totals, feeds and loops, the elevations' liquid and air figures and the
# power, cooling and require findings must be those worked out in Python.
# Fabric designs ("fabric:SEED"; with networkx): a generated fat tree of
# random shape, a management star or a hand-wired fabric; every figure of
# report.json's fabrics recomputed from cabling.csv (the true bisection
# at both levels by brute force for small fabrics), the requirements and
# the bill of materials' server and switch lines.  Each fabric seed also
# runs as its twin ("twin:SEED": one-port NICs written as bare ports, or
# the reverse): the same cables, so the same bisection figures at both
# levels as the seed's own.  A fixed set of seeds runs
# here (half of it at reduced sizes: a sanitizer build, tests/lib.sh);
# RANDOM_SEEDS and RANDOM_FABRIC_SEEDS ("1 2 ..." or a range "1-500") run
# others by hand.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip random "python3 not installed"
	finish
fi

# the default seeds; at reduced sizes (a sanitizer build: tests/lib.sh)
# the first half of each list, the others reported skipped
def_seeds="1 2 3 5 6 7 8 10 13 20 27 31"
def_fabric="1 2 5 6 8 9 10 12 26 66 242"
if [ "$rk_sizes" = reduced ]; then
	for s in 8 10 13 20 27 31; do
		[ -n "${RANDOM_SEEDS:-}" ] || rk_full "seed $s" || :
	done
	for s in 10 12 26 66 242; do
		[ -n "${RANDOM_FABRIC_SEEDS:-}" ] || rk_full "seed fabric:$s" || :
	done
	def_seeds="1 2 3 5 6 7"
	def_fabric="1 2 5 6 8 9"
fi
RANDOM_FABRIC_SEEDS=${RANDOM_FABRIC_SEEDS:-$def_fabric}
seeds=$(rk_seeds "${RANDOM_SEEDS:-$def_seeds}")
if python3 -c 'import networkx' 2>/dev/null; then
	for s in $(rk_seeds "$RANDOM_FABRIC_SEEDS"); do
		seeds="$seeds fabric:$s twin:$s"
	done
else
	skip "random fabrics" "no networkx for python3"
fi
for seed in $seeds; do
	d="$tmp/s$(echo "$seed" | tr : _)"
	if ! python3 "$top_srcdir/tests/random_check.py" gen "$seed" "$d" \
		>"$tmp/gen.err" 2>&1; then
		fail "seed $seed: generator" "it failed"
		show "$tmp/gen.err"
		continue
	fi
	if ! rk_run "$d/r" --force --max-errors=0 --no-source \
		-O report,bom,elevations,cabling -o "$d/out" "$d/d.rack"; then
		fail "seed $seed" "$rk_problem"
		continue
	fi
	if [ "$rc" -gt 1 ] || [ ! -s "$d/out/report.json" ]; then
		fail "seed $seed" "exit $rc, or no report.json"
		show "$d/r.err"
		continue
	fi
	python3 "$top_srcdir/tests/random_check.py" check "$d" "$d/out" \
		"$d/r.err" >"$tmp/results" 2>"$tmp/err" || true
	if [ -s "$tmp/err" ]; then
		fail "seed $seed" "the checker failed"
		show "$tmp/err"
	fi
	py_results random "$tmp/results"
done

# the twins: the same figures as their seeds' (tests/random_check.py
# gen_fabric: dual-port NICs stay as they are, and so does the design)
if python3 -c 'import networkx' 2>/dev/null; then
	for s in $(rk_seeds "$RANDOM_FABRIC_SEEDS"); do
		a="$tmp/sfabric_$s/out/report.json" b="$tmp/stwin_$s/out/report.json"
		if [ ! -s "$a" ] || [ ! -s "$b" ]; then
			fail "random: fabric seed $s, twin" "no report.json"
			continue
		fi
		if got=$(python3 - "$a" "$b" <<'PY'
import json, sys
keys = ["endpoints", "injection_bps", "bisection_bps",
        "bisection_upper_bps", "bisection_exact", "endpoint_devices",
        "full_bisection_bps", "node_bisection_bps",
        "node_bisection_upper_bps", "node_bisection_exact", "nodes",
        "node_full_bisection_bps"]
a, b = ({x["name"]: {k: x.get(k) for k in keys}
         for x in json.load(open(p))["fabrics"]} for p in sys.argv[1:])
print("ok" if a == b else "differ: %s against %s" % (a, b))
PY
		) && [ "$got" = ok ]; then
			pass "random: fabric seed $s, twin" "the same figures"
		else
			fail "random: fabric seed $s, twin" "$got"
		fi
	done
fi

# The All-to-All lower bound of a fabric known only within bounds goes
# through its least cut found at the node level (one-GPU servers, so the
# witness's halves hold floor(p/2) and ceil(p/2) GPUs): T = max((p-1)/p
# S/B, floor(p/2) ceil(p/2)/p S/X) with X = node_bisection_upper_bps,
# computed here with exact integers and rounded down
d="$tmp/a2a"
if ! rk_run "$d" -O report -o "$d" \
	"$top_srcdir/tests/random/alltoall-bounds.rack"; then
	fail "alltoall through a cut that exists" "$rk_problem"
elif python3 - "$d/report.json" >"$d.py" 2>&1 <<'EOF'
import json
import sys
r = json.load(open(sys.argv[1]))
f = r["fabrics"][0]
c = r["capacity"]["clusters"][0]
p, s = c["scaleout_gpus"], c["collectives"]["message_bytes"]
b, x = c["scaleout_bps_per_gpu"], f["node_bisection_upper_bps"]
# a lower bound, rounded down
inj = (p - 1) * s * 8 * 10**9 // (p * b)
cut = (p // 2) * (p - p // 2) * s * 8 * 10**9 // (p * x)
ok = (not f["node_bisection_exact"] and f["node_bisection_bps"] < x and
      c["collectives"]["alltoall_cut_bps"] == x and
      sorted(c["collectives"]["alltoall_cut_gpus"]) == [p // 2, p - p // 2] and
      c["collectives"]["alltoall_ns"] == max(inj, cut) and
      c["collectives"]["alltoall_basis"] == "lower bound")
print(f["node_bisection_bps"], x, c["collectives"]["alltoall_ns"], max(inj, cut))
sys.exit(0 if ok else 1)
EOF
then
	pass "alltoall through a cut that exists"
else
	fail "alltoall through a cut that exists" "$(cat "$d.py")"
fi
finish
