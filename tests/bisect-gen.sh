#!/bin/sh
# SPDX-License-Identifier: MIT
# The bisection of generated fabrics, end to end, against two independent
# oracles, at both levels of doc/language.md §9.11.
#
# Small designs of every generated shape (two tiers with even and uneven
# spreads from one spine to as many spines as uplinks, partial scalable
# units, oversubscribed and undersubscribed leaves, three tiers as
# src/fabric/fabric.c and four as src/fabric/fabric_tiers.c build them, planes, stars,
# servers of one port and of two) are compiled twice, the servers' ports
# claimed by a NIC each and bare: the same cables, so the endpoint level
# (every NIC, or every bare port, a terminal) and the node level (the
# servers) must give the same figures both times.  The cable plan gives
# the generated links, and a brute force in Python (tests/bisect_check.py:
# every side of the switches, or networkx max-flow between the halves of
# every balanced split) gives the true bisection at each level, which
# rackc must report, exactly; every witness of --explain must be balanced
# and cut, by networkx max-flow, the upper bound.  Planes share no switch:
# at the endpoint level whole planes make the halves and the bisection is
# 0; at the node level every server meets every plane and they add up.
#
# Large compute fabrics (10,000, 100,000 and 1,000,000 GPUs of 8 NICs per
# server, 128-port switches, 1:1) against a count by hand: full bisection
# = planes x floor(n / 2) x 400 Gb/s for n NICs per plane (every NIC of
# 400 Gb/s).  At 10,000 (three tiers), 100,000 (three tiers of complete
# pods with no uplink to spare) and 1,000,000 (8 planes of complete
# three-tier trees) rackc must report it exactly, at the node level, and
# at the endpoint level too in one plane (in 8 planes the endpoint level
# is 0: four planes of 125,000 NICs make a half).  And a star of 100,003
# endpoints against the subset sum of its switches' sizes, counted here.
# At reduced sizes (a sanitizer build: tests/lib.sh) the million-GPU
# case is left out.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
	! python3 -c 'import networkx' 2>/dev/null; then
	skip bisect-gen "python3-networkx not installed"
	finish
fi
PYTHONPATH="$top_srcdir/tests${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

# name R ratio rails nodes extra...: each shape built with nic 1 (each
# port claimed by a NIC of its own) and nic 0 (bare ports on the server)
while read -r name kind R ratio rails nodes extra; do
	[ -n "$name" ] || continue
	for nic in 1 0; do
		d="$tmp/$name-$nic"
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
		if ! rk_run "$d/r" -o "$d/out" -O report,cabling --explain \
			-Wno-fabric-endpoints "$d/f.rack"; then
			fail "bisect-gen/$name-$nic" "$rk_problem"
			show "$d/r.err"
			continue
		fi
		if [ "$rc" -ne 0 ]; then
			fail "bisect-gen/$name-$nic" "exit $rc"
			show "$d/r.err"
			continue
		fi
		if got=$(python3 - "$d/out" "$nic" "$d/r.out" <<'PY'
import csv, json, sys
import networkx as nx
from bisect_check import check_level, parse_explain
out, nic = sys.argv[1], sys.argv[2] == "1"
lv = parse_explain(open(sys.argv[3]).read())["f"]
f = [x for x in json.load(open(out + "/report.json"))["fabrics"]
     if x["name"] == "f"][0]
rate = 400 * 10**9
rows = [r for r in csv.DictReader(open(out + "/cabling.csv"))
        if r["fabric"] == "f"]
def ep(dev, port):
    # a port's NIC (nic[g] claims ib[g]), or the bare port: a terminal
    return dev + "." + port.replace("ib[", "nic[") if nic else dev + "." + port
def node(dev, port):
    return dev
bad, msg = [], []
for level, name in (("", ep), ("node ", node)):
    G, terms = nx.Graph(), set()
    for r in rows:
        ends = []
        for s in "ab":
            dev, port = r[s + "_device"], r[s + "_port"]
            if not dev.startswith("f."):
                dev = name(dev, port)
                terms.add(dev)
            ends.append(dev)
        a, b = ends
        if G.has_edge(a, b):
            G[a][b]["capacity"] += rate
        else:
            G.add_edge(a, b, capacity=rate)
    b, true = check_level(level + "level", G, terms, lv[level])
    bad += b
    key = "node_bisection" if level else "bisection"
    count = f["nodes" if level else "endpoint_devices"]
    if true is None:
        bad.append(level + "level: no brute force")
    elif not (f[key + "_exact"] and f[key + "_bps"] == true and
              f[key + "_upper_bps"] == true and count == len(terms)):
        bad.append("%slevel: report.json %s..%s over %d, truth %d over %d"
                   % (level, f[key + "_bps"], f[key + "_upper_bps"], count,
                      true, len(terms)))
    msg.append("%s%d terminals, truth %s links (%s)" % (
        level, len(terms), None if true is None else true // rate,
        f[key + "_method"]))
print("ok" if not bad else "WRONG", "; ".join(msg + bad))
PY
		); then
			case $got in
			ok*) pass "bisect-gen/$name-$nic" "$got" ;;
			*) fail "bisect-gen/$name-$nic" "$got" ;;
			esac
		else
			fail "bisect-gen/$name-$nic" "checker failed"
		fi
	done
	# the same cables: the same figures at both levels (servers of more
	# than one port, where writing the NICs makes a difference to count)
	if [ "$rails" -gt 1 ] && ! python3 - "$tmp/$name-1/out" "$tmp/$name-0/out" <<'PY'
