#!/bin/sh
# SPDX-License-Identifier: MIT
#
# One home for each repeated policy (doc/internals.md, "One source of
# truth"): the checks below fail on a source file that brings back a
# private copy.
#
#   int128     the 128-bit types are typedef'd only in src/base/arith.h
#   arith      saturating, gcd and square-root helpers are defined only in
#              src/base/arith.h (a function whose name holds "sat", "gcd",
#              "lcm" or "isqrt")
#   cablecols  the columns of cabling.csv are spelled only in
#              src/analysis/cablecols.def (a quoted "a_..."/"b_..." end column or
#              "computed_length_m"), the workbook's cables sheet
#              (backends/xlsx.c) included
#   partbase   the walk up a part's bases is for_each_base() of src/ir/ir.h,
#              with its one limit (RK_MAX_PART_DEPTH): no other loop steps
#              "x = ...objs[x].part"
#   prefix     the functions and data every object under src/ and
#              backends/ exports (nm, where the objects are built) carry
#              one of its module's prefixes, as tests/prefixes.txt lists
#              them; an object without a line there fails too
#
# Each checker runs on the tree and on planted files, which it must reject.
. "$(dirname "$0")/lib.sh"

# check_int128 DIR...: the files of DIR with a 128-bit typedef, one a line
check_int128() {
	grep -lE 'typedef[^;]*__int128' "$@" 2>/dev/null |
		grep -v '/arith\.h$' || true
}

# check_arith DIR...: "FILE:LINE:TEXT" for each helper defined outside arith.h
check_arith() {
	grep -nE '^(static )?(inline )?[a-z_0-9 ]+[ *][a-z_0-9]*(sat|gcd|lcm|isqrt)[a-z_0-9]*\(' \
		"$@" 2>/dev/null | grep -v '/arith\.h:' || true
}

# check_cablecols FILE...: "FILE:LINE" for each spelled-out cabling column
check_cablecols() {
	grep -nE '"(a|b)_(site|row|rack|u|device|port|transceiver)"|"computed_length_m"' \
		"$@" 2>/dev/null | grep -v '/cablecols\.def:' |
		sed 's/^\([^:]*:[0-9]*\):.*/\1/' || true
}

# check_partbase FILE...: "FILE:LINE" for each hand-written part-base step
check_partbase() {
	grep -nE '\b([a-z_]+) = [^;,]*objs\[\1\]\.part\b' "$@" 2>/dev/null |
		grep -v '/ir\.h:' | sed 's/^\([^:]*:[0-9]*\):.*/\1/' || true
}

