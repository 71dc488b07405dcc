#!/bin/sh
# SPDX-License-Identifier: MIT
# `rackc diff` text and Markdown as reviews for people (src/diff/diff.c,
# src/diff/diff_names.c), checked by tests/diff_review_check.py against the
# JSON output of the same diff and the new side's cabling files:
#
#   budget/FMT[-N]  a large diff (bench/synth.rack grown from 512 to 1024
#                   GPUs: 800 KB of review) within the default --max-bytes
#                   (60,000, a pull-request comment) or --max-bytes=N: the
#                   summary and decisions first, the --full file named
#   full/FMT        the --full file complete: every cable ID, device,
#                   bill-of-materials line and finding of the JSON, one
#                   work-order row a JSON row, nothing left out
#   groups/NAME     the grouped cabling lines: counts per (action, device
#                   groups, part and length) and the devices behind each
#                   index range equal the JSON's
#   ports/NAME      the pod, and the DGX SuperPOD example grown from 1 to
#                   2 SUs: where a group's cables land on one run of
#                   ports on every device of an end, its line gives the
#                   run ("ports p[31-35] (16/2-18/2)"), and the devices
#                   times the ports are exactly that end's cable ends in
#                   the JSON
#   lines/NAME      text lines at most 160 characters; no JSON in a line
#                   (the report's lists of tier figures as words)
#   ends            work-order ends as rack, U and faceplate port (QM9700
#                   ports by the vendor's cage/port numbering), the
#                   logical name beside them
#   small           a diff within the budget is whole: no note, no cut
#   options         --max-bytes below 2000 or not a number, a --full
#                   file that cannot be written: exit 2
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99
pod=tests/diff/pod.rack
synth=bench/synth.rack
check=tests/diff_review_check.py
RK_TIMEOUT=$((RK_TIMEOUT * 6))
# a --full file that cannot be written is trouble
full_unwritable() {
	if rk_run "$tmp/nofull" diff --full="$tmp/no/such/dir/full.txt" \
		-I examples --new-define NODES=8 "$pod" "$pod" &&
		[ "$rc" -eq 2 ] && grep -q "cannot write" "$tmp/nofull.err"; then
		pass options/full-unwritable
	else
		fail options/full-unwritable "${rk_problem:-exit $rc (want 2)}"
	fi
}

if ! command -v python3 >/dev/null 2>&1; then
	skip diff-review "python3 not installed (the checker)"
	full_unwritable
finish
fi

# run NAME ARG...: rackc diff ARG..., which must find differences
run() {
	name=$1
	shift
	if ! rk_run "$tmp/$name" diff "$@" || [ "$rc" -ne 1 ]; then
		fail "$name" "${rk_problem:-exit $rc (want 1)}"
		show "$tmp/$name.err"
		return 1
	fi
}

# py NAME ARG...: the checker's cases as NAME: CASE
py() {
	name=$1
	res=$tmp/$(echo "$name" | tr / -).py
	shift
	python3 "$check" "$@" >"$res" 2>&1 || true
	if ! grep -q '^PASS\|^FAIL' "$res"; then
		fail "$name" "checker failed"
		show "$res"
		return
	fi
	py_results "$name" "$res"
}

grow="-D GPUS=512 --new-define GPUS=1024"
# shellcheck disable=SC2086 # $grow is words
if run big-json -f json $grow "$synth" "$synth" &&
	run big-md -f markdown --full="$tmp/full.md" $grow "$synth" "$synth" &&
	run big-txt --full="$tmp/full.txt" $grow "$synth" "$synth" &&
	run big-20k --max-bytes=20000 --full="$tmp/full-20k.txt" $grow \
		"$synth" "$synth"; then
	py budget/md budget "$tmp/big-md.out" 60000 "$tmp/full.md"
	py budget/txt budget "$tmp/big-txt.out" 60000 "$tmp/full.txt"
	py budget/txt-20000 budget "$tmp/big-20k.out" 20000 \
		"$tmp/full-20k.txt"
	py full/md full "$tmp/full.md" "$tmp/big-json.out"
	py full/txt full "$tmp/full.txt" "$tmp/big-json.out"
	py groups/big groups "$tmp/full.txt" "$tmp/big-json.out"
	py lines/big lines "$tmp/big-txt.out" "$tmp/full.txt" \
		"$tmp/big-md.out" "$tmp/full.md"
fi

new="-I examples --new-define NODES=8"
# shellcheck disable=SC2086
if run pod-json -f json $new "$pod" "$pod" &&
	run pod-txt $new "$pod" "$pod" &&
	run pod-md -f markdown $new "$pod" "$pod"; then
	py groups/pod groups "$tmp/pod-txt.out" "$tmp/pod-json.out"
	py ports/pod ports "$tmp/pod-txt.out" "$tmp/pod-json.out"
	py lines/pod lines "$tmp/pod-txt.out" "$tmp/pod-md.out"
	if rk_run "$tmp/pod-new" -I examples -D NODES=8 -O cabling --force \
		-o "$tmp/pod-new" "$pod" && [ "$rc" -le 1 ]; then
		py ends ends "$tmp/pod-txt.out" "$tmp/pod-json.out" \
			"$tmp/pod-new"
	else
		fail ends "compiling the new side: ${rk_problem:-exit $rc}"
	fi
	if grep -q 'left out\|cut to' "$tmp/pod-txt.out" "$tmp/pod-md.out"; then
		fail small "a diff within the budget was cut"
	else
		pass small
	fi
fi

# the SuperPOD grown from one SU to two: the grouped lines' port runs
sp=examples/dgx-h100-superpod.rack
spg="-I examples --old-define SUS=1 --new-define SUS=2"
# shellcheck disable=SC2086
if run sp-json -f json $spg "$sp" "$sp" && run sp-txt $spg "$sp" "$sp"; then
	py ports/superpod ports "$tmp/sp-txt.out" "$tmp/sp-json.out"
	py groups/superpod groups "$tmp/sp-txt.out" "$tmp/sp-json.out"
	py lines/superpod lines "$tmp/sp-txt.out"
fi

for bad in 1999 -5 10k; do
	if rk_run "$tmp/opt" diff --max-bytes="$bad" "$pod" "$pod" &&
		[ "$rc" -eq 2 ] && grep -q 'max-bytes' "$tmp/opt.err"; then
		pass "options/$bad"
	else
		fail "options/$bad" "${rk_problem:-exit $rc (want 2)}"
	fi
done
full_unwritable
finish
