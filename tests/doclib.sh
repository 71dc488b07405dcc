# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# shellcheck disable=SC2154 # tmp, rc, rk_problem and top_srcdir come from lib.sh
#
# Shared code of tests/docblocks.sh and tests/tutorial.sh (sourced after
# lib.sh, not run): doc_blocks DOC compiles DOC's ```rack blocks and runs
# its ```console commands, one case each, by the conventions that
# tests/docblocks.sh describes.

mkdir -p "$tmp/bin"
ln -s "$RACKC" "$tmp/bin/rackc"

# split DOC DIR: each fenced block of DOC into DIR/N (N: the fence's line
# number), and DIR/list: "N LANG MARKER" a block, in order (MARKER: the
# HTML comment on the line before the fence, without its delimiters)
split() {
	awk -v dir="$2" '
	function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	inblk && /^```[ \t]*$/ { inblk = 0; close(f); next }
	inblk { print > f; next }
	/^```/ {
		inblk = 1; lang = substr($0, 4); f = dir "/" NR
		printf "" > f
		m = ""
		if (prev ~ /^<!--.*-->[ \t]*$/) {
			m = prev; sub(/^<!--/, "", m); sub(/-->[ \t]*$/, "", m)
			m = trim(m)
		}
		print NR, (lang == "" ? "-" : lang), m > (dir "/list")
		next
	}
	{ prev = $0 }
	END { if (inblk) { print "unterminated block" > "/dev/stderr"; exit 1 } }
	' "$1"
}

# compile NAME FILE [L:C LEVEL [CHECK]]: the case for a rack block
# compiled on its own in the current directory
compile() {
	c_name=$1 c_file=$2
	shift 2
	if ! rk_run "$w/r" --check --no-source "$c_file"; then
		fail "$c_name" "$rk_problem"
		show "$w/r.err"
		return 0
	fi
	if [ $# -eq 0 ]; then
		if [ "$rc" -eq 0 ] && [ ! -s "$w/r.err" ]; then
			pass "$c_name"
		else
			fail "$c_name" "exit $rc, expected a clean compilation (mark a fragment <!-- fragment -->)"
			show "$w/r.err"
		fi
		return 0
	fi
	c_at=$1 c_level=$2 c_check=${3:-}
	c_want=0
	[ "$c_level" = error ] && c_want=1
	if [ "$rc" -eq "$c_want" ] &&
		grep -F -q -e "$c_file:$c_at: $c_level: " "$w/r.err" &&
		grep -F "$c_file:$c_at: $c_level: " "$w/r.err" |
		grep -F -q -e "$c_check"; then
		pass "$c_name" "$c_level at $c_at${c_check:+ $c_check}"
	else
		fail "$c_name" "exit $rc, expected $c_level at $c_at $c_check"
		show "$w/r.err"
	fi
}

# console NAME BLOCK ABRIDGED: run each command of a console block
console() {
	awk -v dir="$w" '
	/^\$ / { n++; f = dir "/cmd" n; print substr($0, 3) > f; close(f)
		print NR > (dir "/at" n); close(dir "/at" n)
		g = dir "/want" n; printf "" > g; next }
	n { print >> (dir "/want" n) }
	END { print n + 0 > (dir "/ncmd") }
	' "$2"
	k=1
	while [ "$k" -le "$(cat "$w/ncmd")" ]; do
		line=$(($3 + $(cat "$w/at$k")))
		cmd=$(cat "$w/cmd$k")
		(PATH=$tmp/bin:$PATH timeout "$RK_TIMEOUT" sh -c "$cmd") \
			>"$w/got" 2>&1 </dev/null && x=0 || x=$?
		if [ "$x" -ge 124 ] ||
			grep -E -q 'AddressSanitizer|LeakSanitizer|runtime error:' \
				"$w/got"; then
			fail "$1:$line" "exit $x: $cmd"
			show "$w/got"
		elif [ "$4" = abridged ]; then
			if [ "$x" -le 1 ]; then
				pass "$1:$line" "$cmd (output abridged)"
			else
				fail "$1:$line" "exit $x: $cmd"
				show "$w/got"
			fi
		elif diff -u "$w/want$k" "$w/got" >"$w/diff"; then
			pass "$1:$line" "$cmd"
		else
			fail "$1:$line" "$cmd: the output differs (shown -, got +)"
			show "$w/diff" 60
		fi
		k=$((k + 1))
	done
}

# doc_blocks DOC: the cases of one document (a path relative to the
# source tree, or absolute)
doc_blocks() {
	doc=$1
	name=$doc
	case $doc in
	/*) ;;
	*) doc=$top_srcdir/$doc ;;
	esac
	d=$tmp/$(basename "$doc" .md)
	w=$d/work
	mkdir -p "$d/blocks" "$w"
	if [ ! -f "$doc" ] || ! split "$doc" "$d/blocks" 2>"$d/split.err"; then
		fail "$name" "cannot read its blocks"
		show "$d/split.err"
		return 0
	fi
	[ -f "$d/blocks/list" ] || : >"$d/blocks/list"
	# the files named by a console command, so not compiled on their own
	grep -h '^\$ ' "$doc" >"$d/commands" || :
	cd "$w" || exit 99
	nrack=0
	while read -r at lang marker; do
		blk=$d/blocks/$at
		case $lang in
		rack)
			nrack=$((nrack + 1))
			case $marker in
			fragment) continue ;;
			file:*)
				f=$(echo "${marker#file:}" | tr -d ' ')
				cp "$blk" "$w/$f"
				if grep -q -F -e " $f" "$d/commands" ||
					grep -q -E -e "^import \"${f%.rack}(\.rack)?\"" "$doc"; then
					continue
				fi
				compile "$name:$at" "$f" ;;
			expect:*)
				cp "$blk" "$w/block$at.rack"
				# shellcheck disable=SC2086 # the marker's words
				compile "$name:$at" "block$at.rack" ${marker#expect:} ;;
			'')
				cp "$blk" "$w/block$at.rack"
				compile "$name:$at" "block$at.rack" ;;
			*)
				fail "$name:$at" "unknown marker '$marker'" ;;
			esac
			;;
		console)
			ab=
			[ "$marker" = abridged ] && ab=abridged
			console "$name" "$blk" "$at" "$ab" ;;
		esac
	done <"$d/blocks/list"
	if [ "$nrack" -eq 0 ]; then
		fail "$name" "no rack block found"
	fi
	cd "$top_srcdir" || exit 99
}
