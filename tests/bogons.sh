#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Bogons: hostile inputs.  The compiler may accept or reject them, but it
# must
#   - exit with status 0 or 1 (2 for the I/O cases),
#   - not die of a signal, hang, or print sanitizer reports,
#   - finish quickly: each case prints the CPU time it used (user +
#     system, which another job on the machine barely changes, unlike the
#     wall-clock time) and fails over RACKC_BOGON_MS milliseconds of it
#     (default 3000, the goal being 1 s; 20000 for a sanitizer build, which
#     runs 5-15 times slower).  The wall clock is only a hang guard
#     (RK_TIMEOUT, tests/lib.sh).
#
# A case preceded by `known "why"` is a reported compiler bug: its failure
# counts as XFAIL (run with a 10 s timeout to keep the suite fast), and its
# passing as a failure, so that the mark is removed once the bug is fixed.
# Checked-in files say the same with a "# known: why" line at the top, or
# "# known-san: why" for a bug that only a sanitizer build detects.
#
# Inputs are the small files in tests/bogons/ plus large or binary ones
# generated here into the temporary directory (never check big files in).
# Each input is compiled with every back end (-o TMP/out), so inputs that
# elaborate also exercise the checks and the back ends.

. "$(dirname "$0")/lib.sh"

if [ "$rk_sanitized" = yes ]; then
	limit_ms=${RACKC_BOGON_MS:-20000}
else
	limit_ms=${RACKC_BOGON_MS:-3000}
fi
g=$tmp/gen
mkdir -p "$g"

# known WHY: the next case is a known bug
b_known=
known() {
	b_known=$1
}

# bound MS: the next case's CPU-time bound in place of limit_ms (seven
# times it in a sanitizer build), for a case whose legitimate work is
# measured and fixed (a limit it runs to) but large: the bound sits well
# above that work and far below what the bug it guards against costs
b_bound=
bound() {
	if [ "$rk_sanitized" = yes ]; then
		b_bound=$(($1 * 7))
	else
		b_bound=$1
	fi
}

# bogon NAME STATUSES FILE [ARG...]: compile FILE; STATUSES lists the
# acceptable exit statuses ("0 1" or "2")
n=0
bogon() {
	b_name=$1 b_ok=$2 b_file=$3
	shift 3
	n=$((n + 1))
	b_why=
	b_saved_timeout=$RK_TIMEOUT
	if [ -n "$b_known" ]; then
		RK_TIMEOUT=10
	fi
	cpu_mark
	b_start=$rk_cpu_ms
	if ! rk_run "$tmp/b$n" "$@" -o "$tmp/out$n" "$b_file"; then
		b_why="$rk_problem"
	fi
	cpu_mark
	b_ms=$((rk_cpu_ms - b_start))
	RK_TIMEOUT=$b_saved_timeout
	rm -rf "$tmp/out$n"
	if [ -n "$b_why" ]; then
		b_why="$b_why (${b_ms} ms)"
		bogon_result
		return 0
	fi
	case " $b_ok " in
	*" $rc "*) ;;
	*) b_why="exit status $rc, expected one of: $b_ok" ;;
	esac
	b_limit=${b_bound:-$limit_ms}
	b_bound=
	if [ "$b_ms" -gt "$b_limit" ]; then
		b_why="${b_why:+$b_why; }took ${b_ms} ms of CPU, over ${b_limit} ms"
	fi
	bogon_result
	return 0
}

bogon_result() {
	if [ -n "$b_known" ]; then
		if [ -z "$b_why" ]; then
			fail "$b_name" "XPASS (${b_ms} ms): fixed? remove the known line"
		else
			xfail "$b_name" "$b_known; $b_why"
		fi
	elif [ -z "$b_why" ]; then
		pass "$b_name" "exit $rc, ${b_ms} ms CPU"
	else
		fail "$b_name" "$b_why"
		show "$tmp/b$n.err" 20
	fi
	b_known=
}

