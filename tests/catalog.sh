#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The catalog: `rackc parts` and the completeness of the standard library.
#
#   complete/PART   every std part carries the figures its class needs
#                   (tests/catalog_complete.py holds the definition), marks
#                   the ones no source gives `unknown "FIGURE: reason"`, or
#                   is a known gap of tests/catalog/gaps.txt (a list that
#                   must only shrink)
#   checker/*       the checker fails a part that lacks a figure, naming
#                   it, accepts an unknown mark, refuses a mark without a
#                   reason or on a figure that is set, and a stale gap
#   catalog/*       the 2026 parts against their vendors' figures (B300,
#                   GB300 NVL72, MI355X, MI325X and the MI355X pod,
#                   Tomahawk 5 and out-of-band switches, the storage
#                   appliance, Intel Gaudi 3 and its server; the Lenovo
#                   SR685a V3 and APC AP8886 device types against G1)
#   nccl/*          the NCCL files std parts give: H200 NVLink rows, and
#                   none for a Gaudi server (HCCL drives it)
#   parts/*         `rackc parts`: pattern matching (substring and glob,
#                   on name, vendor and model), --format=json, --show with
#                   each figure's file, line and source tag, --import, an
#                   unknown name with a suggestion, exit statuses

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"

py_with json
if [ -z "$py" ]; then
	skip catalog "python3 not installed"
	finish
fi

# ---- completeness of std ----
if rk_run "$tmp/all" parts --format=json && [ "$rc" = 0 ]; then
	"$py" tests/catalog_complete.py "$tmp/all.out" tests/catalog/gaps.txt \
		>"$tmp/complete.txt"
	py_results catalog "$tmp/complete.txt"
else
	fail catalog/complete "rackc parts --format=json: status $rc"
	show "$tmp/all.err"
fi

# ---- the checker can fail ----
mkdir "$tmp/inc"
cat >"$tmp/inc/testcat.rack" <<'EOF'
part t_gpu_base : gpu {
	hbm 80GB
	hbm_bw 3TB/s
	flops_fp64 1TFLOP/s
	flops_tf32 1TFLOP/s
	flops_bf16 1TFLOP/s
	flops_fp8 1TFLOP/s
	nvlinks 18
	pcie_gen 5
	pcie_width 16
}
# a family base: held to the definition through the parts derived from it
part t_gpu_short : t_gpu_base { }
part t_gpu_marked : t_gpu_base {
	unknown "nvlink_bw: no public figure (test)"
}
part t_gpu_noreason : t_gpu_base {
	unknown "nvlink_bw:"
}
part t_gpu_contra : t_gpu_base {
	nvlink_bw 450GB/s
	unknown "nvlink_bw: yet it is set"
}
part t_rack_ok : rack {
	vendor "Example"
	model "Frame 42"
	height 42U
	width 600mm
	depth 1200mm
	max_load 1000kg
}
EOF
printf 't_rack_ok max_load\nno_such_part depth\n' >"$tmp/gaps.txt"
if rk_run "$tmp/t" parts -I "$tmp/inc" --import=testcat --format=json \
	't_*' && [ "$rc" = 0 ]; then
	"$py" tests/catalog_complete.py "$tmp/t.out" "$tmp/gaps.txt" \
		>"$tmp/t.txt"
	check_line() { # NAME WORD PATTERN
		if grep "^$2	complete/$1	" "$tmp/t.txt" | grep -q -- "$3"; then
			pass "checker/$1"
		else
			fail "checker/$1" "want $2 with '$3'"
			show "$tmp/t.txt"
		fi
	}
	check_line t_gpu_short FAIL "part 't_gpu_short' (gpu): lacks nvlink_bw"
	check_line t_gpu_base PASS ""
	check_line t_gpu_marked PASS ""
	check_line t_gpu_noreason FAIL "gives no reason"
	check_line t_gpu_contra FAIL "nvlink_bw is marked unknown but is set"
	check_line t_rack_ok FAIL "max_load is in the gap list but is now set"
	if grep -q "^FAIL	gaps/no_such_part/depth	.*no such part" \
		"$tmp/t.txt"; then
		pass checker/stale-gap
	else
		fail checker/stale-gap "an entry naming no part is not refused"
		show "$tmp/t.txt"
	fi
else
	fail checker "rackc parts --import: status $rc"
	show "$tmp/t.err"
fi

