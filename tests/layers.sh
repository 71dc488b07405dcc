#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The layering of the sources: each folder of src/, backends/ and grammar/
# is a stage, a file's layer is its folder's, and a file may include (#include "...") only headers
# of its own layer or of layers below it, so that the stages call only
# downwards.  The layers, lowest first (doc/internals.md explains them;
# keep the two in step):
#
#   base       rackc.h, util, arena (and config.h, which configure writes)
#   support    source files, diagnostics, suggestions, units, jobs, text
#   syntax     the AST, the lexer and the parser
#   ir         the IR, the schema tables, layout and port index queries
#   context    struct compilation and the options (context.h)
#   elaborate  AST -> IR: statements, attributes, declarations, imports
#   resolve    name resolution
#   fabrics    fabric expansion (it resolves each fabric's references to
#              what other fabrics generate through resolve.h)
#   analysis   figures derived from the finished IR (metrics, bisection,
#              cable plan, power supply, capacity)
#   checks     the check registry and the checks
#   backends   the back ends and their output files: a sibling of the
#              checks rather than above them (see $apart), reading what
#              the checks leave in the figure cache (metrics.h)
#   driver     the pipeline, `rackc diff`, `rackc verify`
#   commands   the language server (`rackc lsp`), the command line, main.c
#
# A header marked private here (elab_int.h, fabric_gen.h, lsp_int.h,
# lex.h) may be included only from its own layer.  A file outside the
# folders of the table below fails the test: put it in its stage's folder
# (doc/internals.md).
#
# The same holds for calls: where the compiled objects are at hand (next
# to $RACKC), every symbol an object uses from another object of the
# compiler (nm) must be defined in its own layer or a lower one, but for
# the exceptions listed in $allowed.
#
# Within a layer, calls between files must not go round in a circle: a
# stage's files are a dispatcher and its leaves, or helpers that the
# others share, so that each file can be read (and moved into its stage's
# folder) knowing only the files below it.  A call cycle still to be cut
# is listed, with its exact members, in $cycles_left and reported as a
# known failure (TODO); any other cycle, or a listed one that changed,
# fails.
#
# The checkers run on the build, and on planted files with an upward
# include or call, or a call cycle, which they must reject.
. "$(dirname "$0")/lib.sh"

# layer number, then the folders of that layer ("src/base/": every file
# in it); a basename pattern (without the extension) places a file that
# lies in no folder of the table, as configure's config.h does
layers='
1 src/base/ config
2 src/diag/
3 src/syntax/ grammar/
4 src/ir/
5 src/context/
6 src/elab/
7 src/resolve/
8 src/fabric/
9 src/analysis/ src/analysis/bisect/
10 src/check/
11 backends/ backends/lib/
12 src/driver/ src/diff/ src/verify/
13 src/lsp/ src/cli/
'
private='elab_int fabric_gen lsp_int lex'
# USER:DEFINER pairs of layers kept apart though the user's is higher:
# the back ends (11) neither include nor call the checks (10); both sit
# on the analysis layer, whose figure cache (the power and cooling
# models, the coverage and figure report the checks fill in) they share
apart='11:10'
# USER:DEFINER pairs of files allowed to call upwards: the SARIF writer of
# diag.c asks diag_rules.c for the checks' rule table (doc/internals.md)
allowed='diag:diag_rules'
# call cycles within a layer not cut yet, one a line: the objects' base
# names, sorted (doc/internals.md says why each remains); none is left
cycles_left='
'

