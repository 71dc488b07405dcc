#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The worst cases of the limits (doc/language.md section 13): inputs of at
# most 64 bytes (128 for a generated fabric) that drive one limit as far as
# it goes, and 16 MiB source files in the shapes that make the largest
# syntax trees, each run to the end
# (every check, and every back end where the design is valid) with its peak
# memory (the largest resident set) and processor time measured and held
# to a bound: the figure the documentation gives, with room for a loaded
# machine.  A change that makes objects, links or attribute values dearer,
# or a limit that lets more through, fails here.
#
# A sanitizer build keeps its own shadow memory and runs 5 to 15 times
# slower, and these inputs would take several GiB there: they are pinned
# on the plain build only (skipped on a sanitizer build).
. "$(dirname "$0")/lib.sh"

if [ "$rk_sanitized" = yes ]; then
	skip limits "worst cases are pinned on the plain build"
	finish
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip limits "python3 not installed (it measures the peak memory)"
	finish
fi

# judge NAME PEAK_MIB CPU_S STATUS PATTERN WHAT ARG...: run the compiler
# with ARG... and measure it; NAME passes when it exits with STATUS, says
# /PATTERN/ on stderr (when given), reports nothing from a sanitizer and
# stays within PEAK_MIB of memory and CPU_S seconds of processor time.
# WHAT opens the description.
judge() {
	j_name=$1 j_peak=$2 j_cpu=$3 j_status=$4 j_pattern=$5 j_what=$6
	shift 6
	# shellcheck disable=SC2046 # the fields of the measurement
	set -- $(rk_measure "$tmp/r" "$RACKC" "$@")
	j_mib=$((($2 + 1023) / 1024))
	j_what="$j_what${j_what:+, }exit $1, $j_mib MiB, $3 ms"
	if [ "$1" != "$j_status" ]; then
		fail "$j_name" "$j_what, want exit $j_status"
		show "$tmp/r.err" 10
	elif [ -n "$j_pattern" ] && ! grep -E -q "$j_pattern" "$tmp/r.err"; then
		fail "$j_name" "$j_what, no /$j_pattern/ on stderr"
		show "$tmp/r.err" 10
	elif grep -E -q 'AddressSanitizer|runtime error:' "$tmp/r.err"; then
		fail "$j_name" "$j_what, sanitizer report"
	elif [ "$j_mib" -gt "$j_peak" ]; then
		fail "$j_name" "$j_what: more than $j_peak MiB"
	elif [ "$3" -gt $((j_cpu * 1000)) ]; then
		fail "$j_name" "$j_what: more than $j_cpu s of processor time"
	else
		pass "$j_name" "$j_what"
	fi
}

