#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Cable labels and the patch schedule (backends/cabling.c): for every
# example, tests/labels_check.py checks label lengths (<= 40), faceplate
# names against the port index, that each cable appears in
# cabling/patch.csv under both its racks, that end first, that every cable
# is ordered in the shortest stock length that holds it with that length's
# part number (read from std/*.rack by the checker, not from rackc), and
# that GB200 NVL72 compute trays' cable ends carry the tray's U.  The
# NVL72 row's NetBox devices give every tray, switch tray and power shelf
# its U (the layout std/nvidia.rack documents).  Then the label template:
# a custom one is used as written, a long one warns naming the cable, an
# unknown field is an error at the template.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	skip labels "no python3"
	finish
fi

for f in $(rk_examples "$@"); do
	name=$(basename "$f" .rack)
	o=$tmp/$name
	if ! rk_run "$o" -o "$o" -O cabling "$f"; then
		fail "$name" "$rk_problem"
		show "$o.err"
		continue
	fi
	if [ "$rc" -ne 0 ] || grep -q '\[cabling\]' "$o.err"; then
		fail "$name" "exit status $rc or a label warning"
		show "$o.err"
		continue
	fi
	if ! "$py" tests/labels_check.py "$o" >"$o.py" 2>"$o.pyerr"; then
		fail "$name" "labels_check.py failed"
		show "$o.pyerr"
		continue
	fi
	py_results "$name" "$o.py"
done

# the U of every NVL72 tray, switch tray and power shelf (NetBox positions)
o=$tmp/nvl72-netbox
if ! rk_run "$o" -o "$o" -O netbox examples/gb200-nvl72-row.rack; then
	fail "nvl72-layout" "$rk_problem"
	show "$o.err"
elif [ "$rc" -ne 0 ]; then
	fail "nvl72-layout" "exit status $rc"
	show "$o.err"
elif ! "$py" tests/labels_check.py --nvl72-devices \
	"$o/netbox/07-devices.csv" >"$o.py" 2>"$o.pyerr"; then
	fail "nvl72-layout" "labels_check.py failed"
	show "$o.pyerr"
else
	py_results gb200-nvl72-row "$o.py"
fi

# template NAME TEMPLATE: minimal.rack with the site's label template
template() {
	sed "s|^site lab {|site lab {\\n\\tlabel \"$2\"|" examples/minimal.rack \
		>"$tmp/$1.rack"
	rk_run "$tmp/$1" -I examples -o "$tmp/$1" -O cabling "$tmp/$1.rack"
}

if template custom '{a.device}:{a.port} {b.row}/{b.rack} {b.port}' &&
	[ "$rc" -eq 0 ] &&
	grep -q ',dgx:OSFP1P1 1/1\.1 1/1,' "$tmp/custom/cabling.csv"; then
	pass "template: used as written"
else
	fail "template: used as written" "exit status $rc"
	show "$tmp/custom.err"
	show "$tmp/custom/cabling.csv" 3
fi

# row_code NAME SED WANT: minimal.rack edited by SED; the DGX's first
# cable is labelled "ID WANT" + "U2 OSFP1P1>": the row's code (its
# label_code, else the number its name ends in, else its name), a point
# and the rack's slot 1
row_code() {
	sed "$2" examples/minimal.rack >"$tmp/$1.rack"
	if rk_run "$tmp/$1" -I examples -o "$tmp/$1" -O cabling "$tmp/$1.rack" &&
		[ "$rc" -eq 0 ] &&
		grep -q "^C[0-9A-Z]*,C[0-9A-Z]* $3U2 OSFP1P1>$3U40 1/1," \
			"$tmp/$1/cabling.csv"; then
		pass "row code: $1"
	else
		fail "row code: $1" "exit status $rc, or not labelled $3"
		show "$tmp/$1.err"
		show "$tmp/$1/cabling.csv" 3
	fi
}
row_code number-in-name 's/\br1\b/r07/g' '07\.1'
row_code index-in-name 's/\br1\b/r[12]/g' '12\.1'
row_code name 's/\br1\b/net/g' 'net\.1'
row_code label-code 's/^\(\t*\)row r1 {/&\n\1\tlabel_code 4/' '4\.1'

