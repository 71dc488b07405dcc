#!/bin/sh
# SPDX-License-Identifier: MIT
# The DGX H100 SuperPOD reference design against the reference
# architecture's tables (RA-11333-001, Tables 3 and 4, as quoted in
# the project notes on the RA): at 1, 2, 4, 8 and 16 scalable
# units, the compute fabric's leaf, spine and core switch counts and its
# node-leaf, leaf-spine and spine-core cable counts, read from report.json.
#
# Table 4 counts "compute + UFM" cables (252, 508, ..., 1020 for 1-4 SUs):
# 31/63/.../127 DGX x 8 plus 4 UFM cables.  The standard library's UFM
# appliance has one fabric port, so rackc's figure is the DGX cables plus 1;
# the test checks DGX x 8 + 1 and says so.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip superpod "python3 not installed"
	finish
fi

# SUS leaf spine core node-leaf leaf-spine spine-core
while read -r sus leaf spine core nl ls sc; do
	name="superpod/SUS=$sus"
	if ! rk_run "$tmp/r$sus" -D SUS="$sus" -o "$tmp/o$sus" -O report \
		"$top_srcdir/examples/dgx-h100-superpod.rack"; then
		fail "$name" "$rk_problem"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc"
		show "$tmp/r$sus.err"
		continue
	fi
	got=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
f = [x for x in r["fabrics"] if x["name"] == "compute"][0]
sw = f["tier_switches"] + [0] * (3 - len(f["tier_switches"]))
ln = f["tier_links"] + [0] * (3 - len(f["tier_links"]))
print(*sw, *ln, f["bisection_bps"] * 100 // f["injection_bps"])
' "$tmp/o$sus/report.json")
	want="$leaf $spine $core $nl $ls $sc 49"
	if [ "$got" = "$want" ] || [ "$got" = "$leaf $spine $core $nl $ls $sc 50" ]; then
		pass "$name" "$got"
	else
		fail "$name" "got '$got', want '$want' (last: bisection %)"
	fi
done <<'TABLE'
1 8 4 0 249 256 0
2 16 8 0 505 512 0
4 32 16 0 1017 1024 0
8 64 32 0 2048 2048 0
16 128 128 64 4096 4096 4096
TABLE

# 32 and 64 SUs compile clean (the RA's Table 3 continues there)
for sus in 32 64; do
	if rk_run "$tmp/b$sus" --check -D SUS="$sus" \
		"$top_srcdir/examples/dgx-h100-superpod.rack" && [ "$rc" -eq 0 ] &&
		[ ! -s "$tmp/b$sus.err" ]; then
		pass "superpod/SUS=$sus/clean"
	else
		fail "superpod/SUS=$sus/clean" "exit $rc"
		show "$tmp/b$sus.err"
	fi
done
finish
