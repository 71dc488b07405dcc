#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Command-line behaviour: exit statuses (0 success, 1 design errors, 2 usage
# or I/O), where messages go, and what is (not) written to the output
# directory.

. "$(dirname "$0")/lib.sh"

cd "$tmp" || exit 99
printf 'param x = 1\npart srv : server { height 2U }\n' >good.rack
printf 'param x = 1kW + 1m\n' >bad.rack

# t NAME STATUS OUT ERR ARG...: run rackc ARG...; require exit status
# STATUS, stdout matching the extended regular expression OUT and stderr
# matching ERR, where an empty OUT or ERR means "nothing at all" and '*'
# means "anything"
n=0
t() {
	t_name=$1 t_want=$2 t_out=$3 t_err=$4
	shift 4
	n=$((n + 1))
	if ! rk_run "$tmp/r$n" "$@"; then
		fail "$t_name" "$rk_problem"
		show "$tmp/r$n.err"
		return 0
	fi
	t_why=
	if [ "$rc" -ne "$t_want" ]; then
		t_why="exit status $rc, expected $t_want"
	fi
	if [ "$t_out" = '*' ]; then
		:
	elif [ -z "$t_out" ]; then
		if [ -s "$tmp/r$n.out" ]; then
			t_why="${t_why:+$t_why; }unexpected output on stdout"
		fi
	elif ! grep -E -q -e "$t_out" "$tmp/r$n.out"; then
		t_why="${t_why:+$t_why; }stdout does not match /$t_out/"
	fi
	if [ "$t_err" = '*' ]; then
		:
	elif [ -z "$t_err" ]; then
		if [ -s "$tmp/r$n.err" ]; then
			t_why="${t_why:+$t_why; }unexpected output on stderr"
		fi
	elif ! grep -E -q -e "$t_err" "$tmp/r$n.err"; then
		t_why="${t_why:+$t_why; }stderr does not match /$t_err/"
	fi
	if [ -z "$t_why" ]; then
		pass "$t_name"
		return 0
	fi
	fail "$t_name" "$t_why"
	show "$tmp/r$n.out"
	show "$tmp/r$n.err"
	return 0
}

usage_re='^rackc: error: .*'

#### information
t help 0 '^Usage: rackc ' '' --help
t version 0 '^rackc [0-9]+\.[0-9]+' '' --version
t list-backends 0 '^ir ' '' --list-backends
t list-checks 0 '*' '' --list-checks

#### usage errors: exit 2, a message on stderr, nothing on stdout
t unknown-option 2 '' "$usage_re'--bogus'" --bogus good.rack
t unknown-short-option 2 '' "$usage_re" -q good.rack
t missing-argument 2 '' "${usage_re}needs an argument" good.rack -o
t missing-argument-define 2 '' "${usage_re}needs an argument" good.rack -D
t no-input 2 '' "${usage_re}no design file" -o out
t two-inputs 2 '' "${usage_re}more than one" good.rack bad.rack
t unknown-backend 2 '' "unknown back end 'irr'; did you mean 'ir'\\?" \
	-o out-unknown-backend -O irr good.rack
t unknown-backend-in-list 2 '' "unknown back end 'nosuch'" \
	-o out-unknown-backend -O ir,nosuch good.rack
t unknown-check 2 '' "${usage_re}unknown check 'bogus-check'" \
	-W bogus-check good.rack
t unknown-check-disabled 2 '' "${usage_re}unknown check 'bogus-check'" \
	-Wno-bogus-check good.rack
t unknown-check-error 2 '' "${usage_re}unknown check 'bogus-check'" \
	-E bogus-check good.rack
t unknown-check-warning 2 '' "${usage_re}unknown check 'bogus-check'" \
	-Eno-bogus-check good.rack
t bad-diagnostics-format 2 '' "${usage_re}diagnostics format 'xml'" \
	--diagnostics-format=xml good.rack
t bad-max-errors 2 '' "${usage_re}--max-errors" --max-errors=many good.rack
t negative-max-errors 2 '' "${usage_re}--max-errors" --max-errors=-1 \
	good.rack
t zero-jobs 2 '' "${usage_re}--jobs needs a number from 1 to 64" -j0 good.rack
t many-jobs 2 '' "${usage_re}--jobs needs a number" --jobs=65 good.rack
t word-jobs 2 '' "${usage_re}--jobs needs a number" -j all good.rack
t negative-jobs 2 '' "${usage_re}--jobs needs a number" --jobs=-2 good.rack
t define-without-value 2 '' "${usage_re}-D needs NAME=VALUE" -D x good.rack
t define-without-name 2 '' "${usage_re}-D needs NAME=VALUE" -D =1 good.rack
t missing-input 2 '' 'no-such-file\.rack' --check no-such-file.rack
t directory-input 2 '' '.' --check "$tmp"

