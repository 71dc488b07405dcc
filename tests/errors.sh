#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Expected-diagnostic tests.  For every tests/errors/**/*.rack, run
#
#     $RACKC --check [ARGS] tests/errors/DIR/NAME.rack
#
# from the top of the source tree (so messages carry that relative path)
# and require
#   - stderr to equal tests/errors/DIR/NAME.stderr byte for byte,
#   - the exit status to be 1, or what the file asks for,
#   - nothing on stdout, no signal, no sanitizer report.
#
# Directives, in the comment lines at the top of the .rack file:
#   # args: -D n=3 --max-errors=2     extra arguments (split on blanks)
#   # exit: 0                         expected exit status
#   # xfail: why                      a known compiler bug: the .stderr file
#                                     holds the output the compiler SHOULD
#                                     give (hand-written, never regenerated);
#                                     a mismatch (or a crash or sanitizer
#                                     report) is reported as XFAIL, a match
#                                     as a failure ("XPASS: remove the xfail
#                                     line")
#   # xfail-san: why                  the same, but only for a sanitizer
#                                     build (a bug only sanitizers see);
#                                     the .stderr file is the normal one
#
# Files under a directory named inc/ are helpers that cases import; they
# are not cases themselves.
#
# `tests/errors.sh --regen` (or RACKC_REGEN=1) rewrites the .stderr files
# from the compiler's output; review the result with `git diff` before
# committing it.  A case whose .stderr file is missing fails otherwise.
# Further arguments select cases by path (tests/errors/units/...).

. "$(dirname "$0")/lib.sh"


cd "$top_srcdir" || exit 99

if [ $# -gt 0 ]; then
	printf '%s\n' "$@" >"$tmp/cases"
else
	find tests/errors -name '*.rack' -type f ! -path '*/inc/*' |
		sort >"$tmp/cases"
fi

n=0
while IFS= read -r case; do
	n=$((n + 1))
	name=${case#tests/errors/}
	expected=${case%.rack}.stderr
	args=$(directive args "$case")
	want=$(directive exit "$case")
	want=${want:-1}
	known=$(directive xfail "$case")
	if [ -z "$known" ] && [ "$rk_sanitized" = yes ]; then
		known=$(directive xfail-san "$case")
	fi
	o=$tmp/$n
	set -f
	# shellcheck disable=SC2086 # the args directive is split on blanks
	if ! rk_run "$o" --check $args "$case"; then
		set +f
		if [ -n "$known" ]; then
			xfail "$name" "$known; $rk_problem"
		else
			fail "$name" "$rk_problem"
		fi
		show "$o.err"
		continue
	fi
	set +f
	if [ "$regen" = 1 ] && [ -z "$(directive xfail "$case")" ]; then
		cp "$o.err" "$expected"
	fi
	why=
	if [ "$rc" -ne "$want" ]; then
		why="exit status $rc, expected $want"
	fi
	if [ -s "$o.out" ]; then
		why="${why:+$why; }output on stdout"
	fi
	if [ ! -f "$expected" ]; then
		why="${why:+$why; }no $expected (run tests/errors.sh --regen)"
	elif ! cmp -s "$expected" "$o.err"; then
		why="${why:+$why; }stderr differs from $expected"
	fi
	if [ -n "$known" ]; then
		if [ -z "$why" ]; then
			fail "$name" "XPASS: fixed? remove the xfail line"
		else
			xfail "$name" "$known"
			if [ -f "$expected" ]; then
				diff -u "$expected" "$o.err" |
					sed 's/^/    | /' || :
			fi
		fi
	elif [ -z "$why" ]; then
		pass "$name"
	else
		fail_diff "$name" "$why" "$expected" "$o"
	fi
done <"$tmp/cases"

finish
