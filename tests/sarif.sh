#!/bin/sh
# SPDX-License-Identifier: MIT
# SARIF output (--diagnostics-format=sarif, src/diag/diag.c) for code scanning.
#
#   sarif/selftest      tests/sarif_check.py's port of GitHub's line hash
#                       gives the test vectors of github/codeql-action
#                       (src/fingerprints.test.ts)
#   sarif/properties    tests/sarif_check.py (SARIF and GitHub code
#                       scanning's rules) on a design with check findings
#                       (logical locations), the same design outside the
#                       source root (absolute file:// URIs, never "../"), an
#                       error inside a standard library outside the root,
#                       and syntax errors on lines with CRLF ends, tabs,
#                       non-ASCII and invalid UTF-8 and repeated lines
#                       (primaryLocationLineHash as the upload action
#                       computes it)
#   sarif/sarif-root    --sarif-root=DIR makes URIs relative to DIR
#   sarif/unreadable    an input that cannot be read: a tool execution
#                       notification, no result, a valid document
#   sarif/usage         command-line errors with SARIF asked for (before or
#                       after the bad option, an unknown back end): one
#                       valid document on stderr with the error as a
#                       notification, exit status 2
#   sarif/same-twice    two runs write the same bytes
#   sarif/fingerprints  lines added above every finding move the regions
#                       but leave every rackc partial fingerprint as it was
#   sarif/info-uri      the driver's informationUri is the one configure
#                       chose (config.h next to the compiler under test:
#                       RACKC_INFO_URI), an absolute http(s) URL; without
#                       one the key is absent (never empty or made up)
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip sarif "python3 not installed"
	finish
fi
cd "$top_srcdir" || exit 99
version=$("$RACKC" --version | sed 's/^rackc //')

if python3 tests/sarif_check.py --selftest >"$tmp/self.out" 2>&1; then
	pass sarif/selftest "$(cat "$tmp/self.out")"
else
	fail sarif/selftest
	show "$tmp/self.out"
fi

# 1. a design in the source tree with findings
rk_run "$tmp/a" --check --diagnostics-format=sarif -I examples \
	tests/diff/pod.rack || :
cp "$tmp/a.err" "$tmp/a.sarif"
rk_run "$tmp/a2" --check --diagnostics-format=sarif -I examples \
	tests/diff/pod.rack || :

# 2. the same design outside the source root, 3 lines lower
mkdir -p "$tmp/elsewhere"
{
	printf '# moved\n#\n#\n'
	cat tests/diff/pod.rack
} >"$tmp/elsewhere/pod.rack"
rk_run "$tmp/b" --check --diagnostics-format=sarif -I examples \
	"$tmp/elsewhere/pod.rack" || :
cp "$tmp/b.err" "$tmp/b.sarif"

# 3. an error inside a standard library of its own
mkdir -p "$tmp/lib/std"
cp std/*.rack "$tmp/lib/std/" 2>/dev/null || :
printf 'part broken : switch { height 1U; frobnicate 3 }\n' >"$tmp/lib/std/broken.rack"
printf 'import "std/broken"\n' >"$tmp/c.rack"
rk_run "$tmp/c" --check --diagnostics-format=sarif --stdlib="$tmp/lib" \
	"$tmp/c.rack" || :
cp "$tmp/c.err" "$tmp/c.sarif"

# 4. syntax errors on lines the line hash must read as GitHub does, in a
# repository root of its own (GitHub hashes only files there)
mkdir -p "$tmp/hroot"
h=$tmp/hroot/lines.rack
{
	printf '# caf\303\251 \360\237\230\200 \377 x\r\n'
	printf 'param = )\r\n\tparam = )\r\nparam  =  )\n  param = ]\n'
	i=0
	while [ $i -lt 12 ]; do
		printf 'param = )\n'
		i=$((i + 1))
	done
} >"$h"
rk_run "$tmp/h" --check --max-errors=0 --diagnostics-format=sarif \
	--sarif-root="$tmp/hroot" "$h" || :
cp "$tmp/h.err" "$tmp/h.sarif"

abs=$(pwd -P)
if python3 tests/sarif_check.py "$version" "$abs" "$abs:$tmp" \
	"$tmp/a.sarif" "$tmp/b.sarif" "$tmp/c.sarif" >"$tmp/check.out" 2>&1 &&
	python3 tests/sarif_check.py "$version" "$tmp/hroot" "$abs" \
		"$tmp/h.sarif" >>"$tmp/check.out" 2>&1 &&
	grep -q '"uri":"file://[^"]*/std/broken.rack"' "$tmp/c.sarif" &&
	grep -q '"uri":"file://[^"]*/elsewhere/pod.rack"' "$tmp/b.sarif" &&
	! grep -q '"uri":"\.\./' "$tmp/b.sarif" &&
	[ "$(grep -o primaryLocationLineHash "$tmp/h.sarif" | wc -l)" -eq 16 ] &&
	grep -q '"uri":"tests/diff/pod.rack","uriBaseId":"SRCROOT"' \
		"$tmp/a.sarif"; then
	pass sarif/properties
	sed 's/^/    /' "$tmp/check.out"
