#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The rackc steps of a CI job for a design repository (doc/ci.md):
#
#   tools/ci-review.sh [-b BASE_DIR] [-o OUT] DESIGN [RACKC_OPTION...]
#
# DESIGN is a path relative to the checkout (the current directory);
# BASE_DIR is a checkout of the base branch (a pull request's target), and
# RACKC_OPTION... (-D, -I, --prices: what both rackc and rackc diff take)
# apply to every compilation.  The
# compiler is $RACKC (default: rackc on the PATH).  Writes into OUT
# (default rackc-ci):
#
#   rackc.sarif   `rackc --check` diagnostics as SARIF 2.1.0, for upload
#   out/          the design's artifacts (--force: also when checks fail)
#   diff.md       with -b: `rackc diff` of the base design against this
#                 one, as Markdown for a pull-request comment: within
#                 the comment's size (rackc diff --max-bytes), the
#                 complete review in diff-full.md, which a cut one names
#   diff.json     the same diff as JSON
#   diff.txt      the same diff as text (the job log shows it)
#
# Exit status: that of `rackc --check` (0 clean, 1 design errors, 2 usage
# or I/O trouble); 2 also when the diff is in trouble.  A diff that finds
# differences is not a failure.
set -u

base=
out="rackc-ci"
while getopts b:o: opt; do
	case $opt in
	b) base=$OPTARG ;;
	o) out=$OPTARG ;;
	*)
		echo "usage: $0 [-b BASE_DIR] [-o OUT] DESIGN [RACKC_OPTION...]" >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
	echo "usage: $0 [-b BASE_DIR] [-o OUT] DESIGN [RACKC_OPTION...]" >&2
	exit 2
fi
design=$1
shift
rackc=${RACKC:-rackc}
mkdir -p "$out" || exit 2

# 1. the checks, as SARIF (standard error), for code scanning
status=0
"$rackc" --check --diagnostics-format=sarif "$@" "$design" \
	2>"$out/rackc.sarif" || status=$?
echo "rackc --check: exit $status"

# 2. the artifacts, kept by the job
rm -rf "$out/out"
"$rackc" --force -o "$out/out" "$@" "$design" >"$out/build.log" 2>&1 || :

# 3. the change against the base branch
if [ -n "$base" ]; then
	if [ -f "$base/$design" ]; then
		old=$base/$design
	else
		# a new design: compare with an empty one
		old=$out/empty.rack
		: >"$old"
	fi
	for f in markdown:md json:json text:txt; do
		rc=0
		# Markdown within a pull-request comment (the default
		# --max-bytes), the complete review beside it; JSON and the
		# text of the log complete
		case $f in
		markdown:*) size="--full=$out/diff-full.md" ;;
		*) size=--max-bytes=0 ;;
		esac
		"$rackc" diff -f "${f%%:*}" "$size" "$@" "$old" "$design" \
			>"$out/diff.${f#*:}" || rc=$?
		if [ "$rc" -gt 1 ]; then
			echo "rackc diff: exit $rc" >&2
			exit 2
		fi
	done
	cat "$out/diff.txt"
fi
exit "$status"