# awk functions both checkers share: base(PATH) is a file's name without
# directory and extension, layer(PATH) its layer (0: none): the layer of
# its folder where the table names the folder ("src/base/"), else of its
# base name; call init()
awk_lib='
	function base(p) {
		sub(/.*\//, "", p)
		sub(/\.[a-z]+$/, "", p)
		return p
	}
	function layer(p,   i, dir, b) {
		dir = p
		if (sub(/[^\/]*$/, "", dir) && dir in folder)
			return folder[dir]
		b = base(p)
		for (i = 1; i <= npat; i++)
			if (b ~ pat[i])
				return lay[i]
		return 0
	}
	function init(   n, m, i, j, p, line, w, ap) {
		m = split(apart, ap, " ")
		for (i = 1; i <= m; i++)
			away[ap[i]] = 1
		n = split(layers, line, "\n")
		for (i = 1; i <= n; i++) {
			m = split(line[i], w, " ")
			for (j = 2; j <= m; j++) {
				p = w[j]
				if (p ~ /\/$/) {
					folder[p] = w[1] + 0
					continue
				}
				gsub(/\*/, ".*", p)
				pat[++npat] = "^" p "$"
				lay[npat] = w[1] + 0
			}
		}
	}
'

# source_files DIR: the sources of DIR/src, DIR/backends and DIR/grammar,
# in their folders too, one a line, relative to DIR, sorted
source_files() {
	(cd "$1" && find src backends grammar -type f \( -name '*.[ch]' -o \
	    -name '*.def' -o -name '*.y' -o -name '*.l' \) 2>/dev/null) |
	    sort
}

# check_tree DIR: print one line per source file, "ok FILE" or
# "bad FILE: why", for the files of DIR/src, DIR/backends, DIR/grammar;
# an included name is looked up among those files ("have" lines)
check_tree() {
	source_files "$1" >"$tmp/files.txt"
	{
		sed 's/^/have /' "$tmp/files.txt"
		while IFS= read -r f; do
			printf 'file %s\n' "$f"
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/inc \1/p' "$1/$f"
		done <"$tmp/files.txt"
	} | awk -v layers="$layers" -v private="$private" -v apart="$apart" \
	    "$awk_lib"'
	function add(msg) {
		why = why (why == "" ? " " : "; ") msg
	}
	function flush() {
		if (cur == "")
			return
		print (why == "" ? "ok " cur : "bad " cur ":" why)
	}
	BEGIN {
		init()
		m = split(private, w, " ")
		for (j = 1; j <= m; j++)
			priv[w[j]] = 1
	}
	$1 == "have" {
		n = split($2, w, "/")
		have[w[n]] = $2
		next
	}
	$1 == "file" {
		flush()
		cur = $2
		why = ""
		fl = layer(cur)
		if (!fl)
			add("not in the layer table")
		next
	}
	$1 == "inc" {
		b = base($2)
		il = layer($2 in have ? have[$2] : $2)
		if (!il)
			add("includes " $2 ", which is in no layer")
		else if (fl && il > fl)
			add("includes " $2 " (layer " il ") from layer " fl)
		else if (fl && ((fl ":" il) in away))
			add("includes " $2 " (layer " il "), kept apart from layer " fl)
		else if (fl && (b in priv) && il != fl)
			add("includes " $2 ", private to layer " il)
	}
	END { flush() }'
}

# object_symbols DIR: "def SYMBOL OBJ" and "use SYMBOL OBJ" lines, then
# "obj OBJ", for each object of DIR/src and DIR/backends (OBJ relative
# to DIR)
object_symbols() {
	for f in $(cd "$1" && find src backends -name '*.o' 2>/dev/null | sort); do
		o=$1/$f
		nm -g --defined-only "$o" | awk -v f="$f" 'NF == 3 { print "def", $3, f }'
		nm -u "$o" | awk -v f="$f" '{ print "use", $NF, f }'
		printf 'obj %s\n' "$f"
	done
}

# check_cycles DIR: one line per group of objects of one layer of DIR
# that call each other round in a circle (a strongly connected component
# of the calls between files of that layer): "cycle L: A B ..." (base
# names, sorted; L the layer), then the calls that close it, indented
check_cycles() {
	object_symbols "$1" | awk -v layers="$layers" "$awk_lib"'
	BEGIN { init() }
	$1 == "def" { def[$2] = $3; next }
	$1 == "use" { n++; sym[n] = $2; user[n] = $3; next }
	END {
		# the calls between distinct files of one layer
		for (i = 1; i <= n; i++) {
			d = def[sym[i]]
			if (d == "" || d == user[i])
				continue
			a = base(user[i])
			b = base(d)
			l = layer(user[i])
			if (!l || layer(d) != l)
				continue
			if (!((a, b) in edge)) {
				node[a] = l
				node[b] = l
				edge[a, b] = sym[i]
			}
		}
		# reach[a, b]: a calls b, directly or through others of its
		# layer (a layer holds a few dozen files at most)
		for (k in edge) {
			split(k, p, SUBSEP)
			reach[p[1], p[2]] = 1
		}
		for (k in node)
			for (a in node)
				if ((a, k) in reach)
					for (b in node)
						if ((k, b) in reach)
							reach[a, b] = 1
		for (a in node) {
			if (a in done || !((a, a) in reach))
				continue
			m = 0
			for (b in node)
				if ((a, b) in reach && (b, a) in reach) {
					mem[++m] = b
					done[b] = 1
				}
			# sort the members (insertion sort: a handful)
			for (i = 2; i <= m; i++)
				for (j = i; j > 1 && mem[j - 1] > mem[j]; j--) {
					t = mem[j]
					mem[j] = mem[j - 1]
					mem[j - 1] = t
				}
			line = ""
			for (i = 1; i <= m; i++)
				line = line " " mem[i]
			print "cycle " node[a] ":" line
			for (i = 1; i <= m; i++)
				for (j = 1; j <= m; j++)
					if ((mem[i], mem[j]) in edge)
						print "  " mem[i] " -> " mem[j] \
						    " (" edge[mem[i], mem[j]] ")"
		}
	}'
}

# todo NAME WHY: a known failure (TAP's TODO) that is no compiler bug
todo() {
	nxfail=$((nxfail + 1))
	tap_line "not ok" "$1" " # TODO $2"
}

# report_cycles FILE PREFIX: the cases for check_cycles output FILE
# shellcheck disable=SC2094 # FILE is only read
report_cycles() {
	ncyc=0
	while IFS= read -r line; do
		case $line in
		cycle*) ;;
		*) continue ;;
		esac
		ncyc=$((ncyc + 1))
		members=${line#*: }
		calls=$(awk -v want="$line" '
			$0 == want { on = 1; next }
			/^cycle/ { on = 0 }
			on { printf "%s;", $0 }' "$1")
		if printf '%s\n' "$cycles_left" | grep -qxF "$members"; then
			todo "$2call cycle in layer ${line#cycle }" \
			    "still to be cut:$calls"
		else
			fail "$2call cycle in layer ${line#cycle }" "$calls"
		fi
	done <"$1"
	printf '%s\n' "$cycles_left" | while IFS= read -r want; do
		[ -n "$want" ] || continue
		if ! grep -q "^cycle [0-9]*: $want\$" "$1"; then
			echo "$want"
		fi
	done >"$tmp/gone.txt"
	while IFS= read -r gone; do
		fail "$2call cycle listed as left: $gone" \
		    "no longer found as listed; update \$cycles_left"
	done <"$tmp/gone.txt"
	if [ "$ncyc" -eq 0 ]; then
		pass "$2no call cycle within a layer"
	fi
}

# check_objects DIR: one line per object of DIR/src and DIR/backends, "ok
# OBJ" or "bad OBJ: why": the symbols it uses that another object defines
# (nm) must be defined in its layer or a lower one
check_objects() {
	object_symbols "$1" | awk -v layers="$layers" -v allowed="$allowed" -v apart="$apart" \
	    "$awk_lib"'
	BEGIN {
		init()
		m = split(allowed, w, " ")
		for (j = 1; j <= m; j++)
			allow[w[j]] = 1
	}
	$1 == "def" { def[$2] = $3; next }
	$1 == "use" { n++; sym[n] = $2; user[n] = $3; next }
	$1 == "obj" { objs[$2] = 1 }
	END {
		for (i = 1; i <= n; i++) {
			d = def[sym[i]]
			if (d == "" || d == user[i])
				continue
			ul = layer(user[i])
			dl = layer(d)
			if (ul && dl > ul &&
			    !((base(user[i]) ":" base(d)) in allow))
				why[user[i]] = why[user[i]] "; calls " sym[i] \
				    " of " d " (layer " dl ") from layer " ul
			else if (ul && ((ul ":" dl) in away))
				why[user[i]] = why[user[i]] "; calls " sym[i] \
				    " of " d " (layer " dl "), kept apart from layer " ul
		}
		for (f in objs)
			print (f in why ? "bad " f ":" substr(why[f], 2) \
					: "ok " f)
	}' | sort
}

cd "$top_srcdir" || exit 99

# at NAME: where the source NAME.c (or NAME.h) is, less the extension
# ("src/fabric", or in a stage's folder "src/fabric/fabric"), so that the
# planted cases below follow the files wherever they are
source_files . >"$tmp/real.txt"
at() {
	sed -n "s,^\(.*/$1\)\.[ch]\$,\1,p" "$tmp/real.txt" | sed -n 1p
}

# the source tree
check_tree . >"$tmp/tree.txt"
while read -r verdict rest; do
	case $verdict in
	ok) pass "${rest}" ;;
	*) fail "${rest%%:*}" "${rest#*:}" ;;
	esac
