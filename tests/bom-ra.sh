#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The bill of materials of the DGX H100 SuperPOD examples against the
# reference architecture's (DGX SuperPOD H100 RA, RA-11333-001, Tables 4,
# 7 and 8, (N4)).
#
#   examples/dgx-h100-superpod.rack -D SUS=4  (127 DGX, the RA's BOM size)
#   examples/dgx-h100-su.rack                 (one SU: 31 DGX + UFM)
#
# are compiled with -O bom,cabling,report and read with python3:
#
#   - switches: report.json (the compute fabric's tiers) and the BOM line
#     of part number MQM9700-NS2F (compute + storage fabrics together);
#   - cables: cabling.csv, one row per 400G link, split by the `fabric`
#     column and by what the two ends are (DGX, UFM, switch); the BOM's
#     MFP7E10 fibre lines must add up to the same rows;
#   - transceivers: the BOM has one line per part number and no fabric, so
#     the modules of each fabric are counted here from cabling.csv, as the
#     RA counts them: one per twin-port cage (ports p[2c], p[2c+1] of a
#     QM9700, ib[2c], ib[2c+1] of a DGX: both port ranges start at 0, and
#     rackc pairs cages from the lowest index, src/analysis/cableplan.h), one per
#     single-port cage; the BOM's quantity of every module part number must
#     equal the sum over the fabrics.
#
# Known, documented difference (the examples' headers say so): the RA
# counts 4 UFM appliances with 4 UFM cables and 4 UFM modules in the
# compute fabric; the std UFM part has one fabric port and the examples
# model one appliance, so rackc has 1 UFM cable and 1 UFM module.  The RA's
# 2,040 compute fibres are the 1,016 DGX links and the 1,024 leaf-spine
# links and do not include the UFM cables (Table 8 lists those apart), so
# they are compared with the DGX and leaf-spine rows exactly; the UFM row
# is checked against the example's 1 and the RA's 4 is printed.
#
# The storage fabric is checked only where the example models what the RA
# counts (254 DGX QSFP112 modules); its switch, fibre and switch-module
# counts are printed for information (the RA's storage fabric also serves
# the storage appliances, which the example does not draw).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip bom-ra "python3 not installed"
	finish
fi

cat >"$tmp/bom_ra.py" <<'EOF'
import csv
import json
import re
import sys
from collections import Counter

mode, out = sys.argv[1], sys.argv[2]

# module part numbers and their cages (std/linkx.rack)
TWIN = {"980-9I510-00NS00": "MMA4Z00-NS (switch, twin-port, finned)",
        "980-9I51A-00NS00": "2xSR4 flat (DGX, twin-port)"}
SINGLE = {"980-9I51S-00NS00": "MMA4Z00-NS400 (UFM, single-port)",
          "980-9I693-00NS00": "MMA1Z00-NS400 (DGX storage, QSFP112)"}
SWITCH_PN = "MQM9700-NS2F"
FIBRE = "mfp7e10"
UFM_WHY = ("one UFM port in the example; the RA has 4 UFM appliances, "
           "cables and modules (documented difference)")


def say(word, name, detail):
    print(word, name, detail, sep="\t")


def check(name, got, want, why):
    """got must equal want; why says where want comes from"""
    detail = "rackc %s, expected %s: %s" % (got, want, why)
    say("PASS" if got == want else "FAIL", name, detail)


def info(name, got, ra, why):
    say("INFO", name, "rackc %s, RA %s: %s" % (got, ra, why))


# --- bom.csv and bom.json: quantity by part number (or part name) ---
def key(row):
    return row["part_number"] or row["part"]


bom = Counter()
bypart = Counter()
fibre_pn = Counter()
with open(out + "/bom.csv", newline="") as f:
    for row in csv.DictReader(f):
        if row["kind"] in ("part", "content"):
            bom[key(row)] += int(row["quantity"])
            for p in row["part"].split("; "):
                bypart[p] += int(row["quantity"])
            if row["part"] == FIBRE:
                # per-length part number: NVIDIA's Nxxx suffix is the
                # length in metres (hardware-facts 5.2)
                m = float(row["length_m"])
                want = "MFP7E10-N%03d" % m if m == int(m) else None
                check("fibre part number at %s m" % row["length_m"],
                      row["part_number"], want, "suffix scheme N003 = 3 m")
                fibre_pn[row["part_number"]] += int(row["quantity"])
