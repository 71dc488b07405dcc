#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Findings are complete wherever they are recorded: a design with many
# errors, compiled with --force and --max-errors=1, 10 and 0, writes the
# same report.json and report.html each time, listing and counting every
# finding with its notes, however many of them the terminal showed; the
# text output says where it stopped, and its "more like this" counts are
# the same at every limit.  The expected figures come from the design's
# construction (stated with it), not from rackc.
#
#   report/cap-N       report.json lists every finding: 50 + 12 + 2
#                      errors, of which the two overlaps carry two notes
#                      each, and counts them
#   report.json/same   report.json is byte-identical at limits 1, 10, 0
#   report.html/same, html/all  so is report.html, listing 64 errors
#   text/stop-N        the text output says it stopped and how many there
#                      are in all (not at limit 0)
#   text/group         the group note says "49 more like this" at every
#                      limit
#   json/cap-N         --diagnostics-format=json counts every error and
#                      says how many it left out
#   identical          a finding repeated identically (a waiver in a loop)
#                      is listed once in report.json with its repeats
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip findings "python3 not installed (it reads report.json)"
	finish
fi
cd "$tmp" || exit 99

# 50 devices below the rack's lowest unit from one loop statement, 12
# more one statement each, and two devices overlapping a third: 64 errors
{
	printf 'part s:server{height 1U}\npart k:rack{height 1U}\n'
	printf 'part t:rack{height 4U}\n'
	printf 'site a{row w{rack r:k{}\nrack q:t{}}}\n'
	printf 'for i in 0..49{device d[i]:s{rack a.w.r;at 0U}}\n'
	for x in a b c d e f g h i j k l; do
		printf 'device n%s:s{rack a.w.r;at 0U}\n' $x
	done
	printf 'device o1:s{rack a.w.q;at 1U}\n'
	printf 'device o2:s{rack a.w.q;at 1U}\n'
	printf 'device o3:s{rack a.w.q;at 1U}\n'
} >many.rack

for cap in 1 10 0; do
	st=0
	"$RACKC" --force --no-source -O report,html -o "out$cap" \
		--max-errors=$cap many.rack >"r$cap.out" 2>"r$cap.err" || st=$?
	if [ "$st" != 1 ] || [ ! -f "out$cap/report.json" ]; then
		fail "report/cap-$cap" "exit $st, report.json missing"
		show "r$cap.err"
		continue
	fi
	if python3 - "out$cap/report.json" >"py$cap" 2>&1 <<'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["checks"]
f = c["findings"]
errs = [x for x in f if x["level"] == "error"]
want = {"rack-placement": 62, "rack-overlap": 2}
got = {}
for x in errs:
    got[x["check"]] = got.get(x["check"], 0) + 1 + x["repeats"]
assert got == want, got
assert c["errors"] == 64, c["errors"]
objs = sorted(x["object"] for x in errs if x["check"] == "rack-placement")
assert objs == sorted(["d[%d]" % i for i in range(50)] +
                      ["n" + ch for ch in "abcdefghijkl"]), objs
ov = [x for x in errs if x["check"] == "rack-overlap"]
assert [x["object"] for x in ov] == ["o2", "o3"], ov
for x in ov:
    assert len(x["notes"]) == 2, x
    assert all(n["file"] == "many.rack" and n["line"] >= 1
               for n in x["notes"]), x
assert all(x["file"] == "many.rack" for x in errs)
PY
		pass "report/cap-$cap" "64 errors listed and counted, notes kept"
	else
		fail "report/cap-$cap" "$(tail -1 "py$cap")"
	fi
	# the group note: 49 more at every limit
	if grep -q '^many.rack:6:44: note: 49 more like this from the same statement: d\[1\], d\[2\], d\[3\] and 46 more$' "r$cap.err"; then
		pass "text/group-$cap"
	else
		fail "text/group-$cap" "no '49 more like this' note"
		show "r$cap.err" 20
	fi
	shown=$(grep -c ': error: ' "r$cap.err" || :)
	if [ "$cap" = 0 ]; then
		# every one: the group's leader, 12 alone, 2 overlaps
		if [ "$shown" = 15 ] && ! grep -q 'stopped after' "r$cap.err"; then
			pass "text/stop-$cap" "15 errors shown, no stop"
		else
			fail "text/stop-$cap" "$shown errors shown"
			show "r$cap.err" 30
		fi
	elif [ "$shown" = "$cap" ] &&
		grep -q "^rackc: stopped after $cap errors\{0,1\} (64 in all); --max-errors=0 shows every one$" "r$cap.err" &&
		grep -q '^64 errors and 1 warning generated\.$' "r$cap.err"; then
		pass "text/stop-$cap" "$cap shown, says 64 in all"
	else
		fail "text/stop-$cap" "$shown errors shown"
		show "r$cap.err" 30
	fi
	st=0
	"$RACKC" --check --diagnostics-format=json --max-errors=$cap \
		many.rack >/dev/null 2>"j$cap.err" || st=$?
	want=$((64 - cap))
	if [ "$cap" = 0 ]; then
		want=0
	fi
	if python3 - "j$cap.err" "$cap" "$want" >"pj$cap" 2>&1 <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
cap, cut = int(sys.argv[2]), int(sys.argv[3])
errs = [x for x in d["diagnostics"] if x["level"] == "error"]
assert d["errors"] == 64, d["errors"]
assert len(errs) == (cap or 64), len(errs)
assert d.get("not_shown", 0) == cut, d.get("not_shown")
PY
		pass "json/cap-$cap"
	else
		fail "json/cap-$cap" "$(tail -1 "pj$cap")"
	fi
done
for f in report.json report.html; do
	if cmp -s out1/$f out10/$f && cmp -s out1/$f out0/$f; then
		pass "$f/same" "$f identical at limits 1, 10 and 0"
	else
		fail "$f/same" "$f differs with the limit"
	fi
done
n=$(grep -c '^<p class="error"><b>error</b>' out1/report.html || :)
if [ "$n" = 64 ] && grep -q '<p class="note">&#8627; note <code>many.rack:' out1/report.html; then
	pass html/all "64 errors listed, notes with them"
else
	fail html/all "$n errors listed"
fi

# identical findings: one record with its repeats
printf 'for i in 0..999{group g[i]{waive "port-reuse","x"}}\n' >same.rack
st=0
"$RACKC" -O report -o outs same.rack >/dev/null 2>same.err || st=$?
if [ "$st" = 0 ] && python3 - outs/report.json >pys 2>&1 <<'PY'; then
import json, sys
c = json.load(open(sys.argv[1]))["checks"]
f = c["findings"]
assert c["warnings"] == 1000, c["warnings"]
assert len(f) == 1 and f[0]["repeats"] == 999, f
assert f[0]["check"] == "unused-waiver", f
PY
	pass identical "1000 warnings: one record, 999 repeats"
else
	fail identical "exit $st; $(tail -1 pys 2>/dev/null)"
fi
finish