# An unknown back end is a usage error even when nothing would be written.
n=$((n + 1))
rk_run "$tmp/r$n" --check -O irr good.rack || :
if [ "$rc" -eq 2 ] && grep -q "unknown back end 'irr'; did you mean 'ir'?" "$tmp/r$n.err"; then
	pass check-unknown-backend
else
	fail check-unknown-backend "--check -O irr exits $rc, not 2"
	show "$tmp/r$n.err"
fi

#### exit status 0 and 1
t check-good 0 '' '' --check good.rack
t check-bad 1 '' '^bad\.rack:1:11: error: ' --check bad.rack
t compile-quiet 0 '' '' -o out-quiet -O ir good.rack

#### the output directory
t creates-output-dir 0 '' '' -o new/a/b -O ir good.rack
if [ -f new/a/b/ir.rack ]; then
	pass creates-output-dir/file
else
	fail creates-output-dir/file "new/a/b/ir.rack not written"
fi

# -o under a regular file: usage/I-O error, nothing written
echo keep >plain
cp plain plain.orig
t unwritable-output 2 '' "^rackc: error: .*plain/out" -o plain/out good.rack
if cmp -s plain plain.orig && [ ! -e plain/out ]; then
	pass unwritable-output/untouched
else
	fail unwritable-output/untouched "the regular file changed"
fi
t output-is-a-file 2 '' "^rackc: error: .*plain" -o plain good.rack
if cmp -s plain plain.orig; then
	pass output-is-a-file/untouched
else
	fail output-is-a-file/untouched "the regular file changed"
fi

# a read-only output directory (meaningless for root, who may write anyway)
if [ "$(id -u)" -ne 0 ]; then
	mkdir ro
	chmod a-w ro
	t read-only-output 2 '' '^rackc: error: ' -o ro/out good.rack
	chmod u+w ro
else
	skip read-only-output "running as root"
fi

# a failing design leaves an existing output directory alone
mkdir keep
echo old >keep/ir.rack
echo mine >keep/notes.txt
(cd keep && ls -la) >keep.before
t failing-design-keeps-output 1 '' '^bad\.rack:' -o keep bad.rack
if [ "$(cat keep/ir.rack)" = old ] && [ "$(cat keep/notes.txt)" = mine ] &&
	(cd keep && ls -la) | cmp -s - keep.before; then
	pass failing-design-keeps-output/untouched
else
	fail failing-design-keeps-output/untouched "files changed"
	(cd keep && ls -la) | show /dev/stdin
fi

# a failing design does not create the output directory
t failing-design-no-output 1 '' '^bad\.rack:' -o fresh bad.rack
if [ ! -e fresh ]; then
	pass failing-design-no-output/absent
else
	fail failing-design-no-output/absent "fresh/ was created"
fi

# a good design replaces its own files and leaves others alone
t rewrite-output 0 '' '' -o keep -O ir good.rack
if grep -q '^param\|^part srv' keep/ir.rack && [ "$(cat keep/notes.txt)" = mine ]; then
	pass rewrite-output/files
else
	fail rewrite-output/files "ir.rack not rewritten or notes.txt touched"
fi

# --check writes nothing
t check-writes-nothing 0 '' '' --check -o check-out good.rack
if [ ! -e check-out ]; then
	pass check-writes-nothing/absent
else
	fail check-writes-nothing/absent "check-out/ was created"
fi

# Back ends run on a thread pool; their diagnostics are replayed in table
# order and the first failing back end (in table order) decides, so one
# thread and eight give the same messages and status, in every format,
# and neither leaves anything behind: not a file, nor a directory it made.
for design in ib-errors nccl-errors; do
	for fmt in text json; do
		case=jobs-$design-$fmt
		src=$top_srcdir/tests/deploy/$design.rack
		rk_run "$tmp/$case-1" -j1 --diagnostics-format=$fmt \
			-o "$case-1" "$src" || :
		rc1=$rc
		rk_run "$tmp/$case-8" -j8 --diagnostics-format=$fmt \
			-o "$case-8" "$src" || :
		if [ "$rc1" -ne 1 ] || [ "$rc" -ne 1 ]; then
			fail "$case" "exit status $rc1 and $rc, expected 1 and 1"
		elif ! cmp -s "$tmp/$case-1.err" "$tmp/$case-8.err"; then
			fail "$case" "diagnostics differ"
			diff "$tmp/$case-1.err" "$tmp/$case-8.err" | show /dev/stdin
		elif [ -e "$case-1" ] || [ -e "$case-8" ]; then
			fail "$case" "a failed run left its output directory"
		else
			pass "$case"
		fi
	done
done

# ... while directories that were there before stay, empty or not
mkdir -p kept/ib
n=$((n + 1))
rk_run "$tmp/r$n" -o kept "$top_srcdir/tests/deploy/ib-errors.rack" || :
if [ "$rc" -eq 1 ] && [ -d kept/ib ] &&
	[ "$(cd kept && find . | LC_ALL=C sort | tr '\n' ' ')" = ". ./ib " ]; then
	pass failed-backend-keeps-old-directories