done <"$tmp/tree.txt"
if [ "$(grep -c '^ok src/' "$tmp/tree.txt")" -lt 40 ]; then
	fail layers-source-files "fewer files found than src/ holds"
fi

# the objects, when the build is at hand
objdir=$(dirname "$RACKC")
if ! command -v nm >/dev/null 2>&1; then
	skip layers-objects "nm not installed"
elif [ ! -f "$objdir/src/driver/driver.o" ]; then
	skip layers-objects "no objects next to $RACKC"
else
	check_objects "$objdir" >"$tmp/objs.txt"
	while read -r verdict rest; do
		case $verdict in
		ok) pass "calls: ${rest}" ;;
		*) fail "calls: ${rest%%:*}" "${rest#*:}" ;;
		esac
	done <"$tmp/objs.txt"
	if [ "$(grep -c '^ok src/' "$tmp/objs.txt")" -lt 40 ]; then
		fail layers-objects "fewer objects found than src/ compiles"
	fi
	check_cycles "$objdir" >"$tmp/cycles.txt"
	report_cycles "$tmp/cycles.txt" ""
fi

# the object checker itself: resolve.o calling into fabric.o must be
# reported; fabric.o calling into resolve.o, and diag.o into diag_rules.o
# (allowed), not
cc=${CC:-cc}
if command -v nm >/dev/null 2>&1 && command -v "$cc" >/dev/null 2>&1; then
	mkdir -p "$tmp/objneg/src" "$tmp/objneg/backends"
	# plant FILE DEFINES CALLS: FILE.o (under src/ or backends/) defining
	# one function, calling another
	plant() {
		mkdir -p "$(dirname "$tmp/objneg/$1")"
		printf 'void %s(void);\nvoid %s(void);\nvoid %s(void) { %s(); }\n' \
		    "$2" "$3" "$2" "$3" >"$tmp/objneg/$1.c"
		"$cc" -c -o "$tmp/objneg/$1.o" "$tmp/objneg/$1.c"
	}
	plant "$(at fabric)" fabric_expand resolve_design
	plant "$(at resolve)" resolve_design fabric_expand
	plant "$(at diag)" diag_emit diag_rule_count
	plant "$(at diag_rules)" diag_rule_count diag_emit
	# a back end calling into a check file, a check into the models
	plant "$(at report)" report_emit feed_loads
	plant "$(at checks_power)" feed_loads derived_power
	plant "$(at power_model)" derived_power model_none
	check_objects "$tmp/objneg" >"$tmp/objneg.txt"
	for want in "bad $(at resolve).o: calls fabric_expand of $(at fabric).o (layer 8) from layer 7" \
	    "ok $(at fabric).o" "ok $(at diag).o" \
	    "bad $(at report).o: calls feed_loads of $(at checks_power).o (layer 10), kept apart from layer 11" \
	    "ok $(at checks_power).o"; do
		if grep -qxF "$want" "$tmp/objneg.txt"; then
			pass "object checker: $want"
		else
			fail "object checker: $want" "not reported"
			show "$tmp/objneg.txt"
		fi
	done
