#!/bin/sh
# SPDX-License-Identifier: MIT
# `rackc diff` (src/diff.c).
#
#   golden/NAME        each change to tests/diff/pod.rack below, compared
#                      with the unchanged design, prints exactly
#                      tests/golden/diff/NAME.{txt,md,json} and exits 1;
#                      two runs give the same bytes
#   self/EXAMPLE       every example against itself: no differences, exit 0
#   ir/EXAMPLE         every example against its own `-O ir` output (the
#                      ir.rack as a design; an assembly keeps its devices
#                      through in_assembly) and against its own output
#                      directory: no differences
#   dirs, dirs/A-B     the diff of two output directories is the diff of
#                      the two designs that wrote them (JSON, but for the
#                      "old" and "new" paths): the pod and a new SU, and
#                      each example with the next
#   json               the JSON output is JSON (python3)
#   status/...         trouble is exit 2: a missing side, a directory
#                      that is not an output directory, bad options
#
# `tests/diff.sh --regen` rewrites the golden files.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99
pod=tests/diff/pod.rack
gdir=tests/golden/diff
RK_TIMEOUT=$((RK_TIMEOUT * 6))

# NAME FORMAT OPTIONS...: a golden diff of the pod
golden() {
	name=$1
	fmt=$2
	shift 2
	want=$gdir/$name.$fmt
	case $fmt in
	txt) f=text ;;
	md) f=markdown ;;
	*) f=json ;;
	esac
	if ! rk_run "$tmp/$name-$fmt" diff -f "$f" -I examples "$@" \
		"$pod" "$pod"; then
		fail "golden/$name.$fmt" "$rk_problem"
		show "$tmp/$name-$fmt.err"
		return
	fi
	if [ "$rc" -ne 1 ] || [ -s "$tmp/$name-$fmt.err" ]; then
		fail "golden/$name.$fmt" "exit $rc (want 1), or messages"
		show "$tmp/$name-$fmt.err"
		return
	fi
	if [ "$regen" = 1 ]; then
		mkdir -p "$gdir"
		cp "$tmp/$name-$fmt.out" "$want"
	fi
	if ! rk_run "$tmp/$name-$fmt-2" diff -f "$f" -I examples "$@" \
		"$pod" "$pod" || ! cmp -s "$tmp/$name-$fmt.out" \
		"$tmp/$name-$fmt-2.out"; then
		fail "golden/$name.$fmt" "two runs differ"
	elif [ ! -f "$want" ]; then
		fail "golden/$name.$fmt" "no $want (run tests/diff.sh --regen)"
	elif cmp -s "$want" "$tmp/$name-$fmt.out"; then
		pass "golden/$name.$fmt"
	else
		fail "golden/$name.$fmt" "differs from $want"
		diff -u "$want" "$tmp/$name-$fmt.out" | sed 's/^/    | /' |
			head -40
	fi
}

golden add-su txt --new-define NODES=8
golden add-su-all txt --max-bytes=0 -D ALL_UPLINKS=true --new-define NODES=8
golden leaf-swap txt --new-define LEAF=qm9790
golden move-rack txt --new-define NET_SLOT=10
golden feed txt --new-define FEED_A=100A
golden feed json --new-define FEED_A=100A
golden loop-move txt --new-define NET_LOOP=b
golden loop-move md --new-define NET_LOOP=b
golden add-fabric txt --new-define OOB=true
golden add-fabric md --new-define OOB=true
golden add-fabric json --new-define OOB=true

# NAME DESIGNS DIRS: the JSON diff of two designs and that of their output
# directories are the same, but for the "old" and "new" paths
same_json() {
	grep -v '^  "old"\|^  "new"' "$2" >"$2.cut"
	grep -v '^  "old"\|^  "new"' "$3" >"$3.cut"
	if cmp -s "$2.cut" "$3.cut" && [ -s "$2.cut" ]; then
		pass "$1"
	else
		fail "$1" "the diffs differ"
		diff -u "$2.cut" "$3.cut" | sed 's/^/    | /' | head -30
	fi
}

