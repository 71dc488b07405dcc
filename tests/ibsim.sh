#!/bin/sh
# SPDX-License-Identifier: MIT
#
# InfiniBand subnets checked with real IB software (ibsim, OpenSM,
# infiniband-diags, ibutils; see ibsim's and OpenSM's documentation).  For
# every tests/deploy/ib-*.rack:
#
#   NAME/ibnet        `rackc -O ibnet` writes exactly tests/golden/deploy/
#                     NAME/ib/ (see golden_designs.sh; "# exit: 1" designs
#                     check the diagnostics instead)
# and, per net file F written, when the tools are installed:
#   NAME/F/load       ibsim loads the file ("simulator ready")
#   NAME/F/ftree      OpenSM `-R ftree` without root GUIDs accepts the
#                     subnet as a fat tree: "ftree tables configured on all
#                     switches" and no ERR AB.. (only for subnets with a spine
#                     or a core: a single switch is no tree)
#   NAME/F/routes     ibdmchk on OpenSM's dumps: every HCA reaches every HCA,
#                     no credit loops (when ibdmchk is installed)
#   NAME/F/discovery  ibnetdiscover's cable list, by rackc port name, equals
#                     the cabling plan's (cabling.csv of `rackc -O cabling`,
#                     an independent back end)
# ib-unknown-speed/left-out  the links of unknown rate of that design
#                     (neither port gives a speed) are left out of its
#                     net file with a located [ibnet] warning, never
#                     written as SDR (counted by hand below);
# the same simulation cases for the subnets of every examples/*.rack, and
# two deliberately broken copies of the first fat tree: one leaf uplink
# removed at both ends, which OpenSM's ftree must reject (and which
# `tests/ib_links.py engine` must not take for a uniform tree either: the
# random designs of tests/random-backends.sh rely on it), and two servers'
# cables swapped at their leaf, which loads and routes but must show up in
# the comparison as two cables missing and two not planned.  The
# simulation itself is tests/ibsim_lib.sh.
#
# Without ibsim and opensm (or with RACKC_NO_IBSIM set) the simulation
# cases are skipped and, unless a golden case failed, the script exits 77.
# CI installs the packages:
#   apt-get install -y ibsim-utils libumad2sim0 opensm infiniband-diags ibutils
# `tests/ibsim.sh --regen` (or RACKC_REGEN=1) rewrites the golden files.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
. tests/golden_designs.sh

. tests/ibsim_lib.sh

# plan_of CASE DESIGN: DESIGN's cabling plan (`rackc -O cabling`, an
# independent back end) in $plan; false after a failed CASE/plan
plan_n=0
plan_of() {
	plan_n=$((plan_n + 1))
	plan=$tmp/plan$plan_n.d/cabling.csv
	if ! rk_run "$tmp/plan$plan_n" -o "$tmp/plan$plan_n.d" -O cabling "$2" ||
		[ ! -f "$plan" ]; then
		fail "$1/plan" "no cabling.csv for the discovery cases"
		show "$tmp/plan$plan_n.err"
		return 1
	fi
}

