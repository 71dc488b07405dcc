#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Round trip of the canonical form.  For every examples/NAME.rack:
#
#     rackc -O ir examples/NAME.rack     -> A/ir.rack
#     rackc -O ir A/ir.rack              -> B/ir.rack
#     cmp A/ir.rack B/ir.rack
#
# so the elaborated design printed as source elaborates to itself.
# Further arguments select examples by name.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99

rk_examples "$@" >"$tmp/examples"
if [ ! -s "$tmp/examples" ]; then
	echo "no examples/*.rack yet"
	finish
fi

n=0
while IFS= read -r ex; do
	name=${ex#examples/}
	name=${name%.rack}
	n=$((n + 1))
	w=$tmp/$n
	mkdir -p "$w"
	if ! rk_run "$w/a" -o "$w/a" -O ir "$ex"; then
		fail "$name" "first pass: $rk_problem"
		show "$w/a.err"
		continue
	fi
	if [ "$rc" -ne 0 ] || [ ! -f "$w/a/ir.rack" ]; then
		fail "$name" "first pass: exit status $rc, no ir.rack"
		show "$w/a.err"
		continue
	fi
	if ! rk_run "$w/b" -o "$w/b" -O ir "$w/a/ir.rack"; then
		fail "$name" "second pass: $rk_problem"
		show "$w/b.err"
		continue
	fi
	if [ "$rc" -ne 0 ] || [ ! -f "$w/b/ir.rack" ]; then
		fail "$name" "second pass: exit status $rc, no ir.rack"
		show "$w/b.err"
		continue
	fi
	if cmp -s "$w/a/ir.rack" "$w/b/ir.rack"; then
		pass "$name"
	else
		fail "$name" "ir.rack changes when compiled again"
		diff -u "$w/a/ir.rack" "$w/b/ir.rack" >"$w/diff" || :
		show "$w/diff" 80
	fi
done <"$tmp/examples"

finish
