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
#                     an independent back end; when rackc has no cabling
#                     back end, the net file's own port lines, which only
#                     proves the round trip, and the case says so)
# the same simulation cases for the subnets of every examples/*.rack, and
# two deliberately broken copies of the first fat tree: one leaf uplink
# removed at both ends, which OpenSM's ftree must reject, and two servers'
# cables swapped at their leaf, which loads and routes but must show up in
# the comparison as two cables missing and two not planned.
#
# Without ibsim and opensm (or with RACKC_NO_IBSIM set) the simulation
# cases are skipped and, unless a golden case failed, the script exits 77.
# CI installs the packages:
#   apt-get install -y ibsim-utils libumad2sim0 opensm infiniband-diags ibutils
# `tests/ibsim.sh --regen` (or RACKC_REGEN=1) rewrites the golden files.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
. tests/golden_designs.sh

SIM_LIB=${SIM_LIB:-}
for f in /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \
	/usr/lib/*/umad2sim/libumad2sim.so /usr/lib*/umad2sim/libumad2sim.so; do
	if [ -z "$SIM_LIB" ] && [ -f "$f" ]; then
		SIM_LIB=$f
	fi
done
PATH=$PATH:/usr/sbin:/sbin
have_sim=1
for t in ibsim opensm ibnetdiscover python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		have_sim=0
		why_skip="$t is not installed"
	fi
done
if [ -z "$SIM_LIB" ]; then
	have_sim=0
	why_skip=${why_skip:-"libumad2sim.so (libumad2sim0) is not installed"}
fi
if [ -n "${RACKC_NO_IBSIM:-}" ]; then
	have_sim=0
	why_skip="RACKC_NO_IBSIM is set"
fi
have_ibdmchk=0
if command -v ibdmchk >/dev/null 2>&1; then
	have_ibdmchk=1
fi
have_cabling=0
if "$RACKC" --list-backends 2>/dev/null | grep -q '^cabling[[:space:]]'; then
	have_cabling=1
fi

ibsim_pid=
stop_ibsim() {
	if [ -n "$ibsim_pid" ]; then
		kill "$ibsim_pid" 2>/dev/null || :
		wait "$ibsim_pid" 2>/dev/null || :
		ibsim_pid=
	fi
}
trap 'stop_ibsim; rm -rf "$tmp"' EXIT

