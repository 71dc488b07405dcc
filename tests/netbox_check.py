#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Independent checks of the netbox back end's CSVs (OUTDIR/netbox/*.csv).

Usage: netbox_check.py OUTDIR [FORMS]

Checks, written from NetBox's import rules rather than from rackc's code:
  - each file has exactly the documented header (README "NetBox export");
  - slugs match NetBox's slug pattern; names are unique in NetBox's scopes
    (site names, locations per site, racks per site, manufacturers, device
    types per manufacturer, device names per site, components per device,
    power panels per site, feeds per panel);
  - referential integrity: every location's site, every rack's site and
    location, every device's role, manufacturer, device type, site,
    location and rack exist, and the rack is in the device's site;
  - positions: a device with a position has a face, its type is at least
    1U high and it fits in its rack (position + height - 1 <= u_height);
    no two devices share a rack unit;
  - cables: every end names a device and an interface / power port /
    power outlet that the component files define (a power feed: a feed of
    that panel), and no component has two cables.
With FORMS (a table that tests/netbox.sh writes from NetBox's import
forms and choice sets; doc/netbox.md), also:
  - every header column is a column of that file's import form, and every
    required column of the form is in the header and set in every row;
  - every value of a choice column is one of the documented slugs, and
    every number of a decimal column fits its digits and decimal places;
  - no termination name holds a comma (NetBox v4.6 splits them there).
