#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Build the libFuzzer targets and run each for FUZZ_SECONDS (default 60):
#
#   fuzz/run.sh SRCDIR BUILDDIR [TARGET...]      (`make fuzz` calls it)
#
# TARGETs (default all six):
#   frontend  scan, parse, elaborate, generate fabrics, resolve
#   backends  the whole compiler with --force: checks and every back end,
#             writing into a temporary directory emptied after each input
#   options   the command line (rackc_cli) in process: a few option bytes
#             (-D, -W/-E, --max-errors, --explain, -j 2-4, text/JSON/SARIF
#             diagnostics, --force, --check, -O, --prices, -I, limits), then
#             the design
#   prices    the --prices CSV reader, with a BOM to price
#   diff      the readers of `rackc diff` (report.json, bom.csv,
#             cabling.csv, ir.rack: the first byte selects one)
#   verify    the readers of `rackc verify` (ibnetdiscover output,
#             ibdiagnet.lst, ibdiagnet2.db_csv,
#             lldpcli JSON, neighbour CSV, a --map file: the first byte
#             selects one, the format and the work order) against the
#             plans of tests/verify/ib-small.rack and eth-small.rack
# The compiler's sources are built again with clang and
# -fsanitize=fuzzer-no-link,address,undefined,pointer-overflow into
# BUILDDIR/fuzz-build/; the generated scanner and parser are taken from BUILDDIR
# (run `make` first).
#
# Seeds: the committed corpus fuzz/corpus/TARGET/ (frontend and backends:
# fuzz/corpus/design/, plus every example and every test design up to
# 8 KiB but those of tests/errors/limits/; options: fuzz/corpus/options/
# plus those designs behind a zero byte, no options); inputs the fuzzer
# finds go to a scratch corpus in BUILDDIR/fuzz-build/corpus-TARGET/ (kept
# between runs, never committed: add what a finding needs to
# fuzz/corpus/TARGET/).  The dictionaries are fuzz/rack.dict (designs),
# fuzz/prices.dict, fuzz/diff.dict and fuzz/verify.dict.  A crash, a leak,
# an undefined behaviour report, a timeout (FUZZ_TIMEOUT s per input, default 60) or
# an input that takes more than FUZZ_RSS_MB of memory (default 2048) ends
# the run with a non-zero status, and the input is saved in
# BUILDDIR/fuzz-build/artifacts/ (its path is printed).  Inputs are up to
# FUZZ_MAX_LEN bytes (default 4096; diff and verify 16384, to hold an
# artifact or an observation of a few switches).
#
# Environment: CC_FUZZ (default clang), FUZZ_CPPFLAGS and FUZZ_LIBS (from
# the Makefile: include paths and libraries), FUZZ_SECONDS, FUZZ_TIMEOUT,
# FUZZ_RSS_MB, FUZZ_MAX_LEN, FUZZ_JOBS (compile jobs, default 2).

set -eu

src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
shift 2
targets=${*:-frontend backends options prices diff verify}
cc=${CC_FUZZ:-clang}
seconds=${FUZZ_SECONDS:-60}
out=$build/fuzz-build
san="-fsanitize=address,undefined,pointer-overflow"
san="$san -fno-sanitize-recover=undefined,pointer-overflow"
cflags="-std=c11 -g -O1 -fno-omit-frame-pointer -DHAVE_CONFIG_H $san"

log() {
	printf '==> %s\n' "$*"
}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "fuzz: $cc not found (install clang and libclang-rt-dev)" >&2
	exit 2
fi
for f in grammar/parser.c grammar/lexer.c grammar/parser.h config.h; do
	if [ ! -f "$build/$f" ]; then
		echo "fuzz: $build/$f missing: run make first" >&2
		exit 2
	fi
