# SPDX-License-Identifier: MIT
# shellcheck shell=sh
#
# Shared code for the shell test drivers (sourced, not run).
#
# Sets up:
#   top_srcdir  absolute source directory (from the environment, as
#               `make check` exports it, or from this file's location)
#   RACKC       the compiler under test (default: $top_srcdir/rackc)
#   tmp         a private temporary directory, removed on exit
#   rk_sanitized  yes when $RACKC is built with AddressSanitizer (or
#               ThreadSanitizer), else no
#   regen       1 when the driver was given --regen first (removed from
#               its arguments) or RACKC_REGEN=1: rewrite expected files
#   rk_sizes    full or reduced: the sizes of the heaviest sweeps
#               (RACKC_TEST_SIZES; default reduced on a sanitizer build)
#
# Provides:
#   pass NAME [DETAIL]     count and print a passing case
#   fail NAME [DETAIL]     count and print a failing case
#   rk_full NAME           true at full sizes, else NAME reported skipped
#   skip NAME [DETAIL]     count and print a skipped case
#   xfail NAME [DETAIL]    count and print a known failure (a compiler bug
#                          that has been reported; not a test failure)
#   rk_run PREFIX ARG...   run "$RACKC ARG..." under `timeout`, stdout to
#                          PREFIX.out, stderr to PREFIX.err, exit status in
#                          $rc; returns 1 (reason in $rk_problem) on a
#                          signal or timeout (status >= 124) or on
#                          sanitizer output
#   show FILE [N]          print FILE indented (at most N lines, default
#                          40), for failure details
#   directive NAME FILE    the value of a "# NAME: VALUE" line among FILE's
#                          first 10 lines (empty if none)
#   now_ms                 milliseconds since the epoch
#   cpu_mark               rk_cpu_ms := CPU time (user + system) used so far
#                          by the shell's finished children, in ms: the
#                          difference across a command is its CPU time,
#                          which another job on the machine barely changes
#   py_results PREFIX FILE count the PASS/FAIL lines a Python checker wrote
#   rk_seeds LIST          the seeds of a list such as "1 5-7 fabric:2-3",
#                          one a line (ranges expanded, KIND: kept)
#   finish                 print the plan and the summary, and exit 0, 1 or
#                          77
#
# Output: TAP (the Test Anything Protocol), one line a case ("ok 3 - NAME",
# "not ok 4 - NAME: DETAIL", "ok 5 - NAME # SKIP WHY", "not ok 6 - NAME
# # TODO WHY" for a known failure), the plan "1..N" last, everything else
# (details, the summary) as "#" comments or indented lines; automake's TAP
# driver reports each case by name.
# Exit status, for a driver run by hand: 0 pass, 1 fail, 77 nothing ran,
# 99 hard error (`make check` reads the TAP lines instead, and a driver
# that stops before its plan is an error).

set -eu
LC_ALL=C
export LC_ALL

# shellcheck disable=SC2034 # regen is read by the drivers
regen=${RACKC_REGEN:-0}
# shellcheck disable=SC2034
if [ "${1:-}" = --regen ]; then
	regen=1
	shift
fi

if [ -z "${top_srcdir:-}" ]; then
	top_srcdir=$(cd "$(dirname "$0")/.." && pwd)
fi
top_srcdir=$(cd "$top_srcdir" && pwd)
RACKC=${RACKC:-$top_srcdir/rackc}
case $RACKC in
/*) ;;
*/*) RACKC=$(pwd)/$RACKC ;; # the drivers change directory
*) RACKC=$(command -v "$RACKC" || echo "$RACKC") ;;
esac
# sanitizer settings as `make check` sets them, for manual runs
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
export top_srcdir RACKC ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS

if [ ! -x "$RACKC" ]; then
	echo "ERROR: compiler '$RACKC' not found or not executable" >&2
	exit 99
fi

# shellcheck disable=SC2034 # used by the drivers
if ASAN_OPTIONS=help=1 "$RACKC" --version 2>&1 | grep -q AddressSanitizer; then
	rk_sanitized=yes
elif TSAN_OPTIONS=help=1 "$RACKC" --version 2>&1 | grep -q ThreadSanitizer; then
	rk_sanitized=yes # ThreadSanitizer (tools/dev.sh test-tsan): as slow
