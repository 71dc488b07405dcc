#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The bash completion (completions/rackc): sourced into bash, its function
# called with COMP_WORDS and COMP_CWORD set as bash sets them, and the
# words it offers compared with lists taken, here and now, from rackc's
# own output (`--help`, `SUB --help`, `--list-backends`, `--list-checks`,
# `parts`), so that the completion cannot drift from the program.

. "$(dirname "$0")/lib.sh"

script=$top_srcdir/completions/rackc
cd "$tmp" || exit 99
if ! command -v bash >/dev/null 2>&1; then
	skip completion "bash is not installed"
	finish
fi
mkdir sub
: >a.rack
: >b.txt
: >p.csv

# comp WORD... : the words the completion offers for the command line
# "rackc WORD..." (the last WORD the one being completed), sorted, one a
# line
cat >comp.bash <<'EOF'
. "$1" || exit 3
shift
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
_rackc || exit 4
printf '%s\n' "${COMPREPLY[@]}"
EOF
comp() {
	bash comp.bash "$script" "$RACKC" "$@" | sed '/^$/d' | sort -u
}

# c NAME EXPECTED WORD...: the completion of "rackc WORD..." is exactly
# the lines of the file EXPECTED (in any order)
c() {
	c_name=$1 c_want=$2
	shift 2
	comp "$@" >"$c_name.got" 2>"$c_name.err" || true
	sort -u "$c_want" | sed '/^$/d' >"$c_name.want"
	if [ -s "$c_name.err" ]; then
		fail "$c_name" "the completion wrote to stderr"
		show "$c_name.err"
	elif [ ! -s "$c_name.want" ]; then
		fail "$c_name" "nothing expected: rackc's list is empty"
	elif cmp -s "$c_name.got" "$c_name.want"; then
		pass "$c_name"
	else
		fail "$c_name" "offered words differ from rackc's list"
		diff "$c_name.want" "$c_name.got" | sed 's/^/    /' | head -20
	fi
}

if bash -n "$script" 2>syntax.err; then
	pass syntax
else
	fail syntax
	show syntax.err
fi

# rackc's own lists
"$RACKC" --help >help.txt
"$RACKC" --list-backends | awk '{ print $1 }' >backends.txt
"$RACKC" --list-checks | awk '{ print $1 }' >checks.txt
awk '$1 == "rackc" && $2 ~ /^[a-z]/ { print $2 }' help.txt >subs.txt
# long options as the help names them, '=' after those taking a value
longopts() {
	grep -E -o -e '(^|[ ,])--[a-z][a-z-]*=?' | sed 's/^[ ,]*//' | sort -u
}

# the first word: the subcommands, .rack files and directories
{
	cat subs.txt
	echo a.rack
	echo sub
} >want-first
c first-word want-first ''
if [ "$(wc -l <subs.txt)" -ge 3 ]; then
	pass subcommands-listed
else
	fail subcommands-listed "fewer than 3 subcommands in rackc --help"
fi

c backends backends.txt -O ''
grep '^re' backends.txt | sed 's/^/ir,/' >want-list
c backend-list want-list -O ir,re
grep '^s' backends.txt | sed 's/^/--backend=ir,/' >want-long
c backend-long want-long --backend=ir,s
# as bash splits it: COMP_WORDBREAKS holds '='
grep '^s' backends.txt >want-split
c backend-split want-split --backend = s

c checks-W checks.txt -W ''
c checks-E checks.txt -E ''
grep '^power-f' checks.txt | sed 's/^/-Wno-/' >want-wno
c checks-Wno want-wno -Wno-power-f
grep '^fabric-' checks.txt | sed 's/^/-E/' >want-e
c checks-attached want-e -Efabric-

sed -n 's/.*--diagnostics-format=\([a-z|]*\).*/\1/p' help.txt | tr '|' '\n' |
	sed 's/^/--diagnostics-format=/' >want-fmt
c diagnostics-format want-fmt --diagnostics-format=

# every long option of the help, and no other
longopts <help.txt >want-opts
comp -- >got-all
grep '^--' got-all >got-opts || true
c long-options want-opts --

# each subcommand's options and --format values, from its own help
while read -r sub; do
	# a subcommand this build leaves out (lsp without Jansson) says so
	if ! "$RACKC" "$sub" --help >"help-$sub.txt" 2>"help-$sub.err"; then
		skip "$sub-options" "not in this build: $(head -c 120 "help-$sub.err")"
		continue
	fi
	longopts <"help-$sub.txt" >"want-$sub"
	c "$sub-options" "want-$sub" "$sub" --
	sed -n 's/.*--format=\([a-z|]*\).*/\1/p' "help-$sub.txt" | tr '|' '\n' >"fmt-$sub"
	if [ -s "fmt-$sub" ]; then
		c "$sub-format" "fmt-$sub" "$sub" --format ''
	fi
done <subs.txt

# part names after parts --show
"$RACKC" parts | awk 'NR > 1 && $1 ~ /^gb300/ { print "--show=" $1 }' >want-parts
c parts-show want-parts parts --show=gb300

# files: designs, price lists, directories
printf 'a.rack\nsub\n' >want-design
c diff-operand want-design diff a.rack ''
printf 'p.csv\nsub\n' >want-csv
c prices-file want-csv --prices ''
echo sub >want-dir
c output-dir want-dir -o ''

finish
