#!/bin/sh
# SPDX-License-Identifier: MIT
#
# [*] port patterns over a part of many ports.  A part of N = 200,000
# ports p[0..N-1], a part derived from it that declares every one of them
# again (each name then resolves to the derived part's port) and five more
# p[N..N+4], and a part derived from that which declares p[7] a third
# time; `endpoints x.p[*]` on a device of the last must expand to
# x.p[0], ..., x.p[N+4], each name once, in declaration order (bases
# first).  Dropping the repeats used to compare every port with every port
# kept before it (N^2 / 2 comparisons), now a hash set.  The run is
# checked by its results (-O ir, the fabric's endpoint count); the timeout
# is a hang guard only.
. "$(dirname "$0")/lib.sh"

n=200000
last=$((n + 4))
cat >"$tmp/big.rack" <<EOF
part a : server { height 1U; port p[0..$((n - 1))] { speed 100Gb/s } }
part b : a {
	port p[0..$((n - 1))] { speed 200Gb/s }
	port p[$n..$last] { speed 400Gb/s }
}
part c : b { port p[7] { speed 400Gb/s } }
node x : c
fabric f : star { endpoints x.p[*] }
EOF
awk -v last="$last" 'BEGIN {
	printf "\tendpoints "
	for (i = 0; i <= last; i++)
		printf "%sx.p[%d]", (i ? ", " : ""), i
	printf "\n"
}' >"$tmp/want"

name="big-parts/$((last + 1)) ports"
if ! rk_run "$tmp/r" -O ir -o "$tmp/out" "$tmp/big.rack"; then
	fail "$name" "$rk_problem"
	show "$tmp/r.err"
elif [ "$rc" -ne 0 ]; then
	fail "$name" "exit $rc"
	show "$tmp/r.err"
elif ! grep '^	endpoints ' "$tmp/out/ir.rack" >"$tmp/got" ||
	! cmp -s "$tmp/want" "$tmp/got"; then
	fail "$name" "endpoints in ir.rack are not x.p[0..$last] in order"
	cut -c 1-300 "$tmp/got" >"$tmp/got.head"
	show "$tmp/got.head"
elif ! grep -q "fabric 'f' connects 0 of its $((last + 1)) endpoints" \
	"$tmp/r.err"; then
	fail "$name" "fabric-endpoints does not count $((last + 1)) endpoints"
	show "$tmp/r.err"
else
	pass "$name"
fi

# Unknown parts in a large design with no error limit: each message's
# did-you-mean search looks at every object, so 20,000 misspelt part names
# among 200,000 objects were 4 * 10^9 steps.  The search shares the
# per-compilation budget of 4,000,000 candidates (doc/language.md section
# 13): every message is still reported, the first ones with their
# suggestion, and none once the budget is spent (at most 4,000,000 /
# 200,000 + 1 = 21 searches fit, in declaration order).
bad=20000
awk -v bad="$bad" 'BEGIN {
	print "part srv : server { height 1U }"
	print "group g[0..199999] { }"
	for (i = 0; i < bad; i++)
		printf "node m%d : svr\n", i
}' >"$tmp/unknown.rack"
name="big-parts/$bad unknown parts among 200,000 objects"
if ! rk_run "$tmp/u" --check --max-errors=0 --no-source "$tmp/unknown.rack"; then
	fail "$name" "$rk_problem"
	show "$tmp/u.err"
elif [ "$rc" -ne 1 ]; then
	fail "$name" "exit $rc, expected 1"
	show "$tmp/u.err"
else
	all=$(grep -c "error: unknown part 'svr'" "$tmp/u.err")
	hint=$(grep -c "error: unknown part 'svr'; did you mean 'srv'?" \
		"$tmp/u.err")
	first=$(grep -m 1 "error: unknown part 'svr'" "$tmp/u.err")
	case $first in
	*"did you mean 'srv'"*) firsthint=yes ;;
	*) firsthint=no ;;
	esac
	if [ "$all" -ne "$bad" ]; then
		fail "$name" "$all of $bad unknown parts reported"
	elif [ "$firsthint" != yes ] || [ "$hint" -lt 1 ] || [ "$hint" -gt 21 ]; then
		fail "$name" "$hint suggestions (first: $firsthint), expected 1 to 21 starting with the first"
	else
		pass "$name"
	fi
fi

finish
