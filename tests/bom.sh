#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Bill-of-materials invariants (tests/bom_check.py) on every example:
# columns, no quantity summed across lines, extended prices and the
# subtotals per category and totals per currency recomputed exactly,
# assembly contents listed under their assembly without a price of their
# own, a warning for every incomplete line, bom.json = bom.csv.  The GB200
# NVL72 examples also list each rack once with its trays, switch trays and
# shelves as contents (N3).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip bom "python3 not installed"
	finish
fi
cd "$top_srcdir"
tab=$(printf '\t')

# bom_case NAME CHECK-OPTIONS -- RACKC-ARGS...
bom_case() {
	name=$1
	shift
	copts=
	while [ "$1" != -- ]; do
		copts="$copts $1"
		shift
	done
	shift
	o=$tmp/$name
	if ! rk_run "$o" -o "$o" -O bom "$@"; then
		fail "$name" "$rk_problem"
		show "$o.err"
		return
	fi
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit status $rc"
		show "$o.err"
		return
	fi
	# shellcheck disable=SC2086 # copts are words
	if ! python3 tests/bom_check.py "$o" $copts >"$o.py" 2>"$o.pyerr"; then
		fail "$name" "bom_check.py failed"
		show "$o.pyerr"
		return
	fi
	while IFS="$tab" read -r word case detail; do
		case $word in
		PASS) pass "$name: $case" ;;
		*) fail "$name: $case" "$detail" ;;
		esac
	done <"$o.py"
}

for ex in examples/*.rack; do
	n=${ex#examples/}
	n=${n%.rack}
	case $n in
	gb200-nvl72) bom_case "$n" nvl72=1 -- "$ex" ;;
	gb200-su) bom_case "$n" nvl72=8 -- "$ex" ;;
	*) bom_case "$n" -- "$ex" ;;
	esac
done
finish
