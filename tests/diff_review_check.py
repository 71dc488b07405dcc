#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of `rackc diff`'s text and Markdown reviews (tests/diff-review.sh)
against its JSON output and the new side's cabling files, computed here
independently of the C code.

  budget REVIEW MAX FULL   REVIEW is at most MAX bytes, starts with the
                           summary and the decisions, names FULL and says
                           how many lines it left out
  full FULL JSON           FULL (the complete review) names every cable ID,
                           device, bill-of-materials line and finding of
                           the JSON, and leaves nothing out
  groups TEXT JSON         the "Cabling, grouped" lines of TEXT: per
                           (action, device group of each end, cable) the
                           count of cables, and the devices their index
                           ranges stand for, equal those of the JSON work
                           order (each cable once)
  ports TEXT JSON          the port runs of the "Cabling, grouped" lines
                           of TEXT ("DEVICES ports p[31-35] (16/2-18/2)"):
                           the devices times the ports are exactly the
                           ends of that side of the group's cables in the
                           JSON work order; on QM9700 switches (the
                           compute and storage leaves and spines of the
                           DGX SuperPOD example) the faceplate names of
                           the first and last port are the vendor's
                           (cage k/2+1, port k%2+1)
  lines FILE...            no line of text (a FILE not named *.md or
                           *-md.out) over 160 characters; no JSON (a list,
                           an object, a quoted key) in any line
  ends TEXT JSON DIR       each work-order row of TEXT gives both ends as
                           rack, U and faceplate port with the logical
                           name beside it (DIR/cabling.csv: rack and U;
                           switch ports p[k] of QM9700 leaves and spines:
                           faceplate cage k/2+1, port k%2+1, the vendor's
                           numbering)

