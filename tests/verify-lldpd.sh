#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `rackc verify` against real lldpd: tests/verify/eth-small.rack's
# Ethernet leaf-spine is built of network namespaces (one per host and
# switch, named by host name) and veth pairs (one per cable, each end
# named as the OS names the port: the switches' faceplate names, swp1..,
# the hosts' eth0, eth1), wired from cabling.csv and cabling/patch.csv,
# and lldpd runs in every namespace (switches sending the PortID as
# ifname, as Cumulus Linux does).  Then
#
#   lldpd/clean    the wiring as planned: every host's and switch's
#                  `lldpcli -f json show neighbors` verifies with exit 0
#   lldpd/faults   the wiring with faults planted (h-0's and h-1's cables
#                  crossed at leaf-0, leaf-0's cable to spine-1 moved to
#                  spine-1 swp3, leaf-1's to spine-1 left out, one added
#                  between leaf-1 swp7 and spine-0 swp7): exactly those
#                  (tests/verify/lldpd.expected, worked out by hand)
#
# Skipped without lldpd and lldpcli, or where the test may not
# create network namespaces (`ip netns add` needs root).

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"

PATH=$PATH:/usr/sbin:/sbin
for t in lldpd lldpcli ip python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		skip "real lldpd" "$t is not installed"
		finish
	fi
done
pfx=rkv$$
if ! ip netns add "$pfx-probe" 2>/dev/null; then
	skip "real lldpd" "cannot create network namespaces here"
	finish
fi
ip netns del "$pfx-probe"

pids=
nss=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null || :
	done
	for p in $pids; do
		wait "$p" 2>/dev/null || :
	done
	pids=
	for n in $nss; do
		ip netns del "$n" 2>/dev/null || :
	done
	nss=
}
trap 'cleanup; rm -rf "$tmp"' EXIT

d=tests/verify/eth-small.rack
o=$tmp/eth
if ! rk_run "$o" -o "$o.d" -O cabling "$d" || [ "$rc" -ne 0 ]; then
	fail "build" "${rk_problem:-exit status $rc}"
	show "$o.err"
	finish
fi

# the cables as "host if host if" lines, ports by their OS names; hosts
# by the design's rule but h[3], whose hostname the design gives
python3 - "$o.d" >"$tmp/wires" <<'PY'
import csv, re, sys
d = sys.argv[1]
face = {}
for r in csv.DictReader(open(d + "/cabling/patch.csv")):
    face[(r["device"], r["port"])] = r["faceplate"]
def host(dev):
    if dev == "h[3]":
        return "gpu-node-03"
    return re.sub("-+", "-", re.sub("[^A-Za-z0-9-]", "-", dev)).strip("-")
def osname(dev, port):
    m = re.match(r"eth\[(\d+)\]$", port)
    return "eth" + m.group(1) if m else face[(dev, port)]
for r in csv.DictReader(open(d + "/cabling.csv")):
    print(host(r["a_device"]), osname(r["a_device"], r["a_port"]),
          host(r["b_device"]), osname(r["b_device"], r["b_port"]))
PY

# run CASE WIRES: the namespaces and lldpd, then every system's neighbours
# in $tmp/CASE/HOST.json
run() {
	w=$tmp/$1
	mkdir -p "$w"
	# lldpd runs its configuration through lldpcli without privileges:
	# the control sockets' directory must be searchable
	chmod 755 "$tmp" "$w"
	hosts=$(awk '{ print $1; print $3 }' "$2" | sort -u)
	for h in $hosts; do
		ip netns add "$pfx-$h" || return 1
		nss="$nss $pfx-$h"
		ip -n "$pfx-$h" link set lo up
	done
	n=0
	while read -r ha ia hb ib; do
		n=$((n + 1))
		ip link add "v$pfx-$n" netns "$pfx-$ha" type veth \
			peer name "w$pfx-$n" netns "$pfx-$hb" || return 1
		ip -n "$pfx-$ha" link set "v$pfx-$n" name "$ia" up || return 1
		ip -n "$pfx-$hb" link set "w$pfx-$n" name "$ib" up || return 1
	done <"$2"
	for h in $hosts; do
		{
			echo "configure system hostname $h"
			echo "configure lldp tx-interval 1"
			case $h in
			leaf-* | spine-*)
				echo "configure lldp portidsubtype ifname" ;;
			esac
		} >"$w/$h.conf"
		ip netns exec "$pfx-$h" lldpd -d -u "$w/$h.sock" \
			-O "$w/$h.conf" >"$w/$h.log" 2>&1 &
		pids="$pids $!"
	done
	# until every cabled port has heard its neighbour (30 s at most)
	want=$(($(wc -l <"$2") * 2))
	i=0
	while [ $i -lt 150 ]; do
		got=0
		for h in $hosts; do
			lldpcli -u "$w/$h.sock" -f json show neighbors \
				>"$w/$h.json" 2>/dev/null || :
			got=$((got + $(grep -c '"via": "LLDP"' "$w/$h.json" || :)))
		done
		if [ "$got" -ge "$want" ]; then
			break
		fi
		sleep 0.2
		i=$((i + 1))
	done
	cleanup
}

# verify CASE EXPECTED STATUS
check() {
	rk_run "$tmp/$1.v" verify --format=json --map tests/verify/eth.map \
		"$d" "$tmp/$1"/*.json || :
	python3 tests/verify_plant.py found-ends "$tmp/$1.v.out" \
		>"$tmp/$1.found" 2>&1 || :
	if [ "$rc" -eq "$3" ] && diff "$2" "$tmp/$1.found" >"$tmp/$1.diff"; then
		pass "lldpd/$1" "$(wc -l <"$2" | tr -d ' ') findings"
	else
		fail "lldpd/$1" "exit $rc (expected $3); expected (<), reported (>)"
		show "$tmp/$1.diff"
		show "$tmp/$1.v.err"
	fi
}

if run clean "$tmp/wires"; then
	: >"$tmp/none"
	check clean "$tmp/none" 0
else
	cleanup
	fail "lldpd/clean" "cannot build the namespaces"
fi

# the faults: crossed at leaf-0 swp1/swp2, leaf-0 swp6 to spine-1 swp3,
# leaf-1 swp6 -- spine-1 swp2 left out, leaf-1 swp7 -- spine-0 swp7 added
awk '
	$3 == "leaf-0" && $4 == "swp1" { $4 = "swp2"; print; next }
	$3 == "leaf-0" && $4 == "swp2" { $4 = "swp1"; print; next }
	$1 == "leaf-0" && $2 == "swp6" { $4 = "swp3"; print; next }
	$1 == "leaf-1" && $2 == "swp6" { next }
	{ print }
	END { print "leaf-1 swp7 spine-0 swp7" }' "$tmp/wires" >"$tmp/faulty"
if run faults "$tmp/faulty"; then
	check faults tests/verify/lldpd.expected 1
else
	cleanup
	fail "lldpd/faults" "cannot build the namespaces"
fi

finish
