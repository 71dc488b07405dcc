#!/bin/sh
# SPDX-License-Identifier: MIT
# Keeps the benchmark generators honest: bench/synth.rack at 1,000 GPUs must
# compile clean with every back end, and its report must describe the
# cluster it was asked for (the 10k and 100k sizes run in `make bench`);
# bench/fabrics.rack at 20 racks must give each rack's two fabrics exactly
# their own eight endpoints, switch and links.
. "$(dirname "$0")/lib.sh"

if ! rk_run "$tmp/b" -D GPUS=1000 -o "$tmp/out" "$top_srcdir/bench/synth.rack"; then
	fail bench/1k "$rk_problem"
	finish
fi
if [ "$rc" -ne 0 ] || [ -s "$tmp/b.err" ]; then
	fail bench/1k "exit $rc"
	show "$tmp/b.err"
	finish
fi
pass bench/1k/compile
# On ext4 the large artifacts are allocated ahead of the writer; what lies
# past the end must be given back when each file is closed.
if [ "$(stat -f -c %T "$tmp/out")" = "ext2/ext3" ]; then
	bs=$(stat -f -c %S "$tmp/out")
	held=$(find "$tmp/out" -type f -exec stat -c '%s %b %n' {} + |
		awk -v bs="$bs" '$2 * 512 > int(($1 + bs - 1) / bs) * bs { print $3 }')
	if [ -z "$held" ]; then
		pass bench/1k/no-space-past-the-end
	else
		fail bench/1k/no-space-past-the-end "$held"
	fi
else
	skip bench/1k/no-space-past-the-end "not on ext4"
fi
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
t = r["totals"]
f = {x["name"]: x for x in r["fabrics"]}
c = f["compute"]
print(t["gpus"], t["servers"], c["endpoints"], c["tiers"],
      c["bisection_method"], c["bisection_bps"] * 2 == c["injection_bps"],
      r["checks"]["errors"], r["checks"]["warnings"])
' "$tmp/out/report.json")
	want="1000 125 1000 2 exact: switch sides enumerated, leaves by knapsack True 0 0"
	if [ "$got" = "$want" ]; then
		pass bench/1k/report "$got"
	else
		fail bench/1k/report "got '$got', want '$want'"
	fi
else
	skip bench/1k/report "python3 not installed"
fi

# The compute fabric in planes, as the million-GPU design builds it, at
# sizes whose figures have a closed form (128-port switches 1:1, 64 down):
#  - 2,048 GPUs, a plane per rail: per plane 4 leaves and 4 * 64 / 128 = 2
#    spines (48 switches), 2,048 + 8 * 4 * 64 links;
#  - 17,408 GPUs (2,176 nodes, 34 SUs) on 2 planes of 4 rails: per plane
#    136 leaves in 3 pods (64, 64, 8) with 64 spines each (192) and
#    ceil(64 * 64 / floor(128 / 3)) = 98 cores (each takes 42 uplinks of
#    every pod): 852 switches; links per plane 8,704 to endpoints,
#    136 * 64 leaf and 192 * 64 spine uplinks.
# Full bisection (half the injection) both times at the node level (the
# servers as terminals; doc/language.md §9.11), where the planes add up;
# at the endpoint level whole planes make the halves, and it is 0.
for shape in "2048 8 2 48 4096" "17408 2 3 852 59392"; do
	# shellcheck disable=SC2086 # the fields of one shape
	set -- $shape
	if ! rk_run "$tmp/p" -D GPUS="$1" -D PLANES="$2" -o "$tmp/pout" \
		"$top_srcdir/bench/synth.rack"; then
		fail "bench/planes-$2" "$rk_problem"
		continue
	fi
	if [ "$rc" -ne 0 ] || [ -s "$tmp/p.err" ]; then
		fail "bench/planes-$2" "exit $rc"
		show "$tmp/p.err"
		continue
	fi
	if ! command -v python3 >/dev/null 2>&1; then
		skip "bench/planes-$2" "python3 not installed"
		continue
	fi
	got=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
c = {x["name"]: x for x in r["fabrics"]}["compute"]
print(c["endpoints"], c["tiers"], c["switches"], c["links"],
      c["node_bisection_bps"] * 2 == c["injection_bps"],
      c["node_bisection_exact"], c["bisection_bps"], r["checks"]["errors"])
' "$tmp/pout/report.json")
	want="$1 $3 $4 $5 True True 0 0"
	if [ "$got" = "$want" ]; then
		pass "bench/planes-$2/report" "$got"
	else
		fail "bench/planes-$2/report" "got '$got', want '$want'"
	fi
	rm -rf "$tmp/pout"
done

if ! rk_run "$tmp/f" -D RACKS=20 -O ir,report,cabling -o "$tmp/fout" \
	"$top_srcdir/bench/fabrics.rack"; then
	fail bench/fabrics "$rk_problem"
	finish
fi
if [ "$rc" -ne 0 ] || [ -s "$tmp/f.err" ]; then
	fail bench/fabrics "exit $rc"
	show "$tmp/f.err"
	finish
fi
pass bench/fabrics/compile
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
fs = r["fabrics"]
shapes = sorted({(f["type"], f["endpoints"], f["switches"], f["links"])
                 for f in fs})
print(len(fs), shapes, r["totals"]["cables"], r["checks"]["errors"])
' "$tmp/fout/report.json")
	want="40 [('star', 8, 1, 8)] 320 0"
	if [ "$got" = "$want" ]; then
		pass bench/fabrics/report "$got"
	else
		fail bench/fabrics/report "got '$got', want '$want'"
	fi
else
	skip bench/fabrics/report "python3 not installed"
fi
finish