done
mkdir -p "$out/obj" "$out/artifacts"
# other flags than the objects were built with: build them all again
flags="$cc $cflags ${FUZZ_CPPFLAGS:-}"
if [ "$(cat "$out/obj/flags" 2>/dev/null)" != "$flags" ]; then
	rm -f "$out"/obj/*.o "$out/obj/stamp"
	printf '%s\n' "$flags" >"$out/obj/flags"
fi
# any source or header newer than the objects (but a target's own file,
# compiled with each link): build them all again
if [ ! -f "$out/obj/stamp" ] || [ -n "$(find "$src/src" "$src/backends" \
	"$src/grammar" "$src/fuzz" "$build/grammar" "$build/config.h" \
	-newer "$out/obj/stamp" -name '*.[chyl]' \
	-not \( -name 'fuzz_*.c' -not -name fuzz_common.c \) | head -n 1)" ]; then
	rm -f "$out"/obj/*.o
fi

# the library: every C file of the compiler but main.c
log "building the fuzz targets with $cc in $out"
objs=
: >"$out/obj/todo"
# the stages' folders (doc/internals.md), each on the include path
incs=$(find "$src/src" "$src/backends" -type d | LC_ALL=C sort |
	sed 's/^/-I/' | tr '\n' ' ')
export incs
for f in $(find "$src/src" "$src/backends" -name '*.c' | LC_ALL=C sort) \
	"$build"/grammar/parser.c "$build"/grammar/lexer.c \
	"$src"/fuzz/fuzz_common.c; do
	case $f in
	*/src/cli/main.c) continue ;;
	esac
	o=$out/obj/$(echo "${f#"$src"/}" | sed "s|^$build/||; s|/|_|g").o
	objs="$objs $o"
	if [ ! -f "$o" ]; then
		printf '%s %s\n' "$f" "$o" >>"$out/obj/todo"
	fi
done
export cc cflags src build FUZZ_CPPFLAGS
# two compiles at a time; xargs fails if one does
# shellcheck disable=SC2016 # expanded by the inner shell
xargs -r -P "${FUZZ_JOBS:-2}" -n 2 sh -c '
	echo "$cc -c $0"
	# shellcheck disable=SC2086 # flag lists
	exec "$cc" $cflags -fsanitize=fuzzer-no-link -w -I"$build" \
		$incs -I"$src/grammar" -I"$build/grammar" \
		${FUZZ_CPPFLAGS:-} -c "$0" -o "$1"' \
	<"$out/obj/todo"
touch "$out/obj/stamp"
for t in $targets; do
	# shellcheck disable=SC2086 # flag and file lists
	"$cc" $cflags -fsanitize=fuzzer $incs -I"$src/grammar" \
		-I"$build" -I"$build/grammar" ${FUZZ_CPPFLAGS:-} \
		"$src/fuzz/fuzz_$t.c" $objs ${FUZZ_LIBS:-} -lm -lpthread \
		-o "$out/fuzz_$t"
done

# seeds: the designs (frontend, backends; options behind a zero byte)
designs=$out/seeds-design
rm -rf "$designs" "$out"/seeds-*
mkdir -p "$designs"
cp "$src"/fuzz/corpus/design/* "$designs"/
# (not the tests of the limits: each spends its seconds reaching one)
find "$src/examples" "$src/tests" -name '*.rack' -size -8k \
	-not -path '*/limits/*' |
	while read -r f; do
		cp "$f" "$designs/$(echo "${f#"$src"/}" | tr / _)"
	done
# seeds_of TARGET: its seed directory, made
seeds_of() {
	d=$out/seeds-$1
	case $1 in
	frontend | backends) d=$designs ;;
	options)
		mkdir -p "$d"
		cp "$src"/fuzz/corpus/options/* "$d"/
		for f in "$designs"/*; do
			{ printf '\000'; cat "$f"; } >"$d/${f##*/}"
		done
		;;
	*)
		mkdir -p "$d"
		cp "$src/fuzz/corpus/$1"/* "$d"/
		;;
	esac
	echo "$d"
}

status=0
for t in $targets; do
	corpus=$out/corpus-$t
	seeds=$(seeds_of "$t")
	dict=$src/fuzz/rack.dict
	len=${FUZZ_MAX_LEN:-4096}
	case $t in
	prices) dict=$src/fuzz/prices.dict ;;
	diff | verify)
		dict=$src/fuzz/$t.dict
		len=${FUZZ_MAX_LEN:-16384}
		;;
	esac
	mkdir -p "$corpus"
	log "fuzz_$t for ${seconds}s (corpus $corpus)"
	if ! (cd "$out" && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$out/fuzz_$t" -max_total_time="$seconds" \
		-timeout="${FUZZ_TIMEOUT:-60}" \
		-rss_limit_mb="${FUZZ_RSS_MB:-2048}" -max_len="$len" \
		-dict="$dict" -close_fd_mask=3 \
		-artifact_prefix="$out/artifacts/$t-" -print_final_stats=1 \
		"$corpus" "$seeds"); then
		status=1
		log "fuzz_$t FAILED; the input that failed:"
		ls -l "$out/artifacts/" >&2
	fi
done
exit $status
