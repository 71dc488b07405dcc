#!/bin/sh
# SPDX-License-Identifier: MIT
# Scaling: the compiler's work grows no faster than its input.  Each case
# is a small design scaled by one number N (a loop bound, a list's length,
# racks, servers, links, planes, GPUs, findings, changed servers of a
# `rackc diff`, identical warnings in SARIF); it runs at N and at 10N, and
# the processor time (user + system) and peak resident set of the second
# run may be at most RACKC_SCALE_RATIO (default 25: 10 times, with room
# for an n log n factor and noise) times the first's.  Below a floor the
# first run's figures count as the floor (RACKC_SCALE_FLOOR_MS, default
# 100 ms; RACKC_SCALE_FLOOR_KIB, default 32768), so that noise at tiny
# sizes cannot fail a case.  A quadratic path makes the second run 100
# times the first and fails: the ibnet-planes case fails on the version
# before subnet names went through a hash set (ratio 60 and more), and the
# other sizes are chosen likewise, where a past quadratic path was
# already measurable at N.
#
# A sanitizer build runs 5-15 times slower and keeps shadow memory: the
# sizes are divided by 10 there (the ratios hold all the same).
#
# shellcheck disable=SC2317 # the cases are called through scale()
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip scaling "python3 not installed (rk_measure)"
	finish
fi
ratio=${RACKC_SCALE_RATIO:-25}
floor_ms=${RACKC_SCALE_FLOOR_MS:-100}
floor_kib=${RACKC_SCALE_FLOOR_KIB:-32768}
if [ "$rk_sanitized" = yes ]; then
	div=10
else
	div=1
fi
in=$tmp/in.rack

# measure ARG...: rackc ARG... (rk_measure): "STATUS PEAK_KIB CPU_MS"
measure() {
	rk_measure "$tmp/m" "$RACKC" "$@"
}

# scale NAME N FUNCTION: FUNCTION SIZE writes its input and prints
# measure's line, at SIZE N / div and 10 times that
scale() {
	s_name=$1 s_n=$(($2 / div)) s_fn=$3
	s_res1=$($s_fn "$s_n")
	s_bad1=$(s_check)
	s_res10=$($s_fn $((s_n * 10)))
	s_bad10=$(s_check)
	# shellcheck disable=SC2086 # three numbers each
	s_verdict=$(printf '%s %s\n' "$s_res1" "$s_res10" | awk -v r="$ratio" \
		-v ft="$floor_ms" -v fm="$floor_kib" -v n="$s_n" '{
		t1 = $3 < ft ? ft : $3; m1 = $2 < fm ? fm : $2
		tr = $6 / t1; mr = $5 / m1
		d = sprintf("N=%d: %d ms %d KiB; 10N: %d ms %d KiB; " \
			"ratios %.1f (time) %.1f (memory), at most %d", \
			n, $3, $2 / 1, $6, $5 / 1, tr, mr, r)
		bad = ""
		if ($1 > 1 || $4 > 1)
			bad = "exit status " $1 " and " $4
		else if (tr > r)
			bad = "time grew " sprintf("%.1f", tr) " times"
		else if (mr > r)
			bad = "memory grew " sprintf("%.1f", mr) " times"
		print (bad == "" ? "ok" : bad) "; " d }')
	if [ -n "$s_bad1$s_bad10" ]; then
		fail "$s_name" "$s_bad1 $s_bad10; $s_verdict"
		show "$tmp/m.err" 10
	else
		case $s_verdict in
		ok\;*) pass "$s_name" "${s_verdict#ok; }" ;;
		*) fail "$s_name" "$s_verdict" ;;
		esac
	fi
}

# s_check: what is wrong with the last run's stderr (empty if nothing)
s_check() {
	if grep -E -q 'AddressSanitizer|LeakSanitizer|runtime error:' \
		"$tmp/m.err"; then
		echo "sanitizer report"
	fi
}

#### the cable plan: copies of one link key (their cable IDs collided in
# cascades: 600,000 copies never finished)
cable_ids() {
	printf 'part p:pdu{port q}pdu s:p\nfor i in 0..%d{link s.q--s.q}\n' \
		$(($1 - 1)) >"$in"
	measure --check "$in"
}
scale cable-id-copies 40000 cable_ids

# links between two switches, every back end
links() {
	printf 'part w:switch{height 1U;port p[0..%d]{speed 400Gb/s}}\nswitch a:w{}\nswitch b:w{}\nfor i in 0..%d{link a.p[i]--b.p[i]}\n' \
		$(($1 - 1)) $(($1 - 1)) >"$in"
	measure -j1 -o "$tmp/out" "$in"
}
scale links-all-backends 5000 links