# ---- figures the back ends read ----
# H200 SXM's 18 NVLink4 links reach the NCCL files of the DGX H200 and the
# Supermicro HGX H200 server: one nvlink row of count 18 per GPU (8 GPUs)
if rk_run "$tmp/nccl" --force -O nccl -o "$tmp/nccl.d" tests/std/exercise.rack &&
	[ "$rc" -le 1 ]; then
	for f in dgx_h200 sys_821ge_tnhr_8psu; do
		n=$(grep -c '<nvlink .*count="18"' "$tmp/nccl.d/nccl/$f.xml" || true)
		if [ "$n" = 8 ]; then
			pass "nccl/$f"
		else
			fail "nccl/$f" "$n nvlink rows of count 18, want 8"
		fi
	done
else
	fail nccl "rackc -O nccl: status $rc"
	show "$tmp/nccl.err"
fi

# ---- the 2026 parts against their vendors' system tables ----
# NVIDIA prints the HGX B300 and GB300 NVL72 figures for the whole board
# or rack, tensor figures with 2:4 sparsity (FP4 also dense); std stores
# one GPU, dense.  Eight b300 must give the HGX B300 table (FP4 105 PF
# dense, FP8 72 / BF16 36 / TF32 18 PF sparse, FP64 10 TF, HBM "up to 2.3
# TB"), and the 72 GPUs of examples/gb300-nvl72.rack the GB300 NVL72
# table (FP4 1,080 PF dense, FP8 720 / BF16 360 / TF32 180 PF sparse, HBM
# 576 TB/s and "up to 20 TB" of the 288 GB x 72 = 20.7 TB physical), in
# a rack of 18 trays, 9 switch trays and 8 shelves that stays within the
# enterprise RA's 142 kW (doc/sources.md: NVA, S-B300).
if rk_run "$tmp/b300" parts --format=json b300 && [ "$rc" = 0 ] &&
	rk_run "$tmp/gb3" -o "$tmp/gb3.d" -O report examples/gb300-nvl72.rack &&
	[ "$rc" = 0 ]; then
	if "$py" - "$tmp/b300.out" "$tmp/gb3.d/report.json" >"$tmp/gb3.txt" \
		2>&1 <<'EOF2'; then
import json, re, sys
P = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
def val(s):
    m = re.match(r"([0-9.]+)([kMGTP]?)", s)
    return float(m.group(1)) * P[m.group(2)]
def near(a, b):
    assert abs(a - b) <= 1e-9 * abs(b), (a, b)
f = json.load(open(sys.argv[1]))[0]["figures"]
near(8 * val(f["flops_fp4"]), 105e15)
near(8 * val(f["flops_fp8"]), 72e15 / 2)
near(8 * val(f["flops_bf16"]), 36e15 / 2)
near(8 * val(f["flops_tf32"]), 18e15 / 2)
near(8 * val(f["flops_fp64"]), 10e12)
assert 2.2e12 < 8 * val(f["hbm"]) <= 2.31e12, f["hbm"]
r = json.load(open(sys.argv[2]))
c = r["capacity"]
assert c["gpus"] == 72 and r["totals"]["backplane_links"] == 72 * 18
t = c["flops_dense_total"]
near(t["fp4"], 1080e15)
near(t["fp8"], 720e15 / 2)
near(t["bf16"], 360e15 / 2)
near(t["tf32"], 180e15 / 2)
near(c["hbm_bps_total"], 576e12 * 8)
assert 20e12 <= c["hbm_bytes_total"] <= 72 * 288e9, c["hbm_bytes_total"]
rack = [k for k in r["racks"] if k["name"] == "dc.r.nvl72"][0]
assert rack["devices"] == 18 + 9 + 8, rack["devices"]
assert rack["power_max_w"] <= 142000, rack["power_max_w"]
EOF2
		pass catalog/gb300-tables
	else
		fail catalog/gb300-tables "std's B300 parts disagree with the vendor tables"
		show "$tmp/gb3.txt"
	fi
else
	fail catalog/gb300-tables "rackc: status $rc"
	show "$tmp/gb3.err"
fi

# examples/gb300-nvl72-row.rack: four of the rack above.  Its comments
# derive the figures by hand; here they are worked out again from the
# one-rack report: four times its GPUs, FLOP/s and HBM, each rack the one
# rack's power, the loop's heat their sum and its flow the closed form
# heat / (c_p dT rho) of PG25 (3,900 J/(kg K), 1.020 kg/L, 10 K), and the
# fabrics' bisections from their port counts: 288 XDR ports of 800 Gb/s
# (half of them) and 72 BlueField-3 of 2 x 400 Gb/s (half of them).
if [ -f "$tmp/gb3.d/report.json" ] &&
	rk_run "$tmp/gb3row" -o "$tmp/gb3row.d" -O report \
		examples/gb300-nvl72-row.rack && [ "$rc" = 0 ]; then
	if "$py" - "$tmp/gb3.d/report.json" "$tmp/gb3row.d/report.json" \
		>"$tmp/gb3row.txt" 2>&1 <<'EOF2'; then
