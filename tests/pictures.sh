#!/bin/sh
# SPDX-License-Identifier: MIT
# The pictures of every example and of the benchmark design at 1,000 GPUs:
# every SVG is well-formed XML (xmllint), every DOT file renders with
# Graphviz (dot -Tsvg), and the HTML report opens in a headless browser
# without console errors (tests/html.sh).  Tools that are missing skip
# their cases.
. "$(dirname "$0")/lib.sh"

pics=$("$RACKC" --list-backends | awk '$1 == "elevations" || $1 == "floor" ||
	$1 == "diagrams" { printf "%s%s", sep, $1; sep = "," }')
designs=""
for f in "$top_srcdir"/examples/*.rack; do
	designs="$designs $f"
done
for f in $designs "$top_srcdir/bench/synth.rack"; do
	n=$(basename "$f" .rack)
	if ! rk_run "$tmp/$n" -D GPUS=1000 -O "$pics" -o "$tmp/o-$n" "$f"; then
		fail "pictures/$n" "$rk_problem"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		fail "pictures/$n" "exit $rc"
		show "$tmp/$n.err"
		continue
	fi
	nsvg=$(find "$tmp/o-$n" -name '*.svg' | wc -l)
	if [ "$nsvg" -eq 0 ]; then
		fail "pictures/$n" "no SVG written"
		continue
	fi
	if command -v xmllint >/dev/null 2>&1; then
		if find "$tmp/o-$n" -name '*.svg' -print0 |
			xargs -0 xmllint --noout >"$tmp/x.err" 2>&1; then
			pass "pictures/$n/xmllint" "$nsvg files"
		else
			fail "pictures/$n/xmllint"
			show "$tmp/x.err"
		fi
	else
		skip "pictures/$n/xmllint" "xmllint not installed"
	fi
	ndot=$(find "$tmp/o-$n" -name '*.dot' | wc -l)
	if [ "$ndot" -gt 0 ]; then
		if command -v dot >/dev/null 2>&1; then
			bad=""
			for g in $(find "$tmp/o-$n" -name '*.dot' | sort); do
				if ! timeout 60 dot -Tsvg "$g" >"$tmp/g.svg" 2>"$tmp/g.err" ||
					[ -s "$tmp/g.err" ]; then
					bad="$bad $(basename "$g")"
				fi
			done
			if [ -z "$bad" ]; then
				pass "pictures/$n/dot" "$ndot files"
			else
				fail "pictures/$n/dot" "$bad"
				show "$tmp/g.err"
			fi
		else
			skip "pictures/$n/dot" "graphviz not installed"
		fi
	fi
done
finish
