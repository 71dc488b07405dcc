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

# NetBox's import format (doc/netbox.md).  "form FILE CLASS COLUMN...": the
# columns of the file's import form (netbox/dcim/forms/bulk_import.py,
# NetBox v4.5.8 to v4.6), "*" marking a required one (the form rejects a
# file without it, or a row with it empty; a rack's width and u_height are
# required when it names no rack type).  "choice FILE COLUMN VALUE...": the
# documented values of a choice column (netbox/dcim/choices.py; for the
# interface, power port, outlet and cable types the groups rackc draws
# from; cable ends: CABLE_TERMINATION_MODELS, dcim/constants.py).
# "decimal FILE COLUMN DIGITS PLACES": the model field is a DecimalField of
# that many digits and decimal places (a cable's length: dcim/models/
# cables.py).  An indented line continues the one above.
forms=$tmp/forms.txt
cat >"$forms" <<'EOF'
form 01-sites.csv SiteImportForm name* slug* status* region group tenant
	facility time_zone description physical_address shipping_address
	latitude longitude owner comments tags
choice 01-sites.csv status planned staging active decommissioning retired
form 02-locations.csv LocationImportForm site* parent name* slug* status*
	tenant facility description owner comments tags
choice 02-locations.csv status planned staging active decommissioning
	retired
form 03-racks.csv RackImportForm site* location name* facility_id tenant
	status* role rack_type form_factor serial asset_tag width* u_height*
	desc_units outer_width outer_height outer_depth outer_unit
	mounting_depth airflow weight max_weight weight_unit description owner
	comments tags
choice 03-racks.csv status reserved available planned active deprecated
choice 03-racks.csv width 10 19 21 23
form 04-manufacturers.csv ManufacturerImportForm name* slug* description
	owner comments tags
form 05-device-roles.csv DeviceRoleImportForm name* slug* parent color
	vm_role config_template description owner comments tags
form 06-device-types.csv DeviceTypeImportForm manufacturer*
	default_platform model* slug* part_number u_height
	exclude_from_utilization is_full_depth subdevice_role airflow
	description weight weight_unit owner comments tags
form 07-devices.csv DeviceImportForm name role* tenant manufacturer*
	device_type* platform serial asset_tag status* site* location rack
	position face latitude longitude parent device_bay airflow
	virtual_chassis vc_position vc_priority cluster description
	config_template owner comments tags
choice 07-devices.csv status offline active planned staged failed inventory
	decommissioning
choice 07-devices.csv face front rear
form 08-interfaces.csv InterfaceImportForm device* name* label parent
	bridge lag type* speed duplex enabled mark_connected wwn vdcs mtu
	mgmt_only description poe_mode poe_type mode vlan_group untagged_vlan
	tagged_vlans qinq_svlan vrf rf_role rf_channel rf_channel_frequency
	rf_channel_width tx_power owner tags
choice 08-interfaces.csv type 100base-tx 1000base-t 2.5gbase-t 5gbase-t
	10gbase-t 100base-x-sfp 1000base-x-gbic 1000base-x-sfp 2.5gbase-x-sfp
	10gbase-x-sfpp 10gbase-x-xfp 10gbase-x-xenpak 10gbase-x-x2
	25gbase-x-sfp28 50gbase-x-sfp56 40gbase-x-qsfpp 50gbase-x-sfp28
	100gbase-x-cfp 100gbase-x-cfp2 100gbase-x-cfp4 100gbase-x-cxp
	100gbase-x-cpak 100gbase-x-dsfp 100gbase-x-sfpdd 100gbase-x-qsfp28
	100gbase-x-qsfpdd 200gbase-x-cfp2 200gbase-x-qsfp56 200gbase-x-qsfpdd
	400gbase-x-cfp2 400gbase-x-qsfp112 400gbase-x-qsfpdd 400gbase-x-osfp
	400gbase-x-osfp-rhs 400gbase-x-cdfp 400gbase-x-cfp8 800gbase-x-qsfpdd
	800gbase-x-osfp other
form 09-power-ports.csv PowerPortImportForm device* name* label type
	mark_connected maximum_draw allocated_draw description owner tags
choice 09-power-ports.csv type iec-60320-c6 iec-60320-c8 iec-60320-c14
	iec-60320-c16 iec-60320-c20
form 10-power-outlets.csv PowerOutletImportForm device* name* label type
	color mark_connected power_port feed_leg description owner tags
choice 10-power-outlets.csv type iec-60320-c5 iec-60320-c7 iec-60320-c13
	iec-60320-c15 iec-60320-c19
form 11-power-panels.csv PowerPanelImportForm site* location name*
	description owner comments tags
form 12-power-feeds.csv PowerFeedImportForm site* power_panel* location
	rack name* status* type* mark_connected supply* phase* voltage amperage
	max_utilization tenant description owner comments tags
choice 12-power-feeds.csv status offline active planned failed
choice 12-power-feeds.csv type primary redundant
choice 12-power-feeds.csv supply ac dc
choice 12-power-feeds.csv phase single-phase three-phase
form 13-cables.csv CableImportForm side_a_site side_a_device
	side_a_power_panel side_a_type* side_a_name* side_b_site side_b_device
	side_b_power_panel side_b_type* side_b_name* type status profile tenant
	label color length length_unit description owner comments tags
choice 13-cables.csv side_a_type circuits.circuittermination
	dcim.consoleport dcim.consoleserverport dcim.frontport dcim.interface
	dcim.powerfeed dcim.poweroutlet dcim.powerport dcim.rearport
choice 13-cables.csv side_b_type circuits.circuittermination
	dcim.consoleport dcim.consoleserverport dcim.frontport dcim.interface
	dcim.powerfeed dcim.poweroutlet dcim.powerport dcim.rearport
choice 13-cables.csv type cat3 cat5 cat5e cat6 cat6a cat7 cat7a cat8
	dac-active dac-passive coaxial mmf mmf-om1 mmf-om2 mmf-om3 mmf-om4
	mmf-om5 smf smf-os1 smf-os2 aoc power usb
choice 13-cables.csv status connected planned decommissioning
choice 13-cables.csv length_unit km m cm mi ft in
decimal 13-cables.csv length 8 2
EOF

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
		"columns 01-sites.csv"
	mutant "a device above its rack" 07-devices.csv 's/,40,front$/,48,front/;s/^dgx,\(.*\),2,front$/dgx,\1,42,front/' \
		"positions within rack"
	mutant "a duplicate interface" 08-interfaces.csv "\$p" \
		"components per device (08-interfaces.csv)"
	mutant "a column no import form has" 01-sites.csv '1s/,status$/,state/' \
		"form columns 01-sites.csv (SiteImportForm)"
	mutant "a required column left out" 08-interfaces.csv \
		'1s/,type$/,label/' "required columns 08-interfaces.csv"
	mutant "a required value left empty" 07-devices.csv \
		's/,planned,/,,/' "required values 07-devices.csv"
	mutant "an undocumented interface type" 08-interfaces.csv \
		's/,400gbase-x-osfp$/,400gbase-osfp/' \
		"choices 08-interfaces.csv type"
	mutant "an undocumented cable type" 13-cables.csv 's/,mmf,/,om9,/' \
		"choices 13-cables.csv type"
	mutant "a length of three decimals" 13-cables.csv \
		's/,3,m$/,3.125,m/' "decimals 13-cables.csv length"
	mutant "a comma in a termination name" 13-cables.csv \
		's/,ib\[0\],/,"ib[0],x",/' "no comma in termination names"
fi
finish
