#!/bin/sh
# SPDX-License-Identifier: MIT
#
# RCCL finds its MI300X model in the topology file rackc writes.
#
#   mi300x-roce/...   the nccl back end's file of examples/mi300x-roce.rack
#                     (std's AS-8125GS-TNMR2: a PCIe switch per GPU and NIC,
#                     the GPU two bridge levels below it), read by
#                     tests/rccl_match.py with RCCL's own topology and path
#                     rules, matches RCCL's MI300X model (rome_model_81,
#                     facts in tests/rccl/rome_model_81.json with the RCCL
#                     commit they were read at): GPU-to-GPU xGMI, each GPU's
#                     NIC at PXB, the socket's other NICs at PHB, the rest at
#                     SYS, and a GPU and NET mapping RCCL's parseA2a8P takes
#   flat/...          the same server with one flattened bridge per GPU and
#                     NIC (the GPU at PIX from its NIC) matches no model:
#                     the checker can fail
#   nccl-rules        both files pass tests/nccl_check.py --strict

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
model=tests/rccl/rome_model_81.json

if ! command -v python3 >/dev/null 2>&1; then
	skip "rccl" "python3 not installed"
	finish
fi

# match NAME XML EXPECT: run the matcher; EXPECT is 0 (match) or 1 (none)
match() {
	python3 tests/rccl_match.py "$model" "$2" >"$tmp/$1.match" 2>&1 &&
		m_rc=0 || m_rc=$?
	grep -E '^(PASS|FAIL)	' "$tmp/$1.match" >"$tmp/$1.results" || :
	if [ "$3" = 0 ]; then
		py_results "$1" "$tmp/$1.results"
		if [ "$m_rc" -ne 0 ]; then
			show "$tmp/$1.match" 30
		fi
	elif [ "$m_rc" -eq 1 ] &&
		grep -q '^FAIL	model-match' "$tmp/$1.results" &&
		grep -q '^FAIL	gpu-own-nic	file PIX' "$tmp/$1.results"; then
		pass "$1/no-model" "PIX to its NIC: no model matches"
	else
		fail "$1/no-model" "the flat file should match no model (exit $m_rc)"
		show "$tmp/$1.match" 30
	fi
}

# strict NAME XML: NCCL's rules with no host to fill the file from
strict() {
	if python3 tests/nccl_check.py --strict "$2" >"$tmp/$1.rules" 2>&1; then
		pass "$1/nccl-rules"
	else
		fail "$1/nccl-rules"
		show "$tmp/$1.rules"
	fi
}

o=$tmp/mi300x
if rk_run "$o" -o "$o.d" -O nccl examples/mi300x-roce.rack &&
	[ "$rc" -eq 0 ]; then
	match mi300x-roce "$o.d/nccl/as_8125gs_tnmr2_site.xml" 0
	strict mi300x-roce "$o.d/nccl/as_8125gs_tnmr2_site.xml"
else
	fail "mi300x-roce/nccl" "${rk_problem:-exit status $rc}"
	show "$o.err"
fi

# The same server with each GPU directly below its NIC's switch.
cat >"$tmp/flat.rack" <<'RACK'
import "std/amd"
part flat : as_8125gs_tnmr2 {
	power_max 8.5kW
	let gpu_bus = ["0000:0c:00.0", "0000:1c:00.0", "0000:6c:00.0",
		       "0000:7c:00.0", "0000:8c:00.0", "0000:9c:00.0",
		       "0000:ec:00.0", "0000:fc:00.0"]
	for g in 0..7 {
		gpu gpu[g] : mi300x { pcie pex[g]; bus gpu_bus[g] }
	}
}
node n0 : flat
RACK
o=$tmp/flat
if rk_run "$o" -o "$o.d" -O nccl "$tmp/flat.rack" && [ "$rc" -eq 0 ]; then
	match flat "$o.d/nccl/flat.xml" 1
	strict flat "$o.d/nccl/flat.xml"
else
	fail "flat/nccl" "${rk_problem:-exit status $rc}"
	show "$o.err"
fi

finish