# rep N STRING: STRING repeated N times, no newline
rep() {
	awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# bytes N CHAR: N copies of the single byte CHAR, fast
bytes() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

#### checked-in inputs
for f in "$top_srcdir"/tests/bogons/*; do
	if [ -f "$f" ]; then
		why=$(directive known "$f")
		if [ -z "$why" ] && [ "$rk_sanitized" = yes ]; then
			why=$(directive known-san "$f")
		fi
		if [ -n "$why" ]; then
			known "$why"
		fi
		bogon "${f##*/}" "0 1" "$f"
	fi
done

#### binary and encoding garbage
# 4096 bytes from a fixed linear congruential sequence: all 256 byte
# values, deterministic from run to run
# shellcheck disable=SC2059 # the format is the generated escapes
printf "$(awk 'BEGIN { x = 12345
	for (i = 0; i < 4096; i++) {
		x = (x * 1103515245 + 12345) % 2147483648
		printf "\\%03o", int(x / 65536) % 256
	} }')" >"$g/garbage.rack"
bogon garbage "0 1" "$g/garbage.rack"
# the same garbage after a valid prefix, and inside a string
{ printf 'part srv : server { height 2U }\nparam s = "'
	cat "$g/garbage.rack"; printf '"\n'; } >"$g/garbage-in-string.rack"
bogon garbage-in-string "0 1" "$g/garbage-in-string.rack"
printf 'param a = 1\000\nparam \000b = 2\n# comment \000\n/* \000 */\n' \
	>"$g/nul-bytes.rack"
bogon nul-bytes "0 1" "$g/nul-bytes.rack"
printf 'param s = "a\000b"\n' >"$g/nul-in-string.rack"
bogon nul-in-string "0 1" "$g/nul-in-string.rack"
printf '\000' >"$g/only-nul.rack"
bogon only-nul "0 1" "$g/only-nul.rack"
printf 'param s = "\377\376 \300\257 \355\240\200 \364\220\200\200"\n' \
	>"$g/utf8-invalid-in-string.rack"
bogon utf8-invalid-in-string "0 1" "$g/utf8-invalid-in-string.rack"
printf '\377\376param x = 1\nparam \303\251 = 2\nparam y\200 = 3\n' \
	>"$g/utf8-invalid-outside.rack"
bogon utf8-invalid-outside "0 1" "$g/utf8-invalid-outside.rack"
printf '# caf\303\251 \377\nparam x = 1 // \300\n/* \355\240\200 */\n' \
	>"$g/utf8-invalid-in-comments.rack"
bogon utf8-invalid-in-comments "0 1" "$g/utf8-invalid-in-comments.rack"
printf 'param s = "\342\202' >"$g/utf8-truncated-at-eof.rack"
bogon utf8-truncated-at-eof "0 1" "$g/utf8-truncated-at-eof.rack"
printf '\357\273\277param x = 1\n' >"$g/utf8-bom.rack"
bogon utf8-bom "0 1" "$g/utf8-bom.rack"

#### huge lines (10 MiB)
big=10485760
{ printf 'param '; bytes $big a; printf ' = 1\n'; } >"$g/long-identifier.rack"
bogon long-identifier "0 1" "$g/long-identifier.rack"
{ printf 'param s = "'; bytes $big a; printf '"\n'; } >"$g/long-string.rack"
bogon long-string "0 1" "$g/long-string.rack"
{ printf 'param s = "'; rep 1048576 'abc\\n\\t\\"'; printf '"\n'; } \
	>"$g/long-string-escapes.rack"
bogon long-string-escapes "0 1" "$g/long-string-escapes.rack"
{ printf 'param n = '; bytes $big 7; printf '\n'; } >"$g/long-number.rack"
bogon long-number "0 1" "$g/long-number.rack"
{ printf 'param n = 0.'; bytes $big 0; printf '1kW\n'; } \
	>"$g/long-fraction.rack"
bogon long-fraction "0 1" "$g/long-fraction.rack"
{ printf 'param n = 1'; bytes $big _; printf '\n'; } \
	>"$g/long-underscores.rack"
bogon long-underscores "0 1" "$g/long-underscores.rack"
{ printf '# '; bytes $big c; printf '\nparam x = 1\n'; } \
	>"$g/long-comment.rack"
