#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Bill-of-materials invariants (tests/bom_check.py) on every example:
# columns, no quantity summed across lines, extended prices and the
# subtotals per category and totals per currency recomputed exactly,
# assembly contents listed under their assembly without a price of their
# own, a warning for every incomplete line, bom.json = bom.csv.  The GB200
# NVL72 examples also list each rack once with its trays, switch trays and
# shelves as contents (N3).  The NVL72 examples' racks draw what
# tests/nvl72_power.py works out from std/nvidia.rack (18 compute trays and
# 9 NVLink switch trays), and the feed check counts the switch trays:
# tests/bom/nvl72-feed.rack is clean with feeds of exactly the rack's power
# and fails power-feed-capacity one watt below it.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip bom "python3 not installed"
	finish
fi
cd "$top_srcdir"

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
	py_results "$name" "$o.py"
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

# the NVL72 racks' power, from the catalog source (tests/nvl72_power.py)
for n in gb200-nvl72 gb200-su gb200-nvl72-row; do
	o=$tmp/power-$n
	if ! rk_run "$o" -o "$o" -O report "examples/$n.rack"; then
		fail "power/$n" "$rk_problem"
	elif [ "$rc" -ne 0 ]; then
		fail "power/$n" "exit status $rc"
		show "$o.err"
	elif ! python3 tests/nvl72_power.py std "$o/report.json" \
		>"$o.py" 2>"$o.pyerr"; then
		fail "power/$n" "nvl72_power.py failed"
		show "$o.pyerr"
	else
		py_results "power/$n" "$o.py"
	fi
done
if p=$(python3 tests/nvl72_power.py std) && [ -n "$p" ]; then
	if rk_run "$tmp/feed-ok" --check -D "CAP=${p}W" \
		tests/bom/nvl72-feed.rack && [ "$rc" -eq 0 ] &&
		! grep -q '\[power-feed' "$tmp/feed-ok.err"; then
		pass "power/feeds of ${p} W carry the rack"
	else
		fail "power/feeds of ${p} W carry the rack" "exit status $rc"
		show "$tmp/feed-ok.err"
	fi
	if rk_run "$tmp/feed-low" --check -D "CAP=$((p - 1))W" \
		tests/bom/nvl72-feed.rack && [ "$rc" -eq 1 ] &&
		grep -q 'carries .*\[power-feed-capacity\]' "$tmp/feed-low.err"; then
		pass "power/feeds of $((p - 1)) W do not"
	else
		fail "power/feeds of $((p - 1)) W do not" "exit status $rc"
		show "$tmp/feed-low.err"
	fi
else
	fail "power/nvl72_power.py" "no rack power"
fi

# a price list (tests/bom/prices.csv: test values, not real prices) on the
# one-SU DGX H100 example, and a spares policy (tests/designs/spares.rack)
bom_case priced prices=tests/bom/prices.csv -- \
	--prices tests/bom/prices.csv examples/dgx-h100-su.rack
bom_case spares spares=cable:50000:2,transceiver:100000:1 -- \
	tests/designs/spares.rack

# price lists that are wrong: exit status and the message
# bad_prices NAME STATUS MESSAGE: $tmp/NAME.csv is the list
bad_prices() {
	o=$tmp/bad-$1
	if ! rk_run "$o" -o "$o" -O bom --prices "$tmp/$1.csv" \
		tests/designs/spares.rack; then
		fail "prices/$1" "$rk_problem"
	elif [ "$rc" -ne "$2" ] || ! grep -qF -- "$3" "$o.err" ||
		[ -e "$o/bom.csv" ]; then
		fail "prices/$1" "exit status $rc (want $2), or no '$3', or files"
		show "$o.err"
	else
		pass "prices/$1"
	fi
}
h='part_number,unit_price,currency,source'
printf '%s\nSR4-1,1.234,USD,x\n' "$h" >"$tmp/decimals.csv"
bad_prices decimals 1 "unit price '1.234' is not a decimal number"
printf '%s\nSR4-1,-1,USD,x\n' "$h" >"$tmp/negative.csv"
bad_prices negative 1 "unit price '-1'"
printf '%s\nSR4-1,1,usd,x\n' "$h" >"$tmp/currency.csv"
bad_prices currency 1 "currency 'usd' is not an ISO 4217 code"
printf '%s\nSR4-1,1,USD,\n' "$h" >"$tmp/nosource.csv"
bad_prices nosource 1 "price of 'SR4-1' has no source"
printf '%s\nSR4-1,1,USD,x\nSR4-1,2,USD,y\n' "$h" >"$tmp/twice.csv"
bad_prices twice 1 "part number 'SR4-1' is priced twice"
printf 'part_number,price,currency,source\n' >"$tmp/header.csv"
bad_prices header 1 "the header has no column 'unit_price'"
printf '%s\n"SR4-1,1,USD,x\n' "$h" >"$tmp/quote.csv"
bad_prices quote 1 "a quoted cell is not closed"
bad_prices missing 2 "cannot read price list"
# --check reads the price list too (the bom back end's preflight)
if rk_run "$tmp/chk" --check --prices "$tmp/decimals.csv" \
	tests/designs/spares.rack && [ "$rc" -eq 1 ] &&
	grep -qF "unit price '1.234'" "$tmp/chk.err"; then
	pass "prices/--check"
else
	fail "prices/--check" "exit status $rc, or no message"
	show "$tmp/chk.err"
fi
finish
