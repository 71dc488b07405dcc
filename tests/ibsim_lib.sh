# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# shellcheck disable=SC2154,SC2034 # tmp comes from lib.sh; the drivers read have_sim
#
# InfiniBand simulation for the test drivers (sourced after lib.sh, from
# the top of the source tree): ibsim loads a net file, OpenSM routes it
# with its fat-tree engine, ibdmchk checks the routes and ibnetdiscover's
# cables are compared with the cabling plan (see ibsim's and OpenSM's
# documentation).  Used by tests/ibsim.sh (the fixed designs) and
# tests/random-backends.sh (random ones), with the same acceptance.
#
# Sets:
#   have_sim      1 when ibsim, opensm, ibnetdiscover, python3 and
#                 libumad2sim.so are installed (and RACKC_NO_IBSIM is
#                 unset), else 0 with the reason in why_skip
#   have_ibdmchk  1 when ibdmchk (ibutils) is installed
# Provides:
#   start_ibsim NET WORKDIR   load NET; false (log in WORKDIR) if not
#   stop_ibsim
#   run_opensm NET WORKDIR [ENGINE]
#                             one OpenSM sweep with routing engine ENGINE
#                             (default ftree, without root GUIDs); its log
#                             in WORKDIR/osm.log
#   routed_ok WORKDIR [ENGINE]  OpenSM's log says ENGINE routed the subnet:
#                             "ENGINE tables configured on all switches"
#                             (OpenSM falls back to minhop when the engine
#                             fails), and for ftree no ERR AB.. (the ftree
#                             engine's errors)
#   check_net CASE NET PLAN [ENGINE]
#                             CASE/load: ibsim loads NET; CASE/ENGINE
#                             (subnets of more than one switch): OpenSM
#                             routes it with ENGINE (default ftree);
#                             CASE/routes (with ibdmchk): on OpenSM's
#                             dumps every HCA reaches every HCA and there
#                             is no credit loop; CASE/discovery:
#                             ibnetdiscover's cables, by rackc port name,
#                             are those of PLAN (a cabling.csv)
# and stops a running ibsim on exit.

SIM_LIB=${SIM_LIB:-}
for f in /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \
	/usr/lib/*/umad2sim/libumad2sim.so /usr/lib*/umad2sim/libumad2sim.so; do
	if [ -z "$SIM_LIB" ] && [ -f "$f" ]; then
		SIM_LIB=$f
	fi
done
PATH=$PATH:/usr/sbin:/sbin
have_sim=1
why_skip=
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

run_opensm() {
	sm=$(sed -n 's/^\(Hca\|Ca\)[[:space:]][[:space:]]*[0-9]* "\([^"]*\)".*/\2/p' "$1" | sed -n 1p)
	(cd "$2" && SIM_HOST=$sm LD_PRELOAD=$SIM_LIB OSM_TMP_DIR=$2 \
		OSM_CACHE_DIR=$2 timeout 120 opensm -o -e -f "$2/osm.log" \
		-R "${3:-ftree}" -D 0x43 >opensm.out 2>&1) || :
}

routed_ok() {
	grep -q "${2:-ftree} tables configured on all switches" "$1/osm.log" &&
		{ [ "${2:-ftree}" != ftree ] || ! grep -q "ERR AB" "$1/osm.log"; }
}

check_net() {
	c_case=$1
	c_engine=${4:-ftree}
	c_net=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
	c_w=$tmp/sim$sim_n-$(basename "$2" .net)
	mkdir -p "$c_w"
	if ! start_ibsim "$c_net" "$c_w"; then
		fail "$c_case/load" "ibsim rejected the file"
		show "$c_w/ibsim.log"
		return
	fi
	pass "$c_case/load"
	run_opensm "$c_net" "$c_w" "$c_engine"
	if [ "$(grep -c '^Switch' "$c_net")" -gt 1 ]; then
		if routed_ok "$c_w" "$c_engine"; then
			pass "$c_case/$c_engine"
		elif [ "$c_engine" = ftree ]; then
			fail "$c_case/ftree" "OpenSM did not accept a fat tree"
			grep -E "ERR|fat-tree|FatTree" "$c_w/osm.log" |
				cut -d'>' -f2- >"$c_w/osm.err" || :
			show "$c_w/osm.err"
		else
			fail "$c_case/$c_engine" "OpenSM's $c_engine did not route it"
			grep -E "ERR|tables configured" "$c_w/osm.log" |
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
	if ! python3 tests/ib_links.py cabling "$3" "$c_net" \
		>"$c_w/planned" 2>"$c_w/links.err"; then
		fail "$c_case/discovery" "no cable list from $3"
		show "$c_w/links.err"
		return
	fi
	if diff "$c_w/planned" "$c_w/found" >"$c_w/links.diff"; then
		pass "$c_case/discovery" "$(wc -l <"$c_w/found") cables match cabling.csv"
	else
		sed -e 's/^</planned, not found:/' -e 's/^>/found, not planned:/' \
			"$c_w/links.diff" | grep -v '^[0-9]' >"$c_w/links.txt" || :
		fail "$c_case/discovery" "discovered cabling differs from cabling.csv"
		show "$c_w/links.txt"
	fi
}