# Cases: NAME|MODE|PEAK_MIB|CPU_S|STATUS|STDERR_PATTERN|INPUT
#   MODE     check (--check) or full (every back end, into a directory)
#   PEAK_MIB, CPU_S   the bounds: the documented worst case and a margin
#   INPUT    printf format of the file (at most 64 bytes)
cat >"$tmp/cases" <<'EOF'
# the longest loop: ten million iterations of nothing
loop|full|64|5|0||for i in 0..9999999{}
# the step limit: fifty million steps
steps|check|64|10|1|step limit|for i in 0..9999999{for j in 0..4{}}
# just under the object limit, valid: every check and back end runs
objects|full|830|30|0||for i in 0..1998{group a[i]{for j in 0..998{group b[j]{}}}}
# one more object than the limit
objects-over|check|400|20|1|more than 2000000 objects|for i in 0..1999{group a[i]{for j in 0..999{group b[j]{}}}}
# the expansion limit, twice over: two million objects, valid
expand|full|950|30|0||group a[0..999999]{group b{}}
# the link limit: the same two ports linked again and again
links|check|500|20|1|more than 5000000 links|part p:pdu{port q}pdu s:p\nfor i in 0..9999999{link s.q--s.q}
# five million copies of one link, at the limit: the cable plan numbers
# them (their IDs collided one copy at a time, for ever) and every check
# runs; one error shown, the identical others counted
links-copies|check|1500|40|1|^5000000 errors generated|part p:pdu{port q}pdu s:p\nfor i in 0..4999999{link s.q--s.q}
# the link limit with ten million distinct end names (interned)
links-names|check|1000|30|1|more than 5000000 links|for i in 0..9999999{link a[i].q--b[i].q}
# format strings: ten million distinct results, each kept (interned)
fmt-names|check|900|25|0||for i in 0..9999999{let s=f"{i}"}
# format strings of 512 bytes until their bytes pass the limit
fmt-bytes|check|600|15|1|format strings made more than|for i in 0..9999999{let s=f"{i:256}{i:256}"}
# the attribute limit: one attribute given again and again
attributes|check|300|10|1|more than 4000000 attributes|part p:pdu{for i in 0..9999999{height 1U}}
# list elements: a million attributes of eight elements each
values|check|500|10|1|given more than once|part p:pdu{for i in 0..999999{lengths 1m,1m,1m,1m,1m,1m,1m,1m}}
# [*] patterns: 100 fabrics naming a million groups each, counted as
# list elements as they are matched
patterns|check|700|10|1|1:30: error: design has more than 8000000 list elements|fabric f[0..99]:star{members g[*]}group g[0..999999]{}
# the pattern limit: 200,000 patterns each trying 200,000 top-level names
pattern-walk|check|300|10|1|1:34: error: patterns try more than 50000000 names|fabric f[0..199999]:star{members x[*]}group x[0]{}
# list values built in a loop: each iteration's go when it ends, so ten
# million lists of 17 numbers (a list literal), of six lists reusing one
# variable, of nine '->' pairs, of 16-segment names cost one iteration's
# memory
let-loop|check|64|10|0||for i in 0..9999999{let x=[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}
let-reuse|check|64|10|0||let a=[1,1,1,1,1,1,1,1]\nfor i in 0..9999999{let x=[a,a,a,a,a,a]}
pair-loop|check|64|10|0||for i in 0..9999999{let x=1->2->3->4->5->6->7->8->9->0}
path-loop|check|64|10|0||for i in 0..9999999{let x=a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p}
# module arguments: a million instances, each given a list
module-args|check|600|20|0||module m(x){let y=[x,x,x,x]}\ninstance g[0..999999]:m(x=[1,1])
# requires keep a copy of their expression: one in a loop, to the limit
requires|check|400|10|1|1:21: error: requires keep more than 4000000 expression nodes|for i in 0..9999999{require 1==1}
# a generated fabric past the link limit: a star over six million ports
# (these two need a switch part: up to 128 bytes)
fabric-links|check|900|20|1|2:1: error: design has more than 5000000 links|part p:switch{port q[0..999]}switch s[0..5999]:p\nfabric f:star{endpoints s[*].q[*];switch p}
# a generated fabric past the object limit: 2.5 million one-port switches
fabric-objects|check|1000|20|1|2:1: error: design has more than 2000000 objects|part p:switch{port q[0..9]}part w:switch{port q}switch s[0..249999]:p\nfabric f:star{endpoints s[*].q[*];switch w}
EOF

while IFS='|' read -r name mode peak cpu status pattern input; do
	case $name in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2059 # the input is a printf format
	printf "$input" >"$tmp/in.rack"
	size=$(wc -c <"$tmp/in.rack")
	max=64
	case $name in fabric-*) max=128 ;; esac
	if [ "$size" -gt "$max" ]; then
		fail "limits/$name" "the input has $size bytes, more than $max"
		continue
	fi
	rm -rf "$tmp/out"
	if [ "$mode" = full ]; then
		set -- -o "$tmp/out"
	else
		set -- --check
	fi
	judge "limits/$name" "$peak" "$cpu" "$status" "$pattern" \
		"$size bytes" "$@" "$tmp/in.rack"
done <"$tmp/cases"
rm -rf "$tmp/out"

# floor-overlap on 50,000 racks (doc/language.md 9.7): one rack in each
# of 50,000 rows, the rows 2 m apart along y, all at x 0, so that every
# footprint spans the same x and a sweep that kept the racks it passes in
# a plain list (or any all-pairs test) would compare 1.25 billion pairs;
# the same rows all at one spot, each rack reported (--max-errors=0).
# The check sorts and keeps a max tree over y: O(n log n), well under a
# second of processor time here.
printf 'part r:rack{}\nsite s{for i in 0..49999{row w[i]{y 2m*i;rack k:r{}}}}\n' \
	>"$tmp/floor.rack"
