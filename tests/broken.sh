#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The broken examples.  Every examples/broken/NAME.rack is a small design
# with exactly one intended mistake, described in its header comment.  For
# each, run
#
#     $RACKC --check --stdlib=. examples/broken/NAME.rack
#
# from the top of the source tree and require
#   - stderr to equal examples/broken/NAME.stderr byte for byte,
#   - the exit status to be 1,
#   - nothing on stdout, no signal, no sanitizer report,
#   - the header comment to start with "# NAME.rack:".
#
# --stdlib=. makes the compiler read the standard library of this source
# tree (not an installed copy, which rackc prefers when there is one) and
# name it by a relative path (./std/...), so that the notes that point into
# the catalog read the same in every checkout.
#
# `tests/broken.sh --regen` (or RACKC_REGEN=1) rewrites the .stderr files
# from the compiler's output; review the result with `git diff` before
# committing it.  A case whose .stderr file is missing fails otherwise.
# Further arguments select cases by path (examples/broken/NAME.rack).

. "$(dirname "$0")/lib.sh"


cd "$top_srcdir" || exit 99

if [ $# -gt 0 ]; then
	printf '%s\n' "$@" >"$tmp/cases"
else
	find examples/broken -name '*.rack' -type f | sort >"$tmp/cases"
fi

n=0
while IFS= read -r case; do
	n=$((n + 1))
	name=${case##*/}
	expected=${case%.rack}.stderr
	o=$tmp/$n
	if ! rk_run "$o" --check --stdlib=. "$case"; then
		fail "$name" "$rk_problem"
		show "$o.err"
		continue
	fi
	if [ "$regen" = 1 ]; then
		cp "$o.err" "$expected"
	fi
	why=
	if [ "$rc" -ne 1 ]; then
		why="exit status $rc, expected 1"
	fi
	if [ -s "$o.out" ]; then
		why="${why:+$why; }output on stdout"
	fi
	case $(sed -n 1p "$case") in
	"# $name: "?*) ;;
	*) why="${why:+$why; }no header comment '# $name: ...' on line 1" ;;
	esac
	if [ ! -f "$expected" ]; then
		why="${why:+$why; }no $expected (run tests/broken.sh --regen)"
	elif ! cmp -s "$expected" "$o.err"; then
		why="${why:+$why; }stderr differs from $expected"
	fi
	if [ -z "$why" ]; then
		pass "$name"
	else
		fail_diff "$name" "$why" "$expected" "$o"
	fi
done <"$tmp/cases"

finish