bomj = Counter()
for line in json.load(open(out + "/bom.json"))["lines"]:
    bomj[line["part_number"] or line["part"]] += line["quantity"]
check("bom.json agrees with bom.csv", dict(bomj) == dict(bom), True,
      "same quantity per part number")

# part numbers of the transceiver parts, from the BOM
pn = {}
with open(out + "/bom.csv", newline="") as f:
    for row in csv.DictReader(f):
        if row["category"] == "transceiver":
            for p in row["part"].split(", "):
                pn[p] = row["part_number"]

# --- cabling.csv ---
with open(out + "/cabling.csv", newline="") as f:
    rows = list(csv.DictReader(f))


def end_kind(dev):
    if dev.startswith("dgx["):
        return "dgx"
    if dev == "ufm":
        return "ufm"
    return "switch"


def link_kind(r):
    k = sorted((end_kind(r["a_device"]), end_kind(r["b_device"])))
    return {("dgx", "switch"): "dgx", ("switch", "ufm"): "ufm",
            ("switch", "switch"): "isl"}.get(tuple(k), "other")


def cage(port, twin):
    m = re.fullmatch(r"(\w+)\[(\d+)\]", port)
    if not twin or not m:
        return port
    return "%s[cage %d]" % (m.group(1), int(m.group(2)) // 2)


def modules(sel):
    """modules by (part number, end kind) over the rows in sel"""
    seen = set()
    n = Counter()
    for r in sel:
        for s in "ab":
            x = r[s + "_transceiver"]
            if not x:
                continue
            p = pn.get(x)
            if p not in TWIN and p not in SINGLE:
                say("FAIL", "module part " + x, "unknown cage type")
                continue
            c = (r[s + "_device"], cage(r[s + "_port"], p in TWIN), p)
            if c not in seen:
                seen.add(c)
                n[p, end_kind(r[s + "_device"])] += 1
    return n


if mode == "superpod":
    rep = json.load(open(out + "/report.json"))
    fab = {x["name"]: x for x in rep["fabrics"]}
    comp = fab["compute"]
    check("compute QM9700 leaves", comp["tier_switches"][0], 32, "RA Table 7")
    check("compute QM9700 spines", comp["tier_switches"][1], 16, "RA Table 7")
    check("compute QM9700 switches", comp["switches"], 48,
          "RA Table 7, 32 leaf + 16 spine")
    cdev = {r[s + "_device"] for r in rows if r["fabric"] == "compute"
            for s in "ab" if end_kind(r[s + "_device"]) == "switch"}
    check("compute switches cabled (cabling.csv)", len(cdev), 48, "RA Table 7")
    sto = fab["storage"]["switches"]
    check("BOM %s = compute + storage switches" % SWITCH_PN, bom[SWITCH_PN],
          comp["switches"] + sto, "report.json, %d compute + %d storage"
          % (comp["switches"], sto))
    info("storage QM9700 switches", sto, 16, "storage fabric not fully modelled")

    c = [r for r in rows if r["fabric"] == "compute"]
    kinds = Counter(link_kind(r) for r in c)
    check("compute DGX-leaf cables", kinds["dgx"], 1016,
          "RA Table 8, 127 DGX x 8")
    check("compute leaf-spine cables", kinds["isl"], 1024, "RA Table 8")
    check("compute 400G fibres (DGX + leaf-spine)",
          kinds["dgx"] + kinds["isl"], 2040, "RA Table 8")
    check("compute UFM cables", kinds["ufm"], 1, UFM_WHY)
    check("compute cables, other", kinds["other"], 0, "DGX, UFM or switch ends")
    check("compute cables are %s 400G fibre" % FIBRE,
          all(r["part"] == FIBRE for r in c), True, "RA Table 8")
    check("BOM %s = fibre rows of cabling.csv" % FIBRE, bypart[FIBRE],
          sum(r["part"] == FIBRE for r in rows), "one cable per 400G link")
    check("BOM fibre part numbers = cabling.csv part numbers", dict(fibre_pn),
          dict(Counter(r["part_number"] for r in rows if r["part"] == FIBRE)),
          "per stock length")

    mc = modules(c)
    check("compute switch twin-port modules (980-9I510-00NS00)",
          mc["980-9I510-00NS00", "switch"], 1536,
          "RA Table 8, 48 switches x 32 cages")
    check("compute DGX twin-port modules (980-9I51A-00NS00)",
          mc["980-9I51A-00NS00", "dgx"], 508, "RA Table 8, 127 DGX x 4 cages")
    check("compute UFM modules (980-9I51S-00NS00)",
          mc["980-9I51S-00NS00", "ufm"], 1, UFM_WHY)
    s = [r for r in rows if r["fabric"] == "storage"]
    ms = modules(s)
    check("storage DGX QSFP112 modules (980-9I693-00NS00)",
          ms["980-9I693-00NS00", "dgx"], 254, "RA Table 8, 127 DGX x 2")
    info("storage switch modules", ms["980-9I510-00NS00", "switch"], 369,
         "storage fabric not fully modelled")
    info("storage 400G fibres", len(s), 494, "storage fabric not fully modelled")
    allm = mc + ms
    for p in sorted(set(TWIN) | set(SINGLE)):
        got = sum(v for (q, _), v in allm.items() if q == p)
        check("BOM %s = compute + storage modules" % p, bom[p], got,
              "counted per cage from cabling.csv")
else:
    # one SU (RA Table 4, 1 SU): 31 DGX, 8 leaf + 4 spine, 252 compute +
    # UFM cables (31 x 8 + 4 UFM), 256 leaf-spine
    check("BOM %s switches" % SWITCH_PN, bom[SWITCH_PN], 12,
          "RA Table 4, 8 leaf + 4 spine")
    kinds = Counter(link_kind(r) for r in rows)
    check("DGX-leaf cables", kinds["dgx"], 248, "RA Table 4, 31 DGX x 8")
    check("leaf-spine cables", kinds["isl"], 256, "RA Table 4")
    check("UFM cables", kinds["ufm"], 1, UFM_WHY)
    check("cables in all", len(rows), 505, "248 + 1 UFM + 256")
    check("BOM %s = cabling.csv rows" % FIBRE, bypart[FIBRE], len(rows),
          "one cable per 400G link")
    check("BOM fibre part numbers = cabling.csv part numbers", dict(fibre_pn),
          dict(Counter(r["part_number"] for r in rows if r["part"] == FIBRE)),
          "per stock length")
    m = modules(rows)
    check("switch twin-port modules (980-9I510-00NS00)",
          m["980-9I510-00NS00", "switch"], 384, "12 switches x 32 cages")
    check("DGX twin-port modules (980-9I51A-00NS00)",
          m["980-9I51A-00NS00", "dgx"], 124, "31 DGX x 4 cages")
    check("UFM modules (980-9I51S-00NS00)", m["980-9I51S-00NS00", "ufm"], 1,
          UFM_WHY)
    for p in sorted(set(TWIN) | set(SINGLE)):
        got = sum(v for (q, _), v in m.items() if q == p)
        check("BOM %s = modules counted per cage" % p, bom[p], got,
              "counted per cage from cabling.csv")
EOF

tab=$(printf '\t')

# case_run MODE DESIGN [ARGS...]
case_run() {
	mode=$1
	design=$2
	shift 2
	o=$tmp/$mode
	if ! rk_run "$o" --stdlib="$top_srcdir" -o "$o" -O bom,cabling,report "$@" \
		"$top_srcdir/examples/$design"; then
		fail "$mode" "$rk_problem"
		show "$o.err"
		return
	fi
	if [ "$rc" -ne 0 ] || [ -s "$o.err" ]; then
		fail "$mode" "exit $rc or diagnostics"
		show "$o.err"
		return
	fi
	if ! python3 "$tmp/bom_ra.py" "$mode" "$o" >"$o.py" 2>"$o.pyerr"; then
		fail "$mode" "python3 failed"
		show "$o.pyerr"
	fi
	while IFS="$tab" read -r word name detail; do
		case $word in
		PASS) pass "$mode: $name" "$detail" ;;
		FAIL) fail "$mode: $name" "$detail" ;;
		*) echo "INFO: $mode: $name ($detail)" ;;
		esac
	done <"$o.py"
}

case_run superpod dgx-h100-superpod.rack -D SUS=4
case_run su dgx-h100-su.rack
finish