else
	fail sarif/properties "see below"
	show "$tmp/check.out"
	show "$tmp/c.sarif" 5
fi

# --sarif-root: URIs relative to another root
rk_run "$tmp/r" --check --diagnostics-format=sarif -I examples \
	--sarif-root="$tmp/elsewhere" "$tmp/elsewhere/pod.rack" || :
if grep -q '"uri":"pod.rack","uriBaseId":"SRCROOT"' "$tmp/r.err" &&
	python3 tests/sarif_check.py "$version" "$tmp/elsewhere" "" \
		"$tmp/r.err" >"$tmp/r.out" 2>&1; then
	pass sarif/sarif-root
else
	fail sarif/sarif-root
	show "$tmp/r.out"
fi

# an unreadable input: a notification, not a result GitHub would drop
rk_run "$tmp/u" --check --diagnostics-format=sarif "$tmp/no-such.rack" || :
if python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["results"] == [], run["results"]
inv = run["invocations"][0]
assert inv["executionSuccessful"] is False, inv
n = inv["toolExecutionNotifications"]
assert len(n) == 1 and n[0]["level"] == "error", n
assert "no-such.rack" in n[0]["message"]["text"], n
' "$tmp/u.err" 2>"$tmp/u.out" && [ "$rc" -eq 2 ]; then
	pass sarif/unreadable
else
	fail sarif/unreadable "exit $rc"
	show "$tmp/u.out"
	show "$tmp/u.err" 5
fi

# usage errors with SARIF asked for: one JSON document on stderr
u_ok=1
for args in "--diagnostics-format=sarif --frobnicate x.rack" \
	"--frobnicate --diagnostics-format=sarif x.rack" \
	"--diagnostics-format=sarif -O nosuch x.rack" \
	"--diagnostics-format sarif --max-errors=x x.rack"; do
	# shellcheck disable=SC2086 # the arguments split on purpose
	rk_run "$tmp/us" $args || :
	if [ "$rc" -ne 2 ] || ! python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
n = run["invocations"][0]["toolExecutionNotifications"]
assert n and n[0]["associatedRule"]["id"] == "usage", n
assert run["results"] == []
' "$tmp/us.err" 2>"$tmp/us.out"; then
		u_ok=0
		fail sarif/usage "$args: exit $rc"
		show "$tmp/us.err" 5
		show "$tmp/us.out"
	fi
done
if [ $u_ok = 1 ]; then
	pass sarif/usage
fi

if cmp -s "$tmp/a.err" "$tmp/a2.err" && [ -s "$tmp/a.err" ]; then
	pass sarif/same-twice
else
	fail sarif/same-twice "two runs differ"
fi

# the fingerprints of a and b are the same (the file's URI differs, so
# compare the check findings of one file moved in place instead)
{
	printf '# three\n# more\n# lines\n'
	cat tests/diff/pod.rack
} >"$tmp/elsewhere/pod2.rack"
cp tests/diff/pod.rack "$tmp/elsewhere/pod.rack"
rk_run "$tmp/d1" --check --diagnostics-format=sarif -I examples \
	"$tmp/elsewhere/pod.rack" || :
mv "$tmp/elsewhere/pod2.rack" "$tmp/elsewhere/pod.rack"
rk_run "$tmp/d2" --check --diagnostics-format=sarif -I examples \
	"$tmp/elsewhere/pod.rack" || :
if python3 -c '
import json, sys
def get(p):
    run = json.load(open(p))["runs"][0]
    return ([r["partialFingerprints"]["rackcFinding/v1"] for r in run["results"]],
            [r["locations"][0]["physicalLocation"]["region"]["startLine"]
             for r in run["results"]])
f1, l1 = get(sys.argv[1])
f2, l2 = get(sys.argv[2])
assert f1 and f1 == f2, (f1, f2)
assert [x + 3 for x in l1] == l2, (l1, l2)
' "$tmp/d1.err" "$tmp/d2.err" 2>"$tmp/fp.err"; then
	pass sarif/fingerprints
else
	fail sarif/fingerprints "fingerprints moved with the lines"
	show "$tmp/fp.err"
fi

# the informationUri configure chose, if the build directory says
cfg=$(dirname "$RACKC")/config.h
if [ ! -f "$cfg" ]; then
	skip sarif/info-uri "no config.h next to $RACKC"
elif uri=$(sed -n 's/^#define RACKC_INFO_URI "\(.*\)"$/\1/p' "$cfg") &&
	python3 -c '
import json, re, sys
drv = json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]
want = sys.argv[2]
if want:
    assert re.match(r"https?://[^/\s]", want), want
    assert drv.get("informationUri") == want, (drv.get("informationUri"), want)
else:
    assert "informationUri" not in drv, drv.get("informationUri")
' "$tmp/a.sarif" "$uri" 2>"$tmp/uri.err"; then
	pass sarif/info-uri
else
	fail sarif/info-uri "informationUri is not the configured one"
	show "$tmp/uri.err"
fi
finish