bogon long-comment "0 1" "$g/long-comment.rack"
{ printf 'param x = 1 /*'; bytes $big '*'; } >"$g/long-open-comment.rack"
bogon long-open-comment "0 1" "$g/long-open-comment.rack"
bytes $big '\n' >"$g/many-newlines.rack"
bogon many-newlines "0 1" "$g/many-newlines.rack"
bytes $big ';' >"$g/many-semicolons.rack"
bogon many-semicolons "0 1" "$g/many-semicolons.rack"
rep 20000 ' \t\n' >"$g/many-blank-lines.rack"
bogon many-blank-lines "0 1" "$g/many-blank-lines.rack"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "param p%d = %d\n", i, i }' \
	>"$g/many-params.rack"
bogon many-params "0 1" "$g/many-params.rack"

#### deep nesting (100,000 levels) and long chains
deep=100000
bytes $deep '{' >"$g/open-braces.rack"
bogon open-braces "0 1" "$g/open-braces.rack"
{ rep $deep 'group g {'; rep $deep '}'; echo; } >"$g/nested-groups.rack"
bogon nested-groups "0 1" "$g/nested-groups.rack"
{ printf 'param x = '; bytes $deep '('; printf 1; bytes $deep ')'
	echo; } >"$g/nested-parens.rack"
bogon nested-parens "0 1" "$g/nested-parens.rack"
{ printf 'param x = '; bytes $deep '('; echo; } >"$g/open-parens.rack"
bogon open-parens "0 1" "$g/open-parens.rack"
{ printf 'param x = '; bytes $deep '['; printf 1; bytes $deep ']'
	echo; } >"$g/nested-lists.rack"
bogon nested-lists "0 1" "$g/nested-lists.rack"
{ printf 'param x = '; bytes $deep '-'; printf '1\n'; } >"$g/minus-run.rack"
bogon minus-run "0 1" "$g/minus-run.rack"
{ printf 'param x = '; rep $deep '- '; printf '1\n'; } >"$g/unary-minus-chain.rack"
bogon unary-minus-chain "0 1" "$g/unary-minus-chain.rack"
{ printf 'param x = '; rep $deep '!'; printf 'true\n'; } >"$g/unary-not-chain.rack"
bogon unary-not-chain "0 1" "$g/unary-not-chain.rack"
{ printf 'param x = 1'; rep 999999 '+1'; echo; } >"$g/long-sum.rack"
bogon long-sum "0 1" "$g/long-sum.rack"
{ printf 'param x = true'; rep 999999 ' && true'; echo; } >"$g/long-and.rack"
bogon long-and "0 1" "$g/long-and.rack"
{ printf 'param l = [1'; rep 999999 ',1'; printf ']\nparam n = len(l)\n'; } \
	>"$g/long-list.rack"
bogon long-list "0 1" "$g/long-list.rack"
{ printf 'param x = a'; rep $deep '.a'; echo; } >"$g/long-dotted-name.rack"
bogon long-dotted-name "0 1" "$g/long-dotted-name.rack"
{ printf 'param x = a'; rep $deep '[0]'; echo; } >"$g/long-index-chain.rack"
bogon long-index-chain "0 1" "$g/long-index-chain.rack"
{ printf 'if true { }'; rep $deep ' else if true { }'; echo; } \
	>"$g/long-else-chain.rack"
bogon long-else-chain "0 1" "$g/long-else-chain.rack"
rep $deep 'param = )\n' >"$g/many-errors.rack"
bogon many-errors "0 1" "$g/many-errors.rack"
bogon many-errors-unlimited "0 1" "$g/many-errors.rack" --max-errors=0 \
	--no-source

#### mismatched closers: a ')' or ']' closing a '{' and every other pair
# of the family, 300 times (past the nesting limit of 256) and $deep times,
# then enough openers to reach the nesting limit again
for pair in '{)' '{]' '(}' '[}' '(]' '[)' '{(}' '[{)' '({]]'; do
	case $pair in
	'{)') nm=brace-paren ;; '{]') nm=brace-bracket ;;
	'(}') nm=paren-brace ;; '[}') nm=bracket-brace ;;
	'(]') nm=paren-bracket ;; '[)') nm=bracket-paren ;;
	'{(}') nm=brace-paren-brace ;; '[{)') nm=bracket-brace-paren ;;
	*) nm=paren-brace-brackets ;;
	esac
	{ printf x; rep 300 "$pair"; } >"$g/mismatch-$nm-300.rack"
	bogon "mismatch-$nm-300" "1" "$g/mismatch-$nm-300.rack"
	{ printf 'group g '; rep $deep "$pair"; rep 300 '{'; echo; } \
		>"$g/mismatch-$nm-deep.rack"
	bogon "mismatch-$nm-deep" "1" "$g/mismatch-$nm-deep.rack" \
		--max-errors=0 --no-source
