#!/bin/sh
# SPDX-License-Identifier: MIT
#
# NetBox export (`-O netbox`) on every example, checked by an independent
# reader (tests/netbox_check.py, python3 csv module) against NetBox's own
# import rules (tests/netbox-import.txt, from NetBox v4.6.8's import forms
# and models): form columns, required columns and values, choice sets,
# field limits, lookups resolved within their scopes against the other
# files of the export, unique constraints, rack positions, and every cable
# end naming a termination of a compatible type.  The minimal example's files are golden
# (tests/golden/minimal/netbox/, run by tests/golden.sh).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip netbox "python3 not installed"
	finish
fi
cd "$top_srcdir"

# NetBox's import rules (forms, choice sets, lookups and their scopes,
# model constraints), read from NetBox's source: tests/netbox-import.txt
forms=tests/netbox-import.txt

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
	if ! python3 tests/netbox_check.py "$o" "$forms" >"$o.py" 2>"$o.pyerr"; then
		fail "$n" "netbox_check.py failed"
		show "$o.pyerr"
		continue
	fi
	py_results "$n" "$o.py"
done

# a supply whose inlet the catalog marks unknown is said to be unknown,
# never given a form of its own (the SN5600s of the GB300 row)
if [ -f "$tmp/gb300-nvl72-row.err" ]; then
	if grep -q "storage.leaf\[0\]: its supplies' inlet is unknown" \
		"$tmp/gb300-nvl72-row.err" &&
		! grep -q "inlet '" "$tmp"/*.err; then
		pass "unknown inlet said to be unknown"
	else
		fail "unknown inlet said to be unknown" "see gb300-nvl72-row.err"
		show "$tmp/gb300-nvl72-row.err"
	fi
fi

# the checker itself must catch broken files
# mutant NAME FILE SED-SCRIPT EXPECTED-FAIL: the minimal example's files
# with FILE edited, on which the checker must report EXPECTED-FAIL
mutant() {
	m=$tmp/mutant-$1
	cp -R "$tmp/minimal" "$m"
	sed "$3" "$tmp/minimal/netbox/$2" >"$m/netbox/$2"
	python3 tests/netbox_check.py "$m" "$forms" >"$m.py" 2>&1
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
		"form columns 01-sites.csv"
	mutant "a device above its rack" 07-devices.csv 's/,40,front$/,48,front/;s/^dgx,\(.*\),2,front$/dgx,\1,42,front/' \
		"positions within rack"
	mutant "a duplicate interface" 08-interfaces.csv "\$p" \
		"unique 08-interfaces.csv (device,name)"
	# shellcheck disable=SC2016 # sed addresses, not expansions
	mutant "a device name differing in case only" 07-devices.csv \
		'$p;$s/^leaf,/LEAF,/' "unique 07-devices.csv (name?~,site)"
	mutant "a column no import form has" 01-sites.csv '1s/,status$/,state/' \
		"form columns 01-sites.csv (SiteImportForm)"
	mutant "a required column left out" 08-interfaces.csv \
		'1s/,type$/,label/' "required columns 08-interfaces.csv"
	mutant "a required value left empty" 07-devices.csv \
		's/,planned,/,,/' "required values 07-devices.csv"
	mutant "an undocumented interface type" 08-interfaces.csv \
		's/,400gbase-x-osfp$/,400gbase-osfp/' \
		"choice 08-interfaces.csv type"
	mutant "an undocumented cable type" 13-cables.csv 's/,mmf,/,om9,/' \
		"choice 13-cables.csv type"
	mutant "a length of three decimals" 13-cables.csv \
		's/,3,m$/,3.125,m/' "decimal 13-cables.csv length"
	# shellcheck disable=SC2016
	mutant "a feed without max_utilization" 12-power-feeds.csv \
		'1s/,max_utilization$//;2,$s/,[0-9]*$//' \
		"required columns 12-power-feeds.csv"
	mutant "a feed without voltage" 12-power-feeds.csv \
		's/,415,60,/,,60,/' "required values 12-power-feeds.csv"
	mutant "a feed utilization over 100 %" 12-power-feeds.csv \
		's/,80$/,120/' "int 12-power-feeds.csv max_utilization"
	mutant "a feed's rack without its location" 12-power-feeds.csv \
		's/,lab\.r1,lab\.r1\.rk/,,lab.r1.rk/' \
		"lookup 12-power-feeds.csv rack"
	mutant "a device type of another manufacturer" 07-devices.csv \
		's/^leaf,switch,NVIDIA,/leaf,switch,Raritan,/' \
		"lookup 07-devices.csv device_type"
	mutant "a power port cabled to an interface" 13-cables.csv \
		's/,dcim\.poweroutlet,/,dcim.interface,/' \
		"cable end types compatible"
fi
finish