Prints one "PASS\tNAME" or "FAIL\tNAME\tDETAIL" line a case.
"""
import csv
import json
import re
import sys

LINE_MAX = 160
ACTIONS = ("add", "remove", "replace", "re-pull", "relabel")


def out(ok, name, detail=""):
    print("%s\t%s\t%s" % ("PASS" if ok else "FAIL", name, detail))


def split_end(end):
    """"compute.leaf[10].p[0]" -> ("compute.leaf[10]", "p[0]")"""
    dot = end.rfind(".")
    return end[:dot], end[dot + 1:]


def pattern(name):
    return re.sub(r"\[[0-9][0-9,\-]*\]", "[]", name)


def expand(text):
    """The names a compressed list stands for ("dgx[4-6], a.b[0-1].c[2]")."""
    names = set()
    for item in re.split(r", (?![^\[]*\])", text):
        parts = re.split(r"\[([0-9][0-9,\-]*)\]", item)
        acc = [""]
        for k, p in enumerate(parts):
            if k % 2 == 0:
                acc = [a + p for a in acc]
                continue
            nums = []
            for r in p.split(","):
                lo, _, hi = r.partition("-")
                nums += range(int(lo), int(hi or lo) + 1)
            acc = [a + "[%d]" % n for a in acc for n in nums]
        names.update(acc)
    return names


def budget(review, limit, full):
    data = open(review, "rb").read()
    text = data.decode()
    out(len(data) <= int(limit), "size", "%d bytes > %s" % (len(data), limit))
    first = text.find("Summary")
    dec = text.find("Decisions")
    det = text.find("Devices")
    out(0 <= first < dec and (det < 0 or dec < det), "summary-first",
        "summary at %d, decisions at %d" % (first, dec))
    out(full in text and re.search(r"\d+ more lines of detail left out",
                                   text) is not None,
        "names-full", "no note naming %s" % full)


def full(fulltext, js):
    text = open(fulltext).read()
    d = json.load(open(js))
    want = []
    for r in d.get("cabling", []):
        want.append(r["cable_id"])
        if r["new_cable_id"]:
            want.append(r["new_cable_id"])
    want += [r["device"] for r in d.get("devices", [])]
    want += [r["part_number"] for r in d.get("bom", [])]
    want += [r["finding"][:60] for r in d.get("findings", [])]
    missing = [w for w in want if w not in text]
    out(not missing and len(want) > 0, "complete",
        "%d of %d missing, e.g. %s" % (len(missing), len(want), missing[:3]))
    out("left out" not in text, "nothing-left-out")
    ids = set(r["cable_id"] for r in d.get("cabling", []))
    rows = 0
    for ln in text.splitlines():
        tok = re.split(r"[\s|]+", ln.strip("| "))
        rows += len(tok) > 2 and tok[1] in ACTIONS and tok[2] in ids
    out(rows == len(d.get("cabling", [])), "every-row",
        "%d work-order rows in the review, %d in the JSON" %
        (rows, len(d.get("cabling", []))))


PORTS = re.compile(r"^(.*?) ports? (\S+)(?: \((\S+)\))?$")


def groups(textfile, js):
    text = open(textfile).read()
    d = json.load(open(js))
    # the JSON: each cable once (its rows under each rack of its ends)
    want = {}
    seen = set()
    for r in d.get("cabling", []):
        key = (r["action"], r["cable_id"])
        if key in seen:
            continue
        seen.add(key)
        a, b = r["cable"].split(" -- ")
        da, db = split_end(a)[0], split_end(b)[0]
        what = r["detail"] if r["action"] in ("add", "remove") else "*"
        if what.split() == ["m"]:
            what = "(no part)"  # a cable of no part and no stock length
        k = (r["action"], pattern(da), pattern(db), what)
        n, sa, sb = want.get(k, (0, set(), set()))
        want[k] = (n + 1, sa | {da}, sb | {db})
    got = {}
    m = re.search(r"\nCabling, grouped:\n((?:  .*\n)+)", text)
    lines = m.group(1).splitlines() if m else []
    for ln in lines:
        g = re.match(r"\s+(\d+) (\S+)\s+(.*) -- (.*), ([^,]*)$", ln)
        if not g:
            out(False, "parse", ln)
            return
        n, act, a, b, what = g.groups()
        assert act in ACTIONS, act
        # a port run after the devices (ports below)
        a = PORTS.match(a).group(1) if PORTS.match(a) else a
        b = PORTS.match(b).group(1) if PORTS.match(b) else b
        if act not in ("add", "remove"):
            what = "*"
        k = (act, pattern(a.split(", ")[0]), pattern(b.split(", ")[0]),
             what)
        cnt, sa, sb = got.get(k, (0, set(), set()))
        if " and " in a or " and " in b:
            sa, sb = None, None  # not every name shown
        else:
            sa = sa | expand(a) if sa is not None else None
            sb = sb | expand(b) if sb is not None else None
        got[k] = (cnt + int(n), sa, sb)
    counts_w = {k: v[0] for k, v in want.items()}
    counts_g = {k: v[0] for k, v in got.items()}
    out(counts_w == counts_g and counts_w, "counts",
        "grouped %s, JSON %s" % (sorted(counts_g.items())[:4],
                                 sorted(counts_w.items())[:4]))
    bad = [k for k in got if got[k][1] is not None and k in want and
           (got[k][1] != want[k][1] or got[k][2] != want[k][2])]
    out(not bad, "ranges", "names differ in %s" % bad[:2])
    out(len(lines) < len(seen), "fewer-lines",
        "%d group lines for %d cables" % (len(lines), len(seen)))




def qm9700_face(port):
    k = int(re.fullmatch(r"p\[(\d+)\]", port).group(1))
    return "%d/%d" % (k // 2 + 1, k % 2 + 1)


def ports(textfile, js):
    text = open(textfile).read()
    d = json.load(open(js))
    ends = {}  # (action, patterns, what) -> (a ends, b ends), each cable once
    seen = set()
    for r in d.get("cabling", []):
        if r["action"] not in ("add", "remove") or r["cable_id"] in seen:
            continue
        seen.add(r["cable_id"])
        a, b = r["cable"].split(" -- ")
        k = (r["action"], pattern(split_end(a)[0]),
             pattern(split_end(b)[0]), r["detail"])
        ea, eb = ends.setdefault(k, (set(), set()))
        ea.add(a)
        eb.add(b)
    m = re.search(r"\nCabling, grouped:\n((?:  .*\n)+)", text)
    checked, multi, faces, bad = 0, 0, 0, []
    for ln in m.group(1).splitlines() if m else []:
        g = re.match(r"\s+(\d+) (\S+)\s+(.*) -- (.*), ([^,]*)$", ln)
        if not g or g.group(2) not in ("add", "remove"):
            continue
        sides = []
        for side in (g.group(3), g.group(4)):
            p = PORTS.match(side)
            sides.append((p.group(1), p.group(2), p.group(3)) if p else
                         (side, None, None))
        k = (g.group(2), pattern(sides[0][0].split(", ")[0]),
             pattern(sides[1][0].split(", ")[0]), g.group(5))
        for e, (devs, rng, face) in enumerate(sides):
            if rng is None:
                continue
            checked += 1
            names = expand(devs)
            plist = sorted(expand(rng), key=lambda x: (len(x), x))
            want = set("%s.%s" % (n, q) for n in names for q in plist)
            got = ends.get(k, (set(), set()))[e]
            if want != got:
                bad.append((ln.strip(), sorted(want ^ got)[:3]))
            multi += len(names) > 1 and len(plist) > 1
            if all(re.match(r"(compute|storage)\.(leaf|spine)\[", n)
                   for n in names) and \
                    all(re.fullmatch(r"p\[\d+\]", q) for q in plist):
                lo = min(plist, key=lambda x: int(x[2:-1]))
                hi = max(plist, key=lambda x: int(x[2:-1]))
                wantf = qm9700_face(lo) + ("" if lo == hi else
                                           "-" + qm9700_face(hi))
                faces += 1
                if face != wantf:
                    bad.append((ln.strip(), "faceplate %s, want %s" %
                                (face, wantf)))
    out(checked > 0 and multi > 0 and faces > 0, "some",
        "%d port runs, %d of several devices and ports, %d faceplate "
        "runs" % (checked, multi, faces))
    out(not bad, "exact", "%d wrong, e.g. %s" % (len(bad), bad[:2]))


def lines(files):
    for f in files:
        long_, js = [], []
        for n, ln in enumerate(open(f), 1):
            ln = ln.rstrip("\n")
            if not re.search(r"(\.|-)md(\.out)?$", f) and len(ln) > LINE_MAX:
                long_.append(n)
            if re.search(r'\[\{|\{"|"[a-z_]+":', ln):
                js.append(n)
        out(not long_, "width " + f.split("/")[-1],
            "%d lines over %d, e.g. line %s" % (len(long_), LINE_MAX,
                                                long_[:1]))
        out(not js, "no-json " + f.split("/")[-1], "JSON in lines %s" %
            js[:3])


def ends(textfile, js, cabdir):
    text = open(textfile).read().splitlines()
    d = json.load(open(js))
    cab = {r["cable_id"]: r for r in csv.DictReader(
        open(cabdir + "/cabling.csv"))}
    rows = {}
    for ln in text:
        f = ln.split()
        if len(f) > 3 and f[2] in cab:
            rows.setdefault(f[2], ln)
    bad, checked = [], 0
    for r in d.get("cabling", []):
        c = cab.get(r["new_cable_id"] or r["cable_id"])
        ln = rows.get(r["cable_id"])
        if c is None or ln is None or r["action"] == "remove":
            continue
        for e in ("a", "b"):
            port = c[e + "_port"]
            face = port
            m = re.fullmatch(r"p\[(\d+)\]", port)
            if m and re.search(r"\.(leaf|spine)\[", c[e + "_device"]):
                k = int(m.group(1))
                face = "%d/%d" % (k // 2 + 1, k % 2 + 1)
            elif not m:
                face = None  # a server port: its faceplate from the part
            want = "%s U%s %s(%s.%s)" % (
                c[e + "_rack"], c[e + "_u"], face + " " if face else "",
                c[e + "_device"], port)
            if face is None:
                ok = re.search(re.escape("%s U%s " % (c[e + "_rack"],
                                                      c[e + "_u"])) +
                               r"\S+ " + re.escape("(%s.%s)" % (
                                   c[e + "_device"], port)), ln)
            else:
                ok = want in ln
            checked += 1
            if not ok:
                bad.append((r["cable_id"], want))
    out(not bad and checked, "rack-u-faceplate",
        "%d of %d ends wrong, e.g. %s" % (len(bad), checked, bad[:2]))


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"budget": lambda: budget(*args), "full": lambda: full(*args),
     "groups": lambda: groups(*args), "lines": lambda: lines(args),
     "ports": lambda: ports(*args),
     "ends": lambda: ends(*args)}[cmd]()


if __name__ == "__main__":
    main()
