#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ibnetdiscover topology output -> ibdiagnet2.db_csv, with the sections
and columns public readers of the file name (NVIDIA's UFM SDK,
plugins/UFM_NDT_Plugin/ndt_file_creator.py: sections START_NAME ..
END_NAME with a header line each, NODES' NodeDesc, NodeGUID and NodeType
(1 CA, 2 switch), LINKS' NodeGuid1, PortNum1, NodeGuid2, PortNum2;
CrackedPoly/Rapimt, crates/rapimt_io/src/ib/db_csv_parser/csv_parser.rs:
the full NODES, PORTS and LINKS headers).  PORTS' LinkWidthActv is the
PortInfo LinkWidthActive code of the width ibnetdiscover reports (1x 1,
4x 2, 8x 4, 12x 8, 2x 16); a SWITCHES section stands for the sections a
reader skips.  Each link is listed once.

    verify_dbcsv.py TOPOLOGY > ibdiagnet2.db_csv
"""
import re
import sys

NODES = ("NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,"
         "SystemImageGUID,NodeGUID,PortGUID,DeviceID,PartitionCap,revision,"
         "VendorID,LocalPortNum")
PORTS = ("NodeGuid,PortGuid,PortNum,MKey,GIDPrfx,MSMLID,LID,CapMsk,"
         "M_KeyLeasePeriod,DiagCode,LinkWidthActv,LinkWidthSup,LinkWidthEn,"
         "LocalPortNum,LinkSpeedEn,LinkSpeedActv,LMC,MKeyProtBits,"
         "LinkDownDefState,PortPhyState,PortState,LinkSpeedSup")
LINKS = "NodeGuid1,PortNum1,NodeGuid2,PortNum2"
WIDTH = {1: 1, 4: 2, 8: 4, 12: 8, 2: 16}

nodes, links, seen, ports = {}, [], set(), {}
me = None
for line in open(sys.argv[1]):
    m = re.match(r'^(Switch|Ca)\s+(\d+)\s+"([^"]+)"\s*#\s*"([^"]*)"', line)
    if m:
        me = m.group(3)
        nodes[me] = (2 if m.group(1) == "Switch" else 1, int(m.group(2)),
                     m.group(4))
        continue
    m = re.match(r'^\[(\d+)\]\s+"([^"]+)"\[(\d+)\].*?(\d+)x(\w+)\s*$', line)
    if m and me:
        a, b = (me, int(m.group(1))), (m.group(2), int(m.group(3)))
        w = WIDTH[int(m.group(4))]
        ports[a] = w
        key = tuple(sorted((a, b)))
        if key not in seen:
            seen.add(key)
            links.append((a, b))


def guid(node_id):
    return "0x" + node_id.split("-", 1)[1].lower()


print("# ibdiagnet2.db_csv made by tests/verify_dbcsv.py\n")
print("START_NODES")
print(NODES)
for n, (t, np, d) in nodes.items():
    print('"%s",%d,%d,1,1,%s,%s,%s,0,0,0,0,0' %
          (d, np, t, guid(n), guid(n), guid(n)))
print("END_NODES\n")
print("START_SWITCHES")
print("NodeGUID,LinearFDBCap")
for n, (t, _, _) in nodes.items():
    if t == 2:
        print("%s,49152" % guid(n))
print("END_SWITCHES\n")
print("START_PORTS")
print(PORTS)
for (n, p), w in sorted(ports.items()):
    print("%s,%s,%d,0,0,0,0,0,0,0,%d,3,3,%d,0,0,0,0,2,5,4,0" %
          (guid(n), guid(n), p, w, p))
print("END_PORTS\n")
print("START_LINKS")
print(LINKS)
for a, b in links:
    print("%s,%d,%s,%d" % (guid(a[0]), a[1], guid(b[0]), b[1]))
print("END_LINKS")
