#!/bin/sh
# SPDX-License-Identifier: MIT
#
# NetBox export (`-O netbox`) on every example, checked by an independent
# reader (tests/netbox_check.py, python3 csv module): the documented
# columns of each file, NetBox's name and slug rules, referential
# integrity (sites, locations, racks, roles, manufacturers, device types),
# positions inside the rack, and every cable end naming a component the
# other files define.  The minimal example's files are golden
# (tests/golden/minimal/netbox/, run by tests/golden.sh).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip netbox "python3 not installed"
	finish
fi
cd "$top_srcdir"

for ex in examples/*.rack; do
	n=${ex#examples/}
	n=${n%.rack}
	o=$tmp/$n
	if ! rk_run "$o" -o "$o" -O netbox "$ex"; then
		fail "$n" "$rk_problem"
		show "$o.err"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		fail "$n" "exit status $rc"
		show "$o.err"
		continue
	fi
	if ! python3 tests/netbox_check.py "$o" >"$o.py" 2>"$o.pyerr"; then
		fail "$n" "netbox_check.py failed"
		show "$o.pyerr"
		continue
	fi
	py_results "$n" "$o.py"
done

# the checker itself must catch broken files
# mutant NAME FILE SED-SCRIPT EXPECTED-FAIL: the minimal example's files
# with FILE edited, on which the checker must report EXPECTED-FAIL
mutant() {
	m=$tmp/mutant-$1
	cp -R "$tmp/minimal" "$m"
	sed "$3" "$tmp/minimal/netbox/$2" >"$m/netbox/$2"
	python3 tests/netbox_check.py "$m" >"$m.py" 2>&1
	if grep -q "^FAIL	$4" "$m.py"; then
		pass "checker catches $1"
	else
		fail "checker catches $1" "it did not"
		show "$m.py"
	fi
}
if [ -d "$tmp/minimal/netbox" ]; then
	mutant "a dangling cable end" 13-cables.csv 's/,p\[0\],/,p[999],/' \
		"cable ends exist"
	mutant "a bad header" 01-sites.csv '1s/^name,/nom,/' \
		"columns 01-sites.csv"
	mutant "a device above its rack" 07-devices.csv 's/,40,front$/,48,front/;s/^dgx,\(.*\),2,front$/dgx,\1,42,front/' \
		"positions within rack"
	mutant "a duplicate interface" 08-interfaces.csv "\$p" \
		"components per device (08-interfaces.csv)"
fi
finish
