#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Standard-library coverage: every `part` defined in std/*.rack is used by
# at least one example (examples/**/*.rack) or test design
# (tests/**/*.rack, helpers under inc/ aside).
#
# Each design is compiled with
#
#     $RACKC --force --stdlib=$top_srcdir -O ir,bom [ARGS] FILE
#
# (ARGS: the file's "# args:" directive, as tests/errors.sh reads it;
# --force so that designs with check errors still count; designs that stop
# before the checks write nothing and count for nothing).  A part is used
# when the elaborated design (ir.rack) refers to it outside a part
# definition -- a device, rack or component type after ':', or the value of
# `cable`, `switch`, `spine_switch` or `rdhx` -- or when the bill of
# materials (bom.csv) lists it: that adds the transceivers and cables the
# cabling plan picks and the power cords the BOM picks, which no design
# names.  The bases and the component parts of a used part are used too;
# the references inside an unused part's definition do not count.
#
# tests/std/exercise.rack uses the parts that nothing else does; it must
# pass `rackc --check` (warnings are allowed and printed).
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip std-coverage "python3 not installed"
	finish
fi

cd "$top_srcdir" || exit 99

# the exercise design compiles
ex=tests/std/exercise.rack
if ! rk_run "$tmp/ex" --check --stdlib=. "$ex"; then
	fail "$ex" "$rk_problem"
	show "$tmp/ex.err"
elif [ "$rc" -ne 0 ]; then
	fail "$ex" "rackc --check: exit $rc"
	show "$tmp/ex.err"
else
	pass "$ex" "rackc --check: exit 0"
	if [ -s "$tmp/ex.err" ]; then
		echo "INFO: $ex: warnings:"
		show "$tmp/ex.err"
	fi
fi

# compile every design
find examples tests -name '*.rack' -type f ! -path '*/inc/*' |
	sort >"$tmp/designs"
mkdir "$tmp/o"
n=0
ok=0
while IFS= read -r design; do
	n=$((n + 1))
	args=$(directive args "$design")
	set -f
	# shellcheck disable=SC2086 # the args directive is split on blanks
	if ! rk_run "$tmp/o/$n" --force --stdlib=. -o "$tmp/o/$n" -O ir,bom \
		$args "$design"; then
		set +f
		fail "$design" "$rk_problem"
		show "$tmp/o/$n.err" 10
		continue
	fi
	set +f
	if [ -f "$tmp/o/$n/ir.rack" ]; then
		ok=$((ok + 1))
	fi
done <"$tmp/designs"
echo "INFO: $ok of $n designs compiled to ir.rack and bom.csv"

cat >"$tmp/coverage.py" <<'EOF'
import csv
import glob
import os
import re
import sys

std = {}
for path in sorted(glob.glob("std/*.rack")):
    with open(path) as f:
        for no, line in enumerate(f, 1):
            m = re.match(r"\s*part\s+(\w+)\s*:", line)
            if m:
                std[m.group(1)] = "%s:%d" % (path, no)

# ir.rack is canonical: one statement a line, one tab per level, every
# object with a { } body.  "WORD NAME : TYPE {" declares; an attribute
# line "cable|switch|spine_switch|rdhx PART" names a part.
decl = re.compile(r"(\t*)(\w+) (.+?) : (\w+) \{$")
attr = re.compile(r"(\t*)(cable|switch|spine_switch|rdhx) (\w+)$")
deps = {}      # part -> parts its definition refers to (base, components)
roots = set()  # parts the designs use
for out in sys.argv[1:]:
    ir = os.path.join(out, "ir.rack")
    if os.path.exists(ir):
        stack = []  # (depth, part being defined or None)
        with open(ir) as f:
            for line in f:
                line = line.rstrip("\n")
                depth = len(line) - len(line.lstrip("\t"))
                while stack and stack[-1][0] >= depth:
                    stack.pop()
                inside = next((p for _, p in reversed(stack) if p), None)
                m = decl.match(line)
                a = attr.match(line)
                ref = m.group(4) if m else a.group(3) if a else None
                if m and m.group(2) == "part":
                    deps.setdefault(m.group(3), set()).add(ref)
                    stack.append((depth, m.group(3)))
                    continue
                if ref:
                    if inside:
                        deps.setdefault(inside, set()).add(ref)
                    else:
                        roots.add(ref)
                if line.endswith("{"):
                    stack.append((depth, None))
    bom = os.path.join(out, "bom.csv")
    if os.path.exists(bom):
        with open(bom, newline="") as f:
            for row in csv.DictReader(f):
                for p in row["part"].split("; "):
                    if p:
                        roots.add(p)

used = set()
todo = list(roots)
while todo:
    p = todo.pop()
    if p not in used:
        used.add(p)
        todo.extend(deps.get(p, ()))
unused = [p for p in std if p not in used]
for p in unused:
    print("FAIL\t%s\t%s: used by no example or test design" % (p, std[p]))
print("PASS\tstd parts used\t%d of %d" % (len(std) - len(unused), len(std)))
EOF
tab=$(printf '\t')
if ! python3 "$tmp/coverage.py" "$tmp"/o/* >"$tmp/cov" 2>"$tmp/cov.err"; then
	fail coverage "python3 failed"
	show "$tmp/cov.err"
fi
while IFS="$tab" read -r word name detail; do
	case $word in
	PASS) pass "$name" "$detail" ;;
	*) fail "unused std part $name" "$detail" ;;
	esac
done <"$tmp/cov"
finish
