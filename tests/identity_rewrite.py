#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rewrite an example design without changing its physical meaning.

    identity_rewrite.py REWRITE IN OUT

REWRITE names one of the rewrites below: each reorders declarations,
declares a new row before an old one or permutes a list, so that every
device, rack and cable stands where it stood.  A rewrite that finds
nothing to change in IN exits 2, so that a test cannot pass on a design
that no longer has what it rewrites."""

import sys


class NotFound(Exception):
    pass


def block(text, head, nth=0):
    """(start, end) of the block opened by the NTH line (from 0) that
    starts with HEAD (after indentation) through its closing brace and
    newline, its comment lines just above included."""
    lines = text.split("\n")
    pos = 0
    for i, line in enumerate(lines):
        if line.strip().startswith(head) and line.rstrip().endswith("{"):
            if nth:
                nth -= 1
                pos += len(line) + 1
                continue
            start = pos
            j = i
            while j > 0 and lines[j - 1].strip().startswith("#"):
                j -= 1
                start -= len(lines[j]) + 1
            depth = 0
            end = pos
            for k in range(i, len(lines)):
                depth += lines[k].count("{") - lines[k].count("}")
                end += len(lines[k]) + 1
                if depth == 0:
                    return start, end
            raise NotFound("unclosed " + head)
        pos += len(line) + 1
    raise NotFound(head)


def swap(text, head1, head2, nth1=0):
    """Swap the blocks HEAD1 (its NTH1 one) and HEAD2 (HEAD1 first in
    TEXT)."""
    a0, a1 = block(text, head1, nth1)
    b0, b1 = block(text, head2)
    if not a1 <= b0:
        raise NotFound(head1 + " after " + head2)
    return text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]


def replace(text, old, new):
    if old not in text:
        raise NotFound(old)
    return text.replace(old, new, 1)


def move_line_before(text, line, head):
    """Move the line that holds LINE to just before the line starting with
    HEAD (after indentation)."""
    lines = text.split("\n")
    i = next((k for k, x in enumerate(lines) if line in x), None)
    if i is None:
        raise NotFound(line)
    moved = lines.pop(i)
    j = next((k for k, x in enumerate(lines) if x.strip().startswith(head)),
             None)
    if j is None:
        raise NotFound(head)
    lines.insert(j, moved)
    return "\n".join(lines)


def mixed_hall_rows(t):
    # the two rows (and the two fabrics) declared the other way round
    t = swap(t, "row h {", "row g {")
    return swap(t, "fabric h100_ib", "fabric gb200_ib")


def b200_su_rows(t):
    return swap(t, "row r[1] {", "row r[2] {")


def h100_su_new_row(t):
    # a row declared before the old one, with a rack of its own
    return replace(t, "\trow r1 {\n",
                   "\trow spare {\n\t\tx 0m\n\t\ty 6m\n\t\tpitch 600mm\n"
                   "\t\track k[1] : su_rack { air crah }\n\t}\n"
                   "\trow r1 {\n")


def h100_su_order(t):
    # the feeds, the network rack (its slot given), the switches and the
    # link statements in another order
    t = replace(t, "\tfeed A { voltage 415V; current 800A; phases 3 }\n"
                "\tfeed B { voltage 415V; current 800A; phases 3 }\n",
                "\tfeed B { voltage 415V; current 800A; phases 3 }\n"
                "\tfeed A { voltage 415V; current 800A; phases 3 }\n")
    t = move_line_before(t, "rack net : su_rack", "for k in 1..RACKS {")
    t = swap(t, "for i in 0..RAILS - 1 {", "for s in 0..SPINES - 1 {")
    # the rails (the second loop over the nodes) after the up-links
    return swap(t, "for n in 0..NODES - 1 {", "for l in 0..RAILS - 1 {", 1)


def gb300_lists(t):
    # a list in the other order, and the two racks (slots given) swapped
    t = replace(t, "cdu dc.r.cdu[0], dc.r.cdu[1]", "cdu dc.r.cdu[1], dc.r.cdu[0]")
    return move_line_before(t, "rack net : net_rack", "rack nvl72 :")


def mi300x_rack_order(t):
    # the network rack declared before the compute racks (no slot given:
    # each stands by its name)
    return move_line_before(t, "rack net : mi_rack", "rack cr[0 .. RACKS - 1]")


def gb200_row_list_split(t):
    # the list of NVL72 racks in two, the network racks between the halves
    t = replace(t, "\t\track nvl72[0 .. RACKS - 1] : gb200_nvl72 "
                "{ air crah; loop tcs }\n",
                "\t\track nvl72[0..1] : gb200_nvl72 { air crah; loop tcs }\n")
    return replace(t, "\t\t}\n\t}\n}\n",
                   "\t\t}\n\t\track nvl72[2 .. RACKS - 1] : gb200_nvl72 "
                   "{ air crah; loop tcs }\n\t}\n}\n")


def mi355x_unit_first(t):
    # the in-row CDUs (their slots given) declared before the racks
    a0, a1 = block(t, "for c in 0..1 {")
    cdus = t[a0:a1]
    t = t[:a0] + t[a1:]
    return replace(t, "\t\track cr[0 .. RACKS - 1]",
                   cdus + "\t\track cr[0 .. RACKS - 1]")


REWRITES = {
    "mixed-hall-rows": mixed_hall_rows,
    "b200-su-rows": b200_su_rows,
    "h100-su-new-row": h100_su_new_row,
    "h100-su-order": h100_su_order,
    "gb300-lists": gb300_lists,
    "mi300x-rack-order": mi300x_rack_order,
    "gb200-row-list-split": gb200_row_list_split,
    "mi355x-unit-first": mi355x_unit_first,
}


def main():
    name, src, dst = sys.argv[1:4]
    with open(src, encoding="utf-8") as f:
        text = f.read()
    try:
        out = REWRITES[name](text)
    except NotFound as e:
        print("identity_rewrite: %s: not found in %s: %s" % (name, src, e),
              file=sys.stderr)
        return 2
    if out == text:
        print("identity_rewrite: %s changed nothing" % name, file=sys.stderr)
        return 2
    with open(dst, "w", encoding="utf-8") as f:
        f.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