# every example against itself, its ir.rack and its output directory
for x in examples/*.rack; do
	ex=${x#examples/}
	ex=${ex%.rack}
	if rk_run "$tmp/self-$ex" diff "$x" "$x" && [ "$rc" -eq 0 ] &&
		[ ! -s "$tmp/self-$ex.err" ] &&
		grep -q ': no differences$' "$tmp/self-$ex.out"; then
		pass "self/$ex"
	else
		fail "self/$ex" "${rk_problem:-exit $rc}"
		show "$tmp/self-$ex.out"
		show "$tmp/self-$ex.err"
	fi
	if ! rk_run "$tmp/ir-$ex" --force -o "$tmp/out-$ex" "$x" ||
		[ "$rc" -gt 1 ] || [ ! -s "$tmp/out-$ex/ir.rack" ]; then
		fail "ir/$ex" "${rk_problem:-compiling: exit $rc}"
		continue
	fi
	for other in "$tmp/out-$ex" "$tmp/out-$ex/ir.rack"; do
		name="ir/$ex${other##*/out-"$ex"}"
		if rk_run "$tmp/ird-$ex" diff "$x" "$other" &&
			[ "$rc" -eq 0 ] && [ ! -s "$tmp/ird-$ex.err" ]; then
			pass "$name"
		else
			fail "$name" "differences with its own output"
			show "$tmp/ird-$ex.out"
			show "$tmp/ird-$ex.err"
		fi
	done
done

# dirs/A-B: for each example and the next (the last with the first), the
# diff of their output directories is the diff of the two designs (JSON,
# but for the "old" and "new" paths)
set -- examples/*.rack
first=$1
while [ $# -gt 0 ]; do
	a=${1#examples/}
	a=${a%.rack}
	shift
	b=${1:-$first}
	b=${b#examples/}
	b=${b%.rack}
	name="dirs/$a-$b"
	if [ ! -s "$tmp/out-$a/ir.rack" ] || [ ! -s "$tmp/out-$b/ir.rack" ]; then
		fail "$name" "no output directory"
		continue
	fi
	if rk_run "$tmp/xd" diff -f json "$tmp/out-$a" "$tmp/out-$b" &&
		[ "$rc" -eq 1 ] &&
		rk_run "$tmp/xs" diff -f json "examples/$a.rack" \
			"examples/$b.rack" && [ "$rc" -eq 1 ]; then
		same_json "$name" "$tmp/xs.out" "$tmp/xd.out"
	else
		fail "$name" "${rk_problem:-exit $rc, want 1}"
		show "$tmp/xd.err"
		show "$tmp/xs.err"
	fi
done

# output directories against designs (the pod has a check error: --force)
if rk_run "$tmp/o4" --force -I examples -o "$tmp/pod4" "$pod" &&
	rk_run "$tmp/o8" --force -I examples -D NODES=8 -o "$tmp/pod8" "$pod" &&
	rk_run "$tmp/dd" diff -f json "$tmp/pod4" "$tmp/pod8" &&
	[ "$rc" -eq 1 ] &&
	rk_run "$tmp/ds" diff -f json -I examples --new-define NODES=8 \
		"$pod" "$pod" && [ "$rc" -eq 1 ]; then
	same_json dirs "$tmp/ds.out" "$tmp/dd.out"
else
	fail dirs "${rk_problem:-exit $rc}"
	show "$tmp/dd.err"
fi

if command -v python3 >/dev/null 2>&1; then
	if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["differences"] is True
assert {"summary", "devices", "bom", "cabling", "power", "fabrics",
        "findings"} <= set(d)
' "$tmp/ds.out" 2>"$tmp/json.err"; then
		pass json
	else
		fail json "not the JSON expected"
		show "$tmp/json.err"
	fi
else
	skip json "python3 not installed"
fi

# trouble
mkdir -p "$tmp/empty"
status() {
	name=$1
	shift
	if rk_run "$tmp/st" "$@" && [ "$rc" -eq 2 ] && [ -s "$tmp/st.err" ]; then
		pass "status/$name"
	else
		fail "status/$name" "${rk_problem:-exit $rc, want 2 and a message}"
		show "$tmp/st.err"
	fi
}
status missing diff "$pod" "$tmp/nothing.rack"
status not-output-dir diff "$tmp/empty" "$pod"
status one-side diff "$pod"
status bad-option diff --frobnicate "$pod" "$pod"
status bad-format diff -f yaml "$pod" "$pod"
status bad-define diff --old-define NODES "$pod" "$pod"
printf 'node broken {\n' >"$tmp/broken.rack"
status syntax-error diff "$pod" "$tmp/broken.rack"
finish