fi

# the cycle checker itself: a circle of calls between files of one layer
# (bisect -> bisect_part -> metrics -> bisect) is reported with its calls;
# a dispatcher calling leaves that call a shared helper (check_run ->
# checks_power, checks_space -> check), and a circle through two layers
# (diag -> diag_rules -> check -> diag), are not; a listed cycle that no
# longer matches is reported
if command -v nm >/dev/null 2>&1 && command -v "$cc" >/dev/null 2>&1; then
	mkdir -p "$tmp/cycneg/src"
	# plant FILE DEFINES CALLS...: FILE.o defining one function that
	# calls the others
	plantc() {
		mkdir -p "$(dirname "$tmp/cycneg/$1")"
		o=$1
		d=$2
		shift 2
		for c in "$@"; do
			printf 'void %s(void);\n' "$c"
		done >"$tmp/cycneg/$o.c"
		{
			printf 'void %s(void);\nvoid %s(void) {' "$d" "$d"
			for c in "$@"; do
				printf ' %s();' "$c"
			done
			printf ' }\n'
		} >>"$tmp/cycneg/$o.c"
		"$cc" -c -o "$tmp/cycneg/$o.o" "$tmp/cycneg/$o.c"
	}
	plantc "$(at bisect)" bisect_solve bisect_cut
	plantc "$(at bisect_part)" bisect_cut maxflow_run
	plantc "$(at metrics)" maxflow_run bisect_solve
	plantc "$(at maxflow)" flow_leaf
	plantc "$(at check_run)" checks_run check_power check_space
	plantc "$(at checks_power)" check_power check_fail
	plantc "$(at checks_space)" check_space check_fail
	plantc "$(at check)" check_fail diag_emit
	plantc "$(at diag)" diag_emit diag_rule_count
	plantc "$(at diag_rules)" diag_rule_count check_fail
	check_cycles "$tmp/cycneg" >"$tmp/cycneg.txt"
	for want in 'cycle 9: bisect bisect_part metrics' \
	    '  metrics -> bisect (bisect_solve)' \
	    '  bisect_part -> metrics (maxflow_run)'; do
		if grep -qxF "$want" "$tmp/cycneg.txt"; then
			pass "cycle checker: $want"
		else
			fail "cycle checker: $want" "not reported"
			show "$tmp/cycneg.txt"
		fi
	done
	if [ "$(grep -c '^cycle' "$tmp/cycneg.txt")" -eq 1 ]; then
		pass "cycle checker: leaves, helpers and cross-layer calls pass"
	else
		fail "cycle checker: leaves, helpers and cross-layer calls pass" \
		    "more than the one planted cycle reported"
		show "$tmp/cycneg.txt"
	fi
	# the verdicts: unlisted fails; listed is a known failure; a listed
	# one with other members fails, and so does one no longer there
	(
		cycles_left='
bisect bisect_part
check check_run
'
		todo() { echo "todo $1"; }
		fail() { echo "fail $1"; }
		pass() { echo "pass $1"; }
		report_cycles "$tmp/cycneg.txt" "planted: "
		cycles_left='
bisect bisect_part metrics
'
		report_cycles "$tmp/cycneg.txt" "listed: "
	) >"$tmp/cycverdicts.txt"
	for want in 'fail planted: call cycle in layer 9: bisect bisect_part metrics' \
	    'fail planted: call cycle listed as left: bisect bisect_part' \
	    'fail planted: call cycle listed as left: check check_run' \
	    'todo listed: call cycle in layer 9: bisect bisect_part metrics'; do
		if grep -qxF "$want" "$tmp/cycverdicts.txt"; then
			pass "cycle verdicts: $want"
		else
			fail "cycle verdicts: $want" "not given"
			show "$tmp/cycverdicts.txt"
		fi
	done
