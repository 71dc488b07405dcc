#!/bin/sh
# SPDX-License-Identifier: MIT
# The bisection of generated fabrics, end to end, against two independent
# oracles.
#
# Small designs of every generated shape (two tiers with even and uneven
# spreads from one spine to as many spines as uplinks, partial scalable
# units, oversubscribed and undersubscribed leaves, three tiers as
# src/fabric.c and four as src/fabric_tiers.c build them, planes, stars,
# endpoint devices of one port and of two) are compiled; the cable plan
# gives the generated links, and a brute force in Python (networkx max-flow
# between the halves, for every balanced split of the endpoint devices)
# gives the true bisection, which rackc must report, exactly.
#
# Large compute fabrics (10,000, 100,000 and 1,000,000 GPUs of 8 NICs per
# server, 128-port switches, 1:1) against a count by hand: full bisection
# = planes x floor(n / 2) x 400 Gb/s for n NICs per plane (every NIC of
# 400 Gb/s).  At 10,000 (three tiers), 100,000 (three tiers of complete
# pods with no uplink to spare) and 1,000,000 (8 planes of complete
# three-tier trees) rackc must report it exactly.  And a star of 100,003 endpoints
# against the subset sum of its switches' sizes, counted here.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
	! python3 -c 'import networkx' 2>/dev/null; then
	skip bisect-gen "python3-networkx not installed"
	finish
fi

# name R ratio rails nodes nic extra...: nic 1 gives each port a NIC of its
# own (one-port endpoint devices), 0 keeps the server one device
while read -r name kind R ratio rails nodes nic extra; do
	[ -n "$name" ] || continue
	d="$tmp/$name"
	mkdir -p "$d"
	{
		echo "part nicp : nic { speed 400Gb/s }"
		echo "part srv : server {"
		echo "	height 1U"
		echo "	port ib[0..$((rails - 1))] { speed 400Gb/s; protocol ib }"
		if [ "$nic" = 1 ]; then
			echo "	for g in 0..$((rails - 1)) { nic nic[g] : nicp { ports ib[g] } }"
		fi
		echo "}"
		echo "part sw : switch {"
		echo "	height 1U"
		echo "	port p[0..$((R - 1))] { speed 400Gb/s; protocol ib }"
		echo "}"
		echo "for i in 0..$((nodes - 1)) { node n[i] : srv {} }"
		echo "fabric f : $kind {"
		echo "	endpoints n[*].ib[0..$((rails - 1))]"
		echo "	switch sw"
		if [ "$kind" = fat_tree ]; then
			echo "	oversubscription $ratio"
		fi
		if [ "$extra" != - ]; then
			echo "	$extra"
		fi
		echo "}"
	} >"$d/f.rack"
	if ! rk_run "$d/r" -o "$d/out" -O report,cabling -Wno-fabric-endpoints \
		"$d/f.rack"; then
		fail "bisect-gen/$name" "$rk_problem"
		show "$d/r.err"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		fail "bisect-gen/$name" "exit $rc"
		show "$d/r.err"
		continue
	fi
	planes=1
	case $extra in
	planes*) planes=${extra#planes } planes=${planes%%;*} ;;
	esac
	if got=$(python3 - "$d/out" "$nic" "$planes" <<'PY'
import csv, itertools, json, re, sys
import networkx as nx
out, nic, planes = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3])
rate = 400 * 10**9
G = nx.Graph()
devs = set()
for row in csv.DictReader(open(out + "/cabling.csv")):
    if row["fabric"] != "f":
        continue
    ends = []
    for s in "ab":
        dev, port = row[s + "_device"], row[s + "_port"]
        if not dev.startswith("f."):
            # the endpoint device: the port's NIC, or the server
            dev = dev + "/" + port if nic else dev
            devs.add(dev)
        ends.append(dev)
    a, b = ends
    if G.has_edge(a, b):
        G[a][b]["capacity"] += 1
    else:
        G.add_edge(a, b, capacity=1)
def plane(x):
    # rail r (port ib[r]) is on plane r mod planes
    return int(re.search(r"ib\[(\d+)\]", x).group(1)) % planes
n = len(devs)
def cut(side_a, devs):
    H = nx.DiGraph()
    for a, b, d in G.edges(data=True):
        H.add_edge(a, b, capacity=d["capacity"])
        H.add_edge(b, a, capacity=d["capacity"])
    for x in devs:
        if x in side_a:
            H.add_edge("SRC", x)
        else:
            H.add_edge(x, "SNK")
    return nx.maximum_flow_value(H, "SRC", "SNK")
# a split of a fabric of planes halves every plane (doc/language.md): the
# planes share no switch, so the least is the sum of each plane's least
best = 0
for p in range(planes):
    pd = sorted(x for x in devs if planes == 1 or plane(x) == p)
    m = len(pd)
    least = None
    for k in {m // 2, m - m // 2}:
        for rest in itertools.combinations(pd[1:], k - 1):
            c = cut(set(rest) | {pd[0]}, pd)
            least = c if least is None or c < least else least
    best += least
f = [x for x in json.load(open(out + "/report.json"))["fabrics"]
     if x["name"] == "f"][0]
want = best * rate
ok = (f["bisection_exact"] and f["bisection_bps"] == want and
      f["bisection_upper_bps"] == want and f["endpoint_devices"] == n)
print("%s %d devices, truth %d links, rackc %s..%s (%s)" % (
    "ok" if ok else "WRONG", n, best, f["bisection_bps"],
    f["bisection_upper_bps"], f["bisection_method"]))
PY
	); then
		case $got in
		ok*) pass "bisect-gen/$name" "$got" ;;
		*) fail "bisect-gen/$name" "$got" ;;
		esac
	else
		fail "bisect-gen/$name" "checker failed"
	fi
