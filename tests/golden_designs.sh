# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# shellcheck disable=SC2154 # tmp, rc and rk_problem come from lib.sh
#
# Golden comparison for the test designs under tests/deploy/ (sourced by
# nccl.sh, ibsim.sh and slurm.sh after lib.sh; the caller has cd'ed to
# $top_srcdir, so messages carry relative paths).
#
#   design_golden DESIGN BACKEND SUBDIR
#
# runs `$RACKC -o OUT -O BACKEND DESIGN` and requires
#   - the exit status given by "# exit-BACKEND: N" or else "# exit: N" in
#     the design's first 10 lines (default 0),
#   - the files under OUT/SUBDIR to be exactly those under
#     tests/golden/deploy/NAME/SUBDIR (none when that directory is absent
#     and the exit status is not 0),
#   - stderr to equal tests/golden/deploy/NAME/SUBDIR.stderr, or to be
#     empty when that file does not exist.
# With RACKC_REGEN=1 (or --regen given to the caller) the golden files are
# rewritten first.  Sets dg_out to OUT (for further checks) and returns 1
# after reporting a failure.

dg_directive() {
	sed -n "1,10s/^#[[:space:]]*$1:[[:space:]]*//p" "$2" | sed -n '$p'
}

dg_n=0
design_golden() {
	dg_design=$1
	dg_be=$2
	dg_sub=$3
	dg_name=${dg_design##*/}
	dg_name=${dg_name%.rack}
	dg_gold=tests/golden/deploy/$dg_name
	dg_n=$((dg_n + 1))
	dg_out=$tmp/dg$dg_n
	dg_want=$(dg_directive "exit-$dg_be" "$dg_design")
	if [ -z "$dg_want" ]; then
		dg_want=$(dg_directive exit "$dg_design")
	fi
	dg_want=${dg_want:-0}
	dg_case=$dg_name/$dg_be
	if ! rk_run "$tmp/dg$dg_n" -o "$dg_out" -O "$dg_be" "$dg_design"; then
		fail "$dg_case" "$rk_problem"
		show "$tmp/dg$dg_n.err"
		return 1
	fi
	if [ "$regen" = 1 ]; then
		rm -rf "${dg_gold:?}/$dg_sub" "$dg_gold/$dg_sub.stderr"
		mkdir -p "$dg_gold"
		if [ -d "$dg_out/$dg_sub" ]; then
			cp -R "$dg_out/$dg_sub" "$dg_gold/$dg_sub"
		fi
		if [ -s "$tmp/dg$dg_n.err" ]; then
			cp "$tmp/dg$dg_n.err" "$dg_gold/$dg_sub.stderr"
		fi
	fi
	dg_why=
	if [ "$rc" -ne "$dg_want" ]; then
		dg_why="exit status $rc, expected $dg_want"
	fi
	if [ -f "$dg_gold/$dg_sub.stderr" ]; then
		if ! cmp -s "$dg_gold/$dg_sub.stderr" "$tmp/dg$dg_n.err"; then
			dg_why="${dg_why:+$dg_why; }stderr differs from $dg_gold/$dg_sub.stderr"
			diff -u "$dg_gold/$dg_sub.stderr" "$tmp/dg$dg_n.err" \
				>"$tmp/dg$dg_n.diff" || :
		fi
	elif [ -s "$tmp/dg$dg_n.err" ]; then
		dg_why="${dg_why:+$dg_why; }unexpected messages"
		cp "$tmp/dg$dg_n.err" "$tmp/dg$dg_n.diff"
	fi
	(cd "$dg_out" 2>/dev/null && find "./$dg_sub" -type f 2>/dev/null |
		sed 's|^\./||' | sort) >"$tmp/dg$dg_n.got"
	(cd "$dg_gold" 2>/dev/null && find "./$dg_sub" -type f 2>/dev/null |
		sed 's|^\./||' | sort) >"$tmp/dg$dg_n.wantf"
	if ! cmp -s "$tmp/dg$dg_n.got" "$tmp/dg$dg_n.wantf"; then
		dg_why="${dg_why:+$dg_why; }files differ from $dg_gold/$dg_sub"
		diff "$tmp/dg$dg_n.wantf" "$tmp/dg$dg_n.got" >>"$tmp/dg$dg_n.diff" || :
	else
		while IFS= read -r f; do
			if ! cmp -s "$dg_gold/$f" "$dg_out/$f"; then
				dg_why="${dg_why:+$dg_why; }$f differs"
				diff -u "$dg_gold/$f" "$dg_out/$f" \
					>>"$tmp/dg$dg_n.diff" || :
			fi
		done <"$tmp/dg$dg_n.got"
	fi
	if [ -n "$dg_why" ]; then
		fail "$dg_case" "$dg_why"
		show "$tmp/dg$dg_n.diff"
		return 1
	fi
	pass "$dg_case"
	return 0
}
