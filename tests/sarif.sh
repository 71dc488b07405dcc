#!/bin/sh
# SPDX-License-Identifier: MIT
# SARIF output (--diagnostics-format=sarif, src/diag.c) for code scanning.
#
#   sarif/properties    tests/sarif_check.py on a design with check
#                       findings (logical locations), a design outside the
#                       source root ("../" URIs), and an error inside a
#                       standard library (STDLIB base): relative URIs, rules
#                       described, fingerprints, no absolute path
#   sarif/same-twice    two runs write the same bytes
#   sarif/fingerprints  lines added above every finding move the regions
#                       but leave every partial fingerprint as it was
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

abs=$(pwd -P)
if python3 tests/sarif_check.py "$version" "$abs:$tmp" "$tmp/a.sarif" \
	"$tmp/b.sarif" "$tmp/c.sarif" >"$tmp/check.out" 2>&1 &&
	grep -q '"uriBaseId":"STDLIB"' "$tmp/c.sarif" &&
	grep -q '"uri":"std/broken.rack"' "$tmp/c.sarif" &&
	grep -q '"uri":"\.\./' "$tmp/b.sarif" &&
	grep -q '"uri":"tests/diff/pod.rack","uriBaseId":"SRCROOT"' \
		"$tmp/a.sarif"; then
	pass sarif/properties
	sed 's/^/    /' "$tmp/check.out"
else
	fail sarif/properties "see below"
	show "$tmp/check.out"
	show "$tmp/c.sarif" 5
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