import json, sys
keys = ["bisection_bps", "bisection_upper_bps", "bisection_exact",
        "endpoint_devices", "full_bisection_bps", "node_bisection_bps",
        "node_bisection_upper_bps", "node_bisection_exact", "nodes",
        "node_full_bisection_bps"]
a, b = ([{k: x.get(k) for k in keys}
         for x in json.load(open(d + "/report.json"))["fabrics"]]
        for d in sys.argv[1:])
if a != b:
    print("NICs", a, "bare ports", b)
    sys.exit(1)
PY
	then
		fail "bisect-gen/$name-same" "the figures differ with bare ports"
	elif [ "$rails" -gt 1 ]; then
		pass "bisect-gen/$name-same"
	fi
done <<'EOF2'
two-even	fat_tree 4 1:1 1 7 -
two-uneven	fat_tree 6 1:1 2 5 -
two-one-spine	fat_tree 6 2:1 1 11 -
two-under	fat_tree 8 3:5 1 9 -
two-provisioned	fat_tree 8 1:1 1 6 final_sus 8
two-multiport	fat_tree 6 1:1 2 6 -
three-partial	fat_tree 4 1:1 1 9 tiers 3
three-over	fat_tree 6 2:1 2 6 tiers 3
four	fat_tree 4 1:1 1 7 tiers 4
planes	fat_tree 4 1:1 2 6 planes 2
planes-odd	fat_tree 4 1:1 2 5 planes 2
planes-three	fat_tree 4 1:1 2 6 planes 2; tiers 3
planes-uneven	fat_tree 8 1:1 3 5 planes 3
star	star 4 - 1 10 -
EOF2

# The rail-optimised fabric of 16 hosts, 8 rails, 2:1, cable for cable,
# with the hosts' ports on the server and owned by eight NICs: rail r of
# every host on leaf r (16 down), each leaf 2 links to each of 4 spines
# (8 up), every link 400 Gb/s.  By hand:
#  - endpoint level (128 terminals, 64 | 64): for a split, let x_l be the
#    terminals of leaf l on side A plus 2 s, s the spines on side A.  Leaf
#    l then costs min(x_l, 24 - x_l) links (on A it cuts its B terminals
#    and its uplinks to B's spines, on B the reverse), x_l runs over
#    [2s, 16 + 2s] and the x_l add up to 64 + 16 s.  The cost is concave
#    in each x_l, so a least split has every x_l at an end of its range
#    but one; the ends cost 2s and 8 - 2s, and the sum forces exactly 4
#    leaves to the top: 4 (8 - 2s) + 4 (2s) = 32 links for every s, and
#    the split of rails 0-3 against 4-7 cuts that.  32 x 400 Gb/s =
#    12.8 Tb/s, half of the full bisection (64 x 400 Gb/s).
#  - node level (16 terminals, 8 | 8): every leaf has 8 hosts on each side
#    and one link to each, so on either side it cuts 8 links, and the
#    spines add nothing when they go with the leaves: 8 x 8 = 64 links at
#    most; at least, because pairing the hosts of A with those of B, each
#    pair sends 400 Gb/s on each rail through its leaf, a flow of 64 x
#    400 Gb/s.  25.6 Tb/s, the full bisection (8 hosts of 3.2 Tb/s).
for nic in 1 0; do
	name=bisect-gen/rail-16x8-$nic
	python3 - "$nic" >"$tmp/rail$nic.rack" <<'PY'
import sys
out = ["part nicp : nic { speed 400Gb/s }", "part srv : server {",
       "  height 1U", "  port ib[0..7] { speed 400Gb/s; protocol ib }"]
if sys.argv[1] == "1":
    out.append("  for g in 0..7 { nic nic[g] : nicp { ports ib[g] } }")
