#!/bin/sh
# SPDX-License-Identifier: MIT
# Growth of the DGX H100 SuperPOD (examples/dgx-h100-superpod.rack) from 1
# to 2, 4 and 8 scalable units, with the compute fabric sized for its SUS
# and provisioned for 8 (FINAL_SUS=8): cable IDs and ends are stable, the
# leaf-spine cables that move are exactly the minimum src/fabric.c derives
# (none within the provisioned size), and every leaf spreads its uplinks
# round-robin (tests/growth_check.py).  From 4 to 8 SUs only the fabrics'
# leaf-spine cables are compared: at 8 SUs the UFM's node slot goes to a
# 32nd DGX (RA Table 3), so the DGX from dgx[31] on move one slot.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip growth "python3 not installed"
	finish
fi

design=$top_srcdir/examples/dgx-h100-superpod.rack
for final in 0 8; do
	ok=yes
	for sus in 1 2 4 8; do
		if ! rk_run "$tmp/r$final-$sus" -D SUS="$sus" \
			-D FINAL_SUS="$final" -O cabling \
			-o "$tmp/o$final-$sus" "$design" || [ "$rc" -ne 0 ]; then
			fail "growth/FINAL_SUS=$final/SUS=$sus" \
				"exit $rc $rk_problem"
			show "$tmp/r$final-$sus.err"
			ok=no
		fi
	done
	[ "$ok" = yes ] || continue
	for hop in 1:2:all 2:4:all 4:8:fabric 1:8:fabric; do
		a=${hop%%:*}
		rest=${hop#*:}
		b=${rest%%:*}
		mode=${rest#*:}
		name="growth/FINAL_SUS=$final/$a->$b"
		if python3 "$top_srcdir/tests/growth_check.py" \
			"$tmp/o$final-$a/cabling.csv" "$tmp/o$final-$b/cabling.csv" \
			"$mode" >"$tmp/g.out" 2>&1; then
			pass "$name"
			sed 's/^/    /' "$tmp/g.out"
		else
			fail "$name" "see below"
			show "$tmp/g.out"
		fi
	done
done
finish