first_tree=
for d in tests/deploy/ib-*.rack; do
	if [ ! -f "$d" ]; then
		continue
	fi
	name=${d##*/}
	name=${name%.rack}
	if ! design_golden "$d" ibnet ib || [ ! -d "$dg_out/ib" ]; then
		continue
	fi
	if [ "$have_sim" = 1 ] && ! plan_of "$name" "$d"; then
		continue
	fi
	for net in "$dg_out"/ib/*.net; do
		if [ "$have_sim" = 0 ]; then
			skip "$name/$(basename "$net")" "$why_skip"
			continue
		fi
		check_net "$name/$(basename "$net")" "$net" "$plan"
		if [ -z "$first_tree" ] && [ "$(grep -c '^Switch' "$net")" -gt 2 ]; then
			first_tree=$net
		fi
	done
done

# links of unknown rate: tests/deploy/ib-unknown-speed.rack has 13 IB
# links, 3 of them between ports that give no speed.  Those 3 are left out
# (a warning per link statement, at it), never written at a rate the
# design does not give: the net file holds the other 10, each at both
# ends, all 4xHDR (200Gb/s ports, one of them facing a speedless port),
# and names none of the speedless hosts.
u=tests/deploy/ib-unknown-speed.rack
if rk_run "$tmp/unk" -o "$tmp/unk.d" -O ibnet "$u" && [ "$rc" -eq 0 ]; then
	net=$tmp/unk.d/ib/ib-leaf01.net
	why=
	if [ "$(grep -c 'warning: links\{0,1\} .* left out of the ibsim net files: neither port gives a speed, so [a-z]* rate is unknown \[ibnet\]$' \
		"$tmp/unk.err")" -ne 2 ] ||
		! grep -q '^tests/deploy/ib-unknown-speed\.rack:44:6: warning: link fm\.ib0 -- leaf\[0\]\.q\[1\] is left out' "$tmp/unk.err" ||
		! grep -q '^tests/deploy/ib-unknown-speed\.rack:46:7: warning: links spare\[0\]\.ib0 -- leaf\[1\]\.q\[1\] and 1 more' "$tmp/unk.err"; then
		why="not the two located [ibnet] warnings"
	elif [ ! -f "$net" ]; then
		why="no net file"
	elif grep -q -e 'SDR' -e 'fm\.ib0' -e 'spare' -e 'ufm01' "$net"; then
		why="a speedless link is in the net file"
	elif [ "$(grep -c '^\[[0-9]*\]' "$net")" -ne 20 ] ||
		[ "$(grep -c '# lid 0 4xHDR$' "$net")" -ne 20 ] ||
		! grep -q ', 10 links$' "$net"; then
		why="not the 10 rated links at both ends, at 4xHDR"
	fi
	if [ -z "$why" ]; then
		pass ib-unknown-speed/left-out
	else
		fail ib-unknown-speed/left-out "$why"
		show "$tmp/unk.err"
	fi
else
	fail ib-unknown-speed/left-out "${rk_problem:-exit status $rc}"
	show "$tmp/unk.err"
fi

# the examples: no golden files (tests/golden.sh owns them), but every
# subnet they describe goes through the same simulation
for ex in examples/*.rack; do
	if [ ! -f "$ex" ] || [ "$have_sim" = 0 ]; then
		continue
	fi
	name=${ex#examples/}
	name=example-${name%.rack}
	o=$tmp/$name
	if ! rk_run "$o" -o "$o.d" -O ibnet,cabling "$ex" || [ "$rc" -ne 0 ]
	then
		fail "$name/ibnet" "${rk_problem:-exit status $rc}"
		show "$o.err"
		continue
	fi
	for net in "$o.d"/ib/*.net; do
		if [ -f "$net" ]; then
			check_net "$name/$(basename "$net")" "$net" \
				"$o.d/cabling.csv"
		fi
	done
done

# a broken copy: the first leaf's last uplink removed at both ends
if [ "$have_sim" = 1 ] && [ -n "$first_tree" ]; then
	b=$tmp/broken.net
	python3 - "$first_tree" "$b" <<'EOF'
import re, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
me = None
drop = None
# the last port line of the first switch whose peer is a switch
for i, l in enumerate(lines):
    m = re.match(r'^Switch\s+\d+\s+"([^"]+)"', l)
    if m:
        if drop:
            break
        me = m.group(1)
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', l)
    if m and me and any(re.match(r'^Switch\s+\d+\s+"%s"' % re.escape(m.group(2)), x)
                        for x in lines):
        drop = (me, m.group(1), m.group(2), m.group(3), i)
out, me = [], None
for i, l in enumerate(lines):
    m = re.match(r'^(Switch|Hca)\s+\d+\s+"([^"]+)"', l)
    if m:
        me = m.group(2)
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\]', l)
    if m and drop and ((me, m.group(1)) == (drop[0], drop[1]) or
                       (me, m.group(1)) == (drop[2], drop[3])):
        continue
    out.append(l)
open(dst, "w").write("\n".join(out))
EOF
	w=$tmp/broken
	mkdir -p "$w"
	if start_ibsim "$b" "$w"; then
		run_opensm "$b" "$w"
		stop_ibsim
		if routed_ok "$w"; then
			fail "broken/ftree" "OpenSM accepted a leaf with a missing uplink"
		else
			pass "broken/ftree" "a missing uplink is rejected"
		fi
		# tests/random-backends.sh relies on ib_links.py's judgement
		case $(python3 tests/ib_links.py engine "$b") in
		updn:*) pass "broken/engine" "ib_links.py sees no uniform tree" ;;
		*) fail "broken/engine" "ib_links.py takes it for a fat tree" ;;
		esac
	else
		fail "broken/ftree" "ibsim rejected the broken copy"
		show "$w/ibsim.log"
	fi
fi

# another copy with two servers' cables swapped at their leaf: it loads
# and routes, and only the comparison with the plan can tell
if [ "$have_sim" = 1 ] && [ -n "$first_tree" ]; then
	b=$tmp/swapped.net
	python3 - "$first_tree" "$b" <<'EOF'
import re, sys
src, dst = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
hdr = re.compile(r'^(Switch|Hca)\s+\d+\s+"([^"]+)"')
port = re.compile(r'^\[(\d+)\](\s+)"([^"]+)"\[(\d+)\](.*)$')
hcas = {m.group(2) for m in map(hdr.match, lines) if m and m.group(1) == "Hca"}
me, sw, picks = None, None, []
for i, l in enumerate(lines):
    m = hdr.match(l)
    if m:
        me = m.group(2)
        continue
    m = port.match(l)
    if m and m.group(3) in hcas and sw in (None, me) and len(picks) < 2:
        sw = me
        picks.append((i, m.group(1), m.group(3), m.group(4)))
(i, li, a, pa), (j, lj, b, pb) = picks


def repl(k, peer, pp):
    m = port.match(lines[k])
    lines[k] = '[%s]%s"%s"[%s]%s' % (m.group(1), m.group(2), peer, pp,
                                    m.group(5))


repl(i, b, pb)
repl(j, a, pa)
me = None
for k, l in enumerate(lines):
    m = hdr.match(l)
    if m:
        me = m.group(2)
        continue
    m = port.match(l)
    if m and m.group(3) == sw:
        if me == a and m.group(1) == pa and m.group(4) == li:
            repl(k, sw, lj)
        elif me == b and m.group(1) == pb and m.group(4) == lj:
            repl(k, sw, li)
open(dst, "w").write("\n".join(lines))
EOF
	w=$tmp/swapped
	mkdir -p "$w"
	if start_ibsim "$b" "$w"; then
		(cd "$w" && LD_PRELOAD=$SIM_LIB timeout 120 ibnetdiscover \
			>disc.out 2>disc.err) || :
		stop_ibsim
		python3 tests/ib_links.py discovered "$w/disc.out" "$first_tree" \
			>"$w/found" 2>&1 || :
		python3 tests/ib_links.py planned "$first_tree" >"$w/planned"
		if [ "$(diff "$w/planned" "$w/found" | grep -c '^[<>]')" -eq 4 ]; then
			pass "swapped/discovery" "two swapped cables are found"
		else
			fail "swapped/discovery" "the comparison missed two swapped cables"
		fi
	else
		fail "swapped/discovery" "ibsim rejected the swapped copy"
		show "$w/ibsim.log"
	fi
fi

if [ "$have_sim" = 0 ]; then
	skip "InfiniBand simulation" "$why_skip"
fi
finish
