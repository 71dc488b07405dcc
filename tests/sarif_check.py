#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Properties of rackc's SARIF output (tests/sarif.sh).

sarif_check.py VERSION FORBIDDEN DOC.sarif...
Each document: SARIF 2.1.0 with one run; the driver names rackc, its
VERSION and, when given, an absolute http(s) informationUri; every rule has
an id, short and full descriptions, help and a default level; every result
names a rule by id and a matching index, has a partial fingerprint (unique
in the run), and every artifact location is a relative URI on a base of
originalUriBaseIds, which hold no URI of their own; the text holds none of
the FORBIDDEN absolute paths (":"-separated).  Prints a summary line.
"""
import json
import re
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def locations(res):
    for loc in res.get("locations", []) + res.get("relatedLocations", []):
        if "physicalLocation" in loc:
            yield loc["physicalLocation"]["artifactLocation"]


def main():
    version, forbidden = sys.argv[1], [p for p in sys.argv[2].split(":") if p]
    nres = nlog = 0
    for path in sys.argv[3:]:
        text = open(path, encoding="utf-8").read()
        for p in forbidden:
            # as an absolute path, not the tail of a "../" one
            if re.search(r"(?<!\.)" + re.escape(p), text):
                fail("%s holds the absolute path %s" % (path, p))
        doc = json.loads(text)
        if doc.get("version") != "2.1.0" or len(doc["runs"]) != 1:
            fail("not one SARIF 2.1.0 run")
        run = doc["runs"][0]
        drv = run["tool"]["driver"]
        if drv["name"] != "rackc" or drv.get("version") != version:
            fail("driver %r, version %r" % (drv["name"], drv.get("version")))
        if "informationUri" in drv and not re.match(r"https?://[^/]",
                                                    drv["informationUri"]):
            fail("informationUri %r is not absolute" % drv["informationUri"])
        bases = run.get("originalUriBaseIds", {})
        if set(bases) != {"SRCROOT", "STDLIB"}:
            fail("bases %r" % sorted(bases))
        for b in bases.values():
            if "uri" in b or not b.get("description", {}).get("text"):
                fail("a base with a URI or without a description")
        rules = drv["rules"]
        ids = [r["id"] for r in rules]
        if len(set(ids)) != len(ids):
            fail("a rule listed twice")
        for r in rules:
            for k in ("shortDescription", "fullDescription", "help"):
                if not r.get(k, {}).get("text"):
                    fail("rule %s has no %s" % (r["id"], k))
            lv = r.get("defaultConfiguration", {}).get("level")
            if lv not in ("none", "note", "warning", "error"):
                fail("rule %s: default level %r" % (r["id"], lv))
        fps = set()
        for res in run["results"]:
            nres += 1
            i = res.get("ruleIndex")
            if i is None or ids[i] != res["ruleId"]:
                fail("result of %s has rule index %r" % (res["ruleId"], i))
            fp = res.get("partialFingerprints", {}).get("rackcFinding/v1")
            if not fp or fp in fps:
                fail("result of %s: fingerprint %r missing or repeated"
                     % (res["ruleId"], fp))
            fps.add(fp)
            for a in locations(res):
                if a.get("uriBaseId") not in bases:
                    fail("uri %r without a known base" % a["uri"])
                if a["uri"].startswith("/") or re.match(r"[a-z]+:", a["uri"]):
                    fail("uri %r is not relative" % a["uri"])
            for loc in res.get("locations", []):
                for ll in loc.get("logicalLocations", []):
                    if not ll.get("fullyQualifiedName"):
                        fail("a logical location without a name")
                    nlog += 1
    print("ok: %d results, %d with the object as logical location"
          % (nres, nlog))


main()
