#!/bin/sh
# SPDX-License-Identifier: MIT
#
# doc/tutorial.md as a reader follows it: its steps are numbered in
# order ("## N. Title"); steps 1 to 6 each hold one design, saved as
# stepN.rack (<!-- file: stepN.rack -->), that a command of the same step
# compiles; then, by tests/docblocks.sh's conventions (tests/doclib.sh),
# every design is compiled and every command run, and what each prints
# must be what the tutorial shows (nothing for a clean design, the stated
# error at the stated line otherwise).

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/doclib.sh"

tut=$top_srcdir/doc/tutorial.md

# the steps: "N TITLE" a line, and per step its designs and commands
if [ -f "$tut" ]; then
	awk '
	/^## [0-9]+\. / { step = $2 + 0; print "step", step; next }
	/^## / { step = 0; next }
	step && /^<!-- file: / { f = $3; print "file", step, f; next }
	step && /^\$ rackc / { print "cmd", step, $0 }
	' "$tut" >"$tmp/steps"
else
	: >"$tmp/steps"
fi
n=0
order=ok
awk '$1 == "step" { print $2 }' "$tmp/steps" >"$tmp/numbers"
while read -r s; do
	n=$((n + 1))
	[ "$s" -eq "$n" ] || order="step $s is number $n"
done <"$tmp/numbers"
if [ "$n" -ge 8 ] && [ "$order" = ok ]; then
	pass tutorial/steps "$n steps in order"
else
	fail tutorial/steps "$n steps, at least 8 wanted, in order (${order})"
fi
s=1
while [ "$s" -le 6 ]; do
	files=$(awk -v s="$s" '$1 == "file" && $2 == s { printf "%s%s", sep, $3; sep = " " }' "$tmp/steps")
	if [ "$files" != "step$s.rack" ]; then
		fail "tutorial/step$s" "its design is not saved as step$s.rack (found: ${files:-none})"
	elif ! awk -v s="$s" '$1 == "cmd" && $2 == s' "$tmp/steps" |
		grep -q -E "rackc .*step$s\.rack( |$)"; then
		fail "tutorial/step$s" "no command of the step compiles step$s.rack"
	else
		pass "tutorial/step$s" "one design, compiled"
	fi
	s=$((s + 1))
done

doc_blocks doc/tutorial.md

finish
