#!/bin/sh
# SPDX-License-Identifier: MIT
# Fat trees that ask for oversubscription d:u build d:u (or say why not,
# fabric-ratio) and never more switches than the non-blocking tree of the
# same endpoints: the issue's 16 DGX H100 at 2:1, and a sweep over 1:1 to
# 4:1 and 1 to 64 nodes on three switch shapes, every figure counted from
# cabling.csv (tests/fattree_ratio_check.py).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip fattree-ratio "python3 not installed"
	finish
fi

python3 "$top_srcdir/tests/fattree_ratio_check.py" "$RACKC" "$tmp" \
	"$RK_TIMEOUT" "$top_srcdir" >"$tmp/results" 2>"$tmp/err" || true
if [ -s "$tmp/err" ]; then
	fail fattree-ratio "the checker failed"
	show "$tmp/err"
fi
py_results fattree-ratio "$tmp/results"
finish
