#!/bin/sh
# SPDX-License-Identifier: MIT
#
# `rackc verify` on fixtures, and the lldp and ptm exports (no simulator
# needed; tests/verify-ib.sh runs ibsim).  The design is
# tests/verify/eth-small.rack, a small Ethernet leaf-spine; the expected
# findings of each fixture were worked out by hand from what the fixture
# says it plants (*.expected, cables named by their ends):
#
#   lldp/golden, ptm/golden  `rackc -O lldp`, `-O ptm` write exactly
#                        tests/golden/deploy/eth-small/{lldp,ptm}/
#   ptm/graphviz         Graphviz reads every ptm/*.dot, and its edges
#                        (host:port -- host:port) are the Ethernet cables of
#                        cabling.csv, ports by the faceplate names of
#                        cabling/patch.csv, hosts by the design's rule
#   ptm/example          examples/mi300x-roce.rack's ptm/compute.dot (a
#                        RoCE fabric): Graphviz reads it, and its edges are
#                        the fabric's cables, by ID and faceplate names
#   lldp/plan            lldp/expected.json lists, for every cabled port,
#                        the neighbour cabling.csv gives it, with the cable ID
#   lldp/clean           lldpcli JSON of the switches as built: exit 0
#   lldp/faults          lldpcli JSON (per switch, two concatenated with
#                        their `show chassis`, a host's own view with its
#                        Linux port names mapped by tests/verify/eth.map):
#                        a swap, a moved cable, a missing one, an unplanned
#                        one and an unknown host, exactly
#   lldp/workorder       the Markdown work order: a section per rack, each
#                        finding under the racks of its ends
#   csv/faults           a neighbour CSV (design names, host names,
#                        faceplate names, a `hostname`): exactly its faults
#   outdir               an output directory as DESIGN gives the same
#   csv-moved            cables moved at both ends, each onto its own two
#                        devices: one into free ports, one into a port of
#                        a cable unplugged (missing) and a free one
#   csv-moved-ambiguous  a cable moved at both ends and a second link
#                        between the same two devices: which one is the
#                        cable is not guessed (missing, two unplanned)
#   ib/unknown, ib/map, ib/rate
#                        real ibnetdiscover output of tests/verify/
#                        ib-small.rack (captured from ibsim): switch node
#                        descriptions as NVIDIA switches write them are
#                        unknown devices without a mapping file and map with
#                        one; links up narrower or slower are wrong-rate
#   ib-lst, ib-lst-faults
#                        ibdiagnet.lst of the same fabric (tests/
#                        verify_lst.py, by the format of ibdiagnet 1.5.7's
#                        source): as built, then a link gone and one at 1x
#   ib-dbcsv, ib-dbcsv-faults
#                        ibdiagnet2.db_csv of the same fabric (tests/
#                        verify_dbcsv.py, by the sections and columns of
#                        public readers of the file): as built, the findings
#                        of the ibnetdiscover output (none); then a link
#                        gone and one at 1x
#   ib-dbcsv-same        one made from ibnetdiscover output with a link
#                        unplugged: the findings of that output
#   host-unused/*        HOST=FILE given to ibnetdiscover output, a .lst,
#                        a db_csv and a neighbour CSV: the run of FILE
#                        alone, and one warning that the host is not used
#   dbcsv/*              a malformed db_csv (a section not closed, a GUID
#                        that is not a number, a link to a node not listed,
#                        a line outside the sections, a missing column):
#                        exit 2 with the file and line of the fault
#   usage/*              exit 2 on unreadable, malformed or missing input

. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	skip verify "python3 not installed"
	finish
fi

cd "$top_srcdir"
. tests/golden_designs.sh

d=tests/verify/eth-small.rack
l=tests/verify/lldp

# lldp and ptm goldens
for be in lldp ptm; do
	design_golden "$d" "$be" "$be" || :
done

o=$tmp/eth
if ! rk_run "$o" -o "$o.d" -O cabling,lldp,ptm "$d" || [ "$rc" -ne 0 ]; then
	fail "build" "${rk_problem:-exit status $rc}"
	show "$o.err"
	finish