judge limits/floor-rows 300 2 0 "" "50,000 racks in rows 2 m apart" \
	--check "$tmp/floor.rack"
printf 'part r:rack{}\nsite s{for i in 0..49999{row w[i]{rack k:r{}}}}\n' \
	>"$tmp/floor-same.rack"
judge limits/floor-same 300 4 1 "49999 errors generated" \
	"50,000 racks on one spot" --check --max-errors=0 --no-source \
	"$tmp/floor-same.rack"

# The source size limit: files of 16 MiB (the default limit) in the shapes
# that make the largest syntax trees, and one byte more, each measured as
# above.  NAME|PEAK_MIB|CPU_S|STATUS|STDERR_PATTERN
python3 - "$tmp" <<'PY'
import sys
d, m = sys.argv[1], 16 * 1024 * 1024
def fill(name, head, unit, tail="", size=m):
    n = (size - len(head) - len(tail)) // len(unit)
    with open(d + "/src-" + name + ".rack", "w") as f:
        f.write(head + unit * n + tail)
fill("sum", "let x = ", "1+", "1\n")
# eight million numbers: the most list elements a value may hold
fill("list", "let x = [", "1,", "1]\n", 9 + 2 * 7999999 + 3)
fill("list-over", "let x = [", "1,", "1]\n")
fill("names", "let x = [", "a,", "a]\n")
fill("nestlist", "let x = [", "[" * 64 + "a" + "]" * 64 + ",", "a]\n")
fill("nested", "", "let x = " + "[" * 200 + "1" + "]" * 200 + "\n")
fill("stmts", "", "a\n")
fill("paths", "let x = [", "a.b,", "a]\n")
fill("over", "", "# comment\n", "", m + 10)
# names of 4,001 parts (one '.' after another, or with indices) built
# ten thousand times: once each, not a copy of the segments per '.'
with open(d + "/src-chain.rack", "w") as f:
    f.write("for i in 0..9999 { let x = a" + ".a" * 4000 + " }\n")
with open(d + "/src-chain-index.rack", "w") as f:
    f.write("for i in 0..9999 { let x = a" + "[1].a" * 2000 + " }\n")
PY
cat >"$tmp/srccases" <<'EOF'
# a sum: the parse stops at the expression nesting limit
sum|200|5|1|1:9: error: expression nested deeper than 4096 levels
# eight million numbers in one list: the syntax tree and the list value
list|1000|10|0|
# 8,388,604 numbers: the list value is refused, the parse is paid
list-over|700|10|1|1:9: error: list values hold more than 8000000 elements
# 8,388,604 one-word names: the same
names|600|10|1|1:9: error: list values hold more than 8000000 elements
# one-element lists of a name nested 64 deep, the largest shape found: a
# list node per two bytes, and list values up to the element limit
nestlist|1100|10|1|error: list values hold more than 8000000 elements
# lists nested 200 deep, one per line
nested|1000|10|1|already defined
# eight million one-word statements
stmts|1000|10|1|unknown attribute or kind 'a'
# four million two-part names in a list
paths|1100|10|0|
# long names in a loop (8 and 12 KiB files)
chain|64|5|0|
chain-index|64|5|0|
# one byte past the limit
over|64|2|2|is larger than 16777216 bytes \(the source size limit
EOF
while IFS='|' read -r name peak cpu status pattern; do
	case $name in '' | '#'*) continue ;; esac
	judge "limits/source-$name" "$peak" "$cpu" "$status" "$pattern" "" \
		--check "$tmp/src-$name.rack"
done <"$tmp/srccases"
rm -f "$tmp"/src-*.rack

# --max-source-bytes: the canonical form of a design of 300,000 GPUs is
# larger than 16 MiB; rackc reads it back with the option and refuses it
# without (exit 2, saying which limit)
big=$((64 * 1024 * 1024))
if ! "$RACKC" -D GPUS=300000 -O ir -o "$tmp/big" \
	"$top_srcdir/bench/synth.rack" >"$tmp/r.out" 2>"$tmp/r.err"; then
	fail limits/max-source "the 300,000-GPU design does not compile"
	show "$tmp/r.err" 10
