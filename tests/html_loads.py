# SPDX-License-Identifier: MIT
"""The feeds and liquid-loops tables of report.html, read back with lxml.

    python3 tests/html_loads.py REPORT.html REPORT.json [DIAGNOSTICS [waived]]

compares every feed and loop figure of the page with report.json's
"feeds" and "loops" sections: the same feeds and loops in the same order,
each figure the same exact value, labelled exact exactly when report.json
says so (capacity_exact; the other power figures of report.json are exact
but for headrooms from a rounded capacity), and a figure shown where
report.json has one and "n/a" where it has null.  Each figure's text must
also be its raw value as doc/language.md 3.1 rounds figures for people
(human() below: "43.1kW" for 43128065 mW, "10kW" for 10000000).  tests/loads.sh imports html_report() to hold the page to its
own independent figures too.  A figure report.json gives as null with an
unknown term ("unknown", "at_least") is shown as its lower bound, labelled
so, and a headroom left from it as an upper bound.  With the run's
diagnostics, the racks'
heat to air and air headroom are held to the cooling-air-limit errors.  Prints the disagreements (exit status 1),
or else how many feeds and loops agree.
"""
import json
import re
import sys
from decimal import Decimal

import lxml.html

UNITS = {"MW": 10**9, "kW": 10**6, "W": 1000, "mW": 1,
         "L/min": 1000, "mL/min": 1}
# the display units of a dimension, largest first, with their decimals
# (doc/language.md 3.1)
SHOW = {"power": [("MW", 2), ("kW", 1), ("W", 1), ("mW", 0)],
        "flow": [("L/min", 1), ("mL/min", 0)]}


def human(raw, dim):
    """@raw base units as doc/language.md 3.1 prints them: the largest
    unit whose figure is at least 1, rounded half away from zero to its
    decimals, into the next unit when it rounds up to it; exact figures
    without trailing zeros, rounded ones with all their decimals"""
    units = SHOW[dim]
    mag = abs(raw)
    i = next((k for k, (u, _) in enumerate(units) if UNITS[u] <= mag),
             len(units) - 1)
    if mag == 0:
        i = units.index(("W", 1)) if dim == "power" else 0

    def rounded(k):
        u, dec = units[k]
        step = Decimal(UNITS[u]) / (10 ** dec)
        q = (Decimal(mag) / step).quantize(Decimal(1), "ROUND_HALF_UP")
        return u, dec, q * step

    u, dec, r = rounded(i)
    if i > 0 and r >= UNITS[units[i - 1][0]]:
        u, dec, r = rounded(i - 1)
    sign = "-" if raw < 0 and r else ""
    if r == mag:
        v = (Decimal(mag) / UNITS[u]).normalize()
        return "%s%s%s" % (sign, format(v, "f"), u)
    v = (r / UNITS[u]).quantize(Decimal(1).scaleb(-dec))
    return "%s%s%s" % (sign, format(v, "f"), u)

# column heading -> (report.json key, kind); kinds: "name", "count" (of a
# list), "power" (mW, report.json in W), "flow" (mL/min), "text"
FEED_COLS = {
    "feed": ("name", "name"),
    "racks": ("racks", "count"),
    "supplies": ("supplies", "count"),
    "capacity": ("capacity_w", "power"),
    "load": ("load_w", "power"),
    "headroom": ("headroom_w", "power"),
    "load after loss of one feed": ("load_after_loss_w", "power"),
    "worst loss": ("worst_loss", "text"),
    "headroom after loss": ("headroom_after_loss_w", "power"),
}
LOOP_COLS = {
    "loop": ("name", "name"),
    "racks": ("racks", "count"),
    "CDUs": ("cdus", "count"),
    "redundancy": ("redundancy", "text"),
    "heat to liquid": ("heat_w", "power"),
    "capacity": ("capacity_w", "power"),
    "headroom": ("headroom_w", "power"),
    "coolant": ("coolant", "text"),
    "flow needed": ("flow_ml_per_min", "flow"),
    "flow available": ("max_flow_ml_per_min", "flow"),
    "flow headroom": ("flow_headroom_ml_per_min", "flow"),
}


