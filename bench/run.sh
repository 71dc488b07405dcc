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
# a million GPUs write 3.4 GB of artifacts: past the default output limit
big=--max-output-bytes=8589934592

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
			"$RACKC" "$big" -D "$param=$g" -o "$tmp/out" "$here/$design" 2>/dev/null
			t1=$(now)
			ms=$(( (t1 - t0) / 1000000 ))
			if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
		done
		rm -rf "$tmp/out"
		/usr/bin/time -v "$RACKC" "$big" --stats -D "$param=$g" -o "$tmp/out" \
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
		# for the tables after: each stage's time, and the run's figures
		sed -n -e 's/^rackc: stats: \([a-z ()]*[a-z)]\) *[0-9.]* ms *\([0-9.]*\) ms cpu$/\1\t\2/p' \
			"$tmp/log" >"$tmp/st.$design.$g"
		tot=$(awk -F '\t' '$1 == "total" { print $2 }' "$tmp/st.$design.$g")
		echo "$g $best ${tot:-0} $((rss / 1024)) $copy" >>"$tmp/sum.$design"
	done
	stage_table "$design" "$unit" "$sizes"
}

# stage_table DESIGN UNIT "SIZES": processor time of each stage (rows) at
# every size (columns), and the growth from one size to the next; then
# the growth of the whole run and each size's time against its copy.
stage_table() {
	echo
	echo "Processor time per stage (ms, --stats), $1; growth from one size to the next:"
	echo
	(
		for g in $3; do
			awk -F '\t' -v g="$g" '{ print g "\t" $1 "\t" $2 }' "$tmp/st.$1.$g"
		done
	) | awk -F '\t' -v sizes="$3" '
		BEGIN { ns = split(sizes, sz, " ") }
		{ if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
		  t[$2, $1] = $3 }
		function ratio(a, b) { return b > 0 && a != "" ? sprintf("%.1f", a / b) : "-" }
		END {
			h = "| stage |"; r = "|---|"
			for (i = 1; i <= ns; i++) { h = h " " sz[i] " |"; r = r "---:|" }
			for (i = 2; i <= ns; i++) { h = h " " sz[i] "/" sz[i - 1] " |"; r = r "---:|" }
			print h; print r
			for (k = 1; k <= n; k++) {
				s = order[k]; line = "| " s " |"
				for (i = 1; i <= ns; i++)
					line = line " " ((s, sz[i]) in t ? t[s, sz[i]] : "-") " |"
				for (i = 2; i <= ns; i++)
					line = line " " ratio(t[s, sz[i]], t[s, sz[i - 1]]) " |"
				print line
			}
		}'
	echo
	echo "Whole runs, $1 (wall time best of $RUNS; processor time of the --stats run;"
	echo "peak RSS; wall time against the copy of the output; growth from the size before):"
	echo
	awk -v unit="$2" '
		BEGIN { print "| " unit " | wall | processor time | peak RSS | wall / copy | wall growth | processor time growth |"
			print "|---:|---:|---:|---:|---:|---:|---:|" }
		{ g = $1; w = $2; c = $3; m = $4; cp = $5
		  a = (cp > 0) ? sprintf("%.2f", w / cp) : "-"
		  b = (pw > 0) ? sprintf("%.1fx", w / pw) : "-"
		  r = (pc > 0) ? sprintf("%.1fx", c / pc) : "-"
		  printf("| %s | %d ms | %.1f ms | %d MiB | %s | %s | %s |\n", g, w, c, m, a, b, r)
		  pw = w; pc = c }' "$tmp/sum.$1"
}

table synth.rack GPUS GPUs "$SIZES"
if [ -n "$FABRIC_SIZES" ]; then
	echo
	table fabrics.rack RACKS racks "$FABRIC_SIZES"
fi
