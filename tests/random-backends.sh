#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The back ends' files on random designs, read back independently
# (tests/backends_check.py): the InfiniBand net files (links port for
# port against the cable plan, GUIDs, port numbers, one file per
# subnet), the Slurm tree (host lists expanded by our own expander,
# every node under one leaf switch, each switch's children from the
# cables), and the cable plan's ports, IDs and labels.  A fixed set of
# seeds runs here; BACKEND_SEEDS ("fabric:1 fabric:2 ..." or
# "fabric:1-500") runs others by hand.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip random-backends "python3 not installed"
	finish
fi
if ! python3 -c 'import networkx, yaml' 2>/dev/null; then
	skip random-backends "no networkx or yaml for python3"
	finish
fi

# expand "KIND:A-B" into KIND:A ... KIND:B
expand() {
	for e in $1; do
		case $e in
		*:*-*)
			k=${e%%:*}
			r=${e#*:}
			for s in $(seq "${r%-*}" "${r#*-}"); do
				echo "$k:$s"
			done
			;;
		*) echo "$e" ;;
		esac
	done
}

seeds=$(expand "${BACKEND_SEEDS:-"fabric:1 fabric:2 fabric:5 fabric:7 fabric:9 fabric:12 fabric:26 fabric:66"}")
for seed in $seeds; do
	d="$tmp/s$(echo "$seed" | tr : _)"
	if ! python3 "$top_srcdir/tests/backends_check.py" gen "$seed" "$d" \
		>"$tmp/gen.err" 2>&1; then
		fail "seed $seed: generator" "it failed"
		show "$tmp/gen.err"
		continue
	fi
	if ! rk_run "$d/r" --force --max-errors=0 --no-source \
		-O cabling,bom,ibnet,slurm,elevations,nccl -o "$d/out" \
		"$d/d.rack"; then
		fail "seed $seed" "$rk_problem"
		continue
	fi
	if [ "$rc" -gt 1 ] || [ ! -s "$d/out/cabling.csv" ]; then
		fail "seed $seed" "exit $rc, or no cabling.csv"
		show "$d/r.err"
		continue
	fi
	python3 "$top_srcdir/tests/backends_check.py" check "$d" "$d/out" \
		>"$tmp/results" 2>"$tmp/err" || true
	if [ -s "$tmp/err" ]; then
		fail "seed $seed" "the checker failed"
		show "$tmp/err"
	fi
	py_results random-backends "$tmp/results"
done
finish