# two rows of a site whose names give one code ("r1" and "r[1]": 1)
sed 's/^\(\t*\)row r1 {/\1row r[1] {\n\1\tx 0m\n\1\ty 6m\n\1}\n&/' \
	examples/minimal.rack >"$tmp/same-code.rack"
if rk_run "$tmp/same-code" -I examples -o "$tmp/same-code" -O cabling \
	"$tmp/same-code.rack" && [ "$rc" -eq 0 ] &&
	grep -q "warning: rows lab.r\[1\] and lab.r1 both read '1' in cable labels.*give one a label_code \[cabling\]" \
		"$tmp/same-code.err" &&
	sed 's/^\(\t*\)row r1 {/&\n\1\tlabel_code 2/' "$tmp/same-code.rack" \
		>"$tmp/other-code.rack" &&
	rk_run "$tmp/other-code" -I examples -o "$tmp/other-code" -O cabling \
		"$tmp/other-code.rack" && [ "$rc" -eq 0 ] &&
	[ ! -s "$tmp/other-code.err" ]; then
	pass "row code: two rows of one code warn, a label_code resolves it"
else
	fail "row code: two rows of one code warn, a label_code resolves it" \
		"exit status $rc"
	show "$tmp/same-code.err"
	show "$tmp/other-code.err"
fi

if template long '{id} {a.device}.{a.port} -- {b.device}.{b.port} rack {a.rack} U{a.u}' &&
	[ "$rc" -eq 0 ] &&
	grep -q 'warning: the label of cable C[0-9A-Z]* is 4[1-9] characters.*\[cabling\]' \
		"$tmp/long.err"; then
	pass "template: a long label warns naming the cable"
else
	fail "template: a long label warns naming the cable" "exit status $rc"
	show "$tmp/long.err"
fi

if template unknown '{id} {a.slot}' && [ "$rc" -eq 1 ] &&
	grep -q "error: unknown field '{a.slot}' in the label template.*\[cabling\]" \
		"$tmp/unknown.err"; then
	pass "template: an unknown field is an error"
else
	fail "template: an unknown field is an error" "exit status $rc"
	show "$tmp/unknown.err"
fi

# Long labels of generated cables: the first of each fabric is shown, the
# others count as repeats at its place.  The expected counts come from
# cabling.csv (labels longer than 40 characters) and from the fabrics
# that made them, not from rackc's messages.
o=$tmp/long-fabric
sed "s|^site hall {|site hall {\n\tlabel \"{id} {a.device}.{a.port} {b.device}.{b.port}\"|" \
	bench/synth.rack >"$o.rack"
if ! rk_run "$o" -D GPUS=1000 -o "$o" -O cabling "$o.rack"; then
	fail "template: long labels of a fabric" "$rk_problem"
	show "$o.err"
else
	long=$("$py" -c 'import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if len(x["label"]) > 40]
print(len(r), len({x["fabric"] for x in r}))' "$o/cabling.csv")
	n=${long% *}
	fabrics=${long#* }
	shown=$(grep -c 'warning: the label of cable .*\[cabling\]' "$o.err")
	if [ "$rc" -eq 0 ] && [ "$n" -gt "$fabrics" ] &&
		[ "$shown" -eq "$fabrics" ] &&
		grep -q "^$n warnings generated ($((n - fabrics)) of them repeats" \
			"$o.err"; then
		pass "template: long labels of a fabric" "$n labels, $shown shown"
	else
		fail "template: long labels of a fabric" \
			"exit $rc, $n long labels of $fabrics fabrics, $shown shown"
		show "$o.err" 12
	fi
fi

finish
