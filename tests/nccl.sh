#!/bin/sh
# SPDX-License-Identifier: MIT
#
# NCCL topology back end.  For every tests/deploy/nccl-*.rack:
#
#   NAME/nccl    `rackc -O nccl` writes exactly tests/golden/deploy/NAME/
#                nccl/ (and the messages in nccl.stderr; "# exit: N" in the
#                design for expected failures), see golden_designs.sh
#   NAME/xmllint every XML file is well-formed (xmllint --noout)
#   NAME/rules   tests/nccl_check.py re-reads every file and hosts.csv and
#                checks the rules of NCCL's reader and converter
#
# and for every examples/*.rack with GPU servers the same xmllint and rules
# checks (no golden files: tests/golden.sh owns the examples).  An example
# whose GPU servers cannot be expressed yet (no PCI bus ids in the catalog)
# is skipped with the reason.  `tests/nccl.sh --regen` (or RACKC_REGEN=1)
# rewrites the golden files.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
. tests/golden_designs.sh

if command -v xmllint >/dev/null 2>&1; then
	have_xmllint=1
else
	have_xmllint=0
fi
if command -v python3 >/dev/null 2>&1; then
	have_python=1
else
	have_python=0
fi

# validate NAME DIR: xmllint and the rules checker on DIR/nccl
validate() {
	v_name=$1
	v_dir=$2/nccl
	if [ ! -d "$v_dir" ]; then
		return 0
	fi
	find "$v_dir" -name '*.xml' -type f | sort >"$tmp/xmls"
	if [ ! -s "$tmp/xmls" ]; then
		return 0
	fi
	if [ "$have_xmllint" = 1 ]; then
		# shellcheck disable=SC2046 # file names are ours, no blanks
		if xmllint --noout $(cat "$tmp/xmls") >"$tmp/xmllint.out" 2>&1; then
			pass "$v_name/xmllint"
		else
			fail "$v_name/xmllint"
			show "$tmp/xmllint.out"
		fi
	else
		skip "$v_name/xmllint" "xmllint not installed"
	fi
	if [ "$have_python" = 1 ]; then
		set -- --hosts "$v_dir/hosts.csv"
		if [ ! -f "$v_dir/hosts.csv" ]; then
			set --
		fi
		# shellcheck disable=SC2046
		if python3 tests/nccl_check.py "$@" $(cat "$tmp/xmls") \
			>"$tmp/rules.out" 2>&1; then
			pass "$v_name/rules"
		else
			fail "$v_name/rules"
			show "$tmp/rules.out"
		fi
	else
		skip "$v_name/rules" "python3 not installed"
	fi
}

for d in tests/deploy/nccl-*.rack; do
	if [ ! -f "$d" ]; then
		continue
	fi
	name=${d##*/}
	name=${name%.rack}
	if design_golden "$d" nccl nccl; then
		validate "$name" "$dg_out"
	fi
done

for ex in examples/*.rack; do
	if [ ! -f "$ex" ]; then
		continue
	fi
	name=${ex#examples/}
	name=example-${name%.rack}
	o=$tmp/$name
	if ! rk_run "$o" -o "$o.d" -O nccl "$ex"; then
		fail "$name/nccl" "$rk_problem"
		show "$o.err"
		continue
	fi
	if [ "$rc" -ne 0 ]; then
		if grep -q "cannot express part .* \[nccl\]" "$o.err"; then
			skip "$name/nccl" "$(grep -m1 -o "part '[^']*' in NCCL[^:]*: [^,]*" "$o.err")"
		else
			fail "$name/nccl" "exit status $rc"
			show "$o.err"
		fi
		continue
	fi
	if ls "$o.d"/nccl/*.xml >/dev/null 2>&1; then
		validate "$name" "$o.d"
	fi
done

finish