else
	rk_sanitized=no
fi

# RK_TIMEOUT: seconds one compiler run may take before it counts as hung.
# A hang guard only, never a speed test: generous enough for a sanitizer
# build (5-15 times slower) on a machine whose every core runs another job.
if [ "$rk_sanitized" = yes ]; then
	RK_TIMEOUT=${RK_TIMEOUT:-600}
else
	RK_TIMEOUT=${RK_TIMEOUT:-120}
fi
# RACKC_TEST_SIZES: full or reduced.  The heaviest sweeps (the largest
# sizes of a growth or bisection sweep, the longer seed lists) run in full
# on the plain build; a sanitizer build, where the same inputs run 5-15
# times slower and the Python oracles give the same answers, runs them at
# reduced sizes unless RACKC_TEST_SIZES=full (the nightly run).  A case
# left out at reduced sizes is reported skipped, by name (rk_full).
case ${RACKC_TEST_SIZES:-} in
full | reduced) rk_sizes=$RACKC_TEST_SIZES ;;
'')
	if [ "$rk_sanitized" = yes ]; then
		rk_sizes=reduced
	else
		rk_sizes=full
	fi
	;;
*)
	echo "ERROR: RACKC_TEST_SIZES is '$RACKC_TEST_SIZES', not full or reduced" >&2
	exit 99
	;;
esac

# rk_full NAME: true at full sizes; at reduced sizes reports the case
# NAME skipped and is false
rk_full() {
	if [ "$rk_sizes" = full ]; then
		return 0
	fi
	skip "$1" "reduced sizes (RACKC_TEST_SIZES=reduced; the plain build runs it)"
	return 1
}

if command -v timeout >/dev/null 2>&1; then
	rk_have_timeout=yes
else
	rk_have_timeout=no
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rackc-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

npass=0
nfail=0
nskip=0
nxfail=0
ncase=0

# tap_line WORD NAME DIRECTIVE: one TAP line for the next case ("#" in the
# name escaped, so that it is not read as a directive)
tap_line() {
	ncase=$((ncase + 1))
	tl_name=$2
	case $tl_name in
	*'#'*) tl_name=$(printf '%s\n' "$tl_name" | sed 's/#/\\#/g') ;;
	esac
	echo "$1 $ncase - $tl_name$3"
}

pass() {
	npass=$((npass + 1))
	tap_line ok "$1${2:+ ($2)}" ""
}

fail() {
	nfail=$((nfail + 1))
	tap_line "not ok" "$1${2:+: $2}" ""
}

skip() {
	nskip=$((nskip + 1))
	tap_line ok "$1" " # SKIP${2:+ $2}"
}

xfail() {
	nxfail=$((nxfail + 1))
	tap_line "not ok" "$1" " # TODO${2:+ reported compiler bug: $2}"
}

# show FILE [N]: the file's text, indented, at most N (40) lines
show() {
	if [ -s "$1" ]; then
		sed -n "1,${2:-40}s/^/    | /p" "$1"
		if [ "$(wc -l <"$1")" -gt "${2:-40}" ]; then
			echo "    | ..."
		fi
	fi
}

rc=0
rk_problem=
rk_run() {
	rk_prefix=$1
	shift
	rk_problem=
	if [ "$rk_have_timeout" = yes ]; then
		timeout "$RK_TIMEOUT" "$RACKC" "$@" </dev/null \
			>"$rk_prefix.out" 2>"$rk_prefix.err" && rc=0 || rc=$?
	else
		"$RACKC" "$@" </dev/null \
			>"$rk_prefix.out" 2>"$rk_prefix.err" && rc=0 || rc=$?
	fi
	if [ "$rc" -eq 124 ] && [ "$rk_have_timeout" = yes ]; then
		rk_problem="timed out after ${RK_TIMEOUT}s"
	elif [ "$rc" -ge 124 ]; then
		rk_problem="killed by a signal or not run (exit status $rc)"
	fi
	if grep -E -q 'AddressSanitizer|LeakSanitizer|ThreadSanitizer|runtime error:' \
		"$rk_prefix.err"; then
		rk_problem="${rk_problem:+$rk_problem; }sanitizer report on stderr"
	fi
	if [ -n "$rk_problem" ]; then
		return 1
	fi
	return 0
}

