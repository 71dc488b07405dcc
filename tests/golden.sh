#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Golden-output tests.  For every examples/NAME.rack:
#
#   NAME/check          `rackc --check` exits 0 and prints nothing at all
#   NAME/BACKEND        for each back end with expected output under
#                       tests/golden/NAME/BACKEND/, `rackc -Werror -O BACKEND`
#                       exits 0 and writes exactly those files (diff -u on
#                       each); a directory holding only `.none` expects
#                       no files at all
#   NAME/deterministic  every back end on one thread (-j1) and on eight
#                       (-j8) writes identical trees and diagnostics
#
# An example without a golden directory fails.
#
# `tests/golden.sh --regen` (or RACKC_REGEN=1) rewrites the expected files
# from the compiler's output (the back ends found as above; every back end
# for an example that has none yet); review the result with `git diff`
# before committing.
# Further arguments select examples by name.  RACKC_GOLDEN_ONLY=deterministic
# runs the NAME/deterministic cases alone (the ThreadSanitizer run,
# tools/dev.sh test-tsan).

. "$(dirname "$0")/lib.sh"


cd "$top_srcdir" || exit 99

"$RACKC" --list-backends | awk '{print $1}' >"$tmp/backends"

# backends_of DIR: the back ends that have golden files in DIR (one
# subdirectory per back end, holding exactly what `-O BACKEND` writes)
backends_of() {
	for f in "$1"/*; do
		if [ -d "$f" ]; then
			echo "${f##*/}"
		fi
	done | sort -u
}

rk_examples "$@" >"$tmp/examples"
if [ ! -s "$tmp/examples" ]; then
	echo "no examples/*.rack yet"
	finish
fi

n=0
while IFS= read -r ex; do
	name=${ex#examples/}
	name=${name%.rack}
	gdir=tests/golden/$name
	n=$((n + 1))
	w=$tmp/$n
	mkdir -p "$w"

	if [ "${RACKC_GOLDEN_ONLY:-}" = deterministic ]; then
		: >"$w/backends"
	# 1. --check: silent success
	elif ! rk_run "$w/check" --check "$ex"; then
		fail "$name/check" "$rk_problem"
		show "$w/check.err"
	elif [ "$rc" -ne 0 ] || [ -s "$w/check.out" ] || [ -s "$w/check.err" ]; then
		fail "$name/check" "exit status $rc, or output"
		show "$w/check.out"
		show "$w/check.err"
	else
		pass "$name/check"
	fi

	# 2. each back end against its golden files
	if [ "${RACKC_GOLDEN_ONLY:-}" = deterministic ]; then
		:
	elif [ -d "$gdir" ]; then
		backends_of "$gdir" >"$w/backends"
	elif [ "$regen" = 1 ]; then
		cat "$tmp/backends" >"$w/backends"
	else
		fail "$name" "no golden directory $gdir (run tests/golden.sh --regen)"
		: >"$w/backends"
	fi
	while IFS= read -r be; do
		if ! grep -qx "$be" "$tmp/backends"; then
			fail "$name/$be" "golden files for an unknown back end in $gdir"
			continue
		fi
		out=$w/out-$be
		if ! rk_run "$w/$be" -Werror -o "$out" -O "$be" "$ex"; then
			fail "$name/$be" "$rk_problem"
			show "$w/$be.err"
			continue
		fi
		if [ "$rc" -ne 0 ] || [ -s "$w/$be.err" ] || [ ! -d "$out" ]; then
			fail "$name/$be" "exit status $rc, or messages"
			show "$w/$be.err"
			continue
		fi
		if [ "$regen" = 1 ]; then
			mkdir -p "$gdir"
			rm -rf "${gdir:?}/$be"
			cp -R "$out" "$gdir/$be"
			# git keeps no empty directory: mark "writes nothing"
			if [ -z "$(ls -A "$gdir/$be")" ]; then
				: >"$gdir/$be/.none"
			fi
		fi
		why=
		g=$gdir/$be
		: >"$w/$be.diff"
		(cd "$out" && find . -type f | sed 's|^\./||' | sort) >"$w/$be.got"
		(cd "$g" && find . -type f ! -name .none | sed 's|^\./||' |
			sort) >"$w/$be.want"
		while IFS= read -r f; do
			if [ ! -f "$g/$f" ]; then
				why="${why:+$why; }unexpected file $f"
			elif ! cmp -s "$g/$f" "$out/$f"; then
				why="${why:+$why; }$f differs"
				diff -u "$g/$f" "$out/$f" >>"$w/$be.diff" || :
			fi
		done <"$w/$be.got"
		while IFS= read -r f; do
			if [ ! -f "$out/$f" ]; then
				why="${why:+$why; }$f not written"
			fi
		done <"$w/$be.want"
		if [ -z "$why" ]; then
			pass "$name/$be"
		else
			fail "$name/$be" "$why"
			show "$w/$be.diff" 80
		fi
	done <"$w/backends"

	# 3. runs of every back end on one thread and on eight give
	# identical trees and identical diagnostics
	if rk_run "$w/run1" -j1 -o "$w/d1" "$ex" && [ "$rc" -eq 0 ] &&
		rk_run "$w/run2" -j8 -o "$w/d2" "$ex" && [ "$rc" -eq 0 ]; then
		if diff -r "$w/d1" "$w/d2" >"$w/det.diff" 2>&1 &&
			diff "$w/run1.err" "$w/run2.err" >>"$w/det.diff" 2>&1; then
			pass "$name/deterministic"
		else
			fail "$name/deterministic" "two runs differ"
			show "$w/det.diff"
		fi
	else
		fail "$name/deterministic" "${rk_problem:-exit status $rc}"
		show "$w/run1.err"
		show "$w/run2.err"
	fi
done <"$tmp/examples"

finish