else
	fail failed-backend-keeps-old-directories "exit $rc; left: $(cd kept && find . | tr '\n' ' ')"
fi

# A design that fails a check (not elaboration): the back ends may have
# started before the checks ended, but nothing they wrote is left, nor the
# output directory; with --force the artifacts are written and report.json
# counts the checks' errors and the --force warning.  -j1 and -j8 agree.
broken=$top_srcdir/examples/broken/dac-too-long.rack
for j in 1 8; do
	t check-failure-j$j 1 '' '*' -j$j -o spec$j "$broken"
	if [ ! -e spec$j ]; then
		pass check-failure-j$j/nothing-left
	else
		fail check-failure-j$j/nothing-left "spec$j/ is there"
	fi
	t force-j$j 1 '' '*' -j$j --force -O ir,report,cabling -o force$j "$broken"
done
if cmp -s "$tmp/r$((n - 2)).err" "$tmp/r$n.err" &&
	diff -r force1 force8 >/dev/null &&
	grep -q '"checks": {"errors": [1-9][0-9]*, "warnings": [1-9]' \
		force1/report.json &&
	grep -q 'writing artifacts despite errors' "$tmp/r$n.err"; then
	pass force-same-at-any-j
else
	fail force-same-at-any-j "outputs or messages differ, or counts wrong"
fi

# --check runs the back ends' preflights: a design the nccl back end cannot
# express fails --check (with the build's messages), not only the build.
# With --force every back end that can express it writes its artifacts and
# the one that cannot is named; the exit status stays 1.
nccl_bad=$top_srcdir/tests/deploy/nccl-errors.rack
t check-preflight 1 '' 'cannot express part .no_bus. in NCCL topology XML' \
	--check "$nccl_bad"
if [ ! -e check-out ]; then
	pass check-preflight/writes-nothing
else
	fail check-preflight/writes-nothing "check-out/ was created"
fi
# (nccl-figure-unknown, a check of the catalog, is not a preflight message)
t preflight-only-selected 0 '' '' --check -Wno-nccl-figure-unknown -O ir,report "$nccl_bad"
t force-partial 1 '' "back end 'nccl' wrote nothing" \
	--force -O ir,report,nccl -o partial "$nccl_bad"
if [ -s partial/report.json ] && [ -s partial/ir.rack ] &&
	[ ! -e partial/nccl ]; then
	pass force-partial/others-written
else
	fail force-partial/others-written "report.json or ir.rack missing, or nccl/ written"
fi

# the options rackc, rackc diff and rackc verify share (src/driver/opts.h): the
# same value is refused with the same complaint under each
for sub in '' diff verify; do
	set -- good.rack good.rack
	[ -n "$sub" ] || set -- good.rack
	pre="rackc${sub:+ $sub}: error: "
	t "shared-options/${sub:-rackc}/define" 2 '' \
		"^${pre}-D needs NAME=VALUE, not '=1'\$" ${sub:+"$sub"} -D =1 "$@"
	t "shared-options/${sub:-rackc}/max-links" 2 '' \
		"^${pre}--max-links needs a number from 1 to 50000000, not '50000001'\$" \
		${sub:+"$sub"} --max-links=50000001 "$@"
	t "shared-options/${sub:-rackc}/max-source-bytes" 2 '' \
		"^${pre}--max-source-bytes needs a number from 1 to 1073741824, not '0'\$" \
		${sub:+"$sub"} --max-source-bytes=0 "$@"
	t "shared-options/${sub:-rackc}/help" 0 'Usage: rackc' '' \
		${sub:+"$sub"} --help
done
for sub in diff verify; do
	t "shared-options/$sub/format" 2 '' \
		"^rackc $sub: error: unknown format 'xml' \\(text, json or markdown\\)\$" \
		"$sub" -f xml good.rack good.rack
done
t shared-options/max-links-limit 0 '' '' --check --max-links=50000000 good.rack
# -O all runs every back end, the on-request ones too: it writes exactly
# the files that the back ends write one at a time (each named alone)
t all-backends 0 '' '*' -o all -O all good.rack
: >all-one.lst
for b in $("$RACKC" --list-backends | cut -d' ' -f1); do
	"$RACKC" -o "one-$b" -O "$b" good.rack 2>/dev/null
	(cd "one-$b" && find . -type f) >>all-one.lst
done
sort -u all-one.lst >all-want.lst
(cd all && find . -type f) | sort >all-got.lst
if [ -s all-want.lst ] && cmp -s all-want.lst all-got.lst &&
	grep -q 'bom.xlsx\|netbox/\|lldp/' all-got.lst; then
	pass all-backends/files
else
	fail all-backends/files "-O all wrote other files than the back ends one by one"
	diff all-want.lst all-got.lst | head -20
fi
t all-backends-with-others 0 '' '*' -o all2 -O ir,all,report good.rack

finish
