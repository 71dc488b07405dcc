#!/bin/sh
# SPDX-License-Identifier: MIT
# Growth of the DGX H100 SuperPOD (examples/dgx-h100-superpod.rack) from 1
# to 2, 4 and 8 scalable units, with the compute fabric sized for its SUS
# and provisioned for 8 (FINAL_SUS=8): cable IDs and ends are stable, the
# leaf-spine cables that move are exactly the minimum src/fabric/fabric.c derives
# (none within the provisioned size), and every leaf spreads its uplinks
# round-robin (tests/growth_check.py).  From 4 to 8 SUs only the fabrics'
# leaf-spine cables are compared: without FINAL_SUS, at 5 SUs the UFM
# leaves its node slot to dgx[31] (RA Table 3), so the UFM's cables go
# (with FINAL_SUS=8 the slot is a DGX's from the start; the rest of the
# design's growth: placement_growth below).
#
# Provisioned (FINAL_SUS=8), growth within the UFM's SUs (1 -> 2 -> 4)
# only adds, by `rackc diff`: no device moves (switch placement holds the
# places of what is to come) and no cable is re-pulled, relabelled or
# removed, the out-of-band star's included; the star takes the management
# port of every compute and storage switch.  tests/growth/place.rack does
# the same where leaves, spines and a star share racks (final_sus holds
# the places of the leaves to come).
#
# At reduced sizes (a sanitizer build; RACKC_TEST_SIZES, tests/lib.sh)
# the three-tier SuperPOD grows to 17 SUs (24 with DOUBLE_CORES) rather
# than 32, and the synthetic benchmark to 16,384 GPUs rather than 100,000
# (sized below); the plain build runs every size.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip growth "python3 not installed"
	finish
fi

# sized NAME FULL REDUCED: $sized := the hops "a:b ..." to run: FULL at
# full sizes; at reduced sizes (a sanitizer build: tests/lib.sh) REDUCED,
# the smaller ones, and each hop of FULL left out reported skipped
# (NAME/a->b).  The largest fabrics are the sanitizer build's slowest
# compilations and the Python checks' longest (the synthetic benchmark's
# 100,000 GPUs, the SuperPOD past 17 SUs).
sized() {
	sized=$2
	[ "$rk_sizes" = full ] && return 0
	sized=$3
	for sz_hop in $2; do
		case " $3 " in
		*" $sz_hop "*) ;;
		*) rk_full "$1/${sz_hop%:*}->${sz_hop#*:}" || : ;;
		esac
	done
}

# adds_only NAME OLD NEW: `rackc diff` of two output directories only adds
adds_only() {
	if ! rk_run "$tmp/d" diff -f json "$2" "$3" || [ "$rc" -ne 1 ]; then
		fail "$1" "rackc diff: exit $rc $rk_problem"
		show "$tmp/d.err"
	elif python3 "$top_srcdir/tests/growth_check.py" --adds-only \
		"$tmp/d.out" >"$tmp/g.out" 2>&1; then
		pass "$1" "$(cat "$tmp/g.out")"
	else
		fail "$1" "see below"
		show "$tmp/g.out"
	fi
}

# adds_chain NAME DIR SIZES: for each two sizes a b in a row of SIZES,
# `rackc diff` of DIR-a and DIR-b only adds (the test NAME/diff/a->b)
adds_chain() {
	ac_prev=
	for ac_n in $3; do
		if [ -n "$ac_prev" ]; then
			adds_only "$1/diff/$ac_prev->$ac_n" "$2-$ac_prev" "$2-$ac_n"
		fi
		ac_prev=$ac_n
	done
}

# gcheck NAME ARG...: `growth_check.py ARG...` passes (the test NAME, with
# its line)
gcheck() {
	gc_name=$1
	shift
	if python3 "$top_srcdir/tests/growth_check.py" "$@" >"$tmp/g.out" 2>&1
	then
		pass "$gc_name" "$(cat "$tmp/g.out")"
	else
		fail "$gc_name" "see below"
		show "$tmp/g.out"
	fi
}

# mgmt_check NAME CABLING.csv: every compute and storage switch's
# management port is on the out-of-band star
mgmt_check() {
	if python3 - "$2" >"$tmp/m.out" 2>&1 <<'PY'; then
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
sw = set()
mgmt = set()
for r in rows:
    for s in "ab":
        dev = r[s + "_device"]
        if re.match(r"(compute|storage)\.(leaf|spine|core)\[\d+\]$", dev):
            sw.add(dev)
            if r[s + "_port"] == "mgmt" and r["fabric"] == "oob":
                mgmt.add(dev)
missing = sorted(sw - mgmt)
print("%d switches, %d with mgmt on the oob star%s" % (
    len(sw), len(mgmt), ": missing " + " ".join(missing[:5]) if missing else ""))
sys.exit(1 if missing or not sw else 0)
PY
		pass "$1" "$(cat "$tmp/m.out")"
	else
		fail "$1" "$(cat "$tmp/m.out")"
	fi
}