done <<'EOF2'
two-even	fat_tree 4 1:1 1 7 1 -
two-uneven	fat_tree 6 1:1 2 5 1 -
two-one-spine	fat_tree 6 2:1 1 11 1 -
two-under	fat_tree 8 3:5 1 9 1 -
two-provisioned	fat_tree 8 1:1 1 6 1 final_sus 8
two-multiport	fat_tree 6 1:1 2 6 0 -
three-partial	fat_tree 4 1:1 1 9 1 tiers 3
three-over	fat_tree 6 2:1 2 6 1 tiers 3
four	fat_tree 4 1:1 1 7 1 tiers 4
planes	fat_tree 4 1:1 2 6 1 planes 2
planes-three	fat_tree 4 1:1 2 6 1 planes 2; tiers 3
star	star 4 - 1 10 1 -
EOF2

# the large ones: a compute fabric alone, GPUS NICs in servers of 8
cat >"$tmp/big.rack" <<'EOF2'
param GPUS = 10000
param PLANES = 0
part g_nic : nic { speed 400Gb/s; estimated "synthetic part" }
part g_srv : server {
	height 8U
	estimated "synthetic part"
	port ib[0..7] { speed 400Gb/s; protocol ib }
	for g in 0..7 { nic nic[g] : g_nic { ports ib[g] } }
}
part g_sw : switch {
	height 1U
	estimated "synthetic part"
	port p[0..127] { speed 400Gb/s; protocol ib }
}
for i in 0 .. ceil_div(GPUS, 8) - 1 { node n[i] : g_srv {} }
fabric compute : fat_tree {
	endpoints n[*].ib[0..7]
	switch g_sw
	oversubscription 1:1
	if PLANES > 0 { planes PLANES }
}
EOF2
for size in "10000 1 exact" "100000 1 exact" "1000000 8 exact"; do
	# shellcheck disable=SC2086 # three words
	set -- $size
	gpus=$1 planes=$2 want=$3
	name=bisect-gen/compute-$gpus
	if ! rk_run "$tmp/b$gpus" -o "$tmp/o$gpus" -O report \
		-D GPUS="$gpus" -D PLANES="$planes" "$tmp/big.rack"; then
		fail "$name" "$rk_problem"
		show "$tmp/b$gpus.err"
		continue
	fi
	# by hand: every plane floor(n/2) NICs of 400 Gb/s across
	full=$((planes * (gpus / planes / 2) * 400000000000))
	got=$(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["fabrics"][0]
print(f["bisection_bps"], f["bisection_upper_bps"], f["full_bisection_bps"],
      "yes" if f["bisection_exact"] else "no")' "$tmp/o$gpus/report.json")
	# shellcheck disable=SC2086 # four words
	set -- $got
	if [ "$want" = exact ] && [ "$1" = "$full" ] && [ "$2" = "$full" ] &&
		[ "$3" = "$full" ] && [ "$4" = yes ]; then
		pass "$name" "exact $full b/s"
	else
		fail "$name" "got $got, full bisection by hand $full ($want)"
	fi
done

# a large star: N endpoints fill 48-port switches, unlinked; a balanced
# split takes whole switches (48 each, the last one N mod 48) and moves
# the rest one by one, so the bisection is the distance from floor(N/2)
# or ceil(N/2) to the nearest sum of switch sizes, in links
n=100003
cat >"$tmp/star.rack" <<EOF2
part s_srv : server { height 1U; port p { speed 1Gb/s; protocol eth } }
part s_sw : switch { height 1U; port q[0..47] { speed 1Gb/s; protocol eth } }
for i in 0 .. $((n - 1)) { node n[i] : s_srv {} }
fabric oob : star { endpoints n[*].p; switch s_sw }
EOF2
full=$((n / 48)) last=$((n % 48)) lo=$((n / 2)) hi=$((n - n / 2)) best=$n
for b in 0 1; do
	[ "$b" = 1 ] && [ "$last" = 0 ] && continue
	a=0
	while [ "$a" -le "$full" ]; do
		sum=$((a * 48 + b * last))
		if [ "$sum" -lt "$lo" ]; then
			d=$((lo - sum))
		elif [ "$sum" -gt "$hi" ]; then
			d=$((sum - hi))
		else
			d=0
		fi
		[ "$d" -lt "$best" ] && best=$d
		a=$((a + 1))
	done
done
want=$((best * 1000000000))
if ! rk_run "$tmp/star" -o "$tmp/ostar" -O report "$tmp/star.rack"; then
	fail bisect-gen/star-$n "$rk_problem"
	show "$tmp/star.err"
else
	got=$(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["fabrics"][0]
print(f["bisection_bps"], f["bisection_upper_bps"],
      "yes" if f["bisection_exact"] else "no")' "$tmp/ostar/report.json")
	if [ "$got" = "$want $want yes" ]; then
		pass bisect-gen/star-$n "exact $want b/s ($best links)"
	else
		fail bisect-gen/star-$n "got $got, by hand $want"
	fi
fi
finish