import json, sys
one = json.load(open(sys.argv[1]))
row = json.load(open(sys.argv[2]))
c1, c4 = one["capacity"], row["capacity"]
assert c4["gpus"] == 4 * c1["gpus"] == 288, c4["gpus"]
for k, v in c1["flops_dense_total"].items():
    assert c4["flops_dense_total"][k] == 4 * v, k
assert c4["hbm_bytes_total"] == 4 * c1["hbm_bytes_total"] == 80352 * 10**9
p1 = [k for k in one["racks"] if k["name"] == "dc.r.nvl72"][0]["power_max_w"]
racks = [k for k in row["racks"] if "nvl72" in k["name"]]
assert len(racks) == 4 and all(k["power_max_w"] == p1 == 127080 for k in racks)
loop = row["loops"][0]
assert loop["heat_w"] == 4 * p1, loop["heat_w"]
# mL/min = W / (J/(kg K) x K) / (kg/L) x 60,000, rounded
flow = loop["heat_w"] * 60000 * 1000 / (3900 * 10 * 1020)
assert abs(loop["flow_ml_per_min"] - flow) < 1, (loop["flow_ml_per_min"], flow)
fab = {f["name"]: f for f in row["fabrics"]}
assert fab["compute"]["switches"] == 10 and fab["storage"]["switches"] == 6
assert fab["compute"]["bisection_bps"] == 288 // 2 * 800 * 10**9
assert fab["storage"]["bisection_bps"] == 72 // 2 * 2 * 400 * 10**9
EOF2
		pass catalog/gb300-row
	else
		fail catalog/gb300-row "the row is not four of the GB300 NVL72 rack"
		show "$tmp/gb3row.txt"
	fi
else
	fail catalog/gb300-row "rackc: status $rc"
	show "$tmp/gb3row.err"
fi

# ---- AMD Instinct MI355X and MI325X ----
# MI355X's dense peaks from the chip's public inputs (doc/sources.md:
# S-MI355): 256 CUs (8 XCDs of 32) at 2.4 GHz, 8,192 FP8 FLOP a clock a CU
# (ISSCC 2026), BF16 at half and FP4 at twice the FP8 rate, FP64 at 128
# FLOP a clock a CU (AMD's 78.6 TF); 288 GB at 8 TB/s; 7 Infinity Fabric
# links of 153.6 GB/s bidirectional.  MI325X is the MI300X's compute with
# 256 GB at 6 TB/s (S-MI325).  examples/mi355x-pod.rack is 16 nodes of 8
# such GPUs, four nodes a rack at 8 x 1,400 W + 2.5 kW a node.
if rk_run "$tmp/mi" parts --format=json 'mi3*' && [ "$rc" = 0 ] &&
	rk_run "$tmp/pod" -o "$tmp/pod.d" -O report examples/mi355x-pod.rack &&
	[ "$rc" = 0 ]; then
	if "$py" - "$tmp/mi.out" "$tmp/pod.d/report.json" >"$tmp/pod.txt" \
		2>&1 <<'EOF2'; then
import json, re, sys
P = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
def val(s):
    m = re.match(r"([0-9.]+)([kMGTP]?)", s)
    return float(m.group(1)) * P[m.group(2)]
def near(a, b, rel=1e-9):
    assert abs(a - b) <= rel * abs(b), (a, b)
by = {p["name"]: p["figures"] for p in json.load(open(sys.argv[1]))}
m = by["mi355x"]
cus, clk = 8 * 32, 2.4e9
fp8 = 8192 * cus * clk
near(val(m["flops_fp8"]), fp8, 1e-5)
near(val(m["flops_bf16"]), fp8 / 2, 1e-5)
near(val(m["flops_fp4"]), fp8 * 2, 1e-5)
near(val(m["flops_fp64"]), 128 * cus * clk, 1e-3)
assert "flops_tf32" not in m, m
near(val(m["hbm"]), 288e9)
# rates print in bits a second
near(val(m["hbm_bw"]), 8e12 * 8)
assert m["nvlinks"] == "7", m["nvlinks"]
near(val(m["nvlink_bw"]), 7 * 153.6e9 / 2 * 8)
near(val(m["tdp"]), 1400)
q, o = by["mi325x"], by["mi300x"]
for k in ("flops_fp64", "flops_tf32", "flops_bf16", "flops_fp8"):
    assert q[k] == o[k], (k, q[k], o[k])
