#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The power of a std GB200 NVL72 rack, worked out from the catalog source.

    nvl72_power.py STD                  prints the rack's maximum power in W
    nvl72_power.py STD REPORT.json      checks every NVL72 rack of a report

The rack holds 18 compute trays (dgx_gb200_tray) and 9 NVLink switch trays
(nvlink_switch_tray), all on the bus bar of its 8 power shelves, 4 per feed
(std/nvidia.rack).  The figures are the parts' `power_max` lines as
written in STD/nvidia.rack, read here without rackc.  With a report, prints
"PASS<TAB>case<TAB>detail" or "FAIL<TAB>..." lines:

  rack-power     every rack named *nvl72* draws 18 x tray + 9 x switch tray
  switch-trays   the switch trays' share is not zero (they are powered)
  shelf-loss     with one feed lost, the 4 shelves left carry the rack
                 within their capacity (the shelf part's `capacity`)
"""
import json
import re
import sys
from decimal import Decimal

UNIT = {"W": 1, "kW": 1000, "MW": 1000000}


def fmt(d):
    """A decimal without trailing zeros or exponent."""
    return f"{d:f}".rstrip("0").rstrip(".") if "." in f"{d:f}" else f"{d:f}"


def attr(src, part, name):
    body = src[src.index(f"part {part} :"):]
    body = body[:body.index("\n}")]
    m = re.search(rf"\n\s*{name} (\d+(?:\.\d+)?)(kW|MW|W)\b", body)
    return Decimal(m.group(1)) * UNIT[m.group(2)]


def main():
    src = open(sys.argv[1] + "/nvidia.rack", encoding="utf-8").read()
    tray = attr(src, "dgx_gb200_tray", "power_max")
    sw = attr(src, "nvlink_switch_tray", "power_max")
    shelf = attr(src, "nvl72_power_shelf", "capacity")
    rack = 18 * tray + 9 * sw
    if len(sys.argv) == 2:
        print(fmt(rack))
        return
    rep = json.load(open(sys.argv[2]), parse_float=Decimal)
    racks = [r for r in rep["racks"] if "nvl72" in r["name"]]
    bad = [f"{r['name']}: {r['power_max_w']} W, expected {fmt(rack)}"
           for r in racks if Decimal(r["power_max_w"]) != rack]
    if not racks:
        bad.append("no NVL72 rack in the report")
    print(f"{'FAIL' if bad else 'PASS'}\track-power\t"
          f"{bad[0] if bad else f'{len(racks)} racks at 18 x {fmt(tray)} W + 9 x {fmt(sw)} W = {fmt(rack)} W'}")
    print(f"{'PASS' if sw > 0 else 'FAIL'}\tswitch-trays\t9 x {fmt(sw)} W")
    print(f"{'PASS' if rack / 4 <= shelf else 'FAIL'}\tshelf-loss\t"
          f"{fmt(rack)} W / 4 shelves = {fmt(rack / 4)} W <= {fmt(shelf)} W")


main()
