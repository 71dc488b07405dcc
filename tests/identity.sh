#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Identities that do not depend on the order of declarations: each case
# rewrites an example without changing its physical meaning (rows declared
# the other way round, a new row declared before an old one, declarations
# and lists in another order, racks of a row in another order, a list of
# racks in two, an in-row unit before the racks; identity_rewrite.py) and requires the cables
# of cabling.csv, sorted by cable ID, to be the same row for row: IDs,
# labels, ends, parts and lengths.
#
#   NAME   the rewrite compiles as the example does, and its cabling.csv
#          holds the same cables

. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	skip identity "python3 not installed"
	finish
fi

cd "$top_srcdir" || exit 99

# case NAME EXAMPLE: rewrite examples/EXAMPLE.rack with NAME and compare
n=0
case_() {
	c_name=$1 c_ex=examples/$2.rack
	n=$((n + 1))
	w=$tmp/$n
	mkdir -p "$w"
	if ! python3 tests/identity_rewrite.py "$c_name" "$c_ex" "$w/new.rack" \
		2>"$w/rewrite.err"; then
		fail "$c_name" "the rewrite does not apply to $c_ex"
		show "$w/rewrite.err"
		return 0
	fi
	for side in old new; do
		src=$c_ex
		if [ "$side" = new ]; then
			src=$w/new.rack
		fi
		# -I: the rewrite's imports resolve as the example's do
		if ! rk_run "$w/$side" -I examples -O cabling -o "$w/$side.d" \
			"$src"; then
			fail "$c_name" "$side: $rk_problem"
			show "$w/$side.err"
			return 0
		fi
		if [ "$rc" -ne 0 ]; then
			fail "$c_name" "$side: exit status $rc"
			show "$w/$side.err"
			return 0
		fi
		sort "$w/$side.d/cabling.csv" >"$w/$side.csv"
	done
	if [ "$(wc -l <"$w/old.csv")" -lt 2 ]; then
		fail "$c_name" "$c_ex has no cables to compare"
	elif diff -u "$w/old.csv" "$w/new.csv" >"$w/diff"; then
		pass "$c_name" "$(($(wc -l <"$w/old.csv") - 1)) cables"
	else
		fail "$c_name" "cables differ (sorted cabling.csv, example -> rewrite)"
		show "$w/diff" 12
	fi
}

case_ mixed-hall-rows mixed-hall
case_ b200-su-rows dgx-b200-su
case_ h100-su-new-row dgx-h100-su
case_ h100-su-order dgx-h100-su
case_ gb300-lists gb300-nvl72
case_ mi300x-rack-order mi300x-roce
case_ gb200-row-list-split gb200-nvl72-row
case_ mi355x-unit-first mi355x-pod

finish
