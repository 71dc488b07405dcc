#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The layering of the sources: every file of src/, backends/ and grammar/
# belongs to a layer, and a file may include (#include "...") only headers
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
#   backends   the back ends and their output files
#   driver     the pipeline, `rackc diff`, main.c
#
# A header marked private here (elab_int.h, fabric_gen.h) may be included
# only from its own layer.  A file in none of the layers fails the test:
# add it to the table below (and to doc/internals.md).
#
# The checker runs on the source tree, and on a copy of a few files with
# an upward include added, which it must reject.
. "$(dirname "$0")/lib.sh"

# layer number, then basename patterns (without the extension)
layers='
1 rackc util arena config
2 srcfile diag suggest units jobs textread
3 ast parse parser lexer
4 ir schema schema_attrs layout portindex
5 context
6 elab elab_int elab_attr elab_decl elab_import eval
7 resolve
8 fabric fabric_gen fabric_planes fabric_tiers
9 metrics bisect bisect_* cableplan supply capacity
10 check checks checks_* diag_rules
11 backend outfile registry be_common csv wbuf bom prices cabling nccl ibnet slurm svg svg_* html report ir_dump netbox xlsx
12 driver diff diff_load main
'
private='elab_int fabric_gen'

# check_tree DIR: print one line per source file, "ok FILE" or
# "bad FILE: why", for the files of DIR/src, DIR/backends, DIR/grammar
check_tree() {
	for f in "$1"/src/*.[ch] "$1"/src/*.def "$1"/backends/*.[ch] \
	    "$1"/grammar/*.y "$1"/grammar/*.l "$1"/grammar/*.h; do
		[ -f "$f" ] || continue
		printf 'file %s\n' "${f#"$1"/}"
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/inc \1/p' "$f"
	done | awk -v layers="$layers" -v private="$private" '
	function base(p) {
		sub(/.*\//, "", p)
		sub(/\.[a-z]+$/, "", p)
		return p
	}
	# the layer of a basename, 0 when none
	function layer(b,   i) {
		for (i = 1; i <= npat; i++)
			if (b ~ pat[i])
				return lay[i]
		return 0
	}
	function add(msg) {
		why = why (why == "" ? " " : "; ") msg
	}
	function flush() {
		if (cur == "")
			return
		print (why == "" ? "ok " cur : "bad " cur ":" why)
	}
	BEGIN {
		n = split(layers, line, "\n")
		for (i = 1; i <= n; i++) {
			m = split(line[i], w, " ")
			for (j = 2; j <= m; j++) {
				p = w[j]
				gsub(/\*/, ".*", p)
				pat[++npat] = "^" p "$"
				lay[npat] = w[1] + 0
			}
		}
		m = split(private, w, " ")
		for (j = 1; j <= m; j++)
			priv[w[j]] = 1
	}
	$1 == "file" {
		flush()
		cur = $2
		why = ""
		fl = layer(base(cur))
		if (!fl)
			add("not in the layer table")
		next
	}
	$1 == "inc" {
		b = base($2)
		il = layer(b)
		if (!il)
			add("includes " $2 ", which is in no layer")
		else if (fl && il > fl)
			add("includes " $2 " (layer " il ") from layer " fl)
		else if (fl && (b in priv) && il != fl)
			add("includes " $2 ", private to layer " il)
	}
	END { flush() }'
}

cd "$top_srcdir" || exit 99

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

# the checker itself: an upward include, a private header included from
# another layer, and a file in no layer must each be reported
mkdir "$tmp/neg" "$tmp/neg/src"
cp src/resolve.c src/fabric_gen.h src/elab.h src/rackc.h "$tmp/neg/src/"
printf '#include "fabric.h"\n' >>"$tmp/neg/src/resolve.c"
printf '#include "fabric_gen.h"\n' >"$tmp/neg/src/metrics.c"
printf '#include "rackc.h"\n' >"$tmp/neg/src/unlisted.c"
check_tree "$tmp/neg" >"$tmp/neg.txt"
for want in 'bad src/resolve.c: includes fabric.h (layer 8) from layer 7' \
    'bad src/metrics.c: includes fabric_gen.h, private to layer 8' \
    'bad src/unlisted.c: not in the layer table' \
    'ok src/elab.h'; do
	if grep -qxF "$want" "$tmp/neg.txt"; then
		pass "checker: $want"
	else
		fail "checker: $want" "not reported"
		show "$tmp/neg.txt"
	fi
done

finish