fi

# the Ethernet cables of the plan, both ways, as (host, port, host, port,
# cable), ports by faceplate name; hosts by the derived-name rule but
# h[3], whose hostname the design gives
python3 - "$o.d" >"$tmp/plan.txt" <<'EOF'
import csv, re, sys
d = sys.argv[1]
face = {}
for r in csv.DictReader(open(d + "/cabling/patch.csv")):
    face[(r["device"], r["port"])] = r["faceplate"]
def host(dev):
    if dev == "h[3]":
        return "gpu-node-03"
    return re.sub("-+", "-", re.sub("[^A-Za-z0-9-]", "-", dev)).strip("-")
for r in csv.DictReader(open(d + "/cabling.csv")):
    a = (host(r["a_device"]), face[(r["a_device"], r["a_port"])])
    b = (host(r["b_device"]), face[(r["b_device"], r["b_port"])])
    for x, y in ((a, b), (b, a)):
        print("%s %s %s %s %s" % (x + y + (r["cable_id"],)))
EOF

if command -v dot >/dev/null 2>&1; then
	bad=
	for f in "$o.d"/ptm/*.dot; do
		if ! dot -Tjson "$f" >"$f.json" 2>"$f.err"; then
			bad="$bad $(basename "$f")"
		fi
	done
	if [ -z "$bad" ] && python3 - "$o.d" "$tmp/plan.txt" >"$tmp/ptm.diff" <<'EOF'
import glob, json, sys
got = set()
for f in glob.glob(sys.argv[1] + "/ptm/*.dot.json"):
    g = json.load(open(f))
    name = {o["_gvid"]: o["name"] for o in g.get("objects", [])}
    for e in g.get("edges", []):
        a = (name[e["tail"]], e["tailport"])
        b = (name[e["head"]], e["headport"])
        got.add(a + b)
        got.add(b + a)
want = {tuple(l.split()[:4]) for l in open(sys.argv[2])}
for x in sorted(want - got):
    print("planned, not in ptm:", *x)
for x in sorted(got - want):
    print("in ptm, not planned:", *x)
sys.exit(1 if want != got else 0)
EOF
	then
		pass "ptm/graphviz" "$(($(wc -l <"$tmp/plan.txt") / 2)) edges are the plan's cables"
	else
		fail "ptm/graphviz" "Graphviz rejects:${bad:- none}; or the edges differ"
		show "$tmp/ptm.diff"
	fi
else
	skip "ptm/graphviz" "Graphviz (dot) is not installed"
fi

# an example's Ethernet fabric: every edge of ptm/compute.dot is the cable
# of cabling.csv its comment names, both ports by faceplate name, and every
# cable of the (RoCE) fabric is there
e=$tmp/roce
if command -v dot >/dev/null 2>&1 &&
	rk_run "$e" -o "$e.d" -O cabling,ptm examples/mi300x-roce.rack &&
	[ "$rc" -eq 0 ] && dot -Tcanon "$e.d/ptm/compute.dot" >/dev/null 2>&1 &&
	python3 - "$e.d" >"$e.diff" <<'EOF'
import csv, re, sys
d = sys.argv[1]
face = {}
for r in csv.DictReader(open(d + "/cabling/patch.csv")):
    face[(r["device"], r["port"])] = r["faceplate"]
rows = {r["cable_id"]: r for r in csv.DictReader(open(d + "/cabling.csv"))
        if r["fabric"] == "compute"}
edge = re.compile(r'^\t"[^"]+":"([^"]+)" -- "[^"]+":"([^"]+)" // (\S+)$')
seen = set()
for line in open(d + "/ptm/compute.dot"):
    m = edge.match(line)
    if not m:
        continue
    r = rows.get(m.group(3))
    if r is None or (m.group(1), m.group(2)) != (
            face[(r["a_device"], r["a_port"])],
            face[(r["b_device"], r["b_port"])]):
        print("edge not in the plan:", line.strip())
    seen.add(m.group(3))
for c in sorted(set(rows) - seen):
    print("cable not in ptm:", c)
sys.exit(1 if set(rows) != seen else 0)
EOF
then
	pass "ptm/example" "mi300x-roce: ptm/compute.dot has every cable of the fabric"
elif ! command -v dot >/dev/null 2>&1; then
	skip "ptm/example" "Graphviz (dot) is not installed"
else
	fail "ptm/example" "mi300x-roce's ptm/compute.dot differs from the plan"
	show "$e.diff"
	show "$e.err"
fi

if python3 - "$o.d/lldp/expected.json" "$tmp/plan.txt" >"$tmp/lldp.diff" <<'EOF'
import json, sys
got = set()
for p in json.load(open(sys.argv[1]))["ports"]:
    n = p["neighbor"]
    got.add((p["system"], p["port"], n["system"], n["port"], p["cable_id"]))
want = {tuple(l.split()) for l in open(sys.argv[2])}
for x in sorted(want ^ got):
    print("planned" if x in want else "exported", *x)
sys.exit(1 if want != got else 0)
EOF
then
	pass "lldp/plan" "$(wc -l <"$tmp/plan.txt") ports with their neighbours"
else
	fail "lldp/plan" "lldp/expected.json differs from cabling.csv"
	show "$tmp/lldp.diff"
fi

# expect CASE EXPECTED STATUS ARG...: verify's JSON findings, by ends,
# are EXPECTED and the exit status STATUS
expect() {
	e_case=$1
	e_want=$2
	e_rc=$3
	shift 3
	rk_run "$tmp/$e_case" verify --format=json "$@" || :
	python3 tests/verify_plant.py found-ends "$tmp/$e_case.out" \
		>"$tmp/$e_case.found" 2>&1 || :
	if [ "$rc" -eq "$e_rc" ] && diff "$e_want" "$tmp/$e_case.found" \
		>"$tmp/$e_case.diff"; then
		pass "$e_case" "$(wc -l <"$e_want" | tr -d ' ') findings"
	else
		fail "$e_case" "exit $rc (expected $e_rc); expected (<), reported (>)"
		show "$tmp/$e_case.diff"
		show "$tmp/$e_case.err"
	fi
}

: >"$tmp/none"
expect lldp-clean "$tmp/none" 0 --map tests/verify/eth.map "$d" \
	leaf-0="$l/clean-leaf-0.json" leaf-1="$l/clean-leaf-1.json"
expect lldp-faults tests/verify/lldp.expected 1 --map tests/verify/eth.map \
	"$d" "$l/leaf-0.json" "$l/leaf-1.json" "$l/spines.json" "$l/h-2.json"
expect csv-faults tests/verify/observed.csv.expected 1 "$d" \
	tests/verify/observed.csv
expect outdir tests/verify/observed.csv.expected 1 "$o.d" \
	tests/verify/observed.csv
expect csv-moved tests/verify/moved.csv.expected 1 "$d" \
	tests/verify/moved.csv
expect csv-moved-ambiguous tests/verify/moved-ambiguous.csv.expected 1 \
	"$d" tests/verify/moved-ambiguous.csv

# the work order: a section per rack, each finding under the racks of its
# ends (the swap in rack 0 only, the moved leaf[0]--spine[1] cable in both,
# the unknown host's under "(not in the design)")
rk_run "$tmp/wo" verify --map tests/verify/eth.map --work-order "$tmp/wo.md" \
	"$d" "$l/leaf-0.json" "$l/leaf-1.json" "$l/spines.json" || :
awk '/^## Rack /{r=$3} /^\| \[ \]/{print r, $5}' "$tmp/wo.md" |
	sort >"$tmp/wo.rows"
cat >"$tmp/wo.want" <<'EOF'
(not unknown-device:
(not unplanned:
lab.r.rk[0] swapped:
lab.r.rk[0] wrong-port:
lab.r.rk[0] unplanned:
lab.r.rk[1] wrong-port:
lab.r.rk[1] missing:
lab.r.rk[1] unplanned:
lab.r.rk[1] unplanned:
EOF
if [ "$rc" -eq 1 ] && sort "$tmp/wo.want" | diff - "$tmp/wo.rows" >"$tmp/wo.diff"
then
	pass "lldp/workorder"
else
	fail "lldp/workorder" "exit $rc; rows by rack differ"
	show "$tmp/wo.diff"
	show "$tmp/wo.md"
fi

# InfiniBand: real ibnetdiscover output, switch descriptions renamed as
# NVIDIA switches report them, two links degraded
ib=tests/verify/ib-small.rack
sed 's/"compute-\(leaf\|spine\)-\([0-9]\)"/"MF0;compute-\1-\2:MQM9700\/U1"/' \
	tests/verify/ib-small.disc >"$tmp/ib.disc"
printf '%s\n' 'device ~MF0;([^:]+):.* \1' >"$tmp/ib.map"
rk_run "$tmp/ib-unknown" verify "$ib" "$tmp/ib.disc" || :
n=$(grep -c "error: unknown device 'MF0;compute-" "$tmp/ib-unknown.out" || :)
if [ "$rc" -eq 1 ] && [ "$n" -eq 7 ]; then
	pass "ib/unknown" "7 switch descriptions unknown without a mapping"
else
	fail "ib/unknown" "exit $rc, $n unknown switches (expected 7)"
	show "$tmp/ib-unknown.out"
fi
expect ib-map "$tmp/none" 0 --map "$tmp/ib.map" "$ib" "$tmp/ib.disc"
# leaf-1 port 1 (gpu-0 mlx5_1) trained at EDR, leaf-3 port 2 (gpu-4
# mlx5_1) at 1x: each from one end's report only
awk '
	/^Switch/ { me = $0 }
	/^\[1\]/ && me ~ /compute-leaf-1:/ { sub(/4xHDR$/, "4xEDR") }
	/^\[2\]/ && me ~ /compute-leaf-3:/ { sub(/4xHDR$/, "1xHDR") }
	{ print }' "$tmp/ib.disc" >"$tmp/ib-rate.disc"
cat >"$tmp/ib-rate.want" <<'EOF'
wrong-rate compute.leaf[1] p[0] -- gpu[0] ib[1]
wrong-rate compute.leaf[3] p[1] -- gpu[4] ib[1]
EOF
expect ib-rate "$tmp/ib-rate.want" 1 --map "$tmp/ib.map" "$ib" \
	"$tmp/ib-rate.disc"

# ibdiagnet.lst: the same fabric as ibdiagnet 1.5.7 lists it (made from
# the ibnetdiscover output by the format of its source), as built; then
# with leaf-1's port 1 link gone and leaf-3's port 2 up at 1x
python3 tests/verify_lst.py tests/verify/ib-small.disc >"$tmp/ib.lst"
expect ib-lst "$tmp/none" 0 "$ib" "$tmp/ib.lst"
awk '
	/\{compute-leaf-1\} LID:0000 PN:01 / { next }
	/\{compute-leaf-3\} LID:0000 PN:02 / { sub(/PHY=4x/, "PHY=1x") }
	{ print }' "$tmp/ib.lst" >"$tmp/ib-faults.lst"
cat >"$tmp/ib-lst.want" <<'EOF'
missing compute.leaf[1] p[0] -- gpu[0] ib[1]
wrong-rate compute.leaf[3] p[1] -- gpu[4] ib[1]
EOF
expect ib-lst-faults "$tmp/ib-lst.want" 1 "$ib" "$tmp/ib-faults.lst"

# ibdiagnet2.db_csv: the same fabric, made from the ibnetdiscover output by
# the sections and columns public readers of the file name; the findings
# must be those of the ibnetdiscover output (none), then a link gone and
# one at 1x as for the .lst
python3 tests/verify_dbcsv.py tests/verify/ib-small.disc >"$tmp/ib.db_csv"
rk_run "$tmp/ib-disc" verify --format=json "$ib" tests/verify/ib-small.disc || :
python3 tests/verify_plant.py found-ends "$tmp/ib-disc.out" >"$tmp/ib-disc.found" \
	2>&1 || :
expect ib-dbcsv "$tmp/ib-disc.found" 0 "$ib" "$tmp/ib.db_csv"
# leaf-1 port 1 to gpu-0 mlx5_1 unplugged (both ends' port lines gone):
# the db_csv made from it reports what the ibnetdiscover output does
awk '/^(Switch|Ca)/ { n = $3 }
	(n == "\"S-0290f17a10000002\"" || n == "\"H-0290f17a20000200\"") &&
		/^\[1\]/ { next }
	{ print }' tests/verify/ib-small.disc >"$tmp/ib-drop.disc"
python3 tests/verify_dbcsv.py "$tmp/ib-drop.disc" >"$tmp/ib-drop.db_csv"
rk_run "$tmp/ib-drop" verify --format=json "$ib" "$tmp/ib-drop.disc" || :
python3 tests/verify_plant.py found-ends "$tmp/ib-drop.out" \
	>"$tmp/ib-drop.found" 2>&1 || :
expect ib-dbcsv-same "$tmp/ib-drop.found" 1 "$ib" "$tmp/ib-drop.db_csv"
g1=$(awk -F, '$1 == "\"compute-leaf-1\"" { print $7 }' "$tmp/ib.db_csv")
g3=$(awk -F, '$1 == "\"compute-leaf-3\"" { print $7 }' "$tmp/ib.db_csv")
# (GUIDs compared as strings: awk may read 0x... as a number)
awk -F, -v g1="$g1" -v g3="$g3" 'BEGIN { OFS = "," }
	/^START_/ { s = $0 }
	s == "START_LINKS" && (($1 "" == g1 "" && $2 == 1) ||
		($3 "" == g1 "" && $4 == 1)) { next }
	s == "START_PORTS" && $1 "" == g3 "" && $3 == 2 { $11 = 1 }
	{ print }' "$tmp/ib.db_csv" >"$tmp/ib-faults.db_csv"
expect ib-dbcsv-faults "$tmp/ib-lst.want" 1 "$ib" "$tmp/ib-faults.db_csv"

# HOST=FILE names the local system of lldpcli JSON: given to a file of
# another format (ibnetdiscover output, .lst, db_csv, neighbour CSV), one
# warning that the name is not used, and the run is the same otherwise
h=0
for x in "$ib:tests/verify/ib-small.disc" "$ib:$tmp/ib-faults.lst" \
	"$ib:$tmp/ib-faults.db_csv" "$d:tests/verify/observed.csv"; do
	h=$((h + 1))
	hd=${x%%:*}
	hf=${x#*:}
	rk_run "$tmp/plain$h" verify "$hd" "$hf" || :
	h_rc=$rc
	rk_run "$tmp/host$h" verify "$hd" "h0=$hf" || :
	printf "rackc verify: warning: '%s' is not lldpcli JSON: the host name 'h0' is not used\n" \
		"$hf" | cat - "$tmp/plain$h.err" >"$tmp/plain$h.want"
	if [ "$rc" -eq "$h_rc" ] && cmp -s "$tmp/plain$h.out" "$tmp/host$h.out" &&
		cmp -s "$tmp/plain$h.want" "$tmp/host$h.err"; then
		pass "host-unused/${hf##*.}" "exit $rc, one warning"
	else
		fail "host-unused/${hf##*.}" "exit $rc (without the host $h_rc), or not the one warning"
		diff "$tmp/plain$h.want" "$tmp/host$h.err" >"$tmp/host$h.diff" || :
		show "$tmp/host$h.diff"
	fi
done

# a malformed db_csv: exit 2, the message at FILE:LINE
b=0
bad_db() {
	b=$((b + 1))
	b_name=$1
	b_line=$2
	shift 2
	awk "$@" "$tmp/ib.db_csv" >"$tmp/bad$b.db_csv"
	rk_run "$tmp/bad$b" verify "$ib" "$tmp/bad$b.db_csv" || :
	if [ "$rc" -eq 2 ] && grep -q "bad$b.db_csv:$b_line: error: " "$tmp/bad$b.err"
	then
		pass "dbcsv/$b_name" "$(head -n 1 "$tmp/bad$b.err")"
	else
		fail "dbcsv/$b_name" "exit $rc (expected 2 and a message at line $b_line)"
		show "$tmp/bad$b.err"
	fi
}
n_node=$(grep -n '^"compute-leaf-1"' "$tmp/ib.db_csv" | cut -d: -f1)
n_link=$(grep -n '^START_LINKS$' "$tmp/ib.db_csv" | cut -d: -f1)
n_link=$((n_link + 2))
bad_db unclosed "$((n_link - 2))" '!/^END_LINKS$/'
# shellcheck disable=SC2016 # awk programs
bad_db not-a-number "$n_node" -F, 'BEGIN { OFS = "," }
	$1 == "\"compute-leaf-1\"" { $7 = "0xZZ" } { print }'
# shellcheck disable=SC2016
bad_db unknown-guid "$n_link" -F, -v n="$n_link" 'BEGIN { OFS = "," }
	NR == n { $1 = "0x0290f17a1000ffff" } { print }'
n_out=$(grep -n '^END_NODES$' "$tmp/ib.db_csv" | cut -d: -f1)
bad_db outside "$((n_out + 1))" '{ print } /^END_NODES$/ { print "hello" }'
bad_db no-column "$((n_link - 1))" '/^NodeGuid1,/ { sub(/PortNum2/, "Port2") } { print }'

# usage and unreadable input: exit 2
u=0
check2() {
	u=$((u + 1))
	c_name=$1
	shift
	rk_run "$tmp/u$u" "$@" || :
	if [ "$rc" -eq 2 ] && [ -s "$tmp/u$u.err" ]; then
		pass "usage/$c_name"
	else
		fail "usage/$c_name" "exit $rc (expected 2 with a message)"
		show "$tmp/u$u.err"
	fi
}
printf '{"lldp": {"interface": [\n' >"$tmp/trunc.json"
printf 'host,port\nh[0],eth[0]\n' >"$tmp/cols.csv"
printf 'device ~[unclosed x\n' >"$tmp/bad.map"
printf 'hello\n' >"$tmp/nothing.txt"
check2 no-observation verify "$d"
check2 unreadable verify "$d" "$tmp/does-not-exist"
check2 truncated-json verify "$d" "$tmp/trunc.json"
check2 csv-columns verify "$d" "$tmp/cols.csv"
check2 no-format verify "$d" "$tmp/nothing.txt"
check2 bad-regex verify --map "$tmp/bad.map" "$d" tests/verify/observed.csv
check2 bad-format verify --format=yaml "$d" tests/verify/observed.csv
# a repetition of a repetition: regcomp would copy the atom 201 x 201
# times (and "a++++..." 2^n times); refused before it, at its line
printf 'device x y\nport ~eth(0{200}){200} eth[0]\n' >"$tmp/big.map"
check2 map-too-complex verify --map "$tmp/big.map" "$d" \
	tests/verify/observed.csv
if grep -q "big.map:2: error: pattern too complex" "$tmp/u$u.err"; then
	pass "usage/map-too-complex-located"
else
	fail "usage/map-too-complex-located" "no located limit error"
	show "$tmp/u$u.err"
fi
# a back-reference: glibc matches it by search ("(a*)*\\2b" against 20
# names of 300 bytes took 22 s, wider patterns over a minute)
printf 'port ~eth(a*)*\\2b eth[0]\n' >"$tmp/backref.map"
check2 map-backref verify --map "$tmp/backref.map" "$d" \
	tests/verify/observed.csv
if grep -q "backref.map:1: error: back-references" "$tmp/u$u.err"; then
	pass "usage/map-backref-located"
else
	fail "usage/map-backref-located" "no located limit error"
	show "$tmp/u$u.err"
fi
check2 no-design verify "$tmp/no-design.rack" tests/verify/observed.csv

finish