near(val(q["hbm"]), 256e9)
near(val(q["hbm_bw"]), 6e12 * 8)
r = json.load(open(sys.argv[2]))
c = r["capacity"]
assert c["gpus"] == 16 * 8, c["gpus"]
t = c["flops_dense_total"]
near(t["fp8"], 128 * val(m["flops_fp8"]))
near(t["fp4"], 128 * val(m["flops_fp4"]))
near(c["hbm_bytes_total"], 128 * 288e9)
near(c["hbm_bps_total"], 128 * 8e12 * 8)
for k in r["racks"]:
    if k["name"].startswith("lab.r.cr["):
        assert k["power_max_w"] == 4 * (8 * 1400 + 2500), k
assert r["totals"]["at_least"]["power_max_w"] == 16 * (8 * 1400 + 2500)
EOF2
		pass catalog/mi355x-pod
	else
		fail catalog/mi355x-pod "std's MI355X/MI325X parts or the pod disagree with the public figures"
		show "$tmp/pod.txt"
	fi
else
	fail catalog/mi355x-pod "rackc: status $rc"
	show "$tmp/pod.err"
fi

# ---- Tomahawk 5 switches ----
# Broadcom's BCM78900 switches 51.2 Tb/s over 512 lanes of 100G; a
# Tomahawk 5 switch part's 800G data ports must add up to exactly that,
# each with a faceplate name (doc/sources.md: S-TH5, ARI, G1).
if rk_run "$tmp/th5" parts --format=json && [ "$rc" = 0 ]; then
	if "$py" - "$tmp/th5.out" >"$tmp/th5.txt" 2>&1 <<'EOF2'; then
import json, re, sys
by = {p["name"]: p for p in json.load(open(sys.argv[1]))}
for name in ("edgecore_as9817_64o", "arista_7060x6_64pe"):
    p = by[name]
    data = [q for q in p["port_list"] if q["speed"] == "800Gb/s"]
    assert len(data) * 800e9 == 51.2e12, (name, len(data))
    assert all(q["form"] == "OSFP" and q["faceplate"] for q in data), name
    assert p["class"] == "switch" and p["part_number"], p
EOF2
		pass catalog/tomahawk5
	else
		fail catalog/tomahawk5 "a Tomahawk 5 part's 800G ports do not make 51.2 Tb/s"
		show "$tmp/th5.txt"
	fi
else
	fail catalog/tomahawk5 "rackc parts: status $rc"
fi

# ---- out-of-band switches ----
# One 48 x 1000BASE-T management switch per major vendor (NVIDIA SN2201,
# Arista DCS-7010TX-48, Dell N3248TE-ON, Cisco Nexus 9348GC-FXP, Juniper
# EX4400-48T).  The others name their ports as G1's YAML files do
# (doc/sources.md): "Ethernet1" .. "Ethernet48" and 4 x 25G SFP28
# "Ethernet49" .. "Ethernet52" on the Arista; "Ethernet 1/1/1" ..
# "Ethernet 1/1/48", 4 x 10G "1/1/49-52" and 2 x 100G QSFP28 "1/1/53-54"
# on the Dell; "Ethernet1/1" .. "1/48", 4 x 25G "1/49-52", 2 x 100G
# "1/53-54" on the Cisco; "ge-0/0/0" .. "ge-0/0/47" and 2 x 100G
# "et-0/1/0-1" on the Juniper, whose 13.01 lb are 5.901 kg.
if rk_run "$tmp/oob" parts --format=json && [ "$rc" = 0 ]; then
	if "$py" - "$tmp/oob.out" >"$tmp/oob.txt" 2>&1 <<'EOF2'; then
import json, sys
by = {p["name"]: p for p in json.load(open(sys.argv[1]))}
def face(q):
    # the pattern's expansion (doc/language.md 9.2): {n} is i + 1, {i} i
    i = int(q["name"].split("[")[1][:-1]) if "[" in q["name"] else 0
    return q["faceplate"].replace("{n}", str(i + 1)).replace("{i}", str(i))
def rj45_1g(p):
    return [q for q in p["port_list"]
            if q["form"] == "RJ45" and q["speed"] == "1Gb/s"]