class Page:
    def __init__(self):
        self.bad = []

    def table(self, doc, section, cols):
        """Rows of the section's table as {json key: value}; figures as
        (value in report.json's unit or None, basis)."""
        sec = doc.xpath('//section[@id="%s"]' % section)
        if len(sec) != 1:
            self.bad.append("%d sections %s" % (len(sec), section))
            return None
        tab = sec[0].xpath(".//table")
        if not tab:
            return []  # "The design has no ..."
        heads = [th.text_content().strip()
                 for th in tab[0].xpath("./thead/tr/th")]
        for h in cols:
            if h not in heads:
                self.bad.append("%s: no column '%s'" % (section, h))
        rows = []
        for tr in tab[0].xpath("./tbody/tr"):
            tds = tr.xpath("./td")
            if len(tds) != len(heads):
                self.bad.append("%s: a row of %d cells under %d headings"
                                % (section, len(tds), len(heads)))
                continue
            row = {}
            for h, td in zip(heads, tds):
                if h not in cols:
                    continue
                key, kind = cols[h]
                row[key] = self.cell(section, h, td, kind)
            rows.append(row)
        return rows

    def cell(self, section, head, td, kind):
        text = td.text_content().strip()
        if kind in ("name", "text"):
            return text or None
        if kind == "count":
            return int(td.get("data-v"))
        basis = td.get("data-basis")
        if td.get("data-v") is None:
            if text != "n/a" or basis != "none":
                self.bad.append("%s %s: no value, but '%s' (%s)"
                                % (section, head, text, basis))
            return (None, basis)
        raw = int(td.get("data-v"))
        label = td.xpath('./span[@class="basis"]')
        shown = text
        if label:
            shown = text[:-len(label[0].text_content())].strip()
            if label[0].text_content() != basis.replace("-", " "):
                self.bad.append("%s %s: labelled '%s', data-basis %s"
                                % (section, head, label[0].text_content(),
                                   basis))
        else:
            self.bad.append("%s %s: figure '%s' not labelled"
                            % (section, head, text))
        if shown != human(raw, "flow" if kind == "flow" else "power"):
            self.bad.append("%s %s: shows '%s' for %d, not '%s'"
                            % (section, head, shown, raw,
                               human(raw, "flow" if kind == "flow"
                                     else "power")))
        value = Decimal(raw) / 1000 if kind == "power" else raw
        return (value, basis)


def air_headrooms(path, diags, waived=False):
    """The racks table's heat to air and air headroom against the
    cooling-air-limit errors in @diags (text diagnostics): a rack named by
    one has a negative headroom and the heat to air the message gives,
    and a negative headroom comes with such an error (one per source
    place is shown, so a rack of a range may go unnamed) unless the
    design @waived the check somewhere."""
    bad = []
    with open(path, "rb") as fp:
        doc = lxml.html.fromstring(fp.read())
    errs = [l for l in diags if ": error: " in l and
            "[cooling-air-limit]" in l]
    tab = doc.xpath('//section[@id="racks"]//table')
    heads = [th.text_content().strip()
             for th in tab[0].xpath("./thead/tr/th")]
    if "heat to air" not in heads or "air headroom" not in heads:
        return ["racks: no column 'heat to air' or 'air headroom'"]
    ha, hr = heads.index("heat to air"), heads.index("air headroom")
    for tr in tab[0].xpath("./tbody/tr"):
        tds = tr.xpath("./td")
        name = tds[0].text_content()
        room = tds[hr].get("data-v")
        said = [re.search(r"puts (\S+) of heat into the air", l).group(1)
                for l in errs if "rack %s puts " % name in l]
        if said and (room is None or int(room) >= 0 or
                     said[0] != tds[ha].text_content()):
            bad.append("rack %s: cooling-air-limit says %s, the page %s "
                       "with air headroom %s"
                       % (name, said[0], tds[ha].text_content(), room))
        if room is not None and int(room) < 0 and not errs and \
                not waived:
            bad.append("rack %s: air headroom %s, but no "
                       "cooling-air-limit error" % (name, room))
    return bad