sim_n=0
# start_ibsim NET WORKDIR: load NET; false (with the log in WORKDIR) if not
start_ibsim() {
	sim_n=$((sim_n + 1))
	IBSIM_SOCKNAME=rackc-$$-$sim_n
	export IBSIM_SOCKNAME
	# raise ibsim's table sizes (2048 nodes, 256 switches, 13312 ports)
	# when the file needs more
	sim_opts=$(awk '
		/^Switch/ { s++; n++; p += $2 + 1 }
		/^(Hca|Ca)/ { n++; p += $2 + 1 }
		END {
			if (n > 2048) printf " -N %d", n + 64
			if (s > 256) printf " -S %d", s + 16
			if (p > 13312) printf " -P %d", p + 256
		}' "$1")
	# shellcheck disable=SC2086 # sim_opts is a list of options
	(cd "$2" && exec ibsim -s -n $sim_opts "$1" >ibsim.log 2>&1 </dev/null) &
	ibsim_pid=$!
	i=0
	while [ $i -lt 600 ]; do
		if grep -q "simulator ready" "$2/ibsim.log" 2>/dev/null; then
			return 0
		fi
		if ! kill -0 "$ibsim_pid" 2>/dev/null; then
			wait "$ibsim_pid" 2>/dev/null || :
			ibsim_pid=
			return 1
		fi
		sleep 0.05
		i=$((i + 1))
	done
	stop_ibsim
	return 1
}

# run_opensm NET WORKDIR: one OpenSM sweep with ftree; log in WORKDIR/osm.log
run_opensm() {
	sm=$(sed -n 's/^\(Hca\|Ca\)[[:space:]][[:space:]]*[0-9]* "\([^"]*\)".*/\2/p' "$1" | sed -n 1p)
	(cd "$2" && SIM_HOST=$sm LD_PRELOAD=$SIM_LIB OSM_TMP_DIR=$2 \
		OSM_CACHE_DIR=$2 timeout 120 opensm -o -e -f "$2/osm.log" \
		-R ftree -D 0x43 >opensm.out 2>&1) || :
}

# ftree_ok WORKDIR: OpenSM's log says the ftree engine routed the subnet
ftree_ok() {
	grep -q "ftree tables configured on all switches" "$1/osm.log" &&
		! grep -q "ERR AB" "$1/osm.log"
}

# check_net CASE NET DESIGN: the simulation cases for one net file
check_net() {
	c_case=$1
	c_net=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
	c_w=$tmp/sim$sim_n-$(basename "$2" .net)
	mkdir -p "$c_w"
	if ! start_ibsim "$c_net" "$c_w"; then
		fail "$c_case/load" "ibsim rejected the file"
		show "$c_w/ibsim.log"
		return
	fi
	pass "$c_case/load"
	run_opensm "$c_net" "$c_w"
	if [ "$(grep -c '^Switch' "$c_net")" -gt 1 ]; then
		if ftree_ok "$c_w"; then
			pass "$c_case/ftree"
		else
			fail "$c_case/ftree" "OpenSM did not accept a fat tree"
			grep -E "ERR|fat-tree|FatTree" "$c_w/osm.log" |
				cut -d'>' -f2- >"$c_w/osm.err" || :
			show "$c_w/osm.err"
		fi
	fi
	if [ "$have_ibdmchk" = 1 ] && [ -f "$c_w/opensm-subnet.lst" ]; then
		# ibdmchk 1.5.7 crashes at exit after its report: judge the text
		(cd "$c_w" || exit 0
		timeout 300 ibdmchk -s opensm-subnet.lst -f opensm.fdbs \
			-m opensm.mcfdbs >ibdmchk.out 2>&1 || :) 2>/dev/null
		if grep -q "^-E-" "$c_w/ibdmchk.out" ||
			! grep -q "no credit loops found" "$c_w/ibdmchk.out"; then
			fail "$c_case/routes" "ibdmchk found unroutable pairs or credit loops"
			grep "^-E-" "$c_w/ibdmchk.out" | sed -n 1,20p >"$c_w/ibdm.err" || :
			show "$c_w/ibdm.err"
		else
			pass "$c_case/routes"
		fi
	else
		skip "$c_case/routes" "ibdmchk (ibutils) not installed"
	fi
	if ! (cd "$c_w" && LD_PRELOAD=$SIM_LIB timeout 120 ibnetdiscover \
		>disc.out 2>disc.err); then
		fail "$c_case/discovery" "ibnetdiscover failed"
		show "$c_w/disc.err"
		stop_ibsim
		return
	fi
	stop_ibsim
	if ! python3 tests/ib_links.py discovered "$c_w/disc.out" "$c_net" \
		>"$c_w/found" 2>"$c_w/links.err"; then
		fail "$c_case/discovery" "cannot read the discovery"
		show "$c_w/links.err"
		return
	fi
	if [ "$have_cabling" = 1 ]; then
		c_src="cabling.csv"
		if ! rk_run "$c_w/cab" -o "$c_w/cab.d" -O cabling "$3" ||
			[ ! -f "$c_w/cab.d/cabling.csv" ] ||
			! python3 tests/ib_links.py cabling "$c_w/cab.d/cabling.csv" \
				"$c_net" >"$c_w/planned" 2>"$c_w/links.err"; then
			fail "$c_case/discovery" "no cable list from cabling.csv"
			show "$c_w/cab.err"
			show "$c_w/links.err"
			return
		fi
	else
		c_src="the net file itself (no cabling back end)"
		python3 tests/ib_links.py planned "$c_net" >"$c_w/planned"
	fi
	if diff "$c_w/planned" "$c_w/found" >"$c_w/links.diff"; then
		pass "$c_case/discovery" "$(wc -l <"$c_w/found") cables match $c_src"
	else
		sed -e 's/^</planned, not found:/' -e 's/^>/found, not planned:/' \
			"$c_w/links.diff" | grep -v '^[0-9]' >"$c_w/links.txt" || :
		fail "$c_case/discovery" "discovered cabling differs from $c_src"
		show "$c_w/links.txt"
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
	for net in "$dg_out"/ib/*.net; do
		if [ "$have_sim" = 0 ]; then
			skip "$name/$(basename "$net")" "$why_skip"
			continue
		fi
		check_net "$name/$(basename "$net")" "$net" "$d"
		if [ -z "$first_tree" ] && [ "$(grep -c '^Switch' "$net")" -gt 2 ]; then
			first_tree=$net
		fi
	done
done

# the examples: no golden files (tests/golden.sh owns them), but every
# subnet they describe goes through the same simulation
for ex in examples/*.rack; do
	if [ ! -f "$ex" ] || [ "$have_sim" = 0 ]; then
		continue
	fi
	name=${ex#examples/}
	name=example-${name%.rack}
	o=$tmp/$name
	if ! rk_run "$o" -o "$o.d" -O ibnet "$ex" || [ "$rc" -ne 0 ]; then
		fail "$name/ibnet" "${rk_problem:-exit status $rc}"
		show "$o.err"
		continue
	fi
	for net in "$o.d"/ib/*.net; do
		if [ -f "$net" ]; then
			check_net "$name/$(basename "$net")" "$net" "$ex"
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
		if ftree_ok "$w"; then
			fail "broken/ftree" "OpenSM accepted a leaf with a missing uplink"
		else
			pass "broken/ftree" "a missing uplink is rejected"
		fi
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

if [ "$have_sim" = 0 ] && [ "$nfail" -eq 0 ]; then
	echo "SKIP: InfiniBand simulation: $why_skip"
	exit 77
fi
finish