done

#### bounded work: the error limit stops every loop that can report, and
# a repeated error costs no formatting or name suggestion

# expect_err NAME ERE [COUNT]: the last case's stderr matches ERE (exactly
# COUNT times when given; matches counted, not lines)
expect_err() {
	e_got=$(grep -E -o -e "$2" "$tmp/b$n.err" | wc -l)
	if [ -z "${3:-}" ] && [ "$e_got" -gt 0 ]; then
		pass "$1"
	elif [ -n "${3:-}" ] && [ "$e_got" -eq "$3" ]; then
		pass "$1"
	else
		fail "$1" "stderr matches '$2' $e_got times, want ${3:-some}"
		show "$tmp/b$n.err" 20
	fi
}

# 200,000 devices under their rack's lowest unit: one rack-placement error
# each, of which --max-errors (default 10) shows ten (the JSON output has
# a record per finding shown) and counts all
printf 'part s:server{height 1U}\npart k:rack{height 1U}\nsite a{row w{rack r:k{}}}\nfor i in 0..199999{device d[i]:s{rack a.w.r;at 0U}}\n' \
	>"$g/space-errors.rack"
json=--diagnostics-format=json
bogon space-errors "1" "$g/space-errors.rack"
expect_err space-errors/summary '^200000 errors generated\.$' 1
bogon space-errors-json "1" "$g/space-errors.rack" $json
expect_err space-errors-json/ten '"check":"rack-placement"' 10
expect_err space-errors-json/count '"errors":200000,' 1
expect_err space-errors-json/not-shown '"not_shown":199990}' 1
bogon space-errors-3 "1" "$g/space-errors.rack" $json --max-errors=3
expect_err space-errors-3/three '"level":"error"' 3
# no limit: all of them, written through a buffered stream
bogon space-errors-unlimited "1" "$g/space-errors.rack" --max-errors=0 $json
expect_err space-errors-unlimited/all '"check":"rack-placement"' 200000
bogon space-errors-unlimited-text "1" "$g/space-errors.rack" --max-errors=0
expect_err space-errors-unlimited-text/summary '^200000 errors generated\.$' 1
# diagnostics reach stderr in large writes, not a byte (or a line) at a time
if command -v strace >/dev/null 2>&1 && [ "$rk_sanitized" = no ] &&
	strace -f -o "$tmp/strace.probe" true 2>/dev/null; then
	# 100,000 syntax errors as text; 200,000 check errors as JSON
	for fmt in text json; do
		f=$g/space-errors.rack
		if [ $fmt = text ]; then
			f=$g/many-errors.rack
		fi
		strace -f -e trace=write -o "$tmp/strace" "$RACKC" --check \
			--max-errors=0 --diagnostics-format=$fmt \
			"$f" >/dev/null 2>"$tmp/se.err" || :
		writes=$(grep -c '^[0-9]* *write(2,' "$tmp/strace" || :)
		bytes=$(wc -c <"$tmp/se.err")
		# 64 KiB writes
		if [ "$writes" -gt 0 ] &&
			[ "$writes" -le $((bytes / 16384 + 10)) ]; then
			pass "space-errors-unlimited/buffered-$fmt" \
				"$writes writes of $bytes bytes"
		else
			fail "space-errors-unlimited/buffered-$fmt" \
				"$writes writes of $bytes bytes"
		fi
	done
else
	skip space-errors-unlimited/buffered "strace unusable here"
fi

