#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Back-end tests for the cabling plan (cabling, bom).  For every
# tests/designs/NAME.rack:
#
#   NAME/run            `rackc -O cabling,bom -o DIR` exits 0 and prints
#                       nothing
#   NAME/golden         DIR holds exactly the files under
#                       tests/golden/designs/NAME/, byte for byte
#   NAME/csv            every *.csv parses with python3's csv module, each
#                       row as wide as the header
#   NAME/json           bom.json loads with python3's json module
#   NAME/deterministic  a second run writes the same tree
#
# and for every examples/NAME.rack (no golden files: the standard library
# moves), examples/NAME/parse: `rackc --force -O cabling,bom` writes files
# that parse as above.
#
# `tests/backends.sh --regen` (or RACKC_REGEN=1) rewrites the golden trees;
# review them with `git diff` before committing.  Further arguments select
# designs by name.  Without python3 the csv and json cases are skipped.

. "$(dirname "$0")/lib.sh"


cd "$top_srcdir"

have_python=0
if command -v python3 >/dev/null 2>&1; then
	have_python=1
fi

# csv_ok DIR: every CSV under DIR parses, rows as wide as the header
csv_ok() {
	find "$1" -name '*.csv' -type f | sort >"$tmp/csvs"
	python3 -c '
import csv, sys
bad = 0
for path in sys.stdin.read().split("\n"):
    if not path:
        continue
    with open(path, newline="") as f:
        rows = list(csv.reader(f, strict=True))
    if not rows:
        print(path + ": empty"); bad = 1; continue
    for i, r in enumerate(rows):
        if len(r) != len(rows[0]):
            print("%s:%d: %d cells, header has %d" % (path, i + 1, len(r), len(rows[0])))
            bad = 1
sys.exit(bad)
' <"$tmp/csvs"
}

# json_ok FILE: loads as JSON
json_ok() {
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
}

# check_parse NAME DIR: the csv and json cases
check_parse() {
	if [ "$have_python" = 0 ]; then
		skip "$1/csv" "no python3"
		skip "$1/json" "no python3"
		return
	fi
	if csv_ok "$2" >"$tmp/parse.out" 2>&1; then
		pass "$1/csv"
	else
		fail "$1/csv"
		show "$tmp/parse.out"
	fi
	if [ ! -f "$2/bom.json" ]; then
		fail "$1/json" "no bom.json"
	elif json_ok "$2/bom.json" >"$tmp/parse.out" 2>&1; then
		pass "$1/json"
	else
		fail "$1/json"
		show "$tmp/parse.out"
	fi
}

if [ $# -gt 0 ]; then
	for x in "$@"; do
		echo "tests/designs/${x%.rack}.rack"
	done >"$tmp/designs"
else
	find tests/designs -name '*.rack' -type f | sort >"$tmp/designs"
fi

n=0
while IFS= read -r design; do
	name=${design#tests/designs/}
	name=${name%.rack}
	gdir=tests/golden/designs/$name
	n=$((n + 1))
	w=$tmp/$n
	mkdir -p "$w"

	if ! rk_run "$w/run" -O cabling,bom -o "$w/out" "$design"; then
		fail "$name/run" "$rk_problem"
		show "$w/run.err"
		continue
	fi
	if [ "$rc" -ne 0 ] || [ -s "$w/run.out" ] || [ -s "$w/run.err" ]; then
		fail "$name/run" "exit status $rc, or output"
		show "$w/run.out"
		show "$w/run.err"
		continue
	fi
	pass "$name/run"

	if [ "$regen" = 1 ]; then
		rm -rf "$gdir"
		mkdir -p "$gdir"
		cp -R "$w/out/." "$gdir/"
	fi
	if [ ! -d "$gdir" ]; then
		fail "$name/golden" "no $gdir (run tests/backends.sh --regen)"
	elif diff -r -u "$gdir" "$w/out" >"$w/diff" 2>&1; then
		pass "$name/golden"
	else
		fail "$name/golden" "output differs from $gdir"
		show "$w/diff"
	fi

	check_parse "$name" "$w/out"

	if rk_run "$w/again" -O cabling,bom -o "$w/out2" "$design" &&
		diff -r "$w/out" "$w/out2" >/dev/null 2>&1; then
		pass "$name/deterministic"
	else
		fail "$name/deterministic" "a second run differs"
	fi
done <"$tmp/designs"

# the examples: artifacts parse (errors in the design are not ours here)
if [ $# -eq 0 ]; then
	for ex in examples/*.rack; do
		[ -f "$ex" ] || continue
		name=${ex#examples/}
		name=examples/${name%.rack}
		n=$((n + 1))
		w=$tmp/$n
		mkdir -p "$w"
		if ! rk_run "$w/run" --force -O cabling,bom -o "$w/out" "$ex" ||
			[ "$rc" -gt 1 ] || [ ! -f "$w/out/cabling.csv" ]; then
			fail "$name/parse" "exit status $rc${rk_problem:+; $rk_problem}"
			show "$w/run.err"
			continue
		fi
		check_parse "$name" "$w/out"
	done
fi

finish