# check_prefix TABLE: reads "OBJECT SYMBOL" lines, OBJECT a path to a .o;
# prints "FOLDER/NAME.o SYMBOL" for each symbol without one of the
# prefixes TABLE gives FOLDER/NAME, and "unlisted: FOLDER/NAME.o" once for
# an object TABLE has no line for; names that start with "__" are reserved
# to the toolchain (a sanitizer build's __odr_asan.* data) and skipped
check_prefix() {
	awk -v table="$1" '
	BEGIN {
		while ((getline l <table) > 0) {
			if (l ~ /^[ \t]*(#|$)/)
				continue
			n = split(l, f, /[ \t]+/)
			for (i = 2; i <= n; i++)
				pre[f[1]] = pre[f[1]] " " f[i]
		}
	}
	# reserved names (__asan_*, __odr_asan.*, ...) belong to the toolchain
	$2 ~ /^__/ { next }
	{
		k = $1
		sub(/\.o$/, "", k)
		nf = split(k, p, "/")
		k = (nf > 1 ? p[nf - 1] "/" : "") p[nf]
		if (!(k in pre)) {
			if (!(k in told))
				print "unlisted: " k ".o"
			told[k] = 1
			next
		}
		np = split(pre[k], q, " ")
		ok = 0
		for (i = 1; i <= np; i++)
			if (index($2, q[i]) == 1)
				ok = 1
		if (!ok)
			print k ".o " $2
	}'
}

# check_longfn FILE...: "FILE:LINE NAME LENGTH" for each top-level function
# definition, LENGTH counted from its opening brace to its closing brace
# inclusive.  The sources are clang-format'd (.clang-format): a function's
# braces, and only a function's, stand alone at column 0; its name is the
# first "NAME(" of the lines since the last blank, comment, directive or
# closing brace at column 0.
check_longfn() {
	awk '
	FNR == 1 { sig = ""; start = 0 }
	start == 0 && /^\{/ {
		if (match(sig, /[A-Za-z_][A-Za-z_0-9]*[ \t]*\(/)) {
			name = substr(sig, RSTART, RLENGTH)
			sub(/[ \t]*\($/, "", name)
			start = FNR
		}
		sig = ""
		next
	}
	start > 0 && /^\}/ {
		print FILENAME ":" start " " name " " (FNR - start + 1)
		start = 0
		next
	}
	start > 0 { next }
	/^[#\/}]/ || /^$/ { sig = ""; next }
	/^[A-Za-z_]/ { sig = $0; next }
	sig != "" { sig = sig " " $0 }
	' "$@"
}

# long_unlisted LIMIT LIST FILE...: "FILE:LINE NAME LENGTH" for each function
# longer than LIMIT lines that LIST (lines "FILE NAME REASON...", FILE the
# base name, "#" comments) does not name with a reason; then "stale: FILE
# NAME" for each entry of LIST that names no such function, and "no reason:
# FILE NAME" for each entry without one
long_unlisted() {
	lim=$1
	list=$2
	shift 2
	check_longfn "$@" | awk -v lim="$lim" -v list="$list" '
	BEGIN {
		while ((getline l <list) > 0) {
			if (l ~ /^[ \t]*(#|$)/)
				continue
			n = split(l, f, /[ \t]+/)
			k = f[1] " " f[2]
			listed[k] = 1
			order[++nl] = k
			if (n < 3)
				bare[k] = 1
		}
	}
	{
		file = $1
		sub(/:[0-9]+$/, "", file)
		sub(/.*\//, "", file)
		k = file " " $2
		if ($3 <= lim)
			next
		long[k] = 1
		if (!(k in listed))
			print $0
	}
	END {
		for (i = 1; i <= nl; i++) {
			if (!(order[i] in long))
				print "stale: " order[i]
			else if (order[i] in bare)
				print "no reason: " order[i]
		}
	}'
}

# srcs DIR: the sources of DIR/src, DIR/backends and DIR/grammar, in
# their folders too (the one arith.h, cablecols.def and ir.h, wherever
# they are, are the homes the checkers above leave out)
srcs() {
	find "$1/src" "$1/backends" "$1/grammar" -type f \( -name '*.[chly]' \
		-o -name '*.def' \) 2>/dev/null | sort
}

# shellcheck disable=SC2046 # one argument a file
bad=$(check_int128 $(srcs "$top_srcdir"))
if [ -z "$bad" ]; then
	pass "int128: typedefs only in src/base/arith.h"
else
	fail "int128: typedefs only in src/base/arith.h" "$(echo "$bad" | tr '\n' ' ')"
fi
# shellcheck disable=SC2046
bad=$(check_arith $(srcs "$top_srcdir"))
if [ -z "$bad" ]; then
	pass "arith: helpers only in src/base/arith.h"
else
	fail "arith: helpers only in src/base/arith.h" "$(echo "$bad" | head -5)"
fi

# shellcheck disable=SC2046
bad=$(check_cablecols $(srcs "$top_srcdir"))
if [ -z "$bad" ]; then
	pass "cablecols: cabling.csv columns only in src/analysis/cablecols.def"
else
	fail "cablecols: cabling.csv columns only in src/analysis/cablecols.def" \
		"$(echo "$bad" | head -5 | tr '\n' ' ')"
fi
# shellcheck disable=SC2046
bad=$(check_partbase $(srcs "$top_srcdir"))
if [ -z "$bad" ]; then
	pass "partbase: part-base walks use for_each_base"
else
	fail "partbase: part-base walks use for_each_base" \
		"$(echo "$bad" | head -5 | tr '\n' ' ')"
fi
# the objects are where the compiler under test was built
objdir=$(dirname "$RACKC")
objs=$(find "$objdir/src" "$objdir/backends" -name '*.o' 2>/dev/null | sort)
if [ -n "$objs" ] && command -v nm >/dev/null; then
	bad=$(for o in $objs; do
		nm -g --defined-only "$o" |
			awk -v o="$o" '$2 ~ /^[TDBR]$/ { print o, $3 }'
	done | check_prefix "$top_srcdir/tests/prefixes.txt")
	if [ -z "$bad" ]; then
		pass "prefix: exports carry their module's prefix"
	else
		fail "prefix: exports carry their module's prefix" \
			"$(echo "$bad" | head -5 | tr '\n' ' ')"
	fi
else
	skip "prefix: exports carry their module's prefix" "no objects"
fi

# shellcheck disable=SC2046
bad=$(long_unlisted 120 "$top_srcdir/tests/long-functions.txt" \
	$(srcs "$top_srcdir" | awk -v t="$top_srcdir/" 'index($0, t) == 1 &&
		substr($0, length(t) + 1) ~ /^(src|backends)\/.*\.[ch]$/'))
if [ -z "$bad" ]; then
	pass "longfn: functions over 120 lines have a stated reason"
else
	fail "longfn: functions over 120 lines have a stated reason" \
		"$(echo "$bad" | wc -l) unlisted or stale, e.g. $(echo "$bad" |
			head -5 | sed 's|.*/||' | tr '\n' ' ')"
fi

# planted copies must be found
mkdir -p "$tmp/src"
printf 'typedef unsigned __int128 u128;\n' >"$tmp/src/a.c"
printf '__extension__ typedef __int128\n\ts128;\n' >"$tmp/src/b.c"
printf 'static int64_t sat_add(int64_t a, int64_t b)\n{\n}\n' >"$tmp/src/c.c"
printf 'static inline int64_t gcd_i64(int64_t a, int64_t b)\n' >"$tmp/src/d.h"
printf 'uint64_t isqrt_u128(unsigned __int128 x);\n' >"$tmp/src/e.h"
printf 'static int64_t my_add(int64_t a)\n{\n\treturn sat(a);\n}\n' \
	>"$tmp/src/ok.c"
got=$(check_int128 "$tmp"/src/* | sed 's|.*/||' | tr '\n' ' ')
if [ "$got" = "a.c b.c " ]; then
	pass "int128: planted typedef found"
else
	fail "int128: planted typedef found" "got '$got'"
fi
got=$(check_arith "$tmp"/src/* | sed 's|.*/||; s|:.*||' | tr '\n' ' ')
if [ "$got" = "c.c d.h e.h " ]; then
	pass "arith: planted helpers found"
else
	fail "arith: planted helpers found" "got '$got'"
fi
printf 'static const char *const c[] = { "cable_id",\n\t"b_port" };\n' \
	>"$tmp/src/f.c"
printf 'CABLE_COL(A_PORT, "a_port")\n' >"$tmp/src/cablecols.def"
mkdir -p "$tmp/backends"
printf 'static const char *const cols[] = {\n\t"a_rack", "a_u" };\n' \
	>"$tmp/backends/xlsx.c"
got=$(check_cablecols "$tmp"/src/* "$tmp"/backends/* | sed 's|.*/||' |
	tr '\n' ' ')
if [ "$got" = "f.c:2 xlsx.c:2 " ]; then
	pass "cablecols: planted column found"
else
	fail "cablecols: planted column found" "got '$got'"
fi
printf '\tfor (p = part; p != RK_NONE; p = d->objs[p].part)\n' >"$tmp/src/g.c"
printf '\t\tpart = x->d->objs[part].part;\n' >>"$tmp/src/g.c"
printf '\tuint32_t dev = v->a, p = d->objs[dev].part;\n' >>"$tmp/src/g.c"
got=$(check_partbase "$tmp"/src/* | sed 's|.*/||' | tr '\n' ' ')
if [ "$got" = "g.c:1 g.c:2 " ]; then
	pass "partbase: planted walk found"
else
	fail "partbase: planted walk found" "got '$got'"
fi
printf 'elab/elab elab_\nanalysis/metrics metrics_ rack_totals_\n' \
	>"$tmp/prefixes.txt"
got=$(printf '%s\n' 'b/src/elab/elab.o elab_x' 'b/src/elab/elab.o set_attr' \
	'b/src/analysis/metrics.o metrics_compute' \
	'b/src/analysis/metrics.o rack_totals_free' \
	'b/src/analysis/metrics.o link_rate' 'b/src/fabric/new.o fabric_x' \
	'b/src/fabric/new.o fabric_y' 'b/src/elab/elab.o __odr_asan.elab_x' |
	check_prefix "$tmp/prefixes.txt" |
	tr '\n' ' ')
if [ "$got" = "elab/elab.o set_attr analysis/metrics.o link_rate \
unlisted: fabric/new.o " ]; then
	pass "prefix: planted names found"
else
	fail "prefix: planted names found" "got '$got'"
fi

# a function of 121 lines is found, one of 120 is not, in a file of two;
# an allowlist entry without a reason, or for a short function, is refused
{
	printf 'static int short_one(int a,\n\t\t     int b)\n{\n'
	i=0
	while [ $i -lt 118 ]; do
		printf '\ta += b;\n'
		i=$((i + 1))
	done
	printf '}\n\n/* a comment */\nstruct s {\n\tint x;\n};\n\n'
	printf 'static const int t[] = {\n\t1,\n};\n\n'
	printf '#define M 1\nint long_one(void)\n{\n\tif (M) {\n'
	i=0
	while [ $i -lt 117 ]; do
		printf '\t\tM;\n'
		i=$((i + 1))
	done
	printf '\t}\n}\n'
} >"$tmp/src/h.c"
: >"$tmp/none.txt"
got=$(long_unlisted 120 "$tmp/none.txt" "$tmp/src/h.c" | sed 's|.*/||' |
	tr '\n' ' ')
if [ "$got" = "h.c:135 long_one 121 " ]; then
	pass "longfn: planted long function found"
else
	fail "longfn: planted long function found" "got '$got'"
fi
printf '# comment\nh.c long_one a table\nh.c short_one a table\nh.c x\n' \
	>"$tmp/list.txt"
got=$(long_unlisted 120 "$tmp/list.txt" "$tmp/src/h.c" | tr '\n' ' ')
if [ "$got" = "stale: h.c short_one stale: h.c x " ]; then
	pass "longfn: stale allowlist entries refused"
else
	fail "longfn: stale allowlist entries refused" "got '$got'"
fi
printf 'h.c long_one\n' >"$tmp/list.txt"
got=$(long_unlisted 120 "$tmp/list.txt" "$tmp/src/h.c" | tr '\n' ' ')
if [ "$got" = "no reason: h.c long_one " ]; then
	pass "longfn: allowlist entry without a reason refused"
else
	fail "longfn: allowlist entry without a reason refused" "got '$got'"
fi

finish
