#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Properties of rackc's SARIF output (tests/sarif.sh).

sarif_check.py VERSION ROOT FORBIDDEN DOC.sarif...
sarif_check.py --selftest

Each document: SARIF 2.1.0 with one run; the driver names rackc, its
VERSION and, when given, an absolute http(s) informationUri; every rule has
an id, short and full descriptions, help and a default level; every result
names a rule by id and a matching index and has rackc's partial
fingerprint (unique in the run); the text holds none of the FORBIDDEN
absolute paths (":"-separated) but in file:// URIs of files outside ROOT.

And the rules of GitHub code scanning, which takes a valid SARIF file but
shows only what follows them:
  - a rule's defaultConfiguration.level is note, warning or error
    (docs.github.com, "SARIF support for code scanning", reportingDescriptor
    object: "defaultConfiguration.level ... note, warning, or error"); a
    rule that is off by default says so with "enabled": false;
  - a result has at least one location, with a physicalLocation
    (same page, result object: "At least one location is required for code
    scanning to display a result"), at most 10;
  - every related location has a physicalLocation (same page, location
    object; GitHub links related locations only through their artifact);
  - an artifact URI is relative to the repository root with no "." or ".."
    segment, or an absolute file:// URI; a relative one must name a file
    under ROOT (github/codeql-action src/fingerprints.ts resolveUriToFile
    joins it to the source root, and takes file:// and absolute paths only
    inside it);
  - results with a region carry partialFingerprints.primaryLocationLineHash
    equal to what the upload action computes from the file
    (github/codeql-action src/fingerprints.ts hash(), ported below and
    checked against that file's own test vectors, fingerprints.test.ts);
  - what has no location is a tool execution notification
    (runs[].invocations[].toolExecutionNotifications, SARIF 2.1.0 section
    3.20.21) with a message and a level, and executionSuccessful is given
    (SARIF 2.1.0 section 3.20.14, required).
Prints a summary line.
"""
import json
import os
import re
import sys
from urllib.parse import unquote

BLOCK_SIZE = 100
MOD = 37
MASK = (1 << 64) - 1


def line_hashes(text):
    """GitHub's hash() of fingerprints.ts: {line: "hex:count"} for the
    text (a str, so UTF-16 code units are counted as JavaScript does)."""
    units = list(text.encode("utf-16-le"))
    codes = [units[i] | units[i + 1] << 8 for i in range(0, len(units), 2)]
    window = [0] * BLOCK_SIZE
    line_numbers = [-1] * BLOCK_SIZE
    first_mod = pow(MOD, BLOCK_SIZE, 1 << 64)
    st = {"h": 0, "index": 0, "line": 0, "start": True, "cr": False}
    counts, out = {}, {}

    def output():
        hv = "%x" % st["h"]
        counts[hv] = counts.get(hv, 0) + 1
        out[line_numbers[st["index"]]] = "%s:%d" % (hv, counts[hv])
        line_numbers[st["index"]] = -1

    def update(cur):
        begin = window[st["index"]]
        window[st["index"]] = cur
        st["h"] = (MOD * st["h"] + cur - first_mod * begin) & MASK
        st["index"] = (st["index"] + 1) % BLOCK_SIZE

    def process(cur):
        if cur in (0x20, 0x09) or (st["cr"] and cur == 0x0A):
            st["cr"] = False
            return
        if cur == 0x0D:
            cur = 0x0A
            st["cr"] = True
        else:
            st["cr"] = False
        if line_numbers[st["index"]] != -1:
            output()
        if st["start"]:
            st["start"] = False
            st["line"] += 1
            line_numbers[st["index"]] = st["line"]
        if cur == 0x0A:
            st["start"] = True
        update(cur)

    for c in codes:
        process(c)
    process(65535)
    for _ in range(BLOCK_SIZE):
        if line_numbers[st["index"]] != -1:
            output()
        update(0)
    return out


# github/codeql-action src/fingerprints.test.ts, test("hash")
VECTORS = [
    ("", ["c129715d7a2bc9a3:1"]),
    (" a\nb\n  \t\tc\n d", ["271789c17abda88f:1", "54703d4cd895b18:1",
                            "180aee12dab6264:1", "a23a3dc5e078b07b:1"]),
    (" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End",
     ["8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1",
      "c6805c5e1288b612:1", "b86d3392aea1be30:1", "e6ceba753e1a442:1"]),
    (" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r",
     ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1",
      "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1",
      "c129715d7a2bc9a3:1"]),
    (" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n",
     ["e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1",
      "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1",
      "c129715d7a2bc9a3:1"]),
    ("Lorem ipsum dolor sit amet.\n" * 10,
     ["a7f2ff13bc495cf2:%d" % k for k in range(1, 7)] +
     ["a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1", "55ec222b86bcae53:1",
      "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"]),
    ("x = 2\nx = 1\nprint(x)\nx = 3\nprint(x)\nx = 4\nprint(x)\n",
     ["e54938cc54b302f1:1", "bb609acbe9138d60:1", "1131fd5871777f34:1",
      "5c482a0f8b35ea28:1", "54517377da7028d2:1", "2c644846cb18d53e:1",
      "f1b89f20de0d133:1", "c129715d7a2bc9a3:1"]),
]


def selftest():
    for text, want in VECTORS:
        got = line_hashes(text)
        got = [got[k] for k in sorted(got)]
        if got != want:
            print("FAIL: hash of %r: %r, want %r" % (text, got, want))
            sys.exit(1)
    print("ok: %d vectors of fingerprints.test.ts" % len(VECTORS))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def uri_file(uri, root):
    """The file a URI names, as the upload action resolves it, or None."""
    u = unquote(uri)
    if u.startswith("file://"):
        u = u[len("file://"):]
    if "://" in u:
        return None
    if u.startswith("/"):
        return u if u.startswith(root.rstrip("/") + "/") else None
    return os.path.join(root, u)


def check_location(loc, what, root, hashes):
    if "physicalLocation" not in loc:
        fail("%s without a physicalLocation" % what)
    art = loc["physicalLocation"]["artifactLocation"]
    uri = art["uri"]
    if uri.startswith("file://"):
        if "uriBaseId" in art:
            fail("absolute %r with a base" % uri)
        return None
    if re.match(r"[a-z]+:", uri) or uri.startswith("/"):
        fail("uri %r is not relative nor file://" % uri)
    if any(seg in (".", "..") for seg in uri.split("/")):
        fail("uri %r has a . or .. segment" % uri)
    if art.get("uriBaseId") != "SRCROOT":
        fail("relative uri %r not on SRCROOT" % uri)
    path = uri_file(uri, root)
    if not path or not os.path.isfile(path):
        fail("uri %r is no file under %s" % (uri, root))
    return path


def main():
    if sys.argv[1:] == ["--selftest"]:
        selftest()
        return
    version, root = sys.argv[1], sys.argv[2]
    forbidden = [p for p in sys.argv[3].split(":") if p]
    nres = nlog = nhash = nnote = 0
    cache = {}
    for path in sys.argv[4:]:
        text = open(path, encoding="utf-8").read()
        bare = re.sub(r'"file://[^"]*"', '""', text)
        for p in forbidden:
            # as an absolute path, not inside a file:// URI
            if re.search(r"(?<!\.)" + re.escape(p), bare):
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
        if set(bases) != {"SRCROOT"}:
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
            if lv not in ("note", "warning", "error"):
                fail("rule %s: default level %r (GitHub: note, warning or "
                     "error)" % (r["id"], lv))
        inv = run.get("invocations")
        if not inv or "executionSuccessful" not in inv[0]:
            fail("no invocation with executionSuccessful")
        for n in inv[0].get("toolExecutionNotifications", []):
            nnote += 1
            if not n.get("message", {}).get("text") or \
                    n.get("level") not in ("note", "warning", "error"):
                fail("notification %r" % n)
            a = n.get("associatedRule", {})
            if a and ids[a["index"]] != a["id"]:
                fail("notification rule %r" % a)
        fps = set()
        for res in run["results"]:
            nres += 1
            i = res.get("ruleIndex")
            if i is None or ids[i] != res["ruleId"]:
                fail("result of %s has rule index %r" % (res["ruleId"], i))
            pf = res.get("partialFingerprints", {})
            fp = pf.get("rackcFinding/v1")
            if not fp or fp in fps:
                fail("result of %s: fingerprint %r missing or repeated"
                     % (res["ruleId"], fp))
            fps.add(fp)
            locs = res.get("locations", [])
            if not 1 <= len(locs) <= 10:
                fail("result of %s has %d locations" % (res["ruleId"],
                                                        len(locs)))
            for k, loc in enumerate(locs):
                f = check_location(loc, "a location", root, None)
                for ll in loc.get("logicalLocations", []):
                    if not ll.get("fullyQualifiedName"):
                        fail("a logical location without a name")
                    nlog += 1
                if k == 0 and f:
                    if f not in cache:
                        with open(f, encoding="utf-8", errors="replace",
                                  newline="") as fh:
                            cache[f] = line_hashes(fh.read())
                    line = loc["physicalLocation"].get("region", {}).get(
                        "startLine", 1)
                    want = cache[f].get(line)
                    got = pf.get("primaryLocationLineHash")
                    if got != want:
                        fail("result of %s at %s:%d: primaryLocationLineHash "
                             "%r, the upload action computes %r"
                             % (res["ruleId"], f, line, got, want))
                    nhash += 1
            for loc in res.get("relatedLocations", []):
                check_location(loc, "a related location", root, None)
    print("ok: %d results (%d line hashes as GitHub computes them), %d with "
          "the object as logical location, %d notifications"
          % (nres, nhash, nlog, nnote))


main()
