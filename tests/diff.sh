#!/bin/sh
# SPDX-License-Identifier: MIT
# `rackc diff` (src/diff/diff.c).
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
#   rows/NAME          changes to tests/diff/rows.rack with hand-derived
#                      results (the lengths in its header): a row moved
#                      3 m closer keeps its 10 m fibres (7 m would do:
#                      "now 3 m shorter"), a rack moved 1.2 m along its
#                      row needs 10.15565 m (replaced by 15 m), moved
#                      back keeps the 15 m ones (relabelled, "now 5 m
#                      shorter"), a new row declared first changes no
#                      cable; each work order also as diff_check.py
#                      computes it from the two sides' cabling.csv
#   findings/NAME      changes to tests/diff/budget.rack (a PDU above its
#                      capacity): findings are matched by check and
#                      object, and one whose exact figures moved within
#                      its message's rounding has changed; report.json
#                      lists the exact figures
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

# rows/NAME SUMMARY MOVED ACTION DETAIL OPTIONS...: the JSON diff of
# tests/diff/rows.rack with OPTIONS has exactly the summary counts SUMMARY
# ("what=count;..."; of the rows of racks, rows and cables, the others
# ignored), the moves MOVED ("kind|name|before|after", empty: none) and
# work-order rows (one per cable and rack) all of ACTION whose details end
# in DETAIL (ACTION empty: none); diff_check.py agrees on the work order
rows_case() {
	rc_name=rows/$1 rc_sum=$2 rc_moved=$3 rc_action=$4 rc_detail=$5
	shift 5
	if ! command -v python3 >/dev/null 2>&1; then
		skip "$rc_name" "python3 not installed"
		return 0
	fi
	if ! rk_run "$tmp/rows" diff -f json -I examples "$@" \
		tests/diff/rows.rack tests/diff/rows.rack || [ "$rc" -gt 1 ]; then
		fail "$rc_name" "${rk_problem:-exit $rc}"
		show "$tmp/rows.err"
		return 0
	fi
	if python3 - "$tmp/rows.out" "$rc_sum" "$rc_moved" "$rc_action" \
		"$rc_detail" >"$tmp/rows.why" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = dict((w, int(c)) for w, c in
            (x.split("=") for x in sys.argv[2].split(";") if x))
got = dict((r["what"], int(r["count"])) for r in d["summary"]
           if r["what"].startswith(("cables", "racks", "rows", "units")))
assert got == want, "summary %s, want %s" % (got, want)
moved = ["|".join((r["kind"], r["name"], r["before"], r["after"]))
         for r in d["moved"]]
assert moved == [m for m in [sys.argv[3]] if m], "moved %s" % moved
for r in d["cabling"]:
    assert r["action"] == sys.argv[4], "action %s" % r
    assert r["detail"].endswith(sys.argv[5]), "detail %s" % r
n = want.get("cables kept (the old length still reaches)", 0) or \
    want.get("cables to replace", 0)
# four cables, each listed under the rack of each end
assert len(d["cabling"]) == 2 * n, "%d rows" % len(d["cabling"])
PY
	then
		pass "$rc_name"
	else
		fail "$rc_name" "$(tail -1 "$tmp/rows.why")"
	fi
}
rows_case row-moved \
	"rows moved=1;cables kept (the old length still reaches)=4" \
	"row|lab.r2|x 0 m, y 6 m, pitch 0.6 m|x 0 m, y 3 m, pitch 0.6 m" \
	keep "mfp7e10 10 m still reaches: now 3 m shorter" \
	--new-define ROW2_Y=3m
rows_case rack-moved "racks moved=1;cables to replace=4" \
	"rack|lab.r2.b|lab.r2 slot 1|lab.r2 slot 3" \
	replace "mfp7e10 10 m -> mfp7e10 15 m (computed 8.95565 -> 10.15565 m)" \
	--new-define B_SLOT=3
rows_case rack-back \
	"racks moved=1;cables to relabel=4;cables kept (the old length still reaches)=4" \
	"rack|lab.r2.b|lab.r2 slot 3|lab.r2 slot 1" \
	relabel "mfp7e10 15 m still reaches: now 5 m shorter" \
	--old-define B_SLOT=3
rows_case new-row "" "" "" "" --new-define NEW_ROW=true
# a row's racks and unit declared in another order, a list in two: no
# rack moves and no cable changes (slots follow names)
rows_case declaration-order "" "" "" "" --old-define ORDER=1 \
	--new-define ORDER=2
