#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Catalog completeness: the figures each part class must carry.

Usage: catalog_complete.py PARTS.json GAPS.txt

PARTS.json is `rackc parts --format=json` (every part of the standard
library, inheritance resolved by rackc).  For every part that no other part
derives from (a family base such as `bluefield3` is checked through the parts
that derive from it), every figure REQUIRED names for its class must be:

  * set (on the part or a base); or
  * marked unknown in the part: `unknown "FIGURE: reason"` (the reason says
    why no source gives it; rackc leaves the figure unset, never zero); or
  * listed in GAPS.txt ("PART FIGURE"), the known gaps that are another
    change's to fill.  That list must only shrink: an entry whose figure is
    now set or marked unknown fails too, so that it is removed.

An `unknown` mark must name a figure (an attribute, or `faceplate`) that is
not set, and give a reason.  Output: one PASS/FAIL line a part, tab-separated
(py_results in tests/lib.sh), naming the part and each missing figure.
"""

import json
import sys

# The definition.  Attribute names are those of src/ir/schema_attrs.def.
# "faceplate" means: every port of the part has a faceplate name.
# "ports" means: the part has at least one port, and "port_speed" that
# every port has a speed.  "rating" is `capacity`, or `voltage` and
# `current`.  "outlets" is `outlets_c13` or `outlets_c19`.  A part
# class not listed here has no required figures.
CHASSIS = ["height", "depth", "weight", "power_max", "power_typ", "psus",
           "psu_rating", "inlet", "part_number", "faceplate"]
REQUIRED = {
    "server": CHASSIS,
    "switch": CHASSIS,
    "gpu": ["hbm", "hbm_bw", "flops_fp64", "flops_tf32", "flops_bf16",
            "flops_fp8", "nvlinks", "nvlink_bw", "pcie_gen", "pcie_width"],
    "nic": ["ports", "port_speed", "pcie_gen", "pcie_width"],
    "cdu": ["capacity", "max_flow"],
    "pdu": ["rating", "phases", "outlets"],
    "cable": ["reach", "lengths", "part_numbers"],
    "transceiver": ["reach", "part_number"],
    "rack": ["height", "width", "depth", "max_load"],
}
# figures with a FLOP/s precision that only some generations have:
# FP4 from Blackwell (compute capability 10.0) on
FP4_FROM_SM = 100


def present(part, fig):
    f = part["figures"]
    ports = part["port_list"]
    if fig == "faceplate":
        return all(p["faceplate"] for p in ports)
    if fig == "ports":
        return len(ports) > 0
    if fig == "port_speed":
        return len(ports) > 0 and all(p["speed"] for p in ports)
    if fig == "rating":
        return "capacity" in f or ("voltage" in f and "current" in f)
    if fig == "outlets":
        return "outlets_c13" in f or "outlets_c19" in f
    if fig == "part_numbers":
        return ("part_numbers" in f and "lengths" in f and
                len(f["part_numbers"].split(", ")) ==
                len(f["lengths"].split(", ")))
    return fig in f


def required(part):
    req = list(REQUIRED.get(part["class"], []))
    if part["class"] == "gpu":
        sm = part["figures"].get("sm")
        if sm is not None and int(sm) >= FP4_FROM_SM:
            req.append("flops_fp4")
    return req


def main():
    parts = json.load(open(sys.argv[1]))
    gaps = set()
    for line in open(sys.argv[2]):
        line = line.split("#", 1)[0].split()
        if line:
            gaps.add((line[0], line[1]))
    bases = {p["base"] for p in parts if p["base"]}
    names = {p["name"] for p in parts}
    used_gaps = set()
    for part in parts:
        name = part["name"]
        problems = []
        unknown = {}
        for u in part["unknown"]:
            fig, _, why = u.partition(":")
            fig = fig.strip()
            if not why.strip():
                problems.append("unknown '%s' gives no reason" % u)
            elif present(part, fig) and fig not in ("faceplate",):
                problems.append("%s is marked unknown but is set" % fig)
            unknown[fig] = why.strip()
        if name not in bases:
            for fig in required(part):
                if present(part, fig) or fig in unknown:
                    if (name, fig) in gaps:
                        problems.append("%s is in the gap list but is now "
                                        "%s: remove it from the list"
                                        % (fig, "set" if present(part, fig)
                                           else "marked unknown"))
                        used_gaps.add((name, fig))
                    continue
                if (name, fig) in gaps:
                    used_gaps.add((name, fig))
                    continue
                problems.append("lacks %s" % fig)
        where = "%s:%s" % (part["file"], part["line"])
        if problems:
            print("FAIL\tcomplete/%s\t%s: part '%s' (%s): %s"
                  % (name, where, name, part["class"], "; ".join(problems)))
        else:
            print("PASS\tcomplete/%s\t" % name)
    for (name, fig) in sorted(gaps - used_gaps):
        why = ("no such part" if name not in names
               else "not a required figure of the part")
        print("FAIL\tgaps/%s/%s\tgap list entry '%s %s': %s"
              % (name, fig, name, fig, why))


if __name__ == "__main__":
    main()
