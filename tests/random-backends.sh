#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The back ends' files on random designs, read back independently of
# rackc's code (tests/backends_check.py, which says what is checked).
# "fabric:SEED" designs (tests/random_check.py's fabrics): the InfiniBand
# net files and the Slurm tree against the cable plan.  "plant:SEED"
# designs (racks at random floor positions, GPU servers at random U with
# random PCIe trees, a fat tree and a star placed by the generators,
# hand-wired DAC and AOC links, twin or single cages): also every cable's
# length from the route model, stock length, part number, transceivers
# and label, the bill of materials, the elevations and the NCCL topology.
# A fixed set of seeds runs here; BACKEND_SEEDS ("plant:1 fabric:2 ..."
# or ranges such as "plant:1-500") runs others by hand.  A placed design
# whose switches do not fit the listed racks is refused by rackc
# ([fabric-placement]) and skipped.
#
# A few of them (OPENSM_SEEDS, of those run) go through the InfiniBand
# simulation of the fixed designs (tests/ibsim_lib.sh, as tests/ibsim.sh
# uses it): every ib/*.net loads in ibsim, OpenSM routes it, ibdmchk finds
# every HCA reaching every HCA without credit loops, and ibnetdiscover's
# cables are cabling.csv's.  OpenSM routes with ftree when
# `tests/ib_links.py engine` finds a uniform fat tree in the file (its
# rules are those OpenSM's ftree engine validates, and tests/ibsim.sh
# holds it to OpenSM's verdict on a broken tree), else with updn: a random
# fat tree with a partial leaf or uneven uplinks is no tree ftree takes.
# Without ibsim and OpenSM these cases are skipped, one line each.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir"
. tests/ibsim_lib.sh

py_with lxml
if [ -z "$py" ] || ! "$py" -c 'import networkx, yaml' 2>/dev/null; then
	skip random-backends "no python3 with lxml, networkx and yaml"
	finish
fi

seeds=$(rk_seeds "${BACKEND_SEEDS:-"fabric:1 fabric:2 fabric:5 fabric:7 fabric:9 fabric:12 fabric:26 fabric:66 plant:1 plant:4 plant:5 plant:8 plant:9 plant:16 plant:21 plant:39 plant:48 plant:54"}")
opensm_seeds=" $(rk_seeds "${OPENSM_SEEDS:-"fabric:1 fabric:7 fabric:66 plant:4"}" | tr '\n' ' ') "

# opensm SEED OUT: the simulation cases for the subnets of OUT/ib
opensm() {
	case $opensm_seeds in
	*" $1 "*) ;;
	*) return 0 ;;
	esac
	if [ "$have_sim" = 0 ]; then
		skip "random-backends: $1: OpenSM" "$why_skip"
		return 0
	fi
	for net in "$2"/ib/*.net; do
		if [ ! -f "$net" ]; then
			continue
		fi
		engine=$(python3 tests/ib_links.py engine "$net")
		echo "$1/$(basename "$net"): $engine"
		engine=${engine%%:*}
		if [ "$engine" = none ]; then # one switch: no tree to route
			engine=minhop
		fi
		check_net "$1/$(basename "$net")" "$net" "$2/cabling.csv" \
			"$engine"
	done
}

for seed in $seeds; do
	d="$tmp/s$(echo "$seed" | tr : _)"
	if ! "$py" "$top_srcdir/tests/backends_check.py" gen "$seed" "$d" \
		>"$tmp/gen.err" 2>&1; then
		fail "seed $seed: generator" "it failed"
		show "$tmp/gen.err"
		continue
	fi
	if ! rk_run "$d/r" --force --max-errors=0 --no-source \
		-O cabling,bom,ibnet,slurm,elevations,nccl -o "$d/out" \
		"$d/d.rack"; then
		fail "seed $seed" "$rk_problem"
		continue
	fi
	if [ "$rc" -eq 1 ] && [ ! -e "$d/out/cabling.csv" ] &&
		grep -q 'no room left in the listed racks.*\[fabric-placement\]' \
			"$d/r.err"; then
		skip "random-backends: $seed" "its switches do not fit the racks"
		continue
	fi
	if [ "$rc" -gt 1 ] || [ ! -s "$d/out/cabling.csv" ]; then
		fail "seed $seed" "exit $rc, or no cabling.csv"
		show "$d/r.err"
		continue
	fi
	"$py" "$top_srcdir/tests/backends_check.py" check "$d" "$d/out" \
		>"$tmp/results" 2>"$tmp/err" || true
	if [ -s "$tmp/err" ]; then
		fail "seed $seed" "the checker failed"
		show "$tmp/err"
	fi
	py_results random-backends "$tmp/results"
	opensm "$seed" "$d/out"
done

# The regression case of the route model's odd heights: a 1U device's
# middle is half a unit below its top (1.800225 m and a 3 m cable)
d="$tmp/odd"
if ! rk_run "$d" -O cabling -o "$d" "$top_srcdir/tests/random/odd-heights.rack"; then
	fail "odd heights: the device's middle" "$rk_problem"
elif [ "$rc" -ne 0 ]; then
	fail "odd heights: the device's middle" "exit $rc"
	show "$d.err"
else
	got=$(awk -F, 'NR == 2 { print $21, $22, $20 }' "$d/cabling.csv")
	if [ "$got" = "3 1.800225 C-30" ]; then
		pass "odd heights: the device's middle"
	else
		fail "odd heights: the device's middle" \
			"length, computed length, part number: $got"
	fi
fi
finish