# fail_diff NAME WHY EXPECTED PREFIX: a failed expected-stderr case, with
# the diff against EXPECTED (or the whole stderr when there is none) and
# any stdout
fail_diff() {
	fail "$1" "$2"
	if [ -f "$3" ]; then
		diff -u "$3" "$4.err" | sed 's/^/    | /' || :
	else
		show "$4.err"
	fi
	show "$4.out"
}

# rk_seeds LIST: the words of LIST, "A-B" and "KIND:A-B" expanded to A..B
rk_seeds() {
	for e in $1; do
		case $e in
		*-*)
			k=
			case $e in *:*) k=${e%%:*}: ;; esac
			r=${e#"$k"}
			for s in $(seq "${r%-*}" "${r#*-}"); do
				echo "$k$s"
			done
			;;
		*) echo "$e" ;;
		esac
	done
}

# rk_examples [NAME...]: the example designs to test, one path a line: the
# named ones, else every examples/*.rack (run from the top source dir)
rk_examples() {
	if [ $# -gt 0 ]; then
		for x in "$@"; do
			echo "examples/${x%.rack}.rack"
		done
	else
		for f in examples/*.rack; do
			if [ -f "$f" ]; then
				echo "$f"
			fi
		done
	fi
}

directive() {
	sed -n "1,10s/^#[[:space:]]*$1:[[:space:]]*//p" "$2" | sed -n '$p'
}

now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

cpu_mark() {
	times >"$tmp/.times" # not in a subshell: it reports its own children
	# shellcheck disable=SC2034 # read by the drivers
	rk_cpu_ms=$(awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m")
			sub(/s$/, "", p[2])
			t += p[1] * 60 + p[2]
		}
		printf "%d\n", t * 1000
	}' "$tmp/.times")
}

# py_results PREFIX FILE: count the cases a Python checker printed in FILE,
# one per line: "PASS<TAB>case<TAB>detail" or "FAIL<TAB>case<TAB>detail"
# (named "PREFIX: case"); other words are printed as information
py_results() {
	while IFS="$(printf '\t')" read -r pr_word pr_case pr_detail; do
		case $pr_word in
		PASS) pass "$1: $pr_case" ;;
		FAIL) fail "$1: $pr_case" "$pr_detail" ;;
		*) echo "INFO: $1: $pr_case ($pr_detail)" ;;
		esac
	done <"$2"
}

# py_with MODULE: the first python3 that imports MODULE, in $py ("" if none)
py_with() {
	py=
	for p in python3 /usr/bin/python3; do
		if command -v "$p" >/dev/null 2>&1 &&
			"$p" -c "import $1" >/dev/null 2>&1; then
			# shellcheck disable=SC2034 # read by the drivers
			py=$p
			return
		fi
	done
}

# rk_measure PREFIX ARG...: run ARG... (stdout to PREFIX.out, stderr to
# PREFIX.err, within the hang guard) and print "STATUS PEAK_KIB CPU_MS":
# its exit status (124 when the guard stopped it), peak resident set and
# processor time
rk_measure() {
	python3 - "$RK_TIMEOUT" "$@" <<'EOF'
import resource, subprocess, sys
limit, prefix, args = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
with open(prefix + ".out", "wb") as out, open(prefix + ".err", "wb") as err:
    try:
        st = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=out,
                            stderr=err, timeout=limit).returncode
    except subprocess.TimeoutExpired:
        st = 124
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(st, r.ru_maxrss, int((r.ru_utime + r.ru_stime) * 1000))
EOF
}

finish() {
	if [ "$ncase" -eq 0 ]; then
		echo "1..0 # SKIP no cases ran"
	else
		echo "1..$ncase"
	fi
	if [ "$nskip" -gt 0 ]; then
		echo "# $nskip skipped"
	fi
	if [ "$nxfail" -gt 0 ]; then
		echo "# $nxfail known failures (TODO: reported compiler bugs)"
	fi
	echo "# $npass passed, $nfail failed"
	if [ "$nfail" -gt 0 ]; then
		exit 1
	fi
	if [ "$npass" -eq 0 ] && [ "$nxfail" -eq 0 ]; then
		exit 77
	fi
	exit 0
}