Prints one "PASS<TAB>name<TAB>detail" or "FAIL<TAB>name<TAB>detail" line
per check.
"""
import csv
import os
import re
import sys

COLUMNS = {
    "01-sites.csv": ["name", "slug", "status"],
    "02-locations.csv": ["site", "name", "slug", "status"],
    "03-racks.csv": ["site", "location", "name", "status", "width",
                     "u_height"],
    "04-manufacturers.csv": ["name", "slug"],
    "05-device-roles.csv": ["name", "slug", "color"],
    "06-device-types.csv": ["manufacturer", "model", "slug", "part_number",
                            "u_height"],
    "07-devices.csv": ["name", "role", "manufacturer", "device_type",
                       "status", "site", "location", "rack", "position",
                       "face"],
    "08-interfaces.csv": ["device", "name", "type"],
    "09-power-ports.csv": ["device", "name", "type"],
    "10-power-outlets.csv": ["device", "name", "type"],
    "11-power-panels.csv": ["site", "name"],
    "12-power-feeds.csv": ["site", "power_panel", "rack", "name", "status",
                           "type", "supply", "phase", "voltage",
                           "amperage"],
    "13-cables.csv": ["side_a_site", "side_a_device", "side_a_power_panel",
                      "side_a_type", "side_a_name", "side_b_site",
                      "side_b_device", "side_b_type", "side_b_name", "type",
                      "status", "label", "length", "length_unit"],
}
SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")

def check(name, ok, detail=""):
    print("PASS" if ok else "FAIL", name, detail, sep="\t", flush=True)


def read(outdir, f):
    with open(os.path.join(outdir, "netbox", f), newline="",
              encoding="utf-8") as fp:
        rows = list(csv.reader(fp))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]], rows[1:]


def unique(name, keys):
    seen, dup = set(), []
    for k in keys:
        if k in seen:
            dup.append(k)
        seen.add(k)
    check(name, not dup, "duplicates: %r" % dup[:3] if dup else
          "%d keys" % len(seen))
    return seen


def read_forms(path):
    """FORMS: "form FILE CLASS COLUMN..." (a required column ends in "*"),
    "choice FILE COLUMN VALUE..." and "decimal FILE COLUMN DIGITS PLACES"
    lines; an indented line continues the one above; "#" starts a
    comment."""
    forms, choices, decimals = {}, {}, {}
    lines = []
    with open(path, encoding="utf-8") as fp:
        for line in fp:
            line = line.split("#", 1)[0]
            if line[:1].isspace() and lines:
                lines[-1] += " " + line
            elif line.strip():
                lines.append(line)
    for line in lines:
        w = line.split()
        if w[0] == "form":
            cols = [c.rstrip("*") for c in w[3:]]
            req = [c.rstrip("*") for c in w[3:] if c.endswith("*")]
            forms[w[1]] = (w[2], cols, req)
        elif w[0] == "choice":
            choices[(w[1], w[2])] = set(w[3:])
        elif w[0] == "decimal":
            decimals[(w[1], w[2])] = (int(w[3]), int(w[4]))
        else:
            raise ValueError("bad FORMS line: %r" % line)
    return forms, choices, decimals


def fits_decimal(s, digits, places):
    """Whether @s is a decimal of at most @digits digits, @places of them
    after the point (Django's DecimalField(max_digits, decimal_places))."""
    m = re.match(r"^-?([0-9]+)(?:\.([0-9]+))?$", s)
    if not m:
        return False
    whole, frac = m.group(1).lstrip("0"), (m.group(2) or "").rstrip("0")
    return len(frac) <= places and len(whole) + len(frac) <= digits


def check_forms(outdir, path):
    forms, choices, decimals = read_forms(path)
    for f in sorted(COLUMNS):
        hdr, rows, _ = read(outdir, f)
        if f not in forms:
            check("import form of " + f, False, "not in the table")
            continue
        cls, cols, req = forms[f]
        extra = [c for c in hdr if c not in cols]
        check("form columns %s (%s)" % (f, cls), not extra,
              "not columns of the form: %r" % extra if extra else
              "%d columns" % len(hdr))
        missing = [c for c in req if c not in hdr]
        check("required columns %s (%s)" % (f, cls), not missing,
              "missing: %r" % missing if missing else "%r" % req)
        empty = [(i + 2, c) for i, r in enumerate(rows) for c in req
                 if c in r and not r[c]]
        check("required values %s" % f, not empty,
              "empty (line, column): %r" % empty[:3] if empty else
              "%d rows" % len(rows))
        for (cf, col), allowed in sorted(choices.items()):
            if cf != f or col not in hdr:
                continue
            bad = sorted({r[col] for r in rows if r[col] and
                          r[col] not in allowed})
            check("choices %s %s" % (f, col), not bad,
                  "undocumented: %r" % bad[:3] if bad else
                  "%d rows" % len(rows))
        for (cf, col), (digits, places) in sorted(decimals.items()):
            if cf != f or col not in hdr:
                continue
            bad = sorted({r[col] for r in rows if r[col] and
                          not fits_decimal(r[col], digits, places)})
            check("decimals %s %s" % (f, col), not bad,
                  "not DecimalField(%d, %d): %r" % (digits, places, bad[:3])
                  if bad else "%d rows" % len(rows))
    _, rows, _ = read(outdir, "13-cables.csv")
    bad = [r for r in rows for c in ("side_a_name", "side_b_name",
                                     "side_a_device", "side_b_device",
                                     "side_a_power_panel")
           if "," in r.get(c, "")]
    check("no comma in termination names", not bad, repr(bad[:1]))


def main():
    outdir = sys.argv[1]
    if len(sys.argv) > 2:
        check_forms(outdir, sys.argv[2])
    present = sorted(os.listdir(os.path.join(outdir, "netbox")))
    check("files", present == sorted(COLUMNS), "got %r" % present)
    t = {}
    for f, cols in COLUMNS.items():
        hdr, rows, raw = read(outdir, f)
        widths = {len(r) for r in raw}
        check("columns " + f, hdr == cols and widths <= {len(cols)},
              "header %r, row widths %r" % (hdr, sorted(widths)))
        t[f] = rows

    sites = unique("site names", [r["name"] for r in t["01-sites.csv"]])
    unique("site slugs", [r["slug"] for r in t["01-sites.csv"]])
    locs = unique("locations per site",
                  [(r["site"], r["name"]) for r in t["02-locations.csv"]])
    unique("location slugs per site",
           [(r["site"], r["slug"]) for r in t["02-locations.csv"]])
    racks = {}
    for r in t["03-racks.csv"]:
        racks[(r["site"], r["name"])] = int(r["u_height"]) \
            if r["u_height"] else 42
    unique("racks per site",
           [(r["site"], r["name"]) for r in t["03-racks.csv"]])
    mfrs = unique("manufacturers",
                  [r["name"] for r in t["04-manufacturers.csv"]])
    unique("manufacturer slugs",
           [r["slug"] for r in t["04-manufacturers.csv"]])
    roles = unique("roles", [r["name"] for r in t["05-device-roles.csv"]])
    types = {}
    for r in t["06-device-types.csv"]:
        types[(r["manufacturer"], r["model"])] = int(r["u_height"])
    unique("device types per manufacturer",
           [(r["manufacturer"], r["model"])
            for r in t["06-device-types.csv"]])
    unique("device type slugs per manufacturer",
           [(r["manufacturer"], r["slug"])
            for r in t["06-device-types.csv"]])
    slugs = [r["slug"] for f in ("01-sites.csv", "02-locations.csv",
                                 "04-manufacturers.csv",
                                 "05-device-roles.csv",
                                 "06-device-types.csv") for r in t[f]]
    bad = [s for s in slugs if not SLUG.match(s)]
    check("slug pattern", not bad, repr(bad[:3]))

    bad = [r for r in t["02-locations.csv"] if r["site"] not in sites]
    check("location sites exist", not bad, repr(bad[:1]))
    bad = [r for r in t["03-racks.csv"] if r["site"] not in sites or
           (r["location"] and (r["site"], r["location"]) not in locs)]
    check("rack sites and locations exist", not bad, repr(bad[:1]))

    devs = {}
    bad, badpos = [], []
    used = {}
    for r in t["07-devices.csv"]:
        key = (r["manufacturer"], r["device_type"])
        if (r["role"] not in roles or r["manufacturer"] not in mfrs or
                key not in types or r["site"] not in sites or
                (r["location"] and (r["site"], r["location"]) not in locs)
                or (r["rack"] and (r["site"], r["rack"]) not in racks)):
            bad.append(r)
        devs[r["name"]] = r["site"]
        if r["position"]:
            pos, h = int(r["position"]), types.get(key, 0)
            top = racks.get((r["site"], r["rack"]), 0)
            if not r["rack"] or r["face"] not in ("front", "rear") or \
                    h < 1 or pos < 1 or pos + h - 1 > top:
                badpos.append(r)
            for u in range(pos, pos + h):
                if (r["rack"], u) in used:
                    badpos.append(r)
                used[(r["rack"], u)] = r["name"]
        elif r["face"]:
            badpos.append(r)
    check("device references exist", not bad, repr(bad[:1]))
    check("positions within rack, faces, no overlap", not badpos,
          repr(badpos[:1]))
    unique("device names per site",
           [(r["site"], r["name"]) for r in t["07-devices.csv"]])

    comps = {}
    for f, kind in (("08-interfaces.csv", "dcim.interface"),
                    ("09-power-ports.csv", "dcim.powerport"),
                    ("10-power-outlets.csv", "dcim.poweroutlet")):
        bad = [r for r in t[f] if r["device"] not in devs]
        check("component devices exist (%s)" % f, not bad, repr(bad[:1]))
        keys = unique("components per device (%s)" % f,
                      [(r["device"], r["name"]) for r in t[f]])
        comps[kind] = keys
    panels = unique("panels per site",
                    [(r["site"], r["name"])
                     for r in t["11-power-panels.csv"]])
    feeds = set()
    bad = []
    for r in t["12-power-feeds.csv"]:
        if (r["site"], r["power_panel"]) not in panels or \
                (r["rack"] and (r["site"], r["rack"]) not in racks):
            bad.append(r)
        feeds.add((r["site"], r["power_panel"], r["name"]))
    check("feed panels and racks exist", not bad, repr(bad[:1]))
    unique("feeds per panel",
           [(r["site"], r["power_panel"], r["name"])
            for r in t["12-power-feeds.csv"]])

    bad, ends = [], []
    for r in t["13-cables.csv"]:
        for s in ("a", "b"):
            typ = r["side_%s_type" % s]
            site = r["side_%s_site" % s]
            dev = r["side_%s_device" % s]
            name = r["side_%s_name" % s]
            if typ == "dcim.powerfeed":
                ok = (site, r.get("side_%s_power_panel" % s, ""),
                      name) in feeds
                ends.append((typ, site, name))
            else:
                ok = (typ in comps and (dev, name) in comps[typ] and
                      devs.get(dev) == site)
                ends.append((typ, dev, name))
            if not ok:
                bad.append(r)
    check("cable ends exist", not bad, repr(bad[:1]))
    unique("one cable per component", ends)
    check("cables", True, "%d cables" % len(t["13-cables.csv"]))

    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (KeyError, ValueError, OSError) as e:
        # a file the checks above could not read as documented
        check("readable as documented", False, repr(e))
        sys.exit(0)