design=$top_srcdir/examples/dgx-h100-superpod.rack
for final in 0 8; do
	ok=yes
	for sus in 1 2 4 8; do
		if ! rk_run "$tmp/r$final-$sus" -D SUS="$sus" \
			-D FINAL_SUS="$final" -O ir,report,bom,cabling \
			-o "$tmp/o$final-$sus" "$design" || [ "$rc" -ne 0 ]; then
			fail "growth/FINAL_SUS=$final/SUS=$sus" \
				"exit $rc $rk_problem"
			show "$tmp/r$final-$sus.err"
			ok=no
		fi
	done
	[ "$ok" = yes ] || continue
	for hop in 1:2:all 2:4:all 4:8:fabric 1:8:fabric; do
		a=${hop%%:*}
		rest=${hop#*:}
		b=${rest%%:*}
		mode=${rest#*:}
		name="growth/FINAL_SUS=$final/$a->$b"
		if python3 "$top_srcdir/tests/growth_check.py" \
			"$tmp/o$final-$a/cabling.csv" "$tmp/o$final-$b/cabling.csv" \
			"$mode" >"$tmp/g.out" 2>&1; then
			pass "$name"
			sed 's/^/    /' "$tmp/g.out"
		else
			fail "$name" "see below"
			show "$tmp/g.out"
		fi
	done
	# every compute and storage switch's management port is on the star
	for sus in 1 2 4 8; do
		mgmt_check "growth/FINAL_SUS=$final/SUS=$sus/mgmt" \
			"$tmp/o$final-$sus/cabling.csv"
	done
	[ "$final" = 8 ] || continue
	for hop in 1:2 2:4 1:4; do
		adds_only "growth/FINAL_SUS=8/diff/${hop%:*}->${hop#*:}" \
			"$tmp/o8-${hop%:*}" "$tmp/o8-${hop#*:}"
	done
done

# tiers_hops NAME DESIGN ARGS HOPS R[:FINAL_PODS]|double [FABRIC]: compile
# DESIGN with ARGS and -D SUS=n (-D $hop_param=n when set) for every n of the
# hops "a:b ..." and check each
# hop with growth_check.py --tiers, given the switches' R ports (and the
# pods of the provisioned size): no leaf-spine cable moves, the cores (top
# switches) are the tight count, every pod (group) is wired alike, the
# spine-core (core-top) cables that move are the minimum, the rest keep
# ID and ends (double: growth_check.py --tiers-double, core_growth double).
# With hop_two=n (a fabric of the default tiers, grown out of two at n, its
# largest two-tier size), its first pod's leaves keep the cables they had
# at n (growth_check.py --two) and the other leaves follow the pod rule.
tiers_hops() {
	th_name=$1 th_design=$2 th_args=$3 th_hops=$4 th_r=$5 th_fab=${6:-}
	th_ok=yes
	th_two=
	if [ -n "${hop_two:-}" ]; then
		th_two=--two=$tmp/t-two/cabling.csv
		# shellcheck disable=SC2086
		if ! rk_run "$tmp/t" $th_args -D "${hop_param:-SUS}=$hop_two" \
			-O cabling -o "$tmp/t-two" "$th_design" ||
			[ "$rc" -ne 0 ]; then
			fail "$th_name/${hop_param:-SUS}=$hop_two" \
				"exit $rc $rk_problem"
			show "$tmp/t.err"
			th_ok=no
		fi
	fi
	# shellcheck disable=SC2086 # the hops are words
	for th_n in $(printf '%s\n' $th_hops | tr ':' '\n' | sort -un); do
		# shellcheck disable=SC2086
		if ! rk_run "$tmp/t" $th_args -D "${hop_param:-SUS}=$th_n" \
			-O report,cabling \
			-o "$tmp/t-$th_n" "$th_design" || [ "$rc" -ne 0 ]; then
			fail "$th_name/${hop_param:-SUS}=$th_n" \
				"exit $rc $rk_problem"
			show "$tmp/t.err"
			th_ok=no
		fi
	done
	[ "$th_ok" = yes ] || return 0
	for th_hop in $th_hops; do
		if [ "$th_r" = double ]; then
			set -- --tiers-double
		else
			set -- --tiers "$th_r"
		fi
		# shellcheck disable=SC2086 # no fabric: no argument
		if python3 "$top_srcdir/tests/growth_check.py" "$@" $th_two \
			"$tmp/t-${th_hop%:*}/cabling.csv" \
			"$tmp/t-${th_hop#*:}/cabling.csv" $th_fab \
			>"$tmp/g.out" 2>&1; then
			pass "$th_name/${th_hop%:*}->${th_hop#*:}"
			sed 's/^/    /' "$tmp/g.out"
		else
			fail "$th_name/${th_hop%:*}->${th_hop#*:}" "see below"
			show "$tmp/g.out"
		fi
	done
	rm -rf "$tmp"/t-*
}

# three and four tiers (tests/growth/tiers.rack: 8-port switches, pods
# of 2 units), unprovisioned: only the minimum moves, non-blocking at
# every size (the design requires node_bisection >= 100%)
tiers=$top_srcdir/tests/growth/tiers.rack
hop_two=4
tiers_hops growth/tiers3 "$tiers" "" "5:6 6:9 9:16 5:16" 8
hop_two=
tiers_hops growth/tiers4 "$tiers" "-D TIERS=4" \
	"1:2 2:5 5:8 8:9 9:16 16:17 17:24 1:24" 8
# the DGX H100 SuperPOD's compute fabric in three tiers (9 to 32 SUs;
# 64-port QM9700s, pods of 32 leaves, 4 SUs)
hop_two=8
sized growth/superpod3 \
	"9:12 12:13 13:16 16:17 17:21 21:25 25:29 29:32 9:32 16:24" \
	"9:12 12:13 13:16 16:17"
tiers_hops growth/superpod3 "$design" "" "$sized" 64 compute
hop_two=
tiers_hops growth/superpod3/FINAL_SUS=32 "$design" "-D FINAL_SUS=32" \
	"9:16 16:32" 64:8 compute
# the synthetic benchmark's compute fabric grown by GPUS (128-port
# switches, pods of 64 leaves of 64 GPUs): 3, 4, 6 and 25 pods
# core_growth double: more cores (64 at 9 to 16 SUs, 128 to 32), and
# growth within a doubling moves nothing
# (DOUBLE_CORES=1 gives the fabric `core_growth double` and sizes its
# core racks for that count)
hop_two=8
sized growth/superpod3/double "9:12 12:16 16:24 24:32 9:32" "9:12 12:16 16:24"
tiers_hops growth/superpod3/double "$design" "-D DOUBLE_CORES=1" \
	"$sized" double compute
hop_param=GPUS
hop_two=8192
sized growth/synth "12288:16384 16384:24576 24576:100000" "12288:16384"
tiers_hops growth/synth "$top_srcdir/bench/synth.rack" "" "$sized" 128 \
	compute
hop_param=
hop_two=

# tier_change NAME DESIGN HOPS R FABRIC [diff]: a fat tree of the default tiers
# (no final_sus) grown out of two tiers into three or four: DESIGN
# compiled with -D SUS=n for every n of the hops "a:b ..." (a two-tier
# size, b past it), and each hop checked by growth_check.py --tier-change
# R: the leaf-spine cables that move are exactly the minimum for pods of
# R/2 leaves in leaf order, counted from the old cabling file and R
# (doc/language.md, "Growth (two tiers to three)"), and every other cable
# whose devices are still there keeps its ID and ends; with `diff` (a
# design whose switches keep their places), `rackc diff` re-pulls or
# removes exactly those leaf-spine cables
tier_change() {
	tc_name=$1 tc_design=$2 tc_hops=$3 tc_r=$4 tc_fab=$5 tc_diff=${6:-}
	tc_ok=yes
	# shellcheck disable=SC2086 # the hops are words
	for tc_n in $(printf '%s\n' $tc_hops | tr ':' '\n' | sort -un); do
		compiled "$tc_name/SUS=$tc_n" "$tmp/tc-$tc_n" "$tc_design" \
			-D SUS="$tc_n" || tc_ok=no
	done
	[ "$tc_ok" = yes ] || return 0
	for tc_hop in $tc_hops; do
		tc_a=$tmp/tc-${tc_hop%:*} tc_b=$tmp/tc-${tc_hop#*:}
		tc_hn="$tc_name/${tc_hop%:*}->${tc_hop#*:}"
		tc_d=
		if [ -n "$tc_diff" ]; then
			tc_d=--diff=$tmp/tcd.out
			if ! rk_run "$tmp/tcd" diff -f json "$tc_a" "$tc_b" ||
				[ "$rc" -ne 1 ]; then
				fail "$tc_hn" "rackc diff: exit $rc $rk_problem"
				show "$tmp/tcd.err"
				continue
			fi
		fi
		# shellcheck disable=SC2086 # no diff: no argument
		if python3 "$top_srcdir/tests/growth_check.py" --tier-change \
			"$tc_r" "$tc_a/cabling.csv" "$tc_b/cabling.csv" "$tc_fab" \
			$tc_d >"$tmp/g.out" 2>&1; then
			pass "$tc_hn"
			sed 's/^/    /' "$tmp/g.out"
		else
			fail "$tc_hn" "see below"
			show "$tmp/g.out"
		fi
	done
	rm -rf "$tmp"/tc-*
}

# provisioned (final_sus): growing up to the final size only adds
for spec in "tiers3:-D FINAL=12:1 3 6 12" \
	"tiers4:-D TIERS=4 -D FINAL=40:2 9 17 40"; do
	what=${spec%%:*}
	rest=${spec#*:}
	args=${rest%%:*}
	sizes=${rest#*:}
	ok=yes
	for sus in $sizes; do
		# shellcheck disable=SC2086
		if ! rk_run "$tmp/f" $args -D SUS="$sus" \
			-O ir,report,bom,cabling -o "$tmp/f-$sus" "$tiers" ||
			[ "$rc" -ne 0 ]; then
			fail "growth/$what/provisioned/SUS=$sus" \
				"exit $rc $rk_problem"
			show "$tmp/f.err"
			ok=no
		fi
	done
	[ "$ok" = yes ] || continue
	adds_chain "growth/$what/provisioned" "$tmp/f" "$sizes"
	rm -rf "$tmp"/f-*
done

# leaves, spines and a star in shared racks, provisioned for 4 units
place=$top_srcdir/tests/growth/place.rack
ok=yes
for sus in 1 2 3 4; do
	if ! rk_run "$tmp/p$sus" -D SUS="$sus" -O ir,report,bom,cabling \
		-o "$tmp/p-$sus" "$place" || [ "$rc" -ne 0 ]; then
		fail "growth/place/SUS=$sus" "exit $rc $rk_problem"
		show "$tmp/p$sus.err"
		ok=no
	fi
done
if [ "$ok" = yes ]; then
	for hop in 1:2 2:3 3:4 1:4; do
		adds_only "growth/place/diff/${hop%:*}->${hop#*:}" \
			"$tmp/p-${hop%:*}" "$tmp/p-${hop#*:}"
	done
fi
# placement_growth: the SuperPOD's devices stay where they are as it grows
# (doc/language.md, the placement notes).  Provisioned (FINAL_SUS=8),
# growing up to the final size only adds, by `rackc diff`, from 4 to 8
# SUs too: the node slots are chosen for the final size, so SU 1's 32nd
# slot holds a DGX from the start and never changes hands.  Unprovisioned,
# from 1 to 2, 4, 5 and 8 SUs no device moves (the minimum: the fat trees'
# switches fill the central racks from the top, the out-of-band star's
# from the bottom, the UFM stands in a rack of its own, and a DGX is
# named by its node slot), no out-of-band cable is re-pulled, and the
# only cables re-pulled are the leaf-spine cables the spine counts force
# and the UFM's (growth_check.py --moves); up to 16 SUs, through the
# change of tiers at 9, every DGX-end and out-of-band cable keeps its
# ends (growth_check.py --fixed-ends).
# diff_check NAME OLD NEW MODE [ARG...]: `rackc diff -f json OLD NEW`
# finds differences, and growth_check.py MODE DIFF.json ARG... passes
diff_check() {
	dc_name=$1 dc_old=$2 dc_new=$3 dc_mode=$4
	shift 4
	if ! rk_run "$tmp/dc" diff -f json "$dc_old" "$dc_new" ||
		[ "$rc" -ne 1 ]; then
		fail "$dc_name" "rackc diff: exit $rc $rk_problem"
		show "$tmp/dc.err"
	elif python3 "$top_srcdir/tests/growth_check.py" "$dc_mode" \
		"$tmp/dc.out" "$@" >"$tmp/g.out" 2>&1; then
		pass "$dc_name" "$(cat "$tmp/g.out")"
	else
		fail "$dc_name" "see below"
		show "$tmp/g.out"
	fi
}

placement_growth() {
	pg_ok=yes
	for pg_f in 0 8; do
		pg_sizes="1 2 4 8"
		[ "$pg_f" = 0 ] && pg_sizes="1 2 4 5 8 9 16"
		for pg_n in $pg_sizes; do
			if ! rk_run "$tmp/pg" -D SUS="$pg_n" -D FINAL_SUS="$pg_f" \
				-O ir,report,bom,cabling -o "$tmp/pg$pg_f-$pg_n" \
				"$design" || [ "$rc" -ne 0 ]; then
				fail "growth/placement/FINAL_SUS=$pg_f/SUS=$pg_n" \
					"exit $rc $rk_problem"
				show "$tmp/pg.err"
				pg_ok=no
			fi
		done
	done
	[ "$pg_ok" = yes ] || return 0
	for pg_hop in 4:8 1:8; do
		adds_only "growth/placement/FINAL_SUS=8/diff/${pg_hop%:*}->${pg_hop#*:}" \
			"$tmp/pg8-${pg_hop%:*}" "$tmp/pg8-${pg_hop#*:}"
	done
	# unprovisioned, by `rackc diff`: no device moves, and the only
	# cables re-pulled or removed are the leaf-spine cables the spine
	# counts force and those of the UFM, which at 5 SUs leaves SU 1's
	# slot 31 (to dgx[31]) and goes with its rack's PDUs
	pg_ufm="ufm,hall.net.mr.pa[0..1],hall.net.mr.pb[0..1]"
	for pg_hop in 1:2: 2:4: 4:5:$pg_ufm 5:8: 4:8:$pg_ufm; do
		pg_a=${pg_hop%%:*} pg_r=${pg_hop#*:}
		pg_b=${pg_r%%:*} pg_gone=${pg_r#*:}
		diff_check "growth/placement/FINAL_SUS=0/diff/$pg_a->$pg_b" \
			"$tmp/pg0-$pg_a" "$tmp/pg0-$pg_b" --moves \
			"$tmp/pg0-$pg_a/cabling.csv" "$tmp/pg0-$pg_b/cabling.csv" \
			"" "$pg_gone"
	done
	# every DGX keeps its name, rack and U, and its cables and every
	# out-of-band cable their ends, across the change of layout (Table 4
	# to Table 3) at 5 SUs and of tiers at 9, and 1 -> 2 -> 4 -> 8
	for pg_hop in 1:2 2:4 4:5 5:8 4:8 8:9 9:16 1:16; do
		pg_a=$tmp/pg0-${pg_hop%:*} pg_b=$tmp/pg0-${pg_hop#*:}
		gcheck "growth/placement/FINAL_SUS=0/ends/${pg_hop%:*}->${pg_hop#*:}" \
			--fixed-ends "$pg_a/cabling.csv" "$pg_b/cabling.csv"
	done
	for pg_n in 5 9 16; do
		mgmt_check "growth/placement/FINAL_SUS=0/SUS=$pg_n/mgmt" \
			"$tmp/pg0-$pg_n/cabling.csv"
	done
	# 4 -> 8 SUs unprovisioned removes the UFM and its rack's PDUs: the
	# summary counts them apart
	diff_check "growth/placement/FINAL_SUS=0/diff/4->8/summary" \
		"$tmp/pg0-4" "$tmp/pg0-8" --summary
	rm -rf "$tmp"/pg0-* "$tmp"/pg8-*
}
placement_growth

# placement_tiers: the SuperPOD grown past 8 SUs without FINAL_SUS keeps
# every switch where it is (doc/language.md, the placement notes): the
# compute cores stand in racks of their own (12 -> 16 SUs moves none of
# the 49), the compute, storage and in-band leaves, which share the SU
# leaf racks, each in a band of their own (leaf_band: 9 -> 10 SUs adds
# storage leaves without moving the in-band ones), and every list of
# racks in the network row at fixed slots, so that no rack's floor
# position or label changes as an earlier list grows (no cable re-pulled
# for its route, replaced for its length or relabelled).  Measured by
# `rackc diff` and by the cabling files (growth_check.py --placed); and
# every network rack holds a switch (--racks-used).
# compiled NAME DIR DESIGN ARG...: DESIGN compiled with ARG... into DIR
# (ir, report, bom, cabling) with exit status 0; else the failure NAME,
# and false
compiled() {
	cp_name=$1 cp_dir=$2 cp_design=$3
	shift 3
	if rk_run "$cp_dir" "$@" -O ir,report,bom,cabling -o "$cp_dir" \
		"$cp_design" && [ "$rc" -eq 0 ]; then
		return 0
	fi
	fail "$cp_name" "exit $rc $rk_problem"
	show "$cp_dir.err"
	return 1
}

placement_tiers() {
	pt_ok=yes
	for pt_n in 8 9 10 12 16; do
		compiled "growth/placement/SUS=$pt_n" "$tmp/pt-$pt_n" \
			"$design" -D SUS="$pt_n" || pt_ok=no
	done
	[ "$pt_ok" = yes ] || return 0
	# the network racks are sized for the switches built (the tight
	# core count among them): none is empty
	for pt_n in 8 9 10 12 16; do
		if python3 "$top_srcdir/tests/growth_check.py" --racks-used \
			"$tmp/pt-$pt_n/ir.rack" "$tmp/pt-$pt_n/cabling.csv" net \
			>"$tmp/g.out" 2>&1; then
			pass "growth/placement/SUS=$pt_n/racks-used" "$(cat "$tmp/g.out")"
		else
			fail "growth/placement/SUS=$pt_n/racks-used" "$(cat "$tmp/g.out")"
		fi
	done
	for pt_hop in 8:9:compute.leaf,storage.leaf,inband.leaf \
		9:10:compute.leaf,storage.leaf,inband.leaf,compute.core \
		10:16:compute.leaf,storage.leaf,inband.leaf,compute.core \
		12:16:compute.core,compute.spine,storage.spine,inband.spine,oob.sw; do
		pt_a=${pt_hop%%:*}
		pt_rest=${pt_hop#*:}
		pt_b=${pt_rest%%:*}
		diff_check "growth/placement/FINAL_SUS=0/diff/$pt_a->$pt_b/placed" \
			"$tmp/pt-$pt_a" "$tmp/pt-$pt_b" --placed \
			"$tmp/pt-$pt_a/cabling.csv" "$tmp/pt-$pt_b/cabling.csv" \
			"${pt_rest#*:}"
	done
	rm -rf "$tmp"/pt-*
}
placement_tiers

# provisioned for 16 SUs (FINAL_SUS=16: three compute tiers from the
# start, every SU row where the hall of 16 puts it, on both sides of the
# network row): growing 1 -> 2 -> 4 -> 8 -> 16 SUs only adds, by `rackc
# diff` (no device moved, no cable re-pulled, replaced for its length
# or relabelled)
ok=yes
for sus in 1 2 4 8 16; do
	compiled "growth/FINAL_SUS=16/SUS=$sus" "$tmp/f16-$sus" "$design" \
		-D SUS="$sus" -D FINAL_SUS=16 || ok=no
done
if [ "$ok" = yes ]; then
	adds_chain growth/FINAL_SUS=16 "$tmp/f16" "1 2 4 8 16"
fi
rm -rf "$tmp"/f16-*

# oob_double: the SuperPOD with DOUBLE_CORES=1 (`core_growth double`: 64
# compute cores at 9 to 16 SUs, 128 at 17 to 32) grown from 8 to 32 SUs
# without FINAL_SUS, across the change to three tiers (8 -> 9), a new pod
# (12 -> 13, 24 -> 25), the cores' doubling (16 -> 17) and several steps
# at once: the out-of-band star takes the management port of every
# compute and storage switch the fabrics generate (mgmt_check), and no
# out-of-band cable (nor DGX cable) changes ID or ends
# (growth_check.py --fixed-ends)
oob_double() {
	od_ok=yes
	sized growth/double/ends "8:9 9:12 12:13 13:16 16:17 17:24 24:25 25:32 9:32" \
		"8:9 9:12 12:13 13:16 16:17"
	od_hops=$sized
	od_sizes=$(for h in $od_hops; do
		echo "${h%:*}"
		echo "${h#*:}"
	done | sort -un)
	for od_n in $od_sizes; do
		if ! rk_run "$tmp/od" -D SUS="$od_n" -D DOUBLE_CORES=1 \
			-O cabling -o "$tmp/od-$od_n" "$design" ||
			[ "$rc" -ne 0 ]; then
			fail "growth/double/SUS=$od_n" "exit $rc $rk_problem"
			show "$tmp/od.err"
			od_ok=no
		fi
	done
	[ "$od_ok" = yes ] || return 0
	for od_n in $od_sizes; do
		[ "$od_n" = 8 ] && continue
		mgmt_check "growth/double/SUS=$od_n/mgmt" \
			"$tmp/od-$od_n/cabling.csv"
	done
	for od_hop in $od_hops; do
		gcheck "growth/double/ends/${od_hop%:*}->${od_hop#*:}" \
			--fixed-ends "$tmp/od-${od_hop%:*}/cabling.csv" \
			"$tmp/od-${od_hop#*:}/cabling.csv"
	done
	rm -rf "$tmp"/od-*
}
oob_double

# docs: doc/review.md ("Growth") and doc/ci.md show the SuperPOD grown from 1
# to 2 SUs, without and with FINAL_SUS=8; their figures, work-order
# excerpt and summary table, and doc/review.md's re-pulls from 4 to 5 and 8 to
# 9 SUs, are what `rackc diff` prints now (growth_check.py --docs, which
# also finds the commands in the docs)
docs_check() {
	for dk in plain:json:1 plain:text:1 final:json:1 final:markdown:1 \
		plain:json:4 plain:json:8; do
		dk_set=${dk%%:*} dk_r=${dk#*:}
		dk_f=${dk_r%:*} dk_a=${dk_r#*:}
		set --
		[ "$dk_set" = final ] && set -- -D FINAL_SUS=8
		# the whole text review, which the excerpt is quoted from
		[ "$dk_f" = text ] && set -- "$@" --max-bytes=0
		# 1 -> 2, 4 -> 5, 8 -> 9
		if ! rk_run "$tmp/dk-$dk_set-$dk_f$dk_a" diff -f "$dk_f" \
			--old-define SUS="$dk_a" \
			--new-define SUS=$((dk_a + 1)) "$@" \
			"$design" "$design" || [ "$rc" -ne 1 ]; then
			fail "growth/docs" "rackc diff $dk: exit $rc $rk_problem"
			show "$tmp/dk-$dk_set-$dk_f$dk_a.err"
			return 0
		fi
	done
	gcheck growth/docs --docs "$top_srcdir/doc/review.md" \
		"$top_srcdir/doc/ci.md" "$tmp/dk-plain-json1.out" \
		"$tmp/dk-plain-text1.out" "$tmp/dk-final-json1.out" \
		"$tmp/dk-final-markdown1.out" "$tmp/dk-plain-json4.out" \
		"$tmp/dk-plain-json8.out"
}
docs_check

# two tiers grown into three (and four): tests/growth/tiers.rack's 8-port
# switches (two tiers up to 4 units, pods of 2 units, four tiers past 16;
# its switches share two racks and move as the tiers are added) and the
# SuperPOD's compute fabric (two tiers up to 8 SUs, pods of 4, switches
# in place), one step and several at once
tier_change growth/tier-change/tiers "$tiers" \
	"4:5 2:5 1:5 4:6 3:9 1:16 4:17 2:24" 8 compute
tier_change growth/tier-change/superpod "$design" \
	"8:9 8:10 4:9 5:9 1:16" 64 compute diff

# leaf bands (tests/growth/band.rack): three fat trees' leaves in shared
# racks, growing at different rates without final_sus, keep their places
# in bands of their own (BAND=1); the control (BAND=0: first fit under
# cumulative per_rack counts) moves c.leaf[1] from 2 to 3 units, which
# the same check must catch
band=$top_srcdir/tests/growth/band.rack
ok=yes
for spec in 1-1 1-2 1-3 1-4 0-2 0-3; do
	compiled "growth/band/BAND=${spec%-*}/SUS=${spec#*-}" "$tmp/b-$spec" \
		"$band" -D BAND="${spec%-*}" -D SUS="${spec#*-}" || ok=no
done
if [ "$ok" = yes ]; then
	for hop in 1:2 2:3 3:4 1:4; do
		diff_check "growth/band/diff/${hop%:*}->${hop#*:}/placed" \
			"$tmp/b-1-${hop%:*}" "$tmp/b-1-${hop#*:}" --placed \
			"$tmp/b-1-${hop%:*}/cabling.csv" \
			"$tmp/b-1-${hop#*:}/cabling.csv" a.leaf,b.leaf,c.leaf
	done
	name=growth/band/control/first-fit-moves
	if ! rk_run "$tmp/bc" diff -f json "$tmp/b-0-2" "$tmp/b-0-3" ||
		[ "$rc" -ne 1 ]; then
		fail "$name" "rackc diff: exit $rc $rk_problem"
	elif python3 "$top_srcdir/tests/growth_check.py" --placed \
		"$tmp/bc.out" "$tmp/b-0-2/cabling.csv" \
		"$tmp/b-0-3/cabling.csv" a.leaf,b.leaf,c.leaf \
		>"$tmp/g.out" 2>&1; then
		fail "$name" "the check passed: $(cat "$tmp/g.out")"
	elif grep -q '^FAIL: device c.leaf\[1\] moved' "$tmp/g.out"; then
		pass "$name" "caught: $(cat "$tmp/g.out")"
	else
		fail "$name" "$(cat "$tmp/g.out")"
	fi
	rm -rf "$tmp"/b-*
fi

# multi-plane fat trees (tests/growth/planes.rack: two planes, each the
# tree tests/growth/tiers.rack builds): switch i of a tier of plane p is
# TIER[i*2 + p], so growth moves in each plane what a one-plane tree of
# the plane's size moves.  growth_check.py --planes=compute:2 makes each
# plane a fabric of its own (found from the cables, whatever the names
# say), renames its switches by rank and checks that every plane's
# switch keeps its name; then the checks above run per plane: two tiers
# (the round robin and the minimum the spine counts force), two tiers
# grown into three (--tier-change), three tiers (--tiers, the first pod
# keeping its two-tier cables); every other cable keeps its ID and ends.
# --plane-tree: each plane is tiers.rack's tree of the same size, and
# the names follow the scheme.  A management star over compute.leaf[*]
# keeps its cables (the leaves are declared in name order).  BAND=1 (a
# leaf_band): no leaf moves; BAND=2: no spine moves into or out of the
# places the band holds for the leaves to come either.  Provisioned (final_sus, two and three tiers, with a band too), growth
# only adds, by `rackc diff`.
planes=$top_srcdir/tests/growth/planes.rack
pc=--planes=compute:2
ok=yes
for n in 1 2 3 4 5 6 9; do
	compiled "growth/planes/SUS=$n" "$tmp/pl-$n" "$planes" -D SUS="$n" ||
		ok=no
	compiled "growth/planes/one-plane/SUS=$n" "$tmp/pt-$n" "$tiers" \
		-D SUS="$n" || ok=no
done
# planes_check NAME ARG...: growth_check.py $pc ARG... passes
planes_check() {
	pk_name=$1
	shift
	if python3 "$top_srcdir/tests/growth_check.py" "$pc" "$@" \
		>"$tmp/g.out" 2>&1; then
		pass "$pk_name"
		sed 's/^/    /' "$tmp/g.out"
	else
		fail "$pk_name" "see below"
		show "$tmp/g.out"
	fi
}
if [ "$ok" = yes ]; then
	for n in 1 2 3 4 5 6 9; do
		planes_check "growth/planes/SUS=$n/plane-tree" --plane-tree \
			"$tmp/pl-$n/cabling.csv" "$tmp/pt-$n/cabling.csv" compute
	done
	for hop in 1:2 2:3 3:4 1:4; do
		planes_check "growth/planes/${hop%:*}->${hop#*:}" \
			"$tmp/pl-${hop%:*}/cabling.csv" \
			"$tmp/pl-${hop#*:}/cabling.csv" all
	done
	for hop in 4:5 2:5 1:9; do
		planes_check "growth/planes/tier-change/${hop%:*}->${hop#*:}" \
			--tier-change 8 "$tmp/pl-${hop%:*}/cabling.csv" \
			"$tmp/pl-${hop#*:}/cabling.csv" compute
	done
	for hop in 5:6 6:9 5:9; do
		planes_check "growth/planes/tiers3/${hop%:*}->${hop#*:}" \
			--two="$tmp/pl-4/cabling.csv" --tiers 8 \
			"$tmp/pl-${hop%:*}/cabling.csv" \
			"$tmp/pl-${hop#*:}/cabling.csv" compute
	done
fi
rm -rf "$tmp"/pl-* "$tmp"/pt-*
ok=yes
for n in 1 2 4 5 9; do
	compiled "growth/planes/BAND=1/SUS=$n" "$tmp/pb-$n" "$planes" \
		-D BAND=1 -D SUS="$n" || ok=no
done
if [ "$ok" = yes ]; then
	for hop in 1:2 2:4 4:5 5:9 1:9; do
		planes_check "growth/planes/BAND=1/${hop%:*}->${hop#*:}/leaves" \
			--kept-at "$tmp/pb-${hop%:*}/cabling.csv" \
			"$tmp/pb-${hop#*:}/cabling.csv" compute.leaf
	done
fi
rm -rf "$tmp"/pb-*
ok=yes
for n in 3 4; do
	compiled "growth/planes/BAND=2/SUS=$n" "$tmp/pb-$n" "$planes" \
		-D BAND=2 -D SUS="$n" || ok=no
done
if [ "$ok" = yes ]; then
	planes_check "growth/planes/BAND=2/3->4/leaves-spines" --kept-at \
		"$tmp/pb-3/cabling.csv" "$tmp/pb-4/cabling.csv" \
		compute.leaf,compute.spine
fi
rm -rf "$tmp"/pb-*
for spec in "4:0:1 2 4" "12:0:1 3 6 12" "4:1:1 2 4"; do
	fin=${spec%%:*}
	rest=${spec#*:}
	bd=${rest%%:*}
	sizes=${rest#*:}
	ok=yes
	for n in $sizes; do
		compiled "growth/planes/FINAL=$fin/BAND=$bd/SUS=$n" \
			"$tmp/pf-$n" "$planes" -D FINAL="$fin" -D BAND="$bd" \
			-D SUS="$n" || ok=no
	done
	[ "$ok" = yes ] || continue
	adds_chain "growth/planes/FINAL=$fin/BAND=$bd" "$tmp/pf" "$sizes"
	rm -rf "$tmp"/pf-*
done
finish
