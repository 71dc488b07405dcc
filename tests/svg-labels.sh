#!/bin/sh
# SPDX-License-Identifier: MIT
# The labels of every example's elevations and floor plans, measured from
# the SVG with DejaVu Sans's advance widths (tests/svg_labels.py): device
# names never cut (no index lost), every label within its device or rack,
# and no two floor-plan labels overlapping.  Skipped without python3's
# fontTools or the DejaVu Sans font.
. "$(dirname "$0")/lib.sh"

font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
py_with fontTools
if [ -z "$py" ] || [ ! -r "$font" ]; then
	skip svg-labels "no python3 with fontTools, or no $font"
	finish
fi
dirs=""
for f in "$top_srcdir"/examples/*.rack; do
	n=$(basename "$f" .rack)
	if ! rk_run "$tmp/$n" -O elevations,floor -o "$tmp/o/$n" "$f"; then
		fail "svg-labels/$n" "$rk_problem"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		fail "svg-labels/$n" "exit $rc"
		show "$tmp/$n.err"
		continue
	fi
	dirs="$dirs $tmp/o/$n"
done
# a device name far wider than a rack is set smaller, never cut
long=dgx_h100_with_a_name_far_wider_than_its_rack_drawn_is
sed -e "s/^node dgx :/node $long :/" -e "s/^link dgx\./link $long./" \
	-e "s/endpoints dgx\./endpoints $long./" \
	"$top_srcdir/examples/minimal.rack" >"$tmp/long-name.rack"
if rk_run "$tmp/long" -O elevations,floor -o "$tmp/o/long-name" \
	-I "$top_srcdir/examples" "$tmp/long-name.rack" && [ "$rc" -eq 0 ] &&
	grep -q "font-size=\"[1-8]\">$long" "$tmp"/o/long-name/elevations/*.svg; then
	pass svg-labels/long-name-smaller
	dirs="$dirs $tmp/o/long-name"
else
	fail svg-labels/long-name-smaller "not compiled, or not set smaller"
	show "$tmp/long.err"
fi
# shellcheck disable=SC2086 # one word per directory
if ! "$py" "$top_srcdir/tests/svg_labels.py" $dirs >"$tmp/py" 2>"$tmp/pyerr"; then
	fail svg-labels "svg_labels.py failed"
	show "$tmp/pyerr"
else
	py_results svg-labels "$tmp/py"
fi
finish
