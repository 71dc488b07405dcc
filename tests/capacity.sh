#!/bin/sh
# SPDX-License-Identifier: MIT
# The capacity figures of report.json against arithmetic done by hand and
# against the closed forms of the collective estimates (doc/language.md,
# "Capacity figures"), computed here independently with exact fractions.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip capacity "python3 not installed"
	finish
fi

# run NAME DESIGN [ARGS...]: report.json of DESIGN into $tmp/NAME
run() {
	name=$1
	design=$2
	shift 2
	if ! rk_run "$tmp/$name" -o "$tmp/$name" -O report "$@" "$design"; then
		fail "capacity/$name" "$rk_problem"
		return 1
	fi
	if [ "$rc" -ne 0 ]; then
		fail "capacity/$name" "exit $rc"
		show "$tmp/$name.err"
		return 1
	fi
}

# The DGX H100 SuperPOD at 4 SUs: 127 DGX H100 x 8 = 1,016 H100 SXM5.
#   dense BF16: 1,979 TFLOP/s sparse (N15) / 2 = 989.5 TFLOP/s per GPU;
#               x 1,016 = 1,005,332 TFLOP/s = 1.005332 EFLOP/s
#   dense FP8:  3,958 / 2 = 1,979 TFLOP/s; x 1,016 = 2,010,664 TFLOP/s
#   HBM:        80 GB x 1,016 = 81,280 GB; 3.35 TB/s x 1,016 = 3,403.6 TB/s
#               = 27,228.8 Tb/s
#   NVLink:     8 GPUs per domain (one DGX, 4 NVSwitch), 127 domains;
#               900 GB/s both directions (N15) = 450 GB/s = 3.6 Tb/s per
#               direction; scale-out 8 x 400 Gb/s ConnectX-7 per 8 GPUs =
#               400 Gb/s per GPU; 3,600 : 400 = 9 : 1
#   models:     81,280 GB / 16 B = 5.08e12 parameters (training),
#               / 2 B = 4.064e13 (inference); one domain 640 GB / 2 B =
#               3.2e11
if run superpod "$top_srcdir/examples/dgx-h100-superpod.rack"; then
	if python3 - "$tmp/superpod/report.json" >"$tmp/sp.out" 2>&1 <<'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["capacity"]
T = 10**12
# one cluster: the compute fabric joins every DGX; storage, in-band and
# OOB networks join nothing
x = c["clusters"][0] if len(c["clusters"]) == 1 else None
dom = x["nvlink_domains"] if x else []
want = {
    "clusters": 1, "name": "compute",
    "gpus": 1016, "cgpus": 1016,
    "bf16": 1005332 * T, "fp8": 2010664 * T,
    "hbm": 81280 * 10**9, "hbm_bw": 27228800 * 10**9,
    "domains": [(8, 127, 3600 * 10**9)],
    "out": 400 * 10**9, "ratio": "9:1",
    "train": 5080 * 10**9, "infer": 40640 * 10**9, "infer_dom": 320 * 10**9,
}
got = {
    "clusters": len(c["clusters"]), "name": x and x["name"],
    "gpus": c["gpus"], "cgpus": x and x["gpus"],
    "bf16": c["flops_dense_total"]["bf16"], "fp8": c["flops_dense_total"]["fp8"],
    "hbm": c["hbm_bytes_total"], "hbm_bw": c["hbm_bps_total"],
    "domains": [(d["gpus"], d["count"], d["nvlink_bps_per_gpu"]) for d in dom],
    "out": x and x["scaleout_bps_per_gpu"],
    "ratio": dom[0]["nvlink_to_scaleout"] if dom else None,
    "train": x and x["model_params"]["training_max"],
    "infer": x and x["model_params"]["inference_max"],
    "infer_dom": x and x["model_params"]["inference_max_per_domain"],
}
bad = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
if c["flops_dense_total"]["fp4"] is not None:
    bad["fp4"] = "H100 has no FP4 figure"
print(bad or "ok")
sys.exit(1 if bad else 0)
PY
		pass capacity/superpod-4su "$(cat "$tmp/sp.out")"
	else
		fail capacity/superpod-4su "$(cat "$tmp/sp.out")"
	fi
fi

# Collective estimates against the closed forms, for every example and
# for the SuperPOD with latencies, a message size and a PUE set.
sed -e 's/^fabric compute : fat_tree {/&\n\tlatency 5us\n\tmessage_size 256MiB/' \
	-e 's/^site hall {/&\n\tpue 130%/' \
	"$top_srcdir/examples/dgx-h100-superpod.rack" >"$tmp/sp-lat.rack"
