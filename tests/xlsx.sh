#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bom.xlsx read back with a real spreadsheet reader (python3-openpyxl,
# tests/xlsx_check.py) and compared with bom.csv, cabling.csv and
# cabling/pull.csv of the same run, for every example, a priced run
# (tests/bom/prices.csv) and the spares design; and deterministic bytes.
# Skipped when rackc was built without libxlsxwriter or no python3 has
# openpyxl.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
if ! "$RACKC" --list-backends | grep -q '^xlsx '; then
	skip xlsx "rackc built without libxlsxwriter"
	finish
fi
py_with openpyxl
if [ -z "$py" ]; then
	skip xlsx "no python3 with openpyxl"
	finish
fi

# xlsx_case NAME RACKC-ARGS...
xlsx_case() {
	name=$1
	shift
	o=$tmp/$name
	if ! rk_run "$o" -o "$o" -O bom,cabling,xlsx "$@"; then
		fail "$name" "$rk_problem"
		show "$o.err"
		return
	fi
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit status $rc"
		show "$o.err"
		return
	fi
	if ! "$py" tests/xlsx_check.py "$o" >"$o.py" 2>"$o.pyerr"; then
		fail "$name" "xlsx_check.py failed"
		show "$o.pyerr"
		return
	fi
	py_results "$name" "$o.py"
	if rk_run "$o.2" -j1 -o "$o.2" -O xlsx "$@" && [ "$rc" -eq 0 ] &&
		cmp -s "$o/bom.xlsx" "$o.2/bom.xlsx"; then
		pass "$name: deterministic"
	else
		fail "$name: deterministic" "a second run wrote other bytes"
	fi
}

for ex in examples/*.rack; do
	n=${ex#examples/}
	xlsx_case "${n%.rack}" "$ex"
done
xlsx_case priced --prices tests/bom/prices.csv examples/dgx-h100-su.rack
xlsx_case spares tests/designs/spares.rack
finish