#### back-end preflight: one server part of N GPUs (the NCCL topology's
# depth x component loop was quadratic: 100,000 took 11.8 s)
nccl_gpus() {
	printf 'part g:gpu{}\npart s:server{gpu x[0..%d]:g{}}\ndevice n:s{}\n' \
		$(($1 - 1)) >"$in"
	measure --check "$in"
}
scale nccl-gpus 10000 nccl_gpus

#### InfiniBand subnets: N planes of one fabric (each subnet name was tried
# against every name given: 2,000 planes took 16.7 s)
ibnet_planes() {
	printf '%s\n' "part v:server{height 1U;port ib[0..$(($1 - 1))]{speed 400Gb/s;protocol ib}}" \
		'part w:switch{height 1U;port p[0..7]{speed 400Gb/s;protocol ib}}' \
		'for n in 0..3{node s[n]:v{}}' \
		"fabric f:fat_tree{endpoints s[*].ib[0..$(($1 - 1))];switch w;planes $1}" \
		>"$in"
	measure -j1 -O ibnet -o "$tmp/out" "$in"
}
scale ibnet-planes 200 ibnet_planes

#### findings: N identical warnings as SARIF (each result's fingerprint
# counter scanned the earlier results), N different ones, N errors as JSON
# with no limit, N groups of "more like this", N waivers of an unknown
# check (each looked for a suggestion)
sarif_identical() {
	printf 'for i in 0..%d{group g[i]{waive "rack-placement","r"}}\n' \
		$(($1 - 1)) >"$in"
	measure --check --diagnostics-format=sarif --max-errors=0 "$in"
}
scale sarif-identical 50000 sarif_identical
sarif_different() {
	printf '%s\n' 'import "std/facility"' 'part s:switch{height 1U}' \
		"site h{row r{rack k:rack_42u{for i in 0..$(($1 - 1)){device d[i]:s}}}}" \
		>"$in"
	measure --check --diagnostics-format=sarif "$in"
}
scale sarif-different 10000 sarif_different
json_errors() {
	printf 'part s:server{height 1U}\npart k:rack{height 1U}\nsite a{row w{rack r:k{}}}\nfor i in 0..%d{device d[i]:s{rack a.w.r;at 0U}}\n' \
		$(($1 - 1)) >"$in"
	measure --check --diagnostics-format=json --max-errors=0 "$in"
}
scale json-errors 20000 json_errors
groups() {
	awk -v n="$1" 'BEGIN { print "part a:pdu{port p[0..1]}"
		for (i = 0; i < n; i++)
			printf "pdu s%d:a\nlink s%d.p[0..1]--s%d.p[0..1]\n", i, i, i }' \
		>"$in"
	measure --check --max-errors=0 --no-source "$in"
}
scale more-like-this 8000 groups
waiver_names() {
	printf 'part s:server{height 1U}\nfor i in 0..%d{device d[i]:s{waive "power-redundancy", "r"}}\n' \
		$(($1 - 1)) >"$in"
	measure --check --max-errors=0 "$in"
}
scale waiver-suggestion 20000 waiver_names

#### the front end and every back end: many params, a long list, N racks
# of 40 servers
params() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "param p%d = %d\n", i, i }' >"$in"
	measure --check "$in"
}
scale many-params 10000 params
long_list() {
	awk -v n="$1" 'BEGIN { printf "param l = [1"
		for (i = 1; i < n; i++) printf ", %d", i
		print "]"; print "param m = len(l)" }' >"$in"
	measure --check "$in"
}
scale long-list 100000 long_list
racks() {
	printf '%s\n' 'param n = 1' 'part s:server{height 1U}' \
		'part k:rack{height 42U}' 'site h{row r{rack k[0..n - 1]:k{}}}' \
		'for i in 0..n - 1{for j in 1..40{device d[i * 40 + j]:s{rack h.r.k[i];at 1U * j}}}' \
		>"$in"
	measure -j1 -o "$tmp/out" -Dn="$1" "$in"
}
scale racks-all-backends 100 racks

#### rackc diff: N servers changed part (the grouping of findings was
# superlinear: 200,000 took 28.6 s)
diff_servers() {
	for v in s t; do
		printf 'param n = 1\npart s:server{height 1U}\npart t:server{height 2U}\npart k:rack{height 1U}\nsite a{row w{rack r:k{}}}\nfor i in 0..n-1 { device d[i] : %s {rack a.w.r; at 0U} }\n' \
			"$v" >"$tmp/$v.rack"
	done
	measure diff -D n="$1" "$tmp/s.rack" "$tmp/t.rack"
}
scale diff-servers 5000 diff_servers

finish