out += ["}", "part sw : switch { height 1U; "
        "port p[0..23] { speed 400Gb/s; protocol ib } }",
        "for i in 0..15 { node n[i] : srv {} }",
        "for l in 0..7 { switch leaf[l] : sw {} }",
        "for s in 0..3 { switch spine[s] : sw {} }"]
for i in range(16):
    for r in range(8):
        out.append("link n[%d].ib[%d] -- leaf[%d].p[%d]" % (i, r, r, i))
for l in range(8):
    for s in range(4):
        for j in range(2):
            out.append("link leaf[%d].p[%d] -- spine[%d].p[%d]" %
                       (l, 16 + 2 * s + j, s, 2 * l + j))
out.append("fabric f : fat_tree { endpoints n[*].ib[0..7] }")
print("\n".join(out))
PY
	if ! rk_run "$tmp/rail$nic" -o "$tmp/orail$nic" -O report,cabling \
		--explain "$tmp/rail$nic.rack"; then
		fail "$name" "$rk_problem"
		show "$tmp/rail$nic.err"
		continue
	fi
	if got=$(python3 - "$tmp/orail$nic" "$nic" "$tmp/rail$nic.out" <<'PY'
import csv, json, sys
import networkx as nx
from bisect_check import check_level, parse_explain
out, nic = sys.argv[1], sys.argv[2] == "1"
lv = parse_explain(open(sys.argv[3]).read())["f"]
f = json.load(open(out + "/report.json"))["fabrics"][0]
rate = 400 * 10**9
want = {"": 32 * rate, "node ": 64 * rate}  # by hand, above
full = {"": 64 * rate, "node ": 64 * rate}
def ep(dev, port):
    return dev + "." + port.replace("ib[", "nic[") if nic else dev + "." + port
bad = []
for level, name in (("", ep), ("node ", lambda dev, port: dev)):
    G, terms = nx.Graph(), set()
    for r in csv.DictReader(open(out + "/cabling.csv")):
        ends = []
        for s in "ab":
            dev = r[s + "_device"]
            if dev.startswith("n["):
                dev = name(dev, r[s + "_port"])
                terms.add(dev)
            ends.append(dev)
        if G.has_edge(*ends):
            G[ends[0]][ends[1]]["capacity"] += rate
        else:
            G.add_edge(*ends, capacity=rate)
    bad += check_level(level + "level", G, terms, lv[level],
                       want=want[level])[0]
    key = "node_bisection" if level else "bisection"
    got = (f[key + "_bps"], f[key + "_upper_bps"], f[key + "_exact"],
           f["node_full_bisection_bps" if level else "full_bisection_bps"])
    if got != (want[level], want[level], True, full[level]):
        bad.append("%slevel: report.json %s, by hand %d of %d" %
                   (level, got, want[level], full[level]))
print("ok" if not bad else "WRONG", "; ".join(bad) or
      "12.8 Tb/s at the endpoint level, 25.6 Tb/s at the node level")
PY
	) && [ "${got%% *}" = ok ]; then
		pass "$name" "$got"
	else
		fail "$name" "$got"
	fi
done

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
	# a million GPUs: 12 s and 1 GiB in a sanitizer build (reduced sizes)
	if [ "$gpus" -gt 100000 ] && ! rk_full "$name"; then
		continue
	fi
	if ! rk_run "$tmp/b$gpus" -o "$tmp/o$gpus" -O report \
		-D GPUS="$gpus" -D PLANES="$planes" "$tmp/big.rack"; then
		fail "$name" "$rk_problem"
		show "$tmp/b$gpus.err"
		continue
	fi
	# by hand: every plane floor(n/2) NICs of 400 Gb/s across, and as
	# many at the node level (gpus / 8 servers, an even count here, half
	# of them 8 x 400 Gb/s each); the endpoint level of 8 planes is 0
	full=$((planes * (gpus / planes / 2) * 400000000000))
	ep=$full
	[ "$planes" -gt 1 ] && ep=0
	got=$(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["fabrics"][0]
print(f["bisection_bps"], f["bisection_upper_bps"], f["full_bisection_bps"],
      "yes" if f["bisection_exact"] else "no", f["node_bisection_bps"],
      f["node_bisection_upper_bps"], f["node_full_bisection_bps"],
      "yes" if f["node_bisection_exact"] else "no")' "$tmp/o$gpus/report.json")
	if [ "$want" = exact ] &&
		[ "$got" = "$ep $ep $full yes $full $full $full yes" ]; then
		pass "$name" "exact $ep b/s, at the node level $full b/s"
	else
		fail "$name" "got $got, by hand $ep (node level $full) of $full ($want)"
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