# one failing statement repeated ten million times: one error shown, the
# repeats counted toward the limit, which stops the loop
printf 'for i in 0..9999999 { e }' >"$g/repeated-error.rack"
bogon repeated-error "1" "$g/repeated-error.rack"
expect_err repeated-error/one-shown ': error: ' 1
expect_err repeated-error/counted '^10 errors generated \(9 of them repeats' 1
bogon repeated-error-unlimited "1" "$g/repeated-error.rack" --max-errors=0
expect_err repeated-error-unlimited/one-shown ': error: ' 1
expect_err repeated-error-unlimited/counted '^10000000 errors generated \(9999999 of them repeats' 1
# the same with a name suggestion looked for among 100,000 objects
printf 'part s:server{height 1U}\nfor i in 0..99999{device d[i]:s{}}\nfor i in 0..99999{device e[i]:nosuch{}}\n' \
	>"$g/repeated-suggestion.rack"
bogon repeated-suggestion "1" "$g/repeated-suggestion.rack" --max-errors=0
expect_err repeated-suggestion/one-shown ': error: ' 1
printf 'part s:server{height 1U}\nfor i in 0..99999{device d[i]:s{}}\nfor i in 0..99999{link d[i].p -- nosuch[i].p}\n' \
	>"$g/repeated-undefined.rack"
bogon repeated-undefined "1" "$g/repeated-undefined.rack" --max-errors=0
# 200,000 waivers (one statement in a loop) naming an unknown check: the
# name's suggestion (an edit distance to every check's name) was worked
# out again for every one (9.6 s; a million took 55 s)
printf 'part s:server{height 1U}\nfor i in 0..199999{device d[i]:s{waive "power-redundancy", "r"}}\n' \
	>"$g/repeated-waiver-suggestion.rack"
bogon repeated-waiver-suggestion "1" "$g/repeated-waiver-suggestion.rack" \
	--max-errors=0
expect_err repeated-waiver-suggestion/one-shown "did you mean 'power-psu-redundancy'" 1

#### bounded work on inputs found by hand (each hung or took over 10 s)

# 600,000 copies of one link key: their cable IDs collided and moved one
# copy onto the next one's salt, round after round over all n (it never
# finished, --check too); 450,000 took over 20 s
printf 'part p:pdu{port q}pdu s:p\nfor i in 0..599999{link s.q--s.q}' \
	>"$g/cable-id-copies.rack"
bogon cable-id-copies "1" "$g/cable-id-copies.rack" --check
expect_err cable-id-copies/counted '^600000 errors generated \(599999 of them repeats' 1
printf 'part p:pdu{port q}pdu s:p\nfor i in 0..449999{link s.q--s.q}' \
	>"$g/cable-id-copies-450k.rack"
bogon cable-id-copies-450k "1" "$g/cable-id-copies-450k.rack"
# 80,000 statements each saying the same of two ports: 80,000 groups of
# "more like this", whose names were looked for by a scan to the end per
# group (23 s with --max-errors=0; the checks now run to the end at
# every limit)
awk 'BEGIN { print "part a:pdu{port p[0..1]}"
	for (i = 0; i < 80000; i++)
		printf "pdu s%d:a\nlink s%d.p[0..1]--s%d.p[0..1]\n", i, i, i }' \
	>"$g/many-groups.rack"
bogon many-groups "1" "$g/many-groups.rack" --check --max-errors=0 --no-source
expect_err many-groups/notes ': note: 1 more like this from the same statement' 80000
bogon many-groups-capped "1" "$g/many-groups.rack" --check
expect_err many-groups-capped/all '^rackc: stopped after 10 errors \(160000 in all\)' 1
# waivers that silence nothing: a million from 54 bytes printed 193 MB of
# one identical warning; now one is shown and the others counted.  What
# fails the old code is the count of warnings shown, not time (printing
# was linear: some 2 us a warning, as the counting is), so the case is
# 200,000 of them: about 0.4 s of CPU, far under the bound at any load.
printf 'for i in 0..199999{group g[i]{waive "port-reuse","x"}}' \
	>"$g/identical-warnings.rack"
bogon identical-warnings "0" "$g/identical-warnings.rack" --check
expect_err identical-warnings/one ': warning: ' 1
expect_err identical-warnings/counted '^200000 warnings generated \(199999 of them repeats' 1

