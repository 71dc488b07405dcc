#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The device-type YAML files `-O netbox` writes (netbox/device-types/) for
# every example, validated by tests/netbox_devicetypes.py against the NetBox
# device-type library's own JSON schema (tests/netbox-devicetype-schema/,
# its README names the source and commits) and the library's conventions
# the schema cannot state (slugs, file names, duplicate and empty values,
# power ports); and the checker on planted broken files.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
	! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
	skip netbox-devicetypes "python3 with jsonschema and yaml not installed"
	finish
fi
cd "$top_srcdir"
schema=tests/netbox-devicetype-schema

for ex in examples/*.rack; do
	n=${ex#examples/}
	n=${n%.rack}
	o=$tmp/$n
	if ! rk_run "$o" -o "$o" -O netbox "$ex" || [ "$rc" -ne 0 ]; then
		fail "$n" "rackc failed"
		show "$o.err"
		continue
	fi
	if ! python3 tests/netbox_devicetypes.py "$schema" "$o" >"$o.py" \
		2>"$o.pyerr"; then
		fail "$n" "netbox_devicetypes.py failed"
		show "$o.pyerr"
		continue
	fi
	py_results "$n" "$o.py"
done

# mutant NAME FILE SED-SCRIPT EXPECTED: the minimal example's FILE (under
# netbox/device-types/) edited; the checker must report EXPECTED
mutant() {
	m=$tmp/mutant-$1
	rm -rf "$m"
	cp -R "$tmp/minimal" "$m"
	sed "$3" "$tmp/minimal/netbox/device-types/$2" \
		>"$m/netbox/device-types/$2"
	python3 tests/netbox_devicetypes.py "$schema" "$m" >"$m.py" 2>&1
	if grep -q "^FAIL	.*$4" "$m.py"; then
		pass "checker catches $1"
	else
		fail "checker catches $1" "it did not"
		show "$m.py"
	fi
}
q=NVIDIA/qm9700.yaml
if [ -f "$tmp/minimal/netbox/device-types/$q" ]; then
	mutant bad-interface-type "$q" 's/type: "400gbase-x-osfp"$/type: "400gbase-osfp"/' \
		"schema: '400gbase-osfp' is not one of"
	mutant zero-draw "$q" 's/maximum_draw: .*/maximum_draw: 0/' \
		"schema: 0 is less than the minimum"
	mutant no-full-depth "$q" '/^is_full_depth/d' \
		"'is_full_depth' is a required property"
	mutant foreign-slug "$q" 's/^slug: .*/slug: qm9700/' \
		"does not start with nvidia"
	mutant file-name "$q" 's/^model: .*/model: qm9790/' "file name"
	mutant weight-unit "$q" '/^weight_unit/d' \
		"'weight_unit' is a required property"
	mutant duplicate-port "$q" 's/name: psu\[1\]/name: psu[0]/' \
		"duplicate names in power-ports"
	mutant silent-no-power "$q" '/^power-ports:/,/^[a-z]/{/^power-ports:/d;/^  /d}' \
		"no power ports"
fi
# no files at all (rackc before device types): the checker fails
mkdir -p "$tmp/none/netbox"
python3 tests/netbox_devicetypes.py "$schema" "$tmp/none" >"$tmp/none.py" 2>&1
if grep -q "^FAIL	none device types written" "$tmp/none.py"; then
	pass "checker fails an export without device types"
else
	fail "checker fails an export without device types" "it did not"
fi
finish
