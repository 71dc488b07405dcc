#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Every std part deploys.  For every part in std/*.rack whose class is a
# device (server, switch, pdu, cdu, rdhx, power shelf, rack) or a server
# component (gpu, cpu, nic), a minimal design that uses it is generated
# (tests/std_deploy.py) and compiled with every back end:
#
#   PART         `rackc --force -o OUT` writes the artifacts of every back
#                end: no back end reports an error or is named as having
#                written nothing (check findings of a one-device design,
#                such as an unplaced device or a tray on no liquid loop,
#                are not what this test is about; --force writes past
#                them), and `rackc --check` reports no back-end error
#                either (the preflight agrees with the build)
#   PART/nccl    for a design with GPUs, the NCCL (or RCCL) files and
#                hosts.csv pass tests/nccl_check.py --strict-but-gpus: what
#                the catalog knows is in the file (every NIC complete with
#                its link figures, every bridge with its figures), and only
#                a GPU's own link, which std marks unknown for B200 and
#                GB200, may be left to NCCL's detection
#
# Cables and transceivers are used by tests/std/exercise.rack (see
# tests/std-coverage.sh), which is compiled here with every back end too.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"

if ! command -v python3 >/dev/null 2>&1; then
	skip std-deploy "python3 not installed"
	finish
fi

mkdir -p "$tmp/designs"
if ! python3 tests/std_deploy.py std "$tmp/designs" >"$tmp/list" \
	2>"$tmp/gen.err"; then
	fail std-deploy/generate "tests/std_deploy.py failed"
	show "$tmp/gen.err"
	finish
fi

# back-end errors: tagged with a back end's name, or a back end named as
# having written nothing
be_errors() {
	grep -E 'error: .*\[(nccl|ibnet|slurm|io|bom|cabling|report|ir|svg|dot)\]|wrote nothing' "$1" || :
}

# deploy NAME DESIGN GPUS
deploy() {
	d_name=$1
	d_src=$2
	d_gpus=$3
	d_out=$tmp/out/$d_name
	if ! rk_run "$tmp/r" --force -o "$d_out" "$d_src"; then
		fail "$d_name" "$rk_problem"
		show "$tmp/r.err"
		return 0
	fi
	be_errors "$tmp/r.err" >"$tmp/be"
	if [ "$rc" -gt 1 ] || [ -s "$tmp/be" ] || [ ! -s "$d_out/ir.rack" ] ||
		[ ! -s "$d_out/report.json" ]; then
		fail "$d_name" "exit $rc, or back-end errors, or artifacts missing"
		show "$tmp/r.err"
		return 0
	fi
	if ! rk_run "$tmp/c" --check "$d_src"; then
		fail "$d_name" "--check: $rk_problem"
		return 0
	fi
	be_errors "$tmp/c.err" >"$tmp/be"
	if [ -s "$tmp/be" ]; then
		fail "$d_name" "--check reports a back-end error"
		show "$tmp/be"
		return 0
	fi
	pass "$d_name"
	if [ "$d_gpus" = 0 ]; then
		return 0
	fi
	find "$d_out/nccl" -name '*.xml' -type f 2>/dev/null | sort >"$tmp/xmls"
	if [ ! -s "$tmp/xmls" ] || [ ! -s "$d_out/nccl/hosts.csv" ]; then
		fail "$d_name/nccl" "no topology file or no hosts.csv"
		return 0
	fi
	# shellcheck disable=SC2046 # file names are ours, no blanks
	if python3 tests/nccl_check.py --strict-but-gpus $(cat "$tmp/xmls") \
		--hosts "$d_out/nccl/hosts.csv" >"$tmp/rules" 2>&1; then
		pass "$d_name/nccl"
	else
		fail "$d_name/nccl" "the rule checker found problems"
		show "$tmp/rules"
	fi
}

nparts=0
while read -r name gpus; do
	nparts=$((nparts + 1))
	deploy "$name" "$tmp/designs/$name.rack" "$gpus"
done <"$tmp/list"
if [ "$nparts" -lt 50 ]; then
	fail std-deploy/parts "only $nparts parts found in std/"
else
	pass std-deploy/parts "$nparts parts"
fi
deploy exercise tests/std/exercise.rack 1

finish
