#!/bin/sh
# SPDX-License-Identifier: MIT
# Two-tier fat trees whose last scalable unit is not full, for every size
# of it from 1 to su_size - 1, over switches of 8 to 64 ports (1:1 and
# 3:1), 1 to 4 rails and 0 to 2 full units before it: every leaf cables
# no more uplink than downlink, its uplink count and spread and the spine
# count are computed independently from the design's numbers, no spine
# has more links than ports, and the 1:1 trees are non-blocking; filling
# the last unit node by node only adds cables.  Then
# empty and nearly empty leaves, and port sets of differing names and
# speeds (tests/partial_su_check.py).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip partial-su "python3 not installed"
	finish
fi

python3 "$top_srcdir/tests/partial_su_check.py" "$RACKC" "$tmp" \
	"$RK_TIMEOUT" >"$tmp/results" 2>"$tmp/err" || true
if [ -s "$tmp/err" ]; then
	fail partial-su "the checker failed"
	show "$tmp/err"
fi
py_results partial-su "$tmp/results"
finish
