#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The editor files (editors/vim/, editors/rack.tmLanguage.json) against the
# lexer's reserved words, the object kinds, the attribute names, the
# functions and the units, read from the sources at test time; the
# TextMate grammar through a small tokenizer and, where Vim is installed,
# the Vim syntax through Vim itself (tests/editors_check.py says what is
# checked).

. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null 2>&1; then
	skip editors "python3 not installed"
	finish
fi

vim=$(command -v vim || true)
if python3 "$top_srcdir/tests/editors_check.py" "$top_srcdir" "$tmp" \
	${vim:+"$vim"} >"$tmp/check.res" 2>"$tmp/check.err"; then
	py_results editors "$tmp/check.res"
else
	fail editors_check.py "failed"
	show "$tmp/check.err"
fi
if [ -z "$vim" ]; then
	skip "editors: vim highlighting" "vim is not installed"
fi
finish