# the same work orders as diff_check.py computes them
for rd in ROW2_Y=3m B_SLOT=3; do
	if ! command -v python3 >/dev/null 2>&1; then
		skip "rows/work-order $rd" "python3 not installed"
		continue
	fi
	if rk_run "$tmp/ro" --force -I examples -O cabling -o "$tmp/ro" \
		tests/diff/rows.rack &&
		rk_run "$tmp/rn" --force -I examples -O cabling -D "$rd" \
			-o "$tmp/rn" tests/diff/rows.rack &&
		rk_run "$tmp/rd" diff -f json -I examples --new-define "$rd" \
			tests/diff/rows.rack tests/diff/rows.rack &&
		rk_run "$tmp/rb" diff -f json -I examples --old-define "$rd" \
			tests/diff/rows.rack tests/diff/rows.rack; then
		{
			python3 tests/diff_check.py "$rd" "$tmp/ro/cabling.csv" \
				"$tmp/rn/cabling.csv" "$tmp/rd.out"
			python3 tests/diff_check.py "$rd-back" \
				"$tmp/rn/cabling.csv" "$tmp/ro/cabling.csv" \
				"$tmp/rb.out"
		} >"$tmp/oracle.txt" 2>&1
		py_results rows/oracle "$tmp/oracle.txt"
	else
		fail "rows/oracle/$rd" "${rk_problem:-exit $rc}"
	fi
done

# findings/NAME FINDINGS OPTIONS...: the JSON diff of tests/diff/budget.rack
# with OPTIONS has exactly the findings rows FINDINGS (one a line,
# "change|finding|figures|was"), and a summary that counts them
findings_case() {
	fc_name=findings/$1 fc_want=$2
	shift 2
	if ! command -v python3 >/dev/null 2>&1; then
		skip "$fc_name" "python3 not installed"
		return 0
	fi
	if ! rk_run "$tmp/fnd" diff -f json "$@" tests/diff/budget.rack \
		tests/diff/budget.rack || [ "$rc" -ne 1 ]; then
		fail "$fc_name" "${rk_problem:-exit $rc (want 1)}"
		show "$tmp/fnd.err"
		return 0
	fi
	if python3 - "$tmp/fnd.out" "$fc_want" >"$tmp/fnd.why" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = ["|".join((r["change"], r["finding"], r["figures"], r["was"]))
       for r in d["findings"]]
want = sys.argv[2].split("\n")
assert got == want, "findings %s, want %s" % (got, want)
summ = dict((r["what"], int(r["count"])) for r in d["summary"]
            if r["what"].startswith("findings"))
for c in ("raised", "resolved", "changed"):
    n = sum(1 for w in want if w.startswith(c + "|"))
    assert summ.get("findings " + c, 0) == n, "summary %s" % summ
PY
	then
		pass "$fc_name"
	else
		fail "$fc_name" "$(tail -1 "$tmp/fnd.why")"
	fi
}
# the PDU carries the server's power_max (one PSU): 12.34 kW, above its
# 10 kW; messages print 12.3kW for 12.34 and for 12.32 kW
pdu='error [power-pdu-capacity] PDU s.r.k.p carries 12.3kW at max load, above its'
findings_case within-rounding \
	"changed|$pdu 10kW|load 12.34kW -> 12.32kW, capacity 10kW|" \
	--new-define SRV_POWER=12320W
findings_case capacity \
	"changed|$pdu 11kW|load 12.34kW, capacity 10kW -> 11kW|$pdu 10kW" \
	--new-define CAP=11kW
findings_case resolved "resolved|$pdu 10kW|load 12.34kW, capacity 10kW|" \
	--new-define CAP=13kW
findings_case raised "raised|$pdu 10kW|load 12.34kW, capacity 10kW|" \
	--old-define CAP=13kW
# report.json lists the exact figures with the finding
if ! command -v python3 >/dev/null 2>&1; then
	skip findings/report "python3 not installed"
elif rk_run "$tmp/fr" --force -O report -o "$tmp/fr" tests/diff/budget.rack &&
	python3 - "$tmp/fr/report.json" >"$tmp/fr.why" 2>&1 <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["checks"]["findings"] if x["check"] == "power-pdu-capacity"]
assert len(f) == 1 and f[0]["object"] == "s.r.k.p", f
want = [{"name": "load", "value": 12340000, "unit": "mW", "text": "12.34kW",
         "bound": "exact"},
        {"name": "capacity", "value": 10000000, "unit": "mW", "text": "10kW",
         "bound": "exact"}]
assert f[0]["figures"] == want, f[0]["figures"]
PY
	pass findings/report
else
	fail findings/report "${rk_problem:-$(tail -1 "$tmp/fr.why")}"
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