fi

# the checker itself: an upward include, a private header included from
# another layer, and a file in no layer must each be reported
# (a copy of the tree, so that the included headers are where they are)
mkdir "$tmp/neg"
while IFS= read -r f; do
	mkdir -p "$(dirname "$tmp/neg/$f")"
	cp "$f" "$tmp/neg/$f"
done <"$tmp/real.txt"
printf '#include "fabric.h"\n' >>"$tmp/neg/$(at resolve).c"
printf '#include "fabric_gen.h"\n' >"$tmp/neg/$(at metrics).c"
printf '#include "lex.h"\n' >>"$tmp/neg/$(at eval).c"
printf '#include "rackc.h"\n' >"$tmp/neg/src/unlisted.c"
printf '#include "loads.h"\n#include "check.h"\n' >>"$tmp/neg/$(at report).c"
check_tree "$tmp/neg" >"$tmp/neg.txt"
for want in "bad $(at resolve).c: includes fabric.h (layer 8) from layer 7" \
    "bad $(at metrics).c: includes fabric_gen.h, private to layer 8" \
    "bad $(at eval).c: includes lex.h, private to layer 3" \
    'bad src/unlisted.c: not in the layer table' \
    "bad $(at report).c: includes check.h (layer 10), kept apart from layer 11" \
    "ok $(at elab).h"; do
	if grep -qxF "$want" "$tmp/neg.txt"; then
		pass "checker: $want"
	else
		fail "checker: $want" "not reported"
		show "$tmp/neg.txt"
	fi
done

finish
