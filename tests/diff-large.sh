#!/bin/sh
# SPDX-License-Identifier: MIT
# `rackc diff` of large generated designs (src/diff/diff_cables.c).
#
#   oracle/NAME    two sizes or layouts of bench/synth.rack: the diff's
#                  cabling work order (every row's rack, action and cable
#                  IDs, and the summary's counts) equals the one
#                  tests/diff_check.py computes from the two sides'
#                  cabling.csv; the diff of the output directories equals
#                  the diff of the designs
#   define-order   --new-define overrides -D of the same name
#   memory         the cables of two 40,000-GPU designs (295,000 cables;
#                  each side's ir.rack a small design's, so that the peak
#                  is the cables' and not the compilation of ir.rack) are
#                  compared in under 100 MiB: about 48 MiB now, 146 MiB
#                  when each side was held as a table of strings (plain
#                  build only: a sanitizer build keeps shadow memory)
#   memory-dirs    the whole diff of the two 40,000-GPU output directories,
#                  each side's own ir.rack (2.7 MB) compiled again, and
#   memory-ir      the diff of the design against its own ir.rack (empty)
#                  peak under 1.5 times the --check -j1 of the design
#                  itself: a diff holds one side's compilation at a time
#                  (on one thread), and compiling ir.rack is the design's
#                  own compilation plus its source text and explicit
#                  endpoint lists, its syntax tree never held whole (one
#                  top-level statement's at a time); the cable tables come
#                  after the compilations are released and are smaller
#                  (memory).  Measured: 59 MiB for the design, 74 and
#                  78 MiB for the diffs; 113 and 131 MiB when the tree of
#                  ir.rack was held whole (about 20 bytes per byte of it,
#                  1.3 GB at a million GPUs; plain build only)
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99
synth=bench/synth.rack
RK_TIMEOUT=$((RK_TIMEOUT * 6))
if ! command -v python3 >/dev/null 2>&1; then
	skip diff-large "python3 not installed (the oracle)"
	finish
fi

# out DIR NAME=VALUE...: compile the synthetic design into DIR (with
# --force, as rackc diff compiles a side: GPUS=4000 misses its bisection
# requirement)
out() {
	dir=$1
	shift
	for d in "$@"; do
		set -- "$@" -D "$d"
		shift
	done
	if ! rk_run "$dir" -O ir,report,bom,cabling --force "$@" -o "$dir" \
		"$synth" || [ "$rc" -gt 1 ] || [ ! -f "$dir/cabling.csv" ]; then
		fail "compile $dir" "${rk_problem:-exit $rc}"
		show "$dir.err"
		return 1
	fi
}

# oracle NAME BOTH OLD NEW: the diff with -D BOTH, --old-define OLD and
# --new-define NEW
oracle() {
	name=$1
	out "$tmp/$name-old" "$2" "$3" || return 0
	out "$tmp/$name-new" "$2" "$4" || return 0
	if ! rk_run "$tmp/$name-d" diff -f json -D "$2" --old-define "$3" \
		--new-define "$4" "$synth" "$synth" || [ "$rc" -ne 1 ]; then
		fail "oracle/$name" "${rk_problem:-exit $rc (want 1)}"
		show "$tmp/$name-d.err"
		return 0
	fi
	python3 tests/diff_check.py "$name" "$tmp/$name-old/cabling.csv" \
		"$tmp/$name-new/cabling.csv" "$tmp/$name-d.out" \
		>"$tmp/$name.py" 2>&1 || true
	if grep -q '^PASS\|^FAIL' "$tmp/$name.py"; then
		py_results oracle "$tmp/$name.py"
	else
		fail "oracle/$name" "the checker printed no result"
		show "$tmp/$name.py"
	fi
	# the output directories: the same diff, but for the two paths
	if ! rk_run "$tmp/$name-dirs" diff -f json "$tmp/$name-old" \
		"$tmp/$name-new" || [ "$rc" -ne 1 ]; then
		fail "oracle/$name-dirs" "${rk_problem:-exit $rc (want 1)}"
	elif [ "$(sed 1,3d "$tmp/$name-d.out" | cksum)" = \
		"$(sed 1,3d "$tmp/$name-dirs.out" | cksum)" ]; then
		pass "oracle/$name-dirs"
	else
		fail "oracle/$name-dirs" "differs from the diff of the designs"
	fi
}

