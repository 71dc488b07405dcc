#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The ufm back end: the topology files of NVIDIA's UFM Cable Validation
# Tool, checked by tests/ufm_check.py, a reader written from the formats
# the tool's documentation gives (the topo file in ibdm's topology format
# for InfiniBand, the dot file for Ethernet), against cabling.csv:
#
#   su/topo           examples/dgx-h100-su.rack's ufm/compute.topo: every
#                     cable of the compute subnet once, with both ends
#                     (switch ports P<n>: cage c port p is 2(c-1)+p), at
#                     the planned NDR rate, 4x-100G (400 Gb/s on 4 lanes)
#   fat-tree/topo     tests/verify/ib-small.rack (a two-tier fat tree:
#                     switch-to-switch links in both sections)
#   eth/dot           examples/mi300x-roce.rack's ufm/compute.dot: every
#                     cable once, and Graphviz reads it
#   fault/drop, fault/swap, fault/rate  the checker rejects a copy of the
#                     one-SU file with a port line dropped, two switch
#                     ports swapped, a rate lowered
#   fault/dot-drop    and the dot file with an edge dropped
#   unknown/topo      tests/deploy/ib-unknown-speed.rack: the 3 links
#                     between ports that give no speed are left out of
#                     the topo file with a located [ibnet] warning per link
#                     statement, never written at a rate of their own
#                     (2.5G); the 10 others are, at 4x-50G (counted by hand)

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"

if ! command -v python3 >/dev/null 2>&1; then
	skip "ufm exports" "python3 not found"
	finish
fi

# compile DESIGN into DIR with cabling and ufm
build() {
	if ! rk_run "$tmp/$2" -o "$tmp/$2.d" -O cabling,ufm "$1" ||
		[ "$rc" -ne 0 ]; then
		show "$tmp/$2.err"
		return 1
	fi
}

# check NAME KIND FILE CABLING FABRIC [RATE]: the checker accepts FILE
check() {
	name=$1
	shift
	if python3 tests/ufm_check.py "$@" >"$tmp/check.out" 2>&1; then
		pass "$name" "$(cat "$tmp/check.out")"
	else
		fail "$name" "ufm_check.py rejects $2"
		show "$tmp/check.out"
	fi
}

# reject NAME KIND FILE CABLING FABRIC [RATE]: the checker rejects FILE
reject() {
	name=$1
	shift
	if python3 tests/ufm_check.py "$@" >"$tmp/check.out" 2>&1; then
		fail "$name" "ufm_check.py accepts a faulty $2"
	else
		pass "$name" "$(head -n 1 "$tmp/check.out")"
	fi
}

if build examples/dgx-h100-su.rack su; then
	s=$tmp/su.d
	check su/topo topo "$s/ufm/compute.topo" "$s/cabling.csv" compute 4x-100G
	# the first port line (leaf-0 P1 to a DGX) dropped
	awk '/^   P/ && !d { d = 1; next } { print }' "$s/ufm/compute.topo" \
		>"$tmp/drop.topo"
	reject fault/drop topo "$tmp/drop.topo" "$s/cabling.csv" compute 4x-100G
	# the first two port lines (leaf-0 P1 and P2) exchange their ports
	awk '/^   P/ && ++n <= 2 {
			l[n] = $0; p[n] = $1
			if (n == 1) next
			sub(p[1], p[2], l[1]); sub(p[2], p[1], l[2])
			print l[1]; print l[2]; next
		}
		{ print }' "$s/ufm/compute.topo" >"$tmp/swap.topo"
	reject fault/swap topo "$tmp/swap.topo" "$s/cabling.csv" compute 4x-100G
	sed '0,/-4x-100G->/s//-4x-50G->/' "$s/ufm/compute.topo" >"$tmp/rate.topo"
	reject fault/rate topo "$tmp/rate.topo" "$s/cabling.csv" compute 4x-100G
else
	fail su/topo "rackc failed"
fi

if build tests/verify/ib-small.rack ft; then
	s=$tmp/ft.d
	check fat-tree/topo topo "$s/ufm/compute.topo" "$s/cabling.csv" \
		compute 4x-100G
else
	fail fat-tree/topo "rackc failed"
fi

if build examples/mi300x-roce.rack eth; then
	s=$tmp/eth.d
	check eth/dot dot "$s/ufm/compute.dot" "$s/cabling.csv" compute
	if command -v dot >/dev/null 2>&1; then
		if dot -Tcanon "$s/ufm/compute.dot" >/dev/null 2>"$tmp/dot.err"; then
			pass eth/graphviz
		else
			fail eth/graphviz "Graphviz rejects ufm/compute.dot"
			show "$tmp/dot.err"
		fi
	else
		skip eth/graphviz "Graphviz (dot) not found"
	fi
	grep -v -- '-- .*// ' "$s/ufm/compute.dot" >"$tmp/d.dot" || true
	grep -- '-- .*// ' "$s/ufm/compute.dot" | sed 1d >"$tmp/e.dot" || true
	sed '$d' "$tmp/d.dot" >"$tmp/dd.dot"
	cat "$tmp/dd.dot" "$tmp/e.dot" >"$tmp/drop.dot"
	echo "}" >>"$tmp/drop.dot"
	reject fault/dot-drop dot "$tmp/drop.dot" "$s/cabling.csv" compute
else
	fail eth/dot "rackc failed"
fi

if build tests/deploy/ib-unknown-speed.rack unk; then
	t=$tmp/unk.d/ufm/ib-leaf01.topo
	e=$tmp/unk.err
	if [ "$(grep -c 'warning: links\{0,1\} .* left out of the UFM topo files: neither port gives a speed, so [a-z]* rate is unknown \[ibnet\]$' "$e")" -ne 2 ] ||
		! grep -q '^tests/deploy/ib-unknown-speed\.rack:44:6: warning: link fm\.ib0 -- ' "$e" ||
		! grep -q '^tests/deploy/ib-unknown-speed\.rack:46:7: warning: links spare\[0\]\.ib0 -- ' "$e"; then
		fail unknown/topo "not the two located [ibnet] warnings"
		show "$e"
	elif [ ! -f "$t" ] || grep -q -e '2\.5G' -e 'ufm01' -e 'spare' "$t"; then
		fail unknown/topo "a link of unknown rate is in the topo file"
		show "$t"
	# 4 switch-to-switch links in both sections, 6 HCA ports once
	elif [ "$(grep -c '^   P[0-9]* -4x-50G-> ' "$t")" -ne 14 ] ||
		[ "$(grep -c '^   P' "$t")" -ne 14 ] ||
		! grep -q '^   P7 -4x-50G-> HCA h-2 mlx5_0/P2$' "$t"; then
		fail unknown/topo "not the 10 rated links at 4x-50G"
		show "$t"
	else
		pass unknown/topo
	fi
else
	fail unknown/topo "rackc failed"
fi

finish
