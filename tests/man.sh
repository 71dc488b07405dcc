#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The man pages (doc/man/*.1): each renders with groff without a warning
# (-ww) and, where mandoc is installed, passes `mandoc -Tlint`; and
# tests/man_check.py holds them to rackc's own output: a page per
# subcommand, every option of each --help, every back end and every check.

. "$(dirname "$0")/lib.sh"

mandir=$top_srcdir/doc/man
set -- "$mandir"/*.1
if [ ! -e "$1" ]; then
	fail pages "no doc/man/*.1"
	finish
fi
for f in "$@"; do
	p=$(basename "$f")
	if ! command -v groff >/dev/null 2>&1; then
		skip "groff $p" "groff is not installed"
	elif groff -man -Tutf8 -ww -z "$f" >"$tmp/$p.groff" 2>&1 &&
		[ ! -s "$tmp/$p.groff" ]; then
		pass "groff $p"
	else
		fail "groff $p" "warnings or errors"
		show "$tmp/$p.groff"
	fi
	if ! command -v mandoc >/dev/null 2>&1; then
		skip "mandoc $p" "mandoc is not installed"
	elif mandoc -Tlint -Wstyle "$f" >"$tmp/$p.lint" 2>&1; then
		pass "mandoc $p"
	else
		fail "mandoc $p" "mandoc -Tlint -Wstyle"
		show "$tmp/$p.lint"
	fi
done

if ! command -v python3 >/dev/null 2>&1; then
	skip man_check.py "python3 not installed"
elif python3 "$top_srcdir/tests/man_check.py" "$RACKC" "$mandir" \
	"$top_srcdir/Makefile.am" >"$tmp/check.res" 2>"$tmp/check.err"; then
	py_results man "$tmp/check.res"
else
	fail man_check.py "failed"
	show "$tmp/check.err"
fi
finish
