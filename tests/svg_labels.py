# SPDX-License-Identifier: MIT
"""Labels of the elevations and floor plans, measured from the SVG.

    python3 svg_labels.py DIR...

Each DIR holds what `rackc -O elevations,floor` wrote.  Text extents are
measured with the advance widths of DejaVu Sans (fontTools), Debian's
default sans-serif and wider than the other common sans-serif faces
(Liberation Sans, Arial, Helvetica), so a label that fits in DejaVu Sans
fits in those: a text's box runs from its anchor over the sum of its
glyphs' advances (font-size / units per em each) and from the baseline up
by the font's ascent and down by its descent.  Prints one line per case,
"PASS<TAB>name<TAB>detail" or "FAIL<TAB>name<TAB>detail":

  - elevations: every device label (the <text> in a device's <g>) starts
    with the device's name relative to its rack, whole -- the full name is
    the <title>'s first word -- so no index is cut off; and the label lies
    within the device's rectangle;
  - floor plans: no two labels (row names and rack names) intersect, and
    each rack's name lies within the rack's rectangle.
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET

from fontTools.ttLib import TTFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
NS = "{http://www.w3.org/2000/svg}"

font = TTFont(FONT)
cmap = font.getBestCmap()
hmtx = font["hmtx"]
upem = font["head"].unitsPerEm
ascent = font["hhea"].ascent / upem
descent = -font["hhea"].descent / upem
notdef = hmtx["uni0000" if "uni0000" in hmtx.metrics else ".notdef"][0]


def say(ok, name, detail=""):
    print("PASS" if ok else "FAIL", name, detail, sep="\t")


def advance(text, size):
    """width of @text at font-size @size, px"""
    w = 0
    for ch in text:
        g = cmap.get(ord(ch))
        w += hmtx[g][0] if g else notdef
    return w * size / upem


def text_of(el):
    return "".join(el.itertext())


def box(el, inherited_size=None):
    """(x0, y0, x1, y1) of a <text>, px"""
    size = float(el.get("font-size") or inherited_size or 16)
    w = 0.0
    # a tspan may change the size of its part
    w += advance(el.text or "", size)
    for sub in el:
        s = float(sub.get("font-size") or size)
        w += advance(sub.text or "", s) + advance(sub.tail or "", size)
    x, y = float(el.get("x")), float(el.get("y"))
    anchor = el.get("text-anchor", "start")
    x0 = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    return (x0, y - ascent * size, x0 + w, y + descent * size)


def rect(el):
    x, y = float(el.get("x")), float(el.get("y"))
    return (x, y, x + float(el.get("width")), y + float(el.get("height")))


def within_x(b, r, slack=0.5):
    return b[0] >= r[0] - slack and b[2] <= r[2] + slack


def intersect(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def elevations(path, name):
    cut, wide, n = [], [], 0
    root = ET.parse(path).getroot()
    for g in root.iter(NS + "g"):
        r, t, title = g.find(NS + "rect"), g.find(NS + "text"), \
            g.find(NS + "title")
        if r is None or t is None or title is None:
            continue
        n += 1
        full = title.text.split(" ")[0]
        label = text_of(t).split(" \u00b7 ")[0]
        # the label is the name below the rack: a suffix of the full name
        # at a dot, whole
        if not (full == label or full.endswith("." + label)):
            cut.append("%s as %r" % (full, label))
        b, rb = box(t), rect(r)
        if not within_x(b, rb):
            wide.append("%s: %.1f px in %.1f" % (full, b[2] - b[0],
                                                 rb[2] - rb[0]))
    say(not cut, name + ": device names whole", "; ".join(cut[:4]) or
        "%d labels" % n)
    say(not wide, name + ": labels within their devices", "; ".join(wide[:4]))


def floor(path, name):
    root = ET.parse(path).getroot()
    labels, wide = [], []
    for el in root:
        if el.tag == NS + "text" and el.get("text-anchor") == "end":
            labels.append(("row " + text_of(el), box(el)))
        if el.tag != NS + "g":
            continue
        r, title = el.find(NS + "rect"), el.find(NS + "title")
        if r is None or title is None:
            continue
        for t in el.findall(NS + "text"):
            if text_of(t) == "?":
                continue
            b = box(t)
            labels.append((title.text.split(":")[0], b))
            if not within_x(b, rect(r)):
                wide.append("%s: %.1f px in %.1f" % (
                    title.text.split(":")[0], b[2] - b[0],
                    rect(r)[2] - rect(r)[0]))
    # sweep along x: the boxes sorted by their left edge
    labels.sort(key=lambda lb: lb[1][0])
    hits = []
    for i, (na, a) in enumerate(labels):
        for nb, b in labels[i + 1:]:
            if b[0] >= a[2]:
                break
            if intersect(a, b):
                hits.append("%s / %s" % (na, nb))
    say(not hits, name + ": labels do not overlap",
        "; ".join(hits[:4]) or "%d labels" % len(labels))
    say(not wide, name + ": rack names within their racks",
        "; ".join(wide[:4]))


for d in sys.argv[1:]:
    base = os.path.basename(d.rstrip("/"))
    for p in sorted(glob.glob(d + "/elevations/*.svg")):
        elevations(p, base + "/" + os.path.basename(p))
    for p in sorted(glob.glob(d + "/floor/*.svg")):
        floor(p, base + "/" + os.path.basename(p))