else
	size=$(wc -c <"$tmp/big/ir.rack")
	st=0
	"$RACKC" --check "$tmp/big/ir.rack" >"$tmp/r.out" 2>"$tmp/r.err" || st=$?
	if [ "$size" -le 16777216 ]; then
		fail limits/max-source "ir.rack has $size bytes, not more than 16 MiB"
	elif [ "$st" != 2 ] || ! grep -q "ir.rack' is larger than 16777216 bytes" "$tmp/r.err"; then
		fail limits/max-source "ir.rack of $size bytes without the option: exit $st"
		show "$tmp/r.err" 5
	elif ! "$RACKC" --max-source-bytes=$big --check "$tmp/big/ir.rack" \
		>"$tmp/r.out" 2>"$tmp/r.err"; then
		fail limits/max-source "ir.rack of $size bytes does not compile with --max-source-bytes"
		show "$tmp/r.err" 10
	else
		pass limits/max-source "ir.rack of $size bytes: refused without the option, compiles with it"
	fi
fi
st=0
"$RACKC" --max-source-bytes=0 --check "$tmp/big/ir.rack" >/dev/null \
	2>"$tmp/r.err" || st=$?
if [ "$st" = 2 ] && grep -q "max-source-bytes needs a number from 1 to 1073741824" "$tmp/r.err"; then
	pass limits/max-source-usage "--max-source-bytes=0 is a usage error"
else
	fail limits/max-source-usage "--max-source-bytes=0: exit $st"
fi
rm -rf "$tmp/big"

# --max-links: 51 links refused at a limit of 50 (saying which limit and
# how to raise it), compiled at 51; 0 is a usage error
printf 'part p:pdu{port q[0..101]}\npdu s:p\nfor i in 0..50{link s.q[2*i]--s.q[2*i+1]}\n' \
	>"$tmp/l51.rack"
st=0
"$RACKC" --max-links=50 --check "$tmp/l51.rack" >/dev/null 2>"$tmp/r.err" || st=$?
st2=0
"$RACKC" --max-links=51 --check "$tmp/l51.rack" >/dev/null 2>"$tmp/r2.err" || st2=$?
st3=0
"$RACKC" --max-links=0 --check "$tmp/l51.rack" >/dev/null 2>"$tmp/r3.err" || st3=$?
if [ "$st" = 1 ] && grep -q 'more than 50 links (the link limit; --max-links raises it)' "$tmp/r.err" &&
	[ "$st2" = 0 ] && [ "$st3" = 2 ] &&
	grep -q 'max-links needs a number from 1 to 50000000' "$tmp/r3.err"; then
	pass limits/max-links "51 links: refused at 50, compiled at 51; 0 refused"
else
	fail limits/max-links "exit $st at 50, $st2 at 51, $st3 at 0"
	show "$tmp/r.err" 5
fi

# rackc diff passes the option on: a 1,000-GPU design's output directory
# (its ir.rack some 2 MiB) read with a limit below and above its size
if ! "$RACKC" -O ir,report,bom,cabling -o "$tmp/small" \
	"$top_srcdir/bench/synth.rack" >"$tmp/r.out" 2>"$tmp/r.err"; then
	fail limits/diff-max-source "the 1,000-GPU design does not compile"
	show "$tmp/r.err" 10
else
	size=$(wc -c <"$tmp/small/ir.rack")
	st=0
	"$RACKC" diff --max-source-bytes=$((size - 1)) "$tmp/small" \
		"$tmp/small" >"$tmp/r.out" 2>"$tmp/r.err" || st=$?
	if [ "$st" != 2 ] ||
		! grep -q "is larger than $((size - 1)) bytes" "$tmp/r.err"; then
		fail limits/diff-max-source "ir.rack of $size bytes, a limit one byte less: exit $st"
		show "$tmp/r.err" 5
	elif ! "$RACKC" diff --max-source-bytes="$size" "$tmp/small" \
		"$tmp/small" >"$tmp/r.out" 2>"$tmp/r.err"; then
		fail limits/diff-max-source "ir.rack of $size bytes at a limit of its size: not the same design"
		show "$tmp/r.err" 10
	else
		pass limits/diff-max-source "ir.rack of $size bytes: refused one byte under, read at its size"
	fi
fi
rm -rf "$tmp/small"
finish
