#!/bin/sh
# SPDX-License-Identifier: MIT
# Benchmark: full compiles (every check, every back end) of the synthetic
# design at 1k, 10k, 100k and 1M GPUs (synth.rack), then of a design of many
# small fabrics at 1,000 and 10,000 racks (fabrics.rack, two fabrics and
# two [*] patterns per rack).  Prints, per size: wall time (best of
# RUNS), processor time (user + system) and peak memory (from
# /usr/bin/time, one more run), the processor time of each stage (from
# --stats; wall time for the few stages without one), the bytes written, and the time `cat` takes to write the same
# files into a fresh directory (the output-bound floor, best of RUNS).
# Every timed run, compile or copy, starts from the same state: previous
# outputs removed and written back (sync), since a file system that still
# holds hundreds of MiB of fresh writes slows the next writer down.
#
#   bench/run.sh [RACKC] [GPU SIZES...]      (make bench runs it)
#   FABRIC_SIZES="1000 10000" (racks of fabrics.rack; empty: skip)
set -eu
RACKC=${1:-./rackc}
[ $# -gt 0 ] && shift
SIZES=${*:-1000 10000 100000 1000000}
FABRIC_SIZES=${FABRIC_SIZES-1000 10000}
RUNS=${RUNS:-3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }

echo "# rackc benchmark: $(uname -m), $(nproc) cores, $(LC_ALL=C grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo
# table DESIGN PARAM UNIT "SIZES"
table() {
	design=$1 param=$2 unit=$3 sizes=$4
	echo "| $unit | wall (best of $RUNS) | user + sys | peak RSS | output | copy of output | stages |"
	echo "|---:|---:|---:|---:|---:|---:|---|"
	for g in $sizes; do
		best=
		for _ in $(seq "$RUNS"); do
			rm -rf "$tmp/out"
			# start each run with nothing left to write back from the last
			sync
			t0=$(now)
			"$RACKC" -D "$param=$g" -o "$tmp/out" "$here/$design" 2>/dev/null
			t1=$(now)
			ms=$(( (t1 - t0) / 1000000 ))
			if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
		done
		rm -rf "$tmp/out"
		/usr/bin/time -v "$RACKC" --stats -D "$param=$g" -o "$tmp/out" \
			"$here/$design" 2>"$tmp/log"
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/log")
		cpu=$(sed -n 's/.*\(User\|System\) time (seconds): //p' "$tmp/log" |
			awk '{ s += $1 } END { printf "%.2f s", s }')
		# each stage's processor time where --stats gives one (a busy
		# machine does not inflate it), else its wall time
		stages=$(sed -n -e 's/^rackc: stats: \([a-z ()]*[a-z)]\) *[0-9.]* ms *\([0-9.]*\) ms cpu$/\1 \2 cpu/p' \
			-e 's/^rackc: stats: \([a-z ()]*[a-z)]\) *\([0-9.]*\) ms$/\1 \2 wall/p' "$tmp/log" |
			awk '{ k=$NF; $NF=""; v=$(NF-1); $(NF-1)=""; sub(/ *$/, "");
				printf "%s%s %s ms%s", sep, $0, v, k == "cpu" ? "" : " (wall)"; sep=", " }')
		bytes=$(cat "$tmp"/out/* "$tmp"/out/*/* 2>/dev/null | wc -c)
		(cd "$tmp/out" && find . -type f | LC_ALL=C sort) >"$tmp/files"
		copy=
		for _ in $(seq "$RUNS"); do
			rm -rf "$tmp/copy"
			(cd "$tmp/out" && find . -type d) | (cd "$tmp" && mkdir -p copy &&
				cd copy && xargs mkdir -p)
			sync
			t0=$(now)
			while read -r f; do
				cat "$tmp/out/$f" >"$tmp/copy/$f"
			done <"$tmp/files"
			t1=$(now)
			ms=$(( (t1 - t0) / 1000000 ))
			if [ -z "$copy" ] || [ "$ms" -lt "$copy" ]; then copy=$ms; fi
		done
		rm -rf "$tmp/copy"
		echo "| $g | $best ms | $cpu | $((rss / 1024)) MiB | $((bytes / 1024)) KiB | $copy ms | $stages |"
	done
}

table synth.rack GPUS GPUs "$SIZES"
if [ -n "$FABRIC_SIZES" ]; then
	echo
	table fabrics.rack RACKS racks "$FABRIC_SIZES"
fi