#### output: the bytes of artifacts per compilation (--max-output-bytes)
# Racked servers write the most a byte of input (some 830 bytes each:
# elevations, report.html, ir.rack); at the object limit, with long names,
# past 2 GB.  4,000 of them here: the artifacts' total size S is read from
# the file system, then a run allowed S bytes must write them all and one
# allowed S - 1 must fail (exit 2, one [limit] error) and leave the output
# directory as it was, whatever the number of threads.
printf '%s' 'part r:rack{}part v:server{height 1U}site s{row w{' \
	'rack k[0..99]:r{}}}for j in 0..99{for i in 0..39{node x[j*40+i]:v{' \
	'rack s.w.k[j];at 1U+i*1U}}}' >"$g/output-bytes.rack"
# files_bytes DIR: the sizes of the files under DIR, summed
files_bytes() {
	find "$1" -type f -exec cat {} + | wc -c | tr -d ' '
}
# tree_sum DIR: one line per file, its path and checksum
tree_sum() {
	(cd "$1" && find . -type f -exec cksum {} + | sort)
}
o_dir=$tmp/out-bytes
rk_run "$tmp/ob0" -o "$o_dir" "$g/output-bytes.rack" || true
o_size=$(files_bytes "$o_dir")
if [ "$rc" -eq 0 ] && [ "$o_size" -gt 1000000 ]; then
	pass output-bytes/measured "$o_size bytes of artifacts"
else
	fail output-bytes/measured "exit $rc, $o_size bytes"
fi
tree_sum "$o_dir" >"$tmp/ob-before"
for j in 1 4; do
	rm -rf "$o_dir.$j"
	rk_run "$tmp/ob$j" -j"$j" --max-output-bytes="$o_size" \
		-o "$o_dir.$j" "$g/output-bytes.rack" || true
	if [ "$rc" -eq 0 ] && [ "$(files_bytes "$o_dir.$j")" = "$o_size" ]; then
		pass "output-bytes/at-limit-j$j"
	else
		fail "output-bytes/at-limit-j$j" "exit $rc"
		show "$tmp/ob$j.err" 10
	fi
	rm -rf "$o_dir.$j"
	# one byte less: nothing replaced, nothing left behind
	cpu_mark
	b_start=$rk_cpu_ms
	rk_run "$tmp/ob$j" -j"$j" --max-output-bytes=$((o_size - 1)) \
		-o "$o_dir" "$g/output-bytes.rack" || true
	cpu_mark
	tree_sum "$o_dir" >"$tmp/ob-after"
	if [ "$rc" -eq 2 ] &&
		[ "$(grep -c "error: the artifacts exceed $((o_size - 1)) bytes, the output limit; nothing was written" "$tmp/ob$j.err")" = 1 ] &&
		cmp -s "$tmp/ob-before" "$tmp/ob-after" &&
		[ -z "$(find "$o_dir" -name '.*' -type f)" ] &&
		[ $((rk_cpu_ms - b_start)) -le "$limit_ms" ]; then
		pass "output-bytes/over-j$j" "$((rk_cpu_ms - b_start)) ms CPU"
	else
		fail "output-bytes/over-j$j" "exit $rc"
		show "$tmp/ob$j.err" 10
		diff "$tmp/ob-before" "$tmp/ob-after" | head -n 5 >&2
	fi
done
rk_run "$tmp/ob5" --max-output-bytes=0 -o "$o_dir" "$g/output-bytes.rack" || true
if [ "$rc" -eq 2 ] && grep -q 'max-output-bytes needs a number' "$tmp/ob5.err"; then
	pass output-bytes/zero-is-usage
else
	fail output-bytes/zero-is-usage "exit $rc"
fi
rm -rf "$o_dir"

#### imports, loops, recursion
i=0
while [ $i -lt 20 ]; do
	printf 'import "chain%02d"\nparam p%02d = %d\n' $((i + 1)) $i $i \
		>"$g/chain$(printf %02d $i).rack"
	i=$((i + 1))
