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
want = {
    "gpus": 1016,
    "bf16": 1005332 * T, "fp8": 2010664 * T,
    "hbm": 81280 * 10**9, "hbm_bw": 27228800 * 10**9,
    "domain": 8, "domains": 127, "nvdir": 3600 * 10**9,
    "out": 400 * 10**9, "ratio": "9:1",
    "train": 5080 * 10**9, "infer": 40640 * 10**9, "infer_dom": 320 * 10**9,
}
got = {
    "gpus": c["gpus"],
    "bf16": c["flops_dense_total"]["bf16"], "fp8": c["flops_dense_total"]["fp8"],
    "hbm": c["hbm_bytes_total"], "hbm_bw": c["hbm_bps_total"],
    "domain": c["nvlink_domain_gpus"], "domains": c["nvlink_domains"],
    "nvdir": c["nvlink_bps_per_gpu_per_direction"],
    "out": c["scaleout_bps_per_gpu"], "ratio": c["nvlink_to_scaleout"],
    "train": c["model_params"]["training_max"],
    "infer": c["model_params"]["inference_max"],
    "infer_dom": c["model_params"]["inference_max_per_domain"],
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
co = c["collectives"]
S = co["message_bytes"]

def ceil(x):
    return -((-x.numerator) // x.denominator)

def ring(p, b, a):
    if p <= 1: return 0
    t = ceil(F(2 * (p - 1) * 8 * S * 10**9, p * b))
    return t + (2 * (p - 1) * a if a else 0)

def tree(p, b, a):
    if p <= 1: return 0
    depth = (p - 1).bit_length()
    t = ceil(F(2 * 8 * S * 10**9, b))
    return t + (2 * depth * a if a else 0)

bad = []
p, b = c["nvlink_domain_gpus"], c["nvlink_bps_per_gpu_per_direction"]
a = co["nvlink_latency_ns"]
if b:
    if co["nvlink_allreduce_ring_ns"] != ring(p, b, a): bad.append("nv ring")
    if co["nvlink_allreduce_tree_ns"] != tree(p, b, a): bad.append("nv tree")
n, b = c["scaleout_gpus"], c["scaleout_bps_per_gpu"]
a = co["fabric_latency_ns"]
if b:
    if co["fabric_allreduce_ring_ns"] != ring(n, b, a): bad.append("net ring")
    if co["fabric_allreduce_tree_ns"] != tree(n, b, a): bad.append("net tree")
    fab = [x for x in r["fabrics"] if x["name"] == c["scaleout_fabric"]][0]
    x = fab["bisection_upper_bps"]
    inj = ceil(F((n - 1) * 8 * S * 10**9, n * b)) if n > 1 else 0
    cut = ceil(F((n // 2) * (n - n // 2) * 8 * S * 10**9, n * x)) if x and n > 1 else 0
    if co["alltoall_ns"] != max(inj, cut): bad.append("alltoall %d %d %d" % (co["alltoall_ns"], inj, cut))
    if (co["fabric_basis"] == "estimate") != (a is not None): bad.append("basis")
pw = c["power"]
if pw["pue"] is not None:
    pue = F(pw["pue"].rstrip("%")) / 100
    fac = F(str(pw["it_w"])) * pue
    if F(str(pw["facility_w"])) != fac: bad.append("facility")
    if F(str(pw["energy_per_year_wh"])) != fac * 8760: bad.append("energy")
# the per-model sums are the totals
for k in ("fp64", "tf32", "bf16", "fp8", "fp4"):
    vals = [m["flops_dense"][k] for m in c["gpu_models"]]
    want = sum(m["count"] * m["flops_dense"][k] for m in c["gpu_models"]) \
        if vals and None not in vals else None
    if c["flops_dense_total"][k] != want: bad.append("total " + k)
print(bad or "ok", co)
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
co, pw = c["collectives"], c["power"]
ok = (co["fabric_latency_ns"] == 5000 and co["message_bytes"] == 256 << 20
      and co["fabric_basis"] == "estimate" and pw["pue"] == "130%")
sys.exit(0 if ok else 1)' "$tmp/cf-sp-lat/report.json" 2>/dev/null; then
	pass capacity/design-settings
else
	fail capacity/design-settings "latency, message_size or pue not read"
fi
finish