# growth: cables added, dealt to other spines, relabelled
oracle grow RACKS_PER_ROW=20 GPUS=4000 GPUS=4600
# fewer racks a row: cables removed, and removed ones re-pulled to an
# added one sharing an end
oracle rows GPUS=4000 RACKS_PER_ROW=20 RACKS_PER_ROW=16

# a side's own define wins over -D (the old side as in oracle/grow)
if rk_run "$tmp/order" diff -f json -D GPUS=4000 --new-define GPUS=4600 \
	"$synth" "$synth" && [ "$rc" -eq 1 ] &&
	[ "$(sed 1,3d "$tmp/order.out" | cksum)" = \
		"$(sed 1,3d "$tmp/grow-d.out" | cksum)" ]; then
	pass define-order
else
	fail define-order "${rk_problem:-exit $rc, or not the diff of GPUS=4000 and 4600}"
fi

# peak NAME WANT ARG...: rackc ARG... exits WANT; its peak in MiB in $mib
peak() {
	name=$1
	want=$2
	shift 2
	rk_measure "$tmp/$name" "$RACKC" "$@" >"$tmp/$name.peak"
	read -r st kib _ <"$tmp/$name.peak" || true
	mib=$((${kib:-999999999} / 1024))
	if [ "${st:-}" != "$want" ]; then
		fail "$name" "exit ${st:-?} (want $want)"
		show "$tmp/$name.err"
		return 1
	fi
}

# memory-dirs and memory-ir, against the --check of the design
memory_ir() {
	peak design 0 --check -j1 -D GPUS=40000 "$synth" || return 0
	limit=$((mib * 3 / 2))
	if peak memory-dirs 1 diff "$tmp/m-old" "$tmp/m-new"; then
		if [ "$mib" -gt "$limit" ]; then
			fail memory-dirs "$mib MiB, more than $limit MiB"
		else
			pass memory-dirs "$mib MiB (limit $limit MiB)"
		fi
	fi
	if peak memory-ir 0 diff --old-define GPUS=40000 "$synth" \
		"$tmp/m-old/ir.rack"; then
		if [ "$mib" -gt "$limit" ]; then
			fail memory-ir "$mib MiB, more than $limit MiB"
		else
			pass memory-ir "$mib MiB (limit $limit MiB)"
		fi
	fi
	return 0
}

if [ "$rk_sanitized" = yes ]; then
	skip memory "pinned on the plain build"
else
	out "$tmp/small" GPUS=8 &&
		out "$tmp/m-old" GPUS=40000 && out "$tmp/m-new" GPUS=40960 &&
		memory_ir &&
		for s in m-old m-new; do
			cp "$tmp/small/ir.rack" "$tmp/$s/ir.rack"
		done
	if [ -f "$tmp/m-new/cabling.csv" ]; then
		rk_measure "$tmp/mem" "$RACKC" diff "$tmp/m-old" "$tmp/m-new" \
			>"$tmp/mem.peak"
		read -r st kib _ <"$tmp/mem.peak" || true
		mib=$((${kib:-999999999} / 1024))
		if [ "${st:-}" != 1 ]; then
			fail memory "exit ${st:-?} (want 1)"
			show "$tmp/mem.err"
		elif [ "$mib" -gt 100 ]; then
			fail memory "$mib MiB, more than 100 MiB"
		else
			pass memory "$mib MiB"
		fi
	fi
fi
finish