done
printf 'param p20 = 20\n' >"$g/chain20.rack"
bogon import-chain-20 "0 1" "$g/chain00.rack"
printf 'import "import-self"\n' >"$g/import-self.rack"
bogon import-self "0 1" "$g/import-self.rack"
printf 'import "%s"\n' "$g" >"$g/import-directory.rack"
bogon import-directory "0 1" "$g/import-directory.rack"
printf 'import "/dev/null"\nimport "/dev/zero"\n' >"$g/import-device.rack"
bogon import-device "0 1" "$g/import-device.rack"
printf 'for i in 0..1e15 {\n\tparam x = i\n}\n' >"$g/loop-1e15.rack"
bogon loop-1e15 "0 1" "$g/loop-1e15.rack"
# 10^14 iterations without the step limit; with it, 50,000,000 steps and
# an error (1.1 s of CPU on an idle machine, 2.1 s under load): the
# bound of 10 s is five times that, and 10^14 steps would take weeks
printf 'for i in 0..9999999 {\n\tfor j in 0..9999999 { }\n}\n' \
	>"$g/nested-loops.rack"
bound 10000
bogon nested-loops "1" "$g/nested-loops.rack" --check
expect_err nested-loops/step-limit 'step limit' 1
printf 'module m() {\n\tinstance x : m()\n}\ninstance top : m()\n' \
	>"$g/self-recursive-module.rack"
bogon self-recursive-module "0 1" "$g/self-recursive-module.rack"
printf 'module a() { instance x : b() }\nmodule b() { instance y : a() }\ninstance top : a()\n' \
	>"$g/mutually-recursive-modules.rack"
bogon mutually-recursive-modules "0 1" "$g/mutually-recursive-modules.rack"
{ i=0; while [ $i -lt 70 ]; do
	printf 'module m%d() { instance x : m%d() }\n' $i $((i + 1))
	i=$((i + 1))
done; printf 'module m70() { }\ninstance top : m0()\n'; } \
	>"$g/deep-modules.rack"
bogon deep-modules "0 1" "$g/deep-modules.rack"
printf 'part srv : server { height 1U }\nfor i in 0..99999 {\n\tdevice d[i] : srv { }\n}\n' \
	>"$g/many-devices.rack"
bogon many-devices "0 1" "$g/many-devices.rack"
printf 'part sw : switch { height 1U; port p[0..99999] { form OSFP } }\nswitch s : sw { }\nlink s.p[0..49999] -- s.p[50000..99999]\n' \
	>"$g/many-ports.rack"
bogon many-ports "0 1" "$g/many-ports.rack"
printf 'param l = [1]\nparam x = l[9223372036854775807]\nparam y = l[-9223372036854775807 - 1]\n' \
	>"$g/extreme-index.rack"
bogon extreme-index "0 1" "$g/extreme-index.rack"

#### back-end preflight in time linear in the components: one server part
# of 100,000 GPUs in --check (the nccl back end's preflight sorted, looked
# up and compared its components pairwise: 81 s of CPU for the first case),
# every GPU on one bus id (one comparison per neighbour in bus order), and
# a chain of 100,000 pcie switches (depths found in one walk)
printf 'part g:gpu{}\npart s:server{gpu x[0..99999]:g{}}\ndevice n:s{}\n' \
	>"$g/nccl-gpus.rack"
bogon nccl-gpus "1" "$g/nccl-gpus.rack" --check
printf 'part g:gpu{sm 90}\npart s:server{cpu c;gpu x[0..99999]:g{bus "0000:01:00.0"}}\ndevice n:s{}\n' \
	>"$g/nccl-one-bus.rack"
bogon nccl-one-bus "1" "$g/nccl-one-bus.rack" --check
printf 'part g:gpu{sm 90;pcie_gen 5;pcie_width 16}\npart s:server{cpu c;pcie_switch w[0]{cpu c}\nfor i in 1..99999{pcie_switch w[i]{pcie w[i-1]}}\ngpu x:g{pcie w[99999];bus "0000:01:00.0"}}\ndevice n:s{}\n' \
	>"$g/nccl-switch-chain.rack"
bogon nccl-switch-chain "0 1" "$g/nccl-switch-chain.rack" --check
# 2,000 planes of one fabric, each its own InfiniBand subnet named after
# the fabric (f, f-2, f-3, ...): each name tried scanned every name given
# (16.7 s of CPU for this one, cubic in the planes)
printf '%s\n' 'part v:server{height 1U;port ib[0..1999]{speed 400Gb/s;protocol ib}}' \
	'part w:switch{height 1U;port p[0..7]{speed 400Gb/s;protocol ib}}' \
	'for n in 0..3{node s[n]:v{}}' \
	'fabric f:fat_tree{endpoints s[*].ib[0..1999];switch w;planes 2000}' \
	>"$g/ibnet-planes.rack"
