#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the netbox back end's CSVs (OUTDIR/netbox/*.csv) against
NetBox's import rules, as tests/netbox-import.txt records them from
NetBox's source (its import forms, models and choice sets).

Usage: netbox_check.py OUTDIR RULES

Per file, from RULES:
  - every header column is a column of the file's import form; every
    required column is in the header and set in every row; every row has
    the header's width;
  - choice columns hold values of their choice set; integer, decimal and
    max_length limits of the model fields hold;
  - lookups resolve within their scope to exactly one row of the file
    they name (a power feed's rack within the site and the row's
    location, a device's type within its manufacturer, ...);
  - the models' unique constraints hold across the file;
  - every cable end names a termination of its type (a component of the
    named device, a feed of the named panel) with compatible types on both
    sides, and no termination has two cables.
Besides, from NetBox's model logic rather than a table: a device with a
position has a face and fits in its rack, and no two devices share a
rack unit; slugs match NetBox's slug pattern.
Prints one "PASS<TAB>name<TAB>detail" or "FAIL<TAB>name<TAB>detail" line
per check.
"""
import csv
import os
import re
import sys

FILES = ["01-sites.csv", "02-locations.csv", "03-racks.csv",
         "04-manufacturers.csv", "05-device-roles.csv",
         "06-device-types.csv", "07-devices.csv", "08-interfaces.csv",
         "09-power-ports.csv", "10-power-outlets.csv",
         "11-power-panels.csv", "12-power-feeds.csv", "13-cables.csv"]
SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")


def check(name, ok, detail=""):
    print("PASS" if ok else "FAIL", name, detail, sep="\t", flush=True)


def read_rules(path):
    lines = []
    with open(path, encoding="utf-8") as fp:
        for line in fp:
            line = line.split("#", 1)[0]
            if line[:1].isspace() and lines:
                lines[-1] += " " + line
            elif line.strip():
                lines.append(line)
    r = {"form": {}, "choice": {}, "decimal": {}, "int": {}, "maxlen": {},
         "lookup": [], "unique": [], "termination": {}, "compatible": {}}
    for line in lines:
        w = line.split()
        k = w[0]
        if k == "form":
            r[k][w[1]] = (w[2], [c.rstrip("*") for c in w[3:]],
                          [c.rstrip("*") for c in w[3:] if c.endswith("*")])
        elif k == "choice":
            r[k][(w[1], w[2])] = set(w[3:])
        elif k == "decimal":
            r[k][(w[1], w[2])] = (int(w[3]), int(w[4]))
        elif k == "int":
            excl = {int(x[1:]) for x in w[5:] if x.startswith("!")}
            r[k][(w[1], w[2])] = (int(w[3]), int(w[4]), excl)
        elif k == "maxlen":
            r[k][(w[1], w[2])] = int(w[3])
        elif k == "lookup":
            scopes = []
            for s in w[5:]:
                col, tcol = s.split("=")
                scopes.append((col.rstrip("?"), tcol, col.endswith("?")))
            r[k].append((w[1], w[2], w[3], w[4], scopes))
        elif k == "unique":
            r[k].append((w[1], w[2].split(",")))
        elif k == "termination":
            r[k][w[1]] = (w[2], w[3])
        elif k == "compatible":
            r[k][w[1]] = set(w[2:])
        else:
            raise ValueError("bad rules line: %r" % line)
    return r


def read(outdir, f):
    """Header, rows as dicts (cells trimmed, as NetBox's parse_csv does),
    row widths."""
    with open(os.path.join(outdir, "netbox", f), newline="",
              encoding="utf-8") as fp:
        rows = list(csv.reader(fp))
    hdr = [h.strip() for h in rows[0]]
    recs = [dict(zip(hdr, [c.strip() for c in r])) for r in rows[1:]]
    return hdr, recs, {len(r) for r in rows[1:]}


def fits_decimal(s, digits, places):
    """Whether @s is a decimal of at most @digits digits, @places of them
    after the point (Django's DecimalField(max_digits, decimal_places))."""
    m = re.match(r"^-?([0-9]+)(?:\.([0-9]+))?$", s)
    if not m:
        return False
    whole, frac = m.group(1).lstrip("0"), (m.group(2) or "").rstrip("0")
    return len(frac) <= places and len(whole) + len(frac) <= digits


def per_file(t, hdrs, widths, r):
    for f in FILES:
        hdr, rows = hdrs[f], t[f]
        cls, cols, req = r["form"][f]
        extra = [c for c in hdr if c not in cols]
        check("form columns %s (%s)" % (f, cls), not extra,
              "not columns of the form: %r" % extra if extra else
              "%d columns" % len(hdr))
        check("row widths %s" % f, widths[f] <= {len(hdr)},
              "header %d, rows %r" % (len(hdr), sorted(widths[f])))
        missing = [c for c in req if c not in hdr]
        check("required columns %s (%s)" % (f, cls), not missing,
              "missing: %r" % missing if missing else "%r" % req)
        empty = [(i + 2, c) for i, row in enumerate(rows) for c in req
                 if c in row and not row[c]]
        check("required values %s" % f, not empty,
              "empty (line, column): %r" % empty[:3] if empty else
              "%d rows" % len(rows))
        for kind in ("choice", "decimal", "int", "maxlen"):
            for (cf, col), arg in sorted(r[kind].items()):
                if cf != f or col not in hdr:
                    continue
                bad = sorted({row[col] for row in rows if row[col] and
                              not valid(kind, row[col], arg)})
                check("%s %s %s" % (kind, f, col), not bad,
                      "invalid: %r" % bad[:3] if bad else
                      "%d rows" % len(rows))


def valid(kind, v, arg):
    if kind == "choice":
        return v in arg
    if kind == "decimal":
        return fits_decimal(v, *arg)
    if kind == "int":
        lo, hi, excl = arg
        return re.match(r"^-?[0-9]+$", v) is not None and \
            lo <= int(v) <= hi and int(v) not in excl
    return len(v) <= arg


def lookups(t, r):
    """Every non-empty lookup cell names exactly one row of its target
    file within its scope.  Returns {(file, row index, column): target
    row index} for the resolved ones."""
    res = {}
    for f, col, tf, tcol, scopes in r["lookup"]:
        index = {}
        for j, row in enumerate(t[tf]):
            index.setdefault(row.get(tcol, ""), []).append(j)
        bad = []
        for i, row in enumerate(t[f]):
            v = row.get(col, "")
            if not v:
                continue
            hits = []
            for j in index.get(v, []):
                trow = t[tf][j]
                ok = True
                for scol, stcol, optional in scopes:
                    sv = row.get(scol, "")
                    if optional and not sv:
                        continue
                    if not sv or trow.get(stcol, "") != sv:
                        ok = False
                if ok:
                    hits.append(j)
            if len(hits) != 1:
                bad.append((i + 2, v, len(hits)))
            else:
                res[(f, i, col)] = hits[0]
        scope = " ".join("%s%s=%s" % (a, "?" if o else "", b)
                         for a, b, o in scopes)
        check("lookup %s %s -> %s %s%s" % (f, col, tf, tcol,
                                           " [" + scope + "]" if scope
                                           else ""), not bad,
              "(line, value, matches): %r" % bad[:3] if bad else
              "%d rows" % len(t[f]))
    return res


def uniques(t, r):
    for f, cols in r["unique"]:
        seen, dup = set(), []
        for row in t[f]:
            key = []
            skip = False
            for c in cols:
                name = c.rstrip("?~")
                v = row.get(name, "")
                if "?" in c and not v:
                    skip = True
                key.append(v.lower() if "~" in c else v)
            if skip:
                continue
            key = tuple(key)
            if key in seen:
                dup.append(key)
            seen.add(key)
        check("unique %s (%s)" % (f, ",".join(cols)), not dup,
              "duplicates: %r" % dup[:3] if dup else "%d keys" % len(seen))


def cables(t, r, res):
    comps = {}
    for typ, (f, owner) in r["termination"].items():
        comps[typ] = {(row[owner], row["name"]) for row in t[f]}
    bad, badtype, ends = [], [], []
    for i, row in enumerate(t["13-cables.csv"]):
        types = []
        for s in ("a", "b"):
            typ = row["side_%s_type" % s]
            name = row["side_%s_name" % s]
            types.append(typ)
            if typ not in r["termination"]:
                bad.append((i + 2, s, "type rackc does not write"))
                continue
            owner_col = "side_%s_%s" % (
                s, "power_panel" if typ == "dcim.powerfeed" else "device")
            owner = row.get(owner_col, "")
            # the owner resolved by its lookup (site-scoped); a power
            # feed's panel is (site, panel name): feeds are keyed so
            if not owner or ("13-cables.csv", i, owner_col) not in res:
                bad.append((i + 2, s, "no %s" % owner_col))
                continue
            if typ == "dcim.powerfeed":
                p = t["11-power-panels.csv"][res[("13-cables.csv", i,
                                                   owner_col)]]
                feeds = {(fr["site"], fr["power_panel"], fr["name"])
                         for fr in t["12-power-feeds.csv"]}
                key = (p["site"], p["name"], name)
                ok = key in feeds
            else:
                key = (owner, name)
                ok = key in comps[typ]
            if not ok:
                bad.append((i + 2, s, owner, name))
            ends.append((typ,) + key)
        if types[1] not in r["compatible"].get(types[0], ()):
            badtype.append((i + 2, types))
    check("cable ends exist", not bad, repr(bad[:3]))
    check("cable end types compatible", not badtype, repr(badtype[:3]))
    seen, dup = set(), []
    for e in ends:
        if e in seen:
            dup.append(e)
        seen.add(e)
    check("one cable per termination", not dup, repr(dup[:3]))


def positions(t, res):
    """Device.clean(): a device at a position names a face and fits in its
    rack; no two devices share a unit of one rack."""
    badpos, used = [], {}
    for i, row in enumerate(t["07-devices.csv"]):
        if not row.get("position"):
            continue
        ti = res.get(("07-devices.csv", i, "device_type"))
        ri = res.get(("07-devices.csv", i, "rack"))
        if ti is None or ri is None or row.get("face") not in ("front",
                                                                "rear"):
            badpos.append(row)
            continue
        h = float(t["06-device-types.csv"][ti]["u_height"])
        top = int(t["03-racks.csv"][ri]["u_height"])
        pos = float(row["position"])
        if h < 1 or pos < 1 or pos + h - 1 > top:
            badpos.append(row)
        for u in range(int(pos), int(pos + h)):
            if (ri, u) in used:
                badpos.append(row)
            used[(ri, u)] = row["name"]
    check("positions within rack, faces, no overlap", not badpos,
          repr(badpos[:1]))


def main():
    outdir, rules = sys.argv[1], sys.argv[2]
    r = read_rules(rules)
    present = sorted(os.listdir(os.path.join(outdir, "netbox")))
    check("files", [f for f in present if f.endswith(".csv")] == FILES,
          "got %r" % present)
    t, hdrs, widths = {}, {}, {}
    for f in FILES:
        hdrs[f], t[f], widths[f] = read(outdir, f)
    per_file(t, hdrs, widths, r)
    res = lookups(t, r)
    uniques(t, r)
    positions(t, res)
    cables(t, r, res)
    slugs = [row["slug"] for f in FILES for row in t[f] if "slug" in row]
    bad = [s for s in slugs if not SLUG.match(s)]
    check("slug pattern", not bad, repr(bad[:3]))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (KeyError, ValueError, OSError) as e:
        # a file the checks above could not read as NetBox reads it
        check("readable as NetBox reads it", False, repr(e))
        sys.exit(0)
