#!/bin/sh
# SPDX-License-Identifier: MIT
#
# report.html's feeds and liquid-loops tables against report.json's "feeds"
# and "loops" sections (tests/html_loads.py reads the page with lxml):
# every example and tests/loads/*.rack (a loop of N+1 CDUs whose racks
# have rear doors: the page must count the doors' heat and leave out the
# CDU redundancy lets fail, as the checks do), compiled with -O report,html
# in one run.  The same feeds and loops, each figure the same exact value
# with the same exact or bound label, and its text the quantity it holds;
# and each rack's heat to air and air headroom as cooling-air-limit judges
# them (a rack it names has a negative headroom and the same heat to air).
# tests/loads.sh holds the page to independently computed figures too.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99
py_with lxml.html
if [ -z "$py" ]; then
	skip html-loads "no python3 with lxml (python3-lxml)"
	finish
fi

{
	rk_examples "$@"
	for f in tests/loads/*.rack; do
		if [ -f "$f" ]; then
			echo "$f"
		fi
	done
} >"$tmp/designs"
while read -r f; do
	n=$(basename "$f" .rack)
	want=$(directive exit "$f")
	set --
	if grep -q 'waive "cooling-air-limit"' "$f"; then
		set -- waived
	fi
	if ! rk_run "$tmp/$n" --force --max-errors=0 --no-source \
		-O report,html -o "$tmp/o-$n" "$f"; then
		fail "html-loads/$n" "$rk_problem"
		show "$tmp/$n.err"
	elif [ "$rc" -ne "${want:-0}" ]; then
		fail "html-loads/$n" "exit $rc, expected ${want:-0}"
		show "$tmp/$n.err"
	elif "$py" tests/html_loads.py "$tmp/o-$n/report.html" \
		"$tmp/o-$n/report.json" "$tmp/$n.err" "$@" \
		>"$tmp/$n.cmp" 2>&1; then
		pass "html-loads/$n" "$(cat "$tmp/$n.cmp")"
	else
		fail "html-loads/$n"
		show "$tmp/$n.cmp"
	fi
done <"$tmp/designs"

finish