want = {
    "arista_7010tx_48": ("Arista",
        ["Ethernet%d" % i for i in range(1, 49)] + ["Management1"],
        [("SFP28", "25Gb/s", "Ethernet%d" % i) for i in range(49, 53)]),
    "dell_n3248te_on": ("Dell",
        ["Ethernet 1/1/%d" % i for i in range(1, 49)] + ["mgmt 1/1/1"],
        [("SFP28", "10Gb/s", "Ethernet 1/1/%d" % i) for i in range(49, 53)]
        + [("QSFP28", "100Gb/s", "Ethernet 1/1/%d" % i) for i in (53, 54)]),
    "cisco_n9k_c9348gc_fxp": ("Cisco",
        ["Ethernet1/%d" % i for i in range(1, 49)] + ["mgmt0"],
        [("SFP28", "25Gb/s", "Ethernet1/%d" % i) for i in range(49, 53)]
        + [("QSFP28", "100Gb/s", "Ethernet1/%d" % i) for i in (53, 54)]),
    "juniper_ex4400_48t": ("Juniper",
        ["ge-0/0/%d" % i for i in range(48)] + ["me0"],
        [("QSFP28", "100Gb/s", "et-0/1/%d" % i) for i in (0, 1)]),
}
for name, (vendor, rj45, up) in want.items():
    p = by[name]
    assert p["class"] == "switch" and p["vendor"] == vendor, p["vendor"]
    assert p["part_number"] and p["height"] == "1U", name
    assert sorted(face(q) for q in rj45_1g(p)) == sorted(rj45), name
    got = sorted((q["form"], q["speed"], face(q))
                 for q in p["port_list"] if q["form"] != "RJ45")
    assert got == sorted(up), (name, got)
    f = p["figures"]
    assert f["psus"] == "2", (name, f)
    # G1 gives the inlets of the Arista and the Dell only
    assert f.get("inlet") == ("C14" if vendor in ("Arista", "Dell")
                              else None), (name, f)
# Juniper's 13.01 lb
assert by["juniper_ex4400_48t"]["figures"]["weight"] in ("5.901kg", "5901g")
# NVIDIA's: 48 x 1G RJ45 besides its management port
assert len(rj45_1g(by["sn2201"])) == 49
EOF2
		pass catalog/oob-switches
	else
		fail catalog/oob-switches "an out-of-band switch disagrees with its vendor's port list"
		show "$tmp/oob.txt"
	fi
else
	fail catalog/oob-switches "rackc parts: status $rc"
fi

# ---- storage appliance ----
# NetApp AFF A90 (G1): two controllers, each with dual-port ConnectX-6 Dx
# in slots 1 and 7 (100GbE QSFP28: e1a, e1b, e7a, e7b), dual-port
# ConnectX-7 in slots 6 and 11 (400GbE QSFP112: e6a, e6b, e11a, e11b) and
# the e0M management port: 2 x (4 x 100 + 4 x 400) = 4,000 Gb/s of data
# ports in all; 4U, four supplies.
if rk_run "$tmp/sto" parts --format=json netapp && [ "$rc" = 0 ]; then
	if "$py" - "$tmp/sto.out" >"$tmp/sto.txt" 2>&1 <<'EOF2'; then
import json, sys
p = {q["name"]: q for q in json.load(open(sys.argv[1]))}["netapp_aff_a90"]
ctl = ([("QSFP28", "100Gb/s", f) for f in ("e1a", "e1b", "e7a", "e7b")]
       + [("QSFP112", "400Gb/s", f) for f in ("e6a", "e6b", "e11a", "e11b")]
       + [("RJ45", "1Gb/s", "e0M"), ("RJ45", None, "console")])
got = sorted(((q["form"], q["speed"], q["faceplate"]) for q in p["port_list"]),
             key=str)
assert got == sorted(ctl * 2, key=str), got
gbps = {"100Gb/s": 100, "400Gb/s": 400}
assert sum(gbps.get(q["speed"], 0) for q in p["port_list"]) == 4000
assert p["height"] == "4U" and p["figures"]["psus"] == "4", p
EOF2
		pass catalog/storage
	else
		fail catalog/storage "the AFF A90 disagrees with G1's port list"
		show "$tmp/sto.txt"
	fi
else
	fail catalog/storage "rackc parts: status $rc"
fi

# ---- Intel Gaudi 3 ----
# Intel's figures (doc/sources.md: HC-G3, HAB-NET): BF16 and FP8 matrix
# 1,835 TF each, 128 GB of HBM2e at 3.67 TB/s, PCIe Gen5 x16, a 900 W
# air-cooled OAM.  21 of its 24 x 200 GbE ports scale up, 3 to each of
# the 7 other Gaudis of the box: 21 x 200 Gb/s = 4.2 Tb/s (525 GB/s) a
# direction.  The other 3 of each Gaudi leave the 8-Gaudi box as OSFP
# links of 4 x 200 Gb/s: 8 x 3 x 200 Gb/s = 4.8 Tb/s (HAB-NET's 600
# GB/s a box) in 6 cages of 800 Gb/s.  Intel gives no FP64 or TF32
# figure: both marked unknown, never zero.
if rk_run "$tmp/g3" parts --format=json &&
	[ "$rc" = 0 ]; then
	if "$py" - "$tmp/g3.out" >"$tmp/g3.txt" 2>&1 <<'EOF2'; then
