#!/bin/sh
# SPDX-License-Identifier: MIT
# The pictures of every example and of the benchmark design at 1,000 GPUs:
# every SVG is well-formed XML (xmllint), every DOT file renders with
# Graphviz (dot -Tsvg), and report.html opens in a headless browser
# (Debian's chromium) with no console message at all -- no script error,
# no failed load -- and a screenshot of it is kept in
# tests/pictures-shots/NAME.png under the build directory.  Tools that are
# missing skip their cases.
. "$(dirname "$0")/lib.sh"

pics=$("$RACKC" --list-backends | awk '$1 == "elevations" || $1 == "floor" ||
	$1 == "diagrams" || $1 == "html" { printf "%s%s", sep, $1; sep = "," }')
shots=$(pwd)/tests/pictures-shots
mkdir -p "$shots"
browser=""
for b in chromium chromium-browser; do
	if command -v "$b" >/dev/null 2>&1; then
		browser=$b
		break
	fi
done
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
	if [ ! -f "$tmp/o-$n/report.html" ]; then
		fail "pictures/$n/html" "no report.html"
	elif [ -z "$browser" ]; then
		skip "pictures/$n/html" "chromium not installed"
	else
		# a private profile; console messages go to the log on stderr
		rm -f "$shots/$n.png"
		if HOME=$tmp timeout 120 "$browser" --headless --disable-gpu \
			--no-sandbox --user-data-dir="$tmp/profile" \
			--enable-logging=stderr --v=0 --window-size=1400,2400 \
			--screenshot="$shots/$n.png" \
			"file://$tmp/o-$n/report.html" >"$tmp/c.out" 2>"$tmp/c.err" &&
			[ -s "$shots/$n.png" ]; then
			if grep -q 'CONSOLE' "$tmp/c.err"; then
				fail "pictures/$n/html" "console messages"
				grep 'CONSOLE' "$tmp/c.err" | head -5
			else
				pass "pictures/$n/html" "screenshot $shots/$n.png"
			fi
		else
			fail "pictures/$n/html" "chromium failed"
			show "$tmp/c.err" 10
		fi
	fi
done
finish