def html_report(path):
    """report.html's feeds and loops as report.json-like lists, and the
    problems found reading them."""
    p = Page()
    with open(path, "rb") as fp:
        doc = lxml.html.fromstring(fp.read())
    feeds = p.table(doc, "feeds", FEED_COLS)
    loops = p.table(doc, "loops", LOOP_COLS)
    return {"feeds": feeds or [], "loops": loops or []}, p.bad


def value(fig):
    return fig[0] if isinstance(fig, tuple) else fig


def lower_bound(w, key):
    """A figure report.json gives as null with an unknown term: its
    "at_least" lower bound, or for a headroom the capacity less the lower
    bound of the load it is left from (an upper bound)."""
    if key in w.get("at_least", {}):
        return w["at_least"][key]
    load, cap = {"headroom_w": ("load_w" if "load_w" in w else "heat_w",
                                "capacity_w"),
                 "headroom_after_loss_w": ("load_after_loss_w",
                                           "capacity_w"),
                 "flow_headroom_ml_per_min": ("flow_ml_per_min",
                                              "max_flow_ml_per_min")
                 }.get(key, (None, None))
    if load and load in w.get("at_least", {}) and \
            w.get(cap) is not None:
        return w[cap] - w["at_least"][load]
    return None


def compare(page, rep):
    """Disagreements between the page's figures and report.json's."""
    bad = []
    for sec, cols in (("feeds", FEED_COLS), ("loops", LOOP_COLS)):
        got, want = page[sec], rep.get(sec, [])
        if [r.get("name") for r in got] != [r["name"] for r in want]:
            bad.append("%s: %r in the page, %r in report.json"
                       % (sec, [r.get("name") for r in got],
                          [r["name"] for r in want]))
            continue
        for g, w in zip(got, want):
            unknown = w.get("unknown", [])
            for key, kind in cols.values():
                if key not in g:
                    continue  # no column: reported already
                exp = w.get(key)
                if kind == "count":
                    exp = len(exp or [])
                if key in unknown:
                    exp = lower_bound(w, key)

                if value(g[key]) != exp:
                    bad.append("%s %s %s: %r in the page, %r in report.json"
                               % (sec, w["name"], key, value(g[key]), exp))
            for key, kind in cols.values():
                if kind != "power" or key not in g or g[key][0] is None:
                    continue
                basis = g[key][1]
                if key in unknown:
                    # a load or heat with an unknown term is a lower
                    # bound, a headroom left from it an upper bound
                    want_b = "upper-bound" if "headroom" in key \
                        else "lower-bound"
                elif sec == "feeds" and key != "load_w" and \
                        key != "load_after_loss_w":
                    want_b = "exact" if w["capacity_exact"] \
                        else "lower-bound"
                else:
                    want_b = "exact"
                if basis != want_b:
                    bad.append("%s %s %s: labelled %s, report.json says %s"
                               % (sec, w["name"], key, basis, want_b))
    return bad


def main():
    page, bad = html_report(sys.argv[1])
    with open(sys.argv[2]) as fp:
        rep = json.load(fp, parse_float=Decimal)
    bad += compare(page, rep)
    if len(sys.argv) > 3:
        with open(sys.argv[3]) as fp:
            bad += air_headrooms(sys.argv[1], fp.readlines(),
                                 sys.argv[4:] == ["waived"])
    for b in bad:
        print(b)
    if not bad:
        print("%d feeds, %d loops" % (len(page["feeds"]), len(page["loops"])))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