import json, re, sys
P = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
def val(s):
    m = re.match(r"([0-9.]+)([kMGTP]?)", s)
    return float(m.group(1)) * P[m.group(2)]
def near(a, b):
    assert abs(a - b) <= 1e-9 * abs(b), (a, b)
by = {p["name"]: p for p in json.load(open(sys.argv[1]))}
g = by["gaudi3"]["figures"]
near(val(g["flops_bf16"]), 1835e12)
near(val(g["flops_fp8"]), 1835e12)
near(val(g["hbm"]), 128e9)
near(val(g["hbm_bw"]), 3.67e12 * 8)          # rates print in bits a second
assert g["nvlinks"] == "21", g["nvlinks"]
near(val(g["nvlink_bw"]), 21 * 200e9)
assert g["pcie_gen"] == "5" and g["pcie_width"] == "16", g
near(val(g["tdp"]), 900)
assert "flops_fp64" not in g and "flops_tf32" not in g, g
un = " ".join(by["gaudi3"]["unknown"])
assert "flops_fp64:" in un and "flops_tf32:" in un, un
s = by["sys_822ga_ngr3"]
so = [q for q in s["port_list"] if q["name"].startswith("so[")]
assert len(so) == 6 and all(q["form"] == "OSFP" for q in so), so
near(sum(val(q["speed"]) for q in so), 8 * 3 * 200e9)
EOF2
		pass catalog/gaudi3
	else
		fail catalog/gaudi3 "std's Gaudi 3 parts disagree with Intel's figures"
		show "$tmp/g3.txt"
	fi
else
	fail catalog/gaudi3 "rackc parts: status $rc"
fi

# HCCL, not NCCL, drives Gaudi: -O nccl writes no topology file for a
# Gaudi server, lists no host and says why (it was an error before: a GPU
# without a CUDA `sm`)
cat >"$tmp/g3d.rack" <<'EOF'
import "std/intel"
node g : sys_822ga_ngr3 {}
EOF
if rk_run "$tmp/g3n" --force -O nccl -o "$tmp/g3n.d" "$tmp/g3d.rack" &&
	[ "$rc" -le 1 ] && ! grep -q 'error:' "$tmp/g3n.err" &&
	grep -q 'warning: .*HCCL.*\[nccl\]' "$tmp/g3n.err" &&
	[ "$(cat "$tmp/g3n.d/nccl/hosts.csv")" = "host,file" ] &&
	! ls "$tmp/g3n.d/nccl/"*.xml >/dev/null 2>&1; then
	pass nccl/gaudi3
else
	fail nccl/gaudi3 "status $rc, or an error, or an NCCL file for Gaudi"
	show "$tmp/g3n.err"
fi

# ---- Lenovo ThinkSystem SR685a V3 and APC AP8886 against G1 ----
# The device types `-O netbox` writes for them carry what the NetBox
# device-type library's own files say (G1: ThinkSystem-SR685a-v3.yaml:
# part number 7DHCCTO1WW, 8U, full depth, 109.4 kg, PSU 01-08 of type
# iec-60320-c20; AP8886.yaml: 30 x iec-60320-c13 and 12 x
# iec-60320-c19 outlets).
cat >"$tmp/nb.rack" <<'EOF'
import "std/lenovo"
import "std/facility"
site s {
	feed A { voltage 415V; current 63A; phases 3 }
	row r { rack k : rack_48u { pdu p : apc_ap8886 { feed A } } }
}
node n : sr685a_v3 {
	rack s.r.k
	at 2U
	power psu[0..7] -> p
	waive "power-figure-unknown", "no maximum input power in G1"
}
EOF
if rk_run "$tmp/nb" --force -O netbox -o "$tmp/nb.d" "$tmp/nb.rack" &&
	[ "$rc" -le 1 ]; then
	if "$py" - "$tmp/nb.d/netbox/device-types" >"$tmp/nb.txt" 2>&1 <<'EOF2'; then
import glob, os, sys
def read(vendor):
    (f,) = glob.glob(os.path.join(sys.argv[1], vendor, "*.yaml"))
    return open(f).read().split("\n")
def field(lines, key):
    (v,) = [l.split(": ", 1)[1] for l in lines if l.startswith(key + ": ")]
    return v.strip('"')
