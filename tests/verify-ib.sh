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
#   doc/example          doc/verify.md's example (the one-SU example with
#                        two cables crossed) run as written prints what the
#                        document shows
#
# Skipped without ibsim, opensm, ibnetdiscover and libumad2sim
# (tests/ibsim_lib.sh); RACKC_VERIFY_SEEDS overrides the seeds.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
. tests/ibsim_lib.sh

if [ "$have_sim" = 0 ]; then
	skip "InfiniBand simulation" "$why_skip"
	finish
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

# doc/verify.md's example, run as written: its commands in a directory of
# their own (examples/ linked there), rackc on the PATH; what it prints is
# the output the document shows (line numbers of compute.topo aside) and
# the work order lists the swap under both racks
x=$tmp/doc
mkdir -p "$x/bin"
ln -s "$top_srcdir/examples" "$x/examples"
ln -s "$RACKC" "$x/bin/rackc"
sed -n '/<!-- verify-example:begin -->/,/<!-- verify-example:end -->/p' \
	doc/verify.md | sed '/^```/d; /^<!--/d' >"$x/run.sh"
sed -n '/<!-- verify-output:begin -->/,/<!-- verify-output:end -->/p' \
	doc/verify.md | sed '/^```/d; /^<!--/d' |
	sed 's/compute\.topo:[0-9]*/compute.topo:N/g' >"$x/want"
# (its last command, rackc verify, exits 1: the cabling differs)
x_rc=0
(cd "$x" && PATH=$x/bin:$PATH UMAD2SIM=$SIM_LIB \
	IBSIM_SOCKNAME=rackc-$$-doc timeout 300 sh ./run.sh >run.out 2>run.err) ||
	x_rc=$?
sed 's/compute\.topo:[0-9]*/compute.topo:N/g' "$x/run.out" >"$x/got"
if [ "$x_rc" -eq 1 ] && [ -s "$x/want" ] &&
	diff "$x/want" "$x/got" >"$x/diff" &&
	[ "$(grep -c '^## Rack ' "$x/work.md")" -eq 2 ] &&
	[ "$(grep -c 'swapped: cables' "$x/work.md")" -eq 2 ]; then
	pass "doc/example" "doc/verify.md's commands print what it shows"
else
	fail "doc/example" "exit $x_rc; doc/verify.md's example differs (shown <, got >)"
	show "$x/diff"
	show "$x/run.err"
fi

finish
