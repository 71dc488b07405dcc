#!/bin/sh
# SPDX-License-Identifier: MIT
# The CI recipe of doc/ci.md, everything but the hosting service: its two
# YAML files parse and call tools/ci-review.sh; on a scratch git repository
# with a base commit and a change to a design, the recipe's git commands
# and tools/ci-review.sh write a SARIF file that tests/sarif_check.py
# accepts, the artifacts, and the diff as Markdown, JSON and text; a push
# (no base) writes no diff; a design new in the change is compared with
# an empty one.
. "$(dirname "$0")/lib.sh"

for t in git python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		skip ci "$t not installed"
		finish
	fi
done
if ! python3 -c 'import yaml' 2>/dev/null; then
	skip ci "python3 yaml not installed"
	finish
fi
cd "$top_srcdir" || exit 99
review=$top_srcdir/tools/ci-review.sh
RK_TIMEOUT=$((RK_TIMEOUT * 6))

# 1. the recipes
# shellcheck disable=SC2016 # Python, not shell
if python3 -c '
import re, sys, yaml
text = open(sys.argv[1]).read()
blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
assert len(blocks) == 2, len(blocks)
gh, gl = (yaml.safe_load(b) for b in blocks)
steps = gh["jobs"]["rackc"]["steps"]
runs = " ".join(s.get("run", "") for s in steps)
uses = [s.get("uses", "") for s in steps]
assert "tools/ci-review.sh" in runs and "gh pr comment" in runs
assert any(u.startswith("github/codeql-action/upload-sarif") for u in uses)
assert any(u.startswith("actions/upload-artifact") for u in uses)
script = " ".join(gl["rackc"]["script"])
assert "tools/ci-review.sh" in script and "merge_requests" in script
assert "rackc-ci/" in gl["rackc"]["artifacts"]["paths"]
' doc/ci.md 2>"$tmp/yaml.err"; then
	pass ci/recipes
else
	fail ci/recipes "doc/ci.md"
	show "$tmp/yaml.err"
fi

# 2. a scratch repository: a base commit and a change
repo=$tmp/repo
mkdir -p "$repo/designs"
cp tests/diff/pod.rack "$repo/designs/pod.rack"
cp -R examples/include "$repo/designs/include"
g() { git -C "$repo" -c user.name=ci -c user.email=ci@example.invalid "$@"; }
g init -q
g add -A
g commit -qm base
base_sha=$(g rev-parse HEAD)
sed 's/^param NODES = 4$/param NODES = 8/' tests/diff/pod.rack \
	>"$repo/designs/pod.rack"
cp tests/diff/pod.rack "$repo/designs/new.rack"
g add -A
g commit -qm change
# the recipes' git step (GitLab's; GitHub's is the same with a fetch)
g worktree add -q "$tmp/base" "$base_sha"

run_review() {
	(cd "$repo" && RACKC=$RACKC timeout "$RK_TIMEOUT" sh "$review" "$@") \
		>"$tmp/review.out" 2>"$tmp/review.err" && rc=0 || rc=$?
}

run_review -b "$tmp/base" -o rackc-ci designs/pod.rack
o=$repo/rackc-ci
if [ "$rc" -eq 1 ] &&
	python3 tests/sarif_check.py "$("$RACKC" --version | sed 's/^rackc //')" \
		"$(cd "$repo" && pwd -P)" "$(cd "$repo" && pwd -P):$tmp" \
		"$o/rackc.sarif" >"$tmp/sarif.out" 2>&1 &&
	grep -q '"uri":"designs/pod.rack","uriBaseId":"SRCROOT"' "$o/rackc.sarif" &&
	[ -f "$o/out/report.json" ] && [ -f "$o/out/cabling.csv" ] &&
	[ -f "$o/out/ir.rack" ] &&
	head -1 "$o/diff.md" | grep -qx '## rackc diff' &&
	grep -q '^| cables to add | 64 |$' "$o/diff.md" &&
	grep -q 'cables to add' "$tmp/review.out" &&
	python3 -c '
import json, sys
assert json.load(open(sys.argv[1]))["differences"] is True
' "$o/diff.json"; then
	pass ci/pull-request
else
	fail ci/pull-request "exit $rc (want 1: the pod has a check error), or outputs"
	show "$tmp/review.err"
	show "$tmp/sarif.out"
	show "$o/diff.md" 12
fi

rm -rf "$o"
run_review -o rackc-ci designs/pod.rack
if [ "$rc" -eq 1 ] && [ -s "$o/rackc.sarif" ] && [ -f "$o/out/bom.csv" ] &&
	[ ! -e "$o/diff.md" ]; then
	pass ci/push
else
	fail ci/push "exit $rc, or outputs"
	show "$tmp/review.err"
fi

rm -rf "$o"
run_review -b "$tmp/base" designs/new.rack
if [ "$rc" -eq 1 ] && grep -q '^| devices added |' "$repo/rackc-ci/diff.md"; then
	pass ci/new-design
else
	fail ci/new-design "exit $rc, or no devices added"
	show "$tmp/review.err"
fi

run_review -b "$tmp/base" designs/missing.rack
if [ "$rc" -eq 2 ]; then
	pass ci/trouble
else
	fail ci/trouble "exit $rc for a missing design (want 2)"
fi
g worktree remove --force "$tmp/base" >/dev/null 2>&1 || :
finish