def types(lines, section):
    out, on = [], False
    for l in lines:
        if not l.startswith(" "):
            on = l == section + ":"
        elif on and l.startswith("    type: "):
            out.append(l.split(": ", 1)[1].strip('"'))
    return out
sr = read("Lenovo")
assert field(sr, "part_number") == "7DHCCTO1WW", sr
assert field(sr, "u_height") == "8" and field(sr, "is_full_depth") == "true"
assert float(field(sr, "weight")) == 109.4 and field(sr, "weight_unit") == "kg"
assert types(sr, "power-ports") == ["iec-60320-c20"] * 8, types(sr, "power-ports")
apc = read("APC")
t = types(apc, "power-outlets")
assert t.count("iec-60320-c13") == 30 and t.count("iec-60320-c19") == 12, t
assert len(t) == 42, t
EOF2
		pass catalog/netbox-g1
	else
		fail catalog/netbox-g1 "a device type disagrees with G1"
		show "$tmp/nb.txt"
	fi
else
	fail catalog/netbox-g1 "rackc -O netbox: status $rc"
	show "$tmp/nb.err"
fi

# ---- rackc parts ----
# names (first column) of a text listing
names() { awk 'NR > 1 { print $1 }' "$1" | sort; }

# substring, case-insensitive, on vendor: exactly the two Vertiv CDUs
rk_run "$tmp/v" parts vertiv || true
if [ "$rc" = 0 ] && [ "$(names "$tmp/v.out" | tr '\n' ' ')" = \
	"vertiv_xdu1350 vertiv_xdu450 " ]; then
	pass parts/vendor
else
	fail parts/vendor "status $rc"
	show "$tmp/v.out"
fi

# on model: qm9790's model is its orderable name, MQM9790-NS2F
rk_run "$tmp/m" parts 'mqm9790-ns2f' || true
if [ "$rc" = 0 ] && [ "$(names "$tmp/m.out")" = qm9790 ]; then
	pass parts/model
else
	fail parts/model "status $rc"
	show "$tmp/m.out"
fi