bogon ibnet-planes "0 1" "$g/ibnet-planes.rack" --check
# 20,000 hand-wired planes over 4 servers, every plane meeting every
# server: 10,000 single switches, then 10,000 pairs of switches joined by
# one link, whose witnesses differ.  Each island witness was compared with
# every earlier one (the 10,000 of the second kind scanned the 10,000 of
# the first), the fabric's links were claimed once per endpoint port of a
# server (each of its 20,000 links read 20,000 times), and the fabric graph
# looked each link's endpoint up along the server's chain of endpoint
# ports: 11.6 s of CPU for this one; 0.4 s now
printf '%s\n' 'part v:server{height 1U;port ib[0..19999]{speed 100Gb/s;protocol ib}}' \
	'part w:switch{height 1U;port p[0..3]{speed 100Gb/s;protocol ib}}' \
	'part w2:switch{height 1U;port p[0..2]{speed 100Gb/s;protocol ib}}' \
	'for n in 0..3{node s[n]:v{}}' \
	'for i in 0..9999{switch a[i]:w{};link s[0..3].ib[i]--a[i].p[0..3]}' \
	'for i in 0..9999{switch b[i]:w2{};switch c[i]:w2{};link s[0].ib[10000+i]--b[i].p[0];link s[2].ib[10000+i]--b[i].p[1];link s[1].ib[10000+i]--c[i].p[0];link s[3].ib[10000+i]--c[i].p[1];link b[i].p[2]--c[i].p[2]}' \
	'fabric f:fat_tree{endpoints s[*].ib[*]}' \
	>"$g/island-witnesses.rack"
bogon island-witnesses "0 1" "$g/island-witnesses.rack" -O report
# 4,096 planes (the limit) over 16 servers: each plane's endpoints were
# taken by a scan of all 65,536, twice per plane, and the rails named by
# a scan of the rails named so far: 4.3 s of CPU for this one; 0.6 s now
printf '%s\n' 'part v:server{height 1U;port ib[0..4095]{speed 400Gb/s;protocol ib}}' \
	'part w:switch{height 1U;port p[0..7]{speed 400Gb/s;protocol ib}}' \
	'for n in 0..15{node s[n]:v{}}' \
	'fabric f:fat_tree{endpoints s[*].ib[0..4095];switch w;planes 4096}' \
	>"$g/plane-take.rack"
bogon plane-take "0 1" "$g/plane-take.rack" --check

# 100,000 unused-waiver warnings (58 bytes of input) as SARIF: each
# result's fingerprint counter scanned all earlier results (5.3 s of CPU).
# They are identical (one place, one message), so they are one result
# that counts them all
printf 'for i in 0..99999{group g[i]{waive "rack-placement","r"}}\n' \
	>"$g/sarif-waivers.rack"
bogon sarif-waivers "0" "$g/sarif-waivers.rack" --check \
	--diagnostics-format=sarif
expect_err sarif-waivers/one '"ruleId":"unused-waiver"' 1
# 100,000 different warnings from one line (each names its device), so
# 100,000 SARIF results whose fingerprints are all counted on one line
printf '%s\n' 'import "std/facility"' 'part s:switch{height 1U}' \
	'site h{row r{rack k:rack_42u{for i in 0..99999{device d[i]:s}}}}' \
	>"$g/sarif-unplaced.rack"
bogon sarif-unplaced "0" "$g/sarif-unplaced.rack" --check \
	--diagnostics-format=sarif
expect_err sarif-unplaced/all '"ruleId":"rack-unplaced"' 100000

#### files that are not designs
: >"$g/empty.rack"
bogon empty-file "0 1" "$g/empty.rack"
printf '# only\n// comments\n/* here */\n' >"$g/only-comments.rack"
bogon only-comments "0 1" "$g/only-comments.rack"
bogon directory "2" "$g"
bogon missing-file "2" "$g/no-such-file.rack"
bogon dev-null "0 1 2" /dev/null

finish