mkdir -p "$tmp/include"
cp "$top_srcdir"/examples/include/*.rack "$tmp/include/"
designs=""
for f in "$top_srcdir"/examples/*.rack; do
	designs="$designs $f"
done
designs="$designs $tmp/sp-lat.rack"
for f in $designs; do
	n=$(basename "$f" .rack)
	run "cf-$n" "$f" --stdlib="$top_srcdir" || continue
	if python3 - "$tmp/cf-$n/report.json" >"$tmp/cf.out" 2>&1 <<'PY'; then
import json, sys
from fractions import Fraction as F
r = json.load(open(sys.argv[1]))
c = r["capacity"]

# a lower bound (no latency) is rounded down, an estimate up
def rnd(x, up):
    return -((-x.numerator) // x.denominator) if up else x.numerator // x.denominator

def ring(p, b, a, S):
    if p <= 1: return 0
    t = rnd(F(2 * (p - 1) * 8 * S * 10**9, p * b), a is not None)
    return t + (2 * (p - 1) * a if a else 0)

def tree(p, b, a, S):
    if p <= 1: return 0
    depth = (p - 1).bit_length()
    t = rnd(F(2 * 8 * S * 10**9, b), a is not None)
    return t + (2 * depth * a if a else 0)

bad = []
for x in c["clusters"]:
    co = x["collectives"]
    S = co["message_bytes"]
    for d in x["nvlink_domains"]:
        p, b, a = d["gpus"], d["nvlink_bps_per_gpu"], d["latency_ns"]
        if b:
            if d["allreduce_ring_ns"] != ring(p, b, a, S): bad.append("nv ring")
            if d["allreduce_tree_ns"] != tree(p, b, a, S): bad.append("nv tree")
            if (d["basis"] == "estimate") != (a is not None): bad.append("nv basis")
    n, b = x["scaleout_gpus"], x["scaleout_bps_per_gpu"]
    a = co["fabric_latency_ns"]
    if b:
        if co["fabric_allreduce_ring_ns"] != ring(n, b, a, S): bad.append("net ring")
        if co["fabric_allreduce_tree_ns"] != tree(n, b, a, S): bad.append("net tree")
        fab = [f for f in r["fabrics"] if f["name"] == x["scaleout_fabric"]][0]
        # through the node level's least cut found, at least (the
        # cluster's other fabrics may add to it), its halves' GPUs
        X, ga = co["alltoall_cut_bps"], co["alltoall_cut_gpus"]
        if X is not None and (X < fab["node_bisection_upper_bps"] or
                              len(ga) != 2 or sum(ga) > n):
            bad.append("alltoall cut %s %s" % (X, ga))
        inj = (n - 1) * 8 * S * 10**9 // (n * b) if n > 1 else 0
        cut = ga[0] * ga[1] * 8 * S * 10**9 // (n * X) if X and n > 1 else 0
        if co["alltoall_ns"] != max(inj, cut): bad.append("alltoall %d %d %d" % (co["alltoall_ns"], inj, cut))
        if (co["fabric_basis"] == "estimate") != (a is not None): bad.append("basis")
    # the cluster's sums over its GPU parts
    models = {m["part"]: m for m in c["gpu_models"]}
    for k in ("fp64", "tf32", "bf16", "fp8", "fp4"):
        vals = [models[m["part"]]["flops_dense"][k] for m in x["gpu_models"]]
        want = sum(m["count"] * models[m["part"]]["flops_dense"][k]
                   for m in x["gpu_models"]) if vals and None not in vals else None
        if x["flops_dense"][k] != want: bad.append("cluster " + k)
    if x["hbm_bytes"] != sum(m["count"] * models[m["part"]]["hbm_bytes"] for m in x["gpu_models"]):
        bad.append("cluster hbm")
    if x["gpus"] != sum(m["count"] for m in x["gpu_models"]): bad.append("cluster gpus")
    if x["gpus"] != sum(d["gpus"] * d["count"] for d in x["nvlink_domains"]):
        bad.append("cluster domains")
pw = c["power"]
if pw["it_w"] is None:
    # a lower bound (a device without power_max): nothing made from it
    if "it_w" not in pw.get("unknown", []) or \
            pw["facility_w"] is not None or \
            pw["energy_per_year_wh"] is not None or \
            pw["it_energy_per_year_wh"] is not None:
        bad.append("unknown it_w")
elif pw["pue"] is not None:
    pue = F(pw["pue"].rstrip("%")) / 100
    fac = F(str(pw["it_w"])) * pue
    if F(str(pw["facility_w"])) != fac: bad.append("facility")
    if F(str(pw["energy_per_year_wh"])) != fac * 8760: bad.append("energy")
# the per-model sums are the totals, and the clusters' sums too
for k in ("fp64", "tf32", "bf16", "fp8", "fp4"):
    vals = [m["flops_dense"][k] for m in c["gpu_models"]]
    want = sum(m["count"] * m["flops_dense"][k] for m in c["gpu_models"]) \
        if vals and None not in vals else None
    if c["flops_dense_total"][k] != want: bad.append("total " + k)
if c["gpus"] != sum(x["gpus"] for x in c["clusters"]): bad.append("total gpus")
if c["hbm_bytes_total"] != sum(x["hbm_bytes"] for x in c["clusters"]): bad.append("total hbm")
if c["hbm_bps_total"] != sum(x["hbm_bps"] for x in c["clusters"]): bad.append("total hbm_bps")
print(bad or "ok")
sys.exit(1 if bad else 0)
PY
		pass "capacity/closed-forms/$n"
	else
		fail "capacity/closed-forms/$n" "$(cat "$tmp/cf.out")"
	fi
done
# the latencies were read: the estimates are estimates, and the PUE is 130%
if python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["capacity"]
co, pw = c["clusters"][0]["collectives"], c["power"]
ok = (co["fabric_latency_ns"] == 5000 and co["message_bytes"] == 256 << 20
      and co["fabric_basis"] == "estimate" and pw["pue"] == "130%")
sys.exit(0 if ok else 1)' "$tmp/cf-sp-lat/report.json" 2>/dev/null; then
	pass capacity/design-settings
else
	fail capacity/design-settings "latency, message_size or pue not read"
fi
# The mixed hall (examples/mixed-hall.rack): two clusters, each with its
# own figures, derived in tests/capacity_check.py from the GPU parts'
# figures in std/nvidia.rack; the NVLink lower bounds hold for every
# domain; and the same hall with one fabric over both rows (one cluster
# with two domain classes) and with a management star over both (which
# joins nothing).
mh=$top_srcdir/examples/mixed-hall.rack
std=$top_srcdir/std/nvidia.rack
chk=$top_srcdir/tests/capacity_check.py
if rk_run "$tmp/mh" -o "$tmp/mh" -O report,html,cabling "$mh" &&
	[ "$rc" -eq 0 ]; then
	for c in "mixed $tmp/mh/report.json $std $mh" \
		"bounds $tmp/mh/report.json $std $mh h100_ib gb200_ib" \
		"units $tmp/mh/report.json $tmp/mh/report.html $std" \
		"cables $tmp/mh/report.json $tmp/mh/cabling.csv 544 2592"; do
		# shellcheck disable=SC2086 # the words are the arguments
		python3 "$chk" $c >"$tmp/mh.res" 2>"$tmp/mh.py" ||
			echo "FAIL	${c%% *}	$(tail -1 "$tmp/mh.py")" >>"$tmp/mh.res"
		py_results capacity/mixed-hall "$tmp/mh.res"
	done
else
	fail capacity/mixed-hall "${rk_problem:-exit status $rc}"
	show "$tmp/mh.err"
fi
# one fabric over both rows: the gb200_ib fabric goes, and h100_ib takes
# the trays' ports as well (generator warnings about its leaves aside)
python3 - "$mh" >"$tmp/mh-joined.rack" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
a = s.index("fabric gb200_ib : fat_tree {")
s = s[:a] + s[s.index("}\n", a) + 2:]
s = s.replace("\tendpoints dgx[*].ib[0..7]\n",
              "\tendpoints dgx[*].ib[0..7]\n"
              "\tendpoints hall.g.nvl72[*].tray[*].ib[0..3]\n")
print(re.sub(r"require .*\n", "", s), end="")
PY
# a management star over both rows' BMCs
sed -e '$a\
fabric oob : star {\
	endpoints dgx[*].bmc, hall.g.nvl72[*].tray[*].bmc\
	switch sn2201\
	cable cat6_patch\
	place_leaves hall.h.net\
}' "$mh" >"$tmp/mh-oob.rack"
for v in joined oob; do
	if ! rk_run "$tmp/mh-$v" -I "$top_srcdir/examples" --force -O report \
		-o "$tmp/mh-$v" "$tmp/mh-$v.rack" || [ "$rc" -gt 1 ] ||
		[ ! -s "$tmp/mh-$v/report.json" ]; then
		fail "capacity/mixed-hall-$v" "${rk_problem:-exit status $rc}"
		show "$tmp/mh-$v.err"
		continue
	fi
	if [ $v = joined ]; then
		set -- h100_ib h100_ib
	else
		set -- h100_ib gb200_ib
	fi
	python3 "$chk" bounds "$tmp/mh-$v/report.json" "$std" "$mh" "$@" \
		>"$tmp/mh-$v.res" 2>"$tmp/mh-$v.py" ||
		echo "FAIL	bounds	$(tail -1 "$tmp/mh-$v.py")" >>"$tmp/mh-$v.res"
	py_results "capacity/mixed-hall-$v" "$tmp/mh-$v.res"
done
if python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["capacity"]["clusters"]
sys.exit(0 if [x["name"] for x in c] == ["h100_ib"] and
         len(c[0]["nvlink_domains"]) == 2 else 1)' \
	"$tmp/mh-joined/report.json" 2>/dev/null; then
	pass "capacity/mixed-hall-joined: one cluster, two domain classes"
else
	fail "capacity/mixed-hall-joined: one cluster, two domain classes"
fi
if python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["capacity"]["clusters"]
sys.exit(0 if sorted(x["name"] for x in c) == ["gb200_ib", "h100_ib"]
         else 1)' "$tmp/mh-oob/report.json" 2>/dev/null; then
	pass "capacity/mixed-hall-oob: a management star joins no clusters"
else
	fail "capacity/mixed-hall-oob: a management star joins no clusters"
fi

# totals.cables counts cables; an NVL72 rack's 1,296 NVLink links (72
# GPUs x 18) run over its backplane and are counted apart; its 72 compute
# links (18 trays x 4) are its cables
if rk_run "$tmp/nvl" -o "$tmp/nvl" -O report,cabling \
	"$top_srcdir/examples/gb200-nvl72.rack" && [ "$rc" -eq 0 ]; then
	python3 "$chk" cables "$tmp/nvl/report.json" "$tmp/nvl/cabling.csv" \
		72 1296 >"$tmp/nvl.res" 2>"$tmp/nvl.py" ||
		echo "FAIL	cables	$(tail -1 "$tmp/nvl.py")" >>"$tmp/nvl.res"
	py_results capacity/gb200-nvl72 "$tmp/nvl.res"
else
	fail capacity/gb200-nvl72 "${rk_problem:-exit status $rc}"
fi
# Servers on no fabric are clusters of their own (named after themselves),
# a server whose GPUs are not all NVLink GPUs is domains of one GPU each,
# and a design without GPUs has no clusters
cat >"$tmp/alone.rack" <<'EOF'
part g : gpu { hbm 80GB; flops_bf16 1000TFLOP/s }
part g2 : gpu { hbm 40GB; nvlink_bw 100GB/s; latency 1us }
part srv : server { height 1U; gpu a[0..3] : g { } }
part srv2 : server { height 1U; gpu b[0..1] : g2 { }; gpu c : g { } }
part srv3 : server { height 1U; gpu b[0..1] : g2 { } }
node n[0..1] : srv { }
node m : srv2 { }
node k : srv3 { }
EOF
printf 'part sw : switch { height 1U }\nswitch s : sw { }\n' >"$tmp/nogpu.rack"
if run alone "$tmp/alone.rack" && run nogpu "$tmp/nogpu.rack" &&
	python3 - "$tmp/alone/report.json" "$tmp/nogpu/report.json" \
		>"$tmp/alone.out" 2>&1 <<'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["capacity"]["clusters"]
got = [(x["name"], x["gpus"], [(d["gpus"], d["count"], d["nvlink_bps_per_gpu"])
                               for d in x["nvlink_domains"]]) for x in c]
# k: 2 x 100 GB/s = 800 Gb/s per direction, one domain of 2
want = [("n[0]", 4, [(1, 4, 0)]), ("n[1]", 4, [(1, 4, 0)]),
        ("m", 3, [(1, 1, 0), (1, 2, 0)]), ("k", 2, [(2, 1, 800 * 10**9)])]
none = json.load(open(sys.argv[2]))["capacity"]["clusters"]
print(got, none)
sys.exit(0 if got == want and none == [] else 1)
PY
	pass capacity/alone
else
	fail capacity/alone "$(cat "$tmp/alone.out" 2>/dev/null)"
fi
# All-to-All through the node level (doc/language.md §10.1), against a
# brute force over every balanced split of the servers and every side of
# the switches (tests/capacity_check.py alltoall), on three small designs:
# - planes: 12 servers of 4 GPUs and a NIC on each of two planes, each
#   plane a two-tier tree at 3:1.  The endpoint level is 0 (the planes
#   make the halves), so a bound through it is the injection bound alone;
#   servers forward between their NICs, and the node level cuts 2 planes
#   x 2 uplinks x 400 Gb/s = 1.6 Tb/s between 24 | 24 GPUs: 24 x 24 / 48
#   x 8 GiB / 1.6 Tb/s = 64.4 ms, above the injection bound (42.1 ms).
# - uneven: two servers of 8 GPUs on one switch, two of 2 GPUs on another,
#   the switches joined by one 100 Gb/s link.  The least balanced split
#   (2 | 2 servers, 800 Gb/s for any other) holds 16 | 4 GPUs: 16 x 4 /
#   20 x 8 GiB / 100 Gb/s = 274.9 ms; floor(20/2) ceil(20/2) pairs would
#   claim 429.5 ms, more than the split that exists can show.
# - uneven-nvl: the same with an NVLink switch joining s[0] and t[0]
#   (800 Gb/s each), across the split: a route around the fabric, so the
#   cut is 100 + 800 Gb/s (the NVLink switch on either side cuts one of the
#   two links), and the injection bound (102.0 ms) is the larger.
cat >"$tmp/a2a-planes.rack" <<'EOF'
part g : gpu { hbm 80GB }
part nicp : nic { speed 400Gb/s }
part srv : server {
	height 1U
	port ib[0..1] { speed 400Gb/s; protocol ib }
	for r in 0..1 { nic cx[r] : nicp { ports ib[r] } }
	gpu gpu[0..3] : g { }
}
part sw : switch { height 1U; port p[0..7] { speed 400Gb/s; protocol ib } }
for i in 0..11 { node n[i] : srv {} }
fabric f : fat_tree {
	endpoints n[*].ib[0..1]
	switch sw
	oversubscription 3:1
	planes 2
}
EOF
cat >"$tmp/a2a-uneven.rack" <<'EOF'
part g : gpu { hbm 80GB }
part big : server {
	height 1U
	port ib { speed 400Gb/s; protocol ib }
	port nv { speed 800Gb/s; protocol nvlink }
	gpu gpu[0..7] : g { }
}
part small : server {
	height 1U
	port ib { speed 400Gb/s; protocol ib }
	port nv { speed 800Gb/s; protocol nvlink }
	gpu gpu[0..1] : g { }
}
part sw : switch {
	height 1U
	port p[0..3] { speed 400Gb/s; protocol ib }
	port up { speed 100Gb/s; protocol ib }
}
part nvs : switch { height 1U; port q[0..3] { speed 800Gb/s; protocol nvlink } }
node s[0..1] : big { }
node t[0..1] : small { }
switch l[0..1] : sw { }
link s[0..1].ib -- l[0].p[0..1]
link t[0..1].ib -- l[1].p[0..1]
link l[0].up -- l[1].up
fabric f : fat_tree { endpoints s[*].ib, t[*].ib }
EOF
{
	cat "$tmp/a2a-uneven.rack"
	echo 'switch x : nvs { }'
	echo 'fabric nv : nvlink { endpoints s[0].nv, t[0].nv; members x }'
} >"$tmp/a2a-uneven-nvl.rack"
G=400000000000
gpus12='"n[0]": 4, "n[1]": 4, "n[2]": 4, "n[3]": 4, "n[4]": 4, "n[5]": 4,
	"n[6]": 4, "n[7]": 4, "n[8]": 4, "n[9]": 4, "n[10]": 4, "n[11]": 4'
gpus4='"s[0]": 8, "s[1]": 8, "t[0]": 2, "t[1]": 2'
speeds="\"ib\": $G, \"p\": $G, \"up\": 100000000000,
	\"nv\": 800000000000, \"q\": 800000000000"
while read -r shape other extra; do
	spec="{\"fabric\": \"f\", \"other\": [${other#-}],
	\"other_bps\": $extra, \"port_bps\": {$speeds}, \"gpus\": {"
	if [ "$shape" = planes ]; then
		spec="$spec$gpus12}}"
	else
		spec="$spec$gpus4}}"
	fi
	if ! run "a2a-$shape" "$tmp/a2a-$shape.rack" -O report,cabling; then
		continue
	fi
	python3 "$chk" alltoall "$tmp/a2a-$shape/report.json" \
		"$tmp/a2a-$shape/cabling.csv" "$spec" >"$tmp/a2a.res" \
		2>"$tmp/a2a.py" ||
		echo "FAIL	alltoall	$(tail -1 "$tmp/a2a.py")" >>"$tmp/a2a.res"
	py_results "capacity/alltoall-$shape" "$tmp/a2a.res"
done <<'EOF'
planes	-	0
uneven	-	0
uneven-nvl	"nv"	800000000000
EOF
finish
