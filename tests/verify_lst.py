"""ibnetdiscover topology output -> ibdiagnet.lst, as ibdiagnet 1.5.7
writes it (writeLstFile and lstInfo in ibutils' ibdebug.tcl): a line per
link, "{ TYPE Ports:NN SystemGUID:G NodeGUID:G PortGUID:G VenID:00VVVVVV
DevID:DDDD Rev:RRRRRRRR {NodeDesc} LID:LLLL PN:NN }" for each end (hex
fields, upper case but the GUIDs), then "PHY=4x LOG=ACT SPD=S", where S is
2.5, 5 or 10 and empty for a speed 1.5.7 does not name (HDR here).

    verify_lst.py NET > ibdiagnet.lst
"""
import re
import sys

nodes, links, seen = {}, [], set()
me = None
for line in open(sys.argv[1]):
    m = re.match(r'^(Switch|Ca)\s+(\d+)\s+"([^"]+)"\s*#\s*"([^"]*)"', line)
    if m:
        me = m.group(3)
        nodes[me] = ("SW" if m.group(1) == "Switch" else "CA", int(m.group(2)), m.group(4))
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\](?:\((\w+)\))?.*?(\d+)x(\w+)\s*$', line)
    if m and me:
        a, b = (me, int(m.group(1))), (m.group(2), int(m.group(3)))
        key = tuple(sorted((a, b)))
        if key not in seen:
            seen.add(key)
            links.append((a, b, m.group(5)))
def rec(e):
    t, n, d = nodes[e[0]]
    g = e[0][2:].lower()
    return ("{ %s Ports:%02X SystemGUID:%s NodeGUID:%s PortGUID:%s VenID:00000000 "
            "DevID:0000 Rev:00000000 {%s} LID:0000 PN:%02X }") % (t, n, g, g, g, d, e[1])
for a, b, w in links:
    print("%s %s PHY=%sx LOG=ACT SPD=" % (rec(a), rec(b), w))
