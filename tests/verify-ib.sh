#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `rackc verify` against real InfiniBand software: for the one-SU example
# (examples/dgx-h100-su.rack), a small two-tier fat tree with free switch
# ports (tests/verify/ib-small.rack) and one whose switches are full
# (tests/deploy/ib-two-tier.rack, two subnets: a cable can only be moved
# to the port an unplugged one left, and none added), the compute
# subnet's net file (`rackc -O ibnet`) is loaded into ibsim as planned and
# with faults planted by tests/verify_plant.py (several seeds: two cables
# swapped, one unplugged, one moved to another port of its switch, one
# added, one link degraded to a lower rate), ibnetdiscover discovers it,
# and `rackc verify DESIGN DISCOVERY` must report exactly the planted
# faults (verify_plant.py derives them from what it planted, and the
# cable IDs from cabling.csv):
#
#   NAME/clean           the net file as written: exit 0, no finding, every
#                        cable of the subnet observed
#   NAME/seed-S          the faulty copy of seed S: exit 1 and the findings
#                        planted, no more
#   NAME/seed-S/workorder  the Markdown work order names every planted
#                        cable under the racks of its ends
#   two-tier/coverage    the storage subnet, not discovered, is not
#                        reported missing, and the coverage says so
#
# Skipped (exit 77) without ibsim, opensm, ibnetdiscover and libumad2sim
# (tests/ibsim_lib.sh); RACKC_VERIFY_SEEDS overrides the seeds.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
. tests/ibsim_lib.sh

if [ "$have_sim" = 0 ]; then
	echo "SKIP: InfiniBand simulation: $why_skip"
	exit 77
fi

seeds=${RACKC_VERIFY_SEEDS:-1 2 3}

# discover NET WORKDIR: ibnetdiscover's output of NET in WORKDIR/disc.out
discover() {
	mkdir -p "$2"
	if ! start_ibsim "$1" "$2"; then
		return 1
	fi
	(cd "$2" && LD_PRELOAD=$SIM_LIB timeout 120 ibnetdiscover \
		>disc.out 2>disc.err) || { stop_ibsim; return 1; }
	stop_ibsim
}

for spec in su:examples/dgx-h100-su.rack small:tests/verify/ib-small.rack \
	two-tier:tests/deploy/ib-two-tier.rack; do
	name=${spec%%:*}
	design=${spec#*:}
	o=$tmp/$name
	if ! rk_run "$o" -o "$o.d" -O cabling,ibnet "$design" || [ "$rc" -ne 0 ]
	then
		fail "$name/build" "${rk_problem:-exit status $rc}"
		show "$o.err"
		continue
	fi
	net=$o.d/ib/compute.net
	if ! discover "$(cd "$o.d/ib" && pwd)/compute.net" "$o.clean"; then
		fail "$name/clean" "ibsim or ibnetdiscover failed"
		show "$o.clean/ibsim.log"
		continue
	fi
	links=$(grep -c '^\[' "$net")
	links=$((links / 2))
	rk_run "$o.v" verify "$design" "$o.clean/disc.out" || :
	if [ "$rc" -eq 0 ] && grep -q "as planned" "$o.v.out" &&
		grep -q " of [0-9]* cabled ports and $links of [0-9]* cables observed" "$o.v.out"
	then
		pass "$name/clean" "$links cables as planned"
	else
		fail "$name/clean" "exit $rc, or not every cable observed as planned"
		show "$o.v.out"
		show "$o.v.err"
	fi
	if [ "$name" = two-tier ]; then
		# the storage subnet was not discovered: not missing, and the
		# coverage is partial
		total=$(($(wc -l <"$o.d/cabling.csv") - 1))
		if [ "$rc" -eq 0 ] && [ "$total" -gt "$links" ] &&
			grep -q "and $links of $total cables observed" "$o.v.out"
		then
			pass "$name/coverage" "$links of $total cables covered"
		else
			fail "$name/coverage" "expected $links of $total cables covered"
			show "$o.v.out"
		fi
	fi
	for s in $seeds; do
		c=$name/seed-$s
		w=$o.s$s
		mkdir -p "$w"
		if ! python3 tests/verify_plant.py plant "$net" "$o.d/cabling.csv" \
			"$s" "$w/faulty.net" "$w/expected" 2>"$w/plant.err"; then
			fail "$c" "cannot plant faults"
			show "$w/plant.err"
			continue
		fi
		if ! discover "$w/faulty.net" "$w"; then
			fail "$c" "ibsim or ibnetdiscover failed on the faulty copy"
			show "$w/ibsim.log"
			continue
		fi
		rk_run "$w/v" verify --format=json --work-order="$w/wo.md" \
			"$design" "$w/disc.out" || :
		python3 tests/verify_plant.py found "$w/v.out" >"$w/found" \
			2>"$w/found.err" || :
		if [ "$rc" -eq 1 ] && diff "$w/expected" "$w/found" >"$w/diff"; then
			pass "$c" "$(wc -l <"$w/expected") planted faults found"
		else
			fail "$c" "exit $rc; planted (<) and reported (>) differ"
			show "$w/diff"
			show "$w/v.err"
		fi
		# every planted cable is in the work order, under a rack heading
		missing=
		# shellcheck disable=SC2013 # the IDs are words
		for id in $(sed -n 's/^\(missing\|wrong-port\|wrong-rate\|swapped\) //p' \
			"$w/expected"); do
			if ! grep -q "| [^|]*$id" "$w/wo.md"; then
				missing="$missing $id"
			fi
		done
		if [ -z "$missing" ] && grep -q '^## Rack ' "$w/wo.md"; then
			pass "$c/workorder"
		else
			fail "$c/workorder" "not in the work order:$missing"
			show "$w/wo.md"
		fi
	done
done

finish