# glob on the name: every part whose name, vendor or model matches
# mcp4*; the names found by grep over the catalog's part lines
rk_run "$tmp/g" parts 'mcp4*' || true
want=$(sed -n 's/^part \(mcp4[a-z0-9_]*\) :.*/\1/p' std/*.rack | sort)
if [ "$rc" = 0 ] && [ "$(names "$tmp/g.out")" = "$want" ] &&
	[ -n "$want" ]; then
	pass parts/glob
else
	fail parts/glob "status $rc; want: $want"
	show "$tmp/g.out"
fi

# the whole catalog: one line per part line of std/*.rack
rk_run "$tmp/a" parts || true
want=$(grep -c '^part ' std/*.rack | awk -F: '{ n += $2 } END { print n }')
if [ "$rc" = 0 ] && [ "$(names "$tmp/a.out" | wc -l)" -eq "$want" ]; then
	pass parts/all
else
	fail parts/all "status $rc; want $want parts"
fi

# JSON shape: a list of objects with the documented keys
if "$py" - "$tmp/all.out" >"$tmp/json.txt" 2>&1 <<'EOF'; then
import json, sys
parts = json.load(open(sys.argv[1]))
keys = {"name", "class", "base", "file", "line", "vendor", "model", "height",
        "power_max", "power_max_unknown", "power_max_reason", "ports",
        "part_number", "estimated", "unknown", "figures", "port_list"}
assert isinstance(parts, list) and parts
for p in parts:
    assert set(p) == keys, (p["name"], sorted(set(p) ^ keys))
    assert isinstance(p["estimated"], list) and isinstance(p["unknown"], list)
    for port in p["port_list"]:
        assert set(port) == {"name", "form", "speed", "faceplate"}
by = {p["name"]: p for p in parts}
q = by["qm9700"]
assert q["class"] == "switch" and q["height"] == "1U", q
assert q["part_number"] == "MQM9700-NS2F", q
# 32 twin-port OSFP cages of 2 x 400G, and the management ports
assert q["ports"].startswith("64x400Gb/s OSFP"), q["ports"]
assert by["h200_sxm"]["figures"]["nvlinks"] == "18"
EOF
	pass parts/json
else
	fail parts/json
	show "$tmp/json.txt"
fi

# --show: each figure with its file, line and the tag of its comment
rk_run "$tmp/s" parts --show h200_sxm || true
line=$(awk '/^part h200_sxm /{ p = 1 } p && /^}/ { exit }
	p && /^\tnvlinks /{ print NR; exit }' \
	std/nvidia.rack)
if [ "$rc" = 0 ] && [ -n "$line" ] &&
	grep -q "^  nvlinks  *18  *std/nvidia.rack:$line  # S-MLC" "$tmp/s.out"; then
	pass parts/show
else
	fail parts/show "status $rc; want nvlinks at line '$line'"
	show "$tmp/s.out"
fi
# an inherited figure names the part it comes from
rk_run "$tmp/si" parts --show dgx_h200 || true
if [ "$rc" = 0 ] && grep -q "^  height .*(from dgx_hopper_chassis)" \
	"$tmp/si.out"; then
	pass parts/show-inherited
else
	fail parts/show-inherited "status $rc"
	show "$tmp/si.out"
fi
# an unknown mark shows in the listing and in --show
rk_run "$tmp/u" parts -I "$tmp/inc" --import=testcat t_gpu_marked || true
if [ "$rc" = 0 ] && grep -q "^t_gpu_marked .* unknown$" "$tmp/u.out"; then
	pass parts/unknown-flag
else
	fail parts/unknown-flag "status $rc"
	show "$tmp/u.out"
fi

# an unknown power_max reads "unknown", never "-" (which is for a part that
# draws no power, a PDU), and in JSON null with the part's reason, if any
cat >"$tmp/inc/pmcat.rack" <<'EOF'
part t_pm_marked : switch { height 1U; unknown "power_max: only a typical figure is published" }
part t_pm_derived : t_pm_marked { model "T2" }
part t_pm_bare : server { height 1U }
part t_pm_pdu : pdu { capacity 10kW }
part t_pm_known : server { height 1U; power_max 1kW }
EOF
rk_run "$tmp/pm" parts -I "$tmp/inc" --import=pmcat 't_pm_*' || true
pm_col() { # NAME: the POWER_MAX column of part NAME
	awk -v n="$1" '$1 == n { print $6 }' "$tmp/pm.out"
}
if [ "$rc" = 0 ] && [ "$(pm_col t_pm_marked)" = unknown ] &&
	[ "$(pm_col t_pm_derived)" = unknown ] &&
	[ "$(pm_col t_pm_bare)" = unknown ] && [ "$(pm_col t_pm_pdu)" = - ] &&
	[ "$(pm_col t_pm_known)" = 1kW ]; then
	pass parts/power-max-unknown
else
	fail parts/power-max-unknown "status $rc"
	show "$tmp/pm.out"
fi
rk_run "$tmp/pj" parts -I "$tmp/inc" --import=pmcat --format=json 't_pm_*' ||
	true
if [ "$rc" = 0 ] && "$py" - "$tmp/pj.out" >"$tmp/pj.txt" 2>&1 <<'EOF'; then
import json, sys
by = {p["name"]: p for p in json.load(open(sys.argv[1]))}
why = "only a typical figure is published"
want = {"t_pm_marked": (None, True, why), "t_pm_derived": (None, True, why),
        "t_pm_bare": (None, True, None), "t_pm_pdu": (None, False, None),
        "t_pm_known": ("1kW", False, None)}
for n, w in want.items():
    p = by[n]
    got = (p["power_max"], p["power_max_unknown"], p["power_max_reason"])
    assert got == w, (n, got, w)
EOF
	pass parts/power-max-unknown-json
else
	fail parts/power-max-unknown-json "status $rc"
	show "$tmp/pj.txt"
fi

# errors: an unknown name (with a suggestion), no match, usage
rk_run "$tmp/e1" parts --show h200sxm || true
if [ "$rc" = 1 ] && grep -q "unknown part 'h200sxm'; did you mean 'h200_sxm'?" \
	"$tmp/e1.err"; then
	pass parts/unknown-name
else
	fail parts/unknown-name "status $rc"
	show "$tmp/e1.err"
fi
rk_run "$tmp/e2" parts zzzz-no-such-part || true
if [ "$rc" = 1 ] && grep -q "no part matches" "$tmp/e2.err"; then
	pass parts/no-match
else
	fail parts/no-match "status $rc"
fi
for args in "--format=xml" "--bogus" "a b" "--show"; do
	# shellcheck disable=SC2086 # split on purpose
	rk_run "$tmp/e3" parts $args || true
	if [ "$rc" = 2 ]; then
		pass "parts/usage $args"
	else
		fail "parts/usage $args" "status $rc, want 2"
	fi
done
rk_run "$tmp/e4" parts --import=no/such/module || true
if [ "$rc" = 1 ] || [ "$rc" = 2 ]; then
	pass parts/bad-import
else
	fail parts/bad-import "status $rc"
fi

finish
